//! When each account's address-confirmation mail was last queued
//! (`verify_mail_sent`): the claim that keeps simultaneous "send it again"
//! clicks to one mail.

use crate::db::schema::verify_mail_sent;
use crate::db::{is_unique_violation, DbConn};
use crate::domain::error::Error;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// Claim a confirmation mail for `user_id` at `now`, unless one was queued
/// after `last_before`: a conditional update, else an insert, which fails
/// on the unique key when the user's row is too recent
/// ([`Error::AlreadyDone`]).
pub fn claim(
    conn: &mut DbConn,
    user_id: i32,
    last_before: NaiveDateTime,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let n = diesel::update(
        verify_mail_sent::table
            .filter(verify_mail_sent::user_id.eq(user_id))
            .filter(verify_mail_sent::sent_at.le(last_before)),
    )
    .set(verify_mail_sent::sent_at.eq(now))
    .execute(conn)?;
    if n == 0 {
        let inserted = diesel::insert_into(verify_mail_sent::table)
            .values((
                verify_mail_sent::user_id.eq(user_id),
                verify_mail_sent::sent_at.eq(now),
            ))
            .execute(conn);
        match inserted {
            Err(e) if is_unique_violation(&e) => return Err(Error::AlreadyDone),
            inserted => {
                inserted?;
            }
        }
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
