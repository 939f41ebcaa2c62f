//! The silence rule's times (tournament setting `silence_days`), pure: a
//! player to move who makes no move for that many days (leave excepted)
//! is warned at half the period and three days before its end, and loses
//! at its end. The sweep that applies it is `clocks::silence`.

use crate::domain::running_time::{deadline, Interval};
use crate::domain::time_control::DAY;
use chrono::NaiveDateTime;

/// The shortest and longest silence period a tournament may set, in days.
pub const SILENCE_DAYS_RANGE: (i32, i32) = (2, 365);

/// The last warning comes this long before the end of the period.
const LAST_WARNING_BEFORE: i64 = 3 * DAY;

/// When a turn's silence warnings and end fall, leave counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SilenceTimes {
    pub half: NaiveDateTime,
    /// Three days before the end; `None` when that is not after `half`
    /// (a period of six days or less has one warning).
    pub last: Option<NaiveDateTime>,
    pub end: NaiveDateTime,
}

/// The silence times of a turn begun at `from` under a rule of `days`.
pub fn silence_times(from: NaiveDateTime, days: i32, leave: &[Interval]) -> SilenceTimes {
    let period = i64::from(days) * DAY;
    let half = deadline(from, period / 2, leave);
    let last = (period - LAST_WARNING_BEFORE > period / 2)
        .then(|| deadline(from, period - LAST_WARNING_BEFORE, leave));
    SilenceTimes {
        half,
        last,
        end: deadline(from, period, leave),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::running_time::effective_leave;

    fn t(d: u32, h: u32) -> NaiveDateTime {
        chrono::NaiveDate::from_ymd_opt(2026, 3, d)
            .unwrap()
            .and_hms_opt(h, 0, 0)
            .unwrap()
    }

    #[test]
    fn warnings_at_half_and_three_days_before_the_end() {
        let s = silence_times(t(1, 12), 14, &[]);
        assert_eq!(s.half, t(8, 12));
        assert_eq!(s.last, Some(t(12, 12)));
        assert_eq!(s.end, t(15, 12));
        // Six days: three days before the end is half the period: one warning.
        let s = silence_times(t(1, 12), 6, &[]);
        assert_eq!((s.half, s.last, s.end), (t(4, 12), None, t(7, 12)));
        // Leave on 3 March stops the count.
        let leave = effective_leave(&[Interval::days(t(3, 0).date(), t(3, 0).date())], None);
        assert_eq!(silence_times(t(1, 12), 14, &leave).end, t(16, 12));
    }
}
