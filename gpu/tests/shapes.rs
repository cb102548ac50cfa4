//! Kernels beyond the corpus (3-D permutes and reductions along every axis,
//! argmax/argmin with NaNs and ties, keep_dims, while/break/continue, loads
//! of values other threads stored, a non-associative custom combiner, tuple
//! reductions and associative scans, a 2-D
//! grid, `tl.dot` of every operand kind, `tl.dot_scaled`, integers as
//! pointers) on the host build with several block sizes, against the interpreter;
//! and through NVRTC when it is available.

use ksem_gpu::{cuda, lower};
use ksem_interp::eval::RunOptions;
use ksem_interp::ir::Kernel;
use ksem_interp::launch::{parse_launch, Launch};
use std::path::PathBuf;

fn case(name: &str, launch_json: &str) -> (Kernel, Launch) {
    let py = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/kernels/{name}.py"));
    let src = std::fs::read_to_string(&py).expect("read kernel");
    let launch = parse_launch(launch_json).unwrap_or_else(|e| panic!("{name}: {e}"));
    let k = ksem_interp::elaborate_source(&py.display().to_string(), &src, &launch, Some(name))
        .unwrap_or_else(|e| panic!("{}", e.render()));
    (k, launch)
}

fn cases() -> Vec<(Kernel, Launch)> {
    let mut x: Vec<String> = (0..64)
        .map(|i| {
            format!(
                "{}",
                ((i * 37) % 11) as f64 - 5.0 + if i % 5 == 0 { 0.5 } else { 0.0 }
            )
        })
        .collect();
    for i in [3, 17, 42] {
        x[i] = "\"nan\"".into();
    }
    x[9] = "\"-0.0\"".into();
    x[10] = "0.0".into();
    let x = x.join(", ");
    let f32buf = |n: usize| format!("{{\"buffer\": {{\"dtype\": \"float32\", \"len\": {n}}}}}");
    let i32buf = |n: usize| format!("{{\"buffer\": {{\"dtype\": \"int32\", \"len\": {n}}}}}");
    let shapes = format!(
        r#"{{"grid": [1], "args": {{
            "x_ptr": {{"buffer": {{"dtype": "float32", "data": [{x}]}}}},
            "o_perm": {}, "o_sum1": {}, "o_max0": {}, "o_amax2": {}, "o_amin1": {},
            "o_bc": {}, "o_keep": {}, "o_all": {}}}}}"#,
        f32buf(64),
        f32buf(16),
        f32buf(32),
        i32buf(8),
        i32buf(16),
        f32buf(64),
        f32buf(64),
        f32buf(1)
    );
    let control = r#"{"grid": [1], "args": {
        "x_ptr": {"buffer": {"dtype": "int32", "len": 16, "init": {"random": {"seed": 5, "low": -50, "high": 50}}}},
        "h_ptr": {"buffer": {"dtype": "float16", "data": [1.5, 0.001, 60000, 60000, -3, "nan", 2, 2, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]}},
        "o_ptr": {"buffer": {"dtype": "int32", "len": 32}},
        "s_ptr": {"buffer": {"dtype": "int32", "len": 3}},
        "hs_ptr": {"buffer": {"dtype": "float16", "len": 2}},
        "n": {"scalar": {"dtype": "int32", "value": 14}}}}"#;
    let grid = r#"{"grid": [3, 5], "args": {
        "o_ptr": {"buffer": {"dtype": "int32", "len": 184}},
        "BLOCK": {"constexpr": 8}}}"#;
    let scans = format!(
        r#"{{"grid": [1], "args": {{
            "x_ptr": {{"buffer": {{"dtype": "float32", "data": [{}]}}}},
            "i_ptr": {{"buffer": {{"dtype": "int8", "data": [3, -7, 100, 2, -128, 5, 0, 9, 11, -1, 64, 3, 2, 2, -3, 127]}}}},
            "o_sum0": {}, "o_sum1r": {}, "o_prod1": {}, "o_mid": {}, "o_isum": {}, "o_iprod": {},
            "o_bf": {}}}}}"#,
        x.split(", ").take(32).collect::<Vec<_>>().join(", "),
        f32buf(32),
        f32buf(32),
        f32buf(32),
        f32buf(32),
        i32buf(16),
        "{\"buffer\": {\"dtype\": \"int8\", \"len\": 16}}",
        f32buf(32)
    );
    let vals: Vec<String> = (0..512)
        .map(|i: i64| {
            let v = ((i * 7919) % 2001 - 1000) as f64 / 97.0;
            match i {
                40 => "\"nan\"".into(),
                201 => "\"inf\"".into(),
                77 => "\"-0.0\"".into(),
                _ => format!("{v}"),
            }
        })
        .collect();
    let ints: Vec<String> = (0..512)
        .map(|i: i64| format!("{}", (i * 37) % 256 - 128))
        .collect();
    let dots = format!(
        r#"{{"grid": [1], "args": {{
            "x_ptr": {{"buffer": {{"dtype": "float32", "data": [{}]}}}},
            "i_ptr": {{"buffer": {{"dtype": "int8", "data": [{}]}}}},
            "o_h32": {}, "o_h16": {{"buffer": {{"dtype": "float16", "len": 32}}}}, "o_tf32": {},
            "o_ieee": {}, "o_bf": {}, "o_f8": {}, "o_i8": {}, "o_b3": {},
            "o_ds": {}, "o_ip": {{"buffer": {{"dtype": "int64", "len": 32}}}}}}}}"#,
        vals.join(", "),
        ints.join(", "),
        f32buf(32),
        f32buf(32),
        f32buf(32),
        f32buf(32),
        f32buf(32),
        i32buf(32),
        f32buf(32),
        f32buf(32)
    );
    let combines = format!(
        r#"{{"grid": [1], "args": {{
            "x_ptr": {{"buffer": {{"dtype": "float32", "data": [{}]}}}},
            "i_ptr": {{"buffer": {{"dtype": "int8", "data": [{}]}}}},
            "o_m": {}, "o_s": {}, "o_w": {}, "o_v": {}, "o_i": {}, "o_av": {}, "o_ai": {},
            "o_ma": {}, "o_mi": {}, "o_sa": {}, "o_si": {}, "o_ra": {}, "o_ri": {}, "o_mid": {}}}}}"#,
        x.split(", ").take(32).collect::<Vec<_>>().join(", "),
        (0..32)
            .map(|i| format!("{}", (i * 53) % 256 - 128))
            .collect::<Vec<_>>()
            .join(", "),
        f32buf(4),
        f32buf(4),
        f32buf(4),
        f32buf(8),
        i32buf(8),
        f32buf(1),
        "{\"buffer\": {\"dtype\": \"int8\", \"len\": 1}}",
        f32buf(4),
        "{\"buffer\": {\"dtype\": \"int8\", \"len\": 4}}",
        f32buf(32),
        "{\"buffer\": {\"dtype\": \"int8\", \"len\": 32}}",
        f32buf(32),
        "{\"buffer\": {\"dtype\": \"int8\", \"len\": 32}}",
        f32buf(32)
    );
    vec![
        case("combines", &combines),
        case("dots", &dots),
        case("scans", &scans),
        case("shapes3d", &shapes),
        case("control", control),
        case("grid2d", grid),
    ]
}

