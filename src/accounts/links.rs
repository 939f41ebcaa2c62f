//! Signed links in mails: "play this move" links (game, player, ply, expiry)
//! and unsubscribe links. HMAC-SHA256 with the server secret.

use chrono::NaiveDateTime;
use hmac::{Hmac, Mac};
use sha2::Sha256;

fn mac(secret: &[u8], data: &str) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(data.as_bytes());
    mac
}

fn sign(secret: &[u8], data: &str) -> String {
    hex::encode(mac(secret, data).finalize().into_bytes())
}

fn verify(secret: &[u8], data: &str, sig: &str) -> bool {
    match hex::decode(sig) {
        // `verify_slice` compares in constant time.
        Ok(bytes) => mac(secret, data).verify_slice(&bytes).is_ok(),
        Err(_) => false,
    }
}

/// What a play link grants: `user` may make the move of ply `ply + 1` in
/// `game` (the position after `ply` plies), until `expires` (Unix seconds).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayLink {
    pub game: i32,
    pub user: i32,
    pub ply: i32,
    pub expires: i64,
}

impl PlayLink {
    fn data(&self) -> String {
        format!(
            "play:{}:{}:{}:{}",
            self.game, self.user, self.ply, self.expires
        )
    }

    pub fn sign(&self, secret: &[u8]) -> String {
        sign(secret, &self.data())
    }

    pub fn verify(&self, secret: &[u8], sig: &str) -> bool {
        verify(secret, &self.data(), sig)
    }

    pub fn expired(&self, now: NaiveDateTime) -> bool {
        now.and_utc().timestamp() >= self.expires
    }

    /// The query string of the link (`u`, `ply`, `exp`, `sig`).
    pub fn query(&self, secret: &[u8]) -> String {
        format!(
            "u={}&ply={}&exp={}&sig={}",
            self.user,
            self.ply,
            self.expires,
            self.sign(secret)
        )
    }

    /// The full address: `{base}/games/{id}/play?u=..&ply=..&exp=..&sig=..`.
    pub fn url(&self, base_url: &str, secret: &[u8]) -> String {
        format!("{base_url}/games/{}/play?{}", self.game, self.query(secret))
    }
}

/// The one-click unsubscribe link of a user.
pub fn unsubscribe_sig(secret: &[u8], user: i32) -> String {
    sign(secret, &format!("unsubscribe:{user}"))
}

pub fn unsubscribe_ok(secret: &[u8], user: i32, sig: &str) -> bool {
    verify(secret, &format!("unsubscribe:{user}"), sig)
}

pub fn unsubscribe_url(base_url: &str, secret: &[u8], user: i32) -> String {
    format!(
        "{base_url}/unsubscribe?u={user}&sig={}",
        unsubscribe_sig(secret, user)
    )
}

/// The email verification link: signed over the user and the address, so
/// it stops working when the address changes.
pub fn verify_sig(secret: &[u8], user: i32, email: &str) -> String {
    sign(secret, &format!("verify:{user}:{email}"))
}

pub fn verify_ok(secret: &[u8], user: i32, email: &str, sig: &str) -> bool {
    verify(secret, &format!("verify:{user}:{email}"), sig)
}

pub fn verify_url(base_url: &str, secret: &[u8], user: i32, email: &str) -> String {
    format!(
        "{base_url}/verify-email?u={user}&sig={}",
        verify_sig(secret, user, email)
    )
}

/// Why a play link cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkProblem {
    /// The signature does not match (a changed or made-up link).
    Tampered,
    Expired,
    /// The move was played (or the game is over, or not this player's turn).
    Used,
    /// The operators disabled the account the link speaks for.
    Disabled,
}

impl LinkProblem {
    pub fn message(&self) -> &'static str {
        match self {
            LinkProblem::Tampered => {
                "This link is not valid: it may have been changed or cut short. \
                 Log in to play your move."
            }
            LinkProblem::Expired => "This link has expired. Log in to play your move.",
            LinkProblem::Used => {
                "This link has been used: the move it was for has been played \
                 (or the game has moved on). Log in to see the game."
            }
            LinkProblem::Disabled => "This account has been disabled by the operators.",
        }
    }
}

/// Check a play link against the database: signed, not expired, and the
/// game still at that ply with that player to move. Gives the game and the
/// player the link speaks for.
pub fn check_play_link(
    conn: &mut crate::db::DbConn,
    secret: &[u8],
    link: &PlayLink,
    sig: &str,
    now: NaiveDateTime,
) -> Result<
    Result<(crate::db::models::GameRow, crate::db::models::User), LinkProblem>,
    crate::domain::error::Error,
> {
    use crate::db::models::User;
    use crate::db::schema::users;
    use crate::game::rows;
    use diesel::prelude::*;
    if !link.verify(secret, sig) {
        return Ok(Err(LinkProblem::Tampered));
    }
    if link.expired(now) {
        return Ok(Err(LinkProblem::Expired));
    }
    let row = match rows::load(conn, link.game) {
        Ok(r) => r,
        Err(crate::domain::error::Error::NotFound(_)) => return Ok(Err(LinkProblem::Used)),
        Err(e) => return Err(e),
    };
    if row.ply != link.ply || rows::player_to_move(&row) != Some(link.user) {
        return Ok(Err(LinkProblem::Used));
    }
    let user: Option<User> = users::table
        .find(link.user)
        .select(User::as_select())
        .first(conn)
        .optional()?;
    match user {
        Some(u) if u.disabled_at.is_some() || u.deleted_at.is_some() => {
            Ok(Err(LinkProblem::Disabled))
        }
        Some(u) => Ok(Ok((row, u))),
        None => Ok(Err(LinkProblem::Used)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_links_sign_every_field() {
        let l = PlayLink {
            game: 3,
            user: 7,
            ply: 4,
            expires: 2_000_000_000,
        };
        let sig = l.sign(b"k");
        assert!(l.verify(b"k", &sig));
        assert!(!l.verify(b"other key", &sig));
        for changed in [
            PlayLink {
                game: 4,
                ..l.clone()
            },
            PlayLink {
                user: 8,
                ..l.clone()
            },
            PlayLink {
                ply: 5,
                ..l.clone()
            },
            PlayLink {
                expires: 2_000_000_001,
                ..l.clone()
            },
        ] {
            assert!(!changed.verify(b"k", &sig), "{changed:?}");
        }
        assert!(!l.verify(b"k", "zz"));
        assert!(!l.verify(b"k", ""));
        assert!(unsubscribe_ok(b"k", 7, &unsubscribe_sig(b"k", 7)));
        assert!(!unsubscribe_ok(b"k", 8, &unsubscribe_sig(b"k", 7)));
    }
}
