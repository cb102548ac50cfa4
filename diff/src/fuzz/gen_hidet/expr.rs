//! Random expressions of the generated kernels: Hidet's mixed scalar
//! typing (promotion table, Python literals as `int32`/`float32`
//! constants, the swapped promotion of `>`/`>=`), division and modulo,
//! shifts and conversions guarded by the shared passes (`fuzz/passes/`),
//! bitwise operators,
//! `a if c else b` with one Hidet type on both sides, `and`/`or`/`not`.

use super::nodes::{self, HVal, Lit, Op, S};
use super::Gen;
use crate::fuzz::passes::{fcvt, int_divz, op_of, shift, GuardBuilder, Known};
use ksem_interp::dtype::DType;
use ksem_interp::frontend::hidet::ops;
use ksem_interp::ir::build::{convert, dtype_of, fold, mk, unary};
use ksem_interp::ir::*;

/// The dtypes values take.
pub fn dtypes(real_peer: bool) -> Vec<DType> {
    use DType::*;
    let mut v = vec![Bool, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64];
    if !real_peer {
        v.extend([F16, BF16]);
    }
    v
}

/// The guard passes' builder over Hidet values (`nodes`): Python ints as
/// `int32` constants, float bounds as constants of the operand's own type
/// (exact in it), `&`/`|` as Hidet types them, and the clamp
/// `x if x < hi and x > lo else lo` ([`Gen::clamp_into`], which sends a NaN
/// to `lo`). Building fails where Hidet refuses the node.
struct Guards<'g>(&'g mut Gen);

impl GuardBuilder for Guards<'_> {
    type Val = HVal;
    type Err = ();

    fn dtype(&self, v: &HVal) -> DType {
        v.hty
    }
    fn known(&self, v: &HVal) -> Option<Known> {
        match v.lit {
            Some(Lit::Int(i)) => return Some(Known::Int(i)),
            Some(Lit::Float(f)) => return Some(Known::Float(f)),
            _ => {}
        }
        let bits = fold(&v.e)?;
        let d = dtype_of(&v.e);
        Some(if d.is_float() {
            Known::Float(ksem_interp::float::to_f64(d, bits))
        } else {
            Known::Int(ksem_interp::ops::int_value(d, bits))
        })
    }
    fn int(&mut self, _d: DType, v: i128) -> Result<HVal, ()> {
        Ok(nodes::int(v))
    }
    fn float(&mut self, d: DType, v: f64) -> Result<HVal, ()> {
        nodes::typed_const(d, Lit::Float(v)).ok_or(())
    }
    fn float_const_dtype(&self) -> DType {
        // (constants of the operand's type: no narrower than it)
        DType::F64
    }
    fn bit_and(&mut self, a: HVal, b: HVal) -> Result<HVal, ()> {
        nodes::binop(Op::And, &a, &b).ok_or(())
    }
    fn bit_or(&mut self, a: HVal, b: HVal) -> Result<HVal, ()> {
        nodes::binop(Op::Or, &a, &b).ok_or(())
    }
    fn clamp(&mut self, x: HVal, lo: f64, hi: f64) -> Result<HVal, ()> {
        self.0.clamp_into(x, lo, hi)
    }
}

impl Gen {
    /// A leaf: a live variable, a thread id or a literal.
    fn leaf(&mut self) -> HVal {
        let live = self.live_vars();
        let var_p = if self.real_peer { 0.9 } else { 0.7 };
        if self.rng.chance(var_p) && !live.is_empty() {
            let v = *self.rng.pick(&live);
            return self.var(v);
        }
        if self.cuda && self.rng.chance(0.15) {
            self.features.insert("thread-id");
            return nodes::cuda_index(ExprKind::ThreadId(0));
        }
        self.literal()
    }

