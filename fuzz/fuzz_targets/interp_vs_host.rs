#![no_main]
//! Fuzz target `interp_vs_host`: see ksem_fuzz_targets::Target.

use ksem_fuzz_targets::Target;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    Target::from_name("interp_vs_host")
        .expect("a known target")
        .run(data);
});
