//! The compiler from a typed tile program to a [`Program`]: values of one
//! element become slots, `arange`s shifted by scalars stay affine (an
//! int32 base slot), pointers moved by them stay affine pointers, and
//! their comparisons with scalars stay symbolic masks; everything else
//! becomes lane registers. `None` where the program leaves what it covers
//! (see `regprog`'s module comment); the tree evaluator then runs it.

use super::inst::*;
use crate::dtype::DType;
use crate::ir::*;

/// A compiled value: its form, lane count and whether its lanes are 64-bit.
#[derive(Clone, Copy, Debug)]
struct Val {
    form: V,
    n: usize,
    wide: bool,
}

/// The forms a compiled value takes.
#[derive(Clone, Copy, Debug)]
enum V {
    /// One element (a 0-d value, a one-element tile, or a broadcast one).
    Slot(Slot),
    /// int32 lanes `base + i`.
    Affine(Slot),
    /// Bool lanes of an int32 comparison of affine lanes with a slot.
    Cmp {
        op: BinOp,
        base: Slot,
        bound: Slot,
        affine_left: bool,
    },
    /// Pointer `ptr` moved by int32 lanes `base + i`.
    AffinePtr { ptr: Slot, base: Slot },
    /// Lanes in a register.
    Reg(Reg),
}

/// The compiler's state.
struct Compiler {
    prog: Program,
    env: Vec<Option<Val>>,
    /// Whether a store was compiled (no load may follow it).
    stored: bool,
}

/// Compiles `kernel`'s tile program; `None` where it uses what the register
/// program does not cover.
pub fn compile(kernel: &Kernel) -> Option<Program> {
    if kernel.model != Model::Tile {
        return None;
    }
    let mut c = Compiler {
        prog: Program::default(),
        env: vec![None; kernel.vars.len()],
        stored: false,
    };
    for p in &kernel.params {
        if let Some(v) = p.var {
            let s = c.slot();
            c.prog.params.push((v, s));
            c.env[v] = Some(Val {
                form: V::Slot(s),
                n: 1,
                wide: true,
            });
        }
    }
    for s in &kernel.body {
        c.stmt(s)?;
    }
    c.prog.accesses = c.prog.stores.len()
        + (c.prog.insts.iter())
            .filter(|i| matches!(i, Inst::Load { .. }))
            .count();
    Some(c.prog)
}

/// Whether a value of type `t` takes 64-bit lanes.
fn wide(t: &Type) -> bool {
    t.is_ptr() || t.dtype().bits() > 32
}

impl Compiler {
    fn slot(&mut self) -> Slot {
        self.prog.slots += 1;
        self.prog.slots - 1
    }

    fn reg(&mut self, wide: bool, n: usize) -> Reg {
        if wide {
            self.prog.regs64.push(n);
            Reg::W64(self.prog.regs64.len() - 1)
        } else {
            self.prog.regs32.push(n);
            Reg::W32(self.prog.regs32.len() - 1)
        }
    }

    fn emit(&mut self, i: Inst) {
        self.prog.insts.push(i);
    }

    fn stmt(&mut self, s: &Stmt) -> Option<()> {
        match s {
            Stmt::Let(v, e) => {
                let val = self.expr(e)?;
                self.env[*v] = Some(val);
            }
            Stmt::Store {
                ptr,
                value,
                mask,
                span,
            } => {
                let p = self.expr(ptr)?;
                let v = self.expr(value)?;
                let m = match mask {
                    Some(m) => Some(self.expr(m)?),
                    None => None,
                };
                let n = ptr.ty.numel();
                if n == 0 || v.n != n && v.n != 1 {
                    return None;
                }
                let ptr = self.ptr_src(p)?;
                let mask = self.mask_src(m)?;
                let value = match v.form {
                    V::Slot(s) if n == 1 => Src::Splat(s),
                    _ => Src::Lanes(self.lanes(v, n)),
                };
                self.prog.stores.push(Inst::Store {
                    ptr,
                    value,
                    mask,
                    n,
                    span: *span,
                });
                self.stored = true;
            }
            _ => return None,
        }
        Some(())
    }

