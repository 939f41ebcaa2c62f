//! Writes that may be tried again after a lost connection, done once.
//!
//! A PostgreSQL connection can die between a COMMIT and its answer, so a
//! write whose connection was lost may be in the database or not. The
//! request tries it again on another connection (the web layer's `AppState::write`)
//! under the same random key; [`once`] stores the key and the answer in the
//! write's own transaction, so a later try finds them and answers the same
//! without writing again. SQLite connections are not lost (the file cannot
//! go away), so nothing is stored there.

use super::schema::request_keys;
use super::{per_backend, DbConn};
use crate::domain::error::{Error, MovedOn};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::Connection;

/// What a write answers, kept as text with its key.
pub trait Answer: Sized {
    fn to_text(&self) -> String;
    fn from_text(text: &str) -> Option<Self>;
    /// What a try answers when an earlier try under its key was stored and
    /// its answer cannot be read back.
    fn not_kept(key: &str, text: &str) -> Error {
        Error::internal(format!("request key {key}: unreadable answer {text:?}"))
    }
    /// Whether doing the write twice is harmless, so that no key is stored
    /// for it ([`Harmless`]).
    const HARMLESS: bool = false;
}

/// The answer of a write that may be done twice without harm (a session's
/// "last seen", a token's "last used"): [`once`] stores no key for it, so it
/// costs what the write costs and no more.
pub struct Harmless;

impl Answer for Harmless {
    fn to_text(&self) -> String {
        String::new()
    }
    fn from_text(_: &str) -> Option<Harmless> {
        Some(Harmless)
    }
    const HARMLESS: bool = true;
}

/// A secret a write makes (a session's token, an API token, a calendar
/// address): never kept with its key, since only its hash is stored. A try
/// after one that was stored although its answer was lost says so, and
/// makes no second secret.
pub struct Secret<T>(pub T);

impl<T> Answer for Secret<T> {
    fn to_text(&self) -> String {
        String::new()
    }
    fn from_text(_: &str) -> Option<Secret<T>> {
        None
    }
    fn not_kept(_: &str, _: &str) -> Error {
        Error::Conflict(
            "This was done, but its answer was lost on the way, and a secret is shown only \
             once. Open the page again: what was made is listed there (revoke it, or log in \
             again, and make another)."
                .into(),
        )
    }
}

impl Answer for () {
    fn to_text(&self) -> String {
        String::new()
    }
    fn from_text(_: &str) -> Option<()> {
        Some(())
    }
}

impl Answer for bool {
    fn to_text(&self) -> String {
        self.to_string()
    }
    fn from_text(text: &str) -> Option<bool> {
        text.parse().ok()
    }
}

/// A text, such as a new posted variant's id.
impl Answer for String {
    fn to_text(&self) -> String {
        self.clone()
    }
    fn from_text(text: &str) -> Option<String> {
        Some(text.to_string())
    }
}

/// An id, such as a new game's, or none.
impl Answer for Option<i32> {
    fn to_text(&self) -> String {
        self.map(|id| id.to_string()).unwrap_or_default()
    }
    fn from_text(text: &str) -> Option<Option<i32>> {
        match text {
            "" => Some(None),
            t => t.parse().ok().map(Some),
        }
    }
}

/// A new game's id.
impl Answer for crate::domain::ids::GameId {
    fn to_text(&self) -> String {
        self.to_string()
    }
    fn from_text(text: &str) -> Option<Self> {
        text.parse().ok()
    }
}

/// An id, such as a new tournament's.
impl Answer for i32 {
    fn to_text(&self) -> String {
        self.to_string()
    }
    fn from_text(text: &str) -> Option<i32> {
        text.parse().ok()
    }
}

