//! Legal moves: the pseudo-legal moves that keep the King safe, then the
//! bare-king and compulsory-capture rules; the bitboard engine answers
//! instead where it models the variant and the position.

use super::ChessLike;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind};
use crate::piece::Color;
use crate::position::Position;
use crate::variants::small_board::{Rules, Tables};

impl ChessLike {
    pub(crate) fn attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        self.pieces.attacked(pos, sq, by)
    }

    pub(crate) fn in_check(&self, pos: &Position) -> bool {
        match pos.royal[pos.side.index()] {
            Some(k) => self.attacked(pos, k, pos.side.opponent()),
            None => false,
        }
    }

    /// Whether `color` has nothing left but its King.
    pub(crate) fn bare(&self, pos: &Position, color: Color) -> bool {
        pos.pieces()
            .all(|(_, p)| p.color != color || p.kind == self.king)
    }

    /// Whether a pseudo-legal move keeps the mover's King safe.
    pub(crate) fn keeps_king_safe(&self, pos: &Position, m: &Move) -> bool {
        if m.kind == MoveKind::Castle {
            let rule = &self.castlings[m.tag as usize];
            if rule
                .safe
                .iter()
                .any(|&s| self.attacked(pos, s, pos.side.opponent()))
            {
                return false;
            }
        }
        let next = self.play(pos, m);
        let king = next.royal[pos.side.index()].expect("one King per side");
        !self.attacked(&next, king, pos.side.opponent())
    }

    /// Legal moves before the compulsory-capture filter.
    fn safe_moves(&self, pos: &Position) -> Vec<Move> {
        let mut pseudo = Vec::with_capacity(64);
        self.pseudo_moves(pos, &mut pseudo);
        let us = pos.side;
        let them = us.opponent();
        let king = pos.royal[us.index()].expect("one King per side");
        let checked = self.attacked(pos, king, them);
        pseudo.retain(|m| {
            // Most moves cannot expose the King: only test the risky ones.
            let risky = checked
                || m.from == king
                || m.kind != MoveKind::Normal
                || self.pieces.may_uncover(them, king, m.from);
            !risky || self.keeps_king_safe(pos, m)
        });
        pseudo
    }

    pub(super) fn tables(&self) -> Option<&Tables> {
        self.small_board
            .get_or_init(|| {
                Tables::new(&Rules {
                    geometry: &self.geometry,
                    pieces: &self.pieces,
                    pawn: self.pawn,
                    king: self.king,
                    promotions: &self.promotions,
                    double_step_rank: self.double_step_rank,
                    compulsory_capture: self.compulsory_capture,
                    bare_king_loses: self.bare_king_loses,
                    castlings: &self.castlings,
                })
            })
            .as_ref()
    }

    pub(crate) fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        match self.tables().and_then(|t| t.legal_moves(pos)) {
            Some(moves) => moves,
            None => self.legal_moves_square_by_square(pos),
        }
    }

    /// The legal moves found square by square from the piece table: for
    /// what the bitboard engine does not model (boards over 8x8, pieces
    /// beyond its tables, holes a FEN adds).
    pub(crate) fn legal_moves_square_by_square(&self, pos: &Position) -> Vec<Move> {
        if self.bare_king_loses && (self.bare(pos, Color::White) || self.bare(pos, Color::Black)) {
            return Vec::new();
        }
        let mut moves = self.safe_moves(pos);
        if self.compulsory_capture && moves.iter().any(|m| self.is_capture(pos, m)) {
            moves.retain(|m| self.is_capture(pos, m));
        }
        moves
    }

    /// Leaf nodes `depth` plies below `pos` by the bitboard engine, if it
    /// models the variant and the position.
    pub(crate) fn fast_perft(&self, pos: &Position, depth: u32) -> Option<u64> {
        self.tables().and_then(|t| t.perft(pos, depth))
    }
}
