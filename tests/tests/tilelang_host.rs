//! TileLang kernels whose compile-time values come from host code: the
//! device queries (`driver.get_num_sms()`, `torch.cuda.get_device_capability()`)
//! answered from the launch's `"target"` (by default an H100 SXM), host
//! helper functions called on constants, and the Python errors host code
//! raises (division by zero, an undefined name) reported where they happen.

use ksem_interp::launch::{parse_launch, Launch, RunResult, Target};
use ksem_tests::*;
use serde_json::{json, Value as Json};

/// A TileLang module importing the carver's driver and torch, then `rest`.
fn module(rest: &str) -> String {
    format!(
        "import torch\nimport tilelang\nimport tilelang.language as T\nfrom tilelang.carver.arch import driver\n\n{rest}"
    )
}

/// A launch of kernel `kernel` with `args` and, where given, `target`.
fn launch_of(kernel: &str, args: Json, target: Option<Json>) -> Launch {
    let mut l = json!({"kernel": kernel, "args": args});
    if let Some(t) = target {
        l["target"] = t;
    }
    let text = l.to_string();
    parse_launch(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn ints(r: &RunResult, name: &str) -> Vec<i64> {
    let b = r.buffers.iter().find(|b| b.name == name).expect("buffer");
    b.bits.iter().map(|&x| x as u32 as i32 as i64).collect()
}

/// A factory whose kernel writes `value` (host code of the factory,
/// evaluated before the kernel) to C[0].
fn factory_writing(host: &str, value: &str) -> String {
    module(&format!(
        "{host}\n\ndef make():\n    v = {value}\n\n    @T.prim_func\n    def main(C: T.Tensor((1,), \"int32\")):\n        with T.Kernel(1, threads=1) as bx:\n            C[0] = v\n\n    return main\n"
    ))
}

/// C[0] of `factory_writing(host, value)` under `target`.
fn written(host: &str, value: &str, target: Option<Json>) -> i64 {
    let src = factory_writing(host, value);
    let l = launch_of("make", json!({"C": zeros("int32", 1)}), target);
    ints(&run_clean(&src, &l), "C")[0]
}

#[test]
fn the_default_target_is_an_h100_sxm() {
    // NVIDIA's H100 SXM5: 132 SMs, compute capability 9.0 (the PCIe card
    // has 114): what a launch without "target" describes
    let l = parse_launch(r#"{"args": {}}"#).unwrap();
    assert_eq!(
        l.target,
        Target {
            num_sms: 132,
            capability: (9, 0),
            triton: (3, 6)
        }
    );
    assert_eq!(written("", "driver.get_num_sms()", None), 132);
    assert_eq!(
        written(
            "",
            "torch.cuda.get_device_capability()[0] * 10 + torch.cuda.get_device_capability()[1]",
            None
        ),
        90
    );
}

#[test]
fn get_num_sms_is_the_launch_targets() {
    assert_eq!(
        written("", "driver.get_num_sms()", Some(json!({"num_sms": 7}))),
        7
    );
    // device 0, by position or by name, is the target
    assert_eq!(
        written("", "driver.get_num_sms(0)", Some(json!({"num_sms": 9}))),
        9
    );
    assert_eq!(
        written(
            "",
            "driver.get_num_sms(device_id=0)",
            Some(json!({"num_sms": 11}))
        ),
        11
    );
    // a key left out keeps the default's value
    assert_eq!(
        written(
            "",
            "driver.get_num_sms()",
            Some(json!({"capability": [8, 0]}))
        ),
        132
    );
}

#[test]
fn a_grid_of_num_sms_blocks_is_the_targets() {
    // the persistent-kernel pattern: one block per SM
    let src = module(
        "def make():\n    sm_num = driver.get_num_sms()\n\n    @T.prim_func\n    def main(C: T.Tensor((5,), \"int32\")):\n        with T.Kernel(sm_num, threads=1) as bx:\n            C[bx] = bx + 1\n\n    return main\n",
    );
    let l = launch_of(
        "make",
        json!({"C": zeros("int32", 5)}),
        Some(json!({"num_sms": 5})),
    );
    assert_eq!(elaborate(&src, &l).unwrap().grid, [5, 1, 1]);
    assert_eq!(ints(&run_clean(&src, &l), "C"), vec![1, 2, 3, 4, 5]);
    // the default target's 132 blocks
    let l = launch_of("make", json!({"C": zeros("int32", 5)}), None);
    assert_eq!(elaborate(&src, &l).unwrap().grid, [132, 1, 1]);
}

#[test]
fn an_eager_kernels_prologue_asks_the_target_too() {
    let src = module(
        "@tilelang.jit\ndef count(C):\n    C: T.Tensor((2,), \"int32\")\n    sm_num = driver.get_num_sms()\n    major, minor = torch.cuda.get_device_capability()\n\n    with T.Kernel(1, threads=1) as bx:\n        C[0] = sm_num\n        C[1] = major * 10 + minor\n",
    );
    let l = launch_of(
        "count",
        json!({"C": zeros("int32", 2)}),
        Some(json!({"num_sms": 78, "capability": [12, 1]})),
    );
    assert_eq!(ints(&run_clean(&src, &l), "C"), vec![78, 121]);
}

/// The attention-sink examples' `get_bwd_configs()`: a host helper that
/// picks block sizes and threads from the device's compute capability.
const BWD_CONFIGS: &str = "def get_bwd_configs():\n    sm_major, sm_minor = torch.cuda.get_device_capability()\n    sm_version = sm_major * 10 + sm_minor\n    if sm_version == 80:\n        return 64, 32, 1, 128\n    else:\n        return 128, 32, 2, 256";

#[test]
fn a_host_helper_runs_on_the_targets_capability() {
    // default 9.0: sm_version 90, the else branch
    assert_eq!(written(BWD_CONFIGS, "get_bwd_configs()[3]", None), 256);
    assert_eq!(
        written(
            BWD_CONFIGS,
            "get_bwd_configs()[3]",
            Some(json!({"capability": [8, 0]}))
        ),
        128
    );
    // the helper's value decides T.Kernel's threads
    let src = module(&format!(
        "{BWD_CONFIGS}\n\n\ndef make():\n    block_M, block_N, num_stages, threads = get_bwd_configs()\n\n    @T.prim_func\n    def main(C: T.Tensor((1,), \"int32\")):\n        with T.Kernel(1, threads=threads) as bx:\n            C[0] = block_M\n\n    return main\n"
    ));
    let l = launch_of(
        "make",
        json!({"C": zeros("int32", 1)}),
        Some(json!({"capability": [8, 0]})),
    );
    assert_eq!(ints(&run_clean(&src, &l), "C"), vec![64]);
    // a launch's "block" must agree with `threads`: 128 on 8.0, 256 on 9.0
    let with_block = |target: Json| {
        let text = json!({"kernel": "make", "block": [128], "target": target,
            "args": {"C": zeros("int32", 1)}})
        .to_string();
        elaborate(&src, &parse_launch(&text).unwrap())
    };
    assert!(with_block(json!({"capability": [8, 0]})).is_ok());
    assert!(with_block(json!({"capability": [9, 0]})).is_err());
}

#[test]
fn host_helpers_bind_arguments_as_python_does() {
    let helper = "def cfg(a, b=3, *, c=10):\n    \"\"\"a docstring\"\"\"\n    x = a * b\n    x += c\n    return x";
    // positional, default, keyword-only
    assert_eq!(written(helper, "cfg(2)", None), 16);
    assert_eq!(written(helper, "cfg(2, 5)", None), 20);
    assert_eq!(written(helper, "cfg(2, c=1)", None), 7);
    assert_eq!(written(helper, "cfg(b=4, a=1)", None), 14);
    // a helper that returns nothing returns None: `None or 5`
    assert_eq!(
        written("def nothing():\n    pass", "nothing() or 5", None),
        5
    );
    // a helper reads module constants
    assert_eq!(
        written(
            "BASE = 40\n\ndef plus(n):\n    return BASE + n",
            "plus(2)",
            None
        ),
        42
    );
}

#[test]
fn a_helper_ksem_cannot_run_statement_by_statement_has_no_value() {
    // skipping the loop would give 1 block; Python gives 8: ksem must not
    // guess, the grid is refused as unknown
    let src = module(
        "def blocks():\n    n = 1\n    for i in range(3):\n        n = n * 2\n    return n\n\n\ndef make():\n    nb = blocks()\n\n    @T.prim_func\n    def main(C: T.Tensor((8,), \"int32\")):\n        with T.Kernel(nb, threads=1) as bx:\n            C[bx] = 1\n\n    return main\n",
    );
    let l = launch_of("make", json!({"C": zeros("int32", 8)}), None);
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc(&src, "T.Kernel(nb", "nb"),
        &["grid dimension must be known at compile time"],
        None,
    );
}

#[test]
fn a_device_other_than_the_target_is_an_error_at_the_query() {
    for (call, at) in [
        ("driver.get_num_sms(1)", "driver.get_num_sms(1)"),
        (
            "torch.cuda.get_device_capability(\"cuda:1\")",
            "torch.cuda.get_device_capability(",
        ),
    ] {
        let src = factory_writing("", call);
        let l = launch_of("make", json!({"C": zeros("int32", 1)}), None);
        let d = refused(&src, &l);
        assert_diag(
            &src,
            &d,
            loc1(&src, at),
            &["ksem's target is one device, device 0"],
            Some("\"target\""),
        );
    }
    // "cuda" and "cuda:0" name device 0
    for dev in ["\"cuda\"", "\"cuda:0\"", "0", "None"] {
        assert_eq!(
            written(
                "",
                &format!("torch.cuda.get_device_capability({dev})[0]"),
                Some(json!({"capability": [8, 6]}))
            ),
            8,
            "{dev}"
        );
    }
}

#[test]
fn cli_device_query_of_another_device_exits_2_at_the_call() {
    let Some(bin) = ksem_or_skip("cli_device_query_of_another_device_exits_2_at_the_call") else {
        return;
    };
    let src = factory_writing("", "driver.get_num_sms(3)");
    let (line, col) = loc1(&src, "driver.get_num_sms(3)");
    let text = json!({"kernel": "make", "args": {"C": zeros("int32", 1)}}).to_string();
    let out = cli_case(&bin, "run", &src, &text, &[]);
    out.assert_code(2);
    assert!(
        out.stderr
            .starts_with(&format!("{FILE}:{line}:{col}: error: ")),
        "stderr:\n{}",
        out.stderr
    );
}

#[test]
fn a_bad_target_is_a_launch_error() {
    for (target, want) in [
        (json!({"num_sms": 0}), "target.num_sms is 0"),
        (json!({"num_sms": -4}), "target.num_sms"),
        (json!({"capability": [0, 5]}), "target.capability: 0.5"),
        (json!({"capability": [9]}), "target.capability"),
        (json!({"sms": 4}), "target.sms: unknown field `sms`"),
    ] {
        let text = json!({"args": {}, "target": target}).to_string();
        let e = parse_launch(&text).expect_err(&text);
        assert!(e.starts_with(want), "{text}: {e}");
    }
}

#[test]
fn cli_bad_target_exits_2() {
    let Some(bin) = ksem_or_skip("cli_bad_target_exits_2") else {
        return;
    };
    let src = factory_writing("", "driver.get_num_sms()");
    let text =
        json!({"kernel": "make", "args": {"C": zeros("int32", 1)}, "target": {"num_sms": 0}})
            .to_string();
    let out = cli_case(&bin, "run", &src, &text, &[]);
    out.assert_code(2);
    assert!(
        out.stderr.contains("target.num_sms is 0"),
        "stderr:\n{}",
        out.stderr
    );
}

#[test]
fn a_host_division_by_zero_is_pythons_zero_division_error() {
    // the flash-decoding example with heads < k_heads: kv_group_num is 0
    let src = module(
        "def make(heads, k_heads):\n    kv_group_num = heads // k_heads\n    valid = min(2, kv_group_num)\n\n    @T.prim_func\n    def main(C: T.Tensor((1,), \"int32\")):\n        with T.Kernel(heads // valid, threads=1) as bx:\n            C[0] = 1\n\n    return main\n",
    );
    let text = json!({"kernel": "make", "factory_args": {"heads": 2, "k_heads": 64},
        "args": {"C": zeros("int32", 1)}})
    .to_string();
    let d = refused(&src, &parse_launch(&text).unwrap());
    assert_diag(
        &src,
        &d,
        loc(&src, "T.Kernel(heads", "heads // valid"),
        // CPython: `2 // 0` raises "ZeroDivisionError: integer division or modulo by zero"
        &["ZeroDivisionError: integer division or modulo by zero"],
        None,
    );
    // in the factory's own assignments too (Python raises there); CPython:
    // `7 % 0` raises "ZeroDivisionError: integer modulo by zero"
    factory_value_raises("7 % (3 - 3)", "ZeroDivisionError: integer modulo by zero");
}

/// The factory whose host code assigns `value` is refused at `value` with
/// Python's exception `msg`.
fn factory_value_raises(value: &str, msg: &str) {
    let src = factory_writing("", value);
    let l = launch_of("make", json!({"C": zeros("int32", 1)}), None);
    let d = refused(&src, &l);
    assert_diag(&src, &d, loc1(&src, value), &[msg], None);
}

#[test]
fn an_undefined_name_in_a_grid_is_named() {
    // the NSA backward example's `B * H` with no `H` in scope
    let src = module(
        "def make(B):\n    @T.prim_func\n    def main(C: T.Tensor((1,), \"int32\")):\n        with T.Kernel(B * H, threads=1) as bx:\n            C[0] = 1\n\n    return main\n",
    );
    let text =
        json!({"kernel": "make", "factory_args": {"B": 2}, "args": {"C": zeros("int32", 1)}})
            .to_string();
    let d = refused(&src, &parse_launch(&text).unwrap());
    assert_diag(
        &src,
        &d,
        loc(&src, "T.Kernel(B", "H,"),
        &["`H` is not defined", "NameError"],
        None,
    );
}

#[test]
fn a_name_only_the_script_block_binds_is_named() {
    // the NSA backward example: `H` is a global only once `python file.py`
    // has run its `__main__` block; ksem does not run it
    let src = module(
        "def make(B):\n    @T.prim_func\n    def main(C: T.Tensor((1,), \"int32\")):\n        with T.Kernel(B * H, threads=1) as bx:\n            C[0] = 1\n\n    return main\n\n\nif __name__ == \"__main__\":\n    B, H = 1, 2\n    make(B)\n",
    );
    let text =
        json!({"kernel": "make", "factory_args": {"B": 2}, "args": {"C": zeros("int32", 1)}})
            .to_string();
    let d = refused(&src, &parse_launch(&text).unwrap());
    assert_diag(
        &src,
        &d,
        loc(&src, "T.Kernel(B", "H,"),
        &["`H` is bound only by the `if __name__ == \"__main__\":` block"],
        Some("parameter of the kernel"),
    );
    // bound in the factory, but not to a value ksem knows: the generic error
    let src = module(
        "def make(B):\n    H = len(str(B))\n    H = H + B.bit_length()\n\n    @T.prim_func\n    def main(C: T.Tensor((1,), \"int32\")):\n        with T.Kernel(B * H, threads=1) as bx:\n            C[0] = 1\n\n    return main\n",
    );
    let d = refused(&src, &parse_launch(&text).unwrap());
    assert_diag(
        &src,
        &d,
        loc1(&src, "B * H"),
        &["a grid dimension must be known at compile time"],
        None,
    );
}

/// A TileLang module with only the language imports, then `rest`.
fn plain(rest: &str) -> String {
    format!("import tilelang\nimport tilelang.language as T\nfrom tilelang.autotuner import autotune\n\n{rest}")
}

#[test]
fn an_autotuned_parameter_left_none_must_come_from_the_launch() {
    // real TileLang's @autotune fills BLOCK from the config it measures
    // fastest (tilelang/autotuner/tuner.py: a config's values become the
    // call's keyword arguments; giving them skips the tuning); ksem measures
    // nothing, so the launch chooses
    for (style, src) in [
        (
            "eager",
            plain(
                "@autotune(configs=[{\"BLOCK\": 2}, {\"BLOCK\": 4}], warmup=3, rep=20)\n@tilelang.jit\ndef k(C, BLOCK=None):\n    C: T.Tensor((4,), \"int32\")\n    with T.Kernel(1, threads=1) as bx:\n        C[0] = BLOCK\n",
            ),
        ),
        (
            "factory",
            plain(
                "@autotune(configs=[{\"BLOCK\": 2}, {\"BLOCK\": 4}])\n@tilelang.jit\ndef k(BLOCK=None):\n    @T.prim_func\n    def main(C: T.Tensor((4,), \"int32\")):\n        with T.Kernel(1, threads=1) as bx:\n            C[0] = BLOCK\n\n    return main\n",
            ),
        ),
    ] {
        let l = launch_of("k", json!({"C": zeros("int32", 4)}), None);
        let d = refused(&src, &l);
        assert_diag(
            &src,
            &d,
            loc1(&src, "BLOCK=None"),
            &["`BLOCK` is None until @autotune fills it"],
            Some("\"factory_args\": {\"BLOCK\""),
        );
        let text = json!({"kernel": "k", "factory_args": {"BLOCK": 4},
            "args": {"C": zeros("int32", 4)}})
        .to_string();
        let r = run_clean(&src, &parse_launch(&text).unwrap());
        assert_eq!(ints(&r, "C")[0], 4, "{style}");
    }
    // without @autotune a None default is Python's None
    let src = plain(
        "@tilelang.jit\ndef k(C, BLOCK=None):\n    C: T.Tensor((4,), \"int32\")\n    with T.Kernel(1, threads=1) as bx:\n        C[0] = 7 if BLOCK is None else 1\n",
    );
    let l = launch_of("k", json!({"C": zeros("int32", 4)}), None);
    assert_eq!(ints(&run_clean(&src, &l), "C")[0], 7);
}

#[test]
fn a_none_in_a_grid_is_named() {
    // the analyze example's kernel called without its config
    let src = plain(
        "@tilelang.jit\ndef k(C, block_N=None):\n    C: T.Tensor((4,), \"int32\")\n    with T.Kernel(T.ceildiv(4, block_N), threads=1) as bx:\n        C[0] = 1\n",
    );
    let l = launch_of("k", json!({"C": zeros("int32", 4)}), None);
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc(&src, "T.Kernel(", "block_N"),
        &["`block_N` is None here"],
        Some("\"factory_args\""),
    );
}

#[test]
fn an_eager_prologue_compares_a_dtype_name_with_a_dtype_as_python_does() {
    // the intrinsics GEMM's `if out_dtype == T.int32:` with out_dtype the
    // string "float16" or "int32" (measured: a dtype equals its own name
    // only; tools/probes/tilelang/dtype_str_eq.json)
    let src = plain(
        "@tilelang.jit\ndef k(C, out_dtype):\n    C: T.Tensor((2,), \"int32\")\n    micro_k = 16\n    if out_dtype == T.int32:\n        micro_k = 32\n    with T.Kernel(1, threads=1) as bx:\n        C[0] = micro_k\n        C[1] = 1 if out_dtype != T.float16 else 0\n",
    );
    for (dtype, want) in [("float16", vec![16, 0]), ("int32", vec![32, 1])] {
        let text = json!({"kernel": "k", "factory_args": {"out_dtype": dtype},
            "args": {"C": zeros("int32", 2)}})
        .to_string();
        let r = run_clean(&src, &parse_launch(&text).unwrap());
        assert_eq!(ints(&r, "C"), want, "{dtype}");
    }
}

#[test]
fn module_constants_of_chained_and_tuple_assignments() {
    // the analyze example's `M = N = K = 1024`
    let src = plain(
        "M = N = K = 3\nP, Q = 2, 5\nR = 1\nR = len(some_host_list())\n\n\n@T.prim_func\ndef main(C: T.Tensor((M,), \"int32\")):\n    with T.Kernel(1, threads=1) as bx:\n        C[0] = N + K\n        C[1] = P * Q\n",
    );
    let l = launch_of("main", json!({"C": zeros("int32", 3)}), None);
    assert_eq!(ints(&run_clean(&src, &l), "C"), vec![6, 10, 0]);
    // a constant rebound to a value ksem cannot know is unknown, not stale
    let src = plain(
        "R = 1\nR = len(some_host_list())\n\n\n@T.prim_func\ndef main(C: T.Tensor((1,), \"int32\")):\n    with T.Kernel(1, threads=1) as bx:\n        C[0] = R\n",
    );
    let l = launch_of("main", json!({"C": zeros("int32", 1)}), None);
    let d = refused(&src, &l);
    assert!(d.message.contains("`R`"), "{d:?}");
}

#[test]
fn the_target_gives_what_real_tilelang_builds_for_it() {
    // measured: tools/probes/tilelang/host_target.py ran this program on
    // tilelang 0.1.15's C target through tools/tilelang_run.py, whose
    // device queries answer from the same "target" (the default included)
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tools/probes/tilelang/host_target.json"
    );
    let measured: Json =
        serde_json::from_str(&std::fs::read_to_string(path).expect("probe output")).unwrap();
    let src = measured["program"].as_str().unwrap();
    let cases = measured["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 3);
    for case in cases {
        let l = launch_of(
            "make",
            json!({"C": zeros("int32", 140)}),
            Some(case["target"].clone()),
        );
        let want: Vec<i64> = case["C"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        assert_eq!(ints(&run_clean(src, &l), "C"), want, "{}", case["target"]);
    }
}

#[test]
fn copy_and_gemm_take_their_buffers_by_name() {
    // TileLang's signatures: copy(src, dst, *, coalesced_width, annotations,
    // loop_layout) and gemm(A, B, C, transpose_A, transpose_B, policy,
    // clear_accum, …); the attention-sink backward examples write
    // `T.copy(x, dst=do)` and `T.gemm(a, B=do, C=dv, policy=…)`
    let src = plain(
        "@T.prim_func\ndef main(A: T.Tensor((2, 2), \"float32\"), B: T.Tensor((2, 2), \"float32\"), C: T.Tensor((2, 2), \"float32\"), D: T.Tensor((2, 2), \"float32\")):\n    with T.Kernel(1, threads=1) as bx:\n        a = T.alloc_shared((2, 2), \"float32\")\n        b = T.alloc_shared((2, 2), \"float32\")\n        c = T.alloc_fragment((2, 2), \"float32\")\n        T.copy(A, dst=a)\n        T.copy(src=B, dst=b)\n        T.clear(c)\n        T.gemm(a, B=b, C=c, policy=T.GemmWarpPolicy.FullRow)\n        T.copy(c, C)\n        T.copy(b, dst=D, coalesced_width=2)\n",
    );
    let text = json!({"kernel": "main", "args": {
        "A": {"buffer": {"dtype": "float32", "shape": [2, 2], "data": [1, 2, 3, 4]}},
        "B": {"buffer": {"dtype": "float32", "shape": [2, 2], "data": [5, 6, 7, 8]}},
        "C": {"buffer": {"dtype": "float32", "shape": [2, 2], "len": 4}},
        "D": {"buffer": {"dtype": "float32", "shape": [2, 2], "len": 4}}}})
    .to_string();
    let r = run_clean(&src, &parse_launch(&text).unwrap());
    // [[1, 2], [3, 4]] · [[5, 6], [7, 8]] = [[19, 22], [43, 50]], exact in f32
    assert_eq!(bits(&r, "C"), f32_bits(&[19.0, 22.0, 43.0, 50.0]));
    assert_eq!(bits(&r, "D"), f32_bits(&[5.0, 6.0, 7.0, 8.0]));
    // a missing destination is still an error
    let src = plain(
        "@T.prim_func\ndef main(A: T.Tensor((2,), \"float32\")):\n    with T.Kernel(1, threads=1) as bx:\n        a = T.alloc_shared((2,), \"float32\")\n        T.copy(src=A)\n",
    );
    let text = json!({"kernel": "main", "args": {"A": {"buffer": {"dtype": "float32", "len": 2}}}})
        .to_string();
    let d = refused(&src, &parse_launch(&text).unwrap());
    assert_diag(
        &src,
        &d,
        loc1(&src, "T.copy(src=A)"),
        &["T.copy takes (src, dst)"],
        None,
    );
}

#[test]
fn a_name_from_a_module_ksem_does_not_read_says_so() {
    // the varlen block-causal example: `from block_causal_attention import
    // LOG2_E, _fwd_tile_allowed` reads a sibling file; ksem reads only the
    // kernel's own file
    let src = format!(
        "import tilelang\nimport tilelang.language as T\nfrom helpers_mod import LOG2_E, tile_ok\nfrom tilelang.intrinsics import SomeEmitter\n\n{}",
        "def make(scale):\n    scale_log2e = scale * LOG2_E\n\n    @T.prim_func\n    def main(C: T.Tensor((2,), \"float32\")):\n        with T.Kernel(1, threads=1) as bx:\n            C[0] = C[0] * scale_log2e\n            C[1] = tile_ok(0, 1)\n            e = SomeEmitter(1)\n\n    return main\n"
    );
    let text = json!({"kernel": "make", "factory_args": {"scale": 0.5},
        "args": {"C": {"buffer": {"dtype": "float32", "len": 2}}}})
    .to_string();
    let d = refused(&src, &parse_launch(&text).unwrap());
    assert_diag(
        &src,
        &d,
        loc(&src, "C[0] = ", "scale_log2e"),
        &["`scale_log2e` has no value at compile time: it is computed from `LOG2_E`, imported from `helpers_mod`, a module ksem cannot find"],
        Some("where Python would find it"),
    );
    // the helper function, called in the kernel
    let src2 = src.replace("            C[0] = C[0] * scale_log2e\n", "");
    let d = refused(&src2, &parse_launch(&text).unwrap());
    assert_diag(
        &src2,
        &d,
        loc1(&src2, "tile_ok(0, 1)"),
        &["`tile_ok` is imported from `helpers_mod`, a module ksem cannot find"],
        Some("where Python would find it"),
    );
    // a part of TileLang itself is named as unsupported, not as a file to read
    let src3 = src2.replace("            C[1] = tile_ok(0, 1)\n", "");
    let d = refused(&src3, &parse_launch(&text).unwrap());
    assert_diag(
        &src3,
        &d,
        loc1(&src3, "SomeEmitter(1)"),
        &["`SomeEmitter` (`tilelang.intrinsics.SomeEmitter`) is a part of TileLang ksem does not support"],
        None,
    );
}

/// Only the parameters `@autotune`'s configs name are tuned: a `None`
/// default of another parameter is Python's None, as in the attention-sink
/// example's `window_size=None` ("None for full attention"), which the
/// kernel tests with `is not None`. The configs are built by a module
/// function (`dict(BLOCK=[…])`) as TileLang's examples do: C[0] = BLOCK = 2
/// (from the launch), C[1] = 7 (window is None).
#[test]
fn autotune_tunes_only_what_its_configs_name() {
    let src = plain(&format!(
        "import itertools\n\n{}",
        "def get_configs():\n    iter_params = dict(BLOCK=[2, 4])\n    return [dict(zip(iter_params, v)) for v in itertools.product(*iter_params.values())]\n\n\n@autotune(configs=get_configs(), warmup=3, rep=20)\n@tilelang.jit\ndef k(C, BLOCK=None, window=None):\n    C: T.Tensor((2,), \"int32\")\n    with T.Kernel(1, threads=1) as bx:\n        C[0] = BLOCK\n        C[1] = 7 if window is None else window\n"
    ));
    let launch = |fa: serde_json::Value| {
        parse_launch(
            &json!({"kernel": "k", "factory_args": fa, "args": {"C": zeros("int32", 2)}})
                .to_string(),
        )
        .unwrap()
    };
    let r = run_clean(&src, &launch(json!({"BLOCK": 2})));
    assert_eq!(bits(&r, "C"), vec![2, 7]);
    // BLOCK itself, left None, is still the launch's to choose
    let d = refused(&src, &launch(json!({})));
    assert!(
        d.message
            .contains("`BLOCK` is None until @autotune fills it"),
        "{d:?}"
    );
}

/// `torch.cuda.is_available()` is true (the target is a CUDA GPU) and
/// `torch.cuda.get_device_properties(0)` is the target: its `major`,
/// `minor` and `multi_processor_count` (TileLang's convolution example asks
/// `check_hopper()` this way). Another attribute, or another device, is an
/// error at the query.
#[test]
fn device_properties_are_the_targets() {
    const CHECK_HOPPER: &str = "def check_hopper():\n    if not torch.cuda.is_available():\n        return None\n    props = torch.cuda.get_device_properties(0)\n    compute_capability = props.major, props.minor\n    return compute_capability == (9, 0)\n";
    // the default target is 9.0: True (1); on 8.0: False (0)
    assert_eq!(written(CHECK_HOPPER, "1 if check_hopper() else 0", None), 1);
    assert_eq!(
        written(
            CHECK_HOPPER,
            "1 if check_hopper() else 0",
            Some(json!({"capability": [8, 0]}))
        ),
        0
    );
    assert_eq!(
        written(
            "",
            "torch.cuda.get_device_properties(0).multi_processor_count",
            Some(json!({"num_sms": 78}))
        ),
        78
    );
    assert_eq!(
        written(
            "",
            "torch.cuda.get_device_properties(\"cuda\").minor",
            Some(json!({"capability": [8, 6]}))
        ),
        6
    );
    let src = factory_writing("", "torch.cuda.get_device_properties(0).total_memory");
    let l = launch_of("make", json!({"C": zeros("int32", 1)}), None);
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc1(&src, "torch.cuda.get_device_properties(0).total_memory"),
        &["no `total_memory`", "multi_processor_count"],
        Some("\"target\""),
    );
    let src = factory_writing("", "torch.cuda.get_device_properties(1).major");
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc1(&src, "torch.cuda.get_device_properties(1)"),
        &["ksem's target is one device, device 0"],
        Some("\"target\""),
    );
}

