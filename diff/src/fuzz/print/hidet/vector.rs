//! Vector values in the printed Hidet script. The front end holds an
//! element of a vector tensor as `w` consecutive numbers of the lane
//! dtype (its element pointer's offset is `index * 1 * w`, held in a `_t`
//! temporary), and a vector variable `v` as lane variables `v.0 …
//! v.(w-1)`. The printer recognises: an array whose element offsets are
//! scaled by `w` as `tensor(dtype=float32x4, shape=[m])`; a run of lane
//! definitions loading one element's lanes as `v = t[k]`, negating
//! another vector variable's lanes as `w = -v`; a run of lane stores of a
//! vector variable as `t[k] = v`; a number `j` past an element's pointer
//! as the lane `cast(~t[k], ~f32)[j]`. The round trip checks the result.

use super::{complex::split_part_any, PResult, Printer};
use crate::fuzz::print::control::Structured;
use ksem_interp::dtype::DType;
use ksem_interp::ir::build::{bin, int_const};
use ksem_interp::ir::*;

/// The Hidet name of the vector type of `w` lanes of `d` (f32x2 and
/// f64x2 print as complex numbers, whose IR they share: not vectors).
pub(super) fn vector_type_name(d: DType, w: usize) -> Option<&'static str> {
    Some(match (d, w) {
        (DType::F16, 2) => "float16x2",
        (DType::BF16, 2) => "bfloat16x2",
        (DType::F32, 4) => "float32x4",
        (DType::F32, 8) => "float32x8",
        (DType::I8, 4) => "int8x4",
        (DType::U8, 4) => "uint8x4",
        _ => return None,
    })
}

/// The offset of an element of a vector tensor: `row_offset * w`.
pub(super) fn scaled_offset(row_offset: Expr, w: usize) -> Expr {
    let d = row_offset.ty.dtype();
    let span = row_offset.span;
    bin(BinOp::Mul, row_offset, int_const(d, w as i128, span), span)
}

impl<'k> Printer<'k> {
    /// The lanes (width) of array `id`'s elements (1: numbers).
    pub(super) fn width_of(&self, id: ArrayId) -> usize {
        self.widths.get(id).copied().unwrap_or(1)
    }

    /// The vector array and element pointer `p` addresses the first lane
    /// of, if it is one.
    fn vector_elem(&self, p: &Expr) -> Option<(ArrayId, usize)> {
        let ExprKind::ElemPtr { base, .. } = &p.kind else {
            return None;
        };
        let ExprKind::ArrayBase(id) = base.kind else {
            return None;
        };
        let w = self.width_of(id);
        (w > 1).then_some((id, w))
    }

    /// `cast(~t[i], ~T)[j]`: lane `j` counted from element `i`'s first, for
    /// `ptradd(elem, k)` into a vector tensor; `None` if `ptr` is no such.
    pub(super) fn lane_place(&mut self, ptr: &'k Expr) -> PResult<Option<String>> {
        let ExprKind::Binary(BinOp::PtrAdd, p, k) = &ptr.kind else {
            return Ok(None);
        };
        if self.vector_elem(p).is_none() {
            return Ok(None);
        }
        let elem = self.elem_place(p)?;
        let lane = super::type_name(ptr.ty.dtype())?;
        let f = self.pick(k, |f| Some(crate::fuzz::gen_hidet::nodes::index(&f.v)))?;
        Ok(Some(format!("cast(~{elem}, ~{lane})[{}]", f.text)))
    }

    /// Lane `l` of the element at `p` (`p` itself for lane 0).
    fn is_lane(ptr: &Expr, p: &Expr, l: usize) -> bool {
        if l == 0 {
            return ptr == p;
        }
        matches!(&ptr.kind, ExprKind::Binary(BinOp::PtrAdd, q, k)
            if **q == *p && k.kind == ExprKind::Const(l as u64) && k.ty.dtype() == DType::I64)
    }

