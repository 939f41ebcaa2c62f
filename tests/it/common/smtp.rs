//! Test helpers for mail: the SMTP sink, and reading what it received.

#![allow(dead_code)]

#[allow(unused_imports)]
pub use super::smtp_sink::{free_port, SmtpSink};

/// Undo quoted-printable (soft breaks and `=XX`).
pub fn decode_qp(s: &str) -> String {
    let s = s.replace("=\r\n", "").replace("=\n", "");
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'=' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The message with quoted-printable undone where a part uses it (good
/// enough to search for text and links).
pub fn readable(raw: &str) -> String {
    let split = raw.find("\r\n\r\n").unwrap_or(0);
    let (head, body) = raw.split_at(split);
    if body.contains("quoted-printable") {
        format!("{head}{}", decode_qp(body))
    } else {
        raw.to_string()
    }
}
