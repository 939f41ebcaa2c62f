//! Storing a checked move: the guarded update of the game, the move rows
//! (with the conditional replies it set off), the game's lines, and the
//! mails or the game's end, in the caller's transaction.

use crate::db::game_updates::{self, Advance};
use crate::db::games::{load, player_of, GameRow};
use crate::db::moves::{self, NewMove};
use crate::db::{conditional_lines, DbConn};
use crate::domain::conditional_line::LinePly;
use crate::domain::error::{Error, MovedOn};
use crate::domain::game_state::{
    next_turn_no, EndReason, GameResult, GameStatus, Side, COMMENT_MAX,
};
use crate::domain::mail_kind::MoveNote;
use crate::domain::time_control::TimeControl;
use crate::game::conditional;
use crate::game::finish::end_game;
use crate::game::notify;
use chrono::NaiveDateTime;
use missive_rules::{Color, Played};

/// A checked move and everything its storing needs, owned, so that it can
/// be stored on another connection (SQLite's group commit, `db::group_commit`).
pub struct MoveWrite {
    pub(crate) row: GameRow,
    pub(crate) user_id: i32,
    pub(crate) side: Color,
    pub(crate) played: Played,
    pub(crate) from: Option<String>,
    pub(crate) to: String,
    /// The position the move leaves.
    pub(crate) fen: String,
    /// What the move adds to the game's history.
    pub(crate) history_entry: String,
    /// The conditional replies the move sets off, in order.
    pub(crate) replies: Vec<conditional::Reply>,
    /// The game's conditional lines after the move, when it had some.
    pub(crate) lines_after: Option<Vec<(i32, Vec<LinePly>)>>,
    /// The position after the move and its replies.
    pub(crate) final_fen: String,
    /// The game's end, after the move and its replies.
    pub(crate) outcome: Option<missive_rules::Outcome>,
    pub(crate) draw_offer: Option<Side>,
    pub(crate) next_side: Color,
    pub(crate) control: Option<TimeControl>,
    pub(crate) mover_clock: Option<crate::domain::clock::MoverClock>,
    /// Each side's earlier moves, White's then Black's (counted only for
    /// "N moves in D days").
    pub(crate) before: [i64; 2],
    /// The next mover's reminder thresholds (`None`: the default).
    pub(crate) next_reminders: Option<Vec<crate::domain::reminders::Threshold>>,
    pub(crate) now: NaiveDateTime,
}

/// One ply a move stores: the move itself, or a conditional reply to it.
struct PlyRow<'a> {
    user_id: i32,
    side: Color,
    played: &'a Played,
    from: Option<String>,
    to: String,
    fen: &'a str,
    history_entry: &'a str,
    conditional: bool,
}

impl MoveWrite {
    fn plies(&self) -> Vec<PlyRow<'_>> {
        let mut plies = vec![PlyRow {
            user_id: self.user_id,
            side: self.side,
            played: &self.played,
            from: self.from.clone(),
            to: self.to.clone(),
            fen: &self.fen,
            history_entry: &self.history_entry,
            conditional: false,
        }];
        for r in &self.replies {
            plies.push(PlyRow {
                user_id: r.owner,
                side: r.side,
                played: &r.played,
                from: r.from.clone(),
                to: r.to.clone(),
                fen: &r.fen,
                history_entry: &r.history_entry,
                conditional: true,
            });
        }
        plies
    }
}

