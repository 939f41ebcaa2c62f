//! How a chess-like game ends (checkmate, stalemate, bare king, the move
//! count rule, dead positions) and the key repetitions are counted by.

use super::ChessLike;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::variant::{Outcome, Reason};

impl ChessLike {
    pub(crate) fn outcome(&self, pos: &Position, legal: &[Move]) -> Option<Outcome> {
        let us = pos.side;
        if self.bare_king_loses {
            if self.bare(pos, us) {
                return Some(Outcome::win(us.opponent(), Reason::BareKing));
            }
            if self.bare(pos, us.opponent()) {
                return Some(Outcome::win(us, Reason::BareKing));
            }
        }
        if legal.is_empty() {
            return Some(if self.in_check(pos) {
                Outcome::win(us.opponent(), Reason::Checkmate)
            } else if self.stalemate_loses {
                Outcome::win(us.opponent(), Reason::Stalemate)
            } else {
                Outcome::draw(Reason::Stalemate)
            });
        }
        if let Some(limit) = self.move_count_limit {
            if pos.halfmove >= limit {
                return Some(Outcome::draw(Reason::MoveCountRule));
            }
        }
        if self.insufficient_material && self.dead_position(pos) {
            return Some(Outcome::draw(Reason::InsufficientMaterial));
        }
        None
    }

    /// A dead position as Fairy-Stockfish judges chess's (both sides
    /// without mating material) and FIDE 5.2.2 agrees: bare Kings, a lone
    /// Knight or Bishop against a bare King, or any number of Bishops of
    /// either side all on squares of one colour (no capture can then ever
    /// give a piece that could cover the King's escape squares of the other
    /// colour). Minor pieces are identified as the single leaper N and the
    /// colour-bound rider B of FIDE chess.
    fn dead_position(&self, pos: &Position) -> bool {
        let mut others = pos.pieces().filter(|(_, p)| p.kind != self.king);
        let Some((first_square, first)) = others.next() else {
            return true;
        };
        let colour = |s: Square| (s.file() + s.rank()) % 2;
        match self.letter(first.kind) {
            'N' => others.next().is_none(),
            'B' => {
                others.all(|(s, p)| self.letter(p.kind) == 'B' && colour(s) == colour(first_square))
            }
            _ => false,
        }
    }

    /// Key for repetition: en passant counts only when it can be taken.
    pub(crate) fn repetition_key(&self, pos: &Position) -> u64 {
        pos.hash_without_dead_ep(|| {
            self.legal_moves(pos)
                .iter()
                .any(|m| m.kind == MoveKind::EnPassant)
        })
    }
}
