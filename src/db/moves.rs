//! Moves' rows and the queries on them: a game's plies as pages and
//! exports list them, storing a ply, and what a takeback reads and removes.

use crate::db::schema::moves;
use crate::db::{is_unique_violation, per_backend, DbConn};
use crate::domain::error::Error;
use crate::domain::ids::GameId;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// A ply as a page lists it, with what drawing the position after it takes:
/// `MoveRow` without the columns only the exports read. Its timestamp,
/// parsed from text on SQLite, cost more than all of these together.
#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = moves)]
pub struct ListedMove {
    pub ply: i32,
    pub display: String,
    pub from_square: Option<String>,
    pub to_square: String,
    pub fen_after: String,
    pub played_by: i32,
    pub comment: Option<String>,
    pub turn_no: i32,
    /// Played from the mover's conditional line.
    pub conditional: bool,
}

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = moves)]
pub struct MoveRow {
    pub game_id: GameId,
    pub ply: i32,
    pub display: String,
    pub coordinate: String,
    pub from_square: Option<String>,
    pub to_square: String,
    pub fen_after: String,
    pub played_by: i32,
    pub played_at: NaiveDateTime,
    /// The `//` text entered with the move.
    pub comment: Option<String>,
    /// Seconds of the mover's running clock this move took (leave excluded).
    pub time_used_secs: Option<i64>,
    /// The move number the list shows (both halves of a turn share it).
    pub turn_no: i32,
    /// Played from the mover's conditional line.
    pub conditional: bool,
}

/// `None` is stored as NULL (the nullable columns have no default), so the
/// INSERT has one shape and diesel keeps it prepared; leaving absent columns
/// out, diesel's default on SQLite, compiles it again on every move.
#[derive(Insertable)]
#[diesel(table_name = moves)]
#[diesel(treat_none_as_default_value = false)]
pub struct NewMove<'a> {
    pub game_id: GameId,
    pub ply: i32,
    pub display: &'a str,
    pub coordinate: &'a str,
    pub from_square: Option<&'a str>,
    pub to_square: &'a str,
    pub fen_after: &'a str,
    pub played_by: i32,
    pub played_at: NaiveDateTime,
    /// The `//` text entered with the move.
    pub comment: Option<String>,
    pub time_used_secs: Option<i64>,
    /// The move number the list shows (both halves of a turn share it).
    pub turn_no: i32,
    /// The repetition-history entry of the position the move left
    /// ([`missive_rules::Game::last_history_entry`]); `None` where the
    /// game's `game_histories` row already holds it.
    pub history_entry: Option<&'a str>,
    /// Played from the mover's conditional line.
    pub conditional: bool,
    /// The mover's bank after the move (a takeback restores it).
    pub bank_after: Option<i64>,
}

/// A game's moves, in order.
pub fn of_game(conn: &mut DbConn, game_id: GameId) -> Result<Vec<MoveRow>, Error> {
    Ok(moves::table
        .filter(moves::game_id.eq(game_id))
        .order(moves::ply.asc())
        .select(MoveRow::as_select())
        .load(conn)?)
}

/// Plies `first..=last` as a page lists them (a window of a long game).
pub fn between(
    conn: &mut DbConn,
    game_id: GameId,
    first: i32,
    last: i32,
) -> Result<Vec<ListedMove>, Error> {
    Ok(per_backend!(conn, |c| moves::table
        .filter(moves::game_id.eq(game_id))
        .filter(moves::ply.between(first, last))
        .order(moves::ply.asc())
        .select(ListedMove::as_select())
        .load(c))?)
}

/// Who played a game's ply `ply` and its coordinate form, if it is stored.
pub fn played(
    conn: &mut DbConn,
    game_id: GameId,
    ply: i32,
) -> Result<Option<(i32, String)>, Error> {
    Ok(per_backend!(conn, |c| moves::table
        .find((game_id, ply))
        .select((moves::played_by, moves::coordinate))
        .first(c)
        .optional())?)
}

/// The move number of a game's ply `ply` and who played it, if it is stored.
pub fn turn_of(conn: &mut DbConn, game_id: GameId, ply: i32) -> Result<Option<(i32, i32)>, Error> {
    Ok(per_backend!(conn, |c| moves::table
        .filter(moves::game_id.eq(game_id))
        .filter(moves::ply.eq(ply))
        .select((moves::turn_no, moves::played_by))
        .first(c)
        .optional())?)
}

/// How many moves `user_id` has made in a game.
pub fn count_by(conn: &mut DbConn, game_id: GameId, user_id: i32) -> Result<i64, Error> {
    Ok(moves::table
        .filter(moves::game_id.eq(game_id))
        .filter(moves::played_by.eq(user_id))
        .count()
        .get_result(conn)?)
}

/// The ply of `user_id`'s last move in a game, if they have moved.
pub fn last_ply_by(conn: &mut DbConn, game_id: GameId, user_id: i32) -> Result<Option<i32>, Error> {
    Ok(per_backend!(conn, |c| moves::table
        .filter(moves::game_id.eq(game_id))
        .filter(moves::played_by.eq(user_id))
        .select(diesel::dsl::max(moves::ply))
        .first(c))?)
}

/// A ply as a takeback reads it: (ply, played by, position after, the
/// mover's bank after).
pub type KeptPly = (i32, i32, String, Option<i64>);

/// A game's plies up to `last`, in order, as a takeback reads them.
pub fn plies_until(conn: &mut DbConn, game_id: GameId, last: i32) -> Result<Vec<KeptPly>, Error> {
    Ok(per_backend!(conn, |c| moves::table
        .filter(moves::game_id.eq(game_id))
        .filter(moves::ply.le(last))
        .order(moves::ply.asc())
        .select((
            moves::ply,
            moves::played_by,
            moves::fen_after,
            moves::bank_after
        ))
        .load(c))?)
}

/// A ply as written, if it is stored.
pub fn display_of(conn: &mut DbConn, game_id: GameId, ply: i32) -> Result<Option<String>, Error> {
    Ok(per_backend!(conn, |c| moves::table
        .find((game_id, ply))
        .select(moves::display)
        .first(c)
        .optional())?)
}

/// The moves of a game from ply `first` on, as written.
pub fn displays_from(conn: &mut DbConn, game_id: GameId, first: i32) -> Result<Vec<String>, Error> {
    Ok(per_backend!(conn, |c| moves::table
        .filter(moves::game_id.eq(game_id))
        .filter(moves::ply.ge(first))
        .order(moves::ply.asc())
        .select(moves::display)
        .load(c))?)
}

/// Remove a game's plies from `first` on.
pub fn delete_from(conn: &mut DbConn, game_id: GameId, first: i32) -> Result<(), Error> {
    per_backend!(conn, |c| diesel::delete(
        moves::table
            .filter(moves::game_id.eq(game_id))
            .filter(moves::ply.ge(first))
    )
    .execute(c))?;
    Ok(())
}

/// Store a ply; false when the game has that ply already (the unique
/// (game_id, ply) key).
pub fn insert(conn: &mut DbConn, mv: NewMove) -> Result<bool, Error> {
    match per_backend!(conn, |c| diesel::insert_into(moves::table)
        .values(mv)
        .execute(c))
    {
        Ok(_) => Ok(true),
        Err(e) if is_unique_violation(&e) => Ok(false),
        Err(e) => Err(e.into()),
    }
}
