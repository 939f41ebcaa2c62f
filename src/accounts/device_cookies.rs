//! Device cookies, as OWASP describes them ("Slow Down Online Guessing
//! Attacks with Device Cookies"): a browser that has logged in to an
//! account is given a signed cookie naming the account, and a later login
//! to that account presenting it is counted on the cookie alone, so guesses
//! from elsewhere cannot slow the owner's known browser.

use crate::accounts::links::{sign, verify};
use crate::db::users::username_key;

/// A device cookie that checked: the account it names, and its own random
/// id, which its failures are counted under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Device {
    account: String,
    nonce: String,
}

impl Device {
    /// Whether this cookie was given to `username`'s account.
    pub fn is_for(&self, username: &str) -> bool {
        self.account == username_key(username)
    }

    /// What the cookie's failures are counted under.
    pub fn nonce(&self) -> &str {
        &self.nonce
    }
}

fn signed(account: &str, nonce: &str) -> String {
    format!("device:{account}.{nonce}")
}

/// A new cookie value for `username`'s account:
/// `account.nonce.signature` (a username has no dots).
pub fn issue(secret: &[u8], username: &str) -> String {
    let account = username_key(username);
    let nonce = crate::util::random_token();
    let sig = sign(secret, &signed(&account, &nonce));
    format!("{account}.{nonce}.{sig}")
}

/// The device a cookie value names, when its signature is ours.
pub fn read(secret: &[u8], value: &str) -> Option<Device> {
    if value.len() > 300 {
        return None;
    }
    let mut parts = value.split('.');
    let (account, nonce, sig) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || account.is_empty() || nonce.is_empty() {
        return None;
    }
    verify(secret, &signed(account, nonce), sig).then(|| Device {
        account: account.to_string(),
        nonce: nonce.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::{issue, read};

    #[test]
    fn a_cookie_names_its_account_and_only_our_signature_counts() {
        let key = b"a secret of the server";
        let value = issue(key, "Alice");
        let device = read(key, &value).expect("our own cookie");
        assert!(device.is_for("alice") && device.is_for(" ALICE "));
        assert!(!device.is_for("bob"));
        assert_eq!(read(b"another server's secret", &value), None);
        let forged = value.replacen("alice", "bob", 1);
        assert_eq!(read(key, &forged), None);
        for junk in ["", "alice", "alice..", "a.b.c.d", "alice.x.zz"] {
            assert_eq!(read(key, junk), None, "{junk}");
        }
        assert_ne!(
            issue(key, "alice"),
            issue(key, "alice"),
            "a new id each time"
        );
    }
}
