//! Triton builtins that count or pick elements by value or index:
//! `tl.histogram`, `tl.gather`, `tl.sort` and `tl.topk`, built from existing
//! tile IR (broadcast comparisons, reductions, bit patterns).
//!
//! - `histogram(x, num_bins, mask=None)`: int32 counts of the 1-D integer
//!   `x`'s values 0..num_bins; values outside that range (and masked-off
//!   ones) are not counted (Triton 3.9's `test_histogram_out_of_range`).
//! - `gather(src, index, axis)`: `out[.., i, ..] = src[.., index[.., i, ..], ..]`
//!   along `axis`; `index` has `src`'s rank and its size on every other axis.
//!   Each output element is the XOR of the bit patterns of the one source
//!   element its index selects and zeros, so values are moved bit for bit.
//!   An index outside the axis is undefined in Triton; ksem gives 0 there
//!   and does not report it yet.
//! - `sort(x, dim=None, descending=False)` along the last axis (Triton's
//!   only one): each element's rank is the number of elements ordered before
//!   it, ties in index order (a stable sort; `-0.0` and `0.0` are equal), NaN
//!   after every number (before, descending), then every element is placed at
//!   its rank bit for bit. `topk(x, k, dim=None, descending=True)` is the
//!   first `k` of that order.

use super::builtins::{const_int, normalize_axis, Bound, Signatures, CONVERT};
use super::elab::{err, Elab};
use super::value::Value;
use crate::dtype::DType;
use crate::ir::build::{bin, konst, select};
use crate::ir::*;
use crate::span::{DResult, Span};

/// The builtins of this module (without `tl.`), each with its Python
/// signature (see [`super::builtins::bind`]).
pub const BUILTINS: Signatures = &[
    ("histogram", "input, num_bins, mask"),
    ("gather", "src, index, axis"),
    ("sort", "x, dim, descending"),
    ("topk", "x, k, dim, descending"),
];

