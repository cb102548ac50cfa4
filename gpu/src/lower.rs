//! Lowering of a typed kernel to one self-contained CUDA C++ source.
//!
//! Execution model: every program instance is one thread block
//! (`blockIdx` = program id, `gridDim` = number of programs) of
//! `KSEM_THREADS` threads, a compile-time constant chosen by whoever compiles
//! the source (any value ≥ 1 is correct). A tile of n elements lives in
//! per-thread arrays `T v[KSEM_SLOTS(n)]`: element i belongs to thread
//! `i % KSEM_THREADS`, slot `i / KSEM_THREADS`. Element-wise operations loop
//! over a thread's own slots; 0-d values are uniform scalars that every thread
//! holds. Operations that move values between elements (broadcast of a tile,
//! permute, reductions, extracting a scalar from a one-element tile) go
//! through shared memory between `__syncthreads()`. Control flow depends only
//! on 0-d values, so every thread takes the same path and the barriers inside
//! it are reached by all threads.
//!
//! Values are held as the raw bits of their dtype (the storage width: 8, 16,
//! 32 or 64 bits; pointers as `buffer << 48 | offset` as in the interpreter)
//! and every operation is a call into the runtime of `runtime.cuh`, which
//! reproduces ksem-interp's `ops.rs` bit for bit.
//!
//! Kernel signature (`extern "C" __global__ void ksem_kernel(...)`): for each
//! kernel parameter in order, a pointer parameter is a typed device pointer
//! followed by the buffer's length as `long long`; a scalar parameter is passed
//! by value; constexprs are folded away. When some store may write an inexact
//! value ([`Lowered::inexact_flags`]), one `unsigned char*` per pointer
//! parameter follows (same length as its buffer), into which every store
//! writes 1 where the stored value may be inexact and 0 otherwise.
//!
//! A kernel of several launches ([`Kernel::then`]) becomes one source with
//! one `__global__` function per launch, all of the same signature, run in
//! order on the same stream (`sequence`).

use crate::ids::{self, cmp_id, shift_range_id};
use crate::inexact::Inexact;
use ksem_interp::dtype::DType;
use ksem_interp::float::{Overflow, Rounding};
use ksem_interp::ir::*;
use ksem_interp::span::Span;
use std::fmt::Write as _;

mod combine;
mod sequence;

/// The CUDA element runtime included at the top of every generated source.
/// The runtime every generated source starts with: the generated ids
/// (`ids.rs`), then `runtime.cuh`.
pub static RUNTIME: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("{}{}", ids::header(), include_str!("runtime.cuh")));

/// The C macro of a dtype's runtime id.
pub(crate) fn dt(d: DType) -> &'static str {
    ids::dtype_macro(d)
}

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
    let inexact = Inexact::analyze(k);
    let flags = inexact.any_buffer();
    lower_launch(k, inexact, flags)
}

