//! The director role: who may create and direct tournaments (a user's
//! `is_director`, granted from the command line).

use crate::db::schema::users;
use crate::db::DbConn;
use crate::domain::error::Error;
use diesel::prelude::*;

/// Grant (`on`) or take back the role.
pub fn set(conn: &mut DbConn, user: i32, on: bool) -> Result<(), Error> {
    diesel::update(users::table.find(user))
        .set(users::is_director.eq(on))
        .execute(conn)?;
    Ok(())
}
