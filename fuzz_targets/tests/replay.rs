//! Replays every fuzz target's seeds (built from `corpus/`, and the saved
//! ones under `fuzz/seeds/`) and every minimised finding under
//! `fuzz/regressions/` through the same target bodies the libFuzzer
//! binaries run: none may panic. This is CI's fuzz smoke test on stable.

use ksem_fuzz_targets::seeds::{corpus_seeds, saved_inputs};
use ksem_fuzz_targets::{repo_root, Target};

fn replay(t: Target) {
    replay_every(t, 1);
}

/// Every `step`th seed and every saved input of `t`.
fn replay_every(t: Target, step: usize) {
    let mut inputs: Vec<_> = corpus_seeds(repo_root(), t)
        .into_iter()
        .step_by(step)
        .collect();
    assert!(!inputs.is_empty(), "no seeds for {}", t.name());
    inputs.extend(saved_inputs(repo_root(), t));
    for s in &inputs {
        let r = std::panic::catch_unwind(|| t.run(&s.data));
        assert!(r.is_ok(), "{} panicked on {}", t.name(), s.name);
    }
}

#[test]
fn frontend_triton() {
    replay(Target::from_name("frontend_triton").unwrap());
}

#[test]
fn frontend_cudapy() {
    replay(Target::from_name("frontend_cudapy").unwrap());
}

#[test]
fn frontend_tilelang() {
    replay(Target::from_name("frontend_tilelang").unwrap());
}

#[test]
fn frontend_hidet() {
    replay(Target::from_name("frontend_hidet").unwrap());
}

#[test]
fn launch_json() {
    replay(Target::LaunchJson);
}

#[test]
fn interp_run() {
    replay(Target::InterpRun);
}

/// Every 8th seed (each needs a C++ compile of its lowering) and every saved
/// input of `interp_vs_host`.
#[test]
fn interp_vs_host() {
    replay_every(Target::InterpVsHost, 8);
}

/// Every 4th seed (each runs a reduction) and every saved input of `reducer`.
#[test]
fn reducer() {
    replay_every(Target::Reducer, 4);
}
