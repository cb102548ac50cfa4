//! `tl.dot`: Triton 3.6's checks and typing rules, elaborated into one
//! [`ExprKind::Dot`] whose order of operations is ksem's own (k ascending,
//! every product and sum rounded; `docs/semantics.md`, "Triton front end").
//!
//! The rules follow Triton 3.6.0's sources: `language/core.py` `dot` (the
//! `input_precision`/`allow_tf32` default, rank, batch, reduction and
//! accumulator shape checks), `language/semantic.py` `TritonSemantic.dot`
//! (operand dtypes, result dtype, `acc`'s dtype, `max_num_imprecise_acc`)
//! and the NVIDIA backend's `min_dot_size` (`backends/nvidia/compiler.py`:
//! K ≥ 32 for 8-bit operands, K ≥ 16 otherwise; from 3.8, K ≥ 8 for 32-bit
//! and K ≥ 4 for 64-bit operands; M and N ≥ 1) and
//! `CUDAOptions.allowed_dot_input_precisions`.

use super::builtins::{as_dtype, bind, const_int, Args, CONVERT};
use super::elab::{check_tile_size, err, Elab};
use super::promote::PyNum;
use super::value::{truthy, Value};
use super::version::Rule;
use crate::dtype::DType;
use crate::ir::*;
use crate::span::{DResult, Diagnostic, Span};

/// The `input_precision` values the NVIDIA backend allows (lower case).
const PRECISIONS: [&str; 5] = ["tf32", "tf32x3", "ieee", "bf16x3", "bf16x6"];

/// The operand dtypes `semantic.dot` accepts besides fp8 × fp8.
const OPERAND_DTYPES: [DType; 6] = [
    DType::I8,
    DType::U8,
    DType::F16,
    DType::BF16,
    DType::F32,
    DType::F64,
];

