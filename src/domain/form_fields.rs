//! Reading a form's text fields: whole numbers in a range, dates and
//! date-times (UTC), time controls. Tournaments and team matches read their
//! creation forms with these.

use crate::domain::error::Error;
use crate::util::clip;
use chrono::{NaiveDate, NaiveDateTime};

/// A date (`2026-12-01`) or a date-time (`2026-12-01T18:00`, `2026-12-01
/// 18:00:00`, optional `Z`), UTC. A bare date is the start of that day, or,
/// when `end_of_day`, the end of it (the next midnight).
pub fn parse_when(raw: &str, end_of_day: bool) -> Option<NaiveDateTime> {
    let s = raw.trim().trim_end_matches('Z').trim_end_matches('z');
    if let Ok(d) = NaiveDate::parse_from_str(s, "%Y-%m-%d") {
        let d = if end_of_day { d.succ_opt()? } else { d };
        return d.and_hms_opt(0, 0, 0);
    }
    for f in [
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%dT%H:%M:%S",
        "%Y-%m-%d %H:%M",
        "%Y-%m-%d %H:%M:%S",
    ] {
        if let Ok(t) = NaiveDateTime::parse_from_str(s, f) {
            return Some(t);
        }
    }
    None
}

/// A whole number within `range` (both ends included), named `what` in the
/// message; `default` when the field is empty.
pub fn int_field(raw: &str, what: &str, default: i32, range: (i32, i32)) -> Result<i32, Error> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(default);
    }
    let n: i32 = raw.parse().map_err(|_| {
        Error::Invalid(format!(
            "The {what} must be a whole number (not “{}”).",
            clip(raw, 20)
        ))
    })?;
    if n < range.0 || n > range.1 {
        return Err(Error::Invalid(format!(
            "The {what} must be between {} and {}.",
            range.0, range.1
        )));
    }
    Ok(n)
}

/// The time control as stored: its canonical text, or `None` for no clock.
pub fn parse_time_control(raw: &str) -> Result<Option<String>, Error> {
    let raw = raw.trim();
    let tc = crate::domain::time_control::parse_optional(raw).map_err(|e| {
        Error::Invalid(format!(
            "The time control “{}” cannot be used: {e}",
            clip(raw, 40)
        ))
    })?;
    Ok(tc.map(|tc| tc.to_string()))
}
