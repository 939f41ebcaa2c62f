//! The mails game acts queue, in the act's own transaction: a challenge
//! accepted, a move made, a game over.

use crate::db::models::GameRow;
use crate::db::outbox::enqueue;
use crate::db::DbConn;
use crate::domain::game_state::Side;
use crate::domain::mail_kind::{Mail, MoveNote};
use chrono::NaiveDateTime;
use diesel::prelude::*;

// ---------------------------------------------------------------------------
// The events (called by `services::games` inside its transactions)

/// A challenge was accepted: one mail to the challenger (which says "your
/// move" too when they move first), and "your turn" to whoever moves first
/// if that is neither of them (a variant whose first move is not White's
/// goes to the acceptor, who is looking at the game).
pub fn on_accept(
    conn: &mut DbConn,
    row: &GameRow,
    acceptor: i32,
    white_id: Option<i32>,
    black_id: Option<i32>,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let accepted = Mail::ChallengeAccepted {
        game: row.id,
        ply: row.ply,
        from: acceptor,
    };
    enqueue(conn, row.challenger_id, &accepted, now)?;
    let to_move = if row.turn == Side::Black {
        black_id
    } else {
        white_id
    };
    if let Some(p) = to_move.filter(|p| *p != acceptor && *p != row.challenger_id) {
        let turn = Mail::YourTurn {
            game: row.id,
            ply: row.ply,
            from: Some(acceptor),
            last_move: None,
        };
        enqueue(conn, p, &turn, now)?;
    }
    Ok(())
}

/// A move that did not end the game was stored at `new_ply`: "your turn"
/// to the player now to move (a game that ended goes to `on_game_over`).
pub fn on_move(
    conn: &mut DbConn,
    row: &GameRow,
    mover: i32,
    next_player: Option<i32>,
    new_ply: i32,
    played: &missive_rules::Played,
    now: NaiveDateTime,
) -> QueryResult<()> {
    // `next_player` comes from the position after the move: a variant may
    // give the same side several moves in a turn, and then nobody is told.
    if let Some(p) = next_player.filter(|p| *p != mover) {
        let turn = Mail::YourTurn {
            game: row.id,
            ply: new_ply,
            from: Some(mover),
            last_move: Some(MoveNote::of(played)),
        };
        enqueue(conn, p, &turn, now)?;
    }
    Ok(())
}

/// The game ended: "game over" to both players.
pub fn on_game_over(
    conn: &mut DbConn,
    row: &GameRow,
    last_move: Option<(i32, MoveNote)>,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let (from, last_move) = match last_move {
        Some((mover, note)) => (Some(mover), Some(note)),
        None => (None, None),
    };
    let over = Mail::GameOver {
        game: row.id,
        from,
        last_move,
    };
    let mut players: Vec<i32> = [row.white_id, row.black_id].into_iter().flatten().collect();
    players.dedup();
    for p in players {
        enqueue(conn, p, &over, now)?;
    }
    Ok(())
}
