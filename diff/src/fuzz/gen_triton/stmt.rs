//! Statements of generated Triton kernels: assignments, runtime `for` and
//! `while` loops with accumulators, runtime `if`/`else`, reductions.

use super::{dtype_of, int, read, reshape, shape_value, sp, Gen, Shape};
use ksem_interp::frontend::triton::builtins::Args;
use ksem_interp::frontend::triton::elab::Elab;
use ksem_interp::frontend::triton::value::Value;
use ksem_interp::span::DResult;
use rustpython_parser::ast::{CmpOp, Operator};

impl Gen<'_> {
    /// `name = v` for a fresh name, which expressions may then read.
    pub(super) fn assign(&mut self, el: &mut Elab, prefix: &str, v: Value) -> DResult<String> {
        let name = self.fresh(prefix);
        el.assign_name(&name, v, false, sp())?;
        self.vars.push(name.clone());
        Ok(name)
    }

    pub(super) fn stmt(&mut self, el: &mut Elab, depth: usize) -> DResult<()> {
        let r = self.rng.below(100);
        if depth < 2 && self.cfg.loops && r < 10 {
            self.for_loop(el, depth)
        } else if depth < 2 && self.cfg.loops && r < 15 {
            self.while_loop(el)
        } else if depth < 2 && self.cfg.branches && r < 25 {
            self.if_else(el, depth)
        } else if self.cfg.reductions && r < 35 {
            let e = self.reduction(el)?;
            self.assign(el, "v", e).map(drop)
        } else {
            let e = self.expr(el, self.cfg.max_depth)?;
            let e = self.tensorize(el, e)?;
            self.assign(el, "v", e).map(drop)
        }
    }

    /// `acc = tl.zeros(…)` then `for i in range(lo, hi, step): acc = acc + e`.
    fn for_loop(&mut self, el: &mut Elab, depth: usize) -> DResult<()> {
        self.features.insert("for");
        let d = self.arith_dtype();
        let acc = self.fresh("acc");
        let shape = if self.rng.chance(0.7) {
            Shape::Full
        } else {
            Shape::Scalar
        };
        let zeros = el.call_builtin(
            "zeros",
            Args {
                pos: vec![shape_value(&self.dims(shape))],
                kw: vec![("dtype".into(), Value::DType(d))],
            },
            sp(),
        )?;
        el.assign_name(&acc, zeros, false, sp())?;
        let iv = self.fresh("i");
        let (lo, hi, step) = *self
            .rng
            .pick(&[(0, 3, 1), (1, 5, 2), (4, 0, -1), (-2, 2, 1)]);
        let saved = self.vars.len();
        let r = el.range_loop(
            &iv,
            [int(lo), int(hi), int(step)],
            vec![acc.clone()],
            sp(),
            |el| {
                self.vars.push(iv.clone());
                if self.rng.chance(0.3) {
                    self.stmt(el, depth + 1)?;
                }
                let e = self.expr(el, 2)?;
                let sum = self.binary_arith(el, read(el, &acc)?, e, Operator::Add)?;
                let sum = if self.shape(&sum) != shape && shape == Shape::Scalar {
                    // keep the accumulator's shape: reduce a tile back to a scalar
                    let mut s = sum;
                    // real Triton sums floats in another order (divergence 11)
                    let f = if self.cfg.avoid_divergences() && dtype_of(&s).is_float() {
                        "max"
                    } else {
                        "sum"
                    };
                    for axis in (0..if self.two_d { 2 } else { 1 }).rev() {
                        s = el.call_builtin(
                            f,
                            Args {
                                pos: vec![s],
                                kw: vec![("axis".into(), int(axis))],
                            },
                            sp(),
                        )?;
                    }
                    s
                } else if self.shape(&sum) != shape {
                    el.call_builtin(
                        "broadcast_to",
                        vec![sum, shape_value(&self.dims(shape))],
                        sp(),
                    )?
                } else {
                    sum
                };
                let conv = self.convert(el, sum, d)?;
                el.assign_name(&acc, conv, false, sp())
            },
        );
        self.vars.truncate(saved);
        r?;
        self.vars.push(acc);
        Ok(())
    }

    /// `j = 0`, `w = tl.zeros(…)`, `while j < bound: w = w - e; j += 1`.
    fn while_loop(&mut self, el: &mut Elab) -> DResult<()> {
        self.features.insert("while");
        let j = self.fresh("j");
        let acc = self.fresh("w");
        let d = self.arith_dtype();
        el.assign_name(&j, int(0), false, sp())?;
        let zeros = el.call_builtin(
            "zeros",
            Args {
                pos: vec![shape_value(&self.dims(Shape::Full))],
                kw: vec![("dtype".into(), Value::DType(d))],
            },
            sp(),
        )?;
        el.assign_name(&acc, zeros, false, sp())?;
        let bound = 1 + self.rng.below(3) as i128;
        let saved = self.vars.len();
        let r = el.while_loop(
            vec![acc.clone(), j.clone()],
            sp(),
            |el| el.compare(CmpOp::Lt, read(el, &j)?, int(bound), sp()),
            |el| {
                self.vars.push(j.clone());
                let e = self.expr(el, 2)?;
                let mut sum = self.binary_arith(el, read(el, &acc)?, e, Operator::Sub)?;
                if self.shape(&sum) != Shape::Full {
                    sum = self.full_of(el, sum)?;
                }
                let conv = self.convert(el, sum, d)?;
                el.assign_name(&acc, conv, false, sp())?;
                let next = el.binop(Operator::Add, read(el, &j)?, int(1), sp())?;
                el.assign_name(&j, next, false, sp())
            },
        );
        self.vars.truncate(saved);
        r?;
        self.vars.push(acc);
        Ok(())
    }

    /// `if cond: b = e1 else: b = e2` on a runtime condition.
    fn if_else(&mut self, el: &mut Elab, depth: usize) -> DResult<()> {
        self.features.insert("if");
        let pid = read(el, "pid")?;
        let cond = match self.rng.below(3) {
            0 => {
                let m = el.binop(Operator::Mod, pid, int(2), sp())?;
                el.compare(CmpOp::Eq, m, int(0), sp())?
            }
            1 if self.vars.iter().any(|v| v == "s0") => {
                el.compare(CmpOp::Gt, read(el, "s0")?, int(0), sp())?
            }
            _ => el.compare(CmpOp::Lt, pid, int(1 + self.rng.below(3) as i128), sp())?,
        };
        let Value::Tensor(cond) = cond else {
            return super::bug("a runtime condition folded");
        };
        let out = self.fresh("b");
        let d = self.arith_dtype();
        let saved = self.vars.len();
        el.runtime_if(cond, sp(), |el, then| {
            if then && self.rng.chance(0.3) {
                self.stmt(el, depth + 1)?;
            }
            let a = self.expr(el, 2)?;
            let a = self.full_of(el, a)?;
            let a = self.convert(el, a, d)?;
            el.assign_name(&out, a, false, sp())?;
            self.vars.truncate(saved);
            Ok(())
        })?;
        self.vars.push(out);
        Ok(())
    }

    /// `tl.sum/max/min/argmax/argmin/xor_sum` of a tile along an axis (or all).
    pub(super) fn reduction(&mut self, el: &mut Elab) -> DResult<Value> {
        self.features.insert("reduce");
        let a = self.expr(el, 2)?;
        let a = self.full_of(el, a)?;
        let (axis, keep) = if self.two_d {
            match self.rng.below(3) {
                0 => (Some(0), true),
                1 => (Some(1), true),
                _ => (None, false),
            }
        } else {
            (Some(0), false)
        };
        let f = match self.rng.below(6) {
            0 | 1 => "sum",
            2 => "max",
            3 => "min",
            4 => {
                if self.rng.chance(0.5) {
                    "argmax"
                } else {
                    "argmin"
                }
            }
            _ if dtype_of(&a).is_int() => "xor_sum",
            _ => "sum",
        };
        // real Triton sums floats in another order (divergence 11); its
        // argmax/argmin differ between threads where a NaN takes part (#25)
        // and return wrong indices after a reshape (#26)
        let float = dtype_of(&a).is_float();
        let f = match f {
            "sum" if self.cfg.avoid_divergences() && float => "max",
            "argmax" | "argmin" if self.cfg.avoid_divergences() && (float || axis.is_none()) => {
                if f == "argmax" {
                    "max"
                } else {
                    "min"
                }
            }
            f => f,
        };
        let n = self.rows * self.cols;
        let (a, axis) = if f.starts_with("arg") && axis.is_none() {
            (reshape(el, a, &[n])?, Some(0))
        } else {
            (a, axis)
        };
        let mut kw = vec![(
            "axis".to_string(),
            axis.map_or(Value::None, |x| int(x as i128)),
        )];
        if keep {
            kw.push((
                "keep_dims".into(),
                Value::Num(ksem_interp::frontend::triton::promote::PyNum::Bool(true)),
            ));
        }
        el.call_builtin(f, Args { pos: vec![a], kw }, sp())
    }
}
