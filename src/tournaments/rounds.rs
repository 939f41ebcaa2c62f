//! Rounds: starting a tournament, pairing Swiss rounds and round robins,
//! byes, and advancing when a round is done.

use crate::db::models::TournamentRow;
use crate::db::outbox;
use crate::db::schema::{games, tournament_byes, tournament_players, tournaments};
use crate::db::DbConn;
use crate::domain::dutch;
use crate::domain::error::Error;
use crate::domain::game_state::GameStatus;
use crate::domain::mail_kind::Mail;
use crate::domain::pairing::Pairing;
use crate::domain::tournament_state::{TournamentFormat, TournamentStatus};
use crate::game::challenge;
use crate::tournaments::rows::{entrants, load};
use crate::tournaments::swiss_field::swiss_field;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// Start a tournament taking entries: claim it, seed the players in join
/// order, pair, create the games and mail the players, in one transaction.
/// `false` when another process (or request) claimed it first. With fewer
/// than two players it is cancelled instead.
pub fn start(conn: &mut DbConn, tid: i32, now: NaiveDateTime) -> Result<bool, Error> {
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        let n = diesel::update(
            tournaments::table
                .filter(tournaments::id.eq(tid))
                .filter(tournaments::status.eq(TournamentStatus::Entry.code())),
        )
        .set((
            tournaments::status.eq(TournamentStatus::Running.code()),
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
                    tournaments::status.eq(TournamentStatus::Cancelled.code()),
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
        match t.format {
            TournamentFormat::Swiss => {
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
                let table = if format == TournamentFormat::DoubleRoundRobin {
                    crate::domain::round_robin::double_round_robin(ids.len())
                } else {
                    crate::domain::round_robin::round_robin(ids.len())
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

pub fn record_bye(conn: &mut DbConn, tid: i32, round: i32, user_id: i32) -> Result<(), Error> {
    diesel::insert_into(tournament_byes::table)
        .values((
            tournament_byes::tournament_id.eq(tid),
            tournament_byes::round.eq(round),
            tournament_byes::user_id.eq(user_id),
        ))
        .execute(conn)?;
    Ok(())
}

pub fn mail_round(
    conn: &mut DbConn,
    tid: i32,
    round: Option<i32>,
    user_id: i32,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let mail = Mail::TournamentRound {
        tournament: tid,
        round,
    };
    outbox::enqueue(conn, user_id, &mail, now)?;
    Ok(())
}

/// A tournament game: started at once (white to move, clock running), with
/// the tournament's time control and leave allowance.
pub fn new_game(
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
    let pairing = challenge::Pairing {
        variant_id: &t.variant,
        white_id: white,
        black_id: black,
        time_control: tc.as_ref(),
        leave_cap_days: Some(t.leave_days),
        rated: t.rated,
        weekends_free: t.weekends_free,
    };
    let id = challenge::create_paired_game(conn, &pairing, now)?;
    diesel::update(games::table.find(id))
        .set((
            games::tournament_id.eq(Some(t.id)),
            games::round.eq(Some(round)),
            games::silence_days.eq(t.silence_days),
            games::on_timeout.eq(t.on_timeout.code()),
        ))
        .execute(conn)?;
    Ok(id)
}

/// Pair Swiss round `round` over the players still in, create its games and
/// mail each player. The caller has claimed the round. `false` when no
/// pairing without a repeat exists (withdrawals can leave too few players).
pub fn pair_swiss_round(
    conn: &mut DbConn,
    t: &TournamentRow,
    round: i32,
    now: NaiveDateTime,
) -> Result<bool, Error> {
    let (users, field) = swiss_field(conn, t, round)?;
    let paired = match dutch::pair(&field) {
        Ok(p) => p,
        Err(dutch::DutchError::NoPairing) => return Ok(false),
        Err(e) => {
            return Err(Error::internal(format!(
                "tournament {} round {round}: {e}",
                t.id
            )))
        }
    };
    for &(white, black) in &paired.games {
        new_game(conn, t, users[white], users[black], round, now)?;
    }
    if let Some(b) = paired.bye {
        record_bye(conn, t.id, round, users[b])?;
    }
    for (i, p) in field.players.iter().enumerate() {
        if !p.absent {
            mail_round(conn, t.id, Some(round), users[i], now)?;
        }
    }
    Ok(true)
}

/// After a game ended: pair the next Swiss round when the current one is
/// over, or finish the tournament when every game is. Idempotent and safe to
/// race (each step is a conditional UPDATE).
pub fn advance(conn: &mut DbConn, tid: i32, now: NaiveDateTime) -> Result<(), Error> {
    let t = load(conn, tid)?;
    if t.status != TournamentStatus::Running {
        return Ok(());
    }
    let running: i64 = games::table
        .filter(games::tournament_id.eq(tid))
        .filter(games::status.eq(GameStatus::Active.code()))
        .count()
        .get_result(conn)?;
    if running > 0 {
        return Ok(());
    }
    if t.format == TournamentFormat::Swiss && t.current_round < t.rounds {
        let still_in: i64 = tournament_players::table
            .filter(tournament_players::tournament_id.eq(tid))
            .filter(tournament_players::withdrawn_at.is_null())
            .count()
            .get_result(conn)?;
        if still_in >= 2 {
            let next = t.current_round + 1;
            return crate::db::write_transaction::<_, Error>(conn, |conn| {
                let n = diesel::update(
                    tournaments::table
                        .filter(tournaments::id.eq(tid))
                        .filter(tournaments::status.eq(TournamentStatus::Running.code()))
                        .filter(tournaments::current_round.eq(t.current_round)),
                )
                .set(tournaments::current_round.eq(next))
                .execute(conn)?;
                if n == 1 && !pair_swiss_round(conn, &t, next, now)? {
                    // Nobody left who has not met: the tournament ends here.
                    diesel::update(tournaments::table.find(tid))
                        .set((
                            tournaments::status.eq(TournamentStatus::Finished.code()),
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
            .filter(tournaments::status.eq(TournamentStatus::Running.code())),
    )
    .set((
        tournaments::status.eq(TournamentStatus::Finished.code()),
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
        .filter(tournaments::status.eq(TournamentStatus::Entry.code()))
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
        .filter(tournaments::status.eq(TournamentStatus::Running.code()))
        .select(tournaments::id)
        .load(conn)?;
    for tid in running {
        advance(conn, tid, now)?;
    }
    Ok(started)
}
