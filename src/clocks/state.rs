//! Each side's time as it stands: the game's time control, the booked leave
//! that stops the clock, the mover's clock, and the clock in words.

use crate::db::games::{self, GameRow};
use crate::db::schema::{leave_bookings, users};
use crate::db::{per_backend, DbConn};
use crate::domain::error::Error;
use crate::domain::game_state::GameStatus;
use crate::domain::running_time::Interval;
use crate::domain::time_control::{self as clock, TimeControl};
use chrono::{NaiveDate, NaiveDateTime};
use chrono_tz::Tz;
use diesel::prelude::*;
use missive_rules::Color;

/// Games a clock sweep (losses on time, claims, silence) looks at per
/// pass; the rest wait for the next one.
pub const SWEEP_BATCH: i64 = 200;

/// The game's time control, if it has a clock.
pub fn control_of(row: &GameRow) -> Result<Option<TimeControl>, Error> {
    match row.time_control.as_deref() {
        None => Ok(None),
        Some(text) => text.parse().map(Some).map_err(|e| {
            Error::internal(format!(
                "game {} has a bad time control {text:?}: {e}",
                row.id
            ))
        }),
    }
}

/// A side's stored bank.
pub fn bank_of(row: &GameRow, color: Color) -> i64 {
    match color {
        Color::Black => row.black_clock_secs,
        _ => row.white_clock_secs,
    }
    .unwrap_or(0)
}

/// Every leave booking of a user, as intervals.
pub fn booked_leave(conn: &mut DbConn, user_id: i32) -> Result<Vec<Interval>, Error> {
    // One user: an `=` that diesel keeps prepared (this is on the move and
    // game-page paths); `booked_leave_of`'s `IN` list is compiled each time.
    let rows: Vec<(NaiveDate, NaiveDate)> = per_backend!(conn, |c| leave_bookings::table
        .filter(leave_bookings::user_id.eq(user_id))
        .select((leave_bookings::start_date, leave_bookings::end_date))
        .load(c))?;
    Ok(rows
        .into_iter()
        .map(|(s, e)| Interval::days(s, e))
        .collect())
}

/// A player's time zone (UTC for one never set, or gone).
pub fn zone_of(conn: &mut DbConn, user_id: i32) -> Result<Tz, Error> {
    let name: Option<String> = per_backend!(conn, |c| users::table
        .find(user_id)
        .select(users::time_zone)
        .first(c)
        .optional())?;
    Ok(name.map_or(Tz::UTC, |n| crate::domain::week::zone_or_utc(&n)))
}

/// The time zones of several players in one query (those not found: none).
pub fn zones_of(
    conn: &mut DbConn,
    user_ids: &[i32],
) -> Result<std::collections::HashMap<i32, Tz>, Error> {
    let rows: Vec<(i32, String)> = users::table
        .filter(users::id.eq_any(user_ids))
        .select((users::id, users::time_zone))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(id, z)| (id, crate::domain::week::zone_or_utc(&z)))
        .collect())
}

/// The zone whose weekends stop the mover's clock in `row`: read only for
/// a game with weekends free (UTC, unused, for the others).
fn weekend_zone(conn: &mut DbConn, row: &GameRow, user_id: i32) -> Result<Tz, Error> {
    match row.weekends_free {
        true => zone_of(conn, user_id),
        false => Ok(Tz::UTC),
    }
}

/// The booked leave of several users in one query (users without any have
/// no entry).
pub fn booked_leave_of(
    conn: &mut DbConn,
    user_ids: &[i32],
) -> Result<std::collections::HashMap<i32, Vec<Interval>>, Error> {
    let rows: Vec<(i32, NaiveDate, NaiveDate)> = leave_bookings::table
        .filter(leave_bookings::user_id.eq_any(user_ids))
        .select((
            leave_bookings::user_id,
            leave_bookings::start_date,
            leave_bookings::end_date,
        ))
        .load(conn)?;
    let mut by_user = std::collections::HashMap::<i32, Vec<Interval>>::new();
    for (user, s, e) in rows {
        by_user.entry(user).or_default().push(Interval::days(s, e));
    }
    Ok(by_user)
}

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
    pub fn left(&self, now: NaiveDateTime) -> i64 {
        crate::domain::running_time::time_left(self.started, self.bank, now, &self.leave)
    }
    pub fn flagged(&self, now: NaiveDateTime) -> bool {
        now >= self.deadline
    }
}

/// The clock of the player to move in an active game with a clock.
pub fn mover_clock(conn: &mut DbConn, row: &GameRow) -> Result<Option<MoverClock>, Error> {
    let Some(user_id) = clocked_mover(row) else {
        return Ok(None);
    };
    let booked = booked_leave(conn, user_id)?;
    let zone = weekend_zone(conn, row, user_id)?;
    Ok(mover_clock_with(row, &booked, zone))
}

