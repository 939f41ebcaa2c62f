//! Legal moves and drops, generated without copy-make (nothing can be
//! blocked or pinned), and playing them: the hot path of perft, kept together.

use super::{Leaperhouse, CAMP_START, DROPPABLE, FAR_RANK, GUARD, KING, PAWN, SIZE};
use crate::geometry::Square;
use crate::moves::{Move, MoveKind, NO_SQUARE};
use crate::piece::{Color, Kind, Piece};
use crate::position::{hand_key, piece_key, Position};

/// Where [`Leaperhouse::generate`] puts the moves it finds.
pub(crate) trait MoveSink {
    fn push(&mut self, m: Move);
    /// A drop of `piece` on each of `squares`.
    fn drops(&mut self, piece: Piece, squares: &[Square]);
}

impl MoveSink for Vec<Move> {
    fn push(&mut self, m: Move) {
        Vec::push(self, m);
    }
    fn drops(&mut self, piece: Piece, squares: &[Square]) {
        self.extend(squares.iter().map(|&to| Move::drop(piece, to)));
    }
}

/// Counts moves without making them (perft's last ply).
pub(super) struct Count(pub(super) u64);

impl MoveSink for Count {
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
    fn drops(&mut self, _: Piece, squares: &[Square]) {
        self.0 += squares.len() as u64;
    }
}