    /// A Python number (never 0 or -0.0 for a real peer: Hidet simplifies
    /// `x + 0`, `x * 0`, divergences H2).
    pub fn literal(&mut self) -> HVal {
        if self.rng.chance(0.1) && !self.real_peer {
            let d = *self.rng.pick(&dtypes(false));
            let l = if d.is_float() {
                Lit::Float((self.rng.below(161) as f64 - 80.0) / 8.0)
            } else {
                Lit::Int(self.rng.below(11) as i128)
            };
            if let Some(v) = nodes::typed_const(d, l) {
                self.features.insert("typed-const");
                return v;
            }
        }
        loop {
            let v = if self.rng.chance(0.6) {
                nodes::int(self.rng.below(41) as i128 - 20)
            } else {
                nodes::float((self.rng.below(321) as f64 - 160.0) / 16.0)
            };
            let zero = matches!(v.lit, Some(Lit::Int(0)));
            // `x * 1.0`, `x + 0.0`: Hidet returns `x` itself, which ksem
            // does not model for an integer `x` (it computes in float)
            let shortcut = matches!(v.lit, Some(Lit::Float(f)) if f == 0.0 || f == 1.0);
            if !(shortcut || self.real_peer && zero) {
                return v;
            }
        }
    }

    /// An expression of nesting at most `depth`; statements it needs go to
    /// the current block.
    pub fn expr(&mut self, depth: usize) -> HVal {
        if depth == 0 || self.rng.chance(0.25) {
            return self.leaf();
        }
        match self.rng.below(12) {
            5 | 6 if self.knobs.bitwise => self.bitwise(depth),
            // 0..=4, and bitwise operators the knobs leave out
            0..=6 => self.arith(depth),
            7 => self.conversion(depth),
            8 => self.if_exp(depth),
            9 => {
                let c = self.cond(depth - 1);
                self.features.insert("bool-value");
                c
            }
            _ => self.unary(depth),
        }
    }

    /// A runtime (non-literal) value.
    pub fn runtime(&mut self, depth: usize) -> HVal {
        for _ in 0..4 {
            let m = self.mark();
            let v = self.expr(depth);
            if v.lit.is_none() && fold(&v.e).is_none() {
                return v;
            }
            // a value left out leaves no statements behind
            self.reset(m);
        }
        let live = self.live_vars();
        let v = *self.rng.pick(&live);
        self.var(v)
    }

    /// Two operands, at least one a runtime value (Python arithmetic on two
    /// numbers happens while transpiling).
    fn operands(&mut self, depth: usize) -> (HVal, HVal) {
        let a = self.expr(depth);
        // (a condition of constants is decided while transpiling)
        let b = if a.lit.is_some() || fold(&a.e).is_some() {
            self.runtime(depth)
        } else {
            self.expr(depth)
        };
        // (generated in the order of the text: the front end elaborates
        // the left operand's if-expressions first)
        (a, b)
    }

    fn arith(&mut self, depth: usize) -> HVal {
        let (a, b) = self.operands(depth - 1);
        use Op::*;
        let op = *self
            .rng
            .pick(&[Add, Sub, Mul, Add, Sub, Mul, Div, FloorDiv, Mod]);
        // without division, its draws become the other operators
        let op = match op {
            Div if !self.knobs.division => Add,
            FloorDiv if !self.knobs.division => Sub,
            Mod if !self.knobs.division => Mul,
            _ => op,
        };
        match op {
            Div | FloorDiv | Mod => {
                let float = ksem_interp::frontend::hidet::types::promote(a.hty, b.hty)
                    .is_some_and(|p| p.is_float());
                if op == Mod && float {
                    return self.bin_or_add(Add, a, b);
                }
                // the divisor guarded as the op Hidet makes of it declares
                // (`passes::int_divz`)
                let bi = self.int_of(b);
                let (bop, d) = nodes::binop(op, &a, &bi)
                    .and_then(|v| op_of(&v.e))
                    .unwrap_or((BinOp::IDiv(ops::C_DIV), DType::I32));
                let y = int_divz::guard(&mut Guards(self), bop, d, bi)
                    .unwrap_or_else(|()| nodes::int(1 + self.rng.below(7) as i128));
                let a = if a.lit.is_some() && y.lit.is_some() {
                    self.runtime(0)
                } else {
                    a
                };
                self.features.insert(match op {
                    Div if float => "truediv",
                    Div => "int-div",
                    FloorDiv => "floordiv",
                    _ => "mod",
                });
                self.bin_or_add(op, a, y)
            }
            _ => {
                self.features.insert("arith");
                self.bin_or_add(op, a, b)
            }
        }
    }

