//! The registry test and the self-tests every generator shares, run over
//! every dialect's bundle (`crate::registry`): the bundle is complete, its
//! programs elaborate, run without UB and print back to the IR they were
//! built as; generation is a function of (seed, index). Each generator's own
//! tests keep what is its own (the features it must exercise, the text of
//! its constructs) and use the helpers here.

use super::gen::{generate, Config, Program};
use crate::registry::{Bundle, BUNDLES};
use ksem_interp::eval::RunOptions;
use ksem_interp::frontend::py::Source;
use ksem_interp::frontend::Dialect;
use ksem_interp::ir::canon::same_program;
use ksem_interp::launch::parse_launch;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Every dialect with a generator.
fn dialects() -> impl Iterator<Item = Dialect> {
    BUNDLES.iter().map(|b| b.dialect)
}

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
    (0..n)
        .map(&gen)
        .filter(|p| {
            let Some(at) = p.source.find(needle) else {
                return false;
            };
            let mut wrong = p.source.clone();
            wrong.replace_range(at..at + drop, "");
            elaborates_otherwise(p, &wrong)
        })
        .count()
}

/// Whether `wrong` (program `p`'s text with something dropped) still
/// elaborates, to another program than `p`'s IR (the difference is
/// described).
pub fn elaborates_otherwise(p: &Program, wrong: &str) -> bool {
    let l = parse_launch(&p.launch.to_string()).expect("a generated launch parses");
    let ir = p.ir.as_ref().expect("generated IR");
    ksem_interp::elaborate_source("fuzz.py", wrong, &l, None).is_ok_and(|k| {
        let err = same_program(ir, &k).expect_err("a dropped conversion is a difference");
        assert!(!err.is_empty(), "the difference is described");
        true
    })
}

