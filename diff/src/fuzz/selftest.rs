//! The self-tests every generator shares, run over every dialect: its
//! programs elaborate, run without UB and print back to the IR they were
//! built as; generation is a function of (seed, index). Each generator's own
//! tests keep what is its own (the features it must exercise, the text of
//! its constructs) and use the helpers here.

use super::gen::{generate, Config, Program};
use ksem_interp::eval::RunOptions;
use ksem_interp::frontend::Dialect;
use ksem_interp::ir::canon::same_program;
use ksem_interp::launch::parse_launch;
use std::collections::BTreeSet;

/// Every dialect with a generator.
const DIALECTS: [Dialect; 4] = [
    Dialect::Triton,
    Dialect::CudaPy,
    Dialect::TileLang,
    Dialect::Hidet,
];

/// The generator configuration of `dialect`, against a real system's peer
/// (leaving out its known divergences) where `real_peer`.
fn config(dialect: Dialect, real_peer: bool) -> Config {
    Config {
        dialect,
        real_peer,
        ..Config::default()
    }
}

/// What goes wrong with programs `0..n` of `gen`, one line each with the
/// source: a program that does not elaborate, that hits UB on one thread, or
/// whose printed text elaborates to another program than its IR.
pub fn failures(n: u64, gen: impl Fn(u64) -> Program) -> Vec<String> {
    let opts = RunOptions {
        threads: 1,
        ..Default::default()
    };
    let mut out = Vec::new();
    for i in 0..n {
        let p = gen(i);
        let l = parse_launch(&p.launch.to_string()).expect("a generated launch parses");
        match ksem_interp::run_source("fuzz.py", &p.source, &l, None, &opts) {
            Ok(r) => {
                if let Some(u) = r.ub.first() {
                    out.push(format!(
                        "program {i} hits UB: {} {}:{} {}\n{}",
                        u.kind, u.line, u.col, u.message, p.source
                    ));
                }
            }
            Err(e) => out.push(format!(
                "program {i} does not elaborate: {}\n{}",
                e.render(),
                p.source
            )),
        }
        if let Err(e) = p.round_trip() {
            out.push(format!(
                "program {i} does not print back: {e}\n{}",
                p.source
            ));
        }
    }
    out
}

/// Asserts that programs `0..n` of `gen` together exercise every feature of
/// `names`.
pub fn assert_features(n: u64, gen: impl Fn(u64) -> Program, names: &[&str]) {
    let mut seen = BTreeSet::new();
    for i in 0..n {
        seen.extend(gen(i).features);
    }
    for f in names {
        assert!(seen.contains(f), "no program of 0..{n} uses {f}");
    }
}

/// How many of programs `0..n` of `gen` print text in which dropping the
/// first `drop` characters of the first `needle` (an explicit conversion)
/// still elaborates but to another program: a printer that dropped it would
/// be caught by the round trip.
pub fn dropped_conversions_caught(
    n: u64,
    gen: impl Fn(u64) -> Program,
    needle: &str,
    drop: usize,
) -> usize {
    let mut caught = 0;
    for i in 0..n {
        let p = gen(i);
        let Some(at) = p.source.find(needle) else {
            continue;
        };
        let l = parse_launch(&p.launch.to_string()).expect("a generated launch parses");
        let mut wrong = p.source.clone();
        wrong.replace_range(at..at + drop, "");
        let Ok(k) = ksem_interp::elaborate_source("fuzz.py", &wrong, &l, None) else {
            continue;
        };
        let ir = p.ir.as_ref().expect("generated IR");
        let err = same_program(ir, &k).expect_err("a dropped conversion is a difference");
        assert!(!err.is_empty());
        caught += 1;
    }
    caught
}

#[test]
fn every_generator_makes_programs_that_run_ub_free_and_print_back() {
    for dialect in DIALECTS {
        for (real_peer, seed, n) in [(false, 1, 200), (true, 12, 80)] {
            let cfg = config(dialect, real_peer);
            let f = failures(n, |i| generate(&cfg, seed, i));
            assert!(
                f.is_empty(),
                "{dialect:?} (real peer {real_peer}): {} failures of {n} programs:\n{}",
                f.len(),
                f[0]
            );
        }
    }
}

#[test]
fn every_generator_is_a_function_of_seed_and_index() {
    for dialect in DIALECTS {
        for real_peer in [false, true] {
            let cfg = config(dialect, real_peer);
            for i in 0..10 {
                let (a, b) = (generate(&cfg, 7, i), generate(&cfg, 7, i));
                assert_eq!(a.source, b.source, "{dialect:?} {i}");
                assert_eq!(a.launch, b.launch, "{dialect:?} {i}");
                assert_eq!(a.ir, b.ir, "{dialect:?} {i}");
            }
            let text = |seed, i| generate(&cfg, seed, i).source;
            assert_ne!(text(3, 5), text(4, 5), "{dialect:?}");
            assert_ne!(text(7, 0), text(7, 1), "{dialect:?}");
        }
    }
}
