//! Operators' hold on an account (`missive user disable` / `enable`): a
//! disabled account is logged out and refused logins and play links; its
//! games go on, and its clocks with them.

use crate::db::users::{self, User};
use crate::db::{account_tokens, sessions, DbConn};
use crate::domain::account_token::TokenPurpose;
use crate::domain::error::Error;
use chrono::NaiveDateTime;

pub const DISABLED: &str = "This account has been disabled by the operators.";

/// Refuse what a disabled account may not do (called after the password
/// was found right, so it tells nothing to someone guessing).
pub fn refuse_disabled(user: &User) -> Result<(), Error> {
    if user.disabled_at.is_some() {
        return Err(Error::Forbidden(DISABLED.into()));
    }
    Ok(())
}

fn named(conn: &mut DbConn, name: &str) -> Result<User, Error> {
    users::find_by_name(conn, name)?
        .filter(|u| u.deleted_at.is_none())
        .ok_or_else(|| {
            Error::NotFound(format!(
                "There is no user “{}”.",
                crate::util::clip(name, 40)
            ))
        })
}

/// Disable an account: sessions and mailed account links end at once.
pub fn disable(conn: &mut DbConn, name: &str, now: NaiveDateTime) -> Result<(User, usize), Error> {
    let user = named(conn, name)?;
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        users::disable(conn, user.id, now)?;
        let ended = sessions::end_all(conn, user.id)?;
        account_tokens::void(conn, user.id, TokenPurpose::PasswordReset)?;
        account_tokens::void(conn, user.id, TokenPurpose::EmailChange)?;
        Ok((user, ended))
    })
}

/// Lift the hold.
pub fn enable(conn: &mut DbConn, name: &str) -> Result<User, Error> {
    let user = named(conn, name)?;
    users::enable(conn, user.id)?;
    Ok(user)
}