    fn bin_or_add(&mut self, op: Op, a: HVal, b: HVal) -> HVal {
        // Hidet simplifies `a - a`, `a // a`, … of one operand twice, and
        // gives the result another type (divergence H2): not against it
        let b = if self.real_peer && a.e == b.e && a.lit.is_none() {
            nodes::int(3)
        } else {
            b
        };
        // Hidet reorders and regroups the terms of a sum (divergence H12):
        // against real Hidet a sum of sums is a product instead
        let op = if self.real_peer
            && matches!(op, Op::Add | Op::Sub)
            && (is_sum(&a.e) || is_sum(&b.e))
        {
            Op::Mul
        } else {
            op
        };
        if let Some(v) = nodes::binop(op, &a, &b) {
            return v;
        }
        if let Some(v) = nodes::binop(Op::Add, &a, &b) {
            return v;
        }
        if a.lit.is_none() {
            a
        } else {
            b
        }
    }

    /// `x` as an integer value (a float is clamped and cast to `i32`).
    pub fn int_of(&mut self, x: HVal) -> HVal {
        if x.hty.is_float() {
            let c = self.clamp(x, DType::I32);
            nodes::cast(&c, DType::I32)
        } else {
            x
        }
    }

    fn bitwise(&mut self, depth: usize) -> HVal {
        use Op::*;
        let op = *self.rng.pick(&[And, Or, Xor, Shl, Shr]);
        // each operand complete (converted) before the next is generated:
        // the front end elaborates them in the order of the text
        if matches!(op, Shl | Shr) {
            self.features.insert("shift");
            let a = self.runtime_int(depth - 1);
            let b = self.expr(depth - 1);
            let b = self.int_of(b);
            // the count guarded as the shift Hidet makes of it declares
            // (`passes::shift`); against real Hidet within 0..7, as its C
            // leaves a signed shift that overflows undefined (H11)
            let (sop, d) = nodes::binop(op, &a, &b)
                .and_then(|v| op_of(&v.e))
                .unwrap_or((BinOp::Shl(ShiftRange::Ub), DType::I32));
            let cap = self.real_peer.then_some(7);
            let m =
                shift::guard(&mut Guards(self), sop, d, b, cap).unwrap_or_else(|()| nodes::int(3));
            return self.bin_or_add(op, a, m);
        }
        self.features.insert("bitwise");
        let a = self.expr(depth - 1);
        let a = self.int_of(a);
        let b = if a.lit.is_some() || fold(&a.e).is_some() {
            self.runtime_int(depth - 1)
        } else {
            let b = self.expr(depth - 1);
            self.int_of(b)
        };
        self.bin_or_add(op, a, b)
    }

    fn runtime_int(&mut self, depth: usize) -> HVal {
        let v = self.runtime(depth);
        self.int_of(v)
    }

    /// `x` of float type clamped into `to`'s safe range: `(x if x < hi
    /// and x > lo else lo)`, which also sends NaN to the bound. `x` is
    /// read three times, so anything but a name, a load or a constant is
    /// first held in a variable (or, inside an if-expression's branch,
    /// where no statement may go, replaced by the bound).
    pub fn clamp(&mut self, x: HVal, to: DType) -> HVal {
        self.features.insert("clamp");
        // against real Hidet within ±100: its C leaves the signed overflow
        // of later arithmetic on a large clamped value undefined (H11)
        let limit = self.real_peer.then_some(100.0);
        // (a constant is clamped by the pass: Hidet would decide the `if`
        // while transpiling)
        let lo = nodes::typed_const(x.hty, Lit::Float(0.0)).unwrap_or_else(|| x.clone());
        fcvt::guard(&mut Guards(self), x, to, limit).unwrap_or(lo)
    }