/// Lowers a kernel of one launch whose stores may write inexact values as
/// `inexact` says; `inexact_flags`: whether the signature ends with the
/// inexact-flag arrays (every launch of a kernel has the same signature).
fn lower_launch(k: &Kernel, inexact: Inexact, inexact_flags: bool) -> Result<Lowered, LowerError> {
    let mut buffers = Vec::new();
    let mut args = Vec::new();
    let mut params_c = Vec::new();
    let mut call_c = Vec::new();
    let mut var_init = Vec::new();
    for p in &k.params {
        let cname = format!("arg_{}", ident(&p.name));
        match p.kind {
            ParamKind::Pointer(d) => {
                let b = buffers.len();
                buffers.push(BufferParam {
                    name: p.name.clone(),
                    dtype: d,
                    fresh_len: k.fresh.iter().find(|(n, _)| *n == p.name).map(|f| f.1),
                });
                args.push(ArgSlot::Buffer { buffer: b });
                args.push(ArgSlot::Len { buffer: b });
                params_c.push(format!("{}* {cname}", c_elem_type(d)));
                params_c.push(format!("long long {cname}_len"));
                call_c.push(format!("*({}**)a[{}]", c_elem_type(d), call_c.len()));
                call_c.push(format!("*(long long*)a[{}]", call_c.len()));
                if let Some(v) = p.var {
                    var_init.push((v, format!("{:#x}ull", (b as u64) << 48), b));
                }
            }
            ParamKind::Scalar(d) => {
                args.push(ArgSlot::Scalar {
                    name: p.name.clone(),
                    dtype: d,
                });
                params_c.push(format!("{} {cname}", c_elem_type(d)));
                call_c.push(format!("*({}*)a[{}]", c_elem_type(d), call_c.len()));
                if let Some(v) = p.var {
                    var_init.push((v, scalar_bits_expr(d, &cname), usize::MAX));
                }
            }
            ParamKind::Constexpr => {}
        }
    }
    if inexact_flags {
        for (b, bp) in buffers.iter().enumerate() {
            args.push(ArgSlot::Inexact { buffer: b });
            params_c.push(format!("ku8* ksem_inexact_{}", ident(&bp.name)));
            call_c.push(format!("*(ku8**)a[{}]", call_c.len()));
        }
    }

    let (body, smem, body_local_bytes, block) = match k.model {
        Model::Tile => {
            let mut lw = Lower {
                k,
                inexact,
                out: String::new(),
                indent: 1,
                tmp: 0,
                smem: 0,
                no_sync: 0,
                last_span: Span::default(),
                local_bytes: 0,
            };
            lw.block(&k.body)?;
            (std::mem::take(&mut lw.out), lw.smem, lw.local_bytes, None)
        }
        Model::Simt => {
            let block = k.block;
            let b = crate::lower_simt::body(k, &inexact)?;
            (b.code, b.smem_bytes, b.local_bytes, Some(block))
        }
    };

    let nb = buffers.len().max(1);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// ksem: CUDA C++ lowering of {} kernel `{}`.",
        match k.model {
            Model::Tile => "tile",
            Model::Simt => "SIMT",
        },
        k.name
    );
    let _ = writeln!(
        s,
        "{}",
        match block {
            None => format!("// Compile with -DKSEM_THREADS=N (any N >= 1); launch grid = the program grid, {smem} bytes of dynamic shared memory."),
            Some(b) => format!("// Launch with blocks of {}x{}x{} threads (compile with -DKSEM_THREADS={}).", b[0], b[1], b[2], b[0] * b[1] * b[2]),
        }
    );
    s.push_str(&RUNTIME);
    s.push('\n');
    let _ = writeln!(s, "#define KSEM_SMEM_BYTES {}", smem.max(16));
    let _ = writeln!(
        s,
        "extern \"C\" __global__ void ksem_kernel({}) {{",
        if params_c.is_empty() {
            "void".to_string()
        } else {
            params_c.join(", ")
        }
    );
    let list = |f: &dyn Fn(usize, &BufferParam) -> String| -> String {
        if buffers.is_empty() {
            "0".into()
        } else {
            buffers
                .iter()
                .enumerate()
                .map(|(i, b)| f(i, b))
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    let _ = writeln!(
        s,
        "  void* const ksem_buf[{nb}] = {{{}}};",
        list(&|_, b| format!("(void*)arg_{}", ident(&b.name)))
    );
    let _ = writeln!(
        s,
        "  const long long ksem_len[{nb}] = {{{}}};",
        list(&|_, b| format!("arg_{}_len", ident(&b.name)))
    );
    if inexact_flags {
        let _ = writeln!(
            s,
            "  ku8* const ksem_ix[{nb}] = {{{}}};",
            list(&|_, b| format!("ksem_inexact_{}", ident(&b.name)))
        );
    }
    let _ = writeln!(
        s,
        "  const ksem_mem ksem_m = {{ksem_buf, ksem_len, {}, {}}};",
        if inexact_flags { "ksem_ix" } else { "nullptr" },
        buffers.len()
    );
    s.push_str("  ku64 ksem_iters = 0;\n");
    if smem > 0 {
        s.push_str("#ifdef KSEM_HOST\n  __shared__ __align__(16) ku8 ksem_smem[KSEM_SMEM_BYTES];\n#else\n  extern __shared__ __align__(16) ku8 ksem_smem[];\n#endif\n");
    }
    s.push_str("  // variables\n");
    let mut var_bytes = 0;
    for (v, (name, ty)) in k.vars.iter().enumerate() {
        let cty = storage_type(ty);
        let init = var_init.iter().find(|(iv, _, _)| *iv == v);
        let vn = var_name(k, v);
        let comment = match init {
            Some((_, _, b)) if *b != usize::MAX => format!("  // {name}: buffer {b}"),
            Some(_) => format!("  // {name}: scalar argument"),
            None => format!("  // {name}: {ty}"),
        };
        if ty.shape.is_empty() {
            let val = init.map_or("0".to_string(), |(_, e, _)| e.clone());
            let _ = writeln!(s, "  {cty} {vn} = {val};{comment}");
        } else {
            var_bytes += ty.numel() * storage_bytes(ty);
            let _ = writeln!(
                s,
                "  {cty} {vn}[KSEM_SLOTS({})] = {{}};{comment}",
                ty.numel()
            );
        }
    }
    s.push_str("  // body\n");
    s.push_str(&body);
    s.push_str("}\n\n");
    s.push_str("#ifdef KSEM_HOST\n");
    s.push_str("// Host entry: a[i] points to the i-th kernel argument (as for cuLaunchKernel);\n");
    s.push_str("// every thread gets `stack` bytes of stack. Returns 0 or an errno.\n");
    let _ = writeln!(
        s,
        "static void ksem_host_body(void** a) {{ ksem_kernel({}); }}",
        call_c.join(", ")
    );
    s.push_str("extern \"C\" int ksem_host_launch(void** a, unsigned gx, unsigned gy, unsigned gz, unsigned long long stack) {\n");
    let (bx, by, bz) = match block {
        None => ("KSEM_THREADS".to_string(), 1, 1),
        Some(b) => (b[0].to_string(), b[1], b[2]),
    };
    let _ = writeln!(
        s,
        "  return ksem_host_grid(gx, gy, gz, {bx}, {by}, {bz}, stack, ksem_host_body, a);"
    );
    s.push_str("}\n#endif\n");

    Ok(Lowered {
        source: s,
        entry: "ksem_kernel",
        smem_bytes: smem,
        local_bytes: body_local_bytes + var_bytes,
        block,
        grid: k.grid,
        args,
        buffers,
        inexact_flags,
        then: Vec::new(),
    })
}

/// A lowered value: a 0-d C expression (uniform), the name of a tile array
/// of `n` elements, or (`fused`) a pure C expression of slot `j` giving a
/// tile's element, which its consumer evaluates inside its own slot loop.
#[derive(Clone, Debug)]
struct Val {
    name: String,
    n: Option<usize>,
    fused: bool,
}

impl Val {
    fn scalar(name: String) -> Val {
        Val {
            name,
            n: None,
            fused: false,
        }
    }
    fn tile(name: String, n: usize) -> Val {
        Val {
            name,
            n: Some(n),
            fused: false,
        }
    }
    /// The value at slot `j` (tiles) or the uniform value.
    fn at(&self) -> String {
        match self.n {
            Some(_) if !self.fused => format!("{}[j]", self.name),
            _ => self.name.clone(),
        }
    }
}

struct Lower<'a> {
    k: &'a Kernel,
    inexact: Inexact,
    out: String,
    indent: usize,
    tmp: usize,
    /// Largest shared-memory footprint of any operation, in bytes.
    smem: usize,
    /// > 0 while lowering code that runs in divergent per-element loops (custom combiners).
    no_sync: usize,
    /// Span of the last line emitted (for statements without a span of their own).
    last_span: Span,
    /// Bytes of the tile temporaries declared (with one thread per block).
    local_bytes: usize,
}

pub(crate) type LResult<T> = Result<T, LowerError>;

pub(crate) fn err<T>(span: Span, message: impl Into<String>) -> LResult<T> {
    Err(LowerError {
        span,
        message: message.into(),
    })
}

/// A C identifier made of a Python name.
pub(crate) fn ident(name: &str) -> String {
    let mut s = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            s.push(c);
        } else {
            let _ = write!(s, "_u{:x}_", c as u32);
        }
    }
    s
}

pub(crate) fn var_name(k: &Kernel, v: VarId) -> String {
    format!("v{v}_{}", ident(&k.vars[v].0))
}

/// The unsigned C type holding the bits of a dtype.
pub(crate) fn bits_type(d: DType) -> &'static str {
    match d.storage_bits() {
        8 => "ku8",
        16 => "ku16",
        32 => "ku32",
        _ => "ku64",
    }
}

/// The C type holding a value of a type (pointers: 64-bit encoded).
pub(crate) fn storage_type(ty: &Type) -> &'static str {
    match ty.elem {
        Elem::Ptr(..) => "ku64",
        Elem::Num(d) => bits_type(d),
    }
}

fn storage_bytes(ty: &Type) -> usize {
    match ty.elem {
        Elem::Ptr(..) => 8,
        Elem::Num(d) => d.storage_bits() as usize / 8,
    }
}

