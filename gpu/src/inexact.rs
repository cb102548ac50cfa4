//! Static inexactness analysis: which values of a kernel may derive from an
//! approximate math function (exp, log, sin, …), so that the elements a
//! store writes can be marked inexact without tracking flags per element at
//! run time. Conservative: a value is inexact when any value it is computed
//! from may be; a load is inexact when its `other` may be or when any store
//! into a buffer the pointer may point into stores a possibly inexact value.

use ksem_interp::ir::{
    AtomicOp, Block, Combiner, Expr, ExprKind, Kernel, ParamKind, Stmt, UnOp, VarId,
};
use std::collections::BTreeSet;

/// The result of the analysis for one kernel.
#[derive(Clone, Debug)]
pub struct Inexact {
    /// Per variable slot: may hold an inexact value.
    var: Vec<bool>,
    /// Per variable slot: the buffers (indices among the pointer params) a pointer in it may point into.
    roots: Vec<BTreeSet<usize>>,
    /// Per memory (the pointer params' buffers, then the kernel's arrays):
    /// may hold an inexact element after some store.
    buf: Vec<bool>,
    /// Index in `buf` of the kernel's first array.
    array_base: usize,
}

impl Inexact {
    /// Analyses a kernel to a fixpoint.
    pub fn analyze(k: &Kernel) -> Inexact {
        Inexact::analyze_after(k, &[])
    }

    /// Analyses a kernel of one launch that runs after launches which may
    /// have left inexact elements in the buffers `seed` marks (one flag per
    /// pointer parameter, as [`Inexact::param_buffers`] gives them).
    pub fn analyze_after(k: &Kernel, seed: &[bool]) -> Inexact {
        let mut a = Inexact {
            var: vec![false; k.vars.len()],
            roots: vec![BTreeSet::new(); k.vars.len()],
            buf: Vec::new(),
            array_base: 0,
        };
        for p in &k.params {
            if let (ParamKind::Pointer(_), Some(v)) = (&p.kind, p.var) {
                let b = a.buf.len();
                a.buf.push(false);
                if v < a.roots.len() {
                    a.roots[v].insert(b);
                }
            }
        }
        for (b, &s) in a.buf.iter_mut().zip(seed) {
            *b = s;
        }
        a.array_base = a.buf.len();
        a.buf.extend(k.arrays.iter().map(|_| false));
        loop {
            let before = (a.var.clone(), a.roots.clone(), a.buf.clone());
            a.block(&k.body);
            if (a.var.clone(), a.roots.clone(), a.buf.clone()) == before {
                return a;
            }
        }
    }

