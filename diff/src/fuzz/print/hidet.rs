//! Prints a SIMT kernel as a Hidet script file (`@hidet.script` in
//! `hidet.script_module()`) that elaborates back to the same program.
//!
//! Hidet types a value twice (its Hidet type, from the promotion table,
//! and the C type the generated code computes in), and only the second is
//! in the IR. So the printer recognises each construct by synthesis: for a
//! node it proposes the script forms its operands may have (a variable, a
//! load, a Python literal, an explicit cast `i16(x)`, …), builds what the
//! front end elaborates each combination to with the builders the
//! generator uses (`gen_hidet::nodes`, the front end's rules) and keeps the
//! combinations that give the node exactly (after constant folding). An
//! implicit conversion is therefore left out exactly where Hidet inserts
//! it; every other one is an explicit cast.
//!
//! Also recognised: the `if` an `a if c else b` elaborates to (a variable
//! `_ifexp` set last in both branches, read once) and the `_boolop` pattern
//! of `a and b` / `a or b`, printed where they are read; an atomic whose
//! old value is unused is a statement (`atomic_add(~acc[1], v)`); a local
//! tensor's layout is recovered from its offset expressions
//! (`row_major`, `column_major`, `strided_layout`, compositions `f * g`).
//! The kernel is a `cpu_kernel` where it is one thread and uses no CUDA
//! construct, else a `cuda_kernel` with `attrs.cuda.grid_dim`/`block_dim`.
//!
//! What has no Hidet script form (selects, tiles, math functions, …) is an
//! error, never a panic.

mod complex;
mod vector;

use super::control::{self, Deferring, Own, Statements, StoreParts, Structured};
use super::pattern::{self, Counts, Pending};
use crate::fuzz::gen_hidet::nodes::{self, HVal, Lit, Op};
use ksem_interp::dtype::DType;
use ksem_interp::frontend::hidet::layout::Layout;
use ksem_interp::frontend::hidet::types::Named;
use ksem_interp::ir::build::{fold, CONVERT};
use ksem_interp::ir::*;
use std::collections::{HashMap, HashSet};

pub use super::control::PResult;

/// The source of a file that defines `k` as a Hidet script kernel.
pub fn kernel(k: &Kernel) -> PResult<String> {
    let k = pattern::simt_kernel(k, "Hidet script")?;
    let mut p = Printer::new(&k)?;
    p.kernel()?;
    Ok(p.src.out)
}

const HEADER: &str = "import hidet
from hidet.lang import attrs, bitwise_not, boolean
from hidet.lang.types import i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64, tensor
from hidet.lang.layout import row_major, column_major, strided_layout
from hidet.lang.cuda import threadIdx, blockIdx, blockDim, syncthreads, shared_tensor
from hidet.lang.cuda import atomic_add, atomic_sub, atomic_min, atomic_max, atomic_exchange
from hidet.ir.primitives.complex import real, imag, conj, make_complex
from hidet.lang import cast
from hidet.ir.dtypes import float16x2, bfloat16x2, float32x4, float32x8, int8x4, uint8x4
";

/// Names a printed variable must not take.
const RESERVED: &[&str] = &[
    "hidet",
    "attrs",
    "bitwise_not",
    "boolean",
    "i8",
    "i16",
    "i32",
    "i64",
    "u8",
    "u16",
    "u32",
    "u64",
    "f16",
    "bf16",
    "f32",
    "f64",
    "tensor",
    "row_major",
    "column_major",
    "strided_layout",
    "threadIdx",
    "blockIdx",
    "blockDim",
    "gridDim",
    "syncthreads",
    "shared_tensor",
    "atomic_add",
    "atomic_sub",
    "atomic_min",
    "atomic_max",
    "atomic_exchange",
    "cast",
    "float16x2",
    "bfloat16x2",
    "float32x4",
    "float32x8",
    "int8x4",
    "uint8x4",
    "real",
    "imag",
    "conj",
    "make_complex",
    "script_module",
    "range",
    "int",
    "float",
    "bool",
    "min",
    "max",
    "abs",
    "print",
    "len",
    "grid",
    "True",
    "False",
    "None",
    "and",
    "or",
    "not",
    "if",
    "else",
    "elif",
    "for",
    "while",
    "in",
    "is",
    "def",
    "return",
    "break",
    "continue",
    "pass",
    "lambda",
    "del",
    "global",
    "nonlocal",
    "import",
    "from",
    "as",
    "with",
    "try",
    "except",
    "finally",
    "raise",
    "class",
    "yield",
    "assert",
    "async",
    "await",
];

/// An element pointer into an array: indices, dimensions, layout offset.
type ArrayUse = (Vec<Expr>, Vec<usize>, Option<Expr>);

/// A way to write a value in the script, and what the front end makes of it.
#[derive(Clone, Debug)]
struct Form {
    text: String,
    v: HVal,
}

struct Printer<'k> {
    k: &'k Kernel,
    names: Vec<String>,
    arrays: Vec<String>,
    defs: Vec<usize>,
    uses: Vec<usize>,
    /// Variables visible where the printer is, innermost scope last.
    scopes: Vec<HashSet<VarId>>,
    deferred: pattern::Pending<'k>,
    /// Indices held in temporaries, printed where they are used.
    hidden: HashMap<VarId, &'k Expr>,
    /// Forms of the nodes already seen (keyed by address).
    memo: HashMap<*const Expr, Vec<Form>>,
    /// The shape of each tensor parameter (from its element pointers).
    tensor_params: HashMap<VarId, Vec<usize>>,
    /// Each array's layout (from its element pointers).
    layouts: Vec<Option<Layout>>,
    /// Each array's lanes per element (1, or a vector type's lanes).
    widths: Vec<usize>,
    src: pattern::Source,
}

