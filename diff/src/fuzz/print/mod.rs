//! Printers: a kernel of the IR as the source text of a dialect. The fuzzer
//! builds kernels as IR and prints them; the printed text elaborates back to
//! the same program (`ir::canon::same_program`), which the fuzzer checks
//! before running it.

pub mod checked;
pub mod control;
pub mod cudapy;
pub mod hidet;
pub mod pattern;
pub mod tilelang;
pub mod triton;
