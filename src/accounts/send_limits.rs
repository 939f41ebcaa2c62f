//! Limits on the acts that send mail to someone (issue 37): sign-ups from
//! one client address, "confirm your address" mails to one address whoever
//! asks (a sign-up or an address change), address changes asked for by one
//! account (issue 60), and challenges and rated open seeks from one player.
//! Each is counted in the
//! database before the work it guards, so concurrent requests and several
//! processes share one count; a refusal says when the window ends.

use crate::db::rate_counters::{self, Counted};
use crate::db::DbConn;
use crate::domain::error::Error;
use chrono::{Duration, NaiveDateTime};

const HOUR: i64 = 3600;
const DAY: i64 = 24 * HOUR;

/// Count one event on `key`; past `limit` in the window, `Error::TooSoon`
/// saying `what` and when the window ends. A limit below 1 turns it off.
fn count(
    conn: &mut DbConn,
    key: &str,
    limit: i64,
    window_secs: i64,
    now: NaiveDateTime,
    what: &str,
) -> Result<(), Error> {
    if limit < 1 {
        return Ok(());
    }
    let window = Duration::seconds(window_secs);
    let Counted {
        count,
        window_start,
    } = rate_counters::count_one(conn, key, window, now)?;
    if i64::from(count) <= limit {
        return Ok(());
    }
    let ends = window_start + window - now;
    Err(Error::too_soon(
        what,
        (ends.num_milliseconds() + 999).div_euclid(1000),
    ))
}

/// One more sign-up from `ip` (at most `per_hour`).
pub fn sign_up(
    conn: &mut DbConn,
    ip: &str,
    per_hour: i64,
    now: NaiveDateTime,
) -> Result<(), Error> {
    count(
        conn,
        &format!("signup:{}", crate::util::clip(ip, 64)),
        per_hour,
        HOUR,
        now,
        &format!("Too many accounts were made from your network address in the last hour (at most {per_hour})."),
    )
}

/// Take back a sign-up counted for `ip` that did not happen (the name was
/// taken, say).
pub fn sign_up_undone(conn: &mut DbConn, ip: &str) -> Result<(), Error> {
    Ok(rate_counters::uncount_one(
        conn,
        &format!("signup:{}", crate::util::clip(ip, 64)),
    )?)
}

/// One more confirmation mail to `email` (at most `per_day`, all accounts
/// together).
pub fn confirm_mail(
    conn: &mut DbConn,
    email: &str,
    per_day: i64,
    now: NaiveDateTime,
) -> Result<(), Error> {
    count(
        conn,
        &confirm_key(email),
        per_day,
        DAY,
        now,
        &format!("This address has been sent {per_day} confirmation mails today, the most it gets in a day."),
    )
}

/// Take back a confirmation mail counted for `email` that was not queued.
pub fn confirm_mail_not_sent(conn: &mut DbConn, email: &str) -> Result<(), Error> {
    Ok(rate_counters::uncount_one(conn, &confirm_key(email))?)
}

fn confirm_key(email: &str) -> String {
    format!(
        "confirm:{}",
        crate::util::clip(&email.trim().to_lowercase(), 254)
    )
}

/// One more address change asked for by `user_id` (at most `per_day`).
pub fn email_change(
    conn: &mut DbConn,
    user_id: i32,
    per_day: i64,
    now: NaiveDateTime,
) -> Result<(), Error> {
    count(
        conn,
        &format!("email-change:{user_id}"),
        per_day,
        DAY,
        now,
        &format!("You have asked for {per_day} address changes today, the most allowed (each one mails the address)."),
    )
}

/// One more reset mail asked for `email` (known or not: the same write
/// either way, so the time taken tells nothing). Whether it may go: at
/// most `per_day` to one address, a limit below 1 none.
pub fn reset_mail(
    conn: &mut DbConn,
    email: &str,
    per_day: i64,
    now: NaiveDateTime,
) -> Result<bool, Error> {
    let key = format!(
        "reset:{}",
        crate::util::clip(&email.trim().to_lowercase(), 254)
    );
    let counted = rate_counters::count_one(conn, &key, Duration::seconds(DAY), now)?;
    Ok(per_day < 1 || i64::from(counted.count) <= per_day)
}

/// What the new-game form makes that is limited per player and hour: a
/// challenge mails its player; a rated open seek is what two accounts of
/// one person would farm a rating with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    Challenge,
    RatedSeek,
}

impl Offer {
    fn key(self, user_id: i32) -> String {
        match self {
            Offer::Challenge => format!("challenge:{user_id}"),
            Offer::RatedSeek => format!("rated-seek:{user_id}"),
        }
    }
}

/// One more `offer` from `user_id` (at most `per_hour`).
pub fn offer(
    conn: &mut DbConn,
    offer: Offer,
    user_id: i32,
    per_hour: i64,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let what = match offer {
        Offer::Challenge => format!("You have sent {per_hour} challenges in the last hour, the most allowed (each one mails its player)."),
        Offer::RatedSeek => format!("You have made {per_hour} rated open seeks in the last hour, the most allowed."),
    };
    count(conn, &offer.key(user_id), per_hour, HOUR, now, &what)
}

/// Take back an `offer` counted for `user_id` that was not made.
pub fn offer_undone(conn: &mut DbConn, offer: Offer, user_id: i32) -> Result<(), Error> {
    Ok(rate_counters::uncount_one(conn, &offer.key(user_id))?)
}

/// Forget windows that ended more than a day ago (run at start-up).
pub fn prune(conn: &mut DbConn, now: NaiveDateTime) -> Result<usize, Error> {
    Ok(rate_counters::prune(
        conn,
        now - Duration::seconds(2 * DAY),
    )?)
}
