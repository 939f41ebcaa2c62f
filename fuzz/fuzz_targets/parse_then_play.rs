#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| missive_rules_fuzz::parse_then_play(data));
