//! Calendar addresses' rows (`calendar_feeds`, issue 64): one per account,
//! stored as its token's SHA-256.

use crate::db::schema::calendar_feeds;
use crate::db::{per_backend, DbConn};
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// Whether the account has an address, and since when.
pub fn made_at(conn: &mut DbConn, user_id: i32) -> QueryResult<Option<NaiveDateTime>> {
    calendar_feeds::table
        .find(user_id)
        .select(calendar_feeds::created_at)
        .first(conn)
        .optional()
}

/// Store the address whose token hashes to `hash` as the account's, in
/// place of any old one (call inside a transaction: a delete, then an
/// insert).
pub fn replace(conn: &mut DbConn, user_id: i32, hash: &str, now: NaiveDateTime) -> QueryResult<()> {
    diesel::delete(calendar_feeds::table.find(user_id)).execute(conn)?;
    diesel::insert_into(calendar_feeds::table)
        .values((
            calendar_feeds::user_id.eq(user_id),
            calendar_feeds::token_hash.eq(hash),
            calendar_feeds::created_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// End the account's address (true when there was one).
pub fn revoke(conn: &mut DbConn, user_id: i32) -> QueryResult<bool> {
    Ok(diesel::delete(calendar_feeds::table.find(user_id)).execute(conn)? > 0)
}

/// The account whose address's token hashes to `hash`.
pub fn owner_id(conn: &mut DbConn, hash: &str) -> QueryResult<Option<i32>> {
    per_backend!(conn, |c| calendar_feeds::table
        .filter(calendar_feeds::token_hash.eq(hash))
        .select(calendar_feeds::user_id)
        .first(c)
        .optional())
}
