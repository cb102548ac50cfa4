//! The program generator's interface: its knobs ([`Config`]), what it
//! makes ([`Program`]: source text, launch spec and the IR the source was
//! printed from) and [`generate`], which picks the dialect's generator
//! (`gen_triton`, `gen_cudapy`, `gen_tilelang`, `gen_hidet`). A program is
//! fully determined by `(seed, index)`.

use ksem_interp::dtype::DType;
use serde_json::Value as Json;
use std::collections::BTreeSet;

/// Every knob of the generator.
#[derive(Clone, Debug)]
pub struct Config {
    /// The language programs are written in (Triton tile programs or CUDA
    /// Python SIMT programs, `gen_cudapy`; the other knobs are Triton's).
    pub dialect: ksem_interp::frontend::Dialect,
    /// Dtypes that arithmetic uses (fp8 only ever appears through conversions).
    pub dtypes: Vec<DType>,
    /// Tile lengths (powers of two) of 1-D programs; rows/cols of 2-D ones.
    pub tile_sizes: Vec<usize>,
    /// Largest grid.
    pub max_grid: u32,
    /// Statements in the kernel body (not counting loads and stores).
    pub max_stmts: usize,
    /// Deepest expression nesting.
    pub max_depth: usize,
    pub two_d: bool,
    pub loops: bool,
    pub branches: bool,
    pub reductions: bool,
    pub masks: bool,
    pub casts: bool,
    pub fp8: bool,
    /// Approximate math (exp, log, sin, cos) — compared within a ULP bound.
    pub math: bool,
    /// A real system (TileLang) is one of the backends: leave out what it
    /// refuses or gets wrong for known reasons (documented divergences), so
    /// that what the campaign finds is new.
    pub real_peer: bool,
    /// Against a real system, generate the operations of its documented
    /// divergences all the same (`fuzz --divergent-ops`): by default a
    /// real-system campaign leaves them out (Triton's float32 `/`, float
    /// `%`, float `tl.sum`, approximate math, …: `gen_triton`'s list), and
    /// what it finds there is bucketed under the row (`divergence.rs`).
    pub divergent_ops: bool,
}

impl Config {
    /// Whether the generator leaves out what a real system is documented
    /// to compute otherwise.
    pub fn avoid_divergences(&self) -> bool {
        self.real_peer && !self.divergent_ops
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            dialect: ksem_interp::frontend::Dialect::Triton,
            dtypes: vec![
                DType::Bool,
                DType::I8,
                DType::I16,
                DType::I32,
                DType::I64,
                DType::U8,
                DType::U16,
                DType::U32,
                DType::U64,
                DType::F16,
                DType::BF16,
                DType::F32,
                DType::F64,
            ],
            tile_sizes: vec![4, 8, 16, 32],
            max_grid: 4,
            max_stmts: 8,
            max_depth: 3,
            two_d: true,
            loops: true,
            branches: true,
            reductions: true,
            masks: true,
            casts: true,
            fp8: true,
            math: true,
            real_peer: false,
            divergent_ops: false,
        }
    }
}

/// A generated test case.
#[derive(Clone, Debug)]
pub struct Program {
    pub source: String,
    pub launch: Json,
    /// Language features the program exercises (for the summary).
    pub features: BTreeSet<&'static str>,
    /// The kernel the source was printed from, where the generator builds
    /// IR: the campaign checks that the source elaborates to the same program.
    pub ir: Option<ksem_interp::ir::Kernel>,
}

impl Program {
    /// A program a generator could not build: a source that names the
    /// problem and elaborates to an error, so the campaign reports it.
    pub fn failed(
        seed: u64,
        index: u64,
        msg: &str,
        features: BTreeSet<&'static str>,
        kernel: &str,
    ) -> Program {
        Program {
            source: format!("# ksem generator error (seed {seed}, index {index}): {msg}\n"),
            launch: serde_json::json!({"kernel": kernel, "grid": [1], "args": {}}),
            features,
            ir: None,
        }
    }

    /// Print → elaborate → same program: `Err` says where the source does
    /// not elaborate to the kernel it was printed from (or there is none).
    #[cfg(test)]
    pub fn round_trip(&self) -> Result<(), String> {
        let ir = self.ir.as_ref().ok_or("no IR")?;
        let l = ksem_interp::launch::parse_launch(&self.launch.to_string())
            .map_err(|e| format!("launch: {e}"))?;
        let k = ksem_interp::elaborate_source("fuzz.py", &self.source, &l, None)
            .map_err(|e| e.render())?;
        ksem_interp::ir::canon::same_program(ir, &k)
    }
}

/// Print → elaborate → same program for programs `0..n` made by `gen`: the
/// failures, described with their source.
#[cfg(test)]
pub fn round_trip_failures(n: u64, gen: impl Fn(u64) -> Program) -> Vec<String> {
    (0..n)
        .filter_map(|i| {
            let p = gen(i);
            p.round_trip()
                .err()
                .map(|e| format!("program {i}: {e}\n{}", p.source))
        })
        .collect()
}

/// Generates program `index` of the campaign `seed`.
pub fn generate(cfg: &Config, seed: u64, index: u64) -> Program {
    match cfg.dialect {
        ksem_interp::frontend::Dialect::CudaPy => super::gen_cudapy::generate(seed, index),
        ksem_interp::frontend::Dialect::TileLang => {
            super::gen_tilelang::generate(seed, index, cfg.avoid_divergences())
        }
        ksem_interp::frontend::Dialect::Hidet => {
            super::gen_hidet::generate(seed, index, cfg.avoid_divergences())
        }
        ksem_interp::frontend::Dialect::Triton => super::gen_triton::generate(cfg, seed, index),
    }
}

/// Triton's name of a dtype (`tl.float32`).
pub fn tl_dtype(d: DType) -> &'static str {
    match d {
        DType::Bool => "tl.int1",
        DType::I8 => "tl.int8",
        DType::I16 => "tl.int16",
        DType::I32 => "tl.int32",
        DType::I64 => "tl.int64",
        DType::U8 => "tl.uint8",
        DType::U16 => "tl.uint16",
        DType::U32 => "tl.uint32",
        DType::U64 => "tl.uint64",
        DType::F8E4Nv => "tl.float8e4nv",
        DType::F8E5 => "tl.float8e5",
        DType::F8E4B15 => "tl.float8e4b15",
        DType::F8E4B8 => "tl.float8e4b8",
        DType::F8E5B16 => "tl.float8e5b16",
        DType::F16 => "tl.float16",
        DType::BF16 => "tl.bfloat16",
        DType::F32 => "tl.float32",
        DType::F64 => "tl.float64",
    }
}
