//! A buffer's elements as raw little-endian bytes (numpy's memory layout on
//! every platform ksem runs on) ↔ the interpreter's bit patterns, one
//! element per `dtype.storage_bits()` (bool: one byte, 0 or 1).

use ksem_interp::dtype::DType;

/// Bytes per stored element.
fn width(dtype: DType) -> usize {
    dtype.storage_bits() as usize / 8
}

/// The bit patterns of `bytes`, read as elements of `dtype`.
pub fn from_bytes(dtype: DType, bytes: &[u8]) -> Result<Vec<u64>, String> {
    let w = width(dtype);
    if !bytes.len().is_multiple_of(w) {
        return Err(format!(
            "{} bytes is not a whole number of {} elements",
            bytes.len(),
            dtype.json_name()
        ));
    }
    let bits: Vec<u64> = bytes
        .chunks_exact(w)
        .map(|c| {
            let mut le = [0u8; 8];
            le[..w].copy_from_slice(c);
            u64::from_le_bytes(le)
        })
        .collect();
    if dtype == DType::Bool {
        if let Some(i) = bits.iter().position(|&b| b > 1) {
            return Err(format!(
                "bool element {i} is stored as {}, not 0 or 1",
                bits[i]
            ));
        }
    }
    Ok(bits)
}

/// `bits` as bytes, each element `dtype`'s stored width.
pub fn to_bytes(dtype: DType, bits: &[u64]) -> Vec<u8> {
    let w = width(dtype);
    let mut out = Vec::with_capacity(bits.len() * w);
    for &b in bits {
        out.extend_from_slice(&b.to_le_bytes()[..w]);
    }
    out
}
