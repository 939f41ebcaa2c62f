//! The login throttle's rows: per key, the failures counted and when the
//! next attempt may be claimed.

use crate::db::schema::login_throttles;
use crate::db::{per_backend, DbConn};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::{Text, Timestamp};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The attempt may go on; it is the `failures`-th on the key (counted
    /// as a failure until the password proves right).
    Granted { failures: i32 },
    /// A delay is in force until then.
    Refused { not_before: NaiveDateTime },
}

// The one statement that both checks the delay and counts the attempt, so
// two attempts can never both see the same count. `not_before` is the start
// of the key's count or the end of its last delay: a whole window after it,
// the count starts again at one. When a delay is in force the WHERE leaves
// the row alone and nothing is counted.
const CLAIM: &str = "INSERT INTO login_throttles (key, failures, not_before) VALUES ($1, 1, $2) \
     ON CONFLICT (key) DO UPDATE SET \
     failures = CASE WHEN login_throttles.not_before < $3 THEN 1 \
     ELSE login_throttles.failures + 1 END, \
     not_before = CASE WHEN login_throttles.not_before < $3 THEN $2 \
     ELSE login_throttles.not_before END \
     WHERE login_throttles.not_before <= $2";

/// Claim one attempt on `key` at `now`; failures before `forget_before`
/// with no delay since are forgotten.
pub fn claim(
    conn: &mut DbConn,
    key: &str,
    now: NaiveDateTime,
    forget_before: NaiveDateTime,
) -> QueryResult<Claim> {
    let counted = per_backend!(conn, |c| diesel::sql_query(CLAIM)
        .bind::<Text, _>(key)
        .bind::<Timestamp, _>(now)
        .bind::<Timestamp, _>(forget_before)
        .execute(c))?;
    let (failures, not_before) = per_backend!(conn, |c| login_throttles::table
        .find(key)
        .select((login_throttles::failures, login_throttles::not_before))
        .first::<(i32, NaiveDateTime)>(c))?;
    Ok(if counted == 0 {
        Claim::Refused { not_before }
    } else {
        Claim::Granted { failures }
    })
}

/// No attempt on `key` before `until`.
pub fn delay(conn: &mut DbConn, key: &str, until: NaiveDateTime) -> QueryResult<()> {
    per_backend!(conn, |c| diesel::update(login_throttles::table.find(key))
        .set(login_throttles::not_before.eq(until))
        .execute(c))?;
    Ok(())
}

/// Forget `key`'s failures and delay.
pub fn forget(conn: &mut DbConn, key: &str) -> QueryResult<()> {
    per_backend!(conn, |c| diesel::delete(login_throttles::table.find(key))
        .execute(c))?;
    Ok(())
}

/// Take back one failure counted on `key` (the password was right).
pub fn refund(conn: &mut DbConn, key: &str) -> QueryResult<()> {
    per_backend!(conn, |c| diesel::update(
        login_throttles::table
            .find(key)
            .filter(login_throttles::failures.gt(0))
    )
    .set(login_throttles::failures.eq(login_throttles::failures - 1))
    .execute(c))?;
    Ok(())
}

/// Forget keys quiet since before `before` (run at start-up).
pub fn prune(conn: &mut DbConn, before: NaiveDateTime) -> QueryResult<usize> {
    per_backend!(conn, |c| diesel::delete(
        login_throttles::table.filter(login_throttles::not_before.lt(before))
    )
    .execute(c))
}
