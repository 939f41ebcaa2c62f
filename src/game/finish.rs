//! How a game ends: the one function every ending goes through, and the
//! checks shared by the acts that end a game by choice (resign, draw).

use crate::db::game_updates;
use crate::db::games::{side_of, GameRow};
use crate::db::users::User;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::{EndReason, GameResult, GameStatus, Side};
use crate::domain::mail_kind::MoveNote;
use crate::game::ending::record_end;
use chrono::NaiveDateTime;
use missive_rules::Color;

pub fn check_participant(row: &GameRow, user: &User, what: &str) -> Result<Color, Error> {
    let side = side_of(row, user.id)
        .ok_or_else(|| Error::Forbidden(format!("Only the two players can {what}.")))?;
    if row.status != GameStatus::Active {
        return Err(Error::Forbidden(format!(
            "You cannot {what}: the game is not in progress."
        )));
    }
    Ok(side)
}

pub fn finish(
    conn: &mut DbConn,
    row: &GameRow,
    result: GameResult,
    reason: EndReason,
    extra_guard_offer: Option<Side>,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let changed = || Error::Conflict("The game changed in the meantime; look at it again.".into());
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        if let Some(offer) = extra_guard_offer {
            // The offer must still stand (it is cleared by `end_game`).
            if game_updates::touch_with_draw_offer(conn, row.id, offer, now)? == 0 {
                return Err(changed());
            }
        }
        if !end_game(conn, row, result, reason, None, now)? {
            return Err(changed());
        }
        Ok(())
    })
}

/// End an active game: the one way every game ends (rules outcome,
/// resignation, agreement, time forfeit, adjudication). Run it inside the
/// caller's transaction. The update is conditional on the game being still
/// active at `row.ply`, so of two racing callers one ends the game and
/// queues the game-over mails, and the other gets `false` and does nothing.
/// A tournament game then takes the tournament's forfeit rule and its next
/// Swiss round, in the same transaction.
pub fn end_game(
    conn: &mut DbConn,
    row: &GameRow,
    result: GameResult,
    reason: EndReason,
    last_move: Option<(i32, MoveNote)>,
    now: NaiveDateTime,
) -> Result<bool, Error> {
    if !record_end(conn, row, result, reason, last_move, now)? {
        return Ok(false);
    }
    if row.tournament_id.is_some() {
        crate::tournaments::withdrawal::on_game_end(conn, row.id, now)?;
    } else {
        // A team match's game (issue 63) is no tournament's.
        crate::tournaments::team_matches::on_game_end(conn, row.id, now)?;
    }
    Ok(true)
}
