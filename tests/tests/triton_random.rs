//! Triton's Philox random numbers (issue 12). The bits are checked against
//! the Random123 known answer for Philox-4x32-10 (independent of Triton),
//! against real Triton 3.6 on an H200 (`tools/probes/triton_features/
//! measure_atomics_random.json`, also the corpus case `random_philox`), and
//! by hand for the uniform conversion.

use ksem_tests::serde_json::{json, Value as Json};
use ksem_tests::*;

fn measured() -> Json {
    let p = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tools/probes/triton_features/measure_atomics_random.json"
    );
    ksem_tests::serde_json::from_str(&std::fs::read_to_string(p).expect("measurement file"))
        .expect("JSON")
}

/// Philox-4x32 with 10 rounds of counter (0, 0, 0, 0) and key (0, 0) is
/// Random123's first known-answer vector: randint4x(seed 0, offset 0).
#[test]
fn randint4x_of_zero_is_random123s_known_answer() {
    let src = kernel(
        "o_ptr",
        "a, b, c, d = tl.randint4x(0, tl.arange(0, 2))
tl.store(o_ptr + tl.arange(0, 2), a)
tl.store(o_ptr + 2 + tl.arange(0, 2), b)
tl.store(o_ptr + 4 + tl.arange(0, 2), c)
tl.store(o_ptr + 6 + tl.arange(0, 2), d)",
    );
    let l = launch(&[1], json!({"o_ptr": zeros("uint32", 8)}));
    let b = bits(&run_clean(&src, &l), "o_ptr");
    assert_eq!(
        [b[0], b[2], b[4], b[6]],
        [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]
    );
}

/// Every seed the probe measured (int32 0, 42, -7; int64 123456789012):
/// randint, rand, the four randint4x words, randint at offsets past 10^9 and
/// rand with 7 rounds bit for bit; randn within 2 units in the last place
/// (Triton's log/sqrt/cos/sin are approximate) and marked inexact.
#[test]
fn random_numbers_match_real_triton() {
    let m = measured();
    let src = kernel(
        "seed, o_ptr, N: tl.constexpr",
        "offs = tl.arange(0, N)
tl.store(o_ptr + offs, tl.randint(seed, offs).to(tl.int32, bitcast=True))
tl.store(o_ptr + N + offs, tl.rand(seed, offs).to(tl.int32, bitcast=True))
tl.store(o_ptr + 2 * N + offs, tl.randn(seed, offs).to(tl.int32, bitcast=True))
a, b, c, d = tl.randint4x(seed, offs)
tl.store(o_ptr + 3 * N + offs, a.to(tl.int32, bitcast=True))
tl.store(o_ptr + 4 * N + offs, b.to(tl.int32, bitcast=True))
tl.store(o_ptr + 5 * N + offs, c.to(tl.int32, bitcast=True))
tl.store(o_ptr + 6 * N + offs, d.to(tl.int32, bitcast=True))
tl.store(o_ptr + 7 * N + offs, tl.randint(seed, offs + 1000000007).to(tl.int32, bitcast=True))
tl.store(o_ptr + 8 * N + offs, tl.rand(seed, offs, n_rounds=7).to(tl.int32, bitcast=True))",
    );
    for (tab, dtype) in [
        ("rand_seed_0", "int32"),
        ("rand_seed_42", "int32"),
        ("rand_seed_neg", "int32"),
        ("rand_seed_big", "int64"),
    ] {
        let t = &m[tab];
        let n = t["N"].as_u64().unwrap() as usize;
        let want: Vec<u64> = t["out"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        let l = launch(
            &[1],
            json!({"seed": scalar(dtype, t["seed"].clone()), "o_ptr": zeros("int32", 9 * n),
                   "N": cx(json!(n))}),
        );
        let r = run_clean(&src, &l);
        let got = bits(&r, "o_ptr");
        let out = r.buffers.iter().find(|b| b.name == "o_ptr").unwrap();
        for i in 0..9 * n {
            if i / n == 2 {
                let d = (got[i] as u32 as i32 as i64 - want[i] as u32 as i32 as i64).abs();
                assert!(
                    d <= 2,
                    "{tab} randn[{}]: {:#x} vs {:#x}",
                    i - 2 * n,
                    got[i],
                    want[i]
                );
                assert!(out.inexact[i], "{tab} randn[{}] is approximate", i - 2 * n);
            } else {
                assert_eq!(got[i], want[i], "{tab} block {} element {}", i / n, i % n);
            }
        }
    }
}

/// uint_to_uniform_float: the bits as int32, negatives folded to -x - 1,
/// converted to float32 and times 4.6566127342e-10 as float32: 0 → 0,
/// 1 → the scale, 0xffffffff (-1 → 0) → 0, 0x80000000 (MIN → MAX, which
/// rounds to 2^31) → 2^31 · scale, the largest result and still below 1.
#[test]
fn uniform_conversion_by_hand() {
    let src = kernel(
        "x_ptr, o_ptr",
        "x = tl.load(x_ptr + tl.arange(0, 4))
tl.store(o_ptr + tl.arange(0, 4), tl.uint_to_uniform_float(x))",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": {"buffer": {"dtype": "uint32", "bits": ["0x0", "0x1", "0xffffffff", "0x80000000"]}},
               "o_ptr": zeros("float32", 4)}),
    );
    // Triton writes the scale as the Python float 4.6566127342e-10
    let scale = 4.6566127342e-10f64 as f32;
    let top = 2147483648.0f32 * scale;
    assert!(top < 1.0);
    assert_eq!(
        bits(&run_clean(&src, &l), "o_ptr"),
        f32_bits(&[0.0, scale, 0.0, top])
    );
}

