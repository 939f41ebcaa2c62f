//! The mails game acts queue, in the act's own transaction: a challenge
//! accepted, a move made, a game over.

use crate::db::games::GameRow;
use crate::db::outbox::enqueue;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::Side;
use crate::domain::mail_kind::{Mail, MoveNote};
use crate::game::conditional::Reply;
use chrono::NaiveDateTime;

// ---------------------------------------------------------------------------
// The events (called by the game's acts inside their transactions:
// `challenge`, `store_move`, `ending`)

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
) -> Result<(), Error> {
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
) -> Result<(), Error> {
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

/// A move set off conditional replies and the game goes on at `new_ply`:
/// "your turn" to the player now to move, saying what answered their move;
/// "your conditional move was played" to each owner of a reply who is not
/// to move now (one mail each, about their last reply).
pub fn on_conditional_replies(
    conn: &mut DbConn,
    row: &GameRow,
    next_player: Option<i32>,
    new_ply: i32,
    replies: &[Reply],
    now: NaiveDateTime,
) -> Result<(), Error> {
    let note = |r: &Reply| MoveNote {
        answers: Some(r.answers.clone()),
        ..MoveNote::of(&r.played)
    };
    let Some(last) = replies.last() else {
        return Ok(());
    };
    if let Some(p) = next_player.filter(|p| *p != last.owner) {
        let turn = Mail::YourTurn {
            game: row.id,
            ply: new_ply,
            from: Some(last.owner),
            last_move: Some(note(last)),
        };
        enqueue(conn, p, &turn, now)?;
    }
    let mut told = Vec::new();
    for r in replies.iter().rev() {
        if Some(r.owner) == next_player || told.contains(&r.owner) {
            continue;
        }
        told.push(r.owner);
        let opponent = [row.white_id, row.black_id]
            .into_iter()
            .flatten()
            .find(|p| *p != r.owner);
        if let Some(from) = opponent {
            let played = Mail::ConditionalPlayed {
                game: row.id,
                ply: new_ply,
                from,
                last_move: note(r),
            };
            enqueue(conn, r.owner, &played, now)?;
        }
    }
    Ok(())
}

/// The game ended: "game over" to both players.
pub fn on_game_over(
    conn: &mut DbConn,
    row: &GameRow,
    last_move: Option<(i32, MoveNote)>,
    now: NaiveDateTime,
) -> Result<(), Error> {
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
