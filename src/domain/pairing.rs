//! Tournament pairings (issue 10): Swiss rounds, and the board both kinds of
//! round are made of (Berger round robins: `round_robin`). Pure functions
//! over plain data; storing the rounds and creating the games is the
//! caller's job.
//!
//! # Swiss
//!
//! [`swiss_round`] pairs one round in the spirit of the Dutch system (FIDE C.04.3), as a search
//! that backtracks, so it only fails when no pairing without a repeat exists at all:
//!
//! 1. Withdrawn players are left out. When the rest are odd in number, the bye goes to the
//!    lowest-ranked player (rank = points, then seed) who has not had one and whose removal leaves a
//!    pairable field; only if nobody fits may a player get a second bye. A bye counts as a downfloat,
//!    so within the lowest score a player who floated down in the round before (or had the bye)
//!    gets it only when nobody else of that score can.
//! 2. Score brackets are paired from the top. A bracket is the players of the next score down plus
//!    those floated into it; it makes as many pairs as still let the rest of the field be paired,
//!    and the players left over float down into the next bracket. Within a bracket the
//!    highest-ranked unpaired player takes the opponent the Dutch system would give them: in a
//!    score group of `m` players, the one `m/2` places below (top half against bottom half), then
//!    the rest of the bottom half, then the top half upwards; a player floated in meets the
//!    bracket's residents from the top. Within one score, an opponent whose colour preference does
//!    not clash is tried first. Those left over (the floaters) are the lowest-ranked ones that can be.
//! 3. Nobody meets the same opponent twice. A first search also refuses any pairing that would give
//!    a player a colour difference above 2 or the same colour three times in a row; only when no
//!    such pairing exists is the search repeated without those two limits.
//!    Floats (Dutch quality criteria C.14 and C.15, which come after the number of floats): when
//!    the pairing makes someone float the way they floated in the round before (down: against a
//!    lower score, or a bye; up: against a higher one), the round is paired again with, in each
//!    score, those who floated down last placed first (so others are left over to float down)
//!    and those who floated up last placed last (so a floater meets others first); that pairing
//!    is kept if it floats as many across every score, gives the same bye and repeats fewer
//!    floats.
//! 4. Colours by the Dutch rules E.1-E.5: both wishes if they differ; else the stronger one
//!    (absolute over strong over mild; between two absolute ones, the wider colour difference);
//!    else the colours alternate from the latest round where the two had different colours; else
//!    the higher-ranked player's wish; with no wish at all, the higher-ranked player has the
//!    tournament's initial colour if their pairing number is odd, the other one if even
//!    ([`swiss_round_with`]; [`swiss_round`] takes white).
//!
//! Every partial pairing is checked for completability with a maximum matching (Edmonds' blossom
//! algorithm) before the search goes deeper, so branches that cannot be completed are cut at once
//! and an impossible round is reported without an exhaustive search; a round of 100 players takes
//! under 0.1 s even in a debug build.

use crate::domain::matching::has_perfect_matching;
use missive_rules::Color;
use std::collections::{HashMap, HashSet};

/// One board of a round robin, players numbered 0..n in seed order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    Game { white: usize, black: usize },
    Bye(usize),
}

/// A player as the Swiss pairing sees them before a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissEntrant {
    pub id: i32,
    /// 0 = top seed.
    pub seed: usize,
    /// Points times two (a draw is 1, a win or a bye 2).
    pub points2: i32,
    /// Everyone this player has already been paired against (byes not included).
    pub opponents: Vec<i32>,
    /// Colour per game played, in order. `Neutral` entries are ignored.
    pub colors: Vec<Color>,
    pub had_bye: bool,
    pub withdrawn: bool,
    /// How this player was paired in the round before: against a lower score
    /// (or given the bye), a higher one, or neither.
    pub last_float: Option<Float>,
}

/// A float: a player paired outside their own score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Float {
    /// Against a lower score, or given the bye.
    Down,
    /// Against a higher score.
    Up,
}

/// One Swiss round: the boards in order (board 1 first) and the bye, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissRound {
    /// (white, black)
    pub games: Vec<(i32, i32)>,
    pub bye: Option<i32>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PairingError {
    #[error("player {0} is listed twice")]
    DuplicatePlayer(i32),
    #[error("no pairing without a repeat exists for this round")]
    NoPairing,
}

