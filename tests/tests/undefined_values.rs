//! Undefined values (issue 26; docs/semantics.md, "Undefined values"): the
//! masked-off lanes of a Triton load without `other`, the padding of a
//! block-pointer load without `padding_option`, and the elements of a launch
//! buffer given `"init": "none"` are undefined. Copying, arithmetic,
//! selecting and masking them away is fine; reaching a store to global
//! memory, a condition, an address, a mask, an index, an atomic, a divisor
//! or a shift amount is UB `undefined-value`, reported at the use with the
//! place that made the value as the report's `other`.
//!
//! Expected positions are computed from the source text ([`loc`]); expected
//! bits are derived by hand in each test.

use ksem_interp::launch::{parse_launch, UbReport};
use ksem_tests::serde_json::json;
use ksem_tests::*;

const UNDEF: &str = "undefined-value";

/// Asserts that `u` is an undefined-value report at `used` whose value was
/// made at `made`, and whose message contains every one of `says`.
fn assert_undefined(src: &str, u: &UbReport, used: (u32, u32), made: (u32, u32), says: &[&str]) {
    assert_eq!(u.kind, UNDEF, "{u:?}");
    assert_eq!(
        (u.line, u.col),
        used,
        "reported at {:?}, expected at {:?}",
        line_text(src, u.line),
        line_text(src, used.0)
    );
    let o = u.other.as_ref().expect("the place that made the value");
    assert_eq!(
        (o.line, o.col),
        made,
        "made at {:?}",
        line_text(src, o.line)
    );
    for s in says {
        assert!(u.message.contains(s), "{s:?} not in {:?}", u.message);
    }
}

/// Three negative numbers loaded into a block of 4 lanes: lane 3 is masked off.
fn three_negatives() -> ksem_interp::launch::Launch {
    launch(
        &[1],
        json!({
            "x_ptr": buf("float32", json!([-3.0, -1.0, -2.0])),
            "out_ptr": zeros("float32", 4),
            "n": scalar("int32", json!(3)),
        }),
    )
}

const PARAMS: &str = "x_ptr, out_ptr, n";

/// The case: a row maximum over negative values with the masked
/// lane left undefined. ksem (and the GPU) give the lane 0, so the maximum
/// silently became 0; now the store of it is UB, naming the reduction.
#[test]
fn a_masked_load_without_other_reaching_a_max_and_a_store() {
    let body = "offs = tl.arange(0, 4)\n\
                x = tl.load(x_ptr + offs, mask=offs < n)\n\
                m = tl.max(x, axis=0)\n\
                tl.store(out_ptr, m)";
    let src = kernel(PARAMS, body);
    let ub = ub_of(&src, &three_negatives());
    assert_eq!(ub.len(), 1);
    let (max_line, max_col) = loc(&src, "tl.max", "tl.max");
    assert_undefined(
        &src,
        &ub[0],
        loc1(&src, "tl.store"),
        loc(&src, "x = tl.load", "tl.load"),
        &[
            "the value stored",
            &format!("through the reduction (max) at {max_line}:{max_col}"),
            "masked-off lane",
        ],
    );
    assert_eq!(ub[0].program, [0, 0, 0]);
}

/// The same sum used as a branch condition: UB at the condition.
#[test]
fn a_masked_load_without_other_reaching_a_branch() {
    let body = "offs = tl.arange(0, 4)\n\
                x = tl.load(x_ptr + offs, mask=offs < n)\n\
                s = tl.sum(x, axis=0)\n\
                if s < 0:\n    tl.store(out_ptr, s)";
    let src = kernel(PARAMS, body);
    let ub = ub_of(&src, &three_negatives());
    assert_undefined(
        &src,
        &ub[0],
        loc(&src, "if s < 0", "s < 0"),
        loc(&src, "x = tl.load", "tl.load"),
        &["the condition", "reduction (sum)"],
    );
}

/// Storing the loaded tile with no mask writes the masked-off lane's
/// undefined value to global memory: UB at lane 3.
#[test]
fn a_masked_load_stored_unmasked() {
    let body = "offs = tl.arange(0, 4)\n\
                x = tl.load(x_ptr + offs, mask=offs < n)\n\
                tl.store(out_ptr + offs, x + 1.0)";
    let src = kernel(PARAMS, body);
    let ub = ub_of(&src, &three_negatives());
    assert_undefined(
        &src,
        &ub[0],
        loc1(&src, "tl.store"),
        loc(&src, "x = tl.load", "tl.load"),
        &["the value stored"],
    );
    assert_eq!(ub[0].element, [3]);
}

