//! Game rows: statuses, loading and listing games and their moves, who
//! plays which side, whose turn it is.

use crate::db::models::{GameRow, ListedMove, MoveRow, NewGame};
use crate::db::schema::{game_histories, game_notes, games, moves, users};
use crate::db::{per_backend, DbConn};
use crate::domain::error::Error;
use crate::domain::game_state::{GameResult, GameStatus};
use diesel::prelude::*;
use missive_rules::Color;
use std::collections::HashMap;

/// What a player who moves too late is told.
pub const TIME_RAN_OUT: &str =
    "Your time ran out before this move arrived: the move was not played, and the game is lost on time.";

/// What a draw or resignation after the mover's time ran out is told.
pub const FLAG_FELL: &str =
    "The time of the player to move had run out: the game is lost on time, and nothing else was done.";

/// Longest custom start position accepted.
pub const FEN_MAX: usize = 2000;

/// Longest move text accepted before asking the rules crate.
pub const MOVE_TEXT_MAX: usize = 500;

/// Longest `//` comment kept with a move (the move text limit bounds it too).
pub const COMMENT_MAX: usize = 400;

/// A game's repetition history ([`Game::history_string`](missive_rules::Game::history_string)): its
/// `game_histories` row (the history up to that row's ply) followed by the
/// entries its later moves added. Kept apart from the game's row, which
/// every list and page reads, because only restoring a game needs it, and a
/// long game's runs to kilobytes: a move stores only the entry it adds.
pub fn history_of(conn: &mut DbConn, id: i32) -> Result<String, Error> {
    let (base_ply, mut history): (i32, String) = per_backend!(conn, |c| game_histories::table
        .find(id)
        .select((game_histories::ply, game_histories::history))
        .first(c)
        .optional())?
    .ok_or_else(|| Error::internal(format!("game {id} has no history")))?;
    let later: Vec<(i32, Option<String>)> = per_backend!(conn, |c| moves::table
        .filter(moves::game_id.eq(id))
        .filter(moves::ply.gt(base_ply))
        .order(moves::ply.asc())
        .select((moves::ply, moves::history_entry))
        .load(c))?;
    history.reserve(later.len() * 18);
    for (ply, entry) in later {
        let entry = entry
            .ok_or_else(|| Error::internal(format!("game {id}: ply {ply} has no history entry")))?;
        history.push(',');
        history.push_str(&entry);
    }
    Ok(history)
}

/// Store a new game and its history (up to `new.ply`; run it in a
/// transaction); its id.
pub fn insert_game(conn: &mut DbConn, new: &NewGame, history: &str) -> Result<i32, Error> {
    let id: i32 = per_backend!(conn, |c| diesel::insert_into(games::table)
        .values(new.clone())
        .returning(games::id)
        .get_result(c))?;
    diesel::insert_into(game_histories::table)
        .values((
            game_histories::game_id.eq(id),
            game_histories::ply.eq(new.ply),
            game_histories::history.eq(history),
        ))
        .execute(conn)?;
    Ok(id)
}

pub fn load(conn: &mut DbConn, id: i32) -> Result<GameRow, Error> {
    per_backend!(conn, |c| games::table
        .find(id)
        .select(GameRow::as_select())
        .first(c)
        .optional())?
    .ok_or_else(|| Error::NotFound(format!("There is no game {id}.")))
}

/// The game and, for a `viewer`, their private note on it, in one statement
/// (a round trip less for a PostgreSQL game page).
pub fn load_with_note(
    conn: &mut DbConn,
    id: i32,
    viewer: Option<i32>,
) -> Result<(GameRow, Option<String>), Error> {
    let Some(uid) = viewer else {
        return Ok((load(conn, id)?, None));
    };
    per_backend!(conn, |c| games::table
        .left_join(
            game_notes::table.on(game_notes::game_id
                .eq(games::id)
                .and(game_notes::user_id.eq(uid))),
        )
        .filter(games::id.eq(id))
        .select((GameRow::as_select(), game_notes::body.nullable()))
        .first(c)
        .optional())?
    .ok_or_else(|| Error::NotFound(format!("There is no game {id}.")))
}

