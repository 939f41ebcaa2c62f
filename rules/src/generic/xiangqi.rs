//! Xiangqi-style rules on the generic engine, as Fairy-Stockfish plays
//! them: pieces confined to a region (palace, own half), the soldier that
//! steps sideways only across the river, and kings that may not face each
//! other on an open file (the flying general).

use super::Generic;
use crate::geometry::Square;
use crate::piece::{Color, Piece};
use crate::position::Position;

impl Generic {
    /// Whether `p` standing on `from` may move to (or attack, or be
    /// dropped on) `to` as far as its region and the soldier's rule go.
    pub(super) fn may_reach(&self, pos: &Position, from: Square, p: Piece, to: Square) -> bool {
        let x = &self.spec.xiangqi;
        if let Some(Some(region)) = x
            .mobility
            .get(p.kind as usize)
            .and_then(|m| m.get(p.color.index()))
        {
            if !region.contains(to) {
                return false;
            }
        }
        // Fairy-Stockfish judges the soldier by the rank it moves to; a
        // sideways step keeps the rank, so this is the soldier's own.
        !(self.spec.pieces[p.kind as usize].soldier
            && p.color != Color::Neutral
            && pos.relative_rank(to, p.color) < x.soldier_rank
            && to.file() != from.file())
    }

    /// Keeps the targets `p` on `from` may move to.
    pub(super) fn confine(
        &self,
        pos: &Position,
        from: Square,
        p: Piece,
        targets: &mut Vec<(Square, bool)>,
    ) {
        targets.retain(|&(to, _)| self.may_reach(pos, from, p, to));
    }

    /// Whether the two kings stand on one file with nothing between.
    pub(super) fn generals_face(&self, pos: &Position) -> bool {
        self.generals_face_at(
            pos,
            self.king_square(pos, Color::White),
            self.king_square(pos, Color::Black),
        )
    }

    /// [`Generic::generals_face`] with the kings' squares known.
    pub(super) fn generals_face_at(
        &self,
        pos: &Position,
        a: Option<Square>,
        b: Option<Square>,
    ) -> bool {
        let (Some(a), Some(b)) = (a, b) else {
            return false;
        };
        if a.file() != b.file() {
            return false;
        }
        let (lo, hi) = (a.rank().min(b.rank()), a.rank().max(b.rank()));
        (lo + 1..hi).all(|r| pos.get(Square::new(a.file(), r)).is_none())
    }
}

impl Generic {
    /// Squares of `color`'s pieces of `kind`.
    fn squares_of(pos: &Position, color: Color, kind: u8) -> Vec<Square> {
        pos.pieces()
            .filter(|(_, p)| p.color == color && p.kind == kind)
            .map(|(s, _)| s)
            .collect()
    }

    /// A move in WXF notation (`C2=5`, `H8+7`, `+P4=5`), as
    /// `pyffish.get_san(..., NOTATION_XIANGQI_WXF)` writes it.
    pub(super) fn wxf(&self, pos: &Position, m: &crate::moves::Move) -> String {
        let us = pos.side;
        let mover = pos.get(m.from).expect("a move starts on a piece");
        let same = Self::squares_of(pos, us, mover.kind);
        let on_file = |f: u8| same.iter().filter(|s| s.file() == f).count();
        let multi_tandem = (0..self.spec.width).filter(|&f| on_file(f) > 1).count() >= 2;
        let ahead = |s: Square| {
            same.iter()
                .filter(|o| {
                    o.file() == s.file() && pos.relative_rank(**o, us) > pos.relative_rank(s, us)
                })
                .count()
        };
        let file = |s: Square| {
            let f = if us == Color::White {
                self.spec.width - 1 - s.file()
            } else {
                s.file()
            };
            (f + 1).to_string()
        };
        let mut out = String::new();
        let here = on_file(m.from.file());
        if here >= 3 - usize::from(multi_tandem) {
            out.push_str(&(ahead(m.from) + 1).to_string());
        } else {
            let ps = &self.spec.pieces[mover.kind as usize];
            out.push(ps.synonym.unwrap_or(ps.letter).to_ascii_uppercase());
        }
        let dr = m.to.rank() as i8 - m.from.rank() as i8;
        let df = m.to.file() as i8 - m.from.file() as i8;
        let by_rank = here == 2 && !multi_tandem && {
            let other = same
                .iter()
                .find(|o| o.file() == m.from.file() && **o != m.from)
                .expect("two on the file");
            pos.offset(*other, df, dr)
                .is_some_and(|t| !pos.is_hole(t) && self.may_reach(pos, t, mover, t))
        };
        if by_rank {
            out.push(if ahead(m.from) > 0 { '-' } else { '+' });
        } else {
            out.push_str(&file(m.from));
        }
        let (rf, rt) = (pos.relative_rank(m.from, us), pos.relative_rank(m.to, us));
        out.push(if dr == 0 {
            '='
        } else if rt > rf {
            '+'
        } else {
            '-'
        });
        if df == 0 {
            out.push_str(&dr.unsigned_abs().to_string());
        } else {
            out.push_str(&file(m.to));
        }
        out
    }
}
