//! Equihopper-family primitives: a piece that jumps over exactly one piece
//! standing halfway between its start and its destination, and the moves
//! built from that jump (a continuation by the same offset, the mirror of a
//! piece across a centre).
//!
//! Blocking follows the usual reading of the Equihopper: on a rank, file or
//! diagonal every square between start and landing other than the midpoint
//! must be empty (holes and craters block); on other lines only the
//! midpoint matters. A "non-stop" Equihopper ignores every square but the
//! midpoint, like a leaper. The hurdle is always a piece, never a hole, and
//! the landing square is always a playable square (its contents are the
//! caller's business: empty, friend or enemy).

use crate::geometry::Square;
use crate::position::Position;

/// Whether `(dx, dy)` lies along a rank, file or diagonal.
#[inline]
pub(crate) fn is_line(dx: i8, dy: i8) -> bool {
    dx == 0 || dy == 0 || dx.abs() == dy.abs()
}

/// Whether the squares `from + i*u` for `i` in `lo..hi` are all playable
/// and empty, `u` being the unit step of the line `(dx, dy)`.
#[inline]
fn run_clear(pos: &Position, from: Square, ux: i8, uy: i8, lo: i8, hi: i8) -> bool {
    (lo..hi).all(|i| match pos.offset(from, i * ux, i * uy) {
        Some(s) => pos.is_empty_square(s),
        None => false,
    })
}

/// Whether a plain move by `(dx, dy)` from `from` may pass: on a line, every
/// square strictly between must be playable and empty; off-line nothing
/// between matters.
#[inline]
pub(crate) fn line_clear(pos: &Position, from: Square, dx: i8, dy: i8) -> bool {
    if !is_line(dx, dy) {
        return true;
    }
    let k = dx.abs().max(dy.abs());
    k <= 1 || run_clear(pos, from, dx.signum(), dy.signum(), 1, k)
}

/// Whether the squares of a hop over `(dx, dy)` (midpoint at `from + d`,
/// landing at `from + 2d`) other than the midpoint are playable and empty,
/// as the line rule asks; always true off-line.
#[inline]
fn hop_clear(pos: &Position, from: Square, dx: i8, dy: i8) -> bool {
    if !is_line(dx, dy) {
        return true;
    }
    let k = dx.abs().max(dy.abs());
    if k <= 1 {
        return true;
    }
    let (ux, uy) = (dx.signum(), dy.signum());
    run_clear(pos, from, ux, uy, 1, k) && run_clear(pos, from, ux, uy, k + 1, 2 * k)
}

/// Largest hurdle offset that can fit on the board along each axis.
#[inline]
fn reach(pos: &Position) -> (i8, i8) {
    (((pos.width - 1) / 2) as i8, ((pos.height - 1) / 2) as i8)
}

/// Every Equihopper jump from `from`: `f(offset, hurdle, landing)` for each
/// offset `d` whose midpoint `from + d` holds a piece and whose landing
/// `from + 2d` is a playable square, with the line rule unless `nonstop`.
#[inline]
pub(crate) fn equihops(
    pos: &Position,
    from: Square,
    nonstop: bool,
    mut f: impl FnMut((i8, i8), Square, Square),
) {
    let (mx, my) = reach(pos);
    for dy in -my..=my {
        for dx in -mx..=mx {
            if dx == 0 && dy == 0 {
                continue;
            }
            let Some(land) = pos.step(from, 2 * dx, 2 * dy) else {
                continue;
            };
            let Some(hurdle) = pos.offset(from, dx, dy) else {
                continue;
            };
            if pos.get(hurdle).is_none() || pos.is_hole(hurdle) {
                continue;
            }
            if !nonstop && !hop_clear(pos, from, dx, dy) {
                continue;
            }
            f((dx, dy), hurdle, land);
        }
    }
}

