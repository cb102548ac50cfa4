//! Enum members in CUDA Python kernels (`Color.red`, or an enum member
//! passed as an argument, which the plugin writes as that member).
//!
//! A member is its class and its value ([`Val::Member`]); in arithmetic
//! and indexing it is its value. Comparisons follow numba-cuda (measured on
//! the GPU: tools/probes/numba/host_values.json): `is`/`is not` hold only
//! between members of one class, where they compare values (numba's `is`
//! of two immutable values of one type is `==`); `==`/`!=` compare the
//! values of members of one class, and of IntEnum members (classes the
//! plugin writes `class C(int):`) with each other and with numbers; numba
//! has no `==` between an Enum member and a member of another class (a
//! TypingError), so ksem refuses it. A member that went through a
//! conditional expression, a variable assigned more than once or a device
//! function's return is its value only (ksem keeps no class there), so a
//! comparison of a member with a number compares the values; numba refuses
//! that for an Enum (not IntEnum) member (docs/divergences.md).

use super::*;

impl Elab<'_> {
    fn is_int_enum(&self, v: &Val) -> bool {
        matches!(v, Val::Member(c, _) if matches!(
            self.m.globals.get(c),
            Some(PyValue::Extra(Object::Class { int: true, .. }))
        ))
    }

    /// `l op r` where either is an enum member; None where the comparison
    /// is the values' own (IntEnum members and numbers).
    pub(super) fn member_cmp(
        &mut self,
        op: ast::CmpOp,
        l: &Val,
        r: &Val,
        span: Span,
    ) -> DResult<Option<Expr>> {
        use ast::CmpOp as C;
        let same_class = match (l, r) {
            (Val::Member(a, _), Val::Member(b, _)) => Some(a == b),
            _ => None,
        };
        let bool_const = |b: bool| konst(DType::Bool, b as u64, span);
        match op {
            C::Is | C::IsNot => {
                if same_class != Some(true) {
                    // different types: numba's `is` is false
                    return Ok(Some(bool_const(op == C::IsNot)));
                }
                let eq = self.values_eq(l, r, span)?;
                Ok(Some(if op == C::Is {
                    eq
                } else {
                    unary(UnOp::LogicalNot, eq, span)
                }))
            }
            C::Eq | C::NotEq if same_class == Some(true) => {
                let eq = self.values_eq(l, r, span)?;
                Ok(Some(if op == C::Eq {
                    eq
                } else {
                    unary(UnOp::LogicalNot, eq, span)
                }))
            }
            // a number may be a member whose class ksem did not keep (one
            // returned by a device function or chosen by a conditional
            // expression is its value): the values compare
            _ if matches!(l, Val::Num(_)) || matches!(r, Val::Num(_)) => Ok(None),
            _ if self.is_int_enum(l) && self.is_int_enum(r) => Ok(None),
            _ => {
                let name = |v: &Val| match v {
                    Val::Member(c, _) => format!("a member of `{c}`"),
                    _ => "a number".to_string(),
                };
                err(
                    span,
                    format!(
                        "numba has no comparison of {} with {} (only members of one Enum class compare; IntEnum members compare as integers)",
                        name(l),
                        name(r)
                    ),
                )
            }
        }
    }

    /// The values of two members of one class are equal (a tuple value:
    /// every element).
    fn values_eq(&mut self, l: &Val, r: &Val, span: Span) -> DResult<Expr> {
        let (Val::Member(_, a), Val::Member(_, b)) = (l, r) else {
            unreachable!("members")
        };
        self.eq_vals(a, b, span)
    }

    fn eq_vals(&mut self, a: &Val, b: &Val, span: Span) -> DResult<Expr> {
        match (a, b) {
            (Val::Tuple(xs), Val::Tuple(ys)) if xs.len() == ys.len() => {
                let mut acc = konst(DType::Bool, 1, span);
                for (x, y) in xs.iter().zip(ys) {
                    let e = self.eq_vals(x, y, span)?;
                    acc = bin(BinOp::LogicalAnd, acc, e, span);
                }
                Ok(acc)
            }
            _ => {
                let x = self.num(a.clone(), span)?;
                let y = self.num(b.clone(), span)?;
                self.cmp(ast::CmpOp::Eq, x, y, span)
            }
        }
    }
}
