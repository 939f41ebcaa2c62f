//! Mail policies (`mail_prefs`): per account, every mail, a daily digest or
//! none; an account without a row gets every mail.

use crate::db::schema::{mail_prefs, users, verified_emails};
use crate::db::{per_backend, DbConn};
use crate::domain::codes::Coded;
use crate::domain::mail_kind::MailPolicy;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// Store `policy` as the user's (call inside a transaction: a delete, then
/// an insert).
pub fn set(
    conn: &mut DbConn,
    user_id: i32,
    policy: MailPolicy,
    now: NaiveDateTime,
) -> QueryResult<()> {
    diesel::delete(mail_prefs::table.find(user_id)).execute(conn)?;
    diesel::insert_into(mail_prefs::table)
        .values((
            mail_prefs::user_id.eq(user_id),
            mail_prefs::policy.eq(policy.code()),
            mail_prefs::updated_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// Whether the user's current address is verified, and their mail policy
/// (`every` unless they chose otherwise), in one query, as
/// [`enqueue`](crate::db::outbox::enqueue) reads them: the mail settings
/// page shows both.
pub fn standing_of(conn: &mut DbConn, user_id: i32) -> QueryResult<(bool, MailPolicy)> {
    let row: Option<(String, Option<String>, Option<String>)> =
        per_backend!(conn, |c| users::table
            .left_join(verified_emails::table.on(verified_emails::user_id.eq(users::id)))
            .left_join(mail_prefs::table.on(mail_prefs::user_id.eq(users::id)))
            .filter(users::id.eq(user_id))
            .select((
                users::email,
                verified_emails::email.nullable(),
                mail_prefs::policy.nullable(),
            ))
            .first(c)
            .optional())?;
    Ok(match row {
        Some((current, verified, policy)) => (
            verified.is_some_and(|v| v == current),
            policy
                .as_deref()
                .and_then(MailPolicy::from_code)
                .unwrap_or(MailPolicy::Every),
        ),
        None => (false, MailPolicy::Every),
    })
}

/// Forget the user's policy (the account is deleted).
pub fn erase(conn: &mut DbConn, user_id: i32) -> QueryResult<usize> {
    diesel::delete(mail_prefs::table.filter(mail_prefs::user_id.eq(user_id))).execute(conn)
}
