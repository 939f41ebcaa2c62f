//! Movement primitives shared by every piece: leapers, riders, lame leapers
//! and hoppers, each with a move/capture modality and oriented for the
//! side that owns the piece. Pieces are data: a list of [`Atom`]s, which
//! can be written in a Betza-style description (`"mfWcfF"`, `"nN"`, `"AD"`).

pub(crate) mod equihop;

use crate::geometry::Square;
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;

/// Whether an atom may move to an empty square, capture, or both.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Mode {
    pub quiet: bool,
    pub capture: bool,
}

impl Mode {
    pub(crate) const BOTH: Mode = Mode {
        quiet: true,
        capture: true,
    };
    pub(crate) const QUIET: Mode = Mode {
        quiet: true,
        capture: false,
    };
    pub(crate) const CAPTURE: Mode = Mode {
        quiet: false,
        capture: true,
    };
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum AtomKind {
    /// Jump straight to `(dx, dy)`; holes and pieces between do not matter.
    Leap,
    /// Slide by `(dx, dy)` repeatedly, up to `range` steps (0 = unlimited),
    /// through empty squares; a hole stops it.
    Ride { range: u8 },
    /// Leap to `(dx, dy)` unless the square at `via` (relative to the start)
    /// is occupied or a hole.
    Lame { via: (i8, i8) },
    /// Grasshopper: slide over empty squares to the first piece, land on the
    /// square just beyond it.
    Grasshopper,
    /// Cannon: moves as a rider, captures by hopping exactly one piece and
    /// taking the first piece beyond it.
    Cannon,
}

/// One direction of one movement primitive.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Atom {
    pub kind: AtomKind,
    pub dx: i8,
    pub dy: i8,
    pub mode: Mode,
}

impl Atom {
    /// The same atom as seen by Black (forward is down the board).
    pub(crate) fn flipped(self) -> Atom {
        let kind = match self.kind {
            AtomKind::Lame { via } => AtomKind::Lame {
                via: (via.0, -via.1),
            },
            k => k,
        };
        Atom {
            kind,
            dx: self.dx,
            dy: -self.dy,
            mode: self.mode,
        }
    }
}

/// The distinct images of `(dx, dy)` under the 8 board symmetries.
pub(crate) fn symmetric(dx: i8, dy: i8) -> Vec<(i8, i8)> {
    let mut out: Vec<(i8, i8)> = Vec::new();
    for (a, b) in [(dx, dy), (dy, dx)] {
        for (sa, sb) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let v = (a * sa, b * sb);
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// Error in a piece description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BetzaError(pub String);

/// Parse a Betza-style description into atoms (White's orientation).
///
/// Supported: atoms `W F D N A H C Z G K Q R B` (a doubled letter rides:
/// `WW` = rook, `NN` = nightrider; a digit after an atom limits the ride),
/// prefixes `m` (move only), `c` (capture only), `f b l r v s` (direction
/// filters, united), `n` (lame: blocked at the first step), `g` (grasshopper),
/// `p` (cannon).
pub(crate) fn parse_betza(text: &str) -> Result<Vec<Atom>, BetzaError> {
    let mut atoms = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let mut mods = String::new();
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            mods.push(chars[i]);
            i += 1;
        }
        let Some(&letter) = chars.get(i) else {
            return Err(BetzaError(format!(
                "modifiers “{mods}” without an atom in “{text}”"
            )));
        };
        i += 1;
        let (base, implied_ride): (Vec<(i8, i8)>, Option<u8>) = match letter {
            'W' => (vec![(0, 1)], None),
            'F' => (vec![(1, 1)], None),
            'D' => (vec![(0, 2)], None),
            'N' => (vec![(1, 2)], None),
            'A' => (vec![(2, 2)], None),
            'H' => (vec![(0, 3)], None),
            'C' => (vec![(1, 3)], None),
            'Z' => (vec![(2, 3)], None),
            'G' => (vec![(3, 3)], None),
            'K' => (vec![(0, 1), (1, 1)], None),
            'R' => (vec![(0, 1)], Some(0)),
            'B' => (vec![(1, 1)], Some(0)),
            'Q' => (vec![(0, 1), (1, 1)], Some(0)),
            other => return Err(BetzaError(format!("unknown atom “{other}” in “{text}”"))),
        };
        let mut ride = implied_ride;
        if ride.is_none() && chars.get(i) == Some(&letter) {
            ride = Some(0);
            i += 1;
        }
        if let Some(d) = chars.get(i).and_then(|c| c.to_digit(10)) {
            ride = Some(d as u8);
            i += 1;
        }
        let mut mode = Mode::BOTH;
        let (mut lame, mut grass, mut cannon) = (false, false, false);
        let mut dirs = String::new();
        for m in mods.chars() {
            match m {
                'm' => mode = Mode::QUIET,
                'c' => mode = Mode::CAPTURE,
                'n' => lame = true,
                'g' => grass = true,
                'p' => cannon = true,
                'f' | 'b' | 'l' | 'r' | 'v' | 's' => dirs.push(m),
                other => {
                    return Err(BetzaError(format!(
                        "unknown modifier “{other}” in “{text}”"
                    )))
                }
            }
        }
        for (bx, by) in base {
            for (dx, dy) in symmetric(bx, by) {
                if !dirs.is_empty() && !dirs.chars().any(|d| direction_matches(d, dx, dy)) {
                    continue;
                }
                let kind = if grass {
                    AtomKind::Grasshopper
                } else if cannon {
                    AtomKind::Cannon
                } else if let Some(range) = ride {
                    AtomKind::Ride { range }
                } else if lame {
                    AtomKind::Lame {
                        via: first_step(dx, dy),
                    }
                } else {
                    AtomKind::Leap
                };
                atoms.push(Atom { kind, dx, dy, mode });
            }
        }
    }
    Ok(atoms)
}