/// The player to move, in an active game with a running clock.
fn clocked_mover(row: &GameRow) -> Option<i32> {
    if row.status != GameStatus::Active
        || row.time_control.is_none()
        || row.turn_started_at.is_none()
    {
        return None;
    }
    games::player_to_move(row)
}

/// [`mover_clock`] given the mover's booked leave and time zone, read once
/// by a page that lists many of one player's games. The zone matters only
/// in a game with weekends free.
pub fn mover_clock_with(row: &GameRow, booked: &[Interval], zone: Tz) -> Option<MoverClock> {
    let user_id = clocked_mover(row)?;
    let (color, started) = (row.turn.color(), row.turn_started_at?);
    let leave = crate::domain::running_time::effective_leave(booked, row.leave_cap_days);
    let bank = bank_of(row, color);
    let weekends = row.weekends_free.then_some(zone);
    let leave = crate::domain::week::stops(&leave, weekends, started, bank);
    let deadline = crate::domain::running_time::deadline(started, bank, &leave);
    Some(MoverClock {
        color,
        user_id,
        bank,
        started,
        leave,
        deadline,
    })
}

/// The game's clocks at `now` (`None`: no clock, or a challenge not yet accepted).
pub fn view(
    conn: &mut DbConn,
    row: &GameRow,
    now: NaiveDateTime,
) -> Result<Option<GameClock>, Error> {
    let Some(control) = control_of(row)? else {
        return Ok(None);
    };
    if row.turn_started_at.is_none() {
        return Ok(None);
    }
    // Leave matters only while the game is in progress: the mover's stops
    // their clock, the other's is shown.
    let booked = if row.status == GameStatus::Active {
        booked_leave_of_players(conn, row)?
    } else {
        Default::default()
    };
    let of = |color: Color| match color {
        Color::Black => &booked[1],
        _ => &booked[0],
    };
    let zone = match (row.status, games::player_to_move(row)) {
        (GameStatus::Active, Some(mover)) => weekend_zone(conn, row, mover)?,
        _ => Tz::UTC,
    };
    let mover = mover_clock_with(row, of(row.turn.color()), zone);
    let side = |color: Color| -> SideClock {
        let on_leave = crate::domain::running_time::effective_leave(of(color), row.leave_cap_days)
            .iter()
            .any(|i| i.contains(now));
        let (left, running, weekend) = match &mover {
            Some(m) if m.color == color => {
                let weekend = row.weekends_free && crate::domain::week::is_weekend(now, zone);
                (m.left(now), !on_leave && !weekend, weekend)
            }
            _ => (bank_of(row, color), false, false),
        };
        SideClock {
            left_secs: left.max(0),
            running: running && left > 0,
            on_leave,
            weekend: weekend && left > 0,
        }
    };
    Ok(Some(GameClock {
        control,
        white: side(Color::White),
        black: side(Color::Black),
        deadline: mover.as_ref().map(|m| m.deadline),
        to_move: mover.as_ref().map(|m| m.color),
        weekends_free: row.weekends_free,
    }))
}

/// White's and Black's booked leave, in one statement of fixed shape (a
/// game page shows both; on PostgreSQL one round trip). An empty seat has
/// none.
fn booked_leave_of_players(conn: &mut DbConn, row: &GameRow) -> Result<[Vec<Interval>; 2], Error> {
    let (white, black) = match (row.white_id, row.black_id) {
        (Some(w), Some(b)) => (w, b),
        (w, b) => {
            let mut each = |id: Option<i32>| id.map_or(Ok(Vec::new()), |id| booked_leave(conn, id));
            return Ok([each(w)?, each(b)?]);
        }
    };
    // Two lookups in one statement: `user_id IN (?, ?)` (and an OR, which
    // SQLite turns into it) builds a temporary index of the list on every
    // run, which costs more than the lookups (docs/performance.md).
    let of = |user: i32| {
        leave_bookings::table
            .filter(leave_bookings::user_id.eq(user))
            .select((
                leave_bookings::user_id,
                leave_bookings::start_date,
                leave_bookings::end_date,
            ))
    };
    let rows: Vec<(i32, NaiveDate, NaiveDate)> =
        per_backend!(conn, |c| of(white).union_all(of(black)).load(c))?;
    let mut booked: [Vec<Interval>; 2] = Default::default();
    for (user, s, e) in rows {
        // A game against oneself is refused, so a row is one side's.
        let seat = if user == white { 0 } else { 1 };
        booked[seat].push(Interval::days(s, e));
    }
    Ok(booked)
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
