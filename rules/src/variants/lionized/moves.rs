//! Lionized Chess move generation, playing a move and the game's end.

use super::lionization::{
    all_squares, attacked, attacked_with, bit, is_regular, lion_turns, lionizers, reach, squares,
    step, Lionized, Occupancy,
};
use super::*;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind, NO_SQUARE};
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::variant::{Outcome, Reason};

impl LionizedChess {
    /// Moves by the rules of movement, ignoring check.
    pub(crate) fn pseudo_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        let us = pos.side;
        let occ = Occupancy::of(pos);
        let lion = Lionized::of(pos, us);
        for from in all_squares() {
            let Some(piece) = pos.get(from) else { continue };
            if piece.color != us {
                continue;
            }
            self.piece_moves(pos, &occ, &lion, from, piece, out);
        }
    }

    /// The pseudo-legal moves of the piece on `from`.
    pub(super) fn piece_moves(
        &self,
        pos: &Position,
        occ: &Occupancy,
        lion: &Lionized,
        from: Square,
        piece: Piece,
        out: &mut Vec<Move>,
    ) {
        let us = piece.color;
        let own = occ.by[us.index()];
        match piece.kind {
            PAWN => self.pawn_moves(pos, from, us, out),
            KING => {
                for (dx, dy) in KING_STEPS {
                    if let Some(t) = step(from, dx, dy) {
                        if own & bit(t) == 0 {
                            out.push(Move::normal(from, t));
                        }
                    }
                }
            }
            LIONIZER => {
                let all = occ.by[0] | occ.by[1];
                for t in squares(!all) {
                    out.push(Move::normal(from, t));
                }
            }
            _ if lion.contains(from) => {
                if lion.len() < 2 {
                    return; // a lone Lionized piece is frozen
                }
                let turns = lion_turns(pos, occ, from, piece, lion.borrowed(piece.kind));
                for t in squares(turns.ends) {
                    out.push(Move::normal(from, t));
                }
                for m in squares(turns.cap_mids) {
                    let i = (m.rank() * 8 + m.file()) as usize;
                    for t in squares(turns.caps[i]) {
                        out.push(
                            Move::normal(from, t)
                                .with_kind(MoveKind::TwoLeg)
                                .with_extra(m, m),
                        );
                    }
                }
            }
            _ => {
                for t in squares(reach(pos, piece.kind, us, from, NO_SQUARE) & !own) {
                    out.push(Move::normal(from, t));
                }
            }
        }
    }

    pub(super) fn pawn_moves(&self, pos: &Position, from: Square, us: Color, out: &mut Vec<Move>) {
        let f = us.forward();
        let last = pos.height - 1;
        let push = |to: Square, out: &mut Vec<Move>| {
            out.push(Move::normal(from, to));
            if pos.relative_rank(to, us) == last {
                for k in REGULARS {
                    if pos.hand(us, k) > 0 {
                        out.push(Move::promotion(from, to, Piece::new(k, us)));
                    }
                }
            }
        };
        if let Some(a) = step(from, 0, f) {
            if pos.get(a).is_none() {
                push(a, out);
                if pos.relative_rank(from, us) == 1 {
                    if let Some(b) = step(a, 0, f) {
                        if pos.get(b).is_none() {
                            out.push(Move::normal(from, b));
                        }
                    }
                }
            }
        }
        for dx in [-1, 1] {
            if let Some(t) = step(from, dx, f) {
                match pos.get(t) {
                    Some(p) if p.color == us.opponent() => push(t, out),
                    None if pos.ep == Some(t) => {
                        let victim = Square::new(t.file(), from.rank());
                        out.push(
                            Move::normal(from, t)
                                .with_kind(MoveKind::EnPassant)
                                .with_extra(victim, NO_SQUARE),
                        );
                    }
                    _ => {}
                }
            }
        }
    }

    /// Whether the mover's King is safe after `m`, tested on `scratch` (a
    /// copy of the position, restored before returning: only the board
    /// matters to attacks). `their_lionizers` are the opponent's Lionizer
    /// squares before the move (a move can only remove one, by capture).
    pub(super) fn keeps_king_safe(
        &self,
        scratch: &mut Position,
        m: &Move,
        their_lionizers: &[Square],
    ) -> bool {
        let us = scratch.side;
        let mid = match m.kind {
            MoveKind::EnPassant | MoveKind::TwoLeg => Some(m.extra[0]),
            _ => None,
        };
        let saved = [
            (m.from, scratch.get(m.from)),
            (m.to, scratch.get(m.to)),
            (mid.unwrap_or(m.from), scratch.get(mid.unwrap_or(m.from))),
        ];
        let moving = scratch.take(m.from).expect("a piece on the origin");
        if let Some(x) = mid {
            scratch.set(x, None);
        }
        scratch.set(m.to, Some(m.piece.unwrap_or(moving)));
        let king = if moving.kind == KING {
            Some(m.to)
        } else {
            scratch.royal[us.index()]
        };
        let safe = king.is_none_or(|k| !attacked_with(scratch, k, us.opponent(), their_lionizers));
        // Every saved value is the square's original content: any order restores.
        for (sq, piece) in saved {
            scratch.set(sq, piece);
        }
        safe
    }

    pub(crate) fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        let mut moves = Vec::with_capacity(96);
        self.pseudo_moves(pos, &mut moves);
        let theirs = lionizers(pos, pos.side.opponent());
        let mut scratch = pos.clone();
        moves.retain(|m| self.keeps_king_safe(&mut scratch, m, &theirs));
        moves
    }

    pub(crate) fn play(&self, pos: &Position, m: &Move) -> Position {
        let mut next = pos.clone();
        let us = pos.side;
        let moving = next.take(m.from).expect("a piece on the origin");
        let mut captured = false;
        let mut capture = |next: &mut Position, sq: Square| {
            if let Some(victim) = next.take(sq) {
                captured = true;
                if is_regular(victim.kind) {
                    next.add_to_hand(victim.color, victim.kind);
                }
            }
        };
        match m.kind {
            MoveKind::EnPassant | MoveKind::TwoLeg => capture(&mut next, m.extra[0]),
            _ => {}
        }
        capture(&mut next, m.to);
        match m.piece {
            Some(swap) => {
                next.remove_from_hand(us, swap.kind);
                next.set(m.to, Some(swap));
            }
            None => next.set(m.to, Some(moving)),
        }
        if moving.kind == KING {
            next.royal[us.index()] = Some(m.to);
        }
        next.ep = None;
        if moving.kind == PAWN && (m.to.rank() as i8 - m.from.rank() as i8).abs() == 2 {
            next.ep = Some(Square::new(
                m.from.file(),
                (m.from.rank() + m.to.rank()) / 2,
            ));
        }
        next.halfmove = if captured {
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

    pub(crate) fn in_check(&self, pos: &Position) -> bool {
        match pos.royal[pos.side.index()] {
            Some(k) => attacked(pos, k, pos.side.opponent()),
            None => false,
        }
    }

    pub(crate) fn outcome(&self, pos: &Position, legal: &[Move]) -> Option<Outcome> {
        let us = pos.side;
        if legal.is_empty() {
            return Some(if self.in_check(pos) {
                Outcome::win(us.opponent(), Reason::Checkmate)
            } else {
                Outcome::draw(Reason::Stalemate)
            });
        }
        if pos.halfmove >= MOVE_COUNT_LIMIT {
            return Some(Outcome::draw(Reason::MoveCountRule));
        }
        None
    }
}
