//! Prints a tile kernel as a `@triton.jit` source file that elaborates back
//! to the same program.
//!
//! The kernel is printed in its canonical form (`ir::canon`). Every
//! expression is written the way a Triton programmer would, and each
//! choice is checked against the Triton front end itself: a node is
//! rebuilt from its operands' printed forms with the elaborator's own
//! functions (`Elab::binop`, `compare`, `unaryop`, `call_builtin`) and the
//! form is used only where the rebuilt node is the node. So an operand is
//! printed without the conversion or broadcast Triton inserts itself
//! (`x + 1` for `add(x, broadcast(1:fp16))`), a constant as a Python
//! literal where the front end turns that literal into it, and otherwise
//! explicitly (`x.to(tl.float16)`, `tl.broadcast_to(x, (4, 8))`).
//!
//! Triton's variables are SSA-like: a loop carries a name through a fresh
//! variable set before the loop and written back at the end of the body,
//! and a runtime `if` joins a name assigned in both branches into a fresh
//! variable set last in each. A `Let(x, y)` of one variable into a variable
//! defined more than once is such a transfer: `x` and `y` share one Python
//! name and the transfer itself is not printed.
//!
//! What has no Triton form here (SIMT kernels, arrays, atomics, custom
//! combiners, device prints, …) is an error, never a panic.

use super::checked::{self, Checked, PyBinary};
use super::control::{Own, Statements, StoreParts, Structured};
use super::pattern::{self, describe, Counts};
use crate::fuzz::gen::tl_dtype;
use ksem_interp::dtype::DType;
use ksem_interp::float::{self, Overflow, Rounding};
use ksem_interp::frontend::triton::builtins::Args;
use ksem_interp::frontend::triton::elab::Elab;
use ksem_interp::frontend::triton::promote::PyNum;
use ksem_interp::frontend::triton::value::Value;
use ksem_interp::frontend::triton::Module;
use ksem_interp::ir::canon::{canonical, canonical_expr};
use ksem_interp::ir::*;
use ksem_interp::span::{DResult, Span};
use rustpython_parser::ast::{CmpOp, Operator, UnaryOp};
use std::collections::HashMap;

/// What a printing step gives: text, or why the kernel cannot be printed.
pub type PResult<T> = Result<T, String>;

/// The import lines every printed file starts with.
const HEADER: &str = "import triton\nimport triton.language as tl\n";

/// Names a printed variable must not take (modules, builtins, keywords).
const RESERVED: &[&str] = &[
    "triton", "tl", "range", "float", "int", "bool", "abs", "min", "max", "len", "print", "True",
    "False", "None", "and", "or", "not", "if", "else", "elif", "for", "while", "in", "is", "def",
    "return", "break", "continue", "pass", "lambda", "del", "global", "nonlocal", "import", "from",
    "as", "with", "try", "except", "finally", "raise", "class", "yield", "assert", "async",
    "await",
];

/// The source of a file that defines `k` as a `@triton.jit` kernel.
pub fn kernel(k: &Kernel) -> PResult<String> {
    if !k.then.is_empty() {
        return Err("a kernel of several launches does not print as Triton".into());
    }
    if k.model != Model::Tile {
        return Err("only tile kernels print as Triton".into());
    }
    if !k.arrays.is_empty() || !k.fresh.is_empty() {
        return Err("Triton kernels have no shared/local arrays or fresh outputs".into());
    }
    let k = canonical(k);
    let module = Module::parse("print.py", HEADER).map_err(|e| e.message)?;
    let mut p = Printer::new(&k, Elab::new(&module))?;
    p.kernel()?;
    Ok(p.src.out)
}

/// A way to write an expression: its text and the value the front end
/// makes of that text.
type Form = checked::Form<Value>;

struct Printer<'k, 'm> {
    k: &'k Kernel,
    el: Elab<'m>,
    names: Vec<String>,
    /// Each variable's representative (transfers share a Python name).
    class: Vec<VarId>,
    /// Exact forms already found, by node address.
    memo: HashMap<usize, Form>,
    src: pattern::Source,
}

