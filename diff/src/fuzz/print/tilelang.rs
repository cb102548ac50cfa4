//! Prints a kernel as a TileLang `@T.prim_func` file that elaborates back
//! to the same program.
//!
//! The kernel is printed in its canonical form (`ir::canon`). As for
//! Triton, every expression is written the way a TileLang programmer would
//! and each choice is checked against the TileLang front end itself: a node
//! is rebuilt from its operands' printed forms with the elaborator's own
//! functions (`Elab::binop`, `compare`, `call_fn`, `load`, `stored`,
//! `branch_join`, `condition`, `atomic_update`) and the form is used only
//! where the rebuilt node is the node. So an operand is printed without the
//! conversion TVM's promotion inserts itself, a constant as a Python
//! literal (or a module constant of that value) where the front end turns
//! it into the constant, and otherwise explicitly (`T.Cast("int8", x)`).
//!
//! The front end's expansions are recognised in the IR and printed as the
//! construct they come from: `c ? a : b` selects as `T.min`/`T.max`; the
//! `_sel` variable set last in both branches of an `if` as
//! `T.if_then_else(c, a, b)` and the `_boolop` pattern as `a and b` /
//! `a or b`, both written where they are read (`print::pattern`); the
//! floor-plus-remainder sum as `T.ceildiv`; a guarded loop nest over `_i`
//! variables that moves elements between two buffers as `T.copy`, with a
//! whole buffer on one side and the start element (`A[bx * 16]`) on the
//! other; the `_reduce` scratch array and its tree loops as
//! `T.reduce_*(src, dst, dim=…)`; an `_atomic` update whose old value is
//! unused as `T.atomic_add(B[i], v)`; nested `T.Parallel` loops as one; the
//! store that follows a `T.alloc_var` into it as its `init=`, and a store
//! of `acc + x` into it as `acc += x`. Block ids are `bx`, `by`, `bz`.
//! Allocations are printed before the first statement that uses them (or
//! an array allocated after them), in the order of the kernel's arrays.
//! The tile operations are recognised by their shape alone; the
//! whole-program round trip (`same_program`) proves that the text
//! elaborates to exactly their statements.
//!
//! Three things a TileLang file says are not in the IR, and [`Hints`]
//! gives them: the module constants (`N = 1024`, `K1 = B * -7 // 3`),
//! printed before the kernel, an int the kernel computes with printing as
//! the first constant of that value; `threads=` of `T.Kernel` (any value
//! elaborates to the same program); and which sequential loop form
//! (`range`, `T.serial`, `T.unroll`, `T.Pipelined`, `T.grid`) each loop
//! was, by its index variable's name (the IR keeps only whether a loop is
//! `T.Parallel`). Without hints a loop is `T.serial` and `threads=128`.
//!
//! What has no TileLang form here (tile kernels, scalar parameters, fresh
//! outputs, masked stores, copies between two partial regions, …) is an
//! error, never a panic.

use super::checked::{self, Checked, PyBinary};
use super::control::{Deferring, Structured};
use super::pattern::Pending;
use super::pattern::{self, describe, Counts};
use ksem_interp::dtype::DType;
use ksem_interp::float;
use ksem_interp::frontend::py::num::PyNum;
use ksem_interp::frontend::tilelang::types::dtype_name;
use ksem_interp::frontend::tilelang::{Buffer, Const, Elab, LoopKind, Module, Value};
use ksem_interp::ir::build::{convert, CONVERT};
use ksem_interp::ir::canon::{canonical, canonical_expr};
use ksem_interp::ir::*;
use ksem_interp::span::{DResult, Span};
use rustpython_parser::ast::{CmpOp, Operator, UnaryOp};
use std::collections::{HashMap, HashSet};

/// What a printing step gives: text, or why the kernel cannot be printed.
pub type PResult<T> = Result<T, String>;

/// What a TileLang file says that the IR does not keep (see the module
/// documentation).
#[derive(Clone, Debug, Default)]
pub struct Hints {
    /// Module constants (name, Python text), printed in this order.
    pub consts: Vec<(String, String)>,
    /// `threads=` of `T.Kernel` (128 where `None`).
    pub threads: Option<u32>,
    /// The form of each sequential loop, by its index variable's name
    /// (`T.serial` where not given; `Grid`: this loop and the one loop it
    /// holds are one `T.grid`).
    pub loops: HashMap<String, LoopKind>,
}

/// The import lines every printed file starts with.
const HEADER: &str = "import tilelang\nimport tilelang.language as T\n";

/// Names a printed variable must not take.
const RESERVED: &[&str] = &[
    "tilelang", "T", "bx", "by", "bz", "range", "float", "int", "bool", "abs", "min", "max", "len",
    "print", "main", "True", "False", "None", "and", "or", "not", "if", "else", "elif", "for",
    "while", "in", "is", "def", "return", "break", "continue", "pass", "lambda", "del", "global",
    "nonlocal", "import", "from", "as", "with", "try", "except", "finally", "raise", "class",
    "yield", "assert", "async", "await", "math",
];

/// The source of a file that defines `k` as a `@T.prim_func` kernel.
pub fn kernel(k: &Kernel, hints: &Hints) -> PResult<String> {
    if !k.then.is_empty() {
        return Err("a kernel of several launches does not print as TileLang".into());
    }
    if k.model != Model::Simt || k.block != [1, 1, 1] {
        return Err("only one-thread SIMT kernels print as TileLang".into());
    }
    if !k.fresh.is_empty() {
        return Err("TileLang kernels printed here have no fresh outputs".into());
    }
    let k = canonical(k);
    let mut header = format!("{HEADER}\n");
    for (n, t) in &hints.consts {
        if !pattern::is_ident(n, RESERVED) {
            return Err(format!("`{n}` is not a usable constant name"));
        }
        header.push_str(&format!("{n} = {t}\n"));
    }
    let module = Module::parse("print.py", &header).map_err(|e| e.message)?;
    let mut consts = Vec::new();
    for (n, _) in &hints.consts {
        if let Some(Const::Num(PyNum::Int(v))) = module.constant(n) {
            consts.push((n.clone(), *v));
        }
    }
    let el = Elab::for_module(&module);
    let mut p = Printer::new(&k, el, hints, consts)?;
    p.src.out = header;
    p.kernel()?;
    Ok(p.src.out)
}

/// A way to write a buffer element (`A[i, j]`) and its index values.
type Place = (String, Vec<Value>);

/// A way to write an expression: its text and the value the front end
/// makes of that text.
type Form = checked::Form<Value>;

