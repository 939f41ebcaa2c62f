//! Move generation by the rules of movement (pawns' double steps, en
//! passant, promotion, castling), check aside, and playing a move.

use super::ChessLike;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind, NO_SQUARE};
use crate::piece::{Color, Piece};
use crate::position::Position;

impl ChessLike {
    /// Moves by the rules of movement, ignoring check.
    pub(crate) fn pseudo_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        let us = pos.side;
        let last = self.geometry.height - 1;
        for (from, piece) in pos.pieces() {
            if piece.color != us {
                continue;
            }
            if piece.kind == self.pawn {
                self.pieces.targets(pos, from, piece, |to, _| {
                    if pos.relative_rank(to, us) == last {
                        for &k in &self.promotions {
                            out.push(Move::promotion(from, to, Piece::new(k, us)));
                        }
                    } else {
                        out.push(Move::normal(from, to));
                    }
                });
                if Some(pos.relative_rank(from, us)) == self.double_step_rank {
                    if let (Some(a), Some(b)) = (
                        pos.step(from, 0, us.forward()),
                        pos.step(from, 0, 2 * us.forward()),
                    ) {
                        if pos.get(a).is_none() && pos.get(b).is_none() {
                            out.push(Move::normal(from, b));
                        }
                    }
                }
                if let Some(ep) = pos.ep {
                    for dx in [-1, 1] {
                        if pos.step(from, dx, us.forward()) == Some(ep) {
                            let victim = Square::new(ep.file(), from.rank());
                            out.push(
                                Move::normal(from, ep)
                                    .with_kind(MoveKind::EnPassant)
                                    .with_extra(victim, NO_SQUARE),
                            );
                        }
                    }
                }
            } else {
                self.pieces
                    .targets(pos, from, piece, |to, _| out.push(Move::normal(from, to)));
            }
        }
        for (i, rule) in self.castlings.iter().enumerate() {
            if rule.color != us || pos.castling & rule.bit == 0 {
                continue;
            }
            // A hole (a custom FEN's `*`) holds no piece but is no square
            // to pass or land on.
            let clear = rule.empty.iter().all(|&s| {
                (pos.get(s).is_none() && !pos.is_hole(s))
                    || s == rule.king_from
                    || s == rule.partner_from
            });
            if clear {
                let mut m = Move::normal(rule.king_from, rule.king_to)
                    .with_kind(MoveKind::Castle)
                    .with_extra(rule.partner_from, rule.partner_to);
                m.tag = i as u8;
                out.push(m);
            }
        }
    }

    pub(crate) fn is_capture(&self, pos: &Position, m: &Move) -> bool {
        match m.kind {
            MoveKind::EnPassant => true,
            MoveKind::Castle => false,
            _ => pos.get(m.to).is_some(),
        }
    }

    pub(crate) fn play(&self, pos: &Position, m: &Move) -> Position {
        let mut next = pos.clone();
        let us = pos.side;
        let moving = next.take(m.from).expect("a piece on the origin");
        let mut reset = moving.kind == self.pawn;
        match m.kind {
            MoveKind::Castle => {
                let partner = next.take(m.extra[0]).expect("castling partner");
                next.set(m.to, Some(moving));
                next.set(m.extra[1], Some(partner));
            }
            MoveKind::EnPassant => {
                next.set(m.extra[0], None);
                next.set(m.to, Some(moving));
                reset = true;
            }
            _ => {
                if next.get(m.to).is_some() {
                    reset = true;
                }
                next.set(m.to, Some(m.piece.unwrap_or(moving)));
            }
        }
        if moving.kind == self.king {
            next.royal[us.index()] = Some(m.to);
        }
        next.ep = None;
        if moving.kind == self.pawn
            && m.kind == MoveKind::Normal
            && (m.to.rank() as i8 - m.from.rank() as i8).abs() == 2
        {
            next.ep = Some(Square::new(
                m.from.file(),
                (m.from.rank() + m.to.rank()) / 2,
            ));
        }
        if next.castling != 0 {
            for rule in &self.castlings {
                let touched = [m.from, m.to, m.extra[0]];
                if touched.contains(&rule.king_from) || touched.contains(&rule.partner_from) {
                    next.castling &= !rule.bit;
                }
            }
        }
        next.halfmove = if reset {
            0
        } else {
            pos.halfmove.saturating_add(1)
        };
        if us == Color::Black {
            next.fullmove = pos.fullmove.saturating_add(1);
        }
        next.side = us.opponent();
        next
    }
}
