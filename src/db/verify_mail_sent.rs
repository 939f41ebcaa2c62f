//! When each account's address-confirmation mail was last queued
//! (`verify_mail_sent`): the claim that keeps simultaneous "send it again"
//! clicks to one mail.

use crate::db::schema::verify_mail_sent;
use crate::db::DbConn;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// Claim a confirmation mail for `user_id` at `now`, unless one was queued
/// after `last_before`: a conditional update, else an insert, which fails
/// as a unique violation when the user's row is too recent.
pub fn claim(
    conn: &mut DbConn,
    user_id: i32,
    last_before: NaiveDateTime,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let n = diesel::update(
        verify_mail_sent::table
            .filter(verify_mail_sent::user_id.eq(user_id))
            .filter(verify_mail_sent::sent_at.le(last_before)),
    )
    .set(verify_mail_sent::sent_at.eq(now))
    .execute(conn)?;
    if n == 0 {
        diesel::insert_into(verify_mail_sent::table)
            .values((
                verify_mail_sent::user_id.eq(user_id),
                verify_mail_sent::sent_at.eq(now),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// When the user's last confirmation mail was queued.
pub fn last_sent(conn: &mut DbConn, user_id: i32) -> QueryResult<Option<NaiveDateTime>> {
    verify_mail_sent::table
        .find(user_id)
        .select(verify_mail_sent::sent_at)
        .first(conn)
        .optional()
}

/// Forget the user's row (the account is deleted).
pub fn erase(conn: &mut DbConn, user_id: i32) -> QueryResult<usize> {
    diesel::delete(verify_mail_sent::table.filter(verify_mail_sent::user_id.eq(user_id)))
        .execute(conn)
}
