//! Betza's funny notation as Fairy-Stockfish reads it (`piece.cpp`):
//! leapers `W F D N A H C/L Z/J G K`, riders `R B Q` and doubled or
//! numbered atoms (`NN`, `W3`), modifiers `m` (move only), `c` (capture
//! only), `p` (cannon-like hop), `g` (grasshopper), `n` (lame leaper), `i`
//! (initial move, from the double-step region) and the directions
//! `f b l r v s h` alone or in pairs (`fs`, `lf`, `ff`).

use std::collections::BTreeMap;

/// How a move along one direction goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Reach {
    /// One jump to `from + d`.
    Leap,
    /// One jump, blocked by a piece on the way (Fairy-Stockfish's path).
    Lame,
    /// Repeated steps while squares are empty; `0` means no limit.
    Ride(u8),
    /// Over exactly one piece, then any distance to an empty square or the
    /// first piece beyond (cannon).
    Hop,
    /// Over the first piece to the square right behind it (grasshopper).
    Grasshop,
}

/// One direction of a piece's movement, as White sees it: `dr` ranks up,
/// `df` files right (Black's moves are turned by 180 degrees).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Atom {
    pub(crate) dr: i8,
    pub(crate) df: i8,
    pub(crate) reach: Reach,
    pub(crate) quiet: bool,
    pub(crate) capture: bool,
}

/// A piece's movement: moves it always has, and those it has only from
/// the double-step region (`i`, never captures, as in Fairy-Stockfish).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Movement {
    pub(crate) normal: Vec<Atom>,
    pub(crate) initial: Vec<Atom>,
}

/// A Betza string that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BetzaError(pub(crate) String);

fn leaper(c: char) -> Option<&'static [(i8, i8)]> {
    Some(match c {
        'W' => &[(1, 0)],
        'F' => &[(1, 1)],
        'D' => &[(2, 0)],
        'N' => &[(2, 1)],
        'A' => &[(2, 2)],
        'H' => &[(3, 0)],
        'L' | 'C' => &[(3, 1)],
        'J' | 'Z' => &[(3, 2)],
        'G' => &[(3, 3)],
        'K' => &[(1, 0), (1, 1)],
        _ => return None,
    })
}

fn rider(c: char) -> Option<&'static [(i8, i8)]> {
    Some(match c {
        'R' => &[(1, 0)],
        'B' => &[(1, 1)],
        'Q' => &[(1, 0), (1, 1)],
        _ => return None,
    })
}

const VERTICALS: &str = "fbvh";
const HORIZONTALS: &str = "rlsh";

/// Which kind of table a move lands in: Fairy-Stockfish keeps steps,
/// slides and hops apart, and a later atom overwrites an earlier one for
/// the same direction only within one table.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Table {
    Step,
    Slide,
    Hop,
}

