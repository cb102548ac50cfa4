//! Triton's atomics (issue 12). Expected values are real Triton 3.6's on an
//! NVIDIA H200, measured with
//! `tools/probes/triton_features/measure_atomics_random.py` (its output is
//! `measure_atomics_random.json` beside it), each restated here with the
//! reasoning that explains it; the per-dtype tables are corpus cases
//! (`corpus/triton/atomic_*`, written from the same measurement).

use ksem_tests::serde_json::json;
use ksem_tests::*;

fn i32s(r: &ksem_interp::launch::RunResult, name: &str) -> Vec<i32> {
    bits(r, name).iter().map(|&b| b as u32 as i32).collect()
}

/// Which elements of buffer `name` the run marked inexact (order-dependent).
fn inexact(r: &ksem_interp::launch::RunResult, name: &str) -> Vec<bool> {
    let b = r.buffers.iter().find(|b| b.name == name).expect("buffer");
    (0..b.bits.len())
        .map(|i| b.inexact.get(i).copied().unwrap_or(false))
        .collect()
}

const TILE: &str = "offs = tl.arange(0, N)
o = tl.atomic_add(c_ptr + offs % 4, offs + 1)
tl.store(old_ptr + offs, o)
o2 = tl.atomic_add(c_ptr + 4 + offs, 7, mask=offs % 2 == 0)
tl.store(old2_ptr + offs, o2)
oc = tl.atomic_add(cnt_ptr, 1)
tl.store(oldc_ptr + tl.program_id(0), oc)";

fn tile_launch(programs: u64, init: i32) -> ksem_interp::launch::Launch {
    launch(
        &[programs],
        json!({"c_ptr": buf("int32", json!(vec![init; 20])),
               "old_ptr": buf("int32", json!(vec![-1; 16])),
               "old2_ptr": buf("int32", json!(vec![-1; 16])),
               "cnt_ptr": zeros("int32", 1),
               "oldc_ptr": buf("int32", json!(vec![-1; 3])),
               "N": cx(json!(16))}),
    )
}

/// Lanes of one atomic that hit one element all apply (lane i adds i + 1 to
/// element i % 4: 100 + 1 + 5 + 9 + 13 = 128, …); a 0-d atomic runs once per
/// program; masked lanes touch nothing and give 0 (measured: `old2` holds 0
/// at odd lanes).
#[test]
fn tile_atomics_apply_every_lane_once() {
    let src = kernel(
        "c_ptr, old_ptr, old2_ptr, cnt_ptr, oldc_ptr, N: tl.constexpr",
        TILE,
    );
    let r = run_clean(&src, &tile_launch(1, 100));
    let mut c = vec![128, 132, 136, 140];
    c.extend((0..16).map(|i| if i % 2 == 0 { 107 } else { 100 }));
    assert_eq!(i32s(&r, "c_ptr"), c);
    assert_eq!(i32s(&r, "cnt_ptr"), vec![1]);
    assert_eq!(i32s(&r, "oldc_ptr"), vec![0, -1, -1]);
    let old2: Vec<i32> = (0..16).map(|i| if i % 2 == 0 { 100 } else { 0 }).collect();
    assert_eq!(i32s(&r, "old2_ptr"), old2);
    // four lanes update each of elements 0..4: which came first is the
    // hardware's choice, so those old values are order-dependent; the
    // masked atomic's lanes each have an element of their own
    assert!(inexact(&r, "old_ptr").iter().all(|&x| x));
    assert!(inexact(&r, "old2_ptr").iter().all(|&x| !x));
}

