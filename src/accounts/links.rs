//! Signed links in mails: "play this move" links (game, player, ply, expiry)
//! and unsubscribe links. HMAC-SHA256 with the server secret.

use crate::db::games;
use crate::domain::ids::GameId;
use chrono::NaiveDateTime;
use hmac::{Hmac, Mac};
use sha2::Sha256;

fn mac(secret: &[u8], data: &str) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(data.as_bytes());
    mac
}

pub(crate) fn sign(secret: &[u8], data: &str) -> String {
    hex::encode(mac(secret, data).finalize().into_bytes())
}

pub(crate) fn verify(secret: &[u8], data: &str, sig: &str) -> bool {
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
    pub game: GameId,
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

/// What a "your turn" mail's reply address grants (issue 42): a reply from
/// `user`'s confirmed address may make the move of ply `ply + 1` in `game`
/// until `expires`, as the play link does. The address is
/// `play+GAME-USER-PLY-EXPIRES-SIG@domain`, the numbers in base 36 and the
/// HMAC cut to 96 bits, so that it fits the 64 characters a mailbox name
/// may have; all lower case, since mail servers may fold the case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplyToken {
    pub game: GameId,
    pub user: i32,
    pub ply: i32,
    pub expires: i64,
}

/// How much of the HMAC a reply address keeps, in bytes.
const REPLY_SIG_BYTES: usize = 12;

fn base36(mut n: u64) -> String {
    let digits = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(digits[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

impl ReplyToken {
    fn data(&self) -> String {
        format!(
            "reply:{}:{}:{}:{}",
            self.game, self.user, self.ply, self.expires
        )
    }

    /// The token: the fields and their signature.
    pub fn token(&self, secret: &[u8]) -> String {
        let sig = mac(secret, &self.data()).finalize().into_bytes();
        let numbers = [
            self.game.get() as u64,
            self.user as u64,
            self.ply as u64,
            self.expires.max(0) as u64,
        ];
        let mut parts: Vec<String> = numbers.into_iter().map(base36).collect();
        parts.push(hex::encode(&sig[..REPLY_SIG_BYTES]));
        parts.join("-")
    }

    /// `play+TOKEN@domain`.
    pub fn address(&self, secret: &[u8], domain: &str) -> String {
        format!("play+{}@{domain}", self.token(secret))
    }

    /// The token's fields, when its signature is right; `None` for anything
    /// else (a changed, cut or made-up token).
    pub fn read(secret: &[u8], token: &str) -> Option<ReplyToken> {
        let token = token.trim().to_ascii_lowercase();
        let parts: Vec<&str> = token.split('-').collect();
        let [g, u, p, e, sig] = parts.as_slice() else {
            return None;
        };
        let number = |s: &str| (s.len() <= 13).then(|| u64::from_str_radix(s, 36).ok())?;
        let t = ReplyToken {
            game: GameId(i32::try_from(number(g)?).ok()?),
            user: i32::try_from(number(u)?).ok()?,
            ply: i32::try_from(number(p)?).ok()?,
            expires: i64::try_from(number(e)?).ok()?,
        };
        let sig = hex::decode(sig)
            .ok()
            .filter(|b| b.len() == REPLY_SIG_BYTES)?;
        // `verify_truncated_left` compares in constant time.
        mac(secret, &t.data())
            .verify_truncated_left(&sig)
            .is_ok()
            .then_some(t)
    }

    /// The token of a `play+TOKEN@domain` address (any domain: the
    /// signature decides), or `None` when the address is not one.
    pub fn token_of_address(address: &str) -> Option<&str> {
        let address = address.trim().trim_start_matches('<').trim_end_matches('>');
        let (local, _domain) = address.rsplit_once('@')?;
        let (tag, token) = local.split_once('+')?;
        tag.eq_ignore_ascii_case("play").then_some(token)
    }

    pub fn expired(&self, now: NaiveDateTime) -> bool {
        now.and_utc().timestamp() >= self.expires
    }

    /// The play link's grant, which the checks of a play link apply to.
    pub fn as_play_link(&self) -> PlayLink {
        PlayLink {
            game: self.game,
            user: self.user,
            ply: self.ply,
            expires: self.expires,
        }
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
    Result<(crate::db::games::GameRow, crate::db::users::User), LinkProblem>,
    crate::domain::error::Error,
> {
    if !link.verify(secret, sig) {
        return Ok(Err(LinkProblem::Tampered));
    }
    if link.expired(now) {
        return Ok(Err(LinkProblem::Expired));
    }
    let row = match games::load(conn, link.game) {
        Ok(r) => r,
        Err(crate::domain::error::Error::NotFound(_)) => return Ok(Err(LinkProblem::Used)),
        Err(e) => return Err(e),
    };
    if row.ply != link.ply || games::player_to_move(&row) != Some(link.user) {
        return Ok(Err(LinkProblem::Used));
    }
    match crate::db::users::find_by_id(conn, link.user)? {
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
            game: GameId(3),
            user: 7,
            ply: 4,
            expires: 2_000_000_000,
        };
        let sig = l.sign(b"k");
        assert!(l.verify(b"k", &sig));
        assert!(!l.verify(b"other key", &sig));
        for changed in [
            PlayLink {
                game: GameId(4),
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

    #[test]
    fn reply_addresses_sign_every_field_and_fit_a_mailbox_name() {
        let t = ReplyToken {
            game: GameId(i32::MAX),
            user: i32::MAX,
            ply: 9999,
            expires: 4_000_000_000,
        };
        let address = t.address(b"k", "example.org");
        let local = address.split('@').next().unwrap();
        assert!(local.len() <= 64, "{local}");
        assert_eq!(address, address.to_ascii_lowercase());
        let token = ReplyToken::token_of_address(&address).unwrap();
        assert_eq!(ReplyToken::read(b"k", token), Some(t.clone()));
        // Mail servers may fold the case.
        assert_eq!(
            ReplyToken::read(b"k", &token.to_uppercase()),
            Some(t.clone())
        );
        assert_eq!(ReplyToken::read(b"other key", token), None);
        // Any field changed, or the signature, or cut short: refused.
        let parts: Vec<&str> = token.split('-').collect();
        for i in 0..parts.len() {
            let mut changed: Vec<String> = parts.iter().map(|p| p.to_string()).collect();
            let last = changed[i].pop().unwrap();
            changed[i].push(if last == '1' { '2' } else { '1' });
            assert_eq!(ReplyToken::read(b"k", &changed.join("-")), None, "{i}");
        }
        assert_eq!(ReplyToken::read(b"k", &token[..token.len() - 2]), None);
        assert_eq!(ReplyToken::read(b"k", ""), None);
        assert_eq!(ReplyToken::token_of_address("someone@example.org"), None);
        assert_eq!(
            ReplyToken::token_of_address("<Play+abc@x.org>"),
            Some("abc")
        );
    }
}