    /// Whether the value of `e` may be inexact.
    pub fn expr(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Const(_)
            | ExprKind::BlockId(_)
            | ExprKind::GridDim(_)
            | ExprKind::ThreadId(_)
            | ExprKind::BlockDim(_)
            | ExprKind::ArrayBase(_)
            | ExprKind::ElemPtr { .. }
            | ExprKind::Iota(..)
            | ExprKind::Undef => false,
            ExprKind::Atomic { ptr, val, .. } => {
                self.expr(val) || self.ptr_roots(ptr).iter().any(|&b| self.buf[b])
            }
            ExprKind::Var(v) => self.var.get(*v).copied().unwrap_or(false),
            ExprKind::Broadcast(x)
            | ExprKind::Reshape(x)
            | ExprKind::Permute(x, _)
            | ExprKind::Scan { arg: x, .. } => self.expr(x),
            ExprKind::Cast(x, _) => self.expr(x),
            ExprKind::Unary(op, x) => matches!(op, UnOp::Math(f) if f.is_inexact()) || self.expr(x),
            ExprKind::Binary(op, a, b) => op.is_inexact() || self.expr(a) || self.expr(b),
            ExprKind::CheckIndex { index, len, .. } => self.expr(index) || self.expr(len),
            ExprKind::Select(c, a, b)
            | ExprKind::Fma(c, a, b, _)
            | ExprKind::Dot {
                a: c, b: a, acc: b, ..
            } => self.expr(c) || self.expr(a) || self.expr(b),
            ExprKind::Load { ptr, other, .. } => {
                other.as_ref().is_some_and(|o| self.expr(o))
                    || self.ptr_roots(ptr).iter().any(|&b| self.buf[b])
            }
            ExprKind::Reduce { arg, combiner, .. } => {
                self.expr(arg)
                    || matches!(&**combiner, Combiner::Custom { result, .. } if self.expr(result))
            }
            ExprKind::TupleReduce { args, combine, .. }
            | ExprKind::TupleScan { args, combine, .. } => {
                args.iter().chain(&combine.results).any(|x| self.expr(x))
            }
        }
    }

    /// Per pointer parameter: whether its buffer may hold an inexact
    /// element once the kernel has run.
    pub fn param_buffers(&self) -> Vec<bool> {
        self.buf[..self.array_base].to_vec()
    }

    /// Whether any buffer may receive an inexact element.
    pub fn any_buffer(&self) -> bool {
        self.buf.iter().any(|&b| b)
    }

    /// The buffers a pointer expression may point into.
    pub fn ptr_roots(&self, e: &Expr) -> BTreeSet<usize> {
        match &e.kind {
            ExprKind::Var(v) => self.roots.get(*v).cloned().unwrap_or_default(),
            ExprKind::Binary(_, p, _) => self.ptr_roots(p),
            ExprKind::Select(_, a, b) => {
                let mut r = self.ptr_roots(a);
                r.extend(self.ptr_roots(b));
                r
            }
            ExprKind::Broadcast(x) | ExprKind::Reshape(x) | ExprKind::Permute(x, _) => {
                self.ptr_roots(x)
            }
            ExprKind::ElemPtr { base, .. } => self.ptr_roots(base),
            ExprKind::ArrayBase(a) => BTreeSet::from([self.array_base + a]),
            // no buffer of the kernel's (a pointer made of an integer or
            // loaded from memory points nowhere this analysis can follow)
            ExprKind::Const(_)
            | ExprKind::Undef
            | ExprKind::BlockId(_)
            | ExprKind::GridDim(_)
            | ExprKind::ThreadId(_)
            | ExprKind::BlockDim(_)
            | ExprKind::Iota(..)
            | ExprKind::Cast(..)
            | ExprKind::Unary(..)
            | ExprKind::Fma(..)
            | ExprKind::Load { .. }
            | ExprKind::Atomic { .. }
            | ExprKind::Reduce { .. }
            | ExprKind::Scan { .. }
            | ExprKind::TupleReduce { .. }
            | ExprKind::TupleScan { .. }
            | ExprKind::CheckIndex { .. }
            | ExprKind::Dot { .. } => BTreeSet::new(),
        }
    }

    fn set_var(&mut self, v: VarId, flag: bool, roots: BTreeSet<usize>) {
        if v < self.var.len() {
            self.var[v] |= flag;
            self.roots[v].extend(roots);
        }
    }

    fn block(&mut self, b: &Block) {
        for s in b {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Gemm(g) => self.block(&g.body),
            Stmt::Let(v, e) => {
                self.visit(e);
                let (f, r) = (self.expr(e), self.ptr_roots(e));
                self.set_var(*v, f, r);
            }
            Stmt::Store {
                ptr, value, mask, ..
            } => {
                self.visit(ptr);
                self.visit(value);
                if let Some(m) = mask {
                    self.visit(m);
                }
                if self.expr(value) {
                    for b in self.ptr_roots(ptr) {
                        self.buf[b] = true;
                    }
                }
            }
            Stmt::If {
                cond,
                then_body,
                else_body,
            } => {
                self.visit(cond);
                self.block(then_body);
                self.block(else_body);
            }
            Stmt::For {
                var,
                start,
                end,
                step,
                body,
                ..
            } => {
                for e in [start, end, step] {
                    self.visit(e);
                }
                let f = self.expr(start) || self.expr(end) || self.expr(step);
                self.set_var(*var, f, BTreeSet::new());
                self.block(body);
            }
            Stmt::While { cond, body, .. } => {
                self.visit(cond);
                self.block(body);
            }
            Stmt::Print { args, .. } => {
                for a in args {
                    self.visit(a);
                }
            }
            Stmt::Break | Stmt::Continue | Stmt::Return | Stmt::Barrier { .. } => {}
        }
    }

    /// Visits the combiner bodies nested in an expression.
    fn visit(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Const(_)
            | ExprKind::Var(_)
            | ExprKind::BlockId(_)
            | ExprKind::GridDim(_)
            | ExprKind::ThreadId(_)
            | ExprKind::BlockDim(_)
            | ExprKind::ArrayBase(_)
            | ExprKind::Iota(..)
            | ExprKind::Undef => {}
            ExprKind::ElemPtr { base, indices, .. } => {
                self.visit(base);
                for i in indices {
                    self.visit(i);
                }
            }
            ExprKind::Atomic {
                op,
                ptr,
                val,
                cmp,
                mask,
            } => {
                self.visit(ptr);
                self.visit(val);
                for x in [cmp, mask].into_iter().flatten() {
                    self.visit(x);
                }
                // The final value depends on the order of the updates.
                let order = matches!(op, AtomicOp::Exch | AtomicOp::Cas)
                    || (val.ty.dtype().is_float() && matches!(op, AtomicOp::Add | AtomicOp::Sub));
                if order || self.expr(val) {
                    for b in self.ptr_roots(ptr) {
                        self.buf[b] = true;
                    }
                }
            }
            ExprKind::Broadcast(x)
            | ExprKind::Reshape(x)
            | ExprKind::Permute(x, _)
            | ExprKind::Cast(x, _)
            | ExprKind::Unary(_, x)
            | ExprKind::Scan { arg: x, .. } => self.visit(x),
            ExprKind::Binary(_, a, b)
            | ExprKind::CheckIndex {
                index: a, len: b, ..
            } => {
                self.visit(a);
                self.visit(b);
            }
            ExprKind::Select(a, b, c)
            | ExprKind::Fma(a, b, c, _)
            | ExprKind::Dot { a, b, acc: c, .. } => {
                self.visit(a);
                self.visit(b);
                self.visit(c);
            }
            ExprKind::Load { ptr, mask, other } => {
                self.visit(ptr);
                if let Some(m) = mask {
                    self.visit(m);
                }
                if let Some(o) = other {
                    self.visit(o);
                }
            }
            ExprKind::Reduce { arg, combiner, .. } => {
                self.visit(arg);
                if let Combiner::Custom {
                    lhs,
                    rhs,
                    body,
                    result,
                } = &**combiner
                {
                    let f = self.expr(arg);
                    self.set_var(*lhs, f, BTreeSet::new());
                    self.set_var(*rhs, f, BTreeSet::new());
                    self.block(body);
                    self.visit(result);
                }
            }
            ExprKind::TupleReduce { args, combine, .. }
            | ExprKind::TupleScan { args, combine, .. } => {
                // any operand's inexactness may reach every result
                args.iter().for_each(|a| self.visit(a));
                let f = args.iter().any(|a| self.expr(a));
                for v in combine.lhs.iter().chain(&combine.rhs) {
                    self.set_var(*v, f, BTreeSet::new());
                }
                self.block(&combine.body);
                combine.results.iter().for_each(|r| self.visit(r));
            }
        }
    }
}
