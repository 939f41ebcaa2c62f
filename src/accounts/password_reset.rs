//! Forgotten passwords: a mailed one-use link (an hour), then a new
//! password, every session ended and a new one begun.

use crate::accounts::password_change::store_new_password;
use crate::accounts::revocation::Cause;
use crate::accounts::{send_limits, tokens, users};
use crate::db::outbox::enqueue;
use crate::db::users::User;
use crate::db::{account_tokens, verified_emails, DbConn};
use crate::domain::account_token::TokenPurpose;
use crate::domain::error::Error;
use crate::domain::mail_kind::Mail;
use chrono::{Duration, NaiveDateTime};

/// A second reset mail within this time is not sent: the form cannot be
/// used to flood someone's inbox.
pub const REQUEST_EVERY_MINUTES: i64 = 5;

/// The id of no account: what the work for an unknown address is done for.
const NOBODY: i32 = 0;

/// `POST /password/forgot`: mail a reset link to every account whose
/// confirmed address is `email` (usable ones: not disabled nor deleted).
/// The answer is the same whether or not there is one, so the form tells
/// nobody which addresses have accounts; and so is the work (issue 60): one
/// transaction that writes the address's count and runs the same
/// statements whether a mail goes or not (for no account, [`NOBODY`], they
/// store nothing), so that the time taken does not tell either.
pub fn request(
    conn: &mut DbConn,
    secret: &[u8],
    email: &str,
    per_day: i64,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let email = email.trim();
    if email.is_empty() || email.len() > 254 {
        return Ok(());
    }
    let wanted = email.to_lowercase();
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        let may_send = send_limits::reset_mail(conn, &wanted, per_day, now)?;
        // Addresses are kept as typed; they compare without case.
        let candidates = verified_emails::usable_accounts(conn)?;
        let mut owners: Vec<i32> = candidates
            .into_iter()
            .filter(|(_, current, verified)| {
                current == verified && current.to_lowercase() == wanted
            })
            .map(|(id, _, _)| id)
            .collect();
        if owners.is_empty() {
            owners.push(NOBODY);
        }
        for owner in owners {
            let recent = account_tokens::unused_since(
                conn,
                owner,
                TokenPurpose::PasswordReset,
                now - Duration::minutes(REQUEST_EVERY_MINUTES),
            )?;
            // No mail due: the same statements for no account, storing nothing.
            let user_id = if recent == 0 && may_send {
                owner
            } else {
                NOBODY
            };
            let t = tokens::issue_if_user(
                conn,
                secret,
                user_id,
                TokenPurpose::PasswordReset,
                None,
                now,
            )?;
            let token = t.as_ref().map_or(0, |t| t.id);
            enqueue(conn, user_id, &Mail::PasswordReset { token }, now)?;
        }
        Ok(())
    })
}

/// `POST /password/reset`: a new password for the link's account. The link
/// is used up only when the password is accepted; every session of the
/// account ends. Gives the account, for the caller to log in anew.
pub fn reset(
    conn: &mut DbConn,
    token: &str,
    new_password: &str,
    now: NaiveDateTime,
) -> Result<User, Error> {
    let t = tokens::check(conn, token, TokenPurpose::PasswordReset, now)?;
    let user = crate::db::users::find_by_id(conn, t.user_id)?
        .filter(|u| u.deleted_at.is_none())
        .ok_or_else(|| Error::Invalid("This link is for an account that is gone.".into()))?;
    if user.disabled_at.is_some() {
        return Err(Error::Forbidden(
            "This account has been disabled by the operators.".into(),
        ));
    }
    users::validate_password(new_password, &user.username, &user.email).map_err(Error::Invalid)?;
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        tokens::redeem(conn, token, TokenPurpose::PasswordReset, now)?;
        store_new_password(conn, &user, new_password, Cause::Reset, None, now)
    })?;
    Ok(user)
}

/// `missive user reset-link NAME`: a reset link for support to hand over.
pub fn link_for(
    conn: &mut DbConn,
    secret: &[u8],
    base_url: &str,
    name: &str,
    now: NaiveDateTime,
) -> Result<String, Error> {
    let user = crate::db::users::find_by_name(conn, name)?
        .filter(|u| u.deleted_at.is_none())
        .ok_or_else(|| {
            Error::NotFound(format!(
                "There is no user “{}”.",
                crate::util::clip(name, 40)
            ))
        })?;
    let t = tokens::issue(
        conn,
        secret,
        user.id,
        TokenPurpose::PasswordReset,
        None,
        now,
    )?;
    Ok(t.url(base_url.trim_end_matches('/'), secret))
}
