//! CUDA intrinsics of numba-cuda beyond the seed (numba-cuda 0.30.4's
//! `cudadecl.py` types, `cudaimpl.py` lowering), built from existing IR:
//!
//! - `cuda.popc(x)`, `cuda.clz(x)`: the number of set / leading zero bits
//!   of an integer in its own width, result in its dtype (`llvm.ctpop`,
//!   `llvm.ctlz` with zero defined: `clz(0)` is the width);
//! - `cuda.ffs(x)`: the 1-based position of the lowest set bit of a 32- or
//!   64-bit integer, 0 for 0, as uint32 (`__nv_ffs`/`__nv_ffsll`);
//! - `cuda.brev(x)`: the bits of a uint32/uint64 reversed (`__nv_brev`);
//!   other integers are taken as the unsigned integer of their width (32
//!   bits for narrower ones);
//! - `cuda.fma(a, b, c)`: `a * b + c` rounded once, float32 when all three
//!   are float32, else float64;
//! - `cuda.cbrt(x)`: the cube root (float32 for float32, else float64;
//!   approximate on the GPU, like the other `math` functions);
//! - `cuda.syncthreads_count(p)`, `_and(p)`, `_or(p)`: a barrier that also
//!   counts the block's threads whose `p` is non-zero (int32 result; `_and`
//!   and `_or` are that count compared with the block's size and with 0).
//!   Built as CUDA's semantics say: a shared int32 counter zeroed by thread
//!   (0,0,0), a barrier, an atomic add per thread, a barrier, the read, and
//!   a barrier so that the next use cannot race with this read;
//! - `cuda.threadfence()`, `threadfence_block()`, `threadfence_system()`:
//!   memory fences; ksem's memory model (sequentially consistent accesses,
//!   races reported) gives them nothing to do;
//! - `cuda.laneid` (the thread's linear index in its block mod 32) and
//!   `cuda.warpsize` (32), int32;
//! - `cuda.fp16.*`: half-precision arithmetic as CUDA's `cuda_fp16.hpp`
//!   defines it (operands converted to float16 first): `hadd`, `hsub`,
//!   `hmul`, `hdiv` (IEEE, round to nearest even), `hfma` (fused), `hneg`,
//!   `habs`; the ordered comparisons `heq`, `hne`, `hlt`, `hle`, `hgt`, `hge`
//!   (false with a NaN operand); `hmax`/`hmin` (a NaN operand ignored, +0 above
//!   -0); `hsqrt`, `hrcp`, `hceil`, `hfloor`, `htrunc`, `hrint` (exact) and
//!   `hexp`, `hexp2`, `hexp10`, `hlog`, `hlog2`, `hlog10`, `hsin`, `hcos`, `htanh`,
//!   `hrsqrt` (approximate on the GPU);
//! - `round(x)` of a float: the nearest integer, ties to even, as int64
//!   (`__nv_llrint` of `x` widened to float64; a value int64 cannot hold is
//!   a float -> int conversion out of range); `round(x, n)`: numba-cuda's
//!   `round_ndigits` (CPython's fallback `double_round`): `y = x * 10**n`
//!   (`x / 10**-n` for n < 0) in float64, `z = round(y)`, ties by
//!   `2 * round(y / 2)`, back by the same powers, in `x`'s float dtype; x
//!   itself where it is inf or NaN or `y` overflows.

use super::*;

/// An unsigned 64-bit constant.
fn u64c(v: u64, span: Span) -> Expr {
    konst(DType::U64, v, span)
}

fn shr(a: Expr, n: u64, span: Span) -> Expr {
    bin(
        BinOp::Shr(ShrKind::Logical, ShiftRange::Ub),
        a,
        u64c(n, span),
        span,
    )
}

