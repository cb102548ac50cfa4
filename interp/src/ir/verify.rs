//! The IR verifier: checks that a program a front end produced is well
//! formed (types, shapes, address spaces, control flow) before anything
//! runs or lowers it. Tests run it on every program they elaborate.

use super::*;
use crate::dtype::DType;
use crate::span::{Diagnostic, Span};

/// Checks `k`, every launch of it; the error names the first ill-formed node.
pub fn verify(k: &Kernel) -> Result<(), Diagnostic> {
    k.launches().iter().try_for_each(|l| verify_launch(l))
}

/// Checks a kernel of one launch.
fn verify_launch(k: &Kernel) -> Result<(), Diagnostic> {
    if k.grid.contains(&0) || k.block.contains(&0) {
        return fail(
            Span::default(),
            format!(
                "a launch of grid {:?} and block {:?} has no thread",
                k.grid, k.block
            ),
        );
    }
    let mut v = Verifier { k, loops: 0 };
    for p in &k.params {
        if let Some(var) = p.var {
            v.var(var, Span::default())?;
            let want = match p.kind {
                ParamKind::Pointer(d) => Type::global_ptr(d),
                ParamKind::Scalar(d) => Type::scalar(d),
                ParamKind::Constexpr => return fail(Span::default(), "a constexpr has a variable"),
            };
            v.same(&k.vars[var].1, &want, Span::default(), "parameter variable")?;
        }
    }
    for a in &k.arrays {
        if a.space == AddrSpace::Global {
            return fail(a.span, "an array declaration in global memory");
        }
    }
    v.block(&k.body)
}

fn fail<T>(span: Span, msg: impl Into<String>) -> Result<T, Diagnostic> {
    Err(Diagnostic::new(
        span,
        format!("IR verifier: {}", msg.into()),
    ))
}

struct Verifier<'k> {
    k: &'k Kernel,
    loops: usize,
}

