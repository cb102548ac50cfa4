//! Constant strings and bytes stored into numpy `U<n>`/`S<n>` elements
//! (text arrays, `"text"` buffers in the launch, and text fields of
//! records). numba-cuda's rule, measured on the GPU
//! (tools/probes/numba/host_values.json, numba-cuda 0.30.4 on an H200):
//! the first code points that fit, each a little-endian UTF-32 unit (`U`) or
//! one byte (`S`); a shorter text is padded with zero bytes to the element's
//! end, a longer one is cut. The arrays start filled with "pqrstuvwxyzW", so
//! that padding shows.

use ksem_interp::launch::parse_launch;
use ksem_tests::serde_json::{json, Value as Json};
use ksem_tests::*;

const PREFILL: &[u8; 12] = b"pqrstuvwxyzW";

/// The probe's kernels (tools/probes/numba/host_values.py), one constant
/// per thread.
const U_KERNEL: &str = "from numba import cuda

@cuda.jit
def u_assign(arr):
    i = cuda.grid(1)
    if i == 0:
        arr[i] = \"XYZ\"
    elif i == 1:
        arr[i] = \"\"
    elif i == 2:
        arr[i] = \"0123456789abcdefXY\"
    elif i == 3:
        arr[i] = \"é€😀\"
    elif i == 4:
        arr[i] = \"é\"
    elif i == 5:
        arr[i] = \"€\"
    elif i == 6:
        arr[i] = \"ABCDEFGHIJKL\"
";

const B_KERNEL: &str = "from numba import cuda

@cuda.jit
def b_assign(arr):
    i = cuda.grid(1)
    if i == 0:
        arr[i] = b\"XYZ\"
    elif i == 1:
        arr[i] = b\"\"
    elif i == 2:
        arr[i] = b\"0123456789abcdefXY\"
    elif i == 3:
        arr[i] = b\"\\xff\\x00a\"
    elif i == 4:
        arr[i] = b\"ABCDEFGHIJKL\"
";

fn run_text(src: &str, threads: u64, text: &str, data: Vec<u64>) -> Vec<u64> {
    let l = parse_launch(
        &json!({"grid": [1], "block": [threads], "args": {
            "arr": {"buffer": {"text": text, "len": threads, "data": data}}}})
        .to_string(),
    )
    .unwrap();
    bits(&run_clean(src, &l), "arr")
}

/// `units` as the little-endian bytes of `unit`-byte code units.
fn units_le(units: &[u32], unit: usize) -> Vec<u64> {
    units
        .iter()
        .flat_map(|&u| (0..unit).map(move |j| ((u >> (8 * j)) & 0xff) as u64))
        .collect()
}

/// The measured rows of `key` (a list of lists of numbers) as bytes.
fn measured(key: &str, unit: usize) -> Vec<u64> {
    let j = probe_json("numba/host_values.json");
    let rows: &Vec<Json> = j[key].as_array().expect("a list of rows");
    let units: Vec<u32> = rows
        .iter()
        .flat_map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap() as u32)
        })
        .collect();
    units_le(&units, unit)
}

#[test]
fn unicode_constants_fill_u12_elements_as_numba_cuda_does() {
    let prefill: Vec<u32> = PREFILL.iter().map(|&b| b as u32).collect();
    let data = units_le(&prefill.repeat(8), 4);
    let got = run_text(U_KERNEL, 8, "U12", data);
    // by hand: "XYZ" → code points 88, 89, 90, then nine zero units; "é€😀"
    // → U+00E9, U+20AC, U+1F600 (every kind of Python str: 1-, 2- and
    // 4-byte); 18 characters keep their first 12; thread 7 writes nothing
    let mut want_units: Vec<u32> = vec![88, 89, 90];
    want_units.resize(12, 0);
    want_units.extend([0; 12]);
    want_units.extend("0123456789ab".chars().map(u32::from));
    let mut emoji = vec![0xe9, 0x20ac, 0x1f600];
    emoji.resize(12, 0);
    want_units.extend(emoji);
    let mut e = vec![0xe9];
    e.resize(12, 0);
    want_units.extend(e);
    let mut euro = vec![0x20ac];
    euro.resize(12, 0);
    want_units.extend(euro);
    want_units.extend("ABCDEFGHIJKL".chars().map(u32::from));
    want_units.extend(prefill);
    assert_eq!(got, units_le(&want_units, 4));
    assert_eq!(got, measured("u12_prefilled_pqrstuvwxyzW", 4));
}

