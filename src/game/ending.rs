//! The update that ends a game, and nothing after it.

use crate::db::games::GameRow;
use crate::db::schema::games;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::{
    EndReason, GameResult, GameStatus, Side, UnratedReason, RATED_MIN_PLIES,
};
use crate::domain::mail_kind::MoveNote;
use crate::game::notify;
use chrono::NaiveDateTime;
use diesel::prelude::*;

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
    let target = games::table
        .filter(games::id.eq(row.id))
        .filter(games::status.eq(GameStatus::Active.code()))
        .filter(games::ply.eq(row.ply));
    let changes = (
        games::status.eq(GameStatus::Finished.code()),
        games::result.eq(Some(result.code())),
        games::reason.eq(Some(reason.code())),
        games::draw_offer.eq(None::<String>),
        games::updated_at.eq(now),
        games::ended_at.eq(Some(now)),
        games::clock_deadline.eq(None::<NaiveDateTime>),
        games::clock_remind_at.eq(None::<NaiveDateTime>),
    );
    // A rated game its players started (an accepted challenge or seek)
    // that ends before both sides have moved is aborted, not rated: else
    // two accounts farm ratings by resigning at once. A tournament's
    // pairing is not the players' to repeat, and its forfeits count.
    let aborted = row.rated && row.accepted_at.is_some() && row.ply < RATED_MIN_PLIES;
    let changes = (
        changes,
        games::rated.eq(row.rated && !aborted),
        games::unrated_reason.eq(if aborted {
            Some(UnratedReason::Aborted.code())
        } else {
            row.unrated_reason.map(UnratedReason::code)
        }),
    );
    let n = if reason == EndReason::TimeForfeit && row.time_control.is_some() {
        // The loser's clock shows zero.
        match result.loser().unwrap_or(row.turn) {
            Side::Black => diesel::update(target)
                .set((changes, games::black_clock_secs.eq(Some(0i64))))
                .execute(conn)?,
            _ => diesel::update(target)
                .set((changes, games::white_clock_secs.eq(Some(0i64))))
                .execute(conn)?,
        }
    } else {
        diesel::update(target).set(changes).execute(conn)?
    };
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
