//! Reminders a player chooses: thresholds of time left (`50%, 24h, 4h`),
//! each sent once per move; none chosen, the one default reminder.

use crate::domain::running_time::{deadline, reminder_threshold, Interval};
use crate::domain::time_control::{self, HOUR};
use chrono::NaiveDateTime;

/// At most this many thresholds.
pub const MAX_THRESHOLDS: usize = 5;

/// One threshold of time left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threshold {
    /// This percentage of the bank the turn began with (1-99).
    Percent(u8),
    /// This many seconds.
    Secs(i64),
}

impl Threshold {
    /// Seconds left at which it is due, for a turn begun with `bank`.
    pub fn secs(self, bank: i64) -> i64 {
        match self {
            Threshold::Percent(p) => bank * i64::from(p) / 100,
            Threshold::Secs(s) => s,
        }
    }

    fn text(self) -> String {
        match self {
            Threshold::Percent(p) => format!("{p}%"),
            Threshold::Secs(s) if s % (24 * HOUR) == 0 => format!("{}d", s / (24 * HOUR)),
            Threshold::Secs(s) if s % HOUR == 0 => format!("{}h", s / HOUR),
            Threshold::Secs(s) => format!("{}m", s / 60),
        }
    }
}

/// A player's thresholds as the settings form writes them back.
pub fn describe(thresholds: &[Threshold]) -> String {
    thresholds
        .iter()
        .map(|t| t.text())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Read `50%, 24h, 4h` (commas or spaces between; percentages 1-99,
/// durations as time controls write them, 1 minute to 60 days). Empty:
/// `None`, the default reminder. The error says what is wrong.
pub fn parse(text: &str) -> Result<Option<Vec<Threshold>>, String> {
    let mut out = Vec::new();
    for part in text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
    {
        let shown = crate::util::clip(part, 20);
        let t = if let Some(p) = part.strip_suffix('%') {
            match p.parse::<u8>() {
                Ok(p) if (1..=99).contains(&p) => Threshold::Percent(p),
                _ => return Err(format!("“{shown}” is not a percentage from 1% to 99%.")),
            }
        } else {
            match time_control::parse_duration(part) {
                Ok(s) if (60..=60 * 24 * HOUR).contains(&s) => Threshold::Secs(s),
                Ok(_) => {
                    return Err(format!(
                        "“{shown}” is out of range: a reminder comes between 1 minute and 60 days before the deadline."
                    ))
                }
                Err(_) => {
                    return Err(format!(
                        "“{shown}” is neither a percentage (50%) nor a time (24h, 2d, 30m)."
                    ))
                }
            }
        };
        if !out.contains(&t) {
            out.push(t);
        }
    }
    if out.len() > MAX_THRESHOLDS {
        return Err(format!("At most {MAX_THRESHOLDS} reminders per move."));
    }
    Ok((!out.is_empty()).then_some(out))
}

/// The time left at which each reminder of a turn begun with `bank` is due,
/// the earliest (most time left) first; only those below the bank.
pub fn times_left(thresholds: Option<&[Threshold]>, bank: i64) -> Vec<i64> {
    let mut v: Vec<i64> = match thresholds {
        None => vec![reminder_threshold(bank)],
        Some(ts) => ts.iter().map(|t| t.secs(bank)).collect(),
    };
    v.retain(|s| *s > 0 && *s < bank);
    v.sort_unstable_by(|a, b| b.cmp(a));
    v.dedup();
    v
}

/// When the `sent`-th reminder (counting from 0) of a turn begun at `from`
/// with `bank` is due, leave counted; `None` when there is no such one.
pub fn due_at(
    thresholds: Option<&[Threshold]>,
    from: NaiveDateTime,
    bank: i64,
    leave: &[Interval],
    sent: usize,
) -> Option<NaiveDateTime> {
    times_left(thresholds, bank)
        .get(sent)
        .map(|left| deadline(from, bank - left, leave))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::time_control::DAY;

    #[test]
    fn thresholds_read_and_written_back() {
        let t = parse("50%, 24h, 4h").unwrap().unwrap();
        assert_eq!(
            t,
            vec![
                Threshold::Percent(50),
                Threshold::Secs(DAY),
                Threshold::Secs(4 * HOUR)
            ]
        );
        assert_eq!(describe(&t), "50%, 1d, 4h");
        assert_eq!(parse("  ").unwrap(), None);
        assert!(parse("150%").unwrap_err().contains("1% to 99%"));
        assert!(parse("soon").unwrap_err().contains("neither"));
        assert!(parse("1s").unwrap_err().contains("out of range"));
        assert!(parse("1h 2h 3h 4h 5h 6h").unwrap_err().contains("At most"));
    }

    #[test]
    fn the_default_reminder_comes_a_day_before_the_deadline_leave_counted() {
        use crate::domain::running_time::{effective_leave, Interval};
        let t = |d: u32| {
            chrono::NaiveDate::from_ymd_opt(2026, 3, d)
                .unwrap()
                .and_hms_opt(0, 0, 0)
                .unwrap()
        };
        let from = t(1);
        assert_eq!(due_at(None, from, 3 * DAY, &[], 0), Some(t(3)));
        let day = chrono::NaiveDate::from_ymd_opt(2026, 3, 2).unwrap();
        let leave = effective_leave(&[Interval::days(day, day)], None);
        assert_eq!(due_at(None, from, 3 * DAY, &leave, 0), Some(t(4)));
    }

    #[test]
    fn reminders_come_in_order_of_time_left() {
        let t = parse("4h 50% 24h").unwrap().unwrap();
        assert_eq!(
            times_left(Some(&t), 3 * DAY),
            vec![36 * HOUR, DAY, 4 * HOUR]
        );
        // The default: today's single reminder.
        assert_eq!(times_left(None, 3 * DAY), vec![DAY]);
        // A threshold at or above the bank is never due.
        assert_eq!(times_left(Some(&t), 12 * HOUR), vec![6 * HOUR, 4 * HOUR]);
        let from = chrono::NaiveDate::from_ymd_opt(2026, 3, 1)
            .unwrap()
            .and_hms_opt(0, 0, 0)
            .unwrap();
        assert_eq!(
            due_at(Some(&t), from, 3 * DAY, &[], 1),
            Some(from + chrono::TimeDelta::days(2))
        );
        assert_eq!(due_at(Some(&t), from, 3 * DAY, &[], 3), None);
    }
}
