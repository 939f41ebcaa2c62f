//! Tournaments (issue 10): directors create them, players join during the
//! entry window, the server pairs them (Berger tables, Swiss rounds from
//! `services::pairing`), creates the games, applies the forfeit rules as games
//! end, and computes standings (`services::standings`) from the games.
//!
//! A tournament is `entry` (open for joining), `running`, `finished`, or
//! `cancelled` (fewer than two players when the entry window closed). Every
//! state change that two processes could race for is claimed with a
//! conditional UPDATE of the tournament row: the start (`status = 'entry'`)
//! and each Swiss round (`current_round = r`).

use crate::db::models::{EntrantRow, GameRow, TournamentRow, User};
use crate::db::outbox;
use crate::db::schema::{
    adjudication_requests, adjudications, games, tournament_byes, tournament_players, tournaments,
    users,
};
use crate::db::{is_unique_violation, per_backend, DbConn};
use crate::domain::error::Error;
use crate::domain::pairing::{self, Pairing, SwissEntrant};
use crate::game::challenge;
use crate::game::finish;
use crate::game::rows;
use crate::util::clip;
use chrono::{Duration, NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use missive_rules::Color;
use std::collections::{HashMap, HashSet};

pub const ROUND_ROBIN: &str = "round-robin";
pub const DOUBLE_ROUND_ROBIN: &str = "double-round-robin";
pub const SWISS: &str = "swiss";

pub const ENTRY: &str = "entry";
pub const RUNNING: &str = "running";
pub const FINISHED: &str = "finished";
pub const CANCELLED: &str = "cancelled";

/// Reason codes of game endings this module causes or reads.
pub const TIME_FORFEIT: &str = "time-forfeit";
pub const WITHDRAWAL: &str = "withdrawal";
pub const ADJUDICATION: &str = "adjudication";
/// An unplayed game of a withdrawn player whose place a newcomer took: kept,
/// but out of every count.
pub const REPLACED: &str = "replaced";

pub const NAME_MAX: usize = 100;
pub const NOTE_MAX: usize = 2000;
pub const PLAYERS_MAX: i32 = 1000;
pub const SWISS_ROUNDS_MAX: i32 = 50;
pub const DEFAULT_LEAVE_DAYS: i32 = 30;
pub const DEFAULT_FORFEIT_LIMIT: i32 = 2;
pub const DEFAULT_MAX_PLAYERS: i32 = 16;

pub fn format_label(format: &str) -> &'static str {
    match format {
        ROUND_ROBIN => "round robin",
        DOUBLE_ROUND_ROBIN => "double round robin",
        SWISS => "Swiss",
        _ => "unknown format",
    }
}

// ---------------------------------------------------------------------------
// Directors

/// The user, if they are a director; 403 with the reason otherwise.
pub fn require_director(user: Option<&User>) -> Result<&User, Error> {
    match user {
        Some(u) if u.is_director => Ok(u),
        Some(_) => Err(Error::Forbidden(
            "Only tournament directors may do this; the director role is granted by the \
             server's administrator."
                .into(),
        )),
        None => Err(Error::Forbidden(
            "Only tournament directors may do this: log in as a director.".into(),
        )),
    }
}

/// A director directs the tournaments they created, and only those.
pub fn require_director_of<'a>(
    user: Option<&'a User>,
    t: &TournamentRow,
) -> Result<&'a User, Error> {
    let u = require_director(user)?;
    if t.director_id != u.id {
        return Err(Error::Forbidden(format!(
            "You do not direct “{}”: only the director who created a tournament directs it.",
            t.name
        )));
    }
    Ok(u)
}

// ---------------------------------------------------------------------------
// Creating

/// The creation form, as sent (every field text; empty means the default).
#[derive(Clone, Debug, Default)]
pub struct TournamentForm {
    pub name: String,
    pub variant: String,
    pub time_control: String,
    pub format: String,
    pub rounds: String,
    pub entry_opens: String,
    pub entry_closes: String,
    pub max_players: String,
    pub leave_days: String,
    pub forfeit_limit: String,
}

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