/// One Swiss round: score groups (highest first), top half vs bottom half within a group, floaters
/// moved down when a group is odd or cannot be paired, NO repeat pairings (backtrack; error only
/// when impossible), colour balancing (give each player the colour they have had less; avoid three
/// of the same in a row and a colour difference above 2 when possible), withdrawn players not
/// paired, a bye (when the number is odd) to the lowest-ranked player who has not had one.
pub fn swiss_round(entrants: &[SwissEntrant]) -> Result<SwissRound, PairingError> {
    swiss_round_with(entrants, Color::White)
}

/// [`swiss_round`] with the initial colour drawn for the tournament (Dutch E.5: the top seed's
/// colour in round 1).
pub fn swiss_round_with(
    entrants: &[SwissEntrant],
    initial: Color,
) -> Result<SwissRound, PairingError> {
    let mut seen = HashSet::new();
    for e in entrants {
        if !seen.insert(e.id) {
            return Err(PairingError::DuplicatePlayer(e.id));
        }
    }
    let mut field: Vec<Player> = entrants
        .iter()
        .filter(|e| !e.withdrawn)
        .map(Player::new)
        .collect();
    field.sort_by_key(|p| rank(p, false));
    let plain = pair_in_order(&field, initial)?;
    let by_id: HashMap<i32, &Player> = field.iter().map(|p| (p.id, p)).collect();
    let repeats = |r: &SwissRound| {
        r.games
            .iter()
            .filter(|&&(w, b)| floats_again(by_id[&w], by_id[&b]))
            .count()
    };
    if repeats(&plain) == 0 {
        return Ok(plain);
    }
    // Dutch C.14-C.15 (module docs, item 3).
    let mut again = field.clone();
    again.sort_by_key(|p| rank(p, true));
    let mut levels: Vec<i32> = field.iter().map(|p| p.points2).collect();
    levels.sort_unstable();
    levels.dedup();
    let profile = |r: &SwissRound| {
        let score = |id: i32| by_id[&id].points2;
        levels
            .iter()
            .map(|&cut| {
                r.games
                    .iter()
                    .filter(|&&(w, b)| (score(w) >= cut) != (score(b) >= cut))
                    .count()
            })
            .collect::<Vec<_>>()
    };
    Ok(match pair_in_order(&again, initial) {
        Ok(r)
            if r.bye == plain.bye
                && profile(&r) == profile(&plain)
                && repeats(&r) < repeats(&plain) =>
        {
            r
        }
        _ => plain,
    })
}

/// The order the pairing ranks a field in: points, then seed; `by_floats`
/// puts, within a score, those who floated down last before the others and
/// those who floated up last after them.
fn rank(p: &Player, by_floats: bool) -> (std::cmp::Reverse<i32>, u8, usize, i32) {
    let floats = match p.last_float {
        _ if !by_floats => 0,
        Some(Float::Down) => 0,
        None => 1,
        Some(Float::Up) => 2,
    };
    (std::cmp::Reverse(p.points2), floats, p.seed, p.id)
}

