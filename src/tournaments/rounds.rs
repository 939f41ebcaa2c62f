//! Rounds: starting a tournament, pairing Swiss rounds and round robins,
//! byes, and advancing when a round is done.

use crate::db::tournaments::{self, TournamentRow};
use crate::db::{byes, entrants, outbox, tournament_games, DbConn};
use crate::domain::dutch;
use crate::domain::error::Error;
use crate::domain::ids::GameId;
use crate::domain::mail_kind::Mail;
use crate::domain::pairing::Pairing;
use crate::domain::tournament_state::{TournamentFormat, TournamentStatus};
use crate::game::challenge;
use crate::tournaments::swiss_field::swiss_field;
use chrono::NaiveDateTime;

/// Start a tournament taking entries: claim it, seed the players in join
/// order, pair, create the games and mail the players, in one transaction.
/// `false` when another process (or request) claimed it first. With fewer
/// than two players it is cancelled instead.
pub fn start(conn: &mut DbConn, tid: i32, now: NaiveDateTime) -> Result<bool, Error> {
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        if !tournaments::claim_start(conn, tid, now)? {
            return Ok(false);
        }
        let t = tournaments::load(conn, tid)?;
        let players = entrants::of_tournament(conn, tid)?;
        if players.len() < 2 {
            tournaments::cancel(conn, tid, now)?;
            return Ok(true);
        }
        for (i, p) in players.iter().enumerate() {
            entrants::set_seed(conn, p.id, i as i32 + 1)?;
        }
        let ids: Vec<i32> = players.iter().map(|p| p.user_id).collect();
        match t.format {
            TournamentFormat::Swiss => {
                // More rounds than opponents cannot be paired without repeats.
                let rounds = t.rounds.min(ids.len() as i32 - 1).max(1);
                tournaments::set_rounds(conn, tid, rounds, 1)?;
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
                tournaments::set_rounds(conn, tid, rounds, rounds)?;
                for (r, boards) in table.iter().enumerate() {
                    let round = r as i32 + 1;
                    for board in boards {
                        match *board {
                            Pairing::Game { white, black } => {
                                new_game(conn, &t, ids[white], ids[black], round, now)?;
                            }
                            Pairing::Bye(p) => byes::add(conn, tid, round, ids[p])?,
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
) -> Result<GameId, Error> {
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
    tournament_games::set_pairing(conn, id, t, round)?;
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
        byes::add(conn, t.id, round, users[b])?;
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
    let t = tournaments::load(conn, tid)?;
    if t.status != TournamentStatus::Running {
        return Ok(());
    }
    if tournament_games::any_running(conn, tid)? {
        return Ok(());
    }
    if t.format == TournamentFormat::Swiss
        && t.current_round < t.rounds
        && entrants::still_in(conn, tid)? >= 2
    {
        let next = t.current_round + 1;
        return crate::db::write_transaction::<_, Error>(conn, |conn| {
            if tournaments::claim_round(conn, tid, t.current_round, next)?
                && !pair_swiss_round(conn, &t, next, now)?
            {
                // Nobody left who has not met: the tournament ends here.
                tournaments::finish_after(conn, tid, t.current_round, now)?;
            }
            Ok(())
        });
    }
    tournaments::finish(conn, tid, now)
}

/// The background job's pass: start every tournament whose entry window has
/// closed, and advance running ones whose round is over (a safety net: the
/// game-end hook normally does it at once). Returns the tournaments started.
pub fn sweep(conn: &mut DbConn, now: NaiveDateTime) -> Result<Vec<i32>, Error> {
    let due = tournaments::due_to_start(conn, now)?;
    let mut started = Vec::new();
    for tid in due {
        if start(conn, tid, now)? {
            started.push(tid);
        }
    }
    for tid in tournaments::running(conn)? {
        advance(conn, tid, now)?;
    }
    Ok(started)
}