#[test]
fn bytes_constants_fill_s12_elements_as_numba_cuda_does() {
    let data: Vec<u64> = PREFILL
        .iter()
        .map(|&b| b as u64)
        .collect::<Vec<_>>()
        .repeat(6);
    let got = run_text(B_KERNEL, 6, "S12", data);
    let mut want: Vec<u64> = vec![b'X', b'Y', b'Z'].into_iter().map(u64::from).collect();
    want.resize(12, 0);
    want.extend([0; 12]);
    want.extend(b"0123456789ab".iter().map(|&b| b as u64));
    // an embedded zero byte is copied like any other
    let mut ff = vec![0xff, 0, b'a' as u64];
    ff.resize(12, 0);
    want.extend(ff);
    want.extend(b"ABCDEFGHIJKL".iter().map(|&b| b as u64));
    want.extend(PREFILL.iter().map(|&b| b as u64));
    assert_eq!(got, want);
    assert_eq!(got, measured("s12_prefilled_pqrstuvwxyzW", 1));
}

/// numba's test_const_string records: `[("x", int32), ("y", U12)]`
/// (itemsize 4 + 48) and `[("x", int32), ("y", S12)]` (4 + 12), every byte
/// 0x77 before the launch: the text fields are written whole, `x` is not.
#[test]
fn text_fields_of_records_are_written_whole() {
    for (ty, bytes, key, text, long) in [
        (
            "U12",
            48,
            "rec_u12_prefilled_0x77",
            "\"ABC\"",
            "\"0123456789abcdefXY\"",
        ),
        (
            "S12",
            12,
            "rec_s12_prefilled_0x77",
            "b\"ABC\"",
            "b\"0123456789abcdefXY\"",
        ),
    ] {
        let src = format!(
            "from numba import cuda\n\n@cuda.jit\ndef rec(a):\n    a[0][\"y\"] = {text}\n    a[1][\"y\"] = {long}\n"
        );
        let itemsize = 4 + bytes;
        let layout = json!({"itemsize": itemsize, "fields": [
            {"name": "x", "offset": 0, "dtype": "int32"},
            {"name": "y", "offset": 4, "dtype": ty},
        ]});
        let l = parse_launch(
            &json!({"grid": [1], "block": [1], "args": {
                "a": {"buffer": {"record": layout, "shape": [2], "data": vec![0x77; 2 * itemsize]}}}})
            .to_string(),
        )
        .unwrap();
        let got = bits(&run_clean(&src, &l), "a");
        let unit = bytes / 12;
        let mut want = vec![0x77; 4];
        let mut abc = units_le(&[65, 66, 67], unit);
        abc.resize(bytes, 0);
        want.extend(abc);
        want.extend([0x77; 4]);
        want.extend(units_le(
            &"0123456789ab".chars().map(u32::from).collect::<Vec<_>>(),
            unit,
        ));
        assert_eq!(got, want, "{ty}");
        let j = probe_json("numba/host_values.json");
        let m: Vec<u64> = j[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        assert_eq!(got, m, "{ty}: the measured bytes");
    }
}

/// numba-cuda refuses a str stored into an `S<n>` array and bytes into a
/// `U<n>` one (TypingError, measured); so does ksem, at the statement.
#[test]
fn str_into_bytes_and_bytes_into_str_are_refused() {
    for (ty, stmt, what) in [
        (
            "S12",
            "arr[0] = \"XYZ\"",
            "cannot store a str into bytes of length 12",
        ),
        (
            "U12",
            "arr[0] = b\"XYZ\"",
            "cannot store bytes into a string of length 12",
        ),
    ] {
        let src = format!("from numba import cuda\n\n@cuda.jit\ndef k(arr):\n    {stmt}\n");
        let l = parse_launch(
            &json!({"grid": [1], "block": [1], "args": {
                "arr": {"buffer": {"text": ty, "len": 1}}}})
            .to_string(),
        )
        .unwrap();
        let d = refused(&src, &l);
        assert_diag(&src, &d, loc1(&src, stmt), &[what], None);
    }
}

#[test]
fn bad_text_dtypes_are_refused_by_the_launch() {
    for (t, msg) in [
        ("S0", "unknown text dtype"),
        ("int32", "unknown text dtype"),
    ] {
        let e = parse_launch(
            &json!({"grid": [1], "block": [1], "args": {
                "arr": {"buffer": {"text": t, "len": 1}}}})
            .to_string(),
        )
        .expect_err("refused");
        assert!(e.contains(msg) && e.contains("text"), "{t}: {e}");
    }
}