/// Tuples compare as Python compares them: `==` element by element, the
/// orderings lexicographic (`torch.cuda.get_device_capability() >= (9, 0)`),
/// a shorter prefix first.
#[test]
fn host_tuples_compare_as_in_python() {
    for (expr, want) in [
        ("(9, 0) == (9, 0)", 1),
        ("(9, 0) != (9, 0)", 0),
        ("(9, 0) == (9,)", 0),
        ("(8, 6) < (9, 0)", 1),
        ("(9, 0) >= (8, 6)", 1),
        ("(9, 0) > (9, 0)", 0),
        ("(9,) < (9, 0)", 1),
        ("(9, 1) <= (9, 0)", 0),
    ] {
        assert_eq!(
            written("", &format!("1 if {expr} else 0"), None),
            want,
            "{expr}"
        );
    }
    // the capability against a tuple, on two targets
    let newer = "1 if torch.cuda.get_device_capability() >= (9, 0) else 0";
    assert_eq!(written("", newer, None), 1);
    assert_eq!(written("", newer, Some(json!({"capability": [8, 9]}))), 0);
}

/// A list display in host code is a list, not a tuple: CPython 3.11.7
/// (`python3 -c 'print(…)'`) says `[9, 0] == (9, 0)` is False, repeats
/// and concatenates lists with lists, and raises on a list plus a tuple
/// (`[1] + (2,)`: "TypeError: can only concatenate list (not "tuple") to
/// list"), which the factory's assignment reports where it is.
#[test]
fn host_lists_are_lists_as_in_python() {
    for (expr, want) in [
        ("1 if [9, 0] == (9, 0) else 0", 0),
        ("1 if [9, 0] == [9, 0] else 0", 1),
        ("1 if [8, 6] < [9, 0] else 0", 1),
        ("len([1, 2] * 3)", 6),
        ("([1] + [2, 3])[-1]", 3),
        ("1 if 2 in [1, 2] else 0", 1),
    ] {
        assert_eq!(written("", expr, None), want, "{expr}");
    }
    factory_value_raises(
        "[1] + (2,)",
        "TypeError: can only concatenate list (not \"tuple\") to list",
    );
}
