//! Names of deleted accounts (`retired_usernames`), held from sign-up for
//! a while so nobody passes for the person among their correspondents.

use crate::db::schema::retired_usernames;
use crate::db::DbConn;
use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;

/// How long a deleted account's username cannot be taken.
pub const NAME_RETIRED_DAYS: i64 = 30;

/// Whether `key` (a username key) belonged to an account deleted within
/// [`NAME_RETIRED_DAYS`].
pub fn name_retired(conn: &mut DbConn, key: &str, now: NaiveDateTime) -> QueryResult<bool> {
    let n: i64 = retired_usernames::table
        .filter(retired_usernames::username_key.eq(key))
        .filter(retired_usernames::retired_until.gt(now))
        .count()
        .get_result(conn)?;
    Ok(n > 0)
}

/// Hold `key` for [`NAME_RETIRED_DAYS`] from `now`.
pub fn retire(conn: &mut DbConn, key: &str, now: NaiveDateTime) -> QueryResult<()> {
    diesel::delete(retired_usernames::table.find(key)).execute(conn)?;
    diesel::insert_into(retired_usernames::table)
        .values((
            retired_usernames::username_key.eq(key),
            retired_usernames::retired_until.eq(now + Duration::days(NAME_RETIRED_DAYS)),
        ))
        .execute(conn)?;
    Ok(())
}
