//! Conditional moves: a player's lines of "if they play X, I play Y",
//! checked by the rules when entered, kept private, and played at once when
//! the opponent's move matches ([`plan`], called by `game::play` inside the
//! move's own transaction).
//!
//! A line is a sequence of plies starting with the opponent's next move and
//! ending with the owner's own. A player's lines form a tree: two lines
//! may part only at an opponent's move, never at the owner's. Every edit of
//! a game's lines moves the game row's `conditional_rev` under the row's
//! guard (the ply and status a move also guards on), so an edit and a move
//! happen in one order or the other.

use crate::db::conditional_lines::{self, lines_of};
use crate::db::game_updates;
use crate::db::games::{self, side_of, GameRow};
use crate::db::users::User;
use crate::db::DbConn;
use crate::domain::conditional_line::{Line, LinePly};
use crate::domain::error::Error;
use crate::domain::game_state::{GameStatus, COMMENT_MAX, MOVE_TEXT_MAX};
use crate::domain::ids::GameId;
use chrono::NaiveDateTime;
use missive_rules::{Color, Game, Played};

/// Most plies in one line (the owner's and the opponent's together).
pub const LINE_PLIES_MAX: usize = 40;

/// Most lines one player keeps in one game.
pub const LINES_MAX: usize = 50;

/// Longest line text accepted before reading it.
pub const LINE_TEXT_MAX: usize = 4000;

/// The moves of a line text, each with its `//` comment. Moves are parted
/// by spaces, line breaks or `;`; a comment runs from `//` to the next `;`
/// or line break. Move numbers (`5.`, `5...`, `5.Nf3`) are skipped, so a
/// line copied from a game record reads as written.
pub fn read_line_text(text: &str) -> Result<Vec<(String, Option<String>)>, Error> {
    if text.len() > LINE_TEXT_MAX {
        return Err(Error::Invalid(format!(
            "That line is too long: at most {LINE_TEXT_MAX} characters."
        )));
    }
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    for segment in text.split([';', '\n', '\r']) {
        let (moves, comment) = match segment.split_once("//") {
            Some((m, c)) => (m, Some(c.trim()).filter(|c| !c.is_empty())),
            None => (segment, None),
        };
        let before = out.len();
        // Game Courier writes a piece letter apart from its squares
        // (`N g1-f3`): a bare word of letters goes with the token after it.
        let mut pending: Option<&str> = None;
        for token in moves.split_whitespace() {
            let token = match pending.take() {
                Some(letter) => {
                    out.push((format!("{letter} {token}"), None));
                    continue;
                }
                None => token,
            };
            if token.len() <= 3 && token.chars().all(|c| c.is_ascii_alphabetic()) {
                pending = Some(token);
                continue;
            }
            let token = token.trim_start_matches(|c: char| c.is_ascii_digit());
            let token = if token.len() < moves.len() {
                token.trim_start_matches('.')
            } else {
                token
            };
            if token.is_empty() {
                continue;
            }
            if token.len() > MOVE_TEXT_MAX {
                return Err(Error::Invalid(
                    "A move in that line is far too long.".into(),
                ));
            }
            out.push((token.to_string(), None));
        }
        if let Some(letter) = pending {
            out.push((letter.to_string(), None));
        }
        if let Some(c) = comment {
            match out.len() > before {
                true => out.last_mut().expect("a move was read").1 = Some(clip_comment(c)),
                false => {
                    return Err(Error::Invalid(
                        "A `//` comment in the line follows no move: write it after the move it is about."
                            .into(),
                    ))
                }
            }
        }
    }
    if out.is_empty() {
        return Err(Error::Invalid(
            "The line is empty: write your opponent's move and your answer, e.g. `Nf6 Bg5`.".into(),
        ));
    }
    if out.len() > LINE_PLIES_MAX {
        return Err(Error::Invalid(format!(
            "That line has {} moves: a line may have at most {LINE_PLIES_MAX}.",
            out.len()
        )));
    }
    Ok(out)
}

fn clip_comment(c: &str) -> String {
    crate::util::clip(c, COMMENT_MAX)
}

