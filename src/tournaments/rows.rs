//! Tournament rows: formats, statuses, limits, and reading tournaments,
//! entrants, games and byes.

use crate::db::games::GameRow;
use crate::db::models::{EntrantRow, TournamentRow, User};
use crate::db::schema::{games, tournament_byes, tournament_players, tournaments};
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::{EndReason, GameResult, Side};
use crate::domain::tournament_state::{TournamentFormat, TournamentStatus};
use crate::util::clip;
use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

pub const NAME_MAX: usize = 100;

pub const NOTE_MAX: usize = 2000;

pub const PLAYERS_MAX: i32 = 1000;

pub const SWISS_ROUNDS_MAX: i32 = 50;

pub const DEFAULT_LEAVE_DAYS: i32 = 30;

pub const DEFAULT_FORFEIT_LIMIT: i32 = 2;

pub const DEFAULT_MAX_PLAYERS: i32 = 16;
/// Days an entry window stays open when its close is not given (issue 63):
/// two weeks, time for a correspondence player to see the invitation.
pub const DEFAULT_ENTRY_DAYS: i64 = 14;

/// A date (`2026-12-01`) or a date-time (`2026-12-01T18:00`, `2026-12-01
/// 18:00:00`, optional `Z`), UTC. A bare date is the start of that day, or,
/// when `end_of_day`, the end of it (the next midnight).
pub fn parse_when(raw: &str, end_of_day: bool) -> Option<NaiveDateTime> {
    let s = raw.trim().trim_end_matches('Z').trim_end_matches('z');
    if let Ok(d) = NaiveDate::parse_from_str(s, "%Y-%m-%d") {
        let d = if end_of_day { d.succ_opt()? } else { d };
        return d.and_hms_opt(0, 0, 0);
    }
    for f in [
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%dT%H:%M:%S",
        "%Y-%m-%d %H:%M",
        "%Y-%m-%d %H:%M:%S",
    ] {
        if let Ok(t) = NaiveDateTime::parse_from_str(s, f) {
            return Some(t);
        }
    }
    None
}

pub fn int_field(raw: &str, what: &str, default: i32, range: (i32, i32)) -> Result<i32, Error> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(default);
    }
    let n: i32 = raw.parse().map_err(|_| {
        Error::Invalid(format!(
            "The {what} must be a whole number (not “{}”).",
            clip(raw, 20)
        ))
    })?;
    if n < range.0 || n > range.1 {
        return Err(Error::Invalid(format!(
            "The {what} must be between {} and {}.",
            range.0, range.1
        )));
    }
    Ok(n)
}

/// The time control as stored: its canonical text, or `None` for no clock.
pub fn parse_time_control(raw: &str) -> Result<Option<String>, Error> {
    let raw = raw.trim();
    let tc = crate::domain::time_control::parse_optional(raw).map_err(|e| {
        Error::Invalid(format!(
            "The time control “{}” cannot be used: {e}",
            clip(raw, 40)
        ))
    })?;
    Ok(tc.map(|tc| tc.to_string()))
}

pub fn load(conn: &mut DbConn, id: i32) -> Result<TournamentRow, Error> {
    tournaments::table
        .find(id)
        .select(TournamentRow::as_select())
        .first(conn)
        .optional()?
        .ok_or_else(|| Error::NotFound(format!("There is no tournament {id}.")))
}

/// A tournament's name, for a page that mentions it (`None`: no such tournament).
pub fn name_of(conn: &mut DbConn, id: i32) -> Result<Option<String>, Error> {
    Ok(tournaments::table
        .find(id)
        .select(tournaments::name)
        .first(conn)
        .optional()?)
}

/// Every tournament, those taking entries first, then running, then the rest;
/// newest first within each.
pub fn list(conn: &mut DbConn) -> Result<Vec<TournamentRow>, Error> {
    let mut rows: Vec<TournamentRow> = tournaments::table
        .order(tournaments::id.desc())
        .limit(500)
        .select(TournamentRow::as_select())
        .load(conn)?;
    let rank = |s: TournamentStatus| match s {
        TournamentStatus::Entry => 0,
        TournamentStatus::Running => 1,
        TournamentStatus::Finished => 2,
        TournamentStatus::Cancelled => 3,
    };
    rows.sort_by_key(|t| rank(t.status));
    Ok(rows)
}

