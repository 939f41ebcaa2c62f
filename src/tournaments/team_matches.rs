//! Team matches (issue 63): two teams with captains play on a number of
//! boards; each captain names their players board by board, and once both
//! have, every board's pair plays two games, one with each colour. The
//! games are ordinary games (the usual creation, rating and records); when
//! one ends the match hears of it, as a tournament does, and finishes with
//! its last game.

use crate::db::games::GameRow;
use crate::db::team_matches::{self as rows, MatchRow, NewMatch};
use crate::db::users::User;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::form_fields::{int_field, parse_time_control};
use crate::domain::game_state::GameStatus;
use crate::domain::ids::GameId;
use crate::domain::standings::halves;
use crate::domain::team_match::{score2, white_teams, MatchStatus, Team};
use crate::game::challenge::{create_paired_game, read_rated, Pairing};
use crate::util::clip;
use chrono::NaiveDateTime;
use std::collections::{HashMap, HashSet};

/// The most boards a match may have.
pub const BOARDS_MAX: i32 = 64;
/// The longest team or match name.
pub const NAME_MAX: usize = 80;

/// `POST /matches/new`, as sent (every field text; empty: the default).
#[derive(Clone, Debug, Default)]
pub struct MatchForm {
    /// The match's name; empty: "TEAM1 v TEAM2".
    pub name: String,
    pub team1: String,
    /// Team 1's captain (a username).
    pub captain1: String,
    pub team2: String,
    pub captain2: String,
    /// Number of boards (1 to [`BOARDS_MAX`]).
    pub boards: String,
    /// A variant id; empty: chess.
    pub variant: String,
    /// A time control ("3d/move"); empty: no clock.
    pub time_control: String,
    /// `1`: rated.
    pub rated: String,
}

fn team_name(raw: &str, which: &str) -> Result<String, Error> {
    let name = raw.trim();
    if name.is_empty() {
        return Err(Error::Invalid(format!("Give {which} a name.")));
    }
    if name.chars().count() > NAME_MAX {
        return Err(Error::Invalid(format!(
            "A team's name has at most {NAME_MAX} characters."
        )));
    }
    Ok(name.to_string())
}

fn member(conn: &mut DbConn, raw: &str, what: &str) -> Result<User, Error> {
    let name = raw.trim();
    if name.is_empty() {
        return Err(Error::Invalid(format!("Name {what}.")));
    }
    match crate::db::users::find_by_name(conn, name)? {
        Some(u) if u.deleted_at.is_none() && u.disabled_at.is_none() => Ok(u),
        _ => Err(Error::Invalid(format!(
            "There is no player named “{}” ({what}): check the spelling.",
            clip(name, 40)
        ))),
    }
}

/// Create a match; its id. The creator is one of the captains (or a
/// tournament director setting it up for two clubs).
pub fn create(
    conn: &mut DbConn,
    user: &User,
    f: &MatchForm,
    now: NaiveDateTime,
) -> Result<i32, Error> {
    let team1 = team_name(&f.team1, "team 1")?;
    let team2 = team_name(&f.team2, "team 2")?;
    if team1.eq_ignore_ascii_case(&team2) {
        return Err(Error::Invalid("The two teams need different names.".into()));
    }
    let captain1 = member(conn, &f.captain1, "team 1's captain")?;
    let captain2 = member(conn, &f.captain2, "team 2's captain")?;
    if captain1.id == captain2.id {
        return Err(Error::Invalid(
            "Each team needs its own captain: one player cannot captain both.".into(),
        ));
    }
    if ![captain1.id, captain2.id].contains(&user.id) && !user.is_director {
        return Err(Error::Forbidden(
            "You set up a match as one of its captains (or as a tournament director).".into(),
        ));
    }
    let boards = match f.boards.trim() {
        "" => return Err(Error::Invalid("Give the number of boards.".into())),
        raw => int_field(raw, "number of boards", 1, (1, BOARDS_MAX))?,
    };
    let variant = match f.variant.trim() {
        "" => "chess",
        v => v,
    };
    let variant = missive_rules::variant(variant)
        // A posted variant is not played in tournaments: its versions are
        // casual until reviewed, and a tournament's games may be rated.
        .filter(|v| crate::posted::lookup::split(v.id()).is_none())
        .ok_or_else(|| {
            Error::Invalid(format!(
                "There is no variant “{}”: choose one from the list.",
                clip(variant, 40)
            ))
        })?;
    let time_control = parse_time_control(&f.time_control)?;
    let rated = read_rated(&f.rated)?;
    let name = match f.name.trim() {
        "" => format!("{team1} v {team2}"),
        n if n.chars().count() > NAME_MAX => {
            return Err(Error::Invalid(format!(
                "A match's name has at most {NAME_MAX} characters."
            )))
        }
        n => n.to_string(),
    };
    rows::insert(
        conn,
        &NewMatch {
            name: &name,
            variant: variant.id(),
            time_control: time_control.as_deref(),
            rated,
            boards,
            team1: &team1,
            captain1: captain1.id,
            team2: &team2,
            captain2: captain2.id,
            created_by: user.id,
        },
        now,
    )
}

