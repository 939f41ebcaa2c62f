//! Clock arithmetic, pure: no database, no system clock. Every function takes
//! the times it needs, so tests control time.
//!
//! A time control is a bank of time per player, spent only while it is that
//! player's turn and they are not on leave. After each move the bank gets the
//! increment, the schedule credit (every N moves of that player, D more), and
//! is then capped at the maximum. "D per move" is bank D + D per move, max D:
//! the bank is back to D after every move.
//!
//! Canonical text (what forms send and the database keeps):
//!
//! | text                  | meaning                                    |
//! |-----------------------|--------------------------------------------|
//! | `3d/move`             | 3 days per move                            |
//! | `30d +1d/move`        | 30 days, plus 1 day per move               |
//! | `50d +50d/10moves`    | 50 days, plus 50 days every 10 moves       |
//! | `7d +1d/move max 10d` | 7 days, plus 1 day per move, at most 10    |
//! | `none`                | no clock (see [`parse_optional`])          |
//!
//! Durations are written with `d`, `h`, `m`, `s` units, largest first
//! (`1d12h`).

use chrono::{Datelike, NaiveDateTime, Timelike};
use std::fmt;
use std::str::FromStr;

pub const MINUTE: i64 = 60;
pub const HOUR: i64 = 3600;
pub const DAY: i64 = 86_400;

/// Shortest bank, increment or schedule credit accepted.
const MIN_PERIOD: i64 = MINUTE;
/// Longest duration accepted anywhere in a control.
const MAX_PERIOD: i64 = 3650 * DAY;
/// Most moves in an "N moves in D" schedule.
const MAX_SCHEDULE_MOVES: u32 = 500;

/// The text of "no clock" on forms.
pub const NO_CLOCK: &str = "none";
/// The form's default choice.
pub const DEFAULT_PRESET: &str = "3d/move";

/// "Every `moves` moves, `secs` more" (ICCF style, cumulative).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub moves: u32,
    pub secs: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Each player's bank when the game starts.
    pub initial_secs: i64,
    /// Added to the mover's bank after each move.
    pub increment_secs: i64,
    pub schedule: Option<Schedule>,
    /// The bank never exceeds this after a move.
    pub max_secs: Option<i64>,
}

/// The form's choices: (form value = canonical text, label).
pub fn presets() -> &'static [(&'static str, &'static str)] {
    &[
        ("1d/move", "1 day per move"),
        ("2d/move", "2 days per move"),
        ("3d/move", "3 days per move"),
        ("5d/move", "5 days per move"),
        ("7d/move", "7 days per move"),
        ("14d/move", "14 days per move"),
        ("50d +50d/10moves", "10 moves in 50 days"),
        ("30d +1d/move", "30 days + 1 day per move"),
        (NO_CLOCK, "No clock"),
    ]
}

impl TimeControl {
    /// "`secs` per move": bank, increment and maximum all `secs`.
    pub fn per_move(secs: i64) -> TimeControl {
        TimeControl {
            initial_secs: secs,
            increment_secs: secs,
            schedule: None,
            max_secs: Some(secs),
        }
    }

    /// Whether this is a "D per move" control.
    pub fn is_per_move(&self) -> bool {
        self.schedule.is_none()
            && self.increment_secs == self.initial_secs
            && self.max_secs == Some(self.initial_secs)
    }

    /// The mover's bank after a move that took `used` seconds of running
    /// time, `moves_done` being how many moves they have made counting this
    /// one. The caller checks first that the time had not run out.
    pub fn after_move(&self, bank: i64, used: i64, moves_done: u32) -> i64 {
        let mut b = bank - used.max(0) + self.increment_secs;
        if let Some(s) = self.schedule {
            if s.moves > 0 && moves_done > 0 && moves_done.is_multiple_of(s.moves) {
                b += s.secs;
            }
        }
        if let Some(m) = self.max_secs {
            b = b.min(m);
        }
        b
    }

    /// A description for people ("3 days per move").
    pub fn label(&self) -> String {
        let text = self.to_string();
        if let Some((_, label)) = presets().iter().find(|(v, _)| *v == text) {
            return (*label).to_string();
        }
        if self.is_per_move() {
            return format!("{} per move", describe(self.initial_secs));
        }
        let mut s = describe(self.initial_secs);
        if self.increment_secs > 0 {
            s.push_str(&format!(" + {} per move", describe(self.increment_secs)));
        }
        if let Some(sc) = self.schedule {
            s.push_str(&format!(
                " + {} every {} moves",
                describe(sc.secs),
                sc.moves
            ));
        }
        if let Some(m) = self.max_secs {
            s.push_str(&format!(", at most {}", describe(m)));
        }
        s
    }

