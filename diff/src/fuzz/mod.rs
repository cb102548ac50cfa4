//! Differential fuzzing: generate programs, run them on two backends,
//! compare bit for bit.

pub mod bench;
pub mod checkpoint;
pub mod gen;
pub mod gen_cudapy;
pub mod gen_hidet;
pub mod gen_tilelang;
pub mod gen_triton;
pub mod inputs;
pub mod log;
pub mod passes;
pub mod print;
pub mod progress;
pub mod rng;
pub mod run;
pub mod safe;
pub mod save;
#[cfg(test)]
pub mod selftest;
pub mod shows;

/// Held by tests that build the host lowering: a planted bug is process-wide,
/// so no other such test may build while one is planted.
#[cfg(test)]
pub(crate) static HOST_BUILD_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Takes [`HOST_BUILD_LOCK`] (a test that failed while holding it does not
/// poison it for the others).
#[cfg(test)]
pub(crate) fn host_build_lock() -> std::sync::MutexGuard<'static, ()> {
    HOST_BUILD_LOCK.lock().unwrap_or_else(|p| p.into_inner())
}

/// A campaign of `count` programs of `dialect` from `seed`, interp against
/// the host build on `jobs` workers.
#[cfg(test)]
pub(crate) fn host_campaign(
    dialect: ksem_interp::frontend::Dialect,
    seed: u64,
    count: u64,
    jobs: usize,
) -> run::Options {
    run::Options {
        seed,
        count: Some(count),
        backends: (
            crate::backend::Backend::Interp,
            crate::backend::Backend::Host,
        ),
        jobs,
        config: gen::Config {
            dialect,
            ..Default::default()
        },
        ..Default::default()
    }
}

/// Asserts that campaign summary `s` has no mismatch, error or UB skip.
#[cfg(test)]
pub(crate) fn assert_clean(s: &run::Summary) {
    assert_eq!(
        (s.mismatches, s.errors, s.ub_skipped),
        (0, 0, 0),
        "{:?} {:?}",
        s.error_samples,
        s.ub_samples
    );
}

#[cfg(test)]
mod tests {
    use super::gen::{generate, Config};
    use ksem_interp::eval::RunOptions;
    use ksem_interp::launch::parse_launch;

    #[test]
    fn generated_programs_elaborate_and_are_ub_free() {
        let cfg = Config::default();
        let (mut errors, mut ub) = (Vec::new(), 0);
        let n = 300;
        for i in 0..n {
            let p = generate(&cfg, 1, i);
            let l = parse_launch(&p.launch.to_string()).expect("launch");
            match ksem_interp::run_source(
                "fuzz.py",
                &p.source,
                &l,
                None,
                &RunOptions {
                    threads: 1,
                    ..Default::default()
                },
            ) {
                Ok(r) => ub += !r.ub.is_empty() as usize,
                Err(e) => errors.push(format!(
                    "program {i}: {}",
                    e.render().lines().next().unwrap_or("")
                )),
            }
        }
        assert!(
            errors.is_empty(),
            "{} of {n} programs do not elaborate:\n{}",
            errors.len(),
            errors[..errors.len().min(12)].join("\n")
        );
        assert!(ub * 100 <= n as usize, "{ub} of {n} programs hit UB");
    }

    #[test]
    fn generation_is_deterministic() {
        let cfg = Config::default();
        for i in 0..20 {
            let (a, b) = (generate(&cfg, 7, i), generate(&cfg, 7, i));
            assert_eq!(a.source, b.source);
            assert_eq!(a.launch, b.launch);
        }
        assert_ne!(generate(&cfg, 7, 0).source, generate(&cfg, 8, 0).source);
    }
}

#[cfg(test)]
mod campaign_tests {
    use super::run::{campaign, Options};
    use crate::backend::Backend;

    fn opts(jobs: usize) -> Options {
        Options {
            seed: 5,
            count: Some(130),
            backends: (Backend::Interp, Backend::Interp),
            jobs,
            ..Default::default()
        }
    }

    #[test]
    fn verdicts_do_not_depend_on_jobs() {
        let (a, b) = (campaign(&opts(1), |_| {}), campaign(&opts(2), |_| {}));
        assert_eq!(a.programs, 130);
        assert_eq!(
            (a.programs, a.mismatches, a.ub_skipped, a.errors),
            (b.programs, b.mismatches, b.ub_skipped, b.errors)
        );
        assert_eq!(a.by_feature, b.by_feature);
        // the interpreter agrees with itself, and the generator's programs run cleanly
        assert_eq!((a.mismatches, a.errors), (0, 0), "{:?}", a.error_samples);
        assert!(
            a.ub_skipped * 100 <= a.programs,
            "{} UB-skipped programs",
            a.ub_skipped
        );
    }
}