/// The team `user` captains in `m`, if one.
pub fn captained(m: &MatchRow, user: i32) -> Option<Team> {
    if m.captain1 == user {
        Some(Team::One)
    } else if m.captain2 == user {
        Some(Team::Two)
    } else {
        None
    }
}

/// A captain names their team's players, board 1 first (one name per
/// board). When both teams are named, the games start.
pub fn set_lineup(
    conn: &mut DbConn,
    id: i32,
    captain: &User,
    names: &[String],
    now: NaiveDateTime,
) -> Result<(), Error> {
    let m = rows::load(conn, id)?;
    let team = captained(&m, captain.id).ok_or_else(|| {
        Error::Forbidden("Only the two captains name the players of a match.".into())
    })?;
    if m.status != MatchStatus::Lineup {
        return Err(Error::Conflict(
            "The match has started: its line-ups can no longer change.".into(),
        ));
    }
    if names.len() != m.boards as usize {
        return Err(Error::Invalid(format!(
            "Name one player for each of the {} boards.",
            m.boards
        )));
    }
    let mut ids = Vec::new();
    for (i, n) in names.iter().enumerate() {
        let u = member(conn, n, &format!("board {}", i + 1))?;
        if ids.contains(&u.id) {
            return Err(Error::Invalid(format!(
                "{} is named on two boards: each player plays on one.",
                u.username
            )));
        }
        ids.push(u.id);
    }
    let others: HashSet<i32> = rows::players(conn, id)?
        .into_iter()
        .filter(|(t, _, _)| *t == team.other().number())
        .map(|(_, _, u)| u)
        .collect();
    if let Some(clash) = ids.iter().find(|u| others.contains(*u)) {
        let name = crate::db::users::user_names(conn, &[*clash])?
            .remove(clash)
            .unwrap_or_default();
        return Err(Error::Invalid(format!(
            "{name} already plays for the other team."
        )));
    }
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        rows::set_lineup(conn, id, team.number(), &ids)?;
        let named = rows::players(conn, id)?;
        if named.len() == 2 * m.boards as usize {
            start(conn, &m, &named, now)?;
        }
        Ok(())
    })
}

/// Both line-ups are in: two games a board, one with each colour.
fn start(
    conn: &mut DbConn,
    m: &MatchRow,
    named: &[(i32, i32, i32)],
    now: NaiveDateTime,
) -> Result<(), Error> {
    if !rows::set_status(conn, m.id, MatchStatus::Lineup, MatchStatus::Running, now)? {
        return Err(Error::Conflict("The match has just started.".into()));
    }
    let tc = match &m.time_control {
        Some(text) => Some(
            text.parse::<crate::domain::time_control::TimeControl>()
                .map_err(|e| Error::internal(format!("match {} time control: {e}", m.id)))?,
        ),
        None => None,
    };
    for board in 1..=m.boards {
        let player = |team: Team| {
            named
                .iter()
                .find(|(t, b, _)| *t == team.number() && *b == board)
                .map(|(_, _, u)| *u)
                .ok_or_else(|| Error::internal(format!("match {} board {board}", m.id)))
        };
        for white_team in white_teams(board) {
            let pairing = Pairing {
                variant_id: &m.variant,
                white_id: player(white_team)?,
                black_id: player(white_team.other())?,
                time_control: tc.as_ref(),
                leave_cap_days: None,
                rated: m.rated,
                weekends_free: false,
            };
            let game = create_paired_game(conn, &pairing, now)?;
            rows::add_game(conn, m.id, game, board, white_team.number())?;
        }
    }
    Ok(())
}