pub fn moves_of(conn: &mut DbConn, game_id: i32) -> Result<Vec<MoveRow>, Error> {
    Ok(moves::table
        .filter(moves::game_id.eq(game_id))
        .order(moves::ply.asc())
        .select(MoveRow::as_select())
        .load(conn)?)
}

/// Plies `first..=last` as a page lists them (a window of a long game).
pub fn moves_between(
    conn: &mut DbConn,
    game_id: i32,
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

/// The move number of a ply played by `mover`, from the previous ply's
/// number and mover: a new number starts the game and whenever White moves
/// after Black (so a side moving twice in a row stays on one number).
pub fn next_turn_no(previous: Option<(i32, Color)>, mover: Color) -> i32 {
    match previous {
        None => 1,
        Some((n, Color::Black)) if mover != Color::Black => n + 1,
        Some((n, _)) => n,
    }
}

/// Which side a user plays in a game, if any.
pub fn side_of(row: &GameRow, user_id: i32) -> Option<Color> {
    if row.white_id == Some(user_id) {
        Some(Color::White)
    } else if row.black_id == Some(user_id) {
        Some(Color::Black)
    } else {
        None
    }
}

/// The other player of a game `user_id` plays in (`None` if they do not,
/// or the seat is open).
pub fn opponent_of(row: &GameRow, user_id: i32) -> Option<i32> {
    player_of(row, side_of(row, user_id)?.opponent())
}

pub fn player_of(row: &GameRow, color: Color) -> Option<i32> {
    match color {
        Color::White => row.white_id,
        Color::Black => row.black_id,
        Color::Neutral => None,
    }
}

/// Whether `user_id` plays in or created a game.
macro_rules! of_user {
    ($user_id:expr) => {
        games::white_id
            .eq($user_id)
            .or(games::black_id.eq($user_id))
            .or(games::challenger_id.eq($user_id))
            .or(games::opponent_id.eq($user_id))
    };
}

/// A user's open games: challenges and seeks not yet answered, and the
/// games running.
pub fn open_games_of(conn: &mut DbConn, user_id: i32) -> Result<Vec<GameRow>, Error> {
    Ok(games::table
        .filter(of_user!(user_id))
        .filter(games::status.eq_any([GameStatus::Pending.code(), GameStatus::Active.code()]))
        .select(GameRow::as_select())
        .load(conn)?)
}

/// The latest `limit` of a user's closed games (finished, declined,
/// withdrawn) that `keep` keeps (by variant and tournament), the latest
/// ended first. Only their ids and times are read for the whole history,
/// whole rows for the chosen ones: a player of years has thousands.
pub fn latest_closed_of(
    conn: &mut DbConn,
    user_id: i32,
    limit: usize,
    keep: impl Fn(&str, Option<i32>) -> bool,
) -> Result<Vec<GameRow>, Error> {
    type Brief = (
        i32,
        String,
        Option<i32>,
        Option<chrono::NaiveDateTime>,
        chrono::NaiveDateTime,
    );
    let mut brief: Vec<Brief> = games::table
        .filter(of_user!(user_id))
        .filter(games::status.ne_all([GameStatus::Pending.code(), GameStatus::Active.code()]))
        .select((
            games::id,
            games::variant,
            games::tournament_id,
            games::ended_at,
            games::updated_at,
        ))
        .load(conn)?;
    brief.retain(|b| keep(&b.1, b.2));
    brief.sort_by_key(|b| std::cmp::Reverse((b.3.unwrap_or(b.4), b.0)));
    brief.truncate(limit);
    let ids: Vec<i32> = brief.iter().map(|b| b.0).collect();
    let mut rows: Vec<GameRow> = games::table
        .filter(games::id.eq_any(&ids))
        .select(GameRow::as_select())
        .load(conn)?;
    rows.sort_by_key(|g| ids.iter().position(|&id| id == g.id));
    Ok(rows)
}

/// Every game a user takes part in or has created.
pub fn games_of(conn: &mut DbConn, user_id: i32) -> Result<Vec<GameRow>, Error> {
    Ok(games::table
        .filter(of_user!(user_id))
        .select(GameRow::as_select())
        .load(conn)?)
}

/// Open seeks by other players, newest first: at most 50 of those whose
/// rating range lets `user_id` accept them (rated as `ratings` says).
pub fn open_seeks(
    conn: &mut DbConn,
    user_id: i32,
    ratings: &crate::ratings::read::RatingTable,
) -> Result<Vec<GameRow>, Error> {
    let mut seeks: Vec<GameRow> = games::table
        .filter(games::status.eq(GameStatus::Pending.code()))
        .filter(games::opponent_id.is_null())
        .filter(games::challenger_id.ne(user_id))
        .order(games::created_at.desc())
        .limit(200)
        .select(GameRow::as_select())
        .load(conn)?;
    seeks.retain(|g| {
        let rating = ratings.rating(user_id, &g.variant).whole();
        crate::domain::rating::in_range(g.rating_min, g.rating_max, rating)
    });
    seeks.truncate(50);
    Ok(seeks)
}

/// The names of every player of the games, by id.
pub fn player_names(conn: &mut DbConn, games: &[GameRow]) -> Result<HashMap<i32, String>, Error> {
    let mut ids: Vec<i32> = games
        .iter()
        .flat_map(|r| [r.white_id, r.black_id])
        .flatten()
        .collect();
    ids.sort_unstable();
    ids.dedup();
    user_names(conn, &ids)
}

pub fn user_names(conn: &mut DbConn, ids: &[i32]) -> Result<HashMap<i32, String>, Error> {
    let rows: Vec<(i32, String)> = match *ids {
        // A game's players (at most four seats): one query of fixed shape,
        // which diesel keeps prepared; an `IN` list of varying length is
        // compiled again on every call on SQLite.
        [] => Vec::new(),
        [a] | [a, ..] if ids.len() <= 4 => {
            let at = |i: usize| ids.get(i).copied().unwrap_or(a);
            per_backend!(conn, |c| users::table
                .filter(
                    users::id
                        .eq(at(0))
                        .or(users::id.eq(at(1)))
                        .or(users::id.eq(at(2)))
                        .or(users::id.eq(at(3))),
                )
                .select((users::id, users::username))
                .load(c))?
        }
        _ => users::table
            .filter(users::id.eq_any(ids))
            .select((users::id, users::username))
            .load(conn)?,
    };
    Ok(rows.into_iter().collect())
}

/// The player whose turn it is, if the game is in progress.
pub fn player_to_move(row: &GameRow) -> Option<i32> {
    if row.status != GameStatus::Active {
        return None;
    }
    player_of(row, row.turn.color())
}

/// A result and reason in words ("White wins by checkmate").
pub fn describe_result(row: &GameRow, side_names: [&str; 2]) -> Option<String> {
    let by = row
        .reason
        .map(|r| format!(" by {}", r.describe()))
        .unwrap_or_default();
    Some(match row.result? {
        GameResult::WhiteWins => format!("{} wins{by}", side_names[0]),
        GameResult::BlackWins => format!("{} wins{by}", side_names[1]),
        GameResult::Draw => format!("Draw{by}"),
    })
}

/// How many games are in progress (for `/metrics`).
pub fn active_count(conn: &mut DbConn) -> Result<i64, Error> {
    Ok(per_backend!(conn, |c| games::table
        .filter(games::status.eq(GameStatus::Active.code()))
        .count()
        .get_result(c))?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::game_state::EndReason;

    #[test]
    fn results_in_the_sides_own_names() {
        let at = chrono::NaiveDate::from_ymd_opt(2026, 1, 1)
            .unwrap()
            .and_hms_opt(0, 0, 0)
            .unwrap();
        let mut row = GameRow::for_tests(1, 0, "-", at);
        assert_eq!(describe_result(&row, ["Red", "Black"]), None);
        row.result = Some(GameResult::WhiteWins);
        row.reason = Some(EndReason::Rules(missive_rules::Reason::BareKing));
        assert_eq!(
            describe_result(&row, ["Red", "Black"]).as_deref(),
            Some("Red wins by bare king")
        );
        // No reason stored: no dangling "by".
        row.result = Some(GameResult::Draw);
        row.reason = None;
        assert_eq!(
            describe_result(&row, ["White", "Black"]).as_deref(),
            Some("Draw")
        );
    }
}
