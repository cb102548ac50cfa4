//! Launch specs (which kernel, grid, arguments) and run results, as JSON.
//! The formats are DESIGN.md's "Interfaces" with the details of docs/formats.md.

mod parse;
mod record;
mod result;
mod time;
mod values;

pub use parse::{parse_launch, parse_launch_json, parse_launch_with};
pub use record::{layout_from_json, FieldKind, RecordField, RecordLayout};
pub use result::{hex_bits, BufferResult, RunResult, UbReport, UbSite};
pub use time::{TimeType, NAT};
pub use values::{value_bits, SplitMix64};

use crate::dtype::DType;

/// Largest number of program instances a launch may ask for.
pub const MAX_PROGRAMS: u64 = 1 << 24;
/// Largest number of threads of one block (CUDA's limit).
pub const MAX_BLOCK_THREADS: u64 = 1024;
/// Largest number of elements of one buffer.
pub const MAX_BUFFER_LEN: usize = 1 << 28;

/// Default cap on the buffer elements of one launch, all buffers together:
/// 2^26. Measured (release build, `ksem run`): about 20 bytes of memory per
/// element for a run, about 134 with `--json` (the result's bits as JSON
/// strings), so 1.3 GB and 9 GB at this cap; 2^28 elements would need 36 GB
/// with `--json`.
pub const MAX_LAUNCH_BUFFER_ELEMS: u64 = 1 << 26;

/// Caps on what a launch may ask for, checked while the launch JSON is read
/// and before anything is allocated, so that a launch too large for memory
/// gets a clear error instead of an out-of-memory kill. The defaults are
/// [`LaunchLimits::default`]; `ksem run/diff --max-programs/--max-buffer-elems`
/// raise or lower them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchLimits {
    /// Program instances (blocks) of the grid, all dimensions together.
    pub max_programs: u64,
    /// Buffer elements of the whole launch, all buffers together (each
    /// element is held as 8 bytes of bits, plus the interpreter's copies).
    pub max_buffer_elems: u64,
}

impl Default for LaunchLimits {
    fn default() -> Self {
        LaunchLimits {
            max_programs: MAX_PROGRAMS,
            max_buffer_elems: MAX_LAUNCH_BUFFER_ELEMS,
        }
    }
}

/// A compile-time constant argument value.
#[derive(Clone, Debug, PartialEq)]
pub enum ConstArg {
    Int(i128),
    Float(f64),
    Bool(bool),
    Str(String),
    None,
    /// A tuple (a JSON array): Triton's tuple-valued `tl.constexpr`
    /// arguments (`shape=(4, 8)`), elements of any of these kinds.
    Tuple(Vec<ConstArg>),
}

/// One kernel argument of a launch.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgSpec {
    /// A buffer with its initial contents as raw bits (bool as 0/1).
    Buffer {
        dtype: DType,
        bits: Vec<u64>,
        /// The array's shape (`"shape"`), row-major; `None`: one-dimensional.
        /// A complex buffer's shape counts complex elements (`Some([])`: a
        /// complex scalar).
        shape: Option<Vec<usize>>,
        /// Per element: whether it holds no defined value (`"init":
        /// "none"`, or `"undefined"` indices); `None`: all are defined.
        undefined: Option<Vec<bool>>,
        /// Complex elements (`"complex64"`/`"complex128"`): `bits` holds
        /// each element's real then imaginary part, of dtype `dtype`.
        complex: bool,
        /// Records (`"record"`): `bits` holds the array's bytes (`dtype`
        /// is uint8), `itemsize` bytes per record; `shape` and `undefined`
        /// count records (`undefined` is repeated for each byte).
        record: Option<std::sync::Arc<RecordLayout>>,
        /// A view into another buffer argument's memory (`{"view": …}`):
        /// two pointer arguments of one storage (`k(x, x[1:])`), so a
        /// write through one is read through the other. `bits` and
        /// `undefined` are a copy of the base's elements at parse time;
        /// the run uses the base's memory.
        view: Option<BufferView>,
        /// Fixed-size text (`"text": "S12"`/`"U12"`, a `FieldKind::Text`):
        /// `bits` holds the array's bytes (`dtype` is uint8), the kind's
        /// size per element; `shape` and `undefined` as for records.
        text: Option<FieldKind>,
        /// datetime64/timedelta64 elements (`dtype` is int64; a scalar of
        /// such a type is a 0-d buffer, `shape` `Some([])`).
        time: Option<TimeType>,
    },
    /// A runtime scalar with its bits.
    Scalar {
        dtype: DType,
        bits: u64,
    },
    Constexpr(ConstArg),
}

