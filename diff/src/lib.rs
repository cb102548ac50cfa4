//! The `ksem` command's machinery as a library: backends, real-system
//! peers, the fuzzer, the reducer, triage, corpus replay, benchmarks and
//! the campaign report. The binary (`main.rs`) is the command line over
//! it; the fuzz targets (`fuzz_targets`) drive the reducer through it.

pub mod backend;
pub mod bench;
pub mod bugreport;
pub mod corpus;
pub mod divergence;
#[cfg(test)]
mod divergence_paths;
pub mod fuzz;
pub mod models;
pub mod nudge;
pub mod peer;
pub mod reduce;
pub mod registry;
pub mod report;
pub mod triage;
