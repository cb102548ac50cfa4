//! Source assembly: one launch's lowered body (tile or SIMT) wrapped into a
//! self-contained CUDA C++ source — the runtime, the kernel's signature (on
//! the host its arguments as `void**`), its variables — and the text
//! operations on generated sources (cutting off the runtime, renaming the
//! kernels) that
//! put several kernels or launches into one source.
//!
//! Kernel signature (`extern "C" __global__ void ksem_kernel(...)`): for each
//! kernel parameter in order, a pointer parameter is a typed device pointer
//! followed by the buffer's length as `long long`; a scalar parameter is passed
//! by value; constexprs are folded away. When some store may write an inexact
//! value ([`Lowered::inexact_flags`]), one `unsigned char*` per pointer
//! parameter follows (same length as its buffer), into which every store
//! writes 1 where the stored value may be inexact and 0 otherwise.

use super::program::{ArgSlot, BufferParam, LResult, Lowered};
use super::scalar::{c_elem_type, ident, scalar_bits_expr, storage_bytes, storage_type, var_name};
use super::{simt, tile};
use crate::ids;
use crate::inexact::Inexact;
use ksem_interp::ir::*;
use std::fmt::Write as _;

/// The runtime every generated source starts with: the generated ids
/// (`ids.rs`), then `runtime.cuh`.
pub static RUNTIME: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("{}{}", ids::header(), include_str!("../runtime.cuh")));

/// The line that ends the runtime every generated source starts with.
const RUNTIME_END: &str = "// ---- end of the ksem runtime";

/// A generated source cut after its runtime: (the header and runtime, the
/// kernel).
pub(crate) fn split_runtime(source: &str) -> (&str, &str) {
    let cut = source
        .find(RUNTIME_END)
        .and_then(|p| source[p..].find('\n').map(|n| p + n + 1))
        .expect("generated sources contain the runtime marker");
    source.split_at(cut)
}

/// The kernel part of a generated source (after [`split_runtime`]) with its
/// `__global__` function renamed `global`, ready to follow other kernels in
/// one source.
pub(crate) fn renamed(kernel: &str, global: &str) -> String {
    let mut out = String::new();
    push_renamed(&mut out, kernel, global);
    out
}

/// Appends [`renamed`]`(kernel, global)` to `out`, without a copy of its own
/// (a batch joins hundreds of kernels).
pub(crate) fn push_renamed(out: &mut String, kernel: &str, global: &str) {
    const NAME: &str = "ksem_kernel(";
    out.reserve(kernel.len() + 32);
    out.push_str("\n#undef KSEM_SMEM_BYTES\n");
    let mut rest = kernel;
    while let Some(at) = rest.find(NAME) {
        out.push_str(&rest[..at]);
        out.push_str(global);
        out.push('(');
        rest = &rest[at + NAME.len()..];
    }
    out.push_str(rest);
}

/// Lowers a kernel of one launch whose stores may write inexact values as
/// `inexact` says; `inexact_flags`: whether the signature ends with the
/// inexact-flag arrays (every launch of a kernel has the same signature).
pub(super) fn lower_launch(k: &Kernel, inexact: &Inexact, inexact_flags: bool) -> LResult<Lowered> {
    let sig = Signature::of(k, inexact_flags);
    let (body, block) = match k.model {
        Model::Tile => (tile::body(k, inexact)?, None),
        Model::Simt => (simt::body(k, inexact)?, Some(k.block)),
    };
    let smem = body.smem_bytes;
    let signature_c = signature(&sig);
    let memory_c = memory(&sig.buffers, inexact_flags, smem);
    let (vars, var_bytes) = variables(k, &sig.var_init);
    let unbind_c = unbind(&sig);
    let mut s = header(k, block, smem);
    // the whole source at once: no copies of the runtime while it grows
    let parts = [&signature_c, &memory_c, &vars, &body.code, &unbind_c];
    s.reserve(RUNTIME.len() + 64 + parts.iter().map(|p| p.len()).sum::<usize>());
    s.push_str(&RUNTIME);
    s.push('\n');
    let _ = writeln!(s, "#define KSEM_SMEM_BYTES {}", smem.max(16));
    s.push_str(&signature_c);
    s.push_str(&memory_c);
    s.push_str(&vars);
    s.push_str("  // body\n");
    s.push_str(&body.code);
    s.push_str("}\n");
    s.push_str(&unbind_c);
    Ok(Lowered {
        source: s,
        entry: "ksem_kernel",
        smem_bytes: smem,
        local_bytes: body.local_bytes + var_bytes,
        block,
        grid: k.grid,
        args: sig.args,
        buffers: sig.buffers,
        inexact_flags,
        then: Vec::new(),
    })
}

/// A kernel variable bound to a parameter: its id, its initial bits as a C
/// expression, and the parameter's buffer number (`usize::MAX`: a scalar).
type VarInit = (VarId, String, usize);

