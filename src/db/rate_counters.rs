//! Fixed-window counters kept in the database, so that every process on
//! one database counts against the same limit.

use crate::db::schema::rate_counters;
use crate::db::{per_backend, DbConn};
use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;
use diesel::sql_types::{Text, Timestamp};

/// How many events `key` has seen in its current window, this one included,
/// and when that window started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counted {
    pub count: i32,
    pub window_start: NaiveDateTime,
}

// The upsert takes the row's lock (PostgreSQL) or the database's write lock
// (SQLite) until the transaction ends, so the count read back after it is
// this event's own place in the window however many run at once. A window
// that has passed starts again at this event.
const COUNT_ONE: &str = "INSERT INTO rate_counters (key, window_start, count) VALUES ($1, $2, 1) \
     ON CONFLICT (key) DO UPDATE SET \
     count = CASE WHEN rate_counters.window_start <= $3 THEN 1 ELSE rate_counters.count + 1 END, \
     window_start = CASE WHEN rate_counters.window_start <= $3 THEN $2 \
     ELSE rate_counters.window_start END";

/// Count one event on `key` in windows of `window`.
pub fn count_one(
    conn: &mut DbConn,
    key: &str,
    window: Duration,
    now: NaiveDateTime,
) -> QueryResult<Counted> {
    crate::db::in_transaction(conn, |conn| {
        per_backend!(conn, |c| diesel::sql_query(COUNT_ONE)
            .bind::<Text, _>(key)
            .bind::<Timestamp, _>(now)
            .bind::<Timestamp, _>(now - window)
            .execute(c))?;
        let (count, window_start) = per_backend!(conn, |c| rate_counters::table
            .find(key)
            .select((rate_counters::count, rate_counters::window_start))
            .first::<(i32, NaiveDateTime)>(c))?;
        Ok(Counted {
            count,
            window_start,
        })
    })
}

/// Take back one event counted on `key` (it did not happen after all).
pub fn uncount_one(conn: &mut DbConn, key: &str) -> QueryResult<()> {
    per_backend!(conn, |c| diesel::update(
        rate_counters::table
            .find(key)
            .filter(rate_counters::count.gt(0))
    )
    .set(rate_counters::count.eq(rate_counters::count - 1))
    .execute(c))?;
    Ok(())
}

/// Forget windows that ended before `before` (run at start-up).
pub fn prune(conn: &mut DbConn, before: NaiveDateTime) -> QueryResult<usize> {
    per_backend!(conn, |c| diesel::delete(
        rate_counters::table.filter(rate_counters::window_start.lt(before))
    )
    .execute(c))
}
