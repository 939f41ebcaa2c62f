//! How long a clock runs: leave as half-open intervals, the running time
//! between two moments, deadlines, time left and reminder times.

use crate::domain::time_control::DAY;
use chrono::{Datelike, NaiveDate, NaiveDateTime, TimeDelta};

/// A half-open stretch of time `[start, end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Interval {
    pub start: NaiveDateTime,
    pub end: NaiveDateTime,
}

impl Interval {
    /// Whole UTC days from `first` to `last`, both included.
    pub fn days(first: NaiveDate, last: NaiveDate) -> Interval {
        Interval {
            start: first.and_hms_opt(0, 0, 0).unwrap_or_default(),
            end: (last + TimeDelta::days(1))
                .and_hms_opt(0, 0, 0)
                .unwrap_or_default(),
        }
    }

    pub fn contains(&self, t: NaiveDateTime) -> bool {
        self.start <= t && t < self.end
    }

    fn secs(&self) -> i64 {
        (self.end - self.start).num_seconds()
    }
}

fn year_start(year: i32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(year, 1, 1)
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .unwrap_or_default()
}

/// Intervals sorted, with those that touch or overlap joined.
pub fn merge(mut v: Vec<Interval>) -> Vec<Interval> {
    v.retain(|i| i.end > i.start);
    v.sort();
    let mut out: Vec<Interval> = Vec::with_capacity(v.len());
    for i in v {
        match out.last_mut() {
            Some(last) if i.start <= last.end => last.end = last.end.max(i.end),
            _ => out.push(i),
        }
    }
    out
}

/// The leave that stops a clock: sorted and merged, and with a cap, only the
/// first `cap_days` days of leave in each calendar year (in date order).
pub fn effective_leave(leave: &[Interval], cap_days: Option<i32>) -> Vec<Interval> {
    let merged = merge(leave.to_vec());
    let Some(cap) = cap_days else {
        return merged;
    };
    let cap_secs = i64::from(cap.max(0)) * DAY;
    let mut out = Vec::new();
    let mut used: std::collections::HashMap<i32, i64> = std::collections::HashMap::new();
    for iv in merged {
        // Split at each New Year the interval crosses.
        let mut start = iv.start;
        while start < iv.end {
            let year = start.year();
            let piece_end = iv.end.min(year_start(year + 1));
            let spent = used.entry(year).or_insert(0);
            let allowed = (cap_secs - *spent).max(0);
            let take = (piece_end - start).num_seconds().min(allowed);
            if take > 0 {
                out.push(Interval {
                    start,
                    end: start + TimeDelta::seconds(take),
                });
                *spent += take;
            }
            start = piece_end;
        }
    }
    merge(out)
}

/// Seconds of `[from, to)` outside `leave` (as [`effective_leave`] gives it).
pub fn running_secs(from: NaiveDateTime, to: NaiveDateTime, leave: &[Interval]) -> i64 {
    if to <= from {
        return 0;
    }
    let mut total = (to - from).num_seconds();
    for iv in leave {
        let s = iv.start.max(from);
        let e = iv.end.min(to);
        if e > s {
            total -= (e - s).num_seconds();
        }
    }
    total
}

/// When a clock started at `from` with `bank` seconds runs out, the clock
/// stopping during `leave` (as [`effective_leave`] gives it).
pub fn deadline(from: NaiveDateTime, bank: i64, leave: &[Interval]) -> NaiveDateTime {
    let mut t = from;
    let mut remaining = bank.max(0);
    for iv in leave {
        if iv.end <= t {
            continue;
        }
        if iv.start > t {
            let gap = (iv.start - t).num_seconds();
            if gap >= remaining {
                break;
            }
            remaining -= gap;
        }
        t = iv.end;
    }
    t + TimeDelta::seconds(remaining)
}

/// The time left at `now` on a clock that started at `from` with `bank`
/// seconds (negative once it has run out).
pub fn time_left(from: NaiveDateTime, bank: i64, now: NaiveDateTime, leave: &[Interval]) -> i64 {
    bank - running_secs(from, now, leave)
}

/// How much time left triggers the reminder for a turn that began with
/// `turn_bank`: below 20 % or below 24 hours, whichever comes first, but
/// never sooner than half the turn (so a one-day bank is not reminded at
/// once).
pub fn reminder_threshold(turn_bank: i64) -> i64 {
    (turn_bank / 5).max(DAY).min(turn_bank / 2)
}

/// Days of each calendar year covered by whole UTC days `first..=last`.
pub fn days_per_year(first: NaiveDate, last: NaiveDate) -> Vec<(i32, i64)> {
    let mut out: Vec<(i32, i64)> = Vec::new();
    let mut d = first;
    while d <= last {
        let year_end = NaiveDate::from_ymd_opt(d.year(), 12, 31).unwrap_or(d);
        let until = last.min(year_end);
        out.push((d.year(), (until - d).num_days() + 1));
        match until.succ_opt() {
            Some(n) => d = n,
            None => break,
        }
    }
    out
}