/// [`swiss_round`] over a field in the order the pairing ranks it.
fn pair_in_order(field: &[Player], initial: Color) -> Result<SwissRound, PairingError> {
    let index: HashMap<i32, usize> = field.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
    let n = field.len();
    let met: Vec<Vec<bool>> = field
        .iter()
        .map(|p| {
            let mut row = vec![false; n];
            for o in &p.opponents {
                if let Some(&j) = index.get(o) {
                    row[j] = true;
                }
            }
            row
        })
        .collect();
    // Meetings are symmetric even if only one side's list records one.
    let met: Vec<Vec<bool>> = (0..n)
        .map(|i| (0..n).map(|j| met[i][j] || met[j][i]).collect())
        .collect();

    // Bye candidates, lowest-ranked first: those without a bye, then (last resort) the others.
    // A bye is a downfloat (Dutch C.14), so within a score those who floated down in the round
    // before come after the rest.
    let bye_candidates: Vec<Option<usize>> = if n.is_multiple_of(2) {
        vec![None]
    } else {
        let lowest_first = |had_bye: bool| {
            let mut v: Vec<usize> = (0..n)
                .rev()
                .filter(|&i| field[i].had_bye == had_bye)
                .collect();
            v.sort_by_key(|&i| (field[i].points2, field[i].last_float == Some(Float::Down)));
            v
        };
        lowest_first(false)
            .into_iter()
            .chain(lowest_first(true))
            .map(Some)
            .collect()
    };
    let fresh_count = field.iter().filter(|p| !p.had_bye).count();
    // A second bye is worse than a colour violation, so the relaxed search with fresh candidates
    // comes before any second bye.
    let (fresh, again) = bye_candidates.split_at(if n.is_multiple_of(2) { 1 } else { fresh_count });
    for candidates in [fresh, again] {
        for strict in [true, false] {
            // The dead ends they remember are whole states (the bye included), valid for every bye.
            let mut search = Search::new(field, &met, strict);
            for &bye in candidates {
                let mut state = vec![WAIT; n];
                if let Some(b) = bye {
                    state[b] = USED;
                }
                if !search.completable(&state) {
                    continue;
                }
                if let Some(pairs) = search.solve(&mut state, None) {
                    let games = pairs
                        .into_iter()
                        .map(|(a, b)| {
                            let (w, bl) = assign_colours(&field[a], &field[b], initial);
                            (w.id, bl.id)
                        })
                        .collect();
                    return Ok(SwissRound {
                        games,
                        bye: bye.map(|b| field[b].id),
                    });
                }
            }
        }
    }
    Err(PairingError::NoPairing)
}

/// How much a player wants a colour; the order matters (stronger is greater).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    NoPreference,
    /// Equal counts: alternate from the last game.
    Mild,
    /// One more of the other colour.
    Strong,
    /// Colour difference of 2 or more, or the same colour twice in a row.
    Absolute,
}

#[derive(Clone, Debug)]
struct Player {
    id: i32,
    seed: usize,
    points2: i32,
    opponents: Vec<i32>,
    had_bye: bool,
    last_float: Option<Float>,
    /// Only white and black, in order.
    colors: Vec<Color>,
    /// Whites minus blacks.
    diff: i32,
    prefers: Option<Color>,
    strength: Strength,
}

impl Player {
    fn new(e: &SwissEntrant) -> Player {
        let colors: Vec<Color> = e
            .colors
            .iter()
            .copied()
            .filter(|c| *c != Color::Neutral)
            .collect();
        let diff = colors
            .iter()
            .map(|c| if *c == Color::White { 1 } else { -1 })
            .sum::<i32>();
        let last = colors.last().copied();
        let twice = colors.len() >= 2 && colors[colors.len() - 1] == colors[colors.len() - 2];
        let (prefers, strength) = if diff != 0 {
            let want = if diff > 0 { Color::Black } else { Color::White };
            let strength = if diff.abs() >= 2 || twice {
                Strength::Absolute
            } else {
                Strength::Strong
            };
            (Some(want), strength)
        } else if let Some(last) = last {
            let s = if twice {
                Strength::Absolute
            } else {
                Strength::Mild
            };
            (Some(last.opponent()), s)
        } else {
            (None, Strength::NoPreference)
        };
        Player {
            id: e.id,
            seed: e.seed,
            points2: e.points2,
            opponents: e.opponents.clone(),
            had_bye: e.had_bye,
            last_float: e.last_float,
            colors,
            diff,
            prefers,
            strength,
        }
    }

    /// Whether taking `c` keeps the colour difference within 2 and avoids three in a row.
    fn may_take(&self, c: Color) -> bool {
        let d = self.diff + if c == Color::White { 1 } else { -1 };
        let n = self.colors.len();
        let three = n >= 2 && self.colors[n - 1] == c && self.colors[n - 2] == c;
        d.abs() <= 2 && !three
    }
}

/// Whether pairing `a` with `b` makes one of them float the way they floated in the round before:
/// the higher score floats down, the lower one up.
fn floats_again(a: &Player, b: &Player) -> bool {
    let (higher, lower) = match a.points2.cmp(&b.points2) {
        std::cmp::Ordering::Greater => (a, b),
        std::cmp::Ordering::Less => (b, a),
        std::cmp::Ordering::Equal => return false,
    };
    higher.last_float == Some(Float::Down) || lower.last_float == Some(Float::Up)
}

/// Whether `a` and `b` can be given colours that respect both players' limits.
fn colours_possible(a: &Player, b: &Player) -> bool {
    (a.may_take(Color::White) && b.may_take(Color::Black))
        || (a.may_take(Color::Black) && b.may_take(Color::White))
}