/// Correct kernels: the undefined lane is masked away (the store's mask,
/// `tl.where` with the load's mask, `other` given, `(y > 0) & m` where the
/// defined `m` is false). No UB; the bits are those of lanes 0..2 by hand:
/// 2·x + 1 = -5, -1, -3; lane 3 of `out` keeps its 0.
#[test]
fn kernels_that_mask_the_undefined_lanes_away_stay_clean() {
    let want = f32_bits(&[-5.0, -1.0, -3.0, 0.0]);
    for store in [
        "tl.store(out_ptr + offs, y, mask=offs < n)",
        "tl.store(out_ptr + offs, tl.where(offs < n, y, 0.0))",
        "tl.store(out_ptr + offs, y, mask=(y < 0) & (offs < n))",
        "tl.store(out_ptr + offs, y, mask=(offs < n) & (y < 0))",
    ] {
        let body = format!(
            "offs = tl.arange(0, 4)\n\
             x = tl.load(x_ptr + offs, mask=offs < n)\n\
             y = x * 2.0 + 1.0\n\
             {store}"
        );
        let r = run_clean(&kernel(PARAMS, &body), &three_negatives());
        assert_eq!(bits(&r, "out_ptr"), want, "{store}");
    }
    // with `other=-inf` the maximum is defined: max(-3, -1, -2, -inf) = -1
    let body = "offs = tl.arange(0, 4)\n\
                x = tl.load(x_ptr + offs, mask=offs < n, other=-float('inf'))\n\
                tl.store(out_ptr, tl.max(x, axis=0))";
    let r = run_clean(&kernel(PARAMS, body), &three_negatives());
    assert_eq!(bits(&r, "out_ptr")[0], (-1.0f32).to_bits() as u64);
    // a maximum over `tl.where(mask, x, -inf)` is defined too
    let body = "offs = tl.arange(0, 4)\n\
                x = tl.load(x_ptr + offs, mask=offs < n)\n\
                x = tl.where(offs < n, x, -float('inf'))\n\
                tl.store(out_ptr, tl.max(x, axis=0))";
    let r = run_clean(&kernel(PARAMS, body), &three_negatives());
    assert_eq!(bits(&r, "out_ptr")[0], (-1.0f32).to_bits() as u64);
}

/// `true | undef` is true and `false & undef` is false (MemorySanitizer's
/// rule), but `true & undef` is undefined: as a store mask it is UB.
#[test]
fn and_or_are_decided_by_a_defined_operand_only() {
    let base = "offs = tl.arange(0, 4)\n\
                x = tl.load(x_ptr + offs, mask=offs < n)\n";
    // lane 3: (offs >= n) is true there, so `| (x < 0)` is true: defined
    let ok =
        format!("{base}tl.store(out_ptr + offs, x, mask=(offs < n) & ((offs >= n) | (x < 0)))");
    run_clean(&kernel(PARAMS, &ok), &three_negatives());
    // lane 3: (offs >= n) & (x < 0) is true & undef: the mask is undefined
    let bad = format!("{base}tl.store(out_ptr + offs, x * 0.0, mask=(offs >= n) & (x < 0))");
    let src = kernel(PARAMS, &bad);
    let ub = ub_of(&src, &three_negatives());
    assert_undefined(
        &src,
        &ub[0],
        loc1(&src, "tl.store"),
        loc(&src, "x = tl.load", "tl.load"),
        &["the mask"],
    );
}

