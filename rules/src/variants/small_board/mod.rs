//! A bitboard engine for chess-like variants on boards of at most 8x8
//! (FIDE chess, Leap Chess on 44 and 64 squares): the same rules as
//! [`ChessLike`](super::chesslike::ChessLike)'s square-by-square generator,
//! computed on 64-bit square sets, with perft counting the last ply
//! without playing it.
//!
//! Bit `file + 8 * rank` stands for a square whatever the board's width;
//! squares off a narrower board, and its holes, are never set.

mod board;
mod movegen;
mod tables;

pub(crate) use tables::{Rules, Tables};

use crate::moves::{Move, MoveKind, NO_SQUARE};
use crate::piece::{Color, Piece};
use crate::position::Position;
use board::{Board, Flag, Mv};
use tables::to_square;

type Bitboard = u64;

/// Kinds a variant may have for these tables.
const MAX_KINDS: usize = 8;
/// No square (an empty square's kind, no en passant square).
const NONE: u8 = 64;

#[inline]
fn bit(s: usize) -> Bitboard {
    1 << s
}

impl Tables {
    fn board(&self, pos: &Position) -> Option<Board> {
        if pos.holes() != &self.holes {
            return None;
        }
        Board::new(self, pos)
    }

    /// The legal moves of `pos`, as `ChessLike::legal_moves` lists them;
    /// `None` if the position has what the tables do not model.
    pub(crate) fn legal_moves(&self, pos: &Position) -> Option<Vec<Move>> {
        self.each_legal(pos, |_, _| ())
            .map(|moves| moves.into_iter().map(|(m, ())| m).collect())
    }

    /// Each legal move of `pos` in generation order, with what `f` makes of
    /// it from the board it is played on; `None` as for `legal_moves`.
    fn each_legal<T>(&self, pos: &Position, f: impl Fn(&Board, Mv) -> T) -> Option<Vec<(Move, T)>> {
        let b = self.board(pos)?;
        let mut list = Vec::with_capacity(64);
        b.legal_moves(self, &mut list);
        let us = if b.side == 0 {
            Color::White
        } else {
            Color::Black
        };
        Some(
            list.iter()
                .map(|&m| (self.to_move(m, us), f(&b, m)))
                .collect(),
        )
    }

    /// The legal moves of `pos` as [`Tables::legal_moves`] lists them,
    /// each with SAN's check mark after it (`+`, `#` or nothing); `None`
    /// as for `legal_moves`. Each move is played on the bitboards, not on
    /// a [`Position`]: marking a page's whole legal-move list was most of
    /// writing it.
    pub(crate) fn check_marks(&self, pos: &Position) -> Option<Vec<(Move, &'static str)>> {
        self.each_legal(pos, |b, m| {
            let next = b.play(self, m);
            let checked = next.attacked(self, next.king_square(self, next.side), b.side);
            crate::notation::check_mark(checked, || next.count(self) > 0)
        })
    }

    /// Leaf nodes `depth` plies below `pos`; `None` as for `legal_moves`.
    pub(crate) fn perft(&self, pos: &Position, depth: u32) -> Option<u64> {
        let b = self.board(pos)?;
        if depth == 0 {
            return Some(1);
        }
        let mut lists = vec![Vec::with_capacity(64); depth as usize];
        Some(b.perft(self, depth, &mut lists))
    }

    fn to_move(&self, m: Mv, us: Color) -> Move {
        let (from, to) = (to_square(m.from), to_square(m.to));
        match m.flag {
            Flag::Normal | Flag::Double => Move::normal(from, to),
            Flag::Promotion => Move::promotion(from, to, Piece::new(m.extra, us)),
            Flag::EnPassant => Move::normal(from, to)
                .with_kind(MoveKind::EnPassant)
                .with_extra(to_square(m.extra), NO_SQUARE),
            Flag::Castle => {
                let r = &self.castles[m.extra as usize];
                let mut mv = Move::normal(from, to)
                    .with_kind(MoveKind::Castle)
                    .with_extra(to_square(r.partner_from), to_square(r.partner_to));
                mv.tag = m.extra;
                mv
            }
        }
    }
}
