//! Replies by mail acted on, by their Message-ID: each is acted on once,
//! whichever delivery of it comes first.

use crate::db::schema::mail_in;
use crate::db::{is_unique_violation, per_backend, DbConn};
use crate::domain::error::Error;
use crate::domain::ids::GameId;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// Whether the message `key` was acted on already.
pub fn seen(conn: &mut DbConn, key: &str) -> Result<bool, Error> {
    let found: Option<String> = per_backend!(conn, |c| mail_in::table
        .find(key)
        .select(mail_in::message_id)
        .first(c)
        .optional())?;
    Ok(found.is_some())
}

/// The message's row, inserted in the act's transaction: [`Error::AlreadyDone`]
/// when another delivery of it was acted on first.
pub fn record(
    conn: &mut DbConn,
    key: &str,
    game: GameId,
    user: i32,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let inserted = per_backend!(conn, |c| diesel::insert_into(mail_in::table)
        .values((
            mail_in::message_id.eq(key),
            mail_in::game_id.eq(game),
            mail_in::user_id.eq(user),
            mail_in::received_at.eq(now),
        ))
        .execute(c));
    match inserted {
        Ok(_) => Ok(()),
        Err(e) if is_unique_violation(&e) => Err(Error::AlreadyDone),
        Err(e) => Err(e.into()),
    }
}
