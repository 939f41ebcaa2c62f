//! Maohopper Chess (Chess Variant Pages, 2010), as settled by Missive's
//! rulings: a 9x9 board with a trap on h4, neutral Stones, hoppers of
//! several kinds, directional Spears, Stone-pushing Masons and Windmills.
//! The object is to capture the enemy Flag; there is no check.
//!
//! # Pieces and FEN letters
//! Upper case White, lower case Black:
//! `F` Flag, `M` Maohopper, `B` Butterfly (Ubi-Ubi-hopper), `R` Frog
//! (Rose-hopper), `N` Worm (Night-hopper), `E` Reflecting Ferz, `S` Spear,
//! `A` Mason, `W` Windmill. A neutral Stone is `O` (`o` is read too).
//! A Spear's direction, from its owner's point of view, follows its letter:
//! nothing (or `^`) straight forward, `>` forward-right, `<` forward-left.
//! The FEN is `board side [move-number]`, e.g. the start position
//! `nrmwfwmrn/amebabema/sssssssss/9/2O1O1O2/9/SSSSSSSSS/AMEBABEMA/NRMWFWMRN w 1`.
//!
//! # Moves
//! - [`MoveKind::Normal`] `from` → `to` for every piece move. A Mason moving
//!   onto a Stone pushes that Stone and the Stones lined up behind it one
//!   square on (implied by the board). For a Spear step `tag` is the
//!   Spear's direction after the move ([`STRAIGHT`], [`RIGHT`], [`LEFT`]),
//!   or `piece` is the promotion result (then `tag` is 0). Hoppers, the
//!   Reflecting Ferz and the Windmill may reach one square by several paths;
//!   the result is the same, so it is one move.
//! - [`MoveKind::Special`] a Spear turning in place: `from` = `to` = its
//!   square, `tag` = the new direction.
//!
//! A piece (not a Stone) ending a move on the trap h4 is removed.
//!
//! # Notation
//! - Coordinate (canonical): `b2c4`; a Spear step that changes direction
//!   ends with the new direction's mark (`e3e4>`), a promotion with the new
//!   piece's lower-case letter (`e7e8w`); a turn in place is `e3e3>`.
//! - Game Courier: `M b2-c4`; Spears use the labels `SM!`, `SM4!`, `SM7!`
//!   (`sm!`... for Black): `SM! e3-e4`, a step with a turn
//!   `SM! e3-e4; SM4!*e4`, a promotion `SM! e7-e8; W*e8`, a turn in place
//!   `SM4!*e3`.
//! - Display: long algebraic with upper-case letters, `Mb2-c4`, `Bd2xc8`,
//!   `Se3-e4>`, `Se7-e8=W`, `Se3>`.

use crate::errors::{FenError, MoveError};
use crate::fen;
use crate::geometry::{Geometry, Square, SquareSet};
use crate::moves::{Move, MoveKind};
use crate::notation::{self, Candidate, Explain};
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;
use crate::variant::{Notation, Outcome, PieceLabel, Reason, RepetitionRule, Variant};
use std::iter::Peekable;
use std::str::Chars;

pub const FLAG: Kind = 0;
pub const MAOHOPPER: Kind = 1;
pub const BUTTERFLY: Kind = 2;
pub const FROG: Kind = 3;
pub const WORM: Kind = 4;
pub const FERZ: Kind = 5;
pub const SPEAR: Kind = 6;
pub const MASON: Kind = 7;
pub const WINDMILL: Kind = 8;
pub const STONE: Kind = 9;

const LETTERS: [char; 10] = ['F', 'M', 'B', 'R', 'N', 'E', 'S', 'A', 'W', 'O'];
const NAMES: [&str; 10] = [
    "Flag",
    "Maohopper",
    "Butterfly",
    "Frog",
    "Worm",
    "Reflecting Ferz",
    "Spear",
    "Mason",
    "Windmill",
    "Stone",
];

