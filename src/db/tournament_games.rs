//! Games as tournaments and their directors read and change them: a
//! tournament's games and its players' losses, a pairing's tournament
//! settings, a director's ruling, extension or imported record. (The
//! `games` and `moves` tables; playing a game is the game's business.)

use crate::db::games::GameRow;
use crate::db::moves::MoveRow;
use crate::db::moves::NewMove;
use crate::db::schema::{games, moves};
use crate::db::tournaments::TournamentRow;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::{EndReason, GameResult, GameStatus};
use crate::domain::ids::GameId;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// Every game of a tournament (one query), by round.
pub fn of_tournament(conn: &mut DbConn, tid: i32) -> Result<Vec<GameRow>, Error> {
    Ok(games::table
        .filter(games::tournament_id.eq(tid))
        .order((games::round.asc(), games::id.asc()))
        .select(GameRow::as_select())
        .load(conn)?)
}

/// `user`'s games in a tournament, of round `round` or of every round.
pub fn of_player(
    conn: &mut DbConn,
    tid: i32,
    user: i32,
    round: Option<i32>,
) -> Result<Vec<GameRow>, Error> {
    let mut q = games::table
        .filter(games::tournament_id.eq(tid))
        .filter(games::white_id.eq(user).or(games::black_id.eq(user)))
        .into_boxed();
    if let Some(r) = round {
        q = q.filter(games::round.eq(r));
    }
    Ok(q.order((games::round.asc(), games::id.asc()))
        .select(GameRow::as_select())
        .load(conn)?)
}

/// Whether a game of the tournament is still being played.
pub fn any_running(conn: &mut DbConn, tid: i32) -> Result<bool, Error> {
    let running: i64 = games::table
        .filter(games::tournament_id.eq(tid))
        .filter(games::status.eq(GameStatus::Active.code()))
        .count()
        .get_result(conn)?;
    Ok(running > 0)
}

/// Make game `id` a game of round `round` of `t`, under its silence and
/// timeout rules.
pub fn set_pairing(
    conn: &mut DbConn,
    id: GameId,
    t: &TournamentRow,
    round: i32,
) -> Result<(), Error> {
    diesel::update(games::table.find(id))
        .set((
            games::tournament_id.eq(Some(t.id)),
            games::round.eq(Some(round)),
            games::silence_days.eq(t.silence_days),
            games::on_timeout.eq(t.on_timeout.code()),
        ))
        .execute(conn)?;
    Ok(())
}

/// Games `user` lost in a tournament for one of `reasons`.
pub fn losses(conn: &mut DbConn, tid: i32, user: i32, reasons: &[EndReason]) -> Result<i64, Error> {
    let codes: Vec<&str> = reasons.iter().map(|r| r.code()).collect();
    Ok(games::table
        .filter(games::tournament_id.eq(tid))
        .filter(games::reason.eq_any(codes))
        .filter(
            games::result
                .eq(GameResult::WhiteWins.code())
                .and(games::black_id.eq(user))
                .or(games::result
                    .eq(GameResult::BlackWins.code())
                    .and(games::white_id.eq(user))),
        )
        .count()
        .get_result(conn)?)
}

/// When `user` last lost a game (any game) on time or by silence, if
/// after `since`.
pub fn last_forfeit_since(
    conn: &mut DbConn,
    user: i32,
    since: NaiveDateTime,
) -> Result<Option<NaiveDateTime>, Error> {
    Ok(games::table
        .filter(games::reason.eq_any([EndReason::TimeForfeit.code(), EndReason::Silence.code()]))
        .filter(games::ended_at.gt(since))
        .filter(
            games::result
                .eq(GameResult::WhiteWins.code())
                .and(games::black_id.eq(user))
                .or(games::result
                    .eq(GameResult::BlackWins.code())
                    .and(games::white_id.eq(user))),
        )
        .select(diesel::dsl::max(games::ended_at))
        .first(conn)?)
}

/// These tournaments' games lost on time since `since`, the latest first
/// (at most 100).
pub fn forfeits_since(
    conn: &mut DbConn,
    tids: &[i32],
    since: NaiveDateTime,
) -> Result<Vec<GameRow>, Error> {
    Ok(games::table
        .filter(games::tournament_id.eq_any(tids))
        .filter(games::reason.eq(EndReason::TimeForfeit.code()))
        .filter(games::ended_at.ge(since))
        .order(games::ended_at.desc())
        .limit(100)
        .select(GameRow::as_select())
        .load(conn)?)
}

