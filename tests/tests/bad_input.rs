//! Bad input never makes ksem panic or crash: it is refused with exit status 2
//! and a clear message (launch specs, program files, runaway loops, huge tiles).

use ksem_interp::eval::RunOptions;
use ksem_interp::Error;
use ksem_tests::serde_json::{self, json, Value as Json};
use ksem_tests::*;
use std::time::Duration;

// ----- launch specs ------------------------------------------------------------------

/// A launch text ksem must refuse, with a message containing every `want`.
fn bad_launch(text: &str, want: &[&str]) {
    match try_launch(text) {
        Ok(l) => panic!("ksem ACCEPTED the launch spec {text}\nas {l:?}"),
        Err(m) => {
            for w in want {
                assert!(
                    m.contains(w),
                    "message {m:?} should contain {w:?} (launch {text})"
                );
            }
            assert!(!m.contains('\n'), "launch errors are one line: {m:?}");
        }
    }
}

/// A launch with one argument `x` given as `arg`.
fn with_arg(arg: &str) -> String {
    format!("{{\"grid\": [1], \"args\": {{\"x\": {arg}}}}}")
}

/// The launch texts every test below refuses (name, text, message parts).
fn bad_launches() -> Vec<(&'static str, String, Vec<&'static str>)> {
    vec![
        ("not JSON", "{\"grid\": [1], ".into(), vec!["invalid JSON"]),
        ("empty", "".into(), vec!["invalid JSON"]),
        ("a list", "[1, 2]".into(), vec!["JSON object"]),
        ("a number", "42".into(), vec!["JSON object"]),
        ("null", "null".into(), vec!["JSON object"]),
        (
            "a misspelt key is not ignored",
            "{\"grid\": [1], \"blok\": [2]}".into(),
            vec!["blok", "unknown field", "`block`"],
        ),
        (
            "a negative seed, named by its path",
            with_arg("{\"buffer\": {\"dtype\": \"int8\", \"len\": 2, \"init\": {\"random\": {\"seed\": -1}}}}"),
            vec!["args.x.buffer.init.random.seed", "-1"],
        ),
        (
            "a scalar value of the wrong kind, named by its path",
            with_arg("{\"scalar\": {\"dtype\": \"int32\", \"value\": \"a\"}}"),
            vec!["args.x.scalar.value", "integer"],
        ),
        ("grid []", "{\"grid\": []}".into(), vec!["grid", "1 to 3"]),
        ("grid [0]", "{\"grid\": [0]}".into(), vec!["grid[0]", "0"]),
        ("grid [1, 0]", "{\"grid\": [1, 0]}".into(), vec!["grid[1]"]),
        (
            "block of 0 threads",
            "{\"grid\": [1], \"block\": [0]}".into(),
            vec!["block[0]", "0"],
        ),
        (
            "block over 1024 threads",
            "{\"grid\": [1], \"block\": [32, 33]}".into(),
            vec!["1056", "1024"],
        ),
        (
            "block of 4 dimensions",
            "{\"grid\": [1], \"block\": [1, 1, 1, 1]}".into(),
            vec!["block", "1 to 3"],
        ),
        (
            "factory_args not an object",
            "{\"grid\": [1], \"factory_args\": [1]}".into(),
            vec!["factory_args"],
        ),
        (
            "grid [2**40]",
            "{\"grid\": [1099511627776]}".into(),
            vec!["grid[0]", "1099511627776"],
        ),
        (
            "grid with 4 dims",
            "{\"grid\": [1, 1, 1, 1]}".into(),
            vec!["grid", "1 to 3", "4"],
        ),
        ("grid [-1]", "{\"grid\": [-1]}".into(), vec!["grid[0]"]),
        ("grid [1.5]", "{\"grid\": [1.5]}".into(), vec!["grid[0]"]),
        ("grid string", "{\"grid\": \"4\"}".into(), vec!["grid"]),
        (
            "grid too many programs",
            "{\"grid\": [65536, 65536]}".into(),
            vec!["program instances"],
        ),
        ("args a list", "{\"grid\": [1], \"args\": [1]}".into(), vec!["args"]),
        (
            "kernel a number",
            "{\"grid\": [1], \"kernel\": 3}".into(),
            vec!["kernel"],
        ),
        (
            "unknown dtype",
            with_arg("{\"buffer\": {\"dtype\": \"float33\", \"len\": 4}}"),
            vec!["args.x", "unknown dtype", "float33"],
        ),
        (
            "missing dtype",
            with_arg("{\"buffer\": {\"len\": 4}}"),
            vec!["args.x", "dtype"],
        ),
        (
            "int8 data 200",
            with_arg("{\"buffer\": {\"dtype\": \"int8\", \"data\": [1, 200]}}"),
            vec!["args.x.buffer.data[1]", "200", "out of range", "int8"],
        ),
        (
            "uint8 data -1",
            with_arg("{\"buffer\": {\"dtype\": \"uint8\", \"data\": [-1]}}"),
            vec!["data[0]", "-1", "uint8"],
        ),
        (
            "bool data 2",
            with_arg("{\"buffer\": {\"dtype\": \"bool\", \"data\": [0, 2]}}"),
            vec!["data[1]", "2"],
        ),
        (
            "int32 data 1.5",
            with_arg("{\"buffer\": {\"dtype\": \"int32\", \"data\": [1.5]}}"),
            vec!["data[0]", "1.5", "integer"],
        ),
        (
            "uint64 data 2**64",
            with_arg("{\"buffer\": {\"dtype\": \"uint64\", \"data\": [18446744073709551616]}}"),
            vec!["data[0]"],
        ),
        (
            "float data not a number",
            with_arg("{\"buffer\": {\"dtype\": \"float32\", \"data\": [\"abc\"]}}"),
            vec!["data[0]", "abc"],
        ),
        (
            "int8 bits 0x1ff",
            with_arg("{\"buffer\": {\"dtype\": \"int8\", \"bits\": [\"0x01\", \"0x1ff\"]}}"),
            vec!["bits[1]", "0x1ff", "8 bits"],
        ),
        (
            "float16 bits 0x10000",
            with_arg("{\"buffer\": {\"dtype\": \"float16\", \"bits\": [\"0x10000\"]}}"),
            vec!["bits[0]", "16 bits"],
        ),
        (
            "bits not hex",
            with_arg("{\"buffer\": {\"dtype\": \"int32\", \"bits\": [\"0xzz\"]}}"),
            vec!["bits[0]", "hex"],
        ),
        (
            "bits without 0x",
            with_arg("{\"buffer\": {\"dtype\": \"int32\", \"bits\": [\"ff\"]}}"),
            vec!["bits[0]", "0x"],
        ),
        (
            "len mismatch with data",
            with_arg("{\"buffer\": {\"dtype\": \"float32\", \"len\": 3, \"data\": [1, 2]}}"),
            vec!["len", "3", "2"],
        ),
        (
            "len mismatch with bits",
            with_arg("{\"buffer\": {\"dtype\": \"int32\", \"len\": 1, \"bits\": [\"0x1\", \"0x2\"]}}"),
            vec!["len", "1", "2"],
        ),
        (
            "len not a number",
            with_arg("{\"buffer\": {\"dtype\": \"int32\", \"len\": \"4\"}}"),
            vec!["len"],
        ),
        (
            "buffer too large",
            with_arg("{\"buffer\": {\"dtype\": \"int32\", \"len\": 1099511627776}}"),
            vec!["1099511627776", "limit"],
        ),
        (
            "data and bits",
            with_arg("{\"buffer\": {\"dtype\": \"int32\", \"data\": [1], \"bits\": [\"0x1\"]}}"),
            vec!["at most one"],
        ),
        (
            "unknown buffer key",
            with_arg("{\"buffer\": {\"dtype\": \"int32\", \"len\": 1, \"strides\": [1]}}"),
            vec!["strides"],
        ),
        (
            "shape and len disagree",
            with_arg("{\"buffer\": {\"dtype\": \"int32\", \"len\": 5, \"shape\": [2, 3]}}"),
            vec!["len", "shape", "6"],
        ),
        (
            "shape not a list",
            with_arg("{\"buffer\": {\"dtype\": \"int32\", \"shape\": 3}}"),
            vec!["shape", "list"],
        ),
        (
            "shape and data disagree",
            with_arg("{\"buffer\": {\"dtype\": \"int32\", \"shape\": [2, 2], \"data\": [1, 2, 3]}}"),
            vec!["len", "4", "3"],
        ),
        (
            "init without len",
            with_arg("{\"buffer\": {\"dtype\": \"int32\", \"init\": {\"random\": {\"seed\": 1}}}}"),
            vec!["init", "len"],
        ),
        (
            "init with a bad generator",
            with_arg("{\"buffer\": {\"dtype\": \"int32\", \"len\": 2, \"init\": {\"zipf\": 1}}}"),
            vec!["init"],
        ),
        (
            "init with empty bounds",
            with_arg("{\"buffer\": {\"dtype\": \"int8\", \"len\": 2, \"init\": {\"random\": {\"seed\": 1, \"low\": 5, \"high\": 5}}}}"),
            vec!["bounds"],
        ),
        (
            "unknown arg kind",
            with_arg("{\"pointer\": {\"dtype\": \"int32\", \"len\": 4}}"),
            vec!["args.x", "unknown argument kind", "pointer"],
        ),
        (
            "two arg kinds",
            with_arg("{\"buffer\": {\"dtype\": \"int32\", \"len\": 4}, \"constexpr\": 4}"),
            vec!["args.x", "exactly one"],
        ),
        ("arg not an object", with_arg("4"), vec!["args.x"]),
        (
            "scalar out of range",
            with_arg("{\"scalar\": {\"dtype\": \"int8\", \"value\": 300}}"),
            vec!["args.x", "300", "int8"],
        ),
        (
            "scalar without value",
            with_arg("{\"scalar\": {\"dtype\": \"int32\"}}"),
            vec!["args.x", "value"],
        ),
        // (an array is a tuple constexpr: `docs/formats.md`)
        (
            "constexpr object",
            with_arg("{\"constexpr\": {\"a\": 1}}"),
            vec!["args.x", "constexpr"],
        ),
        (
            "constexpr array holding an object",
            with_arg("{\"constexpr\": [1, {\"a\": 1}]}"),
            vec!["args.x", "constexpr"],
        ),
    ]
}