/// The trap square h4.
pub const TRAP: Square = Square::new(7, 3);

/// Spear directions (stored in `Piece::state`), from the owner's view.
pub const STRAIGHT: u8 = 0;
pub const RIGHT: u8 = 1;
pub const LEFT: u8 = 2;
/// FEN / coordinate marks of the three directions.
const DIR_MARKS: [char; 3] = ['^', '>', '<'];
/// Game Courier labels of the three directions (White's; lower case for Black).
const GC_SPEAR: [&str; 3] = ["SM!", "SM4!", "SM7!"];
const DIR_WORDS: [&str; 3] = ["straight forward", "forward-right", "forward-left"];

const ORTHO: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
/// Knight steps in anticlockwise order: a rose takes consecutive entries
/// (one sense or the other), which is the "turn of 45°" between its steps.
const KNIGHT: [(i8, i8); 8] = [
    (2, 1),
    (1, 2),
    (-1, 2),
    (-2, 1),
    (-2, -1),
    (-1, -2),
    (1, -2),
    (2, -1),
];
/// The eight squares round a pivot, clockwise starting above it (also the
/// Mason's eight directions).
const RING: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

pub const START: &str =
    "nrmwfwmrn/amebabema/sssssssss/9/2O1O1O2/9/SSSSSSSSS/AMEBABEMA/NRMWFWMRN w 1";

const RULES: &str = "Maohopper Chess is played on a 9x9 board (files a to i, ranks 1 to 9) by White, who moves first, and Black. Three neutral Stones stand on the board.

Reconstructed parts. The original rule page lost its diagrams, so the board size (9x9) and the whole starting setup below were reconstructed by Missive and are not known to be the inventor's. The page does name h4 as the trap square. Where the page is brief (how the Reflecting Ferz turns, what a Windmill may pivot on, that Stones count as pieces to hop over, that only the end of a move springs the trap), the rules below are Missive's reading. The reconstructed setup: White has on rank 1 Worm a1, Frog b1, Maohopper c1, Windmill d1, Flag e1, Windmill f1, Maohopper g1, Frog h1, Worm i1; on rank 2 Mason a2, Maohopper b2, Reflecting Ferz c2, Butterfly d2, Mason e2, Butterfly f2, Reflecting Ferz g2, Maohopper h2, Mason i2; and Spears on a3 to i3, all pointing straight forward. Black has the same pieces on the same files of ranks 9, 8 and 7. The Stones stand on c5, e5 and g5. The trap is h4. Games may also start from any position given as a FEN.

Object. Capture the opponent's Flag. There is no check. A player who has no legal move loses. A move that would recreate any earlier position of the game (the same pieces on the same squares, Spears pointing the same way, and the same side to move) is illegal.

The trap. A piece of either colour that stands on h4 at the end of a move is removed from the game. Stones are not affected. Only the end of a move counts: pieces may pass over h4, and moving onto h4 is allowed (the piece is simply lost).

Stone: a neutral piece. It never moves by itself, is never captured and can only be pushed by a Mason. It counts as a piece for hopping over, for a Windmill's pivot and for the Reflecting Ferz's reflections. No piece may land on a Stone.

Flag: never moves and cannot be pushed; it can be captured, which ends the game.

Maohopper: moves one square orthogonally onto an occupied square (any piece or Stone), then one square diagonally outward, away from where it started; it lands on an empty square or captures an enemy there. It is blocked if the first square is empty.

Butterfly (Ubi-Ubi-hopper): makes one or more Maohopper hops in one turn. Every hop but the last must land on an empty square; capturing ends the move. It may stop after any hop, may not visit a square twice and may not end where it started. The square it left counts as empty (it cannot be hopped over).

Frog (Rose-hopper): travels along a rose, the octagon drawn by knight steps each turned 45° from the last in the same sense (8 first steps, 2 senses: 16 roses). It passes over empty points, hops over the first occupied point and lands on the next point of the rose, which must be empty or hold an enemy. It never lands on its own start square.

