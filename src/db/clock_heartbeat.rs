//! The clock worker's heartbeat: one row, its last beat. Outage
//! compensation (`clocks::outage`) reads the gap since it.

use crate::db::schema::clock_heartbeat;
use crate::db::{per_backend, DbConn};
use crate::domain::error::Error;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// The heartbeat's one row.
const BEAT: i32 = 1;

/// The last beat (none before the first).
pub fn last(conn: &mut DbConn) -> Result<Option<NaiveDateTime>, Error> {
    Ok(clock_heartbeat::table
        .find(BEAT)
        .select(clock_heartbeat::beat_at)
        .first(conn)
        .optional()?)
}

/// The first beat, at `now` (another process's first beat stands).
pub fn first(conn: &mut DbConn, now: NaiveDateTime) -> Result<(), Error> {
    per_backend!(conn, |c| diesel::insert_into(clock_heartbeat::table)
        .values((
            clock_heartbeat::id.eq(BEAT),
            clock_heartbeat::beat_at.eq(now)
        ))
        .on_conflict_do_nothing()
        .execute(c))?;
    Ok(())
}

/// Beat at `now`, unless a later beat is stored.
pub fn beat(conn: &mut DbConn, now: NaiveDateTime) -> Result<(), Error> {
    diesel::update(
        clock_heartbeat::table
            .filter(clock_heartbeat::id.eq(BEAT))
            .filter(clock_heartbeat::beat_at.lt(now)),
    )
    .set(clock_heartbeat::beat_at.eq(now))
    .execute(conn)?;
    Ok(())
}

/// Move the beat from `was` to `now`; false when it was no longer `was`
/// (another process moved it first).
pub fn move_on(conn: &mut DbConn, was: NaiveDateTime, now: NaiveDateTime) -> Result<bool, Error> {
    let n = diesel::update(
        clock_heartbeat::table
            .filter(clock_heartbeat::id.eq(BEAT))
            .filter(clock_heartbeat::beat_at.eq(was)),
    )
    .set(clock_heartbeat::beat_at.eq(now))
    .execute(conn)?;
    Ok(n > 0)
}