/// What a game's end sets off when it is no tournament's
/// (`tournaments::game_ended`, in the transaction that ends it): the match of the game, if any, finishes with its last game.
pub fn on_game_end(conn: &mut DbConn, game_id: GameId, now: NaiveDateTime) -> Result<(), Error> {
    let Some(id) = rows::match_of_game(conn, game_id)? else {
        return Ok(());
    };
    let ids: Vec<GameId> = rows::games(conn, id)?.iter().map(|g| g.0).collect();
    let open = rows::game_rows(conn, &ids)?
        .iter()
        .any(|g| g.status != GameStatus::Finished);
    if !open {
        rows::set_status(conn, id, MatchStatus::Running, MatchStatus::Finished, now)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// The match page

/// One game of a board.
pub struct BoardGame {
    pub id: GameId,
    pub white: String,
    pub black: String,
    /// "1-0", "0-1", "1/2-1/2", or "*" while it runs.
    pub result: String,
}

/// A board: its players, its two games and what they scored.
pub struct BoardView {
    pub board: i32,
    pub player1: String,
    pub player2: String,
    pub games: Vec<BoardGame>,
    /// Points of team 1 and team 2 on this board ("1½").
    pub score1: String,
    pub score2: String,
}

pub struct MatchView {
    pub m: MatchRow,
    pub captain1: String,
    pub captain2: String,
    pub boards: Vec<BoardView>,
    pub score1: String,
    pub score2: String,
    /// Games finished of all.
    pub finished: usize,
    pub total: usize,
    /// "Team 1 wins 3–1", "drawn 2–2", or empty while it runs.
    pub outcome: String,
    /// Each team's named players by board (during the line-up).
    pub lineup1: Vec<String>,
    pub lineup2: Vec<String>,
}

/// A line of the match list.
pub struct MatchSummary {
    pub id: i32,
    pub name: String,
    pub team1: String,
    pub team2: String,
    /// The variant's id.
    pub variant: String,
    pub boards: i32,
    pub status: &'static str,
    /// Points of team 1 and team 2 so far ("1½").
    pub score1: String,
    pub score2: String,
}

/// The `limit` latest matches, newest first, with their scores (three
/// queries, however many matches).
pub fn summaries(conn: &mut DbConn, limit: i64) -> Result<Vec<MatchSummary>, Error> {
    let matches = rows::recent(conn, limit)?;
    let ids: Vec<i32> = matches.iter().map(|m| m.id).collect();
    let games = rows::games_of_matches(conn, &ids)?;
    let game_rows: HashMap<GameId, GameRow> =
        rows::game_rows(conn, &games.iter().map(|g| g.1).collect::<Vec<_>>())?
            .into_iter()
            .map(|r| (r.id, r))
            .collect();
    Ok(matches
        .into_iter()
        .map(|m| {
            let finished: Vec<_> = games
                .iter()
                .filter(|g| g.0 == m.id)
                .filter_map(|&(_, gid, _, white_team)| {
                    let g = game_rows.get(&gid)?;
                    let r = g.result.filter(|_| g.status == GameStatus::Finished)?;
                    Some((r, Team::from_number(white_team).unwrap_or(Team::One)))
                })
                .collect();
            let (a, b) = score2(&finished);
            MatchSummary {
                id: m.id,
                status: m.status.words(),
                score1: halves(a),
                score2: halves(b),
                boards: m.boards,
                name: m.name,
                team1: m.team1,
                team2: m.team2,
                variant: m.variant,
            }
        })
        .collect())
}

pub fn view(conn: &mut DbConn, id: i32) -> Result<MatchView, Error> {
    let m = rows::load(conn, id)?;
    let named = rows::players(conn, id)?;
    let games = rows::games(conn, id)?;
    let game_rows = rows::game_rows(conn, &games.iter().map(|g| g.0).collect::<Vec<_>>())?;
    let mut ids: Vec<i32> = named.iter().map(|n| n.2).collect();
    ids.extend([m.captain1, m.captain2]);
    let names = crate::db::users::user_names(conn, &ids)?;
    let name = |u: i32| names.get(&u).cloned().unwrap_or_else(|| "?".into());
    let player = |team: Team, board: i32| {
        named
            .iter()
            .find(|(t, b, _)| *t == team.number() && *b == board)
            .map(|(_, _, u)| name(*u))
            .unwrap_or_default()
    };
    let mut all = Vec::new();
    let mut boards = Vec::new();
    for board in 1..=m.boards {
        let mut on_board = Vec::new();
        let mut board_games = Vec::new();
        for (gid, _, white_team) in games.iter().filter(|g| g.1 == board) {
            let Some(g) = game_rows.iter().find(|r| r.id == *gid) else {
                continue;
            };
            let white_team = Team::from_number(*white_team).unwrap_or(Team::One);
            if let (GameStatus::Finished, Some(r)) = (g.status, g.result) {
                on_board.push((r, white_team));
            }
            board_games.push(BoardGame {
                id: g.id,
                white: g.white_id.map(name).unwrap_or_default(),
                black: g.black_id.map(name).unwrap_or_default(),
                result: g.result.map_or("*", |r| r.code()).to_string(),
            });
        }
        let (a, b) = score2(&on_board);
        all.extend(on_board);
        boards.push(BoardView {
            board,
            player1: player(Team::One, board),
            player2: player(Team::Two, board),
            games: board_games,
            score1: halves(a),
            score2: halves(b),
        });
    }
    let (a, b) = score2(&all);
    let outcome = match (m.status, a.cmp(&b)) {
        (MatchStatus::Finished, std::cmp::Ordering::Greater) => {
            format!("{} wins {}–{}", m.team1, halves(a), halves(b))
        }
        (MatchStatus::Finished, std::cmp::Ordering::Less) => {
            format!("{} wins {}–{}", m.team2, halves(b), halves(a))
        }
        (MatchStatus::Finished, std::cmp::Ordering::Equal) => {
            format!("Drawn {}–{}", halves(a), halves(b))
        }
        _ => String::new(),
    };
    let lineup = |team: Team| -> Vec<String> { (1..=m.boards).map(|b| player(team, b)).collect() };
    Ok(MatchView {
        captain1: name(m.captain1),
        captain2: name(m.captain2),
        lineup1: lineup(Team::One),
        lineup2: lineup(Team::Two),
        boards,
        score1: halves(a),
        score2: halves(b),
        finished: all.len(),
        total: games.len(),
        outcome,
        m,
    })
}