/// An undefined integer divisor and shift amount are UB at the operation
/// (LLVM: `sdiv x, undef` is UB); an undefined dividend is not.
#[test]
fn an_undefined_divisor_or_shift_amount() {
    let l = || {
        launch(
            &[1],
            json!({
                "x_ptr": buf("int32", json!([7, 8, 9])),
                "out_ptr": zeros("int32", 4),
                "n": scalar("int32", json!(3)),
            }),
        )
    };
    let base = "offs = tl.arange(0, 4)\n\
                x = tl.load(x_ptr + offs, mask=offs < n)\n";
    for (expr, says) in [
        ("100 // x", "the divisor"),
        ("100 % x", "the divisor"),
        ("1 << x", "the shift amount"),
    ] {
        let src = kernel(
            PARAMS,
            &format!("{base}y = {expr}\ntl.store(out_ptr + offs, y, mask=offs < n)"),
        );
        let ub = ub_of(&src, &l());
        let (line, _) = loc1(&src, "y = ");
        assert_eq!(
            (ub[0].kind.as_str(), ub[0].line),
            (UNDEF, line),
            "{expr}: {ub:?}"
        );
        assert!(ub[0].message.contains(says), "{expr}: {}", ub[0].message);
    }
    // the dividend undefined: 7 // 2, 8 // 2, 9 // 2 = 3, 4, 4; lane 3 masked away
    let src = kernel(
        PARAMS,
        &format!("{base}tl.store(out_ptr + offs, x // 2, mask=offs < n)"),
    );
    assert_eq!(bits(&run_clean(&src, &l()), "out_ptr"), [3, 4, 4, 0]);
}

/// A block-pointer load with `boundary_check` and no `padding_option`
/// leaves the padding undefined (Triton: `""` is "an undefined value");
/// `padding_option="zero"` defines it: 1 + 2 + 3 + 0 = 6.
#[test]
fn block_pointer_padding_without_padding_option() {
    let l = || {
        launch(
            &[1],
            json!({
                "x_ptr": buf("float32", json!([1.0, 2.0, 3.0])),
                "out_ptr": zeros("float32", 1),
                "n": scalar("int32", json!(3)),
            }),
        )
    };
    let body = |pad: &str| {
        format!(
            "p = tl.make_block_ptr(x_ptr, shape=(n,), strides=(1,), offsets=(0,), block_shape=(4,), order=(0,))\n\
             x = tl.load(p, boundary_check=(0,){pad})\n\
             tl.store(out_ptr, tl.sum(x, axis=0))"
        )
    };
    let src = kernel(PARAMS, &body(""));
    let ub = ub_of(&src, &l());
    assert_undefined(
        &src,
        &ub[0],
        loc1(&src, "tl.store"),
        loc(&src, "x = tl.load", "tl.load"),
        &["reduction (sum)"],
    );
    let r = run_clean(&kernel(PARAMS, &body(", padding_option=\"zero\"")), &l());
    assert_eq!(bits(&r, "out_ptr"), f32_bits(&[6.0]));
}

/// The undefined lanes of a matrix product's operand reach every result
/// element of their row: storing the product is UB naming the product.
#[test]
fn a_matrix_product_of_an_undefined_operand() {
    let src = kernel(
        "a_ptr, out_ptr, n",
        "r = tl.arange(0, 16)\n\
         a = tl.load(a_ptr + r[:, None] * 16 + r[None, :], mask=r[None, :] < n)\n\
         c = tl.dot(a, a)\n\
         tl.store(out_ptr + r[:, None] * 16 + r[None, :], c)",
    );
    let l = launch(
        &[1],
        json!({
            "a_ptr": zeros("float32", 256),
            "out_ptr": zeros("float32", 256),
            "n": scalar("int32", json!(15)),
        }),
    );
    let ub = ub_of(&src, &l);
    assert_undefined(
        &src,
        &ub[0],
        loc1(&src, "tl.store"),
        loc(&src, "a = tl.load", "tl.load"),
        &["matrix product"],
    );
}

// ----- uninitialised launch buffers --------------------------------------------

/// `{"buffer": {"dtype": D, "len": N, "init": "none"}}`
fn uninit(dtype: &str, len: usize) -> ksem_tests::serde_json::Value {
    json!({"buffer": {"dtype": dtype, "len": len, "init": "none"}})
}

/// A Triton kernel accumulating into a `torch.empty` output (an atomic
/// add onto an element nothing wrote): UB at the atomic, made by it.
#[test]
fn triton_accumulating_into_an_uninitialised_output() {
    let src = kernel(
        "x_ptr, out_ptr, n",
        "offs = tl.arange(0, 4)\n\
         x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)\n\
         tl.atomic_add(out_ptr, tl.sum(x, axis=0))",
    );
    let l = launch(
        &[2],
        json!({"x_ptr": buf("float32", json!([1.0, 2.0, 3.0])), "out_ptr": uninit("float32", 1), "n": scalar("int32", json!(3))}),
    );
    let ub = ub_of(&src, &l);
    let at = loc1(&src, "tl.atomic_add");
    assert_undefined(
        &src,
        &ub[0],
        at,
        at,
        &["the atomic", "out_ptr[0]", "uninitialised"],
    );
    // the same output written first by a store: defined, 6 + 6 = 12
    let src = kernel(
        "x_ptr, out_ptr, n",
        "offs = tl.arange(0, 4)\n\
         x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)\n\
         tl.store(out_ptr, tl.sum(x, axis=0))\n\
         tl.atomic_add(out_ptr, tl.sum(x, axis=0))",
    );
    let one = launch(
        &[1],
        json!({"x_ptr": buf("float32", json!([1.0, 2.0, 3.0])), "out_ptr": uninit("float32", 1), "n": scalar("int32", json!(3))}),
    );
    assert_eq!(bits(&run_clean(&src, &one), "out_ptr"), f32_bits(&[12.0]));
}

