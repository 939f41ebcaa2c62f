//! Time zones and "weekends free", pure: which stretches of UTC time are a
//! player's Saturday and Sunday, and a moment as a player reads it in their
//! own zone. The zone database is chrono-tz's (the IANA one), so a weekend
//! that holds a daylight-saving change is 47 or 49 hours long, as the
//! player lives it.

use crate::domain::running_time::Interval;
use crate::domain::time_control::DAY;
use chrono::{Datelike, NaiveDate, NaiveDateTime, TimeDelta, TimeZone, Timelike, Weekday};
use chrono_tz::Tz;

/// The zone of a player who has not chosen one.
pub const DEFAULT_ZONE: &str = "UTC";

/// The longest zone name accepted (the IANA names are under 40 characters).
const ZONE_NAME_MAX: usize = 64;

/// A stored or typed zone name as a zone: exact IANA names ("Europe/Berlin",
/// "UTC"), in any letter case.
pub fn parse_zone(text: &str) -> Result<Tz, String> {
    let name = text.trim();
    if name.is_empty() {
        return Err("Choose a time zone, like Europe/Berlin or America/New_York.".into());
    }
    if name.len() > ZONE_NAME_MAX {
        return Err("That is far too long to be a time zone name.".into());
    }
    name.parse::<Tz>()
        .ok()
        .or_else(|| {
            chrono_tz::TZ_VARIANTS
                .iter()
                .copied()
                .find(|z| z.name().eq_ignore_ascii_case(name))
        })
        .ok_or_else(|| {
            format!(
                "“{}” is not a time zone Missive knows: write an IANA name, like Europe/Berlin, America/New_York or UTC.",
                crate::util::clip(name, 40)
            )
        })
}

/// The zone a stored name stands for; a name no longer known (the database
/// has lost it) counts as UTC rather than stopping the player's games.
pub fn zone_or_utc(stored: &str) -> Tz {
    parse_zone(stored).unwrap_or(Tz::UTC)
}

/// Every zone name, for the settings form's suggestions.
pub fn zone_names() -> impl Iterator<Item = &'static str> {
    chrono_tz::TZ_VARIANTS.iter().map(|z| z.name())
}

/// The UTC moment at which `date` begins in `zone`. Where the zone skips
/// midnight (a daylight-saving change at 00:00), the day begins at the
/// first local time that exists; where midnight comes twice, at the first.
fn day_start(zone: Tz, date: NaiveDate) -> NaiveDateTime {
    let mut local = date.and_hms_opt(0, 0, 0).unwrap_or_default();
    // No zone skips more than a few hours; 24 quarter hours is plenty.
    for _ in 0..24 {
        if let Some(t) = zone.from_local_datetime(&local).earliest() {
            return t.naive_utc();
        }
        local += TimeDelta::minutes(15);
    }
    // Unreachable with the IANA data; UTC midnight keeps the clock sane.
    date.and_hms_opt(0, 0, 0).unwrap_or_default()
}

/// The Saturdays and Sundays in `zone`, as UTC intervals, of every weekend
/// that overlaps `[from, until)`.
pub fn weekends(zone: Tz, from: NaiveDateTime, until: NaiveDateTime) -> Vec<Interval> {
    let mut out = Vec::new();
    if until <= from {
        return out;
    }
    let local_date = zone.from_utc_datetime(&from).date_naive();
    // The Saturday on or before the local date: a clock started on a
    // Sunday is inside that weekend.
    let back = (local_date.weekday().num_days_from_monday() + 2) % 7;
    let mut saturday = local_date - TimeDelta::days(i64::from(back));
    loop {
        let start = day_start(zone, saturday);
        if start >= until {
            break;
        }
        let end = day_start(zone, saturday + TimeDelta::days(2));
        if end > from {
            out.push(Interval { start, end });
        }
        saturday += TimeDelta::days(7);
    }
    out
}

/// The stretches during which a mover's clock stands: their leave (as
/// [`effective_leave`](crate::domain::running_time::effective_leave) gives
/// it) and, with weekends free, every weekend in their zone from `from`
/// until the clock's `bank` must have run out, sorted and merged.
pub fn stops(
    leave: &[Interval],
    weekends_free: Option<Tz>,
    from: NaiveDateTime,
    bank: i64,
) -> Vec<Interval> {
    let Some(zone) = weekends_free else {
        return leave.to_vec();
    };
    // Running time over a stretch of L is at least 5/7 L, less one weekend
    // cut in two, less the leave: this horizon leaves more than `bank` of
    // it, so no weekend before the deadline is missed.
    let leave_total: i64 = leave
        .iter()
        .filter(|i| i.end > from)
        .map(|i| (i.end - i.start.max(from)).num_seconds())
        .sum();
    let span = (bank.max(0) + leave_total) / 5 * 7 + 4 * DAY;
    let until = from + TimeDelta::seconds(span.min(20 * 365 * DAY));
    let mut all = leave.to_vec();
    all.extend(weekends(zone, from, until));
    crate::domain::running_time::merge(all)
}

/// "2026-03-10 15:00 EDT (America/New_York)": a moment in the reader's
/// zone, the zone named. UTC stays "2026-03-10 19:00 UTC". Written by hand
/// for the reason [`utc_minute`](crate::domain::time_control::utc_minute) is.
pub fn local_minute(t: NaiveDateTime, zone: Tz) -> String {
    if zone == Tz::UTC {
        return crate::domain::time_control::utc_minute(t);
    }
    let local = zone.from_utc_datetime(&t);
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02} {} ({})",
        local.year(),
        local.month(),
        local.day(),
        local.hour(),
        local.minute(),
        local.format("%Z"),
        zone.name()
    )
}

