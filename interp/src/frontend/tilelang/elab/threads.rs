//! Per-thread code in a TileLang kernel: `T.get_thread_binding(d)` and
//! `T.thread_binding(begin, end, thread="threadIdx.x")` give the thread's
//! index, and from then on the kernel is elaborated for its `threads`
//! SIMT threads instead of one thread per block.
//!
//! Such a kernel's scalar statements run on every thread (`T.alloc_local`
//! and `T.alloc_var` are per thread, `T.alloc_shared` per block). The
//! block-level operations that real TileLang partitions among the threads
//! (`T.Parallel`, `T.copy`/`T.fill`/`T.clear` into shared or global memory,
//! `T.reduce_*`, `T.gemm`, fragments) are refused in it: ksem does not
//! model TileLang's partition of them. Per-thread `T.copy`/`T.fill`/
//! `T.clear` into a thread's own local buffer run as they are.
//!
//! TileLang synchronises shared memory itself: its `ThreadSync` pass (TVM's
//! `tir.transform.ThreadSync("shared")`) puts a `__syncthreads()` between
//! a shared-memory access and a later conflicting one by another thread.
//! Measured (tools/probes/tilelang/thread_sync.py, the CUDA C TileLang
//! 0.1.15 generates): a barrier follows each statement that writes shared
//! memory another thread then reads (inside a loop body too, so one
//! iteration's reads and the next one's writes are apart); an `if` on the
//! thread index without `else` is split around it (`if c {S1}
//! __syncthreads(); if c {S2}`, the condition evaluated again); an `if` with
//! an `else` gets none inside (its branches race as on the GPU). ksem
//! models it ([`implicit_syncs`]) with a barrier after every statement that
//! touches shared memory wherever TileLang could put one; where TVM finds no
//! conflict the extra barrier changes nothing a race-free program computes.
//! A loop whose bounds depend on the thread, or that some threads leave
//! early (`break`, `continue`), gets none inside.

use super::*;
use std::collections::HashSet;

impl<'m> Elab<'m> {
    /// `T.get_thread_binding(dim=0)` or `T.thread_binding(begin, end,
    /// thread="threadIdx.x")`: the thread's index along a dimension of the
    /// enclosing `T.Kernel`'s `threads`.
    pub(super) fn thread_binding(&mut self, call: Call) -> DResult<Val> {
        let (f, c, span) = (call.name, call.expr, call.span);
        let Some((threads, _)) = self.threads else {
            return err(span, format!("T.{f} outside `with T.Kernel(…)`"));
        };
        if let Some(at) = self.tile_op_at {
            return err(
                span,
                format!(
                    "T.{f} after a block-level operation (line {}): bind the thread index first",
                    at.line
                ),
            );
        }
        let (dim, offset) = if f == "get_thread_binding" {
            let arg = call.arg("dim", 0);
            let dim = match arg {
                None => 0,
                Some(a) => self.const_int(a, "T.get_thread_binding's dimension")?,
            };
            (dim, 0)
        } else {
            self.thread_binding_range(c, threads, span)?
        };
        if !(0..3).contains(&dim) {
            return err(span, format!("thread dimension {dim}: it is 0, 1 or 2"));
        }
        self.per_thread = true;
        let tid = mk(
            ExprKind::ThreadId(dim as u8),
            Type::scalar(DType::I32),
            span,
        );
        Ok(Val::Num(if offset == 0 {
            tid
        } else {
            mk(
                ExprKind::Binary(
                    BinOp::Add,
                    Box::new(int_const(DType::I32, offset, span)),
                    Box::new(tid),
                ),
                Type::scalar(DType::I32),
                span,
            )
        }))
    }

