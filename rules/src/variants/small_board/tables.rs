//! What a chess-like variant's piece table and rules mean on a board of at
//! most 8x8, worked out once as bitboards: each piece's leaps per square,
//! its rides as rays, the reverse tables attack detection reads, castling
//! masks.

use super::{bit, Bitboard, MAX_KINDS};
use crate::geometry::{Geometry, Square, SquareSet};
use crate::movement::{AtomKind, PieceSet};
use crate::piece::{Color, Kind};
use crate::variants::castling::Castling;

/// One ride of a piece: along `rays[ray]`, stopping at the first piece.
#[derive(Copy, Clone, Debug)]
pub(super) struct Ride {
    /// The ray (range-limited if the rider is) from each square.
    pub ray: usize,
    /// The unlimited ray in the same direction: what lies beyond a blocker.
    pub beyond: usize,
    /// Whether the squares of the ray have increasing indices, so that the
    /// first blocker is the lowest set bit.
    pub up: bool,
    pub quiet: bool,
    pub capture: bool,
}

/// Rides of one colour's capturing riders seen backwards from a target: a
/// piece of `kinds` that is the first piece along `ride` attacks the target.
#[derive(Copy, Clone, Debug)]
pub(super) struct RideAttack {
    pub ride: Ride,
    pub kinds: u8,
}

/// One castling, by bit index.
#[derive(Copy, Clone, Debug)]
pub(super) struct CastleRule {
    pub color: u8,
    pub bit: u8,
    pub king_from: u8,
    pub king_to: u8,
    pub partner_from: u8,
    pub partner_to: u8,
    /// Squares that must be empty (the King's and partner's own excepted).
    pub empty: Bitboard,
    /// Squares that must not be attacked.
    pub safe: Bitboard,
}

/// What the tables are worked out from: a chess-like variant's board,
/// pieces and rules (`ChessLike`'s settings, lent).
pub(crate) struct Rules<'a> {
    pub geometry: &'a Geometry,
    pub pieces: &'a PieceSet,
    pub pawn: Kind,
    pub king: Kind,
    pub promotions: &'a [Kind],
    /// Relative rank of the pawn's double step, if any.
    pub double_step_rank: Option<u8>,
    pub compulsory_capture: bool,
    pub bare_king_loses: bool,
    pub castlings: &'a [Castling],
}

pub(crate) struct Tables {
    /// The variant's holes: a position with others is not modelled.
    pub(super) holes: SquareSet,
    /// Playable squares: inside the board and not a hole.
    pub(super) valid: Bitboard,
    pub(super) kinds: usize,
    pub(super) pawn: u8,
    pub(super) king: u8,
    pub(super) promotions: Vec<u8>,
    /// Relative rank of the pawn's double step, if any.
    pub(super) double_step_rank: Option<u8>,
    pub(super) last_rank: u8,
    pub(super) compulsory_capture: bool,
    pub(super) bare_king_loses: bool,
    /// Per `colour * MAX_KINDS + kind`: leap targets by square.
    pub(super) leap_quiet: Vec<[Bitboard; 64]>,
    pub(super) leap_capture: Vec<[Bitboard; 64]>,
    /// Per `colour * MAX_KINDS + kind`: the squares from which a piece of
    /// that colour and kind attacks each square by a leap.
    pub(super) leap_attackers: Vec<[Bitboard; 64]>,
    /// Kinds of each colour with capturing leaps.
    pub(super) leapers: [Vec<u8>; 2],
    /// Per `colour * MAX_KINDS + kind`.
    pub(super) rides: Vec<Vec<Ride>>,
    /// Per colour: its capturing rides seen from the target.
    pub(super) ride_attacks: [Vec<RideAttack>; 2],
    /// Per colour and square: squares from which a piece of the other side
    /// could, by moving away, uncover an attack of this colour's riders on
    /// that square (the lines of `ride_attacks`).
    pub(super) ride_lines: [[Bitboard; 64]; 2],
    pub(super) rays: Vec<[Bitboard; 64]>,
    pub(super) castles: Vec<CastleRule>,
    /// Castling bits lost when a move starts or ends on each square.
    pub(super) castle_clear: [u8; 64],
}

