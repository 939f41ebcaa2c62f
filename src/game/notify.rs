//! The mails game acts queue, in the act's own transaction: a challenge
//! accepted, a move made, a game over.

use crate::db::models::GameRow;
use crate::db::outbox::{enqueue, move_payload, Payload, CHALLENGE_ACCEPTED, GAME_OVER, YOUR_TURN};
use crate::db::DbConn;
use chrono::NaiveDateTime;
use diesel::prelude::*;

// ---------------------------------------------------------------------------
// The events (called by `services::games` inside its transactions)

/// A challenge was accepted: tell the challenger, and whoever moves first
/// if that is not the player who just accepted.
pub fn on_accept(
    conn: &mut DbConn,
    row: &GameRow,
    acceptor: i32,
    white_id: Option<i32>,
    black_id: Option<i32>,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let from = Payload {
        from_user: Some(acceptor),
        ..Default::default()
    };
    enqueue(
        conn,
        CHALLENGE_ACCEPTED,
        row.challenger_id,
        Some(row.id),
        Some(row.ply),
        &from,
        now,
    )?;
    let to_move = if row.turn == "black" {
        black_id
    } else {
        white_id
    };
    if let Some(p) = to_move.filter(|p| *p != acceptor) {
        enqueue(conn, YOUR_TURN, p, Some(row.id), Some(row.ply), &from, now)?;
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
    let payload = move_payload(mover, played);
    // `next_player` comes from the position after the move: a variant may
    // give the same side several moves in a turn, and then nobody is told.
    if let Some(p) = next_player.filter(|p| *p != mover) {
        enqueue(
            conn,
            YOUR_TURN,
            p,
            Some(row.id),
            Some(new_ply),
            &payload,
            now,
        )?;
    }
    Ok(())
}

/// The game ended: "game over" to both players.
pub fn on_game_over(
    conn: &mut DbConn,
    row: &GameRow,
    payload: Option<&Payload>,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let empty = Payload::default();
    let payload = payload.unwrap_or(&empty);
    let mut players: Vec<i32> = [row.white_id, row.black_id].into_iter().flatten().collect();
    players.dedup();
    for p in players {
        enqueue(conn, GAME_OVER, p, Some(row.id), None, payload, now)?;
    }
    Ok(())
}
