//! Maohopper movement, piece by piece, and playing a move.

use super::*;
use crate::geometry::{Square, SquareSet};
use crate::moves::{Move, MoveKind};
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;

// ---- small helpers ----

/// What a landing square holds, for the mover `us`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Land {
    Empty,
    Enemy,
    /// A friendly piece or a Stone: nothing may land there.
    Blocked,
}

#[inline]
pub(super) fn land(pos: &Position, sq: Square, us: Color) -> Land {
    match pos.get(sq) {
        None => Land::Empty,
        Some(p) if p.color == us.opponent() && p.color != Color::Neutral => Land::Enemy,
        Some(_) => Land::Blocked,
    }
}

#[inline]
pub(super) fn is_stone(pos: &Position, sq: Square) -> bool {
    matches!(pos.get(sq), Some(p) if p.kind == STONE)
}

/// The board vector a Spear of `color` pointing `dir` steps by.
pub(crate) fn spear_vector(color: Color, dir: u8) -> (i8, i8) {
    let f = color.forward();
    match dir {
        RIGHT => (f, f),
        LEFT => (-f, f),
        _ => (0, f),
    }
}

/// Promotion choices for a Spear of `color` arriving on `to`.
pub(super) fn promotions(pos: &Position, to: Square, color: Color) -> &'static [Kind] {
    match pos.relative_rank(to, color) {
        6 => &[FROG, WORM],
        7 => &[FERZ, WINDMILL],
        8 => &[BUTTERFLY, FLAG],
        _ => &[],
    }
}

/// Collects destinations of one piece, once each.
pub(super) struct Emit<'a> {
    pub(super) from: Square,
    pub(super) seen: SquareSet,
    pub(super) out: &'a mut Vec<Move>,
}

impl Emit<'_> {
    #[inline]
    pub(super) fn add(&mut self, to: Square) {
        if !self.seen.contains(to) {
            self.seen.insert(to);
            self.out.push(Move::normal(self.from, to));
        }
    }
}

// ---- movement of each piece ----

/// Maohopper: orthogonal step onto an occupied square, then a diagonal step
/// outward from there.
pub(super) fn maohopper_moves(pos: &Position, from: Square, us: Color, e: &mut Emit) {
    for (ox, oy) in ORTHO {
        let Some(h) = pos.step(from, ox, oy) else {
            continue;
        };
        if pos.get(h).is_none() {
            continue;
        }
        // The two outward diagonals: the orthogonal step plus a sideways unit.
        for (sx, sy) in [(oy, ox), (-oy, -ox)] {
            if let Some(l) = pos.step(h, ox + sx, oy + sy) {
                if land(pos, l, us) != Land::Blocked {
                    e.add(l);
                }
            }
        }
    }
}

/// Butterfly: chains of Maohopper hops. The board does not change during
/// the chain (only the start square is vacated), so the squares reachable
/// by a chain without repeated squares are exactly those reachable at all:
/// a breadth-first search over empty landing squares, plus one final hop
/// onto an enemy from any of them.
pub(super) fn butterfly_moves(pos: &Position, from: Square, us: Color, e: &mut Emit) {
    let mut visited = SquareSet::EMPTY;
    visited.insert(from);
    let mut queue: Vec<Square> = vec![from];
    while let Some(c) = queue.pop() {
        for (ox, oy) in ORTHO {
            let Some(h) = pos.step(c, ox, oy) else {
                continue;
            };
            // The vacated start square is not a hurdle.
            if h == from || pos.get(h).is_none() {
                continue;
            }
            for (sx, sy) in [(oy, ox), (-oy, -ox)] {
                let Some(l) = pos.step(h, ox + sx, oy + sy) else {
                    continue;
                };
                if visited.contains(l) {
                    continue;
                }
                match land(pos, l, us) {
                    Land::Empty => {
                        visited.insert(l);
                        e.add(l);
                        queue.push(l);
                    }
                    Land::Enemy => e.add(l),
                    Land::Blocked => {}
                }
            }
        }
    }
}

/// Frog: along each of the 16 roses over empty points, over the first
/// occupied point, onto the next point (never the start, the 8th point).
pub(super) fn frog_moves(pos: &Position, from: Square, us: Color, e: &mut Emit) {
    for first in 0..8usize {
        for sense in [1usize, 7] {
            let mut cur = from;
            for k in 0..7usize {
                let (dx, dy) = KNIGHT[(first + sense * k) % 8];
                let Some(p) = pos.step(cur, dx, dy) else {
                    break;
                };
                if pos.get(p).is_none() {
                    cur = p;
                    continue;
                }
                // Hurdle at point k+1; the landing point k+2 is the start when k = 6.
                if k < 6 {
                    let (lx, ly) = KNIGHT[(first + sense * (k + 1)) % 8];
                    if let Some(l) = pos.step(p, lx, ly) {
                        if land(pos, l, us) != Land::Blocked {
                            e.add(l);
                        }
                    }
                }
                break;
            }
        }
    }
}