/// Store a move checked by [`queue_move`](crate::game::play::queue_move),
/// with the conditional replies it sets off: the guarded update of the game,
/// the move rows, the game's lines, the mails or the game's end. Run it in a
/// transaction; "the position has changed" when another move was stored
/// first.
pub fn store_move(conn: &mut DbConn, w: &MoveWrite) -> Result<(), Error> {
    let row = &w.row;
    let (id, next_side, now) = (row.id, w.next_side, w.now);
    let plies = w.plies();
    let final_ply = row.ply + plies.len() as i32;
    // The clocks after these moves: each mover's bank loses the running
    // time used (none for a conditional reply, played the moment it was
    // set off) and gains the increment and schedule credit; the next
    // mover's turn begins now.
    let mut banks = (row.white_clock_secs, row.black_clock_secs);
    let mut time_used = vec![None; plies.len()];
    let mut bank_after = vec![None; plies.len()];
    let mut next = (None, None, None);
    if let (Some(c), Some(m)) = (&w.control, &w.mover_clock) {
        let mut done = w.before;
        for (i, p) in plies.iter().enumerate() {
            let slot = usize::from(p.side == Color::Black);
            done[slot] += 1;
            let (bank, used) = match i {
                0 => (
                    m.bank,
                    crate::domain::running_time::running_secs(m.started, now, &m.leave),
                ),
                _ => (if slot == 1 { banks.1 } else { banks.0 }.unwrap_or(0), 0),
            };
            let after = c.after_move(bank, used, u32::try_from(done[slot]).unwrap_or(u32::MAX));
            match slot {
                1 => banks.1 = Some(after),
                _ => banks.0 = Some(after),
            }
            time_used[i] = Some(used);
            bank_after[i] = Some(after);
        }
        let next_bank = match next_side {
            Color::Black => banks.1,
            _ => banks.0,
        }
        .unwrap_or(0);
        next = (
            Some(now),
            Some(crate::domain::running_time::deadline(now, next_bank, &[])),
            crate::domain::reminders::due_at(w.next_reminders.as_deref(), now, next_bank, &[], 0),
        );
    }
    let (rev, count) = match &w.lines_after {
        Some(lines) => (row.conditional_rev + 1, lines.len() as i32),
        None => (row.conditional_rev, row.conditional_count),
    };
    // The conditional update is the guard: only one request can move the
    // game from `row.ply`, and only with the lines it read; the unique
    // (game_id, ply) key backs it up.
    let advance = Advance {
        fen: &w.final_fen,
        ply: final_ply,
        turn: Side::from(next_side),
        draw_offer: w.draw_offer,
        banks,
        turn_started_at: next.0.or(row.turn_started_at),
        deadline: next.1,
        remind_at: next.2,
        conditional_rev: rev,
        conditional_count: count,
        now,
    };
    let n = game_updates::advance(conn, row, &advance)?;
    if n == 0 {
        let now_row = load(conn, id)?;
        let lines_only = now_row.ply == row.ply
            && now_row.status == GameStatus::Active
            && now_row.conditional_rev != row.conditional_rev;
        return Err(match lines_only {
            true => Error::MovedOn(MovedOn::LinesChanged),
            false => Error::position_changed(),
        });
    }
    // The move's number from the previous move's, read now that this
    // transaction has written (a read before its first write would pin a
    // snapshot that a concurrent move can make stale on SQLite).
    let mut previous = moves::turn_of(conn, id, row.ply)?.map(|(n, by)| {
        let color = match Some(by) == row.black_id {
            true => Color::Black,
            false => Color::White,
        };
        (n, color)
    });
    for (i, p) in plies.iter().enumerate() {
        let turn_no = next_turn_no(previous, p.side);
        previous = Some((turn_no, p.side));
        let mv = NewMove {
            game_id: id,
            ply: row.ply + 1 + i as i32,
            display: &p.played.display,
            coordinate: &p.played.coordinate,
            from_square: p.from.as_deref(),
            to_square: &p.to,
            fen_after: p.fen,
            played_by: p.user_id,
            played_at: now,
            comment: p
                .played
                .comment
                .as_deref()
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(|c| crate::util::clip(c, COMMENT_MAX)),
            time_used_secs: time_used[i],
            turn_no,
            history_entry: Some(p.history_entry),
            conditional: p.conditional,
            bank_after: bank_after[i],
        };
        if !moves::insert(conn, mv)? {
            return Err(Error::position_changed());
        }
    }
    if let Some(lines) = &w.lines_after {
        conditional_lines::replace(conn, id, final_ply, lines, now)?;
    }
    let last = plies.last().expect("a move stores at least itself");
    match w.outcome {
        Some(o) => {
            let after = load(conn, id)?;
            let last_move = (last.user_id, MoveNote::of(last.played));
            if !end_game(
                conn,
                &after,
                GameResult::of_outcome(&o),
                EndReason::Rules(o.reason),
                Some(last_move),
                now,
            )? {
                return Err(Error::position_changed());
            }
        }
        None if w.replies.is_empty() => {
            let next_player = player_of(row, next_side);
            notify::on_move(conn, row, w.user_id, next_player, final_ply, &w.played, now)?
        }
        None => {
            let next_player = player_of(row, next_side);
            notify::on_conditional_replies(conn, row, next_player, final_ply, &w.replies, now)?
        }
    }
    Ok(())
}