/// Three programs: each adds its lanes once (3 × 28 = 84, …, 3 × 7 = 21), the
/// scalar counter counts programs; the old values are stores of different
/// programs into one buffer, a race ksem reports — so this launch stores the
/// old values nowhere and only the memory the atomics update is checked.
#[test]
fn tile_atomics_of_three_programs() {
    let body = "offs = tl.arange(0, N)
tl.atomic_add(c_ptr + offs % 4, offs + 1)
tl.atomic_add(c_ptr + 4 + offs, 7, mask=offs % 2 == 0)
oc = tl.atomic_add(cnt_ptr, 1)
tl.store(oldc_ptr + tl.program_id(0), oc)";
    let src = kernel(
        "c_ptr, old_ptr, old2_ptr, cnt_ptr, oldc_ptr, N: tl.constexpr",
        body,
    );
    let r = run_clean(&src, &tile_launch(3, 0));
    let mut c = vec![84, 96, 108, 120];
    c.extend((0..16).map(|i| if i % 2 == 0 { 21 } else { 0 }));
    assert_eq!(i32s(&r, "c_ptr"), c);
    assert_eq!(i32s(&r, "cnt_ptr"), vec![3]);
    // every program sees some prefix of the others' increments: 0, 1, 2 in
    // grid order here, but order-dependent
    assert_eq!(i32s(&r, "oldc_ptr"), vec![0, 1, 2]);
    assert_eq!(inexact(&r, "oldc_ptr"), vec![true, true, true]);
}

/// cas compares bit patterns and swaps where equal; and/or/xor; a float
/// operand of an int atomic and an int pointer's float operand convert to the
/// element type first (2.7 → 2.7f added to float memory; xchg of 3.9 into
/// int32 stores 3). Measured (`ops_i32`).
#[test]
fn cas_bitwise_and_converted_operands() {
    let body = "offs = tl.arange(0, 4)
a = tl.atomic_cas(p_ptr + offs, offs, offs + 100)
tl.store(old_ptr + offs, a)
b = tl.atomic_and(p_ptr + 4 + offs, 0x0F0F)
tl.store(old_ptr + 4 + offs, b)
c = tl.atomic_or(p_ptr + 8 + offs, 0x0F0F)
tl.store(old_ptr + 8 + offs, c)
d = tl.atomic_xor(p_ptr + 12 + offs, 0x0F0F)
tl.store(old_ptr + 12 + offs, d)
e = tl.atomic_add(q_ptr + offs, 2.7)
tl.store(old_ptr + 16 + offs, e.to(tl.int32))
f = tl.atomic_xchg(p_ptr + 16 + offs, 3.9)
tl.store(old_ptr + 20 + offs, f)";
    let src = kernel("p_ptr, q_ptr, old_ptr", body);
    let mut p = vec![0, 5, 2, 7];
    for _ in 0..3 {
        p.extend([0x1234, -1, 0, 0x00FF]);
    }
    p.extend([1, 2, 3, 4]);
    let l = launch(
        &[1],
        json!({"p_ptr": buf("int32", json!(p)),
               "q_ptr": buf("float32", json!([1.0, -1.0, 0.5, 1e9])),
               "old_ptr": zeros("int32", 24)}),
    );
    let r = run_clean(&src, &l);
    // cas: lanes 0 and 2 hold their index and swap to index + 100
    let mut want = vec![100, 5, 102, 7];
    // 0x1234 & 0x0f0f = 0x0204, -1 & 0x0f0f = 0x0f0f, 0, 0xff & 0x0f0f = 0x0f
    want.extend([0x0204, 0x0f0f, 0, 0x0f]);
    // | : 0x1f3f, -1, 0x0f0f, 0x0fff ; ^ : 0x1d3b, !0x0f0f, 0x0f0f, 0x0ff0
    want.extend([0x1f3f, -1, 0x0f0f, 0x0fff]);
    want.extend([0x1d3b, !0x0f0f, 0x0f0f, 0x0ff0]);
    want.extend([3, 3, 3, 3]);
    assert_eq!(i32s(&r, "p_ptr"), want);
    // 1 + 2.7f, -1 + 2.7f, 0.5 + 2.7f, 1e9 + 2.7f (rounds back to 1e9)
    let q: Vec<f32> = vec![1.0 + 2.7f32, -1.0 + 2.7f32, 0.5 + 2.7f32, 1e9f32 + 2.7f32];
    assert_eq!(bits(&r, "q_ptr"), f32_bits(&q));
    assert_eq!(
        bits(&r, "q_ptr"),
        vec![1080872141, 1071225242, 1078774989, 1315859240],
        "measured"
    );
    let mut old = vec![0, 5, 2, 7];
    for _ in 0..3 {
        old.extend([0x1234, -1, 0, 0x00FF]);
    }
    old.extend([1, -1, 0, 1_000_000_000, 1, 2, 3, 4]);
    assert_eq!(i32s(&r, "old_ptr"), old);
}

