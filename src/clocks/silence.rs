//! The silence rule (tournament setting `silence_days`): a player to move
//! who makes no move for that many days (leave excepted) while time remains
//! is warned at half the period and three days before its end, the
//! tournament's director is told, and at its end the game is lost with
//! reason `silence`.

use crate::clocks::state::{booked_leave, mover_clock};
use crate::db::game_events;
use crate::db::games::GameRow;
use crate::db::outbox;
use crate::db::schema::{games, tournaments};
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_event::EventKind;
use crate::domain::game_state::{EndReason, GameResult, GameStatus, Side};
use crate::domain::mail_kind::{ClockNotice, Mail};
use crate::domain::running_time::{deadline, effective_leave};
use crate::domain::time_control::{utc_minute, DAY};
use crate::game::finish;
use chrono::{NaiveDateTime, TimeDelta};
use diesel::prelude::*;

/// The shortest and longest silence period a tournament may set, in days.
pub const SILENCE_DAYS_RANGE: (i32, i32) = (2, 365);

/// The last warning comes this long before the end of the period.
const LAST_WARNING_BEFORE: i64 = 3 * DAY;

/// What one silence sweep did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Silences {
    pub warnings: usize,
    pub losses: usize,
}

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
pub fn silence_times(
    from: NaiveDateTime,
    days: i32,
    leave: &[crate::domain::running_time::Interval],
) -> SilenceTimes {
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

/// Games looked at per sweep.
const BATCH: i64 = crate::clocks::state::SWEEP_BATCH;

/// Warn the silent and end the games whose silence period is over. Each
/// warning and each loss is one conditional UPDATE, so several sweepers
/// may run at once.
pub fn sweep(conn: &mut DbConn, now: NaiveDateTime) -> Result<Silences, Error> {
    // Leave only delays a silence, so no game is due before half the
    // shortest period has run since its turn began.
    let earliest = now - TimeDelta::seconds(i64::from(SILENCE_DAYS_RANGE.0) * DAY / 2);
    let due: Vec<GameRow> = games::table
        .filter(games::status.eq(GameStatus::Active.code()))
        .filter(games::silence_days.is_not_null())
        .filter(games::turn_started_at.le(earliest))
        .order(games::turn_started_at.asc())
        .limit(BATCH)
        .select(GameRow::as_select())
        .load(conn)?;
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
        Some(t) => tournaments::table
            .find(t)
            .select(tournaments::director_id)
            .first(conn)
            .optional()?,
        None => None,
    };
    let warned = crate::db::write_transaction::<_, Error>(conn, |conn| {
        let n = diesel::update(
            games::table
                .filter(games::id.eq(row.id))
                .filter(games::status.eq(GameStatus::Active.code()))
                .filter(games::ply.eq(row.ply))
                .filter(
                    games::silence_ply
                        .is_null()
                        .or(games::silence_ply.ne(row.ply))
                        .or(games::silence_stage.lt(target)),
                ),
        )
        .set((
            games::silence_ply.eq(Some(row.ply)),
            games::silence_stage.eq(target),
        ))
        .execute(conn)?;
        if n == 0 {
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

#[cfg(test)]
mod tests {
    use super::*;

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
        let leave = effective_leave(
            &[crate::domain::running_time::Interval::days(
                t(3, 0).date(),
                t(3, 0).date(),
            )],
            None,
        );
        assert_eq!(silence_times(t(1, 12), 14, &leave).end, t(16, 12));
    }
}
