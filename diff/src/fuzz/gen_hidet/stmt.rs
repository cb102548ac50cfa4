//! Random statements of the generated kernels: thread ids, definitions
//! (`x = e`, `x: T = e`), divergent `if`, `for … in range(n)` and `while`
//! loops with `break`/`continue`, shared-memory exchange between
//! barriers, order-independent integer atomics, pointers into global
//! buffers (`~a[i]`, `p + k`, `p[k]`) and local tensors with layouts.

use super::nodes::{self, HVal, Op, S};
use super::Gen;
use ksem_interp::dtype::DType;
use ksem_interp::frontend::hidet::layout::Layout;
use ksem_interp::ir::build::{convert, fold, int_const, load, mk};
use ksem_interp::ir::*;

impl Gen {
    /// `t`: the thread's index in its block; `i`: in the grid (both `i32`).
    pub fn ids(&mut self) {
        use ExprKind::*;
        let tx = nodes::cuda_index(ThreadId(0));
        let t = if self.block[1] > 1 {
            self.features.insert("ids-2d");
            let ty = nodes::cuda_index(ThreadId(1));
            let bx = nodes::cuda_index(BlockDim(0));
            let m = nodes::binop(Op::Mul, &ty, &bx).expect("i32 * i32");
            nodes::binop(Op::Add, &tx, &m).expect("i32 + i32")
        } else {
            tx
        };
        let t = self.define("t", t);
        let tv = self.var(t);
        let b = nodes::cuda_index(BlockId(0));
        let i = if self.block[1] > 1 {
            let bx = nodes::cuda_index(BlockDim(0));
            let by = nodes::cuda_index(BlockDim(1));
            let size = nodes::binop(Op::Mul, &bx, &by).expect("i32 * i32");
            let m = nodes::binop(Op::Mul, &b, &size).expect("i32 * i32");
            nodes::binop(Op::Add, &tv, &m).expect("i32 + i32")
        } else {
            let bx = nodes::cuda_index(BlockDim(0));
            let m = nodes::binop(Op::Mul, &b, &bx).expect("i32 * i32");
            nodes::binop(Op::Add, &tv, &m).expect("i32 + i32")
        };
        let i = self.define("i", i);
        self.t = t;
        self.i = i;
        self.add_live(t);
        self.add_live(i);
    }

    /// A new variable `name` defined by `v` (`name = v`: `v`'s Hidet type).
    pub fn define(&mut self, name: &str, v: HVal) -> VarId {
        // Hidet replaces a variable assigned once by its value, losing the
        // conversion to the variable's type (divergence H10): against real
        // Hidet, a value whose type after Hidet's passes (or whose C type)
        // differs is cast
        // explicitly, and a float constant is not the whole value (an int
        // constant keeps its value in any type the generator uses it in)
        let v = if self.real_peer
            && v.lit.is_none()
            && (v.hty != v.pty || ksem_interp::ir::build::dtype_of(&v.e) != v.hty)
        {
            nodes::cast(&v, v.hty)
        } else {
            v
        };
        let v = if self.real_peer
            && v.hty.is_float()
            && (v.lit.is_some() || ksem_interp::ir::build::fold(&v.e).is_some())
        {
            let r = self.runtime(1);
            nodes::cast(&r, v.hty)
        } else {
            v
        };
        let id = self.new_var(name, v.hty);
        self.emit(Stmt::Let(id, convert(v.e, v.hty)));
        id
    }

    /// `x{k} = a{k}[i]`.
    pub fn read_input(&mut self, k: usize) {
        let (a, d, tensor) = self.inputs[k];
        let iv = self.var(self.i);
        let ptr = if tensor {
            nodes::element(self.var(a).e, vec![nodes::index(&iv)], vec![self.n], None)
        } else {
            nodes::ptr_add(self.var(a).e, &iv)
        };
        let x = self.define(&format!("x{k}"), HVal::num(load(ptr, d, S), d));
        self.add_live(x);
    }

    /// `vN = e` or `vN: T = e`.
    pub fn assign(&mut self) {
        let e = self.runtime_expr(3);
        let name = self.fresh();
        if self.rng.chance(0.25) {
            // a declaration converts to its type
            let d = *self.rng.pick(&super::expr::dtypes(self.real_peer));
            let e = self.fit(e, d);
            self.features.insert("declare");
            let id = self.new_var(&name, d);
            self.emit(Stmt::Let(id, convert(e.e, d)));
            self.add_live(id);
            return;
        }
        let v = self.define(&name, e);
        self.add_live(v);
    }

