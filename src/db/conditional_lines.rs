//! Conditional lines' rows: a game's lines of each player, stored as JSON
//! plies, replaced after each move and dropped by a takeback.

use crate::db::schema::conditional_lines;
use crate::db::{per_backend, DbConn};
use crate::domain::conditional_line::{Line, LinePly};
use crate::domain::error::Error;
use crate::domain::ids::GameId;
use chrono::NaiveDateTime;
use diesel::prelude::*;

#[derive(Queryable, Selectable)]
#[diesel(table_name = conditional_lines)]
struct LineRow {
    id: i32,
    user_id: i32,
    from_ply: i32,
    plies: String,
}

impl LineRow {
    fn line(self) -> Option<Line> {
        Some(Line {
            id: self.id,
            user_id: self.user_id,
            from_ply: self.from_ply,
            plies: serde_json::from_str(&self.plies).ok()?,
        })
    }
}

/// The lines of `game` that still start at its ply `ply` (older ones were
/// left by an edit that lost a race, and can never match), of `user` or of
/// both players, in the order entered.
pub fn lines_of(
    conn: &mut DbConn,
    game: GameId,
    ply: i32,
    user: Option<i32>,
) -> Result<Vec<Line>, Error> {
    let rows: Vec<LineRow> = per_backend!(conn, |c| {
        let mut q = conditional_lines::table
            .filter(conditional_lines::game_id.eq(game))
            .filter(conditional_lines::from_ply.eq(ply))
            .into_boxed();
        if let Some(u) = user {
            q = q.filter(conditional_lines::user_id.eq(u));
        }
        q.order(conditional_lines::id.asc())
            .select(LineRow::as_select())
            .load(c)
    })?;
    Ok(rows.into_iter().filter_map(LineRow::line).collect())
}

/// Store lines of a game, each of its user, starting at `from_ply`.
pub fn insert(
    conn: &mut DbConn,
    game: GameId,
    from_ply: i32,
    lines: &[(i32, Vec<LinePly>)],
    now: NaiveDateTime,
) -> Result<(), Error> {
    for (user, plies) in lines {
        let json = serde_json::to_string(plies).map_err(|e| Error::internal(e.to_string()))?;
        per_backend!(conn, |c| diesel::insert_into(conditional_lines::table)
            .values((
                conditional_lines::game_id.eq(game),
                conditional_lines::user_id.eq(*user),
                conditional_lines::from_ply.eq(from_ply),
                conditional_lines::plies.eq(&json),
                conditional_lines::created_at.eq(now),
            ))
            .execute(c))?;
    }
    Ok(())
}

/// Drop every line of a game.
pub fn delete_of_game(conn: &mut DbConn, game: GameId) -> Result<(), Error> {
    per_backend!(conn, |c| diesel::delete(
        conditional_lines::table.filter(conditional_lines::game_id.eq(game))
    )
    .execute(c))?;
    Ok(())
}

/// Replace a game's lines with `lines_after` after a move took it to `ply`
/// (inside the move's transaction).
pub fn replace(
    conn: &mut DbConn,
    game: GameId,
    ply: i32,
    lines_after: &[(i32, Vec<LinePly>)],
    now: NaiveDateTime,
) -> Result<(), Error> {
    delete_of_game(conn, game)?;
    insert(conn, game, ply, lines_after, now)
}

/// Delete the line `line_id` of `user` in `game`; how many went (0 or 1).
pub fn delete(conn: &mut DbConn, game: GameId, user: i32, line_id: i32) -> Result<usize, Error> {
    Ok(per_backend!(conn, |c| diesel::delete(
        conditional_lines::table
            .filter(conditional_lines::id.eq(line_id))
            .filter(conditional_lines::game_id.eq(game))
            .filter(conditional_lines::user_id.eq(user))
    )
    .execute(c))?)
}
