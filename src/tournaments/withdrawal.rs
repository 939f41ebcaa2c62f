//! The forfeit rule every ending game of a tournament passes, withdrawing
//! players, and replacing them.

use crate::db::games::GameRow;
use crate::db::tournaments::{self, TournamentRow};
use crate::db::users::User;
use crate::db::{byes, entrants, outbox, tournament_games, DbConn};
use crate::domain::error::Error;
use crate::domain::game_state::{EndReason, GameResult, GameStatus, Side};
use crate::domain::ids::GameId;
use crate::domain::mail_kind::Mail;
use crate::domain::standings::{counts, scheduled_games};
use crate::domain::tournament_state::TournamentStatus;
use crate::game::finish::end_game;
use crate::tournaments::directors::{named_player, require_director_of};
use crate::tournaments::rounds::{advance, mail_round, new_game};
use crate::util::clip;
use chrono::NaiveDateTime;
use std::collections::HashSet;

// ---------------------------------------------------------------------------
// Game endings, forfeits and withdrawals

/// What a tournament's game's end sets off (`tournaments::game_ended`,
/// inside the transaction that ends the game): the forfeit rule, then the
/// tournament's next round.
pub fn on_game_end(conn: &mut DbConn, game_id: GameId, now: NaiveDateTime) -> Result<(), Error> {
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
            let t = tournaments::load(conn, tid)?;
            if let Some(why) = forfeit_rule_breach(conn, &t, loser)? {
                if !entrants::is_withdrawn(conn, tid, loser)? {
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
    let forfeits = tournament_games::losses(conn, t.id, user, &[EndReason::TimeForfeit])?;
    if forfeits >= t.forfeit_limit as i64 {
        let games = if forfeits == 1 { "game" } else { "games" };
        return Ok(Some(format!(
            "lost {forfeits} {games} on time (the limit is {})",
            t.forfeit_limit
        )));
    }
    let silent = tournament_games::losses(conn, t.id, user, &[EndReason::Silence])?;
    if silent == 0 {
        return Ok(None);
    }
    let field = entrants::field_size(conn, t.id)?;
    let scheduled = i64::from(scheduled_games(t.format, t.rounds, field).max(1));
    Ok((2 * silent >= scheduled).then(|| {
        format!("silent withdrawal: lost {silent} of {scheduled} scheduled games by silence")
    }))
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
    let e = entrants::find(conn, t.id, user)?
        .filter(|e| e.replaced_by.is_none())
        .ok_or_else(|| Error::Invalid("That player is not in this tournament.".into()))?;
    if e.withdrawn_at.is_some() {
        return Err(Error::Conflict("That player is already withdrawn.".into()));
    }
    let field = entrants::field_size(conn, t.id)?;
    let all = tournament_games::of_tournament(conn, t.id)?;
    let mine: Vec<&GameRow> = all
        .iter()
        .filter(|g| counts(g.reason) && (g.white_id == Some(user) || g.black_id == Some(user)))
        .collect();
    let completed = mine
        .iter()
        .filter(|g| g.status == GameStatus::Finished && g.reason != Some(EndReason::Withdrawal))
        .count();
    let scheduled = scheduled_games(t.format, t.rounds, field).max(0) as usize;
    let effect = crate::domain::standings::withdrawal_effect(completed, scheduled);
    let cancel = matches!(
        effect,
        crate::domain::standings::WithdrawalEffect::CancelResults
    );
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        if !entrants::mark_withdrawn(conn, e.id, &clip(why, 300), cancel, now)? {
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
            // Its end is announced as every game's is, so the tournament
            // hears of it (`game_ended`) and advances.
            if !end_game(conn, &row, result, EndReason::Withdrawal, None, now)? {
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
    let t = tournaments::load(conn, tid)?;
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
    let t = tournaments::load(conn, tid)?;
    require_director_of(Some(director), &t)?;
    if t.status != TournamentStatus::Running {
        return Err(Error::Invalid(
            "Players are replaced only in a running tournament.".into(),
        ));
    }
    let old = named_player(conn, withdrawn)?;
    let new = named_player(conn, newcomer)?;
    let e = entrants::find(conn, tid, old.id)?
        .ok_or_else(|| Error::Invalid(format!("{} is not in this tournament.", old.username)))?;
    if e.withdrawn_at.is_none() || e.replaced_by.is_some() {
        return Err(Error::Invalid(format!(
            "Only a withdrawn player who has not been replaced yet can be replaced ({} is not).",
            old.username
        )));
    }
    if entrants::find(conn, tid, new.id)?.is_some() {
        return Err(Error::Invalid(format!(
            "{} is already in this tournament.",
            new.username
        )));
    }
    let all = tournament_games::of_tournament(conn, tid)?;
    if all.iter().any(|g| g.round == Some(1) && g.ply > 0) {
        return Err(Error::Forbidden(
            "The first round's games have started: a withdrawn player can no longer be replaced."
                .into(),
        ));
    }
    let withdrawn_players: HashSet<i32> = entrants::of_tournament(conn, tid)?
        .iter()
        .filter(|p| p.withdrawn_at.is_some())
        .map(|p| p.user_id)
        .collect();
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        if !entrants::mark_replaced(conn, e.id, new.id)? {
            return Err(Error::Conflict(
                "That player has just been replaced.".into(),
            ));
        }
        if !entrants::add(conn, tid, new.id, e.seed, now)? {
            return Err(Error::internal(format!(
                "tournament {tid}: {} is in it already",
                new.username
            )));
        }
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
            tournament_games::mark_replaced(conn, g.id)?;
            if opponent.is_some_and(|o| withdrawn_players.contains(&o)) {
                continue;
            }
            if let (Some(w), Some(b), Some(round)) = (white, black, g.round) {
                new_game(conn, &t, w, b, round, now)?;
            }
        }
        byes::hand_over(conn, tid, old.id, new.id)?;
        mail_round(conn, tid, None, new.id, now)?;
        Ok(())
    })
}
