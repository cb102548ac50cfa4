//! Dynamic shared memory in CUDA Python: `k[grid, block, stream, nbytes]`
//! gives each block `nbytes` bytes (the launch's `"shared_bytes"`), and
//! `cuda.shared.array(0, dtype)` is an array of `nbytes / itemsize`
//! elements over them; every such declaration is the same memory.

use ksem_interp::launch::parse_launch;
use ksem_tests::serde_json::json;
use ksem_tests::*;

const SRC: &str = "from numba import cuda, float32

@cuda.jit
def dyn(ary):
    i = cuda.grid(1)
    sm = cuda.shared.array(0, float32)
    again = cuda.shared.array(0, float32)
    sm[i] = i * 2
    cuda.syncthreads()
    ary[i] = again[i]
";

fn launch(shared: u64, threads: u64) -> ksem_interp::launch::Launch {
    parse_launch(
        &json!({"grid": [1], "block": [threads], "shared_bytes": shared,
                "args": {"ary": {"buffer": {"dtype": "float32", "len": threads}}}})
        .to_string(),
    )
    .unwrap()
}

#[test]
fn the_dynamic_array_is_sized_by_the_launch_and_every_declaration_aliases_it() {
    // 8 threads, 32 bytes: 8 float32 elements; thread i writes 2i through
    // `sm` and reads it back through `again`
    let r = run_clean(SRC, &launch(32, 8));
    let want: Vec<f32> = (0..8).map(|i| (2 * i) as f32).collect();
    assert_eq!(bits(&r, "ary"), f32_bits(&want));
}

#[test]
fn an_index_past_the_dynamic_bytes_is_out_of_bounds() {
    // 30 bytes hold 7 float32 elements (the 2 left over are unused)
    let ub = ub_of(SRC, &launch(30, 8));
    assert!(
        ub.iter()
            .any(|u| u.kind == "out-of-bounds-index" && u.message.contains("size 7")),
        "{ub:?}"
    );
}

#[test]
fn dynamic_arrays_of_two_dtypes_are_refused_and_too_many_bytes_too() {
    let src = "from numba import cuda, float32, int32

@cuda.jit
def two(ary):
    a = cuda.shared.array(0, float32)
    b = cuda.shared.array(0, int32)
    ary[0] = a[0] + b[0]
";
    let d = refused(src, &launch(32, 1));
    assert!(
        d.message
            .contains("aliases the kernel's dynamic shared array of float32"),
        "{}",
        d.message
    );
    let e = parse_launch(&json!({"shared_bytes": 1 << 20, "args": {}}).to_string()).unwrap_err();
    assert!(e.contains("shared_bytes") && e.contains("at most"), "{e}");
}
