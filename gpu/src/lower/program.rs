//! The lowered program: the generated source with what a launcher needs to
//! know about it (its signature, shared memory, block shape, launches), and
//! why a kernel cannot be lowered. Every other part of the lowering produces
//! these; `args`, `host`, `cuda` and `batch` consume them.

use ksem_interp::dtype::DType;
use ksem_interp::span::Span;

/// One argument slot of the generated kernel's signature, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgSlot {
    /// The device pointer of a buffer.
    Buffer {
        /// Index among the pointer params.
        buffer: usize,
    },
    /// The element count of a buffer, as `long long`.
    Len {
        /// Index among the pointer params.
        buffer: usize,
    },
    /// A scalar parameter, passed by value as its C type (`float`, `int`, …;
    /// the raw bits for float16, bfloat16 and fp8).
    Scalar {
        /// The kernel parameter's name.
        name: String,
        /// Its dtype.
        dtype: DType,
    },
    /// The inexact-flag array (one byte per element) of a buffer.
    Inexact {
        /// Index among the pointer params.
        buffer: usize,
    },
}

/// A buffer parameter of the kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferParam {
    /// The kernel parameter's name (the launch argument's name).
    pub name: String,
    /// The element dtype.
    pub dtype: DType,
    /// An output the kernel makes (`Kernel::fresh`): its element count, for
    /// a launch that passes no buffer of this name.
    pub fresh_len: Option<usize>,
}

/// The generated source and what a launcher needs to know about it.
#[derive(Clone, Debug)]
pub struct Lowered {
    /// The CUDA C++ source (compiles with NVRTC and, under the host prelude, with a C++ compiler).
    pub source: String,
    /// Name of the `__global__` function.
    pub entry: &'static str,
    /// Dynamic shared memory bytes the kernel needs per block (independent of `KSEM_THREADS`).
    pub smem_bytes: usize,
    /// The argument slots of the kernel's signature, in order.
    pub args: Vec<ArgSlot>,
    /// The buffer parameters, in order (index = buffer number).
    pub buffers: Vec<BufferParam>,
    /// Whether the signature ends with inexact-flag arrays.
    pub inexact_flags: bool,
    /// Bytes of per-thread arrays (tiles) the kernel declares with one thread
    /// per block; an upper bound for any block size.
    pub local_bytes: usize,
    /// SIMT programs: the block shape the source is written for (it must be
    /// launched with exactly these threads; `KSEM_THREADS` = their product).
    /// Tile programs run with any `KSEM_THREADS`.
    pub block: Option<[u32; 3]>,
    /// Blocks of the launch (the kernel's grid).
    pub grid: [u32; 3],
    /// The launches after the first (a kernel of several launches), run in
    /// order after `entry` with the same arguments.
    pub then: Vec<NextEntry>,
}

/// A launch after a kernel's first: its `__global__` function in the same
/// source, with the same signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NextEntry {
    /// Name of the `__global__` function.
    pub entry: String,
    /// Blocks of the launch.
    pub grid: [u32; 3],
    /// Threads per block of a SIMT launch (tile launches have the first's).
    pub block: Option<[u32; 3]>,
    /// Dynamic shared memory bytes per block.
    pub smem_bytes: usize,
}

impl Lowered {
    /// The `KSEM_THREADS` to compile with: a SIMT program's block size, or
    /// `tile` (any count runs a tile program correctly).
    pub fn threads(&self, tile: u32) -> u32 {
        self.block.map_or(tile, |b| b[0] * b[1] * b[2])
    }
}

/// Why a kernel cannot be lowered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LowerError {
    /// Where in the source.
    pub span: Span,
    /// What is not supported.
    pub message: String,
}

impl std::fmt::Display for LowerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.span, self.message)
    }
}

/// The result of a lowering step.
pub(crate) type LResult<T> = Result<T, LowerError>;

/// A lowering error at `span`.
pub(crate) fn err<T>(span: Span, message: impl Into<String>) -> LResult<T> {
    Err(LowerError {
        span,
        message: message.into(),
    })
}

/// The lowered body of one launch (a tile or a SIMT program): the C
/// statements after the variable declarations, and what they need.
pub(crate) struct Body {
    /// The C statements of the kernel body.
    pub code: String,
    /// Dynamic shared memory bytes the body needs per block.
    pub smem_bytes: usize,
    /// Bytes of the per-thread arrays the body declares (with one thread
    /// per block).
    pub local_bytes: usize,
}