impl<'k, 'm> Printer<'k, 'm> {
    fn new(k: &'k Kernel, el: Elab<'m>) -> PResult<Self> {
        let Counts { defs, .. } = Counts::of(k);
        let mut class: Vec<VarId> = (0..k.vars.len()).collect();
        fn find(c: &mut [VarId], v: VarId) -> VarId {
            let mut r = v;
            while c[r] != r {
                r = c[r];
            }
            c[v] = r;
            r
        }
        walk::for_each_stmt(&k.body, &mut |s| {
            if let Stmt::Let(x, e) = s {
                if let ExprKind::Var(y) = e.kind {
                    if defs.get(*x).copied().unwrap_or(0) > 1 && y < class.len() {
                        let (a, b) = (find(&mut class, *x), find(&mut class, y));
                        class[a.max(b)] = a.min(b);
                    }
                }
            }
        });
        for v in 0..class.len() {
            find(&mut class, v);
        }
        let (mut names, _) = pattern::names(k, RESERVED, false)?;
        for v in 0..names.len() {
            let r = class[v];
            if r != v {
                names[v] = names[r].clone();
            }
        }
        Ok(Printer {
            k,
            el,
            names,
            class,
            memo: HashMap::new(),
            src: pattern::Source::default(),
        })
    }

    fn name(&self, v: VarId) -> PResult<&str> {
        pattern::name_of(&self.names, v)
    }

    // ---- the kernel ------------------------------------------------------------

    fn kernel(&mut self) -> PResult<()> {
        let k = self.k;
        if !pattern::is_ident(&k.name, RESERVED) {
            return Err(format!("`{}` is not a Python name", k.name));
        }
        let params: Vec<String> = k
            .params
            .iter()
            .map(|p| match p.kind {
                ParamKind::Constexpr => format!("{}: tl.constexpr", p.name),
                _ => p.name.clone(),
            })
            .collect();
        self.src.out = format!(
            "{HEADER}\n\n@triton.jit\ndef {}({}):\n",
            k.name,
            params.join(", ")
        );
        self.body(&k.body)
    }

    /// The condition of a runtime `if`/`while`: never a Python value (the
    /// front end decides `if False:` at compile time); a condition that
    /// folded to a constant is a 0-d tile of it.
    fn condition(&mut self, cond: &'k Expr) -> PResult<String> {
        for f in self.operand_forms(cond)? {
            if matches!(&f.val, Value::Tensor(x) if canonical_expr(x) == *cond) {
                return Ok(f.text);
            }
        }
        if let ExprKind::Const(bits) = cond.kind {
            let lit = bool_form(bits != 0);
            let f = self.try_call(
                cond,
                "full",
                &[shape_form(&[]), lit, dtype_form(cond.ty.dtype())],
                &[],
            )?;
            return Ok(f.text);
        }
        Err(format!("no runtime condition form for {}", describe(cond)))
    }

    /// The text of the value of `name = …` that the front end binds to `e`
    /// (a Python number becomes a 0-d tensor of its natural dtype).
    fn assigned(&mut self, e: &'k Expr) -> PResult<String> {
        for f in self.operand_forms(e)? {
            let x = match f.val {
                Value::Num(_) => self.el.to_tensor(f.val.clone(), Span::default()).ok(),
                Value::Tensor(x) => Some(x),
                _ => None,
            };
            if x.is_some_and(|x| canonical_expr(&x) == *e) {
                return Ok(f.text);
            }
        }
        Err(format!("no Triton text assigns {}", describe(e)))
    }

    /// `tl.store(ptr, value, mask=…)` that elaborates to statement `s`.
    fn store(&mut self, st: StoreParts<'k>) -> PResult<String> {
        let StoreParts {
            stmt: s,
            ptr,
            value,
            mask,
        } = st;
        let p = self.exact(ptr)?;
        let masks = match mask {
            Some(m) => self.operand_forms(m)?.into_iter().map(Some).collect(),
            None => vec![None],
        };
        for v in self.operand_forms(value)? {
            for m in &masks {
                let mut kw = Vec::new();
                let mut text = format!("tl.store({}, {}", p.text, v.text);
                if let Some(m) = m {
                    kw.push(("mask".to_string(), m.val.clone()));
                    text.push_str(&format!(", mask={}", m.text));
                }
                let n = self.el.out.len();
                let r = self.el.call_builtin(
                    "store",
                    Args {
                        pos: vec![p.val.clone(), v.val.clone()],
                        kw,
                    },
                    Span::default(),
                );
                let got = self.el.out.split_off(n);
                if r.is_ok() && got.len() == 1 && same_store(&got[0], s) {
                    return Ok(text + ")");
                }
            }
        }
        Err("no tl.store form for a store".into())
    }