    /// A value that is not a constant (a real peer's folder would fold it).
    fn runtime_expr(&mut self, depth: usize) -> HVal {
        for _ in 0..4 {
            let e = self.expr(depth);
            if e.lit.is_none() && (!self.real_peer || fold(&e.e).is_none()) {
                return e;
            }
        }
        let live = self.live_vars();
        let v = *self.rng.pick(&live);
        self.var(v)
    }

    /// A fresh live variable defined from a runtime expression of nesting
    /// at most `depth`, and its dtype.
    fn live_var(&mut self, depth: usize) -> (VarId, DType) {
        let init = self.runtime_expr(depth);
        let name = self.fresh();
        let v = self.define(&name, init);
        self.add_live(v);
        (v, self.vars[v].1.dtype())
    }

    /// `if`/`else` on a per-thread condition; the branches assign a
    /// variable defined before (converted to its type).
    pub fn branch(&mut self) {
        self.features.insert("if");
        let (target, d) = self.live_var(2);
        let c = self.cond(2);
        let ((), then_body) = self.within(|g| {
            g.set(target, d, 2);
            if g.rng.chance(0.3) {
                g.assign();
            }
            if g.rng.chance(0.3) {
                let one = nodes::binop(Op::Add, &g.var(target), &nodes::int(1)).expect("x + 1");
                let e = g.fit(one, d);
                g.emit(Stmt::Let(target, nodes::value_for(&e, d)));
            }
        });
        let else_body = if self.rng.chance(0.6) {
            self.within(|g| g.set(target, d, 2)).1
        } else {
            vec![]
        };
        self.emit(Stmt::If {
            cond: nodes::truth(&c),
            then_body,
            else_body,
        });
    }

    /// `target = e` for a variable of dtype `d`.
    fn set(&mut self, target: VarId, d: DType, depth: usize) {
        let e = self.expr_for(d, depth);
        let e = self.fit(e, d);
        self.emit(Stmt::Let(target, nodes::value_for(&e, d)));
    }

    /// `e` made safe to convert to `d` (a float clamped for an integer).
    pub fn fit(&mut self, e: HVal, d: DType) -> HVal {
        if e.hty.is_float() && !d.is_float() && d != DType::Bool {
            self.clamp(e, d)
        } else {
            e
        }
    }

    /// `for k in range(n)` with a small trip count that may depend on the
    /// thread, with `break`/`continue`; an accumulator defined before.
    pub fn loop_(&mut self) {
        self.features.insert("for");
        let (acc, d) = self.live_var(1);
        let trips = if self.rng.chance(0.5) {
            // against real Hidet at least 4: Hidet unrolls a loop of fewer
            // constant iterations, and a `break`/`continue` in it then leaves
            // the enclosing loop (divergence H9)
            let low = if self.real_peer { 4 } else { 1 };
            nodes::int(low + self.rng.below(4) as i128)
        } else {
            self.features.insert("divergent-loop");
            let t = self.var(self.t);
            nodes::binop(Op::Mod, &t, &nodes::int(4)).expect("t % 4")
        };
        let kname = self.fresh();
        let k = self.new_var(&kname, DType::I32);
        let ((), body) = self.within(|g| {
            g.add_live(k);
            g.jump(1);
            let e = g.expr_for(d, 2);
            let sum = nodes::binop(Op::Add, &g.var(acc), &e).unwrap_or(e);
            let sum = g.fit(sum, d);
            g.emit(Stmt::Let(acc, nodes::value_for(&sum, d)));
        });
        self.emit(Stmt::For {
            var: k,
            start: int_const(DType::I32, 0, S),
            end: trips.e,
            step: int_const(DType::I32, 1, S),
            body,
            span: S,
            parallel: None,
        });
    }

    /// Maybe `if c: break` / `if c: continue`.
    fn jump(&mut self, depth: usize) {
        if !self.rng.chance(0.4) {
            return;
        }
        let c = self.cond(depth);
        let j = if self.rng.chance(0.5) {
            self.features.insert("break");
            Stmt::Break
        } else {
            self.features.insert("continue");
            Stmt::Continue
        };
        self.emit(Stmt::If {
            cond: nodes::truth(&c),
            then_body: vec![j],
            else_body: vec![],
        });
    }

