//! The diff crate's dialect registry: per dialect, one bundle with its
//! program generator, its printer and its real system (the peer: runner
//! script, environment variables, documented divergences for triage,
//! bug-report script template). The front-end side of a dialect (name,
//! detection, elaboration) is `ksem_interp::frontend::FRONT_ENDS`; every
//! match over dialects in this crate is a lookup here.
//!
//! Adding a dialect is its folders (`interp/src/frontend/<name>/`,
//! `diff/src/fuzz/gen_<name>/`, `diff/src/fuzz/print/<name>.rs`, its
//! runner `tools/<system>_run.py`), its line in `frontend/mod.rs`'s
//! `registry!` and its bundle in [`BUNDLES`]; the registry test
//! (`fuzz/selftest.rs`) checks that the bundle is complete.

use crate::bugreport;
use crate::divergence::{NUMBA_ROWS, TRITON_ROWS};
use crate::fuzz::gen::{Config, Knob, Program};
use crate::fuzz::print::control::PResult;
use crate::fuzz::{gen_cudapy, gen_hidet, gen_tilelang, gen_triton, print};
use crate::peer::Peer;
use crate::triage::DiffKind;
use ksem_interp::frontend::Dialect;
use ksem_interp::ir::Kernel;

/// Everything the fuzzer, the backends and triage know of one dialect.
pub struct Bundle {
    /// The dialect (its front end: `Dialect::front_end`).
    pub dialect: Dialect,
    /// Program `index` of campaign `seed` under a generator config: IR,
    /// printed as the dialect's source.
    pub generate: fn(&Config, u64, u64) -> Program,
    /// The generator's feature switches, which swarm mode draws from.
    pub knobs: &'static [Knob],
    /// The printer: an IR kernel as the dialect's source text.
    pub print: fn(&Kernel) -> PResult<String>,
    /// The real system that runs the dialect's files.
    pub peer: Peer,
}

/// Every dialect's bundle, in the order the command line lists the real
/// systems (`--backends`).
pub const BUNDLES: &[Bundle] = &[
    Bundle {
        dialect: Dialect::Triton,
        generate: gen_triton::generate,
        knobs: gen_triton::KNOBS,
        print: print::triton::kernel,
        peer: Peer {
            backend: "triton",
            system: "Triton",
            script: "triton_run.py",
            path_var: "KSEM_TRITON_RUN",
            python_var: Some("KSEM_TRITON_PYTHON"),
            extra_args: &["--json"],
            batch_options: Some(r#"{"enable_fp_fusion": false}"#),
            serves: true,
            // one Python process (torch and Triton imported once) per batch
            batch_size: 32,
            ptxas_o0_env: &[("DISABLE_PTXAS_OPT", "1"), ("TRITON_ALWAYS_COMPILE", "1")],
            divergences: TRITON_ROWS,
            kind_divergences: &[
                (DiffKind::NanBits, "#13, #22, #30"),
                (DiffKind::SignedZero, "#23"),
                (DiffKind::Inexact, "#5, #12"),
            ],
            bug_script: bugreport::script::TRITON,
        },
    },
    Bundle {
        dialect: Dialect::CudaPy,
        generate: |cfg, seed, index| {
            gen_cudapy::generate_for(&cfg.cudapy, seed, index, cfg.avoid_divergences())
        },
        knobs: gen_cudapy::knobs::KNOBS,
        print: print::cudapy::kernel,
        peer: Peer {
            backend: "numba",
            system: "numba-cuda",
            script: "numba_run.py",
            path_var: "KSEM_NUMBA_RUN",
            python_var: None,
            extra_args: &[],
            // ksem never contracts `a*b + c`; NVVM does by default (N21)
            batch_options: Some(r#"{"contract": false}"#),
            serves: false,
            // one Python process (numba imported once) per batch
            batch_size: 16,
            ptxas_o0_env: &[],
            divergences: NUMBA_ROWS,
            kind_divergences: &[(DiffKind::NanBits, "N22")],
            bug_script: bugreport::script::NUMBA,
        },
    },
    Bundle {
        dialect: Dialect::TileLang,
        generate: |cfg, seed, index| {
            gen_tilelang::generate_with(&cfg.tilelang, seed, index, cfg.avoid_divergences())
        },
        knobs: gen_tilelang::knobs::KNOBS,
        print: |k| print::tilelang::kernel(k, &Default::default()),
        peer: Peer {
            backend: "tilelang",
            system: "TileLang",
            script: "tilelang_run.py",
            path_var: "KSEM_TILELANG_RUN",
            python_var: Some("KSEM_TILELANG_PYTHON"),
            extra_args: &[],
            batch_options: None,
            serves: false,
            // one Python process per batch: its import dominates small batches
            batch_size: 64,
            ptxas_o0_env: &[],
            divergences: &[],
            kind_divergences: &[],
            bug_script: bugreport::script::TILELANG,
        },
    },
    Bundle {
        dialect: Dialect::Hidet,
        generate: |cfg, seed, index| {
            gen_hidet::generate_with(&cfg.hidet, seed, index, cfg.avoid_divergences())
        },
        knobs: gen_hidet::knobs::KNOBS,
        print: print::hidet::kernel,
        peer: Peer {
            backend: "hidet",
            system: "Hidet",
            script: "hidet_run.py",
            path_var: "KSEM_HIDET_RUN",
            python_var: Some("KSEM_HIDET_PYTHON"),
            extra_args: &[],
            batch_options: None,
            serves: false,
            batch_size: 64,
            ptxas_o0_env: &[],
            divergences: &[],
            kind_divergences: &[],
            bug_script: bugreport::script::HIDET,
        },
    },
];

/// The bundle of `dialect`.
pub fn bundle(dialect: Dialect) -> &'static Bundle {
    BUNDLES
        .iter()
        .find(|b| b.dialect == dialect)
        .expect("every dialect has a bundle (the registry test checks it)")
}

/// The real system of `dialect`.
pub fn peer_of(dialect: Dialect) -> &'static Peer {
    &bundle(dialect).peer
}