    /// The dimension and first index of `T.thread_binding(begin, end,
    /// thread="threadIdx.x")`, whose extent must be the block's.
    fn thread_binding_range(
        &mut self,
        c: &ast::ExprCall,
        threads: [u32; 3],
        span: Span,
    ) -> DResult<(i128, i128)> {
        let thread = py::call::arg(c, "thread", 2);
        let (Some(b), Some(e), Some(t)) = (c.args.first(), c.args.get(1), thread) else {
            return err(
                span,
                "T.thread_binding takes (begin, end, thread=\"threadIdx.x\")",
            );
        };
        let dim = match t {
            ast::Expr::Constant(ast::ExprConstant {
                value: Constant::Str(s),
                ..
            }) => match s.as_str() {
                "threadIdx.x" => 0,
                "threadIdx.y" => 1,
                "threadIdx.z" => 2,
                other => {
                    return err(
                        self.span(t),
                        format!("T.thread_binding to {other:?}: ksem binds threadIdx.x/y/z"),
                    )
                }
            },
            _ => return err(self.span(t), "the thread of T.thread_binding is a string"),
        };
        let begin = self.const_int(b, "T.thread_binding's begin")?;
        let end = self.const_int(e, "T.thread_binding's end")?;
        let n = threads[dim as usize] as i128;
        if end - begin != n {
            return err(
                span,
                format!(
                    "T.thread_binding({begin}, {end}) spans {} threads but the block has {n} along {}",
                    end - begin,
                    ["x", "y", "z"][dim as usize]
                ),
            );
        }
        Ok((dim, begin))
    }

    /// A compile-time integer argument.
    fn const_int(&mut self, a: &ast::Expr, what: &str) -> DResult<i128> {
        let span = self.span(a);
        match self.expr(a)? {
            Val::Py(c) => c
                .as_int()
                .ok_or_else(|| Diagnostic::new(span, format!("{what} must be an integer"))),
            _ => err(span, format!("{what} must be known at compile time")),
        }
    }

    /// A block-level operation `what` at `span`: refused in a kernel with
    /// per-thread code; remembered otherwise (a thread binding after it is
    /// refused).
    pub(super) fn block_level_op(&mut self, what: &str, span: Span) -> DResult<()> {
        if self.per_thread {
            return err_help(
                span,
                format!(
                    "{what} in a kernel with per-thread code (T.get_thread_binding): ksem does not model how TileLang partitions it among the threads"
                ), "write it as per-thread code over the thread index, or leave the thread binding out");
        }
        self.tile_op_at.get_or_insert(span);
        Ok(())
    }

    /// `T.sync_threads()`: a barrier of the whole block in a kernel with
    /// per-thread code (with one thread per block there is nothing to wait
    /// for); a barrier of some threads (`T.sync_threads(id, count)`) is
    /// refused there.
    pub(super) fn sync_threads(&mut self, c: &ast::ExprCall, span: Span) -> DResult<()> {
        if !self.per_thread {
            return Ok(());
        }
        if !c.args.is_empty() || !c.keywords.is_empty() {
            return err(
                span,
                "T.sync_threads(barrier_id, count): a barrier of some of the block's threads is not supported by ksem yet",
            );
        }
        self.emit(Stmt::Barrier { span });
        Ok(())
    }
}

/// The kernel body with TileLang's automatic barriers (module
/// documentation): one after every statement that touches shared memory,
/// wherever every thread of the block runs it.
pub(super) fn implicit_syncs(body: Block, arrays: &[ArrayDecl], span: Span) -> Block {
    let dep = ThreadDependence::of(&body, arrays);
    dep.sync_block(body, span)
}

/// Which values may differ between the threads of a block.
struct ThreadDependence<'a> {
    arrays: &'a [ArrayDecl],
    /// Variables set from a thread-dependent value or under control flow
    /// only some threads take.
    vars: HashSet<VarId>,
}

impl<'a> ThreadDependence<'a> {
    /// The thread-dependent variables of `body` (to a fixed point: a
    /// variable set from another may become dependent later).
    fn of(body: &[Stmt], arrays: &'a [ArrayDecl]) -> Self {
        let mut d = ThreadDependence {
            arrays,
            vars: HashSet::new(),
        };
        loop {
            let before = d.vars.len();
            d.mark(body, false);
            if d.vars.len() == before {
                return d;
            }
        }
    }

