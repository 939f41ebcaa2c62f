//! A player's mail settings: the policy (every mail, a daily digest, none)
//! and the verification of their address.

use crate::accounts::links::{self};
use crate::db::outbox::enqueue;
use crate::db::schema::users;
use crate::db::{per_backend, DbConn};
use crate::domain::codes::Coded;
use crate::domain::error::Error;
use crate::domain::mail_kind::{Mail, MailPolicy};
use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;

/// Set a user's mail policy; `Err` text for an unknown policy.
pub fn set_policy(
    conn: &mut DbConn,
    user_id: i32,
    policy: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    use crate::db::schema::mail_prefs;
    let Some(policy) = MailPolicy::from_code(policy) else {
        return Err(Error::Invalid("Choose every, digest or none.".to_string()));
    };
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        diesel::delete(mail_prefs::table.find(user_id)).execute(conn)?;
        diesel::insert_into(mail_prefs::table)
            .values((
                mail_prefs::user_id.eq(user_id),
                mail_prefs::policy.eq(policy.code()),
                mail_prefs::updated_at.eq(now),
            ))
            .execute(conn)?;
        Ok(())
    })
}

/// Whether the user's current address has been verified.
pub fn is_verified(conn: &mut DbConn, user_id: i32) -> QueryResult<bool> {
    Ok(standing_of(conn, user_id)?.0)
}

/// Mark the user's current address verified, if `sig` signs it.
pub fn verify_email(
    conn: &mut DbConn,
    secret: &[u8],
    user_id: i32,
    sig: &str,
    now: NaiveDateTime,
) -> Result<bool, Error> {
    use crate::db::schema::verified_emails;
    let Some(user) = crate::accounts::users::find_by_id(conn, user_id)? else {
        return Ok(false);
    };
    if !links::verify_ok(secret, user.id, &user.email, sig) {
        return Ok(false);
    }
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        // A confirmed address reads mail: a refusal noted before is past.
        crate::db::mail_failures::clear(conn, user.id)?;
        diesel::delete(verified_emails::table.find(user.id)).execute(conn)?;
        diesel::insert_into(verified_emails::table)
            .values((
                verified_emails::user_id.eq(user.id),
                verified_emails::email.eq(&user.email),
                verified_emails::verified_at.eq(now),
            ))
            .execute(conn)?;
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
    use crate::db::schema::verify_mail_sent;
    if is_verified(conn, user_id)? {
        return Err(Error::Invalid("Your address is already confirmed.".into()));
    }
    let window = Duration::minutes(VERIFY_RESEND_MINUTES);
    let claimed = crate::db::write_transaction::<_, diesel::result::Error>(conn, |conn| {
        let n = diesel::update(
            verify_mail_sent::table
                .filter(verify_mail_sent::user_id.eq(user_id))
                .filter(verify_mail_sent::sent_at.le(now - window)),
        )
        .set(verify_mail_sent::sent_at.eq(now))
        .execute(conn)?;
        if n == 0 {
            diesel::insert_into(verify_mail_sent::table)
                .values((
                    verify_mail_sent::user_id.eq(user_id),
                    verify_mail_sent::sent_at.eq(now),
                ))
                .execute(conn)?;
        }
        enqueue(conn, user_id, &Mail::VerifyEmail, now)
    });
    match claimed {
        Ok(()) => Ok(()),
        Err(e) if crate::db::is_unique_violation(&e) => {
            let last: Option<NaiveDateTime> = verify_mail_sent::table
                .find(user_id)
                .select(verify_mail_sent::sent_at)
                .first(conn)
                .optional()?;
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
        Err(e) => Err(e.into()),
    }
}

/// Whether the user's current address is verified, and their mail policy
/// (`every` unless they chose otherwise), in one query, as [`enqueue`]
/// reads them: the mail settings page shows both.
pub fn standing_of(conn: &mut DbConn, user_id: i32) -> QueryResult<(bool, MailPolicy)> {
    use crate::db::schema::{mail_prefs, verified_emails};
    let row: Option<(String, Option<String>, Option<String>)> =
        per_backend!(conn, |c| users::table
            .left_join(verified_emails::table.on(verified_emails::user_id.eq(users::id)))
            .left_join(mail_prefs::table.on(mail_prefs::user_id.eq(users::id)))
            .filter(users::id.eq(user_id))
            .select((
                users::email,
                verified_emails::email.nullable(),
                mail_prefs::policy.nullable(),
            ))
            .first(c)
            .optional())?;
    Ok(match row {
        Some((current, verified, policy)) => (
            verified.is_some_and(|v| v == current),
            policy
                .as_deref()
                .and_then(MailPolicy::from_code)
                .unwrap_or(MailPolicy::Every),
        ),
        None => (false, MailPolicy::Every),
    })
}
