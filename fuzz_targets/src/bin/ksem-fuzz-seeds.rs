//! Writes each fuzz target's starting corpus: `ksem-fuzz-seeds DIR` fills
//! `DIR/<target>/` with the seeds built from `corpus/` and the saved ones.

use ksem_fuzz_targets::seeds::{corpus_seeds, saved_inputs};
use ksem_fuzz_targets::{repo_root, Target};
use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::args().nth(1).unwrap_or("fuzz/corpus".into()));
    for t in Target::ALL {
        let dir = out.join(t.name());
        std::fs::create_dir_all(&dir).expect("create a corpus directory");
        let mut seeds = corpus_seeds(repo_root(), t);
        seeds.extend(saved_inputs(repo_root(), t));
        for (i, s) in seeds.iter().enumerate() {
            std::fs::write(dir.join(format!("seed{i:04}")), &s.data).expect("write a seed");
        }
        println!("{}: {} seeds", t.name(), seeds.len());
    }
}