pub(crate) fn parse(betza: &str) -> Result<Movement, BetzaError> {
    // (initial, table, quiet?, dr, df) -> distance as Fairy-Stockfish keeps it.
    let mut map: BTreeMap<(bool, Table, bool, i8, i8), i8> = BTreeMap::new();
    let chars: Vec<char> = betza.chars().collect();
    let mut modalities: Vec<bool> = Vec::new(); // true = quiet
    let (mut hopper, mut lame, mut initial, mut distance) = (false, false, false, 0i8);
    let mut dirs: Vec<(char, char)> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            'm' | 'c' => modalities.push(c == 'm'),
            'p' | 'g' => {
                hopper = true;
                if c == 'g' {
                    distance = 1;
                }
            }
            'n' => lame = true,
            // En passant: Fairy-Stockfish's pawn has it from the variant's
            // settings; its tables ignore the letter.
            'e' => {}
            'i' => initial = true,
            _ if VERTICALS.contains(c) || HORIZONTALS.contains(c) => {
                if let Some(&c2) = chars.get(i + 1) {
                    if c2 == c
                        || (VERTICALS.contains(c) && HORIZONTALS.contains(c2))
                        || (HORIZONTALS.contains(c) && VERTICALS.contains(c2))
                    {
                        dirs.push((c, c2));
                        i += 2;
                        continue;
                    }
                }
                dirs.push((c, c));
            }
            _ => {
                let (atoms, mut is_rider) = match (rider(c), leaper(c)) {
                    (Some(a), _) => (a, true),
                    (None, Some(a)) => (a, false),
                    _ => {
                        return Err(BetzaError(format!(
                            "unknown Betza letter `{c}` in `{betza}`"
                        )))
                    }
                };
                if let Some(&n) = chars.get(i + 1) {
                    if n.is_ascii_digit() || n == c {
                        is_rider = true;
                        if let Some(d) = n.to_digit(10) {
                            distance = d as i8;
                        }
                        i += 1;
                    }
                }
                if !is_rider && lame {
                    distance = -1;
                }
                if hopper && distance > 1 {
                    return Err(BetzaError(format!(
                        "hoppers with a distance limit are not supported (`{betza}`)"
                    )));
                }
                if hopper && !is_rider {
                    return Err(BetzaError(format!(
                        "hopping leapers are not supported (`{betza}`)"
                    )));
                }
                if lame && is_rider {
                    return Err(BetzaError(format!(
                        "lame riders are not supported (`{betza}`)"
                    )));
                }
                if modalities.is_empty() {
                    modalities = vec![true, false];
                }
                let table = if hopper {
                    Table::Hop
                } else if is_rider {
                    Table::Slide
                } else {
                    Table::Step
                };
                for &(a, b) in atoms {
                    let mut directions: Vec<(char, char)> = Vec::new();
                    for &(x, y) in &dirs {
                        if atoms.len() == 1 && b == 0 && x != y {
                            directions.push((x, x));
                            directions.push((y, y));
                        } else {
                            directions.push((x, y));
                        }
                    }
                    let all = directions.is_empty();
                    let has = |set: &[&str]| {
                        all || set.iter().any(|s| {
                            let s: Vec<char> = s.chars().collect();
                            directions.contains(&(s[0], s[1]))
                        })
                    };
                    // (rank, file) offsets, in the order and with the
                    // direction sets of Fairy-Stockfish's from_betza.
                    let cases: [((i8, i8), &[&str]); 8] = [
                        ((a, b), &["ff", "vv", "rf", "rv", "fh", "rh", "hr"]),
                        ((-a, -b), &["bb", "vv", "lb", "lv", "bh", "lh", "hr"]),
                        ((-b, a), &["rr", "ss", "br", "bs", "bh", "rh", "hr"]),
                        ((b, -a), &["ll", "ss", "fl", "fs", "fh", "lh", "hr"]),
                        ((b, a), &["rr", "ss", "fr", "fs", "fh", "rh", "hl"]),
                        ((-b, -a), &["ll", "ss", "bl", "bs", "bh", "lh", "hl"]),
                        ((-a, b), &["bb", "vv", "rb", "rv", "bh", "rh", "hl"]),
                        ((a, -b), &["ff", "vv", "lf", "lv", "fh", "lh", "hl"]),
                    ];
                    for &quiet in &modalities {
                        for ((dr, df), set) in cases {
                            if has(set) {
                                map.insert((initial, table, quiet, dr, df), distance);
                            }
                        }
                    }
                }
                modalities.clear();
                dirs.clear();
                hopper = false;
                lame = false;
                initial = false;
                distance = 0;
            }
        }
        i += 1;
    }
    let mut out = Movement::default();
    for ((init, table, quiet, dr, df), dist) in map {
        // Fairy-Stockfish has no initial captures.
        if init && !quiet {
            continue;
        }
        let reach = match table {
            Table::Step if dist < 0 => Reach::Lame,
            Table::Step => Reach::Leap,
            Table::Slide => Reach::Ride(dist as u8),
            Table::Hop if dist == 1 => Reach::Grasshop,
            Table::Hop => Reach::Hop,
        };
        let list = if init {
            &mut out.initial
        } else {
            &mut out.normal
        };
        if let Some(a) = list.iter_mut().find(|a| {
            a.dr == dr
                && a.df == df
                && a.reach == reach
                && a.quiet != quiet
                && !(a.quiet && a.capture)
        }) {
            a.quiet |= quiet;
            a.capture |= !quiet;
            continue;
        }
        list.push(Atom {
            dr,
            df,
            reach,
            quiet,
            capture: !quiet,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(b: &str) -> (usize, usize) {
        let m = parse(b).unwrap();
        (m.normal.len(), m.initial.len())
    }

    #[test]
    fn standard_pieces() {
        assert_eq!(count("N"), (8, 0));
        assert_eq!(count("Q"), (8, 0));
        assert_eq!(count("K"), (8, 0));
        // Pawn: one quiet step forward, two diagonal captures.
        let p = parse("fmWfceF").unwrap();
        assert_eq!(p.normal.len(), 3);
        assert!(p.normal.iter().all(|a| a.dr == 1));
        // Soldier: forward and sideways steps.
        assert_eq!(count("fsW"), (3, 0));
        assert_eq!(count("ifmnD"), (0, 1));
        let nn = parse("NN").unwrap();
        assert!(nn.normal.iter().all(|a| a.reach == Reach::Ride(0)));
        let cannon = parse("mRcpR").unwrap();
        assert_eq!(cannon.normal.len(), 8);
        assert!(parse("X").is_err());
    }
}
