//! A person's sessions: listed on `/settings`, ended all but the current
//! one ("log out everywhere", a password change) or all (a reset, an
//! operator's disable).

use crate::accounts::users::token_hash;
use crate::db::{sessions, DbConn};
use crate::domain::error::Error;
use chrono::{Duration, NaiveDateTime};

/// How stale "last seen" may get before a page view writes it again: a
/// write per page would cost every page a database write.
pub const SEEN_EVERY_MINUTES: i64 = 5;

/// One session as `/settings` lists it.
#[derive(Clone, Debug)]
pub struct SessionInfo {
    pub started: NaiveDateTime,
    pub last_seen: NaiveDateTime,
    /// The browser and system in words ("Firefox on Linux").
    pub browser: String,
    /// The session of the request that lists them.
    pub current: bool,
}

/// The active sessions of a user, the most recently seen first.
pub fn list(
    conn: &mut DbConn,
    user_id: i32,
    current_token: Option<&str>,
    now: NaiveDateTime,
) -> Result<Vec<SessionInfo>, Error> {
    let current = current_token.map(token_hash);
    let rows = sessions::of_user(conn, user_id, now)?;
    let mut out: Vec<SessionInfo> = rows
        .into_iter()
        .map(|(hash, started, seen, agent)| SessionInfo {
            started,
            last_seen: seen.unwrap_or(started),
            browser: browser_words(&agent),
            current: current.as_deref() == Some(hash.as_str()),
        })
        .collect();
    out.sort_by(|a, b| {
        b.current
            .cmp(&a.current)
            .then(b.last_seen.cmp(&a.last_seen))
    });
    Ok(out)
}

/// Whether a session last seen at `seen` should be marked seen again.
pub fn stale(seen: Option<NaiveDateTime>, now: NaiveDateTime) -> bool {
    seen.is_none_or(|s| now - s >= Duration::minutes(SEEN_EVERY_MINUTES))
}

/// Mark a session seen now.
pub fn touch(conn: &mut DbConn, token: &str, now: NaiveDateTime) -> Result<usize, Error> {
    Ok(sessions::touch(conn, &token_hash(token), now)?)
}

/// A `User-Agent` in a few words a person recognises; the raw header
/// is long and mostly historical noise.
pub fn browser_words(agent: &str) -> String {
    let has = |s: &str| agent.contains(s);
    let browser = if agent.trim().is_empty() {
        return "unknown browser".into();
    } else if has("Edg/") {
        "Edge"
    } else if has("OPR/") {
        "Opera"
    } else if has("Firefox/") {
        "Firefox"
    } else if has("Chrome/") || has("Chromium/") || has("HeadlessChrome/") {
        "Chrome"
    } else if has("Safari/") {
        "Safari"
    } else if has("curl/") {
        "curl"
    } else {
        return crate::util::clip(agent, 60);
    };
    let system = if has("Android") {
        "Android"
    } else if has("iPhone") || has("iPad") {
        "iOS"
    } else if has("Windows") {
        "Windows"
    } else if has("Mac OS X") || has("Macintosh") {
        "macOS"
    } else if has("Linux") || has("X11") {
        "Linux"
    } else {
        ""
    };
    if system.is_empty() {
        browser.to_string()
    } else {
        format!("{browser} on {system}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn browsers_in_words() {
        assert_eq!(
            browser_words("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"),
            "Firefox on Linux"
        );
        assert_eq!(
            browser_words(
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 \
                 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
            ),
            "Safari on iOS"
        );
        assert_eq!(
            browser_words(
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) \
                 Chrome/120.0 Safari/537.36 Edg/120.0"
            ),
            "Edge on Windows"
        );
        assert_eq!(browser_words(""), "unknown browser");
        assert_eq!(browser_words("reqwest"), "reqwest");
    }
}
