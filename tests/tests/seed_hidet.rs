//! Every rule and example of the Hidet script seed (003), checked on the
//! bits ksem computes and on what it refuses. Expected values are reasoned
//! by hand in each test (the seed's own tables where it has them); where
//! the seed is silent, the measured behaviour of Hidet 0.6.1's `cpu_kernel`
//! build (tools/probes/hidet/, docs/hidet-measured.md) is the reference.

use ksem_interp::launch::{parse_launch, Launch, RunResult};
use ksem_tests::*;
use serde_json::{json, Value as Json};

const IMPORTS: &str = "import hidet
from hidet.lang import attrs, printf
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout
from hidet.lang.cuda import threadIdx, blockIdx, blockDim, gridDim, syncthreads
";

/// A script module holding the functions `defs` (each already indented
/// under the `with`).
fn module(defs: &str) -> String {
    format!("{IMPORTS}\nwith hidet.script_module() as script_module:\n{defs}\nmodule = script_module.build()\n")
}

/// One `cpu_kernel` with parameters `params` and body `body`.
fn cpu(params: &str, body: &str) -> String {
    module(&indent(&format!(
        "@hidet.script\ndef kernel({params}):\n    attrs.func_kind = 'cpu_kernel'\n{}",
        indent(body)
    )))
}

/// One `cuda_kernel` of `grid` blocks of `block` threads.
fn cuda(grid: u32, block: u32, params: &str, body: &str) -> String {
    module(&indent(&format!(
        "@hidet.script\ndef kernel({params}):\n    attrs.func_kind = 'cuda_kernel'\n    attrs.cuda.grid_dim = {grid}\n    attrs.cuda.block_dim = {block}\n{}",
        indent(body)
    )))
}

