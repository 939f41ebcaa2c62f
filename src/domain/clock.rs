//! A game's clocks as they stand, pure: each side's time, the mover's
//! clock with their leave and weekends, and the clock in words. Reading
//! the rows they come from is `game::clock`'s.

use crate::domain::running_time::Interval;
use crate::domain::time_control::{self as clock, TimeControl};
use chrono::NaiveDateTime;
use chrono_tz::Tz;
use missive_rules::Color;

/// One side's clock as it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideClock {
    /// Seconds left (0 once run out).
    pub left_secs: i64,
    /// This side's clock is running now (its turn, not on leave).
    pub running: bool,
    /// This side's player is on leave now.
    pub on_leave: bool,
    /// It is this side's turn, the game has weekends free and it is their
    /// weekend now: the clock stands.
    pub weekend: bool,
}

/// A game's clocks at some moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameClock {
    pub control: TimeControl,
    pub white: SideClock,
    pub black: SideClock,
    /// When the side to move runs out, leave counted (none once the game is over).
    pub deadline: Option<NaiveDateTime>,
    /// The side to move, while the game is in progress.
    pub to_move: Option<Color>,
    /// Saturdays and Sundays in the mover's zone do not count.
    pub weekends_free: bool,
}

impl GameClock {
    pub fn side(&self, c: Color) -> &SideClock {
        match c {
            Color::Black => &self.black,
            _ => &self.white,
        }
    }
}

/// Where the mover's clock stands: their leave, time left, and deadline.
pub struct MoverClock {
    pub color: Color,
    pub user_id: i32,
    pub bank: i64,
    pub started: NaiveDateTime,
    /// When the clock stands: the mover's leave and, in a game with
    /// weekends free, their weekends (sorted and merged).
    pub leave: Vec<Interval>,
    pub deadline: NaiveDateTime,
}

impl MoverClock {
    /// The clock of `user_id`, to move as `color` with `bank` seconds since
    /// `started`: their `booked` leave (capped at `leave_cap_days` a game)
    /// and, in a game with weekends free, the weekends of their zone stop it.
    pub fn new(
        color: Color,
        user_id: i32,
        bank: i64,
        started: NaiveDateTime,
        booked: &[Interval],
        leave_cap_days: Option<i32>,
        weekends: Option<Tz>,
    ) -> MoverClock {
        let leave = crate::domain::running_time::effective_leave(booked, leave_cap_days);
        let leave = crate::domain::week::stops(&leave, weekends, started, bank);
        let deadline = crate::domain::running_time::deadline(started, bank, &leave);
        MoverClock {
            color,
            user_id,
            bank,
            started,
            leave,
            deadline,
        }
    }
    pub fn left(&self, now: NaiveDateTime) -> i64 {
        crate::domain::running_time::time_left(self.started, self.bank, now, &self.leave)
    }
    pub fn flagged(&self, now: NaiveDateTime) -> bool {
        now >= self.deadline
    }
}

/// "2 days 3 hours left; deadline 2026-03-04 13:00 CET (Europe/Berlin)",
/// for pages and mails: the deadline in the reader's `zone`.
pub fn describe_for(clock: &GameClock, color: Color, zone: Tz) -> String {
    let side = clock.side(color);
    let mut s = format!("{} left", clock::describe(side.left_secs));
    if clock.to_move == Some(color) {
        if let Some(d) = clock.deadline {
            s.push_str(&format!(
                "; deadline {}",
                crate::domain::week::local_minute(d, zone)
            ));
        }
    }
    if side.on_leave {
        s.push_str(" (on leave: the clock is stopped)");
    } else if side.weekend {
        s.push_str(" (weekend: the clock is stopped)");
    }
    s
}

/// "3 h 12 min" (or "45 min"), for the outage note.
pub fn hours_minutes(secs: i64) -> String {
    let (h, m) = (secs / 3600, (secs % 3600) / 60);
    match (h, m) {
        (0, m) => format!("{m} min"),
        (h, 0) => format!("{h} h"),
        (h, m) => format!("{h} h {m} min"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outage_lengths_in_words() {
        assert_eq!(hours_minutes(3 * 3600 + 12 * 60 + 30), "3 h 12 min");
        assert_eq!(hours_minutes(45 * 60), "45 min");
        assert_eq!(hours_minutes(2 * 3600), "2 h");
    }
}
