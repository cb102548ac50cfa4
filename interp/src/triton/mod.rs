//! The Triton dialect: source file → typed program.

pub mod builtins;
pub mod elab;
pub mod module;
pub mod promote;
pub mod value;

use crate::launch::Launch;
use crate::span::{DResult, Diagnostic, Span};
use crate::typed::Kernel;
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
        .filter(|f| {
            m.func_order
                .iter()
                .any(|g| g != *f && calls(&m.funcs[g.as_str()].body, f))
        })
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

fn calls(body: &[rustpython_parser::ast::Stmt], name: &str) -> bool {
    // A textual check is enough to find the root kernel.
    format!("{body:?}").contains(&format!("id: Identifier(\"{name}\")"))
}

/// Elaborates a Triton kernel for a launch.
pub fn elaborate(m: &Module, launch: &Launch, kernel: Option<&str>) -> DResult<Kernel> {
    let name = pick_kernel(m, kernel.or(launch.kernel.as_deref()))?;
    elab::Elab::new(m).kernel(&name, launch)
}