/// The tournament's players, in seed order (join order before the start).
pub fn entrants(conn: &mut DbConn, tid: i32) -> Result<Vec<EntrantRow>, Error> {
    let mut rows: Vec<EntrantRow> = tournament_players::table
        .filter(tournament_players::tournament_id.eq(tid))
        .order((
            tournament_players::joined_at.asc(),
            tournament_players::id.asc(),
        ))
        .select(EntrantRow::as_select())
        .load(conn)?;
    rows.sort_by_key(|e| (e.seed.unwrap_or(i32::MAX), e.replaced_by.is_some()));
    Ok(rows)
}

/// Every game of a tournament (one query).
pub fn games_of(conn: &mut DbConn, tid: i32) -> Result<Vec<GameRow>, Error> {
    Ok(games::table
        .filter(games::tournament_id.eq(tid))
        .order((games::round.asc(), games::id.asc()))
        .select(GameRow::as_select())
        .load(conn)?)
}

pub fn byes_of(conn: &mut DbConn, tid: i32) -> Result<Vec<(i32, i32)>, Error> {
    Ok(tournament_byes::table
        .filter(tournament_byes::tournament_id.eq(tid))
        .order(tournament_byes::round.asc())
        .select((tournament_byes::round, tournament_byes::user_id))
        .load(conn)?)
}

/// Points times two of a finished game for `user` (win 2, draw 1, loss 0).
pub fn points2_for(g: &GameRow, user: i32) -> i32 {
    let side = if g.white_id == Some(user) {
        Side::White
    } else {
        Side::Black
    };
    match g.result.map(GameResult::winner) {
        Some(Some(winner)) if winner == side => 2,
        Some(None) => 1,
        _ => 0,
    }
}

/// Whether a game counts (not an unplayed pairing handed to a newcomer).
pub fn counts(g: &GameRow) -> bool {
    g.reason != Some(EndReason::Replaced)
}

pub fn entrant(conn: &mut DbConn, tid: i32, user: i32) -> Result<Option<EntrantRow>, Error> {
    Ok(tournament_players::table
        .filter(tournament_players::tournament_id.eq(tid))
        .filter(tournament_players::user_id.eq(user))
        .select(EntrantRow::as_select())
        .first(conn)
        .optional()?)
}

pub fn is_withdrawn(conn: &mut DbConn, tid: i32, user: i32) -> Result<bool, Error> {
    Ok(entrant(conn, tid, user)?.is_some_and(|e| e.withdrawn_at.is_some()))
}

/// How many games a player is scheduled to play: every opponent once (twice
/// in a double round robin), or one a round in a Swiss.
pub fn scheduled_games(t: &TournamentRow, field: usize) -> i32 {
    let others = field.saturating_sub(1) as i32;
    match t.format {
        TournamentFormat::Swiss => t.rounds,
        TournamentFormat::DoubleRoundRobin => 2 * others,
        TournamentFormat::RoundRobin => others,
    }
}

pub fn named_player(conn: &mut DbConn, name: &str) -> Result<User, Error> {
    crate::accounts::users::find_by_name(conn, name.trim())?.ok_or_else(|| {
        Error::Invalid(format!(
            "There is no player named “{}”.",
            clip(name.trim(), 40)
        ))
    })
}

/// Points as text: 2 → "1", 3 → "1½".
pub fn halves(points2: i32) -> String {
    let whole = points2 / 2;
    match (whole, points2 % 2) {
        (0, 1) => "½".into(),
        (w, 1) => format!("{w}½"),
        (w, _) => w.to_string(),
    }
}

/// Quarter points as text: 5 → "1¼".
pub fn quarters(q: i64) -> String {
    let whole = q / 4;
    let frac = match q % 4 {
        1 => "¼",
        2 => "½",
        3 => "¾",
        _ => "",
    };
    if whole == 0 && !frac.is_empty() {
        frac.to_string()
    } else {
        format!("{whole}{frac}")
    }
}
