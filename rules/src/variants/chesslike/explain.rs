//! Why a well-formed move is not legal in a chess-like variant (check,
//! castling's conditions, compulsory capture), for the shared reader's
//! messages. Apart from notation: it asks the rules, not the text.

use super::{kind_of, Castling, ChessLike};
use crate::geometry::Square;
use crate::moves::Move;
use crate::notation::Explain;
use crate::position::Position;

pub(super) struct ChessExplain<'a> {
    pub(super) v: &'a ChessLike,
    pub(super) pos: &'a Position,
    pub(super) legal: &'a [Move],
}

impl Explain for ChessExplain<'_> {
    fn piece_on(&self, sq: Square) -> Option<(bool, String)> {
        let p = self.pos.get(sq)?;
        Some((
            p.color == self.pos.side,
            self.v.pieces.def(p.kind).name.to_string(),
        ))
    }
    fn on_board(&self, sq: Square) -> bool {
        self.v.geometry.contains(sq) && !self.pos.is_hole(sq)
    }
    fn piece_name(&self, letter: char) -> String {
        kind_of(&self.v.pieces, letter)
            .map(|k| self.v.pieces.def(k).name.to_string())
            .unwrap_or_else(|| format!("“{letter}”"))
    }
    fn why_not(&self, from: Option<Square>, to: Option<Square>) -> Option<String> {
        let v = self.v;
        let pos = self.pos;
        let mut pseudo = Vec::new();
        v.pseudo_moves(pos, &mut pseudo);
        let in_check = v.in_check(pos);
        let king_name = v.pieces.def(v.king).name;
        if from.is_none() && to.is_none() {
            // Castling: say which condition fails.
            let rules: Vec<&Castling> =
                v.castlings.iter().filter(|r| r.color == pos.side).collect();
            if rules.iter().all(|r| pos.castling & r.bit == 0) {
                return Some(format!("the {king_name} or its partner has moved."));
            }
            if in_check {
                return Some(format!("your {king_name} is in check."));
            }
            return Some(format!("the squares between must be empty and the {king_name} may not cross or land on an attacked square."));
        }
        let matching: Vec<&Move> = pseudo
            .iter()
            .filter(|m| from.is_none_or(|f| m.from == f) && to.is_none_or(|t| m.to == t))
            .collect();
        if matching.is_empty() {
            return None;
        }
        let safe: Vec<&&Move> = matching
            .iter()
            .filter(|m| v.keeps_king_safe(pos, m))
            .collect();
        if safe.is_empty() {
            return Some(if in_check {
                format!("your {king_name} is in check and this move does not get it out of check.")
            } else {
                format!("it would leave your {king_name} in check.")
            });
        }
        if v.compulsory_capture && !safe.iter().any(|m| self.legal.contains(m)) {
            return Some("a capture is compulsory, and this move captures nothing.".into());
        }
        None
    }
}
