//! Constant tiles: an expression of a Triton kernel replaced by the values
//! ksem computes for it, so that what the real system still gets wrong lies
//! after it. The values come from a probe run of the interpreter (the
//! kernel with one more store, of the expression, into a probe buffer);
//! where every element of every program is the same integer the candidate
//! is a `tl.full` of it, else a load from a new input buffer holding the
//! values (one tile per program, in program order).

use super::tree;
use crate::backend::Backend;
use ksem_interp::dtype::DType;
use ksem_interp::eval::RunOptions;
use ksem_interp::launch::{hex_bits, parse_launch};
use rustpython_ast as ast;
use serde_json::{json, Value as Json};

/// The probe buffer's parameter name.
const PROBE: &str = "ksem_probe_ptr";

/// An expression's type and the values ksem computes for it.
struct Values {
    dtype: DType,
    shape: Vec<usize>,
    /// `programs × elements` bits, program-major.
    bits: Vec<u64>,
}

/// The linear program id of a launch's grid, as Triton source.
fn program_id(launch: &Json) -> Option<(String, usize)> {
    let g: Vec<usize> = launch["grid"]
        .as_array()?
        .iter()
        .map(|x| x.as_u64().map(|v| v as usize))
        .collect::<Option<_>>()?;
    let dim = |i: usize| g.get(i).copied().unwrap_or(1);
    let programs = dim(0) * dim(1) * dim(2);
    let text = format!(
        "(tl.program_id(0) + {} * (tl.program_id(1) + {} * tl.program_id(2)))",
        dim(0),
        dim(1)
    );
    Some((text, programs))
}

/// The element index of a tile of `shape` within its program's slot, as
/// Triton source (`None` for shapes a probe cannot address).
fn tile_index(pid: &str, shape: &[usize]) -> Option<String> {
    if !shape.iter().all(|d| d.is_power_of_two()) {
        return None;
    }
    let n: usize = shape.iter().product();
    Some(match shape {
        [] => pid.to_string(),
        [a] => format!("({pid} * {n} + tl.arange(0, {a}))"),
        [a, b] => format!(
            "({pid} * {n} + tl.reshape(tl.arange(0, {a}), ({a}, 1)) * {b} + tl.reshape(tl.arange(0, {b}), (1, {b})))"
        ),
        _ => return None,
    })
}

/// Expression number `idx` of the tree.
fn expr_at(tree: &mut [ast::Stmt], idx: usize) -> Option<ast::Expr> {
    let mut found = None;
    tree::walk_exprs(tree, &mut |e, i| {
        if i == idx {
            found = Some(e.clone());
        }
    });
    found
}

/// The tree with statement `text` inserted before statement `at`, and the
/// kernel given parameter `param`, as source.
fn with_stmt(
    tree: &[ast::Stmt],
    src: &str,
    at: usize,
    text: &str,
    param: Option<&str>,
) -> Option<String> {
    let mut t = tree.to_vec();
    let st = tree::stmt(text)?;
    if !tree::insert_stmt(&mut t, &mut 0, at, &st) {
        return None;
    }
    if let Some(p) = param {
        tree::add_param(tree::triton_kernel(&mut t)?, p)?;
    }
    Some(super::unparse::module(&t, src))
}

