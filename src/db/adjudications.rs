//! Adjudications' rows: a director's rulings on tournament games, and the
//! players' requests for one.

use crate::db::schema::{adjudication_requests, adjudications, games};
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::GameResult;
use crate::domain::ids::GameId;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// A request for adjudication the director has not answered.
#[derive(Queryable, Clone, Debug)]
pub struct OpenRequest {
    pub id: i32,
    pub game_id: GameId,
    pub tournament_id: Option<i32>,
    pub user_id: i32,
    pub note: String,
    pub created_at: NaiveDateTime,
}

/// Record a director's ruling on a game.
pub fn add(
    conn: &mut DbConn,
    game: GameId,
    director: i32,
    result: GameResult,
    reason: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    diesel::insert_into(adjudications::table)
        .values((
            adjudications::game_id.eq(game),
            adjudications::director_id.eq(director),
            adjudications::result.eq(result.code()),
            adjudications::reason.eq(reason),
            adjudications::created_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// The rulings on a tournament's games, oldest first: (game, result, reason).
pub fn of_tournament(conn: &mut DbConn, tid: i32) -> Result<Vec<(i32, String, String)>, Error> {
    Ok(adjudications::table
        .inner_join(games::table.on(games::id.eq(adjudications::game_id)))
        .filter(games::tournament_id.eq(tid))
        .order(adjudications::id.asc())
        .select((
            adjudications::game_id,
            adjudications::result,
            adjudications::reason,
        ))
        .load(conn)?)
}

/// Answer every open request on a game, as `director`.
pub fn resolve_requests(
    conn: &mut DbConn,
    game: GameId,
    director: i32,
    now: NaiveDateTime,
) -> Result<(), Error> {
    diesel::update(
        adjudication_requests::table
            .filter(adjudication_requests::game_id.eq(game))
            .filter(adjudication_requests::resolved_at.is_null()),
    )
    .set((
        adjudication_requests::resolved_at.eq(Some(now)),
        adjudication_requests::resolved_by.eq(Some(director)),
    ))
    .execute(conn)?;
    Ok(())
}

/// Whether `user` has a request on the game the director has not answered.
pub fn has_open_request(conn: &mut DbConn, game: GameId, user: i32) -> Result<bool, Error> {
    let pending: i64 = adjudication_requests::table
        .filter(adjudication_requests::game_id.eq(game))
        .filter(adjudication_requests::user_id.eq(user))
        .filter(adjudication_requests::resolved_at.is_null())
        .count()
        .get_result(conn)?;
    Ok(pending > 0)
}

pub fn add_request(
    conn: &mut DbConn,
    game: GameId,
    user: i32,
    note: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    diesel::insert_into(adjudication_requests::table)
        .values((
            adjudication_requests::game_id.eq(game),
            adjudication_requests::user_id.eq(user),
            adjudication_requests::note.eq(note),
            adjudication_requests::created_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// The open requests on these tournaments' games, oldest first.
pub fn open_requests(conn: &mut DbConn, tids: &[i32]) -> Result<Vec<OpenRequest>, Error> {
    Ok(adjudication_requests::table
        .inner_join(games::table)
        .filter(games::tournament_id.eq_any(tids))
        .filter(adjudication_requests::resolved_at.is_null())
        .order(adjudication_requests::id.asc())
        .select((
            adjudication_requests::id,
            adjudication_requests::game_id,
            games::tournament_id,
            adjudication_requests::user_id,
            adjudication_requests::note,
            adjudication_requests::created_at,
        ))
        .load(conn)?)
}