/// A float seed, a tile seed and a float offset are refused.
#[test]
fn bad_seeds_and_offsets_are_refused() {
    for (line, msg) in [
        (
            "tl.store(o_ptr, tl.randint(1.5, 0))",
            "seed must be an integer",
        ),
        (
            "tl.store(o_ptr + tl.arange(0, 2), tl.rand(tl.arange(0, 2), tl.arange(0, 2)))",
            "seed must be a scalar",
        ),
        (
            "tl.store(o_ptr, tl.rand(3, 0.5))",
            "offset must be an integer",
        ),
    ] {
        let src = kernel("o_ptr", line);
        let l = launch(&[1], json!({"o_ptr": zeros("uint32", 2)}));
        let d = refused(&src, &l);
        assert!(d.message.contains(msg), "{line}: {}", d.message);
    }
}

/// int64 offsets past 2^32 feed their high word to the second counter
/// (measured: seed 5, offsets 4294967290 + i; randint's bits widened to int64
/// through int32, rand and randn widened to float64).
#[test]
fn int64_offsets_use_the_high_word() {
    let m = measured();
    let t = &m["rand_offs_i64"];
    let n = t["N"].as_u64().unwrap() as usize;
    let want: Vec<u64> = t["out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let src = kernel(
        "seed, o_ptr, N: tl.constexpr",
        "offs = tl.arange(0, N).to(tl.int64) + 4294967290
tl.store(o_ptr + tl.arange(0, N), tl.randint(seed, offs).to(tl.int32, bitcast=True).to(tl.int64))
tl.store(o_ptr + N + tl.arange(0, N), tl.rand(seed, offs).to(tl.float64).to(tl.int64, bitcast=True))
tl.store(o_ptr + 2 * N + tl.arange(0, N), tl.randn(seed, offs).to(tl.float64).to(tl.int64, bitcast=True))",
    );
    let l = launch(
        &[1],
        json!({"seed": scalar("int32", json!(5)), "o_ptr": zeros("int64", 3 * n), "N": cx(json!(n))}),
    );
    let got = bits(&run_clean(&src, &l), "o_ptr");
    assert_eq!(got[..2 * n], want[..2 * n]);
    for i in 2 * n..3 * n {
        // float32 randn widened: 1 float32 ulp is 2^29 float64 ulps
        let d = (got[i] as i64 - want[i] as i64).abs();
        assert!(
            d <= 2 << 29,
            "randn[{}]: {:#x} vs {:#x}",
            i - 2 * n,
            got[i],
            want[i]
        );
    }
}
