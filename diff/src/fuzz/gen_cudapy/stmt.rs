//! Random statements of the generated kernels: thread ids in 1–3
//! dimensions, assignments, divergent `if`, loops with `break`/`continue`
//! and divergent trip counts, shared-memory exchange between barriers and
//! order-independent integer atomics.

use super::expr::convertible;
use super::nodes::{self, Arith, S};
use super::Gen;
use ksem_interp::dtype::DType;
use ksem_interp::ir::build::{convert, dtype_of, int_const, load, mk};
use ksem_interp::ir::*;

impl Gen {
    /// `i`: the thread's linear index in the grid (int64); `t`: in its
    /// block (int32).
    pub fn ids(&mut self, dims: usize) {
        use ExprKind::{BlockDim, ThreadId};
        let (i, t) = match dims {
            1 => (nodes::grid(0), nodes::id(ThreadId(0))),
            2 => {
                self.features.insert("ids-2d");
                let [gx, gy] = self.lets(["gx", "gy"], |d| nodes::grid(d as u8));
                let [w, _h] = self.lets(["w", "h"], |d| nodes::gridsize(d as u8));
                let i = nodes::arith(Arith::Add, nodes::arith(Arith::Mul, gy, w), gx);
                let t = nodes::arith(
                    Arith::Add,
                    nodes::arith(Arith::Mul, nodes::id(ThreadId(1)), nodes::id(BlockDim(0))),
                    nodes::id(ThreadId(0)),
                );
                (i, t)
            }
            _ => {
                self.features.insert("ids-3d");
                let [gx, gy, gz] = self.lets(["gx", "gy", "gz"], |d| nodes::grid(d as u8));
                let [w, h, _dd] = self.lets(["w", "h", "dd"], |d| nodes::gridsize(d as u8));
                let row = nodes::arith(Arith::Add, nodes::arith(Arith::Mul, gz, h), gy);
                let i = nodes::arith(Arith::Add, nodes::arith(Arith::Mul, row, w), gx);
                let trow = nodes::arith(
                    Arith::Add,
                    nodes::arith(Arith::Mul, nodes::id(ThreadId(2)), nodes::id(BlockDim(1))),
                    nodes::id(ThreadId(1)),
                );
                let t = nodes::arith(
                    Arith::Add,
                    nodes::arith(Arith::Mul, trow, nodes::id(BlockDim(0))),
                    nodes::id(ThreadId(0)),
                );
                (i, t)
            }
        };
        // against real numba-cuda the thread's index is int64 as every
        // value is (`int64(cuda.threadIdx.x)`)
        let t = if self.avoid_divergences {
            convert(t, DType::I64)
        } else {
            t
        };
        self.i = self.define("i", i);
        self.t = self.define("t", t);
        self.live.push(self.i);
        self.live.push(self.t);
    }

    /// `a, b(, c) = …`: one variable per component `d`.
    fn lets<const N: usize>(&mut self, names: [&str; N], f: impl Fn(usize) -> Expr) -> [Expr; N] {
        let mut vs = [0; N];
        for (d, n) in names.iter().enumerate() {
            vs[d] = self.define(n, f(d));
        }
        vs.map(|v| self.var(v))
    }

    /// `x{k} = a{k}[i]`.
    pub fn read_input(&mut self, k: usize) {
        let (a, d) = (self.inputs[k], self.input_dtypes[k]);
        let ptr = nodes::element(self.var(a), self.var(self.i), self.n);
        let x = self.define(&format!("x{k}"), load(ptr, d, S));
        self.live.push(x);
    }

    /// `vN = e` in the entry block.
    pub fn assign(&mut self) {
        let e = self.expr(3);
        let name = self.fresh();
        let v = self.define(&name, e);
        self.live.push(v);
    }

    /// `if`/`else` on a per-thread condition (divergent). Variables assigned
    /// in a branch keep the type they had before it (the seed's rule), so
    /// only existing variables are reassigned there.
    pub fn branch(&mut self) {
        self.features.insert("divergent-if");
        let (c, pre) = self.within(|g| g.cond(2));
        let init = self.expr(2);
        let name = self.fresh();
        let target = self.define(&name, init);
        let d = self.vars[target].1.dtype();
        for s in pre {
            self.emit(s);
        }
        let ((), then_body) = self.within(|g| {
            let e = g.expr_for(d, 2);
            g.emit(Stmt::Let(target, convert(e, d)));
            if g.rng.chance(0.3) {
                let plus = super::expr::no_overflow(Arith::Add, g.var(target), nodes::int(1));
                g.emit(Stmt::Let(target, convert(plus, d)));
            }
        });
        let else_body = if self.rng.chance(0.6) {
            self.within(|g| {
                let e = g.expr_for(d, 2);
                g.emit(Stmt::Let(target, convert(e, d)));
            })
            .1
        } else {
            vec![]
        };
        self.emit(Stmt::If {
            cond: c,
            then_body,
            else_body,
        });
        self.live.push(target);
    }

