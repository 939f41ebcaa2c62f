//! Xiangqi-style rules on the generic engine, as Fairy-Stockfish plays
//! them: pieces confined to a region (palace, own half), the soldier that
//! steps sideways only across the river, and kings that may not face each
//! other on an open file (the flying general).

use super::Generic;
use crate::geometry::Square;
use crate::piece::{Color, Piece};
use crate::position::Position;

impl Generic {
    /// Whether `p` standing on `from` may move to (or attack, or be
    /// dropped on) `to` as far as its region and the soldier's rule go.
    pub(super) fn may_reach(&self, pos: &Position, from: Square, p: Piece, to: Square) -> bool {
        let x = &self.spec.xiangqi;
        if let Some(Some(region)) = x
            .mobility
            .get(p.kind as usize)
            .and_then(|m| m.get(p.color.index()))
        {
            if !region.contains(to) {
                return false;
            }
        }
        // Fairy-Stockfish judges the soldier by the rank it moves to; a
        // sideways step keeps the rank, so this is the soldier's own.
        !(self.spec.pieces[p.kind as usize].soldier
            && p.color != Color::Neutral
            && pos.relative_rank(to, p.color) < x.soldier_rank
            && to.file() != from.file())
    }

    /// Keeps the targets `p` on `from` may move to.
    pub(super) fn confine(&self, pos: &Position, from: Square, p: Piece, targets: &mut Vec<(Square, bool)>) {
        targets.retain(|&(to, _)| self.may_reach(pos, from, p, to));
    }

    /// Whether the two kings stand on one file with nothing between.
    pub(super) fn generals_face(&self, pos: &Position) -> bool {
        let (Some(a), Some(b)) = (
            self.king_square(pos, Color::White),
            self.king_square(pos, Color::Black),
        ) else {
            return false;
        };
        if a.file() != b.file() {
            return false;
        }
        let (lo, hi) = (a.rank().min(b.rank()), a.rank().max(b.rank()));
        (lo + 1..hi).all(|r| pos.get(Square::new(a.file(), r)).is_none())
    }
}
