//! The position as bitboards, read from a [`Position`], and playing a move
//! on a copy of it.

use super::tables::{to_index, Tables};
use super::{bit, Bitboard, MAX_KINDS, NONE};
use crate::position::Position;

/// What a move does beyond going from `from` to `to`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Flag {
    Normal,
    /// A pawn's double step: it leaves an en passant square.
    Double,
    /// `extra` is the kind promoted to.
    Promotion,
    /// `extra` is the square of the pawn taken.
    EnPassant,
    /// `extra` is the index of the castling rule.
    Castle,
}

#[derive(Copy, Clone, Debug)]
pub(super) struct Mv {
    pub from: u8,
    pub to: u8,
    pub flag: Flag,
    pub extra: u8,
}

/// A position of a chess-like variant: only what its legal moves depend
/// on (no counters), small enough to copy for each move played.
#[derive(Copy, Clone)]
pub(super) struct Board {
    pub color: [Bitboard; 2],
    pub kind: [Bitboard; MAX_KINDS],
    /// `kind` of the piece on each square, `NONE` if empty.
    pub on: [u8; 64],
    pub side: usize,
    pub castling: u8,
    /// En passant square, `NONE` if none.
    pub ep: u8,
}

impl Board {
    /// The board of `pos` (whose holes are the variant's), or `None` when
    /// it has pieces the tables do not model.
    pub(super) fn new(t: &Tables, pos: &Position) -> Option<Board> {
        let mut b = Board {
            color: [0; 2],
            kind: [0; MAX_KINDS],
            on: [NONE; 64],
            side: pos.side.index(),
            castling: pos.castling,
            ep: pos.ep.map_or(NONE, |s| to_index(s) as u8),
        };
        for (s, p) in pos.pieces() {
            if p.promoted || p.state != 0 || p.color.index() > 1 || p.kind as usize >= t.kinds {
                return None;
            }
            b.put(to_index(s) as u8, p.color.index(), p.kind);
        }
        if b.side > 1 {
            return None;
        }
        Some(b)
    }

    #[inline]
    fn put(&mut self, s: u8, c: usize, k: u8) {
        self.color[c] |= bit(s as usize);
        self.kind[k as usize] |= bit(s as usize);
        self.on[s as usize] = k;
    }

    #[inline]
    fn remove(&mut self, s: u8) {
        let k = self.on[s as usize];
        let b = bit(s as usize);
        self.color[0] &= !b;
        self.color[1] &= !b;
        self.kind[k as usize] &= !b;
        self.on[s as usize] = NONE;
    }

    #[inline]
    pub(super) fn occupied(&self) -> Bitboard {
        self.color[0] | self.color[1]
    }

    #[inline]
    pub(super) fn king_square(&self, t: &Tables, c: usize) -> usize {
        (self.kind[t.king as usize] & self.color[c]).trailing_zeros() as usize
    }

    /// Whether a side has only its King left.
    #[inline]
    pub(super) fn bare(&self, t: &Tables, c: usize) -> bool {
        self.color[c] & !self.kind[t.king as usize] == 0
    }

    /// The board after `m`, as `ChessLike::play` leaves it.
    #[inline]
    pub(super) fn play(&self, t: &Tables, m: Mv) -> Board {
        let mut b = *self;
        let us = self.side;
        let moving = self.on[m.from as usize];
        let mut touched = t.castle_clear[m.from as usize] | t.castle_clear[m.to as usize];
        match m.flag {
            Flag::Castle => {
                let r = &t.castles[m.extra as usize];
                let partner = self.on[r.partner_from as usize];
                b.remove(r.king_from);
                b.remove(r.partner_from);
                b.put(r.king_to, us, moving);
                b.put(r.partner_to, us, partner);
                touched |= t.castle_clear[r.partner_from as usize];
            }
            Flag::EnPassant => {
                b.remove(m.extra);
                b.remove(m.from);
                b.put(m.to, us, moving);
                touched |= t.castle_clear[m.extra as usize];
            }
            _ => {
                if self.on[m.to as usize] != NONE {
                    b.remove(m.to);
                }
                b.remove(m.from);
                let k = if m.flag == Flag::Promotion {
                    m.extra
                } else {
                    moving
                };
                b.put(m.to, us, k);
            }
        }
        b.ep = if m.flag == Flag::Double {
            (m.from + m.to) / 2
        } else {
            NONE
        };
        b.castling &= !touched;
        b.side = us ^ 1;
        b
    }

    /// Whether a piece of side `by` attacks square `s`.
    #[inline]
    pub(super) fn attacked(&self, t: &Tables, s: usize, by: usize) -> bool {
        let theirs = self.color[by];
        for &k in &t.leapers[by] {
            if t.leap_attackers[by * MAX_KINDS + k as usize][s] & theirs & self.kind[k as usize]
                != 0
            {
                return true;
            }
        }
        let occ = self.occupied();
        for a in &t.ride_attacks[by] {
            let ray = t.rays[a.ride.ray][s];
            let blockers = ray & occ;
            if blockers == 0 {
                continue;
            }
            let first = if a.ride.up {
                blockers.trailing_zeros()
            } else {
                63 - blockers.leading_zeros()
            } as usize;
            if theirs & bit(first) != 0 && a.kinds >> self.on[first] & 1 == 1 {
                return true;
            }
        }
        false
    }
}
