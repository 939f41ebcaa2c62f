//! The update that ends a game, and nothing after it.

use crate::db::game_updates::{self, Ending};
use crate::db::games::GameRow;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::{EndReason, GameResult, UnratedReason, RATED_MIN_PLIES};
use crate::domain::mail_kind::MoveNote;
use crate::game::notify;
use chrono::NaiveDateTime;

/// Record that an active game ended and queue the game-over mails, without
/// the tournament's consequences: [`crate::game::finish::end_game`] is the
/// one way every game ends; the tournament's forfeit rule, which ends other
/// games itself, calls this and then its own consequences. The update is conditional on the game being still
/// active at `row.ply`, so of two racing callers one ends the game and
/// queues the game-over mails, and the other gets `false` and does nothing.
pub fn record_end(
    conn: &mut DbConn,
    row: &GameRow,
    result: GameResult,
    reason: EndReason,
    last_move: Option<(i32, MoveNote)>,
    now: NaiveDateTime,
) -> Result<bool, Error> {
    // A rated game its players started (an accepted challenge or seek)
    // that ends before both sides have moved is aborted, not rated: else
    // two accounts farm ratings by resigning at once. A tournament's
    // pairing is not the players' to repeat, and its forfeits count.
    let aborted = row.rated && row.accepted_at.is_some() && row.ply < RATED_MIN_PLIES;
    let ending = Ending {
        result,
        reason,
        rated: row.rated && !aborted,
        unrated_reason: if aborted {
            Some(UnratedReason::Aborted)
        } else {
            row.unrated_reason
        },
        // The loser's clock shows zero.
        zero_clock: (reason == EndReason::TimeForfeit && row.time_control.is_some())
            .then(|| result.loser().unwrap_or(row.turn)),
        now,
    };
    let n = game_updates::end(conn, row, &ending)?;
    if n == 0 {
        return Ok(false);
    }
    // Only the caller whose update ended the game gets here: a rated game
    // moves its players' ratings once, in this transaction.
    if !aborted {
        crate::ratings::store::on_game_end(conn, row, result, now)?;
    }
    notify::on_game_over(conn, row, last_move, now)?;
    Ok(true)
}
