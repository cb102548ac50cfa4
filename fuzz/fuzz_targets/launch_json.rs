#![no_main]
//! Fuzz target `launch_json`: see ksem_fuzz_targets::Target.

use ksem_fuzz_targets::Target;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    Target::from_name("launch_json")
        .expect("a known target")
        .run(data);
});
