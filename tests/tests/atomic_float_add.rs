//! The hardware's float atomic add, as every dialect's atomics reach it
//! (`ops::atomic_rmw`, mirrored by the CUDA runtime): measured on an NVIDIA
//! H200 through numba-cuda 0.30 (`tools/probes/numba/atomic_add_float_edges.py`,
//! output `atomic_add_float_edges.json`): `cuda.atomic.add` on float32 flushes
//! subnormals (PTX `atom.add.f32`), on float64 passes NaNs through unquieted
//! (the operand's before memory's); `cuda.atomic.sub` is numba's
//! compare-and-swap loop, an ordinary subtraction (no flush, NaNs quieted).
//! Triton's tables are corpus cases (`corpus/triton/atomic_float_add`).

use ksem_interp::dtype::DType;
use ksem_interp::ir::AtomicOp;
use ksem_interp::ops::atomic_rmw;
use ksem_tests::serde_json::Value as Json;

fn table(name: &str) -> (Vec<u64>, Vec<u64>, Vec<u64>) {
    let p = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tools/probes/numba/atomic_add_float_edges.json"
    );
    let j: Json = ksem_tests::serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
    let col = |k: &str| -> Vec<u64> {
        j[name][k]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect()
    };
    (col("mem"), col("val"), col("final"))
}

#[test]
fn float_atomic_add_and_sub_match_the_gpu() {
    for (name, op, d) in [
        ("add_f32", AtomicOp::Add, DType::F32),
        ("sub_f32", AtomicOp::Sub, DType::F32),
        ("add_f64", AtomicOp::Add, DType::F64),
        ("sub_f64", AtomicOp::Sub, DType::F64),
    ] {
        let (mem, val, fin) = table(name);
        assert!(mem.len() >= 36, "{name}");
        for i in 0..mem.len() {
            assert_eq!(
                atomic_rmw(op, d, mem[i], val[i], None),
                fin[i],
                "{name}: {:#x} with {:#x}",
                mem[i],
                val[i]
            );
        }
    }
}

/// By hand: 2^-149 + 2^-149 is 2^-148 in IEEE arithmetic but 0 through the
/// flushing float32 atomic; a signalling float64 NaN operand stays signalling.
#[test]
fn flush_and_unquieted_nan_by_hand() {
    assert_eq!(atomic_rmw(AtomicOp::Add, DType::F32, 1, 1, None), 0);
    assert_eq!(atomic_rmw(AtomicOp::Sub, DType::F32, 3, 1, None), 2);
    let snan = 0x7ff0_0000_0000_0001;
    assert_eq!(
        atomic_rmw(AtomicOp::Add, DType::F64, 0x3ff0_0000_0000_0000, snan, None),
        snan
    );
}