/// Whether `t` falls on a Saturday or Sunday in `zone`.
pub fn is_weekend(t: NaiveDateTime, zone: Tz) -> bool {
    matches!(
        zone.from_utc_datetime(&t).weekday(),
        Weekday::Sat | Weekday::Sun
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::running_time::{deadline, running_secs};
    use crate::domain::time_control::HOUR;

    fn t(m: u32, d: u32, h: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2026, m, d)
            .unwrap()
            .and_hms_opt(h, 0, 0)
            .unwrap()
    }

    #[test]
    fn zones_are_read_by_their_iana_names() {
        assert_eq!(parse_zone("Europe/Berlin").unwrap(), Tz::Europe__Berlin);
        assert_eq!(
            parse_zone(" america/new_york ").unwrap(),
            Tz::America__New_York
        );
        assert_eq!(parse_zone("UTC").unwrap(), Tz::UTC);
        assert!(parse_zone("Mars/Olympus").is_err());
        assert!(parse_zone("").is_err());
        assert!(parse_zone(&"x".repeat(200)).is_err());
        assert_eq!(zone_or_utc("nowhere"), Tz::UTC);
        assert!(zone_names().any(|n| n == "Asia/Kolkata"));
    }

    #[test]
    fn a_weekend_with_a_daylight_saving_change_is_47_hours() {
        // Berlin goes to summer time on Sunday 29 March 2026.
        let w = weekends(Tz::Europe__Berlin, t(3, 27, 12), t(3, 28, 12));
        assert_eq!(
            w,
            vec![Interval {
                start: t(3, 27, 23),
                end: t(3, 29, 22)
            }]
        );
        // New York a fortnight earlier, on 8 March.
        let w = weekends(
            Tz::America__New_York,
            t(3, 6, 20),
            t(3, 7, 0) + TimeDelta::hours(6),
        );
        assert_eq!(
            w,
            vec![Interval {
                start: t(3, 7, 5),
                end: t(3, 9, 4)
            }]
        );
        // And back in autumn: 49 hours.
        let w = weekends(Tz::Europe__Berlin, t(10, 23, 12), t(10, 24, 12));
        assert_eq!((w[0].end - w[0].start).num_hours(), 49);
    }

    #[test]
    fn a_clock_started_on_a_sunday_waits_for_monday() {
        let w = weekends(Tz::UTC, t(3, 8, 10), t(3, 9, 10));
        assert_eq!(
            w[0],
            Interval {
                start: t(3, 7, 0),
                end: t(3, 9, 0)
            }
        );
        let s = stops(&[], Some(Tz::UTC), t(3, 8, 10), DAY);
        assert_eq!(deadline(t(3, 8, 10), DAY, &s), t(3, 10, 0));
    }

    #[test]
    fn weekday_time_only_counts_in_the_movers_zone() {
        // Two days from Thursday 10:00 UTC in Berlin: 37 hours to Friday
        // midnight (23:00 UTC), then 11 more from Monday 00:00 CEST.
        let from = t(3, 26, 10);
        let s = stops(&[], Some(Tz::Europe__Berlin), from, 2 * DAY);
        assert_eq!(deadline(from, 2 * DAY, &s), t(3, 30, 9));
        assert_eq!(running_secs(from, t(3, 30, 8), &s), 47 * HOUR);
        // Leave on the Monday adds to the weekend.
        let leave = crate::domain::running_time::effective_leave(
            &[Interval::days(
                NaiveDate::from_ymd_opt(2026, 3, 30).unwrap(),
                NaiveDate::from_ymd_opt(2026, 3, 30).unwrap(),
            )],
            None,
        );
        // Leave days are UTC days (as they were before weekends): the two
        // hours from Monday 00:00 CEST to 00:00 UTC still count, so 9 hours
        // remain from Tuesday 00:00 UTC.
        let s = stops(&leave, Some(Tz::Europe__Berlin), from, 2 * DAY);
        assert_eq!(deadline(from, 2 * DAY, &s), t(3, 31, 9));
        // Without weekends free, only the leave.
        assert_eq!(stops(&leave, None, from, 2 * DAY), leave);
    }

    #[test]
    fn long_banks_see_every_weekend() {
        // 50 days of weekday time from a Monday: ten weeks.
        let from = t(1, 5, 0);
        let s = stops(&[], Some(Tz::UTC), from, 50 * DAY);
        // The tenth week's weekday time runs out as its weekend begins.
        assert_eq!(deadline(from, 50 * DAY, &s), t(3, 14, 0));
    }

    #[test]
    fn moments_in_the_readers_zone() {
        assert_eq!(
            local_minute(t(3, 10, 19), Tz::America__New_York),
            "2026-03-10 15:00 EDT (America/New_York)"
        );
        assert_eq!(
            local_minute(t(3, 10, 19), Tz::Europe__Berlin),
            "2026-03-10 20:00 CET (Europe/Berlin)"
        );
        assert_eq!(local_minute(t(3, 10, 19), Tz::UTC), "2026-03-10 19:00 UTC");
        assert!(is_weekend(t(3, 7, 12), Tz::UTC));
        assert!(!is_weekend(t(3, 6, 23), Tz::UTC));
        assert!(is_weekend(t(3, 6, 23), Tz::Europe__Berlin));
    }
}