/// The generated kernel's signature.
struct Signature {
    /// The buffer parameters, in order.
    buffers: Vec<BufferParam>,
    /// The argument slots, in order.
    args: Vec<ArgSlot>,
    /// The C parameter declarations, in order.
    params_c: Vec<String>,
    /// The host build's argument values, each read from `ksem_a[i]`.
    call_c: Vec<String>,
    /// The C names of the parameters, in order.
    names_c: Vec<String>,
    /// The variables the parameters bind.
    var_init: Vec<VarInit>,
}

impl Signature {
    /// The signature of `k`'s parameters, ending with the inexact-flag
    /// arrays when `inexact_flags`.
    fn of(k: &Kernel, inexact_flags: bool) -> Signature {
        let mut buffers = Vec::new();
        let mut args = Vec::new();
        let mut params_c = Vec::new();
        let mut call_c = Vec::new();
        let mut names_c = Vec::new();
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
                    names_c.push(cname.clone());
                    names_c.push(format!("{cname}_len"));
                    call_c.push(format!("*({}**)ksem_a[{}]", c_elem_type(d), call_c.len()));
                    call_c.push(format!("*(long long*)ksem_a[{}]", call_c.len()));
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
                    names_c.push(cname.clone());
                    call_c.push(format!("*({}*)ksem_a[{}]", c_elem_type(d), call_c.len()));
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
                names_c.push(format!("ksem_inexact_{}", ident(&bp.name)));
                call_c.push(format!("*(ku8**)ksem_a[{}]", call_c.len()));
            }
        }
        Signature {
            buffers,
            args,
            params_c,
            call_c,
            names_c,
            var_init,
        }
    }
}

/// The source's first lines: what it lowers and how to compile and launch it.
fn header(k: &Kernel, block: Option<[u32; 3]>, smem: usize) -> String {
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
    s
}

/// The kernel's first statements: the runtime's view of the buffers
/// (`ksem_m`), the loop-iteration counter and the shared memory.
fn memory(buffers: &[BufferParam], inexact_flags: bool, smem: usize) -> String {
    let mut s = String::new();
    let nb = buffers.len().max(1);
    let list = |f: &dyn Fn(&BufferParam) -> String| -> String {
        if buffers.is_empty() {
            "0".into()
        } else {
            buffers.iter().map(f).collect::<Vec<_>>().join(", ")
        }
    };
    let _ = writeln!(
        s,
        "  void* const ksem_buf[{nb}] = {{{}}};",
        list(&|b| format!("(void*)arg_{}", ident(&b.name)))
    );
    let _ = writeln!(
        s,
        "  const long long ksem_len[{nb}] = {{{}}};",
        list(&|b| format!("arg_{}_len", ident(&b.name)))
    );
    if inexact_flags {
        let _ = writeln!(
            s,
            "  ku8* const ksem_ix[{nb}] = {{{}}};",
            list(&|b| format!("ksem_inexact_{}", ident(&b.name)))
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
    s
}

/// The declarations of `k`'s variables (those a parameter binds start with
/// its value, the rest with 0), and the bytes of its tile variables.
fn variables(k: &Kernel, var_init: &[VarInit]) -> (String, usize) {
    let mut s = String::from("  // variables\n");
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
    (s, var_bytes)
}

/// The kernel's signature line. The host build takes the arguments as
/// `ksem_a[i]` pointing at the i-th (as for cuLaunchKernel), each
/// parameter's name standing for its value there, so that the prelude's one
/// `ksem_host_run` launches every kernel of a build (no entry function per
/// kernel, no copies of the arguments: each cost the compiler as much as
/// many lines of a kernel; docs/benchmarks.md, "Fifth pass").
fn signature(sig: &Signature) -> String {
    let mut s = String::from("#ifdef KSEM_HOST\n");
    for (name, value) in sig.names_c.iter().zip(&sig.call_c) {
        let _ = writeln!(s, "#define {name} ({value})");
    }
    s.push_str("extern \"C\" void ksem_kernel(void** ksem_a) {\n");
    let _ = writeln!(
        s,
        "#else\nextern \"C\" __global__ void ksem_kernel({}) {{\n#endif",
        if sig.params_c.is_empty() {
            "void".to_string()
        } else {
            sig.params_c.join(", ")
        }
    );
    s
}

/// The end of [`signature`]'s names, after the kernel (the next kernel of a
/// batch has its own).
fn unbind(sig: &Signature) -> String {
    if sig.names_c.is_empty() {
        return String::new();
    }
    let mut s = String::from("#ifdef KSEM_HOST\n");
    for name in &sig.names_c {
        let _ = writeln!(s, "#undef {name}");
    }
    s.push_str("#endif\n");
    s
}
