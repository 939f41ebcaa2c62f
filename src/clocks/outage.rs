//! Outage compensation: the clock worker's heartbeat in the database, and
//! the one move of every running clock after the service was down longer
//! than the grace period (`MISSIVE_OUTAGE_GRACE_MINS`).

use crate::db::game_events;
use crate::db::games::GameRow;
use crate::db::schema::{clock_heartbeat, games};
use crate::db::{per_backend, DbConn};
use crate::domain::error::Error;
use crate::domain::game_event::EventKind;
use crate::domain::game_state::{GameStatus, Side};
use crate::domain::time_control::utc_minute;
use chrono::{NaiveDateTime, TimeDelta};
use diesel::prelude::*;

/// The heartbeat's one row.
const BEAT: i32 = 1;

/// An outage found and made good by this call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outage {
    /// The last beat before the gap.
    pub since: NaiveDateTime,
    /// The gap, in seconds.
    pub secs: i64,
    /// Games whose running clock moved on.
    pub games: usize,
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

/// Beat the heartbeat at `now`. When the last beat is older than `grace`,
/// the service was down: every running clock's deadline moves on by the
/// length of the outage (for a turn begun during it, by the part of the
/// turn it took), once, whichever process notices first: the beat moves
/// by a conditional UPDATE on the beat read, in the transaction that moves
/// the clocks, so of two processes one moves them and the other's UPDATE
/// finds nothing.
pub fn check(
    conn: &mut DbConn,
    now: NaiveDateTime,
    grace: TimeDelta,
) -> Result<Option<Outage>, Error> {
    let beat: Option<NaiveDateTime> = clock_heartbeat::table
        .find(BEAT)
        .select(clock_heartbeat::beat_at)
        .first(conn)
        .optional()?;
    let Some(beat) = beat else {
        // The first beat: nothing to compare with.
        per_backend!(conn, |c| diesel::insert_into(clock_heartbeat::table)
            .values((
                clock_heartbeat::id.eq(BEAT),
                clock_heartbeat::beat_at.eq(now)
            ))
            .on_conflict_do_nothing()
            .execute(c))?;
        return Ok(None);
    };
    if now - beat <= grace {
        diesel::update(
            clock_heartbeat::table
                .filter(clock_heartbeat::id.eq(BEAT))
                .filter(clock_heartbeat::beat_at.lt(now)),
        )
        .set(clock_heartbeat::beat_at.eq(now))
        .execute(conn)?;
        return Ok(None);
    }
    let gap = (now - beat).num_seconds();
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        let n = diesel::update(
            clock_heartbeat::table
                .filter(clock_heartbeat::id.eq(BEAT))
                .filter(clock_heartbeat::beat_at.eq(beat)),
        )
        .set(clock_heartbeat::beat_at.eq(now))
        .execute(conn)?;
        if n == 0 {
            // Another process noticed it first.
            return Ok(None);
        }
        let games = extend_running_clocks(conn, beat, gap, now)?;
        Ok(Some(Outage {
            since: beat,
            secs: gap,
            games,
        }))
    })
}

/// Move every running clock on by the part of `[since, since + gap)` its
/// turn has run through, and record it in each game's history.
fn extend_running_clocks(
    conn: &mut DbConn,
    since: NaiveDateTime,
    gap: i64,
    now: NaiveDateTime,
) -> Result<usize, Error> {
    let running: Vec<GameRow> = games::table
        .filter(games::status.eq(GameStatus::Active.code()))
        .filter(games::time_control.is_not_null())
        .filter(games::turn_started_at.is_not_null())
        .select(GameRow::as_select())
        .load(conn)?;
    let mut moved = 0;
    for row in running {
        let Some(started) = row.turn_started_at else {
            continue;
        };
        let secs = (now - started.max(since)).num_seconds().clamp(0, gap);
        if secs == 0 {
            continue;
        }
        let by = TimeDelta::seconds(secs);
        let later = |t: Option<NaiveDateTime>| t.map(|t| t + by);
        let target = games::table
            .filter(games::id.eq(row.id))
            .filter(games::ply.eq(row.ply))
            .filter(games::status.eq(GameStatus::Active.code()));
        let common = (
            games::clock_deadline.eq(later(row.clock_deadline)),
            games::clock_remind_at.eq(later(row.clock_remind_at)),
            games::claim_until.eq(later(row.claim_until)),
        );
        let n = match row.turn {
            Side::Black => diesel::update(target)
                .set((
                    common,
                    games::black_clock_secs.eq(row.black_clock_secs.map(|b| b + secs)),
                ))
                .execute(conn)?,
            Side::White => diesel::update(target)
                .set((
                    common,
                    games::white_clock_secs.eq(row.white_clock_secs.map(|b| b + secs)),
                ))
                .execute(conn)?,
        };
        if n == 1 {
            game_events::record(
                conn,
                row.id,
                None,
                EventKind::Outage,
                &format!(
                    "clocks extended by {} after a service outage on {}",
                    hours_minutes(secs),
                    utc_minute(since)
                ),
                now,
            )?;
            moved += 1;
        }
    }
    Ok(moved)
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