    // ---- expressions -------------------------------------------------------------

    /// The ways to write `e` as an operand, most idiomatic first: Python
    /// literals for a constant, `e` without the conversion or broadcast the
    /// front end may insert itself, then `e` exactly.
    fn operand_forms(&mut self, e: &'k Expr) -> PResult<Vec<Form>> {
        let mut forms = Vec::new();
        if let Some((d, bits)) = const_of(e) {
            forms.extend(literals(d, bits));
        }
        match &e.kind {
            ExprKind::Cast(x, CastKind::Convert(Rounding::NearestEven, Overflow::Infinity))
            | ExprKind::Broadcast(x) => {
                for f in self.operand_forms(x)? {
                    if !matches!(f.val, Value::Num(_)) || const_of(e).is_none() {
                        forms.push(f);
                    }
                }
            }
            _ => {}
        }
        match self.exact(e) {
            Ok(f) => forms.push(f),
            Err(err) if forms.is_empty() => return Err(err),
            Err(_) => {}
        }
        Ok(forms)
    }

    /// A form whose value is exactly `e`.
    fn exact(&mut self, e: &'k Expr) -> PResult<Form> {
        let key = e as *const Expr as usize;
        if let Some(f) = self.memo.get(&key) {
            return Ok(f.clone());
        }
        let f = self.exact_uncached(e)?;
        self.memo.insert(key, f.clone());
        Ok(f)
    }