Worm (Night-hopper): travels along a nightrider line (repeated knight steps in one direction) over empty squares, hops over the first occupied square and lands one knight step beyond it, on an empty square or capturing an enemy.

Reflecting Ferz: moves by single diagonal steps through empty squares. Where the next diagonal square is off the board or occupied (by any piece or Stone) it may turn 90° either way and go on; it may do so any number of times. It may stop on any empty square of its path, or capture an enemy it faces, which ends the move. It may not enter a square twice, and may not end where it started; its start square and the squares it has passed count as empty.

Spear: points straight forward, forward-right or forward-left (right and left as its owner sees them). In one turn it either steps one square in the direction it points (onto an empty square, or capturing an enemy) and then may change its direction, or it changes its direction without moving. Promotion is optional: a Spear reaching rank 7 (Black: rank 3) may become a Frog or a Worm, reaching rank 8 (Black: 2) a Reflecting Ferz or a Windmill, and reaching rank 9 (Black: 1) a Butterfly or a Flag. A player who promotes to a Flag removes their old Flag from the game.

Mason: moves one square in any direction; it never captures. Moving onto a Stone pushes it, and any Stones lined up directly behind it, one square further in the same direction; the square beyond the last Stone must exist and be empty. Masons push Stones only.

Windmill: chooses any piece or Stone on one of its eight neighbouring squares as a pivot, then travels clockwise or anticlockwise round the eight squares surrounding the pivot, passing through empty squares. It may stop on any of them, or capture the first enemy it meets there, which ends the move. The board's edge blocks it, and it must end on a square other than its start.

Position strings (FEN): rows from rank 9 down, letters F Flag, M Maohopper, B Butterfly, R Frog, N Worm, E Reflecting Ferz, S Spear, A Mason, W Windmill (upper case White, lower case Black), O a Stone. After a Spear's letter, > means it points forward-right and < forward-left (as its owner sees it); nothing (or ^) means straight forward. Then the side to move (w or b) and the move number.

Moves. Coordinates: b2c4; a Spear step that changes the Spear's direction adds the new direction (e3e4> forward-right, e3e4< forward-left, e3e4^ straight); a promotion adds the new piece's letter (e7e8w); a turn in place is written e3e3>. Game Courier: M b2-c4; the Spear is labelled SM! (straight), SM4! (forward-right) or SM7! (forward-left), lower case for Black: SM! e3-e4, a step and turn SM! e3-e4; SM4!*e4, a promotion SM! e7-e8; W*e8, a turn in place SM4!*e3. Records show long algebraic: Mb2-c4, Bd2xc8, Se3-e4>, Se7-e8=W, Se3>.";

/// Maohopper Chess.
pub struct Maohopper {
    geometry: Geometry,
}

impl Maohopper {
    pub fn new() -> Maohopper {
        Maohopper {
            geometry: Geometry::rect(9, 9),
        }
    }
}

impl Default for Maohopper {
    fn default() -> Self {
        Maohopper::new()
    }
}

// ---- small helpers ----

/// What a landing square holds, for the mover `us`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Land {
    Empty,
    Enemy,
    /// A friendly piece or a Stone: nothing may land there.
    Blocked,
}

#[inline]
fn land(pos: &Position, sq: Square, us: Color) -> Land {
    match pos.get(sq) {
        None => Land::Empty,
        Some(p) if p.color == us.opponent() && p.color != Color::Neutral => Land::Enemy,
        Some(_) => Land::Blocked,
    }
}

#[inline]
fn is_stone(pos: &Position, sq: Square) -> bool {
    matches!(pos.get(sq), Some(p) if p.kind == STONE)
}

/// The board vector a Spear of `color` pointing `dir` steps by.
pub fn spear_vector(color: Color, dir: u8) -> (i8, i8) {
    let f = color.forward();
    match dir {
        RIGHT => (f, f),
        LEFT => (-f, f),
        _ => (0, f),
    }
}

