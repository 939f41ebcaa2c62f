//! The silence rule (tournament setting `silence_days`): a player to move
//! who makes no move for that many days (leave excepted) while time remains
//! is warned at half the period and three days before its end, the
//! tournament's director is told, and at its end the game is lost with
//! reason `silence`.

use crate::db::game_events;
use crate::db::games::GameRow;
use crate::db::leave::booked_leave;
use crate::db::tournaments::director_of;
use crate::db::{game_clocks, outbox, DbConn};
use crate::domain::error::Error;
use crate::domain::game_event::EventKind;
use crate::domain::game_state::{EndReason, GameResult, Side};
use crate::domain::mail_kind::{ClockNotice, Mail};
use crate::domain::running_time::effective_leave;
use crate::domain::silence::{silence_times, SILENCE_DAYS_RANGE};
use crate::domain::time_control::{utc_minute, DAY};
use crate::game::clock::mover_clock;
use crate::game::finish;
use chrono::{NaiveDateTime, TimeDelta};

/// What one silence sweep did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Silences {
    pub warnings: usize,
    pub losses: usize,
}

/// Warn the silent and end the games whose silence period is over. Each
/// warning and each loss is one conditional UPDATE, so several sweepers
/// may run at once.
pub fn sweep(conn: &mut DbConn, now: NaiveDateTime) -> Result<Silences, Error> {
    // Leave only delays a silence, so no game is due before half the
    // shortest period has run since its turn began.
    let earliest = now - TimeDelta::seconds(i64::from(SILENCE_DAYS_RANGE.0) * DAY / 2);
    let due = game_clocks::silent_since(conn, earliest)?;
    let mut done = Silences::default();
    for row in due {
        match apply(conn, &row, now)? {
            Some(Step::Warned) => done.warnings += 1,
            Some(Step::Lost) => done.losses += 1,
            None => {}
        }
    }
    Ok(done)
}

enum Step {
    Warned,
    Lost,
}

/// The silence rule on one game at `now`.
fn apply(conn: &mut DbConn, row: &GameRow, now: NaiveDateTime) -> Result<Option<Step>, Error> {
    let (Some(days), Some(started), Some(mover)) = (
        row.silence_days,
        row.turn_started_at,
        crate::db::games::player_to_move(row),
    ) else {
        return Ok(None);
    };
    // A clock that has run out is the forfeit sweep's, not silence.
    if let Some(m) = mover_clock(conn, row)? {
        if m.flagged(now) {
            return Ok(None);
        }
    }
    let leave = effective_leave(&booked_leave(conn, mover)?, row.leave_cap_days);
    let times = silence_times(started, days, &leave);
    let stage = if row.silence_ply == Some(row.ply) {
        row.silence_stage
    } else {
        0
    };
    if now >= times.end {
        let loser = Side::from(row.turn.color());
        let result = GameResult::win_for(loser.opponent());
        let ended = crate::db::write_transaction::<_, Error>(conn, |conn| {
            finish::end_game(conn, row, result, EndReason::Silence, None, now)
        })?;
        return Ok(ended.then_some(Step::Lost));
    }
    let target = match times.last {
        Some(last) if now >= last && stage < 2 => 2,
        _ if now >= times.half && stage < 1 => 1,
        _ => return Ok(None),
    };
    let director: Option<i32> = match row.tournament_id {
        Some(t) => director_of(conn, t)?,
        None => None,
    };
    let warned = crate::db::write_transaction::<_, Error>(conn, |conn| {
        if !game_clocks::mark_silence_warned(conn, row, target)? {
            return Ok(false);
        }
        let end = utc_minute(times.end);
        let notice = |notice| Mail::ClockNotice {
            game: row.id,
            ply: row.ply,
            notice,
            about: Some(mover),
            detail: end.clone(),
        };
        outbox::enqueue(conn, mover, &notice(ClockNotice::SilenceWarning), now)?;
        if let Some(d) = director.filter(|d| *d != mover) {
            outbox::enqueue(conn, d, &notice(ClockNotice::SilenceReport), now)?;
        }
        let which = if target == 2 { "last" } else { "first" };
        game_events::record(
            conn,
            row.id,
            Some(mover),
            EventKind::SilenceWarning,
            &format!(
                "{which} silence warning: no move since {}; lost by silence on {end} without one",
                utc_minute(started)
            ),
            now,
        )?;
        Ok(true)
    })?;
    Ok(warned.then_some(Step::Warned))
}