    /// A loop with a small trip count that may depend on the thread, with
    /// `break`/`continue`; the accumulator keeps its pre-loop type.
    pub fn loop_(&mut self) {
        self.features.insert("loop");
        let init = self.expr(1);
        let name = self.fresh();
        let acc = self.define(&name, init);
        let d = self.vars[acc].1.dtype();
        let kname = self.fresh();
        let trips = if self.rng.chance(0.5) {
            nodes::int(1 + self.rng.below(5) as i64)
        } else {
            self.features.insert("divergent-loop");
            nodes::arith(Arith::Mod, self.var(self.t), nodes::int(5))
        };
        let range = dtype_of(&trips);
        let iv = self.new_var("_i", range);
        let k = self.new_var(&kname, range);
        let ((), body) = self.within(|g| {
            g.emit(Stmt::Let(k, g.var(iv)));
            g.live.push(k);
            if g.rng.chance(0.3) {
                let c = g.cond(1);
                let jump = if g.rng.chance(0.5) {
                    Stmt::Break
                } else {
                    Stmt::Continue
                };
                g.emit(Stmt::If {
                    cond: c,
                    then_body: vec![jump],
                    else_body: vec![],
                });
            }
            let e = g.expr_for(d, 2);
            let sum = super::expr::no_overflow(Arith::Add, g.var(acc), e);
            g.emit(Stmt::Let(acc, convert(sum, d)));
            g.live.pop();
        });
        self.emit(Stmt::For {
            var: iv,
            start: int_const(range, 0, S),
            end: trips,
            step: int_const(range, 1, S),
            body,
            span: S,
            parallel: None,
        });
        self.live.push(acc);
    }

    /// A shared-memory exchange: write the own element, barrier, read a
    /// neighbour's, barrier (so a later write cannot race with this read).
    pub fn exchange(&mut self) {
        self.features.insert("shared+barrier");
        let d = self.shared_dtype;
        let e = self.expr(2);
        let e = convertible(e, d);
        let own = nodes::element(self.shared(), self.var(self.t), self.block as usize);
        self.emit(Stmt::Store {
            ptr: own,
            value: convert(e, d),
            mask: None,
            span: S,
        });
        self.emit(Stmt::Barrier { span: S });
        let off = 1 + self.rng.below(self.block as usize - 1);
        let at = nodes::arith(
            Arith::Mod,
            nodes::arith(Arith::Add, self.var(self.t), nodes::int(off as i64)),
            nodes::int(self.block as i64),
        );
        let other = nodes::element(self.shared(), at, self.block as usize);
        let name = self.fresh();
        let v = self.define(&name, load(other, d, S));
        self.emit(Stmt::Barrier { span: S });
        self.live.push(v);
    }

    /// The shared array (`s`), a pointer to its element 0.
    fn shared(&self) -> Expr {
        let ty = Type {
            elem: Elem::Ptr(self.shared_dtype, AddrSpace::Shared),
            shape: vec![],
        };
        mk(ExprKind::ArrayBase(0), ty, S)
    }

    /// An integer atomic whose final value does not depend on the order.
    pub fn atomic(&mut self) {
        self.features.insert("atomic");
        let e = self.int_expr(2);
        // one operation per slot: different operations on one element do
        // not commute
        let slot = self.rng.below(6);
        use AtomicOp::*;
        let op = [Add, Max, Min, Or, Xor, And][slot];
        let ptr = nodes::element(self.var(self.acc), nodes::int(slot as i64), 6);
        let old = self.new_var("_atomic", DType::I64);
        self.emit(Stmt::Let(old, nodes::atomic(op, ptr, e)));
    }

    /// `out[i] = e`; the output's dtype is `e`'s.
    pub fn store_result(&mut self) -> DType {
        let e = self.expr(3);
        let d = dtype_of(&e);
        self.vars[self.out].1 = Type::global_ptr(d);
        let ptr = nodes::element(self.var(self.out), self.var(self.i), self.n);
        self.emit(Stmt::Store {
            ptr,
            value: e,
            mask: None,
            span: S,
        });
        d
    }
}
