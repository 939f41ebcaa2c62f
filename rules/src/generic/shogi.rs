//! Shogi-style rules on the generic engine, as Fairy-Stockfish plays them:
//! a piece promotes to another type in the promotion region (and back,
//! in Kyoto shogi), goes to hand unpromoted when captured, may not be
//! dropped or moved where it could never move again, and moves are written
//! in shogi notation (`P-76`, `S*34`, `+B-55`, `N-33+`, `N-33=`).
//!
//! A promoted piece is its promoted type with `promoted` set and
//! `state` = the kind it was promoted from + 1 (Fairy-Stockfish's
//! `unpromoted_piece_on`).

use super::Generic;
use crate::geometry::{Square, SquareSet};
use crate::moves::{Move, MoveKind};
use crate::piece::{Color, Piece};
use crate::position::Position;

/// `Move::tag` of a shogi-style promotion (`+` in UCI).
pub(super) const PIECE_PROMOTION: u8 = 1;
/// `Move::tag` of a demotion (`-` in UCI, Kyoto shogi).
pub(super) const PIECE_DEMOTION: u8 = 2;

impl Generic {
    /// The kind a shogi-promoted piece was promoted from.
    #[inline]
    pub(super) fn unpromoted(p: Piece) -> Option<u8> {
        (p.state > 0).then(|| p.state - 1)
    }

    /// `base` of `color` promoted, if its type promotes.
    pub(super) fn promote(&self, base: u8, color: Color) -> Option<Piece> {
        let k = self
            .spec
            .shogi
            .promoted
            .get(base as usize)
            .copied()
            .flatten()?;
        Some(Piece {
            kind: k,
            color,
            promoted: true,
            state: base + 1,
        })
    }

    /// The kind a piece counts as in hand.
    #[inline]
    pub(super) fn hand_kind(p: Piece) -> u8 {
        Self::unpromoted(p).unwrap_or(p.kind)
    }

    /// Squares from which each kind of each colour has no move on an empty
    /// board (Fairy-Stockfish's `immobilityIllegal` test).
    pub(super) fn immobile_squares(&self) -> Vec<[SquareSet; 2]> {
        let pos = Position::empty(&crate::geometry::Geometry::rect(
            self.spec.width,
            self.spec.height,
        ));
        self.spec
            .pieces
            .iter()
            .map(|ps| {
                let mut sets = [SquareSet::EMPTY; 2];
                for (c, color) in [Color::White, Color::Black].into_iter().enumerate() {
                    for sq in pos.squares() {
                        let moves = if ps.pawn {
                            pos.step(sq, 0, color.forward()).is_some()
                        } else {
                            ps.movement.normal.iter().any(|a| {
                                let (dx, dy) = Self::dir(color, a);
                                a.quiet && pos.step(sq, dx, dy).is_some()
                            })
                        };
                        if !moves {
                            sets[c].insert(sq);
                        }
                    }
                }
                sets
            })
            .collect()
    }

    /// A non-pawn piece's moves to `targets` (square, capture), with the
    /// promotions and demotions it may or must make there
    /// (Fairy-Stockfish's `generate_moves`).
    pub(super) fn push_piece_moves(
        &self,
        from: Square,
        p: Piece,
        targets: &[(Square, bool)],
        out: &mut Vec<Move>,
    ) {
        let sh = &self.spec.shogi;
        let promoted = if p.promoted {
            None
        } else {
            self.promote(p.kind, p.color)
        };
        let demoted = Self::unpromoted(p)
            .filter(|_| sh.demotion)
            .map(|k| Piece::new(k, p.color));
        if promoted.is_none() && demoted.is_none() {
            out.extend(targets.iter().map(|&(to, _)| Move::normal(from, to)));
            return;
        }
        let zone = &self.spec.promotion_region[p.color.index()];
        let from_in = zone.contains(from);
        for &(to, capture) in targets {
            let to_in = zone.contains(to);
            if !sh.mandatory_promotion
                || (!from_in && !to_in)
                || (sh.promotion_on_capture && !capture)
            {
                out.push(Move::normal(from, to));
            }
            if (from_in || to_in) && (!sh.promotion_on_capture || capture) {
                for (piece, tag) in [(promoted, PIECE_PROMOTION), (demoted, PIECE_DEMOTION)] {
                    if let Some(piece) = piece {
                        let mut m = Move::promotion(from, to, piece);
                        m.tag = tag;
                        out.push(m);
                    }
                }
            }
        }
    }