/// Check a line for the player of `owner` in `start` (a position where the
/// opponent is to move): every ply legal in the position the line reaches,
/// under the variant's repetition and move-count rules, the first the
/// opponent's and the last the owner's.
pub fn check_line(
    start: &Game,
    owner: Color,
    entries: &[(String, Option<String>)],
) -> Result<Vec<LinePly>, Error> {
    if start.outcome().is_some() {
        return Err(Error::Forbidden("This game is over.".into()));
    }
    if start.side_to_move() == owner {
        return Err(Error::Forbidden(
            "It is your move: a conditional line starts with your opponent's next move, so enter it with your move (the `conditional` field) or after it."
                .into(),
        ));
    }
    let mut game = start.clone();
    let mut plies = Vec::with_capacity(entries.len());
    for (i, (text, comment)) in entries.iter().enumerate() {
        let n = i + 1;
        if let Some(o) = game.outcome() {
            return Err(Error::Invalid(format!(
                "Ply {n} of the line ({text}): the game would already be over after ply {i} ({}).",
                o.describe(game.variant())
            )));
        }
        let mine = game.side_to_move() == owner;
        let played = game.play_text(text).map_err(|e| {
            let whose = if mine {
                "your move"
            } else {
                "your opponent's move"
            };
            Error::Invalid(format!("Ply {n} of the line ({text}, {whose}): {e}"))
        })?;
        plies.push(LinePly {
            coordinate: played.coordinate,
            display: played.display,
            comment: comment.clone().or(played.comment),
            mine,
        });
    }
    match plies.last() {
        Some(last) if !last.mine => Err(Error::Invalid(format!(
            "The line ends with your opponent's move ({}): add your answer to it, or leave it out.",
            last.display
        ))),
        _ => Ok(plies),
    }
}

/// Why `new` cannot join the lines `kept` (the same owner's, from the same
/// ply), if it cannot: a line kept already, or one that answers the same
/// opponent's move differently.
pub fn conflict(kept: &[Line], new: &[LinePly]) -> Option<String> {
    for line in kept {
        let same = line
            .plies
            .iter()
            .zip(new)
            .take_while(|(a, b)| a.coordinate == b.coordinate)
            .count();
        if same == new.len() && same == line.plies.len() {
            return Some(format!("You have this line already: {}.", line.text()));
        }
        if let (Some(a), Some(b)) = (line.plies.get(same), new.get(same)) {
            if a.mine && b.mine {
                let after = match same {
                    0 => "at the start".to_string(),
                    _ => format!("after {}", new[same - 1].display),
                };
                return Some(format!(
                    "This line answers {after} with {}, but your line {} plays {} there: a position can have only one answer. Delete that line first, or change this one.",
                    b.display,
                    line.text(),
                    a.display
                ));
            }
        }
    }
    None
}

const MOVED_ON: &str =
    "The game moved on while your line was being checked: look at the position and enter the line again.";

/// A checked line, ready to store by [`store_line`].
#[derive(Clone)]
pub struct NewLine {
    row: GameRow,
    user_id: i32,
    plies: Vec<LinePly>,
}

/// Check `text` as a line of `user` in the game `row` whose position is
/// `game` (the opponent to move), against the lines the user keeps.
pub fn prepare_line(
    conn: &mut DbConn,
    row: GameRow,
    game: &Game,
    user: &User,
    text: &str,
) -> Result<NewLine, Error> {
    let side = side_of(&row, user.id).ok_or_else(|| {
        Error::Forbidden("Only the two players can enter conditional moves.".into())
    })?;
    if row.status != GameStatus::Active {
        return Err(Error::Forbidden("This game is not in progress.".into()));
    }
    let entries = read_line_text(text)?;
    let plies = check_line(game, side, &entries)?;
    let kept = lines_of(conn, row.id, row.ply, Some(user.id))?;
    if kept.len() >= LINES_MAX {
        return Err(Error::Invalid(format!(
            "You keep {LINES_MAX} lines in this game already: delete one first."
        )));
    }
    if let Some(why) = conflict(&kept, &plies) {
        return Err(Error::Invalid(why));
    }
    Ok(NewLine {
        row,
        user_id: user.id,
        plies,
    })
}