    fn exact_uncached(&mut self, e: &'k Expr) -> PResult<Form> {
        use ExprKind as K;
        let sp = Span::default();
        let tensor = |text: String| Form {
            text,
            val: Value::Tensor(e.clone()),
        };
        match &e.kind {
            K::Var(v) => return Ok(tensor(self.name(*v)?.to_string())),
            K::BlockId(a) => return self.try_call(e, "program_id", &[int_form(*a as i128)], &[]),
            K::GridDim(a) => return self.try_call(e, "num_programs", &[int_form(*a as i128)], &[]),
            K::Iota(s, t) => {
                return self.try_call(
                    e,
                    "arange",
                    &[int_form(*s as i128), int_form(*t as i128)],
                    &[],
                )
            }
            K::Const(bits) => {
                let d = e.ty.dtype();
                for f in literals(d, *bits) {
                    if let Ok(x) = self.el.to_tensor(f.val.clone(), sp) {
                        if canonical_expr(&x) == *e {
                            return Ok(f);
                        }
                    }
                }
                let fills = literals(d, *bits);
                let shape = shape_form(&[]);
                let dt = dtype_form(d);
                for f in fills {
                    if let Ok(r) = self.try_call(e, "full", &[shape.clone(), f, dt.clone()], &[]) {
                        return Ok(r);
                    }
                }
                return Err(format!("no Triton form for constant {}", describe(e)));
            }
            _ => {}
        }
        match &e.kind {
            K::Binary(op, a, b) => self.binary(e, *op, a, b),
            K::Unary(op, x) => {
                let f = self.exact(x)?;
                match op {
                    UnOp::Not => self.try_unary(e, UnaryOp::Invert, "~", &f),
                    UnOp::LogicalNot => self.try_unary(e, UnaryOp::Not, "not ", &f),
                    UnOp::Neg => self.try_unary(e, UnaryOp::USub, "-", &f),
                    UnOp::Math(m) => {
                        // the front end checks that tl has the function
                        self.try_call(e, m.name(), &[f], &[])
                    }
                    other => Err(format!("no Triton form for {other:?}")),
                }
            }
            K::Cast(x, kind) => {
                let f = self.exact(x)?;
                let recv = if matches!(f.val, Value::Num(_)) {
                    Form {
                        text: format!("({})", f.text),
                        ..f
                    }
                } else {
                    f
                };
                let d = dtype_form(e.ty.dtype());
                let kws: Vec<Vec<(&str, Form)>> = match kind {
                    CastKind::Bitcast => vec![vec![("bitcast", bool_form(true))]],
                    CastKind::Convert(Rounding::TowardZero, _) => vec![vec![(
                        "fp_downcast_rounding",
                        Form {
                            text: "\"rtz\"".into(),
                            val: Value::Str("rtz".into()),
                        },
                    )]],
                    _ => vec![vec![]],
                };
                for kw in kws {
                    if let Ok(f) = self.try_method(e, &recv, "to", std::slice::from_ref(&d), &kw) {
                        return Ok(f);
                    }
                }
                Err(format!("no .to() form for {}", describe(e)))
            }
            K::Broadcast(x) => {
                let shape = shape_form(&e.ty.shape);
                if let ExprKind::Const(bits) = x.kind {
                    // a tile of one value: tl.zeros / tl.full
                    let dt = dtype_form(x.ty.dtype());
                    if bits == 0 {
                        let kw = [("dtype", dt.clone())];
                        if let Ok(r) = self.try_call(e, "zeros", std::slice::from_ref(&shape), &kw)
                        {
                            return Ok(r);
                        }
                    }
                    for f in literals(x.ty.dtype(), bits) {
                        let args = [shape.clone(), f, dt.clone()];
                        if let Ok(r) = self.try_call(e, "full", &args, &[]) {
                            return Ok(r);
                        }
                    }
                }
                let forms = self.operand_forms(x)?;
                for f in forms {
                    if let Ok(r) = self.try_call(e, "broadcast_to", &[f, shape.clone()], &[]) {
                        return Ok(r);
                    }
                }
                Err(format!("no tl.broadcast_to form for {}", describe(e)))
            }
            K::Reshape(x) => {
                let f = self.exact(x)?;
                self.try_call(e, "reshape", &[f, shape_form(&e.ty.shape)], &[])
            }
            K::Select(c, a, b) => self.three(e, "where", [c, a, b]),
            K::Fma(a, b, c, _) => self.three(e, "fma", [a, b, c]),
            K::Load { ptr, mask, other } => {
                let p = self.exact(ptr)?;
                let masks: Vec<Option<Form>> = match mask {
                    Some(m) => self.operand_forms(m)?.into_iter().map(Some).collect(),
                    None => vec![None],
                };
                let others: Vec<Option<Form>> = match other {
                    // (no `other`: Triton leaves the masked-off lanes undefined)
                    Some(o) if matches!(o.kind, K::Undef) => vec![None],
                    Some(o) => self.operand_forms(o)?.into_iter().map(Some).collect(),
                    None => vec![None],
                };
                for m in &masks {
                    for o in &others {
                        let mut kw = Vec::new();
                        if let Some(m) = m {
                            kw.push(("mask", m.clone()));
                        }
                        if let Some(o) = o {
                            kw.push(("other", o.clone()));
                        }
                        if let Ok(r) = self.try_call(e, "load", std::slice::from_ref(&p), &kw) {
                            return Ok(r);
                        }
                    }
                }
                Err(format!("no tl.load form for {}", describe(e)))
            }
            K::Reduce {
                arg,
                axis,
                keep_dims,
                combiner,
            } => {
                let name = match &**combiner {
                    Combiner::Sum => "sum",
                    Combiner::Xor => "xor_sum",
                    Combiner::Max(_) => "max",
                    Combiner::Min(_) => "min",
                    Combiner::ArgMax { value: false } => "argmax",
                    Combiner::ArgMin { value: false } => "argmin",
                    other => return Err(format!("no Triton reduction for {other:?}")),
                };
                let axis_f = match axis {
                    Some(a) => int_form(*a as i128),
                    None => Form {
                        text: "None".into(),
                        val: Value::None,
                    },
                };
                let mut kw = vec![("axis", axis_f)];
                if *keep_dims {
                    kw.push(("keep_dims", bool_form(true)));
                }
                for f in self.operand_forms(arg)? {
                    if let Ok(r) = self.try_call(e, name, std::slice::from_ref(&f), &kw) {
                        return Ok(r);
                    }
                }
                Err(format!("no tl.{name} form for {}", describe(e)))
            }
            _ => Err(format!("no Triton form for {}", describe(e))),
        }
    }

