//! A player's mail settings: the policy (every mail, a daily digest, none)
//! and the verification of their address.

use crate::accounts::links::{self};
use crate::db::outbox::enqueue;
use crate::db::{mail_prefs, verified_emails, verify_mail_sent, DbConn};
use crate::domain::codes::Coded;
use crate::domain::error::Error;
use crate::domain::mail_kind::{Mail, MailPolicy};
use chrono::{Duration, NaiveDateTime};

/// Set a user's mail policy; `Err` text for an unknown policy.
pub fn set_policy(
    conn: &mut DbConn,
    user_id: i32,
    policy: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let Some(policy) = MailPolicy::from_code(policy) else {
        return Err(Error::Invalid("Choose every, digest or none.".to_string()));
    };
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        Ok(mail_prefs::set(conn, user_id, policy, now)?)
    })
}

/// Mark the user's current address verified, if `sig` signs it.
pub fn verify_email(
    conn: &mut DbConn,
    secret: &[u8],
    user_id: i32,
    sig: &str,
    now: NaiveDateTime,
) -> Result<bool, Error> {
    let Some(user) = crate::db::users::find_by_id(conn, user_id)? else {
        return Ok(false);
    };
    if !links::verify_ok(secret, user.id, &user.email, sig) {
        return Ok(false);
    }
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        // A confirmed address reads mail: a refusal noted before is past.
        crate::db::mail_failures::clear(conn, user.id)?;
        verified_emails::erase(conn, user.id)?;
        verified_emails::insert(conn, user.id, &user.email, now)?;
        Ok(())
    })?;
    Ok(true)
}

/// How long before the verification mail may be asked for again.
pub const VERIFY_RESEND_MINUTES: i64 = 10;

/// Queue the address verification mail (at sign-up, and the "send it
/// again" button): refused when the address is already verified, and when
/// one was queued less than [`VERIFY_RESEND_MINUTES`] ago. The claim is a
/// conditional update of `verify_mail_sent` in the transaction that queues
/// the mail, so simultaneous clicks queue one mail.
pub fn send_verification(conn: &mut DbConn, user_id: i32, now: NaiveDateTime) -> Result<(), Error> {
    if mail_prefs::standing_of(conn, user_id)?.0 {
        return Err(Error::Invalid("Your address is already confirmed.".into()));
    }
    let window = Duration::minutes(VERIFY_RESEND_MINUTES);
    let claimed = crate::db::write_transaction::<_, Error>(conn, |conn| {
        verify_mail_sent::claim(conn, user_id, now - window, now)?;
        Ok(enqueue(conn, user_id, &Mail::VerifyEmail, now)?)
    });
    match claimed {
        Ok(()) => Ok(()),
        Err(Error::AlreadyDone) => {
            let last = verify_mail_sent::last_sent(conn, user_id)?;
            let wait = last
                .map(|t| (t + window - now).num_minutes() + 1)
                .unwrap_or(VERIFY_RESEND_MINUTES)
                .clamp(1, VERIFY_RESEND_MINUTES);
            Err(Error::RateLimited(format!(
                "A confirmation mail was sent less than {VERIFY_RESEND_MINUTES} minutes ago: \
                 look for it (and in your spam folder), or ask again in {wait} minute{}.",
                if wait == 1 { "" } else { "s" }
            )))
        }
        Err(e) => Err(e),
    }
}
