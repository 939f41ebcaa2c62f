//! Changing a password, knowing the current one; and what every change of
//! password does, whatever its path: what the old password could have made
//! ends ([`revocation`]) and the person is told by mail.

use crate::accounts::reauth::Reauthenticated;
use crate::accounts::revocation::{self, Cause};
use crate::accounts::users;
use crate::db::outbox::enqueue;
use crate::db::users::User;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::mail_kind::Mail;
use chrono::NaiveDateTime;

/// Store a new password for `user` (checked against the policy first), end
/// what the old one could have made (every session but `keep_session`'s)
/// and queue "your password was changed".
pub fn store_new_password(
    conn: &mut DbConn,
    user: &User,
    new_password: &str,
    cause: Cause,
    keep_session: Option<&str>,
    now: NaiveDateTime,
) -> Result<(), Error> {
    users::validate_password(new_password, &user.username, &user.email).map_err(Error::Invalid)?;
    let hash = users::hash_password(new_password)?;
    crate::db::users::set_password_hash(conn, user.id, &hash)?;
    revocation::revoke(conn, user.id, cause, keep_session, now)?;
    enqueue(conn, user.id, &Mail::PasswordChanged, now)?;
    Ok(())
}

/// What a wrong current password is told.
pub const WRONG_PASSWORD: &str = "Your current password is not right: nothing was changed.";

/// `POST /settings/password`: the current password (checked: `proof`), then
/// the new one; every other session of the account ends (the one making
/// the change stays), and the rest [`revocation`] lists.
pub fn change(
    conn: &mut DbConn,
    user: &User,
    proof: &Reauthenticated,
    current_password: &str,
    new_password: &str,
    session_token: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    proof.is_for(user)?;
    if current_password == new_password {
        return Err(Error::Invalid(
            "The new password is the same as the current one.".into(),
        ));
    }
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        store_new_password(
            conn,
            user,
            new_password,
            Cause::PasswordChange,
            Some(session_token),
            now,
        )
    })
}