    /// The PGN `TimeControl` tag: the standard forms where they say exactly
    /// the same thing (`moves/seconds`, `seconds+increment`), else the
    /// canonical text.
    pub fn pgn_tag(&self) -> String {
        match (self.schedule, self.max_secs) {
            (None, None) if self.increment_secs > 0 => {
                format!("{}+{}", self.initial_secs, self.increment_secs)
            }
            (None, None) => self.initial_secs.to_string(),
            (Some(s), None) if self.increment_secs == 0 && s.secs == self.initial_secs => {
                format!("{}/{}", s.moves, s.secs)
            }
            _ => self.to_string(),
        }
    }
}

/// A duration in the canonical unit form (`1d12h`, `90s` is `1m30s`).
pub fn format_duration(secs: i64) -> String {
    if secs <= 0 {
        return "0s".into();
    }
    let mut out = String::new();
    let mut left = secs;
    for (unit, size) in [("d", DAY), ("h", HOUR), ("m", MINUTE), ("s", 1)] {
        let n = left / size;
        if n > 0 {
            out.push_str(&format!("{n}{unit}"));
            left -= n * size;
        }
    }
    out
}

/// Read `1d12h`, `90m`, `3d`: digits followed by a unit, repeated.
pub fn parse_duration(text: &str) -> Result<i64, String> {
    let bad = || {
        format!(
            "“{}” is not a duration: write a number and a unit, d (days), h, m or s, like 3d or 1d12h.",
            crate::util::clip(text, 30)
        )
    };
    if text.is_empty() {
        return Err(bad());
    }
    let mut total: i64 = 0;
    let mut digits = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            if digits.len() > 7 {
                return Err(bad());
            }
            continue;
        }
        let size = match c {
            'd' => DAY,
            'h' => HOUR,
            'm' => MINUTE,
            's' => 1,
            _ => return Err(bad()),
        };
        let n: i64 = digits.parse().map_err(|_| bad())?;
        digits.clear();
        total = total.checked_add(n * size).ok_or_else(bad)?;
    }
    if !digits.is_empty() {
        return Err(bad());
    }
    Ok(total)
}

fn check_period(what: &str, secs: i64, min: i64) -> Result<i64, String> {
    if secs < min {
        return Err(format!(
            "The {what} is too short (at least {}).",
            format_duration(min)
        ));
    }
    if secs > MAX_PERIOD {
        return Err(format!(
            "The {what} is too long (at most {} days).",
            MAX_PERIOD / DAY
        ));
    }
    Ok(secs)
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_per_move() {
            return write!(f, "{}/move", format_duration(self.initial_secs));
        }
        write!(f, "{}", format_duration(self.initial_secs))?;
        if self.increment_secs > 0 {
            write!(f, " +{}/move", format_duration(self.increment_secs))?;
        }
        if let Some(s) = self.schedule {
            write!(f, " +{}/{}moves", format_duration(s.secs), s.moves)?;
        }
        if let Some(m) = self.max_secs {
            write!(f, " max {}", format_duration(m))?;
        }
        Ok(())
    }
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<TimeControl, String> {
        let lower = text.trim().to_ascii_lowercase();
        if lower.is_empty() {
            return Err("Choose a time control.".into());
        }
        if lower.len() > 80 {
            return Err("That time control is far too long.".into());
        }
        if lower == NO_CLOCK {
            return Err("“none” means no clock: there is no time control to read.".into());
        }
        // `+` may be written with or without spaces around it.
        let spaced = lower.replace('+', " +");
        let mut tokens: Vec<String> = Vec::new();
        let mut pending_plus = false;
        for t in spaced.split_whitespace() {
            if t == "+" {
                pending_plus = true;
                continue;
            }
            if pending_plus && !t.starts_with('+') {
                tokens.push(format!("+{t}"));
            } else {
                tokens.push(t.to_string());
            }
            pending_plus = false;
        }
        if pending_plus {
            return Err("The time control ends with a “+”: say what is added.".into());
        }
        let mut it = tokens.iter();
        let first = it.next().ok_or("Choose a time control.")?;
        if let Some(d) = first.strip_suffix("/move") {
            if tokens.len() == 1 {
                let secs = check_period("time per move", parse_duration(d)?, MIN_PERIOD)?;
                return Ok(TimeControl::per_move(secs));
            }
        }
        let initial = check_period("initial time", parse_duration(first)?, MIN_PERIOD)?;
        let mut tc = TimeControl {
            initial_secs: initial,
            increment_secs: 0,
            schedule: None,
            max_secs: None,
        };
        let mut seen_inc = false;
        while let Some(t) = it.next() {
            if t == "max" {
                let d = it
                    .next()
                    .ok_or("“max” must be followed by a duration, like max 60d.")?;
                if tc.max_secs.is_some() {
                    return Err("The maximum is given twice.".into());
                }
                tc.max_secs = Some(check_period("maximum", parse_duration(d)?, MIN_PERIOD)?);
                continue;
            }
            let Some(rest) = t.strip_prefix('+') else {
                return Err(format!(
                    "“{}” is not understood: after the initial time come +D/move, +D/Nmoves or max D.",
                    crate::util::clip(t, 30)
                ));
            };
            let (d, per) = rest.split_once('/').ok_or_else(|| {
                format!(
                    "“{}” must say per what: +1d/move or +50d/10moves.",
                    crate::util::clip(t, 30)
                )
            })?;
            let secs = parse_duration(d)?;
            if per == "move" {
                if seen_inc {
                    return Err("The increment is given twice.".into());
                }
                seen_inc = true;
                tc.increment_secs = check_period("increment", secs, 1)?;
            } else {
                let n = per.strip_suffix("moves").unwrap_or(per);
                let moves: u32 = n
                    .parse()
                    .ok()
                    .filter(|m| (1..=MAX_SCHEDULE_MOVES).contains(m))
                    .ok_or_else(|| {
                        format!(
                            "“{}”: the number of moves must be between 1 and {MAX_SCHEDULE_MOVES}, like +50d/10moves.",
                            crate::util::clip(t, 30)
                        )
                    })?;
                if tc.schedule.is_some() {
                    return Err("The N-moves schedule is given twice.".into());
                }
                tc.schedule = Some(Schedule {
                    moves,
                    secs: check_period("scheduled time", secs, MIN_PERIOD)?,
                });
            }
        }
        if let Some(m) = tc.max_secs {
            if m < tc.initial_secs {
                return Err("The maximum cannot be less than the initial time.".into());
            }
        }
        Ok(tc)
    }
}

