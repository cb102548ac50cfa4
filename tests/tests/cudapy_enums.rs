//! Enum members in CUDA Python, as the pytest plugin writes them (a class
//! of constants; an IntEnum as `class C(int):`; a member argument as the
//! parameter bound to that member). Expected values are numba-cuda's,
//! measured on the GPU with numba-cuda's own test_enums `test_compare`
//! kernel (tools/probes/numba/host_values.json, `enum_*`): `out` holds
//! `a == b`, `a != b`, `a is b`, `a is not b`.

use ksem_interp::launch::parse_launch;
use ksem_tests::*;
use serde_json::json;

const CLASSES: &str = "from numba import cuda

class Color:
    red = 1
    green = 2
    blue = 3

class Shake:
    vanilla = 7
    mint = 3

class Planet:
    VENUS = (4.869e+24, 6051800.0, )
    EARTH = (5.976e+24, 6378140.0, )
    MARS = (6.421e+23, 3397200.0, )

class Shape(int):
    circle = 2
    square = 500

class IntEnumWithNegatives(int):
    one = 1
    two = 2
";

fn compare(a: &str, b: &str) -> String {
    format!(
        "{CLASSES}
@cuda.jit
def f(out):
    a = {a}
    b = {b}
    out[0] = a == b
    out[1] = a != b
    out[2] = a is b
    out[3] = a is not b
"
    )
}

fn launch() -> ksem_interp::launch::Launch {
    parse_launch(
        &json!({"grid": [1], "block": [1], "args": {"out": {"buffer": {"dtype": "bool", "len": 4}}}})
            .to_string(),
    )
    .unwrap()
}

#[test]
fn members_compare_as_numba_cuda_does() {
    let j = probe_json("numba/host_values.json");
    for (a, b, want) in [
        ("Color.red", "Color.red", [1, 0, 1, 0]),
        ("Color.red", "Color.green", [0, 1, 0, 1]),
        // tuple values compare element by element
        ("Planet.EARTH", "Planet.EARTH", [1, 0, 1, 0]),
        ("Planet.VENUS", "Planet.MARS", [0, 1, 0, 1]),
        // IntEnums of two classes: == compares the integers, `is` is
        // false between different types
        ("Shape.circle", "IntEnumWithNegatives.two", [1, 0, 0, 1]),
        ("Shape.circle", "Shape.circle", [1, 0, 1, 0]),
        // an IntEnum and an int: the same
        ("Shape.circle", "2", [1, 0, 0, 1]),
        // (not measured: numba refuses `==` of an Enum member and a
        // number; ksem compares the values, and `is` of two types is false)
        ("Color.red", "1", [1, 0, 0, 1]),
    ] {
        let r = run_clean(&compare(a, b), &launch());
        assert_eq!(bits(&r, "out"), want, "{a}, {b}");
        let m = &j[format!("enum_{a},{b}")];
        if m.is_array() {
            assert_eq!(bits(&r, "out"), bool_list(m), "{a}, {b}: measured");
        }
    }
}

/// numba-cuda has no `==` of an Enum member with a member of another
/// class (a TypingError, measured); ksem refuses it. (numba also refuses
/// `Color.green == 2`, measured; ksem compares the values there, since a
/// member returned by a device function reaches it as a number.)
#[test]
fn enum_members_of_other_classes_do_not_compare() {
    let j = probe_json("numba/host_values.json");
    for (a, b) in [
        ("Color.blue", "Shake.mint"),
        ("Shape.circle", "Color.green"),
    ] {
        let src = compare(a, b);
        let d = refused(&src, &launch());
        assert!(
            d.message.contains("numba has no comparison of"),
            "{a}, {b}: {}",
            d.message
        );
        assert_diag(
            &src,
            &d,
            loc1(&src, "a == b"),
            &["numba has no comparison"],
            None,
        );
        let m = j[format!("enum_{a},{b}")]
            .as_str()
            .expect("measured: an error");
        assert!(m.starts_with("TypingError"), "{m}");
    }
}
