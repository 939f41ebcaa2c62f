//! Tournaments' rows: the tournament as stored, and the queries on it
//! (its life from entry to finish, its rounds, its entry counter).

use crate::db::schema::tournaments;
use crate::db::{per_backend, DbConn};
use crate::domain::error::Error;
use crate::domain::game_state::OnTimeout;
use crate::domain::tournament_state::{TournamentFormat, TournamentStatus};
use chrono::NaiveDateTime;
use diesel::prelude::*;

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = tournaments)]
pub struct TournamentRow {
    pub id: i32,
    pub name: String,
    pub variant: String,
    pub time_control: Option<String>,
    #[diesel(deserialize_as = String)]
    pub format: TournamentFormat,
    pub rounds: i32,
    pub entry_opens: NaiveDateTime,
    pub entry_closes: NaiveDateTime,
    pub max_players: i32,
    pub entrants: i32,
    pub leave_days: i32,
    pub forfeit_limit: i32,
    pub director_id: i32,
    #[diesel(deserialize_as = String)]
    pub status: TournamentStatus,
    pub current_round: i32,
    pub created_at: NaiveDateTime,
    pub started_at: Option<NaiveDateTime>,
    pub finished_at: Option<NaiveDateTime>,
    /// Its games are rated (issue 39).
    pub rated: bool,
    /// Days without a move before a game is lost by silence; `None`: off.
    pub silence_days: Option<i32>,
    #[diesel(deserialize_as = String)]
    pub on_timeout: OnTimeout,
    /// Days after a loss on time or by silence before a player may enter.
    pub cooling_off_days: i32,
    /// Its games' clocks stop on the mover's Saturdays and Sundays.
    pub weekends_free: bool,
}

/// A new tournament, as its director created it: taking entries, nobody in.
pub struct NewTournament<'a> {
    pub name: &'a str,
    pub variant: &'a str,
    pub time_control: Option<String>,
    pub format: TournamentFormat,
    pub rounds: i32,
    pub entry_opens: NaiveDateTime,
    pub entry_closes: NaiveDateTime,
    pub max_players: i32,
    pub leave_days: i32,
    pub forfeit_limit: i32,
    pub director_id: i32,
    pub rated: bool,
    pub silence_days: Option<i32>,
    pub on_timeout: OnTimeout,
    pub cooling_off_days: i32,
    pub weekends_free: bool,
}