    /// `x` clamped into `[lo, hi]` as `(x if x < hi and x > lo else lo)`,
    /// which also sends NaN to `lo`.
    fn clamp_into(&mut self, x: HVal, lo: f64, hi: f64) -> Result<HVal, ()> {
        let d = x.hty;
        let hi = nodes::typed_const(d, Lit::Float(hi)).ok_or(())?;
        let lo = nodes::typed_const(d, Lit::Float(lo)).ok_or(())?;
        // an if-expression's or `and`'s result is read once, where it is
        // written: `x` is repeated only where it reads none
        let temps = self.temps_read(&x.e);
        let x = if temps.is_empty() && x.lit.is_none() {
            x
        } else if self.no_stmts == 0 && x.lit.is_none() && !self.pending_besides(&temps) {
            let name = self.fresh();
            let v = self.new_var(&name, d);
            self.emit(Stmt::Let(v, convert(x.e, d)));
            self.var(v)
        } else {
            // the if-expressions and `and`s that computed `x` go with it
            self.drop_value(&x.e);
            return Ok(lo);
        };
        let below = nodes::compare(BinOp::Lt, &x, &hi).expect("float < float");
        let above = nodes::compare(BinOp::Gt, &x, &lo).expect("float > float");
        let r = self.new_var("_boolop", DType::Bool);
        let rv = self.var(r).e;
        self.emit(Stmt::Let(r, nodes::truth(&below)));
        self.emit(Stmt::If {
            cond: rv.clone(),
            then_body: vec![Stmt::Let(r, nodes::truth(&above))],
            else_body: vec![],
        });
        Ok(self.select(HVal::num(rv, DType::Bool), x, lo))
    }

    /// The front-end temporaries (`_ifexp`, `_boolop`) that `e` reads.
    fn temps_read(&self, e: &Expr) -> std::collections::HashSet<VarId> {
        let mut out = std::collections::HashSet::new();
        walk::for_each_expr(&[Stmt::Let(0, e.clone())], &mut |x| {
            if let ExprKind::Var(v) = x.kind {
                if self.vars[v].0.starts_with('_') {
                    out.insert(v);
                }
            }
        });
        out
    }

    /// Whether the current block computes a pattern's value that no
    /// statement has read yet, other than `own`: a statement emitted now
    /// would be elaborated before it.
    fn pending_besides(&self, own: &std::collections::HashSet<VarId>) -> bool {
        let Some(b) = self.blocks.last() else {
            return false;
        };
        let mut defined = std::collections::HashSet::new();
        let mut reads: std::collections::HashMap<VarId, usize> = Default::default();
        for s in b {
            match s {
                Stmt::Let(v, _) => {
                    defined.insert(*v);
                }
                Stmt::If {
                    then_body,
                    else_body,
                    ..
                } => {
                    for last in [then_body.last(), else_body.last()].into_iter().flatten() {
                        if let Stmt::Let(v, _) = last {
                            defined.insert(*v);
                        }
                    }
                }
                _ => {}
            }
        }
        walk::for_each_expr(b, &mut |x| {
            if let ExprKind::Var(v) = x.kind {
                *reads.entry(v).or_default() += 1;
            }
        });
        defined.iter().any(|v| {
            let name = &self.vars[*v].0;
            // an `and`'s own `if` reads its variable once
            let own_reads = if name.starts_with("_boolop") { 1 } else { 0 };
            name.starts_with('_')
                && reads.get(v).copied().unwrap_or(0) <= own_reads
                && !own.contains(v)
        })
    }

