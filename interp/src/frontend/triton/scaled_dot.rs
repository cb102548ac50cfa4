//! `tl.dot_scaled`: the product of two blocks in microscaling formats, as
//! Triton 3.9's interpreter computes it (`runtime/interpreter.py`
//! `create_dot_scaled`; the checks of `language/semantic.py` `dot_scaled`).
//! Built from existing tile IR: each operand is decoded to float32 (fp4
//! `e2m1` unpacked from two per byte, fp8 `e4m3`/`e5m2` converted, `fp16`/
//! `bf16` widened), multiplied by its e8m0 scale (2^(byte-127) per group of
//! 32 along K), and the float32 product (from zero, k ascending) is then
//! added to `acc` (`docs/semantics.md`, "`tl.dot_scaled`").

use super::builtins::{const_bool, Bound, Signatures};
use super::dot::dot_expr;
use super::elab::{check_tile_size, err, Elab};
use super::promote::PyNum;
use super::value::Value;
use crate::dtype::DType;
use crate::ir::build::{bin, int_const, konst, select};
use crate::ir::*;
use crate::span::{DResult, Span};

/// The builtins of this module (without `tl.`), each with its Python
/// signature (see [`super::builtins::bind`]).
pub const BUILTINS: Signatures = &[(
    "dot_scaled",
    "lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format, acc, fast_math, lhs_k_pack, \
     rhs_k_pack, out_dtype",
)];

/// The elements of one scale cover this many elements along K (e8m0 scales).
const GROUP: usize = 32;

/// The float32 bits of a quiet NaN, which an e8m0 scale of 255 decodes to.
const F32_NAN: u64 = 0x7fc0_0000;

/// An operand's element format, as `dot_scaled` names it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    E2m1,
    E4m3,
    E5m2,
    Bf16,
    Fp16,
}

impl Format {
    fn parse(v: &Value, what: &str, span: Span) -> DResult<Format> {
        // a constexpr "fp16"/"bf16" reaches the kernel as the dtype it names
        match v {
            Value::DType(DType::F16) => return Ok(Format::Fp16),
            Value::DType(DType::BF16) => return Ok(Format::Bf16),
            _ => {}
        }
        let Value::Str(s) = v else {
            return err(
                span,
                format!(
                    "tl.dot_scaled's {what} must be a string such as \"e2m1\", got {}",
                    v.describe()
                ),
            );
        };
        Ok(match s.as_str() {
            "e2m1" => Format::E2m1,
            "e4m3" => Format::E4m3,
            "e5m2" => Format::E5m2,
            "bf16" => Format::Bf16,
            "fp16" => Format::Fp16,
            _ => {
                return err(
                    span,
                    format!(
                        "Invalid float format: {s}. (tl.dot_scaled takes e2m1, e4m3, e5m2, bf16 or fp16)"
                    ),
                )
            }
        })
    }

    /// The dtype the operand's elements are read as, and the unsigned
    /// dtype of the same width that is bitcast to it (semantic.py
    /// `_bitcast_to_fp_type`); `None` for packed e2m1 (uint8 only).
    fn dtypes(self) -> Option<(DType, DType)> {
        match self {
            Format::E2m1 => None,
            Format::E4m3 => Some((DType::F8E4Nv, DType::U8)),
            Format::E5m2 => Some((DType::F8E5, DType::U8)),
            Format::Bf16 => Some((DType::BF16, DType::U16)),
            Format::Fp16 => Some((DType::F16, DType::U16)),
        }
    }
}

/// One operand as given: its tile, scale, format and packing side.
struct Operand {
    value: Expr,
    scale: Option<Expr>,
    format: Format,
    k_pack: bool,
    rhs: bool,
    /// Whether the product computes in bfloat16 (neither operand is fp16),
    /// which changes the decoding of scale byte 0.
    bf16: bool,
}