    /// A binary node: an infix operator, a comparison or `tl.minimum` /
    /// `tl.maximum`, from the operands' forms.
    fn binary(&mut self, e: &'k Expr, op: BinOp, a: &'k Expr, b: &'k Expr) -> PResult<Form> {
        // Triton's unary minus is `0 - x`
        if op == BinOp::Sub && const_of(a).is_some_and(|(_, bits)| bits == 0) {
            if let Ok(fb) = self.exact(b) {
                if let Ok(f) = self.try_unary(e, UnaryOp::USub, "-", &fb) {
                    return Ok(f);
                }
            }
        }
        let as_ = self.operand_forms(a)?;
        let bs = self.operand_forms(b)?;
        for fa in &as_ {
            for fb in &bs {
                if matches!((&fa.val, &fb.val), (Value::Num(_), Value::Num(_))) {
                    continue; // the front end folds two numbers
                }
                let r = match op {
                    BinOp::Min(mode) | BinOp::Max(mode) => {
                        let name = if matches!(op, BinOp::Min(_)) {
                            "minimum"
                        } else {
                            "maximum"
                        };
                        let kw: Vec<(&str, Form)> = match mode {
                            NanMode::Ignore => vec![],
                            NanMode::Propagate => vec![(
                                "propagate_nan",
                                Form {
                                    text: "tl.PropagateNan.ALL".into(),
                                    val: Value::NanMode(NanMode::Propagate),
                                },
                            )],
                        };
                        self.try_call(e, name, &[fa.clone(), fb.clone()], &kw)
                    }
                    _ => match (infix(op), pattern::comparison(op)) {
                        (Some((pyop, sym)), _) => {
                            self.try_binary(e, PyBinary::Arith(pyop), sym, fa, fb)
                        }
                        (None, Some((cmp, sym))) => {
                            self.try_binary(e, PyBinary::Compare(cmp), sym, fa, fb)
                        }
                        _ => return Err(format!("no Triton operator for {op:?}")),
                    },
                };
                if let Ok(f) = r {
                    return Ok(f);
                }
            }
        }
        Err(format!("no Triton form for {}", describe(e)))
    }

    /// `tl.name(x, y, z)` from the first combination of the operands'
    /// forms the front end rebuilds `e` from.
    fn three(&mut self, e: &'k Expr, name: &str, ops: [&'k Expr; 3]) -> PResult<Form> {
        let [xs, ys, zs] = [
            self.operand_forms(ops[0])?,
            self.operand_forms(ops[1])?,
            self.operand_forms(ops[2])?,
        ];
        for x in &xs {
            for y in &ys {
                for z in &zs {
                    let args = [x.clone(), y.clone(), z.clone()];
                    if let Ok(r) = self.try_call(e, name, &args, &[]) {
                        return Ok(r);
                    }
                }
            }
        }
        Err(format!("no tl.{name} form for {}", describe(e)))
    }

    // ---- checked builders --------------------------------------------------------

    /// `tl.name(args…, kw=…)`.
    fn try_call(
        &mut self,
        e: &Expr,
        name: &str,
        args: &[Form],
        kw: &[(&str, Form)],
    ) -> PResult<Form> {
        let text = format!("tl.{name}({})", checked::call_args(args, kw));
        let vals = args.iter().map(|f| f.val.clone()).collect();
        self.try_builtin(e, text, name, vals, kw)
    }

    /// `recv.name(args…, kw=…)`.
    fn try_method(
        &mut self,
        e: &Expr,
        recv: &Form,
        name: &str,
        args: &[Form],
        kw: &[(&str, Form)],
    ) -> PResult<Form> {
        let text = format!("{}.{name}({})", recv.text, checked::call_args(args, kw));
        let mut vals = vec![recv.val.clone()];
        vals.extend(args.iter().map(|f| f.val.clone()));
        self.try_builtin(e, text, name, vals, kw)
    }

    /// `text`, a call of builtin `name` with the values `vals` and `kw`.
    fn try_builtin(
        &mut self,
        e: &Expr,
        text: String,
        name: &str,
        vals: Vec<Value>,
        kw: &[(&str, Form)],
    ) -> PResult<Form> {
        let kw = kw
            .iter()
            .map(|(k, f)| (k.to_string(), f.val.clone()))
            .collect();
        self.checked(e, text, |p| {
            p.el.call_builtin(name, Args { pos: vals, kw }, Span::default())
        })
    }
}

impl Checked for Printer<'_, '_> {
    type Val = Value;

    fn mark(&mut self) -> usize {
        self.el.out.len()
    }

    fn emitted_since(&mut self, mark: usize) -> bool {
        let pushed = self.el.out.len() > mark;
        self.el.out.truncate(mark);
        pushed
    }

    fn node(v: &Value) -> Option<&Expr> {
        match v {
            Value::Tensor(x) => Some(x),
            _ => None,
        }
    }

    fn runtime(e: &Expr) -> Value {
        Value::Tensor(e.clone())
    }

    fn binop(&mut self, op: Operator, a: Value, b: Value) -> DResult<Value> {
        self.el.binop(op, a, b, Span::default())
    }