fn args(a: Json) -> Launch {
    let text = json!({ "args": a }).to_string();
    parse_launch(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn signed(r: &RunResult, name: &str) -> Vec<i64> {
    let b = r.buffers.iter().find(|b| b.name == name).expect("buffer");
    b.bits
        .iter()
        .map(|&x| match b.dtype.bits() {
            8 => x as u8 as i8 as i64,
            16 => x as u16 as i16 as i64,
            32 => x as u32 as i32 as i64,
            _ => x as i64,
        })
        .collect()
}

/// Runs a cpu_kernel whose body writes `out: i64[n]`; `out`'s values.
fn i64_out(body: &str, n: usize) -> Vec<i64> {
    let src = cpu(&format!("out: i64[{n}]"), body);
    let r = run_clean(&src, &args(json!({"out": zeros("int64", n)})));
    signed(&r, "out")
}

// ---- the seed's tensor and layout examples ----------------------------------

#[test]
fn seed_tensor_example_row_major_by_default() {
    // the seed: a = tensor(dtype=f32, shape=[1024, 1024]); a[0, 0] = 0.0
    // (smaller here); row-major by default: a[i, j] is element i*4 + j
    let src = cpu(
        "out: f32[16]",
        "a = tensor(dtype=f32, shape=[4, 4])\nfor i, j in hidet.lang.grid(4, 4):\n    a[i, j] = f32(i * 10 + j)\nfor k in range(16):\n    out[k] = a[k // 4, k % 4]\nprintf(\"a[%d, %d] = %.1f\\n\", 0, 0, a[0, 0])",
    );
    let r = run_clean(&src, &args(json!({"out": zeros("float32", 16)})));
    let want: Vec<f32> = (0..16).map(|k| ((k / 4) * 10 + k % 4) as f32).collect();
    assert_eq!(bits(&r, "out"), f32_bits(&want));
}

/// Writes the offsets of a layout: `t[c] = flat index of c` through a
/// tensor of that layout, then reads the storage back as it lies in memory.
fn storage_of(layout: &str, shape: &[usize], size: usize) -> Vec<i64> {
    let dims = shape.len();
    let names: Vec<String> = (0..dims).map(|d| format!("c{d}")).collect();
    let mut flat = String::from("0");
    for (d, n) in names.iter().enumerate() {
        flat = format!("({flat}) * {} + {n}", shape[d]);
    }
    let extents: Vec<String> = shape.iter().map(|s| s.to_string()).collect();
    let body = format!(
        "t = tensor(dtype=i64, layout={layout})\nfor {} in hidet.lang.grid({}):\n    t[{}] = {flat}\np = ~t[{}]\nfor k in range({size}):\n    out[k] = p[k]",
        names.join(", "),
        extents.join(", "),
        names.join(", "),
        vec!["0"; dims].join(", ")
    );
    i64_out(&body, size)
}

/// The inverse of an offset table: storage[offset] = flat coordinate.
fn invert(offsets: &[(usize, i64)], size: usize) -> Vec<i64> {
    let mut s = vec![0; size];
    for &(flat, off) in offsets {
        s[off as usize] = flat as i64;
    }
    s
}

#[test]
fn seed_strided_layout_table() {
    // the seed: strided_layout(shape=[2, 2, 2], ranks=[0, 2, 1]):
    // c[0,0,0]->0, c[0,1,0]->1, c[0,0,1]->2, c[0,1,1]->3,
    // c[1,0,0]->4, c[1,1,0]->5, c[1,0,1]->6, c[1,1,1]->7
    let table = [
        ([0, 0, 0], 0),
        ([0, 1, 0], 1),
        ([0, 0, 1], 2),
        ([0, 1, 1], 3),
        ([1, 0, 0], 4),
        ([1, 1, 0], 5),
        ([1, 0, 1], 6),
        ([1, 1, 1], 7),
    ];
    let offs: Vec<(usize, i64)> = table
        .iter()
        .map(|(c, o)| (c[0] * 4 + c[1] * 2 + c[2], *o))
        .collect();
    assert_eq!(
        storage_of(
            "strided_layout(shape=[2, 2, 2], ranks=[0, 2, 1])",
            &[2, 2, 2],
            8
        ),
        invert(&offs, 8)
    );
}

#[test]
fn seed_row_and_column_major_are_strided() {
    // ranks [0, 1] is row-major, [1, 0] column-major (the seed)
    let rm = storage_of("strided_layout(shape=[3, 4], ranks=[0, 1])", &[3, 4], 12);
    assert_eq!(rm, (0..12).collect::<Vec<i64>>());
    assert_eq!(storage_of("row_major(3, 4)", &[3, 4], 12), rm);
    // column-major [3, 4]: offset = c0 + 3 * c1
    let offs: Vec<(usize, i64)> = (0..3)
        .flat_map(|c0| (0..4).map(move |c1| (c0 * 4 + c1, (c0 + 3 * c1) as i64)))
        .collect();
    let cm = invert(&offs, 12);
    assert_eq!(storage_of("column_major(3, 4)", &[3, 4], 12), cm);
    assert_eq!(
        storage_of("strided_layout(shape=[3, 4], ranks=[1, 0])", &[3, 4], 12),
        cm
    );
}

#[test]
fn seed_composition_tables() {
    // c = row_major(2, 1) * row_major(2, 2): shape [4, 2], c[i, j] -> 2i + j
    assert_eq!(
        storage_of("row_major(2, 1) * row_major(2, 2)", &[4, 2], 8),
        (0..8).collect::<Vec<i64>>()
    );
    // d = row_major(2, 1) * column_major(2, 2): d[0,0]->0, d[1,0]->1,
    // d[0,1]->2, d[1,1]->3, d[2,0]->4, d[3,0]->5, d[2,1]->6, d[3,1]->7
    let d = [
        ([0, 0], 0),
        ([1, 0], 1),
        ([0, 1], 2),
        ([1, 1], 3),
        ([2, 0], 4),
        ([3, 0], 5),
        ([2, 1], 6),
        ([3, 1], 7),
    ];
    let offs: Vec<(usize, i64)> = d.iter().map(|(c, o)| (c[0] * 2 + c[1], *o)).collect();
    assert_eq!(
        storage_of("row_major(2, 1) * column_major(2, 2)", &[4, 2], 8),
        invert(&offs, 8)
    );
}

#[test]
fn seed_composition_of_three_and_associativity() {
    // e = row_major(2, 1) * row_major(2, 2) * column_major(2, 2): shape [8, 4];
    // by h(c) = f(c / s_g) * n_g + g(c % s_g) applied twice (left to right):
    // e[i, j] = (2 * (i / 2) + (j / 2)) * 4 + (i % 2) + 2 * (j % 2)
    let offs: Vec<(usize, i64)> = (0..8)
        .flat_map(|i| {
            (0..4).map(move |j| {
                (
                    i * 4 + j,
                    ((2 * (i / 2) + j / 2) * 4 + i % 2 + 2 * (j % 2)) as i64,
                )
            })
        })
        .collect();
    let want = invert(&offs, 32);
    let e = "row_major(2, 1) * row_major(2, 2) * column_major(2, 2)";
    assert_eq!(storage_of(e, &[8, 4], 32), want);
    // (f * g) * h = f * (g * h)
    let right = "row_major(2, 1) * (row_major(2, 2) * column_major(2, 2))";
    assert_eq!(storage_of(right, &[8, 4], 32), want);
}

#[test]
fn tensor_shape_or_layout_alone() {
    // the seed: "or ignore shape if the layout is specified"
    let with_both = storage_of("column_major(2, 3)", &[2, 3], 6);
    let src = cpu(
        "out: i64[6]",
        "t = tensor(dtype=i64, shape=[2, 3], layout=column_major(2, 3))\nfor i, j in hidet.lang.grid(2, 3):\n    t[i, j] = i * 3 + j\np = ~t[0, 0]\nfor k in range(6):\n    out[k] = p[k]",
    );
    let r = run_clean(&src, &args(json!({"out": zeros("int64", 6)})));
    assert_eq!(signed(&r, "out"), with_both);
    // column-major [2, 3] stores (0,0) (1,0) (0,1) (1,1) (0,2) (1,2)
    assert_eq!(with_both, vec![0, 3, 1, 4, 2, 5]);
}

#[test]
fn tensor_parameters_take_their_layout() {
    // a: f32[2, 3] is row-major; the launch passes its storage
    let src = cpu(
        "a: f32[2, 3], out: f32[6]",
        "for i, j in hidet.lang.grid(2, 3):\n    out[j * 2 + i] = a[i, j]",
    );
    let a: Vec<f32> = (0..6).map(|x| x as f32).collect();
    let r = run_clean(
        &src,
        &args(json!({"a": buf("float32", json!(a)), "out": zeros("float32", 6)})),
    );
    // out is the transpose: out[j*2+i] = a[i*3+j]
    let want: Vec<f32> = (0..6).map(|k| ((k % 2) * 3 + k / 2) as f32).collect();
    assert_eq!(bits(&r, "out"), f32_bits(&want));
}

#[test]
fn tensor_shape_must_be_a_constant() {
    // the seed: "the shape of the tensor can only be defined with constant
    // expressions … we can use tensor pointer"
    let src = cpu(
        "n: i32, out: f32[4]",
        "a = tensor(dtype=f32, shape=[n, 4])\nout[0] = 1.0",
    );
    let d = refused(
        &src,
        &args(json!({"n": scalar("int32", json!(4)), "out": zeros("float32", 4)})),
    );
    assert!(
        d.message.contains("must be determined at the compile time"),
        "{}",
        d.message
    );
    assert!(
        d.help.as_deref().unwrap_or("").contains("tensor pointer"),
        "{:?}",
        d.help
    );
}

#[test]
fn index_outside_a_dimension_is_ub() {
    // a[1, 3] of an f32[2, 3] tensor is inside the buffer (element 6 of 6?
    // no: 1*3+3 = 6 is past it) — and a[0, 3] is element 3, inside the
    // buffer but outside dimension 1: both are out-of-bounds indices
    let src = cpu("a: f32[2, 3], out: f32[1]", "out[0] = a[0, 3]");
    let l = args(json!({"a": zeros("float32", 6), "out": zeros("float32", 1)}));
    let ub = ub_of(&src, &l);
    assert_eq!(ub.len(), 1, "{ub:?}");
    assert!(
        ub[0].message.contains("axis 1 of size 3"),
        "{}",
        ub[0].message
    );
}

// ---- scalar types and Hidet's promotion (measured) ----------------------------

#[test]
fn mixed_types_compute_in_the_promoted_type() {
    // docs/hidet-measured.md: both operands are cast to the promoted type.
    // u16 300 + i8 2: promoted i16 → 302 (not 46 as a cast to i8 would give)
    // u16 65529 < i8 2: i16 −7 < 2 → true
    // u32 0 - 1 (literal int32): promoted i64 → −1; / 2 → 0
    // u8 200 * u8 2: u8 → 144 (wraps, Hidet's (uint8_t) cast)
    let src = cpu(
        "a: u16[2], b: i8[1], t: u32[1], c: u8[1], out: i64[5]",
        "out[0] = a[0] + b[0]\nout[1] = a[1] < b[0]\nout[2] = (t[0] - 1) / 2\nout[3] = c[0] * c[0]\nout[4] = t[0] - 1",
    );
    let r = run_clean(
        &src,
        &args(json!({
            "a": buf("uint16", json!([300, 65529])),
            "b": buf("int8", json!([2])),
            "t": buf("uint32", json!([0])),
            "c": buf("uint8", json!([200])),
            "out": zeros("int64", 5),
        })),
    );
    // 200 * 200 = 40000 = 0x9c40 → u8 0x40 = 64
    assert_eq!(signed(&r, "out"), vec![302, 1, 0, 64, -1]);
}

#[test]
fn integer_division_truncates_and_modulo_follows_the_dividend() {
    // measured: `/` and `//` are the same C division; `%` has the dividend's sign
    let out = i64_out(
        "a: i32 = -7\nb: i32 = 2\nout[0] = a / b\nout[1] = a // b\nout[2] = a % b\nout[3] = 7 % (0 - b)\nout[4] = i8(-128) / i8(-1)",
        5,
    );
    // i8 −128 / −1 is computed in int (128) and cast to int8_t: −128 (measured)
    assert_eq!(out, vec![-3, -3, -1, 1, -128]);
}

#[test]
fn python_values_follow_python_while_transpiling() {
    // `-7 // 2` written with two Python ints is Python's floor division: −4;
    // `7 / 2` is 3.5 (a float32 constant)
    let src = cpu("out: f32[2]", "out[0] = -7 // 2\nout[1] = 7 / 2");
    let r = run_clean(&src, &args(json!({"out": zeros("float32", 2)})));
    assert_eq!(bits(&r, "out"), f32_bits(&[-4.0, 3.5]));
}

#[test]
fn literals_are_int32_and_float32() {
    // x: f64 = 0.1 stores the f64 0.1 (a float literal assigned converts
    // the float32 constant 0.1f, so the value is (double)0.1f)
    let src = cpu("out: f64[2]", "x: f64 = 0.1\nout[0] = x\nout[1] = f64(0.1)");
    let r = run_clean(&src, &args(json!({"out": zeros("float64", 2)})));
    let b = bits(&r, "out");
    assert_eq!(b[0], (0.1f32 as f64).to_bits());
    assert_eq!(b[1], 0.1f64.to_bits());
}

#[test]
fn narrow_integer_arithmetic_wraps() {
    // measured: i8 100+100 → −56, 100*100 → 16; u8 1−2 → 255 (as i64 out: −56, 16, 255)
    let out = i64_out(
        "a: i8 = 100\nb: u8 = 1\nout[0] = a + a\nout[1] = a * a\nout[2] = b - u8(2)",
        3,
    );
    assert_eq!(out, vec![-56, 16, 255]);
}

#[test]
fn division_by_zero_is_ub() {
    let src = cpu("d: i32[1], out: i32[1]", "out[0] = 7 / d[0]");
    let ub = ub_of(
        &src,
        &args(json!({"d": buf("int32", json!([0])), "out": zeros("int32", 1)})),
    );
    assert_eq!(ub.len(), 1);
}

#[test]
fn variables_keep_their_declared_type() {
    // x: i32 = 1.5 stores 1 (measured); a later assignment converts too
    let out = i64_out("x: i32 = 1.5\ny = x\ny = 7.9\nout[0] = x\nout[1] = y", 2);
    assert_eq!(out, vec![1, 7]);
}

// ---- pointers ---------------------------------------------------------------------

#[test]
fn pointer_arithmetic_counts_elements() {
    let src = cpu(
        "p: ~f32, out: f32[2]",
        "q = p + 2\nout[0] = q[1]\nr: ~f32 = ~p[1]\nout[1] = r[0]",
    );
    let r = run_clean(
        &src,
        &args(
            json!({"p": buf("float32", json!([1.0, 2.0, 3.0, 4.0])), "out": zeros("float32", 2)}),
        ),
    );
    assert_eq!(bits(&r, "out"), f32_bits(&[4.0, 2.0]));
}

/// `p - q` of two pointers to one type: the number of elements between
/// them, typed `int32` by Hidet and computed as C's `ptrdiff_t`. Measured
/// on Hidet 0.6.1 (tools/probes/hidet/vecptr.json) with `a: ~f32` and a
/// runtime `k = 1`: `(a + (k + 5)) - a` = 6, `a - (a + (k + 5))` = -6,
/// `((a + (k + 5)) - (a + 2)) * 3 + 1` = 13 by hand, `~t[k, 2] - ~t[0, 1]`
/// of a local 4×4 tensor = 5 (element 6 minus element 1).
#[test]
fn pointer_difference_counts_elements() {
    let src = cpu(
        "a: ~f32, k: i32, out: ~i64",
        "p = a + (k + 5)\nq = a + 2\nout[0] = p - a\nout[1] = a - p\nout[2] = (p - q) * 3 + 1\nd = p - q\nout[3] = d\nt = tensor(dtype=f32, shape=[4, 4])\nout[4] = ~t[k, 2] - ~t[0, 1]",
    );
    let r = run_clean(
        &src,
        &args(json!({
            "a": zeros("float32", 8),
            "k": scalar("int32", json!(1)),
            "out": zeros("int64", 5),
        })),
    );
    assert_eq!(signed(&r, "out"), vec![6, -6, 13, 4, 5]);
}

/// A pointer difference has Hidet's type `int32` (refuse.json), which
/// decides promotion: `d * 1.5` is a float32 4.5, and `d - u32(5)` an
/// int64 (i32 with u32 in Hidet's table) −2. Measured on Hidet 0.6.1
/// with this very kernel through `tools/hidet_run.py`: 0x40900000 and
/// 0xfffffffffffffffe.
#[test]
fn pointer_difference_has_hidets_int32_type() {
    let src = cpu(
        "a: ~f32, out: f32[1], o2: i64[1]",
        "p = a + 3\nd = p - a\nout[0] = d * 1.5\no2[0] = d - u32(5)",
    );
    let r = run_clean(
        &src,
        &args(json!({
            "a": zeros("float32", 4),
            "out": zeros("float32", 1),
            "o2": zeros("int64", 1),
        })),
    );
    assert_eq!(bits(&r, "out"), f32_bits(&[4.5]));
    // int32 with uint32 promotes to int64 in Hidet's table: 3 - 5 = -2
    assert_eq!(signed(&r, "o2"), vec![-2]);
}

/// Subtracting pointers into different buffers is UB (C: only pointers
/// into one array object may be subtracted; the real Hidet gives the
/// distance between the two allocations, vecptr.json `out - inp`).
/// Pointers to different types are refused, as g++ refuses them
/// (measured: `invalid operands of types 'float*' and 'int32_t*'`), and
/// pointers to vectors or complex numbers are not run by ksem.
#[test]
fn pointer_difference_misuse() {
    let src = cpu("a: ~f32, b: ~f32, out: i64[1]", "out[0] = b - a");
    let l = args(json!({
        "a": zeros("float32", 2),
        "b": zeros("float32", 2),
        "out": zeros("int64", 1),
    }));
    let u = ub_of(&src, &l);
    assert_ub(
        &src,
        &u[0],
        "unrelated-pointer-difference",
        loc1(&src, "b - a"),
        [0, 0, 0],
        &[],
    );
    let src = cpu("a: ~f32, b: ~i32, out: i64[1]", "out[0] = b - a");
    let d = refused(
        &src,
        &args(json!({
            "a": zeros("float32", 2),
            "b": zeros("int32", 2),
            "out": zeros("int64", 1),
        })),
    );
    assert!(d.message.contains("invalid operands"), "{}", d.message);
    assert_eq!((d.span.line, d.span.col), loc1(&src, "b - a"));
    let src = with_cx(cpu(
        "a: ~f32, out: i64[1]",
        "t = tensor(dtype=f32x4, shape=[4])\nout[0] = ~t[2] - ~t[0]",
    ));
    let d = refused(
        &src,
        &args(json!({"a": zeros("float32", 2), "out": zeros("int64", 1)})),
    );
    assert!(
        d.message.contains("only pointers to numbers"),
        "{}",
        d.message
    );
    assert_eq!((d.span.line, d.span.col), loc1(&src, "~t[2] - ~t[0]"));
}

/// The seed: `void` makes "a `void` pointer type (i.e., `~void`)".
/// Measured on Hidet 0.6.1 (tools/probes/hidet/voidptr.json): a void
/// pointer (`void_p`) moves by bytes — `v + 8` over float32 memory is the
/// third float, `v - 4` goes back one — and is read only after a cast to a
/// typed pointer. `~void` is the seed's spelling of the same type (Hidet
/// 0.6.1 itself refuses it: docs/divergences.md).
#[test]
fn seed_void_pointer_moves_by_bytes() {
    for ty in ["void_p", "~void"] {
        let src = cpu(
            &format!("v: {ty}, n: i32, out: f32[4]"),
            "w = v + 8\nout[0] = cast(w, ~f32)[0]\nout[1] = cast(w - 4, ~f32)[0]\nout[2] = cast(v + n * 4, ~f32)[0]\nu = cast(~out[3], void_p)\ncast(u, ~f32)[0] = 9.5",
        )
        .replace("import attrs,", "import attrs, cast,")
        .replace("u64\n", "u64, void_p, void\n");
        let r = run_clean(
            &src,
            &args(
                json!({"v": buf("float32", json!([1.0, 2.0, 3.0, 4.0])), "n": scalar("int32", json!(3)), "out": zeros("float32", 4)}),
            ),
        );
        assert_eq!(bits(&r, "out"), f32_bits(&[3.0, 2.0, 4.0, 9.5]), "{ty}");
    }
}

/// A void pointer moved by bytes that are not a whole number of the
/// elements of the memory it addresses (ksem's memory holds typed
/// numbers): UB at the `+`, naming the bytes.
#[test]
fn void_pointer_into_the_middle_of_an_element_is_ub() {
    let src = cpu(
        "v: void_p, n: i32, out: f32[1]",
        "out[0] = cast(v + n, ~f32)[0]",
    )
    .replace("import attrs,", "import attrs, cast,")
    .replace("u64\n", "u64, void_p\n");
    let u = ub_of(
        &src,
        &args(
            json!({"v": buf("float32", json!([1.0, 2.0])), "n": scalar("int32", json!(2)), "out": zeros("float32", 1)}),
        ),
    );
    let (line, col) = loc1(&src, "v + n");
    assert_ub(
        &src,
        &u[0],
        "misaligned-pointer",
        (line, col),
        [0, 0, 0],
        &[],
    );
    assert!(u[0].message.contains("2 bytes"), "{}", u[0].message);
}

/// `~x` of a scalar variable is C's `&x` (measured: `x: i32 = 3; p = ~x`
/// then four times `p[0] += 1; x = x * 2` leaves x = 78): writes through
/// the pointer and to the variable are one object.
#[test]
fn address_of_a_scalar_variable_aliases_it() {
    let src = cpu(
        "out: i32[2]",
        "x: i32 = 3\np = ~x\nfor i in range(4):\n    p[0] = p[0] + 1\n    x = x * 2\nout[0] = x\ny = 5\nq = ~y\nq[0] = 7\nout[1] = y",
    );
    let r = run_clean(&src, &args(json!({"out": zeros("int32", 2)})));
    // ((((3+1)*2+1)*2+1)*2+1)*2 = 78
    assert_eq!(signed(&r, "out"), [78, 7]);
}

/// The seed's `~(~f16)`, "a pointer to a pointer to f16": the inner
/// pointer lives in memory (measured on Hidet 0.6.1: `pp = ~p`, then
/// `pp[0][1] = x` writes through `p`, `pp[0] = q` moves `p`; corpus case
/// `pointer_to_pointer`).
#[test]
fn seed_pointer_to_pointer_to_f16() {
    let src = cpu(
        "h: ~f16, out: f16[3]",
        "p = h + 1\npp: ~(~f16) = ~p\npp[0][1] = h[0]\npp[0] = h\nout[0] = p[2]\nq = pp[0]\nout[1] = q[3]\np = p + 2\nr = pp[0]\nout[2] = r[0]",
    )
    .replace("u64\n", "u64, f16\n");
    // f16 bits: 0.5 = 0x3800, 1.25 = 0x3d00, -3 = 0xc200, 8 = 0x4800
    let r = run_clean(
        &src,
        &args(
            json!({"h": buf("float16", json!([0.5, 1.25, -3.0, 8.0])), "out": zeros("float16", 3)}),
        ),
    );
    // pp[0][1] is h[2] (p = h + 1): h becomes [0.5, 1.25, 0.5, 8];
    // then p = h: out[0] = h[2] = 0.5, out[1] = h[3] = 8; p = h + 2:
    // out[2] = h[2] = 0.5
    assert_eq!(bits(&r, "h"), [0x3800, 0x3d00, 0x3800, 0x4800]);
    assert_eq!(bits(&r, "out"), [0x3800, 0x4800, 0x3800]);
}

/// A pointer read back from memory is checked like any other: a store
/// through it past its buffer is UB at the store.
#[test]
fn pointer_read_from_memory_is_bounds_checked() {
    let src = cpu(
        "a: ~f32, out: f32[1]",
        "p = a + 1\npp = ~p\nq = pp[0]\nq[3] = 1.0\nout[0] = a[0]",
    );
    let u = ub_of(
        &src,
        &args(json!({"a": zeros("float32", 4), "out": zeros("float32", 1)})),
    );
    let (line, col) = loc1(&src, "q[3] = 1.0");
    assert_eq!(u[0].kind, "out-of-bounds-store", "{:?}", u[0]);
    assert_eq!((u[0].line, u[0].col), (line, col), "{:?}", u[0]);
}

/// Pointers to pointers that Hidet refuses (a load through `pp[0][k]`:
/// "Can not infer the tensor rank", measured; a `~(~f32)` parameter the
/// host call cannot pass) or that ksem does not keep in memory (a pointer
/// into a local tensor, three levels).
#[test]
fn pointer_to_pointer_misuse_is_refused_at_its_line() {
    let cases = [
        (
            "a: ~f32, out: f32[1]",
            "p = a + 1\npp = ~p\nout[0] = pp[0][1]",
            "pp[0][1]",
            "Can not infer the tensor rank",
        ),
        (
            "a: ~(~f32), out: f32[1]",
            "out[0] = 1.0",
            "a: ~(~f32)",
            "pointer to pointers",
        ),
        (
            "a: ~f32, out: f32[1]",
            "t = tensor(dtype=f32, shape=[2])\np = ~t[0]\npp = ~p",
            "~p",
            "global memory",
        ),
        (
            "a: ~f32, out: f32[1]",
            "p = a + 1\npp = ~p\nq: ~(~(~f32)) = ~pp",
            "~(~(~f32))",
            "not deeper",
        ),
    ];
    for (params, body, at, msg) in cases {
        let src = cpu(params, body);
        let d = refused(
            &src,
            &args(json!({"a": zeros("float32", 4), "out": zeros("float32", 1)})),
        );
        assert_diag(&src, &d, loc1(&src, at), &[msg], None);
    }
}

/// What the type checker refuses about void pointers, each at its line
/// (Hidet 0.6.1 refuses the same programs, voidptr.json: `v[0]` and
/// `v + 1.5` in g++, `v * 2` in type inference, `p: ~f32 = v` in g++),
/// and what ksem does not run (the address of a void pointer; a cast
/// that reinterprets float32 bytes as float64).
#[test]
fn void_pointer_misuse_is_refused_at_its_line() {
    let cases = [
        ("out[0] = v[0]", "v[0]", "void pointer cannot be indexed"),
        ("w = v * 2", "v * 2", "not defined on a void pointer"),
        ("w = v + 1.5", "v + 1.5", "integer number of bytes"),
        ("p: ~f32 = v", "p: ~f32 = v", "points to no type of element"),
        ("w = ~v", "~v", "global memory"),
        ("w = cast(v, ~f64)", "cast(v, ~f64)", "reinterprets"),
        (
            "pp: ~(~f32) = ~out[0]",
            "pp: ~(~f32)",
            "cannot point to f32",
        ),
    ];
    for (body, at, msg) in cases {
        let src = cpu("v: void_p, out: f32[1]", body)
            .replace("import attrs,", "import attrs, cast,")
            .replace("u64\n", "u64, void_p\n");
        let d = refused(
            &src,
            &args(json!({"v": zeros("float32", 2), "out": zeros("float32", 1)})),
        );
        assert_diag(&src, &d, loc1(&src, at), &[msg], None);
    }
}

// ---- SIMT kernels -------------------------------------------------------------------

#[test]
fn cuda_kernel_threads_and_shared_memory() {
    // each block reverses its 8 elements through shared memory
    let src = cuda(
        2,
        8,
        "a: f32[16], out: f32[16]",
        "s = shared_tensor(f32, [8])\nt = threadIdx.x\ni = blockIdx.x * blockDim.x + t\ns[t] = a[i]\nsyncthreads()\nout[i] = s[7 - t]",
    )
    .replace(
        "from hidet.lang.cuda import",
        "from hidet.lang.cuda import shared_tensor,",
    );
    let a: Vec<f32> = (0..16).map(|x| x as f32).collect();
    let r = run_clean(
        &src,
        &args(json!({"a": buf("float32", json!(a)), "out": zeros("float32", 16)})),
    );
    let want: Vec<f32> = (0..16).map(|k| ((k / 8) * 8 + 7 - k % 8) as f32).collect();
    assert_eq!(bits(&r, "out"), f32_bits(&want));
}

#[test]
fn thread_index_is_unsigned_in_c() {
    // threadIdx.x is C's unsigned int (Hidet types it int32 and inserts no
    // cast): (threadIdx.x - 1) / 2 for thread 0 is 0xffffffff / 2 = 2^31 - 1
    let src = cuda(1, 1, "out: i64[1]", "out[0] = (threadIdx.x - 1) / 2");
    let r = run_clean(&src, &args(json!({"out": zeros("int64", 1)})));
    assert_eq!(signed(&r, "out"), vec![2147483647]);
}

#[test]
fn helpers_are_inlined() {
    let src = module(&indent(
        "@hidet.script\ndef twice(x: f32) -> f32:\n    attrs.func_kind = 'cuda_internal'\n    return x * 2.0\n\n@hidet.script\ndef kernel(a: f32[4]):\n    attrs.func_kind = 'cpu_kernel'\n    for i in range(4):\n        a[i] = twice(a[i])",
    ));
    let r = run_clean(
        &src,
        &args(json!({"a": buf("float32", json!([1.0, 2.5, -3.0, 0.5]))})),
    );
    assert_eq!(bits(&r, "a"), f32_bits(&[2.0, 5.0, -6.0, 1.0]));
}

#[test]
fn only_range_of_the_end_is_a_loop() {
    let src = cpu("out: i32[1]", "for i in range(1, 4):\n    out[0] = i");
    let d = refused(&src, &args(json!({"out": zeros("int32", 1)})));
    assert!(d.message.contains("range(end)"), "{}", d.message);
}

#[test]
fn half_precision_arithmetic_rounds_once_to_the_promoted_type() {
    // f16 + f16 is computed in f16 (Hidet's half class: through float, then
    // rounded back, measured correctly rounded): 1 + 2^-11 is halfway
    // between 1 and 1 + 2^-10 → even: 1.0 (0x3c00); 1 + 3·2^-11 is halfway
    // between 1 + 2^-10 (odd mantissa) and 1 + 2^-9 → 0x3c02.
    // f16 + a float literal (f32) is f32: 1 + 2^-11 exactly (0x3f801000).
    // bf16 + f16 is bf16 (Hidet's table): 1 + 2^-9 is a quarter ulp of bf16 → 1.0 (0x3f80).
    let src = cpu(
        "h: f16[3], f: f32[1], b: bf16[1]",
        "one: f16 = 1.0\nsmall: f16 = 0.00048828125\nh[0] = one + small\nh[1] = one + small * f16(3.0)\nf[0] = one + 0.00048828125\nbone = hidet.lang.bf16(1.0)\nb[0] = bone + f16(0.001953125)\nh[2] = f16(65504.0) + f16(32.0)",
    )
    .replace("from hidet.lang.types import tensor,", "from hidet.lang.types import tensor, f16, bf16,");
    let r = run_clean(
        &src,
        &args(
            json!({"h": zeros("float16", 3), "f": zeros("float32", 1), "b": zeros("bfloat16", 1)}),
        ),
    );
    // 65504 + 32 = 65536 is past 65520 (the largest f16 plus half an ulp):
    // it overflows to inf (0x7c00)
    assert_eq!(bits(&r, "h"), vec![0x3c00, 0x3c02, 0x7c00]);
    assert_eq!(bits(&r, "f"), vec![0x3f801000]);
    assert_eq!(bits(&r, "b"), vec![0x3f80]);
}

// ---- complex and vector types ----------------------------------------------

const CX_IMPORTS: &str = "from hidet.lang import cast\nfrom hidet.lang.types import f16\nfrom hidet.ir.dtypes import c64, c128, complex64, complex128, i8x4, int8x4, f16x2, float16x2, f32x4, float32x4, float32x8\nfrom hidet.ir.primitives.complex import real, imag, conj, make_complex\n";

fn with_cx(src: String) -> String {
    src.replacen(
        "with hidet.script_module()",
        &format!("{CX_IMPORTS}\nwith hidet.script_module()"),
        1,
    )
}

#[test]
fn seed_complex_short_and_long_names_are_one_type() {
    // the seed: c64/complex64 and c128/complex128 are the same types; a
    // complex number is stored as its real then imaginary part
    let src = with_cx(cpu(
        "a: ~f32, b: ~f64",
        "x: c64 = make_complex(a[0], a[1])\ny: complex64 = x\ncast(a, ~complex64)[1] = y\nz: c128 = make_complex(b[0], b[1])\nw: complex128 = z\ncast(b, ~c128)[1] = w",
    ));
    let r = run_clean(
        &src,
        &args(
            json!({"a": buf("float32", json!([1.5, -2.0, 0.0, 0.0])), "b": buf("float64", json!([0.25, 3.0, 0.0, 0.0]))}),
        ),
    );
    assert_eq!(bits(&r, "a"), f32_bits(&[1.5, -2.0, 1.5, -2.0]));
    assert_eq!(
        bits(&r, "b"),
        [0.25f64, 3.0, 0.25, 3.0]
            .iter()
            .map(|x| x.to_bits())
            .collect::<Vec<_>>()
    );
}

/// Runs `o[i] = x[2i] OP x[2i+1]` on complex numbers of `t` with parts `parts`.
fn complex_op(t: &str, op: &str, parts: &[u64]) -> Vec<u64> {
    let (comp, dt) = if t == "complex64" {
        ("f32", "float32")
    } else {
        ("f64", "float64")
    };
    let n = parts.len() / 4;
    let src = with_cx(cpu(
        &format!("a: ~{comp}, out: ~{comp}"),
        &format!("x = cast(a, ~{t})\no = cast(out, ~{t})\nfor i in range({n}):\n    o[i] = x[2 * i] {op} x[2 * i + 1]"),
    ));
    let hex: Vec<String> = parts.iter().map(|b| format!("{b:#x}")).collect();
    let r = run_clean(
        &src,
        &args(json!({"a": {"buffer": {"dtype": dt, "bits": hex}}, "out": zeros(dt, 2 * n)})),
    );
    bits(&r, "out")
}

#[test]
fn complex_products_and_quotients_recover_infinities_as_libgcc_does() {
    // By hand, from libgcc's __mulsc3/__divsc3 (Annex G):
    // (inf + 0i)(1 + 0i): ac = inf, bd = 0, ad = inf*0 = NaN, bc = 0 →
    // (inf, NaN): not both NaN, so no recovery (measured the same, complexvec.json)
    let inf = f32::INFINITY.to_bits() as u64;
    let one = 1f32.to_bits() as u64;
    let r = complex_op("complex64", "*", &[inf, 0, one, 0]);
    assert_eq!(r[0], inf);
    assert!(f32::from_bits(r[1] as u32).is_nan());
    // (1 - 2i) / (0 + 0i): NaN + iNaN, the divisor is zero: (copysign(inf, 0)·1,
    // copysign(inf, 0)·(-2)) = (inf, -inf)
    let two = (-2f32).to_bits() as u64;
    assert_eq!(
        complex_op("complex64", "/", &[one, two, 0, 0]),
        vec![inf, (-f32::INFINITY).to_bits() as u64]
    );
    // (inf + inf i)(NaN + 1i): textbook NaN + iNaN; a is infinite: a, b boxed
    // to (1, 1), c NaN → +0: recomputed inf·(0 - 1) = -inf, inf·(1 + 0) = inf
    let nan = f32::NAN.to_bits() as u64;
    assert_eq!(
        complex_op("complex64", "*", &[inf, inf, nan, one]),
        vec![(-f32::INFINITY).to_bits() as u64, inf]
    );
    // (1e300 + 1e300i) / (1e-300 + 1e300i) in double: Smith's method; |d| ≥ RBIG
    // is false, so the ratio c/d = 1e-600 underflows to 0, a subnormal-ratio
    // case: x = (c·(a/d) + b)/denom = 1e300/1e300 = 1, y = (c·(b/d) - a)/denom = -1
    let f = |x: f64| x.to_bits();
    assert_eq!(
        complex_op(
            "complex128",
            "/",
            &[f(1e300), f(1e300), f(1e-300), f(1e300)]
        ),
        vec![f(1.0), f(-1.0)]
    );
}

#[test]
fn complex_edge_operands_match_real_hidet_bit_for_bit() {
    // tools/probes/hidet/complex2.json, `edge` records: 250 operand pairs
    // (inf, NaN, ±0, 1e30, subnormals, random magnitudes) multiplied and
    // divided by Hidet 0.6.1's cpu_kernel (g++ 12.2, std::complex, libgcc's
    // __mulsc3/__divsc3/__muldc3/__divdc3, -fno-fast-math). NaN results are
    // compared as NaN: their bits are x86's default NaN there and the
    // GPU's canonical NaN in ksem (docs/semantics.md).
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tools/probes/hidet/complex2.json"
    ))
    .expect("the probe's output");
    let mut groups: std::collections::BTreeMap<(String, String), (Vec<u64>, Vec<u64>)> =
        Default::default();
    for line in text.lines() {
        let v: Json = serde_json::from_str(line).expect("json");
        let (Some(t), Some(ins)) = (v["edge"].as_str(), v["in"].as_array()) else {
            continue;
        };
        let hex = |x: &Json| {
            u64::from_str_radix(x.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
        };
        let g = groups
            .entry((t.to_string(), v["op"].as_str().unwrap().to_string()))
            .or_default();
        g.0.extend(ins.iter().map(hex));
        g.1.extend(v["out"].as_array().unwrap().iter().map(hex));
    }
    assert_eq!(groups.len(), 4, "complex64/complex128 × * /");
    for ((t, op), (parts, want)) in groups {
        let got = complex_op(&t, &op, &parts);
        let is_nan = |b: u64| {
            if t == "complex64" {
                f32::from_bits(b as u32).is_nan()
            } else {
                f64::from_bits(b).is_nan()
            }
        };
        for (k, (&g, &w)) in got.iter().zip(&want).enumerate() {
            assert!(
                g == w || (is_nan(g) && is_nan(w)),
                "{t} {op} pair {}: part {}: ksem {g:#x}, Hidet {w:#x}",
                k / 2,
                k % 2
            );
        }
    }
}

#[test]
fn complex_promotion_and_refusals_follow_hidet() {
    // measured (complex2.json): c64 mixes only with f32, c128 only with f64;
    // `a + 1` (int32), `c128 * 2.0` (a float32 literal), `<`, vector
    // arithmetic, lane access and a complex scalar parameter are refused
    for (body, needle) in [
        (
            "x = cast(a, ~c64)[0]\ny = x + 1",
            "Can not promote type hidet.complex64 and hidet.int32",
        ),
        ("x = cast(a, ~c64)[0]\ny = x < x", "compared with == and !="),
        (
            "x = cast(a, ~c64)[0]\nz = complex128(x)\ny = z * 2.0",
            "Can not promote type hidet.complex128 and hidet.float32",
        ),
        (
            "x = cast(a, ~c64)[0]\nz = cast(b, ~c128)[0]\ny = x + z",
            "Can not promote type hidet.complex64 and hidet.complex128",
        ),
        (
            "v = cast(a, ~f32x4)[0]\nw = v + v",
            "no arithmetic on vector types",
        ),
        (
            "v = cast(a, ~f32x4)[0]\nw = v.y",
            "Can not access attribute",
        ),
        ("v = cast(a, ~f32x4)[0]\nf: f32 = v", "found a f32x4 value"),
        ("v = cast(a, ~f16x2)[0]", "'half2' was not declared"),
        ("v = cast(a, ~int8x4)[0]", "'char4' was not declared"),
        ("x = cast(a, ~i32)[0]", "reinterprets the bits"),
        ("x = cast(a, ~c64)[0]\nf: f32 = x", "expected a real scalar"),
    ] {
        let src = with_cx(cpu("a: ~f32, b: ~f64", body));
        let d = refused(
            &src,
            &args(json!({"a": zeros("float32", 8), "b": zeros("float64", 2)})),
        );
        assert!(
            d.message.contains(needle) || d.help.as_deref().unwrap_or("").contains(needle),
            "{body}: {}",
            d.message
        );
        let last = body.lines().last().unwrap();
        assert_eq!(d.span.line, loc1(&src, last).0, "{body}");
    }
}

#[test]
fn seed_vector_types_move_whole_and_reach_lanes_through_a_pointer_cast() {
    // the seed's vector types i8x4, f16x2, f32x4 (and f32x8): a value is
    // loaded and stored whole; `-v` negates every lane (measured on f32x4);
    // a lane is reached through a pointer cast to the component type. In a
    // cuda_kernel every vector type is CUDA's own (char4, half2, float4).
    let src = with_cx(cuda(
        1,
        1,
        "a: ~i8, h: ~f16, f: ~f32",
        "v = cast(a, ~i8x4)[0]\ncast(a, ~int8x4)[1] = v\nw = cast(h, ~f16x2)[1]\ncast(h, ~float16x2)[0] = w\nx = cast(f, ~f32x4)[0]\ncast(f, ~float32x4)[1] = -x\nlanes = cast(cast(f, ~f32x4) + 1, ~f32)\nlanes[3] = f[0]",
    ));
    let r = run_clean(
        &src,
        &args(json!({
            "a": buf("int8", json!([1, -2, 3, -128, 0, 0, 0, 0])),
            "h": buf("float16", json!([0.0, 0.0, 1.5, -0.25])),
            "f": buf("float32", json!([1.0, -2.0, 0.0, 4.5, 0, 0, 0, 0])),
        })),
    );
    assert_eq!(signed(&r, "a"), vec![1, -2, 3, -128, 1, -2, 3, -128]);
    assert_eq!(bits(&r, "h"), vec![0x3e00, 0xb400, 0x3e00, 0xb400]);
    assert_eq!(
        bits(&r, "f"),
        f32_bits(&[1.0, -2.0, 0.0, 4.5, -1.0, 2.0, -0.0, 1.0])
    );
}

/// `-v` of a vector negates each lane's sign bit, NaN payloads and zeros
/// included, and whole elements are copied bit for bit. Measured on Hidet
/// 0.6.1 (tools/probes/hidet/vecptr.json, "float32x4 variable reassigned"
/// and "lanes written, v = t[k], w = -v"): lanes 1.5, -2.25, NaN
/// 0x7fa00001, -0.0 negate to 0xbfc00000, 0x40100000, 0xffa00001,
/// 0x00000000 (a signalling NaN stays signalling), and element k = 1 of
/// lanes [3.0, 1e-45, -7.5, 65504] negates to 0xc0400000, 0x80000001,
/// 0x40f00000, 0xc77fe000.
#[test]
fn vector_negation_flips_each_lane_sign_bit() {
    let src = with_cx(cpu(
        "f: ~f32, k: i32, out: ~f32",
        "t = tensor(dtype=f32x4, shape=[3])\nq = cast(~t[0], ~f32)\nfor j in range(12):\n    q[j] = f[j % 8]\nv = t[0]\nv = -v\nt[2] = v\nw = -t[k]\nt[0] = w\nr = cast(~t[0], ~f32)\nfor j in range(4):\n    out[j] = q[8 + j]\n    out[4 + j] = r[j]",
    ));
    let r = run_clean(
        &src,
        &args(json!({
            "f": {"buffer": {"dtype": "float32", "bits": [
                "0x3fc00000", "0xc0100000", "0x7fa00001", "0x80000000",
                "0x40400000", "0x00000001", "0xc0f00000", "0x477fe000"]}},
            "k": scalar("int32", json!(1)),
            "out": zeros("float32", 8),
        })),
    );
    assert_eq!(
        bits(&r, "out"),
        vec![
            0xbfc00000, 0x40100000, 0xffa00001, 0x00000000, 0xc0400000, 0x80000001, 0x40f00000,
            0xc77fe000
        ]
    );
}

#[test]
fn a_typed_constant_out_of_range_is_refused() {
    // measured: i8(300) → "ValueError: Value 300 is out of range for int8"
    let src = cpu("out: i32[1]", "out[0] = i8(300)");
    let d = refused(&src, &args(json!({"out": zeros("int32", 1)})));
    assert!(d.message.contains("out of range for i8"), "{}", d.message);
    assert_eq!(d.span.line, loc1(&src, "i8(300)").0);
}

// ---- measured corners (docs/hidet-measured.md, corpus/hidet) ----------------------

#[test]
fn greater_than_promotes_with_the_operands_swapped() {
    // Hidet writes `a > b` as `b < a`: u32 3000000000 > i8 1 promotes (i8, u32)
    // → i64 (3000000000 > 1: true), where (u32, i8) → i32 would make the
    // u32 −1294967296 and the comparison false. `<` keeps the order:
    // u32 3000000000 < i8 1 promotes (u32, i8) → i32: −1294967296 < 1 → true.
    let src = cpu(
        "u: u32[1], b: i8[1], out: i32[2]",
        "out[0] = u[0] > b[0]\nout[1] = u[0] < b[0]",
    );
    let r = run_clean(
        &src,
        &args(
            json!({"u": buf("uint32", json!([3000000000u32])), "b": buf("int8", json!([1])), "out": zeros("int32", 2)}),
        ),
    );
    assert_eq!(signed(&r, "out"), vec![1, 1]);
}

#[test]
fn bool_arithmetic_is_cast_back_to_bool() {
    // bool + bool is bool (Hidet's table) and Hidet's code is (bool)(a + b):
    // 1 + 1 → true (1), 0 - 1 → true (1)
    let src = cpu(
        "f: boolean[2], out: i32[2]",
        "out[0] = f[0] + f[0]\nout[1] = f[1] - f[0]",
    )
    .replace(
        "from hidet.lang import attrs, printf",
        "from hidet.lang import attrs, printf, boolean",
    );
    let r = run_clean(
        &src,
        &args(json!({"f": buf("bool", json!([true, false])), "out": zeros("int32", 2)})),
    );
    assert_eq!(signed(&r, "out"), vec![1, 1]);
}

#[test]
fn a_literal_cast_to_double_keeps_its_value() {
    // measured (generated C `d[0] * 0.1`, `out[1] = 0.1`): a float literal
    // meeting an f64 is the double 0.1, not (double)0.1f; a declaration
    // `x: f64 = 0.1` keeps the float literal (C: `double x = 0.1f`)
    let src = cpu(
        "d: f64[1], out: f64[3]",
        "out[0] = d[0] * 0.1\nout[1] = 0.1\nx: f64 = 0.1\nout[2] = x",
    );
    let r = run_clean(
        &src,
        &args(json!({"d": buf("float64", json!([1.0])), "out": zeros("float64", 3)})),
    );
    assert_eq!(
        bits(&r, "out"),
        vec![
            0.1f64.to_bits(),
            0.1f64.to_bits(),
            (0.1f32 as f64).to_bits()
        ]
    );
}

#[test]
fn refusals_hidet_makes_too() {
    // measured: `2 ** 3` ("pow is not supported for int32") and indexing a
    // pointer expression ("Can not infer the tensor rank")
    for (body, msg) in [
        ("out[0] = 2 ** 3", "pow is not supported"),
        ("out[0] = (p + 1)[1]", "Can not infer the tensor rank"),
    ] {
        let src = cpu("p: ~i32, out: i32[1]", body);
        let d = refused(
            &src,
            &args(json!({"p": buf("int32", json!([1, 2, 3])), "out": zeros("int32", 1)})),
        );
        assert!(d.message.contains(msg), "{body}: {}", d.message);
    }
}

#[test]
fn public_functions_return_their_value() {
    // Hidet's gallery example 1: a 'public' function returning a + b
    let src = module(&indent(
        "@hidet.script\ndef launch(a: f32, b: f32) -> f32:\n    attrs.func_kind = 'public'\n    return a + b",
    ));
    let r = run_clean(
        &src,
        &args(json!({"a": cx(json!(3.0)), "b": cx(json!(4.0))})),
    );
    assert_eq!(bits(&r, "return"), f32_bits(&[7.0]));
}

#[test]
fn tensor_pointer_shapes_and_launch_from_scalar_arguments() {
    // gallery example 4's form: the grid and the tensor pointers' shapes
    // follow from m and n; each thread writes c[i, j] = i * 100 + j
    let src = module(&indent(
        "@hidet.script\ndef k(c_ptr: ~f32, m: i32, n: i32):\n    attrs.func_kind = 'cuda_kernel'\n    attrs.cuda.block_dim = 4, 4\n    attrs.cuda.grid_dim = (m + 3) // 4, (n + 3) // 4\n    c = hidet.lang.tensor_pointer(dtype=f32, shape=[m, n], init=c_ptr)\n    i = blockIdx.x * 4 + threadIdx.x\n    j = blockIdx.y * 4 + threadIdx.y\n    if i < m and j < n:\n        c[i, j] = f32(i * 100 + j)",
    ));
    let l = args(
        json!({"c_ptr": zeros("float32", 30), "m": scalar("int32", json!(5)), "n": scalar("int32", json!(6))}),
    );
    let r = run_clean(&src, &l);
    let want: Vec<f32> = (0..30).map(|k| ((k / 6) * 100 + k % 6) as f32).collect();
    assert_eq!(bits(&r, "c_ptr"), f32_bits(&want));
    let k = elaborate(&src, &l).expect("elaborates");
    assert_eq!((k.grid, k.block), ([2, 2, 1], [4, 4, 1]));
}

#[test]
fn task_mappings_give_each_thread_its_tasks() {
    // spatial(2, 4).repeat(1, 2) over 8 threads: thread w owns row w / 4 and
    // columns (w % 4) * 2 + {0, 1} of a 2 x 8 task grid (Hidet's
    // ComposedTaskMapping: outer task * inner shape + inner task)
    let src = cuda(
        1,
        8,
        "out: i32[16]",
        "for i, j in hidet.lang.mapping.spatial(2, 4).repeat(1, 2).on(threadIdx.x):\n    out[i * 8 + j] = threadIdx.x",
    );
    let r = run_clean(&src, &args(json!({"out": zeros("int32", 16)})));
    let want: Vec<i64> = (0..16)
        .map(|k| ((k / 8) * 4 + (k % 8) / 2) as i64)
        .collect();
    assert_eq!(signed(&r, "out"), want);
    // a thread past the mapping's workers runs nothing (Hidet's bound
    // check): spatial(4) on 8 threads; without the check thread 4 would
    // compute task 4 (the rank-0 dimension takes no `%`) and write out[4]
    let src = cuda(
        1,
        8,
        "out: i32[8]",
        "for i in hidet.lang.mapping.spatial(4).on(threadIdx.x):\n    out[i] = 1",
    );
    let r = run_clean(&src, &args(json!({"out": zeros("int32", 8)})));
    assert_eq!(signed(&r, "out"), vec![1, 1, 1, 1, 0, 0, 0, 0]);
}

#[test]
fn tfloat32_is_float_storage_and_arithmetic() {
    // measured (docs/hidet-measured.md, conv.py): f32 → tf32 does not round
    // (0x3f801001 stays, although tf32 keeps 10 mantissa bits), and
    // tf32(x) * tf32(1.0000001) is the f32 product 0x3f801000 * 0x3f800001
    // = 0x3f801001 (1.000488... * 1.0000001, rounded once to float)
    let src = cpu(
        "a: f32[2], out: f32[2]",
        "x: tf32 = a[0]\nout[0] = x\nout[1] = tf32(a[1]) * tf32(1.0000001)",
    )
    .replace(
        "from hidet.lang.types import tensor,",
        "from hidet.lang.types import tensor, tf32,",
    );
    let a = [f32::from_bits(0x3f801001), f32::from_bits(0x3f801000)];
    let r = run_clean(
        &src,
        &args(json!({"a": buf("float32", json!(a)), "out": zeros("float32", 2)})),
    );
    let prod = (f32::from_bits(0x3f801000) * 1.0000001f32).to_bits() as u64;
    assert_eq!(bits(&r, "out"), vec![0x3f801001, prod]);
    assert_eq!(prod, 0x3f801001);
}

// ---- bad input: a clear error at the right place, never a panic ----------------

#[test]
fn bad_hidet_input_is_refused_at_its_position() {
    let cases: [(&str, &str, &str, Json); 8] = [
        // a layout whose ranks are not a permutation
        (
            "out: f32[4]",
            "t = tensor(dtype=f32, layout=strided_layout(shape=[2, 2], ranks=[0, 0]))\nout[0] = 1.0",
            "ranks [0, 0]",
            json!({"out": zeros("float32", 4)}),
        ),
        // composing layouts of different ranks
        (
            "out: f32[4]",
            "t = tensor(dtype=f32, layout=row_major(2, 2) * row_major(4))\nout[0] = 1.0",
            "same number of dimensions",
            json!({"out": zeros("float32", 4)}),
        ),
        // too many indices
        (
            "a: f32[2, 2], out: f32[4]",
            "out[0] = a[0, 0, 0]",
            "indexed with 3 indices",
            json!({"a": zeros("float32", 4), "out": zeros("float32", 4)}),
        ),
        // a float index
        (
            "a: f32[4], out: f32[4]",
            "out[0] = a[1.5]",
            "an index must be an integer",
            json!({"a": zeros("float32", 4), "out": zeros("float32", 4)}),
        ),
        // pointer misuse: a pointer times 2
        (
            "p: ~f32, out: f32[4]",
            "q = p * 2\nout[0] = 1.0",
            "not defined on a pointer",
            json!({"p": zeros("float32", 4), "out": zeros("float32", 4)}),
        ),
        // a float remainder (C's % has no float form)
        (
            "a: f32[4], out: f32[4]",
            "out[0] = a[0] % a[1]",
            "integer operands",
            json!({"a": zeros("float32", 4), "out": zeros("float32", 4)}),
        ),
        // if-else branches of different types
        (
            "a: f32[4], b: i32[4], out: f32[4]",
            "out[0] = a[0] if a[1] > 0.0 else b[0]",
            "different types",
            json!({"a": zeros("float32", 4), "b": zeros("int32", 4), "out": zeros("float32", 4)}),
        ),
        // a name never defined
        (
            "out: f32[4]",
            "out[0] = nothing + 1.0",
            "without definition",
            json!({"out": zeros("float32", 4)}),
        ),
    ];
    for (params, body, msg, a) in cases {
        let src = cpu(params, body);
        let d = refused(&src, &args(a));
        assert!(d.message.contains(msg), "{body}: {}", d.message);
        // the error points into the kernel body (the line of the statement)
        let first = body.lines().next().expect("a line");
        let line_of = |needle: &str| loc1(&src, needle).0;
        let want: Vec<u32> = body.lines().map(line_of).collect();
        assert!(
            want.contains(&d.span.line),
            "{body}: line {} ({first})",
            d.span.line
        );
    }
}

#[test]
fn launch_that_contradicts_the_kernel_is_refused() {
    // a buffer of another size than the tensor's storage, another dtype, a
    // missing argument, and a grid that disagrees with attrs.cuda.grid_dim
    let src = cpu("a: f32[2, 3]", "a[0, 0] = 1.0");
    let d = refused(&src, &args(json!({"a": zeros("float32", 5)})));
    assert!(d.message.contains("6 elements of storage"), "{}", d.message);
    let d = refused(&src, &args(json!({"a": zeros("int32", 6)})));
    assert!(d.message.contains("holds f32"), "{}", d.message);
    let d = refused(&src, &args(json!({})));
    assert!(
        d.message.contains("no argument for parameter `a`"),
        "{}",
        d.message
    );
    let src = cuda(2, 32, "a: f32[64]", "a[threadIdx.x] = 1.0");
    let l = parse_launch(&json!({"grid": [3], "args": {"a": zeros("float32", 64)}}).to_string())
        .expect("launch");
    let d = refused(&src, &l);
    assert!(d.message.contains("disagrees"), "{}", d.message);
}

#[test]
fn math_primitives_are_the_float_types_own() {
    // hidet.ir.primitives.math: sqrt of f32 is sqrtf (correctly rounded:
    // √2 → 0x3fb504f3), min/max promote and ignore a NaN operand (fminf),
    // floor keeps the type; compared with real Hidet on this CPU by
    // `ksem diff --backends interp,hidet` (all agree)
    let src = cpu(
        "a: f32[2], n: i32[2], o: f32[4], oi: i32[1]",
        "o[0] = sqrt(a[0])\no[1] = min(a[1], 0.5)\no[2] = max(a[1], 2.0)\no[3] = floor(a[0] * 3.0)\noi[0] = min(n[0], n[1])",
    )
    .replace(
        "from hidet.lang.cuda import",
        "from hidet.ir.primitives.math import sqrt, min, max, floor\nfrom hidet.lang.cuda import",
    );
    let r = run_clean(
        &src,
        &args(
            json!({"a": buf("float32", json!([2.0, "nan"])), "n": buf("int32", json!([5, -3])),
            "o": zeros("float32", 4), "oi": zeros("int32", 1)}),
        ),
    );
    // 2 * 3 = 6 → floor 6
    assert_eq!(
        bits(&r, "o"),
        vec![0x3fb504f3, 0x3f000000, 0x40000000, 0x40c00000]
    );
    assert_eq!(signed(&r, "oi"), vec![-3]);
}

#[test]
fn identity_operations_leave_the_operand_itself() {
    // measured on real Hidet (found by the Hidet fuzzer): `x * 1.0`,
    // `x + 0.0`, `1.0 * x` of an int64 x are x exactly (2^24 + 1 and
    // 2^53 + 1 survive, where a float32 multiply would round them), and
    // −0.0 + 0.0 stays −0.0
    let src = cpu(
        "a: i64[2], f: f32[1], out: i64[4], fo: f32[1]",
        "out[0] = a[0] * 1.0\nout[1] = a[1] + 0.0\nout[2] = 1.0 * a[0]\nout[3] = (a[0] * 1.0) + 1\nfo[0] = f[0] + 0.0",
    );
    let r = run_clean(
        &src,
        &args(
            json!({"a": buf("int64", json!([16777217i64, 9007199254740993i64])),
            "f": buf("float32", json!(["-0.0"])), "out": zeros("int64", 4), "fo": zeros("float32", 1)}),
        ),
    );
    assert_eq!(
        signed(&r, "out"),
        vec![16777217, 9007199254740993, 16777217, 16777218]
    );
    assert_eq!(bits(&r, "fo"), vec![0x80000000]);
}

#[test]
fn a_while_condition_is_kept_when_the_body_starts_with_a_break() {
    // found by the Hidet fuzzer: the loop below runs until w = 3 (real Hidet: 3)
    let out = i64_out(
        "w = 0\nwhile w < 3:\n    if w > 100:\n        break\n    w = w + 1\nout[0] = w",
        1,
    );
    assert_eq!(out, vec![3]);
}

#[test]
fn bitwise_results_take_the_promoted_type_after_hidets_passes() {
    // measured on real Hidet (ksem diff --backends interp,hidet; found by the
    // Hidet fuzzer): `v | x` of an i8 and an i64 is typed i8 while
    // transpiling but its operands are cast to i64, so an enclosing `<` or
    // `+` works in i64: 7 < (1 | 2^40 + 5) is true and (1 | 2^40 + 5) + 1 is
    // 2^40 + 6; a variable it defines is declared i8 (5: ksem keeps the
    // declared type where Hidet's let inlining loses it, divergence H10)
    let src = cpu(
        "a: i8[1], x: i64[1], out: i64[3]",
        "v3 = a[0]\nx1 = x[0]\nout[0] = i32(7) < (v3 | x1)\ny = v3 | x1\nout[1] = y\nout[2] = (v3 | x1) + 1",
    );
    let r = run_clean(
        &src,
        &args(
            json!({"a": buf("int8", json!([1])), "x": buf("int64", json!([1099511627781i64])),
            "out": zeros("int64", 3)}),
        ),
    );
    assert_eq!(signed(&r, "out"), vec![1, 5, 1099511627782]);
}

#[test]
fn an_operand_before_an_atomic_reads_memory_first() {
    // `acc[0] + atomic_add(~acc[0], 5)`: the left operand is read first
    // (10), the atomic returns 10 and leaves 15: 20
    let src = cuda(
        1,
        1,
        "acc: i32[1], out: i32[1]",
        "out[0] = acc[0] + atomic_add(~acc[0], 5)",
    )
    .replace(
        "from hidet.lang.cuda import",
        "from hidet.lang.cuda import atomic_add,",
    );
    let r = run_clean(
        &src,
        &args(json!({"acc": buf("int32", json!([10])), "out": zeros("int32", 1)})),
    );
    assert_eq!(signed(&r, "out"), vec![20]);
}
