//! Which pieces are Lionized, the routes a Lionized turn may take, and attack
//! detection (check) with borrowed powers.

use super::*;
use crate::geometry::Square;
use crate::moves::NO_SQUARE;
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;

#[inline]
pub(super) fn is_regular(kind: Kind) -> bool {
    (LANCE..=FERZ).contains(&kind)
}

/// Bit of an 8x8 square in a 64-bit mask.
#[inline]
pub(super) fn bit(sq: Square) -> u64 {
    1u64 << (sq.rank() * 8 + sq.file())
}

/// The squares of a 64-bit mask.
pub(super) fn squares(mut mask: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let i = mask.trailing_zeros() as u8;
        mask &= mask - 1;
        Some(Square::new(i % 8, i / 8))
    })
}

/// The square `(dx, dy)` from `sq` on the 8x8 board (0x88 test on the
/// stride-16 index; this variant's boards have no holes).
#[inline(always)]
pub(super) fn step(sq: Square, dx: i8, dy: i8) -> Option<Square> {
    let n = sq.index() as i16 + dy as i16 * 16 + dx as i16;
    (n >= 0 && n & 0x88 == 0).then(|| Square::from_index(n as u8))
}

/// Every 8x8 square, a1 first.
#[inline]
pub(super) fn all_squares() -> impl Iterator<Item = Square> {
    (0u8..64).map(|i| Square::new(i % 8, i / 8))
}

/// Squares a Regular power of `kind` reaches from `from` for a piece of
/// `color`, whatever stands on them, provided the squares it must pass are
/// empty. `vacated` (the mover's start square during a second leg, or
/// [`NO_SQUARE`]) counts as empty.
#[inline]
pub(super) fn reach(
    pos: &Position,
    kind: Kind,
    color: Color,
    from: Square,
    vacated: Square,
) -> u64 {
    let occupied = |s: Square| s != vacated && pos.get(s).is_some();
    let mut out = 0;
    match kind {
        LANCE => {
            let dy = color.forward();
            let mut cur = from;
            while let Some(t) = step(cur, 0, dy) {
                out |= bit(t);
                if occupied(t) {
                    break;
                }
                cur = t;
            }
        }
        HOT_HORSE | COLD_HORSE => {
            let legs = if kind == HOT_HORSE {
                &HOT_LEGS
            } else {
                &COLD_LEGS
            };
            for &((vx, vy), (dx, dy)) in legs {
                if let Some(v) = step(from, vx, vy) {
                    if !occupied(v) {
                        if let Some(t) = step(from, dx, dy) {
                            out |= bit(t);
                        }
                    }
                }
            }
        }
        MAMMOTH => {
            for (dx, dy) in DIAGONALS {
                if let Some(v) = step(from, dx, dy) {
                    if !occupied(v) {
                        if let Some(t) = step(from, 2 * dx, 2 * dy) {
                            out |= bit(t);
                        }
                    }
                }
            }
        }
        FERZ => {
            for (dx, dy) in DIAGONALS {
                if let Some(t) = step(from, dx, dy) {
                    out |= bit(t);
                }
            }
        }
        _ => {}
    }
    out
}

/// Occupancy masks of one position, per colour.
pub(super) struct Occupancy {
    pub(super) by: [u64; 2],
}

impl Occupancy {
    pub(super) fn of(pos: &Position) -> Occupancy {
        let mut by = [0u64; 2];
        for sq in all_squares() {
            if let Some(p) = pos.get(sq) {
                if p.color != Color::Neutral {
                    by[p.color.index()] |= bit(sq);
                }
            }
        }
        Occupancy { by }
    }
}

/// The Lionized pieces of one side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Lionized {
    /// Squares of the Lionized pieces.
    pub mask: u64,
    /// How many Lionized pieces of each kind.
    counts: [u8; 8],
}

impl Lionized {
    /// The Lionized pieces of `color` in `pos`: Regular pieces on a clear
    /// line with a friendly Lionizer, or on the file of a friendly Pawn that
    /// stands on its last rank.
    pub(crate) fn of(pos: &Position, color: Color) -> Lionized {
        Lionized::with_lionizers(pos, color, &lionizers(pos, color))
    }

