//! Changing a password, knowing the current one; and what every change of
//! password does, whatever its path: the reset links die and the person is
//! told by mail.

use crate::accounts::{sessions, tokens, users};
use crate::db::models::User;
use crate::db::outbox::enqueue;
use crate::db::schema::users as users_table;
use crate::db::DbConn;
use crate::domain::account_token::TokenPurpose;
use crate::domain::error::Error;
use crate::domain::mail_kind::Mail;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// Store a new password for `user` (checked against the policy first), void
/// its reset links and queue "your password was changed". Sessions are the
/// caller's to end: which ones depends on the path.
pub fn store_new_password(
    conn: &mut DbConn,
    user: &User,
    new_password: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    users::validate_password(new_password, &user.username, &user.email).map_err(Error::Invalid)?;
    let hash = users::hash_password(new_password)?;
    diesel::update(users_table::table.find(user.id))
        .set(users_table::password_hash.eq(hash))
        .execute(conn)?;
    tokens::void(conn, user.id, TokenPurpose::PasswordReset)?;
    enqueue(conn, user.id, &Mail::PasswordChanged, now)?;
    Ok(())
}

/// `POST /settings/password`: the current password, then the new one; every
/// other session of the account ends (the one making the change stays).
pub fn change(
    conn: &mut DbConn,
    user: &User,
    current_password: &str,
    new_password: &str,
    session_token: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    if !users::verify_password(current_password, &user.password_hash) {
        return Err(Error::Invalid(
            "Your current password is not right: nothing was changed.".into(),
        ));
    }
    if current_password == new_password {
        return Err(Error::Invalid(
            "The new password is the same as the current one.".into(),
        ));
    }
    conn.transaction::<_, Error, _>(|conn| {
        store_new_password(conn, user, new_password, now)?;
        sessions::end_others(conn, user.id, session_token)?;
        Ok(())
    })
}