    fn mark(&mut self, b: &[Stmt], divergent: bool) {
        for s in b {
            match s {
                Stmt::Let(v, e) if divergent || self.depends(e) => {
                    self.vars.insert(*v);
                }
                Stmt::If {
                    cond,
                    then_body,
                    else_body,
                } => {
                    let d = divergent || self.depends(cond);
                    self.mark(then_body, d);
                    self.mark(else_body, d);
                }
                Stmt::For {
                    var,
                    start,
                    end,
                    step,
                    body,
                    ..
                } => {
                    let d = divergent || [start, end, step].iter().any(|e| self.depends(e));
                    if d {
                        self.vars.insert(*var);
                    }
                    self.mark(body, d || has_jump(body));
                }
                Stmt::While { cond, body, .. } => {
                    let d = divergent || self.depends(cond) || has_jump(body);
                    self.mark(body, d);
                }
                _ => {}
            }
        }
    }

    /// Whether `e` may differ between threads: it reads the thread index, a
    /// thread-dependent variable, a thread's local memory, or the old value
    /// of an atomic.
    fn depends(&self, e: &Expr) -> bool {
        let mut d = false;
        e.for_each(&mut |x| {
            d |= match &x.kind {
                ExprKind::ThreadId(_) | ExprKind::Atomic { .. } => true,
                ExprKind::Var(v) => self.vars.contains(v),
                ExprKind::Load { ptr, .. } => self.touches(ptr, AddrSpace::Local),
                _ => false,
            }
        });
        d
    }

    /// Whether `e` addresses an array of `space`.
    fn touches(&self, e: &Expr, space: AddrSpace) -> bool {
        let mut t = false;
        e.for_each(&mut |x| {
            if let ExprKind::ArrayBase(id) = x.kind {
                t |= self.arrays[id].space == space;
            }
        });
        t
    }

    /// Whether statement `s` (its nested bodies included) touches shared memory.
    fn touches_shared(&self, s: &Stmt) -> bool {
        let mut t = false;
        walk::for_each_stmt(std::slice::from_ref(s), &mut |s| {
            t |= s
                .own_exprs()
                .iter()
                .any(|e| self.touches(e, AddrSpace::Shared));
        });
        t
    }

    /// `b` run by every thread of the block, with the barriers added.
    fn sync_block(&self, b: Block, span: Span) -> Block {
        let mut out = Vec::with_capacity(b.len());
        for s in b {
            let shared = self.touches_shared(&s);
            match s {
                Stmt::If {
                    cond,
                    then_body,
                    else_body,
                } if !self.depends(&cond) => out.push(Stmt::If {
                    then_body: self.sync_block(then_body, span),
                    else_body: self.sync_block(else_body, span),
                    cond,
                }),
                Stmt::If {
                    cond,
                    then_body,
                    else_body,
                } if else_body.is_empty() => {
                    // split around the barriers its body would have
                    let body = self.sync_block(then_body, span);
                    for (i, part) in body
                        .split(|s| matches!(s, Stmt::Barrier { .. }))
                        .enumerate()
                    {
                        if i > 0 {
                            out.push(Stmt::Barrier { span });
                        }
                        if !part.is_empty() {
                            out.push(Stmt::If {
                                cond: cond.clone(),
                                then_body: part.to_vec(),
                                else_body: Vec::new(),
                            });
                        }
                    }
                }
                Stmt::For {
                    var,
                    start,
                    end,
                    step,
                    body,
                    span: fspan,
                    parallel: None,
                } if !self.vars.contains(&var) && !has_jump(&body) => out.push(Stmt::For {
                    body: self.sync_block(body, span),
                    var,
                    start,
                    end,
                    step,
                    span: fspan,
                    parallel: None,
                }),
                Stmt::While {
                    cond,
                    body,
                    span: wspan,
                } if !self.depends(&cond) && !has_jump(&body) => out.push(Stmt::While {
                    body: self.sync_block(body, span),
                    cond,
                    span: wspan,
                }),
                other => out.push(other),
            }
            if shared && !matches!(out.last(), Some(Stmt::Barrier { .. })) {
                out.push(Stmt::Barrier { span });
            }
        }
        out
    }
}

/// Whether `b` has a `break` or `continue` of its own loop (threads that
/// take it leave the others behind).
fn has_jump(b: &[Stmt]) -> bool {
    b.iter().any(|s| match s {
        Stmt::Break | Stmt::Continue => true,
        Stmt::If {
            then_body,
            else_body,
            ..
        } => has_jump(then_body) || has_jump(else_body),
        _ => false,
    })
}
