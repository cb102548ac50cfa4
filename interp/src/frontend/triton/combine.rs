//! `tl.reduce` over a tuple of tensors and `tl.associative_scan`: user
//! combine functions over N operands, elaborated to `ExprKind::TupleReduce`
//! and `ExprKind::TupleScan` (one node per result, over operands bound once).

use super::builtins::normalize_axis;
use super::elab::{err, operands_agree, Elab};
use super::value::Value;
use crate::dtype::DType;
use crate::frontend::py;
use crate::ir::*;
use crate::span::{DResult, Span};

impl Elab<'_> {
    /// `tl.reduce((a, b, …), axis, combine_fn, keep_dims)`: a tuple of the
    /// N reductions (Triton 3.6 `core.reduce`: equal shapes, each result of
    /// its operand's dtype; `axis=None` reduces the row-major flattening).
    pub(super) fn tuple_reduce(
        &mut self,
        inputs: Vec<Value>,
        f: &str,
        axis: Option<i128>,
        keep_dims: bool,
        span: Span,
    ) -> DResult<Value> {
        let args = self.combine_operands(inputs, "tl.reduce", span)?;
        let shape = args[0].ty.shape.clone();
        let rank = shape.len();
        let (args, axis, out_shape) = match axis {
            None => {
                let n: usize = shape.iter().product();
                let flat = args
                    .into_iter()
                    .map(|a| self.reshape(a, vec![n], span))
                    .collect();
                (flat, 0, if keep_dims { vec![1; rank] } else { vec![] })
            }
            Some(a) => {
                let a = normalize_axis(a, rank, span)?;
                let mut out = shape.clone();
                if keep_dims {
                    out[a] = 1;
                } else {
                    out.remove(a);
                }
                (args, a, out)
            }
        };
        let mut natural = args[0].ty.shape.clone();
        natural.remove(axis);
        let combine = Box::new(self.tuple_combine(f, &args, span)?);
        let results = (0..args.len())
            .map(|pick| {
                let e = Expr {
                    ty: Type::num(args[pick].ty.dtype(), natural.clone()),
                    kind: ExprKind::TupleReduce {
                        args: args.clone(),
                        axis,
                        combine: combine.clone(),
                        pick,
                    },
                    span,
                };
                Value::Tensor(self.reshape(e, out_shape.clone(), span))
            })
            .collect();
        Ok(Value::Tuple(results))
    }

    /// `tl.associative_scan(x or (a, b, …), axis, combine_fn, reverse)`: the
    /// inclusive scan (a tuple of N scans for a tuple), each of its operand's
    /// type (Triton 3.6 `core.associative_scan`).
    pub(super) fn associative_scan(
        &mut self,
        input: Value,
        f: &str,
        axis: i128,
        reverse: bool,
        span: Span,
    ) -> DResult<Value> {
        let tuple = matches!(input, Value::Tuple(_));
        let inputs = match input {
            Value::Tuple(v) => v,
            v => vec![v],
        };
        let args = self.combine_operands(inputs, "tl.associative_scan", span)?;
        let axis = normalize_axis(axis, args[0].ty.shape.len(), span)?;
        let combine = Box::new(self.tuple_combine(f, &args, span)?);
        let mut results: Vec<Value> = (0..args.len())
            .map(|pick| {
                Value::Tensor(Expr {
                    ty: args[pick].ty.clone(),
                    kind: ExprKind::TupleScan {
                        args: args.clone(),
                        axis,
                        reverse,
                        combine: combine.clone(),
                        pick,
                    },
                    span,
                })
            })
            .collect();
        Ok(if tuple {
            Value::Tuple(results)
        } else {
            results.remove(0)
        })
    }

    /// The operands of a combination: tiles (not 0-d, not pointers) of one
    /// shape, each bound to a variable so that the N result nodes share them.
    fn combine_operands(
        &mut self,
        inputs: Vec<Value>,
        what: &str,
        span: Span,
    ) -> DResult<Vec<Expr>> {
        if inputs.is_empty() {
            return err(span, format!("{what} of an empty tuple"));
        }
        let mut args = Vec::with_capacity(inputs.len());
        for v in inputs {
            let x = self.to_tensor(v, span)?;
            check_tile_operand(&x, what, "combines", span)?;
            if let Some(a) = args.first() {
                let a: &Expr = a;
                let same = a.ty.shape == x.ty.shape;
                operands_agree(what, "shape", same, (&a.ty, &x.ty), span)?;
            }
            args.push(self.bind("combine_in", x));
        }
        Ok(args)
    }

    /// Elaborates `f` once over 2N fresh 0-d variables (N left, then N
    /// right, as Triton calls it) into a [`Combine`]; it must return N
    /// values of the operands' dtypes from straight-line element-wise code.
    fn tuple_combine(&mut self, f: &str, args: &[Expr], span: Span) -> DResult<Combine> {
        let dtypes: Vec<DType> = args.iter().map(|a| a.ty.dtype()).collect();
        self.combine_region(f, &dtypes, span)
    }

    /// Elaborates combine function `f` over operands of `dtypes` (N of
    /// them: 2N fresh 0-d variables, N left, then N right, as Triton calls
    /// it); it must return N values of those dtypes from straight-line
    /// element-wise code.
    pub(super) fn combine_region(
        &mut self,
        f: &str,
        dtypes: &[DType],
        span: Span,
    ) -> DResult<Combine> {
        let side = |s: &mut Self, name: &str| -> Vec<VarId> {
            dtypes
                .iter()
                .map(|&d| s.new_var(name, Type::scalar(d)))
                .collect()
        };
        let lhs = side(self, "lhs");
        let rhs = side(self, "rhs");
        let params: Vec<Value> = lhs
            .iter()
            .chain(&rhs)
            .map(|&v| Value::Tensor(self.var_expr(v, span)))
            .collect();
        let mut result = Value::None;
        let env = self.env.clone();
        let (body, _, _) = self.sub_block(|s| {
            result = s.call_jit(f, params.into(), span)?;
            Ok(())
        })?;
        self.env = env;
        let values = match result {
            Value::Tuple(v) => v,
            v => vec![v],
        };
        let d = dtypes.len();
        py::arity::count(span, values.len(), (d, d), |v| {
            format!("combine function `{f}` returns {v} value(s) for {d} operand(s)")
        })?;
        let mut results = Vec::with_capacity(values.len());
        for (k, (v, &d)) in values.into_iter().zip(dtypes).enumerate() {
            let r = self.to_tensor(v, span)?;
            if r.ty != Type::scalar(d) {
                return err(
                    span,
                    format!(
                        "combine function `{f}` must return a {d} scalar as value {k}, returned {}",
                        r.ty
                    ),
                );
            }
            results.push(r);
        }
        if body.iter().any(|s| !matches!(s, Stmt::Let(..))) {
            return err(
                span,
                format!("combine function `{f}` must be straight-line element-wise code"),
            );
        }
        Ok(Combine {
            lhs,
            rhs,
            body,
            results,
        })
    }
}

/// Refuses an operand of a reduction or scan (`what`, the call; `does`,
/// what Triton does with tiles) that is a pointer or 0-d.
pub(super) fn check_tile_operand(x: &Expr, what: &str, does: &str, span: Span) -> DResult<()> {
    if x.ty.is_ptr() {
        return err(span, format!("{what} of pointers ({})", x.ty));
    }
    if x.ty.shape.is_empty() {
        return err(span, format!("{what} of a 0-d value (Triton {does} tiles)"));
    }
    Ok(())
}
