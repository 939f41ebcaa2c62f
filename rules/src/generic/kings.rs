//! Where the kings stand before a move, so legality checks after each move
//! need not search the board for them.

use super::Generic;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind};
use crate::piece::Color;
use crate::position::Position;

/// The kings' squares before a move (side to move's first), to find them
/// after each move without searching the board again.
pub(super) struct Kings {
    pub(super) squares: [Option<Square>; 2],
    /// Whether each side has at most one king and no move can make a king
    /// vanish other than by its capture (no blasts): then the king is where
    /// it stood or, if it moved, where the move took it.
    pub(super) tracked: bool,
}

impl Kings {
    pub(super) fn of(g: &Generic, pos: &Position) -> Kings {
        let us = pos.side;
        let mut squares = [None, None];
        let mut tracked = !g.spec.blast_on_capture;
        if let Some(k) = g.spec.king_kind() {
            for (sq, p) in pos.pieces().filter(|(_, p)| p.kind == k) {
                let i = usize::from(p.color != us);
                if p.color == Color::Neutral || squares[i].is_some() {
                    tracked = false;
                } else {
                    squares[i] = Some(sq);
                }
            }
        }
        Kings { squares, tracked }
    }

    /// The kings' squares (side that moved first) after `m`.
    pub(super) fn after(
        &self,
        g: &Generic,
        pos: &Position,
        after: &Position,
        m: &Move,
    ) -> [Option<Square>; 2] {
        let us = pos.side;
        if !self.tracked {
            return [
                g.king_square(after, us),
                g.king_square(after, us.opponent()),
            ];
        }
        let [ours, theirs] = self.squares;
        let moved = if m.kind == MoveKind::Drop {
            // Placement: the king itself may be dropped.
            m.piece.map(|p| p.kind) == g.spec.king_kind()
        } else {
            ours == Some(m.from)
        };
        [
            if moved { Some(m.to) } else { ours },
            if theirs == Some(m.to) {
                g.king_square(after, us.opponent())
            } else {
                theirs
            },
        ]
    }
}