#[cfg(test)]
mod cudapy_campaign_tests {
    use super::run::campaign;
    use ksem_interp::frontend::Dialect;

    /// A CUDA Python campaign of interp against the host build finds no
    /// mismatch, and its verdicts do not depend on the number of jobs.
    #[test]
    fn cudapy_campaign_matches_the_host_build() {
        let _host = super::host_build_lock();
        let o = |jobs| super::host_campaign(Dialect::CudaPy, 21, 96, jobs);
        let (a, b) = (campaign(&o(1), |_| {}), campaign(&o(2), |_| {}));
        assert_eq!(a.programs, 96);
        super::assert_clean(&a);
        assert_eq!(a.by_feature, b.by_feature);
        assert!(a.by_feature.contains_key("shared+barrier") && a.by_feature.contains_key("atomic"));
    }

    /// The CUDA Python fuzzer finds a wrong rule planted in the SIMT lowering
    /// (signed `>>` filling with zeros) within 256 programs.
    #[test]
    fn cudapy_campaign_finds_a_planted_bug() {
        use ksem_gpu::planted::{self, Bug};
        let _host = super::host_build_lock();
        planted::set(Some(Bug::ShrLogical));
        let o = super::host_campaign(Dialect::CudaPy, 31, 256, 2);
        let s = campaign(&o, |_| {});
        let first = s.found.first().map(|f| f.0);
        let reduced = first.and_then(|i| {
            let p = super::gen::generate(&o.config, o.seed, i);
            crate::reduce::reduce(&p.source, &p.launch, o.backends)
        });
        planted::set(None);
        assert!(s.mismatches > 0, "no mismatch in {} programs", s.programs);
        assert_eq!(s.errors, 0, "{:?}", s.error_samples);
        let r = reduced.expect("the mismatch reproduces");
        let body = r
            .source
            .lines()
            .skip_while(|l| !l.starts_with("def fuzz_kernel"))
            .skip(1)
            .filter(|l| !l.trim().is_empty())
            .count();
        eprintln!(
            "ShrLogical: {} mismatches in {} programs; program {first:?} reduced to {body} body lines:\n{}",
            s.mismatches, s.programs, r.source
        );
        assert!(body <= 12, "reduced to {body} lines:\n{}", r.source);
    }
}

#[cfg(test)]
mod tilelang_campaign_tests {
    use super::run::campaign;
    use ksem_interp::frontend::Dialect;

    /// A TileLang campaign of interp against the host build finds no
    /// mismatch, elaborates every program, and covers every loop kind and
    /// division form.
    #[test]
    fn tilelang_campaign_matches_the_host_build() {
        let _host = super::host_build_lock();
        let o = super::host_campaign(Dialect::TileLang, 5, 96, 2);
        let s = campaign(&o, |_| {});
        assert_eq!(s.programs, 96);
        super::assert_clean(&s);
        for f in [
            "loop-serial",
            "loop-parallel",
            "loop-unroll",
            "loop-pipelined",
            "loop-grid",
            "floordiv/mod",
            "truncdiv/mod",
            "ceildiv",
            "shared+copy",
            "ragged-edge",
            "alloc_var",
            "reduce",
            "ieee",
            "atomic",
        ] {
            assert!(s.by_feature.contains_key(f), "no program with {f}");
        }
    }
}

#[cfg(test)]
mod planted_bug_tests {
    use super::gen::Config;
    use super::run::{campaign, Options};
    use crate::backend::Backend;
    use ksem_gpu::planted::{self, Bug};
    use ksem_interp::frontend::Dialect;

    /// Lines of the kernel's body (after `def fuzz_kernel(...)`), blank ones aside.
    fn body_lines(src: &str) -> usize {
        src.lines()
            .skip_while(|l| !l.starts_with("def fuzz_kernel"))
            .skip(1)
            .filter(|l| !l.trim().is_empty())
            .count()
    }