    /// The lane variables `base.0 …` defined by the run of lets at `b[i]`.
    fn lane_run(&self, b: &'k [Stmt], i: usize) -> Option<(String, Vec<(VarId, &'k Expr)>)> {
        let Stmt::Let(v0, _) = &b[i] else {
            return None;
        };
        let (base, 0) = split_part_any(self.var_name(*v0))? else {
            return None;
        };
        let mut run = Vec::new();
        for (l, s) in b[i..].iter().enumerate() {
            let Stmt::Let(v, e) = s else { break };
            match split_part_any(self.var_name(*v)) {
                Some((bb, k)) if bb == base && k == l => run.push((*v, e)),
                _ => break,
            }
        }
        let d = run[0].1.ty.dtype();
        vector_type_name(d, run.len())?;
        run.iter()
            .all(|(_, e)| e.ty.dtype() == d && !e.ty.is_ptr())
            .then(|| (base.to_string(), run))
    }

    /// The vector variable whose lanes `lanes` read, in order.
    fn vector_operand(&self, lanes: &[&Expr]) -> Option<String> {
        let mut base = None;
        for (l, e) in lanes.iter().enumerate() {
            let ExprKind::Var(v) = e.kind else {
                return None;
            };
            let (b, k) = split_part_any(self.var_name(v))?;
            if k != l || base.is_some_and(|x| x != b) || !self.visible(v) {
                return None;
            }
            base = Some(b);
        }
        base.map(str::to_string)
    }

    /// The statements at `b[i]` that define a vector variable or store a
    /// whole vector element, printed; how many there are (`None`: neither).
    pub(super) fn vector_at(&mut self, b: &'k [Stmt], i: usize) -> PResult<Option<usize>> {
        if let Some((base, run)) = self.lane_run(b, i) {
            let exprs: Vec<&Expr> = run.iter().map(|(_, e)| *e).collect();
            let text = self.vector_value(&exprs)?;
            if run.iter().any(|(v, _)| self.visible(*v)) {
                return Err(format!("the vector variable `{base}` is assigned twice"));
            }
            if self.names.contains(&base) {
                return Err(format!(
                    "the vector variable `{base}` shares a printed name"
                ));
            }
            for (v, _) in &run {
                self.declare(*v);
            }
            self.line(&format!("{base} = {text}"));
            return Ok(Some(run.len()));
        }
        let Stmt::Store {
            ptr, mask: None, ..
        } = &b[i]
        else {
            return Ok(None);
        };
        let Some((_, w)) = self.vector_elem(ptr) else {
            return Ok(None);
        };
        let mut values = Vec::new();
        for l in 0..w {
            match b.get(i + l) {
                Some(Stmt::Store {
                    ptr: q,
                    value: x,
                    mask: None,
                    ..
                }) if Self::is_lane(q, ptr, l) => values.push(x),
                _ => return Err("a vector element stored in part".into()),
            }
        }
        let src = self
            .vector_operand(&values)
            .ok_or("a vector element stored from something other than a vector variable")?;
        let target = self.elem_place(ptr)?;
        self.line(&format!("{target} = {src}"));
        Ok(Some(w))
    }

    /// The script form of the lanes of a vector value: `t[k]` (one
    /// element's lanes loaded), `-v` (a vector variable's lanes negated).
    fn vector_value(&mut self, lanes: &[&'k Expr]) -> PResult<String> {
        if let ExprKind::Load {
            ptr: p0,
            mask: None,
            other: None,
        } = &lanes[0].kind
        {
            let whole = self.vector_elem(p0).is_some_and(|(_, w)| w == lanes.len())
                && lanes.iter().enumerate().all(|(l, e)| {
                    matches!(&e.kind, ExprKind::Load { ptr, mask: None, other: None } if Self::is_lane(ptr, p0, l))
                });
            if whole {
                return self.elem_place(p0);
            }
        }
        let negated: Option<Vec<&Expr>> = lanes
            .iter()
            .map(|e| match &e.kind {
                ExprKind::Unary(UnOp::Neg, x) => Some(&**x),
                _ => None,
            })
            .collect();
        if let Some(src) = negated.and_then(|n| self.vector_operand(&n)) {
            return Ok(format!("-{src}"));
        }
        Err("a vector value with no Hidet form".into())
    }
}
