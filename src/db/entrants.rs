//! Tournament entrants' rows: who entered which tournament, their seed,
//! their withdrawal and replacement, and the queries on them.

use crate::db::schema::{leave_bookings, tournament_players, tournaments};
use crate::db::{is_unique_violation, DbConn};
use crate::domain::error::Error;
use crate::domain::tournament_state::TournamentStatus;
use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = tournament_players)]
pub struct EntrantRow {
    pub id: i32,
    pub tournament_id: i32,
    pub user_id: i32,
    pub seed: Option<i32>,
    pub joined_at: NaiveDateTime,
    pub withdrawn_at: Option<NaiveDateTime>,
    pub withdrawal_reason: Option<String>,
    pub results_cancelled: bool,
    pub replaced_by: Option<i32>,
}

/// The tournament's players, in seed order (join order before the start).
pub fn of_tournament(conn: &mut DbConn, tid: i32) -> Result<Vec<EntrantRow>, Error> {
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

/// `user`'s entry in the tournament, if they entered it.
pub fn find(conn: &mut DbConn, tid: i32, user: i32) -> Result<Option<EntrantRow>, Error> {
    Ok(tournament_players::table
        .filter(tournament_players::tournament_id.eq(tid))
        .filter(tournament_players::user_id.eq(user))
        .select(EntrantRow::as_select())
        .first(conn)
        .optional()?)
}

pub fn is_withdrawn(conn: &mut DbConn, tid: i32, user: i32) -> Result<bool, Error> {
    Ok(find(conn, tid, user)?.is_some_and(|e| e.withdrawn_at.is_some()))
}

/// Enter `user` in the tournament, with `seed`. False when they are in it
/// already.
pub fn add(
    conn: &mut DbConn,
    tid: i32,
    user: i32,
    seed: Option<i32>,
    now: NaiveDateTime,
) -> Result<bool, Error> {
    match diesel::insert_into(tournament_players::table)
        .values((
            tournament_players::tournament_id.eq(tid),
            tournament_players::user_id.eq(user),
            tournament_players::seed.eq(seed),
            tournament_players::joined_at.eq(now),
            tournament_players::results_cancelled.eq(false),
        ))
        .execute(conn)
    {
        Ok(_) => Ok(true),
        Err(e) if is_unique_violation(&e) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Take `user` out of the tournament. False when they were not in it.
pub fn remove(conn: &mut DbConn, tid: i32, user: i32) -> Result<bool, Error> {
    let n = diesel::delete(
        tournament_players::table
            .filter(tournament_players::tournament_id.eq(tid))
            .filter(tournament_players::user_id.eq(user)),
    )
    .execute(conn)?;
    Ok(n > 0)
}

/// Give entry `id` its seed.
pub fn set_seed(conn: &mut DbConn, id: i32, seed: i32) -> Result<(), Error> {
    diesel::update(tournament_players::table.find(id))
        .set(tournament_players::seed.eq(Some(seed)))
        .execute(conn)?;
    Ok(())
}

/// How many players the tournament has, those replaced left out.
pub fn field_size(conn: &mut DbConn, tid: i32) -> Result<usize, Error> {
    Ok(tournament_players::table
        .filter(tournament_players::tournament_id.eq(tid))
        .filter(tournament_players::replaced_by.is_null())
        .count()
        .get_result::<i64>(conn)? as usize)
}

/// How many of the tournament's players are not withdrawn.
pub fn still_in(conn: &mut DbConn, tid: i32) -> Result<i64, Error> {
    Ok(tournament_players::table
        .filter(tournament_players::tournament_id.eq(tid))
        .filter(tournament_players::withdrawn_at.is_null())
        .count()
        .get_result(conn)?)
}

/// Mark entry `id` withdrawn, for `reason`, with or without its results
/// cancelled. False when it was withdrawn already.
pub fn mark_withdrawn(
    conn: &mut DbConn,
    id: i32,
    reason: &str,
    results_cancelled: bool,
    now: NaiveDateTime,
) -> Result<bool, Error> {
    let n = diesel::update(
        tournament_players::table
            .filter(tournament_players::id.eq(id))
            .filter(tournament_players::withdrawn_at.is_null()),
    )
    .set((
        tournament_players::withdrawn_at.eq(Some(now)),
        tournament_players::withdrawal_reason.eq(Some(reason)),
        tournament_players::results_cancelled.eq(results_cancelled),
    ))
    .execute(conn)?;
    Ok(n == 1)
}

/// Mark entry `id` replaced by `newcomer`, its results cancelled. False
/// when it was replaced already.
pub fn mark_replaced(conn: &mut DbConn, id: i32, newcomer: i32) -> Result<bool, Error> {
    let n = diesel::update(
        tournament_players::table
            .filter(tournament_players::id.eq(id))
            .filter(tournament_players::replaced_by.is_null()),
    )
    .set((
        tournament_players::replaced_by.eq(Some(newcomer)),
        tournament_players::results_cancelled.eq(true),
    ))
    .execute(conn)?;
    Ok(n == 1)
}

/// Players of these tournaments withdrawn since `since`, the latest first
/// (at most 100).
pub fn withdrawn_since(
    conn: &mut DbConn,
    tids: &[i32],
    since: NaiveDateTime,
) -> Result<Vec<EntrantRow>, Error> {
    Ok(tournament_players::table
        .filter(tournament_players::tournament_id.eq_any(tids))
        .filter(tournament_players::withdrawn_at.ge(since))
        .order(tournament_players::withdrawn_at.desc())
        .limit(100)
        .select(EntrantRow::as_select())
        .load(conn)?)
}

/// The players still in these tournaments (taking entries or running) who
/// are on leave on `today`: (player, tournament, last day of their leave).
pub fn on_leave(
    conn: &mut DbConn,
    tids: &[i32],
    today: NaiveDate,
) -> Result<Vec<(i32, i32, NaiveDate)>, Error> {
    let players: Vec<(i32, i32)> = tournament_players::table
        .inner_join(tournaments::table)
        .filter(tournaments::id.eq_any(tids))
        .filter(tournaments::status.eq_any([
            TournamentStatus::Entry.code(),
            TournamentStatus::Running.code(),
        ]))
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
    let mut out = Vec::new();
    for (u, until) in away {
        for (_, tid) in players.iter().filter(|p| p.0 == u) {
            out.push((u, *tid, until));
        }
    }
    Ok(out)
}

/// One entry of the user in a tournament: (tournament, its name, seed,
/// joined, withdrawn, why).
pub type Entry = (
    i32,
    String,
    Option<i32>,
    chrono::NaiveDateTime,
    Option<chrono::NaiveDateTime>,
    Option<String>,
);

/// Every entry of the user, by tournament.
pub fn entries_of(
    conn: &mut DbConn,
    user_id: i32,
) -> Result<Vec<Entry>, crate::domain::error::Error> {
    Ok(crate::db::schema::tournament_players::table
        .inner_join(crate::db::schema::tournaments::table)
        .filter(crate::db::schema::tournament_players::user_id.eq(user_id))
        .order(crate::db::schema::tournaments::id.asc())
        .select((
            crate::db::schema::tournaments::id,
            crate::db::schema::tournaments::name,
            crate::db::schema::tournament_players::seed,
            crate::db::schema::tournament_players::joined_at,
            crate::db::schema::tournament_players::withdrawn_at,
            crate::db::schema::tournament_players::withdrawal_reason,
        ))
        .load(conn)?)
}

/// The tournaments the user stands in: not withdrawn nor replaced.
pub fn standing_in(
    conn: &mut DbConn,
    user_id: i32,
) -> Result<Vec<i32>, crate::domain::error::Error> {
    Ok(crate::db::schema::tournament_players::table
        .filter(crate::db::schema::tournament_players::user_id.eq(user_id))
        .filter(crate::db::schema::tournament_players::withdrawn_at.is_null())
        .filter(crate::db::schema::tournament_players::replaced_by.is_null())
        .select(crate::db::schema::tournament_players::tournament_id)
        .load(conn)?)
}

/// The tournaments taking entries or running that the user has not
/// withdrawn from: (id, name, status code, entry closes).
pub fn open_entries_of(
    conn: &mut DbConn,
    user_id: i32,
) -> Result<Vec<(i32, String, String, chrono::NaiveDateTime)>, crate::domain::error::Error> {
    Ok(crate::db::schema::tournament_players::table
        .inner_join(crate::db::schema::tournaments::table)
        .filter(crate::db::schema::tournament_players::user_id.eq(user_id))
        .filter(crate::db::schema::tournament_players::withdrawn_at.is_null())
        .filter(crate::db::schema::tournaments::status.eq_any([
            crate::domain::tournament_state::TournamentStatus::Entry.code(),
            crate::domain::tournament_state::TournamentStatus::Running.code(),
        ]))
        .select((
            crate::db::schema::tournaments::id,
            crate::db::schema::tournaments::name,
            crate::db::schema::tournaments::status,
            crate::db::schema::tournaments::entry_closes,
        ))
        .load(conn)?)
}