    /// The same, given where `color`'s Lionizers may stand (squares no
    /// longer holding one are skipped), to spare a board scan.
    pub(super) fn with_lionizers(pos: &Position, color: Color, lionizers: &[Square]) -> Lionized {
        let mut l = Lionized::default();
        let mut mark = |t: Square, q: Piece| {
            if q.color == color && is_regular(q.kind) && l.mask & bit(t) == 0 {
                l.mask |= bit(t);
                l.counts[q.kind as usize] += 1;
            }
        };
        for &sq in lionizers {
            if pos.get(sq) != Some(Piece::new(LIONIZER, color)) {
                continue;
            }
            for (dx, dy) in KING_STEPS {
                let mut cur = sq;
                while let Some(t) = step(cur, dx, dy) {
                    if let Some(q) = pos.get(t) {
                        mark(t, q);
                        break;
                    }
                    cur = t;
                }
            }
        }
        let last = if color == Color::Black {
            0
        } else {
            pos.height - 1
        };
        for file in 0..pos.width {
            if pos.get(Square::new(file, last)) == Some(Piece::new(PAWN, color)) {
                for r in 0..pos.height {
                    let t = Square::new(file, r);
                    if let Some(q) = pos.get(t) {
                        mark(t, q);
                    }
                }
            }
        }
        l
    }

    pub(crate) fn contains(&self, sq: Square) -> bool {
        self.mask & bit(sq) != 0
    }

    pub(crate) fn len(&self) -> u32 {
        self.mask.count_ones()
    }

    /// Kinds (bit per kind) of the partners of the Lionized `kind` piece:
    /// the kinds of the other Lionized pieces.
    pub(super) fn borrowed(&self, kind: Kind) -> u8 {
        let mut out = 0u8;
        for k in REGULARS {
            let n = self.counts[k as usize] - (k == kind) as u8;
            if n > 0 {
                out |= 1 << k;
            }
        }
        out
    }
}

/// Squares of `color`'s Lionizers (normally one; custom positions may have
/// more or none).
pub(super) fn lionizers(pos: &Position, color: Color) -> Vec<Square> {
    all_squares()
        .filter(|&s| pos.get(s) == Some(Piece::new(LIONIZER, color)))
        .collect()
}

/// Kinds set in a bit-per-kind mask.
pub(super) fn kinds(mask: u8) -> impl Iterator<Item = Kind> {
    REGULARS.into_iter().filter(move |k| mask >> k & 1 == 1)
}

/// Every turn of a Lionized piece (with partners offering `borrowed`) as
/// result masks: `ends` = squares it can end on capturing at most there;
/// `caps` = for each square captured on the first leg, where it can end.
pub(super) struct LionTurns {
    pub(super) ends: u64,
    pub(super) cap_mids: u64,
    pub(super) caps: [u64; 64],
}

pub(super) fn lion_turns(
    pos: &Position,
    occ: &Occupancy,
    from: Square,
    piece: Piece,
    borrowed: u8,
) -> LionTurns {
    let us = piece.color.index();
    let own = occ.by[us];
    let enemy = occ.by[1 - us];
    let mut t = LionTurns {
        ends: reach(pos, piece.kind, piece.color, from, NO_SQUARE) & !own,
        cap_mids: 0,
        caps: [0; 64],
    };
    // During a second leg the start square is empty: own pieces minus it.
    let own_second = own & !bit(from);
    for k in kinds(borrowed) {
        let mids = reach(pos, k, piece.color, from, NO_SQUARE);
        // Borrowed power alone (empty square or capture).
        t.ends |= mids & !own;
        for m in squares(mids) {
            let second = reach(pos, piece.kind, piece.color, m, from) & !own_second;
            // Through (or over) m without capturing there: coming back to the
            // start would leave the board unchanged.
            t.ends |= second & !bit(from);
            if enemy & bit(m) != 0 {
                let i = (m.rank() * 8 + m.file()) as usize;
                t.caps[i] |= second;
                t.cap_mids |= bit(m);
            }
        }
    }
    t
}

/// Whether a Lionized piece on `from` with partners `borrowed` can go to
/// `mid` by a partner's power and on to `to` by its own.
pub(super) fn has_route(
    pos: &Position,
    from: Square,
    piece: Piece,
    borrowed: u8,
    mid: Square,
    to: Square,
) -> bool {
    kinds(borrowed).any(|k| {
        reach(pos, k, piece.color, from, NO_SQUARE) & bit(mid) != 0
            && reach(pos, piece.kind, piece.color, mid, from) & bit(to) != 0
    })
}

/// Whether a piece of `by` could capture on `sq` (on either leg) if it were
/// `by`'s turn.
pub(crate) fn attacked(pos: &Position, sq: Square, by: Color) -> bool {
    attacked_with(pos, sq, by, &lionizers(pos, by))
}

