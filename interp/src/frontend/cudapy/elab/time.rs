//! numpy datetime64/timedelta64 values in CUDA Python kernels.
//!
//! An element is an int64 count of its unit, numpy's NaT the int64 minimum
//! (`launch::TimeType`). numba types a datetime64/timedelta64 array's
//! element by its type, so these are values of their own ([`TimeVal`],
//! arrays [`TimeArray`]): only the operations numba defines reach the IR,
//! anything else is refused rather than computed as int64. The rules
//! (numba-cuda 0.30.4, measured on the GPU:
//! tools/probes/numba/host_values.json):
//!
//! - `datetime - datetime` is a timedelta, `datetime ± timedelta` a
//!   datetime, `timedelta ± timedelta` a timedelta: the counts' int64
//!   difference or sum (wrapping, as numba's integer arithmetic), NaT where
//!   either operand is NaT;
//! - `==`, `<`, `<=`, `>`, `>=` are false where either operand is NaT, `!=`
//!   is true there; otherwise the counts compare.
//!
//! Operands of different units (numba converts them) are refused.

use super::*;
use crate::launch::{TimeType, NAT};

/// A datetime64/timedelta64 value: its int64 count.
#[derive(Clone, Debug)]
pub(super) struct TimeVal {
    pub ty: TimeType,
    pub bits: Expr,
}

/// An array of datetime64/timedelta64 elements (an int64 buffer).
#[derive(Clone, Debug)]
pub(super) struct TimeArray {
    pub arr: ArrayVal,
    pub ty: TimeType,
}

fn nat(span: Span) -> Expr {
    int_const(DType::I64, i128::from(NAT), span)
}