/// Store a new tournament; its id.
pub fn insert(conn: &mut DbConn, t: &NewTournament, now: NaiveDateTime) -> Result<i32, Error> {
    Ok(per_backend!(conn, |c| diesel::insert_into(
        tournaments::table
    )
    .values((
        tournaments::name.eq(t.name),
        tournaments::variant.eq(t.variant),
        tournaments::time_control.eq(&t.time_control),
        tournaments::format.eq(t.format.code()),
        tournaments::rounds.eq(t.rounds),
        tournaments::entry_opens.eq(t.entry_opens),
        tournaments::entry_closes.eq(t.entry_closes),
        tournaments::max_players.eq(t.max_players),
        tournaments::entrants.eq(0),
        tournaments::leave_days.eq(t.leave_days),
        tournaments::forfeit_limit.eq(t.forfeit_limit),
        tournaments::director_id.eq(t.director_id),
        tournaments::status.eq(TournamentStatus::Entry.code()),
        tournaments::current_round.eq(0),
        tournaments::created_at.eq(now),
        tournaments::rated.eq(t.rated),
        tournaments::silence_days.eq(t.silence_days),
        tournaments::on_timeout.eq(t.on_timeout.code()),
        tournaments::cooling_off_days.eq(t.cooling_off_days),
        tournaments::weekends_free.eq(t.weekends_free),
    ))
    .returning(tournaments::id)
    .get_result(c))?)
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

/// The tournaments `director` directs, newest first.
pub fn directed_by(conn: &mut DbConn, director: i32) -> Result<Vec<TournamentRow>, Error> {
    Ok(tournaments::table
        .filter(tournaments::director_id.eq(director))
        .order(tournaments::id.desc())
        .select(TournamentRow::as_select())
        .load(conn)?)
}

/// Tournaments taking entries whose entry window has closed by `now`.
pub fn due_to_start(conn: &mut DbConn, now: NaiveDateTime) -> Result<Vec<i32>, Error> {
    Ok(tournaments::table
        .filter(tournaments::status.eq(TournamentStatus::Entry.code()))
        .filter(tournaments::entry_closes.le(now))
        .select(tournaments::id)
        .load(conn)?)
}

/// The running tournaments.
pub fn running(conn: &mut DbConn) -> Result<Vec<i32>, Error> {
    Ok(tournaments::table
        .filter(tournaments::status.eq(TournamentStatus::Running.code()))
        .select(tournaments::id)
        .load(conn)?)
}

/// Take a place in a tournament taking entries (a conditional UPDATE of
/// its counter: two players racing for the last place cannot both pass
/// it). False when it is full or no longer taking entries.
pub fn take_place(conn: &mut DbConn, id: i32) -> Result<bool, Error> {
    let n = diesel::update(
        tournaments::table
            .filter(tournaments::id.eq(id))
            .filter(tournaments::status.eq(TournamentStatus::Entry.code()))
            .filter(tournaments::entrants.lt(tournaments::max_players)),
    )
    .set(tournaments::entrants.eq(tournaments::entrants + 1))
    .execute(conn)?;
    Ok(n == 1)
}

/// Give a place back, while the tournament still takes entries. False when
/// it no longer does.
pub fn give_back_place(conn: &mut DbConn, id: i32) -> Result<bool, Error> {
    let n = diesel::update(
        tournaments::table
            .filter(tournaments::id.eq(id))
            .filter(tournaments::status.eq(TournamentStatus::Entry.code())),
    )
    .set(tournaments::entrants.eq(tournaments::entrants - 1))
    .execute(conn)?;
    Ok(n == 1)
}

/// Claim the start of a tournament taking entries (a conditional UPDATE:
/// of two racing callers one does it). True when this call did.
pub fn claim_start(conn: &mut DbConn, id: i32, now: NaiveDateTime) -> Result<bool, Error> {
    let n = diesel::update(
        tournaments::table
            .filter(tournaments::id.eq(id))
            .filter(tournaments::status.eq(TournamentStatus::Entry.code())),
    )
    .set((
        tournaments::status.eq(TournamentStatus::Running.code()),
        tournaments::started_at.eq(Some(now)),
    ))
    .execute(conn)?;
    Ok(n == 1)
}

/// Close a tournament without playing it.
pub fn cancel(conn: &mut DbConn, id: i32, now: NaiveDateTime) -> Result<(), Error> {
    diesel::update(tournaments::table.find(id))
        .set((
            tournaments::status.eq(TournamentStatus::Cancelled.code()),
            tournaments::finished_at.eq(Some(now)),
        ))
        .execute(conn)?;
    Ok(())
}

/// Set how many rounds the tournament has, and which one is current.
pub fn set_rounds(conn: &mut DbConn, id: i32, rounds: i32, current: i32) -> Result<(), Error> {
    diesel::update(tournaments::table.find(id))
        .set((
            tournaments::rounds.eq(rounds),
            tournaments::current_round.eq(current),
        ))
        .execute(conn)?;
    Ok(())
}

/// Claim round `next` of a running tournament whose current round is
/// `current` (a conditional UPDATE). True when this call did.
pub fn claim_round(conn: &mut DbConn, id: i32, current: i32, next: i32) -> Result<bool, Error> {
    let n = diesel::update(
        tournaments::table
            .filter(tournaments::id.eq(id))
            .filter(tournaments::status.eq(TournamentStatus::Running.code()))
            .filter(tournaments::current_round.eq(current)),
    )
    .set(tournaments::current_round.eq(next))
    .execute(conn)?;
    Ok(n == 1)
}

/// Finish a tournament after round `last`, before the rounds it planned.
pub fn finish_after(
    conn: &mut DbConn,
    id: i32,
    last: i32,
    now: NaiveDateTime,
) -> Result<(), Error> {
    diesel::update(tournaments::table.find(id))
        .set((
            tournaments::status.eq(TournamentStatus::Finished.code()),
            tournaments::current_round.eq(last),
            tournaments::rounds.eq(last),
            tournaments::finished_at.eq(Some(now)),
        ))
        .execute(conn)?;
    Ok(())
}

/// Finish a running tournament (nothing when it is not running).
pub fn finish(conn: &mut DbConn, id: i32, now: NaiveDateTime) -> Result<(), Error> {
    diesel::update(
        tournaments::table
            .filter(tournaments::id.eq(id))
            .filter(tournaments::status.eq(TournamentStatus::Running.code())),
    )
    .set((
        tournaments::status.eq(TournamentStatus::Finished.code()),
        tournaments::finished_at.eq(Some(now)),
    ))
    .execute(conn)?;
    Ok(())
}

/// The names of the tournaments `ids`, by id.
pub fn names_of(
    conn: &mut DbConn,
    ids: &[i32],
) -> Result<std::collections::HashMap<i32, String>, Error> {
    Ok(tournaments::table
        .filter(tournaments::id.eq_any(ids))
        .select((tournaments::id, tournaments::name))
        .load::<(i32, String)>(conn)?
        .into_iter()
        .collect())
}

/// A tournament's director (none for a tournament not found).
pub fn director_of(conn: &mut DbConn, tournament_id: i32) -> Result<Option<i32>, Error> {
    Ok(tournaments::table
        .find(tournament_id)
        .select(tournaments::director_id)
        .first(conn)
        .optional()?)
}
