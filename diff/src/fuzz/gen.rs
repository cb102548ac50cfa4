//! The program generator's interface: its knobs ([`Config`]), what it
//! makes ([`Program`]: source text, launch spec and the IR the source was
//! printed from) and [`generate`], which runs the dialect's generator from
//! its bundle in [`crate::registry`]. A program is fully determined by
//! `(seed, index)`.

use ksem_interp::dtype::DType;
use serde_json::Value as Json;
use std::collections::BTreeSet;

/// Every knob of the generator, as documented data (after wasm-smith's
/// `Config`): a campaign's programs are a function of the config, the seed
/// and the index. The feature switches (`two_d` … `math`) and the sizes
/// are the Triton generator's; the CUDA Python, TileLang and Hidet
/// generators have their feature switches in `cudapy`, `tilelang` and
/// `hidet`, and read `real_peer` and `divergent_ops`. Each dialect's
/// switches are listed, with how each shows in a printed program, in its
/// bundle's `knobs` ([`crate::registry`]). With `swarm`, each program turns
/// off a random half of the dialect's enabled switches
/// ([`Config::swarmed`]).
#[derive(Clone, Debug)]
pub struct Config {
    /// The language programs are written in: its generator is the
    /// dialect's bundle in [`crate::registry`].
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
    /// 2-D programs (rows × cols tiles) in about a third of the programs;
    /// 1-D tiles only where off.
    pub two_d: bool,
    /// `for` and `while` loop statements (not nested deeper than two).
    pub loops: bool,
    /// Runtime `if`/`else` statements (`tl.where` is an expression and
    /// stays on).
    pub branches: bool,
    /// Reduction statements (`tl.sum`, `tl.max`, … along an axis).
    pub reductions: bool,
    /// Masked loads and stores (the last block ragged) in about 40% of the
    /// programs.
    pub masks: bool,
    /// Explicit conversions between dtypes in expressions.
    pub casts: bool,
    /// fp8 values through conversions (never against real Triton:
    /// divergences 2, 14, 15).
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
    /// The CUDA Python generator's feature switches.
    pub cudapy: super::gen_cudapy::knobs::Knobs,
    /// The TileLang generator's feature switches.
    pub tilelang: super::gen_tilelang::knobs::Knobs,
    /// The Hidet generator's feature switches.
    pub hidet: super::gen_hidet::knobs::Knobs,
    /// Swarm testing (`fuzz --swarm`): each program keeps a random subset
    /// of the enabled feature switches, chosen from (seed, index), so that
    /// programs without some features (whose interactions they would
    /// otherwise mask) come up as often as programs with them.
    pub swarm: bool,
}

impl Config {
    /// Whether the generator leaves out what a real system is documented
    /// to compute otherwise.
    pub fn avoid_divergences(&self) -> bool {
        self.real_peer && !self.divergent_ops
    }

    /// The feature switches of the dialect's generator, which swarm mode
    /// draws from (its bundle's `knobs`).
    pub fn knobs(&self) -> &'static [Knob] {
        crate::registry::bundle(self.dialect).knobs
    }

    /// The config program `index` of campaign `seed` is generated with in
    /// swarm mode: each enabled feature switch of the dialect stays on with
    /// probability 1/2 (a disabled one stays off), drawn from a stream of
    /// its own so that the program's other choices keep their stream.
    pub fn swarmed(&self, seed: u64, index: u64) -> Config {
        let mut c = self.clone();
        let mut rng = super::rng::Rng::new(seed ^ SWARM_STREAM, index);
        for k in self.knobs() {
            let on = (k.switch)(&mut c);
            *on &= rng.chance(0.5);
        }
        c.swarm = false;
        c
    }
}

/// A feature switch of a [`Config`].
pub type Switch = fn(&mut Config) -> &mut bool;

/// One feature switch of a generator, as documented data: its name, where
/// it is in the [`Config`], and how the feature shows in a printed program
/// (the self-test checks that a program generated with the switch off
/// never shows it).
pub struct Knob {
    /// The switch's name (its field's).
    pub name: &'static str,
    /// The switch in a config.
    pub switch: Switch,
    /// Whether a printed program has the feature.
    pub shows: fn(&str) -> bool,
}

/// A list of [`Knob`]s from `name: shows` pairs, each switching the
/// config's field `name` (`[]`) or `path.name` (`[path]`).
macro_rules! knob_list {
    ([] $($name:ident: $shows:expr),+ $(,)?) => {
        &[$($crate::fuzz::gen::Knob {
            name: stringify!($name),
            switch: |c| &mut c.$name,
            shows: $shows,
        }),+]
    };
    ([$path:ident] $($name:ident: $shows:expr),+ $(,)?) => {
        &[$($crate::fuzz::gen::Knob {
            name: stringify!($name),
            switch: |c| &mut c.$path.$name,
            shows: $shows,
        }),+]
    };
}
pub(crate) use knob_list;

/// Declares a generator's switches once, each a documented `name: shows`
/// line: the `Knobs` struct (one bool a switch, every one on by default)
/// kept in the config's field `$cfg`, and `KNOBS`, the list swarm mode
/// draws from in this order.
macro_rules! knobs {
    ($(#[doc = $sdoc:literal])+ $cfg:ident; $($(#[doc = $doc:literal])+ $name:ident: $shows:expr,)+) => {
        $(#[doc = $sdoc])+
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Knobs {
            $($(#[doc = $doc])+ pub $name: bool,)+
        }

        impl Default for Knobs {
            fn default() -> Knobs {
                Knobs { $($name: true,)+ }
            }
        }

        /// The switches, in the order swarm mode draws them.
        pub const KNOBS: &[$crate::fuzz::gen::Knob] =
            $crate::fuzz::gen::knob_list!([$cfg] $($name: $shows),+);
    };
}
pub(crate) use knobs;

/// What sets the swarm choices' random stream apart from the programs'.
const SWARM_STREAM: u64 = 0x5757_4152_4d00_0001;

impl Default for Config {
    fn default() -> Config {
        Config {
            dialect: ksem_interp::frontend::Dialect::Triton,
            // every dtype but fp8 (which comes in through conversions), in
            // `DType::ALL`'s order
            dtypes: DType::ALL.into_iter().filter(|d| !d.is_fp8()).collect(),
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
            cudapy: Default::default(),
            tilelang: Default::default(),
            hidet: Default::default(),
            swarm: false,
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

/// Generates program `index` of the campaign `seed` with the dialect's
/// generator (its bundle in [`crate::registry`]).
pub fn generate(cfg: &Config, seed: u64, index: u64) -> Program {
    let gen = crate::registry::bundle(cfg.dialect).generate;
    if cfg.swarm {
        gen(&cfg.swarmed(seed, index), seed, index)
    } else {
        gen(cfg, seed, index)
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
