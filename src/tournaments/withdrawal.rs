//! The forfeit rule every ending game of a tournament passes, withdrawing
//! players, and replacing them.

use crate::db::games::GameRow;
use crate::db::models::{TournamentRow, User};
use crate::db::outbox;
use crate::db::schema::{games, tournament_byes, tournament_players};
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::{EndReason, GameResult, GameStatus, Side};
use crate::domain::mail_kind::Mail;
use crate::domain::tournament_state::TournamentStatus;
use crate::game::ending::record_end;
use crate::tournaments::directors::require_director_of;
use crate::tournaments::rounds::{advance, mail_round, new_game};
use crate::tournaments::rows::{
    counts, entrant, entrants, games_of, is_withdrawn, load, named_player, scheduled_games,
};
use crate::util::clip;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use std::collections::HashSet;

// ---------------------------------------------------------------------------
// Game endings, forfeits and withdrawals

/// The hook `game::finish` calls inside the transaction that ends a game
/// (any ending): applies the forfeit rule, then advances the tournament.
pub fn on_game_end(conn: &mut DbConn, game_id: i32, now: NaiveDateTime) -> Result<(), Error> {
    let g = crate::db::games::load(conn, game_id)?;
    let Some(tid) = g.tournament_id else {
        return Ok(());
    };
    if matches!(g.reason, Some(EndReason::TimeForfeit | EndReason::Silence)) {
        let loser = match g.result.and_then(GameResult::loser) {
            Some(side) => crate::db::games::player_of(&g, side.color()),
            None => None,
        };
        if let Some(loser) = loser {
            let t = load(conn, tid)?;
            if let Some(why) = forfeit_rule_breach(conn, &t, loser)? {
                if !is_withdrawn(conn, tid, loser)? {
                    withdraw(conn, &t, loser, &why, now)?;
                }
            }
        }
    }
    advance(conn, tid, now)
}

/// Why `user` is to be withdrawn under the forfeit rules, if they are: as
/// many losses on time as the tournament's forfeit limit, or half or more
/// of their scheduled games lost by silence (a silent withdrawal).
///
/// Issue 63: the silent withdrawal once counted losses on time too, so in a
/// round robin of three (two games each) a single claimed loss on time
/// withdrew a player whose forfeit limit was two. A loss on time is not
/// silence (the player may have moved every day and run out of time, and a
/// claimed one was even played on); losses on time answer to the forfeit
/// limit alone, the silence count only to the silence rule.
fn forfeit_rule_breach(
    conn: &mut DbConn,
    t: &TournamentRow,
    user: i32,
) -> Result<Option<String>, Error> {
    let forfeits = losses_by(conn, t.id, user, &[EndReason::TimeForfeit])?;
    if forfeits >= t.forfeit_limit as i64 {
        let games = if forfeits == 1 { "game" } else { "games" };
        return Ok(Some(format!(
            "lost {forfeits} {games} on time (the limit is {})",
            t.forfeit_limit
        )));
    }
    let silent = losses_by(conn, t.id, user, &[EndReason::Silence])?;
    if silent == 0 {
        return Ok(None);
    }
    let field = tournament_players::table
        .filter(tournament_players::tournament_id.eq(t.id))
        .filter(tournament_players::replaced_by.is_null())
        .count()
        .get_result::<i64>(conn)? as usize;
    let scheduled = i64::from(scheduled_games(t, field).max(1));
    Ok((2 * silent >= scheduled).then(|| {
        format!("silent withdrawal: lost {silent} of {scheduled} scheduled games by silence")
    }))
}

/// Games `user` lost on time in a tournament.
pub fn time_forfeits(conn: &mut DbConn, tid: i32, user: i32) -> Result<i64, Error> {
    losses_by(conn, tid, user, &[EndReason::TimeForfeit])
}

/// Games `user` lost in a tournament by silence.
pub fn silence_losses(conn: &mut DbConn, tid: i32, user: i32) -> Result<i64, Error> {
    losses_by(conn, tid, user, &[EndReason::Silence])
}

/// Games `user` lost in a tournament for one of `reasons`.
fn losses_by(conn: &mut DbConn, tid: i32, user: i32, reasons: &[EndReason]) -> Result<i64, Error> {
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
    if t.status != TournamentStatus::Running {
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
        .filter(|g| g.status == GameStatus::Finished && g.reason != Some(EndReason::Withdrawal))
        .count();
    let scheduled = scheduled_games(t, field).max(0) as usize;
    let effect = crate::domain::standings::withdrawal_effect(completed, scheduled);
    let cancel = matches!(
        effect,
        crate::domain::standings::WithdrawalEffect::CancelResults
    );
    crate::db::write_transaction::<_, Error>(conn, |conn| {
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
        let notice = Mail::TournamentWithdrawn {
            tournament: t.id,
            reason: clip(why, 300),
            results_cancelled: cancel,
        };
        outbox::enqueue(conn, user, &notice, now)?;
        for g in mine.iter().filter(|g| g.status == GameStatus::Active) {
            let result = if g.white_id == Some(user) {
                GameResult::win_for(Side::Black)
            } else {
                GameResult::win_for(Side::White)
            };
            let row = crate::db::games::load(conn, g.id)?;
            if row.status != GameStatus::Active {
                continue;
            }
            if !record_end(conn, &row, result, EndReason::Withdrawal, None, now)? {
                return Err(Error::Conflict(
                    "A game of that player changed meanwhile; try again.".into(),
                ));
            }
            // What `finish::end_game` does after the update, called here
            // because that function calls into this file.
            on_game_end(conn, row.id, now)?;
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
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        withdraw(conn, &t, u.id, &why, now)?;
        advance(conn, tid, now)
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
    if t.status != TournamentStatus::Running {
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
    crate::db::write_transaction::<_, Error>(conn, |conn| {
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
            let opponent = crate::db::games::opponent_of(g, old.id);
            diesel::update(games::table.find(g.id))
                .set(games::reason.eq(Some(EndReason::Replaced.code())))
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