/// The C element type of buffers and scalar arguments of a dtype.
pub fn c_elem_type(d: DType) -> &'static str {
    match d {
        DType::F32 => "float",
        DType::F64 => "double",
        DType::I8 => "signed char",
        DType::I16 => "short",
        DType::I32 => "int",
        DType::I64 => "long long",
        DType::U16 | DType::F16 | DType::BF16 => "unsigned short",
        DType::U32 => "unsigned int",
        DType::U64 => "unsigned long long",
        DType::Bool | DType::U8 | DType::F8E4Nv | DType::F8E5 => "unsigned char",
    }
}

/// The bits of a scalar argument held in C variable `name`.
fn scalar_bits_expr(d: DType, name: &str) -> String {
    match d {
        DType::F32 => format!("(ku32)__float_as_uint({name})"),
        DType::F64 => format!("(ku64)__double_as_longlong({name})"),
        DType::Bool => format!("(ku8)({name} != 0)"),
        _ => format!("({})({name})", bits_type(d)),
    }
}

/// The C expression of unary `op` on the bits `a` of a `d` value.
pub(crate) fn unary_c(op: UnOp, d: DType, a: &str) -> String {
    match op {
        UnOp::Not => format!("ksem_inot<{}>({a})", dt(d)),
        UnOp::LogicalNot => format!("({a} == 0 ? 1ull : 0ull)"),
        UnOp::Neg if d.is_float() => format!("({a} ^ ksignbit({}))", dt(d)),
        UnOp::Neg => format!("((0ull - {a}) & kmask({}))", dt(d)),
        UnOp::Math(_) if d.is_int() => format!("ksem_iabs<{}>({a})", dt(d)),
        UnOp::Math(f) => format!("ksem_math<{}>({}, {a})", dt(d), ids::math_macro(f)),
        UnOp::Ieee(o, r) => format!(
            "ksem_ieee1<{}>({}, {}, {a})",
            dt(d),
            ieee_unary_id(o),
            rounding_id(r)
        ),
    }
}

/// The C expression of `a * b + c` of dtype `d` rounded once by `r`.
pub(crate) fn fma_c(d: DType, r: Rounding, a: &str, b: &str, c: &str) -> String {
    match r {
        Rounding::NearestEven => format!("ksem_fma<{}>({a}, {b}, {c})", dt(d)),
        r => format!(
            "ksem_ieee_fma<{}>({}, {a}, {b}, {c})",
            dt(d),
            rounding_id(r)
        ),
    }
}

/// The runtime's number for a rounded unary operation (`ksem_ieee1`).
fn ieee_unary_id(o: IeeeUnary) -> u8 {
    match o {
        IeeeUnary::Sqrt => 0,
        IeeeUnary::Rcp => 1,
        IeeeUnary::Rsqrt => 2,
    }
}

/// The runtime's number for a rounding mode (0 rn, 1 rz, 2 ru, 3 rd).
fn rounding_id(r: Rounding) -> u8 {
    match r {
        Rounding::NearestEven => 0,
        Rounding::TowardZero => 1,
        Rounding::Up => 2,
        Rounding::Down => 3,
    }
}

/// The C expression of a conversion of the bits `a` from `from` to `to`.
pub(crate) fn cast_c(kind: CastKind, from: DType, to: DType, a: &str) -> String {
    match kind {
        CastKind::Bitcast => format!("ksem_bitcast<{}, {}>({a})", dt(from), dt(to)),
        CastKind::Convert(r, o) => format!(
            "ksem_cvt<{}, {}>({a}, {}, {})",
            dt(from),
            dt(to),
            r == Rounding::TowardZero,
            o == Overflow::Saturate
        ),
    }
}

/// The C expression of binary `op` on the bits `x`, `y` of operands of
/// type `aty` and (for pointer offsets) dtype `od`; each operand is used once.
pub(crate) fn binary_c(
    op: BinOp,
    aty: &Type,
    od: DType,
    x: &str,
    y: &str,
    span: Span,
) -> LResult<String> {
    let d = aty.dtype();
    let dd = dt(d);
    let op = &op;
    Ok(if *op == BinOp::PtrAdd {
        format!("ksem_ptradd<{}>({x}, {y})", dt(od))
    } else if *op == BinOp::PtrDiff {
        format!("ksem_ptrdiff({x}, {y})")
    } else if *op == BinOp::PtrAddBytes {
        format!(
            "ksem_ptraddbytes<{}, {}>({x}, {y})",
            dt(od),
            d.bits().div_ceil(8)
        )
    } else if aty.is_ptr() {
        if !op.is_comparison() {
            return err(span, format!("{op:?} on pointers"));
        }
        format!("(ku64)ksem_icmp<KU64>({}, {x}, {y})", cmp_id(*op))
    } else if d.is_float() {
        match op {
            BinOp::Add => format!("ksem_fadd<{dd}>({x}, {y})"),
            BinOp::Sub => format!("ksem_fsub<{dd}>({x}, {y})"),
            BinOp::Mul => format!("ksem_fmul<{dd}>({x}, {y})"),
            BinOp::FDiv => format!("ksem_fdiv<{dd}>({x}, {y})"),
            BinOp::FRem => format!("ksem_frem<{dd}>({x}, {y})"),
            BinOp::Pow => format!("ksem_pow<{dd}>({x}, {y})"),
            BinOp::Atan2 => format!("ksem_atan2<{dd}>({x}, {y})"),
            BinOp::Hypot => format!("ksem_hypot<{dd}>({x}, {y})"),
            BinOp::CopySign => format!("ksem_copysign<{dd}>({x}, {y})"),
            BinOp::Ieee(o, r) => format!(
                "ksem_ieee2<{dd}>({}, {}, {x}, {y})",
                *o as u8,
                rounding_id(*r)
            ),
            BinOp::Min(m) | BinOp::Max(m) => format!(
                "ksem_fminmax<{dd}>({x}, {y}, {}, {})",
                matches!(op, BinOp::Max(_)),
                *m == NanMode::Propagate
            ),
            op if op.is_comparison() => {
                format!("(ku64)ksem_fcmp<{dd}>({}, {x}, {y})", cmp_id(*op))
            }
            _ => return err(span, format!("{op:?} on {d}")),
        }
    } else {
        match op {
            BinOp::Add => format!("ksem_iadd<{dd}>({x}, {y})"),
            BinOp::Sub => format!("ksem_isub<{dd}>({x}, {y})"),
            BinOp::Mul => format!("ksem_imul<{dd}>({x}, {y})"),
            BinOp::IDiv(r) | BinOp::IRem(r) => format!(
                "ksem_idivrem<{dd}>({x}, {y}, {}, {})",
                r.round == DivRound::Floor,
                matches!(op, BinOp::IRem(_))
            ),
            BinOp::And => format!("({x} & {y})"),
            BinOp::Or => format!("({x} | {y})"),
            BinOp::Xor => format!("({x} ^ {y})"),
            BinOp::Shl(r) => {
                format!("ksem_shl<{dd}>({x}, {y}, {})", shift_range_id(*r))
            }
            BinOp::Shr(k, r) => format!(
                "ksem_shr<{dd}>({x}, {y}, {}, {})",
                *k == ShrKind::Arith,
                shift_range_id(*r)
            ),
            BinOp::Min(_) => format!("ksem_imin<{dd}>({x}, {y})"),
            BinOp::Max(_) => format!("ksem_imax<{dd}>({x}, {y})"),
            BinOp::LogicalAnd => format!("(({x} != 0 && {y} != 0) ? 1ull : 0ull)"),
            BinOp::LogicalOr => format!("(({x} != 0 || {y} != 0) ? 1ull : 0ull)"),
            op if op.is_comparison() => {
                format!("(ku64)ksem_icmp<{dd}>({}, {x}, {y})", cmp_id(*op))
            }
            _ => return err(span, format!("{op:?} on {d}")),
        }
    })
}

