//! One account's acts that check a count and then add to it (credentials
//! held, say) serialised per account, so that acts at the same moment cannot
//! all see room under a cap and all add.

use crate::db::schema::users;
use crate::db::DbConn;
use diesel::prelude::*;

/// Hold the account's row until the caller's transaction ends. On
/// PostgreSQL a row lock (`FOR UPDATE`), which another transaction taking
/// it waits for; on SQLite nothing more is needed, as the caller's
/// [`write_transaction`](crate::db::write_transaction) holds the one write lock.
pub fn lock_user(conn: &mut DbConn, user_id: i32) -> QueryResult<()> {
    if let DbConn::Postgresql(c) = conn {
        users::table
            .find(user_id)
            .select(users::id)
            .for_update()
            .first::<i32>(c)
            .optional()?;
    }
    Ok(())
}
