//! Leap Chess moves: compulsory captures, capture chains (multi), playing a
//! move, en passant.

use super::*;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind, Path, NO_SQUARE};
use crate::piece::{Color, Piece};
use crate::position::Position;

impl LeapChess {
    pub(super) fn legal(&self, pos: &Position) -> Vec<Move> {
        if self.multi {
            self.multi_legal(pos)
        } else {
            self.base.legal_moves(pos)
        }
    }

    /// Legal moves with capture chains: every capture is followed to the
    /// end of each of its chains, and a chain is legal when its final
    /// position leaves the mover's King safe.
    pub(super) fn multi_legal(&self, pos: &Position) -> Vec<Move> {
        let b = &self.base;
        if b.bare(pos, Color::White) || b.bare(pos, Color::Black) {
            return Vec::new();
        }
        let mut pseudo = Vec::with_capacity(64);
        b.pseudo_moves(pos, &mut pseudo);
        let mut captures = Vec::new();
        let mut quiet = Vec::new();
        for m in pseudo {
            if b.is_capture(pos, &m) {
                self.extend_capture(pos, m, &mut captures);
            } else {
                quiet.push(m);
            }
        }
        let us = pos.side;
        captures.retain(|m| {
            let next = self.play_move(pos, m);
            let king = next.royal[us.index()].expect("one King per side");
            !b.attacked(&next, king, us.opponent())
        });
        if b.compulsory_capture && !captures.is_empty() {
            return captures;
        }
        quiet.retain(|m| b.keeps_king_safe(pos, m));
        captures.extend(quiet);
        captures
    }

    /// Every chain a first capture starts (the capture alone when the piece
    /// has no further capture, or when it is a promotion).
    pub(super) fn extend_capture(&self, pos: &Position, first: Move, out: &mut Vec<Move>) {
        if first.piece.is_some() {
            // A Pawn that captured onto the last rank promotes; its turn ends.
            out.push(first);
            return;
        }
        let Some(piece) = pos.get(first.from) else {
            return;
        };
        let mut board = pos.clone();
        apply_leg(&mut board, first.from, first.to);
        self.continue_chain(&board, piece, &first, Path::default(), first.to, out);
    }

    /// The piece now on `at` has landed there by capturing; `path` holds the
    /// earlier landing squares. Continue with each capture it has, or end.
    pub(super) fn continue_chain(
        &self,
        board: &Position,
        piece: Piece,
        first: &Move,
        path: Path,
        at: Square,
        out: &mut Vec<Move>,
    ) {
        let mut legs: Vec<Square> = Vec::new();
        self.base.pieces.targets(board, at, piece, |to, capture| {
            // The King is never taken: a chain that reaches it ends in check.
            if capture && board.get(to).is_some_and(|p| p.kind != KING) {
                legs.push(to);
            }
        });
        if piece.kind == PAWN {
            if let Some(ep) = board.ep {
                let victim = Square::new(ep.file(), at.rank());
                let takes = board.get(ep).is_none()
                    && board.get(victim) == Some(Piece::new(PAWN, piece.color.opponent()))
                    && [-1, 1]
                        .iter()
                        .any(|&dx| board.step(at, dx, piece.color.forward()) == Some(ep));
                if takes {
                    legs.push(ep);
                }
            }
        }
        if legs.is_empty() {
            out.push(if path.is_empty() {
                *first
            } else {
                chain_move(first.from, path, at, None)
            });
            return;
        }
        let last = self.base.geometry.height - 1;
        for to in legs {
            let mut path = path;
            if !path.push(at) {
                // Unreachable: a side has at most 15 capturable pieces
                // (checked when the position is read).
                continue;
            }
            let mut next = board.clone();
            apply_leg(&mut next, at, to);
            if piece.kind == PAWN && board.relative_rank(to, piece.color) == last {
                for &k in &self.base.promotions {
                    out.push(chain_move(
                        first.from,
                        path,
                        to,
                        Some(Piece::new(k, piece.color)),
                    ));
                }
            } else {
                self.continue_chain(&next, piece, first, path, to, out);
            }
        }
    }

    pub(super) fn play_move(&self, pos: &Position, m: &Move) -> Position {
        if m.kind == MoveKind::Chain {
            self.play_chain(pos, m)
        } else {
            self.base.play(pos, m)
        }
    }

    pub(super) fn play_chain(&self, pos: &Position, m: &Move) -> Position {
        let us = pos.side;
        let mut next = pos.clone();
        let moving = pos.get(m.from);
        let mut at = m.from;
        for sq in m.path.iter().chain(std::iter::once(m.to)) {
            apply_leg(&mut next, at, sq);
            at = sq;
        }
        if let Some(p) = m.piece {
            next.set(m.to, Some(p));
        }
        if moving.is_some_and(|p| p.kind == KING) {
            next.royal[us.index()] = Some(m.to);
        }
        next.ep = None;
        for rule in &self.base.castlings {
            let touched = |s: Square| s == m.from || s == m.to || m.path.iter().any(|p| p == s);
            if touched(rule.king_from) || touched(rule.partner_from) {
                next.castling &= !rule.bit;
            }
        }
        next.halfmove = 0;
        if us == Color::Black {
            next.fullmove = pos.fullmove.saturating_add(1);
        }
        next.side = us.opponent();
        next
    }

    pub(super) fn is_capture(&self, pos: &Position, m: &Move) -> bool {
        m.kind == MoveKind::Chain || self.base.is_capture(pos, m)
    }

    /// Whether a move takes en passant (as a single capture or within a chain).
    pub(super) fn uses_en_passant(&self, pos: &Position, m: &Move) -> bool {
        match m.kind {
            MoveKind::EnPassant => true,
            MoveKind::Chain => match pos.ep {
                Some(ep) => {
                    pos.get(m.from).is_some_and(|p| p.kind == PAWN)
                        && (m.to == ep || m.path.iter().any(|s| s == ep))
                }
                None => false,
            },
            _ => false,
        }
    }

    pub(super) fn en_passant_possible(&self, pos: &Position) -> bool {
        pos.ep.is_some() && self.legal(pos).iter().any(|m| self.uses_en_passant(pos, m))
    }
}

/// Move the piece on `from` to `to`, capturing what stands there; a Pawn
/// moving diagonally to an empty square takes en passant the Pawn beside it.
pub(super) fn apply_leg(board: &mut Position, from: Square, to: Square) {
    let Some(piece) = board.take(from) else {
        return;
    };
    if piece.kind == PAWN && board.get(to).is_none() && from.file() != to.file() {
        board.set(Square::new(to.file(), from.rank()), None);
    }
    board.set(to, Some(piece));
}

pub(super) fn chain_move(from: Square, path: Path, to: Square, promotion: Option<Piece>) -> Move {
    Move {
        kind: MoveKind::Chain,
        from,
        to,
        piece: promotion,
        extra: [NO_SQUARE; 2],
        tag: 0,
        path,
    }
}