fn direction_matches(d: char, dx: i8, dy: i8) -> bool {
    match d {
        'f' => dy > 0,
        'b' => dy < 0,
        'l' => dx < 0,
        'r' => dx > 0,
        'v' => dy.abs() > dx.abs(),
        's' => dx.abs() > dy.abs(),
        _ => false,
    }
}

/// The square a lame leaper must pass: one orthogonal step along the longer
/// component for oblique leaps, one step along the line otherwise.
fn first_step(dx: i8, dy: i8) -> (i8, i8) {
    if dx.abs() == dy.abs() || dx == 0 || dy == 0 {
        (dx.signum(), dy.signum())
    } else if dy.abs() > dx.abs() {
        (0, dy.signum())
    } else {
        (dx.signum(), 0)
    }
}

/// A piece type: its letter, name and movement.
#[derive(Clone, Debug)]
pub(crate) struct PieceDef {
    pub letter: char,
    pub name: &'static str,
    pub atoms: Vec<Atom>,
    pub royal: bool,
}

impl PieceDef {
    pub(crate) fn new(letter: char, name: &'static str, betza: &str) -> PieceDef {
        PieceDef {
            letter,
            name,
            atoms: parse_betza(betza).expect("valid built-in piece description"),
            royal: false,
        }
    }
    pub(crate) fn royal(mut self) -> PieceDef {
        self.royal = true;
        self
    }
}

/// A variant's piece table with the movement tables derived from it.
#[derive(Clone, Debug)]
pub(crate) struct PieceSet {
    pub defs: Vec<PieceDef>,
    /// Atoms per colour and kind, already oriented.
    oriented: [Vec<Vec<Atom>>; 2],
    /// Capturing atoms per colour, merged over kinds: atom and kind bitmask.
    attackers: [Vec<(Atom, u32)>; 2],
    /// Per colour: the step vectors of its capturing riders (lines along
    /// which a piece can be pinned), and whether any capture depends on
    /// other squares in a way a move could open (lame leapers, hoppers).
    ride_vectors: [Vec<(i8, i8)>; 2],
    indirect: [bool; 2],
}

impl PieceSet {
    pub(crate) fn new(defs: Vec<PieceDef>) -> PieceSet {
        assert!(defs.len() <= 32);
        let white: Vec<Vec<Atom>> = defs.iter().map(|d| d.atoms.clone()).collect();
        let black: Vec<Vec<Atom>> = white
            .iter()
            .map(|a| a.iter().map(|x| x.flipped()).collect())
            .collect();
        let attackers = [merge_attackers(&white), merge_attackers(&black)];
        let ride_vectors = [ride_vectors(&attackers[0]), ride_vectors(&attackers[1])];
        let indirect = [indirect(&attackers[0]), indirect(&attackers[1])];
        PieceSet {
            defs,
            oriented: [white, black],
            attackers,
            ride_vectors,
            indirect,
        }
    }
    pub(crate) fn def(&self, kind: Kind) -> &PieceDef {
        &self.defs[kind as usize]
    }
    pub(crate) fn kind_of_letter(&self, letter: char) -> Option<Kind> {
        let up = letter.to_ascii_uppercase();
        self.defs
            .iter()
            .position(|d| d.letter == up)
            .map(|k| k as Kind)
    }
    pub(crate) fn atoms(&self, color: Color, kind: Kind) -> &[Atom] {
        &self.oriented[color.index()][kind as usize]
    }