    fn compare(&mut self, op: CmpOp, a: Value, b: Value) -> DResult<Value> {
        self.el.compare(op, a, b, Span::default())
    }

    fn unop(&mut self, op: UnaryOp, x: Value) -> DResult<Value> {
        self.el.unaryop(op, x, Span::default())
    }
}

// ---- forms of constants, shapes and dtypes -----------------------------------------

/// The dtype and bits of a constant, also under a broadcast or conversion.
fn const_of(e: &Expr) -> Option<(DType, u64)> {
    match &e.kind {
        ExprKind::Const(b) if !e.ty.is_ptr() => Some((e.ty.dtype(), *b)),
        ExprKind::Broadcast(x) => const_of(x),
        _ => None,
    }
}

/// The Python literals a constant of dtype `d` may have come from.
fn literals(d: DType, bits: u64) -> Vec<Form> {
    let mut out = Vec::new();
    if d.is_float() {
        let v = float::to_f64(d, bits);
        if d == DType::F32 && v.is_finite() {
            // the shortest decimal of the float32 value, where it rounds back
            let short: f64 = format!("{:?}", v as f32).parse().unwrap_or(v);
            if short != v {
                out.push(num_form(PyNum::Float(short)));
            }
        }
        out.push(num_form(PyNum::Float(v)));
        if v.is_finite() && v == v.trunc() && v.abs() < 1e18 && !(v == 0.0 && v.is_sign_negative())
        {
            out.push(num_form(PyNum::Int(v as i128)));
        }
    } else if d == DType::Bool {
        out.push(num_form(PyNum::Bool(bits != 0)));
        out.push(num_form(PyNum::Int((bits != 0) as i128)));
    } else {
        let v = if d.is_signed_int() {
            let w = d.bits();
            ((bits << (64 - w)) as i64 >> (64 - w)) as i128
        } else {
            bits as i128
        };
        out.push(num_form(PyNum::Int(v)));
        if v == 0 || v == 1 {
            out.push(num_form(PyNum::Bool(v == 1)));
        }
        out.push(num_form(PyNum::Float(v as f64)));
    }
    out
}

/// A Python number as source text.
fn num_form(n: PyNum) -> Form {
    let text = match n {
        PyNum::Bool(b) => if b { "True" } else { "False" }.to_string(),
        PyNum::Int(i) => py_int(i),
        PyNum::Float(f) if f.is_nan() => "float(\"nan\")".into(),
        PyNum::Float(f) if f.is_infinite() => {
            if f > 0.0 {
                "float(\"inf\")".into()
            } else {
                "(-float(\"inf\"))".into()
            }
        }
        PyNum::Float(f) => {
            let s = format!("{f:?}");
            if f.is_sign_negative() {
                format!("({s})")
            } else {
                s
            }
        }
    };
    Form {
        text,
        val: Value::Num(n),
    }
}

fn py_int(i: i128) -> String {
    if i < 0 {
        format!("({i})")
    } else {
        i.to_string()
    }
}

fn int_form(i: i128) -> Form {
    num_form(PyNum::Int(i))
}

fn bool_form(b: bool) -> Form {
    num_form(PyNum::Bool(b))
}

/// A shape as a tuple: `(4, 8)`, `(4,)`, `()`.
fn shape_form(dims: &[usize]) -> Form {
    let items: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
    let text = match items.len() {
        1 => format!("({},)", items[0]),
        _ => format!("({})", items.join(", ")),
    };
    Form {
        text,
        val: Value::Tuple(
            dims.iter()
                .map(|&d| Value::Num(PyNum::Int(d as i128)))
                .collect(),
        ),
    }
}

fn dtype_form(d: DType) -> Form {
    Form {
        text: tl_dtype(d).to_string(),
        val: Value::DType(d),
    }
}

/// The integer a 0-d integer constant holds.
fn literal_int(e: &Expr) -> Option<i128> {
    match (&e.kind, e.ty.dtype()) {
        (ExprKind::Const(b), d) if e.ty.shape.is_empty() && d.is_int() && d != DType::Bool => {
            literals(d, *b).first().and_then(|f| match f.val {
                Value::Num(PyNum::Int(i)) => Some(i),
                _ => None,
            })
        }
        _ => None,
    }
}

