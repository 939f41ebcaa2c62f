#![no_main]
//! `missive mail-in`'s reading of a message (MIME by mail-parser, the
//! recipients counted, the instruction in the reply's own text): any bytes
//! give a reply or `None`, never a panic.

use missive::mail_in::reading::{instruction, own_lines, read_message};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Some(reply) = read_message(data) {
        let _ = own_lines(&reply.text);
        let _ = instruction(&reply.text);
    }
});