impl<'k> Printer<'k> {
    fn new(k: &'k Kernel) -> PResult<Self> {
        let Counts { defs, uses } = Counts::of(k);
        let mut ptrs = Vec::new();
        let mut temps = HashMap::new();
        walk::for_each_stmt(&k.body, &mut |s| {
            if let Stmt::Let(v, e) = s {
                let name = k.vars.get(*v).map_or("", |x| x.0.as_str());
                if name.starts_with("_t") && e.ty.dtype() == DType::I64 {
                    temps.insert(*v, e.clone());
                }
            }
        });
        walk::for_each_expr(&k.body, &mut |e| {
            if let ExprKind::ElemPtr { .. } = e.kind {
                ptrs.push(e.clone());
            }
        });
        let (names, arrays) = pattern::names(k, RESERVED, true)?;
        let mut p = Printer {
            k,
            names,
            arrays,
            defs,
            uses,
            scopes: vec![HashSet::new()],
            deferred: HashMap::new(),
            hidden: HashMap::new(),
            memo: HashMap::new(),
            tensor_params: HashMap::new(),
            layouts: vec![None; k.arrays.len()],
            widths: vec![1; k.arrays.len()],
            src: pattern::Source::default(),
        };
        p.shapes(&ptrs, &temps)?;
        Ok(p)
    }

    /// The tensor parameters' shapes and the arrays' layouts, from the
    /// element pointers of the body.
    fn shapes(&mut self, ptrs: &[Expr], temps: &HashMap<VarId, Expr>) -> PResult<()> {
        let mut uses: HashMap<ArrayId, Vec<ArrayUse>> = HashMap::new();
        for p in ptrs {
            let ExprKind::ElemPtr {
                base,
                indices,
                dims,
                offset,
                ..
            } = &p.kind
            else {
                continue;
            };
            match &base.kind {
                ExprKind::Var(v) => {
                    if offset.is_some() {
                        return Err("a global tensor with a layout".into());
                    }
                    let old = self.tensor_params.insert(*v, dims.clone());
                    if old.is_some_and(|o| o != *dims) {
                        return Err("a tensor parameter indexed with two shapes".into());
                    }
                }
                ExprKind::ArrayBase(id) => uses.entry(*id).or_default().push((
                    indices.clone(),
                    dims.clone(),
                    offset.as_deref().cloned(),
                )),
                _ => return Err("an element pointer into something other than a tensor".into()),
            }
        }
        for (id, us) in uses {
            let dims = &us[0].1;
            if us.iter().any(|u| &u.1 != dims) {
                return Err("an array indexed with two shapes".into());
            }
            let shape: Vec<i64> = dims.iter().map(|&d| d as i64).collect();
            let size = self
                .k
                .arrays
                .get(id)
                .map(|a| a.shape.iter().product::<usize>());
            let dtype = self.k.arrays.get(id).map(|a| a.dtype);
            // an offset held in a temporary (a vector element's) is its value
            let held = |o: &Expr| match o.kind {
                ExprKind::Var(v) => temps.get(&v).cloned().unwrap_or_else(|| o.clone()),
                _ => o.clone(),
            };
            let mut found = None;
            for w in [1usize, 2, 4, 8] {
                if w > 1 && dtype.and_then(|d| vector::vector_type_name(d, w)).is_none() {
                    continue;
                }
                let layout = candidate_layouts(&shape).into_iter().find(|l| {
                    Some(l.size() as usize * w) == size
                        && us.iter().all(|(idx, _, off)| match off {
                            None => w == 1 && l.is_row_major(),
                            Some(o) if w == 1 => {
                                !l.is_row_major() && fold_all(&l.offset_expr(idx, o.span)) == *o
                            }
                            Some(o) => {
                                l.is_row_major()
                                    && fold_all(&vector::scaled_offset(
                                        l.offset_expr(idx, o.span),
                                        w,
                                    )) == fold_all(&held(o))
                            }
                        })
                });
                if let Some(l) = layout {
                    found = Some((l, w));
                    break;
                }
            }
            match found {
                Some((l, w)) => {
                    self.layouts[id] = Some(l);
                    self.widths[id] = w;
                }
                None => return Err("an array whose layout is not recognised".into()),
            }
        }
        Ok(())
    }

    fn name(&self, v: VarId) -> PResult<&str> {
        pattern::name_of(&self.names, v)
    }

    fn var_name(&self, v: VarId) -> &str {
        self.k.vars.get(v).map_or("", |x| x.0.as_str())
    }

    fn var_dtype(&self, v: VarId) -> PResult<DType> {
        self.k
            .vars
            .get(v)
            .map(|x| x.1.dtype())
            .ok_or_else(|| format!("variable {v} is not declared"))
    }

    fn visible(&self, v: VarId) -> bool {
        self.scopes.iter().any(|s| s.contains(&v))
    }

