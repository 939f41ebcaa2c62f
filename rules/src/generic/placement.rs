//! Placement chess as Fairy-Stockfish plays it: the back rank is dropped
//! from the hand before anything moves (`mustDrop`), so that the bishops
//! can still stand on squares of both colours
//! (`dropOppositeColoredBishop`), and a king dropped on its file with
//! rooks in the corners may castle (`castlingDroppedPiece`).

use super::movegen::CASTLE_BITS;
use super::Generic;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind};
use crate::piece::{Color, Piece};
use crate::position::Position;

/// Fairy-Stockfish's dark squares: a1's colour.
fn dark(sq: Square) -> bool {
    (sq.file() + sq.rank()).is_multiple_of(2)
}

impl Generic {
    fn bishop_kind(&self) -> Option<u8> {
        self.spec
            .pieces
            .iter()
            .position(|p| p.name == "bishop")
            .map(|k| k as u8)
    }

    /// Whether the drop `m` still lets `us`'s bishops stand on squares of
    /// both colours.
    pub(super) fn drop_keeps_bishops_apart(&self, pos: &Position, m: &Move) -> bool {
        if !self.spec.drop_opposite_bishops || m.kind != MoveKind::Drop {
            return true;
        }
        let Some(bishop) = self.bishop_kind() else {
            return true;
        };
        let us = pos.side;
        let ours: Vec<Square> = pos
            .pieces()
            .filter(|(_, p)| p.color == us && p.kind == bishop)
            .map(|(s, _)| s)
            .collect();
        let total = ours.len() + pos.hands[us.index()][bishop as usize] as usize;
        let dropped = m.piece.expect("a drop names its piece");
        if dropped.kind == bishop {
            let same = ours.iter().filter(|s| dark(**s) == dark(m.to)).count();
            return same < total.div_ceil(2);
        }
        let region = &self.spec.drop_region[us.index()];
        let free: Vec<Square> = pos
            .squares()
            .filter(|&s| s != m.to && region.contains(s) && pos.get(s).is_none())
            .collect();
        [true, false].into_iter().all(|colour| {
            ours.iter()
                .chain(free.iter())
                .filter(|s| dark(**s) == colour)
                .count()
                >= total / 2
        })
    }

    /// The castling rights a drop of `piece` on `to` gives.
    pub(super) fn dropped_castling(&self, p: &mut Position, piece: Piece, to: Square) {
        let s = &self.spec;
        if !s.castling_dropped_piece || piece.color == Color::Neutral {
            return;
        }
        let c = piece.color.index();
        let rank = if piece.color == Color::White {
            s.castling_rank
        } else {
            s.height - 1 - s.castling_rank
        };
        if to.rank() != rank {
            return;
        }
        // Fairy-Stockfish's castling king file, e for chess.
        let king_file = s.width / 2;
        let is_rook = |p: &Position, f: u8| {
            p.get(Square::new(f, rank))
                .is_some_and(|q| q.color == piece.color && s.castling_rooks.contains(&q.kind))
        };
        let corners = [(0usize, s.width - 1), (1, 0)];
        if Some(piece.kind) == s.castling_king && to.file() == king_file {
            for (side, f) in corners {
                if is_rook(p, f) {
                    p.castling |= CASTLE_BITS[c][side];
                }
            }
        } else if s.castling_rooks.contains(&piece.kind)
            && p.get(Square::new(king_file, rank))
                == s.castling_king.map(|k| Piece::new(k, piece.color))
        {
            for (side, f) in corners {
                if to.file() == f {
                    p.castling |= CASTLE_BITS[c][side];
                }
            }
        }
    }
}
