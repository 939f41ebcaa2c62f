//! Explaining a well-formed move that is not legal: why, and what the
//! named piece may do instead. Apart from reading, which only finds moves.

use super::pattern::Pattern;
use super::Candidate;
use crate::errors::MoveError;
use crate::geometry::Square;

/// How a variant explains a well-formed move that is not legal.
pub(crate) trait Explain {
    /// Name of the piece on a square from the mover's view, for messages
    /// ("Knight"); `None` when the square is empty or not on the board.
    fn piece_on(&self, sq: Square) -> Option<(bool, String)>;
    /// Why the mover may not move from `from` to `to` (when both are known).
    fn why_not(&self, from: Option<Square>, to: Option<Square>) -> Option<String>;
    /// Whether `sq` is a playable square of the board.
    fn on_board(&self, sq: Square) -> bool;
    /// Name of a piece type by its upper-case letter.
    fn piece_name(&self, letter: char) -> String;
}

/// The error for `input`, read as `p`, when no candidate fits it.
pub(super) fn explain_illegal(
    input: &str,
    p: &Pattern,
    cands: &[Candidate],
    explain: &dyn Explain,
) -> MoveError {
    let illegal = |reason: String, mut alternatives: Vec<String>| {
        alternatives.sort();
        alternatives.dedup();
        MoveError::Illegal {
            input: input.to_string(),
            reason,
            alternatives,
        }
    };
    if p.castle.is_some() {
        let side = if p.castle == Some(true) {
            "king-side"
        } else {
            "queen-side"
        };
        return illegal(
            explain
                .why_not(None, None)
                .map(|w| format!("castling {side} is not possible: {w}"))
                .unwrap_or(format!("castling {side} is not possible now.")),
            vec![],
        );
    }
    if p.drop {
        let letter = p.letter.unwrap_or('?');
        let name = explain.piece_name(letter);
        let drops: Vec<String> = cands
            .iter()
            .filter(|c| c.drop && c.letter == letter)
            .map(|c| c.display.clone())
            .collect();
        if drops.is_empty() {
            return illegal(
                format!("you have no {name} that can be dropped now."),
                vec![],
            );
        }
        let why = explain
            .why_not(None, p.to)
            .unwrap_or_else(|| format!("a {name} cannot be dropped there."));
        return illegal(why, drops);
    }
    if let Some(from) = p.from {
        let own: Vec<String> = cands
            .iter()
            .filter(|c| c.from == Some(from))
            .map(|c| c.display.clone())
            .collect();
        return match explain.piece_on(from) {
            None => illegal(format!("there is no piece on {from}."), vec![]),
            Some((false, name)) => illegal(
                format!("the {name} on {from} is not yours to move."),
                vec![],
            ),
            Some((true, name)) => {
                if let (Some(l), false) = (p.letter, own.is_empty()) {
                    if cands.iter().any(|c| c.from == Some(from) && c.letter != l) {
                        return illegal(
                            format!(
                                "the piece on {from} is a {name}, not a {}.",
                                explain.piece_name(l)
                            ),
                            own,
                        );
                    }
                }
                let to_ok: Vec<&Candidate> = cands
                    .iter()
                    .filter(|c| c.from == Some(from) && Some(c.to) == p.to)
                    .collect();
                if !to_ok.is_empty() && p.said_promotion {
                    let options: Vec<String> = to_ok.iter().map(|c| c.display.clone()).collect();
                    return illegal(
                        format!("the {name} cannot become that piece here."),
                        options,
                    );
                }
                let why = explain.why_not(Some(from), p.to);
                let reason = match (why, p.to, own.is_empty()) {
                    (Some(w), _, _) => w,
                    (None, _, true) => format!("the {name} on {from} has no legal move."),
                    (None, Some(to), false) => format!("the {name} on {from} cannot go to {to}."),
                    (None, None, false) => format!("the {name} on {from} cannot move like that."),
                };
                illegal(reason, own)
            }
        };
    }
    // SAN with a piece letter (or a pawn) and a destination.
    let letter = p.letter;
    let pawn_move = letter.is_none();
    let name = letter
        .map(|l| explain.piece_name(l))
        .unwrap_or_else(|| "pawn".into());
    let same_kind: Vec<String> = cands
        .iter()
        .filter(|c| {
            !c.drop
                && c.castle.is_none()
                && if pawn_move {
                    c.pawn
                } else {
                    Some(c.letter) == letter && !c.pawn
                }
        })
        .map(|c| c.display.clone())
        .collect();
    let to = p.to.map(|t| t.to_string()).unwrap_or_default();
    let reason = explain.why_not(None, p.to).unwrap_or_else(|| {
        if same_kind.is_empty() {
            format!("no {name} of yours can move now.")
        } else {
            format!("no {name} of yours can go to {to} like that.")
        }
    });
    illegal(reason, same_kind)
}