    fn declare(&mut self, v: VarId) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(v);
        }
    }

    // ---- the kernel ----------------------------------------------------------------

    fn kernel(&mut self) -> PResult<()> {
        let k = self.k;
        if !pattern::is_ident(&k.name, RESERVED) {
            return Err(format!("`{}` is not a Python name", k.name));
        }
        let mut cuda = k.grid != [1, 1, 1] || k.block != [1, 1, 1];
        walk::for_each_expr(&k.body, &mut |e| {
            if matches!(
                e.kind,
                ExprKind::ThreadId(_)
                    | ExprKind::BlockId(_)
                    | ExprKind::BlockDim(_)
                    | ExprKind::GridDim(_)
                    | ExprKind::Atomic { .. }
            ) {
                cuda = true;
            }
        });
        walk::for_each_stmt(&k.body, &mut |s| {
            if matches!(s, Stmt::Barrier { .. }) {
                cuda = true;
            }
        });
        if k.arrays.iter().any(|a| a.space == AddrSpace::Shared) {
            cuda = true;
        }
        let mut params = Vec::new();
        for p in &k.params {
            let text = match (p.kind.clone(), p.var) {
                (ParamKind::Pointer(d), Some(v)) => match self.tensor_params.get(&v) {
                    Some(dims) => format!(
                        "{}: {}[{}]",
                        p.name,
                        type_name(d)?,
                        dims.iter()
                            .map(|d| d.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    None => format!("{}: ~{}", p.name, type_name(d)?),
                },
                (ParamKind::Scalar(d), Some(_)) => format!("{}: {}", p.name, type_name(d)?),
                _ => return Err(format!("parameter `{}` has no Hidet form", p.name)),
            };
            if let Some(v) = p.var {
                self.declare(v);
            }
            params.push(text);
        }
        self.src.out = format!(
            "{HEADER}\nwith hidet.script_module() as script_module:\n    @hidet.script\n    def {}({}):\n",
            k.name,
            params.join(", ")
        );
        if cuda {
            self.line("attrs.func_kind = 'cuda_kernel'");
            let g = dims_text(k.grid);
            let b = dims_text(k.block);
            self.line(&format!("attrs.cuda.grid_dim = {g}"));
            self.line(&format!("attrs.cuda.block_dim = {b}"));
        } else {
            self.line("attrs.func_kind = 'cpu_kernel'");
        }
        for (id, a) in k.arrays.iter().enumerate() {
            let d = match self.width_of(id) {
                1 => type_name(a.dtype)?,
                w => vector::vector_type_name(a.dtype, w)
                    .ok_or("an array of no vector type")?
                    .to_string(),
            };
            let name = self.arrays[id].clone();
            // `shared_tensor(dtype, shape)`, `tensor(dtype=…, shape=…)`
            let (open, shape_kw) = match a.space {
                AddrSpace::Shared => (format!("shared_tensor({d}, "), ""),
                AddrSpace::Local => (format!("tensor(dtype={d}, "), "shape="),
                AddrSpace::Global => return Err("a global array cannot be declared".into()),
            };
            let args = match &self.layouts[id] {
                None => format!("{shape_kw}{:?}", a.shape),
                Some(l) if l.is_row_major() => format!("{shape_kw}{:?}", l.shape()),
                Some(l) => format!("layout={}", layout_text(l)?),
            };
            let line = format!("{name} = {open}{args})");
            self.line(&line);
        }
        self.block(&k.body)?;
        pattern::all_read(self.k, &self.deferred)?;
        self.src.out.push_str("\nmodule = script_module.build()\n");
        Ok(())
    }

    // ---- statements ------------------------------------------------------------------

    // ---- expressions -----------------------------------------------------------------

    fn no_form(&self, e: &Expr) -> String {
        format!(
            "`{}` has no Hidet script form",
            ksem_interp::pretty::expr(self.k, e)
        )
    }

    /// The first form of `e` whose elaboration, as `build` makes it, gives `e`.
    fn pick(&mut self, e: &'k Expr, build: impl Fn(&Form) -> Option<Expr>) -> PResult<Form> {
        // without the conversions the construct inserts itself first
        let mut forms = self.operand_forms(e);
        if forms.is_empty() {
            forms = self.forms(e)?;
        }
        forms
            .into_iter()
            .find(|f| build(f).is_some_and(|x| fold_all(&x) == *e))
            .ok_or_else(|| self.no_form(e))
    }

    /// The ways `e` may be written; each form's value may differ from `e`
    /// by conversions the caller's construct inserts (the caller checks).
    fn forms(&mut self, e: &'k Expr) -> PResult<Vec<Form>> {
        let key = e as *const Expr;
        if let Some(f) = self.memo.get(&key) {
            return Ok(f.clone());
        }
        let mut out = self.forms_of(e)?;
        // a cast that changes only the Hidet type (`i32(x)` of an `int8`
        // value that C computes as `int`)
        let d = e.ty.dtype();
        if !e.ty.is_ptr() {
            if let Ok(t) = type_name(d) {
                let extra: Vec<Form> = out
                    .iter()
                    .filter(|f| f.v.hty != d && f.v.lit.is_none() && f.v.e.ty.dtype() == d)
                    .map(|f| Form {
                        text: format!("{t}({})", f.text),
                        v: HVal::num(f.v.e.clone(), d),
                    })
                    .collect();
                out.extend(extra);
            }
        }
        // shortest first; one form per Hidet type, Python-ness and value
        out.sort_by_key(|f| f.text.len());
        let mut seen = Vec::new();
        out.retain(|f| {
            let k = (f.v.hty, f.v.lit.is_some(), fold_all(&f.v.e));
            if seen.contains(&k) {
                false
            } else {
                seen.push(k);
                true
            }
        });
        out.truncate(16);
        if out.is_empty() {
            return Err(self.no_form(e));
        }
        self.memo.insert(key, out.clone());
        Ok(out)
    }

    fn forms_of(&mut self, e: &'k Expr) -> PResult<Vec<Form>> {
        if !e.ty.shape.is_empty() {
            return Err(format!("a tile value ({}) has no Hidet form", e.ty));
        }
        let d = e.ty.dtype();
        let mut out = Vec::new();
        let mut inner = None;
        if let Some(f) = self.complex_compare_form(e) {
            return Ok(vec![f]);
        }
        match &e.kind {
            ExprKind::Const(bits) => return const_forms(d, *bits),
            ExprKind::Var(v) => {
                if let Some(df) = self.deferred.remove(v) {
                    return self.print_deferred(*v, df);
                }
                if e.ty.is_ptr() {
                    return Err("a pointer used as a value".into());
                }
                if !self.visible(*v) {
                    return Err(format!("`{}` is read outside its scope", self.var_name(*v)));
                }
                if let Some(f) = self.part_form(*v, e) {
                    return Ok(vec![f]);
                }
                out.push(Form {
                    text: self.name(*v)?.to_string(),
                    v: HVal::num(e.clone(), d),
                });
            }
            ExprKind::Load {
                ptr,
                mask: None,
                other: None,
            } if ptr.ty.dtype() == d => {
                out.push(Form {
                    text: self.place(ptr)?,
                    v: HVal::num(e.clone(), d),
                });
            }
            ExprKind::Cast(x, CONVERT) => {
                if let Some(t) = id_text(&x.kind) {
                    let v = nodes::cuda_index(x.kind.clone());
                    if v.e == *e {
                        out.push(Form { text: t, v });
                    }
                }
                if !x.ty.is_ptr()
                    && !matches!(
                        x.kind,
                        ExprKind::ThreadId(_)
                            | ExprKind::BlockId(_)
                            | ExprKind::BlockDim(_)
                            | ExprKind::GridDim(_)
                    )
                {
                    // an explicit cast `T(x)`
                    let fx = match self.forms(x) {
                        Ok(fx) => fx,
                        Err(err) => {
                            inner = Some(err);
                            vec![]
                        }
                    };
                    {
                        for f in fx {
                            let v = nodes::cast(&f.v, d);
                            if fold_all(&v.e) == *e {
                                out.push(Form {
                                    text: format!("{}({})", type_name(d)?, f.text),
                                    v: HVal::num(e.clone(), d),
                                });
                                break;
                            }
                        }
                    }
                }
                if let ExprKind::Binary(op, a, b) = &x.kind {
                    // a narrow integer result, cast by Hidet's code generator
                    out.extend(self.binary_forms(*op, a, b, e)?);
                }
            }
            ExprKind::Binary(BinOp::PtrDiff, a, b) => {
                let (x, y) = (self.pointer_value(a)?, self.pointer_value(b)?);
                out.push(Form {
                    text: format!("({x} - {y})"),
                    v: nodes::ptr_diff((**a).clone(), (**b).clone()),
                });
            }
            ExprKind::Binary(op, a, b) => out.extend(self.binary_forms(*op, a, b, e)?),
            ExprKind::Unary(op, x) => {
                let inner_nodes = match (op, &x.kind) {
                    (UnOp::Neg | UnOp::Not, ExprKind::Cast(y, CONVERT)) => vec![&**x, &**y],
                    (UnOp::LogicalNot, ExprKind::Binary(BinOp::Ne, y, _)) => vec![&**x, &**y],
                    _ => vec![&**x],
                };
                for y in inner_nodes {
                    let fy = match self.forms(y) {
                        Ok(fy) => fy,
                        Err(err) => {
                            inner = Some(err);
                            continue;
                        }
                    };
                    for f in fy {
                        let (text, v) = match op {
                            UnOp::Neg => (format!("(-{})", f.text), nodes::neg(&f.v)),
                            UnOp::Not => {
                                (format!("bitwise_not({})", f.text), nodes::bitwise_not(&f.v))
                            }
                            UnOp::LogicalNot => (format!("(not {})", f.text), nodes::not(&f.v)),
                            _ => continue,
                        };
                        if let Some(v) = v {
                            if fold_all(&v.e) == *e {
                                out.push(Form {
                                    text,
                                    v: HVal {
                                        e: e.clone(),
                                        hty: v.hty,
                                        pty: v.pty,
                                        lit: None,
                                    },
                                });
                            }
                        }
                    }
                }
            }
            _ => {}
        }
        if out.is_empty() {
            return Err(inner.unwrap_or_else(|| self.no_form(e)));
        }
        Ok(out)
    }

    /// `a OP b` forms of the node `e` (a binary node, or a cast of one).
    fn binary_forms(
        &mut self,
        op: BinOp,
        a: &'k Expr,
        b: &'k Expr,
        e: &'k Expr,
    ) -> PResult<Vec<Form>> {
        let ops: Vec<(Option<Op>, Option<BinOp>)> = match op {
            BinOp::Add => vec![(Some(Op::Add), None)],
            BinOp::Sub => vec![(Some(Op::Sub), None)],
            BinOp::Mul => vec![(Some(Op::Mul), None)],
            BinOp::FDiv => vec![(Some(Op::Div), None)],
            BinOp::IDiv(_) => vec![(Some(Op::FloorDiv), None), (Some(Op::Div), None)],
            BinOp::IRem(_) => vec![(Some(Op::Mod), None)],
            BinOp::And => vec![(Some(Op::And), None)],
            BinOp::Or => vec![(Some(Op::Or), None)],
            BinOp::Xor => vec![(Some(Op::Xor), None)],
            BinOp::Shl(_) => vec![(Some(Op::Shl), None)],
            BinOp::Shr(..) => vec![(Some(Op::Shr), None)],
            op if op.is_comparison() => vec![(None, Some(op))],
            _ => return Ok(vec![]),
        };
        let ca = self.operand_forms(a);
        let cb = self.operand_forms(b);
        let mut out = Vec::new();
        for (o, c) in ops {
            for x in &ca {
                for y in &cb {
                    let v = match (o, c) {
                        (Some(o), _) => nodes::binop(o, &x.v, &y.v),
                        (_, Some(c)) => nodes::compare(c, &x.v, &y.v),
                        _ => None,
                    };
                    let Some(v) = v else { continue };
                    if fold_all(&v.e) != *e {
                        continue;
                    }
                    let sym = match (o, c) {
                        (Some(o), _) => o.text(),
                        (_, Some(c)) => cmp_text(c),
                        _ => "?",
                    };
                    out.push(Form {
                        text: format!("({} {sym} {})", x.text, y.text),
                        v: HVal {
                            e: e.clone(),
                            hty: v.hty,
                            pty: v.pty,
                            lit: None,
                        },
                    });
                }
            }
            if !out.is_empty() {
                break;
            }
        }
        Ok(out)
    }

    /// The forms an operand of a binary node may have been written as: the
    /// node, and the node without the conversions the front end inserts.
    fn operand_forms(&mut self, x: &'k Expr) -> Vec<Form> {
        let mut cands = vec![x];
        let mut cur = x;
        for _ in 0..2 {
            match &cur.kind {
                ExprKind::Cast(y, CONVERT) if !y.ty.is_ptr() => {
                    cands.push(y);
                    cur = y;
                }
                _ => break,
            }
        }
        let mut out = Vec::new();
        for c in cands.into_iter().rev() {
            if let Ok(f) = self.forms(c) {
                out.extend(f);
            }
        }
        out
    }

    /// `a[i, j]` (a tensor), `p[k]` (a pointer held in a variable),
    /// `cast(~t[i], ~f32)[j]` (a lane of a vector tensor).
    fn place(&mut self, ptr: &'k Expr) -> PResult<String> {
        if let Some(lane) = self.lane_place(ptr)? {
            return Ok(lane);
        }
        if let ExprKind::ElemPtr { base, .. } = &ptr.kind {
            if matches!(base.kind, ExprKind::ArrayBase(id) if self.width_of(id) > 1) {
                return Err("a vector element used as a number".into());
            }
        }
        self.elem_place(ptr)
    }

    /// `a[i, j]` of any tensor, `p[k]` (a pointer held in a variable).
    fn elem_place(&mut self, ptr: &'k Expr) -> PResult<String> {
        match &ptr.kind {
            ExprKind::ElemPtr {
                base,
                indices,
                neg: NegIndex::Ub,
                ..
            } => {
                let name = match &base.kind {
                    ExprKind::Var(v) if self.tensor_params.contains_key(v) => {
                        self.name(*v)?.to_string()
                    }
                    ExprKind::ArrayBase(id) => {
                        self.arrays.get(*id).cloned().ok_or("an undeclared array")?
                    }
                    _ => return Err("an element of something other than a tensor".into()),
                };
                let mut idx = Vec::new();
                for i in indices {
                    let i = match i.kind {
                        ExprKind::Var(v) => self.hidden.get(&v).copied().unwrap_or(i),
                        _ => i,
                    };
                    idx.push(self.pick(i, |f| Some(nodes::index(&f.v)))?.text);
                }
                Ok(format!("{name}[{}]", idx.join(", ")))
            }
            ExprKind::Binary(BinOp::PtrAdd, p, k) => {
                let ExprKind::Var(v) = p.kind else {
                    return Err("Hidet indexes only a pointer held in a variable".into());
                };
                if self.tensor_params.contains_key(&v) {
                    return Err("a tensor parameter indexed as a pointer".into());
                }
                let name = self.name(v)?.to_string();
                let f = self.pick(k, |f| Some(nodes::index(&f.v)))?;
                Ok(format!("{name}[{}]", f.text))
            }
            _ => Err("only tensor elements and pointers can be read or written".into()),
        }
    }

    /// A pointer value: `~a[i]`, `p + k`.
    fn pointer_value(&mut self, e: &'k Expr) -> PResult<String> {
        match &e.kind {
            ExprKind::ElemPtr { .. } => Ok(format!("~{}", self.place(e)?)),
            ExprKind::Var(v) => Ok(self.name(*v)?.to_string()),
            ExprKind::Binary(BinOp::PtrAdd, p, k) => {
                let base = self.pointer_value(p)?;
                let f = self.pick(k, |f| Some(nodes::index(&f.v)))?;
                Ok(format!("({base} + {})", f.text))
            }
            _ => Err("a pointer with no Hidet form".into()),
        }
    }

    fn atomic(
        &mut self,
        op: AtomicOp,
        ptr: &'k Expr,
        val: &'k Expr,
        cmp: Option<&'k Expr>,
    ) -> PResult<String> {
        if cmp.is_some() {
            return Err("atomic_cas is not printed".into());
        }
        let d = ptr.ty.dtype();
        let p = self.pointer_value(ptr)?;
        let name = match op {
            AtomicOp::Add => "atomic_add",
            AtomicOp::Sub => "atomic_sub",
            AtomicOp::Min => "atomic_min",
            AtomicOp::Max => "atomic_max",
            AtomicOp::Exch => "atomic_exchange",
            _ => return Err(format!("Hidet has no atomic {}", op.name())),
        };
        let f = self.pick(val, |f| Some(build::convert(f.v.e.clone(), d)))?;
        Ok(format!("{name}({p}, {})", f.text))
    }
}

use ksem_interp::ir::build;

/// A literal's C expression where it stands alone (an `if` branch, a
/// declaration): the constant Hidet makes of the Python number.
fn plain_e(v: &HVal) -> Expr {
    v.e.clone()
}

fn cmp_text(op: BinOp) -> &'static str {
    match op {
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        _ => ">=",
    }
}

