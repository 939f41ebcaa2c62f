//! Confirmed addresses (`verified_emails`): per account, the address it
//! proved it reads. It counts while it is the account's current address.

use crate::db::schema::{users, verified_emails};
use crate::db::DbConn;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// Note `email` confirmed for `user_id`.
pub fn insert(
    conn: &mut DbConn,
    user_id: i32,
    email: &str,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::insert_into(verified_emails::table)
        .values((
            verified_emails::user_id.eq(user_id),
            verified_emails::email.eq(email),
            verified_emails::verified_at.eq(now),
        ))
        .execute(conn)
}

/// Forget the account's confirmed address.
pub fn erase(conn: &mut DbConn, user_id: i32) -> QueryResult<usize> {
    diesel::delete(verified_emails::table.find(user_id)).execute(conn)
}

/// Usable accounts (neither disabled nor deleted) with a confirmed
/// address: (id, current address, confirmed address), as typed.
pub fn usable_accounts(conn: &mut DbConn) -> QueryResult<Vec<(i32, String, String)>> {
    users::table
        .inner_join(verified_emails::table.on(verified_emails::user_id.eq(users::id)))
        .filter(users::disabled_at.is_null())
        .filter(users::deleted_at.is_null())
        .select((users::id, users::email, verified_emails::email))
        .load(conn)
}
