#![no_main]
//! Fuzz target `frontend_tilelang`: see ksem_fuzz_targets::Target.

use ksem_fuzz_targets::Target;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    Target::from_name("frontend_tilelang")
        .expect("a known target")
        .run(data);
});