impl Tables {
    /// The tables for `v`, or `None` when the variant needs what they do
    /// not model (a board over 8x8, more than eight kinds, lame leapers or
    /// hoppers).
    pub(crate) fn new(v: &Rules<'_>) -> Option<Tables> {
        let g = v.geometry;
        let kinds = v.pieces.defs.len();
        if g.width > 8 || g.height > 8 || kinds > MAX_KINDS {
            return None;
        }
        let mut valid = 0;
        for s in g.squares() {
            valid |= bit(to_index(s));
        }
        let mut t = Tables {
            holes: g.holes,
            valid,
            kinds,
            pawn: v.pawn,
            king: v.king,
            promotions: v.promotions.to_vec(),
            double_step_rank: v.double_step_rank,
            last_rank: g.height - 1,
            compulsory_capture: v.compulsory_capture,
            bare_king_loses: v.bare_king_loses,
            leap_quiet: vec![[0; 64]; 2 * MAX_KINDS],
            leap_capture: vec![[0; 64]; 2 * MAX_KINDS],
            leap_attackers: vec![[0; 64]; 2 * MAX_KINDS],
            leapers: [Vec::new(), Vec::new()],
            rides: vec![Vec::new(); 2 * MAX_KINDS],
            ride_attacks: [Vec::new(), Vec::new()],
            ride_lines: [[0; 64]; 2],
            rays: Vec::new(),
            castles: Vec::new(),
            castle_clear: [0; 64],
        };
        let mut ray_ids: Vec<(i8, i8, u8)> = Vec::new();
        for color in [Color::White, Color::Black] {
            let c = color.index();
            for kind in 0..kinds {
                let slot = c * MAX_KINDS + kind;
                for atom in v.pieces.atoms(color, kind as u8) {
                    match atom.kind {
                        AtomKind::Leap => {
                            for s in g.squares() {
                                let Some(to) = step(v, s, atom.dx, atom.dy) else {
                                    continue;
                                };
                                let (from, to) = (to_index(s), to_index(to));
                                if atom.mode.quiet {
                                    t.leap_quiet[slot][from] |= bit(to);
                                }
                                if atom.mode.capture {
                                    t.leap_capture[slot][from] |= bit(to);
                                    t.leap_attackers[slot][to] |= bit(from);
                                }
                            }
                            if atom.mode.capture && !t.leapers[c].contains(&(kind as u8)) {
                                t.leapers[c].push(kind as u8);
                            }
                        }
                        AtomKind::Ride { range } => {
                            let mut ride = t.ride(v, &mut ray_ids, atom.dx, atom.dy, range);
                            ride.quiet = atom.mode.quiet;
                            ride.capture = atom.mode.capture;
                            t.rides[slot].push(ride);
                            if atom.mode.capture {
                                let back = t.ride(v, &mut ray_ids, -atom.dx, -atom.dy, range);
                                match t.ride_attacks[c]
                                    .iter_mut()
                                    .find(|a| a.ride.ray == back.ray)
                                {
                                    Some(a) => a.kinds |= 1 << kind,
                                    None => t.ride_attacks[c].push(RideAttack {
                                        ride: back,
                                        kinds: 1 << kind,
                                    }),
                                }
                                for s in 0..64 {
                                    t.ride_lines[c][s] |= t.rays[back.beyond][s];
                                }
                            }
                        }
                        _ => return None,
                    }
                }
            }
        }
        for r in v.castlings {
            let idx = |s: Square| to_index(s) as u8;
            let mask = |squares: &[Square]| squares.iter().fold(0, |m, &s| m | bit(to_index(s)));
            t.castles.push(CastleRule {
                color: r.color.index() as u8,
                bit: r.bit,
                king_from: idx(r.king_from),
                king_to: idx(r.king_to),
                partner_from: idx(r.partner_from),
                partner_to: idx(r.partner_to),
                empty: mask(&r.empty)
                    & !bit(to_index(r.king_from))
                    & !bit(to_index(r.partner_from)),
                safe: mask(&r.safe),
            });
            t.castle_clear[to_index(r.king_from)] |= r.bit;
            t.castle_clear[to_index(r.partner_from)] |= r.bit;
        }
        Some(t)
    }

    /// A ride by `(dx, dy)` up to `range` steps (0: unlimited), its rays
    /// added to the table on first use.
    fn ride(
        &mut self,
        v: &Rules<'_>,
        ids: &mut Vec<(i8, i8, u8)>,
        dx: i8,
        dy: i8,
        range: u8,
    ) -> Ride {
        let mut ray = |range: u8| -> usize {
            if let Some(i) = ids.iter().position(|&k| k == (dx, dy, range)) {
                return i;
            }
            let mut table = [0; 64];
            for s in v.geometry.squares() {
                let mut cur = s;
                let mut n = 0;
                while let Some(next) = step(v, cur, dx, dy) {
                    n += 1;
                    if range != 0 && n > range {
                        break;
                    }
                    table[to_index(s)] |= bit(to_index(next));
                    cur = next;
                }
            }
            ids.push((dx, dy, range));
            self.rays.push(table);
            ids.len() - 1
        };
        Ride {
            ray: ray(range),
            beyond: ray(0),
            up: dx as i16 + 8 * dy as i16 > 0,
            quiet: true,
            capture: true,
        }
    }
}

/// The playable square `(dx, dy)` from `s` on the variant's board (none off
/// the board or on one of its holes), as `Position::step` finds it.
fn step(v: &Rules<'_>, s: Square, dx: i8, dy: i8) -> Option<Square> {
    let g = v.geometry;
    s.offset(dx, dy, g.width, g.height)
        .filter(|t| !g.holes.contains(*t))
}

/// Bit index of a square: `file + 8 * rank`.
#[inline]
pub(super) fn to_index(s: Square) -> usize {
    s.file() as usize + 8 * s.rank() as usize
}

/// The square of a bit index.
#[inline]
pub(super) fn to_square(i: u8) -> Square {
    Square::new(i & 7, i >> 3)
}