const CUDAPY: &str = "from numba import cuda\n\n\n";

/// A launch of one block of `threads` threads.
fn simt(threads: u32, args: ksem_tests::serde_json::Value) -> ksem_interp::launch::Launch {
    let text = json!({"grid": [1], "block": [threads], "args": args}).to_string();
    parse_launch(&text).expect("test launch")
}

/// A CUDA Python kernel summing a `cuda.device_array` nothing wrote: the
/// store of the sum is UB, made by the read of the array (thread 0).
#[test]
fn cudapy_reading_a_never_written_device_array() {
    let src = format!(
        "{CUDAPY}@cuda.jit\ndef kern(tmp, out):\n    i = cuda.threadIdx.x\n    acc = tmp[i] * 2.0\n    out[i] = acc\n"
    );
    let l = simt(
        2,
        json!({"tmp": uninit("float32", 2), "out": zeros("float32", 2)}),
    );
    let ub = ub_of(&src, &l);
    assert_undefined(
        &src,
        &ub[0],
        loc(&src, "out[i] = acc", "out[i]"),
        loc(&src, "acc = tmp[i]", "tmp[i]"),
        &["the read at", "tmp[0]", "uninitialised"],
    );
    assert_eq!(ub[0].thread, Some([0, 0, 0]));
}

/// `out[i] += x` into an uninitialised output reads the undefined element
/// and stores the sum: UB at the store. Written first (`out[i] = 0`), the
/// same kernel is clean: 0 + 2·i.
#[test]
fn cudapy_accumulating_into_an_uninitialised_output() {
    let body = |init: &str| {
        format!("{CUDAPY}@cuda.jit\ndef kern(out):\n    i = cuda.threadIdx.x\n{init}    out[i] += 2.0 * i\n")
    };
    let l = || simt(3, json!({"out": uninit("float32", 3)}));
    let src = body("");
    let ub = ub_of(&src, &l());
    assert_eq!(ub[0].kind, UNDEF, "{ub:?}");
    assert_eq!(ub[0].line, loc1(&src, "out[i] +=").0);
    let r = run_clean(&body("    out[i] = 0\n"), &l());
    assert_eq!(bits(&r, "out"), f32_bits(&[0.0, 2.0, 4.0]));
    assert!(r.buffers[0].undefined.iter().all(|&u| !u));
}

/// An undefined value stored to shared memory stays undefined there (shared
/// memory does not outlive the launch); read back and stored to global
/// memory, it is UB at that store, made at the global read.
#[test]
fn an_undefined_value_through_shared_memory() {
    let src = format!(
        "{CUDAPY}@cuda.jit\ndef kern(tmp, out):\n    s = cuda.shared.array(2, dtype=numba.float32)\n    i = cuda.threadIdx.x\n    s[i] = tmp[i]\n    cuda.syncthreads()\n    out[i] = s[1 - i]\n"
    )
    .replace("from numba import cuda", "import numba\nfrom numba import cuda");
    let l = simt(
        2,
        json!({"tmp": uninit("float32", 2), "out": zeros("float32", 2)}),
    );
    let ub = ub_of(&src, &l);
    assert_undefined(
        &src,
        &ub[0],
        loc(&src, "out[i] = s", "out[i]"),
        loc(&src, "s[i] = tmp[i]", "tmp[i]"),
        &["the value stored", "tmp[1]"],
    );
}

