//! Daily digests' claims (`digest_sent`): one row per user and UTC day,
//! inserted in the transaction that queues the digest, so only one process
//! sends it.

use crate::db::schema::{digest_sent, mail_prefs, users, verified_emails};
use crate::db::{is_unique_violation, DbConn};
use crate::domain::error::Error;
use crate::domain::mail_kind::MailPolicy;
use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

/// The claim of one user's daily digest for one UTC day.
#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = digest_sent)]
pub struct DigestSent {
    pub user_id: i32,
    pub day: chrono::NaiveDate,
    /// Games listed (0: nothing to list, no mail).
    pub games: i32,
    pub created_at: NaiveDateTime,
}

/// Claim a day (a unique violation when it is claimed already).
/// Claim a user's digest for a day: [`Error::AlreadyDone`] when this or
/// another process claimed it first.
pub fn claim(conn: &mut DbConn, row: &DigestSent) -> Result<(), Error> {
    match diesel::insert_into(digest_sent::table)
        .values(row)
        .execute(conn)
    {
        Ok(_) => Ok(()),
        Err(e) if is_unique_violation(&e) => Err(Error::AlreadyDone),
        Err(e) => Err(e.into()),
    }
}

/// The users whose digest for `day` is claimed.
pub fn claimed_on(conn: &mut DbConn, day: NaiveDate) -> QueryResult<Vec<i32>> {
    digest_sent::table
        .filter(digest_sent::day.eq(day))
        .select(digest_sent::user_id)
        .load(conn)
}

/// Users with the `digest` policy and a confirmed address, by id: (id,
/// current address, confirmed address).
pub fn readers(conn: &mut DbConn) -> QueryResult<Vec<(i32, String, String)>> {
    users::table
        .inner_join(mail_prefs::table.on(mail_prefs::user_id.eq(users::id)))
        .inner_join(verified_emails::table.on(verified_emails::user_id.eq(users::id)))
        .filter(mail_prefs::policy.eq(MailPolicy::Digest.code()))
        .order(users::id.asc())
        .select((users::id, users::email, verified_emails::email))
        .load(conn)
}

/// Forget the user's claims (the account is deleted).
pub fn erase(conn: &mut DbConn, user_id: i32) -> QueryResult<usize> {
    diesel::delete(digest_sent::table.filter(digest_sent::user_id.eq(user_id))).execute(conn)
}