impl Verifier<'_> {
    fn var(&self, v: VarId, span: Span) -> Result<&Type, Diagnostic> {
        match self.k.vars.get(v) {
            Some((_, t)) => Ok(t),
            None => fail(span, format!("variable {v} is not declared")),
        }
    }

    fn same(&self, a: &Type, b: &Type, span: Span, what: &str) -> Result<(), Diagnostic> {
        if a != b {
            return fail(span, format!("{what}: {a} and {b} differ"));
        }
        Ok(())
    }

    fn bool_scalar(&self, e: &Expr, what: &str) -> Result<(), Diagnostic> {
        self.expr(e)?;
        if e.ty != Type::scalar(DType::Bool) {
            return fail(e.span, format!("{what} has type {}, not a 0-d bool", e.ty));
        }
        Ok(())
    }

    fn simt_only(&self, span: Span, what: &str) -> Result<(), Diagnostic> {
        if self.k.model != Model::Simt {
            return fail(span, format!("{what} in a tile program"));
        }
        Ok(())
    }

    fn block(&mut self, b: &Block) -> Result<(), Diagnostic> {
        b.iter().try_for_each(|s| self.stmt(s))
    }

    fn stmt(&mut self, s: &Stmt) -> Result<(), Diagnostic> {
        match s {
            Stmt::Let(v, e) => {
                self.expr(e)?;
                let t = self.var(*v, e.span)?.clone();
                self.same(&t, &e.ty, e.span, "assignment")
            }
            Stmt::Store {
                ptr,
                value,
                mask,
                span,
            } => {
                self.pointer(ptr)?;
                self.expr(value)?;
                if value.ty.elem != Elem::Num(ptr.ty.dtype()) {
                    return fail(*span, format!("store of {} through {}", value.ty, ptr.ty));
                }
                if value.ty.shape != ptr.ty.shape {
                    return fail(*span, "store value and pointer shapes differ");
                }
                self.mask(mask.as_ref(), &ptr.ty.shape)
            }
            Stmt::If {
                cond,
                then_body,
                else_body,
            } => {
                self.bool_scalar(cond, "an if condition")?;
                self.block(then_body)?;
                self.block(else_body)
            }
            Stmt::For {
                var,
                start,
                end,
                step,
                body,
                span,
                ..
            } => {
                let t = self.var(*var, *span)?.clone();
                if !t.dtype().is_int() || !t.shape.is_empty() || t.is_ptr() {
                    return fail(*span, format!("loop variable of type {t}"));
                }
                for e in [start, end, step] {
                    self.expr(e)?;
                    self.same(&t, &e.ty, e.span, "loop bound")?;
                }
                self.loop_body(body)
            }
            Stmt::While { cond, body, .. } => {
                self.bool_scalar(cond, "a while condition")?;
                self.loop_body(body)
            }
            Stmt::Break | Stmt::Continue => {
                if self.loops == 0 {
                    return fail(Span::default(), "break/continue outside a loop");
                }
                Ok(())
            }
            Stmt::Return => Ok(()),
            Stmt::Barrier { span } => self.simt_only(*span, "a barrier"),
            Stmt::Print { args, .. } => args.iter().try_for_each(|a| self.expr(a)),
            Stmt::Gemm(g) => {
                self.gemm(&g.spec)?;
                self.block(&g.body)
            }
        }
    }

    /// A `Stmt::Gemm`'s arrays exist and hold the product's operands.
    fn gemm(&self, g: &GemmSpec) -> Result<(), Diagnostic> {
        let len = |a: ArrayId| self.k.arrays.get(a).map(|d| d.len());
        if len(g.a) != Some(g.m * g.k) || len(g.b) != Some(g.k * g.n) || len(g.c) != Some(g.m * g.n)
        {
            return fail(Span::default(), format!("gemm operands do not hold {g:?}"));
        }
        Ok(())
    }

    fn loop_body(&mut self, body: &Block) -> Result<(), Diagnostic> {
        self.loops += 1;
        let r = self.block(body);
        self.loops -= 1;
        r
    }

    fn pointer(&self, e: &Expr) -> Result<(), Diagnostic> {
        self.expr(e)?;
        if !e.ty.is_ptr() {
            return fail(e.span, format!("{} is not a pointer", e.ty));
        }
        Ok(())
    }

    fn mask(&self, m: Option<&Expr>, shape: &[usize]) -> Result<(), Diagnostic> {
        if let Some(m) = m {
            self.expr(m)?;
            if m.ty != Type::num(DType::Bool, shape.to_vec()) {
                return fail(m.span, format!("mask of type {}", m.ty));
            }
        }
        Ok(())
    }

    fn expr(&self, e: &Expr) -> Result<(), Diagnostic> {
        let span = e.span;
        let scalar_i32 = |what| {
            if e.ty != Type::scalar(DType::I32) {
                return fail(span, format!("{what} of type {}", e.ty));
            }
            Ok(())
        };
        match &e.kind {
            ExprKind::Const(_) => {
                if !e.ty.shape.is_empty() {
                    return fail(span, "a constant that is not 0-d");
                }
            }
            ExprKind::Var(v) => {
                let t = self.var(*v, span)?;
                self.same(t, &e.ty, span, "variable use")?;
            }
            ExprKind::BlockId(d) | ExprKind::GridDim(d) => {
                if *d > 2 {
                    return fail(span, format!("dimension {d}"));
                }
                scalar_i32("a block id or grid size")?;
            }
            ExprKind::ThreadId(d) | ExprKind::BlockDim(d) => {
                self.simt_only(span, "a thread id or block size")?;
                if *d > 2 {
                    return fail(span, format!("dimension {d}"));
                }
                scalar_i32("a thread id or block size")?;
            }
            ExprKind::Undef => {
                if e.ty.is_ptr() {
                    return fail(span, "an undefined pointer");
                }
            }
            ExprKind::Iota(s, t) => {
                if e.ty != Type::num(DType::I32, vec![(t - s).max(0) as usize]) {
                    return fail(span, format!("iota of type {}", e.ty));
                }
            }
            ExprKind::Broadcast(x) => {
                self.expr(x)?;
                if !x.ty.shape.is_empty() && x.ty.shape.len() != e.ty.shape.len() {
                    return fail(span, "broadcast changes the rank");
                }
                self.elem(x, e)?;
            }
            ExprKind::Reshape(x) => {
                self.expr(x)?;
                if x.ty.numel() != e.ty.numel() {
                    return fail(span, "reshape changes the number of elements");
                }
                self.elem(x, e)?;
            }
            ExprKind::Permute(x, perm) => {
                self.expr(x)?;
                let mut p = perm.clone();
                p.sort_unstable();
                if p != (0..x.ty.shape.len()).collect::<Vec<_>>() {
                    return fail(span, "permute's axes are not a permutation");
                }
                self.elem(x, e)?;
            }
            ExprKind::Cast(x, kind) => {
                self.expr(x)?;
                let pointer_bits = kind.is_pointer_bits(&x.ty, &e.ty);
                if x.ty.shape != e.ty.shape || (!pointer_bits && (x.ty.is_ptr() || e.ty.is_ptr())) {
                    return fail(span, format!("cast from {} to {}", x.ty, e.ty));
                }
            }
            ExprKind::Unary(_, x) => {
                self.expr(x)?;
                self.same(&x.ty, &e.ty, span, "unary operand")?;
            }
            ExprKind::Binary(op, a, b) => {
                self.expr(a)?;
                self.expr(b)?;
                if a.ty.shape != b.ty.shape || a.ty.shape != e.ty.shape {
                    return fail(span, format!("{op:?} of shapes {} and {}", a.ty, b.ty));
                }
                match op {
                    BinOp::PtrAdd | BinOp::PtrAddBytes => {
                        if !a.ty.is_ptr() || !b.ty.dtype().is_int() || b.ty.is_ptr() {
                            return fail(span, format!("pointer add of {} and {}", a.ty, b.ty));
                        }
                        self.same(&a.ty, &e.ty, span, "pointer add")?;
                    }
                    BinOp::PtrDiff => {
                        if !a.ty.is_ptr() || a.ty != b.ty || e.ty != Type::scalar(DType::I64) {
                            return fail(
                                span,
                                format!("pointer difference of {} and {} as {}", a.ty, b.ty, e.ty),
                            );
                        }
                    }
                    _ if op.is_comparison() => {
                        self.same(&a.ty, &b.ty, span, "comparison operands")?;
                        if e.ty.elem != Elem::Num(DType::Bool) {
                            return fail(span, "a comparison that is not bool");
                        }
                    }
                    _ => {
                        self.same(&a.ty, &b.ty, span, "operands")?;
                        self.same(&a.ty, &e.ty, span, "result")?;
                    }
                }
            }
            ExprKind::Select(c, a, b) => {
                self.expr(c)?;
                self.expr(a)?;
                self.expr(b)?;
                if c.ty.elem != Elem::Num(DType::Bool) {
                    return fail(span, "select condition is not bool");
                }
                self.same(&a.ty, &b.ty, span, "select arms")?;
            }
            ExprKind::Fma(a, b, c, _) => {
                for x in [a, b, c] {
                    self.expr(x)?;
                    self.same(&x.ty, &e.ty, span, "fma operand")?;
                }
            }
            ExprKind::Load { ptr, mask, other } => {
                self.pointer(ptr)?;
                if e.ty != Type::num(ptr.ty.dtype(), ptr.ty.shape.clone()) {
                    return fail(span, format!("load of {} through {}", e.ty, ptr.ty));
                }
                self.mask(mask.as_deref(), &ptr.ty.shape)?;
                if let Some(o) = other {
                    self.expr(o)?;
                    self.same(&o.ty, &e.ty, span, "load's other")?;
                }
            }
            ExprKind::ArrayBase(a) => {
                let Some(d) = self.k.arrays.get(*a) else {
                    return fail(span, format!("array {a} is not declared"));
                };
                let want = Type {
                    elem: Elem::Ptr(d.dtype, d.space),
                    shape: vec![],
                };
                self.same(&want, &e.ty, span, "array base")?;
            }
            ExprKind::ElemPtr {
                base,
                indices,
                dims,
                offset,
                ..
            } => {
                self.pointer(base)?;
                self.same(&base.ty, &e.ty, span, "element pointer")?;
                if indices.len() != dims.len() || indices.is_empty() {
                    return fail(span, "indices and dimensions differ in number");
                }
                for i in indices.iter().chain(offset.as_deref()) {
                    self.expr(i)?;
                    if !i.ty.shape.is_empty() || i.ty.is_ptr() || !i.ty.dtype().is_int() {
                        return fail(i.span, format!("index of type {}", i.ty));
                    }
                }
            }
            ExprKind::CheckIndex { index, len, .. } => {
                self.simt_only(span, "a runtime index check")?;
                for x in [index, len] {
                    self.expr(x)?;
                    if x.ty != e.ty
                        || !e.ty.shape.is_empty()
                        || !e.ty.dtype().is_int()
                        || e.ty.is_ptr()
                    {
                        return fail(
                            x.span,
                            format!("index check operand of type {} (value {})", x.ty, e.ty),
                        );
                    }
                }
            }
            ExprKind::Atomic {
                op,
                ptr,
                val,
                cmp,
                mask,
            } => {
                self.pointer(ptr)?;
                self.expr(val)?;
                if let Some(m) = mask {
                    if self.k.model != Model::Tile {
                        return fail(span, "a masked atomic in a SIMT program");
                    }
                    self.expr(m)?;
                    self.same(
                        &m.ty,
                        &Type::num(DType::Bool, ptr.ty.shape.clone()),
                        span,
                        "atomic mask",
                    )?;
                }
                if val.ty != Type::num(ptr.ty.dtype(), ptr.ty.shape.clone()) || val.ty != e.ty {
                    return fail(span, format!("atomic of {} through {}", val.ty, ptr.ty));
                }
                match (op, cmp) {
                    (AtomicOp::Cas, Some(c)) => {
                        self.expr(c)?;
                        self.same(&c.ty, &val.ty, span, "compare-and-swap operands")?;
                    }
                    (AtomicOp::Cas, None) => {
                        return fail(span, "compare-and-swap without a compared value")
                    }
                    (_, Some(_)) => {
                        return fail(span, "a compared value on an atomic that is not cas")
                    }
                    (_, None) => {}
                }
            }
            ExprKind::Reduce { arg, axis, .. } => {
                self.expr(arg)?;
                if axis.is_some_and(|a| a >= arg.ty.shape.len().max(1)) {
                    return fail(span, "reduction axis out of range");
                }
            }
            ExprKind::TupleReduce {
                args,
                axis,
                combine,
                pick,
            }
            | ExprKind::TupleScan {
                args,
                axis,
                combine,
                pick,
                ..
            } => {
                for a in args {
                    self.expr(a)?;
                }
                let Some(first) = args.first() else {
                    return fail(span, "a tuple reduction or scan of no operands");
                };
                let n = args.len();
                if combine.lhs.len() != n || combine.rhs.len() != n || combine.results.len() != n {
                    return fail(
                        span,
                        "a combine function of another arity than its operands",
                    );
                }
                for (a, r) in args.iter().zip(&combine.results) {
                    if a.ty.shape != first.ty.shape || a.ty.is_ptr() {
                        return fail(span, format!("combined operands {} and {}", first.ty, a.ty));
                    }
                    if r.ty != Type::scalar(a.ty.dtype()) {
                        return fail(span, format!("a combine result {} for {}", r.ty, a.ty));
                    }
                }
                if *axis >= first.ty.shape.len() || *pick >= n {
                    return fail(span, "tuple reduction or scan axis or result out of range");
                }
                let mut shape = first.ty.shape.clone();
                if matches!(e.kind, ExprKind::TupleReduce { .. }) {
                    shape.remove(*axis);
                }
                self.same(
                    &Type::num(args[*pick].ty.dtype(), shape),
                    &e.ty,
                    span,
                    "tuple result",
                )?;
            }
            ExprKind::Scan { arg, axis, op, .. } => {
                self.expr(arg)?;
                if *axis >= arg.ty.shape.len() {
                    return fail(span, "scan axis out of range");
                }
                if arg.ty != e.ty || arg.ty.is_ptr() {
                    return fail(span, format!("scan of {} typed {}", arg.ty, e.ty));
                }
                if !matches!(op, BinOp::Add | BinOp::Mul) {
                    return fail(span, format!("scan with {op:?}"));
                }
            }
            ExprKind::Dot {
                a,
                b,
                acc,
                precision,
            } => {
                if self.k.model != Model::Tile {
                    return fail(span, "a matrix product in a SIMT program");
                }
                for x in [a, b, acc] {
                    self.expr(x)?;
                    if x.ty.is_ptr() || x.ty.elem != e.ty.elem {
                        return fail(span, format!("dot operand {} for a {} result", x.ty, e.ty));
                    }
                }
                self.same(&acc.ty, &e.ty, span, "dot accumulator")?;
                let (sa, sb, sc) = (&a.ty.shape, &b.ty.shape, &e.ty.shape);
                let r = sc.len();
                let fits = r >= 2
                    && sa.len() == r
                    && sb.len() == r
                    && sa[..r - 2] == sc[..r - 2]
                    && sb[..r - 2] == sc[..r - 2]
                    && sa[r - 2] == sc[r - 2]
                    && sb[r - 1] == sc[r - 1]
                    && sa[r - 1] == sb[r - 2];
                if !fits {
                    return fail(
                        span,
                        format!("dot of shapes {:?} and {:?} into {:?}", sa, sb, sc),
                    );
                }
                if *precision == DotPrecision::Tf32 && e.ty.dtype() != DType::F32 {
                    return fail(span, format!("tf32 rounding of {} operands", e.ty.dtype()));
                }
            }
        }
        Ok(())
    }

    fn elem(&self, x: &Expr, e: &Expr) -> Result<(), Diagnostic> {
        if x.ty.elem != e.ty.elem {
            return fail(
                e.span,
                format!("element type changes from {} to {}", x.ty, e.ty),
            );
        }
        Ok(())
    }
}