    /// The slot of a one-element value.
    fn slot_of(&self, v: Val) -> Option<Slot> {
        match v.form {
            V::Slot(s) => Some(s),
            _ => None,
        }
    }

    /// A lane operand for `v`: slots and affine lanes as they are, other
    /// symbolic values materialised.
    fn src(&mut self, v: Val) -> Src {
        match v.form {
            V::Slot(s) => Src::Splat(s),
            V::Affine(b) => Src::Affine(b),
            V::Reg(r) => Src::Lanes(r),
            _ => Src::Lanes(self.lanes(v, v.n)),
        }
    }

    /// `v`'s `n` lanes in a register.
    fn lanes(&mut self, v: Val, n: usize) -> Reg {
        let form = match v.form {
            V::Reg(r) => return r,
            V::Slot(s) => Form::Splat(s),
            V::Affine(b) => Form::Affine(b),
            V::Cmp {
                op,
                base,
                bound,
                affine_left,
            } => Form::Cmp {
                op,
                base,
                bound,
                affine_left,
            },
            V::AffinePtr { ptr, base } => Form::AffinePtr { ptr, base },
        };
        let dst = self.reg(v.wide, n);
        self.emit(Inst::Materialize { form, n, dst });
        dst
    }

    fn ptr_src(&mut self, p: Val) -> Option<PtrSrc> {
        Some(match p.form {
            V::AffinePtr { ptr, base } => PtrSrc::Affine { ptr, base },
            V::Slot(s) if p.n == 1 => PtrSrc::Lanes(Src::Splat(s)),
            _ => PtrSrc::Lanes(Src::Lanes(self.lanes(p, p.n))),
        })
    }

    fn mask_src(&mut self, m: Option<Val>) -> Option<MaskSrc> {
        let Some(m) = m else {
            return Some(MaskSrc::All);
        };
        Some(match m.form {
            V::Cmp {
                op,
                base,
                bound,
                affine_left,
            } => MaskSrc::AffineCmp {
                op,
                base,
                bound,
                affine_left,
            },
            V::Slot(s) => MaskSrc::Lanes(Src::Splat(s)),
            _ => MaskSrc::Lanes(Src::Lanes(self.lanes(m, m.n))),
        })
    }

