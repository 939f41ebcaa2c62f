#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| missive_rules_fuzz::record_reader(data));