#[test]
fn bad_launch_specs_are_refused_with_a_message() {
    let mut failures = Vec::new();
    for (name, text, want) in bad_launches() {
        let r = std::panic::catch_unwind(|| bad_launch(&text, &want));
        if let Err(p) = r {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failures.push(format!("{name}: {msg}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn launch_not_json() {
    bad_launch("{\"grid\": [1], ", &["invalid JSON"]);
}

#[test]
fn launch_not_an_object() {
    bad_launch("[1, 2]", &["JSON object"]);
}

#[test]
fn launch_grid_empty() {
    bad_launch("{\"grid\": []}", &["1 to 3"]);
}

#[test]
fn launch_grid_zero() {
    bad_launch("{\"grid\": [0]}", &["grid[0]"]);
}

#[test]
fn launch_grid_2_pow_40() {
    bad_launch("{\"grid\": [1099511627776]}", &["grid[0]", "too large"]);
}

#[test]
fn launch_grid_four_dims() {
    bad_launch("{\"grid\": [1, 1, 1, 1]}", &["1 to 3"]);
}

#[test]
fn launch_unknown_dtype() {
    bad_launch(
        &with_arg("{\"buffer\": {\"dtype\": \"float33\", \"len\": 4}}"),
        &["unknown dtype", "float33"],
    );
}

#[test]
fn launch_data_out_of_range() {
    bad_launch(
        &with_arg("{\"buffer\": {\"dtype\": \"int8\", \"data\": [1, 200]}}"),
        &["data[1]", "out of range"],
    );
}

#[test]
fn launch_bits_wider_than_dtype() {
    bad_launch(
        &with_arg("{\"buffer\": {\"dtype\": \"int8\", \"bits\": [\"0x1ff\"]}}"),
        &["bits[0]", "does not fit"],
    );
}

#[test]
fn launch_len_mismatch() {
    bad_launch(
        &with_arg("{\"buffer\": {\"dtype\": \"float32\", \"len\": 3, \"data\": [1, 2]}}"),
        &["\"len\" is 3", "2 values"],
    );
}

#[test]
fn launch_unknown_arg_kind() {
    bad_launch(
        &with_arg("{\"pointer\": {\"dtype\": \"int32\", \"len\": 4}}"),
        &["unknown argument kind"],
    );
}

#[test]
fn launch_accepts_the_design_example() {
    // The DESIGN.md example (sanity: the refusals above are not blanket).
    let text = r#"{
      "kernel": "add_kernel",
      "grid": [4],
      "args": {
        "x_ptr":   {"buffer": {"dtype": "float32", "len": 1024, "init": {"random": {"seed": 7}}}},
        "y_ptr":   {"buffer": {"dtype": "float32", "data": [1.5, "nan", "-inf", -0.0]}},
        "z_ptr":   {"buffer": {"dtype": "int8", "bits": ["0xff", "0x01"]}},
        "out_ptr": {"buffer": {"dtype": "float32", "len": 1024}},
        "n":       {"scalar": {"dtype": "int32", "value": 1000}},
        "BLOCK":   {"constexpr": 256}
      }
    }"#;
    let l = try_launch(text).expect("the DESIGN.md example parses");
    assert_eq!(l.grid, Some([4, 1, 1]));
    assert_eq!(l.args.len(), 6);
}

// ----- program files -------------------------------------------------------------

fn any_launch() -> ksem_interp::launch::Launch {
    launch(&[1], json!({"out_ptr": zeros("int32", 4)}))
}

fn program_refused(
    src: &str,
    l: &ksem_interp::launch::Launch,
    kernel: Option<&str>,
) -> ksem_interp::span::Diagnostic {
    match elaborate_kernel(src, l, kernel) {
        Ok(_) => panic!("ksem ACCEPTED:\n{src}"),
        Err(Error::Source { diag, .. }) => {
            check_rendered(src, &diag);
            diag
        }
        Err(e) => panic!("expected a source error, got {}", e.render()),
    }
}

#[test]
fn a_launch_without_grid_is_refused_where_the_kernel_does_not_fix_one() {
    // the launch JSON may leave "grid" out (a TileLang T.Kernel or Hidet
    // attrs fix it); a Triton or CUDA Python kernel then has none
    let l = ksem_interp::launch::parse_launch(
        r#"{"args": {"out_ptr": {"buffer": {"dtype": "int32", "len": 4}}}}"#,
    )
    .expect("grid may be left out of the JSON");
    assert_eq!(l.grid, None);
    let triton = "import triton\n\n@triton.jit\ndef kern(out_ptr):\n    pass\n";
    let cudapy = "from numba import cuda\n\n@cuda.jit\ndef kern(out_ptr):\n    out_ptr[0] = 1\n";
    for src in [triton, cudapy] {
        let d = program_refused(src, &l, None);
        assert!(d.message.contains("no \"grid\""), "{d:?}");
    }
}

#[test]
fn empty_program_file() {
    let d = program_refused("", &any_launch(), None);
    assert_eq!((d.span.line, d.span.col), (1, 1));
    assert!(d.message.contains("no @triton.jit function"), "{d:?}");
}

#[test]
fn program_without_triton_jit() {
    let src = "import triton\n\n\ndef kern(out_ptr):\n    pass\n";
    let d = program_refused(src, &any_launch(), None);
    assert!(d.message.contains("no @triton.jit function"), "{d:?}");
}

#[test]
fn jit_decorator_without_importing_triton() {
    let src = "@triton.jit\ndef kern(out_ptr):\n    pass\n";
    let d = program_refused(src, &any_launch(), None);
    assert!(d.message.contains("no @triton.jit function"), "{d:?}");
}

const TWO_KERNELS: &str = "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef first(out_ptr):\n    tl.store(out_ptr, 1)\n\n\n@triton.jit\ndef second(out_ptr):\n    tl.store(out_ptr, 2)\n";

#[test]
fn several_kernels_without_kernel_name() {
    let d = program_refused(TWO_KERNELS, &any_launch(), None);
    assert!(d.message.contains("several kernels"), "{d:?}");
    let help = d.help.clone().expect("a help line naming --kernel");
    assert!(help.contains("--kernel"), "{help}");
    assert!(help.contains("first") && help.contains("second"), "{help}");
}

#[test]
fn several_kernels_with_kernel_name_run() {
    let r = no_panic("running", || {
        ksem_interp::run_source(FILE, TWO_KERNELS, &any_launch(), Some("second"), &opts())
    })
    .expect("runs");
    assert_eq!(bits(&r, "out_ptr"), vec![2, 0, 0, 0]);
    let mut l = any_launch();
    l.kernel = Some("first".into());
    let r = run_clean(TWO_KERNELS, &l);
    assert_eq!(bits(&r, "out_ptr"), vec![1, 0, 0, 0]);
}

#[test]
fn unknown_kernel_name() {
    let d = program_refused(TWO_KERNELS, &any_launch(), Some("third"));
    assert!(d.message.contains("third"), "{d:?}");
    assert!(
        d.help.as_deref().is_some_and(|h| h.contains("first")),
        "{d:?}"
    );
}

#[test]
fn helper_is_not_a_root_kernel() {
    // A jit helper called by the kernel does not make the file ambiguous.
    let src = "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef helper(v):\n    return v + 1\n\n\n@triton.jit\ndef kern(out_ptr):\n    tl.store(out_ptr, helper(1))\n";
    let r = run_clean(src, &any_launch());
    assert_eq!(bits(&r, "out_ptr"), vec![2, 0, 0, 0]);
}

// ----- runaway loops -------------------------------------------------------------

fn loop_opts() -> RunOptions {
    RunOptions {
        max_loop_iterations: 1000,
        threads: 1,
        ..Default::default()
    }
}

#[test]
fn infinite_while_true_stops_at_the_iteration_limit() {
    let src = kernel(
        "out_ptr",
        "x = 0\nwhile True:\n    x += 1\ntl.store(out_ptr, x)",
    );
    let d = run_refused(&src, &any_launch(), &loop_opts());
    assert_diag(
        &src,
        &d,
        loc(&src, "while True:", "while"),
        &["1000", "loop iterations"],
        Some("--max-loop-iterations"),
    );
}

#[test]
fn runaway_while_on_a_runtime_condition_stops() {
    let src = kernel(
        "out_ptr, n",
        "i = 0\nwhile i < n:\n    i += 0\ntl.store(out_ptr, i)",
    );
    let l = launch(
        &[1],
        json!({"out_ptr": zeros("int32", 4), "n": scalar("int32", json!(1))}),
    );
    let d = run_refused(&src, &l, &loop_opts());
    assert_eq!(
        (d.span.line, d.span.col),
        loc(&src, "while i < n:", "while")
    );
}

#[test]
fn long_for_loop_stops_at_the_iteration_limit() {
    let src = kernel(
        "out_ptr, n",
        "acc = 0\nfor i in range(n):\n    acc += 1\ntl.store(out_ptr, acc)",
    );
    let l = launch(
        &[1],
        json!({"out_ptr": zeros("int32", 4), "n": scalar("int32", json!(2147483647))}),
    );
    let d = run_refused(&src, &l, &loop_opts());
    assert_eq!(
        (d.span.line, d.span.col),
        loc(&src, "for i in range(n):", "for")
    );
}

#[test]
fn loop_within_the_limit_runs() {
    let src = kernel(
        "out_ptr, n",
        "acc = 0\nfor i in range(n):\n    acc += 1\ntl.store(out_ptr, acc)",
    );
    let l = launch(
        &[1],
        json!({"out_ptr": zeros("int32", 4), "n": scalar("int32", json!(1000))}),
    );
    let r = run_with(&src, &l, &loop_opts()).expect("1000 iterations are allowed");
    assert_eq!(bits(&r, "out_ptr")[0], 1000);
}

// ----- huge tiles ----------------------------------------------------------------------

/// A tile request ksem must refuse at elaboration (never allocate).
fn huge(body: &str, line: &str, at: &str) {
    let src = kernel("out_ptr", body);
    let d = refused(&src, &any_launch());
    assert_eq!(
        (d.span.line, d.span.col),
        loc(&src, line, at),
        "wrong position: {d:?}"
    );
}

#[test]
fn huge_arange() {
    huge(
        "x = tl.arange(0, 2**30)",
        "tl.arange(0, 2**30)",
        "tl.arange",
    );
}

#[test]
fn huge_arange_2_pow_31() {
    huge(
        "x = tl.arange(0, 2**31)",
        "tl.arange(0, 2**31)",
        "tl.arange",
    );
}

#[test]
fn huge_zeros_2d() {
    huge(
        "x = tl.zeros((2**15, 2**15), tl.float32)",
        "tl.zeros",
        "tl.zeros",
    );
}

#[test]
fn huge_zeros_with_overflowing_element_count() {
    // 2^32 * 2^32 elements: the element count overflows 64 bits.
    huge(
        "x = tl.zeros((2**32, 2**32), tl.float32)",
        "tl.zeros",
        "tl.zeros",
    );
}

#[test]
fn zeros_with_a_dimension_beyond_64_bits() {
    // 2**64 + 4 must not wrap around to a 4-element tile.
    huge(
        "x = tl.zeros((2**64 + 4,), tl.float32)",
        "tl.zeros",
        "tl.zeros",
    );
}

#[test]
fn huge_tile_by_broadcasting() {
    // Each operand is within the limit; their broadcast has 2^24 elements.
    huge(
        "r = tl.arange(0, 4096)\nx = r[:, None] + r[None, :]",
        "x = r[:, None] + r[None, :]",
        "r[:, None] +",
    );
}

#[test]
fn huge_tile_by_broadcast_to() {
    huge(
        "x = tl.broadcast_to(tl.arange(0, 4096)[:, None], (4096, 4096))",
        "tl.broadcast_to",
        "tl.broadcast_to",
    );
}

// ----- the CLI -----------------------------------------------------------------------

const OK_KERNEL: &str = "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef kern(out_ptr):\n    tl.store(out_ptr + tl.arange(0, 4), 7)\n";

fn ok_launch_text() -> String {
    launch_json(&[1], json!({"out_ptr": zeros("int32", 4)}))
}

#[test]
fn cli_bad_launch_specs_exit_2() {
    let Some(bin) = ksem_or_skip("cli_bad_launch_specs_exit_2") else {
        return;
    };
    let mut failures = Vec::new();
    for (name, text, _) in bad_launches() {
        let out = cli_case(&bin, "run", OK_KERNEL, &text, &[]);
        let ok = out.code == Some(2)
            && !out.stderr.contains("panicked")
            && out.stderr.starts_with("launch.json: error: ");
        if !ok {
            failures.push(format!(
                "{name}: exit {:?}, stderr {:?}",
                out.code, out.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn cli_valid_case_exit_0() {
    let Some(bin) = ksem_or_skip("cli_valid_case_exit_0") else {
        return;
    };
    let out = cli_case(&bin, "run", OK_KERNEL, &ok_launch_text(), &["--json"]);
    out.assert_code(0);
}

#[test]
fn cli_nonexistent_program_file() {
    let Some(bin) = ksem_or_skip("cli_nonexistent_program_file") else {
        return;
    };
    let dir = TempDir::new("nofile");
    dir.write("launch.json", ok_launch_text());
    let out = run_cli(
        &bin,
        &dir.path,
        &["run", "missing.py", "--launch", "launch.json"],
        Duration::from_secs(60),
    );
    out.assert_code(2);
    assert!(
        out.stderr.starts_with("missing.py: error: "),
        "{}",
        out.stderr
    );
}

#[test]
fn cli_nonexistent_launch_file() {
    let Some(bin) = ksem_or_skip("cli_nonexistent_launch_file") else {
        return;
    };
    let dir = TempDir::new("nolaunch");
    dir.write(FILE, OK_KERNEL);
    let out = run_cli(
        &bin,
        &dir.path,
        &["run", FILE, "--launch", "missing.json"],
        Duration::from_secs(60),
    );
    out.assert_code(2);
    assert!(
        out.stderr.starts_with("missing.json: error: "),
        "{}",
        out.stderr
    );
}

#[test]
fn cli_program_is_a_directory() {
    let Some(bin) = ksem_or_skip("cli_program_is_a_directory") else {
        return;
    };
    let dir = TempDir::new("dirprog");
    dir.write("launch.json", ok_launch_text());
    std::fs::create_dir(dir.path.join("sub")).unwrap();
    let out = run_cli(
        &bin,
        &dir.path,
        &["run", "sub", "--launch", "launch.json"],
        Duration::from_secs(60),
    );
    out.assert_code(2);
}

#[test]
fn cli_program_not_utf8() {
    let Some(bin) = ksem_or_skip("cli_program_not_utf8") else {
        return;
    };
    let dir = TempDir::new("utf8");
    dir.write(FILE, b"import triton\n\xff\xfe\n");
    dir.write("launch.json", ok_launch_text());
    let out = run_cli(
        &bin,
        &dir.path,
        &["run", FILE, "--launch", "launch.json"],
        Duration::from_secs(60),
    );
    out.assert_code(2);
    assert!(out.stderr.contains("error:"), "{}", out.stderr);
}

#[test]
fn cli_empty_program_file() {
    let Some(bin) = ksem_or_skip("cli_empty_program_file") else {
        return;
    };
    let out = cli_case(&bin, "run", "", &ok_launch_text(), &[]);
    out.assert_code(2);
    assert!(
        out.stderr.starts_with(&format!("{FILE}:1:1: error: ")),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("no @triton.jit function"),
        "{}",
        out.stderr
    );
}

#[test]
fn cli_several_kernels_need_kernel_flag() {
    let Some(bin) = ksem_or_skip("cli_several_kernels_need_kernel_flag") else {
        return;
    };
    let out = cli_case(&bin, "run", TWO_KERNELS, &ok_launch_text(), &[]);
    out.assert_code(2);
    assert!(out.stderr.contains("several kernels"), "{}", out.stderr);
    assert!(out.stderr.contains("help: "), "{}", out.stderr);
    let out = cli_case(
        &bin,
        "run",
        TWO_KERNELS,
        &ok_launch_text(),
        &["--kernel", "second", "--json"],
    );
    out.assert_code(0);
    assert!(out.stdout.contains("0x00000002"), "{}", out.stdout);
}

#[test]
fn cli_infinite_loop_exit_2() {
    let Some(bin) = ksem_or_skip("cli_infinite_loop_exit_2") else {
        return;
    };
    let src = kernel(
        "out_ptr",
        "x = 0\nwhile True:\n    x += 1\ntl.store(out_ptr, x)",
    );
    let (line, col) = loc(&src, "while True:", "while");
    let out = cli_case(
        &bin,
        "run",
        &src,
        &ok_launch_text(),
        &["--max-loop-iterations", "1000"],
    );
    out.assert_code(2);
    assert!(
        out.stderr
            .starts_with(&format!("{FILE}:{line}:{col}: error: ")),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("1000"), "{}", out.stderr);
}

#[test]
fn cli_huge_tile_exit_2() {
    let Some(bin) = ksem_or_skip("cli_huge_tile_exit_2") else {
        return;
    };
    let src = kernel(
        "out_ptr",
        "x = tl.arange(0, 2**30)\ntl.store(out_ptr + x, 1)",
    );
    let (line, col) = loc(&src, "tl.arange(0, 2**30)", "tl.arange");
    let out = cli_case(&bin, "run", &src, &ok_launch_text(), &[]);
    out.assert_code(2);
    assert!(
        out.stderr
            .starts_with(&format!("{FILE}:{line}:{col}: error: ")),
        "{}",
        out.stderr
    );
}

#[test]
fn cli_broadcast_to_2_pow_44_elements_does_not_crash() {
    // Elaborating and running this would need a 2^44-element tile.
    let Some(bin) = ksem_or_skip("cli_broadcast_to_2_pow_44_elements_does_not_crash") else {
        return;
    };
    let src = kernel(
        "out_ptr",
        "r = tl.arange(0, 4194304)\nx = r[:, None] + r[None, :]\ntl.store(out_ptr, tl.sum(tl.sum(x, 1), 0))",
    );
    let out = cli_case(&bin, "run", &src, &ok_launch_text(), &[]);
    out.assert_code(2);
}

#[test]
fn cli_zeros_overflowing_element_count_does_not_crash() {
    let Some(bin) = ksem_or_skip("cli_zeros_overflowing_element_count_does_not_crash") else {
        return;
    };
    let src = kernel(
        "out_ptr",
        "x = tl.zeros((2**32, 2**32), tl.int32)\ntl.store(out_ptr, tl.sum(tl.sum(x, 1), 0))",
    );
    let out = cli_case(&bin, "run", &src, &ok_launch_text(), &[]);
    out.assert_code(2);
}

/// Deeply nested input must end in a result or an error, never a crash
/// (e.g. a stack overflow).
fn deep_source_does_not_crash(name: &str, expr: String) {
    let Some(bin) = ksem_or_skip(name) else {
        return;
    };
    let src = kernel("out_ptr", &format!("x = {expr}\ntl.store(out_ptr, x)"));
    let out = cli_case(&bin, "run", &src, &ok_launch_text(), &[]);
    assert!(
        !out.stderr.contains("panicked"),
        "ksem PANICKED:\n{}",
        out.stderr
    );
    assert!(
        matches!(out.code, Some(0) | Some(2)),
        "ksem crashed or misbehaved on a deeply nested expression: exit {:?}\nstderr (tail): {}",
        out.code,
        &out.stderr[out.stderr.len().saturating_sub(2000)..]
    );
}

#[test]
fn cli_long_sum_chain_does_not_crash() {
    // 1 + 1 + … + 1 (100000 terms): a left-nested tree 100000 deep.
    let expr = vec!["1"; 100_000].join(" + ");
    deep_source_does_not_crash("cli_long_sum_chain_does_not_crash", expr);
}

#[test]
fn cli_sum_chain_of_5000_terms_does_not_crash() {
    // The parser survives this depth; elaboration must too (or refuse it).
    let expr = vec!["1"; 5_000].join(" + ");
    deep_source_does_not_crash("cli_sum_chain_of_5000_terms_does_not_crash", expr);
}

#[test]
fn cli_deep_unary_chain_does_not_crash() {
    let expr = format!("{}1", "-".repeat(100_000));
    deep_source_does_not_crash("cli_deep_unary_chain_does_not_crash", expr);
}

#[test]
fn cli_deep_parentheses_do_not_crash() {
    let expr = format!("{}1{}", "(-".repeat(20_000), ")".repeat(20_000));
    deep_source_does_not_crash("cli_deep_parentheses_do_not_crash", expr);
}

// ----- launch size caps (issue 14: a clear error, not an out-of-memory kill) ----------

/// A launch with buffers `x0`, `x1`, … of the given lengths (zero-filled int32).
fn launch_with_lens(grid: u64, lens: &[u64]) -> String {
    let args: serde_json::Map<String, Json> = lens
        .iter()
        .enumerate()
        .map(|(i, &n)| {
            (
                format!("x{i}"),
                json!({"buffer": {"dtype": "int32", "len": n}}),
            )
        })
        .collect();
    json!({"grid": [grid], "args": args}).to_string()
}

#[test]
fn buffers_are_capped_per_launch_not_only_per_buffer() {
    // Two buffers of 2^26 elements: each alone is within the per-buffer
    // limit (2^28) and the per-launch cap (2^26), together they are over
    // the latter (about 20 bytes of memory per element for a run, 134 with
    // --json). The cap refuses the second before it is allocated.
    let text = launch_with_lens(1, &[1 << 26, 1 << 26]);
    bad_launch(
        &text,
        &["args.x1.buffer.len", "67108864", "--max-buffer-elems"],
    );
    assert!(try_launch(&launch_with_lens(1, &[1 << 26])).is_ok());
}

#[test]
fn launch_caps_are_configurable() {
    use ksem_interp::launch::{parse_launch_with, LaunchLimits};
    let limits = LaunchLimits {
        max_programs: 4,
        max_buffer_elems: 10,
    };
    // Within the caps: 6 + 4 elements, 4 programs.
    let ok = parse_launch_with(&launch_with_lens(4, &[6, 4]), &limits);
    assert!(ok.is_ok(), "{ok:?}");
    // One element over, counted over all buffers, whichever way it is given.
    let over = [
        (launch_with_lens(1, &[6, 5]), "args.x1.buffer.len"),
        (
            launch_json(
                &[1],
                json!({"a": zeros("int32", 8), "b": {"buffer": {"dtype": "int8", "shape": [3]}}}),
            ),
            "args.b.buffer.shape",
        ),
        (
            launch_json(
                &[1],
                json!({"a": zeros("int32", 8), "b": buf("int32", json!([1, 2, 3]))}),
            ),
            "args.b.buffer.data",
        ),
    ];
    for (text, path) in over {
        let e = parse_launch_with(&text, &limits).expect_err(&text);
        assert!(
            e.starts_with(path) && e.contains("limit of 10") && e.contains("--max-buffer-elems"),
            "{e}"
        );
    }
    let e = parse_launch_with(&launch_with_lens(5, &[1]), &limits).unwrap_err();
    assert!(
        e.contains("5 program instances") && e.contains("--max-programs"),
        "{e}"
    );
}

#[test]
fn cli_launch_caps_flags() {
    let Some(bin) = ksem_or_skip("cli_launch_caps_flags") else {
        return;
    };
    // ok_launch_text: one program, 4 elements. It runs under the defaults…
    cli_case(&bin, "run", OK_KERNEL, &ok_launch_text(), &[]).assert_code(0);
    // …and is refused (exit 2, a one-line launch error) under lower caps.
    for (flag, want) in [
        ("--max-buffer-elems=3", "--max-buffer-elems"),
        ("--max-programs=0", "--max-programs"),
    ] {
        let out = cli_case(&bin, "run", OK_KERNEL, &ok_launch_text(), &[flag]);
        out.assert_code(2);
        assert!(
            out.stderr.starts_with("launch.json: error: ") && out.stderr.contains(want),
            "{flag}: {}",
            out.stderr
        );
    }
}