    /// `w = 0; while w < n: w = w + 1; …` with `break`/`continue`.
    pub fn while_(&mut self) {
        self.features.insert("while");
        let name = self.fresh();
        let w = self.define(&name, nodes::int(0));
        let bound = if self.rng.chance(0.5) {
            nodes::int(1 + self.rng.below(4) as i128)
        } else {
            self.features.insert("divergent-loop");
            let t = self.var(self.t);
            nodes::binop(Op::Mod, &t, &nodes::int(3)).expect("t % 3")
        };
        let init = self.runtime_expr(1);
        let aname = self.fresh();
        let acc = self.define(&aname, init);
        self.add_live(acc);
        let d = self.vars[acc].1.dtype();
        let cond = nodes::compare(BinOp::Lt, &self.var(w), &bound).expect("w < n");
        let ((), body) = self.within(|g| {
            let w1 = nodes::binop(Op::Add, &g.var(w), &nodes::int(1)).expect("w + 1");
            g.emit(Stmt::Let(w, nodes::value_for(&w1, DType::I32)));
            g.add_live(w);
            g.jump(1);
            let e = g.expr_for(d, 2);
            let e = g.fit(e, d);
            g.emit(Stmt::Let(acc, nodes::value_for(&e, d)));
        });
        self.emit(Stmt::While {
            cond: nodes::truth(&cond),
            body,
            span: S,
        });
    }

    /// A shared-memory exchange: write the own element, barrier, read a
    /// neighbour's, barrier (so that a later write cannot race).
    pub fn exchange(&mut self) {
        let Some((arr, d)) = self.shared else { return };
        self.features.insert("shared+barrier");
        let e = self.expr_for(d, 2);
        let e = self.fit(e, d);
        let tv = self.var(self.t);
        let own = nodes::element(
            self.array(arr),
            vec![nodes::index(&tv)],
            vec![self.threads()],
            None,
        );
        self.emit(Stmt::Store {
            ptr: own,
            value: nodes::value_for(&e, d),
            mask: None,
            span: S,
        });
        self.emit(Stmt::Barrier { span: S });
        let b = self.threads();
        let off = 1 + self.rng.below(b - 1);
        let sum = nodes::binop(Op::Add, &tv, &nodes::int(off as i128)).expect("t + k");
        let at = nodes::binop(Op::Mod, &sum, &nodes::int(b as i128)).expect("(t + k) % b");
        let other = nodes::element(self.array(arr), vec![nodes::index(&at)], vec![b], None);
        let name = self.fresh();
        let v = self.define(&name, HVal::num(load(other, d, S), d));
        self.emit(Stmt::Barrier { span: S });
        self.add_live(v);
    }

    /// Threads per block.
    fn threads(&self) -> usize {
        (self.block[0] * self.block[1]) as usize
    }

    /// The base of array `id`.
    fn array(&self, id: ArrayId) -> Expr {
        let a = &self.arrays[id];
        let ty = Type {
            elem: Elem::Ptr(a.dtype, a.space),
            shape: vec![],
        };
        mk(ExprKind::ArrayBase(id), ty, S)
    }

    /// An integer atomic whose final value does not depend on the order.
    pub fn atomic(&mut self) {
        self.features.insert("atomic");
        let e = self.expr_for(DType::I64, 2);
        let e = self.fit(e, DType::I64);
        // one operation per slot: different operations do not commute
        let slot = self.rng.below(4);
        use AtomicOp::*;
        let op = [Add, Sub, Max, Min][slot];
        let ptr = nodes::element(
            self.var(self.acc).e,
            vec![int_const(DType::I64, slot as i128, S)],
            vec![4],
            None,
        );
        let old = self.new_var("_atomic", DType::I64);
        self.emit(Stmt::Let(old, nodes::atomic(op, ptr, &e)));
    }

    /// A pointer into a global input: `p = ~a[i]` or `p = a + k`, then a
    /// read through it that stays within the buffer.
    pub fn pointer(&mut self) {
        let k = self.rng.below(self.inputs.len());
        let (a, d, tensor) = self.inputs[k];
        self.features.insert("pointer");
        let pname = self.fresh();
        let n = self.n;
        let base = self.var(a).e;
        let (p_e, read_at) = if tensor && self.rng.chance(0.5) {
            // p = ~a[i]; p[0]
            let iv = self.var(self.i);
            let e = nodes::element(base, vec![nodes::index(&iv)], vec![n], None);
            (e, nodes::int(0))
        } else {
            // p = a + off; p[i % (n - off)]
            let off = self.rng.below(n);
            let e = nodes::ptr_add(base, &nodes::int(off as i128));
            let iv = self.var(self.i);
            let j = nodes::binop(Op::Mod, &iv, &nodes::int((n - off) as i128)).expect("i % m");
            (e, j)
        };
        let ty = p_e.ty.clone();
        self.vars.push((pname, ty.clone()));
        let p = self.vars.len() - 1;
        self.emit(Stmt::Let(p, p_e));
        let pv = mk(ExprKind::Var(p), ty, S);
        let ptr = nodes::ptr_add(pv.clone(), &read_at);
        let name = self.fresh();
        let v = self.define(&name, HVal::num(load(ptr, d, S), d));
        self.add_live(v);
        if !tensor && self.rng.chance(0.5) {
            // dN = p - a: the elements between them (Hidet's int32)
            self.features.insert("pointer-difference");
            let (x, y) = if self.rng.chance(0.5) {
                (pv, self.var(a).e)
            } else {
                (self.var(a).e, pv)
            };
            let name = self.fresh();
            let v = self.define(&name, nodes::ptr_diff(x, y));
            self.add_live(v);
        }
    }

