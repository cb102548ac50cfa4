//! `parse_launch_json` (what the fuzzer reads its generated launches with)
//! gives exactly what `parse_launch` gives for the same JSON as text: the
//! same launch, or the same error message.

use ksem_interp::launch::{parse_launch, parse_launch_json};
use serde_json::{json, Value};

/// Launch specs of every argument kind, and wrong ones of every layer
/// (the JSON's shape, a value's range, a key that excludes another).
fn specs() -> Vec<Value> {
    vec![
        json!({"grid": [2, 1], "args": {
            "x": {"buffer": {"dtype": "float32", "data": [1.5, -0.0, 3.0]}},
            "y": {"buffer": {"dtype": "bfloat16", "bits": ["0x7fc0", "0x8000"]}},
            "n": {"scalar": {"dtype": "int32", "value": -7}},
            "B": {"constexpr": 64},
            "f": {"constexpr": 0.1}}}),
        json!({"kernel": "k", "grid": 3, "block": [32, 2],
               "args": {"a": {"buffer": {"dtype": "uint8", "len": 5}}}}),
        json!({"grid": [1], "args": {"x": {"buffer": {"dtype": "float64",
               "data": [1e308, 5e-324, -2.5]}}}}),
        json!({"grid": [1], "config": {"BLOCK": 16}, "target": {"num_sms": 4}}),
        json!([1, 2]),
        json!({"grid": [1], "args": [1]}),
        json!({"grid": [1], "args": {"x": {"buffer": {"dtype": "float33", "len": 1}}}}),
        json!({"grid": [0], "args": {}}),
        json!({"grid": [1], "unknown": 1}),
        json!({"grid": [1], "shared_bytes": 1_000_000}),
        json!({"grid": [1], "args": {"x": {"scalar": {"dtype": "int8", "value": 300}}}}),
    ]
}

#[test]
fn a_launch_read_from_its_json_value_is_the_launch_of_its_text() {
    for v in specs() {
        let from_text = parse_launch(&v.to_string());
        let from_value = parse_launch_json(&v);
        assert_eq!(from_value, from_text, "{v}");
    }
}

/// The specs above are not all accepted or all refused: both paths are
/// compared on launches and on errors.
#[test]
fn the_specs_cover_launches_and_errors() {
    let results: Vec<bool> = specs()
        .iter()
        .map(|v| parse_launch_json(v).is_ok())
        .collect();
    assert!(results.iter().filter(|&&ok| ok).count() >= 3, "{results:?}");
    assert!(
        results.iter().filter(|&&ok| !ok).count() >= 5,
        "{results:?}"
    );
}
