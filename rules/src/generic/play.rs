//! Making a move: pieces, hands, castling rights, en passant and counters.

use super::movegen::CASTLE_BITS;
use super::Generic;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind};
use crate::piece::{Color, Piece};
use crate::position::Position;

impl Generic {
    fn capture_to_hand(&self, pos: &mut Position, captured: Piece, by: Color) {
        if !self.spec.captures_to_hand {
            return;
        }
        // A promoted piece goes back to hand as what it was promoted from.
        let kind = match (
            Self::unpromoted(captured),
            captured.promoted,
            self.spec.pawn_kind(),
        ) {
            (Some(k), _, _) => k,
            (None, true, Some(p)) if !self.spec.drop_loop => p,
            _ => captured.kind,
        };
        pos.add_to_hand(by, kind);
    }

    /// Castling rights a move from `from` to `to` by `mover` ends: the
    /// king's when it moves, a rook's when it leaves or is taken.
    fn clear_rights(&self, pos: &mut Position, mover: Piece, from: Square, to: Square) {
        let s = &self.spec;
        if Some(mover.kind) == s.castling_king && mover.color != Color::Neutral {
            let c = mover.color.index();
            pos.castling &= !(CASTLE_BITS[c][0] | CASTLE_BITS[c][1]);
        }
        for color in [Color::White, Color::Black] {
            let rank = if color == Color::White {
                s.castling_rank
            } else {
                s.height - 1 - s.castling_rank
            };
            for (side, &bit) in CASTLE_BITS[color.index()].iter().enumerate() {
                let rook = Square::new(self.castling_rook_file(pos, color, side), rank);
                if from == rook || to == rook {
                    pos.castling &= !bit;
                }
            }
        }
    }

    /// Atomic's explosion at `at`: the capturer there and every piece but
    /// pawns on the squares around, save the blast-immune kinds; a
    /// blasted king or rook takes its castling rights with it.
    fn blast(&self, p: &mut Position, at: Square) {
        let s = &self.spec;
        for dy in -1..=1 {
            for dx in -1..=1 {
                let Some(sq) = p.step(at, dx, dy) else {
                    continue;
                };
                let Some(piece) = p.get(sq) else { continue };
                let kind = piece.kind;
                if (sq != at && s.pieces[kind as usize].pawn) || s.blast_immune.contains(&kind) {
                    continue;
                }
                p.take(sq);
                self.clear_rights(p, piece, sq, sq);
            }
        }
    }

    pub(super) fn apply(&self, pos: &Position, m: &Move) -> Position {
        let mut p = pos.clone();
        let us = pos.side;
        let mut reset = false;
        let mut captured = false;
        p.ep = None;
        match m.kind {
            MoveKind::Drop => {
                let piece = m.piece.expect("a drop names its piece");
                p.remove_from_hand(us, Self::hand_kind(piece));
                p.set(m.to, Some(piece));
                self.dropped_castling(&mut p, piece, m.to);
                // Fairy-Stockfish counts every drop as irreversible.
                reset = true;
            }
            MoveKind::Castle => {
                let king = p.take(m.from);
                let rook = p.take(m.extra[0]);
                p.set(m.to, king);
                p.set(m.extra[1], rook);
            }
            _ => {
                let mover = p.take(m.from).expect("a move starts on a piece");
                if m.kind == MoveKind::EnPassant {
                    if let Some(v) = p.take(m.extra[0]) {
                        self.capture_to_hand(&mut p, v, us);
                        captured = true;
                    }
                    reset = true;
                }
                if let Some(v) = p.take(m.to) {
                    self.capture_to_hand(&mut p, v, us);
                    reset = true;
                    captured = true;
                }
                let pawn = self.spec.pieces[mover.kind as usize].pawn;
                // A shogi promotion is irreversible unless pieces demote.
                let promotes = m.tag == super::shogi::PIECE_PROMOTION && !self.spec.shogi.demotion;
                reset |= pawn || promotes;
                let placed = match m.piece {
                    Some(promo) if m.tag != 0 => promo,
                    Some(promo) => Piece {
                        // Loop chess keeps no mark: a promoted piece goes
                        // to hand as itself.
                        promoted: self.spec.captures_to_hand && !self.spec.drop_loop,
                        ..promo
                    },
                    None => mover,
                };
                p.set(m.to, Some(placed));
                if pawn && (m.to.rank() as i8 - m.from.rank() as i8).abs() == 2 {
                    let mid = Square::new(m.from.file(), (m.from.rank() + m.to.rank()) / 2);
                    if self.spec.en_passant_region[us.opponent().index()].contains(mid) {
                        p.ep = Some(mid);
                    }
                }
            }
        }
        if let Some(mover) = pos.get(m.from).filter(|_| m.kind != MoveKind::Drop) {
            self.clear_rights(&mut p, mover, m.from, m.to);
        }
        if captured && self.spec.blast_on_capture {
            self.blast(&mut p, m.to);
        }
        p.halfmove = if reset {
            0
        } else {
            p.halfmove.saturating_add(1)
        };
        if us == Color::Black {
            p.fullmove = p.fullmove.saturating_add(1);
        }
        p.side = us.opponent();
        // (Check counting ends the game at the check itself.)
        if self.spec.shogi.pawn_drop_mate_illegal && !self.spec.check_counting {
            // Remembered for `outcome`: a mate by a dropped shogi pawn
            // loses for the side that dropped it.
            p.counters[1] = u8::from(
                m.kind == MoveKind::Drop
                    && m.piece
                        .is_some_and(|q| self.spec.pieces[q.kind as usize].name == "shogiPawn"),
            );
        }
        if self.spec.check_counting && self.in_check_of(&p, p.side) {
            let left = &mut p.counters[us.index()];
            *left = left.saturating_sub(1);
        }
        self.update_counting(pos, m, &mut p);
        p.passes = if Self::is_pass(m) {
            pos.passes.saturating_add(1)
        } else {
            0
        };
        p.bikjang_before = self.bikjang(pos);
        self.update_shak(pos, &mut p);
        p
    }
}