/// An undefined index and branch condition in CUDA Python.
#[test]
fn cudapy_undefined_index_and_condition() {
    let l = || {
        simt(
            1,
            json!({"idx": uninit("int32", 1), "out": zeros("float32", 4)}),
        )
    };
    let index =
        format!("{CUDAPY}@cuda.jit\ndef kern(idx, out):\n    j = idx[0]\n    out[j] = 1.0\n");
    let ub = ub_of(&index, &l());
    assert_undefined(
        &index,
        &ub[0],
        loc(&index, "out[j] = 1.0", "out[j]"),
        loc(&index, "j = idx[0]", "idx[0]"),
        &["the index"],
    );
    let cond = format!(
        "{CUDAPY}@cuda.jit\ndef kern(idx, out):\n    if idx[0] > 2:\n        out[0] = 1.0\n"
    );
    let ub = ub_of(&cond, &l());
    assert_eq!(
        (ub[0].kind.as_str(), ub[0].line),
        (UNDEF, loc1(&cond, "if idx").0)
    );
    assert!(ub[0].message.contains("the condition"));
}

/// Whether an undefined operand is UB is the op's hazard declaration's
/// (`interp/src/hazard.rs`): CUDA Python defines integer division by zero
/// (0), so its `//` declares no hazard, and an undefined divisor gives an
/// undefined quotient, UB only at its use, the store, made at the read of
/// the divisor (Triton's `//`, whose zero divisor is UB, is UB at the
/// division: `an_undefined_divisor_or_shift_amount`). CUDA Python's `<<`
/// declares the shift range: an undefined amount is UB at the shift.
#[test]
fn cudapy_an_undefined_divisor_gives_an_undefined_quotient() {
    let body = |e: &str| {
        format!("{CUDAPY}@cuda.jit\ndef kern(d, out):\n    i = cuda.threadIdx.x\n    q = {e}\n    out[i] = q\n")
    };
    let l = || {
        simt(
            2,
            json!({"d": uninit("int32", 2), "out": zeros("int64", 2)}),
        )
    };
    let src = body("100 // d[i]");
    let ub = ub_of(&src, &l());
    assert_undefined(
        &src,
        &ub[0],
        loc(&src, "out[i] = q", "out[i]"),
        loc(&src, "q = 100", "d[i]"),
        &["the value stored", "d[0]"],
    );
    let src = body("1 << d[i]");
    let ub = ub_of(&src, &l());
    assert_eq!(
        (ub[0].kind.as_str(), ub[0].line),
        (UNDEF, loc1(&src, "q = 1 <<").0),
        "{ub:?}"
    );
    assert!(
        ub[0].message.contains("the shift amount"),
        "{}",
        ub[0].message
    );
}

/// Elements of an uninitialised buffer that nothing wrote stay undefined
/// in the result (`"undefined_elements"`); written ones are defined.
#[test]
fn the_result_lists_elements_still_undefined() {
    let src = kernel("out_ptr", "tl.store(out_ptr + 1, 5)");
    let l = launch(&[1], json!({"out_ptr": uninit("int32", 3)}));
    let r = run_clean(&src, &l);
    assert_eq!(r.buffers[0].undefined, [true, false, true]);
    assert_eq!(bits(&r, "out_ptr"), [0, 5, 0]);
    let j = r.to_json();
    assert_eq!(j["buffers"]["out_ptr"]["undefined_elements"], json!([0, 2]));
}

/// The launch format: `"init": "none"`, `"undefined"` indices, and their errors.
#[test]
fn launch_json_for_uninitialised_buffers() {
    let arg = |b: ksem_tests::serde_json::Value| {
        json!({"grid": [1], "args": {"p": {"buffer": b}}}).to_string()
    };
    let undefined_of = |text: String| match parse_launch(&text).expect("parses").arg("p") {
        Some(ksem_interp::launch::ArgSpec::Buffer { undefined, .. }) => undefined.clone(),
        _ => panic!("no buffer"),
    };
    assert_eq!(
        undefined_of(arg(json!({"dtype": "int8", "len": 2, "init": "none"}))),
        Some(vec![true, true])
    );
    assert_eq!(
        undefined_of(arg(
            json!({"dtype": "int8", "data": [1, 2, 3], "undefined": [2]})
        )),
        Some(vec![false, false, true])
    );
    assert_eq!(undefined_of(arg(json!({"dtype": "int8", "len": 2}))), None);
    for (b, says) in [
        (json!({"dtype": "int8", "init": "none"}), "needs \"len\""),
        (
            json!({"dtype": "int8", "len": 2, "undefined": [2]}),
            "undefined[0]: 2 is past",
        ),
        (
            json!({"dtype": "int8", "len": 2, "init": "none", "undefined": [0]}),
            "every element undefined already",
        ),
        (json!({"dtype": "int8", "len": 2, "init": "zero"}), "init:"),
    ] {
        let e = parse_launch(&arg(b.clone())).expect_err("refused");
        assert!(e.to_string().contains(says), "{b}: {e}");
    }
}