    /// Removes from the current block the patterns (if-expressions,
    /// `and`/`or`) whose results only `e` reads, as `e` is left out.
    fn drop_value(&mut self, e: &Expr) {
        let temp = |g: &Gen, v: VarId| g.vars[v].0.starts_with('_');
        let mut want = std::collections::HashSet::new();
        walk::for_each_expr(&[Stmt::Let(0, e.clone())], &mut |x| {
            if let ExprKind::Var(v) = x.kind {
                want.insert(v);
            }
        });
        want.retain(|&v| temp(self, v));
        let Some(mut b) = self.blocks.pop() else {
            return;
        };
        let mut i = b.len();
        while i > 0 {
            i -= 1;
            let defines = match &b[i] {
                Stmt::Let(v, _) => want.contains(v),
                Stmt::If {
                    then_body,
                    else_body,
                    ..
                } => [then_body.last(), else_body.last()]
                    .into_iter()
                    .any(|s| matches!(s, Some(Stmt::Let(v, _)) if want.contains(v))),
                _ => false,
            };
            if defines {
                let s = b.remove(i);
                walk::for_each_expr(std::slice::from_ref(&s), &mut |x| {
                    if let ExprKind::Var(v) = x.kind {
                        if temp(self, v) {
                            want.insert(v);
                        }
                    }
                });
            }
        }
        self.blocks.push(b);
    }

    /// `a if c else b` (same Hidet type): an `if` setting `_ifexp`.
    pub fn select(&mut self, c: HVal, a: HVal, b: HVal) -> HVal {
        let t = nodes::if_exp_type(&a.e, &b.e);
        let r = self.new_var("_ifexp", t);
        let cond = nodes::truth(&c);
        self.emit(Stmt::If {
            cond,
            then_body: vec![Stmt::Let(r, convert(a.e.clone(), t))],
            else_body: vec![Stmt::Let(r, convert(b.e, t))],
        });
        HVal::num(self.var(r).e, a.hty)
    }

    /// `x` converted to `d` by an explicit cast (clamped where a float
    /// becomes an integer).
    pub fn convert_to(&mut self, x: HVal, d: DType) -> HVal {
        if x.hty == d && x.lit.is_none() {
            return x;
        }
        let x = if x.hty.is_float() && !d.is_float() && d != DType::Bool && x.lit.is_none() {
            self.clamp(x, d)
        } else {
            x
        };
        if let Some(Lit::Float(f)) = x.lit {
            if !d.is_float() && d != DType::Bool {
                return nodes::typed_const(d, Lit::Int(f.trunc() as i128))
                    .or_else(|| nodes::typed_const(d, Lit::Int(0)))
                    .unwrap_or(x);
            }
        }
        if let Some(Lit::Int(i)) = x.lit {
            if !d.is_float() && d != DType::Bool && !nodes::fits(i, d) {
                return nodes::typed_const(d, Lit::Int(0)).unwrap_or(x);
            }
        }
        nodes::cast(&x, d)
    }

    fn conversion(&mut self, depth: usize) -> HVal {
        let x = self.runtime(depth - 1);
        let to = *self.rng.pick(&dtypes(self.real_peer));
        // H3: f64 -> f16/bf16 rounds twice in real Hidet
        if self.real_peer && matches!(to, DType::F16 | DType::BF16) && x.hty == DType::F64 {
            return x;
        }
        self.features.insert("cast");
        self.convert_to(x, to)
    }

    /// `a if c else b`: the second branch is cast to the first's type.
    fn if_exp(&mut self, depth: usize) -> HVal {
        let c = self.cond(depth - 1);
        self.features.insert("ifexp");
        self.no_stmts += 1;
        let (a, then_pre) = self.within(|g| g.expr(depth - 1));
        // Hidet checks the branches' types while transpiling and after its
        // passes (they differ for a bitwise result): then a constant of the
        // type stands for the branch (a cast to its own C type leaves no
        // node to print)
        let (a, then_pre) = match nodes::typed_const(a.hty, Lit::Int(1)) {
            Some(one) if a.hty != a.pty => (one, vec![]),
            _ => (a, then_pre),
        };
        let (b, else_pre) = self.within(|g| {
            let b = g.expr(depth - 1);
            if b.hty != a.hty || b.pty != a.pty {
                g.convert_to(b, a.hty)
            } else {
                b
            }
        });
        self.no_stmts -= 1;
        let (b, else_pre) = if b.hty != a.hty || b.pty != a.pty {
            // a cast that could not keep the type: a constant of it
            let z = nodes::typed_const(a.hty, Lit::Int(0)).unwrap_or_else(|| a.clone());
            (z, vec![])
        } else {
            (b, else_pre)
        };
        let t = nodes::if_exp_type(&a.e, &b.e);
        let r = self.new_var("_ifexp", t);
        let mut then_body = then_pre;
        then_body.push(Stmt::Let(r, convert(a.e.clone(), t)));
        let mut else_body = else_pre;
        else_body.push(Stmt::Let(r, convert(b.e, t)));
        self.emit(Stmt::If {
            cond: nodes::truth(&c),
            then_body,
            else_body,
        });
        HVal::num(self.var(r).e, a.hty)
    }