/// The type of expression `idx` (statement `at`) and the values ksem
/// computes for it in every program.
fn values(tree: &[ast::Stmt], src: &str, launch: &Json, idx: usize, at: usize) -> Option<Values> {
    let e = expr_at(&mut tree.to_vec(), idx)?;
    // its type: elaborate it as a variable of its own
    let typed = with_stmt(tree, src, at, &format!("ksem_probe = ({e})"), None)?;
    let l = parse_launch(&launch.to_string()).ok()?;
    let k = ksem_interp::elaborate_source("probe.py", &typed, &l, None).ok()?;
    let ty = k
        .vars
        .iter()
        .rev()
        .find(|(n, _)| n == "ksem_probe" || n.starts_with("ksem_probe."))
        .map(|(_, t)| t.clone())?;
    if ty.is_ptr() {
        return None;
    }
    let (pid, programs) = program_id(launch)?;
    let index = tile_index(&pid, &ty.shape)?;
    let n: usize = ty.shape.iter().product();
    let stored = with_stmt(
        tree,
        src,
        at,
        &format!("tl.store({PROBE} + {index}, ({e}))"),
        Some(PROBE),
    )?;
    let mut pl = launch.clone();
    pl["args"][PROBE] = json!({"buffer": {"dtype": ty.dtype().json_name(), "len": programs * n}});
    let l = parse_launch(&pl.to_string()).ok()?;
    let k = ksem_interp::elaborate_source("probe.py", &stored, &l, None).ok()?;
    let r = Backend::Interp
        .run(&k, &l, &RunOptions::default())
        .ok()
        .filter(|r| r.ub.is_empty())?;
    let b = r.buffers.iter().find(|b| b.name == PROBE)?;
    Some(Values {
        dtype: ty.dtype(),
        shape: ty.shape,
        bits: b.bits.clone(),
    })
}

/// The literal of one integer or bool element.
fn int_literal(d: DType, bits: u64) -> String {
    if d == DType::Bool {
        return if bits & 1 == 1 { "True" } else { "False" }.into();
    }
    let w = d.bits();
    if d.is_signed_int() && w < 64 && bits >> (w - 1) & 1 == 1 {
        format!("({})", bits as i64 - (1i64 << w))
    } else if d.is_signed_int() && w == 64 {
        format!("({})", bits as i64)
    } else {
        bits.to_string()
    }
}

/// A candidate: the source, the launch, and how many expressions the
/// replacement holds (the pass goes on after them).
pub(super) type Tile = (String, Json, usize);

/// The candidate that replaces expression `idx` (of statement `at`) by
/// ksem's values for it, `None` where no probe applies (a pointer, a
/// statement in a loop, a shape the probe cannot address).
pub(super) fn constant_tile(
    tree: &[ast::Stmt],
    src: &str,
    launch: &Json,
    idx: usize,
) -> Option<Tile> {
    let at = tree::stmt_of_expr(tree, idx)?;
    if tree::in_loop(tree, at) {
        return None;
    }
    let v = values(tree, src, launch, idx, at)?;
    let (pid, _) = program_id(launch)?;
    let uniform = v.bits.windows(2).all(|w| w[0] == w[1]);
    let mut t = tree.to_vec();
    let mut l = launch.clone();
    let replacement = if uniform && !v.dtype.is_float() && !v.shape.is_empty() {
        let dims: Vec<String> = v.shape.iter().map(|d| d.to_string()).collect();
        let shape = if dims.len() == 1 {
            format!("({},)", dims[0])
        } else {
            format!("({})", dims.join(", "))
        };
        format!(
            "tl.full({shape}, {}, dtype={})",
            int_literal(v.dtype, v.bits[0]),
            crate::fuzz::gen::tl_dtype(v.dtype)
        )
    } else {
        let used: Vec<String> = launch["args"]
            .as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default();
        let name = (1..)
            .map(|i| format!("ksem_c{i}_ptr"))
            .find(|n| !used.contains(n))?;
        let bits: Vec<Json> = v
            .bits
            .iter()
            .map(|&b| json!(hex_bits(v.dtype, b)))
            .collect();
        l["args"][&name] = json!({"buffer": {"dtype": v.dtype.json_name(), "bits": bits}});
        tree::add_param(tree::triton_kernel(&mut t)?, &name)?;
        format!("tl.load({name} + {})", tile_index(&pid, &v.shape)?)
    };
    let new = tree::expr(&replacement)?;
    let len = tree::count_exprs(&mut [tree::stmt(&replacement)?]);
    tree::walk_exprs(&mut t, &mut |e, i| {
        if i == idx {
            *e = new.clone();
        }
    });
    Some((super::unparse::module(&t, src), l, len))
}
