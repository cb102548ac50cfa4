//! The Triton dialect: source file → typed program.

mod atomic;
pub mod autotune;
mod block_ptr;
pub mod builtins;
mod combine;
mod descriptor;
mod dot;
pub mod elab;
pub mod heuristics;
mod imports;
mod index;
mod join;
pub mod module;
pub mod promote;
mod ptr_cast;
mod random;
mod scaled_dot;
mod shape;
mod standard;
pub mod types;
pub mod value;
pub mod version;

use crate::ir::Kernel;
use crate::launch::Launch;
use crate::span::{DResult, Diagnostic, Span};
pub use module::Module;

/// Picks the kernel to run: the one named (by `--kernel` or the launch), else
/// the only `@triton.jit` function no other one calls.
pub fn pick_kernel(m: &Module, name: Option<&str>) -> DResult<String> {
    let top = Span { line: 1, col: 1 };
    if let Some(n) = name {
        if m.funcs.contains_key(n) {
            return Ok(n.to_string());
        }
        return Err(
            Diagnostic::new(top, format!("no @triton.jit function named `{n}`"))
                .with_help(format!("the file defines: {}", m.func_order.join(", "))),
        );
    }
    let called: Vec<&String> = m
        .func_order
        .iter()
        .filter(|f| m.func_order.iter().any(|g| g != *f && calls(m, g, f)))
        .collect();
    let roots: Vec<&String> = m
        .func_order
        .iter()
        .filter(|f| !called.contains(f))
        .collect();
    match roots.as_slice() {
        [one] => Ok((*one).clone()),
        [] if m.func_order.is_empty() => {
            Err(Diagnostic::new(top, "the file has no @triton.jit function"))
        }
        _ => Err(
            Diagnostic::new(top, "the file has several kernels; say which one").with_help(format!(
                "pass --kernel NAME or \"kernel\" in the launch (one of: {})",
                m.func_order.join(", ")
            )),
        ),
    }
}

/// Whether the source text of function `g` mentions `name(` or passes
/// `name` as an argument (a combine function: `tl.reduce(x, 0, name)`):
/// enough to find the root kernel (elaboration resolves calls exactly).
fn calls(m: &Module, g: &str, name: &str) -> bool {
    use rustpython_parser::ast::Ranged;
    let f = &m.funcs[g];
    let body = &m.src[usize::from(f.start())..usize::from(f.end()).min(m.src.len())];
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    body.match_indices(name).any(|(i, _)| {
        let before = body[..i].chars().next_back();
        let after = body[i + name.len()..].trim_start().chars().next();
        !before.is_some_and(ident) && matches!(after, Some('(' | ',' | ')'))
    })
}

/// Elaborates a Triton kernel for a launch.
pub fn elaborate(m: &Module, launch: &Launch, kernel: Option<&str>) -> DResult<Kernel> {
    if let Some(d) = &m.import_error {
        return Err(d.clone());
    }
    let name = pick_kernel(m, kernel.or(launch.kernel.as_deref()))?;
    elab::Elab::new(m).kernel(&name, launch)
}