#[test]
fn every_generator_makes_programs_that_run_ub_free_and_print_back() {
    for dialect in dialects() {
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
    for dialect in dialects() {
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

/// The repository's root.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The dialect `text` is recognised as (by its imports).
fn detected(file: &str, text: &str) -> Dialect {
    let src =
        Source::parse(file, text).unwrap_or_else(|e| panic!("{file}: {}", e.render(file, text)));
    Dialect::detect(&src).expect("detection")
}

/// What is missing from `b`'s bundle, one line each (see the registry test).
fn incomplete(b: &Bundle) -> Vec<String> {
    let d = b.dialect;
    let mut out = Vec::new();
    // the front end recognises every file of its corpus
    let corpus = repo().join(d.front_end().corpus);
    let files: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    // a case is a program with its launch beside it (helpers aside)
    let py: Vec<&PathBuf> = files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .filter(|p| p.with_extension("json").exists())
        .collect();
    if py.is_empty() {
        out.push(format!("{}: no corpus files", corpus.display()));
    }
    for p in py {
        let text = std::fs::read_to_string(p).expect("a corpus file reads");
        let got = detected(&p.display().to_string(), &text);
        if got != d {
            out.push(format!("{} is recognised as {got:?}", p.display()));
        }
    }
    // the generator's programs print back to their IR, and the printer's
    // text is recognised as the dialect
    let cfg = Config {
        dialect: d,
        ..Config::default()
    };
    for i in 0..20 {
        let p = generate(&cfg, 2, i);
        if let Err(e) = p.round_trip() {
            out.push(format!("program {i} does not print back: {e}"));
        }
        let ir = p.ir.as_ref().expect("generated IR");
        match (b.print)(ir) {
            Ok(text) if detected("printed.py", &text) == d => {}
            Ok(_) => out.push(format!(
                "the printer's text of program {i} is another dialect"
            )),
            Err(e) => out.push(format!("the printer has no form for program {i}: {e}")),
        }
    }
    // the peer's runner is in the repository
    let script = repo().join("tools").join(b.peer.script);
    if !script.exists() {
        out.push(format!("{} is missing", script.display()));
    }
    // and takes the options ksem runs it with (campaigns send batches;
    // the reducer talks to a serving runner)
    let help = std::process::Command::new("python3")
        .arg(&script)
        .arg("--help")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    let serve = b.peer.serves.then_some("--serve");
    for option in std::iter::once("--batch").chain(serve) {
        if !help.contains(option) {
            out.push(format!("{} --help lists no {option}", script.display()));
        }
    }
    // every divergence row it recognises is a row of the real system's
    // section of docs/divergences.md
    let doc =
        std::fs::read_to_string(repo().join("docs/divergences.md")).expect("the divergences page");
    let heading = format!("# Where ksem and real {}", b.peer.system);
    let section = doc
        .split("\n# ")
        .map(|s| format!("# {s}"))
        .find(|s| s.starts_with(&heading))
        .or_else(|| doc.starts_with(&heading).then(|| doc.clone()));
    let labels = b
        .peer
        .divergences
        .iter()
        .map(|r| r.label)
        .chain(b.peer.kind_divergences.iter().map(|(_, l)| *l));
    for label in labels.flat_map(|l| l.split(", ")) {
        let row = format!("\n| {} |", label.trim_start_matches('#'));
        if !section.as_ref().is_some_and(|s| s.contains(&row)) {
            out.push(format!(
                "divergence {label} is not a row under \"{heading}\""
            ));
        }
    }
    out
}

/// The registry test: every dialect has one bundle, and each bundle is
/// complete. Its front end recognises every file of its corpus; its
/// generator's programs print back to their IR; its printer's text is
/// recognised as the dialect; its peer's runner script is in `tools/`; its
/// divergence rows are rows of its real system's section of
/// `docs/divergences.md`.
///
/// Adding a dialect is its folders (`interp/src/frontend/<name>/`,
/// `diff/src/fuzz/gen_<name>/`, `diff/src/fuzz/print/<name>.rs`,
/// `corpus/<name>/`, `tools/<system>_run.py`) plus one line in each crate's
/// registry: `registry!` in `interp/src/frontend/mod.rs` and
/// `crate::registry::BUNDLES`. This test then checks the new bundle.
#[test]
fn every_dialect_is_one_complete_bundle() {
    for &d in Dialect::ALL {
        let n = BUNDLES.iter().filter(|b| b.dialect == d).count();
        assert_eq!(n, 1, "{d:?} has {n} bundles");
        assert_eq!(Dialect::from_name(d.name()), Some(d));
    }
    let backends: BTreeSet<&str> = BUNDLES.iter().map(|b| b.peer.backend).collect();
    assert_eq!(
        backends.len(),
        BUNDLES.len(),
        "two bundles share a backend name"
    );
    for b in BUNDLES {
        let missing = incomplete(b);
        assert!(
            missing.is_empty(),
            "{:?}:\n{}",
            b.dialect,
            missing.join("\n")
        );
    }
}

/// Swarm mode, for every dialect's generator: every feature switch is
/// both on and off among 200 programs, a switch the config turns off stays
/// off, a program whose switch is off never shows its feature in its text
/// (and some program whose switch is on does), and swarm programs still
/// run UB-free and print back.
#[test]
fn swarm_programs_vary_their_features_and_still_print_back() {
    for b in BUNDLES {
        let cfg = Config {
            dialect: b.dialect,
            swarm: true,
            ..Config::default()
        };
        assert!(
            !b.knobs.is_empty(),
            "{:?} has no feature switches",
            b.dialect
        );
        for k in b.knobs {
            let ons: Vec<bool> = (0..200)
                .map(|i| *(k.switch)(&mut cfg.swarmed(9, i)))
                .collect();
            assert!(ons.contains(&true) && ons.contains(&false), "{}", k.name);
            let mut off = cfg.clone();
            *(k.switch)(&mut off) = false;
            assert!(
                (0..50).all(|i| !*(k.switch)(&mut off.swarmed(9, i))),
                "{}",
                k.name
            );
        }
        let mut shown = BTreeSet::new();
        for i in 0..150 {
            let mut c = cfg.swarmed(9, i);
            let text = generate(&cfg, 9, i).source;
            for k in b.knobs {
                let on = *(k.switch)(&mut c);
                let shows = (k.shows)(&text);
                assert!(
                    on || !shows,
                    "{:?} program {i}: `{}` is off, yet the text shows it:\n{text}",
                    b.dialect,
                    k.name
                );
                if shows {
                    shown.insert(k.name);
                }
            }
        }
        for k in b.knobs {
            assert!(
                shown.contains(k.name),
                "{:?}: no program shows `{}`",
                b.dialect,
                k.name
            );
        }
        assert_ne!(
            generate(&cfg, 9, 3).source,
            generate(&config(b.dialect, false), 9, 3).source,
            "{:?}",
            b.dialect
        );
        let f = failures(100, |i| generate(&cfg, 9, i));
        assert!(
            f.is_empty(),
            "{:?}: {} failures:\n{}",
            b.dialect,
            f.len(),
            f[0]
        );
    }
}