/// `threadIdx.x` for the id node `k`.
fn id_text(k: &ExprKind) -> Option<String> {
    let (what, d) = match k {
        ExprKind::ThreadId(d) => ("threadIdx", d),
        ExprKind::BlockId(d) => ("blockIdx", d),
        ExprKind::BlockDim(d) => ("blockDim", d),
        ExprKind::GridDim(d) => ("gridDim", d),
        _ => return None,
    };
    let axis = ["x", "y", "z"].get(*d as usize)?;
    Some(format!("{what}.{axis}"))
}

/// The forms of a constant of dtype `d`: a Python number (where the
/// front end makes this constant of one) and a typed constant `T(v)`.
fn const_forms(d: DType, bits: u64) -> PResult<Vec<Form>> {
    let mut out = Vec::new();
    if d == DType::Bool {
        let b = bits != 0;
        out.push(Form {
            text: if b { "True" } else { "False" }.into(),
            v: nodes::boolean(b),
        });
        return Ok(out);
    }
    let lit = if d.is_float() {
        let f = ksem_interp::float::to_f64(d, bits);
        if !f.is_finite() {
            return Err(format!(
                "the {} constant {bits:#x} has no literal",
                d.name()
            ));
        }
        Lit::Float(f)
    } else {
        Lit::Int(ksem_interp::ops::int_value(d, bits))
    };
    // (a Python int the front end takes is one that fits 64 bits)
    let py_ok = |l: &Lit| match l {
        Lit::Int(i) => i64::try_from(*i).is_ok(),
        Lit::Float(_) | Lit::Bool(_) => true,
    };
    let text = lit_text(lit);
    // the Python numbers that a conversion of the front end may have made
    // this constant of: the value, the other signedness's reading of its
    // bits, an integral float as an int
    let mut lits = vec![lit];
    match lit {
        Lit::Int(i) if !d.is_signed_int() && d.bits() < 128 => {
            let w = d.bits();
            if w < 64 || i > i64::MAX as i128 {
                lits.push(Lit::Int(i - (1i128 << w)));
            }
        }
        Lit::Int(i) if i < 0 => lits.push(Lit::Int(i + (1i128 << d.bits()))),
        Lit::Float(f) if f.fract() == 0.0 && f.abs() < 1e9 => lits.push(Lit::Int(f as i128)),
        _ => {}
    }
    for l in lits.into_iter().filter(py_ok) {
        let py = match l {
            Lit::Int(i) => nodes::int(i),
            Lit::Float(f) => nodes::float(f),
            Lit::Bool(b) => nodes::boolean(b),
        };
        out.push(Form {
            text: lit_text(l),
            v: py,
        });
    }
    // typed constants: of this type, and of the others that a conversion
    // of the front end may have made this one from (`f16(2.5)` in f32)
    for t in ksem_interp::dtype::DType::ALL {
        if t.is_float() != d.is_float() || t == DType::Bool || type_name(t).is_err() {
            continue;
        }
        let Some(v) = nodes::typed_const(t, lit) else {
            continue;
        };
        let back = fold_all(&build::convert(v.e.clone(), d));
        if back == build::konst(d, bits, nodes::S) {
            out.push(Form {
                text: format!("{}({text})", type_name(t)?),
                v,
            });
        }
    }
    Ok(out)
}