/// 0 when the two preferences fit together, 1 when they clash mildly, 2 when they clash hard.
fn clash(a: &Player, b: &Player) -> u8 {
    match (a.prefers, b.prefers) {
        (Some(x), Some(y)) if x == y => {
            if a.strength.min(b.strength) >= Strength::Strong {
                2
            } else {
                1
            }
        }
        _ => 0,
    }
}

/// (white, black) for a pair where `a` is ranked above `b`, on the 0-based `board`.
fn assign_colours<'a>(a: &'a Player, b: &'a Player, initial: Color) -> (&'a Player, &'a Player) {
    let give = |white_is_a: bool| if white_is_a { (a, b) } else { (b, a) };
    let absolute = |p: &Player| p.strength == Strength::Absolute;
    let strong = |p: &Player| p.strength >= Strength::Strong;
    // Dutch E.1-E.4: both wishes; the stronger one (between absolute ones, the wider colour
    // difference); alternate from the latest round where their colours differed; the
    // higher-ranked player's wish.
    let a_colour = match (a.prefers, b.prefers) {
        (x, y) if x.is_none() || y.is_none() || x != y => x.or(y.map(Color::opponent)),
        (Some(x), _) if absolute(a) && (a.diff.abs() > b.diff.abs() || !absolute(b)) => Some(x),
        (_, Some(y)) if absolute(b) && (b.diff.abs() > a.diff.abs() || !absolute(a)) => {
            Some(y.opponent())
        }
        (Some(x), _) if strong(a) && !strong(b) => Some(x),
        (_, Some(y)) if strong(b) && !strong(a) => Some(y.opponent()),
        _ => latest_difference(a, b).map(|(_, cb)| cb),
    };
    let a_higher = (std::cmp::Reverse(a.points2), a.seed) < (std::cmp::Reverse(b.points2), b.seed);
    let a_colour = a_colour.unwrap_or_else(|| {
        let (higher, lower_is_a) = if a_higher { (a, false) } else { (b, true) };
        let higher_colour = match higher.prefers {
            Some(c) => c,
            // E.5: the higher-ranked player with an odd pairing number (seed 0, 2...) has the initial colour.
            None if higher.seed.is_multiple_of(2) => initial,
            None => initial.opponent(),
        };
        if lower_is_a {
            higher_colour.opponent()
        } else {
            higher_colour
        }
    });
    give(a_colour == Color::White)
}

/// The colours of `a` and `b` in the latest round (counted back from the end) where they differed.
fn latest_difference(a: &Player, b: &Player) -> Option<(Color, Color)> {
    a.colors
        .iter()
        .rev()
        .zip(b.colors.iter().rev())
        .find(|(x, y)| x != y)
        .map(|(x, y)| (*x, *y))
}

/// A player's place in the search.
const USED: u8 = 0;
/// In the bracket being paired, not yet paired nor floated.
const OPEN: u8 = 1;
/// Waiting for a later bracket: a lower score, or floated down.
const WAIT: u8 = 2;

/// Pairs score brackets from the top: each bracket (its residents plus the players floated into
/// it) is given as many pairs as still allow the rest of the field to be paired, trying pairings in
/// the Dutch order; whoever is left floats into the next bracket.
struct Search<'a> {
    field: &'a [Player],
    /// Who may meet whom in this search.
    fits: Vec<Vec<bool>>,
    /// States already known to lead nowhere: (players, floats still to choose, bracket score).
    failed_fill: HashSet<(Vec<u8>, usize, i32)>,
    failed_solve: HashSet<(Vec<u8>, Option<i32>)>,
}

impl<'a> Search<'a> {
    fn new(field: &'a [Player], met: &[Vec<bool>], strict: bool) -> Self {
        let n = field.len();
        let fits = (0..n)
            .map(|a| {
                (0..n)
                    .map(|b| {
                        a != b && !met[a][b] && (!strict || colours_possible(&field[a], &field[b]))
                    })
                    .collect()
            })
            .collect();
        Search {
            field,
            fits,
            failed_fill: HashSet::new(),
            failed_solve: HashSet::new(),
        }
    }

