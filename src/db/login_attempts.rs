//! Passwords checked (`login_attempts`): one row per check.

use crate::db::schema::login_attempts;
use crate::db::DbConn;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// Note a password checked for the name `key` from `ip`.
pub fn record(
    conn: &mut DbConn,
    key: &str,
    ip: &str,
    success: bool,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::insert_into(login_attempts::table)
        .values((
            login_attempts::username_key.eq(key),
            login_attempts::ip.eq(ip),
            login_attempts::success.eq(success),
            login_attempts::attempted_at.eq(now),
        ))
        .execute(conn)
}

/// Delete the attempts made before `before`.
pub fn delete_before(conn: &mut DbConn, before: NaiveDateTime) -> QueryResult<usize> {
    diesel::delete(login_attempts::table.filter(login_attempts::attempted_at.lt(before)))
        .execute(conn)
}

/// Forget the attempts on the name `key` (the account is deleted).
pub fn erase_for(conn: &mut DbConn, key: &str) -> QueryResult<usize> {
    diesel::delete(login_attempts::table.filter(login_attempts::username_key.eq(key))).execute(conn)
}