    /// Each planted wrong rule in the lowering is found by fuzzing interp
    /// against the host build within 256 programs, and reduced to a kernel
    /// body of at most 10 lines that still shows it.
    #[test]
    fn planted_bugs_are_found_and_reduced() {
        let _host = super::host_build_lock();
        for (bug, seed) in [
            (Bug::FloorDiv, 11),
            (Bug::ReduceSequential, 12),
            (Bug::F16Truncate, 13),
        ] {
            planted::set(Some(bug));
            let o = super::host_campaign(Dialect::Triton, seed, 256, 2);
            let s = campaign(&o, |_| {});
            let Some(&(index, _, _)) = s.found.first() else {
                planted::set(None);
                panic!("{bug:?}: no mismatch in {} programs", s.programs);
            };
            let p = super::gen::generate(&o.config, seed, index);
            let r = crate::reduce::reduce(&p.source, &p.launch, o.backends);
            planted::set(None);
            let r = r.unwrap_or_else(|| panic!("{bug:?}: program {index} does not reproduce"));
            let n = body_lines(&r.source);
            assert!(
                n <= 10,
                "{bug:?}: reduced to {n} lines (program {index}):\n{}",
                r.source
            );
            // and without the planted bug the reduced case agrees
            let c = crate::reduce::reduce(&r.source, &r.launch, o.backends);
            assert!(
                c.is_none(),
                "{bug:?}: the reduced case disagrees even without the bug"
            );
            eprintln!("{bug:?}: found at program {index} of seed {seed}, reduced to {n} body lines in {} steps:\n{}", r.steps, r.source);
        }
    }

    /// The summary `ksem fuzz` prints without its timing (`seconds`,
    /// `programs_per_s`): programs, mismatches, mismatches by bucket with
    /// their signatures' first programs, by feature.
    fn summary_without_timing(s: &super::run::Summary, o: &Options) -> serde_json::Value {
        let mut j = s.to_json(o);
        let m = j.as_object_mut().expect("the summary is an object");
        m.remove("seconds");
        m.remove("programs_per_s");
        m.remove("checks_per_s");
        j
    }

    /// Same seed, same summary for `--jobs 1` and `--jobs 2`, mismatches by
    /// bucket included (planted bug FloorDiv, interp against host, so that
    /// there are mismatches to bucket).
    #[test]
    fn summary_with_mismatches_does_not_depend_on_jobs() {
        let _host = super::host_build_lock();
        let opts = |jobs| super::host_campaign(Dialect::Triton, 11, 200, jobs);
        planted::set(Some(Bug::FloorDiv));
        let (o1, o2) = (opts(1), opts(2));
        let (a, b) = (campaign(&o1, |_| {}), campaign(&o2, |_| {}));
        planted::set(None);
        assert!(
            a.mismatches > 0 && !a.by_bucket.is_empty(),
            "no mismatch to bucket"
        );
        assert_eq!(
            summary_without_timing(&a, &o1),
            summary_without_timing(&b, &o2)
        );
    }

    /// Same seed, same summary for `--jobs 1` and `--jobs 2` in every
    /// dialect's generator (interp against itself: programs, UB skips,
    /// errors, features).
    #[test]
    fn every_dialects_summary_does_not_depend_on_jobs() {
        for dialect in crate::registry::BUNDLES.iter().map(|b| b.dialect) {
            let opts = |jobs| Options {
                seed: 3,
                count: Some(48),
                backends: (Backend::Interp, Backend::Interp),
                jobs,
                config: Config {
                    dialect,
                    ..Default::default()
                },
                ..Default::default()
            };
            let (o1, o2) = (opts(1), opts(2));
            let (a, b) = (campaign(&o1, |_| {}), campaign(&o2, |_| {}));
            assert_eq!(a.programs, 48, "{dialect:?}");
            assert_eq!(a.errors, 0, "{dialect:?}: {:?}", a.error_samples);
            assert!(!a.by_feature.is_empty(), "{dialect:?}");
            assert_eq!(
                summary_without_timing(&a, &o1),
                summary_without_timing(&b, &o2),
                "{dialect:?}"
            );
        }
    }

    /// `--inputs K` checks every program on K input sets: each program the
    /// single-input campaign finds is found again (set 0 is its own launch),
    /// and the summary counts K checks a program, less the sets skipped.
    #[test]
    fn more_input_sets_find_at_least_as_much() {
        let _host = super::host_build_lock();
        let opts = |inputs: u32| Options {
            inputs,
            ..super::host_campaign(Dialect::Triton, 11, 80, 2)
        };
        planted::set(Some(Bug::FloorDiv));
        let one = campaign(&opts(1), |_| {});
        let four = campaign(&opts(4), |_| {});
        planted::set(None);
        let found = |s: &super::run::Summary| s.found.iter().map(|f| f.0).collect::<Vec<_>>();
        assert!(!found(&one).is_empty(), "the planted bug was not found");
        for i in found(&one) {
            assert!(
                found(&four).contains(&i),
                "program {i} lost with more inputs"
            );
        }
        assert_eq!(one.checks, one.programs - one.ub_skipped - one.errors);
        // a program stops at its first mismatching set; every other
        // compared program ran all four
        let clean = four.programs - four.ub_skipped - four.errors - four.mismatches;
        assert!(
            four.checks >= 4 * clean + four.mismatches,
            "{} checks",
            four.checks
        );
        assert!(four.checks <= 4 * four.programs);
    }