impl Elab<'_> {
    /// Elaborates `tl.dot_scaled(…)` ([`BUILTINS`]).
    pub(super) fn scaled_dot_builtin(
        &mut self,
        _name: &str,
        b: Bound,
        span: Span,
    ) -> DResult<Value> {
        if let Some(v) = b.opt("out_dtype") {
            if super::builtins::as_dtype(&v, span)? != DType::F32 {
                return err(
                    span,
                    "Only float32 is supported for out_dtype at the moment (tl.dot_scaled)",
                );
            }
        }
        let mut ops = Vec::with_capacity(2);
        for side in ["lhs", "rhs"] {
            let value = self.to_tensor(b.req(side, span)?, span)?;
            let scale_name = format!("{side}_scale");
            let scale = match b.opt(&scale_name) {
                Some(v) => Some(self.to_tensor(v, span)?),
                None => None,
            };
            let format = Format::parse(&b.req(&format!("{side}_format"), span)?, side, span)?;
            let k_pack = const_bool(b.get(&format!("{side}_k_pack")), true, span)?;
            if !k_pack && format != Format::E2m1 {
                return err(
                    span,
                    "only mxfp4 inputs can be packed along a dimension different than K (tl.dot_scaled)",
                );
            }
            ops.push(Operand {
                value,
                scale,
                format,
                k_pack,
                rhs: side == "rhs",
                bf16: true,
            });
        }
        // the interpreter's compute type: float16 where either operand is fp16
        let bf16 = !ops.iter().any(|o| o.format == Format::Fp16);
        for op in &mut ops {
            op.bf16 = bf16;
        }
        let (l, r) = (&ops[0].value, &ops[1].value);
        let (rl, rr) = (l.ty.shape.len(), r.ty.shape.len());
        if rl != rr || !(rl == 2 || rl == 3) || l.ty.is_ptr() || r.ty.is_ptr() {
            return err(
                span,
                format!(
                    "Both inputs must be either 2D or 3D tiles of numbers; (lhs: {} vs rhs: {}) (tl.dot_scaled)",
                    l.ty, r.ty
                ),
            );
        }
        let mut decoded = Vec::with_capacity(2);
        for op in ops {
            decoded.push(self.scaled_operand(op, span)?);
        }
        let rhs = decoded.pop().expect("two operands");
        let lhs = decoded.pop().expect("two operands");
        let (sa, sb) = (lhs.ty.shape.clone(), rhs.ty.shape.clone());
        let r = sa.len();
        if sa[r - 1] != sb[r - 2] || sa[..r - 2] != sb[..r - 2] {
            return err(
                span,
                format!(
                    "Reduction dimension should pack the same number of elements; \
                     (lhs: {sa:?} vs rhs: {sb:?} once unpacked) (tl.dot_scaled)"
                ),
            );
        }
        let mut c_shape = sa[..r - 1].to_vec();
        c_shape.push(sb[r - 1]);
        check_tile_size(&c_shape, span)?;
        let zero = zero_f32(self, &c_shape, span)?;
        let product = dot_expr(lhs, rhs, zero, DotPrecision::Ieee, span);
        let acc = match b.opt("acc") {
            Some(v) => {
                let acc = self.to_tensor(v, span)?;
                if acc.ty.shape != c_shape || acc.ty.elem != Elem::Num(DType::F32) {
                    return err(
                        span,
                        format!(
                            "expected accumulator of float32 and shape {c_shape:?}, got {} (tl.dot_scaled)",
                            acc.ty
                        ),
                    );
                }
                acc
            }
            None => zero_f32(self, &c_shape, span)?,
        };
        // the interpreter: np.matmul(lhs, rhs) + acc
        Ok(Value::Tensor(bin(BinOp::Add, product, acc, span)))
    }

    /// One operand decoded to float32 in its logical layout (`[…, M, K]`,
    /// or `[…, K, N]` for the rhs), its scale applied.
    fn scaled_operand(&mut self, op: Operand, span: Span) -> DResult<Expr> {
        let side = if op.rhs { "rhs" } else { "lhs" };
        let v = op.value;
        let value = match op.format.dtypes() {
            None => {
                if v.ty.dtype() != DType::U8 {
                    return err(
                        span,
                        format!(
                            "e2m1 format must be packed as uint8. Got {} ({side} of tl.dot_scaled)",
                            v.ty
                        ),
                    );
                }
                // the packed axis: K, or M (N) where k_pack is false
                let last = op.rhs != op.k_pack;
                self.unpack_e2m1(v, last, span)?
            }
            Some((fp, bits)) => {
                let d = v.ty.dtype();
                let v = if d == fp {
                    v
                } else if d == bits {
                    self.cast(v, fp, CastKind::Bitcast)
                } else {
                    return err(
                        span,
                        format!(
                            "Unexpected dtype for the {side}'s format: {} (tl.dot_scaled takes {fp} or {bits})",
                            v.ty
                        ),
                    );
                };
                self.cast(v, DType::F32, super::builtins::CONVERT)
            }
        };
        let Some(scale) = op.scale else {
            return Ok(value);
        };
        let scale = self.e8m0_scale(scale, &value.ty.shape, op.rhs, op.bf16, side, span)?;
        Ok(bin(BinOp::Mul, value, scale, span))
    }

    /// The float32 tile of fp4 values packed two per byte in `v`, the first
    /// in the low nibble, unpacked along the last axis (`last`) or the one
    /// before it.
    fn unpack_e2m1(&mut self, v: Expr, last: bool, span: Span) -> DResult<Expr> {
        let r = v.ty.shape.len();
        let mut swap: Vec<usize> = (0..r).collect();
        swap.swap(r - 1, r - 2);
        let v = if last {
            v
        } else {
            self.permute(v, &swap, span)
        };
        let shape = v.ty.shape.clone();
        let c =
            |this: &Self, x: i128| this.broadcast_to(int_const(DType::U8, x, span), &shape, span);
        let lo = bin(BinOp::And, v.clone(), c(self, 0xf)?, span);
        let hi = bin(
            BinOp::Shr(ShrKind::Logical, ShiftRange::Ub),
            v,
            c(self, 4)?,
            span,
        );
        let (lo, hi) = (self.e2m1_nibble(lo, span)?, self.e2m1_nibble(hi, span)?);
        let j = self.join(lo, hi, span)?;
        let mut out = shape;
        out[r - 1] *= 2;
        let u = self.reshape(j, out, span);
        Ok(if last {
            u
        } else {
            self.permute(u, &swap, span)
        })
    }

    /// The float32 value of each fp4 e2m1 nibble of `n` (uint8 0..15):
    /// sign, 2 exponent bits (bias 1), 1 mantissa bit; 0b001 is 0.5.
    fn e2m1_nibble(&mut self, n: Expr, span: Span) -> DResult<Expr> {
        let shape = n.ty.shape.clone();
        let c =
            |this: &Self, x: i128| this.broadcast_to(int_const(DType::U32, x, span), &shape, span);
        let shl = BinOp::Shl(ShiftRange::Ub);
        let shr = BinOp::Shr(ShrKind::Logical, ShiftRange::Ub);
        let n = self.cast(n, DType::U32, super::builtins::CONVERT);
        let sign = bin(
            shl,
            bin(BinOp::And, n.clone(), c(self, 8)?, span),
            c(self, 28)?,
            span,
        );
        let e = bin(
            BinOp::And,
            bin(shr, n.clone(), c(self, 1)?, span),
            c(self, 3)?,
            span,
        );
        let m = bin(BinOp::And, n, c(self, 1)?, span);
        // a normal: exponent e - 1 + 127, the mantissa bit at the top
        let exp = bin(
            shl,
            bin(BinOp::Add, e.clone(), c(self, 126)?, span),
            c(self, 23)?,
            span,
        );
        let normal = bin(
            BinOp::Or,
            exp,
            bin(shl, m.clone(), c(self, 22)?, span),
            span,
        );
        // the subnormal 0b001 is 0.5 (0x3f000000); 0b000 is zero
        let sub = bin(BinOp::Mul, m, c(self, 0x3f00_0000)?, span);
        let is_sub = bin(BinOp::Eq, e, c(self, 0)?, span);
        let mag = select(is_sub, sub, normal, span);
        let bits = bin(BinOp::Or, mag, sign, span);
        Ok(self.cast(bits, DType::F32, CastKind::Bitcast))
    }

    /// The float32 factors of the e8m0 scale tile `s` (`[…, M, K/32]`, or
    /// `[…, N, K/32]` for the rhs) for an operand of shape `like`: byte b is
    /// 2^(b-127) (its float32 exponent field; 0 is +0.0, as the interpreter
    /// decodes it with a float16 operand; 2^-127 where the product computes
    /// in bfloat16), 255 is NaN; each repeated over its 32 elements of K,
    /// the rhs's transposed to `[…, K, N]`.
    fn e8m0_scale(
        &mut self,
        s: Expr,
        like: &[usize],
        rhs: bool,
        bf16: bool,
        side: &str,
        span: Span,
    ) -> DResult<Expr> {
        let r = like.len();
        let (rows, k) = if rhs {
            (like[r - 1], like[r - 2])
        } else {
            (like[r - 2], like[r - 1])
        };
        let mut want = like[..r - 2].to_vec();
        want.extend([rows, k / GROUP]);
        if s.ty.dtype() != DType::U8 || s.ty.shape != want || k % GROUP != 0 || s.ty.is_ptr() {
            return err(
                span,
                format!(
                    "{side}_scale must be a uint8 tensor of shape {want:?} (e8m0, one per {GROUP} \
                     elements of K={k}). Got {} (tl.dot_scaled)",
                    s.ty
                ),
            );
        }
        let shape = s.ty.shape.clone();
        let c32 =
            |this: &Self, x: i128| this.broadcast_to(int_const(DType::U32, x, span), &shape, span);
        let wide = self.cast(s.clone(), DType::U32, super::builtins::CONVERT);
        let mut bits = bin(BinOp::Shl(ShiftRange::Ub), wide, c32(self, 23)?, span);
        if bf16 {
            // byte 0 is 2^-127, the float32 subnormal 0x00400000
            let floor = c32(self, 0x0040_0000)?;
            bits = select(
                bin(BinOp::Eq, bits.clone(), c32(self, 0)?, span),
                floor,
                bits,
                span,
            );
        }
        let f = self.cast(bits, DType::F32, CastKind::Bitcast);
        let nan = self.broadcast_to(konst(DType::F32, F32_NAN, span), &shape, span)?;
        let top = self.broadcast_to(int_const(DType::U8, 255, span), &shape, span)?;
        let f = select(bin(BinOp::Eq, s, top, span), nan, f, span);
        // repeat along K: [.., R, C] -> [.., R, C, 32] -> [.., R, C*32]
        let mut one = shape.clone();
        one.push(1);
        let mut many = shape.clone();
        many.push(GROUP);
        let f = self.reshape(f, one, span);
        let f = self.broadcast_to(f, &many, span)?;
        let mut flat = shape;
        let last = flat.len() - 1;
        flat[last] *= GROUP;
        let f = self.reshape(f, flat, span);
        if !rhs {
            return Ok(f);
        }
        let mut swap: Vec<usize> = (0..r).collect();
        swap.swap(r - 1, r - 2);
        Ok(self.permute(f, &swap, span))
    }
}

/// A float32 tile of +0.0 of `shape`.
fn zero_f32(e: &Elab<'_>, shape: &[usize], span: Span) -> DResult<Expr> {
    let zero = e.num_const(PyNum::Int(0), DType::F32, span);
    e.broadcast_to(zero, shape, span)
}
