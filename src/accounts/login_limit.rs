//! Login limiting: every attempt is counted before its password is checked,
//! and past a few failures the next attempt must wait, twice as long after
//! each further failure. Three keys count: the account from this address
//! (tight: an attacker's guesses from one place), the account from anywhere
//! (looser, and its delay capped short, so that guesses spread over many
//! addresses are slowed while the owner arriving from a new address waits
//! at most that cap), and the address on any account.
//!
//! There is no lock-out: a delay always ends, and a right password clears
//! the account's failures from that address.
//!
//! Two kinds of attempt are counted apart, so that guesses at the account
//! password slow neither. A browser holding the account's device cookie
//! ([`crate::accounts::device_cookies`]) is counted on that cookie alone: a
//! few failures lock that cookie out for a while, and failures from
//! elsewhere never reach it. App passwords (Xfcc clients) are counted on
//! keys of their own, from one address only: a random 256-bit secret is not
//! guessed, so no count spread over addresses is needed for them, and none
//! lets a guesser hold a client program back.

use crate::accounts::device_cookies::Device;
use crate::config::Config;
use crate::db::login_throttles::{self, Claim};
use crate::db::DbConn;
use crate::domain::error::Error;
use chrono::{Duration, NaiveDateTime};

#[derive(Clone, Copy, Debug)]
pub struct LoginLimits {
    /// Failures of one account from one address before delays begin.
    pub per_account: i64,
    /// Failures of one account from all addresses before delays begin.
    pub per_account_any: i64,
    /// Failures from one address on any accounts before delays begin.
    pub per_ip: i64,
    /// Failures are forgotten after this long without attempts or delays.
    pub window_secs: i64,
    /// The first delay.
    pub delay_secs: i64,
    /// The longest delay for the account from one address, and for an address.
    pub delay_max_secs: i64,
    /// The longest delay for the account from all addresses.
    pub account_delay_max_secs: i64,
    /// Failures from a browser with the account's device cookie before the
    /// cookie is locked out.
    pub per_device: i64,
    /// How long a device cookie is locked out.
    pub device_lockout_secs: i64,
}

/// What a login attempt presents besides the password, which decides the
/// keys its failures are counted under.
#[derive(Clone, Copy, Debug)]
pub enum Attempt<'a> {
    /// The account password from a browser the account does not know.
    Untrusted,
    /// The account password from a browser holding the account's device
    /// cookie (checked, and for this account).
    KnownDevice(&'a Device),
    /// An app password (Xfcc).
    AppPassword,
}

impl LoginLimits {
    pub fn of(c: &Config) -> LoginLimits {
        LoginLimits {
            per_account: c.login_limit_account,
            per_account_any: c.login_limit_account_any,
            per_ip: c.login_limit_ip,
            window_secs: c.login_window_secs,
            delay_secs: c.login_delay_secs,
            delay_max_secs: c.login_delay_max_secs,
            account_delay_max_secs: c.login_account_delay_max_secs,
            per_device: c.login_limit_device,
            device_lockout_secs: c.login_device_lockout_secs,
        }
    }
}

/// One throttle key with the failures it allows and its delays.
struct Key {
    key: String,
    free: i64,
    first_delay: i64,
    max_delay: i64,
}

/// The keys an attempt is counted under. A right password forgets the
/// first key's failures and takes this attempt back from the others.
fn keys(username: &str, ip: &str, attempt: Attempt, limits: &LoginLimits) -> Vec<Key> {
    let name: String = crate::db::users::username_key(username)
        .chars()
        .take(64)
        .collect();
    let ip = crate::util::clip(ip, 64);
    let key = |key: String, free: i64, max_delay: i64| Key {
        key,
        free,
        first_delay: limits.delay_secs,
        max_delay,
    };
    match attempt {
        Attempt::Untrusted => vec![
            key(
                format!("a:{name}|{ip}"),
                limits.per_account,
                limits.delay_max_secs,
            ),
            key(
                format!("a:{name}"),
                limits.per_account_any,
                limits.account_delay_max_secs,
            ),
            key(format!("i:{ip}"), limits.per_ip, limits.delay_max_secs),
        ],
        Attempt::KnownDevice(device) => vec![Key {
            key: format!("d:{}", crate::util::clip(device.nonce(), 64)),
            free: limits.per_device,
            first_delay: limits.device_lockout_secs,
            max_delay: limits.device_lockout_secs,
        }],
        Attempt::AppPassword => vec![
            key(
                format!("x:{name}|{ip}"),
                limits.per_account,
                limits.delay_max_secs,
            ),
            key(format!("x:i:{ip}"), limits.per_ip, limits.delay_max_secs),
        ],
    }
}

/// The wait after the `failures`-th failure on a key that allows `free`:
/// none before `free`, then `first`, doubling, at most `max`.
pub fn delay_after(failures: i64, free: i64, first: i64, max: i64) -> i64 {
    if failures < free {
        return 0;
    }
    let doublings = (failures - free).clamp(0, 30) as u32;
    first.saturating_mul(1i64 << doublings).min(max)
}

/// Count a login attempt on every key before its password is checked, in
/// one transaction: when a delay is in force on any of them, nothing is
/// counted and the answer says how long to wait (`Error::TooSoon`).
pub fn claim(
    conn: &mut DbConn,
    username: &str,
    ip: &str,
    attempt: Attempt,
    limits: &LoginLimits,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let forget_before = now - Duration::seconds(limits.window_secs);
    crate::db::write_transaction(conn, |conn| {
        for k in keys(username, ip, attempt, limits) {
            match login_throttles::claim(conn, &k.key, now, forget_before)? {
                Claim::Refused { not_before } => {
                    let secs = ((not_before - now).num_milliseconds() + 999).div_euclid(1000);
                    return Err(Error::too_soon(
                        "Too many failed logins: logins to this account are slowed down for a while.",
                        secs,
                    ));
                }
                Claim::Granted { failures } => {
                    let wait = delay_after(i64::from(failures), k.free, k.first_delay, k.max_delay);
                    if wait > 0 {
                        login_throttles::delay(conn, &k.key, now + Duration::seconds(wait))?;
                    }
                }
            }
        }
        Ok(())
    })
}

/// The password was right: the failures on the attempt's first key (the
/// account from this address, or this device) are forgotten, and this
/// attempt is not counted against the others.
pub fn forgive(
    conn: &mut DbConn,
    username: &str,
    ip: &str,
    attempt: Attempt,
    limits: &LoginLimits,
) -> Result<(), Error> {
    let keys = keys(username, ip, attempt, limits);
    if let Some((first, rest)) = keys.split_first() {
        login_throttles::forget(conn, &first.key)?;
        for k in rest {
            login_throttles::refund(conn, &k.key)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::delay_after;

    #[test]
    fn delays_start_at_the_limit_double_and_stop_at_the_cap() {
        let d: Vec<i64> = (1..=12).map(|f| delay_after(f, 5, 2, 60)).collect();
        assert_eq!(d, [0, 0, 0, 0, 2, 4, 8, 16, 32, 60, 60, 60]);
        assert_eq!(delay_after(i64::MAX, 5, 2, 900), 900);
    }
}