    /// A campaign stopped part way and resumed from its checkpoint ends with
    /// the summary and the findings of one uninterrupted run (planted bug
    /// FloorDiv, interp against host).
    #[test]
    fn a_resumed_campaign_ends_like_one_run() {
        let _host = super::host_build_lock();
        let base = std::env::temp_dir().join(format!("ksem-resume-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let opts = |count: u64, out: &str| Options {
            out: Some(base.join(out)),
            ..super::host_campaign(Dialect::Triton, 11, count, 2)
        };
        planted::set(Some(Bug::FloorDiv));
        let one = campaign(&opts(150, "one"), |_| {});
        let first = campaign(&opts(70, "two"), |_| {});
        let mut rest = opts(150, "two");
        rest.resume =
            Some(super::checkpoint::load(&base.join("two"), &rest).expect("a checkpoint"));
        assert_eq!(rest.resume.as_ref().map(|c| c.done), Some(70));
        let resumed = campaign(&rest, |_| {});
        planted::set(None);
        assert!(first.mismatches > 0 && one.mismatches > first.mismatches);
        let counts = |s: &super::run::Summary| {
            let mut j = s.to_json(&opts(150, "x"));
            j["seconds"] = 0.into();
            j["programs_per_s"] = 0.into();
            j["checks_per_s"] = 0.into();
            j
        };
        assert_eq!(counts(&resumed), counts(&one));
        let found = |s: &super::run::Summary| -> Vec<(u64, Option<String>)> {
            s.found
                .iter()
                .map(|(i, p, _)| {
                    (
                        *i,
                        p.as_ref()
                            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned()),
                    )
                })
                .collect()
        };
        assert_eq!(found(&resumed), found(&one));
        // another campaign's checkpoint is refused
        let mut other = opts(150, "two");
        other.seed = 12;
        let e = super::checkpoint::load(&base.join("two"), &other).unwrap_err();
        assert!(e.contains("another campaign"), "{e}");
        let _ = std::fs::remove_dir_all(&base);
    }

    /// N shards of a campaign, merged, find exactly what one worker finds:
    /// the same programs are checked (each index once) and the merged
    /// findings are the same (planted bug FloorDiv, interp against host).
    #[test]
    fn shards_merged_find_what_one_worker_finds() {
        let _host = super::host_build_lock();
        let base = std::env::temp_dir().join(format!("ksem-shards-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let opts = |shard: (u64, u64), out: &str| Options {
            out: Some(base.join(out)),
            shard,
            ..super::host_campaign(Dialect::Triton, 11, 200, 2)
        };
        planted::set(Some(Bug::FloorDiv));
        let one = campaign(&opts((0, 1), "one"), |_| {});
        let parts: Vec<_> = (0..3)
            .map(|i| campaign(&opts((i, 3), &format!("s{i}")), |_| {}))
            .collect();
        planted::set(None);
        assert_eq!(parts.iter().map(|s| s.programs).sum::<u64>(), one.programs);
        let mut found: Vec<u64> = parts
            .iter()
            .flat_map(|s| s.found.iter().map(|f| f.0))
            .collect();
        found.sort();
        let single: Vec<u64> = one.found.iter().map(|f| f.0).collect();
        assert!(!single.is_empty(), "the planted bug was not found");
        assert_eq!(found, single, "the shards found other programs");
        let merge = |dirs: Vec<std::path::PathBuf>, out: &str| {
            crate::triage::merge(&base.join(out), &dirs).expect("merge")
        };
        let a = merge(vec![base.join("one")], "merged_one");
        let b = merge(
            (0..3).map(|i| base.join(format!("s{i}"))).collect(),
            "merged_shards",
        );
        assert!(a.errors.is_empty() && b.errors.is_empty());
        assert_eq!(a.read, b.read);
        assert_eq!(a.kept, b.kept);
        let _ = std::fs::remove_dir_all(&base);
    }
}