    /// Whether the players not yet paired can all still be paired.
    fn completable(&self, state: &[u8]) -> bool {
        let left: Vec<usize> = (0..state.len()).filter(|&i| state[i] != USED).collect();
        let adj: Vec<Vec<bool>> = left
            .iter()
            .map(|&a| left.iter().map(|&b| self.fits[a][b]).collect())
            .collect();
        has_perfect_matching(left.len(), &adj)
    }

    /// Pairs every waiting player, starting with the bracket below `above` (the previous bracket's
    /// score; `None` for the top). `state` is restored on return.
    fn solve(&mut self, state: &mut [u8], above: Option<i32>) -> Option<Vec<(usize, usize)>> {
        let free: Vec<usize> = (0..state.len()).filter(|&i| state[i] == WAIT).collect();
        if free.is_empty() {
            return Some(Vec::new());
        }
        // Only players floated down are left, with nobody below them.
        let score = free
            .iter()
            .map(|&i| self.field[i].points2)
            .filter(|&s| above.is_none_or(|a| s < a))
            .max()?;
        if self.failed_solve.contains(&(state.to_vec(), above)) {
            return None;
        }
        let bracket: Vec<usize> = free
            .iter()
            .copied()
            .filter(|&i| self.field[i].points2 >= score)
            .collect();
        let m = bracket.len();
        // The last bracket must be paired completely; others as fully as the rest allows.
        let fewest_pairs = if m == free.len() { m / 2 } else { 0 };
        for &i in &bracket {
            state[i] = OPEN;
        }
        let mut found = None;
        for pairs in (fewest_pairs..=m / 2).rev() {
            found = self.fill(state, m - 2 * pairs, score);
            if found.is_some() {
                break;
            }
        }
        for &i in &bracket {
            state[i] = WAIT;
        }
        if found.is_none() {
            self.failed_solve.insert((state.to_vec(), above));
        }
        found
    }

    /// Pairs the open players of the bracket at `score`, floating exactly `floats` of them, then
    /// the rest of the field.
    fn fill(&mut self, state: &mut [u8], floats: usize, score: i32) -> Option<Vec<(usize, usize)>> {
        let Some(top) = state.iter().position(|s| *s == OPEN) else {
            return self.solve(state, Some(score));
        };
        let key = (state.to_vec(), floats, score);
        if self.failed_fill.contains(&key) {
            return None;
        }
        state[top] = USED;
        for other in self.candidates(top, state) {
            if !self.fits[top][other] {
                continue;
            }
            state[other] = USED;
            if !self.completable(state) {
                state[other] = OPEN;
                continue;
            }
            let rest = self.fill(state, floats, score);
            state[other] = OPEN;
            if let Some(mut rest) = rest {
                state[top] = OPEN;
                rest.insert(0, (top, other));
                return Some(rest);
            }
        }
        // Pairing the higher players first leaves the lowest ones to float.
        if floats > 0 {
            state[top] = WAIT;
            let rest = self.fill(state, floats - 1, score);
            state[top] = OPEN;
            if rest.is_some() {
                return rest;
            }
        }
        state[top] = OPEN;
        self.failed_fill.insert(key);
        None
    }

    /// Open opponents for `top` (already marked used) in the order the Dutch system prefers them.
    fn candidates(&self, top: usize, state: &[u8]) -> Vec<usize> {
        let field = self.field;
        let score = field[top].points2;
        let open = |i: &usize| state[*i] == OPEN;
        let group: Vec<usize> = (0..field.len())
            .filter(open)
            .filter(|&i| field[i].points2 == score)
            .collect();
        // In the group with `top` first (positions 0..m), the bottom half starts at m/2: its players
        // in order, then the top half upwards. `group` lacks `top`, hence the `- 1`.
        let m = group.len() + 1;
        let half = m / 2;
        let mut order: Vec<usize> = (half.max(1)..m)
            .chain((1..half).rev())
            .map(|k| group[k - 1])
            .collect();
        order.sort_by_key(|&i| clash(&field[top], &field[i]));
        // A player floated into this bracket meets its residents from the top, colours permitting.
        let mut lower: Vec<usize> = (0..field.len())
            .filter(open)
            .filter(|&i| field[i].points2 < score)
            .collect();
        lower.sort_by_key(|&i| {
            (
                std::cmp::Reverse(field[i].points2),
                clash(&field[top], &field[i]),
                i,
            )
        });
        order.extend(lower);
        order
    }
}