impl Elab<'_> {
    /// A datetime64/timedelta64 parameter: an array, or (a 0-d buffer, as
    /// the launch passes a scalar of such a type) its one value.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn time_param(
        &mut self,
        pname: &str,
        pspan: Span,
        ty: TimeType,
        shape: Option<Vec<usize>>,
        len: usize,
        signature: bool,
        env: &mut HashMap<String, Val>,
        params: &mut Vec<Param>,
    ) -> DResult<()> {
        if signature {
            return err(pspan, format!("the launch passes `{pname}` as {ty}, which ksem does not read from a signature string"));
        }
        let var = self.new_var(pname, Type::global_ptr(DType::I64));
        let base = self.var_expr(var, pspan);
        let v = match shape {
            Some(s) if s.is_empty() => {
                let p = mk(
                    ExprKind::ElemPtr {
                        base: Box::new(base.clone()),
                        indices: vec![int_const(DType::I64, 0, pspan)],
                        dims: vec![1],
                        neg: NegIndex::Wrap,
                        offset: None,
                    },
                    base.ty.clone(),
                    pspan,
                );
                Val::Time(TimeVal {
                    ty,
                    bits: load(p, DType::I64, pspan),
                })
            }
            shape => Val::TimeArray(TimeArray {
                arr: ArrayVal {
                    base,
                    dtype: DType::I64,
                    shape: shape.unwrap_or_else(|| vec![len]),
                    pairs: Pairs::No,
                    view: None,
                },
                ty,
            }),
        };
        env.insert(pname.to_string(), v);
        params.push(Param {
            name: pname.to_string(),
            kind: ParamKind::Pointer(DType::I64),
            var: Some(var),
        });
        Ok(())
    }

    /// `e` is NaT.
    fn is_nat(&self, e: &Expr, span: Span) -> Expr {
        bin(BinOp::Eq, e.clone(), nat(span), span)
    }

    /// Either count is NaT.
    fn either_nat(&mut self, a: &Expr, b: &Expr, span: Span) -> Expr {
        let (na, nb) = (self.is_nat(a, span), self.is_nat(b, span));
        bin(BinOp::LogicalOr, na, nb, span)
    }

    /// `arr[at]` of a datetime64/timedelta64 array.
    pub(super) fn time_load(&mut self, t: &TimeArray, at: Index) -> DResult<Val> {
        let p = self.elem_ptr(&t.arr, at)?;
        Ok(Val::Time(TimeVal {
            ty: t.ty,
            bits: load(p, DType::I64, at.span),
        }))
    }

    /// `arr[at] = v`: numba stores only a value of the array's type.
    pub(super) fn time_store(&mut self, t: &TimeArray, at: Index, v: Val) -> DResult<()> {
        let span = at.span;
        let bits = match v {
            Val::Time(x) if x.ty == t.ty => x.bits,
            Val::Time(x) => {
                return err(
                    span,
                    format!("cannot store a {} into a {} array (ksem stores values of the array's own type)", x.ty, t.ty),
                )
            }
            _ => return err(span, format!("only a {} value can be stored into a {} array in ksem", t.ty, t.ty)),
        };
        let p = self.elem_ptr(&t.arr, at)?;
        self.store(p, bits, DType::I64, span);
        Ok(())
    }

    /// `l op r` where either operand is a datetime64/timedelta64 value.
    pub(super) fn time_arith(&mut self, x: Binary<Val>) -> DResult<Val> {
        let Binary { op, l, r, span } = x;
        let (a, b) = both_times(
            &l,
            &r,
            "arithmetic mixing a datetime64/timedelta64 with a number",
            "ksem supports datetime - datetime, datetime ± timedelta and timedelta ± timedelta",
            span,
        )?;
        if a.ty.unit != b.ty.unit {
            return py::unsupported(
                span,
                &format!("`{}` of {} and {}", op_text(op), a.ty, b.ty),
                DIALECT,
                "operands of one unit",
            );
        }
        use ast::Operator as O;
        let (bop, delta) = match (op, a.ty.delta, b.ty.delta) {
            (O::Sub, false, false) => (BinOp::Sub, true),
            (O::Sub, false, true) | (O::Add, false, true) => {
                (if op == O::Sub { BinOp::Sub } else { BinOp::Add }, false)
            }
            (O::Add, true, false) => (BinOp::Add, false),
            (O::Sub, true, true) => (BinOp::Sub, true),
            (O::Add, true, true) => (BinOp::Add, true),
            _ => {
                return err(
                    span,
                    format!("numba has no `{}` of {} and {}", op_text(op), a.ty, b.ty),
                )
            }
        };
        let x = self.temp(a.bits.clone());
        let y = self.temp(b.bits.clone());
        let either = self.either_nat(&x, &y, span);
        let v = bin(bop, x, y, span);
        Ok(Val::Time(TimeVal {
            ty: TimeType {
                delta,
                unit: a.ty.unit,
            },
            bits: select(either, nat(span), v, span),
        }))
    }

    /// `l op r` (one comparison) where either operand is a
    /// datetime64/timedelta64 value: a bool.
    pub(super) fn time_cmp(&mut self, op: ast::CmpOp, l: Val, r: Val, span: Span) -> DResult<Expr> {
        let (a, b) = both_times(
            &l,
            &r,
            "comparing a datetime64/timedelta64 with a number",
            "compare two values of one datetime64/timedelta64 type",
            span,
        )?;
        if a.ty != b.ty {
            return py::unsupported(
                span,
                &format!("comparing {} with {}", a.ty, b.ty),
                DIALECT,
                "compare two values of one datetime64/timedelta64 type",
            );
        }
        let Some(bop) = py::value_cmp(op) else {
            return py::unsupported(
                span,
                &format!("`{}` of datetime64/timedelta64 values", cmp_text(op)),
                DIALECT,
                "==, !=, <, <=, > or >=",
            );
        };
        let x = self.temp(a.bits.clone());
        let y = self.temp(b.bits.clone());
        let either = self.either_nat(&x, &y, span);
        let c = bin(bop, x, y, span);
        Ok(if op == ast::CmpOp::NotEq {
            bin(BinOp::LogicalOr, either, c, span)
        } else {
            let none = unary(UnOp::LogicalNot, either, span);
            bin(BinOp::LogicalAnd, none, c, span)
        })
    }
}

fn cmp_text(op: ast::CmpOp) -> &'static str {
    match op {
        ast::CmpOp::Is => "is",
        ast::CmpOp::IsNot => "is not",
        ast::CmpOp::In => "in",
        ast::CmpOp::NotIn => "not in",
        _ => "comparison",
    }
}

/// The two operands of a binary operation on datetime64/timedelta64
/// values; where either is not one, the refusal of `what` with `help`.
fn both_times<'v>(
    l: &'v Val,
    r: &'v Val,
    what: &str,
    help: &str,
    span: Span,
) -> DResult<(&'v TimeVal, &'v TimeVal)> {
    match (l, r) {
        (Val::Time(a), Val::Time(b)) => Ok((a, b)),
        _ => py::unsupported(span, what, DIALECT, help),
    }
}