/// Total seconds of a set of leave intervals.
pub fn leave_secs(leave: &[Interval]) -> i64 {
    leave.iter().map(Interval::secs).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::time_control::HOUR;

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    fn t(y: i32, m: u32, d: u32, h: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(y, m, d)
            .unwrap()
            .and_hms_opt(h, 0, 0)
            .unwrap()
    }

    #[test]
    fn clock_without_leave() {
        let from = t(2026, 3, 1, 12);
        assert_eq!(deadline(from, 3 * DAY, &[]), t(2026, 3, 4, 12));
        assert_eq!(time_left(from, 3 * DAY, t(2026, 3, 2, 12), &[]), 2 * DAY);
        assert_eq!(time_left(from, 3 * DAY, t(2026, 3, 5, 12), &[]), -DAY);
        assert_eq!(running_secs(from, from, &[]), 0);
        assert_eq!(running_secs(t(2026, 3, 2, 0), from, &[]), 0);
    }

    #[test]
    fn leave_stops_the_clock() {
        let from = t(2026, 3, 1, 12);
        // Leave on 2 and 3 March (whole days), wholly inside the turn.
        let leave = effective_leave(&[Interval::days(day(2026, 3, 2), day(2026, 3, 3))], None);
        assert_eq!(deadline(from, 3 * DAY, &leave), t(2026, 3, 6, 12));
        // At noon on 3 March only the first 12 hours have run.
        assert_eq!(
            time_left(from, 3 * DAY, t(2026, 3, 3, 12), &leave),
            3 * DAY - 12 * HOUR
        );
        // Leave that began before the turn and ends in the middle of it.
        let leave = effective_leave(&[Interval::days(day(2026, 2, 27), day(2026, 3, 1))], None);
        assert_eq!(deadline(from, 3 * DAY, &leave), t(2026, 3, 5, 0));
        assert_eq!(time_left(from, 3 * DAY, t(2026, 3, 2, 0), &leave), 3 * DAY);
        // Leave starting in the middle of the turn, running past the old deadline.
        let leave = effective_leave(&[Interval::days(day(2026, 3, 3), day(2026, 3, 9))], None);
        assert_eq!(deadline(from, 3 * DAY, &leave), t(2026, 3, 11, 12));
        assert_eq!(
            time_left(from, 3 * DAY, t(2026, 3, 8, 0), &leave),
            3 * DAY - 36 * HOUR
        );
        // Leave after the deadline changes nothing.
        let leave = effective_leave(&[Interval::days(day(2026, 3, 10), day(2026, 3, 12))], None);
        assert_eq!(deadline(from, 3 * DAY, &leave), t(2026, 3, 4, 12));
        // Two stretches, overlapping bookings merged.
        let leave = effective_leave(
            &[
                Interval::days(day(2026, 3, 2), day(2026, 3, 2)),
                Interval::days(day(2026, 3, 4), day(2026, 3, 5)),
                Interval::days(day(2026, 3, 5), day(2026, 3, 5)),
            ],
            None,
        );
        assert_eq!(leave.len(), 2);
        assert_eq!(deadline(from, 3 * DAY, &leave), t(2026, 3, 7, 12));
    }

    #[test]
    fn capped_leave_counts_only_the_first_days_of_each_year() {
        // 10 days of leave, capped at 4 per year: only 1 to 4 June count.
        let booked = [Interval::days(day(2026, 6, 1), day(2026, 6, 10))];
        let leave = effective_leave(&booked, Some(4));
        assert_eq!(
            leave,
            vec![Interval::days(day(2026, 6, 1), day(2026, 6, 4))]
        );
        let from = t(2026, 5, 31, 0);
        assert_eq!(deadline(from, 3 * DAY, &leave), t(2026, 6, 7, 0));
        // Earlier leave that year uses the cap up first.
        let booked = [
            Interval::days(day(2026, 2, 1), day(2026, 2, 3)),
            Interval::days(day(2026, 6, 1), day(2026, 6, 10)),
        ];
        let leave = effective_leave(&booked, Some(4));
        assert_eq!(leave_secs(&leave), 4 * DAY);
        assert_eq!(leave[1], Interval::days(day(2026, 6, 1), day(2026, 6, 1)));
        // A cap of 0: leave does not stop this game's clock.
        assert!(effective_leave(&booked, Some(0)).is_empty());
    }

    #[test]
    fn capped_leave_starts_afresh_each_year() {
        // 28 Dec to 6 Jan, cap 2: 28-29 Dec and 1-2 Jan count.
        let booked = [Interval::days(day(2026, 12, 28), day(2027, 1, 6))];
        let leave = effective_leave(&booked, Some(2));
        assert_eq!(
            leave,
            vec![
                Interval::days(day(2026, 12, 28), day(2026, 12, 29)),
                Interval::days(day(2027, 1, 1), day(2027, 1, 2)),
            ]
        );
        let from = t(2026, 12, 27, 0);
        // 1 day before leave, 2 stopped, 30-31 Dec run (2 days), then 2 stopped.
        assert_eq!(deadline(from, 4 * DAY, &leave), t(2027, 1, 4, 0));
        // Uncapped, the clock stops for all ten days.
        let leave = effective_leave(&booked, None);
        assert_eq!(deadline(from, 4 * DAY, &leave), t(2027, 1, 10, 0));
        assert_eq!(
            days_per_year(day(2026, 12, 28), day(2027, 1, 6)),
            vec![(2026, 4), (2027, 6)]
        );
    }

    #[test]
    fn reminders_come_at_20_percent_or_24_hours() {
        // 50 days: 20 % (10 days) comes first.
        assert_eq!(reminder_threshold(50 * DAY), 10 * DAY);
        // 3 days: 24 hours comes first.
        assert_eq!(reminder_threshold(3 * DAY), DAY);
        // 1 day: not at once, at half time.
        assert_eq!(reminder_threshold(DAY), 12 * HOUR);
    }
}