/// Warp-level code: a lane exchange through shared memory with no barrier
/// relies on a warp's threads running in lockstep, which ksem's contract
/// (and the GPU since Volta) does not promise: a race, and the report says
/// that both threads are in one warp. Across warps it says nothing of warps.
#[test]
fn a_lane_exchange_without_a_barrier_is_a_race_naming_the_warp() {
    let src = |partner: &str| {
        format!(
            "import numba\n{CUDAPY}@cuda.jit\ndef kern(x, out):\n    s = cuda.shared.array(64, dtype=numba.float32)\n    i = cuda.threadIdx.x\n    s[i] = x[i]\n    out[i] = s[{partner}]\n"
        )
    };
    let l = || {
        simt(
            64,
            json!({"x": zeros("float32", 64), "out": zeros("float32", 64)}),
        )
    };
    // lane 0 reads s[1], which lane 1 of the same warp wrote
    let within = src("i ^ 1");
    let ub = ub_of(&within, &l());
    assert_eq!(ub[0].kind, "data-race", "{ub:?}");
    assert!(
        ub[0]
            .message
            .contains("both threads are in warp 0 of the block"),
        "{}",
        ub[0].message
    );
    // lane 0 reads s[32], which lane 32 (warp 1) wrote
    let across = src("(i + 32) % 64");
    let ub = ub_of(&across, &l());
    assert_eq!(ub[0].kind, "data-race", "{ub:?}");
    assert!(!ub[0].message.contains("warp"), "{}", ub[0].message);
}

/// A store of an unchanged copy of uninitialised memory (a kernel copying a
/// `torch.empty` input) is reported without stopping the run: the report
/// ends with `UNINITIALIZED_COPY`, the later store still happens, and the
/// destination elements stay undefined in the result. A value computed
/// from the same memory stops the run at its store.
#[test]
fn a_copy_of_uninitialised_memory_is_reported_and_the_run_goes_on() {
    use ksem_interp::eval::UNINITIALIZED_COPY;
    let l = || {
        launch(
            &[1],
            json!({"src": uninit("float32", 4), "dst": zeros("float32", 4), "flag": zeros("int32", 1)}),
        )
    };
    let copy = kernel(
        "src, dst, flag",
        "offs = tl.arange(0, 4)\n\
         x = tl.load(src + offs)\n\
         tl.store(dst + offs, x)\n\
         tl.store(flag, 7)",
    );
    let r = run(&copy, &l()).expect("runs");
    assert_eq!(r.ub.len(), 1, "{:?}", r.ub);
    assert_undefined(
        &copy,
        &r.ub[0],
        loc(&copy, "tl.store(dst", "tl.store"),
        loc(&copy, "x = tl.load", "tl.load"),
        &[UNINITIALIZED_COPY],
    );
    assert_eq!(bits(&r, "flag"), [7], "the run went on after the copy");
    let dst = r.buffers.iter().find(|b| b.name == "dst").expect("dst");
    assert_eq!(dst.undefined, [true; 4]);
    // x + 0.0 is computed from the undefined value: UB that stops the run
    let computed = copy.replace("tl.store(dst + offs, x)", "tl.store(dst + offs, x + 0.0)");
    let r = run(&computed, &l()).expect("runs");
    assert_eq!(r.ub.len(), 1, "{:?}", r.ub);
    assert!(
        !r.ub[0].message.contains(UNINITIALIZED_COPY),
        "{}",
        r.ub[0].message
    );
    assert_eq!(bits(&r, "flag"), [0], "the run stopped at the store");
    // a masked-off lane of a load without `other` is not uninitialised
    // memory: storing it stops the run too
    let masked = copy.replace("tl.load(src + offs)", "tl.load(dst + offs, mask=offs < 2)");
    let r = run(&masked, &l()).expect("runs");
    assert!(
        !r.ub[0].message.contains(UNINITIALIZED_COPY),
        "{}",
        r.ub[0].message
    );
    assert_eq!(bits(&r, "flag"), [0]);
}
