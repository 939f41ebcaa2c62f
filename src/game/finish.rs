//! How a game ends: the one function every ending goes through, and the
//! checks shared by the acts that end a game by choice (resign, draw).

use crate::db::game_updates::{self, Ending};
use crate::db::games::{side_of, GameRow};
use crate::db::users::User;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_end::GameEnded;
use crate::domain::game_state::{
    EndReason, GameResult, GameStatus, Side, UnratedReason, RATED_MIN_PLIES,
};
use crate::domain::mail_kind::MoveNote;
use crate::game::notify;
use chrono::NaiveDateTime;
use missive_rules::Color;
use std::sync::OnceLock;

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
/// resignation, agreement, time forfeit, adjudication, withdrawal). Run it
/// inside the caller's transaction. The update is conditional on the game
/// being still active at `row.ply`, so of two racing callers one ends the
/// game, queues the game-over mails and announces the end (ratings, the
/// tournament's forfeit rule and next round, a team match's score: their
/// listeners, in the same transaction), and the other gets `false` and
/// does nothing.
pub fn end_game(
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
    notify::on_game_over(conn, row, last_move, now)?;
    // Only the caller whose update ended the game gets here: ratings move
    // and tournaments advance once, in this transaction.
    announce(
        conn,
        &GameEnded {
            game: row.id,
            tournament: row.tournament_id,
            white: row.white_id,
            black: row.black_id,
            variant: row.variant.clone(),
            rated: ending.rated,
            result,
            reason,
            at: now,
        },
    )?;
    Ok(true)
}

/// Who hears a game's end, in order. `game` names none of them: the entry
/// layer says who they are ([`listen`]).
pub type Listener = fn(&mut DbConn, &GameEnded) -> Result<(), Error>;

static LISTENERS: OnceLock<&'static [Listener]> = OnceLock::new();

/// Set who hears a game's end, once per process; a later call keeps the
/// first list (every caller passes the same one, `crate::listen`).
pub fn listen(listeners: &'static [Listener]) {
    let _ = LISTENERS.set(listeners);
}

/// Tell every listener that a game ended. A process that never said who
/// listens gets an error rather than a game whose tournament never hears
/// of its end.
fn announce(conn: &mut DbConn, ended: &GameEnded) -> Result<(), Error> {
    let listeners = LISTENERS.get().ok_or_else(|| {
        Error::internal("no listeners for game endings: call missive::listen() at start-up")
    })?;
    for listener in listeners.iter() {
        listener(conn, ended)?;
    }
    Ok(())
}
