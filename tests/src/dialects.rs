//! One kernel in four dialects, for tests that put the same statement or
//! expression into each front end: a [`Dialect`] wraps a body (which reads
//! and writes `o`, an array of 4 int32) into a kernel of its language and
//! gives the launch for it.

use crate::{indent, kernel, launch, zeros};
use ksem_interp::launch::{parse_launch, Launch};
use serde_json::json;

/// A dialect: its name in messages, a kernel around `body` (one array `o`
/// of 4 int32) and the launch for it.
pub struct Dialect {
    /// The name the front end's messages give it ("CUDA Python", …).
    pub name: &'static str,
    /// The kernel around a body.
    pub src: fn(&str) -> String,
    /// The launch of that kernel (`o` all zero).
    pub launch: fn() -> Launch,
}

fn cudapy(body: &str) -> String {
    format!(
        "from numba import cuda\n\n@cuda.jit\ndef kern(o):\n{}\n",
        indent(body)
    )
}

fn hidet(body: &str) -> String {
    let f = format!(
        "@hidet.script\ndef kernel(o: i32[4]):\n    attrs.func_kind = 'cpu_kernel'\n{}",
        indent(body)
    );
    format!(
        "import hidet\nfrom hidet.lang import attrs\nfrom hidet.lang.types import i32\n\nwith hidet.script_module() as script_module:\n{}\nmodule = script_module.build()\n",
        indent(&f)
    )
}

fn tilelang(body: &str) -> String {
    format!(
        "import tilelang\nimport tilelang.language as T\n\n@T.prim_func\ndef main(o: T.Tensor((4,), \"int32\")):\n    with T.Kernel(1, threads=1) as bx:\n{}\n",
        indent(&indent(body))
    )
}

fn triton(body: &str) -> String {
    kernel("o", body)
}

fn parsed(v: serde_json::Value) -> Launch {
    let text = v.to_string();
    parse_launch(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn simt_launch() -> Launch {
    parsed(json!({"grid": [1, 1, 1], "block": [1, 1, 1], "args": {"o": zeros("int32", 4)}}))
}

fn args_launch() -> Launch {
    parsed(json!({"args": {"o": zeros("int32", 4)}}))
}

/// The Triton launch of a kernel of `o` alone: one program.
pub fn triton_launch() -> Launch {
    launch(&[1], json!({"o": zeros("int32", 4)}))
}

/// The four dialects: the three SIMT ones ([`SIMT`]) and Triton last.
pub const DIALECTS: [Dialect; 4] = [
    Dialect {
        name: "CUDA Python",
        src: cudapy,
        launch: simt_launch,
    },
    Dialect {
        name: "Hidet script",
        src: hidet,
        launch: args_launch,
    },
    Dialect {
        name: "TileLang",
        src: tilelang,
        launch: args_launch,
    },
    Dialect {
        name: "Triton",
        src: triton,
        launch: triton_launch,
    },
];

/// CUDA Python, Hidet script and TileLang: the dialects whose kernels run
/// scalar code per thread.
pub const SIMT: &[Dialect] = DIALECTS.split_at(3).0;