/// `f`, with `key` and its answer stored in the same transaction. When
/// `again` (an earlier try under `key` lost its connection), the stored
/// answer if there is one, and `f` is not run.
///
/// `f`'s writes stand whatever it answers, as they would outside a
/// transaction: a refusal (a game found lost on time before a resignation,
/// say, which ends the game and answers "the flag fell") is committed and
/// kept with the key like any answer. Only a failure of the database
/// itself rolls everything back.
pub fn once<T: Answer>(
    conn: &mut DbConn,
    key: &str,
    again: bool,
    now: NaiveDateTime,
    f: impl FnOnce(&mut DbConn) -> Result<T, Error>,
) -> Result<T, Error> {
    if T::HARMLESS || matches!(conn, DbConn::Sqlite(_)) {
        return f(conn);
    }
    conn.transaction(|conn| {
        if again {
            let stored: Option<String> = per_backend!(conn, |c| request_keys::table
                .find(key)
                .select(request_keys::answer)
                .first(c)
                .optional())?;
            if let Some(text) = stored {
                return Ok(read_back::<T>(&text).unwrap_or_else(|| Err(T::not_kept(key, &text))));
            }
        }
        let (text, answer) = match f(conn) {
            Ok(a) => (format!("{OK}{}", a.to_text()), Ok(a)),
            Err(e) => match refusal_text(&e) {
                Some(text) => (text, Err(e)),
                // The database's failure, or the server's: all rolled back.
                None => return Err(e),
            },
        };
        per_backend!(conn, |c| diesel::insert_into(request_keys::table)
            .values((
                request_keys::key.eq(key),
                request_keys::answer.eq(text),
                request_keys::created_at.eq(now),
            ))
            .execute(c))?;
        Ok(answer)
    })
    .and_then(|answer| answer)
}

/// The prefix of a stored answer that is not a refusal.
const OK: &str = "ok:";

/// What a stored answer says.
fn read_back<T: Answer>(text: &str) -> Option<Result<T, Error>> {
    match text.strip_prefix(OK) {
        Some(answer) => T::from_text(answer).map(Ok),
        None => refusal_of(text).map(Err),
    }
}

/// The refusals a write may answer after writing, as stored text; `None`
/// for failures (the database's, the server's), which roll the write back.
fn refusal_text(e: &Error) -> Option<String> {
    let (kind, message) = match e {
        Error::NotFound(m) => ("not-found", m),
        Error::Forbidden(m) => ("forbidden", m),
        Error::LoginRequired(m) => ("login-required", m),
        Error::BadRequest(m) => ("bad-request", m),
        Error::Invalid(m) => ("invalid", m),
        Error::AmbiguousMove(m) => ("ambiguous-move", m),
        Error::Conflict(m) => ("conflict", m),
        Error::MovedOn(how) => return Some(format!("moved-on:{}", how.code())),
        Error::AlreadyDone => return Some("already-done:".into()),
        Error::RateLimited(m) => ("rate-limited", m),
        Error::TooSoon {
            message,
            retry_after,
        } => return Some(format!("too-soon:{retry_after}:{message}")),
        Error::Unavailable(_) | Error::ConnectionLost(_) | Error::Internal(_) => return None,
    };
    Some(format!("{kind}:{message}"))
}

fn refusal_of(text: &str) -> Option<Error> {
    let (kind, message) = text.split_once(':')?;
    let message = message.to_string();
    Some(match kind {
        "not-found" => Error::NotFound(message),
        "forbidden" => Error::Forbidden(message),
        "login-required" => Error::LoginRequired(message),
        "bad-request" => Error::BadRequest(message),
        "invalid" => Error::Invalid(message),
        "ambiguous-move" => Error::AmbiguousMove(message),
        "conflict" => Error::Conflict(message),
        "moved-on" => Error::MovedOn(MovedOn::from_code(&message)?),
        "already-done" => Error::AlreadyDone,
        "rate-limited" => Error::RateLimited(message),
        "too-soon" => {
            let (secs, message) = message.split_once(':')?;
            Error::TooSoon {
                message: message.to_string(),
                retry_after: secs.parse().ok()?,
            }
        }
        _ => return None,
    })
}

/// How long a key is kept: far longer than a request's tries take.
pub const KEPT: chrono::TimeDelta = chrono::TimeDelta::hours(1);

/// Forget the keys stored more than [`KEPT`] before `now`; how many. On
/// SQLite, where [`once`] stores none, nothing is run: a DELETE there takes
/// the write lock from the moves' writer even when it finds no row.
pub fn prune(conn: &mut DbConn, now: NaiveDateTime) -> Result<usize, Error> {
    if matches!(conn, DbConn::Sqlite(_)) {
        return Ok(0);
    }
    let before = now - KEPT;
    Ok(per_backend!(conn, |c| diesel::delete(
        request_keys::table.filter(request_keys::created_at.lt(before))
    )
    .execute(c))?)
}