struct Printer<'k, 'm> {
    k: &'k Kernel,
    el: Elab<'m>,
    hints: &'k Hints,
    /// Module constants with int values.
    consts: Vec<(String, i128)>,
    names: Vec<String>,
    arrays: Vec<String>,
    defs: Vec<usize>,
    uses: Vec<usize>,
    /// The buffer of each parameter (by variable) and array (by id), as
    /// the checking elaborator knows it.
    params: HashMap<VarId, Buffer>,
    bufs: Vec<Buffer>,
    /// Arrays declared so far.
    declared: usize,
    deferred: pattern::Pending<'k>,
    used_deferred: HashSet<VarId>,
    /// Variables given a value so far.
    bound: HashSet<VarId>,
    memo: HashMap<String, Vec<Form>>,
    src: pattern::Source,
}

impl<'k, 'm> Printer<'k, 'm> {
    fn new(
        k: &'k Kernel,
        mut el: Elab<'m>,
        hints: &'k Hints,
        consts: Vec<(String, i128)>,
    ) -> PResult<Self> {
        let Counts { defs, uses } = Counts::of(k);
        // arrays named after what made them: S (shared), F (fragment),
        // L (local), acc (T.alloc_var)
        let mut named = k.clone();
        for a in &mut named.arrays {
            for (what, short) in [
                ("alloc_shared", "S"),
                ("alloc_fragment", "F"),
                ("alloc_local", "L"),
                ("alloc_var", "acc"),
            ] {
                if a.name.starts_with(what) {
                    a.name = short.to_string();
                }
            }
        }
        let (names, arrays) = pattern::names(&named, RESERVED, false)?;
        // each parameter's shape, from its element pointers
        let mut shapes: HashMap<VarId, Vec<usize>> = HashMap::new();
        walk::for_each_expr(&k.body, &mut |e| {
            if let ExprKind::ElemPtr { base, dims, .. } = &e.kind {
                if let ExprKind::Var(v) = base.kind {
                    shapes.entry(v).or_insert_with(|| dims.clone());
                }
            }
        });
        let mut params = HashMap::new();
        for p in &k.params {
            let ParamKind::Pointer(d) = p.kind else {
                return Err(format!(
                    "scalar parameter `{}` has no printed form here",
                    p.name
                ));
            };
            let v = p.var.ok_or("a parameter without a variable")?;
            let shape = shapes
                .get(&v)
                .cloned()
                .ok_or_else(|| format!("the shape of `{}` is unknown (never indexed)", p.name))?;
            params.insert(v, el.buffer_param(&p.name, d, shape, Span::default()));
        }
        let mut bufs = Vec::new();
        for a in &k.arrays {
            let sp = Span::default();
            let b = if a.name.starts_with("alloc_var") {
                el.allocate_var(a.dtype, None, sp)
            } else if a.name.starts_with("alloc_shared") {
                el.allocate("alloc_shared", a.dtype, a.shape.clone(), sp)
            } else if a.name.starts_with("alloc_local") {
                el.allocate("alloc_local", a.dtype, a.shape.clone(), sp)
            } else {
                el.allocate("alloc_fragment", a.dtype, a.shape.clone(), sp)
            }
            .map_err(|e| e.message)?;
            bufs.push(b);
        }
        el.take_since(0);
        Ok(Printer {
            k,
            el,
            hints,
            consts,
            names,
            arrays,
            defs,
            uses,
            params,
            bufs,
            declared: 0,
            deferred: HashMap::new(),
            used_deferred: HashSet::new(),
            bound: HashSet::new(),
            memo: HashMap::new(),
            src: pattern::Source::default(),
        })
    }

    fn name(&self, v: VarId) -> PResult<&str> {
        pattern::name_of(&self.names, v)
    }

    /// An int as source: the first module constant of that value, else
    /// the literal.
    fn int_text(&self, i: i128) -> String {
        match self.consts.iter().find(|(_, v)| *v == i) {
            Some((n, _)) => n.clone(),
            None => py_int(i),
        }
    }

    // ---- the kernel ------------------------------------------------------------

    fn kernel(&mut self) -> PResult<()> {
        let k = self.k;
        if !pattern::is_ident(&k.name, RESERVED) && k.name != "main" {
            return Err(format!("`{}` is not a Python name", k.name));
        }
        let mut params = Vec::new();
        for p in &k.params {
            let v = p.var.ok_or("a parameter without a variable")?;
            let b = &self.params[&v];
            params.push(format!(
                "{}: T.Tensor({}, \"{}\")",
                p.name,
                self.shape_text(b.shape()),
                dtype_name(b.dtype())
            ));
        }
        self.src.out.push_str(&format!(
            "\n\n@T.prim_func\ndef {}({}):\n",
            k.name,
            params.join(", ")
        ));
        let dims = k.grid.iter().rposition(|&g| g != 1).map_or(1, |i| i + 1);
        let grid: Vec<String> = k.grid[..dims]
            .iter()
            .map(|&g| self.int_text(g as i128))
            .collect();
        let ids = ["bx", "by", "bz"][..dims].join(", ");
        let ids = if dims == 1 { ids } else { format!("({ids})") };
        let threads = self.hints.threads.unwrap_or(128);
        self.line(&format!(
            "with T.Kernel({}, threads={threads}) as {ids}:",
            grid.join(", ")
        ));
        self.src.depth = 1;
        let before = self.src.out.len();
        self.body(&k.body)?;
        // arrays no statement uses
        self.declare_upto(self.k.arrays.len(), None)?;
        if self.src.out.len() == before {
            self.line("pass");
        }
        if let Some(v) = self
            .deferred
            .keys()
            .find(|v| !self.used_deferred.contains(v))
        {
            return Err(format!(
                "the value of `{}` is not read where it is computed",
                self.names[*v]
            ));
        }
        Ok(())
    }

    fn shape_text(&self, dims: &[usize]) -> String {
        let items: Vec<String> = dims.iter().map(|&d| self.int_text(d as i128)).collect();
        match items.len() {
            1 => format!("({},)", items[0]),
            _ => format!("({})", items.join(", ")),
        }
    }

    /// Declares the arrays before `upto` not yet declared; `init`: the
    /// statement that may be the last one's `T.alloc_var` initialisation.
    /// Gives whether that statement was consumed.
    fn declare_upto(&mut self, upto: usize, init: Option<&'k Stmt>) -> PResult<bool> {
        let mut consumed = false;
        while self.declared < upto {
            let id = self.declared;
            self.declared += 1;
            let a = &self.k.arrays[id];
            let name = self.arrays[id].clone();
            let what = ["alloc_shared", "alloc_fragment", "alloc_local", "alloc_var"]
                .into_iter()
                .find(|w| a.name.starts_with(w));
            let Some(what) = what else {
                continue; // a tile operation's scratch array: it makes it
            };
            let d = dtype_name(a.dtype);
            if what == "alloc_var" {
                let mut text = format!("{name} = T.alloc_var(\"{d}\")");
                if self.declared == upto {
                    if let Some(s) = init {
                        if let Some(f) = self.var_init(id, s)? {
                            text = format!("{name} = T.alloc_var(\"{d}\", init={f})");
                            consumed = true;
                        }
                    }
                }
                self.line(&text);
            } else {
                let shape = self.shape_text(&a.shape);
                self.line(&format!("{name} = T.{what}({shape}, \"{d}\")"));
            }
        }
        Ok(consumed)
    }