/// The C lines of a Python `range(lo, hi, st)` loop over variable `var` of
/// dtype `d` with temporaries `t`: the trip count, the loop header (its body
/// follows, then `}`), the iteration guard and the variable's update.
pub(crate) fn range_loop(
    var: &str,
    d: DType,
    [lo, hi, st]: [&str; 3],
    t: &[String; 4],
) -> [String; 4] {
    let [tl, ts, tn, it] = t;
    [
        format!(
            "const ku64 {tl} = {lo}, {ts} = {st}, {tn} = ksem_trip_count<{}>({tl}, {hi}, {ts});",
            dt(d)
        ),
        format!("for (ku64 {it} = 0; {it} < {tn}; ++{it}) {{"),
        "if (++ksem_iters > KSEM_MAX_ITERS) return;".to_string(),
        format!("{var} = ({tl} + {it} * {ts}) & kmask({});", dt(d)),
    ]
}

/// Row-major strides of a shape.
fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * shape[i + 1];
    }
    s
}

/// C expression of coordinate `axis` of flat element index `idx` in `shape`.
fn coord(idx: &str, shape: &[usize], axis: usize) -> String {
    let st = strides(shape)[axis];
    let q = if st == 1 {
        idx.to_string()
    } else {
        format!("({idx} / {st})")
    };
    if axis == 0 {
        q
    } else {
        format!("({q} % {})", shape[axis])
    }
}

/// Sum of C terms (or "0").
fn sum_terms(terms: Vec<String>) -> String {
    if terms.is_empty() {
        "0".into()
    } else {
        terms.join(" + ")
    }
}

/// Combining code of a builtin combiner on shared values `s[ia]`, `s[ib]` (and indices `x[ia]`, `x[ib]`).
fn builtin_combine(c: &Combiner, d: DType, s: &str, x: &str) -> String {
    let dd = dt(d);
    let f = d.is_float();
    let a = format!("{s}[ia]");
    let b = format!("{s}[ib]");
    match c {
        Combiner::Sum if f => format!("{a} = ksem_fadd<{dd}>({a}, {b});"),
        Combiner::Sum => format!("{a} = ksem_iadd<{dd}>({a}, {b});"),
        Combiner::Max(m) | Combiner::Min(m) => {
            let max = matches!(c, Combiner::Max(_));
            if f {
                format!(
                    "{a} = ksem_fminmax<{dd}>({a}, {b}, {max}, {});",
                    *m == NanMode::Propagate
                )
            } else {
                format!(
                    "{a} = ksem_{}<{dd}>({a}, {b});",
                    if max { "imax" } else { "imin" }
                )
            }
        }
        Combiner::Xor => format!("{a} = {a} ^ {b};"),
        Combiner::ArgMax { .. } | Combiner::ArgMin { .. } => {
            let max = matches!(c, Combiner::ArgMax { .. });
            format!(
                "if (!ksem_arg_keep_a<{dd}>({max}, {a}, {x}[ia], {b}, {x}[ib])) {{ {a} = {b}; {x}[ia] = {x}[ib]; }}"
            )
        }
        Combiner::Custom { .. } => unreachable!("custom combiners are lowered by the caller"),
    }
}

impl<'a> Lower<'a> {
    fn line(&mut self, code: &str, span: Span) {
        self.last_span = span;
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(code);
        let _ = writeln!(self.out, "  // line {}:{}", span.line, span.col);
    }

    fn fresh(&mut self) -> String {
        self.tmp += 1;
        format!("t{}", self.tmp)
    }

    fn need_smem(&mut self, bytes: usize) {
        self.smem = self.smem.max(bytes.div_ceil(16) * 16);
    }

    fn sync(&mut self, span: Span) -> LResult<()> {
        if self.no_sync > 0 {
            return err(
                span,
                "this operation moves values between elements, which a custom combine function cannot do on the GPU",
            );
        }
        self.line("__syncthreads();", span);
        Ok(())
    }

    fn block(&mut self, b: &Block) -> LResult<()> {
        for s in b {
            self.stmt(s)?;
        }
        Ok(())
    }

    fn assign_var(&mut self, v: VarId, val: &Val, span: Span) {
        let vn = var_name(self.k, v);
        match &self.k.vars[v].1.shape[..] {
            [] => self.line(&format!("{vn} = {};", val.at()), span),
            shape => {
                let n: usize = shape.iter().product();
                if val.n.is_some() && val.name == vn {
                    return;
                }
                self.line(&format!("KSEM_FOR({n}) {vn}[j] = {};", val.at()), span);
            }
        }
    }

