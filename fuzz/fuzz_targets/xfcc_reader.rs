#![no_main]
//! The Xfcc service's reader of SOAP calls (issue 60: 4,000 nested
//! elements once overflowed the stack): any bytes read as text give a call
//! or a message, never a panic; whatever reads as a call names one of the
//! operations served.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match missive::web::routes::api::xfcc::read_call(&text) {
        Ok(call) => assert!(!format!("{call:?}").is_empty()),
        Err(why) => assert!(!why.is_empty()),
    }
});