impl Elab<'_> {
    /// The smallest reduction size K of `tl.dot` on operands of dtype `d`:
    /// the NVIDIA backend's `min_dot_size` of this Triton release (M and N
    /// may be 1 in every release).
    fn min_dot_k(&self, d: DType) -> usize {
        match d.bits() {
            8 => 32,
            64 if self.version.has(Rule::NarrowDotK) => 4,
            32 if self.version.has(Rule::NarrowDotK) => 8,
            _ => 16,
        }
    }

    /// `tl.dot(input, other, acc=None, input_precision=None, allow_tf32=None,
    /// max_num_imprecise_acc=None, out_dtype=tl.float32)`.
    pub(super) fn dot(&mut self, args: Args, span: Span) -> DResult<Value> {
        let b = bind(
            "dot",
            "input, other, acc, input_precision, allow_tf32, max_num_imprecise_acc, out_dtype",
            args,
            span,
        )?;
        let x = self.to_tensor(b.req("input", span)?, span)?;
        let y = self.to_tensor(b.req("other", span)?, span)?;
        // core.py: at most one of input_precision and allow_tf32; the default
        // is tf32 unless allow_tf32 is False
        let precision = match (b.opt("input_precision"), b.opt("allow_tf32")) {
            (Some(_), Some(_)) => {
                return err(
                    span,
                    "Only one of input_precision and allow_tf32 can be specified (Triton)",
                )
            }
            (Some(Value::Str(s)), None) => s.to_ascii_lowercase(),
            (Some(other), None) => {
                return err(
                    span,
                    format!(
                        "input_precision must be a string such as \"ieee\", got {}",
                        other.describe()
                    ),
                )
            }
            (None, Some(v)) => match truthy(&v) {
                Some(true) => "tf32".to_string(),
                Some(false) => "ieee".to_string(),
                None => return err(span, "allow_tf32 must be a compile-time bool"),
            },
            (None, None) => "tf32".to_string(),
        };
        for (t, what) in [(&x, "input"), (&y, "other")] {
            if t.ty.is_ptr() {
                return err(
                    span,
                    format!("tl.dot's {what} is a tensor of pointers ({})", t.ty),
                );
            }
        }
        // core.py: shapes
        let (sa, sb) = (x.ty.shape.clone(), y.ty.shape.clone());
        let r = sa.len();
        if r != sb.len() || r < 2 {
            return Err(Diagnostic::new(
                span,
                format!(
                    "tl.dot needs two tiles of one rank >= 2 (Triton: input and other must \
                     have equal ranks >= 2), got shapes {sa:?} and {sb:?}"
                ),
            )
            .with_help("tl.dot multiplies (M, K) by (K, N), or batches (B, M, K) by (B, K, N)"));
        }
        if sa[..r - 2] != sb[..r - 2] {
            return err(
                span,
                format!(
                    "tl.dot of shapes {sa:?} and {sb:?}: input and other must have equal batch shapes"
                ),
            );
        }
        let kdim = sa[r - 1];
        if kdim != sb[r - 2] {
            return err(
                span,
                format!(
                    "tl.dot of shapes {sa:?} and {sb:?}: input and other must have equal \
                     reduction dimensions ({kdim} and {})",
                    sb[r - 2]
                ),
            );
        }
        let mut c_shape = sa[..r - 1].to_vec();
        c_shape.push(sb[r - 1]);
        let acc = match b.opt("acc") {
            Some(v) => {
                let acc = self.to_tensor(v, span)?;
                if acc.ty.shape != c_shape || acc.ty.is_ptr() {
                    return err(
                        span,
                        format!(
                            "tl.dot's accumulator shape is incompatible: acc is {}, the product is {c_shape:?}",
                            acc.ty
                        ),
                    );
                }
                Some(acc)
            }
            None => None,
        };
        // semantic.py: operand dtypes
        let (da, db) = (x.ty.dtype(), y.ty.dtype());
        if !(da.is_fp8() && db.is_fp8()) {
            let help =
                "tl.dot takes int8, uint8, float16, bfloat16, float32, float64 or fp8 operands";
            for (d, side) in [(da, "lhs"), (db, "rhs")] {
                if !OPERAND_DTYPES.contains(&d) {
                    return Err(Diagnostic::new(
                        span,
                        format!("tl.dot: Unsupported {side} dtype {d} (Triton 3.6)"),
                    )
                    .with_help(help));
                }
            }
            if da != db {
                return Err(Diagnostic::new(
                    span,
                    format!(
                        "tl.dot: Both operands must be same dtype. Got {da} and {db} (Triton 3.6)"
                    ),
                )
                .with_help("convert one operand first, e.g. b.to(a.dtype)"));
            }
        }
        if !PRECISIONS.contains(&precision.as_str()) {
            return err(
                span,
                format!(
                    "input_precision must be one of ('tf32', 'tf32x3', 'ieee', 'bf16x3', 'bf16x6'). Got {precision}"
                ),
            );
        }
        let kmin = self.min_dot_k(da);
        if kdim < kmin {
            return Err(Diagnostic::new(
                span,
                format!(
                    "tl.dot of shapes {sa:?} and {sb:?}: Input shapes should have M >= 1, \
                     N >= 1 and K >= {kmin} (Triton {} on NVIDIA GPUs); K is {kdim}",
                    self.version
                ),
            )
            .with_help(format!(
                "use a reduction block of at least {kmin}, or broadcasting and tl.sum"
            )));
        }
        // semantic.py: the result dtype
        let out_dtype = match b.opt("out_dtype") {
            Some(v) => as_dtype(&v, span)?,
            None => DType::F32,
        };
        let ret = if da.is_int() {
            if da != DType::I8 {
                return err(
                    span,
                    format!("tl.dot of {da} operands: only int8 supported! (Triton 3.6)"),
                );
            }
            DType::I32
        } else if out_dtype == DType::BF16 {
            return err(
                span,
                "out_dtype=bfloat16 is unsupported. Please use out_dtype=float32/float16 and cast with `.to(tl.bfloat16)`",
            );
        } else if matches!(da, DType::F32 | DType::BF16) {
            DType::F32
        } else if da == DType::F64 {
            DType::F64
        } else if matches!(out_dtype, DType::F16 | DType::F32) {
            out_dtype
        } else {
            return err(
                span,
                format!(
                    "tl.dot of {da} operands with out_dtype={out_dtype}: Triton 3.6 builds \
                     this product only in float16 or float32 (its compiler fails otherwise)"
                ),
            );
        };
        if let Some(acc) = &acc {
            let dc = acc.ty.dtype();
            if dc != out_dtype {
                return Err(Diagnostic::new(
                    span,
                    format!(
                        "tl.dot's accumulator has dtype {dc} but out_dtype is {out_dtype} \
                         (Triton requires acc's dtype to equal out_dtype)"
                    ),
                )
                .with_help(format!("pass out_dtype=tl.{}", dc.json_name())));
            }
            if dc != ret {
                return err(
                    span,
                    format!(
                        "tl.dot of {da} operands computes in {ret}; an accumulator of {dc} \
                         does not match it (Triton's compiler rejects the product)"
                    ),
                );
            }
        }
        if let Some(v) = b.opt("max_num_imprecise_acc") {
            let n = const_int(&v, "max_num_imprecise_acc", span)?;
            if da.is_fp8() && db.is_fp8() && n > kdim as i128 {
                return err(
                    span,
                    format!("max_num_imprecise_acc ({n}) must be <= K ({kdim})"),
                );
            }
        }
        check_tile_size(&c_shape, span)?;
        let precision = if da == DType::F32 && precision == "tf32" {
            DotPrecision::Tf32
        } else {
            DotPrecision::Ieee
        };
        let acc = match acc {
            Some(acc) => acc,
            None => {
                let zero = self.num_const(PyNum::Int(0), ret, span);
                self.broadcast_to(zero, &c_shape, span)?
            }
        };
        if ret == DType::F16 {
            return Ok(Value::Tensor(self.dot_f16_accumulator(x, y, acc, span)?));
        }
        let x = self.cast(x, ret, CONVERT);
        let y = self.cast(y, ret, CONVERT);
        Ok(Value::Tensor(dot_expr(x, y, acc, precision, span)))
    }

    /// A float16 result (float16 or fp8 operands, `out_dtype=tl.float16`) as
    /// Triton's interpreter computes it (numpy's float16 matmul, measured:
    /// `tools/probes/triton_interp/dot_f16_acc.py`): the product from zero in
    /// float32 (k ascending, each sum rounded; float16 products are exact
    /// there), rounded once to float16, then `acc` added in float16.
    fn dot_f16_accumulator(&mut self, x: Expr, y: Expr, acc: Expr, span: Span) -> DResult<Expr> {
        let shape = acc.ty.shape.clone();
        let x = self.cast(x, DType::F32, CONVERT);
        let y = self.cast(y, DType::F32, CONVERT);
        let zero = self.num_const(PyNum::Int(0), DType::F32, span);
        let zero = self.broadcast_to(zero, &shape, span)?;
        let wide = dot_expr(x, y, zero, DotPrecision::Ieee, span);
        let narrow = self.cast(wide, DType::F16, CONVERT);
        Ok(crate::ir::build::bin(BinOp::Add, narrow, acc, span))
    }
}

/// The IR `Dot` of `a` and `b` onto `acc`, in `acc`'s type.
pub(super) fn dot_expr(a: Expr, b: Expr, acc: Expr, precision: DotPrecision, span: Span) -> Expr {
    let ty = acc.ty.clone();
    Expr {
        kind: ExprKind::Dot {
            a: Box::new(a),
            b: Box::new(b),
            acc: Box::new(acc),
            precision,
        },
        ty,
        span,
    }
}