fn int_field(raw: &str, what: &str, default: i32, range: (i32, i32)) -> Result<i32, Error> {
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

pub fn create(
    conn: &mut DbConn,
    director: &User,
    form: &TournamentForm,
    now: NaiveDateTime,
) -> Result<i32, Error> {
    require_director(Some(director))?;
    let name = form.name.trim();
    if name.is_empty() {
        return Err(Error::Invalid("Give the tournament a name.".into()));
    }
    if name.chars().count() > NAME_MAX {
        return Err(Error::Invalid(format!(
            "A tournament name has at most {NAME_MAX} characters."
        )));
    }
    let variant = missive_rules::variant(form.variant.trim()).ok_or_else(|| {
        Error::Invalid(format!(
            "There is no variant “{}”: choose one from the list.",
            clip(form.variant.trim(), 40)
        ))
    })?;
    let time_control = parse_time_control(&form.time_control)?;
    let format = form.format.trim();
    let rounds = match format {
        ROUND_ROBIN | DOUBLE_ROUND_ROBIN => 0,
        SWISS => {
            if form.rounds.trim().is_empty() {
                return Err(Error::Invalid(
                    "A Swiss tournament needs a number of rounds.".into(),
                ));
            }
            int_field(&form.rounds, "number of rounds", 0, (1, SWISS_ROUNDS_MAX))?
        }
        other => {
            return Err(Error::Invalid(format!(
                "“{}” is not a format: choose round-robin, double-round-robin or swiss.",
                clip(other, 30)
            )))
        }
    };
    let opens = match form.entry_opens.trim() {
        "" => now,
        raw => parse_when(raw, false).ok_or_else(|| {
            Error::Invalid(format!(
                "The entry opening “{}” is not a date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM, UTC).",
                clip(raw, 30)
            ))
        })?,
    };
    let closes = parse_when(&form.entry_closes, true).ok_or_else(|| {
        Error::Invalid(
            "Give the end of the entry window as a date (YYYY-MM-DD) or date-time \
             (YYYY-MM-DDTHH:MM, UTC)."
                .into(),
        )
    })?;
    if closes <= opens {
        return Err(Error::Invalid(
            "The entry window must close after it opens.".into(),
        ));
    }
    if closes <= now {
        return Err(Error::Invalid(
            "The entry window must close in the future.".into(),
        ));
    }
    let max_players = int_field(
        &form.max_players,
        "maximum number of players",
        DEFAULT_MAX_PLAYERS,
        (2, PLAYERS_MAX),
    )?;
    let leave_days = int_field(
        &form.leave_days,
        "leave allowance",
        DEFAULT_LEAVE_DAYS,
        (0, 365),
    )?;
    let forfeit_limit = int_field(
        &form.forfeit_limit,
        "forfeit limit",
        DEFAULT_FORFEIT_LIMIT,
        (1, 1000),
    )?;
    conn.transaction::<_, Error, _>(|conn| {
        Ok(per_backend!(conn, |c| diesel::insert_into(
            tournaments::table
        )
        .values((
            tournaments::name.eq(name),
            tournaments::variant.eq(variant.id()),
            tournaments::time_control.eq(&time_control),
            tournaments::format.eq(format),
            tournaments::rounds.eq(rounds),
            tournaments::entry_opens.eq(opens),
            tournaments::entry_closes.eq(closes),
            tournaments::max_players.eq(max_players),
            tournaments::entrants.eq(0),
            tournaments::leave_days.eq(leave_days),
            tournaments::forfeit_limit.eq(forfeit_limit),
            tournaments::director_id.eq(director.id),
            tournaments::status.eq(ENTRY),
            tournaments::current_round.eq(0),
            tournaments::created_at.eq(now),
        ))
        .returning(tournaments::id)
        .get_result(c))?)
    })
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
    let rank = |s: &str| match s {
        ENTRY => 0,
        RUNNING => 1,
        FINISHED => 2,
        _ => 3,
    };
    rows.sort_by_key(|t| rank(&t.status));
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

// ---------------------------------------------------------------------------
// Joining

pub fn join(conn: &mut DbConn, tid: i32, user: &User, now: NaiveDateTime) -> Result<(), Error> {
    let t = load(conn, tid)?;
    if t.status != ENTRY {
        return Err(Error::Forbidden(
            "This tournament is no longer taking entries.".into(),
        ));
    }
    if now < t.entry_opens {
        return Err(Error::Forbidden(format!(
            "Entries open on {}.",
            crate::domain::time_control::utc_minute(t.entry_opens)
        )));
    }
    if now >= t.entry_closes {
        return Err(Error::Forbidden("The entry window has closed.".into()));
    }
    conn.transaction::<_, Error, _>(|conn| {
        // The counter is the guard: two players racing for the last place
        // cannot both pass it.
        let n = diesel::update(
            tournaments::table
                .filter(tournaments::id.eq(tid))
                .filter(tournaments::status.eq(ENTRY))
                .filter(tournaments::entrants.lt(tournaments::max_players)),
        )
        .set(tournaments::entrants.eq(tournaments::entrants + 1))
        .execute(conn)?;
        if n == 0 {
            return Err(Error::Conflict(
                "The tournament is full (or has just started).".into(),
            ));
        }
        match diesel::insert_into(tournament_players::table)
            .values((
                tournament_players::tournament_id.eq(tid),
                tournament_players::user_id.eq(user.id),
                tournament_players::joined_at.eq(now),
                tournament_players::results_cancelled.eq(false),
            ))
            .execute(conn)
        {
            Ok(_) => Ok(()),
            Err(e) if is_unique_violation(&e) => Err(Error::Conflict(
                "You have already joined this tournament.".into(),
            )),
            Err(e) => Err(e.into()),
        }
    })
}

/// Leave a tournament before it starts.
pub fn leave(conn: &mut DbConn, tid: i32, user: &User) -> Result<(), Error> {
    let t = load(conn, tid)?;
    if t.status != ENTRY {
        return Err(Error::Forbidden(
            "The tournament has started: ask its director to withdraw you.".into(),
        ));
    }
    conn.transaction::<_, Error, _>(|conn| {
        let n = diesel::delete(
            tournament_players::table
                .filter(tournament_players::tournament_id.eq(tid))
                .filter(tournament_players::user_id.eq(user.id)),
        )
        .execute(conn)?;
        if n == 0 {
            return Err(Error::Invalid("You are not in this tournament.".into()));
        }
        let n = diesel::update(
            tournaments::table
                .filter(tournaments::id.eq(tid))
                .filter(tournaments::status.eq(ENTRY)),
        )
        .set(tournaments::entrants.eq(tournaments::entrants - 1))
        .execute(conn)?;
        if n == 0 {
            return Err(Error::Conflict("The tournament has just started.".into()));
        }
        Ok(())
    })
}

// ---------------------------------------------------------------------------
// Starting and pairing

/// The director starts their tournament now (before the entry window closes).
pub fn start_by_director(
    conn: &mut DbConn,
    tid: i32,
    director: &User,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let t = load(conn, tid)?;
    require_director_of(Some(director), &t)?;
    if t.status != ENTRY {
        return Err(Error::Conflict(
            "This tournament has already started.".into(),
        ));
    }
    if t.entrants < 2 {
        return Err(Error::Invalid(
            "A tournament needs at least two players to start.".into(),
        ));
    }
    if !start(conn, tid, now)? {
        return Err(Error::Conflict(
            "This tournament has already started.".into(),
        ));
    }
    Ok(())
}

/// Start a tournament taking entries: claim it, seed the players in join
/// order, pair, create the games and mail the players, in one transaction.
/// `false` when another process (or request) claimed it first. With fewer
/// than two players it is cancelled instead.
pub fn start(conn: &mut DbConn, tid: i32, now: NaiveDateTime) -> Result<bool, Error> {
    conn.transaction::<_, Error, _>(|conn| {
        let n = diesel::update(
            tournaments::table
                .filter(tournaments::id.eq(tid))
                .filter(tournaments::status.eq(ENTRY)),
        )
        .set((
            tournaments::status.eq(RUNNING),
            tournaments::started_at.eq(Some(now)),
        ))
        .execute(conn)?;
        if n == 0 {
            return Ok(false);
        }
        let t = load(conn, tid)?;
        let players = entrants(conn, tid)?;
        if players.len() < 2 {
            diesel::update(tournaments::table.find(tid))
                .set((
                    tournaments::status.eq(CANCELLED),
                    tournaments::finished_at.eq(Some(now)),
                ))
                .execute(conn)?;
            return Ok(true);
        }
        for (i, p) in players.iter().enumerate() {
            diesel::update(tournament_players::table.find(p.id))
                .set(tournament_players::seed.eq(Some(i as i32 + 1)))
                .execute(conn)?;
        }
        let ids: Vec<i32> = players.iter().map(|p| p.user_id).collect();
        match t.format.as_str() {
            SWISS => {
                // More rounds than opponents cannot be paired without repeats.
                let rounds = t.rounds.min(ids.len() as i32 - 1).max(1);
                diesel::update(tournaments::table.find(tid))
                    .set((
                        tournaments::rounds.eq(rounds),
                        tournaments::current_round.eq(1),
                    ))
                    .execute(conn)?;
                if !pair_swiss_round(conn, &t, 1, now)? {
                    return Err(Error::internal(format!(
                        "tournament {tid}: the first round cannot be paired"
                    )));
                }
            }
            format => {
                let table = if format == DOUBLE_ROUND_ROBIN {
                    pairing::double_round_robin(ids.len())
                } else {
                    pairing::round_robin(ids.len())
                };
                let rounds = table.len() as i32;
                diesel::update(tournaments::table.find(tid))
                    .set((
                        tournaments::rounds.eq(rounds),
                        tournaments::current_round.eq(rounds),
                    ))
                    .execute(conn)?;
                for (r, boards) in table.iter().enumerate() {
                    let round = r as i32 + 1;
                    for board in boards {
                        match *board {
                            Pairing::Game { white, black } => {
                                new_game(conn, &t, ids[white], ids[black], round, now)?;
                            }
                            Pairing::Bye(p) => record_bye(conn, tid, round, ids[p])?,
                        }
                    }
                }
                for &p in &ids {
                    mail_round(conn, tid, None, p, now)?;
                }
            }
        }
        Ok(true)
    })
}

fn record_bye(conn: &mut DbConn, tid: i32, round: i32, user_id: i32) -> Result<(), Error> {
    diesel::insert_into(tournament_byes::table)
        .values((
            tournament_byes::tournament_id.eq(tid),
            tournament_byes::round.eq(round),
            tournament_byes::user_id.eq(user_id),
        ))
        .execute(conn)?;
    Ok(())
}

fn mail_round(
    conn: &mut DbConn,
    tid: i32,
    round: Option<i32>,
    user_id: i32,
    now: NaiveDateTime,
) -> Result<(), Error> {
    outbox::enqueue(
        conn,
        outbox::TOURNAMENT_ROUND,
        user_id,
        None,
        None,
        &outbox::Payload {
            tournament_id: Some(tid),
            round,
            ..Default::default()
        },
        now,
    )?;
    Ok(())
}

/// A tournament game: started at once (white to move, clock running), with
/// the tournament's time control and leave allowance.
fn new_game(
    conn: &mut DbConn,
    t: &TournamentRow,
    white: i32,
    black: i32,
    round: i32,
    now: NaiveDateTime,
) -> Result<i32, Error> {
    let tc = match &t.time_control {
        Some(text) => Some(
            text.parse::<crate::domain::time_control::TimeControl>()
                .map_err(|e| Error::internal(format!("tournament {} time control: {e}", t.id)))?,
        ),
        None => None,
    };
    let id = challenge::create_active_game(
        conn,
        &t.variant,
        white,
        black,
        tc.as_ref(),
        Some(t.leave_days),
        now,
    )?;
    diesel::update(games::table.find(id))
        .set((
            games::tournament_id.eq(Some(t.id)),
            games::round.eq(Some(round)),
        ))
        .execute(conn)?;
    Ok(id)
}

/// Every game of a tournament (one query).
pub fn games_of(conn: &mut DbConn, tid: i32) -> Result<Vec<GameRow>, Error> {
    Ok(games::table
        .filter(games::tournament_id.eq(tid))
        .order((games::round.asc(), games::id.asc()))
        .select(GameRow::as_select())
        .load(conn)?)
}

fn byes_of(conn: &mut DbConn, tid: i32) -> Result<Vec<(i32, i32)>, Error> {
    Ok(tournament_byes::table
        .filter(tournament_byes::tournament_id.eq(tid))
        .order(tournament_byes::round.asc())
        .select((tournament_byes::round, tournament_byes::user_id))
        .load(conn)?)
}

/// Points times two of a finished game for `user` (win 2, draw 1, loss 0).
fn points2_for(g: &GameRow, user: i32) -> i32 {
    let white = g.white_id == Some(user);
    match g.result.as_deref() {
        Some("1-0") if white => 2,
        Some("0-1") if !white => 2,
        Some("1/2-1/2") => 1,
        _ => 0,
    }
}

/// Whether a game counts (not an unplayed pairing handed to a newcomer).
fn counts(g: &GameRow) -> bool {
    g.reason.as_deref() != Some(REPLACED)
}

/// The players of a Swiss tournament as the pairing of round `round` sees
/// them: scores, opponents, colours, byes, withdrawals, and how each was
/// paired in the round before (a float against the scores of then).
pub fn swiss_field(
    conn: &mut DbConn,
    t: &TournamentRow,
    round: i32,
) -> Result<Vec<SwissEntrant>, Error> {
    let players = entrants(conn, t.id)?;
    let all_games = games_of(conn, t.id)?;
    let byes = byes_of(conn, t.id)?;
    let cancelled: HashSet<i32> = players
        .iter()
        .filter(|p| p.results_cancelled)
        .map(|p| p.user_id)
        .collect();
    // The counted games `user` plays in.
    let games_of_user = |user: i32| {
        all_games
            .iter()
            .filter(move |g| counts(g) && rows::side_of(g, user).is_some())
    };
    // Points times two of `user` from the rounds before `before` (all rounds: `None`): finished
    // games against players whose results stand, and byes.
    let points2_of = |user: i32, before: Option<i32>| -> i32 {
        let earlier = |r: Option<i32>| before.is_none_or(|b| r.is_some_and(|r| r < b));
        let games: i32 = games_of_user(user)
            .filter(|g| earlier(g.round) && g.status == rows::FINISHED)
            .filter(|g| !rows::opponent_of(g, user).is_some_and(|o| cancelled.contains(&o)))
            .map(|g| points2_for(g, user))
            .sum();
        let byes = byes
            .iter()
            .filter(|(r, u)| *u == user && earlier(Some(*r)))
            .count() as i32;
        games + 2 * byes
    };
    // How `user` was paired in the round before this one, against the scores of then.
    let last_float = |user: i32| -> Option<pairing::Float> {
        let previous = round - 1;
        if byes.iter().any(|&(r, u)| r == previous && u == user) {
            return Some(pairing::Float::Down);
        }
        let g = games_of_user(user).find(|g| g.round == Some(previous))?;
        let other = rows::opponent_of(g, user)?;
        let (mine, theirs) = (
            points2_of(user, Some(previous)),
            points2_of(other, Some(previous)),
        );
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => Some(pairing::Float::Down),
            std::cmp::Ordering::Less => Some(pairing::Float::Up),
            std::cmp::Ordering::Equal => None,
        }
    };
    let mut field = Vec::new();
    for p in players.iter().filter(|p| p.replaced_by.is_none()) {
        let user = p.user_id;
        field.push(SwissEntrant {
            id: user,
            seed: p.seed.unwrap_or(i32::MAX) as usize,
            points2: points2_of(user, None),
            opponents: games_of_user(user)
                .filter_map(|g| rows::opponent_of(g, user))
                .collect(),
            colors: games_of_user(user)
                .filter_map(|g| rows::side_of(g, user))
                .collect(),
            had_bye: byes.iter().any(|(_, u)| *u == user),
            withdrawn: p.withdrawn_at.is_some(),
            last_float: last_float(user),
        });
    }
    Ok(field)
}

/// Pair Swiss round `round` over the players still in, create its games and
/// mail each player. The caller has claimed the round. `false` when no
/// pairing without a repeat exists (withdrawals can leave too few players).
fn pair_swiss_round(
    conn: &mut DbConn,
    t: &TournamentRow,
    round: i32,
    now: NaiveDateTime,
) -> Result<bool, Error> {
    let field = swiss_field(conn, t, round)?;
    let paired = match pairing::swiss_round(&field) {
        Ok(p) => p,
        Err(pairing::PairingError::NoPairing) => return Ok(false),
        Err(e) => {
            return Err(Error::internal(format!(
                "tournament {} round {round}: {e}",
                t.id
            )))
        }
    };
    for &(white, black) in &paired.games {
        new_game(conn, t, white, black, round, now)?;
    }
    if let Some(b) = paired.bye {
        record_bye(conn, t.id, round, b)?;
    }
    for p in field.iter().filter(|p| !p.withdrawn) {
        mail_round(conn, t.id, Some(round), p.id, now)?;
    }
    Ok(true)
}

/// After a game ended: pair the next Swiss round when the current one is
/// over, or finish the tournament when every game is. Idempotent and safe to
/// race (each step is a conditional UPDATE).
pub fn advance(conn: &mut DbConn, tid: i32, now: NaiveDateTime) -> Result<(), Error> {
    let t = load(conn, tid)?;
    if t.status != RUNNING {
        return Ok(());
    }
    let running: i64 = games::table
        .filter(games::tournament_id.eq(tid))
        .filter(games::status.eq(rows::ACTIVE))
        .count()
        .get_result(conn)?;
    if running > 0 {
        return Ok(());
    }
    if t.format == SWISS && t.current_round < t.rounds {
        let still_in: i64 = tournament_players::table
            .filter(tournament_players::tournament_id.eq(tid))
            .filter(tournament_players::withdrawn_at.is_null())
            .count()
            .get_result(conn)?;
        if still_in >= 2 {
            let next = t.current_round + 1;
            return conn.transaction::<_, Error, _>(|conn| {
                let n = diesel::update(
                    tournaments::table
                        .filter(tournaments::id.eq(tid))
                        .filter(tournaments::status.eq(RUNNING))
                        .filter(tournaments::current_round.eq(t.current_round)),
                )
                .set(tournaments::current_round.eq(next))
                .execute(conn)?;
                if n == 1 && !pair_swiss_round(conn, &t, next, now)? {
                    // Nobody left who has not met: the tournament ends here.
                    diesel::update(tournaments::table.find(tid))
                        .set((
                            tournaments::status.eq(FINISHED),
                            tournaments::current_round.eq(t.current_round),
                            tournaments::rounds.eq(t.current_round),
                            tournaments::finished_at.eq(Some(now)),
                        ))
                        .execute(conn)?;
                }
                Ok(())
            });
        }
    }
    diesel::update(
        tournaments::table
            .filter(tournaments::id.eq(tid))
            .filter(tournaments::status.eq(RUNNING)),
    )
    .set((
        tournaments::status.eq(FINISHED),
        tournaments::finished_at.eq(Some(now)),
    ))
    .execute(conn)?;
    Ok(())
}

/// The background job's pass: start every tournament whose entry window has
/// closed, and advance running ones whose round is over (a safety net: the
/// game-end hook normally does it at once). Returns the tournaments started.
pub fn sweep(conn: &mut DbConn, now: NaiveDateTime) -> Result<Vec<i32>, Error> {
    let due: Vec<i32> = tournaments::table
        .filter(tournaments::status.eq(ENTRY))
        .filter(tournaments::entry_closes.le(now))
        .select(tournaments::id)
        .load(conn)?;
    let mut started = Vec::new();
    for tid in due {
        if start(conn, tid, now)? {
            started.push(tid);
        }
    }
    let running: Vec<i32> = tournaments::table
        .filter(tournaments::status.eq(RUNNING))
        .select(tournaments::id)
        .load(conn)?;
    for tid in running {
        advance(conn, tid, now)?;
    }
    Ok(started)
}

// ---------------------------------------------------------------------------
// Game endings, forfeits and withdrawals

/// The hook `services::games` calls inside the transaction that ends a game
/// (any ending): applies the forfeit rule, then advances the tournament.
pub fn on_game_end(conn: &mut DbConn, game_id: i32, now: NaiveDateTime) -> Result<(), Error> {
    let g = rows::load(conn, game_id)?;
    let Some(tid) = g.tournament_id else {
        return Ok(());
    };
    if g.reason.as_deref() == Some(TIME_FORFEIT) {
        let loser = match g.result.as_deref() {
            Some("1-0") => g.black_id,
            Some("0-1") => g.white_id,
            _ => None,
        };
        if let Some(loser) = loser {
            let t = load(conn, tid)?;
            let forfeits = time_forfeits(conn, tid, loser)?;
            if forfeits >= t.forfeit_limit as i64 && !is_withdrawn(conn, tid, loser)? {
                withdraw(
                    conn,
                    &t,
                    loser,
                    &format!(
                        "lost {forfeits} games on time (the limit is {})",
                        t.forfeit_limit
                    ),
                    now,
                )?;
            }
        }
    }
    advance(conn, tid, now)
}

/// Games `user` lost on time in a tournament.
pub fn time_forfeits(conn: &mut DbConn, tid: i32, user: i32) -> Result<i64, Error> {
    Ok(games::table
        .filter(games::tournament_id.eq(tid))
        .filter(games::reason.eq(TIME_FORFEIT))
        .filter(
            games::result
                .eq("1-0")
                .and(games::black_id.eq(user))
                .or(games::result.eq("0-1").and(games::white_id.eq(user))),
        )
        .count()
        .get_result(conn)?)
}

fn entrant(conn: &mut DbConn, tid: i32, user: i32) -> Result<Option<EntrantRow>, Error> {
    Ok(tournament_players::table
        .filter(tournament_players::tournament_id.eq(tid))
        .filter(tournament_players::user_id.eq(user))
        .select(EntrantRow::as_select())
        .first(conn)
        .optional()?)
}

fn is_withdrawn(conn: &mut DbConn, tid: i32, user: i32) -> Result<bool, Error> {
    Ok(entrant(conn, tid, user)?.is_some_and(|e| e.withdrawn_at.is_some()))
}

/// How many games a player is scheduled to play: every opponent once (twice
/// in a double round robin), or one a round in a Swiss.
fn scheduled_games(t: &TournamentRow, field: usize) -> i32 {
    let others = field.saturating_sub(1) as i32;
    match t.format.as_str() {
        SWISS => t.rounds,
        DOUBLE_ROUND_ROBIN => 2 * others,
        _ => others,
    }
}

/// Withdraw a player: mark them, decide whether their results are cancelled
/// (fewer than half of their scheduled games completed) or stand (their
/// remaining games then count as losses), and end their running games as
/// losses with reason `withdrawal`.
pub fn withdraw(
    conn: &mut DbConn,
    t: &TournamentRow,
    user: i32,
    why: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    if t.status != RUNNING {
        return Err(Error::Invalid(
            "Players can be withdrawn only from a running tournament (before the start they \
             leave it themselves)."
                .into(),
        ));
    }
    let e = entrant(conn, t.id, user)?
        .filter(|e| e.replaced_by.is_none())
        .ok_or_else(|| Error::Invalid("That player is not in this tournament.".into()))?;
    if e.withdrawn_at.is_some() {
        return Err(Error::Conflict("That player is already withdrawn.".into()));
    }
    let field = tournament_players::table
        .filter(tournament_players::tournament_id.eq(t.id))
        .filter(tournament_players::replaced_by.is_null())
        .count()
        .get_result::<i64>(conn)? as usize;
    let all = games_of(conn, t.id)?;
    let mine: Vec<&GameRow> = all
        .iter()
        .filter(|g| counts(g) && (g.white_id == Some(user) || g.black_id == Some(user)))
        .collect();
    let completed = mine
        .iter()
        .filter(|g| g.status == rows::FINISHED && g.reason.as_deref() != Some(WITHDRAWAL))
        .count();
    let scheduled = scheduled_games(t, field).max(0) as usize;
    let effect = crate::domain::standings::withdrawal_effect(completed, scheduled);
    let cancel = matches!(
        effect,
        crate::domain::standings::WithdrawalEffect::CancelResults
    );
    conn.transaction::<_, Error, _>(|conn| {
        let n = diesel::update(
            tournament_players::table
                .filter(tournament_players::id.eq(e.id))
                .filter(tournament_players::withdrawn_at.is_null()),
        )
        .set((
            tournament_players::withdrawn_at.eq(Some(now)),
            tournament_players::withdrawal_reason.eq(Some(clip(why, 300))),
            tournament_players::results_cancelled.eq(cancel),
        ))
        .execute(conn)?;
        if n == 0 {
            return Err(Error::Conflict("That player is already withdrawn.".into()));
        }
        let notice = outbox::Payload {
            tournament_id: Some(t.id),
            reason: Some(clip(why, 300)),
            results_cancelled: Some(cancel),
            ..Default::default()
        };
        outbox::enqueue(
            conn,
            outbox::TOURNAMENT_WITHDRAWN,
            user,
            None,
            None,
            &notice,
            now,
        )?;
        for g in mine.iter().filter(|g| g.status == rows::ACTIVE) {
            let result = if g.white_id == Some(user) {
                "0-1"
            } else {
                "1-0"
            };
            let row = rows::load(conn, g.id)?;
            if row.status == rows::ACTIVE
                && !finish::end_game(conn, &row, result, WITHDRAWAL, None, now)?
            {
                return Err(Error::Conflict(
                    "A game of that player changed meanwhile; try again.".into(),
                ));
            }
        }
        Ok(())
    })
}

/// A director withdraws a player (by name) from their tournament.
pub fn director_withdraw(
    conn: &mut DbConn,
    tid: i32,
    director: &User,
    player: &str,
    note: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let t = load(conn, tid)?;
    require_director_of(Some(director), &t)?;
    let u = named_player(conn, player)?;
    let note = note.trim();
    let why = if note.is_empty() {
        "withdrawn by the director".to_string()
    } else {
        format!("withdrawn by the director: {}", clip(note, 200))
    };
    conn.transaction::<_, Error, _>(|conn| {
        withdraw(conn, &t, u.id, &why, now)?;
        advance(conn, tid, now)
    })
}

fn named_player(conn: &mut DbConn, name: &str) -> Result<User, Error> {
    crate::accounts::users::find_by_name(conn, name.trim())?.ok_or_else(|| {
        Error::Invalid(format!(
            "There is no player named “{}”.",
            clip(name.trim(), 40)
        ))
    })
}

/// Put `newcomer` in the place of a withdrawn player, before any game of the
/// first round has started (no move played): the newcomer takes the same seed
/// and a new game replaces each of the withdrawn player's unplayed games.
pub fn replace(
    conn: &mut DbConn,
    tid: i32,
    director: &User,
    withdrawn: &str,
    newcomer: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let t = load(conn, tid)?;
    require_director_of(Some(director), &t)?;
    if t.status != RUNNING {
        return Err(Error::Invalid(
            "Players are replaced only in a running tournament.".into(),
        ));
    }
    let old = named_player(conn, withdrawn)?;
    let new = named_player(conn, newcomer)?;
    let e = entrant(conn, tid, old.id)?
        .ok_or_else(|| Error::Invalid(format!("{} is not in this tournament.", old.username)))?;
    if e.withdrawn_at.is_none() || e.replaced_by.is_some() {
        return Err(Error::Invalid(format!(
            "Only a withdrawn player who has not been replaced yet can be replaced ({} is not).",
            old.username
        )));
    }
    if entrant(conn, tid, new.id)?.is_some() {
        return Err(Error::Invalid(format!(
            "{} is already in this tournament.",
            new.username
        )));
    }
    let all = games_of(conn, tid)?;
    if all.iter().any(|g| g.round == Some(1) && g.ply > 0) {
        return Err(Error::Forbidden(
            "The first round's games have started: a withdrawn player can no longer be replaced."
                .into(),
        ));
    }
    let withdrawn_players: HashSet<i32> = entrants(conn, tid)?
        .iter()
        .filter(|p| p.withdrawn_at.is_some())
        .map(|p| p.user_id)
        .collect();
    conn.transaction::<_, Error, _>(|conn| {
        let n = diesel::update(
            tournament_players::table
                .filter(tournament_players::id.eq(e.id))
                .filter(tournament_players::replaced_by.is_null()),
        )
        .set((
            tournament_players::replaced_by.eq(Some(new.id)),
            tournament_players::results_cancelled.eq(true),
        ))
        .execute(conn)?;
        if n == 0 {
            return Err(Error::Conflict(
                "That player has just been replaced.".into(),
            ));
        }
        diesel::insert_into(tournament_players::table)
            .values((
                tournament_players::tournament_id.eq(tid),
                tournament_players::user_id.eq(new.id),
                tournament_players::seed.eq(e.seed),
                tournament_players::joined_at.eq(now),
                tournament_players::results_cancelled.eq(false),
            ))
            .execute(conn)?;
        for g in all
            .iter()
            .filter(|g| g.ply == 0 && (g.white_id == Some(old.id) || g.black_id == Some(old.id)))
        {
            let (white, black) = if g.white_id == Some(old.id) {
                (Some(new.id), g.black_id)
            } else {
                (g.white_id, Some(new.id))
            };
            let opponent = rows::opponent_of(g, old.id);
            diesel::update(games::table.find(g.id))
                .set(games::reason.eq(Some(REPLACED)))
                .execute(conn)?;
            if opponent.is_some_and(|o| withdrawn_players.contains(&o)) {
                continue;
            }
            if let (Some(w), Some(b), Some(round)) = (white, black, g.round) {
                new_game(conn, &t, w, b, round, now)?;
            }
        }
        diesel::update(
            tournament_byes::table
                .filter(tournament_byes::tournament_id.eq(tid))
                .filter(tournament_byes::user_id.eq(old.id)),
        )
        .set(tournament_byes::user_id.eq(new.id))
        .execute(conn)?;
        mail_round(conn, tid, None, new.id, now)?;
        Ok(())
    })
}

// ---------------------------------------------------------------------------
// Adjudication

pub fn parse_result(raw: &str) -> Result<&'static str, Error> {
    match raw.trim() {
        "1-0" => Ok("1-0"),
        "0-1" => Ok("0-1"),
        "1/2-1/2" => Ok("1/2-1/2"),
        other => Err(Error::Invalid(format!(
            "“{}” is not a result: use 1-0, 0-1 or 1/2-1/2.",
            clip(other, 20)
        ))),
    }
}

