//! Rated games between the same two players count at most
//! [`RATED_GAMES_PER_PAIR_DAY`] a day: two accounts of one person cannot
//! farm a rating by playing each other over and over.

use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::RATED_GAMES_PER_PAIR_DAY;
use chrono::{Duration, NaiveDateTime};

/// Whether `a` and `b` may start one more rated game at `now`: fewer than
/// the day's allowance of rated games between them accepted in the last 24
/// hours. Call it in the transaction that starts the game, after
/// [`lock_pair`], so two games started at once cannot both take the last one.
pub fn may_start_rated(
    conn: &mut DbConn,
    a: i32,
    b: i32,
    now: NaiveDateTime,
) -> Result<bool, Error> {
    let since = now - Duration::days(1);
    let started = crate::db::ratings::rated_between_since(conn, a, b, since)?;
    Ok(started < RATED_GAMES_PER_PAIR_DAY)
}

/// Hold both players' rows (in id order, so two such transactions never
/// wait on each other) until the transaction ends.
pub fn lock_pair(conn: &mut DbConn, a: i32, b: i32) -> Result<(), Error> {
    crate::db::user_lock::lock_user(conn, a.min(b))?;
    crate::db::user_lock::lock_user(conn, a.max(b))?;
    Ok(())
}