/// [`attacked`], given the squares where `by`'s Lionizers may stand.
pub(super) fn attacked_with(pos: &Position, sq: Square, by: Color, lionizers: &[Square]) -> bool {
    let f = by.forward();
    for dx in [-1, 1] {
        if let Some(s) = step(sq, dx, -f) {
            if pos.get(s) == Some(Piece::new(PAWN, by)) {
                return true;
            }
        }
    }
    for (dx, dy) in KING_STEPS {
        if let Some(s) = step(sq, dx, dy) {
            if pos.get(s) == Some(Piece::new(KING, by)) {
                return true;
            }
        }
    }
    let lion = Lionized::with_lionizers(pos, by, lionizers);
    if plain_attack(pos, sq, by, lion.mask) {
        return true;
    }
    // Lionized pieces attack only with a partner; then by any of their turns.
    lion.len() >= 2
        && squares(lion.mask).any(|s| {
            let p = pos.get(s).expect("a Lionized piece");
            lion_attacks(pos, s, p, lion.borrowed(p.kind), bit(sq))
        })
}

/// Whether a Regular piece of `by` that is not Lionized (not in `lionized`)
/// reaches `sq` by its own power: looked up backwards from `sq`.
pub(super) fn plain_attack(pos: &Position, sq: Square, by: Color, lionized: u64) -> bool {
    let is =
        |s: Square, kind: Kind| pos.get(s) == Some(Piece::new(kind, by)) && lionized & bit(s) == 0;
    for (dx, dy) in DIAGONALS {
        if let Some(s) = step(sq, dx, dy) {
            if is(s, FERZ) {
                return true;
            }
            if pos.get(s).is_none() {
                if let Some(m) = step(sq, 2 * dx, 2 * dy) {
                    if is(m, MAMMOTH) {
                        return true;
                    }
                }
            }
        }
    }
    for (kind, legs) in [(HOT_HORSE, &HOT_LEGS), (COLD_HORSE, &COLD_LEGS)] {
        for &((vx, vy), (dx, dy)) in legs {
            // A Horse on sq - d reaches sq when sq - d + v is empty.
            if let Some(s) = step(sq, -dx, -dy) {
                if is(s, kind) && step(s, vx, vy).is_some_and(|v| pos.get(v).is_none()) {
                    return true;
                }
            }
        }
    }
    // A Lance looks forward: search backwards down the file.
    let mut cur = sq;
    while let Some(s) = step(cur, 0, -by.forward()) {
        if pos.get(s).is_some() {
            return is(s, LANCE);
        }
        cur = s;
    }
    false
}

/// Whether the Lionized piece `p` on `s` (partners offering `borrowed`) can
/// capture on `target` on either leg of some turn.
pub(super) fn lion_attacks(pos: &Position, s: Square, p: Piece, borrowed: u8, target: u64) -> bool {
    if reach(pos, p.kind, p.color, s, NO_SQUARE) & target != 0 {
        return true;
    }
    kinds(borrowed).any(|k| {
        let mids = reach(pos, k, p.color, s, NO_SQUARE);
        mids & target != 0 || squares(mids).any(|m| reach(pos, p.kind, p.color, m, s) & target != 0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        LionizedChess::new().parse_fen(fen).unwrap()
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// "All Regular Pieces on the same Rank, File, or Diagonal as a friendly
    /// Lionizer with no intervening pieces are Lionized": Kings, Pawns and
    /// Lionizers never are; a piece between blocks; enemies are not Lionized.
    #[test]
    fn lionized_by_a_clear_line_to_a_friendly_lionizer() {
        // White Z d4. Rank: b4 Lance (c4 empty) yes. File: d6 Ferz behind d5
        // Pawn: no. Diagonal: f6 Mammoth (e5 empty) yes; b2 Lionizer: never;
        // f2 black Ferz: not friendly. g4 King: not Regular.
        let p = pos("8/8/3F1M2/3P4/1L1Z2K1/8/1Z3f2/7k w - - 0 1");
        let l = Lionized::of(&p, Color::White);
        assert!(l.contains(sq("b4")) && l.contains(sq("f6")));
        assert!(!l.contains(sq("d6")) && !l.contains(sq("b2")) && !l.contains(sq("d5")));
        assert_eq!(l.len(), 2);
        assert_eq!(Lionized::of(&p, Color::Black).len(), 0);
    }

    /// "All Regular Pieces on the same File as a friendly Pawn on that Rank
    /// furthest from its starting position are Lionized": the Ferz on c3 and
    /// the Lance on c1 below the White Pawn on c8.
    #[test]
    fn pawn_on_its_last_rank_lionizes_its_file() {
        let l = Lionized::of(&pos("2P5/8/7k/8/8/2F5/8/2L4K w - - 0 1"), Color::White);
        assert!(l.contains(sq("c3")) && l.contains(sq("c1")));
        // A black Pawn on c1 (its last rank) Lionizes Black's pieces only.
        let p = pos("7k/8/8/8/8/2F5/2c5/2p4K w - - 0 1");
        assert_eq!(Lionized::of(&p, Color::White).len(), 0);
        assert!(Lionized::of(&p, Color::Black).contains(sq("c2")));
    }
}