    /// Whether a move or drop puts a piece where it could never move
    /// again, when the variant forbids that.
    pub(super) fn strands(&self, pos: &Position, m: &Move) -> bool {
        if !self.spec.shogi.immobility_illegal {
            return false;
        }
        let piece = match m.kind {
            MoveKind::Drop => m.piece,
            MoveKind::Normal if m.piece.is_none() => pos.get(m.from),
            _ => None,
        };
        piece.is_some_and(|p| self.immobile[p.kind as usize][p.color.index()].contains(m.to))
    }

    /// Whether `color` may drop `kind` on the file of `sq` (nifu).
    pub(super) fn doubled(&self, pos: &Position, color: Color, kind: u8, sq: Square) -> bool {
        let sh = &self.spec.shogi;
        if sh.drop_no_doubled != Some(kind) {
            return false;
        }
        let n = (0..self.spec.height)
            .filter(|&r| pos.get(Square::new(sq.file(), r)) == Some(Piece::new(kind, color)))
            .count();
        n >= sh.drop_no_doubled_count as usize
    }

    fn shogi_square(&self, sq: Square) -> String {
        format!(
            "{}{}",
            self.spec.width - sq.file(),
            self.spec.height - sq.rank()
        )
    }

    fn upper_letter(&self, kind: u8) -> char {
        self.spec.pieces[kind as usize].letter.to_ascii_uppercase()
    }

    /// A move in shogi notation (Hodges, numbers), as `pyffish.get_san`
    /// writes it for the shogi family: no check marks.
    pub(super) fn shogi_san(&self, pos: &Position, legal: &[Move], m: &Move) -> String {
        let mut san = String::new();
        if m.kind == MoveKind::Drop {
            let p = m.piece.expect("a drop names its piece");
            match Self::unpromoted(p) {
                Some(k) => {
                    san.push('+');
                    san.push(self.upper_letter(k));
                }
                None => san.push(self.upper_letter(p.kind)),
            }
            san.push('*');
            san.push_str(&self.shogi_square(m.to));
            return san;
        }
        let mover = pos.get(m.from).expect("a move starts on a piece");
        match Self::unpromoted(mover) {
            Some(k) => {
                san.push('+');
                san.push(self.upper_letter(k));
            }
            None => san.push(self.upper_letter(mover.kind)),
        }
        let ambiguous = legal.iter().any(|o| {
            o.from != m.from
                && o.to == m.to
                && o.kind == m.kind
                && o.tag == m.tag
                && o.piece.map(|p| p.kind) == m.piece.map(|p| p.kind)
                && pos.get(o.from).is_some_and(|q| {
                    q.kind == mover.kind && Self::unpromoted(q) == Self::unpromoted(mover)
                })
        });
        if ambiguous {
            san.push_str(&self.shogi_square(m.from));
        }
        san.push(if Self::is_capture(pos, m) { 'x' } else { '-' });
        san.push_str(&self.shogi_square(m.to));
        match m.tag {
            PIECE_PROMOTION => san.push('+'),
            PIECE_DEMOTION => san.push('-'),
            _ if m.piece.is_some() => {
                san.push('=');
                san.push(self.upper_letter(m.piece.expect("promotion").kind));
            }
            _ => {
                // `=`: declined a promotion the piece could make here.
                let mut others = Vec::new();
                self.push_piece_moves(
                    m.from,
                    mover,
                    &[(m.to, Self::is_capture(pos, m))],
                    &mut others,
                );
                if others.iter().any(|o| o.tag == PIECE_PROMOTION) {
                    san.push('=');
                }
            }
        }
        san
    }
}