/// Worm: along each nightrider line over empty squares, over the first
/// occupied square, one knight step beyond.
pub(super) fn worm_moves(pos: &Position, from: Square, us: Color, e: &mut Emit) {
    for (dx, dy) in KNIGHT {
        let mut cur = from;
        while let Some(p) = pos.step(cur, dx, dy) {
            if pos.get(p).is_none() {
                cur = p;
                continue;
            }
            if let Some(l) = pos.step(p, dx, dy) {
                if land(pos, l, us) != Land::Blocked {
                    e.add(l);
                }
            }
            break;
        }
    }
}

/// Reflecting Ferz: single diagonal steps; where the square ahead is off
/// the board or occupied it may turn 90° either way. The start square and
/// the squares passed count as empty (no turn there) but cannot be entered
/// again, so facing one ends the path. Turning twice on one square never
/// helps (the second turn faces the blocked square again or the square just
/// left), so one turn per square is explored; at the start every direction
/// is tried, which covers turning there.
pub(super) fn ferz_moves(pos: &Position, from: Square, us: Color, e: &mut Emit) {
    let mut visited = SquareSet::EMPTY;
    visited.insert(from);
    for d in DIAG {
        ferz_walk(pos, from, us, from, d, false, &mut visited, e);
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn ferz_walk(
    pos: &Position,
    from: Square,
    us: Color,
    cur: Square,
    d: (i8, i8),
    may_turn: bool,
    visited: &mut SquareSet,
    e: &mut Emit,
) {
    let ahead = pos.step(cur, d.0, d.1);
    if let Some(n) = ahead {
        if n == from || pos.get(n).is_none() {
            if !visited.contains(n) {
                visited.insert(n);
                e.add(n);
                ferz_walk(pos, from, us, n, d, true, visited, e);
                visited.remove(n);
            }
            return;
        }
        if land(pos, n, us) == Land::Enemy {
            e.add(n);
        }
    }
    if may_turn {
        for t in [(d.1, -d.0), (-d.1, d.0)] {
            ferz_walk(pos, from, us, cur, t, false, visited, e);
        }
    }
}

/// Mason: one step any way onto an empty square, or onto a Stone pushing the
/// line of Stones from there one square on (the square beyond must be empty).
pub(super) fn mason_moves(pos: &Position, from: Square, e: &mut Emit) {
    for (dx, dy) in RING {
        let Some(to) = pos.step(from, dx, dy) else {
            continue;
        };
        match pos.get(to) {
            None => e.add(to),
            Some(p) if p.kind == STONE => {
                if push_end(pos, to, dx, dy).is_some() {
                    e.add(to);
                }
            }
            Some(_) => {}
        }
    }
}

/// The empty square the Stone line starting at `first` is pushed into.
pub(super) fn push_end(pos: &Position, first: Square, dx: i8, dy: i8) -> Option<Square> {
    let mut s = first;
    loop {
        let n = pos.step(s, dx, dy)?;
        match pos.get(n) {
            None => return Some(n),
            Some(p) if p.kind == STONE => s = n,
            Some(_) => return None,
        }
    }
}

/// Windmill: round any occupied neighbour, either way, through empty squares,
/// possibly ending by capturing the first enemy met.
pub(super) fn windmill_moves(pos: &Position, from: Square, us: Color, e: &mut Emit) {
    for (i, &(dx, dy)) in RING.iter().enumerate() {
        let Some(pivot) = pos.step(from, dx, dy) else {
            continue;
        };
        if pos.get(pivot).is_none() {
            continue;
        }
        // Seen from the pivot the Windmill stands in the opposite direction.
        let at = (i + 4) % 8;
        for sense in [1usize, 7] {
            for j in 1..8usize {
                let (rx, ry) = RING[(at + sense * j) % 8];
                let Some(sq) = pos.step(pivot, rx, ry) else {
                    break;
                };
                match land(pos, sq, us) {
                    Land::Empty => e.add(sq),
                    Land::Enemy => {
                        e.add(sq);
                        break;
                    }
                    Land::Blocked => break,
                }
            }
        }
    }
}

/// Spear: step (3 final directions, or the trap's single move, plus
/// promotions), or turn in place to either other direction.
pub(super) fn spear_moves(pos: &Position, from: Square, piece: Piece, out: &mut Vec<Move>) {
    let us = piece.color;
    let (dx, dy) = spear_vector(us, piece.state);
    if let Some(to) = pos.step(from, dx, dy) {
        if land(pos, to, us) != Land::Blocked {
            if to == TRAP {
                let mut m = Move::normal(from, to);
                m.tag = piece.state;
                out.push(m);
            } else {
                for dir in [STRAIGHT, RIGHT, LEFT] {
                    let mut m = Move::normal(from, to);
                    m.tag = dir;
                    out.push(m);
                }
                for &k in promotions(pos, to, us) {
                    out.push(Move::promotion(from, to, Piece::new(k, us)));
                }
            }
        }
    }
    for dir in [STRAIGHT, RIGHT, LEFT] {
        if dir != piece.state {
            let mut m = Move::normal(from, from).with_kind(MoveKind::Special);
            m.tag = dir;
            out.push(m);
        }
    }
}

impl Maohopper {
    /// Every legal move (no history rules); none once the mover's Flag is gone.
    pub(crate) fn generate(&self, pos: &Position) -> Vec<Move> {
        let us = pos.side;
        let mut out = Vec::with_capacity(96);
        if pos.royal[us.index()].is_none() {
            return out;
        }
        for r in 0..pos.height {
            for f in 0..pos.width {
                let from = Square::new(f, r);
                let Some(piece) = pos.get(from) else {
                    continue;
                };
                if piece.color != us {
                    continue;
                }
                if piece.kind == SPEAR {
                    spear_moves(pos, from, piece, &mut out);
                    continue;
                }
                let mut e = Emit {
                    from,
                    seen: SquareSet::EMPTY,
                    out: &mut out,
                };
                match piece.kind {
                    MAOHOPPER => maohopper_moves(pos, from, us, &mut e),
                    BUTTERFLY => butterfly_moves(pos, from, us, &mut e),
                    FROG => frog_moves(pos, from, us, &mut e),
                    WORM => worm_moves(pos, from, us, &mut e),
                    FERZ => ferz_moves(pos, from, us, &mut e),
                    MASON => mason_moves(pos, from, &mut e),
                    WINDMILL => windmill_moves(pos, from, us, &mut e),
                    _ => {} // Flag (and Stones, which belong to nobody)
                }
            }
        }
        out
    }

    /// The position after a legal move.
    pub(crate) fn apply(&self, pos: &Position, m: &Move) -> Position {
        let mut next = pos.clone();
        let us = pos.side;
        let them = us.opponent();
        let mut piece = next.take(m.from).expect("a piece on the origin");
        if m.kind == MoveKind::Special {
            piece.state = m.tag;
            next.set(m.from, Some(piece));
        } else {
            if piece.kind == MASON && is_stone(&next, m.to) {
                let (dx, dy) = (
                    (m.to.file() as i8 - m.from.file() as i8),
                    (m.to.rank() as i8 - m.from.rank() as i8),
                );
                let end = push_end(&next, m.to, dx, dy).expect("a legal push");
                // Moving the first Stone to the far end shifts the whole line.
                let stone = next.take(m.to);
                next.set(end, stone);
            }
            if let Some(captured) = next.take(m.to) {
                if captured.kind == FLAG && captured.color == them {
                    next.royal[them.index()] = None;
                }
            }
            if let Some(p) = m.piece {
                piece = p;
                if p.kind == FLAG {
                    if let Some(old) = next.royal[us.index()] {
                        next.set(old, None);
                    }
                    next.royal[us.index()] = Some(m.to);
                }
            } else if piece.kind == SPEAR {
                piece.state = m.tag;
            }
            if m.to != TRAP {
                next.set(m.to, Some(piece));
            }
        }
        if us == Color::Black {
            next.fullmove = next.fullmove.saturating_add(1);
        }
        next.side = them;
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spear_vectors_from_the_owners_view() {
        assert_eq!(spear_vector(Color::White, RIGHT), (1, 1));
        assert_eq!(spear_vector(Color::White, LEFT), (-1, 1));
        assert_eq!(spear_vector(Color::Black, RIGHT), (-1, -1));
        assert_eq!(spear_vector(Color::Black, LEFT), (1, -1));
        assert_eq!(spear_vector(Color::Black, STRAIGHT), (0, -1));
    }
}
