//! Logins' rows (`sessions`): each stored by its token's hash only.

use crate::db::schema::{mail_failures, sessions, users, verified_emails};
use crate::db::users::User;
use crate::db::{per_backend, DbConn};
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// A session's user, and whether their current address is confirmed: read
/// together, since every page says so when it is not.
pub struct SessionUser {
    pub user: User,
    pub email_verified: bool,
    /// The mail server refused the user's current address for good.
    pub email_failing: bool,
    /// When the session was last marked seen (`None`: before issue 36).
    pub last_seen_at: Option<NaiveDateTime>,
}

/// A session as `/settings` lists it: its hash, start, last seen and
/// `User-Agent`.
pub type SessionRow = (String, NaiveDateTime, Option<NaiveDateTime>, String);

/// Store a session for `user_id` under its token's hash.
pub fn insert(
    conn: &mut DbConn,
    hash: &str,
    user_id: i32,
    user_agent: &str,
    now: NaiveDateTime,
    expires_at: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::insert_into(sessions::table)
        .values((
            sessions::token_hash.eq(hash),
            sessions::user_id.eq(user_id),
            sessions::created_at.eq(now),
            sessions::expires_at.eq(expires_at),
            sessions::last_seen_at.eq(Some(now)),
            sessions::user_agent.eq(user_agent),
        ))
        .execute(conn)
}

/// The user of the unexpired session stored under `hash`, with their
/// address's standing. A disabled or deleted account's sessions are ended
/// when it is, and refused here too, so no session outlives the decision.
pub fn standing(
    conn: &mut DbConn,
    hash: &str,
    now: NaiveDateTime,
) -> QueryResult<Option<SessionUser>> {
    // The user, their confirmed address, a refused address, last seen.
    type Standing = (User, Option<String>, Option<String>, Option<NaiveDateTime>);
    let row: Option<Standing> = per_backend!(conn, |c| sessions::table
        .inner_join(users::table)
        .left_join(verified_emails::table.on(verified_emails::user_id.eq(users::id)))
        .left_join(mail_failures::table.on(mail_failures::user_id.eq(users::id)))
        .filter(sessions::token_hash.eq(hash))
        .filter(sessions::expires_at.gt(now))
        .filter(users::disabled_at.is_null())
        .filter(users::deleted_at.is_null())
        .select((
            User::as_select(),
            verified_emails::email.nullable(),
            mail_failures::email.nullable(),
            sessions::last_seen_at,
        ))
        .first(c)
        .optional())?;
    Ok(
        row.map(|(user, verified, failing, last_seen_at)| SessionUser {
            email_verified: verified.is_some_and(|v| v == user.email),
            // A refusal of an address the user has since changed is past.
            email_failing: failing.is_some_and(|f| f == user.email),
            user,
            last_seen_at,
        }),
    )
}

/// The unexpired sessions of a user.
pub fn of_user(
    conn: &mut DbConn,
    user_id: i32,
    now: NaiveDateTime,
) -> QueryResult<Vec<SessionRow>> {
    sessions::table
        .filter(sessions::user_id.eq(user_id))
        .filter(sessions::expires_at.gt(now))
        .select((
            sessions::token_hash,
            sessions::created_at,
            sessions::last_seen_at,
            sessions::user_agent,
        ))
        .load(conn)
}

/// End the session stored under `hash`.
pub fn delete(conn: &mut DbConn, hash: &str) -> QueryResult<usize> {
    diesel::delete(sessions::table.filter(sessions::token_hash.eq(hash))).execute(conn)
}

/// End every session of a user but the one stored under `keep_hash`.
pub fn end_others(conn: &mut DbConn, user_id: i32, keep_hash: &str) -> QueryResult<usize> {
    diesel::delete(
        sessions::table
            .filter(sessions::user_id.eq(user_id))
            .filter(sessions::token_hash.ne(keep_hash)),
    )
    .execute(conn)
}

/// End every session of a user.
pub fn end_all(conn: &mut DbConn, user_id: i32) -> QueryResult<usize> {
    diesel::delete(sessions::table.filter(sessions::user_id.eq(user_id))).execute(conn)
}

/// Mark the session stored under `hash` seen now.
pub fn touch(conn: &mut DbConn, hash: &str, now: NaiveDateTime) -> QueryResult<usize> {
    diesel::update(sessions::table.filter(sessions::token_hash.eq(hash)))
        .set(sessions::last_seen_at.eq(Some(now)))
        .execute(conn)
}

/// Delete the sessions expired by `now`.
pub fn delete_expired(conn: &mut DbConn, now: NaiveDateTime) -> QueryResult<usize> {
    diesel::delete(sessions::table.filter(sessions::expires_at.le(now))).execute(conn)
}