impl Leaperhouse {
    /// Whether a piece of `by` stands within `reach + 1` of `king` along both
    /// axes: if none does, nothing of `by` attacks the King or a square it
    /// could step to, and the attack tests can be skipped.
    fn near_king(&self, pos: &Position, king: Square, by: Color) -> bool {
        let d = self.reach as i16 + 1;
        let (f, r) = (king.file() as i16, king.rank() as i16);
        for rank in (r - d).max(0)..=(r + d).min(SIZE as i16 - 1) {
            for file in (f - d).max(0)..=(f + d).min(SIZE as i16 - 1) {
                if matches!(pos.get(Square::new(file as u8, rank as u8)), Some(p) if p.color == by)
                {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `sq` lies in the camp `color` promotes in.
    fn in_camp(pos: &Position, sq: Square, color: Color) -> bool {
        pos.relative_rank(sq, color) >= CAMP_START
    }

    /// The side that just moved has its King on its far rank: it has won
    /// by campmate and the side to move has no moves (Fairy-Stockfish's
    /// flag rule, which only looks at the side that just moved).
    pub(super) fn campmate_reached(pos: &Position) -> bool {
        let mover = pos.side.opponent();
        matches!(pos.royal[mover.index()], Some(k) if pos.relative_rank(k, mover) == FAR_RANK)
    }

    pub(super) fn attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        self.pieces.attacked(pos, sq, by)
    }

    /// Up to two pieces checking the side to move's King, and how many there are.
    pub(super) fn checkers(&self, pos: &Position) -> ([Square; 2], usize) {
        let mut found = [NO_SQUARE; 2];
        let mut n = 0;
        if let Some(king) = pos.royal[pos.side.index()] {
            self.pieces
                .attackers_of(pos, king, pos.side.opponent(), |s| {
                    if n < 2 {
                        found[n] = s;
                    }
                    n += 1;
                    // Keep scanning: every attacker is wanted.
                    false
                });
        }
        (found, n)
    }

    /// Files (bit per file) holding an unpromoted Pawn of `color`.
    pub(super) fn pawn_files(pos: &Position, color: Color) -> u16 {
        pos.pieces()
            .filter(|(_, p)| p.color == color && p.kind == PAWN)
            .fold(0, |acc, (s, _)| acc | 1 << s.file())
    }

    /// Whether `color` may drop a piece of `kind` on the empty square `to`
    /// by the drop restrictions (Pawns: not on the last rank, not on a
    /// file with an own unpromoted Pawn). Check is handled by the caller.
    fn drop_allowed(pos: &Position, kind: Kind, to: Square, color: Color, pawn_files: u16) -> bool {
        kind != PAWN
            || (pos.relative_rank(to, color) != FAR_RANK && pawn_files >> to.file() & 1 == 0)
    }

    /// All legal moves (repetition aside), given to `out`.
    pub(crate) fn generate(&self, pos: &Position, out: &mut impl MoveSink) {
        if Self::campmate_reached(pos) {
            return;
        }
        let us = pos.side;
        let them = us.opponent();
        let Some(king) = pos.royal[us.index()] else {
            return;
        };
        let threatened = self.near_king(pos, king, them);
        let (checkers, n_checks) = if threatened {
            self.checkers(pos)
        } else {
            ([NO_SQUARE; 2], 0)
        };

        // King: any target not attacked. Nothing can be blocked or
        // unblocked by the King leaving its square, so the board as it is
        // answers the question.
        self.pieces
            .targets(pos, king, Piece::new(KING, us), |to, _| {
                if !threatened || !self.attacked(pos, to, them) {
                    out.push(Move::normal(king, to));
                }
            });
        if n_checks >= 2 {
            return;
        }
        // In check by one piece: only capturing it helps (no blocking a leaper).
        let must_take = (n_checks == 1).then_some(checkers[0]);
        for (from, piece) in pos.pieces() {
            if piece.color != us || piece.kind == KING {
                continue;
            }
            self.pieces.targets(pos, from, piece, |to, _| {
                if must_take.is_some_and(|t| t != to) {
                    return;
                }
                if piece.kind == PAWN && Self::in_camp(pos, to, us) {
                    out.push(Move::promotion(from, to, Piece::promoted(GUARD, us)));
                } else {
                    out.push(Move::normal(from, to));
                }
            });
        }
        if n_checks > 0 || pos.hand_is_empty(us) {
            return;
        }
        let pawn_files = Self::pawn_files(pos, us);
        let mut empty = [NO_SQUARE; (SIZE * SIZE) as usize];
        let mut n_empty = 0;
        for s in pos.squares().filter(|&s| pos.get(s).is_none()) {
            empty[n_empty] = s;
            n_empty += 1;
        }
        let empty = &empty[..n_empty];
        for kind in DROPPABLE {
            if pos.hand(us, kind) == 0 {
                continue;
            }
            if kind == PAWN {
                for &to in empty {
                    if Self::drop_allowed(pos, kind, to, us, pawn_files) {
                        out.push(Move::drop(Piece::new(kind, us), to));
                    }
                }
            } else {
                out.drops(Piece::new(kind, us), empty);
            }
        }
    }

    pub(super) fn do_play(&self, pos: &Position, m: &Move) -> Position {
        let mut next = pos.clone();
        let us = pos.side;
        let mut capture = false;
        if m.kind == MoveKind::Drop {
            let p = m.piece.expect("a drop names its piece");
            next.remove_from_hand(us, p.kind);
            next.set(m.to, Some(p));
        } else {
            let moving = next.take(m.from).expect("a piece on the origin");
            if let Some(victim) = next.get(m.to) {
                capture = true;
                // Captured pieces change sides unpromoted: a Guard is a Pawn again.
                let kind = if victim.kind == GUARD {
                    PAWN
                } else {
                    victim.kind
                };
                next.add_to_hand(us, kind);
            }
            next.set(m.to, Some(m.piece.unwrap_or(moving)));
            if moving.kind == KING {
                next.royal[us.index()] = Some(m.to);
            }
        }
        // As Fairy-Stockfish counts: plies since the last capture, drop or
        // promotion (a shogi pawn's plain move does not reset the counter).
        next.halfmove = if capture || m.kind == MoveKind::Drop || m.piece.is_some() {
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

    /// The hash of the position `do_play` makes, from `key`, the hash of
    /// `pos`, and what the move changes (the pieces on its two squares, one
    /// count in hand, the side to move): the repetition rule asks it of
    /// every legal move, and playing each was most of a move's cost.
    pub(super) fn key_after(&self, pos: &Position, key: u64, m: &Move) -> u64 {
        let us = pos.side;
        let c = us.index();
        let hand = |kind: Kind, n: u8| hand_key(c, usize::from(kind), n);
        let mut h = key ^ (us as u64) ^ (us.opponent() as u64);
        if m.kind == MoveKind::Drop {
            let p = m.piece.expect("a drop names its piece");
            let n = pos.hand(us, p.kind);
            h ^= hand(p.kind, n) ^ hand(p.kind, n.saturating_sub(1));
            return h ^ piece_key(m.to, p);
        }
        let moving = pos.get(m.from).expect("a piece on the origin");
        h ^= piece_key(m.from, moving);
        if let Some(victim) = pos.get(m.to) {
            h ^= piece_key(m.to, victim);
            let kind = if victim.kind == GUARD {
                PAWN
            } else {
                victim.kind
            };
            let n = pos.hand(us, kind);
            h ^= hand(kind, n) ^ hand(kind, n.saturating_add(1));
        }
        h ^ piece_key(m.to, m.piece.unwrap_or(moving))
    }

    pub(super) fn in_check_now(&self, pos: &Position) -> bool {
        match pos.royal[pos.side.index()] {
            Some(k) => self.attacked(pos, k, pos.side.opponent()),
            None => false,
        }
    }
}
