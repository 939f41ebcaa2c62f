//! The latest act that revoked an account's credentials
//! (`credential_revocations`, issue 60), with what it ended, by kind.

use crate::db::schema::credential_revocations as revocations;
use crate::db::DbConn;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// One account's row: the act's cause (its code), when, and the counts.
#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = revocations)]
pub struct RevocationRow {
    pub user_id: i32,
    pub cause: String,
    pub revoked_at: NaiveDateTime,
    pub sessions: i32,
    pub email_changes: i32,
    pub reset_links: i32,
    pub tokens: i32,
    pub app_passwords: i32,
}

/// Keep `row` as its account's latest (call inside a transaction: a
/// delete, then an insert).
pub fn replace(conn: &mut DbConn, row: &RevocationRow) -> QueryResult<()> {
    erase(conn, row.user_id)?;
    diesel::insert_into(revocations::table)
        .values(row)
        .execute(conn)?;
    Ok(())
}

pub fn latest(conn: &mut DbConn, user_id: i32) -> QueryResult<Option<RevocationRow>> {
    revocations::table
        .find(user_id)
        .select(RevocationRow::as_select())
        .first(conn)
        .optional()
}

/// Forget the record (the account is deleted).
pub fn erase(conn: &mut DbConn, user_id: i32) -> QueryResult<usize> {
    diesel::delete(revocations::table.find(user_id)).execute(conn)
}