/// Where a view argument's elements are: `len` elements of the buffer
/// argument `of`, from element `offset`.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferView {
    /// The buffer argument whose memory the view reads and writes.
    pub of: String,
    /// The view's first element, in elements of the base.
    pub offset: usize,
}

/// A parsed launch spec.
#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    pub kernel: Option<String>,
    /// Blocks (`"grid"`); may be left out where the kernel's source fixes it.
    pub grid: Option<[u32; 3]>,
    /// Threads per block (`"block"`), for SIMT dialects.
    pub block: Option<[u32; 3]>,
    /// Arguments of a kernel factory (`"factory_args"`), by name.
    pub factory_args: Vec<(String, ConstArg)>,
    /// Arguments by name, in the order given.
    pub args: Vec<(String, ArgSpec)>,
    /// Which `@triton.autotune` config runs (`"config"`); the first where
    /// none is given.
    pub config: Option<ConfigChoice>,
    /// The GPU the kernel's host code asks about (`"target"`).
    pub target: Target,
    /// Bytes of dynamic shared memory per block (`"shared_bytes"`: CUDA
    /// Python's fourth launch configuration element, what
    /// `cuda.shared.array(0, dtype)` arrays hold).
    pub shared_bytes: u64,
    /// Module-level arrays a kernel reads as constant memory
    /// (`"constants"`: CUDA Python's `cuda.const.array_like(NAME)`), by
    /// name; buffers like arguments.
    pub constants: Vec<(String, ArgSpec)>,
}

/// The GPU that host code's device queries describe (`driver.get_num_sms()`,
/// `torch.cuda.get_device_capability()`): ksem runs on a CPU, so a launch
/// states the device (`"target"`), by default an H100 SXM; and the Triton
/// release whose language rules apply where they changed after 3.6.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// Streaming multiprocessors (`"num_sms"`).
    pub num_sms: u32,
    /// Compute capability, major and minor (`"capability": [9, 0]`).
    pub capability: (u32, u32),
    /// Triton release, major and minor (`"triton": "3.9"`): the drop-in of
    /// an installed Triton states its version; by default 3.6, the release
    /// measured on the GPU (`docs/semantics.md`, "Triton versions").
    pub triton: (u32, u32),
}

/// The Triton release ksem's Triton rules were measured on, and the
/// earliest a launch may name.
pub const TRITON_BASE_VERSION: (u32, u32) = (3, 6);

impl Default for Target {
    /// An H100 SXM: 132 SMs, compute capability 9.0; Triton 3.6.
    fn default() -> Self {
        Target {
            num_sms: 132,
            capability: (9, 0),
            triton: TRITON_BASE_VERSION,
        }
    }
}

/// `"config"` of a launch: a `@triton.autotune` config by its position in
/// the `configs` list, or by its meta-parameter values.
#[derive(Clone, Debug, PartialEq)]
pub enum ConfigChoice {
    Index(usize),
    Values(Vec<(String, ConstArg)>),
}

impl Launch {
    /// The argument named `name`, else the constant array of that name.
    pub fn arg(&self, name: &str) -> Option<&ArgSpec> {
        self.args
            .iter()
            .chain(&self.constants)
            .find(|(n, _)| n == name)
            .map(|(_, a)| a)
    }
}