    fn expr(&mut self, e: &Expr) -> Option<Val> {
        let n = e.ty.numel();
        let w = wide(&e.ty);
        let one = |s: Slot| Val {
            form: V::Slot(s),
            n,
            wide: w,
        };
        let at = |form: V| Val { form, n, wide: w };
        Some(match &e.kind {
            ExprKind::Const(b) => {
                let dst = self.slot();
                self.emit(Inst::Const { dst, bits: *b });
                one(dst)
            }
            ExprKind::Var(v) => {
                let val = (*self.env.get(*v)?)?;
                Val { n, wide: w, ..val }
            }
            ExprKind::BlockId(a) => {
                let dst = self.slot();
                self.emit(Inst::BlockId { dst, axis: *a });
                one(dst)
            }
            ExprKind::GridDim(a) => {
                let dst = self.slot();
                self.emit(Inst::GridDim { dst, axis: *a });
                one(dst)
            }
            ExprKind::Iota(s, t) if e.ty.dtype() == DType::I32 && t > s => {
                let dst = self.slot();
                self.emit(Inst::Const {
                    dst,
                    bits: (*s as u64) & 0xffff_ffff,
                });
                if n == 1 {
                    one(dst)
                } else {
                    at(V::Affine(dst))
                }
            }
            ExprKind::Broadcast(x) | ExprKind::Reshape(x) => {
                let v = self.expr(x)?;
                if v.n != n && v.n != 1 {
                    return None;
                }
                match v.form {
                    V::Slot(s) => one(s),
                    _ if v.n == n => Val { n, ..v },
                    _ => return None,
                }
            }
            ExprKind::Permute(x, _) if n == 1 => {
                let v = self.expr(x)?;
                one(self.slot_of(v)?)
            }
            ExprKind::Cast(x, kind) if kind.is_pointer_bits(&x.ty, &e.ty) => {
                let v = self.expr(x)?;
                Val { n, wide: w, ..v }
            }
            ExprKind::Cast(x, kind) => {
                let v = self.expr(x)?;
                let (from, to) = (x.ty.dtype(), e.ty.dtype());
                if n == 1 {
                    let (a, dst) = (self.slot_of(v)?, self.slot());
                    self.emit(Inst::ScalarCast {
                        kind: *kind,
                        from,
                        to,
                        a,
                        dst,
                    });
                    one(dst)
                } else {
                    let a = self.src(v);
                    let dst = self.reg(w, n);
                    self.emit(Inst::Cast {
                        kind: *kind,
                        from,
                        to,
                        wa: wide(&x.ty),
                        a,
                        n,
                        dst,
                    });
                    at(V::Reg(dst))
                }
            }
            ExprKind::Unary(op, x) => {
                let v = self.expr(x)?;
                let d = x.ty.dtype();
                if n == 1 {
                    let (a, dst) = (self.slot_of(v)?, self.slot());
                    self.emit(Inst::ScalarUnary { op: *op, d, a, dst });
                    one(dst)
                } else {
                    let a = self.src(v);
                    let dst = self.reg(w, n);
                    self.emit(Inst::Unary {
                        op: *op,
                        d,
                        wa: wide(&x.ty),
                        a,
                        n,
                        dst,
                    });
                    at(V::Reg(dst))
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (va, vb) = (self.expr(a)?, self.expr(b)?);
                self.binary(*op, a, b, va, vb, e)?
            }
            ExprKind::Select(c, a, b) => {
                let (vc, va, vb) = (self.expr(c)?, self.expr(a)?, self.expr(b)?);
                if n == 1 {
                    let (c, a, b) = (self.slot_of(vc)?, self.slot_of(va)?, self.slot_of(vb)?);
                    let dst = self.slot();
                    self.emit(Inst::ScalarSelect { c, a, b, dst });
                    one(dst)
                } else {
                    let (c, a, b) = (self.src(vc), self.src(va), self.src(vb));
                    let dst = self.reg(w, n);
                    let wa = wide(&e.ty);
                    self.emit(Inst::Select {
                        c,
                        wa,
                        a,
                        b,
                        n,
                        dst,
                    });
                    at(V::Reg(dst))
                }
            }
            ExprKind::Fma(a, b, c, r) => {
                let (va, vb, vc) = (self.expr(a)?, self.expr(b)?, self.expr(c)?);
                let d = e.ty.dtype();
                if n == 1 {
                    let (a, b, c) = (self.slot_of(va)?, self.slot_of(vb)?, self.slot_of(vc)?);
                    let dst = self.slot();
                    self.emit(Inst::ScalarFma {
                        d,
                        r: *r,
                        a,
                        b,
                        c,
                        dst,
                    });
                    one(dst)
                } else {
                    let (a, b, c) = (self.src(va), self.src(vb), self.src(vc));
                    let dst = self.reg(w, n);
                    self.emit(Inst::Fma {
                        d,
                        r: *r,
                        wa: w,
                        a,
                        b,
                        c,
                        n,
                        dst,
                    });
                    at(V::Reg(dst))
                }
            }
            ExprKind::Load { ptr, mask, other } => {
                if self.stored || n == 0 {
                    return None;
                }
                let p = self.expr(ptr)?;
                let m = match mask {
                    Some(m) => Some(self.expr(m)?),
                    None => None,
                };
                // (the tree evaluator computes `other` unless it is
                // undefined and every lane active)
                let other = match other.as_deref() {
                    None => Other::Absent,
                    Some(o) if o.kind == ExprKind::Undef => Other::Undef,
                    Some(o) => {
                        let v = self.expr(o)?;
                        Other::Val(self.src(v))
                    }
                };
                let ptr = self.ptr_src(p)?;
                let mask = self.mask_src(m)?;
                let dst = if n == 1 {
                    Dst::Slot(self.slot())
                } else {
                    Dst::Reg(self.reg(w, n))
                };
                self.emit(Inst::Load {
                    ptr,
                    mask,
                    other,
                    d: e.ty.dtype(),
                    n,
                    dst,
                    span: e.span,
                });
                match dst {
                    Dst::Slot(s) => one(s),
                    Dst::Reg(r) => at(V::Reg(r)),
                }
            }
            ExprKind::Reduce {
                arg,
                axis,
                combiner,
                ..
            } => {
                let shape = &arg.ty.shape;
                let axis = axis.unwrap_or(0);
                let len = *shape.get(axis)?;
                let last = axis + 1 == shape.len();
                let whole = shape.iter().enumerate().all(|(i, &s)| i == axis || s == 1);
                if matches!(**combiner, Combiner::Custom { .. }) || !(last || whole) {
                    return None;
                }
                let v = self.expr(arg)?;
                let src = self.lanes(v, v.n);
                let rows = v.n / len;
                let dst = if n == 1 {
                    Dst::Slot(self.slot())
                } else {
                    Dst::Reg(self.reg(w, n))
                };
                self.emit(Inst::Reduce {
                    comb: (**combiner).clone(),
                    d: arg.ty.dtype(),
                    src,
                    n: len,
                    rows,
                    dst,
                });
                match dst {
                    Dst::Slot(s) => one(s),
                    Dst::Reg(r) => at(V::Reg(r)),
                }
            }
            _ => return None,
        })
    }

    /// A binary operation: affine forms kept where the operation keeps
    /// them (int32 `+`/`-` of a scalar, a pointer moved by affine lanes,
    /// an ordering comparison with a scalar), else scalar or lane
    /// instructions.
    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, va: Val, vb: Val, e: &Expr) -> Option<Val> {
        let n = e.ty.numel();
        let w = wide(&e.ty);
        let at = |form: V| Val { form, n, wide: w };
        let d = a.ty.dtype();
        let od = b.ty.dtype();
        let int32 = !a.ty.is_ptr() && d == DType::I32 && !b.ty.is_ptr() && od == DType::I32;
        let ordering = matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge);
        if n == 1 {
            let (a, b, dst) = (self.slot_of(va)?, self.slot_of(vb)?, self.slot());
            self.emit(Inst::ScalarBinary {
                op,
                d,
                od,
                a,
                b,
                dst,
            });
            return Some(at(V::Slot(dst)));
        }
        match (va.form, vb.form) {
            // `arange + s`, `s + arange` and `arange - s` shift the base
            (V::Affine(base), V::Slot(s)) | (V::Slot(s), V::Affine(base))
                if int32
                    && (op == BinOp::Add
                        || op == BinOp::Sub && matches!(va.form, V::Affine(_))) =>
            {
                let dst = self.slot();
                self.emit(Inst::ScalarBinary {
                    op,
                    d,
                    od,
                    a: base,
                    b: s,
                    dst,
                });
                return Some(at(V::Affine(dst)));
            }
            (V::Slot(ptr), V::Affine(base)) if op == BinOp::PtrAdd && od == DType::I32 => {
                return Some(at(V::AffinePtr { ptr, base }));
            }
            (V::Affine(base), V::Slot(bound)) if int32 && ordering => {
                return Some(at(V::Cmp {
                    op,
                    base,
                    bound,
                    affine_left: true,
                }));
            }
            (V::Slot(bound), V::Affine(base)) if int32 && ordering => {
                return Some(at(V::Cmp {
                    op,
                    base,
                    bound,
                    affine_left: false,
                }));
            }
            _ => {}
        }
        let (sa, sb) = (self.src(va), self.src(vb));
        let dst = self.reg(w, n);
        if op.is_ptr_add() {
            self.emit(Inst::PtrAdd {
                bytes: op == BinOp::PtrAddBytes,
                d,
                od,
                a: sa,
                b: sb,
                n,
                dst,
            });
        } else {
            self.emit(Inst::Binary {
                op,
                d,
                wa: wide(&a.ty),
                a: sa,
                b: sb,
                n,
                dst,
            });
        }
        Some(at(V::Reg(dst)))
    }
}