impl Elab<'_> {
    /// The `numba.cuda.<f>` intrinsics of this module; `None` for others.
    pub(super) fn more_intrinsics(&mut self, call: Call) -> DResult<Option<Val>> {
        if let Some(h) = call.below("fp16.") {
            return self.fp16(h);
        }
        let (f, span) = (call.name, call.span);
        Ok(Some(match f {
            "popc" | "clz" | "ffs" | "brev" => {
                let [x] = self
                    .num_args(call, 1, &format!("cuda.{f}"))?
                    .try_into()
                    .expect("one");
                Val::Num(self.bit_intrinsic(f, x, span)?)
            }
            "fma" => {
                let [a, b, d] = self
                    .num_args(call, 3, "cuda.fma")?
                    .try_into()
                    .expect("three");
                let all_f32 = [&a, &b, &d].iter().all(|e| dtype_of(e) == DType::F32);
                let t = if all_f32 { DType::F32 } else { DType::F64 };
                let (a, b, d) = (convert(a, t), convert(b, t), convert(d, t));
                Val::Num(mk(
                    ExprKind::Fma(
                        Box::new(a),
                        Box::new(b),
                        Box::new(d),
                        crate::float::Rounding::NearestEven,
                    ),
                    Type::scalar(t),
                    span,
                ))
            }
            "cbrt" => {
                let [x] = self
                    .num_args(call, 1, "cuda.cbrt")?
                    .try_into()
                    .expect("one");
                let t = if dtype_of(&x) == DType::F32 {
                    DType::F32
                } else {
                    DType::F64
                };
                Val::Num(unary(UnOp::Math(MathFn::Cbrt), convert(x, t), span))
            }
            "syncthreads_count" | "syncthreads_and" | "syncthreads_or" => {
                let [p] = self
                    .num_args(call, 1, &format!("cuda.{f}"))?
                    .try_into()
                    .expect("one");
                let count = self.barrier_count(p, span);
                let zero = int_const(DType::I32, 0, span);
                Val::Num(match f {
                    "syncthreads_count" => count,
                    "syncthreads_or" => convert(bin(BinOp::Ne, count, zero, span), DType::I32),
                    _ => {
                        let size = self.block_size(span);
                        convert(bin(BinOp::Eq, count, size, span), DType::I32)
                    }
                })
            }
            "threadfence" | "threadfence_block" | "threadfence_system" => {
                call.positional(&format!("cuda.{f}()"), (0, 0))?;
                Val::None
            }
            _ => return Ok(None),
        }))
    }

    /// The builtin `round(x)` / `round(x, ndigits)`.
    pub(super) fn round_builtin(&mut self, call: Call) -> DResult<Val> {
        let span = call.span;
        let n = call.positional("round()", (1, 2))?.len();
        let args = self.num_args(call, n, "round")?;
        let x = args[0].clone();
        let d = dtype_of(&x);
        if !d.is_float() {
            // numba: round of an integer is the integer
            return Ok(Val::Num(if n == 1 { x } else { convert(x, d) }));
        }
        if n == 1 {
            let x = self.temp(convert(x, DType::F64));
            let r = self.round_half_even(x, span);
            return Ok(Val::Num(convert(r, DType::I64)));
        }
        let nd = convert(args[1].clone(), DType::I64);
        let nd = self.temp(nd);
        let xd = self.temp(convert(x.clone(), DType::F64));
        let f = |v: f64| float_const(DType::F64, v, span);
        let i = |v: i128| int_const(DType::I64, v, span);
        let nonneg = self.temp(bin(BinOp::Ge, nd.clone(), i(0), span));
        // pow1 = 10.0 ** (n - 22) and pow2 = 1e22 for n > 22, else 10.0 ** n
        // and 1.0; for n < 0, pow1 = 10.0 ** -n
        let big = bin(BinOp::Gt, nd.clone(), i(22), span);
        let e1 = select(
            nonneg.clone(),
            select(
                big.clone(),
                bin(BinOp::Sub, nd.clone(), i(22), span),
                nd.clone(),
                span,
            ),
            bin(BinOp::Sub, i(0), nd.clone(), span),
            span,
        );
        let pow1 = self.temp(bin(BinOp::Pow, f(10.0), convert(e1, DType::F64), span));
        let pow2 = self.temp(select(big, f(1e22), f(1.0), span));
        let y = select(
            nonneg.clone(),
            bin(
                BinOp::Mul,
                bin(BinOp::Mul, xd.clone(), pow1.clone(), span),
                pow2.clone(),
                span,
            ),
            bin(BinOp::FDiv, xd.clone(), pow1.clone(), span),
            span,
        );
        let y = self.temp(y);
        // z = round(y) through int64, as numba's `round(y)` types it; a y
        // beyond int64 only arises with x inf/nan or y inf, which return x
        let special = bin(
            BinOp::LogicalOr,
            bin(BinOp::Ne, xd.clone(), xd.clone(), span),
            bin(
                BinOp::LogicalOr,
                super::mathfns::is_inf(xd.clone(), span),
                bin(
                    BinOp::LogicalAnd,
                    nonneg.clone(),
                    super::mathfns::is_inf(y.clone(), span),
                    span,
                ),
                span,
            ),
            span,
        );
        let special = self.temp(special);
        let safe_y = self.temp(select(special.clone(), f(0.0), y.clone(), span));
        let z = self.round_half_even(safe_y.clone(), span);
        let z = self.temp(convert(convert(z, DType::I64), DType::F64));
        let half = bin(
            BinOp::Eq,
            unary(
                UnOp::Math(MathFn::Abs),
                bin(BinOp::Sub, safe_y.clone(), z.clone(), span),
                span,
            ),
            f(0.5),
            span,
        );
        let halved = self.round_half_even(bin(BinOp::FDiv, safe_y, f(2.0), span), span);
        let halved = convert(convert(halved, DType::I64), DType::F64);
        let z = select(half, bin(BinOp::Mul, f(2.0), halved, span), z, span);
        let z = self.temp(z);
        let back = select(
            nonneg,
            bin(
                BinOp::FDiv,
                bin(BinOp::FDiv, z.clone(), pow2, span),
                pow1.clone(),
                span,
            ),
            bin(BinOp::Mul, z, pow1, span),
            span,
        );
        let r = select(special, xd, back, span);
        Ok(Val::Num(convert(r, d)))
    }

    /// The float64 `x` rounded to the nearest integral value, ties to even
    /// (`rint`): floor, then up where the rest is above one half, or is one
    /// half and the floor is odd (x - floor(x) is exact for every double).
    fn round_half_even(&mut self, x: Expr, span: Span) -> Expr {
        let f = |v: f64| float_const(DType::F64, v, span);
        let x = self.temp(x);
        let fl = self.temp(unary(UnOp::Math(MathFn::Floor), x.clone(), span));
        let rest = self.temp(bin(BinOp::Sub, x.clone(), fl.clone(), span));
        let odd = bin(
            BinOp::Ne,
            bin(BinOp::FRem, fl.clone(), f(2.0), span),
            f(0.0),
            span,
        );
        let up = bin(
            BinOp::LogicalOr,
            bin(BinOp::Gt, rest.clone(), f(0.5), span),
            bin(
                BinOp::LogicalAnd,
                bin(BinOp::Eq, rest, f(0.5), span),
                odd,
                span,
            ),
            span,
        );
        // inf and nan pass through floor unchanged
        let finite = bin(BinOp::Eq, bin(BinOp::Sub, x.clone(), x, span), f(0.0), span);
        let stepped = select(
            up,
            bin(BinOp::Add, fl.clone(), f(1.0), span),
            fl.clone(),
            span,
        );
        select(finite, stepped, fl, span)
    }

    /// `cuda.fp16.<f>(…)`; `None` for a function this module does not know.
    fn fp16(&mut self, call: Call) -> DResult<Option<Val>> {
        let (f, span) = (call.name, call.span);
        let arity = match f {
            "hfma" => 3,
            "hadd" | "hsub" | "hmul" | "hdiv" | "heq" | "hne" | "hlt" | "hle" | "hgt" | "hge"
            | "hmax" | "hmin" => 2,
            "hneg" | "habs" | "hsqrt" | "hrcp" | "hceil" | "hfloor" | "htrunc" | "hrint"
            | "hexp" | "hexp2" | "hexp10" | "hlog" | "hlog2" | "hlog10" | "hsin" | "hcos"
            | "htanh" | "hrsqrt" => 1,
            _ => return Ok(None),
        };
        let args = self.num_args(call, arity, &format!("cuda.fp16.{f}"))?;
        let mut h: Vec<Expr> = Vec::new();
        for a in args {
            h.push(self.temp(convert(a, DType::F16)));
        }
        let math = |m: MathFn, x: Expr| unary(UnOp::Math(m), x, span);
        let zero = || float_const(DType::F16, 0.0, span);
        let e = match f {
            "hadd" => bin(BinOp::Add, h[0].clone(), h[1].clone(), span),
            "hsub" => bin(BinOp::Sub, h[0].clone(), h[1].clone(), span),
            "hmul" => bin(BinOp::Mul, h[0].clone(), h[1].clone(), span),
            "hdiv" => bin(BinOp::FDiv, h[0].clone(), h[1].clone(), span),
            "hfma" => mk(
                ExprKind::Fma(
                    Box::new(h[0].clone()),
                    Box::new(h[1].clone()),
                    Box::new(h[2].clone()),
                    crate::float::Rounding::NearestEven,
                ),
                Type::scalar(DType::F16),
                span,
            ),
            "heq" => bin(BinOp::Eq, h[0].clone(), h[1].clone(), span),
            // ordered: false where either is NaN
            "hne" => bin(
                BinOp::LogicalOr,
                bin(BinOp::Lt, h[0].clone(), h[1].clone(), span),
                bin(BinOp::Gt, h[0].clone(), h[1].clone(), span),
                span,
            ),
            "hlt" => bin(BinOp::Lt, h[0].clone(), h[1].clone(), span),
            "hle" => bin(BinOp::Le, h[0].clone(), h[1].clone(), span),
            "hgt" => bin(BinOp::Gt, h[0].clone(), h[1].clone(), span),
            "hge" => bin(BinOp::Ge, h[0].clone(), h[1].clone(), span),
            "hmax" => bin(
                BinOp::Max(NanMode::Ignore),
                h[0].clone(),
                h[1].clone(),
                span,
            ),
            "hmin" => bin(
                BinOp::Min(NanMode::Ignore),
                h[0].clone(),
                h[1].clone(),
                span,
            ),
            "hneg" => unary(UnOp::Neg, h[0].clone(), span),
            "habs" => math(MathFn::Abs, h[0].clone()),
            "hsqrt" => math(MathFn::Sqrt, h[0].clone()),
            "hrcp" => bin(
                BinOp::FDiv,
                float_const(DType::F16, 1.0, span),
                h[0].clone(),
                span,
            ),
            "hceil" => math(MathFn::Ceil, h[0].clone()),
            "hfloor" => math(MathFn::Floor, h[0].clone()),
            "htrunc" => select(
                bin(BinOp::Lt, h[0].clone(), zero(), span),
                math(MathFn::Ceil, h[0].clone()),
                math(MathFn::Floor, h[0].clone()),
                span,
            ),
            "hrint" => {
                let wide = convert(h[0].clone(), DType::F64);
                convert(self.round_half_even(wide, span), DType::F16)
            }
            "hexp" => math(MathFn::Exp, h[0].clone()),
            "hexp2" => math(MathFn::Exp2, h[0].clone()),
            "hexp10" => math(MathFn::Exp10, h[0].clone()),
            "hlog" => math(MathFn::Log, h[0].clone()),
            "hlog2" => math(MathFn::Log2, h[0].clone()),
            "hlog10" => math(MathFn::Log10, h[0].clone()),
            "hsin" => math(MathFn::Sin, h[0].clone()),
            "hcos" => math(MathFn::Cos, h[0].clone()),
            "htanh" => math(MathFn::Tanh, h[0].clone()),
            _ => math(MathFn::Rsqrt, h[0].clone()),
        };
        Ok(Some(Val::Num(e)))
    }

    /// `cuda.laneid` and `cuda.warpsize`; `None` for other names.
    pub(super) fn lane_value(&self, rest: &str, span: Span) -> Option<Val> {
        match rest {
            "warpsize" => Some(Val::Num(int_const(DType::I32, 32, span))),
            "laneid" => {
                let linear = self.thread_linear(span);
                let lane = bin(BinOp::And, linear, int_const(DType::I32, 31, span), span);
                Some(Val::Num(lane))
            }
            _ => None,
        }
    }

    /// The thread's index in its block, x fastest (int32).
    fn thread_linear(&self, span: Span) -> Expr {
        let id = |k: ExprKind| mk(k, Type::scalar(DType::I32), span);
        let (tx, ty, tz) = (
            id(ExprKind::ThreadId(0)),
            id(ExprKind::ThreadId(1)),
            id(ExprKind::ThreadId(2)),
        );
        let (bx, by) = (id(ExprKind::BlockDim(0)), id(ExprKind::BlockDim(1)));
        let yz = bin(BinOp::Add, ty, bin(BinOp::Mul, tz, by, span), span);
        bin(BinOp::Add, tx, bin(BinOp::Mul, yz, bx, span), span)
    }

    /// The number of threads of the block (int32).
    fn block_size(&self, span: Span) -> Expr {
        let dim = |d: u8| mk(ExprKind::BlockDim(d), Type::scalar(DType::I32), span);
        bin(
            BinOp::Mul,
            bin(BinOp::Mul, dim(0), dim(1), span),
            dim(2),
            span,
        )
    }

    /// How many threads of the block have `p` non-zero, through a shared
    /// counter between barriers (int32).
    fn barrier_count(&mut self, p: Expr, span: Span) -> Expr {
        self.arrays.push(ArrayDecl {
            name: format!("shared{}", self.arrays.len()),
            dtype: DType::I32,
            space: AddrSpace::Shared,
            shape: vec![1],
            span,
        });
        let id = self.arrays.len() - 1;
        let ptr = array_base(id, DType::I32, AddrSpace::Shared, span);
        let zero = int_const(DType::I32, 0, span);
        let first = |d: u8| {
            bin(
                BinOp::Eq,
                mk(ExprKind::ThreadId(d), Type::scalar(DType::I32), span),
                zero.clone(),
                span,
            )
        };
        let is_first = bin(
            BinOp::LogicalAnd,
            bin(BinOp::LogicalAnd, first(0), first(1), span),
            first(2),
            span,
        );
        self.emit(Stmt::If {
            cond: is_first,
            then_body: vec![Stmt::Store {
                ptr: ptr.clone(),
                value: zero.clone(),
                mask: None,
                span,
            }],
            else_body: vec![],
        });
        self.emit(Stmt::Barrier { span });
        let d = dtype_of(&p);
        let pzero = konst(d, 0, span);
        let one = convert(bin(BinOp::Ne, p, pzero, span), DType::I32);
        let add = mk(
            ExprKind::Atomic {
                op: AtomicOp::Add,
                ptr: Box::new(ptr.clone()),
                val: Box::new(one),
                cmp: None,
                mask: None,
            },
            Type::scalar(DType::I32),
            span,
        );
        let v = self.new_var("_count_add", Type::scalar(DType::I32));
        self.emit(Stmt::Let(v, add));
        self.emit(Stmt::Barrier { span });
        let count = self.temp(load(ptr, DType::I32, span));
        self.emit(Stmt::Barrier { span });
        count
    }

    /// `popc`, `clz`, `ffs` or `brev` of the integer `x`.
    pub(super) fn bit_intrinsic(&mut self, f: &str, x: Expr, span: Span) -> DResult<Expr> {
        let d = dtype_of(&x);
        if !d.is_int() || d == DType::Bool {
            return err(span, format!("cuda.{f} takes an integer, got {}", Named(d)));
        }
        let width = d.bits() as u64;
        if f == "ffs" && width < 32 {
            return err(
                span,
                format!(
                    "cuda.ffs takes a 32- or 64-bit integer, got {} (numba-cuda lowers no other)",
                    Named(d)
                ),
            );
        }
        // the bit pattern, zero-extended to 64 bits
        let unsigned = match width {
            8 => DType::U8,
            16 => DType::U16,
            32 => DType::U32,
            _ => DType::U64,
        };
        let bits = convert(
            mk(
                ExprKind::Cast(Box::new(x), CastKind::Bitcast),
                Type::scalar(unsigned),
                span,
            ),
            DType::U64,
        );
        let v = self.temp(bits);
        Ok(match f {
            "popc" => convert(self.popcount64(v, span), d),
            "clz" => {
                // smear the top set bit down; its count of ones is the
                // number of significant bits
                let mut s = v;
                for k in [1, 2, 4, 8, 16, 32] {
                    let t = self.temp(s);
                    s = bin(BinOp::Or, t.clone(), shr(t, k, span), span);
                }
                let s = self.temp(s);
                let sig = self.popcount64(s, span);
                convert(bin(BinOp::Sub, u64c(width, span), sig, span), d)
            }
            "ffs" => {
                // the lowest set bit alone, minus one: ones below it
                let low = bin(
                    BinOp::And,
                    v.clone(),
                    bin(BinOp::Sub, u64c(0, span), v.clone(), span),
                    span,
                );
                let below = self.temp(bin(BinOp::Sub, low, u64c(1, span), span));
                let tz = self.popcount64(below, span);
                let pos = bin(BinOp::Add, tz, u64c(1, span), span);
                let is_zero = bin(BinOp::Eq, v, u64c(0, span), span);
                convert(select(is_zero, u64c(0, span), pos, span), DType::U32)
            }
            _ => {
                // brev: uint32 for 32 bits and narrower, uint64 for 64
                let out = if width == 64 { DType::U64 } else { DType::U32 };
                let r = self.reverse64(v, span);
                let r = if out == DType::U32 {
                    shr(r, 32, span)
                } else {
                    r
                };
                convert(r, out)
            }
        })
    }

    /// The number of set bits of a uint64 (SWAR), as a uint64.
    fn popcount64(&mut self, v: Expr, span: Span) -> Expr {
        let and = |a: Expr, m: u64| bin(BinOp::And, a, u64c(m, span), span);
        let v1 = bin(
            BinOp::Sub,
            v.clone(),
            and(shr(v, 1, span), 0x5555_5555_5555_5555),
            span,
        );
        let v1 = self.temp(v1);
        let v2 = bin(
            BinOp::Add,
            and(v1.clone(), 0x3333_3333_3333_3333),
            and(shr(v1, 2, span), 0x3333_3333_3333_3333),
            span,
        );
        let v2 = self.temp(v2);
        let v3 = and(
            bin(BinOp::Add, v2.clone(), shr(v2, 4, span), span),
            0x0f0f_0f0f_0f0f_0f0f,
        );
        let v3 = self.temp(v3);
        shr(
            bin(BinOp::Mul, v3, u64c(0x0101_0101_0101_0101, span), span),
            56,
            span,
        )
    }

    /// The 64 bits of a uint64 in reverse order (SWAR swaps).
    fn reverse64(&mut self, v: Expr, span: Span) -> Expr {
        let and = |a: Expr, m: u64| bin(BinOp::And, a, u64c(m, span), span);
        let shl = |a: Expr, n: u64| bin(BinOp::Shl(ShiftRange::Ub), a, u64c(n, span), span);
        let mut r = v;
        for (k, m) in [
            (1, 0x5555_5555_5555_5555u64),
            (2, 0x3333_3333_3333_3333),
            (4, 0x0f0f_0f0f_0f0f_0f0f),
            (8, 0x00ff_00ff_00ff_00ff),
            (16, 0x0000_ffff_0000_ffff),
            (32, 0x0000_0000_ffff_ffff),
        ] {
            let t = self.temp(r);
            r = bin(
                BinOp::Or,
                and(shr(t.clone(), k, span), m),
                shl(and(t, m), k),
                span,
            );
        }
        r
    }
}