    fn stmt(&mut self, s: &Stmt) -> LResult<()> {
        match s {
            // a product on arrays is its loop nest (`Stmt::Gemm`)
            Stmt::Gemm(g) => {
                for s in &g.body {
                    self.stmt(s)?;
                }
            }
            Stmt::Let(v, e) => {
                let val = self.expr(e)?;
                self.assign_var(*v, &val, e.span);
            }
            Stmt::Store {
                ptr,
                value,
                mask,
                span,
            } => {
                let p = self.expr(ptr)?;
                let v = self.expr(value)?;
                let m = match mask {
                    Some(m) => Some(self.expr(m)?),
                    None => None,
                };
                let d = ptr.ty.dtype();
                let flag = self.inexact.expr(value);
                let cond = m.as_ref().map(|m| format!("{} != 0", m.at()));
                self.sync(*span)?;
                let st = format!(
                    "ksem_st<{}>(ksem_m, {}, {}, {flag});",
                    dt(d),
                    p.at(),
                    v.at()
                );
                match ptr.ty.shape.len() {
                    0 => {
                        let c = match cond {
                            Some(c) => format!("KSEM_TID == 0 && {c}"),
                            None => "KSEM_TID == 0".into(),
                        };
                        self.line(&format!("if ({c}) {st}"), *span);
                    }
                    _ => {
                        let n = ptr.ty.numel();
                        match cond {
                            Some(c) => self.line(&format!("KSEM_FOR({n}) if ({c}) {st}"), *span),
                            None => self.line(&format!("KSEM_FOR({n}) {st}"), *span),
                        }
                    }
                }
                self.sync(*span)?;
            }
            Stmt::If {
                cond,
                then_body,
                else_body,
            } => {
                let c = self.expr(cond)?;
                self.line(&format!("if ({} != 0) {{", c.at()), cond.span);
                self.indent += 1;
                self.block(then_body)?;
                self.indent -= 1;
                if else_body.is_empty() {
                    self.line("}", cond.span);
                } else {
                    self.line("} else {", cond.span);
                    self.indent += 1;
                    self.block(else_body)?;
                    self.indent -= 1;
                    self.line("}", cond.span);
                }
            }
            Stmt::For {
                var,
                start,
                end,
                step,
                body,
                span,
                ..
            } => {
                let d = self.k.vars[*var].1.dtype();
                let lo = self.expr(start)?;
                let hi = self.expr(end)?;
                let st = self.expr(step)?;
                let t = [self.fresh(), self.fresh(), self.fresh(), self.fresh()];
                let [head, open, guard, set] = range_loop(
                    &var_name(self.k, *var),
                    d,
                    [&lo.at(), &hi.at(), &st.at()],
                    &t,
                );
                self.line(&head, *span);
                self.line(&open, *span);
                self.indent += 1;
                self.line(&guard, *span);
                self.line(&set, *span);
                self.block(body)?;
                self.indent -= 1;
                self.line("}", *span);
            }
            Stmt::While { cond, body, span } => {
                self.line("for (;;) {", *span);
                self.indent += 1;
                let c = self.expr(cond)?;
                self.line(&format!("if ({} == 0) break;", c.at()), *span);
                self.line("if (++ksem_iters > KSEM_MAX_ITERS) return;", *span);
                self.block(body)?;
                self.indent -= 1;
                self.line("}", *span);
            }
            Stmt::Break => self.line("break;", self.last_span),
            Stmt::Continue => self.line("continue;", self.last_span),
            // Control flow is uniform: every thread of the block returns.
            Stmt::Return => self.line("return;", self.last_span),
            Stmt::Barrier { span } => return err(*span, "a barrier in a tile program"),
            Stmt::Print { prefix, span, .. } => {
                let p: String = prefix
                    .chars()
                    .map(|c| {
                        if c.is_ascii_graphic() || c == ' ' {
                            c
                        } else {
                            '?'
                        }
                    })
                    .collect();
                self.line(&format!("/* tl.device_print({p:?}, ...) dropped */"), *span);
            }
        }
        Ok(())
    }

    /// An element-wise node computing `rhs` (a pure C expression over the
    /// operands' `at()` forms, each used once) for every element of `e`:
    /// a tile is fused into its consumer's slot loop, so a chain of
    /// element-wise operations becomes one loop without intermediate arrays.
    fn elementwise(&mut self, e: &Expr, rhs: String) -> Val {
        if e.ty.shape.is_empty() {
            return self.materialized(e, rhs);
        }
        Val {
            name: format!("({rhs})"),
            n: Some(e.ty.numel()),
            fused: true,
        }
    }

    /// Emits an element-wise node computing `rhs` for every element of `e`
    /// into a temporary of its own (for values that must be computed where
    /// they stand: loads, which the store of the same statement must not
    /// overtake; corpus case `store_reads_before_writes`).
    fn materialized(&mut self, e: &Expr, rhs: String) -> Val {
        let cty = storage_type(&e.ty);
        let t = self.fresh();
        if e.ty.shape.is_empty() {
            self.line(&format!("const {cty} {t} = {rhs};"), e.span);
            Val::scalar(t)
        } else {
            let n = e.ty.numel();
            self.local_bytes += n * storage_bytes(&e.ty);
            self.line(
                &format!("{cty} {t}[KSEM_SLOTS({n})]; KSEM_FOR({n}) {t}[j] = {rhs};"),
                e.span,
            );
            Val::tile(t, n)
        }
    }

    /// Moves the elements of tile `x` through shared memory: output element
    /// `KSEM_I` of `e` takes element `src` (a C expression of `KSEM_I`) of `x`.
    fn gather(&mut self, e: &Expr, x: &Val, src: String) -> LResult<Val> {
        let cty = storage_type(&e.ty);
        let nx = x.n.unwrap_or(1);
        self.need_smem(nx * storage_bytes(&e.ty));
        let s = self.fresh();
        self.line(&format!("{cty}* const {s} = ({cty}*)ksem_smem;"), e.span);
        self.line(&format!("KSEM_FOR({nx}) {s}[KSEM_I] = {};", x.at()), e.span);
        self.sync(e.span)?;
        let t = self.fresh();
        let out = if e.ty.shape.is_empty() {
            self.line(&format!("const {cty} {t} = {s}[0];"), e.span);
            Val::scalar(t)
        } else {
            let n = e.ty.numel();
            self.local_bytes += n * storage_bytes(&e.ty);
            self.line(
                &format!("{cty} {t}[KSEM_SLOTS({n})]; KSEM_FOR({n}) {t}[j] = {s}[{src}];"),
                e.span,
            );
            Val::tile(t, n)
        };
        self.sync(e.span)?;
        Ok(out)
    }