/// Float cas compares bits: +0.0 and -0.0 differ (no swap), a NaN equals a
/// NaN of the same bits (swaps in NaN + 1.0, the arithmetic NaN 0x7fffffff).
#[test]
fn float_cas_compares_bit_patterns() {
    let body = "offs = tl.arange(0, 4)
cmpv = tl.load(p_ptr + 4 + offs)
a = tl.atomic_cas(p_ptr + offs, cmpv, cmpv + 1.0)
tl.store(old_ptr + offs, a)";
    let src = kernel("p_ptr, old_ptr", body);
    let p = [
        "0x0",
        "0x80000000",
        "0x7fc00000",
        "0x3f800000",
        "0x80000000",
        "0x0",
        "0x7fc00000",
        "0x3f800000",
    ];
    let l = launch(
        &[1],
        json!({"p_ptr": {"buffer": {"dtype": "float32", "bits": p}},
               "old_ptr": zeros("float32", 4)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(
        bits(&r, "p_ptr")[..4],
        [0, 0x8000_0000, 0x7fff_ffff, 0x4000_0000]
    );
    assert_eq!(
        bits(&r, "old_ptr"),
        vec![0, 0x8000_0000, 0x7fc0_0000, 0x3f80_0000]
    );
}

/// The element types Triton 3.6 refuses, with its words.
#[test]
fn refused_element_types() {
    let cases = [
        (
            "float16",
            "tl.atomic_max(p_ptr + tl.arange(0, 4), 1.0)",
            "atomic_max does not support fp16",
        ),
        (
            "bfloat16",
            "tl.atomic_xchg(p_ptr + tl.arange(0, 4), 1.0)",
            "atomic_xchg does not support bf16",
        ),
        (
            "int8",
            "tl.atomic_add(p_ptr + tl.arange(0, 4), 1)",
            "atomic_add does not support int8",
        ),
        (
            "int16",
            "tl.atomic_add(p_ptr + tl.arange(0, 4), 1)",
            "atomic_add does not support int16",
        ),
        (
            "bool",
            "tl.atomic_add(p_ptr + tl.arange(0, 4), 1)",
            "atomic_add does not support int1",
        ),
        (
            "int16",
            "tl.atomic_cas(p_ptr, tl.zeros((), tl.int16), tl.zeros((), tl.int16))",
            "16-bit",
        ),
        (
            "float32",
            "tl.atomic_and(p_ptr + tl.arange(0, 4), 1)",
            "needs an integer pointer",
        ),
        ("int64", "tl.atomic_cas(p_ptr, 0, 1)", "does not convert"),
        (
            "int32",
            "tl.atomic_add(p_ptr, 1, sem=\"seq_cst\")",
            "sem= must be one of",
        ),
        (
            "int32",
            "tl.atomic_add(p_ptr, 1, scope=\"block\")",
            "scope= must be one of",
        ),
        (
            "int32",
            "tl.atomic_add(p_ptr, tl.arange(0, 4))",
            "scalar pointer takes a scalar operand",
        ),
    ];
    for (dtype, line, msg) in cases {
        let src = kernel("p_ptr", line);
        let l = launch(&[1], json!({"p_ptr": zeros(dtype, 4)}));
        let d = refused(&src, &l);
        assert!(d.message.contains(msg), "{line} on {dtype}: {}", d.message);
        assert_eq!((d.span.line, d.span.col), loc1(&src, line), "{line}");
    }
}

/// Accepted: every memory order and scope name (measured: four adds of 1
/// with relaxed/cta, acquire/gpu, release/sys, acq_rel give 4), and uint64.
#[test]
fn memory_orders_scopes_and_uint64() {
    let body = "offs = tl.arange(0, 4)
tl.atomic_add(p_ptr + offs, 1, sem=\"relaxed\", scope=\"cta\")
tl.atomic_add(p_ptr + offs, 1, sem=\"acquire\", scope=\"gpu\")
tl.atomic_add(p_ptr + offs, 1, sem=\"release\", scope=\"sys\")
tl.atomic_add(p_ptr + offs, 1, sem=\"acq_rel\")
tl.atomic_add(u_ptr + offs, -1)";
    let src = kernel("p_ptr, u_ptr", body);
    let l = launch(
        &[1],
        json!({"p_ptr": zeros("int32", 4), "u_ptr": zeros("uint64", 4)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(i32s(&r, "p_ptr"), vec![4; 4]);
    // -1 converts to uint64 as 2^64 - 1; 0 + that wraps to the same
    assert_eq!(bits(&r, "u_ptr"), vec![u64::MAX; 4]);
}

/// An atomic and a plain store of different programs on one element race
/// (only atomics do not race with each other).
#[test]
fn atomic_and_plain_store_of_two_programs_race() {
    let body = "pid = tl.program_id(0)
if pid == 0:
    tl.atomic_add(p_ptr, 1)
else:
    tl.store(p_ptr, 5)";
    let src = kernel("p_ptr", body);
    let l = launch(&[2], json!({"p_ptr": zeros("int32", 1)}));
    let ub = ub_of(&src, &l);
    assert_eq!(ub.len(), 1, "{ub:?}");
    assert_eq!(ub[0].kind, "data-race");
}

/// Tutorial 05's spin lock: `while tl.atomic_cas(Lock, 0, 1) == 1: pass`, a
/// read-modify-write of plain memory, `tl.atomic_xchg(Lock, 0)`. The lock
/// orders the programs' plain accesses, so there is no race, and the sum is
/// every program's contribution (1 + 2 + 3 + 4 = 10, with the first program
/// storing instead of adding as the tutorial's counter says).
#[test]
fn a_spin_lock_orders_plain_accesses() {
    let body = "pid = tl.program_id(0)
while tl.atomic_cas(lock_ptr, 0, 1) == 1:
    pass
count = tl.load(lock_ptr + 1)
acc = (pid + 1).to(tl.float32)
if count == 0:
    tl.atomic_xchg(lock_ptr + 1, 1)
else:
    acc += tl.load(sum_ptr)
tl.store(sum_ptr, acc)
tl.atomic_xchg(lock_ptr, 0)";
    let src = kernel("lock_ptr, sum_ptr", body);
    let l = launch(
        &[4],
        json!({"lock_ptr": zeros("int32", 2), "sum_ptr": zeros("float32", 1)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(bits(&r, "sum_ptr"), f32_bits(&[10.0]));
    assert_eq!(i32s(&r, "lock_ptr"), vec![0, 1]);
}

/// Without the lock the same accumulation races; and a plain access outside
/// the lock races with one inside it.
#[test]
fn accesses_outside_a_lock_still_race() {
    let unlocked = kernel(
        "lock_ptr, sum_ptr",
        "acc = tl.load(sum_ptr) + 1.0
tl.store(sum_ptr, acc)",
    );
    let half = kernel(
        "lock_ptr, sum_ptr",
        "pid = tl.program_id(0)
if pid == 0:
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    tl.store(sum_ptr, 1.0)
    tl.atomic_xchg(lock_ptr, 0)
else:
    tl.store(sum_ptr, 2.0)",
    );
    for src in [unlocked, half] {
        let l = launch(
            &[2],
            json!({"lock_ptr": zeros("int32", 1), "sum_ptr": zeros("float32", 1)}),
        );
        let ub = ub_of(&src, &l);
        assert!(!ub.is_empty() && ub[0].kind == "data-race", "{src}: {ub:?}");
    }
}