/// These tournaments' running games whose deadline, leave ignored, falls
/// by `soon`, the nearest first (at most 200).
pub fn nearing_deadline(
    conn: &mut DbConn,
    tids: &[i32],
    soon: NaiveDateTime,
) -> Result<Vec<GameRow>, Error> {
    Ok(games::table
        .filter(games::tournament_id.eq_any(tids))
        .filter(games::status.eq(GameStatus::Active.code()))
        .filter(games::clock_deadline.le(soon))
        .order(games::clock_deadline.asc())
        .limit(200)
        .select(GameRow::as_select())
        .load(conn)?)
}

/// Mark game `id` never played: its player was replaced.
pub fn mark_replaced(conn: &mut DbConn, id: GameId) -> Result<(), Error> {
    diesel::update(games::table.find(id))
        .set(games::reason.eq(Some(EndReason::Replaced.code())))
        .execute(conn)?;
    Ok(())
}

/// Overrule a finished game's result: it is now `result`, by adjudication.
pub fn overrule(
    conn: &mut DbConn,
    id: GameId,
    result: GameResult,
    now: NaiveDateTime,
) -> Result<(), Error> {
    diesel::update(games::table.find(id))
        .set((
            games::result.eq(Some(result.code())),
            games::reason.eq(Some(EndReason::Adjudication.code())),
            games::updated_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// Both banks and the mover's deadline of a running game's clock.
#[derive(Clone, Copy, Debug)]
pub struct Clocks {
    pub white_secs: i64,
    pub black_secs: i64,
    pub deadline: NaiveDateTime,
}

/// Set the clocks of running game `id` at `ply` from `before` (as read) to
/// `after`. False when the game or its clocks changed meanwhile (a move, a
/// takeback or an outage's extension).
pub fn extend_clocks(
    conn: &mut DbConn,
    id: GameId,
    ply: i32,
    before: Clocks,
    after: Clocks,
) -> Result<bool, Error> {
    let n = diesel::update(
        games::table
            .filter(games::id.eq(id))
            .filter(games::ply.eq(ply))
            .filter(games::status.eq(GameStatus::Active.code()))
            .filter(games::white_clock_secs.eq(before.white_secs))
            .filter(games::black_clock_secs.eq(before.black_secs))
            .filter(games::clock_deadline.eq(before.deadline)),
    )
    .set((
        games::white_clock_secs.eq(after.white_secs),
        games::black_clock_secs.eq(after.black_secs),
        games::clock_deadline.eq(after.deadline),
    ))
    .execute(conn)?;
    Ok(n > 0)
}

/// Every move of a tournament's games (one query), by game and ply.
pub fn moves_of_tournament(conn: &mut DbConn, tid: i32) -> Result<Vec<MoveRow>, Error> {
    Ok(moves::table
        .inner_join(games::table)
        .filter(games::tournament_id.eq(tid))
        .order((moves::game_id.asc(), moves::ply.asc()))
        .select(MoveRow::as_select())
        .load(conn)?)
}

/// Store an imported record's end and moves in the game created for it.
pub fn store_imported(
    conn: &mut DbConn,
    id: GameId,
    result: GameResult,
    reason: EndReason,
    plies: &[NewMove],
    now: NaiveDateTime,
) -> Result<(), Error> {
    diesel::update(games::table.find(id))
        .set((
            games::result.eq(Some(result.code())),
            games::reason.eq(Some(reason.code())),
            games::ended_at.eq(Some(now)),
        ))
        .execute(conn)?;
    for m in plies {
        diesel::insert_into(moves::table).values(m).execute(conn)?;
    }
    Ok(())
}

/// A round and when its first game was made.
pub type RoundStart = (Option<i32>, Option<chrono::NaiveDateTime>);

/// When each round of a tournament began: when its first game was made.
pub fn round_starts(
    conn: &mut DbConn,
    tournament_id: i32,
) -> Result<Vec<RoundStart>, crate::domain::error::Error> {
    Ok(crate::db::schema::games::table
        .filter(crate::db::schema::games::tournament_id.eq(tournament_id))
        .group_by(crate::db::schema::games::round)
        .select((
            crate::db::schema::games::round,
            diesel::dsl::min(crate::db::schema::games::created_at),
        ))
        .load(conn)?)
}
