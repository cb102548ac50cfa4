//! numpy datetime64/timedelta64 values in CUDA Python (`"dtype":
//! "datetime64[D]"` buffers and scalars). The rules are numba-cuda's,
//! measured on the GPU with the kernels below
//! (tools/probes/numba/host_values.py → host_values.json): NaT (the int64
//! minimum) in either operand makes a difference or sum NaT, `==` and `<`
//! false and `!=` true. Dates are days since 1970-01-01 (2005-02-01 is
//! 12815: 35 years of 365 days, 9 leap days 1972…2004, then 31 days of
//! January).

use ksem_interp::launch::parse_launch;
use ksem_tests::serde_json::{json, Value as Json};
use ksem_tests::*;

const NAT: i64 = i64::MIN;

fn days(v: &[i64]) -> Json {
    json!(v)
}

fn run_time(src: &str, threads: u64, args: Json) -> ksem_interp::launch::RunResult {
    let l =
        parse_launch(&json!({"grid": [1], "block": [threads], "args": args}).to_string()).unwrap();
    run_clean(src, &l)
}

fn as_i64(b: Vec<u64>) -> Vec<i64> {
    b.into_iter().map(|x| x as i64).collect()
}

fn measured_i64(v: &Json) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect()
}

#[test]
fn datetime_differences_propagate_nat() {
    let src = "from numba import cuda

@cuda.jit
def dt_sub(start, end, delta):
    i = cuda.grid(1)
    if i < delta.size:
        delta[i] = end[i] - start[i]
";
    // 2005-02-01, NaT, 2005-02-03, NaT, 1970-01-01
    let start = [12815, NAT, 12817, NAT, 0];
    // 2005-03-01, 2005-01-01, NaT, NaT, 1969-12-01
    let end = [12843, 12784, NAT, NAT, -31];
    let r = run_time(
        src,
        8,
        json!({
            "start": {"buffer": {"dtype": "datetime64[D]", "data": days(&start)}},
            "end": {"buffer": {"dtype": "datetime64[D]", "data": days(&end)}},
            "delta": {"buffer": {"dtype": "timedelta64[D]", "len": 5}},
        }),
    );
    let got = as_i64(bits(&r, "delta"));
    // by hand: February 2005 has 28 days; any NaT gives NaT
    assert_eq!(got, vec![28, NAT, NAT, NAT, -31]);
    let j = probe_json("numba/host_values.json");
    assert_eq!(got, measured_i64(&j["dt_sub_int64"]));
}

#[test]
fn datetime_scalars_compare_and_shift_as_numba_cuda_does() {
    let src = "from numba import cuda

@cuda.jit
def dt_scalar(dates, target, delta, eq, ne, lt, outdelta, plus):
    i = cuda.grid(1)
    if i < dates.size:
        eq[i] = dates[i] == target
        ne[i] = dates[i] != target
        lt[i] = dates[i] < target
        outdelta[i] = dates[i] - delta
        plus[i] = dates[i] + delta
";
    // 2005-02-01, NaT, 2005-02-06, 2005-02-07
    let dates = [12815, NAT, 12820, 12821];
    let j = probe_json("numba/host_values.json");
    for (key, target, delta, want_eq, want_lt, want_minus) in [
        (
            "dt_scalar_target_2005-02-06_delta_1",
            12820,
            1,
            vec![0, 0, 1, 0],
            vec![1, 0, 0, 0],
            vec![12814, NAT, 12819, 12820],
        ),
        (
            "dt_scalar_target_NaT_delta_NaT",
            NAT,
            NAT,
            vec![0; 4],
            vec![0; 4],
            vec![NAT; 4],
        ),
    ] {
        let out = |d: &str| json!({"buffer": {"dtype": d, "len": 4}});
        let r = run_time(
            src,
            4,
            json!({
                "dates": {"buffer": {"dtype": "datetime64[D]", "data": days(&dates)}},
                "target": {"scalar": {"dtype": "datetime64[D]", "value": target}},
                "delta": {"scalar": {"dtype": "timedelta64[D]", "value": delta}},
                "eq": out("bool"), "ne": out("bool"), "lt": out("bool"),
                "outdelta": out("datetime64[D]"), "plus": out("datetime64[D]"),
            }),
        );
        let m = &j[key];
        assert_eq!(bits(&r, "eq"), want_eq, "{key}");
        assert_eq!(bits(&r, "eq"), bool_list(&m["eq"]), "{key}");
        let want_ne: Vec<u64> = want_eq.iter().map(|x| 1 - x).collect();
        assert_eq!(bits(&r, "ne"), want_ne, "{key}");
        assert_eq!(bits(&r, "ne"), bool_list(&m["ne"]), "{key}");
        assert_eq!(bits(&r, "lt"), want_lt, "{key}");
        assert_eq!(bits(&r, "lt"), bool_list(&m["lt"]), "{key}");
        assert_eq!(as_i64(bits(&r, "outdelta")), want_minus, "{key}");
        assert_eq!(
            as_i64(bits(&r, "outdelta")),
            measured_i64(&m["minus_int64"]),
            "{key}"
        );
        assert_eq!(
            as_i64(bits(&r, "plus")),
            measured_i64(&m["plus_int64"]),
            "{key}"
        );
    }
}

/// Operations numba does not define on these types, and mixed units, are
/// refused where they are written, never computed as int64.
#[test]
fn other_datetime_operations_are_refused() {
    let l = parse_launch(
        &json!({"grid": [1], "block": [1], "args": {
            "a": {"buffer": {"dtype": "datetime64[D]", "len": 1}},
            "s": {"buffer": {"dtype": "datetime64[s]", "len": 1}},
            "o": {"buffer": {"dtype": "int64", "len": 1}},
        }})
        .to_string(),
    )
    .unwrap();
    for (stmt, at, msg) in [
        (
            "a[0] = a[0] + a[0]",
            "a[0] + a[0]",
            "numba has no `+` of datetime64[D] and datetime64[D]",
        ),
        (
            "o[0] = a[0] * 2",
            "a[0] * 2",
            "arithmetic mixing a datetime64/timedelta64 with a number",
        ),
        (
            "o[0] = a[0]",
            "o[0]",
            "expected a number, found a datetime64[D] value",
        ),
        (
            "a[0] = 1",
            "a[0]",
            "only a datetime64[D] value can be stored",
        ),
        (
            "o[0] = a[0] == s[0]",
            "a[0] == s[0]",
            "comparing datetime64[D] with datetime64[s]",
        ),
        (
            "o[0] = a[0] - s[0]",
            "a[0] - s[0]",
            "`-` of datetime64[D] and datetime64[s]",
        ),
    ] {
        let src = format!("from numba import cuda\n\n@cuda.jit\ndef k(a, s, o):\n    {stmt}\n");
        let d = refused(&src, &l);
        let line = format!("    {stmt}");
        assert_diag(&src, &d, loc(&src, &line, at), &[msg], None);
    }
}

#[test]
fn unknown_time_units_are_launch_errors() {
    for d in ["datetime64", "datetime64[2D]", "timedelta64[generic]"] {
        let e = parse_launch(
            &json!({"grid": [1], "block": [1], "args": {"a": {"buffer": {"dtype": d, "len": 1}}}})
                .to_string(),
        )
        .expect_err("refused");
        assert!(e.contains("unknown dtype"), "{d}: {e}");
    }
}