/// Every square a piece would reach by equihopping over the piece on
/// `center`: `f(offset, piece_square, mirror)` for each piece standing at
/// `center + v` whose mirror `center - v` is a playable square, with the
/// line rule (the squares between the piece and the centre and between the
/// centre and the mirror empty and playable) unless `nonstop`.
#[inline]
pub(crate) fn mirror_hops(
    pos: &Position,
    center: Square,
    nonstop: bool,
    mut f: impl FnMut((i8, i8), Square, Square),
) {
    let (mx, my) = reach(pos);
    for vy in -my..=my {
        for vx in -mx..=mx {
            if vx == 0 && vy == 0 {
                continue;
            }
            let Some(mirror) = pos.step(center, -vx, -vy) else {
                continue;
            };
            let Some(piece) = pos.step(center, vx, vy) else {
                continue;
            };
            if pos.get(piece).is_none() {
                continue;
            }
            let clear =
                nonstop || (line_clear(pos, center, vx, vy) && line_clear(pos, center, -vx, -vy));
            if !clear {
                continue;
            }
            f((vx, vy), piece, mirror);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;
    use crate::piece::{Color, Piece};

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn landings(pos: &Position, from: &str, nonstop: bool) -> Vec<String> {
        let mut out = Vec::new();
        equihops(pos, sq(from), nonstop, |_, _, l| out.push(l.name()));
        out.sort();
        out
    }

    #[test]
    fn jumps_need_a_piece_at_the_midpoint() {
        let g = Geometry::rect(8, 8);
        let mut pos = Position::empty(&g);
        pos.set(sq("d4"), Some(Piece::new(0, Color::White)));
        assert!(landings(&pos, "d4", false).is_empty());
        pos.set(sq("e6"), Some(Piece::new(0, Color::Black)));
        assert_eq!(landings(&pos, "d4", false), vec!["f8"]);
        pos.set(sq("d5"), Some(Piece::new(0, Color::Black)));
        assert_eq!(landings(&pos, "d4", false), vec!["d6", "f8"]);
    }

    #[test]
    fn line_hops_are_blocked_off_line_hops_are_not() {
        let g = Geometry::rect(8, 8);
        let mut pos = Position::empty(&g);
        let p = Some(Piece::new(0, Color::White));
        pos.set(sq("a1"), p);
        pos.set(sq("a3"), p); // hurdle of a1-a5
        pos.set(sq("c2"), p); // hurdle of a1-e3 (off-line)
        assert_eq!(landings(&pos, "a1", false), vec!["a5", "e3"]);
        pos.set(sq("a4"), p); // between hurdle and landing on the file
        pos.set(sq("b2"), p); // near the off-line path, does not matter...
                              // ...but b2 is also the hurdle of a1-c3.
        assert_eq!(landings(&pos, "a1", false), vec!["c3", "e3"]);
        // The non-stop jumper also takes a4 as the hurdle of a1-a7.
        assert_eq!(landings(&pos, "a1", true), vec!["a5", "a7", "c3", "e3"]);
        pos.set(sq("a4"), None);
        pos.make_hole(sq("a2"));
        assert_eq!(landings(&pos, "a1", false), vec!["c3", "e3"]);
        assert_eq!(landings(&pos, "a1", true), vec!["a5", "c3", "e3"]);
    }

    #[test]
    fn mirrors() {
        let g = Geometry::rect(7, 7);
        let mut pos = Position::empty(&g);
        let p = Some(Piece::new(0, Color::White));
        pos.set(sq("d4"), p);
        pos.set(sq("d6"), p);
        pos.set(sq("e6"), p);
        let mut out = Vec::new();
        mirror_hops(&pos, sq("d4"), false, |_, _, m| out.push(m.name()));
        out.sort();
        assert_eq!(out, vec!["c2", "d2"]);
        pos.set(sq("d3"), p);
        let mut out = Vec::new();
        mirror_hops(&pos, sq("d4"), false, |_, _, m| out.push(m.name()));
        out.sort();
        // d6 is now blocked by d3 (between centre and mirror); d3 mirrors to d5.
        assert_eq!(out, vec!["c2", "d5"]);
    }
}