/// The tournament of a game, if the user directs it (403 otherwise).
fn directed_game(
    conn: &mut DbConn,
    game_id: i32,
    director: &User,
) -> Result<(GameRow, TournamentRow), Error> {
    require_director(Some(director))?;
    let g = rows::load(conn, game_id)?;
    let tid = g.tournament_id.ok_or_else(|| {
        Error::Forbidden("This game is not a tournament game: nobody adjudicates it.".into())
    })?;
    let t = load(conn, tid)?;
    require_director_of(Some(director), &t)?;
    Ok((g, t))
}

/// A director sets a game's result, with a reason (code `adjudication`). A
/// running game ends (through the games service, so the forfeit rules and
/// pairing see it); a finished game's result is overruled.
pub fn adjudicate(
    conn: &mut DbConn,
    game_id: i32,
    director: &User,
    result: &str,
    reason: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let (g, t) = directed_game(conn, game_id, director)?;
    let result = parse_result(result)?;
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(Error::Invalid(
            "Give the reason for the adjudication.".into(),
        ));
    }
    if reason.chars().count() > NOTE_MAX {
        return Err(Error::Invalid(format!(
            "The reason has at most {NOTE_MAX} characters."
        )));
    }
    conn.transaction::<_, Error, _>(|conn| {
        diesel::insert_into(adjudications::table)
            .values((
                adjudications::game_id.eq(g.id),
                adjudications::director_id.eq(director.id),
                adjudications::result.eq(result),
                adjudications::reason.eq(reason),
                adjudications::created_at.eq(now),
            ))
            .execute(conn)?;
        diesel::update(
            adjudication_requests::table
                .filter(adjudication_requests::game_id.eq(g.id))
                .filter(adjudication_requests::resolved_at.is_null()),
        )
        .set((
            adjudication_requests::resolved_at.eq(Some(now)),
            adjudication_requests::resolved_by.eq(Some(director.id)),
        ))
        .execute(conn)?;
        match g.status.as_str() {
            rows::ACTIVE => {
                if !finish::end_game(conn, &g, result, ADJUDICATION, None, now)? {
                    return Err(Error::Conflict(
                        "The game changed meanwhile (a move was played): look at it again.".into(),
                    ));
                }
            }
            rows::FINISHED => {
                diesel::update(games::table.find(g.id))
                    .set((
                        games::result.eq(Some(result)),
                        games::reason.eq(Some(ADJUDICATION)),
                        games::updated_at.eq(now),
                    ))
                    .execute(conn)?;
            }
            _ => {
                return Err(Error::Invalid(
                    "This game has not started: there is nothing to adjudicate.".into(),
                ))
            }
        }
        advance(conn, t.id, now)
    })
}