/// A form's time control: `none` (or empty) is no clock.
pub fn parse_optional(text: &str) -> Result<Option<TimeControl>, String> {
    let t = text.trim();
    if t.is_empty() || t.eq_ignore_ascii_case(NO_CLOCK) || t.eq_ignore_ascii_case("no clock") {
        return Ok(None);
    }
    t.parse().map(Some)
}

/// "2026-03-04 12:00 UTC": how pages and mails give a moment. Written by
/// hand: chrono's `format` reads its pattern anew on every call
/// (docs/performance.md).
pub fn utc_minute(t: NaiveDateTime) -> String {
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02} UTC",
        t.year(),
        t.month(),
        t.day(),
        t.hour(),
        t.minute()
    )
}

/// A duration for people: "2 days 3 hours", "5 hours 10 minutes", "45 seconds".
pub fn describe(secs: i64) -> String {
    if secs <= 0 {
        return "no time".into();
    }
    let parts = [
        (secs / DAY, "day"),
        ((secs % DAY) / HOUR, "hour"),
        ((secs % HOUR) / MINUTE, "minute"),
        (secs % MINUTE, "second"),
    ];
    let words: Vec<String> = parts
        .iter()
        .filter(|(n, _)| *n > 0)
        .take(2)
        .map(|(n, u)| format!("{n} {u}{}", if *n == 1 { "" } else { "s" }))
        .collect();
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    #[test]
    fn utc_minute_writes_what_chrono_s_pattern_wrote() {
        for (y, mo, d, h, mi, s) in [
            (2026, 3, 4, 12, 0, 0),
            (999, 1, 9, 0, 5, 59),
            (2100, 12, 31, 23, 59, 30),
        ] {
            let t = NaiveDate::from_ymd_opt(y, mo, d)
                .unwrap()
                .and_hms_opt(h, mi, s)
                .unwrap();
            assert_eq!(utc_minute(t), t.format("%Y-%m-%d %H:%M UTC").to_string());
        }
    }

    #[test]
    fn presets_are_canonical_and_round_trip() {
        for (value, label) in presets() {
            match parse_optional(value).unwrap() {
                None => assert_eq!(*value, NO_CLOCK),
                Some(tc) => {
                    assert_eq!(tc.to_string(), *value, "{label}");
                    assert_eq!(tc.label(), *label);
                    assert_eq!(value.parse::<TimeControl>().unwrap(), tc);
                }
            }
        }
        assert!(presets().iter().any(|(v, _)| *v == DEFAULT_PRESET));
    }

    #[test]
    fn each_kind_of_control_reads_and_writes() {
        let tc: TimeControl = "3d/move".parse().unwrap();
        assert_eq!(tc, TimeControl::per_move(3 * DAY));
        let tc: TimeControl = "30d +1d/move".parse().unwrap();
        assert_eq!(
            tc,
            TimeControl {
                initial_secs: 30 * DAY,
                increment_secs: DAY,
                schedule: None,
                max_secs: None
            }
        );
        let tc: TimeControl = "50d +50d/10moves".parse().unwrap();
        assert_eq!(
            tc.schedule,
            Some(Schedule {
                moves: 10,
                secs: 50 * DAY
            })
        );
        // Spacing and case are free; the canonical form is not.
        let tc: TimeControl = " 7D+1d/move   MAX 10d ".parse().unwrap();
        assert_eq!(tc.to_string(), "7d +1d/move max 10d");
        assert_eq!(tc.max_secs, Some(10 * DAY));
        // The long way of writing "3 days per move" is that control.
        let tc: TimeControl = "3d + 3d/move max 3d".parse().unwrap();
        assert_eq!(tc.to_string(), "3d/move");
        let tc: TimeControl = "1d12h +90m/move +2d/5moves".parse().unwrap();
        assert_eq!(tc.to_string(), "1d12h +1h30m/move +2d/5moves");
        assert_eq!(tc.to_string().parse::<TimeControl>().unwrap(), tc);
        assert_eq!(parse_optional("none").unwrap(), None);
        assert_eq!(parse_optional("").unwrap(), None);
    }

    #[test]
    fn bad_controls_say_why() {
        for bad in [
            "",
            "soon",
            "3x/move",
            "0d/move",
            "30s",
            "5d +",
            "5d +1d",
            "5d +1d/0moves",
            "5d +1d/move +2d/move",
            "5d max",
            "5d max 1d",
            "99999999d",
            "5000d",
            "5d 6d",
            "none",
        ] {
            let e = bad.parse::<TimeControl>().unwrap_err();
            assert!(!e.is_empty(), "{bad}");
        }
        assert!(parse_optional("5d +1d").is_err());
    }

    #[test]
    fn days_per_move_resets_each_move() {
        let tc = TimeControl::per_move(3 * DAY);
        // Used a day: back to three.
        assert_eq!(tc.after_move(3 * DAY, DAY, 1), 3 * DAY);
        // Used almost all of it: back to three.
        assert_eq!(tc.after_move(3 * DAY, 3 * DAY - 1, 2), 3 * DAY);
        // Instant move: still three, never more.
        assert_eq!(tc.after_move(3 * DAY, 0, 3), 3 * DAY);
    }

    #[test]
    fn increments_accumulate_without_a_cap() {
        let tc: TimeControl = "30d +1d/move".parse().unwrap();
        let mut bank = tc.initial_secs;
        for n in 1..=5 {
            bank = tc.after_move(bank, 0, n);
        }
        assert_eq!(bank, 35 * DAY);
        assert_eq!(tc.after_move(30 * DAY, 10 * DAY, 1), 21 * DAY);
    }

    #[test]
    fn the_maximum_caps_the_bank() {
        let tc: TimeControl = "7d +1d/move max 10d".parse().unwrap();
        let mut bank = tc.initial_secs;
        for n in 1..=5 {
            bank = tc.after_move(bank, 0, n);
        }
        assert_eq!(bank, 10 * DAY);
        assert_eq!(tc.after_move(10 * DAY, 4 * DAY, 6), 7 * DAY);
    }

    #[test]
    fn n_moves_in_d_days_is_cumulative() {
        let tc: TimeControl = "50d +50d/10moves".parse().unwrap();
        let mut bank = tc.initial_secs;
        // Nine moves taking 4 days each: 14 days left, no credit yet.
        for n in 1..=9 {
            bank = tc.after_move(bank, 4 * DAY, n);
        }
        assert_eq!(bank, 14 * DAY);
        // The tenth move earns 50 days more; what was saved is kept.
        bank = tc.after_move(bank, 4 * DAY, 10);
        assert_eq!(bank, 60 * DAY);
        // Nothing again until move 20.
        bank = tc.after_move(bank, 0, 11);
        assert_eq!(bank, 60 * DAY);
        for n in 12..=20 {
            bank = tc.after_move(bank, DAY, n);
        }
        assert_eq!(bank, 60 * DAY - 9 * DAY + 50 * DAY);
    }

    #[test]
    fn pgn_tags() {
        assert_eq!(
            "30d +1d/move".parse::<TimeControl>().unwrap().pgn_tag(),
            "2592000+86400"
        );
        assert_eq!(
            "50d +50d/10moves".parse::<TimeControl>().unwrap().pgn_tag(),
            "10/4320000"
        );
        assert_eq!(
            "3d/move".parse::<TimeControl>().unwrap().pgn_tag(),
            "3d/move"
        );
    }

    #[test]
    fn durations_in_words() {
        assert_eq!(describe(2 * DAY + 3 * HOUR + 5), "2 days 3 hours");
        assert_eq!(describe(HOUR + MINUTE), "1 hour 1 minute");
        assert_eq!(describe(-5), "no time");
        assert_eq!(format_duration(DAY + 30 * MINUTE), "1d30m");
        assert_eq!(parse_duration("1d30m").unwrap(), DAY + 30 * MINUTE);
    }
}
