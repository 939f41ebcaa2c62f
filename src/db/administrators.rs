//! Administrators' rows (`administrators`, issue 63).

use crate::db::schema::administrators;
use crate::db::DbConn;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// Whether the user is an administrator.
pub fn is_admin(conn: &mut DbConn, user_id: i32) -> QueryResult<bool> {
    let n: i64 = administrators::table
        .filter(administrators::user_id.eq(user_id))
        .count()
        .get_result(conn)?;
    Ok(n > 0)
}

pub fn grant(conn: &mut DbConn, user_id: i32, now: NaiveDateTime) -> QueryResult<usize> {
    diesel::insert_into(administrators::table)
        .values((
            administrators::user_id.eq(user_id),
            administrators::granted_at.eq(now),
        ))
        .execute(conn)
}

pub fn remove(conn: &mut DbConn, user_id: i32) -> QueryResult<usize> {
    diesel::delete(administrators::table.filter(administrators::user_id.eq(user_id))).execute(conn)
}