    fn expr(&mut self, e: &Expr) -> LResult<Val> {
        let out_d = e.ty.dtype();
        Ok(match &e.kind {
            ExprKind::Const(b) => Val::scalar(format!("{b:#x}ull")),
            ExprKind::Var(v) => Val {
                name: var_name(self.k, *v),
                n: (!self.k.vars[*v].1.shape.is_empty()).then(|| self.k.vars[*v].1.numel()),
                fused: false,
            },
            ExprKind::BlockId(a) => {
                let f = ["x", "y", "z"][(*a as usize).min(2)];
                self.elementwise(e, format!("(ku64)blockIdx.{f}"))
            }
            ExprKind::GridDim(a) => {
                let f = ["x", "y", "z"][(*a as usize).min(2)];
                self.elementwise(e, format!("(ku64)gridDim.{f}"))
            }
            ExprKind::ThreadId(_)
            | ExprKind::BlockDim(_)
            | ExprKind::ArrayBase(_)
            | ExprKind::ElemPtr { .. }
            | ExprKind::CheckIndex { .. } => {
                return err(e.span, "a SIMT operation in a tile program")
            }
            ExprKind::Atomic {
                op,
                ptr,
                val,
                cmp,
                mask,
            } => self.atomic(e, *op, ptr, val, cmp.as_deref(), mask.as_deref())?,
            // (undefined lanes hold 0, as the interpreter gives them)
            ExprKind::Undef => self.elementwise(e, "0ull".to_string()),
            ExprKind::Iota(s, _) => {
                let start = *s as u64;
                self.elementwise(e, format!("((ku64)KSEM_I + {start:#x}ull) & 0xffffffffull"))
            }
            ExprKind::Broadcast(x) => {
                let xv = self.expr(x)?;
                match xv.n {
                    // a 0-d value stands for the uniform tile (every consumer reads it by `at()`)
                    None => xv,
                    Some(nx) if nx == e.ty.numel() => xv,
                    Some(_) => {
                        let xs = &x.ty.shape;
                        let os = &e.ty.shape;
                        if xs.len() != os.len() {
                            return err(e.span, "broadcast between different ranks");
                        }
                        let xst = strides(xs);
                        let terms = (0..os.len())
                            .filter(|&k| xs[k] != 1)
                            .map(|k| {
                                let c = coord("KSEM_I", os, k);
                                if xst[k] == 1 {
                                    c
                                } else {
                                    format!("{c} * {}", xst[k])
                                }
                            })
                            .collect();
                        self.gather(e, &xv, sum_terms(terms))?
                    }
                }
            }
            ExprKind::Reshape(x) => {
                let xv = self.expr(x)?;
                match (xv.n, e.ty.shape.is_empty()) {
                    (None, true) => xv,
                    (None, false) => self.elementwise(e, xv.name.clone()),
                    (Some(_), true) => self.gather(e, &xv, "0".into())?,
                    (Some(_), false) => Val {
                        n: Some(e.ty.numel()),
                        ..xv
                    },
                }
            }
            ExprKind::Permute(x, perm) => {
                let xv = self.expr(x)?;
                let xs = &x.ty.shape;
                // Axes of size > 1 in their order: if unchanged, the flat order is too.
                let moved: Vec<usize> = perm.iter().copied().filter(|&a| xs[a] != 1).collect();
                let sorted = moved.windows(2).all(|w| w[0] < w[1]);
                if xv.n.is_none() || sorted {
                    xv
                } else {
                    let os = &e.ty.shape;
                    let xst = strides(xs);
                    let terms = (0..os.len())
                        .filter(|&k| os[k] != 1)
                        .map(|k| {
                            let c = coord("KSEM_I", os, k);
                            let st = xst[perm[k]];
                            if st == 1 {
                                c
                            } else {
                                format!("{c} * {st}")
                            }
                        })
                        .collect();
                    self.gather(e, &xv, sum_terms(terms))?
                }
            }
            ExprKind::Cast(x, kind) => {
                let xv = self.expr(x)?;
                let from = x.ty.dtype();
                // (a pointer and its uint64 bits are one ku64)
                if from == out_d || x.ty.is_ptr() || e.ty.is_ptr() {
                    return Ok(xv);
                }
                let rhs = cast_c(*kind, from, out_d, &xv.at());
                self.elementwise(e, rhs)
            }
            ExprKind::Unary(op, x) => {
                let xv = self.expr(x)?;
                let d = x.ty.dtype();
                let a = xv.at();
                let rhs = unary_c(*op, d, &a);
                self.elementwise(e, rhs)
            }
            ExprKind::Binary(op, a, b) => {
                let av = self.expr(a)?;
                let bv = self.expr(b)?;
                let rhs = binary_c(*op, &a.ty, b.ty.dtype(), &av.at(), &bv.at(), e.span)?;
                self.elementwise(e, rhs)
            }
            ExprKind::Select(c, a, b) => {
                let cv = self.expr(c)?;
                let av = self.expr(a)?;
                let bv = self.expr(b)?;
                let rhs = format!("({} != 0 ? {} : {})", cv.at(), av.at(), bv.at());
                self.elementwise(e, rhs)
            }
            ExprKind::Fma(a, b, c, r) => {
                let av = self.expr(a)?;
                let bv = self.expr(b)?;
                let cv = self.expr(c)?;
                let rhs = fma_c(out_d, *r, &av.at(), &bv.at(), &cv.at());
                self.elementwise(e, rhs)
            }
            ExprKind::Load { ptr, mask, other } => {
                let pv = self.expr(ptr)?;
                let mv = match mask {
                    Some(m) => Some(self.expr(m)?),
                    None => None,
                };
                let ov = match other {
                    Some(o) => Some(self.expr(o)?),
                    None => None,
                };
                let ld = format!("ksem_ld<{}>(ksem_m, {})", dt(out_d), pv.at());
                let rhs = match mv {
                    Some(m) => format!(
                        "({} != 0 ? {ld} : {})",
                        m.at(),
                        ov.map_or("0ull".to_string(), |o| o.at())
                    ),
                    None => ld,
                };
                self.materialized(e, rhs)
            }
            ExprKind::Reduce {
                arg,
                axis,
                combiner,
                ..
            } => self.reduce(e, arg, axis.unwrap_or(0), combiner)?,
            ExprKind::Scan {
                arg,
                axis,
                reverse,
                op,
            } => self.scan(e, arg, *axis, *reverse, *op)?,
            ExprKind::TupleReduce {
                args,
                axis,
                combine,
                pick,
            } => self.tuple_reduce(e, args, *axis, combine, *pick)?,
            ExprKind::TupleScan {
                args,
                axis,
                reverse,
                combine,
                pick,
            } => self.tuple_scan(e, args, *axis, *reverse, combine, *pick)?,
            ExprKind::Dot {
                a,
                b,
                acc,
                precision,
            } => self.dot(e, a, b, acc, *precision)?,
        })
    }

