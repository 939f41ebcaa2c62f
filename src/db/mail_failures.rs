//! Addresses the mail server refused for good, one per user: the address
//! refused, so that a new address is not taken for the failing one.

use crate::db::schema::mail_failures;
use crate::db::{per_backend, DbConn};
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// Note that `email`, `user_id`'s address, was refused with `error`.
pub fn record(
    conn: &mut DbConn,
    user_id: i32,
    email: &str,
    error: &str,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let error = crate::util::clip(error, 500);
    per_backend!(conn, |c| diesel::insert_into(mail_failures::table)
        .values((
            mail_failures::user_id.eq(user_id),
            mail_failures::email.eq(email),
            mail_failures::error.eq(&error),
            mail_failures::failed_at.eq(now),
        ))
        .on_conflict(mail_failures::user_id)
        .do_update()
        .set((
            mail_failures::email.eq(email),
            mail_failures::error.eq(&error),
            mail_failures::failed_at.eq(now),
        ))
        .execute(c))?;
    Ok(())
}

/// Forget `user_id`'s refused address (confirmed again, or changed).
pub fn clear(conn: &mut DbConn, user_id: i32) -> QueryResult<()> {
    per_backend!(conn, |c| diesel::delete(mail_failures::table.find(user_id))
        .execute(c))?;
    Ok(())
}

/// The address refused for `user_id`, if any, and why.
pub fn of(conn: &mut DbConn, user_id: i32) -> QueryResult<Option<(String, String)>> {
    per_backend!(conn, |c| mail_failures::table
        .find(user_id)
        .select((mail_failures::email, mail_failures::error))
        .first(c)
        .optional())
}
