#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| missive_rules_fuzz::move_parser(data));
