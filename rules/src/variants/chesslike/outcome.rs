//! How a chess-like game ends (checkmate, stalemate, bare king, the move
//! count rule, dead positions) and the key repetitions are counted by.

use super::ChessLike;
use crate::moves::{Move, MoveKind};
use crate::piece::Piece;
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

    /// K v K, K+B v K, K+N v K (minor pieces identified as the single leaper
    /// N or colour-bound rider B of FIDE chess).
    fn dead_position(&self, pos: &Position) -> bool {
        let others: Vec<Piece> = pos
            .pieces()
            .map(|(_, p)| p)
            .filter(|p| p.kind != self.king)
            .collect();
        match others.as_slice() {
            [] => true,
            [p] => matches!(self.letter(p.kind), 'N' | 'B'),
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
