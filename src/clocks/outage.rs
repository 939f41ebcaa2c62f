//! Outage compensation: the clock worker's heartbeat in the database, and
//! the one move of every running clock after the service was down longer
//! than the grace period (`MISSIVE_OUTAGE_GRACE_MINS`).

use crate::db::game_events;
use crate::db::{clock_heartbeat, game_clocks, DbConn};
use crate::domain::clock::hours_minutes;
use crate::domain::error::Error;
use crate::domain::game_event::EventKind;
use crate::domain::time_control::utc_minute;
use chrono::{NaiveDateTime, TimeDelta};

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
    let Some(beat) = clock_heartbeat::last(conn)? else {
        // The first beat: nothing to compare with.
        clock_heartbeat::first(conn, now)?;
        return Ok(None);
    };
    if now - beat <= grace {
        clock_heartbeat::beat(conn, now)?;
        return Ok(None);
    }
    let gap = (now - beat).num_seconds();
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        if !clock_heartbeat::move_on(conn, beat, now)? {
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
    let running = game_clocks::running_clocks(conn)?;
    let mut moved = 0;
    for row in running {
        let Some(started) = row.turn_started_at else {
            continue;
        };
        let secs = (now - started.max(since)).num_seconds().clamp(0, gap);
        if secs == 0 {
            continue;
        }
        if game_clocks::extend_turn(conn, &row, secs)? {
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