    /// A local tensor with a layout: filled in a loop nest, then read back
    /// at constant coordinates and in a loop.
    pub fn layout_tensor(&mut self) {
        let rows = *self.rng.pick(&[2i64, 4]);
        let cols = *self.rng.pick(&[2i64, 4]);
        let shape = vec![rows, cols];
        let layout = match self.rng.below(4) {
            0 => Layout::column_major(shape.clone()),
            1 => Layout::strided(shape.clone(), &[1, 0]),
            2 => Layout::Composed(
                Box::new(Layout::row_major(vec![rows / 2, 1])),
                Box::new(Layout::column_major(vec![2, cols])),
            ),
            _ => Layout::Composed(
                Box::new(Layout::column_major(vec![rows / 2, cols / 2])),
                Box::new(Layout::row_major(vec![2, 2])),
            ),
        };
        self.features.insert("layout");
        let d = *self.rng.pick(&super::expr::dtypes(self.real_peer));
        let name = self.fresh();
        self.arrays.push(ArrayDecl {
            name,
            dtype: d,
            space: AddrSpace::Local,
            shape: vec![layout.size() as usize],
            span: S,
        });
        let arr = self.arrays.len() - 1;
        let dims = vec![rows as usize, cols as usize];
        // for r in range(rows): for c in range(cols): t[r, c] = e
        let (rn, cn) = (self.fresh(), self.fresh());
        let r = self.new_var(&rn, DType::I32);
        let c = self.new_var(&cn, DType::I32);
        let ((), outer) = self.within(|g| {
            g.add_live(r);
            let ((), inner) = g.within(|g| {
                g.add_live(c);
                let e = g.expr_for(d, 2);
                let e = g.fit(e, d);
                let value = nodes::value_for(&e, d);
                let ptr = g.layout_element(arr, &layout, &dims, &[g.var(r), g.var(c)]);
                g.emit(Stmt::Store {
                    ptr,
                    value,
                    mask: None,
                    span: S,
                });
            });
            g.emit(Stmt::For {
                var: c,
                start: int_const(DType::I32, 0, S),
                end: int_const(DType::I32, cols as i128, S),
                step: int_const(DType::I32, 1, S),
                body: inner,
                span: S,
                parallel: None,
            });
        });
        self.emit(Stmt::For {
            var: r,
            start: int_const(DType::I32, 0, S),
            end: int_const(DType::I32, rows as i128, S),
            step: int_const(DType::I32, 1, S),
            body: outer,
            span: S,
            parallel: None,
        });
        // vN = t[r0, c0]
        let (r0, c0) = (
            self.rng.below(rows as usize) as i128,
            self.rng.below(cols as usize) as i128,
        );
        let ptr = self.layout_element(arr, &layout, &dims, &[nodes::int(r0), nodes::int(c0)]);
        let vn = self.fresh();
        let v = self.define(&vn, HVal::num(load(ptr, d, S), d));
        self.add_live(v);
    }

    /// The element of a local tensor with a non-row-major layout: Hidet
    /// holds each index that is not a variable or constant in a temporary.
    fn layout_element(&mut self, arr: ArrayId, l: &Layout, dims: &[usize], idx: &[HVal]) -> Expr {
        let mut held = Vec::new();
        for i in idx {
            let c = nodes::index(i);
            let c = if matches!(c.kind, ExprKind::Var(_) | ExprKind::Const(_)) {
                c
            } else {
                let t = self.new_var("_t", DType::I64);
                self.emit(Stmt::Let(t, c));
                self.var(t).e
            };
            held.push(c);
        }
        let offset = l.offset_expr(&held, S);
        nodes::element(self.array(arr), held, dims.to_vec(), Some(offset))
    }

    /// `out[i] = e`; the output's dtype is `e`'s Hidet type.
    pub fn store_result(&mut self) -> DType {
        let e = self.runtime_expr(3);
        let d = e.hty;
        self.vars[self.out].1 = Type::global_ptr(d);
        let iv = self.var(self.i);
        let ptr = nodes::element(
            self.var(self.out).e,
            vec![nodes::index(&iv)],
            vec![self.n],
            None,
        );
        self.emit(Stmt::Store {
            ptr,
            value: nodes::value_for(&e, d),
            mask: None,
            span: S,
        });
        d
    }
}
