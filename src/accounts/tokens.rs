//! One-use account links: password resets and address changes.
//!
//! The token in a link is an HMAC of the row's random salt under the server
//! secret, so the outbox can write the mail when its turn comes without the
//! token being kept anywhere; the row stores only the token's SHA-256 (for
//! the lookup). A row is used at most once, by a conditional update.

use crate::accounts::users::token_hash;
use crate::db::account_tokens::{self, AccountToken, NewToken};
use crate::db::DbConn;
use crate::domain::account_token::{token_for, TokenPurpose};
use crate::domain::error::Error;
use chrono::{Duration, NaiveDateTime};

/// How long a password-reset link works.
pub const RESET_MINUTES: i64 = 60;
/// How long a link confirming a new address works.
pub const EMAIL_CHANGE_HOURS: i64 = 24;

/// A new link for `user_id`; earlier unused links of the same purpose stop
/// working (only the newest mail's link is good).
pub fn issue(
    conn: &mut DbConn,
    secret: &[u8],
    user_id: i32,
    purpose: TokenPurpose,
    new_email: Option<&str>,
    now: NaiveDateTime,
) -> Result<AccountToken, Error> {
    issue_if_user(conn, secret, user_id, purpose, new_email, now)?
        .ok_or_else(|| Error::internal(format!("a link for user {user_id}, who is not there")))
}

/// [`issue`] when `user_id` is an account; for an id with none (0), the
/// same statements, which then store nothing: `/password/forgot` does the
/// same work whether the address has an account or not.
pub fn issue_if_user(
    conn: &mut DbConn,
    secret: &[u8],
    user_id: i32,
    purpose: TokenPurpose,
    new_email: Option<&str>,
    now: NaiveDateTime,
) -> Result<Option<AccountToken>, Error> {
    let salt = crate::util::random_token();
    let hash = token_hash(&token_for(secret, purpose, user_id, &salt));
    let ttl = match purpose {
        TokenPurpose::PasswordReset => Duration::minutes(RESET_MINUTES),
        TokenPurpose::EmailChange => Duration::hours(EMAIL_CHANGE_HOURS),
    };
    account_tokens::void(conn, user_id, purpose)?;
    account_tokens::insert_if_user(
        conn,
        &NewToken {
            user_id,
            purpose,
            new_email,
            salt: &salt,
            hash: &hash,
            created_at: now,
            expires_at: now + ttl,
        },
    )?;
    Ok(account_tokens::find_by_hash(conn, &hash)?)
}

/// Why a link is refused, in words.
fn refusal(purpose: TokenPurpose, why: &str) -> Error {
    let again = match purpose {
        TokenPurpose::PasswordReset => "Ask for a new one at /password/forgot.",
        TokenPurpose::EmailChange => "Ask for the change again in your settings.",
    };
    Error::Invalid(format!("This link {why}. {again}"))
}

/// The row of a link that still works, or why it does not.
pub fn check(
    conn: &mut DbConn,
    token: &str,
    purpose: TokenPurpose,
    now: NaiveDateTime,
) -> Result<AccountToken, Error> {
    let token = token.trim();
    let found = if token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit()) {
        account_tokens::find_for(conn, &token_hash(&token.to_ascii_lowercase()), purpose)?
    } else {
        None
    };
    match found {
        None => Err(refusal(
            purpose,
            "is not valid (it may have been cut short, or replaced by a newer one, or the \
             password changed since)",
        )),
        Some(t) if t.used_at.is_some() => Err(refusal(purpose, "has already been used")),
        Some(t) if now >= t.expires_at => Err(refusal(purpose, "has expired")),
        Some(t) => Ok(t),
    }
}

/// Use a link: [`check`], then mark it used unless another request did
/// first (call inside the transaction of what the link does).
pub fn redeem(
    conn: &mut DbConn,
    token: &str,
    purpose: TokenPurpose,
    now: NaiveDateTime,
) -> Result<AccountToken, Error> {
    let t = check(conn, token, purpose, now)?;
    if account_tokens::mark_used(conn, t.id, now)? == 0 {
        return Err(refusal(purpose, "has already been used"));
    }
    Ok(t)
}