#[test]
fn extra_kernels_match_interpreter_for_several_block_sizes() {
    let mut bad = Vec::new();
    for (k, l) in cases() {
        let want = ksem_interp::eval::run(&k, &l, &RunOptions::default()).expect("interp runs");
        assert!(want.ub.is_empty(), "{}: UB {:?}", k.name, want.ub);
        for threads in [1, 2, 3, 8] {
            let got = ksem_gpu::run_host_threads(&k, &l, threads)
                .unwrap_or_else(|e| panic!("{}: {e}", k.name));
            for (w, g) in want.buffers.iter().zip(&got.buffers) {
                if w.bits != g.bits {
                    let i = (0..w.bits.len()).find(|&i| w.bits[i] != g.bits[i]).unwrap();
                    bad.push(format!(
                        "{} with {threads} threads: {}[{i}]: interp {:#x}, host {:#x}",
                        k.name, w.name, w.bits[i], g.bits[i]
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn extra_kernels_compile_with_nvrtc() {
    if let Err(e) = cuda::nvrtc_available() {
        println!("SKIPPED extra_kernels_compile_with_nvrtc: {e}");
        return;
    }
    for (k, _) in cases() {
        let src = lower::lower(&k).expect("lowers").source;
        cuda::nvrtc_compile(&src, "sm_90").unwrap_or_else(|e| panic!("{}: {e}", k.name));
    }
}
