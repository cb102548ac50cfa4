//! A launch's buffers built once and reused (`eval::Prepared`, what
//! `ksem bench` times): a launch after `reset` leaves exactly what a fresh
//! `eval::run` leaves (bits, inexact and undefined flags, UB), whatever
//! state the launch before left (inexact flags, atomic tags, stores,
//! undefined elements); and the fast paths of contiguous loads and stores
//! keep every bit and flag the lane-by-lane rule keeps.

use ksem_interp::eval::{Prepared, RunOptions};
use ksem_interp::launch::Launch;
use ksem_tests::serde_json::json;
use ksem_tests::*;

/// A fresh run of `src` and, on one set of buffers, a first launch and
/// then `resets` launches each after a reset: each launch's results and
/// UB must equal the fresh run's.
fn check_reuse(src: &str, l: &Launch, threads: usize) {
    let k = elaborate(src, l).expect("elaborates");
    let o = RunOptions { threads, ..opts() };
    let fresh = ksem_interp::eval::run(&k, l, &o).expect("runs");
    let mut p = Prepared::new(&k, l, &o).expect("builds");
    for round in 0..3 {
        if round > 0 {
            p.reset();
        }
        let ub = p.launch(&o).expect("launches");
        assert_eq!(ub, fresh.ub, "UB of launch {round}");
        assert_eq!(p.results(), fresh.buffers, "buffers after launch {round}");
    }
}

#[test]
fn reused_launches_equal_a_fresh_run() {
    // inexact values stored (exp), so the first launch allocates the flags
    let soft = kernel(
        "x_ptr, y_ptr, BLOCK: tl.constexpr",
        "offs = tl.arange(0, BLOCK)
x = tl.load(x_ptr + offs)
e = tl.exp(x - tl.max(x, axis=0))
tl.store(y_ptr + offs, e / tl.sum(e, axis=0))",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("float32", json!([0.5, -1.0, 3.0, 0.0])),
               "y_ptr": zeros("float32", 4), "BLOCK": cx(json!(4))}),
    );
    // atomics on contended elements: last-atomic tags and, where the old
    // values are used, the run again from the reset buffers
    let atomics = kernel(
        "c_ptr, o_ptr, BLOCK: tl.constexpr",
        "offs = tl.arange(0, BLOCK)
o = tl.atomic_add(c_ptr + offs % 2, offs + 1)
tl.store(o_ptr + tl.program_id(0) * BLOCK + offs, o)",
    );
    let la = launch(
        &[2],
        json!({"c_ptr": zeros("int32", 2), "o_ptr": zeros("int32", 8), "BLOCK": cx(json!(4))}),
    );
    // a buffer left uninitialised, half of it overwritten: the rest stays
    // undefined after every launch, and its copy is reported each time
    let undef = kernel(
        "u_ptr, v_ptr, BLOCK: tl.constexpr",
        "offs = tl.arange(0, BLOCK)
tl.store(v_ptr + offs, tl.load(u_ptr + offs))
tl.store(u_ptr + offs, offs.to(tl.float32), mask=offs < 2)",
    );
    let lu = launch(
        &[1],
        json!({"u_ptr": {"buffer": {"dtype": "float32", "len": 4, "init": "none"}},
               "v_ptr": zeros("float32", 4), "BLOCK": cx(json!(4))}),
    );
    for threads in [1, 2] {
        check_reuse(&soft, &l, threads);
        check_reuse(&atomics, &la, threads);
        check_reuse(&undef, &lu, threads);
    }
}

#[test]
fn contiguous_loads_and_stores_keep_every_bit_and_flag() {
    // NaN payloads of both signs, -0.0, infinities and a subnormal: a load
    // and store copy bits, whether every lane is active (one run of
    // elements: the fast path) or a mask turns lanes off (lane by lane)
    let vals: Vec<u64> = [0x7fc0_0001u64, 0xffc0_0123, 0x8000_0000, 0x7f80_0000]
        .into_iter()
        .chain([0xff80_0000, 0x0000_0001, 0x3f80_0000, 0xc0a0_0000])
        .collect();
    let src = kernel(
        "x_ptr, a_ptr, b_ptr, c_ptr, d_ptr, BLOCK: tl.constexpr",
        "offs = tl.arange(0, BLOCK)
x = tl.load(x_ptr + offs)
tl.store(a_ptr + offs, x)
m = offs % 3 != 1
tl.store(b_ptr + offs, tl.load(x_ptr + offs, mask=m, other=2.0), mask=offs < 6)
tl.store(c_ptr + offs, tl.exp(x * 0.0))
tl.store(d_ptr + offs, tl.load(c_ptr + offs))",
    );
    let hex: Vec<String> = vals.iter().map(|v| format!("{v:#x}")).collect();
    let l = launch(
        &[1],
        json!({"x_ptr": {"buffer": {"dtype": "float32", "bits": hex}},
               "a_ptr": zeros("float32", 8), "b_ptr": zeros("float32", 8),
               "c_ptr": zeros("float32", 8), "d_ptr": zeros("float32", 8),
               "BLOCK": cx(json!(8))}),
    );
    let r = run_clean(&src, &l);
    let buf = |n: &str| r.buffers.iter().find(|b| b.name == n).expect("buffer");
    assert_eq!(bits(&r, "a_ptr"), vals, "a copy keeps every bit");
    // lanes 1, 4 (and 7) masked off the load take `other`, 2.0; lanes 6
    // and 7 are not stored and keep 0
    let two = 2.0f32.to_bits() as u64;
    let want_b = [vals[0], two, vals[2], vals[3], two, vals[5], 0, 0];
    assert_eq!(bits(&r, "b_ptr"), want_b);
    // x * 0.0 is NaN for NaN and the infinities, else ±0; exp(±0) = 1
    // exactly, exp(NaN) the GPU's NaN 0x7fffffff; exp is approximate math,
    // so every element is inexact, in c and in its copy d alike
    let one = 1.0f32.to_bits() as u64;
    let want_c = [0x7fff_ffff, 0x7fff_ffff, one, 0x7fff_ffff]
        .into_iter()
        .chain([0x7fff_ffff, one, one, one])
        .collect::<Vec<u64>>();
    assert_eq!(bits(&r, "c_ptr"), want_c);
    assert_eq!(bits(&r, "d_ptr"), want_c);
    assert!(buf("c_ptr").inexact.iter().all(|&x| x));
    assert!(buf("d_ptr").inexact.iter().all(|&x| x));
    assert!(buf("a_ptr").inexact.iter().all(|&x| !x));
}
