//! Shatar's mate rule as Fairy-Stockfish keeps it: a mate given by knights
//! alone loses for the mating side, and a mate wins only if one check of
//! the unbroken series that led to it was a shak (given by a knight, rook
//! or bers); otherwise it is a draw (niol).

use super::Generic;
use crate::geometry::Square;
use crate::piece::Piece;
use crate::position::Position;
use crate::variant::{Outcome, Reason};

impl Generic {
    /// The pieces giving check to the side to move.
    pub(super) fn checkers(&self, pos: &Position) -> Vec<(Square, Piece)> {
        let us = pos.side;
        let Some(king) = self.king_square(pos, us) else {
            return Vec::new();
        };
        pos.pieces()
            .filter(|(sq, p)| p.color == us.opponent() && self.piece_attacks(pos, *sq, *p, king))
            .collect()
    }

    fn is_shak(&self, p: Piece) -> bool {
        matches!(
            self.spec.pieces[p.kind as usize].name.as_str(),
            "knight" | "rook" | "bers"
        )
    }

    /// Whether the side to move of `pos` is in check by a shak now.
    pub(super) fn shak_now(&self, pos: &Position) -> bool {
        self.spec.shatar_mate && self.checkers(pos).iter().any(|(_, p)| self.is_shak(*p))
    }

    /// The series flags of `after`, a move played from `before`.
    pub(super) fn update_shak(&self, before: &Position, after: &mut Position) {
        if !self.spec.shatar_mate {
            return;
        }
        after.shak_before = before.shak;
        after.shak =
            self.in_check_of(after, after.side) && (self.shak_now(after) || before.shak_before);
    }

    /// The mated side's result under shatar's rule.
    pub(super) fn shatar_mate(&self, pos: &Position) -> Outcome {
        let us = pos.side;
        let checkers = self.checkers(pos);
        let knights_only = !checkers.is_empty()
            && checkers
                .iter()
                .all(|(_, p)| self.spec.pieces[p.kind as usize].name == "knight");
        if knights_only {
            Outcome::win(us, Reason::Checkmate)
        } else if pos.shak {
            Self::value_outcome(us, self.spec.checkmate_value, Reason::Checkmate)
        } else {
            Outcome::draw(Reason::Checkmate)
        }
    }
}
