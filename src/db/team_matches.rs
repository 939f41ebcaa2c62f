//! Team matches' rows (issue 63): the match, its named players and its
//! games, and the queries on them.

use crate::db::schema::{team_match_games, team_match_players, team_matches};
use crate::db::{per_backend, DbConn};
use crate::domain::error::Error;
use crate::domain::ids::GameId;
use crate::domain::team_match::MatchStatus;
use chrono::NaiveDateTime;
use diesel::prelude::*;

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = team_matches)]
pub struct MatchRow {
    pub id: i32,
    pub name: String,
    pub variant: String,
    pub time_control: Option<String>,
    pub rated: bool,
    pub boards: i32,
    pub team1: String,
    pub captain1: i32,
    pub team2: String,
    pub captain2: i32,
    pub created_by: i32,
    #[diesel(deserialize_as = String)]
    pub status: MatchStatus,
    pub created_at: NaiveDateTime,
    pub started_at: Option<NaiveDateTime>,
    pub finished_at: Option<NaiveDateTime>,
}

/// A new match, as created.
pub struct NewMatch<'a> {
    pub name: &'a str,
    pub variant: &'a str,
    pub time_control: Option<&'a str>,
    pub rated: bool,
    pub boards: i32,
    pub team1: &'a str,
    pub captain1: i32,
    pub team2: &'a str,
    pub captain2: i32,
    pub created_by: i32,
}

pub fn insert(conn: &mut DbConn, m: &NewMatch, now: NaiveDateTime) -> Result<i32, Error> {
    Ok(per_backend!(conn, |c| diesel::insert_into(
        team_matches::table
    )
    .values((
        team_matches::name.eq(m.name),
        team_matches::variant.eq(m.variant),
        team_matches::time_control.eq(m.time_control),
        team_matches::rated.eq(m.rated),
        team_matches::boards.eq(m.boards),
        team_matches::team1.eq(m.team1),
        team_matches::captain1.eq(m.captain1),
        team_matches::team2.eq(m.team2),
        team_matches::captain2.eq(m.captain2),
        team_matches::created_by.eq(m.created_by),
        team_matches::status.eq(MatchStatus::Lineup.code()),
        team_matches::created_at.eq(now),
    ))
    .returning(team_matches::id)
    .get_result(c))?)
}

pub fn load(conn: &mut DbConn, id: i32) -> Result<MatchRow, Error> {
    team_matches::table
        .find(id)
        .select(MatchRow::as_select())
        .first(conn)
        .optional()?
        .ok_or_else(|| Error::NotFound(format!("There is no team match {id}.")))
}

/// The named players: (team, board, user).
pub fn players(conn: &mut DbConn, id: i32) -> Result<Vec<(i32, i32, i32)>, Error> {
    Ok(team_match_players::table
        .filter(team_match_players::match_id.eq(id))
        .order((
            team_match_players::board.asc(),
            team_match_players::team.asc(),
        ))
        .select((
            team_match_players::team,
            team_match_players::board,
            team_match_players::user_id,
        ))
        .load(conn)?)
}

/// Replace a team's line-up with `users` (board 1 first).
pub fn set_lineup(conn: &mut DbConn, id: i32, team: i32, users: &[i32]) -> Result<(), Error> {
    diesel::delete(
        team_match_players::table
            .filter(team_match_players::match_id.eq(id))
            .filter(team_match_players::team.eq(team)),
    )
    .execute(conn)?;
    for (i, u) in users.iter().enumerate() {
        diesel::insert_into(team_match_players::table)
            .values((
                team_match_players::match_id.eq(id),
                team_match_players::team.eq(team),
                team_match_players::board.eq(i as i32 + 1),
                team_match_players::user_id.eq(*u),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// The match's games: (game, board, team with White).
pub fn games(conn: &mut DbConn, id: i32) -> Result<Vec<(GameId, i32, i32)>, Error> {
    Ok(team_match_games::table
        .filter(team_match_games::match_id.eq(id))
        .order((
            team_match_games::board.asc(),
            team_match_games::game_id.asc(),
        ))
        .select((
            team_match_games::game_id,
            team_match_games::board,
            team_match_games::white_team,
        ))
        .load(conn)?)
}

/// The games of several matches: (match, game, board, team with White).
pub fn games_of_matches(
    conn: &mut DbConn,
    ids: &[i32],
) -> Result<Vec<(i32, GameId, i32, i32)>, Error> {
    Ok(team_match_games::table
        .filter(team_match_games::match_id.eq_any(ids))
        .select((
            team_match_games::match_id,
            team_match_games::game_id,
            team_match_games::board,
            team_match_games::white_team,
        ))
        .load(conn)?)
}

pub fn add_game(
    conn: &mut DbConn,
    id: i32,
    game: GameId,
    board: i32,
    white_team: i32,
) -> Result<(), Error> {
    diesel::insert_into(team_match_games::table)
        .values((
            team_match_games::game_id.eq(game),
            team_match_games::match_id.eq(id),
            team_match_games::board.eq(board),
            team_match_games::white_team.eq(white_team),
        ))
        .execute(conn)?;
    Ok(())
}

/// The match a game belongs to, if one.
pub fn match_of_game(conn: &mut DbConn, game: GameId) -> Result<Option<i32>, Error> {
    Ok(per_backend!(conn, |c| team_match_games::table
        .find(game)
        .select(team_match_games::match_id)
        .first(c)
        .optional())?)
}

/// Move the match from `from` to `to` (a conditional UPDATE: of two racing
/// callers one does it). True when this call did.
pub fn set_status(
    conn: &mut DbConn,
    id: i32,
    from: MatchStatus,
    to: MatchStatus,
    now: NaiveDateTime,
) -> Result<bool, Error> {
    let q = team_matches::table
        .filter(team_matches::id.eq(id))
        .filter(team_matches::status.eq(from.code()));
    let n = match to {
        MatchStatus::Running => diesel::update(q)
            .set((
                team_matches::status.eq(to.code()),
                team_matches::started_at.eq(Some(now)),
            ))
            .execute(conn)?,
        MatchStatus::Finished => diesel::update(q)
            .set((
                team_matches::status.eq(to.code()),
                team_matches::finished_at.eq(Some(now)),
            ))
            .execute(conn)?,
        MatchStatus::Lineup => diesel::update(q)
            .set(team_matches::status.eq(to.code()))
            .execute(conn)?,
    };
    Ok(n == 1)
}

/// The most recent matches, newest first.
pub fn recent(conn: &mut DbConn, limit: i64) -> Result<Vec<MatchRow>, Error> {
    Ok(team_matches::table
        .order(team_matches::id.desc())
        .limit(limit)
        .select(MatchRow::as_select())
        .load(conn)?)
}

/// The rows of the match's games.
pub fn game_rows(
    conn: &mut DbConn,
    ids: &[GameId],
) -> Result<Vec<crate::db::games::GameRow>, Error> {
    use crate::db::schema::games;
    Ok(games::table
        .filter(games::id.eq_any(ids))
        .order(games::id.asc())
        .select(crate::db::games::GameRow::as_select())
        .load(conn)?)
}
