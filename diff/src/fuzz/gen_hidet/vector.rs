//! Vector statements of the generated kernels: a local tensor of a vector
//! type (`tensor(dtype=f32x4, shape=[m])`), its lanes written one by one
//! through `cast(~t[0], ~f32)[j]` (a scalar converted to the lane type),
//! whole elements copied through vector variables (`v = t[k]`, `w = -v`,
//! `t[k2] = w`: the only operations Hidet defines on a vector, measured in
//! docs/hidet-measured.md), and a lane read back into a scalar variable
//! the rest of the kernel uses (`x = cast(~t[c], ~f32)[k]`).
//!
//! Built as the front end elaborates them (`elab/compound.rs`,
//! `elab/memory.rs`): an element of a vector tensor is `w` numbers of the
//! lane dtype, its offset `index * 1 * w` and its index held in `_t`
//! temporaries; a vector variable `v` is its lane variables `v.0 … v.(w-1)`.
//!
//! Which vector types: on the CPU (a `cpu_kernel`, and so against real
//! Hidet) only f32x4 and f32x8, the types Hidet's CPU code declares
//! (`__m128`, `__m256`); in a `cuda_kernel` also f16x2, bf16x2, i8x4 and
//! u8x4. Not f32x2: its IR is a complex64's (two float32 parts), so the
//! printer could not tell the two apart. `-v` only on f32x4/f32x8, where
//! it is measured (tools/probes/hidet/vecptr.json).

use super::nodes::{self, HVal, Op, S};
use super::Gen;
use ksem_interp::dtype::DType;
use ksem_interp::frontend::hidet::layout::Layout;
use ksem_interp::ir::build::{bin, int_const, load, mk, part_ptr, unary};
use ksem_interp::ir::*;

/// A vector tensor being generated: its array, lane dtype, lanes and length.
#[derive(Clone, Copy)]
struct VecTensor {
    arr: ArrayId,
    lane: DType,
    width: usize,
    len: usize,
}

impl Gen {
    /// The vector types a kernel of this kind may use: (lane dtype, lanes).
    fn vector_types(&self) -> Vec<(DType, usize)> {
        let mut v = vec![(DType::F32, 4), (DType::F32, 8)];
        if self.cuda {
            v.extend([
                (DType::F16, 2),
                (DType::BF16, 2),
                (DType::I8, 4),
                (DType::U8, 4),
            ]);
        }
        v
    }

    /// A vector tensor filled lane by lane, elements copied (negated)
    /// through vector variables, and a lane read into a live scalar.
    pub fn vector(&mut self) {
        self.features.insert("vector");
        let (lane, width) = *self.rng.pick(&self.vector_types());
        let len = 2 + self.rng.below(2);
        let name = self.fresh();
        self.arrays.push(ArrayDecl {
            name,
            dtype: lane,
            space: AddrSpace::Local,
            shape: vec![len * width],
            span: S,
        });
        let t = VecTensor {
            arr: self.arrays.len() - 1,
            lane,
            width,
            len,
        };
        self.fill_lanes(t);
        for _ in 0..1 + self.rng.below(2) {
            self.copy_element(t);
        }
        self.read_lane(t);
    }

    /// `for j in range(len * width): cast(~t[0], ~T)[j] = e`.
    fn fill_lanes(&mut self, t: VecTensor) {
        self.features.insert("vector-lane-write");
        let jn = self.fresh();
        let j = self.new_var(&jn, DType::I32);
        let ((), body) = self.within(|g| {
            g.add_live(j);
            let e = g.expr_for(t.lane, 2);
            let e = g.fit(e, t.lane);
            let value = nodes::value_for(&e, t.lane);
            let lanes = g.element(t, &nodes::int(0));
            let jv = g.var(j);
            g.emit(Stmt::Store {
                ptr: nodes::ptr_add(lanes, &jv),
                value,
                mask: None,
                span: S,
            });
        });
        self.emit(Stmt::For {
            var: j,
            start: int_const(DType::I32, 0, S),
            end: int_const(DType::I32, (t.len * t.width) as i128, S),
            step: int_const(DType::I32, 1, S),
            body,
            span: S,
            parallel: None,
        });
    }

