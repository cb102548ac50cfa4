//! Lowering of a typed kernel to one self-contained CUDA C++ source.
//!
//! Values are held as the raw bits of their dtype (the storage width: 8, 16,
//! 32 or 64 bits; pointers as `buffer << 48 | offset` as in the interpreter)
//! and every operation is a call into the runtime of `runtime.cuh`, which
//! reproduces ksem-interp's `ops.rs` bit for bit.
//!
//! The parts, each importing only those listed before it:
//! - `program`: the lowered program ([`Lowered`]) and [`LowerError`];
//! - `scalar`: the C expression of one element operation, and the C names
//!   and types of values;
//! - `tile`: a tile program (Triton's model) as one thread block per
//!   program instance, tiles spread over the block's threads;
//! - `simt`: a SIMT program, every IR thread one CUDA thread;
//! - `source`: one launch's body wrapped into a whole source (the runtime,
//!   the signature, the host entry), and the text operations that put
//!   several kernels into one source;
//! - `sequence`: a kernel of several launches ([`Kernel::then`]) as one
//!   source with one `__global__` function per launch, run in order on the
//!   same stream.

use ksem_interp::ir::Kernel;

mod program;
mod scalar;
mod sequence;
mod simt;
mod source;
mod tile;

pub use program::{ArgSlot, BufferParam, LowerError, Lowered, NextEntry};
pub use scalar::c_elem_type;
pub use source::RUNTIME;
pub(crate) use source::{push_renamed, split_runtime};

/// Generates the CUDA C++ source of a kernel. Constructs the lowering does not
/// support produce a source with an `#error` line that names them.
pub fn emit_cuda(k: &Kernel) -> String {
    match lower(k) {
        Ok(l) => l.source,
        Err(e) => format!(
            "// ksem: kernel `{}` cannot be lowered\n#error \"ksem: line {}:{}: {}\"\n",
            k.name,
            e.span.line,
            e.span.col,
            e.message.replace(['"', '\\'], "'")
        ),
    }
}

/// Lowers a kernel; see the module documentation for the generated code's shape.
pub fn lower(k: &Kernel) -> Result<Lowered, LowerError> {
    if !k.then.is_empty() {
        return sequence::lower(k);
    }
    let inexact = crate::inexact::Inexact::analyze(k);
    let flags = inexact.any_buffer();
    source::lower_launch(k, &inexact, flags)
}