/// Store a line [`prepare_line`] checked, in a transaction.
pub fn store_line(conn: &mut DbConn, new: &NewLine, now: NaiveDateTime) -> Result<(), Error> {
    crate::db::write_transaction(conn, |conn| {
        if !game_updates::guard_lines_edit(conn, &new.row, 1)? {
            return Err(Error::Conflict(MOVED_ON.into()));
        }
        conditional_lines::insert(
            conn,
            new.row.id,
            new.row.ply,
            &[(new.user_id, new.plies.clone())],
            now,
        )
    })
}

/// Delete the line `line_id` of `user` in `game`, in a transaction.
pub fn delete_line(
    conn: &mut DbConn,
    game: GameId,
    user: &User,
    line_id: i32,
) -> Result<(), Error> {
    let row = games::load(conn, game)?;
    if side_of(&row, user.id).is_none() {
        return Err(Error::Forbidden(
            "Only the two players can have conditional moves.".into(),
        ));
    }
    // The game row first, as a move takes it (then its lines): on
    // PostgreSQL the same order cannot deadlock, and on SQLite a
    // transaction that begins with its write is never refused the write
    // lock for having read first.
    crate::db::write_transaction(conn, |conn| {
        game_updates::line_deleted(conn, game)?;
        let n = conditional_lines::delete(conn, game, user.id, line_id)?;
        // Nothing to delete: the count goes back with the rollback.
        if n == 0 {
            return Err(Error::NotFound(
                "You have no such line in this game (it may have been played or dropped already)."
                    .into(),
            ));
        }
        Ok(())
    })
}

/// One conditional move [`plan`] played.
pub struct Reply {
    pub owner: i32,
    pub side: Color,
    pub played: Played,
    /// What the move answered (the ply before it, as written).
    pub answers: String,
    pub from: Option<String>,
    pub to: String,
    pub fen: String,
    pub history_entry: String,
}

/// What a stored move sets off: the conditional replies played after it,
/// in order, and the lines left (each now starting at the game's new ply).
pub struct Plan {
    pub replies: Vec<Reply>,
    pub lines_after: Vec<(i32, Vec<LinePly>)>,
}

/// Play the conditional replies that `lines` (a game's lines from the ply
/// before `played`) give once `played` is on `game`: every line that does
/// not start with `played` is dropped, the others lose their first ply, and
/// while the player to move has a line whose next ply is their own, it is
/// played. Nothing is played once the game is over. `player` names the
/// player of a side.
pub fn plan(
    game: &mut Game,
    lines: Vec<Line>,
    played: &Played,
    player: impl Fn(Color) -> Option<i32>,
) -> Plan {
    let mut left: Vec<(i32, Vec<LinePly>)> =
        lines.into_iter().map(|l| (l.user_id, l.plies)).collect();
    let advance = |left: &mut Vec<(i32, Vec<LinePly>)>, coordinate: &str| {
        left.retain(|(_, p)| p.first().is_some_and(|f| f.coordinate == coordinate));
        for (_, p) in left.iter_mut() {
            p.remove(0);
        }
        left.retain(|(_, p)| !p.is_empty());
    };
    advance(&mut left, &played.coordinate);
    let mut replies = Vec::new();
    let mut answers = played.display.clone();
    // Each reply uses up a ply of some line: the loop ends.
    while game.outcome().is_none() {
        let side = game.side_to_move();
        let Some(mover) = player(side) else { break };
        let Some(next) = left
            .iter()
            .find(|(u, p)| *u == mover && p[0].mine)
            .map(|(_, p)| p[0].clone())
        else {
            break;
        };
        let Ok(mut reply) = game.play_text(&next.coordinate) else {
            // Checked when entered along this very path, so legal; if the
            // rules say otherwise, the owner's lines are dropped unplayed.
            left.retain(|(u, _)| *u != mover);
            break;
        };
        reply.comment = next.comment.clone();
        let (from, to) = game.variant().move_squares(&reply.mv);
        advance(&mut left, &next.coordinate);
        let display = reply.display.clone();
        replies.push(Reply {
            owner: mover,
            side,
            played: reply,
            answers: std::mem::replace(&mut answers, display),
            from: from.map(|s| s.name()),
            to: to.name(),
            fen: game.fen(),
            history_entry: game.last_history_entry(),
        });
    }
    if game.outcome().is_some() {
        left.clear();
    }
    Plan {
        replies,
        lines_after: left,
    }
}

#[cfg(test)]
#[path = "conditional_tests.rs"]
mod tests;
