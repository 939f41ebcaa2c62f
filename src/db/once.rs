//! Writes that may be tried again after a lost connection, done once.
//!
//! A PostgreSQL connection can die between a COMMIT and its answer, so a
//! write whose connection was lost may be in the database or not. The
//! request tries it again on another connection ([`crate::web::write_once`])
//! under the same random key; [`once`] stores the key and the answer in the
//! write's own transaction, so a later try finds them and answers the same
//! without writing again. SQLite connections are not lost (the file cannot
//! go away), so nothing is stored there.

use super::schema::request_keys;
use super::stamp::Stamp;
use super::{per_backend, DbConn};
use crate::error::AppError;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::Connection;

/// What a write answers, kept as text with its key.
pub trait Answer: Sized {
    fn to_text(&self) -> String;
    fn from_text(text: &str) -> Option<Self>;
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

/// An id, such as a new game's.
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
pub fn once<T: Answer>(
    conn: &mut DbConn,
    key: &str,
    again: bool,
    now: NaiveDateTime,
    f: impl FnOnce(&mut DbConn) -> Result<T, AppError>,
) -> Result<T, AppError> {
    if matches!(conn, DbConn::Sqlite(_)) {
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
                return T::from_text(&text).ok_or_else(|| {
                    AppError::internal(format!("request key {key}: unreadable answer {text:?}"))
                });
            }
        }
        let answer = f(conn)?;
        per_backend!(conn, |c| diesel::insert_into(request_keys::table)
            .values((
                request_keys::key.eq(key),
                request_keys::answer.eq(answer.to_text()),
                request_keys::created_at.eq(Stamp(now)),
            ))
            .execute(c))?;
        Ok(answer)
    })
}

/// How long a key is kept: far longer than a request's tries take.
pub const KEPT: chrono::TimeDelta = chrono::TimeDelta::hours(1);

/// Forget the keys stored more than [`KEPT`] before `now`; how many.
pub fn prune(conn: &mut DbConn, now: NaiveDateTime) -> Result<usize, AppError> {
    let before = Stamp(now - KEPT);
    Ok(per_backend!(conn, |c| diesel::delete(
        request_keys::table.filter(request_keys::created_at.lt(before))
    )
    .execute(c))?)
}