    /// Every target of the piece on `from` by its atoms: `(target, captures)`.
    #[inline]
    pub(crate) fn targets(
        &self,
        pos: &Position,
        from: Square,
        piece: Piece,
        mut f: impl FnMut(Square, bool),
    ) {
        for atom in self.atoms(piece.color, piece.kind) {
            atom_targets(pos, from, piece.color, atom, &mut f);
        }
    }

    /// Whether moving a piece of the other side away from `from` might
    /// expose `target` to a piece of `by`: true when `from` lies on one of
    /// `by`'s rider lines towards `target`, or when `by` has lame leapers or
    /// hoppers (whose attacks other squares can open or close).
    pub(crate) fn may_uncover(&self, by: Color, target: Square, from: Square) -> bool {
        if self.indirect[by.index()] {
            return true;
        }
        let fx = from.file() as i16 - target.file() as i16;
        let fy = from.rank() as i16 - target.rank() as i16;
        self.ride_vectors[by.index()].iter().any(|&(ax, ay)| {
            // The rider moves by (ax, ay) towards the target, so `from`
            // must be `target - j * (ax, ay)` for some j >= 1.
            let (ax, ay) = (-(ax as i16), -(ay as i16));
            let j = if ax != 0 { fx / ax } else { fy / ay };
            j >= 1 && fx == j * ax && fy == j * ay
        })
    }

    /// Whether any piece of `by` attacks `sq` with the table's atoms.
    pub(crate) fn attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        self.attackers_of(pos, sq, by, |_| true)
    }

    /// Whether a piece of `by` that `accept` agrees to attacks `sq`.
    pub(crate) fn attackers_of(
        &self,
        pos: &Position,
        sq: Square,
        by: Color,
        mut accept: impl FnMut(Square) -> bool,
    ) -> bool {
        let is_attacker = |s: Square, mask: u32| matches!(pos.get(s), Some(p) if p.color == by && mask >> p.kind & 1 == 1);
        for &(atom, mask) in &self.attackers[by.index()] {
            let (dx, dy) = (-atom.dx, -atom.dy);
            match atom.kind {
                AtomKind::Leap => {
                    if let Some(o) = pos.step(sq, dx, dy) {
                        if is_attacker(o, mask) && accept(o) {
                            return true;
                        }
                    }
                }
                AtomKind::Lame { via } => {
                    if let Some(o) = pos.step(sq, dx, dy) {
                        if is_attacker(o, mask) {
                            if let Some(v) = pos.step(o, via.0, via.1) {
                                if pos.get(v).is_none() && accept(o) {
                                    return true;
                                }
                            }
                        }
                    }
                }
                AtomKind::Ride { range } => {
                    let mut cur = sq;
                    let mut n = 0;
                    while let Some(next) = pos.step(cur, dx, dy) {
                        n += 1;
                        if range != 0 && n > range {
                            break;
                        }
                        if pos.get(next).is_some() {
                            if is_attacker(next, mask) && accept(next) {
                                return true;
                            }
                            break;
                        }
                        cur = next;
                    }
                }
                AtomKind::Grasshopper => {
                    let Some(screen) = pos.step(sq, dx, dy) else {
                        continue;
                    };
                    if pos.get(screen).is_none() {
                        continue;
                    }
                    let mut cur = screen;
                    while let Some(next) = pos.step(cur, dx, dy) {
                        if pos.get(next).is_some() {
                            if is_attacker(next, mask) && accept(next) {
                                return true;
                            }
                            break;
                        }
                        cur = next;
                    }
                }
                AtomKind::Cannon => {
                    let mut cur = sq;
                    let mut screened = false;
                    while let Some(next) = pos.step(cur, dx, dy) {
                        if pos.get(next).is_some() {
                            if screened {
                                if is_attacker(next, mask) && accept(next) {
                                    return true;
                                }
                                break;
                            }
                            screened = true;
                        }
                        cur = next;
                    }
                }
            }
        }
        false
    }
}

fn ride_vectors(attackers: &[(Atom, u32)]) -> Vec<(i8, i8)> {
    attackers
        .iter()
        .filter(|(a, _)| matches!(a.kind, AtomKind::Ride { .. }))
        .map(|(a, _)| (a.dx, a.dy))
        .collect()
}

fn indirect(attackers: &[(Atom, u32)]) -> bool {
    attackers
        .iter()
        .any(|(a, _)| !matches!(a.kind, AtomKind::Ride { .. } | AtomKind::Leap))
}

