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
pub mod named;
pub mod promote;
mod ptr_cast;
mod random;
mod scaled_dot;
mod shape;
mod standard;
pub mod types;
pub mod value;
pub mod version;

use super::py::pick;
use crate::ir::Kernel;
use crate::launch::Launch;
use crate::span::DResult;
pub use module::Module;

/// Picks the kernel to run: the one named (by `--kernel` or the launch), else
/// the only `@triton.jit` function no other one calls.
pub fn pick_kernel(m: &Module, name: Option<&str>) -> DResult<String> {
    let defined: Vec<&str> = m.func_order.iter().map(|s| s.as_str()).collect();
    let called = |f: &str| defined.iter().any(|g| *g != f && calls(m, g, f));
    // functions that all call one another: none is the root, each is a kernel
    let all_called = defined.iter().all(|f| called(f));
    let words = pick::Words {
        function: "@triton.jit function",
        kernel: "@triton.jit function",
    };
    pick::pick_kernel(name, &defined, |f| all_called || !called(f), words)
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
