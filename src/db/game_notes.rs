//! Players' private notes on games (one per player and game).

use crate::db::schema::game_notes;
use crate::db::{is_unique_violation, DbConn};
use crate::domain::error::Error;
use crate::domain::ids::GameId;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// Delete a user's note on a game, if any.
pub fn delete(conn: &mut DbConn, game_id: GameId, user_id: i32) -> Result<(), Error> {
    diesel::delete(
        game_notes::table
            .filter(game_notes::game_id.eq(game_id))
            .filter(game_notes::user_id.eq(user_id)),
    )
    .execute(conn)?;
    Ok(())
}

/// Change a user's note on a game; false when they have none.
pub fn update(
    conn: &mut DbConn,
    game_id: GameId,
    user_id: i32,
    body: &str,
    now: NaiveDateTime,
) -> Result<bool, Error> {
    let n = diesel::update(
        game_notes::table
            .filter(game_notes::game_id.eq(game_id))
            .filter(game_notes::user_id.eq(user_id)),
    )
    .set((game_notes::body.eq(body), game_notes::updated_at.eq(now)))
    .execute(conn)?;
    Ok(n != 0)
}

/// Store a user's note on a game; false when one was stored meanwhile.
pub fn insert(
    conn: &mut DbConn,
    game_id: GameId,
    user_id: i32,
    body: &str,
    now: NaiveDateTime,
) -> Result<bool, Error> {
    match diesel::insert_into(game_notes::table)
        .values((
            game_notes::game_id.eq(game_id),
            game_notes::user_id.eq(user_id),
            game_notes::body.eq(body),
            game_notes::updated_at.eq(now),
        ))
        .execute(conn)
    {
        Ok(_) => Ok(true),
        Err(e) if is_unique_violation(&e) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// The user's game notes: (game, text, last written), by game.
pub fn of_user(
    conn: &mut DbConn,
    user_id: i32,
) -> Result<Vec<(i32, String, chrono::NaiveDateTime)>, crate::domain::error::Error> {
    Ok(crate::db::schema::game_notes::table
        .filter(crate::db::schema::game_notes::user_id.eq(user_id))
        .order(crate::db::schema::game_notes::game_id.asc())
        .select((
            crate::db::schema::game_notes::game_id,
            crate::db::schema::game_notes::body,
            crate::db::schema::game_notes::updated_at,
        ))
        .load(conn)?)
}