fn merge_attackers(per_kind: &[Vec<Atom>]) -> Vec<(Atom, u32)> {
    let mut merged: Vec<(Atom, u32)> = Vec::new();
    for (kind, atoms) in per_kind.iter().enumerate() {
        for a in atoms.iter().filter(|a| a.mode.capture) {
            let key = Atom {
                mode: Mode::CAPTURE,
                ..*a
            };
            match merged.iter_mut().find(|(m, _)| *m == key) {
                Some((_, mask)) => *mask |= 1 << kind,
                None => merged.push((key, 1 << kind)),
            }
        }
    }
    merged
}

/// Targets of one atom for a piece of `color` on `from`.
#[inline]
pub(crate) fn atom_targets<F: FnMut(Square, bool)>(
    pos: &Position,
    from: Square,
    color: Color,
    atom: &Atom,
    f: &mut F,
) {
    #[inline(always)]
    fn land(pos: &Position, color: Color, mode: Mode, t: Square, f: &mut impl FnMut(Square, bool)) {
        match pos.get(t) {
            None => {
                if mode.quiet {
                    f(t, false)
                }
            }
            Some(p) => {
                if mode.capture && p.color != color && p.color != Color::Neutral {
                    f(t, true)
                }
            }
        }
    }
    let land = |t: Square, f: &mut F| land(pos, color, atom.mode, t, f);
    match atom.kind {
        AtomKind::Leap => {
            if let Some(t) = pos.step(from, atom.dx, atom.dy) {
                land(t, f);
            }
        }
        AtomKind::Lame { via } => {
            if let Some(v) = pos.step(from, via.0, via.1) {
                if pos.get(v).is_none() {
                    if let Some(t) = pos.step(from, atom.dx, atom.dy) {
                        land(t, f);
                    }
                }
            }
        }
        AtomKind::Ride { range } => {
            let mut cur = from;
            let mut n = 0;
            while let Some(t) = pos.step(cur, atom.dx, atom.dy) {
                n += 1;
                if range != 0 && n > range {
                    break;
                }
                let occupied = pos.get(t).is_some();
                land(t, f);
                if occupied {
                    break;
                }
                cur = t;
            }
        }
        AtomKind::Grasshopper => {
            let mut cur = from;
            while let Some(t) = pos.step(cur, atom.dx, atom.dy) {
                if pos.get(t).is_some() {
                    if let Some(beyond) = pos.step(t, atom.dx, atom.dy) {
                        land(beyond, f);
                    }
                    break;
                }
                cur = t;
            }
        }
        AtomKind::Cannon => {
            let mut cur = from;
            let mut screened = false;
            while let Some(t) = pos.step(cur, atom.dx, atom.dy) {
                match (pos.get(t), screened) {
                    (None, false) => {
                        if atom.mode.quiet {
                            f(t, false)
                        }
                    }
                    (Some(_), false) => screened = true,
                    (None, true) => {}
                    (Some(p), true) => {
                        if atom.mode.capture && p.color != color && p.color != Color::Neutral {
                            f(t, true);
                        }
                        break;
                    }
                }
                cur = t;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;

    fn count(betza: &str, at: &str) -> usize {
        let g = Geometry::rect(8, 8);
        let pos = Position::empty(&g);
        let set = PieceSet::new(vec![PieceDef::new('X', "x", betza)]);
        let mut n = 0;
        set.targets(
            &pos,
            Square::parse(at).unwrap(),
            Piece::new(0, Color::White),
            |_, _| n += 1,
        );
        n
    }

    #[test]
    fn betza_counts_on_empty_board() {
        assert_eq!(count("N", "d4"), 8);
        assert_eq!(count("N", "a1"), 2);
        assert_eq!(count("Q", "d4"), 27);
        assert_eq!(count("R", "a1"), 14);
        assert_eq!(count("K", "e4"), 8);
        assert_eq!(count("fR", "a1"), 7);
        assert_eq!(count("mfWcfF", "e2"), 1);
        assert_eq!(count("AD", "d4"), 8);
        assert_eq!(count("GH", "d4"), 8);
        assert_eq!(count("Z", "d4"), 8);
        assert_eq!(count("NN", "a1"), 3 + 3);
        assert_eq!(count("R2", "a1"), 4);
    }

    #[test]
    fn symmetries_of_a_leap() {
        assert_eq!(symmetric(1, 2).len(), 8);
        assert_eq!(symmetric(0, 1).len(), 4);
    }

    #[test]
    fn bad_betza_is_an_error() {
        assert!(parse_betza("X").is_err());
        assert!(parse_betza("mf").is_err());
        assert!(parse_betza("qN").is_err());
    }
}
