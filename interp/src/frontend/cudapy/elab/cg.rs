//! Cooperative groups: `cuda.cg.this_grid()` and its `sync()`, a barrier
//! of every thread of the grid. numba-cuda launches such a kernel
//! cooperatively (all its blocks resident at once). ksem runs the blocks of
//! a launch one after another, so it runs a grid barrier where the grid is
//! one block (there it is the block's barrier, `cuda.syncthreads()`) and
//! refuses it, with its position, on a grid of several blocks.

use super::*;

/// The value `cuda.cg.this_grid()` stands for.
const GRID_GROUP: &str = "numba.cuda.cg.<grid group>";

impl Elab<'_> {
    /// `cuda.cg.this_grid()` and `g.sync()`; `None` for other paths.
    pub(super) fn cooperative(&mut self, call: Call) -> DResult<Option<Val>> {
        let (f, span) = (call.name, call.span);
        let what = match f {
            "cg.this_grid" => "cuda.cg.this_grid()",
            "cg.<grid group>.sync" => "g.sync()",
            _ => return Ok(None),
        };
        call.positional(what, (0, 0))?;
        if f == "cg.this_grid" {
            return Ok(Some(Val::Path(GRID_GROUP.to_string())));
        }
        let [x, y, z] = self.grid;
        if u64::from(x) * u64::from(y) * u64::from(z) != 1 {
            return Err(Diagnostic::new(
                span,
                format!("a grid-wide barrier on a grid of {x}×{y}×{z} blocks is not supported: ksem runs the blocks of a launch one after another, so they cannot all wait here"),
            )
            .with_help("launch one block (the barrier is then the block's), or split the kernel into two launches at the barrier"));
        }
        self.emit(Stmt::Barrier { span });
        Ok(Some(Val::None))
    }
}
