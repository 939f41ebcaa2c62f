//! A person's rows in the game, tournament, leave and note tables, as the
//! account's own acts read and erase them: the export, the calendar feed,
//! the deletion. (Kept together here while `db/games.rs` and the other
//! tables' modules are written; each query belongs beside its table.)

use crate::db::games::GameRow;
use crate::db::schema::{
    adjudication_requests, email_outbox, game_notes, games, leave_bookings, leave_grants,
    tournament_players, tournaments,
};
use crate::db::DbConn;
use crate::domain::game_state::GameStatus;
use crate::domain::tournament_state::TournamentStatus;
use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

/// How many games `user_id` plays that are running.
pub fn running_count(conn: &mut DbConn, user_id: i32) -> QueryResult<i64> {
    games::table
        .filter(games::white_id.eq(user_id).or(games::black_id.eq(user_id)))
        .filter(games::status.eq(GameStatus::Active.code()))
        .count()
        .get_result(conn)
}

/// Every game `user_id` plays, played, offered or was offered, by id.
pub fn all_games(conn: &mut DbConn, user_id: i32) -> QueryResult<Vec<GameRow>> {
    games::table
        .filter(
            games::white_id
                .eq(user_id)
                .or(games::black_id.eq(user_id))
                .or(games::challenger_id.eq(user_id))
                .or(games::opponent_id.eq(user_id)),
        )
        .order(games::id.asc())
        .select(GameRow::as_select())
        .load(conn)
}

/// Unanswered challenges and open seeks go: taken back when `user_id`
/// made them, declined when they were asked.
pub fn take_back_challenges(
    conn: &mut DbConn,
    user_id: i32,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let pending = games::status.eq(GameStatus::Pending.code());
    diesel::update(
        games::table
            .filter(pending)
            .filter(games::challenger_id.eq(user_id)),
    )
    .set((
        games::status.eq(GameStatus::Withdrawn.code()),
        games::updated_at.eq(now),
    ))
    .execute(conn)?;
    diesel::update(
        games::table
            .filter(pending)
            .filter(games::opponent_id.eq(user_id)),
    )
    .set((
        games::status.eq(GameStatus::Declined.code()),
        games::updated_at.eq(now),
    ))
    .execute(conn)?;
    Ok(())
}

/// The user's game notes: (game, text, last written), by game.
pub fn notes(conn: &mut DbConn, user_id: i32) -> QueryResult<Vec<(i32, String, NaiveDateTime)>> {
    game_notes::table
        .filter(game_notes::user_id.eq(user_id))
        .order(game_notes::game_id.asc())
        .select((
            game_notes::game_id,
            game_notes::body,
            game_notes::updated_at,
        ))
        .load(conn)
}

/// The user's leave bookings ending on `from` or later, by first day: (id,
/// first day, last day, booked at).
pub fn leave_from(
    conn: &mut DbConn,
    user_id: i32,
    from: NaiveDate,
) -> QueryResult<Vec<(i32, NaiveDate, NaiveDate, NaiveDateTime)>> {
    leave_bookings::table
        .filter(leave_bookings::user_id.eq(user_id))
        .filter(leave_bookings::end_date.ge(from))
        .order(leave_bookings::start_date.asc())
        .select((
            leave_bookings::id,
            leave_bookings::start_date,
            leave_bookings::end_date,
            leave_bookings::created_at,
        ))
        .load(conn)
}

/// Extra leave days granted to the user: (year, days, reason, granted at).
pub fn leave_grants(
    conn: &mut DbConn,
    user_id: i32,
) -> QueryResult<Vec<(i32, i32, String, NaiveDateTime)>> {
    leave_grants::table
        .filter(leave_grants::user_id.eq(user_id))
        .order(leave_grants::id.asc())
        .select((
            leave_grants::year,
            leave_grants::days,
            leave_grants::reason,
            leave_grants::created_at,
        ))
        .load(conn)
}

/// One entry of the user in a tournament: (tournament, its name, seed,
/// joined, withdrawn, why).
pub type Entry = (
    i32,
    String,
    Option<i32>,
    NaiveDateTime,
    Option<NaiveDateTime>,
    Option<String>,
);

/// Every entry of the user, by tournament.
pub fn entries(conn: &mut DbConn, user_id: i32) -> QueryResult<Vec<Entry>> {
    tournament_players::table
        .inner_join(tournaments::table)
        .filter(tournament_players::user_id.eq(user_id))
        .order(tournaments::id.asc())
        .select((
            tournaments::id,
            tournaments::name,
            tournament_players::seed,
            tournament_players::joined_at,
            tournament_players::withdrawn_at,
            tournament_players::withdrawal_reason,
        ))
        .load(conn)
}

/// The tournaments the user stands in: not withdrawn nor replaced.
pub fn standing_entries(conn: &mut DbConn, user_id: i32) -> QueryResult<Vec<i32>> {
    tournament_players::table
        .filter(tournament_players::user_id.eq(user_id))
        .filter(tournament_players::withdrawn_at.is_null())
        .filter(tournament_players::replaced_by.is_null())
        .select(tournament_players::tournament_id)
        .load(conn)
}

/// The tournaments taking entries or running that the user has not
/// withdrawn from: (id, name, status code, entry closes).
pub fn entered_open(
    conn: &mut DbConn,
    user_id: i32,
) -> QueryResult<Vec<(i32, String, String, NaiveDateTime)>> {
    tournament_players::table
        .inner_join(tournaments::table)
        .filter(tournament_players::user_id.eq(user_id))
        .filter(tournament_players::withdrawn_at.is_null())
        .filter(tournaments::status.eq_any([
            TournamentStatus::Entry.code(),
            TournamentStatus::Running.code(),
        ]))
        .select((
            tournaments::id,
            tournaments::name,
            tournaments::status,
            tournaments::entry_closes,
        ))
        .load(conn)
}

/// When each round of a tournament began: when its first game was made.
pub fn round_starts(
    conn: &mut DbConn,
    tournament_id: i32,
) -> QueryResult<Vec<(Option<i32>, Option<NaiveDateTime>)>> {
    games::table
        .filter(games::tournament_id.eq(tournament_id))
        .group_by(games::round)
        .select((games::round, diesel::dsl::min(games::created_at)))
        .load(conn)
}

/// The user's own words and plans go (the account is deleted): notes,
/// leave, queued mail, and adjudication requests still open (a decided
/// one's note is part of the tournament's record and stays).
pub fn erase_personal(conn: &mut DbConn, user_id: i32) -> QueryResult<()> {
    let id = user_id;
    diesel::delete(game_notes::table.filter(game_notes::user_id.eq(id))).execute(conn)?;
    diesel::delete(leave_bookings::table.filter(leave_bookings::user_id.eq(id))).execute(conn)?;
    diesel::delete(leave_grants::table.filter(leave_grants::user_id.eq(id))).execute(conn)?;
    diesel::delete(email_outbox::table.filter(email_outbox::user_id.eq(id))).execute(conn)?;
    diesel::delete(
        adjudication_requests::table
            .filter(adjudication_requests::user_id.eq(id))
            .filter(adjudication_requests::resolved_at.is_null()),
    )
    .execute(conn)?;
    Ok(())
}
