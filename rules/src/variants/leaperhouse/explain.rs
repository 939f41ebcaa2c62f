//! Why a move or drop is not legal in Leaperhouse (a leaper's check, the
//! drop rules), for the reader's messages. Apart from notation: it asks
//! the rules, not the text.

use super::{Leaperhouse, DROPPABLE, FAR_RANK, KING, PAWN};
use crate::geometry::Square;
use crate::notation::Explain;
use crate::piece::Kind;
use crate::position::Position;

impl Leaperhouse {
    /// A drop written in any form (`C@e5`, `c*e5`): its kind and square.
    pub(super) fn read_drop(&self, text: &str) -> Option<(Kind, Square)> {
        let first = text.split(';').next()?.trim();
        let (label, sq) = first.split_once('@').or_else(|| first.split_once('*'))?;
        let mut cs = label.trim().chars();
        let c = cs.next()?;
        if cs.next().is_some() {
            return None;
        }
        Some((
            self.pieces.kind_of_letter(c)?,
            self.geometry.parse_square(sq.trim())?,
        ))
    }

    /// Why `pos.side` may not drop `kind` on `to`, if it may not.
    pub(super) fn drop_problem(&self, pos: &Position, kind: Kind, to: Square) -> Option<String> {
        let name = self.name(kind);
        let us = pos.side;
        if !DROPPABLE.contains(&kind) {
            return Some(format!("a {name} is never held in hand."));
        }
        if pos.hand(us, kind) == 0 {
            return Some(format!("you have no {name} in hand."));
        }
        if pos.get(to).is_some() {
            return Some(format!(
                "{to} is not empty; pieces are dropped on empty squares."
            ));
        }
        if kind == PAWN && pos.relative_rank(to, us) == FAR_RANK {
            return Some("a Pawn may not be dropped on your last rank.".into());
        }
        if kind == PAWN && Self::pawn_files(pos, us) >> to.file() & 1 == 1 {
            return Some(format!(
                "you already have an unpromoted Pawn on the {}-file (no two Pawns on a file).",
                (b'a' + to.file()) as char
            ));
        }
        if self.checkers(pos).1 > 0 {
            return Some("your King is in check, and a dropped piece cannot block a leaper's check: move the King or capture the checking piece.".into());
        }
        None
    }
}

pub(super) struct LeaperExplain<'a> {
    pub(super) v: &'a Leaperhouse,
    pub(super) pos: &'a Position,
}

impl Explain for LeaperExplain<'_> {
    fn piece_on(&self, sq: Square) -> Option<(bool, String)> {
        if !self.on_board(sq) {
            return None;
        }
        let p = self.pos.get(sq)?;
        Some((p.color == self.pos.side, self.v.name(p.kind).to_string()))
    }
    fn on_board(&self, sq: Square) -> bool {
        self.v.geometry.contains(sq)
    }
    fn piece_name(&self, letter: char) -> String {
        self.v
            .pieces
            .kind_of_letter(letter)
            .map(|k| self.v.name(k).to_string())
            .unwrap_or_else(|| format!("“{letter}”"))
    }
    fn why_not(&self, from: Option<Square>, to: Option<Square>) -> Option<String> {
        let (v, pos) = (self.v, self.pos);
        let (checkers, n) = v.checkers(pos);
        let check_text = || {
            if n >= 2 {
                "your King is in double check, so only a King move can help.".to_string()
            } else {
                format!("your King is in check from {}, and a leaper's check cannot be blocked: move the King or capture that piece.", checkers[0])
            }
        };
        let Some(from) = from else {
            return (n > 0).then(check_text);
        };
        let to = to?;
        let piece = pos.get(from).filter(|p| p.color == pos.side)?;
        let mut reaches = false;
        v.pieces
            .targets(pos, from, piece, |t, _| reaches |= t == to);
        if !reaches {
            return None;
        }
        if piece.kind == KING {
            return Some(format!("the King may not move to {to}, which is attacked."));
        }
        (n > 0).then(check_text)
    }
}
