//! Changing one's address: the new address gets a link and replaces the
//! old one only when the link is followed; the old address is told.

use crate::accounts::reauth::Reauthenticated;
use crate::accounts::{send_limits, tokens, users};
use crate::db::outbox::enqueue;
use crate::db::users::User;
use crate::db::{account_tokens, verified_emails, DbConn};
use crate::domain::account_token::TokenPurpose;
use crate::domain::error::Error;
use crate::domain::mail_kind::Mail;
use chrono::NaiveDateTime;

/// What a wrong password is told.
pub const WRONG_PASSWORD: &str = "Your password is not right: the address was not changed.";

/// How many mails an address change may send a day: changes per account,
/// confirmations per address typed (shared with sign-ups'
/// confirmations, [`send_limits::confirm_mail`]).
#[derive(Clone, Copy, Debug)]
pub struct ChangeLimits {
    pub per_account_day: i64,
    pub per_address_day: i64,
}

impl ChangeLimits {
    pub fn of(c: &crate::config::Config) -> ChangeLimits {
        ChangeLimits {
            per_account_day: c.email_change_limit_day,
            per_address_day: c.confirm_mail_limit_day,
        }
    }
}

/// `POST /settings/email`: with the password (checked: `proof`), ask to
/// move the account to `new_email`. Nothing changes until the new address
/// confirms. The mails are counted against `limits` in the transaction
/// that queues them, so requests at once cannot pass a limit together.
pub fn request(
    conn: &mut DbConn,
    secret: &[u8],
    user: &User,
    proof: &Reauthenticated,
    new_email: &str,
    limits: ChangeLimits,
    now: NaiveDateTime,
) -> Result<(), Error> {
    proof.is_for(user)?;
    let new_email = new_email.trim();
    users::validate_email(new_email).map_err(Error::Invalid)?;
    if new_email.eq_ignore_ascii_case(&user.email) {
        return Err(Error::Invalid("That is already your address.".into()));
    }
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        send_limits::email_change(conn, user.id, limits.per_account_day, now)?;
        send_limits::confirm_mail(conn, new_email, limits.per_address_day, now)?;
        let t = tokens::issue(
            conn,
            secret,
            user.id,
            TokenPurpose::EmailChange,
            Some(new_email),
            now,
        )?;
        enqueue(
            conn,
            user.id,
            &Mail::EmailChangeConfirm { token: t.id },
            now,
        )?;
        enqueue(conn, user.id, &Mail::EmailChanging { token: t.id }, now)?;
        Ok(())
    })
}

/// The address a pending change would move the account to, if one.
pub fn pending(
    conn: &mut DbConn,
    user_id: i32,
    now: NaiveDateTime,
) -> Result<Option<String>, Error> {
    let rows = account_tokens::of_user(conn, user_id, TokenPurpose::EmailChange)?;
    Ok(rows
        .into_iter()
        .filter(|t| t.usable(now))
        .find_map(|t| t.new_email))
}

/// `POST /email/confirm`: the link from the new address makes it the
/// account's address, confirmed (following the link proved it is theirs).
pub fn confirm(conn: &mut DbConn, token: &str, now: NaiveDateTime) -> Result<String, Error> {
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        let t = tokens::redeem(conn, token, TokenPurpose::EmailChange, now)?;
        let Some(address) = t.new_email.clone() else {
            return Err(Error::internal("address change without an address"));
        };
        let user = crate::db::users::find_by_id(conn, t.user_id)?
            .filter(|u| u.deleted_at.is_none())
            .ok_or_else(|| Error::Invalid("This link is for an account that is gone.".into()))?;
        crate::db::users::set_email(conn, user.id, &address)?;
        // A reset link mailed to the old address must not outlive it.
        account_tokens::void(conn, user.id, TokenPurpose::PasswordReset)?;
        verified_emails::erase(conn, user.id)?;
        verified_emails::insert(conn, user.id, &address, now)?;
        Ok(address)
    })
}