fn lit_text(l: Lit) -> String {
    match l {
        Lit::Int(i) if i < 0 => format!("({i})"),
        Lit::Int(i) => i.to_string(),
        Lit::Bool(b) => {
            if b {
                "True".into()
            } else {
                "False".into()
            }
        }
        Lit::Float(f) => {
            let t = format!("{:?}", f.abs());
            if f.is_sign_negative() {
                format!("(-{t})")
            } else {
                t
            }
        }
    }
}

/// The Hidet name of dtype `d` (bool is `boolean`).
fn type_name(d: DType) -> PResult<String> {
    match d {
        DType::Bool => Ok("boolean".into()),
        d if d.is_fp8() => Err(format!("ksem runs no Hidet {}", d.name())),
        d => Ok(Named(d).to_string()),
    }
}

/// `2`, `(8, 4)`: launch dimensions without the trailing ones.
fn dims_text(d: [u32; 3]) -> String {
    let n = if d[2] != 1 {
        3
    } else if d[1] != 1 {
        2
    } else {
        1
    };
    if n == 1 {
        d[0].to_string()
    } else {
        format!(
            "({})",
            d[..n]
                .iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

/// The layouts the printer recognises for a shape: every strided order
/// and, in 2-d, the compositions of two of them.
fn candidate_layouts(shape: &[i64]) -> Vec<Layout> {
    let mut out = Vec::new();
    for ranks in permutations(shape.len()) {
        out.push(Layout::strided(shape.to_vec(), &ranks));
    }
    if shape.len() == 2 {
        for a in divisors(shape[0]) {
            for b in divisors(shape[1]) {
                let outer = vec![shape[0] / a, shape[1] / b];
                let inner = vec![a, b];
                for ro in permutations(2) {
                    for ri in permutations(2) {
                        out.push(Layout::Composed(
                            Box::new(Layout::strided(outer.clone(), &ro)),
                            Box::new(Layout::strided(inner.clone(), &ri)),
                        ));
                    }
                }
            }
        }
    }
    out
}

fn divisors(n: i64) -> Vec<i64> {
    (1..=n).filter(|d| n % d == 0).collect()
}

fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for at in 0..=p.len() {
            let mut q = p.clone();
            q.insert(at, n - 1);
            out.push(q);
        }
    }
    out.sort();
    out
}

/// A layout as the script writes it.
fn layout_text(l: &Layout) -> PResult<String> {
    let ints = |v: &[i64]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match l {
        Layout::Strided { shape, .. } => {
            if *l == Layout::row_major(shape.clone()) {
                return Ok(format!("row_major({})", ints(shape)));
            }
            if *l == Layout::column_major(shape.clone()) {
                return Ok(format!("column_major({})", ints(shape)));
            }
            for ranks in permutations(shape.len()) {
                if *l == Layout::strided(shape.clone(), &ranks) {
                    let r: Vec<i64> = ranks.iter().map(|&r| r as i64).collect();
                    return Ok(format!("strided_layout([{}], [{}])", ints(shape), ints(&r)));
                }
            }
            Err("a strided layout with no ranks".into())
        }
        Layout::Composed(a, b) => Ok(format!("{} * {}", layout_text(a)?, layout_text(b)?)),
        _ => Err("a layout the printer does not write".into()),
    }
}

/// `e` with every node of constant operands folded (as `ir::canon` does).
pub fn fold_all(e: &Expr) -> Expr {
    let mut e = e.clone();
    fold_in(&mut e);
    e
}

fn fold_in(e: &mut Expr) {
    e.span = Default::default();
    match &mut e.kind {
        ExprKind::Cast(x, _) | ExprKind::Unary(_, x) => fold_in(x),
        ExprKind::Binary(_, a, b) => {
            fold_in(a);
            fold_in(b);
        }
        ExprKind::Load { ptr, mask, other } => {
            fold_in(ptr);
            if let Some(m) = mask {
                fold_in(m);
            }
            if let Some(o) = other {
                fold_in(o);
            }
        }
        ExprKind::ElemPtr {
            base,
            indices,
            offset,
            ..
        } => {
            fold_in(base);
            for i in indices {
                fold_in(i);
            }
            if let Some(o) = offset {
                fold_in(o);
            }
        }
        ExprKind::Atomic { ptr, val, cmp, .. } => {
            fold_in(ptr);
            fold_in(val);
            if let Some(c) = cmp {
                fold_in(c);
            }
        }
        ExprKind::Select(a, b, c) => {
            fold_in(a);
            fold_in(b);
            fold_in(c);
        }
        _ => {}
    }
    let is_const = |x: &Expr| matches!(x.kind, ExprKind::Const(_)) && x.ty.shape.is_empty();
    let foldable = match &e.kind {
        ExprKind::Cast(x, _) => is_const(x),
        ExprKind::Unary(op, x) => !matches!(op, UnOp::Math(_)) && is_const(x),
        ExprKind::Binary(op, a, b) => !op.is_inexact() && is_const(a) && is_const(b),
        _ => false,
    };
    if !foldable || e.ty.is_ptr() || !e.ty.shape.is_empty() {
        return;
    }
    if let Some(bits) = fold(e) {
        e.kind = ExprKind::Const(bits & e.ty.dtype().mask());
    }
}

// ---- names ---------------------------------------------------------------------------

/// An if-expression's branches print where Hidet types them alike and
/// converts them as the IR does.
impl<'k> Deferring<'k> for Printer<'k> {
    type At = VarId;
    type Branch = Vec<Form>;
    type Out = Vec<Form>;

    const WHAT: &'static str = "an if-expression";

    fn pending(&mut self) -> (&'k Kernel, (&[usize], &[usize]), &mut Pending<'k>) {
        (self.k, (&self.defs, &self.uses), &mut self.deferred)
    }

    fn branch(&mut self, e: &'k Expr) -> PResult<Vec<Form>> {
        Ok(self.operand_forms(e))
    }

    fn if_exp(
        &mut self,
        r: VarId,
        c: String,
        (a, fa): (&'k Expr, Vec<Form>),
        (b, fb): (&'k Expr, Vec<Form>),
    ) -> PResult<Vec<Form>> {
        let rd = self.var_dtype(r)?;
        let var = build::mk(ExprKind::Var(r), Type::scalar(rd), nodes::S);
        for x in &fa {
            for y in &fb {
                // Hidet checks the branches' types while transpiling
                // and after its passes
                if x.v.hty != y.v.hty || x.v.pty != y.v.pty {
                    continue;
                }
                // the branches' literals are Hidet constants of their own type
                let (xe, ye) = (plain_e(&x.v), plain_e(&y.v));
                let t = nodes::if_exp_type(&xe, &ye);
                if t != rd
                    || fold_all(&build::convert(xe.clone(), t)) != *a
                    || fold_all(&build::convert(ye.clone(), t)) != *b
                {
                    continue;
                }
                return Ok(vec![Form {
                    text: format!("({} if {c} else {})", x.text, y.text),
                    v: HVal {
                        e: var,
                        hty: x.v.hty,
                        pty: x.v.pty,
                        lit: None,
                    },
                }]);
            }
        }
        Err("an if-expression whose branches are typed unlike Hidet's".into())
    }

    fn bool_op(&mut self, r: VarId, text: String) -> PResult<Vec<Form>> {
        let rd = self.var_dtype(r)?;
        let var = build::mk(ExprKind::Var(r), Type::scalar(rd), nodes::S);
        Ok(vec![Form {
            text,
            v: HVal::num(var, DType::Bool),
        }])
    }
}

impl<'k> Statements<'k> for Printer<'k> {
    fn let_stmt(&mut self, v: VarId, e: &'k Expr) -> PResult<()> {
        if let ExprKind::Atomic {
            op, ptr, val, cmp, ..
        } = &e.kind
        {
            let a = self.atomic(*op, ptr, val, cmp.as_deref())?;
            if self.uses.get(v) == Some(&0) && self.var_name(v).starts_with('_') {
                self.line(&a);
                return Ok(());
            }
            if self.visible(v) {
                return Err("an atomic's old value assigned to an existing variable".into());
            }
            let name = self.name(v)?.to_string();
            self.declare(v);
            self.line(&format!("{name} = {a}"));
            return Ok(());
        }
        let name = self.name(v)?.to_string();
        if e.ty.is_ptr() {
            let text = self.pointer_value(e)?;
            if !self.visible(v) {
                self.declare(v);
            }
            self.line(&format!("{name} = {text}"));
            return Ok(());
        }
        let d = self.var_dtype(v)?;
        if self.visible(v) {
            let f = self.pick(e, |f| Some(nodes::value_for(&f.v, d)))?;
            self.line(&format!("{name} = {}", f.text));
            return Ok(());
        }
        // a first assignment defines the variable with the value's Hidet
        // type; a declaration gives the type
        let mut forms = self.operand_forms(e);
        if forms.is_empty() {
            forms = self.forms(e)?;
        }
        // preferably a form that already computes in the variable's type (an
        // explicit cast written out): Hidet replaces a variable assigned once
        // by its value, and the cast must survive that (divergence H10)
        let same = |f: &&Form| fold_all(&build::convert(f.v.e.clone(), d)) == *e;
        let exact = forms
            .iter()
            .find(|f| f.v.hty == d && f.v.pty == d && build::dtype_of(&f.v.e) == d && same(f));
        let plain = exact.or_else(|| forms.iter().find(|f| f.v.hty == d && same(f)));
        let text = match plain {
            Some(f) => format!("{name} = {}", f.text),
            None => {
                let f = forms
                    .iter()
                    .find(|f| fold_all(&build::convert(f.v.e.clone(), d)) == *e)
                    .ok_or_else(|| self.no_form(e))?;
                format!("{name}: {} = {}", type_name(d)?, f.text)
            }
        };
        self.declare(v);
        self.line(&text);
        Ok(())
    }

    fn store_stmt(&mut self, st: StoreParts<'k>) -> PResult<()> {
        if st.mask.is_some() {
            return Err("a masked store has no Hidet form".into());
        }
        let target = self.place(st.ptr)?;
        let d = st.ptr.ty.dtype();
        let f = self.pick(st.value, |f| Some(nodes::value_for(&f.v, d)))?;
        self.line(&format!("{target} = {}", f.text));
        Ok(())
    }

    fn range_loop(&mut self, var: VarId, range: [&'k Expr; 3], body: &'k [Stmt]) -> PResult<()> {
        let [start, end, step] = range;
        let zero = start.kind == ExprKind::Const(0) && start.ty.dtype() == DType::I32;
        let one = step.kind == ExprKind::Const(1) && step.ty.dtype() == DType::I32;
        if !zero || !one || self.var_dtype(var)? != DType::I32 {
            return Err("Hidet loops are range(end) over int32".into());
        }
        let f = self.pick(end, |f| Some(f.v.e.clone()))?;
        let name = self.name(var)?.to_string();
        self.line(&format!("for {name} in range({}):", f.text));
        self.nested_in(body, Some(var))
    }

    fn own_stmt(&mut self, _: &'k Stmt, own: Own<'k>) -> PResult<()> {
        match own {
            Own::Barrier => self.simple("syncthreads()"),
            Own::Print(..) => Err("printf is not printed".into()),
            Own::Gemm => Err("T.gemm is TileLang's; Hidet script has none".into()),
            Own::ParallelFor => Err("a parallel loop has no Hidet form".into()),
        }
    }
}

/// Hidet's bodies are scopes: a name declared in one is gone after it; a
/// loop's variable is declared in its body. Lines sit two levels below the
/// module (the script module's `with` and the function).
impl<'k> Structured<'k> for Printer<'k> {
    fn source(&mut self) -> &mut pattern::Source {
        &mut self.src
    }

    fn line(&mut self, s: &str) {
        for _ in 0..self.src.depth + 2 {
            self.src.out.push_str("    ");
        }
        self.src.out.push_str(s);
        self.src.out.push('\n');
    }

    fn stmt_at(&mut self, b: &'k [Stmt], i: usize) -> PResult<usize> {
        if let Stmt::Let(v, e) = &b[i] {
            // an index Hidet holds in a temporary (layouts): printed where used
            if self.var_name(*v).starts_with("_t") && e.ty.dtype() == DType::I64 {
                self.hidden.insert(*v, e);
                return Ok(1);
            }
        }
        if let Some(n) = self.defer_at(b, i) {
            return Ok(n);
        }
        if let Some(n) = self.vector_at(b, i)? {
            return Ok(n);
        }
        if let Some(n) = self.complex_at(b, i)? {
            return Ok(n);
        }
        self.stmt(&b[i])?;
        Ok(1)
    }

    /// A condition (a bool the front end tests as it is).
    fn cond_text(&mut self, e: &'k Expr) -> PResult<String> {
        control::bool_condition(e)?;
        Ok(self.pick(e, |f| Some(nodes::truth(&f.v)))?.text)
    }

    fn enter_body(&mut self, var: Option<VarId>) {
        self.scopes.push(HashSet::new());
        if let Some(v) = var {
            self.declare(v);
        }
    }

    fn leave_body(&mut self) {
        self.scopes.pop();
    }
}