    fn unary(&mut self, depth: usize) -> HVal {
        let x = self.runtime(depth - 1);
        match self.rng.below(3) {
            0 => {
                self.features.insert("neg");
                nodes::neg(&x).unwrap_or(x)
            }
            1 if !x.hty.is_float() => {
                self.features.insert("bitwise_not");
                nodes::bitwise_not(&x).unwrap_or(x)
            }
            _ => {
                self.features.insert("not");
                nodes::not(&x).unwrap_or(x)
            }
        }
    }

    /// A bool condition: a comparison, maybe joined with `and`/`or`.
    pub fn cond(&mut self, depth: usize) -> HVal {
        let c = self.comparison(depth);
        if !self.rng.chance(0.25) {
            return c;
        }
        self.features.insert("and/or");
        self.no_stmts += 1;
        let (second, pre) = self.within(|g| g.comparison(depth));
        self.no_stmts -= 1;
        let and = self.rng.chance(0.5);
        let r = self.new_var("_boolop", DType::Bool);
        let rv = self.var(r).e;
        let go_on = if and {
            rv.clone()
        } else {
            unary(UnOp::LogicalNot, rv.clone(), S)
        };
        let mut then_body = pre;
        then_body.push(Stmt::Let(r, nodes::truth(&second)));
        self.emit(Stmt::Let(r, nodes::truth(&c)));
        self.emit(Stmt::If {
            cond: go_on,
            then_body,
            else_body: vec![],
        });
        HVal::num(rv, DType::Bool)
    }

    fn comparison(&mut self, depth: usize) -> HVal {
        let m = self.mark();
        let (a, mut b) = self.operands(depth);
        // Hidet makes `a < a` (and `a > a`) the constant False, which it
        // then folds with Python's rules (divergence H2): not against it
        if self.real_peer && a.e == b.e {
            b = nodes::int(3);
        }
        use BinOp::*;
        let op = *self.rng.pick(&[Lt, Le, Gt, Ge, Eq, Ne]);
        if nodes::compare(op, &a, &b).is_none() {
            self.reset(m);
        }
        self.features.insert(if matches!(op, Gt | Ge) {
            "compare-swapped"
        } else {
            "compare"
        });
        nodes::compare(op, &a, &b).unwrap_or_else(|| {
            let v = self.runtime(0);
            nodes::compare(op, &v, &nodes::int(3)).expect("value < 3")
        })
    }

    /// An expression for a `d` slot (a float is clamped for an integer).
    pub fn expr_for(&mut self, d: DType, depth: usize) -> HVal {
        let e = self.runtime(depth);
        if e.hty.is_float() && !d.is_float() && d != DType::Bool {
            return self.clamp(e, d);
        }
        e
    }

    /// A reference to variable `v`.
    pub fn var(&self, v: VarId) -> HVal {
        let ty = self.vars[v].1.clone();
        let d = ty.dtype();
        HVal::num(mk(ExprKind::Var(v), ty, S), d)
    }
}

/// Whether `e` (under conversions) is a `+` or `-`.
fn is_sum(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Cast(x, _) => is_sum(x),
        ExprKind::Binary(BinOp::Add | BinOp::Sub, ..) => true,
        _ => false,
    }
}
