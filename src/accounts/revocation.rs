//! What a new password ends (issue 60): everything the old credentials
//! could have made, so that someone who had them keeps nothing after the
//! owner's reset or change — sessions, a pending address change (else
//! they confirm it and take the account back), reset links, API tokens and
//! app passwords. "Log out everywhere" ends the sessions and the pending
//! address change. The latest such act is kept with its counts, for
//! `/settings` to tell the owner what was revoked.

use crate::accounts::users::token_hash;
use crate::db::credential_revocations::{self as revocations, RevocationRow};
use crate::db::{account_tokens, api_credentials, sessions, DbConn};
use crate::domain::account_token::TokenPurpose;
use crate::domain::codes::{text_codes, Coded};
use crate::domain::error::Error;
use chrono::NaiveDateTime;

text_codes! {
    "revocation cause",
    /// The act that ended the old credentials.
    pub enum Cause {
        /// A reset link set a new password: every session ends.
        Reset => "reset",
        /// The owner changed the password knowing it: the session that
        /// did so stays.
        PasswordChange => "password_change",
        /// "Log out everywhere": sessions and pending address changes.
        LogOutEverywhere => "log_out_everywhere",
    }
}

impl Cause {
    fn ends_credentials(self) -> bool {
        !matches!(self, Cause::LogOutEverywhere)
    }

    pub fn words(self) -> &'static str {
        match self {
            Cause::Reset => "the password reset",
            Cause::PasswordChange => "the password change",
            Cause::LogOutEverywhere => "“log out everywhere”",
        }
    }
}

/// What one act ended, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub sessions: i32,
    pub email_changes: i32,
    pub reset_links: i32,
    pub tokens: i32,
    pub app_passwords: i32,
}

impl Counts {
    fn any(&self) -> bool {
        *self != Counts::default()
    }

    /// "2 sessions, 3 app passwords and 1 pending address change".
    pub fn words(&self) -> String {
        let kinds = [
            (self.sessions, "session", "sessions"),
            (self.app_passwords, "app password", "app passwords"),
            (self.tokens, "API token", "API tokens"),
            (
                self.email_changes,
                "pending address change",
                "pending address changes",
            ),
            (self.reset_links, "reset link", "reset links"),
        ];
        let parts: Vec<String> = kinds
            .into_iter()
            .filter(|(n, _, _)| *n > 0)
            .map(|(n, one, many)| format!("{n} {}", if n == 1 { one } else { many }))
            .collect();
        match parts.split_last() {
            None => String::new(),
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        }
    }
}

/// The latest act that revoked something, as `/settings` tells it.
#[derive(Clone, Debug)]
pub struct Revocation {
    pub cause: Cause,
    pub at: NaiveDateTime,
    pub counts: Counts,
}

fn count(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// End what `cause` ends for `user_id` (all sessions but `keep_session`'s,
/// when one is given) and keep the counts. Call inside the transaction of
/// the act itself, so that the old credentials and the new password never
/// both hold.
pub fn revoke(
    conn: &mut DbConn,
    user_id: i32,
    cause: Cause,
    keep_session: Option<&str>,
    now: NaiveDateTime,
) -> Result<Counts, Error> {
    let ended_sessions = match keep_session {
        Some(keep) => sessions::end_others(conn, user_id, &token_hash(keep))?,
        None => sessions::end_all(conn, user_id)?,
    };
    let mut counts = Counts {
        sessions: count(ended_sessions),
        email_changes: count(account_tokens::void(
            conn,
            user_id,
            TokenPurpose::EmailChange,
        )?),
        ..Counts::default()
    };
    if cause.ends_credentials() {
        counts.reset_links = count(account_tokens::void(
            conn,
            user_id,
            TokenPurpose::PasswordReset,
        )?);
        let (tokens, apps) = api_credentials::erase_all(conn, user_id)?;
        counts.tokens = count(tokens);
        counts.app_passwords = count(apps);
    }
    if counts.any() {
        revocations::replace(
            conn,
            &RevocationRow {
                user_id,
                cause: cause.code().to_string(),
                revoked_at: now,
                sessions: counts.sessions,
                email_changes: counts.email_changes,
                reset_links: counts.reset_links,
                tokens: counts.tokens,
                app_passwords: counts.app_passwords,
            },
        )?;
    }
    Ok(counts)
}

/// The latest act that revoked anything of `user_id`'s.
pub fn latest(conn: &mut DbConn, user_id: i32) -> Result<Option<Revocation>, Error> {
    let Some(row) = revocations::latest(conn, user_id)? else {
        return Ok(None);
    };
    Ok(Some(Revocation {
        cause: Cause::parse_code(&row.cause).map_err(Error::internal)?,
        at: row.revoked_at,
        counts: Counts {
            sessions: row.sessions,
            email_changes: row.email_changes,
            reset_links: row.reset_links,
            tokens: row.tokens,
            app_passwords: row.app_passwords,
        },
    }))
}

#[cfg(test)]
mod tests {
    use super::Counts;

    #[test]
    fn counts_in_words() {
        let c = Counts {
            app_passwords: 3,
            email_changes: 1,
            ..Counts::default()
        };
        assert_eq!(c.words(), "3 app passwords and 1 pending address change");
        let c = Counts {
            sessions: 1,
            tokens: 2,
            app_passwords: 1,
            ..Counts::default()
        };
        assert_eq!(c.words(), "1 session, 1 app password and 2 API tokens");
        assert_eq!(Counts::default().words(), "");
    }
}