/// The Python operator of an arithmetic or bitwise node.
fn infix(op: BinOp) -> Option<(Operator, &'static str)> {
    Some(match op {
        BinOp::Add | BinOp::PtrAdd => (Operator::Add, "+"),
        BinOp::Sub => (Operator::Sub, "-"),
        BinOp::Mul => (Operator::Mult, "*"),
        BinOp::FDiv => (Operator::Div, "/"),
        BinOp::IDiv(_) => (Operator::FloorDiv, "//"),
        BinOp::IRem(_) | BinOp::FRem => (Operator::Mod, "%"),
        BinOp::And => (Operator::BitAnd, "&"),
        BinOp::Or => (Operator::BitOr, "|"),
        BinOp::Xor => (Operator::BitXor, "^"),
        BinOp::Shl(_) => (Operator::LShift, "<<"),
        BinOp::Shr(..) => (Operator::RShift, ">>"),
        _ => return None,
    })
}

/// Whether two stores are the same statement (spans and foldable
/// constants aside).
fn same_store(a: &Stmt, b: &Stmt) -> bool {
    match (a, b) {
        (
            Stmt::Store {
                ptr: p1,
                value: v1,
                mask: m1,
                ..
            },
            Stmt::Store {
                ptr: p2,
                value: v2,
                mask: m2,
                ..
            },
        ) => {
            canonical_expr(p1) == *p2
                && canonical_expr(v1) == *v2
                && m1.as_ref().map(canonical_expr) == m2.clone()
        }
        _ => false,
    }
}

impl<'k> Statements<'k> for Printer<'k, '_> {
    fn let_stmt(&mut self, v: VarId, e: &'k Expr) -> PResult<()> {
        if let ExprKind::Var(y) = e.kind {
            if self.class.get(y) == self.class.get(v) {
                return Ok(()); // a transfer: one Python name
            }
        }
        let text = self.assigned(e)?;
        let line = format!("{} = {text}", self.name(v)?);
        self.line(&line);
        Ok(())
    }

    fn store_stmt(&mut self, st: StoreParts<'k>) -> PResult<()> {
        let text = self.store(st)?;
        self.line(&text);
        Ok(())
    }

    fn range_loop(&mut self, var: VarId, range: [&'k Expr; 3], body: &'k [Stmt]) -> PResult<()> {
        let mut b = Vec::new();
        for e in range {
            b.push(match literal_int(e) {
                Some(i) => py_int(i),
                None => self.exact(e)?.text,
            });
        }
        let line = format!("for {} in range({}):", self.name(var)?, b.join(", "));
        self.line(&line);
        self.nested(body)
    }

    fn own_stmt(&mut self, s: &'k Stmt, _: Own<'k>) -> PResult<()> {
        Err(format!("no Triton form for {s:?}"))
    }
}

impl<'k, 'm> Structured<'k> for Printer<'k, 'm> {
    fn source(&mut self) -> &mut pattern::Source {
        &mut self.src
    }

    fn stmt_at(&mut self, b: &'k [Stmt], i: usize) -> PResult<usize> {
        self.stmt(&b[i])?;
        Ok(1)
    }

    fn cond_text(&mut self, e: &'k Expr) -> PResult<String> {
        self.condition(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ksem_interp::ir::canon::same_program;
    use ksem_interp::launch::parse_launch;

    /// A runtime `if` whose condition folded to a constant prints as a
    /// runtime condition (`if False:` would be a compile-time choice that
    /// drops the `if`), and elaborates back to the same program.
    #[test]
    fn a_runtime_if_on_a_constant_condition_round_trips() {
        let src = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(o_ptr):\n    pid = tl.program_id(0)\n    if pid < 2:\n        v = pid + 1\n    else:\n        v = pid - 1\n    tl.store(o_ptr + pid, v)\n";
        let l = parse_launch(
            r#"{"grid": [2], "args": {"o_ptr": {"buffer": {"dtype": "int32", "len": 2}}}}"#,
        )
        .unwrap();
        let mut k = ksem_interp::elaborate_source("k.py", src, &l, None).expect("elaborates");
        let cond = k
            .body
            .iter_mut()
            .find_map(|s| match s {
                Stmt::If { cond, .. } => Some(cond),
                _ => None,
            })
            .expect("an if");
        cond.kind = ExprKind::Const(0);
        let text = kernel(&k).expect("prints");
        assert!(!text.contains("if False"), "{text}");
        let back = ksem_interp::elaborate_source("k.py", &text, &l, None).expect("re-elaborates");
        same_program(&k, &back).unwrap_or_else(|e| panic!("{e}\n{text}"));
    }
}
