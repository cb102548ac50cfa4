//! Launch arguments in the form both backends pass them to the generated
//! kernel: every buffer as little-endian bytes of its storage width (bool:
//! one byte 0/1), every scalar as its bits, and back from bytes to a
//! [`RunResult`].

use crate::lower::{ArgSlot, Lowered};
use crate::GpuError;
use ksem_interp::dtype::DType;
use ksem_interp::launch::{ArgSpec, BufferResult, Launch, RunResult};

/// The arguments of one launch, ready to copy to a device or pass to the host build.
#[derive(Clone, Debug)]
pub struct Marshalled {
    /// Per buffer (index = buffer number): its contents as bytes.
    pub buffers: Vec<Vec<u8>>,
    /// Per buffer: its element count.
    pub lens: Vec<usize>,
    /// Per argument slot: the bits of a scalar slot (0 for other slots).
    pub scalars: Vec<u64>,
}

/// Bytes per element of a buffer of dtype `d`.
pub fn elem_bytes(d: DType) -> usize {
    d.storage_bits() as usize / 8
}

/// Collects the buffers and scalars a lowered kernel takes from a launch.
pub fn marshal(l: &Lowered, launch: &Launch) -> Result<Marshalled, GpuError> {
    let mut buffers = Vec::with_capacity(l.buffers.len());
    let mut lens = Vec::with_capacity(l.buffers.len());
    for b in &l.buffers {
        match launch.arg(&b.name) {
            Some(ArgSpec::Buffer { view: Some(v), .. }) => {
                return Err(GpuError::Launch(format!(
                    "argument {} is a view into `{}`: arguments that share memory run on the \
                     interpreter only",
                    b.name, v.of
                )));
            }
            Some(ArgSpec::Buffer { dtype, bits, .. }) => {
                if *dtype != b.dtype {
                    return Err(GpuError::Launch(format!(
                        "argument {} is a {} buffer but the kernel was elaborated for {}",
                        b.name,
                        dtype.json_name(),
                        b.dtype.json_name()
                    )));
                }
                let w = elem_bytes(*dtype);
                let mut bytes = Vec::with_capacity(bits.len() * w);
                for &x in bits {
                    bytes.extend_from_slice(&x.to_le_bytes()[..w]);
                }
                buffers.push(bytes);
                lens.push(bits.len());
            }
            None if b.fresh_len.is_some() => {
                let n = b.fresh_len.unwrap_or(0);
                buffers.push(vec![0; n * elem_bytes(b.dtype)]);
                lens.push(n);
            }
            // (a launch argument, not an op: a scalar, or none to make)
            _ => {
                return Err(GpuError::Launch(format!(
                    "argument {} must be a buffer",
                    b.name
                )))
            }
        }
    }
    let mut scalars = Vec::with_capacity(l.args.len());
    for a in &l.args {
        scalars.push(match a {
            ArgSlot::Scalar { name, dtype } => match launch.arg(name) {
                Some(ArgSpec::Scalar { bits, .. }) => bits & dtype.mask(),
                // (a launch argument, not an op: a buffer, or none)
                _ => {
                    return Err(GpuError::Launch(format!(
                        "argument {name} must be a {} scalar",
                        dtype.json_name()
                    )))
                }
            },
            ArgSlot::Len { buffer } => lens[*buffer] as u64,
            ArgSlot::Buffer { .. } | ArgSlot::Inexact { .. } => 0,
        });
    }
    Ok(Marshalled {
        buffers,
        lens,
        scalars,
    })
}

/// Decodes the final buffer bytes (and inexact flags, one byte per element,
/// when the kernel has them) into a result.
pub fn unmarshal(
    l: &Lowered,
    kernel: &str,
    backend: &str,
    buffers: &[Vec<u8>],
    inexact: Option<&[Vec<u8>]>,
) -> RunResult {
    let bufs = l
        .buffers
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let w = elem_bytes(b.dtype);
            let bits: Vec<u64> = buffers[i]
                .chunks_exact(w)
                .map(|c| {
                    let mut le = [0u8; 8];
                    le[..w].copy_from_slice(c);
                    u64::from_le_bytes(le)
                })
                .collect();
            let flags = match inexact {
                Some(ix) => ix[i].iter().take(bits.len()).map(|&f| f != 0).collect(),
                None => vec![false; bits.len()],
            };
            BufferResult {
                name: b.name.clone(),
                dtype: b.dtype,
                bits,
                inexact: flags,
                undefined: Vec::new(),
            }
        })
        .collect();
    RunResult {
        kernel: kernel.to_string(),
        backend: backend.to_string(),
        buffers: bufs,
        ub: Vec::new(),
    }
}
