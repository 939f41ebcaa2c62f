//! Re-authentication (issue 60): the settings forms that ask for the
//! current password (password, address, deletion, new token or app
//! password) are guessed at as a login is, by whoever holds a session, so
//! they are throttled as logins are and on the same counts
//! ([`login_limit`]): a guess here slows the next login and the next guess
//! there, and a right password forgives as a login does.

use crate::accounts::login_limit::{self, LoginLimits};
use crate::accounts::users;
use crate::db::users::User;
use crate::db::DbConn;
use crate::domain::error::Error;
use chrono::NaiveDateTime;

/// The current password of `user_id` was given just now: what the acts
/// that need it take, so none of them runs without the check.
#[derive(Debug)]
pub struct Reauthenticated {
    user_id: i32,
}

impl Reauthenticated {
    /// Whether this proof speaks for `user`.
    pub fn is_for(&self, user: &User) -> Result<(), Error> {
        if self.user_id == user.id {
            Ok(())
        } else {
            Err(Error::internal("re-authentication of another account"))
        }
    }
}

/// An attempt at the current password: who, from where, under which limits.
#[derive(Clone, Debug)]
pub struct Attempt {
    pub user: User,
    pub ip: String,
    pub limits: LoginLimits,
}

impl Attempt {
    /// Count the attempt before the password is checked (commit it before
    /// [`Attempt::check`], as a login's is): past the limits,
    /// `Error::TooSoon`.
    pub fn claim(&self, conn: &mut DbConn, now: NaiveDateTime) -> Result<(), Error> {
        // Counted as a browser the account does not know: a stolen session
        // (and its device cookie) must guess no faster than a stranger.
        login_limit::claim(
            conn,
            &self.user.username,
            &self.ip,
            login_limit::Attempt::Untrusted,
            &self.limits,
            now,
        )
    }

    /// Check the password; a right one forgives the attempt as a login's
    /// does, a wrong one is `Error::Invalid(wrong)`.
    pub fn check(
        &self,
        conn: &mut DbConn,
        password: &str,
        wrong: &str,
    ) -> Result<Reauthenticated, Error> {
        if !users::verify_password(password, &self.user.password_hash) {
            return Err(Error::Invalid(wrong.to_string()));
        }
        login_limit::forgive(
            conn,
            &self.user.username,
            &self.ip,
            login_limit::Attempt::Untrusted,
            &self.limits,
        )?;
        Ok(Reauthenticated {
            user_id: self.user.id,
        })
    }
}