/// A player of a tournament game asks its director to decide it.
pub fn request_adjudication(
    conn: &mut DbConn,
    game_id: i32,
    user: &User,
    note: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let g = rows::load(conn, game_id)?;
    if rows::side_of(&g, user.id).is_none() {
        return Err(Error::Forbidden(
            "Only the two players of a game can ask for its adjudication.".into(),
        ));
    }
    if g.tournament_id.is_none() {
        return Err(Error::Forbidden(
            "Only tournament games are adjudicated (by their director).".into(),
        ));
    }
    let note = note.trim();
    if note.is_empty() {
        return Err(Error::Invalid(
            "Say what the director should decide, and why.".into(),
        ));
    }
    if note.chars().count() > NOTE_MAX {
        return Err(Error::Invalid(format!(
            "The note has at most {NOTE_MAX} characters."
        )));
    }
    let pending: i64 = adjudication_requests::table
        .filter(adjudication_requests::game_id.eq(game_id))
        .filter(adjudication_requests::user_id.eq(user.id))
        .filter(adjudication_requests::resolved_at.is_null())
        .count()
        .get_result(conn)?;
    if pending > 0 {
        return Err(Error::Conflict(
            "You already have a request waiting for the director on this game.".into(),
        ));
    }
    diesel::insert_into(adjudication_requests::table)
        .values((
            adjudication_requests::game_id.eq(game_id),
            adjudication_requests::user_id.eq(user.id),
            adjudication_requests::note.eq(note),
            adjudication_requests::created_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

// ---------------------------------------------------------------------------
// Standings and the page

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingLine {
    pub rank: usize,
    pub user_id: i32,
    pub name: String,
    pub seed: i32,
    /// Points times two.
    pub points2: i32,
    pub played: u32,
    /// Sonneborn-Berger times four.
    pub sb4: i64,
    /// Buchholz times two.
    pub buchholz2: i32,
    pub withdrawn: bool,
    pub cancelled: bool,
}

/// Crosstable rows: a player's name and one cell per column.
pub type CrossRows = Vec<(String, Vec<String>)>;

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

/// Everything the tournament page shows.
pub struct TournamentView {
    pub t: TournamentRow,
    pub director: String,
    pub players: Vec<(EntrantRow, String)>,
    pub games: Vec<GameRow>,
    pub byes: Vec<(i32, i32)>,
    pub names: HashMap<i32, String>,
    pub standings: Vec<StandingLine>,
    /// Round robins: the crosstable rows (player name, cells), in standings order.
    pub crosstable: Option<CrossRows>,
    pub adjudications: Vec<(i32, String, String)>,
}

/// The tournament with its players, games, byes and standings: a fixed
/// number of queries whatever its size.
pub fn view(conn: &mut DbConn, tid: i32) -> Result<TournamentView, Error> {
    let t = load(conn, tid)?;
    let players = entrants(conn, tid)?;
    let all = games_of(conn, tid)?;
    let byes = byes_of(conn, tid)?;
    let mut ids: Vec<i32> = players.iter().map(|p| p.user_id).collect();
    ids.push(t.director_id);
    let names = rows::user_names(conn, &ids)?;
    let name = |id: i32| names.get(&id).cloned().unwrap_or_else(|| "?".into());
    let (standings, crosstable) = compute_standings(&t, &players, &all, &byes, &name);
    let adjudications: Vec<(i32, String, String)> = adjudications::table
        .inner_join(games::table.on(games::id.eq(adjudications::game_id)))
        .filter(games::tournament_id.eq(tid))
        .order(adjudications::id.asc())
        .select((
            adjudications::game_id,
            adjudications::result,
            adjudications::reason,
        ))
        .load(conn)?;
    Ok(TournamentView {
        director: name(t.director_id),
        players: players
            .iter()
            .map(|p| (p.clone(), name(p.user_id)))
            .collect(),
        games: all,
        byes,
        names,
        standings,
        crosstable,
        adjudications,
        t,
    })
}

/// Standings (and, for round robins, the crosstable) from the games, with
/// the results of cancelled players left out (those players are listed last,
/// marked). Byes score only in Swiss tournaments (in a round robin everyone
/// sits out once).
pub fn compute_standings(
    t: &TournamentRow,
    players: &[EntrantRow],
    all: &[GameRow],
    byes: &[(i32, i32)],
    name: &dyn Fn(i32) -> String,
) -> (Vec<StandingLine>, Option<CrossRows>) {
    use crate::domain::standings::{self as st, GameResult, Outcome};
    let field: Vec<&EntrantRow> = players.iter().filter(|p| p.replaced_by.is_none()).collect();
    let cancelled: HashSet<i32> = field
        .iter()
        .filter(|p| p.results_cancelled)
        .map(|p| p.user_id)
        .collect();
    let counted: Vec<i32> = field
        .iter()
        .map(|p| p.user_id)
        .filter(|u| !cancelled.contains(u))
        .collect();
    let mut results = Vec::new();
    for g in all
        .iter()
        .filter(|g| counts(g) && g.status == rows::FINISHED)
    {
        let (Some(white), Some(black)) = (g.white_id, g.black_id) else {
            continue;
        };
        if cancelled.contains(&white) || cancelled.contains(&black) {
            continue;
        }
        let outcome = match g.result.as_deref() {
            Some("1-0") => Outcome::WhiteWins,
            Some("0-1") => Outcome::BlackWins,
            Some("1/2-1/2") => Outcome::Draw,
            _ => continue,
        };
        results.push(GameResult {
            white,
            black,
            outcome,
        });
    }
    let swiss = t.format == SWISS;
    let bye_list: Vec<i32> = if swiss {
        byes.iter()
            .map(|(_, u)| *u)
            .filter(|u| !cancelled.contains(u))
            .collect()
    } else {
        Vec::new()
    };
    let table = st::standings(&counted, &results, &bye_list, swiss);
    let entry: HashMap<i32, &EntrantRow> = field.iter().map(|p| (p.user_id, *p)).collect();
    let mut lines: Vec<StandingLine> = table
        .iter()
        .map(|s| {
            let p = entry[&s.player];
            StandingLine {
                rank: s.rank,
                user_id: s.player,
                name: name(s.player),
                seed: p.seed.unwrap_or(0),
                points2: s.points2,
                played: s.played,
                sb4: s.sonneborn_berger4,
                buchholz2: s.buchholz2,
                withdrawn: p.withdrawn_at.is_some(),
                cancelled: false,
            }
        })
        .collect();
    let crosstable = if swiss {
        None
    } else {
        let ct = st::crosstable(&table, &results);
        Some(
            ct.players
                .iter()
                .zip(ct.cells)
                .map(|(p, cells)| (name(*p), cells))
                .collect(),
        )
    };
    for p in field.iter().filter(|p| p.results_cancelled) {
        lines.push(StandingLine {
            rank: 0,
            user_id: p.user_id,
            name: name(p.user_id),
            seed: p.seed.unwrap_or(0),
            points2: 0,
            played: 0,
            sb4: 0,
            buchholz2: 0,
            withdrawn: true,
            cancelled: true,
        });
    }
    (lines, crosstable)
}

// ---------------------------------------------------------------------------
// The director's dashboard

/// What the clocks say about a director's tournaments.
#[derive(Default)]
struct ClockWatch {
    /// (game, tournament, white, black, deadline)
    nearing: Vec<(i32, i32, i32, i32, NaiveDateTime)>,
    /// (player, tournament, until)
    on_leave: Vec<(i32, i32, String)>,
}

impl ClockWatch {
    fn ids(&self) -> impl Iterator<Item = i32> + '_ {
        self.nearing
            .iter()
            .flat_map(|n| [n.2, n.3])
            .chain(self.on_leave.iter().map(|l| l.0))
    }
}

/// Running games of these tournaments whose deadline falls within 48 hours,
/// and their players on leave today.
fn clock_watch(conn: &mut DbConn, tids: &[i32], now: NaiveDateTime) -> Result<ClockWatch, Error> {
    use crate::db::schema::leave_bookings;
    let soon = now + Duration::hours(48);
    // `clock_deadline` ignores leave (leave only moves a deadline later): a
    // cheap filter, then the clocks service gives the true deadline.
    let candidates: Vec<GameRow> = games::table
        .filter(games::tournament_id.eq_any(tids))
        .filter(games::status.eq(rows::ACTIVE))
        .filter(games::clock_deadline.le(soon))
        .order(games::clock_deadline.asc())
        .limit(200)
        .select(GameRow::as_select())
        .load(conn)?;
    // Every mover's leave in one query, not one per game.
    let movers: Vec<i32> = candidates.iter().filter_map(rows::player_to_move).collect();
    let leave = crate::clocks::state::booked_leave_of(conn, &movers)?;
    let mut w = ClockWatch::default();
    for g in candidates {
        let booked = rows::player_to_move(&g)
            .and_then(|p| leave.get(&p))
            .map_or(&[][..], Vec::as_slice);
        if let Some(m) = crate::clocks::state::mover_clock_with(&g, booked) {
            if m.deadline <= soon {
                if let (Some(tid), Some(white), Some(black)) =
                    (g.tournament_id, g.white_id, g.black_id)
                {
                    w.nearing.push((g.id, tid, white, black, m.deadline));
                }
            }
        }
    }
    let today = now.date();
    let players: Vec<(i32, i32)> = tournament_players::table
        .inner_join(tournaments::table)
        .filter(tournaments::id.eq_any(tids))
        .filter(tournaments::status.eq_any([ENTRY, RUNNING]))
        .filter(tournament_players::withdrawn_at.is_null())
        .select((
            tournament_players::user_id,
            tournament_players::tournament_id,
        ))
        .load(conn)?;
    let ids: Vec<i32> = players.iter().map(|p| p.0).collect();
    let away: Vec<(i32, NaiveDate)> = leave_bookings::table
        .filter(leave_bookings::user_id.eq_any(&ids))
        .filter(leave_bookings::start_date.le(today))
        .filter(leave_bookings::end_date.ge(today))
        .select((leave_bookings::user_id, leave_bookings::end_date))
        .load(conn)?;
    for (u, until) in away {
        for (_, tid) in players.iter().filter(|p| p.0 == u) {
            w.on_leave
                .push((u, *tid, format!("on leave until {until} (included)")));
        }
    }
    Ok(w)
}

pub struct Dashboard {
    pub tournaments: Vec<TournamentRow>,
    /// (game, tournament name, white, black, deadline)
    pub nearing_timeout: Vec<(i32, String, String, String, NaiveDateTime)>,
    /// (player, tournament name, leave until)
    pub on_leave: Vec<(String, String, String)>,
    /// (game, tournament name, loser, when)
    pub forfeits: Vec<(i32, String, String, NaiveDateTime)>,
    /// (tournament name, player, why, when, cancelled)
    pub withdrawals: Vec<(String, String, String, NaiveDateTime, bool)>,
    /// (request id, game, tournament name, player, note, when)
    pub requests: Vec<(i32, i32, String, String, String, NaiveDateTime)>,
}

pub fn dashboard(
    conn: &mut DbConn,
    director: &User,
    now: NaiveDateTime,
) -> Result<Dashboard, Error> {
    require_director(Some(director))?;
    let mine: Vec<TournamentRow> = tournaments::table
        .filter(tournaments::director_id.eq(director.id))
        .order(tournaments::id.desc())
        .select(TournamentRow::as_select())
        .load(conn)?;
    let tids: Vec<i32> = mine.iter().map(|t| t.id).collect();
    let tname: HashMap<i32, String> = mine.iter().map(|t| (t.id, t.name.clone())).collect();
    let tn = |id: Option<i32>| id.and_then(|i| tname.get(&i).cloned()).unwrap_or_default();
    let recent = now - Duration::days(30);
    let forfeit_rows: Vec<GameRow> = games::table
        .filter(games::tournament_id.eq_any(&tids))
        .filter(games::reason.eq(TIME_FORFEIT))
        .filter(games::ended_at.ge(recent))
        .order(games::ended_at.desc())
        .limit(100)
        .select(GameRow::as_select())
        .load(conn)?;
    let withdrawn: Vec<EntrantRow> = tournament_players::table
        .filter(tournament_players::tournament_id.eq_any(&tids))
        .filter(tournament_players::withdrawn_at.ge(recent))
        .order(tournament_players::withdrawn_at.desc())
        .limit(100)
        .select(EntrantRow::as_select())
        .load(conn)?;
    let requests: Vec<(i32, i32, Option<i32>, i32, String, NaiveDateTime)> =
        adjudication_requests::table
            .inner_join(games::table)
            .filter(games::tournament_id.eq_any(&tids))
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
            .load(conn)?;
    let clocks = clock_watch(conn, &tids, now)?;
    let mut ids: Vec<i32> = forfeit_rows
        .iter()
        .flat_map(|g| [g.white_id, g.black_id])
        .flatten()
        .chain(withdrawn.iter().map(|e| e.user_id))
        .chain(requests.iter().map(|r| r.3))
        .chain(clocks.ids())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let names = rows::user_names(conn, &ids)?;
    let name = |id: Option<i32>| id.and_then(|i| names.get(&i).cloned()).unwrap_or_default();
    Ok(Dashboard {
        nearing_timeout: clocks
            .nearing
            .iter()
            .map(|(g, tid, w, b, d)| (*g, tn(Some(*tid)), name(Some(*w)), name(Some(*b)), *d))
            .collect(),
        on_leave: clocks
            .on_leave
            .iter()
            .map(|(u, tid, until)| (name(Some(*u)), tn(Some(*tid)), until.clone()))
            .collect(),
        forfeits: forfeit_rows
            .iter()
            .map(|g| {
                let loser = if g.result.as_deref() == Some("1-0") {
                    g.black_id
                } else {
                    g.white_id
                };
                (
                    g.id,
                    tn(g.tournament_id),
                    name(loser),
                    g.ended_at.unwrap_or(now),
                )
            })
            .collect(),
        withdrawals: withdrawn
            .iter()
            .map(|e| {
                (
                    tn(Some(e.tournament_id)),
                    name(Some(e.user_id)),
                    e.withdrawal_reason.clone().unwrap_or_default(),
                    e.withdrawn_at.unwrap_or(now),
                    e.results_cancelled,
                )
            })
            .collect(),
        requests: requests
            .into_iter()
            .map(|(id, g, tid, u, note, at)| (id, g, tn(tid), name(Some(u)), note, at))
            .collect(),
        tournaments: mine,
    })
}

/// A director grants a player of their tournament extra leave days this year.
pub fn grant_leave(
    conn: &mut DbConn,
    tid: i32,
    director: &User,
    player: &str,
    days: &str,
    reason: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let t = load(conn, tid)?;
    require_director_of(Some(director), &t)?;
    let u = named_player(conn, player)?;
    if entrant(conn, tid, u.id)?.is_none() {
        return Err(Error::Invalid(format!(
            "{} is not in this tournament.",
            u.username
        )));
    }
    let days = int_field(days, "number of days", 0, (1, 365))?;
    let year = chrono::Datelike::year(&now.date());
    crate::clocks::leave::grant_leave(conn, u.id, year, days, director.id, reason.trim(), now)?;
    Ok(())
}

/// Directors by name, for the CLI.
pub fn set_director(conn: &mut DbConn, name: &str, on: bool) -> Result<User, Error> {
    let u = crate::accounts::users::find_by_name(conn, name)?
        .ok_or_else(|| Error::NotFound(format!("There is no user named “{}”.", clip(name, 40))))?;
    diesel::update(users::table.find(u.id))
        .set(users::is_director.eq(on))
        .execute(conn)?;
    Ok(User {
        is_director: on,
        ..u
    })
}

// ---------------------------------------------------------------------------
// The round mail

/// What the "tournament round" mail lists: the tournament and the reader's
/// games (of one Swiss round, or all of a round robin).
pub struct RoundMail {
    pub tournament: String,
    pub tournament_url: String,
    pub round: String,
    /// (round, colour, opponent, game URL)
    pub games: Vec<(i32, String, String, String)>,
    pub bye: bool,
}

pub fn round_mail(
    conn: &mut DbConn,
    base_url: &str,
    tid: i32,
    round: Option<i32>,
    user_id: i32,
) -> Result<Option<RoundMail>, Error> {
    let Ok(t) = load(conn, tid) else {
        return Ok(None);
    };
    let mut q = games::table
        .filter(games::tournament_id.eq(tid))
        .filter(games::white_id.eq(user_id).or(games::black_id.eq(user_id)))
        .into_boxed();
    if let Some(r) = round {
        q = q.filter(games::round.eq(r));
    }
    let rows: Vec<GameRow> = q
        .order((games::round.asc(), games::id.asc()))
        .select(GameRow::as_select())
        .load(conn)?;
    let rows: Vec<GameRow> = rows.into_iter().filter(counts).collect();
    let ids: Vec<i32> = rows
        .iter()
        .flat_map(|g| [g.white_id, g.black_id])
        .flatten()
        .collect();
    let names = rows::user_names(conn, &ids)?;
    let bye = match round {
        Some(r) => byes_of(conn, tid)?
            .iter()
            .any(|(br, u)| *br == r && *u == user_id),
        None => false,
    };
    if rows.is_empty() && !bye {
        return Ok(None);
    }
    Ok(Some(RoundMail {
        tournament: t.name.clone(),
        tournament_url: format!("{base_url}/tournaments/{tid}"),
        round: match round {
            Some(r) => format!("round {r} of {}", t.rounds),
            None => format!("all {} rounds", t.rounds),
        },
        games: rows
            .iter()
            .map(|g| {
                let white = g.white_id == Some(user_id);
                let other = rows::opponent_of(g, user_id);
                (
                    g.round.unwrap_or(0),
                    if white { "White" } else { "Black" }.to_string(),
                    other
                        .and_then(|o| names.get(&o).cloned())
                        .unwrap_or_else(|| "?".into()),
                    format!("{base_url}/games/{}", g.id),
                )
            })
            .collect(),
        bye,
    }))
}

/// Every started game of a tournament as one PGN file (round order), with
/// all moves read in one query.
pub fn export_pgn(conn: &mut DbConn, tid: i32, site: &str) -> Result<String, Error> {
    use crate::db::models::MoveRow;
    use crate::db::schema::moves;
    let t = load(conn, tid)?;
    let rows = games_of(conn, tid)?;
    let all_moves: Vec<MoveRow> = moves::table
        .inner_join(games::table)
        .filter(games::tournament_id.eq(tid))
        .order((moves::game_id.asc(), moves::ply.asc()))
        .select(MoveRow::as_select())
        .load(conn)?;
    let mut by_game: HashMap<i32, Vec<MoveRow>> = HashMap::new();
    for m in all_moves {
        by_game.entry(m.game_id).or_default().push(m);
    }
    let ids: Vec<i32> = rows
        .iter()
        .flat_map(|g| [g.white_id, g.black_id])
        .flatten()
        .collect();
    let names = rows::user_names(conn, &ids)?;
    let mut out = String::new();
    for g in rows.iter().filter(|g| counts(g)) {
        let moves = by_game.remove(&g.id).unwrap_or_default();
        let pgn = crate::game::records::write_game(
            g,
            &moves,
            &names,
            site,
            crate::game::records::Format::Pgn,
        )?;
        out.push_str(&tag_event(&pgn, &t.name, g.round));
    }
    Ok(out)
}

/// A game's PGN with the tournament as its Event and its round as Round.
fn tag_event(pgn: &str, event: &str, round: Option<i32>) -> String {
    let quote = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    pgn.lines()
        .map(|l| {
            if l.starts_with("[Event ") {
                format!("[Event \"{}\"]", quote(event))
            } else if l.starts_with("[Round ") {
                format!(
                    "[Round \"{}\"]",
                    round.map(|r| r.to_string()).unwrap_or("-".into())
                )
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + if pgn.ends_with('\n') { "\n" } else { "" }
}

/// Longest record accepted for import.
pub const RECORD_MAX: usize = 1_000_000;

/// A director imports a checked record (PGN or Game Courier log) as a
/// finished game between two existing players. Every move is replayed with
/// the rules (the record is refused at its first illegal ply) and stored with
/// the position after it, as if played; the result is the record's (or, if
/// it has none, how the rules end the game).
pub fn import_record(
    conn: &mut DbConn,
    director: &User,
    text: &str,
    white: &str,
    black: &str,
    now: NaiveDateTime,
) -> Result<i32, Error> {
    use crate::db::models::{NewGame, NewMove};
    use crate::db::schema::moves;
    use missive_rules::record;
    require_director(Some(director))?;
    if text.len() > RECORD_MAX {
        return Err(Error::Invalid("The record is too long.".into()));
    }
    let w = named_player(conn, white)?;
    let b = named_player(conn, black)?;
    if w.id == b.id {
        return Err(Error::Invalid(
            "White and Black must be two different players.".into(),
        ));
    }
    let report = crate::game::records::check_record(text);
    if !report.ok {
        return Err(Error::Invalid(report.message));
    }
    let rec = record::parse_any(text)
        .map_err(|e| Error::Invalid(format!("The record cannot be read: {e}.")))?;
    let variant = missive_rules::variant(&rec.variant_id()).ok_or_else(|| {
        Error::Invalid(format!(
            "There is no variant “{}”.",
            clip(&rec.variant_id(), 40)
        ))
    })?;
    let mut game = missive_rules::Game::new(variant, rec.start_fen())
        .map_err(|e| Error::Invalid(format!("The start position cannot be used: {e}.")))?;
    let start_fen = game.fen();
    let mut plies = Vec::new();
    let mut previous: Option<(i32, Color)> = None;
    for m in &rec.moves {
        let side = game.side_to_move();
        let turn_no = rows::next_turn_no(previous, side);
        previous = Some((turn_no, side));
        let played = game
            .play_text(&m.text)
            .map_err(|e| Error::Invalid(format!("“{}” is illegal: {e}.", clip(&m.text, 40))))?;
        let (from, to) = variant.move_squares(&played.mv);
        plies.push((
            played,
            from.map(|s| s.name()),
            to.name(),
            game.fen(),
            m.comment.clone(),
            if side == Color::Black { b.id } else { w.id },
            turn_no,
        ));
    }
    let outcome = game.outcome();
    let (result, reason) = match (rec.result.as_deref(), outcome) {
        (Some(r @ ("1-0" | "0-1" | "1/2-1/2")), Some(o)) if r == o.result_code() => {
            (r.to_string(), o.reason.code().to_string())
        }
        (Some(r @ ("1-0" | "0-1" | "1/2-1/2")), _) => (r.to_string(), "imported".to_string()),
        (_, Some(o)) => (o.result_code().to_string(), o.reason.code().to_string()),
        _ => {
            return Err(Error::Invalid(
                "The record has no result and the rules do not end the game: only finished \
                 games are imported."
                    .into(),
            ))
        }
    };
    let fen = game.fen();
    let history = game.history_string();
    conn.transaction::<_, Error, _>(|conn| {
        let id = rows::insert_game(
            conn,
            &NewGame {
                variant: variant.id(),
                status: rows::FINISHED,
                challenger_id: w.id,
                opponent_id: Some(b.id),
                white_id: Some(w.id),
                black_id: Some(b.id),
                challenger_color: "white",
                start_fen: &start_fen,
                fen: &fen,
                ply: plies.len() as i32,
                turn: rows::color_code(game.side_to_move()),
                created_at: now,
                updated_at: now,
                time_control: None,
                leave_cap_days: None,
            },
            &history,
        )?;
        diesel::update(games::table.find(id))
            .set((
                games::result.eq(Some(&result)),
                games::reason.eq(Some(&reason)),
                games::ended_at.eq(Some(now)),
            ))
            .execute(conn)?;
        for (i, (played, from, to, fen_after, comment, by, turn_no)) in plies.iter().enumerate() {
            diesel::insert_into(moves::table)
                .values(NewMove {
                    game_id: id,
                    ply: i as i32 + 1,
                    display: &played.display,
                    coordinate: &played.coordinate,
                    from_square: from.as_deref(),
                    to_square: to,
                    fen_after,
                    played_by: *by,
                    played_at: now,
                    comment: comment
                        .as_deref()
                        .map(str::trim)
                        .filter(|c| !c.is_empty())
                        .map(|c| clip(c, rows::COMMENT_MAX)),
                    time_used_secs: None,
                    turn_no: *turn_no,
                    // The game's history is stored whole, up to its last ply.
                    history_entry: None,
                })
                .execute(conn)?;
        }
        Ok(id)
    })
}