    /// The `init=` text where `s` stores a value into `T.alloc_var` array `id`.
    fn var_init(&mut self, id: ArrayId, s: &'k Stmt) -> PResult<Option<String>> {
        let Stmt::Store {
            ptr,
            value,
            mask: None,
            ..
        } = s
        else {
            return Ok(None);
        };
        if self.array_of(ptr) != Some(id) {
            return Ok(None);
        }
        let d = self.k.arrays[id].dtype;
        for f in self.operand_forms(value)? {
            if self.stores_as(&f, d, value) {
                return Ok(Some(f.text));
            }
        }
        Ok(None)
    }

    /// The array an element pointer points into.
    fn array_of(&self, ptr: &Expr) -> Option<ArrayId> {
        match &ptr.kind {
            ExprKind::ElemPtr { base, .. } => match base.kind {
                ExprKind::ArrayBase(id) => Some(id),
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether storing `f` into a `d` element stores `value`.
    fn stores_as(&mut self, f: &Form, d: DType, value: &Expr) -> bool {
        self.el
            .stored(f.val.clone(), d, Span::default())
            .is_ok_and(|x| canonical_expr(&x) == *value)
    }

    // ---- statements ----------------------------------------------------------------

    fn stmt(&mut self, s: &'k Stmt) -> PResult<()> {
        match s {
            Stmt::Let(v, e) => self.let_stmt(*v, e),
            Stmt::Store {
                ptr,
                value,
                mask: None,
                ..
            } => self.store(s, ptr, value),
            Stmt::If { .. } | Stmt::Break | Stmt::Continue => self.control(s),
            Stmt::For { .. } => self.for_stmt(s),
            Stmt::Store { .. }
            | Stmt::While { .. }
            | Stmt::Return
            | Stmt::Barrier { .. }
            | Stmt::Print { .. }
            | Stmt::Gemm(_) => Err(format!("no TileLang form for {}", short(s))),
        }
    }

    fn let_stmt(&mut self, v: VarId, e: &'k Expr) -> PResult<()> {
        let first = self.bound.insert(v);
        if let ExprKind::Atomic {
            op,
            ptr,
            val,
            cmp: None,
            mask: None,
        } = &e.kind
        {
            if self.uses.get(v) == Some(&0) {
                return self.atomic(*op, e, ptr, val);
            }
        }
        let name = self.name(v)?.to_string();
        let mut forms = self.operand_forms(e)?;
        if let ExprKind::Const(bits) = e.kind {
            // a runtime constant: T.Cast of a literal
            let dt = dtype_form(e.ty.dtype());
            for f in self.literals(e.ty.dtype(), bits) {
                if let Ok(r) = self.try_call(e, "Cast", &[dt.clone(), f]) {
                    forms.push(r);
                }
            }
        }
        for f in forms {
            let ok = if first {
                // a new name binds a runtime value (a Python one stays one)
                f.val.expr().is_some_and(|x| canonical_expr(x) == *e)
            } else {
                let d = self.k.vars[v].1.dtype();
                self.stores_as(&f, d, e)
            };
            if ok {
                self.line(&format!("{name} = {}", f.text));
                return Ok(());
            }
        }
        Err(format!("no TileLang text assigns {}", describe(e)))
    }

    /// `T.atomic_add(buf[i], v)` whose old value is unused.
    fn atomic(&mut self, op: AtomicOp, e: &Expr, ptr: &'k Expr, val: &'k Expr) -> PResult<()> {
        let f = match op {
            AtomicOp::Add => "atomic_add",
            AtomicOp::Max => "atomic_max",
            AtomicOp::Min => "atomic_min",
            other => return Err(format!("no TileLang form for atomic {other:?}")),
        };
        let (buf, places) = self.places(ptr)?;
        for v in self.operand_forms(val)? {
            for (text, idx) in &places {
                let mark = self.el.mark();
                let r = self
                    .el
                    .atomic_update(f, &buf, idx.clone(), v.val.clone(), Span::default());
                let got = self.el.take_since(mark);
                let same = matches!(got.as_slice(), [Stmt::Let(_, x)] if canonical_expr(x) == *e);
                if r.is_ok() && same {
                    let line = format!("T.{f}({text}, {})", v.text);
                    self.line(&line);
                    return Ok(());
                }
            }
        }
        Err(format!("no T.{f} form for {}", describe(e)))
    }

    /// The buffer an element pointer points into and the ways to write the
    /// element (`A[i, j]`) with their index values.
    fn places(&mut self, ptr: &'k Expr) -> PResult<(Buffer, Vec<Place>)> {
        let ExprKind::ElemPtr { base, indices, .. } = &ptr.kind else {
            return Err(format!(
                "a pointer that is not an element: {}",
                describe(ptr)
            ));
        };
        let (buf, bname) = self.buffer(base)?;
        let mut combos: Vec<(Vec<String>, Vec<Value>)> = vec![(vec![], vec![])];
        for ix in indices {
            let forms = self.operand_forms(ix)?;
            let mut next = Vec::new();
            for (ts, vs) in &combos {
                for f in forms.iter().take(4) {
                    let mut t = ts.clone();
                    t.push(f.text.clone());
                    let mut v = vs.clone();
                    v.push(f.val.clone());
                    next.push((t, v));
                }
            }
            combos = next;
        }
        let want = canonical_expr(ptr);
        let mut out = Vec::new();
        for (ts, vs) in combos {
            let ok = self
                .el
                .load(&buf, vs.clone(), Span::default())
                .ok()
                .and_then(|l| l.expr().cloned())
                .is_some_and(|l| match &l.kind {
                    ExprKind::Load { ptr, .. } => canonical_expr(ptr) == want,
                    _ => false,
                });
            if ok {
                out.push((format!("{bname}[{}]", ts.join(", ")), vs));
            }
        }
        if out.is_empty() {
            return Err(format!("no index form for {}", describe(ptr)));
        }
        Ok((buf, out))
    }

    /// The buffer (and its printed name) of an element pointer's base.
    fn buffer(&self, base: &Expr) -> PResult<(Buffer, String)> {
        match base.kind {
            ExprKind::Var(v) => match self.params.get(&v) {
                Some(b) => Ok((b.clone(), self.name(v)?.to_string())),
                None => Err("a pointer variable that is not a parameter".into()),
            },
            ExprKind::ArrayBase(id) => match (self.bufs.get(id), self.arrays.get(id)) {
                (Some(b), Some(n)) => Ok((b.clone(), n.clone())),
                _ => Err(format!("array {id} is not declared")),
            },
            _ => Err(format!("no buffer for {}", describe(base))),
        }
    }

    fn store(&mut self, s: &'k Stmt, ptr: &'k Expr, value: &'k Expr) -> PResult<()> {
        let (buf, places) = self.places(ptr)?;
        let d = buf.dtype();
        if buf.is_var() {
            let (_, name) = self.buffer(match &ptr.kind {
                ExprKind::ElemPtr { base, .. } => base,
                _ => ptr,
            })?;
            // `acc += x`
            let sum = match &value.kind {
                ExprKind::Cast(x, CONVERT) => x,
                _ => value,
            };
            if let ExprKind::Binary(BinOp::Add, l, r) = &sum.kind {
                if matches!(&l.kind, ExprKind::Load { ptr: p, .. } if **p == *ptr) {
                    for f in self.operand_forms(r)? {
                        let v = self.el.binop(
                            Operator::Add,
                            Value::from(&buf),
                            f.val.clone(),
                            Span::default(),
                        );
                        let ok = v.is_ok_and(|v| {
                            self.stores_as(
                                &Form {
                                    text: String::new(),
                                    val: v,
                                },
                                d,
                                value,
                            )
                        });
                        if ok {
                            self.line(&format!("{name} += {}", f.text));
                            return Ok(());
                        }
                    }
                }
            }
            for f in self.operand_forms(value)? {
                if self.stores_as(&f, d, value) {
                    self.line(&format!("{name} = {}", f.text));
                    return Ok(());
                }
            }
            return Err(format!("no TileLang form for {}", short(s)));
        }
        for f in self.operand_forms(value)? {
            if !self.stores_as(&f, d, value) {
                continue;
            }
            if let Some((text, _)) = places.first() {
                self.line(&format!("{text} = {}", f.text));
                return Ok(());
            }
        }
        Err(format!("no TileLang form for {}", short(s)))
    }

    /// A loop: nested `T.Parallel` loops as one, `T.grid` where the hints
    /// say so, else the hinted sequential form.
    fn for_stmt(&mut self, s: &'k Stmt) -> PResult<()> {
        let Stmt::For {
            var,
            start,
            end,
            step,
            body,
            parallel,
            ..
        } = s
        else {
            return Err("not a loop".into());
        };
        if self.name_of(*var).starts_with('_') {
            return Err(format!(
                "no TileLang form for the loop over `{}`",
                self.name_of(*var)
            ));
        }
        let kind = match parallel {
            Some(_) => LoopKind::Parallel,
            None => self
                .hints
                .loops
                .get(self.name_of(*var))
                .copied()
                .unwrap_or(LoopKind::Serial),
        };
        let bound = |e: &Expr| literal_int(e);
        let (s0, st) = (bound(start), bound(step));
        if matches!(kind, LoopKind::Parallel | LoopKind::Grid) {
            // extents only: nested loops from 0 by 1, merged
            let mut vars = vec![*var];
            let mut ends = vec![end];
            let mut inner = body;
            if (s0, st) != (Some(0), Some(1)) {
                return Err("a T.Parallel / T.grid loop starts at 0 and steps by 1".into());
            }
            while let [Stmt::For {
                var: v2,
                start: s2,
                end: e2,
                step: st2,
                body: b2,
                parallel: p2,
                ..
            }] = inner.as_slice()
            {
                let same = match kind {
                    LoopKind::Parallel => p2.is_some() && *p2 == *parallel,
                    _ => p2.is_none() && vars.len() < 2,
                };
                if !same || (bound(s2), bound(st2)) != (Some(0), Some(1)) {
                    break;
                }
                vars.push(*v2);
                ends.push(e2);
                inner = b2;
            }
            if kind == LoopKind::Grid && vars.len() < 2 {
                return self.seq_loop(*var, LoopKind::Serial, start, end, step, body);
            }
            let mut ext = Vec::new();
            for e in ends {
                ext.push(self.bound_text(e)?);
            }
            let names: Vec<String> = vars
                .iter()
                .map(|v| self.name(*v).map(str::to_string))
                .collect::<PResult<_>>()?;
            let f = if kind == LoopKind::Parallel {
                "Parallel"
            } else {
                "grid"
            };
            for v in &vars {
                self.bound.insert(*v);
            }
            self.line(&format!(
                "for {} in T.{f}({}):",
                names.join(", "),
                ext.join(", ")
            ));
            return self.nested(inner);
        }
        self.seq_loop(*var, kind, start, end, step, body)
    }

    fn seq_loop(
        &mut self,
        var: VarId,
        kind: LoopKind,
        start: &'k Expr,
        end: &'k Expr,
        step: &'k Expr,
        body: &'k [Stmt],
    ) -> PResult<()> {
        let (s0, st) = (literal_int(start), literal_int(step));
        let mut args = Vec::new();
        if s0 != Some(0) || st != Some(1) {
            args.push(self.bound_text(start)?);
        }
        args.push(self.bound_text(end)?);
        if st != Some(1) {
            args.push(self.bound_text(step)?);
        }
        let f = match kind {
            LoopKind::Range => "range".to_string(),
            LoopKind::Unroll => "T.unroll".into(),
            LoopKind::Pipelined if args.len() <= 2 => {
                args.push("num_stages=2".into());
                "T.Pipelined".into()
            }
            _ => "T.serial".into(),
        };
        self.bound.insert(var);
        let line = format!("for {} in {f}({}):", self.name(var)?, args.join(", "));
        self.line(&line);
        self.nested(body)
    }

    /// A loop bound: an int literal, else an expression.
    fn bound_text(&mut self, e: &'k Expr) -> PResult<String> {
        match literal_int(e) {
            Some(i) => Ok(self.int_text(i)),
            None => {
                let inner = match &e.kind {
                    ExprKind::Cast(x, CONVERT) => x,
                    _ => e,
                };
                Ok(self.exact(inner)?.text)
            }
        }
    }

    fn name_of(&self, v: VarId) -> &str {
        self.k.vars.get(v).map_or("", |x| x.0.as_str())
    }

    // ---- tile operations -------------------------------------------------------------

    /// `T.copy` or `T.reduce_*` where `b[i]` starts one; the number of
    /// statements it made.
    fn tile_op(&mut self, b: &'k [Stmt], i: usize) -> PResult<Option<usize>> {
        let Stmt::For { var, .. } = &b[i] else {
            return Ok(None);
        };
        match self.name_of(*var) {
            "_i" => {
                let (vars, exts, inner) = self.nest(&b[i]);
                let is_reduce = inner.first().is_some_and(
                    |s| matches!(s, Stmt::For { var, .. } if self.name_of(*var) == "_r"),
                );
                if is_reduce {
                    self.reduce(inner, &vars)?;
                } else {
                    self.copy(inner, &vars, &exts)?;
                }
                Ok(Some(1))
            }
            "_r" => {
                let mut n = 1;
                while matches!(b.get(i + n), Some(Stmt::For { var, .. }) if self.name_of(*var) == "_s")
                {
                    n += 1;
                }
                if !matches!(b.get(i + n), Some(Stmt::Store { .. })) {
                    return Err("a reduction without its result".into());
                }
                self.reduce(&b[i..=i + n], &[])?;
                Ok(Some(n + 1))
            }
            _ => Ok(None),
        }
    }

    /// The `_i` loop nest at `s`: its variables, extents and innermost body.
    fn nest(&self, s: &'k Stmt) -> (Vec<VarId>, Vec<i128>, &'k [Stmt]) {
        let (mut vars, mut exts) = (Vec::new(), Vec::new());
        let mut cur = std::slice::from_ref(s);
        while let [Stmt::For { var, end, body, .. }] = cur {
            if self.name_of(*var) != "_i" {
                break;
            }
            vars.push(*var);
            exts.push(literal_int(end).unwrap_or(-1));
            cur = body;
        }
        (vars, exts, cur)
    }

    /// `T.copy(src, dst)` from the innermost body of its loop nest.
    fn copy(&mut self, inner: &'k [Stmt], vars: &[VarId], exts: &[i128]) -> PResult<()> {
        // [if d_ok:] [if s_ok: store else: store 0] or store
        let mut body = inner;
        if let [Stmt::If {
            then_body,
            else_body,
            ..
        }] = body
        {
            if else_body.is_empty() {
                body = then_body;
            }
        }
        let store = match body {
            [Stmt::If { then_body, .. }] => then_body.first(),
            [s] => Some(s),
            _ => None,
        };
        let Some(Stmt::Store {
            ptr: dst, value, ..
        }) = store
        else {
            return Err("a loop nest that is no T.copy".into());
        };
        let load = match &value.kind {
            ExprKind::Cast(x, CONVERT) => x,
            _ => value,
        };
        let ExprKind::Load { ptr: src, .. } = &load.kind else {
            return Err("a loop nest that is no T.copy".into());
        };
        let (s_whole, s_text) = self.copy_side(src, vars, exts)?;
        let (d_whole, d_text) = self.copy_side(dst, vars, exts)?;
        if !s_whole && !d_whole {
            return Err("a T.copy between two partial regions has no printed form here".into());
        }
        self.line(&format!("T.copy({s_text}, {d_text})"));
        Ok(())
    }

    /// One side of a copy: whether it is the whole buffer, and its text
    /// (the buffer, or the element the region starts at).
    fn copy_side(
        &mut self,
        ptr: &'k Expr,
        vars: &[VarId],
        exts: &[i128],
    ) -> PResult<(bool, String)> {
        let ExprKind::ElemPtr {
            base,
            indices,
            dims,
            ..
        } = &ptr.kind
        else {
            return Err("a copy through a pointer".into());
        };
        let (_, name) = self.buffer(base)?;
        let mut starts = Vec::new();
        let mut whole = true;
        let mut k = 0;
        for (ix, &dim) in indices.iter().zip(dims) {
            let start = match &ix.kind {
                ExprKind::Binary(BinOp::Add, s, v) if matches!(v.kind, ExprKind::Var(x) if vars.contains(&x)) =>
                {
                    whole &= exts.get(k) == Some(&(dim as i128));
                    k += 1;
                    s
                }
                _ => {
                    whole &= dim == 1;
                    ix
                }
            };
            whole &= literal_int(start) == Some(0);
            starts.push(start);
        }
        if whole {
            return Ok((true, name));
        }
        let mut texts = Vec::new();
        for s in starts {
            let want = s.clone();
            let mut found = None;
            for f in self.operand_forms(s)? {
                let ok = self
                    .el
                    .number(f.val.clone(), Span::default())
                    .is_ok_and(|x| canonical_expr(&convert(x, DType::I64)) == want);
                if ok {
                    found = Some(f.text);
                    break;
                }
            }
            texts.push(found.ok_or_else(|| format!("no form for a copy start {}", describe(s)))?);
        }
        Ok((false, format!("{name}[{}]", texts.join(", "))))
    }

    /// `T.reduce_*(src, dst, dim=…)` from its statements: the fill loop,
    /// the tree loops and the store of the result.
    fn reduce(&mut self, stmts: &'k [Stmt], kept: &[VarId]) -> PResult<()> {
        let bad = || "statements that are no T.reduce_*".to_string();
        let Some(Stmt::For {
            var: r, body: fill, ..
        }) = stmts.first()
        else {
            return Err(bad());
        };
        let Some(Stmt::Store { value: fv, .. }) = fill.first() else {
            return Err(bad());
        };
        // the element, or its absolute value
        let (load, abs) = match &fv.kind {
            ExprKind::Load { .. } => (fv, false),
            ExprKind::Unary(UnOp::Math(MathFn::Abs), x) => (x.as_ref(), true),
            ExprKind::Select(_, _, x) if matches!(x.kind, ExprKind::Load { .. }) => {
                (x.as_ref(), true)
            }
            _ => return Err(bad()),
        };
        let ExprKind::Load { ptr: sp, .. } = &load.kind else {
            return Err(bad());
        };
        let ExprKind::ElemPtr {
            base: sb, indices, ..
        } = &sp.kind
        else {
            return Err(bad());
        };
        let dim = indices
            .iter()
            .position(|x| x.kind == ExprKind::Var(*r))
            .ok_or_else(bad)?;
        // the tree's operation
        let op = stmts[1..]
            .iter()
            .find_map(|s| match s {
                Stmt::For { body, .. } => match body.as_slice() {
                    [Stmt::If { then_body, .. }] => match then_body.as_slice() {
                        [Stmt::Store { value, .. }] => match &value.kind {
                            ExprKind::Binary(op, ..) => Some(*op),
                            _ => None,
                        },
                        _ => None,
                    },
                    _ => None,
                },
                _ => None,
            })
            .unwrap_or(BinOp::Add);
        let Some(Stmt::Store {
            ptr: dp,
            value: result,
            ..
        }) = stmts.last()
        else {
            return Err(bad());
        };
        let ExprKind::ElemPtr { base: db, .. } = &dp.kind else {
            return Err(bad());
        };
        let clear = matches!(result.kind, ExprKind::Load { .. } | ExprKind::Cast(..));
        let f = match (op, abs) {
            (BinOp::Add, false) => "reduce_sum",
            (BinOp::Add, true) => "reduce_abssum",
            (BinOp::Max(_), false) => "reduce_max",
            (BinOp::Max(_), true) => "reduce_absmax",
            (BinOp::Min(_), _) => "reduce_min",
            _ => return Err(bad()),
        };
        let _ = kept;
        let (_, src) = self.buffer(sb)?;
        let (_, dst) = self.buffer(db)?;
        let mut text = format!("T.{f}({src}, {dst}, dim={dim}");
        if !clear {
            text.push_str(", clear=False");
        }
        self.line(&(text + ")"));
        Ok(())
    }

    // ---- deferred values -------------------------------------------------------------

    // ---- expressions -------------------------------------------------------------------

    /// The ways to write `e` as an operand, most idiomatic first: Python
    /// literals for a constant, `e` without the conversion the front end
    /// may insert itself, then `e` exactly.
    fn operand_forms(&mut self, e: &'k Expr) -> PResult<Vec<Form>> {
        let key = format!("{e:?}");
        if let Some(f) = self.memo.get(&key) {
            return Ok(f.clone());
        }
        let mut forms = Vec::new();
        if let ExprKind::Const(bits) = e.kind {
            forms.extend(self.literals(e.ty.dtype(), bits));
        }
        if let ExprKind::Cast(x, CONVERT) = &e.kind {
            forms.extend(self.operand_forms(x)?);
        }
        match self.exact(e) {
            Ok(f) => forms.push(f),
            Err(err) if forms.is_empty() => return Err(err),
            Err(_) => {}
        }
        self.memo.insert(key, forms.clone());
        Ok(forms)
    }

    /// A form whose value is exactly `e` (a runtime value).
    fn exact(&mut self, e: &'k Expr) -> PResult<Form> {
        use ExprKind as K;
        let sp = Span::default();
        let runtime = |text: String| Form {
            text,
            val: Value::runtime(e.clone()),
        };
        match &e.kind {
            K::Var(v) => {
                if let Some(d) = self.deferred.get(v).copied() {
                    self.used_deferred.insert(*v);
                    let t = self.print_deferred(e, d)?;
                    return Ok(runtime(t));
                }
                Ok(runtime(self.name(*v)?.to_string()))
            }
            K::BlockId(a) if *a < 3 => Ok(runtime(["bx", "by", "bz"][*a as usize].to_string())),
            K::Const(bits) => {
                let d = e.ty.dtype();
                // a Python literal (its value stays a Python number)
                for f in self.literals(d, *bits) {
                    if let Ok(x) = self.el.number(f.val.clone(), sp) {
                        if canonical_expr(&x) == *e {
                            return Ok(f);
                        }
                    }
                }
                let dt = dtype_form(d);
                for f in self.literals(d, *bits) {
                    if let Ok(r) = self.try_call(e, "Cast", &[dt.clone(), f]) {
                        return Ok(r);
                    }
                }
                Err(format!("no TileLang form for constant {}", describe(e)))
            }
            K::Binary(op, a, b) => self.binary(e, *op, a, b),
            K::Unary(op, x) => {
                let xs = self.operand_forms(x)?;
                for f in &xs {
                    let r = match op {
                        UnOp::Neg => self.try_unary(e, UnaryOp::USub, "-", f),
                        UnOp::Not => self.try_unary(e, UnaryOp::Invert, "~", f),
                        UnOp::LogicalNot => self.try_unary(e, UnaryOp::Not, "not ", f),
                        UnOp::Math(m) => match math_name(*m) {
                            Some(n) => self.try_call(e, n, std::slice::from_ref(f)),
                            None => Err(format!("no T.* form for {m:?}")),
                        },
                        UnOp::Ieee(IeeeUnary::Rsqrt, _) => {
                            self.try_call(e, "ieee_frsqrt", std::slice::from_ref(f))
                        }
                        UnOp::Ieee(u, mode) => {
                            let n = match u {
                                IeeeUnary::Sqrt => "ieee_fsqrt",
                                _ => "ieee_frcp",
                            };
                            self.try_call(e, n, &[f.clone(), mode_form(*mode)?])
                        }
                    };
                    if let Ok(r) = r {
                        return Ok(r);
                    }
                }
                Err(format!("no TileLang form for {}", describe(e)))
            }
            K::Cast(x, CONVERT) => {
                let dt = dtype_form(e.ty.dtype());
                let mut xs = vec![];
                if let Ok(f) = self.exact(x) {
                    xs.push(f);
                }
                xs.extend(self.operand_forms(x)?);
                for f in xs {
                    if let Ok(r) = self.try_call(e, "Cast", &[dt.clone(), f]) {
                        return Ok(r);
                    }
                }
                Err(format!("no T.Cast form for {}", describe(e)))
            }
            K::Fma(a, b, c, mode) => {
                let (fas, fbs, fcs) = (
                    self.operand_forms(a)?,
                    self.operand_forms(b)?,
                    self.operand_forms(c)?,
                );
                let m = mode_form(*mode)?;
                for fa in &fas {
                    for fb in &fbs {
                        for fc in &fcs {
                            let args = [fa.clone(), fb.clone(), fc.clone(), m.clone()];
                            if let Ok(r) = self.try_call(e, "ieee_fmaf", &args) {
                                return Ok(r);
                            }
                        }
                    }
                }
                Err(format!("no T.ieee_fmaf form for {}", describe(e)))
            }
            K::Select(c, a, b) => {
                // T.min(a, b) = a < b ? a : b; T.max: a > b
                // (a comparison of constants is folded)
                let fs: &[&str] = match &c.kind {
                    K::Binary(BinOp::Lt, x, y) if **x == **a && **y == **b => &["min"],
                    K::Binary(BinOp::Gt, x, y) if **x == **a && **y == **b => &["max"],
                    K::Const(_) => &["min", "max"],
                    _ => return Err(format!("no TileLang form for {}", describe(e))),
                };
                let fas = self.operand_forms(a)?;
                let fbs = self.operand_forms(b)?;
                for f in fs {
                    for fa in &fas {
                        for fb in &fbs {
                            if let Ok(r) = self.try_call(e, f, &[fa.clone(), fb.clone()]) {
                                return Ok(r);
                            }
                        }
                    }
                }
                Err(format!("no T.min/T.max form for {}", describe(e)))
            }
            K::Load {
                ptr,
                mask: None,
                other: None,
            } => {
                let (buf, places) = self.places(ptr)?;
                if buf.is_var() {
                    let (_, name) = self.buffer(match &ptr.kind {
                        K::ElemPtr { base, .. } => base,
                        _ => ptr,
                    })?;
                    if let Ok(x) = self.el.number(Value::from(&buf), sp) {
                        if canonical_expr(&x) == *e {
                            return Ok(runtime(name));
                        }
                    }
                }
                match places.into_iter().next() {
                    Some((text, _)) => Ok(runtime(text)),
                    None => Err(format!("no load form for {}", describe(e))),
                }
            }
            _ => Err(format!("no TileLang form for {}", describe(e))),
        }
    }

    /// A binary node: an infix operator, a comparison, or `T.floordiv` …
    /// `T.ceildiv`, `T.ieee_*`, from the operands' forms.
    fn binary(&mut self, e: &'k Expr, op: BinOp, a: &'k Expr, b: &'k Expr) -> PResult<Form> {
        // T.ceildiv(x, y) = x // y + (x % y != 0)
        if op == BinOp::Add {
            if let (ExprKind::Binary(BinOp::IDiv(_), x, y), ExprKind::Cast(up, CONVERT)) =
                (&a.kind, &b.kind)
            {
                if matches!(&up.kind, ExprKind::Binary(BinOp::Ne, ..)) {
                    let xs = self.operand_forms(x)?;
                    let ys = self.operand_forms(y)?;
                    for fx in &xs {
                        for fy in &ys {
                            if let Ok(r) = self.try_call(e, "ceildiv", &[fx.clone(), fy.clone()]) {
                                return Ok(r);
                            }
                        }
                    }
                }
            }
        }
        let as_ = self.operand_forms(a)?;
        let bs = self.operand_forms(b)?;
        for fa in &as_ {
            for fb in &bs {
                let r = match op {
                    BinOp::IDiv(k) | BinOp::IRem(k) => {
                        let div = matches!(op, BinOp::IDiv(_));
                        let r = if k == IntDiv::FLOOR {
                            let (o, s) = if div {
                                (Operator::FloorDiv, "//")
                            } else {
                                (Operator::Mod, "%")
                            };
                            self.try_binary(e, PyBinary::Arith(o), s, fa, fb)
                        } else {
                            Err(String::new())
                        };
                        r.or_else(|_| {
                            let f = match (div, k == IntDiv::FLOOR) {
                                (true, true) => "floordiv",
                                (false, true) => "floormod",
                                (true, false) => "truncdiv",
                                (false, false) => "truncmod",
                            };
                            self.try_call(e, f, &[fa.clone(), fb.clone()])
                        })
                    }
                    BinOp::Ieee(o, mode) => {
                        let f = match o {
                            IeeeBinary::Add => "ieee_add",
                            IeeeBinary::Sub => "ieee_sub",
                            IeeeBinary::Mul => "ieee_mul",
                            IeeeBinary::Div => "ieee_fdiv",
                        };
                        let m = mode_form(mode)?;
                        self.try_call(e, f, &[fa.clone(), fb.clone(), m])
                    }
                    _ => match (infix(op), pattern::comparison(op)) {
                        (Some((o, sym)), _) => self.try_binary(e, PyBinary::Arith(o), sym, fa, fb),
                        (None, Some((c, sym))) => {
                            self.try_binary(e, PyBinary::Compare(c), sym, fa, fb)
                        }
                        _ => return Err(format!("no TileLang operator for {op:?}")),
                    },
                };
                if let Ok(f) = r {
                    return Ok(f);
                }
            }
        }
        Err(format!("no TileLang form for {}", describe(e)))
    }

    // ---- checked builders --------------------------------------------------------

    /// `T.name(args…)`.
    fn try_call(&mut self, e: &Expr, name: &str, args: &[Form]) -> PResult<Form> {
        let text = format!("T.{name}({})", checked::call_args(args, &[]));
        let vals = args.iter().map(|f| f.val.clone()).collect();
        self.checked(e, text, |p| p.el.call_fn(name, vals, Span::default()))
    }

    /// The Python literals a constant of dtype `d` may have come from (an
    /// int as a module constant of its value first).
    fn literals(&self, d: DType, bits: u64) -> Vec<Form> {
        let mut out = Vec::new();
        let int = |me: &Self, i: i128, out: &mut Vec<Form>| {
            if let Some((n, _)) = me.consts.iter().find(|(_, v)| *v == i) {
                out.push(Form {
                    text: n.clone(),
                    val: Value::int(i),
                });
            }
            out.push(Form {
                text: py_int(i),
                val: Value::int(i),
            });
        };
        if d.is_float() {
            let v = float::to_f64(d, bits);
            if v.is_finite() {
                let s = format!("{v:?}");
                out.push(Form {
                    text: if v.is_sign_negative() {
                        format!("({s})")
                    } else {
                        s
                    },
                    val: Value::float(v),
                });
                if v == v.trunc() && v.abs() < 1e15 && !(v == 0.0 && v.is_sign_negative()) {
                    int(self, v as i128, &mut out);
                }
            }
        } else if d == DType::Bool {
            out.push(Form {
                text: if bits != 0 { "True" } else { "False" }.into(),
                val: Value::boolean(bits != 0),
            });
        } else {
            let v = if d.is_signed_int() {
                let w = d.bits();
                ((bits << (64 - w)) as i64 >> (64 - w)) as i128
            } else {
                bits as i128
            };
            int(self, v, &mut out);
        }
        out
    }
}

/// TileLang's spelling of a dtype as a form (`"float16"`).
fn dtype_form(d: DType) -> Form {
    Form {
        text: format!("\"{}\"", dtype_name(d)),
        val: Value::of_dtype(d),
    }
}

/// A rounding mode as its string.
fn mode_form(m: float::Rounding) -> PResult<Form> {
    let s = match m {
        float::Rounding::NearestEven => "rn",
        float::Rounding::TowardZero => "rz",
        float::Rounding::Up => "ru",
        float::Rounding::Down => "rd",
        #[allow(unreachable_patterns)]
        other => return Err(format!("no TileLang rounding mode for {other:?}")),
    };
    Ok(Form {
        text: format!("\"{s}\""),
        val: Value::string(s),
    })
}

fn py_int(i: i128) -> String {
    if i < 0 {
        format!("({i})")
    } else {
        i.to_string()
    }
}

/// The integer a 0-d integer constant holds.
fn literal_int(e: &Expr) -> Option<i128> {
    match (&e.kind, e.ty.dtype()) {
        (ExprKind::Const(b), d) if e.ty.shape.is_empty() && d.is_int() && d != DType::Bool => {
            Some(if d.is_signed_int() {
                let w = d.bits();
                ((b << (64 - w)) as i64 >> (64 - w)) as i128
            } else {
                *b as i128
            })
        }
        _ => None,
    }
}

/// The Python operator of an arithmetic or bitwise node.
fn infix(op: BinOp) -> Option<(Operator, &'static str)> {
    Some(match op {
        BinOp::Add => (Operator::Add, "+"),
        BinOp::Sub => (Operator::Sub, "-"),
        BinOp::Mul => (Operator::Mult, "*"),
        BinOp::FDiv => (Operator::Div, "/"),
        BinOp::Pow => (Operator::Pow, "**"),
        BinOp::And => (Operator::BitAnd, "&"),
        BinOp::Or => (Operator::BitOr, "|"),
        BinOp::Xor => (Operator::BitXor, "^"),
        BinOp::Shl(_) => (Operator::LShift, "<<"),
        BinOp::Shr(..) => (Operator::RShift, ">>"),
        _ => return None,
    })
}

/// TileLang's name of a math function.
fn math_name(m: MathFn) -> Option<&'static str> {
    Some(match m {
        MathFn::Exp => "exp",
        MathFn::Exp2 => "exp2",
        MathFn::Log => "log",
        MathFn::Log2 => "log2",
        MathFn::Log10 => "log10",
        MathFn::Sqrt => "sqrt",
        MathFn::Rsqrt => "rsqrt",
        MathFn::Sin => "sin",
        MathFn::Cos => "cos",
        MathFn::Tan => "tan",
        MathFn::Tanh => "tanh",
        MathFn::Sigmoid => "sigmoid",
        MathFn::Erf => "erf",
        MathFn::Floor => "floor",
        MathFn::Ceil => "ceil",
        _ => return None,
    })
}

/// A statement for error messages.
fn short(s: &Stmt) -> String {
    let t = format!("{s:?}");
    t.chars().take(160).collect()
}

/// An if-expression prints as `T.if_then_else` where TileLang joins its
/// branches as the IR does.
impl<'k> Deferring<'k> for Printer<'k, '_> {
    type At = &'k Expr;
    type Branch = Vec<Form>;
    type Out = String;

    const WHAT: &'static str = "T.if_then_else";

    fn pending(&mut self) -> (&'k Kernel, (&[usize], &[usize]), &mut Pending<'k>) {
        (self.k, (&self.defs, &self.uses), &mut self.deferred)
    }

    fn branch(&mut self, e: &'k Expr) -> PResult<Vec<Form>> {
        self.operand_forms(e)
    }

    fn if_exp(
        &mut self,
        e: &'k Expr,
        c: String,
        (a, fas): (&'k Expr, Vec<Form>),
        (b, fbs): (&'k Expr, Vec<Form>),
    ) -> PResult<String> {
        for fa in &fas {
            for fb in &fbs {
                let (Ok(x), Ok(y)) = (
                    self.el.number(fa.val.clone(), Span::default()),
                    self.el.number(fb.val.clone(), Span::default()),
                ) else {
                    continue;
                };
                let ok = Elab::branch_join(x, y, Span::default())
                    .is_ok_and(|(_, x, y)| canonical_expr(&x) == *a && canonical_expr(&y) == *b);
                if ok {
                    return Ok(format!("T.if_then_else({c}, {}, {})", fa.text, fb.text));
                }
            }
        }
        Err(format!("no T.if_then_else form for {}", describe(e)))
    }

    fn bool_op(&mut self, _: &'k Expr, text: String) -> PResult<String> {
        Ok(text)
    }
}

impl Checked for Printer<'_, '_> {
    type Val = Value;

    fn mark(&mut self) -> usize {
        self.el.mark()
    }

    fn emitted_since(&mut self, mark: usize) -> bool {
        !self.el.take_since(mark).is_empty()
    }

    fn node(v: &Value) -> Option<&Expr> {
        v.expr()
    }

    fn runtime(e: &Expr) -> Value {
        Value::runtime(e.clone())
    }

    fn folded(&self, operands: &[&Form]) -> Option<&'static str> {
        match operands {
            [x] if x.val.constant().is_some() => Some("Python folds a number"),
            [a, b] if a.val.constant().is_some() && b.val.constant().is_some() => {
                Some("Python folds two numbers")
            }
            _ => None,
        }
    }

    fn binop(&mut self, op: Operator, a: Value, b: Value) -> DResult<Value> {
        self.el.binop(op, a, b, Span::default())
    }

    fn compare(&mut self, op: CmpOp, a: Value, b: Value) -> DResult<Value> {
        self.el.compare(op, a, b, Span::default())
    }

    fn unop(&mut self, op: UnaryOp, x: Value) -> DResult<Value> {
        self.el.unop(op, x, Span::default())
    }
}

impl<'k, 'm> Structured<'k> for Printer<'k, 'm> {
    fn source(&mut self) -> &mut pattern::Source {
        &mut self.src
    }

    /// Prints the statement(s) at `b[i]`; the number consumed.
    fn stmt_at(&mut self, b: &'k [Stmt], i: usize) -> PResult<usize> {
        if let Some(n) = self.defer_at(b, i) {
            return Ok(n);
        }
        // arrays up to the highest this statement uses
        let mut top: Option<ArrayId> = None;
        for s in &b[i..=i] {
            walk::for_each_expr(std::slice::from_ref(s), &mut |e| {
                if let ExprKind::ArrayBase(id) = e.kind {
                    top = Some(top.map_or(id, |t: ArrayId| t.max(id)));
                }
            });
        }
        if let Some(t) = top {
            if self.declare_upto(t + 1, Some(&b[i]))? {
                return Ok(1);
            }
        }
        if let Some(n) = self.tile_op(b, i)? {
            return Ok(n);
        }
        self.stmt(&b[i])?;
        Ok(1)
    }

    /// The text of a condition: a form whose truth is `e`.
    fn cond_text(&mut self, e: &'k Expr) -> PResult<String> {
        let mut cands = vec![e];
        if let ExprKind::Binary(BinOp::Ne, x, z) = &e.kind {
            if literal_int(z) == Some(0) {
                cands.push(x);
            }
        }
        for c in cands {
            for f in self.operand_forms(c)? {
                // a Python value would make the `if` a compile-time choice
                // (`if False:` keeps one branch): the condition of a runtime
                // `if` is written as a runtime value
                if f.val.constant().is_some() {
                    continue;
                }
                let ok = self
                    .el
                    .condition(f.val.clone(), Span::default())
                    .is_ok_and(|x| canonical_expr(&x) == *e);
                if ok {
                    return Ok(f.text);
                }
            }
        }
        // a condition that folded to a constant: a runtime cast of it
        if let ExprKind::Const(bits) = e.kind {
            let cast = self.el.call_fn(
                "Cast",
                vec![Value::string("bool"), Value::int((bits != 0) as i128)],
                Span::default(),
            );
            let ok = cast.is_ok_and(|v| {
                v.constant().is_none()
                    && self
                        .el
                        .condition(v, Span::default())
                        .is_ok_and(|x| canonical_expr(&x) == *e)
            });
            if ok {
                return Ok(format!("T.Cast(\"bool\", {})", (bits != 0) as i32));
            }
        }
        Err(format!("no condition form for {}", describe(e)))
    }
}