    /// `v = t[k]`, maybe `w = -v`, then `t[k2] = w` (whole elements).
    fn copy_element(&mut self, t: VecTensor) {
        self.features.insert("vector-copy");
        let k = self.element_index(t);
        let from = self.element(t, &k);
        let loads: Vec<Expr> = (0..t.width)
            .map(|l| load(part_ptr(&from, l as i64, S), t.lane, S))
            .collect();
        let mut v = self.hold_vector(loads);
        if t.lane == DType::F32 && self.rng.chance(0.6) {
            self.features.insert("vector-neg");
            let neg = v.iter().map(|x| unary(UnOp::Neg, x.clone(), S)).collect();
            v = self.hold_vector(neg);
        }
        let k2 = self.element_index(t);
        let to = self.element(t, &k2);
        for (l, x) in v.into_iter().enumerate() {
            self.emit(Stmt::Store {
                ptr: part_ptr(&to, l as i64, S),
                value: x,
                mask: None,
                span: S,
            });
        }
    }

    /// `x = cast(~t[c], ~T)[k]` with `k` a lane of element `c` or, from
    /// element 0, any lane of the tensor; `x` becomes live.
    fn read_lane(&mut self, t: VecTensor) {
        self.features.insert("vector-lane-read");
        let (c, k) = if self.rng.chance(0.5) {
            let c = nodes::int(self.rng.below(t.len) as i128);
            let iv = self.var(self.i);
            let k = nodes::binop(Op::Mod, &iv, &nodes::int(t.width as i128)).expect("i % w");
            (c, k)
        } else {
            let iv = self.var(self.i);
            let all = (t.len * t.width) as i128;
            let k = nodes::binop(Op::Mod, &iv, &nodes::int(all)).expect("i % n");
            (nodes::int(0), k)
        };
        let base = self.element(t, &c);
        let ptr = nodes::ptr_add(base, &k);
        let name = self.fresh();
        let x = self.define(&name, HVal::num(load(ptr, t.lane, S), t.lane));
        self.add_live(x);
    }

    /// An element index in `0..len`: a literal or `i % len`.
    fn element_index(&mut self, t: VecTensor) -> HVal {
        if self.rng.chance(0.4) {
            return nodes::int(self.rng.below(t.len) as i128);
        }
        let iv = self.var(self.i);
        let s = nodes::int(self.rng.below(t.len) as i128 + 1);
        let sum = nodes::binop(Op::Add, &iv, &s).expect("i + s");
        nodes::binop(Op::Mod, &sum, &nodes::int(t.len as i128)).expect("(i + s) % len")
    }

    /// The pointer to element `k` of `t` (its first lane), as the front
    /// end holds it: the index and the offset `k * 1 * width` in `_t`
    /// temporaries.
    fn element(&mut self, t: VecTensor, k: &HVal) -> Expr {
        let idx = self.hold_index(nodes::index(k));
        let layout = Layout::row_major(vec![t.len as i64]);
        let o = layout.offset_expr(std::slice::from_ref(&idx), S);
        let w = int_const(DType::I64, t.width as i128, S);
        let off = self.hold_index(bin(BinOp::Mul, o, w, S));
        let a = &self.arrays[t.arr];
        let ty = Type {
            elem: Elem::Ptr(a.dtype, a.space),
            shape: vec![],
        };
        nodes::element(
            mk(ExprKind::ArrayBase(t.arr), ty, S),
            vec![idx],
            vec![t.len],
            Some(off),
        )
    }

    /// `e` (an `int64`) held in a `_t` temporary unless it is a variable
    /// or a constant.
    fn hold_index(&mut self, e: Expr) -> Expr {
        if matches!(e.kind, ExprKind::Var(_) | ExprKind::Const(_)) {
            return e;
        }
        let v = self.new_var("_t", DType::I64);
        self.emit(Stmt::Let(v, e));
        self.var(v).e
    }

    /// A new vector variable holding `lanes`: its lane variables `vN.l`.
    fn hold_vector(&mut self, lanes: Vec<Expr>) -> Vec<Expr> {
        let name = self.fresh();
        lanes
            .into_iter()
            .enumerate()
            .map(|(l, e)| {
                let ty = e.ty.clone();
                self.vars
                    .push((super::complex::part_name(&name, l), ty.clone()));
                let id = self.vars.len() - 1;
                self.emit(Stmt::Let(id, e));
                mk(ExprKind::Var(id), ty, S)
            })
            .collect()
    }
}