/// Promotion choices for a Spear of `color` arriving on `to`.
fn promotions(pos: &Position, to: Square, color: Color) -> &'static [Kind] {
    match pos.relative_rank(to, color) {
        6 => &[FROG, WORM],
        7 => &[FERZ, WINDMILL],
        8 => &[BUTTERFLY, FLAG],
        _ => &[],
    }
}

/// Collects destinations of one piece, once each.
struct Emit<'a> {
    from: Square,
    seen: SquareSet,
    out: &'a mut Vec<Move>,
}

impl Emit<'_> {
    #[inline]
    fn add(&mut self, to: Square) {
        if !self.seen.contains(to) {
            self.seen.insert(to);
            self.out.push(Move::normal(self.from, to));
        }
    }
}

// ---- movement of each piece ----

/// Maohopper: orthogonal step onto an occupied square, then a diagonal step
/// outward from there.
fn maohopper_moves(pos: &Position, from: Square, us: Color, e: &mut Emit) {
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
fn butterfly_moves(pos: &Position, from: Square, us: Color, e: &mut Emit) {
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
fn frog_moves(pos: &Position, from: Square, us: Color, e: &mut Emit) {
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
fn worm_moves(pos: &Position, from: Square, us: Color, e: &mut Emit) {
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
fn ferz_moves(pos: &Position, from: Square, us: Color, e: &mut Emit) {
    let mut visited = SquareSet::EMPTY;
    visited.insert(from);
    for d in DIAG {
        ferz_walk(pos, from, us, from, d, false, &mut visited, e);
    }
}

#[allow(clippy::too_many_arguments)]
fn ferz_walk(
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
fn mason_moves(pos: &Position, from: Square, e: &mut Emit) {
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
fn push_end(pos: &Position, first: Square, dx: i8, dy: i8) -> Option<Square> {
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
fn windmill_moves(pos: &Position, from: Square, us: Color, e: &mut Emit) {
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
fn spear_moves(pos: &Position, from: Square, piece: Piece, out: &mut Vec<Move>) {
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
    pub fn generate(&self, pos: &Position) -> Vec<Move> {
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
    pub fn apply(&self, pos: &Position, m: &Move) -> Position {
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

    // ---- FEN ----

    fn token(piece: Piece) -> String {
        if piece.kind == STONE {
            return "O".into();
        }
        let mut s = String::with_capacity(2);
        let l = LETTERS[piece.kind as usize];
        s.push(if piece.color == Color::Black {
            l.to_ascii_lowercase()
        } else {
            l
        });
        if piece.kind == SPEAR && piece.state != STRAIGHT {
            s.push(DIR_MARKS[piece.state as usize]);
        }
        s
    }

    fn read(&self, text: &str) -> Result<Position, FenError> {
        let (board, rest) = fen::fields(text)?;
        let (mut pos, hand) = fen::parse_board(&self.geometry, board, &read_piece)?;
        if hand.is_some_and(|h| !h.is_empty() && h != "-") {
            return Err(FenError::Invalid(
                "this variant has no pieces in hand".into(),
            ));
        }
        if !pos.holes().is_empty() {
            return Err(FenError::Invalid("this board has no holes".into()));
        }
        pos.side = fen::parse_side(rest.first())?;
        pos.fullmove = fen::parse_counter(rest.get(1), 1, "move number")?.max(1);
        if rest.len() > 2 {
            return Err(FenError::Syntax(format!(
                "unexpected text “{}” after the move number",
                rest[2..].join(" ")
            )));
        }
        if matches!(pos.get(TRAP), Some(p) if p.kind != STONE) {
            return Err(FenError::Invalid(
                "a piece cannot stand on the trap square h4".into(),
            ));
        }
        for color in [Color::White, Color::Black] {
            let flags: Vec<Square> = pos
                .pieces()
                .filter(|(_, p)| p.kind == FLAG && p.color == color)
                .map(|(s, _)| s)
                .collect();
            if flags.len() > 1 {
                return Err(FenError::Invalid(format!(
                    "{color} has {} Flags; a side has at most one",
                    flags.len()
                )));
            }
            pos.royal[color.index()] = flags.first().copied();
        }
        let waiting = pos.side.opponent();
        if pos.royal[waiting.index()].is_none() {
            return Err(FenError::Invalid(format!(
                "{waiting}, not to move, has no Flag (only the side to move can have just lost it)"
            )));
        }
        Ok(pos)
    }

    fn write(&self, pos: &Position) -> String {
        let board = fen::write_board(pos, Maohopper::token);
        let side = if pos.side == Color::White { "w" } else { "b" };
        format!("{board} {side} {}", pos.fullmove)
    }

    // ---- notation ----

    fn letter_case(color: Color, l: char) -> char {
        if color == Color::Black {
            l.to_ascii_lowercase()
        } else {
            l
        }
    }

    fn gc_spear(color: Color, dir: u8) -> String {
        let l = GC_SPEAR[dir as usize % 3];
        if color == Color::Black {
            l.to_ascii_lowercase()
        } else {
            l.to_string()
        }
    }

    fn coordinate(&self, pos: &Position, m: &Move) -> String {
        let piece = pos.get(m.from).expect("a piece on the origin");
        let mut s = format!("{}{}", m.from, m.to);
        if let Some(p) = m.piece {
            s.push(LETTERS[p.kind as usize].to_ascii_lowercase());
        } else if piece.kind == SPEAR && m.tag != piece.state && m.to != TRAP {
            // A new direction, after a step or in place (`e3e3>`).
            s.push(DIR_MARKS[m.tag as usize % 3]);
        }
        s
    }

    fn game_courier(&self, pos: &Position, m: &Move) -> String {
        let piece = pos.get(m.from).expect("a piece on the origin");
        let us = piece.color;
        if m.kind == MoveKind::Special {
            return format!("{}*{}", Maohopper::gc_spear(us, m.tag), m.from);
        }
        if piece.kind != SPEAR {
            let l = Maohopper::letter_case(us, LETTERS[piece.kind as usize]);
            return format!("{l} {}-{}", m.from, m.to);
        }
        let mut s = format!(
            "{} {}-{}",
            Maohopper::gc_spear(us, piece.state),
            m.from,
            m.to
        );
        if let Some(p) = m.piece {
            let l = Maohopper::letter_case(us, LETTERS[p.kind as usize]);
            s.push_str(&format!("; {l}*{}", m.to));
        } else if m.tag != piece.state && m.to != TRAP {
            s.push_str(&format!("; {}*{}", Maohopper::gc_spear(us, m.tag), m.to));
        }
        s
    }

    fn display(&self, pos: &Position, m: &Move) -> String {
        let piece = pos.get(m.from).expect("a piece on the origin");
        let l = LETTERS[piece.kind as usize];
        if m.kind == MoveKind::Special {
            return format!("{l}{}{}", m.from, DIR_MARKS[m.tag as usize % 3]);
        }
        let sep = if pos.get(m.to).is_some_and(|p| p.kind != STONE) {
            'x'
        } else {
            '-'
        };
        let mut s = format!("{l}{}{sep}{}", m.from, m.to);
        if let Some(p) = m.piece {
            s.push('=');
            s.push(LETTERS[p.kind as usize]);
        } else if piece.kind == SPEAR && m.tag != piece.state && m.to != TRAP {
            s.push(DIR_MARKS[m.tag as usize % 3]);
        }
        s
    }

    /// Facts and every accepted exact written form of a legal move.
    fn candidate(&self, pos: &Position, m: &Move) -> Candidate {
        let piece = pos.get(m.from).expect("a piece on the origin");
        let display = self.display(pos, m);
        let mut forms = vec![
            self.coordinate(pos, m),
            self.game_courier(pos, m),
            display.clone(),
        ];
        if piece.kind == SPEAR && m.kind == MoveKind::Normal && m.piece.is_none() {
            if m.tag == piece.state || m.to == TRAP {
                // Keeping the direction may be said explicitly, and the
                // unlabelled Game Courier move keeps it too.
                forms.push(format!(
                    "{}{}{}",
                    m.from, m.to, DIR_MARKS[piece.state as usize]
                ));
                forms.push(format!("{}-{}", m.from, m.to));
            } else {
                forms.push(format!(
                    "{}-{}; {}*{}",
                    m.from,
                    m.to,
                    Maohopper::gc_spear(piece.color, m.tag),
                    m.to
                ));
            }
        }
        Candidate {
            from: Some(m.from),
            to: m.to,
            letter: LETTERS[piece.kind as usize],
            pawn: false,
            capture: pos
                .get(m.to)
                .is_some_and(|p| p.color == piece.color.opponent())
                && m.kind == MoveKind::Normal,
            // A turn in place is a Game Courier drop of the new label.
            drop: m.kind == MoveKind::Special,
            promotion: m.piece.map(|p| LETTERS[p.kind as usize]),
            castle: None,
            forms,
            display,
        }
    }

    fn read_move(&self, pos: &Position, legal: &[Move], text: &str) -> Result<Move, MoveError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(MoveError::Empty);
        }
        if text.chars().count() > 200 {
            return Err(MoveError::Syntax {
                input: text.chars().take(40).collect::<String>() + "…",
                reason: "the text is far too long for a move".into(),
            });
        }
        // Every exact form names the origin square, so only moves whose
        // origin appears in the text need their forms written out.
        let key = squeeze(text);
        let hits: Vec<usize> = (0..legal.len())
            .filter(|&i| legal[i].from.is_named_in(&key))
            .filter(|&i| {
                self.candidate(pos, &legal[i])
                    .forms
                    .iter()
                    .any(|f| squeeze(f) == key)
            })
            .collect();
        if hits.len() == 1 {
            return Ok(legal[hits[0]]);
        }
        let cands: Vec<Candidate> = legal.iter().map(|m| self.candidate(pos, m)).collect();
        if has_spear_label(text) {
            return Err(self.spear_label_error(pos, text, &cands));
        }
        let explain = MaoExplain { pos };
        notation::read_move(text, &cands, &explain).map(|i| legal[i])
    }

    /// A Game Courier Spear move (`SM4! e3-f4`, `SM7!*e3`) that is not legal.
    fn spear_label_error(&self, pos: &Position, text: &str, cands: &[Candidate]) -> MoveError {
        let squares = squares_in(&strip_spear_labels(text));
        let Some(&sq) = squares.first() else {
            return MoveError::Syntax {
                input: text.to_string(),
                reason: "a Spear label must be followed by a move such as “SM! e3-e4” or a turn such as “SM4!*e3”.".into(),
            };
        };
        let illegal = |reason: String, alternatives: Vec<String>| MoveError::Illegal {
            input: text.to_string(),
            reason,
            alternatives,
        };
        if !self.geometry.contains(sq) {
            return illegal(format!("{sq} is not a square of this board."), vec![]);
        }
        match pos.get(sq) {
            Some(p) if p.kind == SPEAR && p.color == pos.side => {
                let own: Vec<String> = cands
                    .iter()
                    .filter(|c| c.from == Some(sq))
                    .map(|c| c.display.clone())
                    .collect();
                illegal(
                    format!(
                        "the Spear on {sq} points {} ({}); it steps only that way, and a turn must choose another direction.",
                        DIR_WORDS[p.state as usize % 3],
                        Maohopper::gc_spear(p.color, p.state)
                    ),
                    own,
                )
            }
            _ => illegal(format!("there is no Spear of yours on {sq}."), vec![]),
        }
    }
}

/// Reads one FEN piece token (see the module documentation).
fn read_piece(chars: &mut Peekable<Chars<'_>>) -> Result<Piece, FenError> {
    let c = chars.next().expect("called on a character");
    if c == 'O' || c == 'o' {
        return Ok(Piece::new(STONE, Color::Neutral));
    }
    let kind = if c.is_ascii_alphabetic() {
        LETTERS[..STONE as usize]
            .iter()
            .position(|&l| l == c.to_ascii_uppercase())
    } else {
        None
    };
    let kind =
        kind.ok_or_else(|| FenError::Syntax(format!("“{c}” is not a piece of this variant")))?;
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    let mut piece = Piece::new(kind as Kind, color);
    if let Some(&mark) = chars.peek() {
        if let Some(dir) = DIR_MARKS.iter().position(|&d| d == mark) {
            if piece.kind != SPEAR {
                return Err(FenError::Syntax(format!(
                    "“{mark}” (a direction) may only follow a Spear, not “{c}”"
                )));
            }
            chars.next();
            piece.state = dir as u8;
        }
    }
    Ok(piece)
}

fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

fn has_spear_label(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    ["sm!", "sm4!", "sm7!"].iter().any(|l| t.contains(l))
}

fn strip_spear_labels(text: &str) -> String {
    let mut t = text.to_ascii_lowercase();
    for l in ["sm4!", "sm7!", "sm!"] {
        t = t.replace(l, " ");
    }
    t
}

/// Square names in a text, in order (a letter and one or two digits not
/// glued to other letters or digits).
fn squares_in(text: &str) -> Vec<Square> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = b[i].is_ascii_lowercase() && (i == 0 || !b[i - 1].is_ascii_alphanumeric());
        if starts {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() && j - i <= 2 {
                j += 1;
            }
            let ends = j == b.len() || !b[j].is_ascii_alphanumeric();
            if j > i + 1 && ends {
                if let Some(sq) = Square::parse(&text[i..j]) {
                    out.push(sq);
                }
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

struct MaoExplain<'a> {
    pos: &'a Position,
}

impl Explain for MaoExplain<'_> {
    fn piece_on(&self, sq: Square) -> Option<(bool, String)> {
        if !self.on_board(sq) {
            return None;
        }
        let p = self.pos.get(sq)?;
        Some((p.color == self.pos.side, NAMES[p.kind as usize].to_string()))
    }
    fn on_board(&self, sq: Square) -> bool {
        sq.file() < 9 && sq.rank() < 9
    }
    fn piece_name(&self, letter: char) -> String {
        match LETTERS.iter().position(|&l| l == letter) {
            Some(k) => NAMES[k].to_string(),
            None => format!("“{letter}”"),
        }
    }
    fn why_not(&self, from: Option<Square>, to: Option<Square>) -> Option<String> {
        let pos = self.pos;
        let mover = from.filter(|&s| self.on_board(s)).and_then(|s| pos.get(s));
        if let Some(p) = mover {
            if p.kind == FLAG {
                return Some("the Flag never moves.".into());
            }
        }
        let to = to.filter(|&s| self.on_board(s))?;
        let target = pos.get(to);
        match (mover, target) {
            (_, Some(t)) if t.kind == STONE => {
                if mover.is_some_and(|p| p.kind == MASON) {
                    Some("the Stones cannot be pushed there: the square beyond the last Stone must exist and be empty.".into())
                } else {
                    Some(
                        "Stones cannot be captured, and only a Mason moves them (by pushing)."
                            .into(),
                    )
                }
            }
            (_, Some(t)) if t.color == pos.side => {
                Some("you cannot capture your own piece.".into())
            }
            (Some(p), Some(_)) if p.kind == MASON => Some("a Mason cannot capture.".into()),
            _ => None,
        }
    }
}

impl Variant for Maohopper {
    fn id(&self) -> &'static str {
        "maohopper"
    }
    fn name(&self) -> &'static str {
        "Maohopper Chess"
    }
    fn geometry(&self) -> &Geometry {
        &self.geometry
    }
    fn start_fen(&self) -> &'static str {
        START
    }
    fn rules_text(&self) -> &'static str {
        RULES
    }
    fn piece_label(&self, piece: Piece) -> PieceLabel {
        let direction = (piece.kind == SPEAR).then(|| {
            let base: i16 = if piece.color == Color::Black { 180 } else { 0 };
            let turn: i16 = match piece.state {
                RIGHT => 45,
                LEFT => -45,
                _ => 0,
            };
            (base + turn).rem_euclid(360)
        });
        PieceLabel {
            symbol: String::new(),
            letter: Maohopper::token(piece),
            name: NAMES.get(piece.kind as usize).unwrap_or(&"?").to_string(),
            direction,
        }
    }
    fn parse_fen(&self, fen: &str) -> Result<Position, FenError> {
        self.read(fen)
    }
    fn fen(&self, pos: &Position) -> String {
        self.write(pos)
    }
    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        self.generate(pos)
    }
    fn play(&self, pos: &Position, mv: &Move) -> Position {
        self.apply(pos, mv)
    }
    fn outcome(&self, pos: &Position, legal: &[Move]) -> Option<Outcome> {
        let them = pos.side.opponent();
        if pos.royal[pos.side.index()].is_none() {
            Some(Outcome::win(them, Reason::FlagCaptured))
        } else if legal.is_empty() {
            // A player with no legal move (repetitions excluded) loses.
            Some(Outcome::win(them, Reason::Stalemate))
        } else {
            None
        }
    }
    fn repetition_rule(&self) -> RepetitionRule {
        RepetitionRule::AnyRepeatIllegal
    }
    /// The board (Spear directions included) and the side to move; the move
    /// number is left out, and nothing else varies in this variant.
    /// The move counters are not part of [`Position::hash`], so the hash is
    /// the key as it stands (a copy with them reset, as this once made, was
    /// a fifth of the rules work per Maohopper move: the rule tries every
    /// legal move).
    fn repetition_key(&self, pos: &Position) -> u64 {
        pos.hash()
    }
    fn format_move(&self, pos: &Position, mv: &Move, notation: Notation) -> String {
        match notation {
            Notation::Coordinate => self.coordinate(pos, mv),
            Notation::GameCourier => self.game_courier(pos, mv),
            Notation::Display => self.display(pos, mv),
        }
    }
    fn parse_move(&self, pos: &Position, legal: &[Move], text: &str) -> Result<Move, MoveError> {
        self.read_move(pos, legal, text)
    }
    fn marked_squares(&self) -> Vec<(Square, &'static str)> {
        vec![(TRAP, "trap")]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_fen_round_trips() {
        let v = Maohopper::new();
        let pos = v.read(START).unwrap();
        assert_eq!(v.write(&pos), START);
    }

    #[test]
    fn spear_vectors_from_the_owners_view() {
        assert_eq!(spear_vector(Color::White, RIGHT), (1, 1));
        assert_eq!(spear_vector(Color::White, LEFT), (-1, 1));
        assert_eq!(spear_vector(Color::Black, RIGHT), (-1, -1));
        assert_eq!(spear_vector(Color::Black, LEFT), (1, -1));
        assert_eq!(spear_vector(Color::Black, STRAIGHT), (0, -1));
    }

    #[test]
    fn squares_found_in_text() {
        assert_eq!(
            squares_in(" e3-e4;  *e4"),
            vec![
                Square::parse("e3").unwrap(),
                Square::parse("e4").unwrap(),
                Square::parse("e4").unwrap()
            ]
        );
        assert!(squares_in("xyz e").is_empty());
    }
}