    /// An atomic over a tile of pointers: each thread updates its own
    /// elements (a 0-d atomic: thread 0, its old value shared through shared
    /// memory), between barriers so that it sees the program's earlier
    /// stores and its later loads see it. Masked lanes give 0.
    fn atomic(
        &mut self,
        e: &Expr,
        op: AtomicOp,
        ptr: &Expr,
        val: &Expr,
        cmp: Option<&Expr>,
        mask: Option<&Expr>,
    ) -> LResult<Val> {
        let p = self.expr(ptr)?;
        let v = self.expr(val)?;
        let c = match cmp {
            Some(c) => self.expr(c)?.at(),
            None => "0ull".into(),
        };
        let m = match mask {
            Some(m) => Some(self.expr(m)?.at()),
            None => None,
        };
        let d = e.ty.dtype();
        let vi = self.inexact.expr(val);
        let call = format!(
            "ksem_atomic<{}>(ksem_m, {}, {}, {}, {c}, {vi})",
            dt(d),
            p.at(),
            crate::ids::atomic_macro(op),
            v.at()
        );
        let rhs = match m {
            Some(m) => format!("({m} != 0 ? {call} : 0ull)"),
            None => call,
        };
        self.sync(e.span)?;
        let out = if e.ty.shape.is_empty() {
            let cty = storage_type(&e.ty);
            self.need_smem(8);
            let s = self.fresh();
            self.line(&format!("{cty}* const {s} = ({cty}*)ksem_smem;"), e.span);
            self.line(&format!("if (KSEM_TID == 0) {s}[0] = {rhs};"), e.span);
            self.sync(e.span)?;
            let t = self.fresh();
            self.line(&format!("const {cty} {t} = {s}[0];"), e.span);
            Val::scalar(t)
        } else {
            self.materialized(e, rhs)
        };
        self.sync(e.span)?;
        Ok(out)
    }

    /// A matrix product in the interpreter's order: both operands go to
    /// shared memory, then every thread computes its own result elements,
    /// each from the accumulator's element with k ascending, one rounded
    /// product and one rounded sum per step (the runtime's `ksem_fmul` /
    /// `ksem_fadd` never contract into an fma).
    fn dot(
        &mut self,
        e: &Expr,
        a: &Expr,
        b: &Expr,
        acc: &Expr,
        precision: DotPrecision,
    ) -> LResult<Val> {
        let av = self.expr(a)?;
        let bv = self.expr(b)?;
        let cv = self.expr(acc)?;
        let d = e.ty.dtype();
        let cty = bits_type(d);
        let bytes = d.storage_bits() as usize / 8;
        let shape = &e.ty.shape;
        let r = shape.len();
        if r < 2 {
            return err(e.span, "a matrix product of fewer than two dimensions");
        }
        let (m, n, kd) = (shape[r - 2], shape[r - 1], a.ty.shape[r - 1]);
        let (na, nb, total) = (a.ty.numel(), b.ty.numel(), e.ty.numel());
        let abytes = (na * bytes).div_ceil(16) * 16;
        self.need_smem(abytes + nb * bytes);
        let sp = e.span;
        let (sa, sb) = (self.fresh(), self.fresh());
        self.line(&format!("{cty}* const {sa} = ({cty}*)ksem_smem;"), sp);
        self.line(
            &format!("{cty}* const {sb} = ({cty}*)(ksem_smem + {abytes});"),
            sp,
        );
        self.line(&format!("KSEM_FOR({na}) {sa}[KSEM_I] = {};", av.at()), sp);
        self.line(&format!("KSEM_FOR({nb}) {sb}[KSEM_I] = {};", bv.at()), sp);
        self.sync(sp)?;
        let operand = |s: &str, i: &str| -> String {
            match precision {
                DotPrecision::Tf32 => format!("ksem_tf32({s}[{i}])"),
                DotPrecision::Ieee => format!("{s}[{i}]"),
            }
        };
        let ty = Type::scalar(d);
        let prod = binary_c(
            BinOp::Mul,
            &ty,
            d,
            &operand(&sa, "ia"),
            &operand(&sb, "ib"),
            sp,
        )?;
        let sum = binary_c(BinOp::Add, &ty, d, "r", &prod, sp)?;
        let t = self.fresh();
        self.local_bytes += total * bytes;
        self.line(
            &format!(
                "{cty} {t}[KSEM_SLOTS({total})]; KSEM_FOR({total}) {{ const int q = KSEM_I / {n}, c = KSEM_I % {n}; const int ia0 = q * {kd}, ib0 = (q / {m}) * {} + c; {cty} r = {}; for (int k = 0; k < {kd}; ++k) {{ const int ia = ia0 + k, ib = ib0 + k * {n}; r = ({cty})({sum}); }} {t}[j] = r; }}",
                kd * n,
                cv.at()
            ),
            sp,
        );
        self.sync(sp)?;
        Ok(Val::tile(t, total))
    }

    /// An inclusive scan in the interpreter's sequential order, in shared
    /// memory: one work item per line along `axis` walks it element by element.
    fn scan(
        &mut self,
        e: &Expr,
        arg: &Expr,
        axis: usize,
        reverse: bool,
        op: BinOp,
    ) -> LResult<Val> {
        let xv = self.expr(arg)?;
        let shape = &arg.ty.shape;
        if axis >= shape.len() {
            return err(e.span, "scan of a 0-d value");
        }
        let n = shape[axis];
        let inner: usize = shape[axis + 1..].iter().product();
        let total: usize = shape.iter().product();
        let lines = total.checked_div(n).unwrap_or(0);
        let d = arg.ty.dtype();
        let cty = bits_type(d);
        self.need_smem((total * (d.storage_bits() as usize / 8)).div_ceil(16) * 16);
        let sp = e.span;
        let s = self.fresh();
        self.line(&format!("{cty}* const {s} = ({cty}*)ksem_smem;"), sp);
        self.line(&format!("KSEM_FOR({total}) {s}[KSEM_I] = {};", xv.at()), sp);
        self.sync(sp)?;
        let comb = binary_c(op, &arg.ty, d, &format!("{s}[ip]"), &format!("{s}[ic]"), sp)?;
        self.line(
            &format!(
                "{} {s}[ic] = {comb}; ip = ic; }} }}",
                scan_walk(n, inner, lines, reverse)
            ),
            sp,
        );
        self.sync(sp)?;
        let out = self.materialized(e, format!("{s}[KSEM_I]"));
        self.sync(sp)?;
        Ok(out)
    }

