//! Each side's time as it stands: the game's time control, the mover's
//! clock with their booked leave and weekends, and the game's clocks for
//! its page. The arithmetic is `domain::clock`'s; this reads the leave and
//! time zones it needs.

use crate::db::games::{self, GameRow};
use crate::db::leave::{booked_leave, booked_leave_of_players};
use crate::db::reminder_prefs;
use crate::db::users::zone_of;
use crate::db::DbConn;
use crate::domain::clock::{GameClock, MoverClock, SideClock};
use crate::domain::error::Error;
use crate::domain::game_state::GameStatus;
use crate::domain::running_time::Interval;
use crate::domain::time_control::TimeControl;
use chrono::NaiveDateTime;
use chrono_tz::Tz;
use missive_rules::Color;

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

/// The zone whose weekends stop the mover's clock in `row`: read only for
/// a game with weekends free (UTC, unused, for the others).
fn weekend_zone(conn: &mut DbConn, row: &GameRow, user_id: i32) -> Result<Tz, Error> {
    match row.weekends_free {
        true => zone_of(conn, user_id),
        false => Ok(Tz::UTC),
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
    Some(MoverClock::new(
        color,
        user_id,
        bank_of(row, color),
        started,
        booked,
        row.leave_cap_days,
        row.weekends_free.then_some(zone),
    ))
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
        booked_leave_of_players(conn, row.white_id, row.black_id)?
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

/// When the first reminder of `user_id`'s turn begun at `from` with `bank`
/// may be due, leave not counted (leave only puts it later): what the game
/// row keeps for the sweep to find it by. `None`: no reminder this turn.
pub fn first_at(
    conn: &mut DbConn,
    user_id: Option<i32>,
    from: NaiveDateTime,
    bank: i64,
) -> Result<Option<NaiveDateTime>, Error> {
    let thresholds = match user_id {
        Some(id) => reminder_prefs::of(conn, id)?,
        None => None,
    };
    Ok(crate::domain::reminders::due_at(
        thresholds.as_deref(),
        from,
        bank,
        &[],
        0,
    ))
}