impl Elab<'_> {
    /// Elaborates `tl.<name>(…)`, one of [`BUILTINS`].
    pub(super) fn index_builtin(&mut self, name: &str, b: Bound, span: Span) -> DResult<Value> {
        let out = match name {
            "histogram" => {
                let x = self.to_tensor(b.req("input", span)?, span)?;
                let bins = const_int(&b.req("num_bins", span)?, "num_bins", span)?;
                let mask = match b.opt("mask") {
                    None | Some(Value::None) => None,
                    Some(m) => Some(self.to_tensor(m, span)?),
                };
                self.histogram(x, bins, mask, span)?
            }
            "gather" => {
                let src = self.to_tensor(b.req("src", span)?, span)?;
                let index = self.to_tensor(b.req("index", span)?, span)?;
                let axis = const_int(&b.req("axis", span)?, "axis", span)?;
                self.gather(src, index, axis, span)?
            }
            _ => {
                let is_topk = name == "topk";
                let x = self.to_tensor(b.req("x", span)?, span)?;
                let rank = x.ty.shape.len();
                if rank == 0 {
                    return err(span, format!("tl.{name} needs a tensor, got a scalar"));
                }
                if let Some(d) = b.opt("dim").filter(|d| *d != Value::None) {
                    let d = normalize_axis(const_int(&d, "dim", span)?, rank, span)?;
                    if d != rank - 1 {
                        return err(
                            span,
                            format!("tl.{name} sorts along the last dimension only, got dim {d}"),
                        );
                    }
                }
                let descending = match b.opt("descending") {
                    None => is_topk,
                    Some(v) => super::value::truthy(&v).ok_or_else(|| {
                        crate::span::Diagnostic::new(span, "`descending` must be a constexpr")
                    })?,
                };
                let n = x.ty.shape[rank - 1];
                let k = if is_topk {
                    let k = const_int(&b.req("k", span)?, "k", span)?;
                    match usize::try_from(k) {
                        Ok(k) if k >= 1 && k <= n && k.is_power_of_two() => k,
                        _ => {
                            return err(
                                span,
                                format!("tl.topk needs a power-of-two k in 1..={n}, got {k}"),
                            )
                        }
                    }
                } else {
                    n
                };
                self.sort(x, descending, k, span)?
            }
        };
        Ok(Value::Tensor(out))
    }

    /// An int32 iota of size `n` along `axis` of `shape` (broadcast).
    fn iota_along(&self, n: usize, axis: usize, shape: &[usize], span: Span) -> DResult<Expr> {
        let iota = Expr {
            kind: ExprKind::Iota(0, n as i64),
            ty: Type::num(DType::I32, vec![n]),
            span,
        };
        let mut ones = vec![1; shape.len()];
        ones[axis] = n;
        let iota = self.reshape(iota, ones, span);
        self.broadcast_to(iota, shape, span)
    }

    /// `e` with a size-1 axis inserted at `at`, broadcast to `shape`.
    fn spread(&self, e: Expr, at: usize, shape: &[usize], span: Span) -> DResult<Expr> {
        let mut s = e.ty.shape.clone();
        s.insert(at, 1);
        let e = self.reshape(e, s, span);
        self.broadcast_to(e, shape, span)
    }

    fn reduce_axis(&self, arg: Expr, axis: usize, combiner: Combiner, span: Span) -> Expr {
        let mut shape = arg.ty.shape.clone();
        shape.remove(axis);
        let ty = Type::num(arg.ty.dtype(), shape);
        Expr {
            kind: ExprKind::Reduce {
                arg: Box::new(arg),
                axis: Some(axis),
                keep_dims: false,
                combiner: Box::new(combiner),
            },
            ty,
            span,
        }
    }

    fn histogram(&mut self, x: Expr, bins: i128, mask: Option<Expr>, span: Span) -> DResult<Expr> {
        if x.ty.shape.len() != 1 || !x.ty.dtype().is_int() || x.ty.dtype() == DType::Bool {
            return err(
                span,
                format!("tl.histogram takes a 1-D integer tensor, got {}", x.ty),
            );
        }
        let nb = match usize::try_from(bins) {
            Ok(b) if b >= 1 && b.is_power_of_two() => b,
            _ => {
                return err(
                    span,
                    format!("tl.histogram needs a power-of-two num_bins, got {bins}"),
                )
            }
        };
        let m = x.ty.shape[0];
        let shape = [m, nb];
        let x64 = self.cast(x, DType::I64, CONVERT);
        let xs = self.spread(x64, 1, &shape, span)?;
        let b = self.iota_along(nb, 1, &shape, span)?;
        let b64 = self.cast(b, DType::I64, CONVERT);
        let mut hit = bin(BinOp::Eq, xs, b64, span);
        if let Some(mk) = mask {
            let mk = self.broadcast_to(mk, &[m], span)?;
            let mk = self.cast(mk, DType::Bool, CONVERT);
            let mk = self.spread(mk, 1, &shape, span)?;
            hit = bin(BinOp::LogicalAnd, hit, mk, span);
        }
        let ones = self.cast(hit, DType::I32, CONVERT);
        Ok(self.reduce_axis(ones, 0, Combiner::Sum, span))
    }

    /// The unsigned integer of `d`'s width, for moving values as bits.
    fn bits_dtype(d: DType, what: &str, span: Span) -> DResult<DType> {
        Ok(match d.bits() {
            8 => DType::U8,
            16 => DType::U16,
            32 => DType::U32,
            64 => DType::U64,
            _ => {
                return err(
                    span,
                    format!(
                        "{what} of {} elements is not supported by ksem",
                        d.json_name()
                    ),
                )
            }
        })
    }

    /// `e`'s bit patterns (bool as 0/1 bytes).
    fn bits_of(&self, e: Expr, what: &str, span: Span) -> DResult<Expr> {
        let d = e.ty.dtype();
        if d == DType::Bool {
            return Ok(self.cast(e, DType::U8, CONVERT));
        }
        let u = Self::bits_dtype(d, what, span)?;
        Ok(self.cast(e, u, CastKind::Bitcast))
    }

    /// Bit patterns back to values of `d`.
    fn values_of_bits(&self, e: Expr, d: DType, span: Span) -> Expr {
        if d == DType::Bool {
            let zero = self.broadcast_to(konst(DType::U8, 0, span), &e.ty.shape, span);
            return match zero {
                Ok(z) => bin(BinOp::Ne, e, z, span),
                Err(_) => e,
            };
        }
        self.cast(e, d, CastKind::Bitcast)
    }

    fn gather(&mut self, src: Expr, index: Expr, axis: i128, span: Span) -> DResult<Expr> {
        let rank = src.ty.shape.len();
        if src.ty.is_ptr() {
            return err(span, "tl.gather of pointers is not supported by ksem");
        }
        if rank == 0 || index.ty.shape.len() != rank {
            return err(
                span,
                format!(
                    "tl.gather needs src and index of one rank, got {} and {}",
                    src.ty, index.ty
                ),
            );
        }
        if !index.ty.dtype().is_int() || index.ty.dtype() == DType::Bool {
            return err(
                span,
                format!("tl.gather needs an integer index, got {}", index.ty),
            );
        }
        let a = normalize_axis(axis, rank, span)?;
        for d in 0..rank {
            if d != a && src.ty.shape[d] != index.ty.shape[d] {
                return err(
                    span,
                    format!(
                        "tl.gather: index {} and src {} differ on dimension {d}",
                        index.ty, src.ty
                    ),
                );
            }
        }
        let n = src.ty.shape[a];
        let d = src.ty.dtype();
        // [.., m, n, ..]: output position i along a, source position j along a+1
        let mut shape = index.ty.shape.clone();
        shape.insert(a + 1, n);
        let bits = self.bits_of(src, "tl.gather", span)?;
        let bits = self.spread(bits, a, &shape, span)?;
        let idx = self.cast(index, DType::I64, CONVERT);
        let idx = self.spread(idx, a + 1, &shape, span)?;
        let j = self.iota_along(n, a + 1, &shape, span)?;
        let j = self.cast(j, DType::I64, CONVERT);
        let hit = bin(BinOp::Eq, idx, j, span);
        let zero = self.broadcast_to(konst(bits.ty.dtype(), 0, span), &shape, span)?;
        let picked = select(hit, bits, zero, span);
        let out = self.reduce_axis(picked, a + 1, Combiner::Xor, span);
        Ok(self.values_of_bits(out, d, span))
    }

    /// `a` ordered before `b` by value: `<` with NaN after every number.
    fn before(&self, a: &Expr, b: &Expr, span: Span) -> Expr {
        let lt = bin(BinOp::Lt, a.clone(), b.clone(), span);
        if !a.ty.dtype().is_float() {
            return lt;
        }
        let a_num = bin(BinOp::Eq, a.clone(), a.clone(), span);
        let b_nan = bin(BinOp::Ne, b.clone(), b.clone(), span);
        bin(
            BinOp::LogicalOr,
            lt,
            bin(BinOp::LogicalAnd, a_num, b_nan, span),
            span,
        )
    }

    /// `a` and `b` tied: `==`, or both NaN.
    fn tied(&self, a: &Expr, b: &Expr, span: Span) -> Expr {
        let eq = bin(BinOp::Eq, a.clone(), b.clone(), span);
        if !a.ty.dtype().is_float() {
            return eq;
        }
        let a_nan = bin(BinOp::Ne, a.clone(), a.clone(), span);
        let b_nan = bin(BinOp::Ne, b.clone(), b.clone(), span);
        bin(
            BinOp::LogicalOr,
            eq,
            bin(BinOp::LogicalAnd, a_nan, b_nan, span),
            span,
        )
    }

    /// The first `k` elements of `x` sorted along its last axis.
    fn sort(&mut self, x: Expr, descending: bool, k: usize, span: Span) -> DResult<Expr> {
        if x.ty.is_ptr() || x.ty.dtype() == DType::Bool {
            return err(
                span,
                format!("tl.sort of {} is not supported by ksem", x.ty),
            );
        }
        let rank = x.ty.shape.len();
        let n = x.ty.shape[rank - 1];
        let d = x.ty.dtype();
        let x = self.bind("sort_x", x);
        // [.., n(i), n(j)]
        let mut pair = x.ty.shape.clone();
        pair.push(n);
        let xi = self.spread(x.clone(), rank, &pair, span)?;
        let xj = self.spread(x.clone(), rank - 1, &pair, span)?;
        let j_first = if descending {
            self.before(&xi, &xj, span)
        } else {
            self.before(&xj, &xi, span)
        };
        let ii = self.iota_along(n, rank - 1, &pair, span)?;
        let jj = self.iota_along(n, rank, &pair, span)?;
        let j_lower = bin(BinOp::Lt, jj, ii, span);
        let tie = bin(BinOp::LogicalAnd, self.tied(&xi, &xj, span), j_lower, span);
        let ahead = bin(BinOp::LogicalOr, j_first, tie, span);
        let ahead = self.cast(ahead, DType::I32, CONVERT);
        let rank_of = self.reduce_axis(ahead, rank, Combiner::Sum, span);
        let rank_of = self.bind("sort_rank", rank_of);
        // [.., n(i), k(r)]: element i lands at position r == rank(i)
        let mut place = x.ty.shape.clone();
        place.push(k);
        let r = self.iota_along(k, rank, &place, span)?;
        let at = self.spread(rank_of, rank, &place, span)?;
        let hit = bin(BinOp::Eq, at, r, span);
        let bits = self.bits_of(x, "tl.sort", span)?;
        let bits = self.spread(bits, rank, &place, span)?;
        let zero = self.broadcast_to(konst(bits.ty.dtype(), 0, span), &place, span)?;
        let picked = select(hit, bits, zero, span);
        let out = self.reduce_axis(picked, rank - 1, Combiner::Xor, span);
        Ok(self.values_of_bits(out, d, span))
    }
}