    /// A reduction in the canonical tree order of DESIGN.md, in shared memory.
    fn reduce(&mut self, e: &Expr, arg: &Expr, axis: usize, c: &Combiner) -> LResult<Val> {
        let xv = self.expr(arg)?;
        let shape = &arg.ty.shape;
        if shape.is_empty() || axis >= shape.len() {
            return err(e.span, "reduction of a 0-d value");
        }
        let n = shape[axis];
        let inner: usize = shape[axis + 1..].iter().product();
        let total: usize = shape.iter().product();
        let rows = total.checked_div(n).unwrap_or(0);
        let d = arg.ty.dtype();
        let cty = bits_type(d);
        let p = n.next_power_of_two();
        if matches!(c, Combiner::Custom { .. }) && p != n {
            return err(
                e.span,
                "tl.reduce with a custom combine function needs a power-of-two axis",
            );
        }
        let is_arg = matches!(c, Combiner::ArgMax { .. } | Combiner::ArgMin { .. });
        let vbytes = (total * (d.storage_bits() as usize / 8)).div_ceil(16) * 16;
        self.need_smem(vbytes + if is_arg { total * 4 } else { 0 });
        let sp = e.span;
        let s = self.fresh();
        let xi = self.fresh();
        self.line(&format!("{cty}* const {s} = ({cty}*)ksem_smem;"), sp);
        let idx_of = |i: &str| -> String {
            if inner == 1 {
                format!("{i} % {n}")
            } else {
                format!("({i} / {inner}) % {n}")
            }
        };
        if is_arg {
            self.line(
                &format!("ku32* const {xi} = (ku32*)(ksem_smem + {vbytes});"),
                sp,
            );
            self.line(
                &format!(
                    "KSEM_FOR({total}) {{ {s}[KSEM_I] = {}; {xi}[KSEM_I] = {}; }}",
                    xv.at(),
                    idx_of("KSEM_I")
                ),
                sp,
            );
        } else {
            self.line(&format!("KSEM_FOR({total}) {s}[KSEM_I] = {};", xv.at()), sp);
        }
        self.sync(sp)?;
        let (st, w) = (self.fresh(), "w");
        let row_base = |r: &str| -> String {
            if inner == 1 {
                format!("{r} * {n}")
            } else {
                format!("({r} / {inner}) * {} + {r} % {inner}", n * inner)
            }
        };
        if !matches!(c, Combiner::Custom { .. }) {
            // planted bug (tests only): a sequential left fold instead of the tree
            self.line("#if KSEM_PLANT_REDUCE_SEQ", sp);
            self.line(&format!("KSEM_WORK({rows}) {{ const int r = {w}; const int ia = {}; for (int k = 1; k < {n}; ++k) {{ const int ib = ia + k * {inner}; {} }} }}", row_base("r"), builtin_combine(c, d, &s, &xi)), sp);
            self.line(&format!("for (int {st} = 0; {st} >= 1; {st} /= 2) {{"), sp);
            self.line("#else", sp);
            self.line(
                &format!("for (int {st} = {}; {st} >= 1; {st} /= 2) {{", p / 2),
                sp,
            );
            self.line("#endif", sp);
        } else {
            self.line(
                &format!("for (int {st} = {}; {st} >= 1; {st} /= 2) {{", p / 2),
                sp,
            );
        }
        self.indent += 1;
        self.line(&format!("KSEM_WORK({rows} * {st}) {{"), sp);
        self.indent += 1;
        self.line(&format!("const int r = {w} / {st}, k = {w} % {st};"), sp);
        self.line(&format!("if (k + {st} < {n}) {{"), sp);
        self.indent += 1;
        self.line(
            &format!(
                "const int ia = {} + k * {inner}, ib = ia + {st} * {inner};",
                row_base("r")
            ),
            sp,
        );
        match c {
            Combiner::Custom {
                lhs,
                rhs,
                body,
                result,
            } => {
                let (l, r) = (var_name(self.k, *lhs), var_name(self.k, *rhs));
                self.line(&format!("{l} = {s}[ia]; {r} = {s}[ib];"), sp);
                self.no_sync += 1;
                self.block(body)?;
                let rv = self.expr(result)?;
                self.no_sync -= 1;
                self.line(&format!("{s}[ia] = {};", rv.at()), sp);
            }
            _ => {
                let code = builtin_combine(c, d, &s, &xi);
                self.line(&code, sp);
            }
        }
        self.indent -= 1;
        self.line("}", sp);
        self.indent -= 1;
        self.line("}", sp);
        self.line("__syncthreads();", sp);
        self.indent -= 1;
        self.line("}", sp);
        let src = if matches!(
            c,
            Combiner::ArgMax { value: false } | Combiner::ArgMin { value: false }
        ) {
            &xi
        } else {
            &s
        };
        self.reduced_rows(e, src, rows, &row_base)
    }

    /// The result of a reduction whose row `r` ended at element
    /// `row_base(r)` of the shared array `src`: `e`'s value (one per row),
    /// then the barrier before the array is reused.
    pub(super) fn reduced_rows(
        &mut self,
        e: &Expr,
        src: &str,
        rows: usize,
        row_base: &dyn Fn(&str) -> String,
    ) -> LResult<Val> {
        let sp = e.span;
        let ocp = storage_type(&e.ty);
        let t = self.fresh();
        let out = if e.ty.shape.is_empty() {
            self.line(&format!("const {ocp} {t} = {src}[0];"), sp);
            Val::scalar(t)
        } else {
            self.local_bytes += rows * storage_bytes(&e.ty);
            self.line(
                &format!(
                    "{ocp} {t}[KSEM_SLOTS({rows})]; KSEM_FOR({rows}) {t}[j] = {src}[{}];",
                    row_base("KSEM_I")
                ),
                sp,
            );
            Val::tile(t, rows)
        };
        self.sync(sp)?;
        Ok(out)
    }
}

/// The opening of a sequential scan (the order docs/semantics.md gives:
/// first to last along the axis, last to first when `reverse`) over
/// `lines` lines of `n` elements with `inner` elements after the axis:
/// each work item walks one line, `ip` the position before and `ic` the
/// current one. The caller writes the step, then `ip = ic; } }`.
pub(crate) fn scan_walk(n: usize, inner: usize, lines: usize, reverse: bool) -> String {
    let (first, step) = if reverse {
        (format!("{}", (n.max(1) - 1) * inner), format!("-{inner}"))
    } else {
        ("0".to_string(), format!("{inner}"))
    };
    format!(
        "KSEM_WORK({lines}) {{ int ip = (w / {inner}) * {} + w % {inner} + {first}; for (int k = 1; k < {n}; ++k) {{ const int ic = ip + ({step});",
        n * inner
    )
}
