//! Issue 10's pure tournament algorithms: Berger tables, Swiss pairing, standings, tie-breaks, the
//! crosstable and the withdrawal rule.

use missive::domain::pairing::{
    swiss_round, Float, Pairing, PairingError, SwissEntrant, SwissRound,
};
use missive::domain::round_robin::{double_round_robin, round_robin};
use missive::domain::standings::{
    crosstable, standings, withdrawal_effect, GameResult, ScoredGame, Standing, WithdrawalEffect,
};
use missive_rules::Color;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::{HashMap, HashSet};

// ---------------------------------------------------------------- round robin

/// Checks the structure of a (single or double) round robin and returns how often each ordered
/// (white, black) pair occurs.
fn check_round_robin(
    n: usize,
    rounds: &[Vec<Pairing>],
    cycles: usize,
) -> HashMap<(usize, usize), usize> {
    let per_cycle = if n.is_multiple_of(2) { n - 1 } else { n };
    assert_eq!(rounds.len(), per_cycle * cycles, "n={n}: number of rounds");
    let mut games = HashMap::new();
    let mut byes = vec![0usize; n];
    for (r, round) in rounds.iter().enumerate() {
        let mut seen = vec![0usize; n];
        let mut round_byes = 0;
        for p in round {
            match *p {
                Pairing::Game { white, black } => {
                    assert!(
                        white < n && black < n && white != black,
                        "n={n} round {r}: {p:?}"
                    );
                    seen[white] += 1;
                    seen[black] += 1;
                    *games.entry((white, black)).or_insert(0) += 1;
                }
                Pairing::Bye(p) => {
                    assert!(p < n);
                    seen[p] += 1;
                    byes[p] += 1;
                    round_byes += 1;
                }
            }
        }
        assert!(
            seen.iter().all(|&s| s == 1),
            "n={n} round {r}: each player once: {seen:?}"
        );
        assert_eq!(round_byes, n % 2, "n={n} round {r}: byes");
    }
    assert!(
        byes.iter().all(|&b| b == cycles * (n % 2)),
        "n={n}: byes per player {byes:?}"
    );
    games
}

#[test]
fn round_robin_every_pair_meets_once_for_2_to_12_players() {
    for n in 2..=12 {
        let rounds = round_robin(n);
        let games = check_round_robin(n, &rounds, 1);
        for a in 0..n {
            for b in a + 1..n {
                let met = games.get(&(a, b)).unwrap_or(&0) + games.get(&(b, a)).unwrap_or(&0);
                assert_eq!(met, 1, "n={n}: {a} and {b}");
            }
        }
        // Berger colours: whites and blacks differ by at most one for an even field (odd number
        // of games) and are equal or differ by two for an odd one, never more.
        for p in 0..n {
            let whites = games.iter().filter(|((w, _), _)| *w == p).count() as i32;
            let blacks = games.iter().filter(|((_, b), _)| *b == p).count() as i32;
            let limit = if n % 2 == 0 { 1 } else { 2 };
            assert!(
                (whites - blacks).abs() <= limit,
                "n={n} player {p}: {whites}W {blacks}B"
            );
        }
    }
}

#[test]
fn double_round_robin_every_pair_meets_twice_with_reversed_colours() {
    for n in 2..=12 {
        let rounds = double_round_robin(n);
        let games = check_round_robin(n, &rounds, 2);
        for a in 0..n {
            for b in 0..n {
                if a != b {
                    assert_eq!(games.get(&(a, b)), Some(&1), "n={n}: {a} white against {b}");
                }
            }
        }
        let half = rounds.len() / 2;
        for r in 0..half {
            for (first, second) in rounds[r].iter().zip(&rounds[r + half]) {
                match (*first, *second) {
                    (
                        Pairing::Game { white, black },
                        Pairing::Game {
                            white: w2,
                            black: b2,
                        },
                    ) => {
                        assert_eq!((white, black), (b2, w2))
                    }
                    (Pairing::Bye(a), Pairing::Bye(b)) => assert_eq!(a, b),
                    other => panic!("n={n} round {r}: {other:?}"),
                }
            }
        }
    }
}

/// A published Berger table (FIDE Handbook C.05 annex 1), players numbered from 1, "a-b" = a white.
fn published(table: &[&str], n: usize) -> Vec<Vec<Pairing>> {
    table
        .iter()
        .map(|round| {
            round
                .split_whitespace()
                .map(|board| {
                    let (w, b) = board.split_once('-').unwrap();
                    let (w, b): (usize, usize) = (w.parse().unwrap(), b.parse().unwrap());
                    // For an odd field the highest number is the bye.
                    if b > n {
                        Pairing::Bye(w - 1)
                    } else if w > n {
                        Pairing::Bye(b - 1)
                    } else {
                        Pairing::Game {
                            white: w - 1,
                            black: b - 1,
                        }
                    }
                })
                .collect()
        })
        .collect()
}

const BERGER_4: [&str; 3] = ["1-4 2-3", "4-3 1-2", "2-4 3-1"];
const BERGER_6: [&str; 5] = [
    "1-6 2-5 3-4",
    "6-4 5-3 1-2",
    "2-6 3-1 4-5",
    "6-5 1-4 2-3",
    "3-6 4-2 5-1",
];
const BERGER_8: [&str; 7] = [
    "1-8 2-7 3-6 4-5",
    "8-5 6-4 7-3 1-2",
    "2-8 3-1 4-7 5-6",
    "8-6 7-5 1-4 2-3",
    "3-8 4-2 5-1 6-7",
    "8-7 1-6 2-5 3-4",
    "4-8 5-3 6-2 7-1",
];

#[test]
fn round_robin_matches_the_published_berger_tables() {
    assert_eq!(round_robin(4), published(&BERGER_4, 4));
    assert_eq!(round_robin(3), published(&BERGER_4, 3));
    assert_eq!(round_robin(6), published(&BERGER_6, 6));
    assert_eq!(round_robin(5), published(&BERGER_6, 5));
    assert_eq!(round_robin(8), published(&BERGER_8, 8));
    assert_eq!(round_robin(7), published(&BERGER_8, 7));
}

#[test]
fn round_robin_degenerate_sizes() {
    assert!(round_robin(0).is_empty());
    assert_eq!(round_robin(1), vec![vec![Pairing::Bye(0)]]);
    assert_eq!(
        round_robin(2),
        vec![vec![Pairing::Game { white: 0, black: 1 }]]
    );
}

// ---------------------------------------------------------------- Swiss

fn entrant(id: i32, seed: usize) -> SwissEntrant {
    SwissEntrant {
        id,
        seed,
        points2: 0,
        opponents: Vec::new(),
        colors: Vec::new(),
        had_bye: false,
        withdrawn: false,
        last_float: None,
    }
}

/// A Swiss tournament being played out, with the checks every round must pass.
struct Sim {
    players: Vec<SwissEntrant>,
    /// Rounds paired so far, with the entrants as they were before each.
    history: Vec<SwissRound>,
}

impl Sim {
    fn new(n: usize) -> Sim {
        Sim {
            players: (0..n).map(|i| entrant(100 + i as i32, i)).collect(),
            history: Vec::new(),
        }
    }

    fn get(&self, id: i32) -> &SwissEntrant {
        self.players.iter().find(|p| p.id == id).unwrap()
    }

    fn get_mut(&mut self, id: i32) -> &mut SwissEntrant {
        self.players.iter_mut().find(|p| p.id == id).unwrap()
    }

    /// Pairs a round and checks everything that must hold whatever the results were.
    fn pair(&mut self) -> Result<SwissRound, PairingError> {
        let round = swiss_round(&self.players)?;
        let active: HashSet<i32> = self
            .players
            .iter()
            .filter(|p| !p.withdrawn)
            .map(|p| p.id)
            .collect();
        let mut seen = HashSet::new();
        for &(w, b) in &round.games {
            assert!(
                active.contains(&w) && active.contains(&b),
                "only active players: {round:?}"
            );
            assert!(
                seen.insert(w) && seen.insert(b),
                "each player once: {round:?}"
            );
            assert!(
                !self.get(w).opponents.contains(&b),
                "repeat pairing {w}-{b}"
            );
        }
        match round.bye {
            Some(p) => {
                assert!(active.len() % 2 == 1, "bye only for an odd field");
                assert!(seen.insert(p));
                // A second bye only when no player without one could take it.
                assert!(
                    !self.get(p).had_bye || !pairable(&self.players, false, |e| !e.had_bye),
                    "second bye for {p}"
                );
            }
            None => assert!(active.len().is_multiple_of(2), "an odd field needs a bye"),
        }
        assert_eq!(seen, active, "every active player is paired");
        Ok(round)
    }

    /// Records the results: `result(white seed, black seed)` gives white's points × 2.
    /// Each player's float is set by the scores before the round, as the
    /// server reports it to the next round's pairing.
    fn play(&mut self, round: &SwissRound, mut result: impl FnMut(usize, usize) -> i32) {
        for p in &mut self.players {
            p.last_float = None;
        }
        for &(w, b) in &round.games {
            let (pw, pb) = (self.get(w).points2, self.get(b).points2);
            let float = |mine: i32, theirs: i32| match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => Some(Float::Down),
                std::cmp::Ordering::Less => Some(Float::Up),
                std::cmp::Ordering::Equal => None,
            };
            self.get_mut(w).last_float = float(pw, pb);
            self.get_mut(b).last_float = float(pb, pw);
        }
        for &(w, b) in &round.games {
            let score = result(self.get(w).seed, self.get(b).seed);
            let white = self.get_mut(w);
            white.points2 += score;
            white.opponents.push(b);
            white.colors.push(Color::White);
            let black = self.get_mut(b);
            black.points2 += 2 - score;
            black.opponents.push(w);
            black.colors.push(Color::Black);
        }
        if let Some(p) = round.bye {
            let p = self.get_mut(p);
            p.points2 += 2;
            p.had_bye = true;
            p.last_float = Some(Float::Down);
        }
        self.history.push(round.clone());
    }

    fn colour_limits_hold(&self) -> bool {
        self.players.iter().all(|p| {
            let diff: i32 = p
                .colors
                .iter()
                .map(|c| if *c == Color::White { 1 } else { -1 })
                .sum();
            let three = p.colors.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]);
            diff.abs() <= 2 && !three
        })
    }
}

/// Whether `p` may take colour `c`: colour difference within 2, no three in a row.
fn may_take(p: &SwissEntrant, c: Color) -> bool {
    let mut cs = p.colors.clone();
    cs.push(c);
    let diff: i32 = cs
        .iter()
        .map(|c| if *c == Color::White { 1 } else { -1 })
        .sum();
    diff.abs() <= 2 && !cs.windows(3).any(|w| w[0] == w[1] && w[1] == w[2])
}

/// Whether `a` and `b` may meet: not yet met and, with `colours`, some colours within the limits.
fn fits(a: &SwissEntrant, b: &SwissEntrant, colours: bool) -> bool {
    !a.opponents.contains(&b.id)
        && (!colours
            || (may_take(a, Color::White) && may_take(b, Color::Black))
            || (may_take(a, Color::Black) && may_take(b, Color::White)))
}

/// The least total `cost` of a perfect matching of `nodes` using only `allowed` pairs, by brute
/// force over subsets; `None` when there is none.
fn best_matching(
    nodes: &[&SwissEntrant],
    allowed: &dyn Fn(&SwissEntrant, &SwissEntrant) -> bool,
    cost: &dyn Fn(&SwissEntrant, &SwissEntrant) -> usize,
) -> Option<usize> {
    fn rec(
        mask: usize,
        nodes: &[&SwissEntrant],
        allowed: &dyn Fn(&SwissEntrant, &SwissEntrant) -> bool,
        cost: &dyn Fn(&SwissEntrant, &SwissEntrant) -> usize,
        memo: &mut Vec<Option<Option<usize>>>,
    ) -> Option<usize> {
        if mask == 0 {
            return Some(0);
        }
        if let Some(known) = memo[mask] {
            return known;
        }
        let top = mask.trailing_zeros() as usize;
        let best = (top + 1..nodes.len())
            .filter(|&o| mask & (1 << o) != 0 && allowed(nodes[top], nodes[o]))
            .filter_map(|o| {
                rec(mask & !(1 << top) & !(1 << o), nodes, allowed, cost, memo)
                    .map(|c| c + cost(nodes[top], nodes[o]))
            })
            .min();
        memo[mask] = Some(best);
        best
    }
    let mut memo = vec![None; 1 << nodes.len()];
    rec((1 << nodes.len()) - 1, nodes, allowed, cost, &mut memo)
}

/// Whether the active players can be paired without a repeat, with a bye for an odd count to a
/// player allowed by `may_bye`, and (when `colours` is set) within the colour limits.
fn pairable(
    players: &[SwissEntrant],
    colours: bool,
    may_bye: impl Fn(&SwissEntrant) -> bool,
) -> bool {
    let active: Vec<&SwissEntrant> = players.iter().filter(|p| !p.withdrawn).collect();
    let allowed = |a: &SwissEntrant, b: &SwissEntrant| fits(a, b, colours);
    let none = |_: &SwissEntrant, _: &SwissEntrant| 0;
    if active.len().is_multiple_of(2) {
        return best_matching(&active, &allowed, &none).is_some();
    }
    (0..active.len()).any(|b| {
        let mut rest = active.clone();
        let bye = rest.remove(b);
        may_bye(bye) && best_matching(&rest, &allowed, &none).is_some()
    })
}

/// Checks the score brackets, top down: given the games of the brackets above, each bracket floats
/// as few players down as any pairing of the rest could (the number of games across the cut below
/// it is the least possible). The search keeps to the colour limits when the field allows it, so
/// the least is taken over pairings within them in that case. Returns the players floated.
fn check_brackets(before: &[SwissEntrant], round: &SwissRound) -> usize {
    let score: HashMap<i32, i32> = before.iter().map(|p| (p.id, p.points2)).collect();
    let playing: Vec<&SwissEntrant> = before
        .iter()
        .filter(|p| !p.withdrawn && Some(p.id) != round.bye)
        .collect();
    let strict = best_matching(&playing, &|a, b| fits(a, b, true), &|_, _| 0).is_some();
    let mut levels: Vec<i32> = playing.iter().map(|p| p.points2).collect();
    levels.sort_unstable_by(|a, b| b.cmp(a));
    levels.dedup();
    let mut floated = 0;
    for cut in levels {
        let across = |a: i32, b: i32| usize::from((score[&a] >= cut) != (score[&b] >= cut));
        let ours: usize = round.games.iter().map(|&(w, b)| across(w, b)).sum();
        let fixed: HashSet<i32> = round
            .games
            .iter()
            .filter(|(w, b)| score[w].min(score[b]) > cut)
            .flat_map(|&(w, b)| [w, b])
            .collect();
        let rest: Vec<&SwissEntrant> = playing
            .iter()
            .copied()
            .filter(|p| !fixed.contains(&p.id))
            .collect();
        let least = best_matching(&rest, &|a, b| fits(a, b, strict), &|a, b| {
            across(a.id, b.id)
        })
        .expect("our own pairing completes the rest");
        assert_eq!(ours, least, "cut at {cut}: {round:?}");
        floated += ours;
    }
    floated
}

/// Players who float the way they floated in the round before, in games and
/// by the bye (a bye is a downfloat).
fn repeated_floats(before: &[SwissEntrant], round: &SwissRound) -> (usize, usize) {
    let get = |id: i32| before.iter().find(|p| p.id == id).unwrap();
    let mut n = 0;
    for &(w, b) in &round.games {
        let (w, b) = (get(w), get(b));
        let (high, low) = if w.points2 >= b.points2 {
            (w, b)
        } else {
            (b, w)
        };
        if high.points2 > low.points2 {
            n += usize::from(high.last_float == Some(Float::Down));
            n += usize::from(low.last_float == Some(Float::Up));
        }
    }
    let bye = round
        .bye
        .map_or(0, |b| usize::from(get(b).last_float == Some(Float::Down)));
    (n, bye)
}

#[test]
fn swiss_first_round_is_top_half_against_bottom_half_with_alternating_colours() {
    let players: Vec<SwissEntrant> = (0..8).map(|i| entrant(i as i32 + 1, i)).collect();
    let round = swiss_round(&players).unwrap();
    // Seeds 1-5, 2-6, 3-7, 4-8; the top seed has white on board 1, colours alternate by board.
    assert_eq!(round.games, vec![(1, 5), (6, 2), (3, 7), (8, 4)]);
    assert_eq!(round.bye, None);
}

#[test]
fn swiss_of_8_over_5_rounds_with_a_set_result_pattern() {
    let mut sim = Sim::new(8);
    for r in 0..5 {
        let before = sim.players.clone();
        let round = sim.pair().unwrap();
        assert_eq!(round.games.len(), 4);
        // Score groups: each bracket floats as few players as the earlier ones allow.
        check_brackets(&before, &round);
        // The better seed wins, except that neighbouring seeds draw.
        sim.play(&round, |w, b| {
            if w.abs_diff(b) == 1 {
                1
            } else if w < b {
                2
            } else {
                0
            }
        });
        assert!(sim.colour_limits_hold(), "round {r}: {:?}", sim.players);
    }
    // After five rounds everyone has three of one colour and two of the other.
    for p in &sim.players {
        let whites = p.colors.iter().filter(|c| **c == Color::White).count() as i32;
        let blacks = p.colors.len() as i32 - whites;
        assert_eq!((whites - blacks).abs(), 1, "{p:?}");
    }
}

#[test]
fn swiss_with_a_withdrawal_gives_byes_to_the_lowest_and_never_pairs_the_withdrawn() {
    let mut sim = Sim::new(8);
    let mut byes = Vec::new();
    for r in 0..5 {
        if r == 2 {
            sim.get_mut(103).withdrawn = true;
        }
        let before = sim.players.clone();
        let round = sim.pair().unwrap();
        if r >= 2 {
            assert!(round.games.iter().all(|&(w, b)| w != 103 && b != 103));
            let bye = round.bye.expect("7 players need a bye");
            // The lowest-ranked player without a bye (rank: points, then seed) gets it.
            let mut ranked: Vec<&SwissEntrant> = before.iter().filter(|p| !p.withdrawn).collect();
            ranked.sort_by_key(|p| (-p.points2, p.seed));
            let lowest = ranked.iter().rev().find(|p| !p.had_bye).unwrap();
            assert_eq!(bye, lowest.id, "round {r}");
            byes.push(bye);
        } else {
            assert_eq!(round.bye, None);
        }
        sim.play(&round, |w, b| if w < b { 2 } else { 0 });
        assert!(sim.colour_limits_hold());
    }
    assert_eq!(byes.len(), 3);
    assert_eq!(byes.iter().collect::<HashSet<_>>().len(), 3, "{byes:?}");
}

#[test]
fn swiss_backtracks_when_the_natural_pairing_would_repeat() {
    // Round 1 of six: A-E, B-D and C-F were drawn, then E and F withdrew. Round 2 has A, B, C, D on
    // one point each; the natural pairing A-C, B-D repeats B-D, so A must take D and B meets C.
    let mut players: Vec<SwissEntrant> = (0..6).map(|i| entrant(i as i32 + 1, i)).collect();
    for (w, b) in [(1, 5), (2, 4), (3, 6)] {
        players[w - 1].opponents.push(b as i32);
        players[w - 1].colors.push(Color::White);
        players[b - 1].opponents.push(w as i32);
        players[b - 1].colors.push(Color::Black);
    }
    for p in &mut players {
        p.points2 = 1;
    }
    players[4].withdrawn = true;
    players[5].withdrawn = true;
    let round = swiss_round(&players).unwrap();
    let pairs: HashSet<(i32, i32)> = round
        .games
        .iter()
        .map(|&(w, b)| (w.min(b), w.max(b)))
        .collect();
    assert_eq!(pairs, HashSet::from([(1, 4), (2, 3)]));
    // A had white and D black: A is black now. B had white and C white: they both want black;
    // equal claims, so the higher-ranked B gets it.
    assert!(round.games.contains(&(4, 1)), "{round:?}");
    assert!(round.games.contains(&(3, 2)), "{round:?}");
}

#[test]
fn swiss_backtracks_deeper_in_the_group() {
    // Six players on the same score, only C and F have met: A-D, B-E, C-F would repeat, so the
    // search keeps A-D and changes the second board to B-F, leaving C-E.
    let mut players: Vec<SwissEntrant> = (0..6).map(|i| entrant(i as i32 + 1, i)).collect();
    players[2].opponents.push(6);
    players[5].opponents.push(3);
    let round = swiss_round(&players).unwrap();
    let pairs: HashSet<(i32, i32)> = round
        .games
        .iter()
        .map(|&(w, b)| (w.min(b), w.max(b)))
        .collect();
    assert_eq!(pairs, HashSet::from([(1, 4), (2, 6), (3, 5)]));
}

#[test]
fn swiss_reports_an_impossible_round_and_bad_input() {
    // Four players who have all met each other.
    let mut players: Vec<SwissEntrant> = (0..4).map(|i| entrant(i as i32 + 1, i)).collect();
    for p in &mut players {
        p.opponents = (1..=4).filter(|o| *o != p.id).collect();
    }
    assert_eq!(swiss_round(&players), Err(PairingError::NoPairing));
    // With one of them withdrawn, a bye makes it possible only if the other two have not met:
    // they have, so it is still impossible.
    players[3].withdrawn = true;
    assert_eq!(swiss_round(&players), Err(PairingError::NoPairing));

    let twice = vec![entrant(1, 0), entrant(1, 1)];
    assert_eq!(swiss_round(&twice), Err(PairingError::DuplicatePlayer(1)));

    assert_eq!(
        swiss_round(&[]),
        Ok(SwissRound {
            games: vec![],
            bye: None
        })
    );
    assert_eq!(
        swiss_round(&[entrant(9, 0)]),
        Ok(SwissRound {
            games: vec![],
            bye: Some(9)
        })
    );
}

#[test]
fn swiss_property_many_random_tournaments() {
    let mut tournaments = 0;
    let mut full_length = 0;
    let mut impossible = 0;
    let mut rounds_paired = 0;
    let mut floats = 0;
    let mut repeated = 0;
    let mut repeated_byes = 0;
    for n in 5..=12usize {
        for seed in 0..25u64 {
            tournaments += 1;
            let mut rng = StdRng::seed_from_u64(seed * 100 + n as u64);
            let mut sim = Sim::new(n);
            let withdraw_after = if seed % 3 == 0 {
                Some(rng.gen_range(1..n - 2))
            } else {
                None
            };
            let mut completed = true;
            for r in 0..n - 1 {
                if withdraw_after == Some(r) {
                    let who = 100 + rng.gen_range(0..n) as i32;
                    sim.get_mut(who).withdrawn = true;
                }
                let before = sim.players.clone();
                let round = match sim.pair() {
                    Ok(round) => round,
                    Err(e) => {
                        // Only when truly impossible: no bye choice leaves a pairable field.
                        assert_eq!(e, PairingError::NoPairing);
                        assert!(
                            !pairable(&before, false, |_| true),
                            "n={n} seed={seed} round {r}"
                        );
                        impossible += 1;
                        completed = false;
                        break;
                    }
                };
                rounds_paired += 1;
                floats += check_brackets(&before, &round);
                let (in_games, by_bye) = repeated_floats(&before, &round);
                repeated += in_games;
                repeated_byes += by_bye;
                sim.play(&round, |_, _| match rng.gen_range(0..10) {
                    0..=3 => 2,
                    4..=5 => 1,
                    _ => 0,
                });
                // The colour limits may only be broken when no pairing could keep them.
                if !sim.colour_limits_hold() {
                    let fresh = |p: &SwissEntrant| !p.had_bye;
                    assert!(
                        !pairable(&before, true, fresh),
                        "n={n} seed={seed} round {r}: {round:?}"
                    );
                }
            }
            if completed {
                full_length += 1;
            }
        }
    }
    println!(
        "{tournaments} tournaments, {full_length} played n-1 rounds, {impossible} stopped on an \
         impossible round, {rounds_paired} rounds paired, {floats} floats, {repeated} of them \
         the same way as the round before, and {repeated_byes} byes to a player who floated down \
         in the round before"
    );
    assert!(full_length > tournaments / 2);
}

// ---------------------------------------------------------------- standings

fn game(white: i32, black: i32, outcome: GameResult) -> ScoredGame {
    ScoredGame {
        white,
        black,
        outcome,
    }
}
use GameResult::{BlackWins as B, Draw as D, WhiteWins as W};

/// (player, rank, points2, played, wins, draws, losses, SB×4, Buchholz×2)
type Row = (i32, usize, i32, u32, u32, u32, u32, i64, i32);

fn rows(s: &[Standing]) -> Vec<Row> {
    s.iter()
        .map(|s| {
            (
                s.player,
                s.rank,
                s.points2,
                s.played,
                s.wins,
                s.draws,
                s.losses,
                s.sonneborn_berger4,
                s.buchholz2,
            )
        })
        .collect()
}

/// 1 beats 2 and 3, draws 4, loses to 5; 2 beats 3 and 4, draws 5; 3 beats 4 and 5; 4 beats 5.
fn five_player_round_robin() -> Vec<ScoredGame> {
    vec![
        game(1, 2, W),
        game(3, 1, B),
        game(1, 4, D),
        game(5, 1, W),
        game(2, 3, W),
        game(4, 2, B),
        game(2, 5, D),
        game(3, 4, W),
        game(5, 3, B),
        game(4, 5, W),
    ]
}

#[test]
fn standings_of_a_five_player_round_robin() {
    // Points: 1: 1+1+½+0 = 2½; 2: 0+1+1+½ = 2½; 3: 0+0+1+1 = 2; 4: ½+0+0+1 = 1½; 5: 1+½+0+0 = 1½.
    // SB: 1 = 2½ (beat 2) + 2 (beat 3) + ½·1½ (drew 4) = 5¼ → 21;
    //     2 = 2 (3) + 1½ (4) + ½·1½ (5) = 4¼ → 17;  3 = 1½ (4) + 1½ (5) = 3 → 12;
    //     4 = ½·2½ (1) + 1½ (5) = 2¾ → 11;          5 = 2½ (1) + ½·2½ (2) = 3¾ → 15.
    // Buchholz (everyone met everyone: 10 points in all minus one's own): 7½, 7½, 8, 8½, 8½.
    // Order: 1 before 2 on SB, 3, then 5 before 4 on SB.
    let s = standings(&[1, 2, 3, 4, 5], &five_player_round_robin(), &[], false);
    assert_eq!(
        rows(&s),
        vec![
            (1, 1, 5, 4, 2, 1, 1, 21, 15),
            (2, 2, 5, 4, 2, 1, 1, 17, 15),
            (3, 3, 4, 4, 2, 0, 2, 12, 16),
            (5, 4, 3, 4, 1, 1, 2, 15, 17),
            (4, 5, 3, 4, 1, 1, 2, 11, 17),
        ]
    );

    let table = crosstable(&s, &five_player_round_robin());
    assert_eq!(table.players, vec![1, 2, 3, 5, 4]);
    let expected = [
        ["X", "1", "1", "0", "½"],
        ["0", "X", "1", "½", "1"],
        ["0", "0", "X", "1", "1"],
        ["1", "½", "0", "X", "0"],
        ["½", "0", "0", "1", "X"],
    ];
    assert_eq!(
        table.cells,
        expected.map(|r| r.map(String::from).to_vec()).to_vec()
    );
}

#[test]
fn all_draws_share_the_first_rank() {
    // Four players, six draws: 1½ points each, SB ½·1½·3 = 2¼ → 9, Buchholz 4½ → 9.
    let games = [
        game(1, 2, D),
        game(3, 4, D),
        game(1, 3, D),
        game(2, 4, D),
        game(4, 1, D),
        game(2, 3, D),
    ];
    for swiss in [false, true] {
        let s = standings(&[4, 3, 2, 1], &games, &[], swiss);
        assert_eq!(
            rows(&s),
            (1..=4)
                .map(|p| (p, 1, 3, 3, 0, 3, 0, 9, 9))
                .collect::<Vec<Row>>()
        );
    }
}

/// Three rounds of an eight-player Swiss.
fn eight_player_swiss() -> Vec<ScoredGame> {
    vec![
        // Round 1: 1 beats 5, 2 beats 6 (black), 3-7 drawn, 4 beats 8 (black).
        game(1, 5, W),
        game(6, 2, B),
        game(3, 7, D),
        game(8, 4, B),
        // Round 2: 4-1 drawn, 2 beats 3, 5 beats 7 (black), 6-8 drawn.
        game(4, 1, D),
        game(2, 3, W),
        game(7, 5, B),
        game(6, 8, D),
        // Round 3: 2-4 drawn, 1 beats 3, 6 beats 5 (black), 7 beats 8 (black).
        game(2, 4, D),
        game(1, 3, W),
        game(5, 6, B),
        game(8, 7, B),
    ]
}

#[test]
fn standings_of_an_eight_player_swiss() {
    // Points: 1 = 1+½+1 = 2½; 2 = 1+1+½ = 2½; 3 = ½+0+0 = ½; 4 = 1+½+½ = 2; 5 = 0+1+0 = 1;
    //         6 = 0+½+1 = 1½; 7 = ½+0+1 = 1½; 8 = 0+½+0 = ½.           (12 games, 12 points)
    // Buchholz: 1 = 5,4,3 = 1+2+½ = 3½;   2 = 6,3,4 = 1½+½+2 = 4;   3 = 7,2,1 = 1½+2½+2½ = 6½;
    //           4 = 8,1,2 = ½+2½+2½ = 5½; 5 = 1,7,6 = 2½+1½+1½ = 5½; 6 = 2,8,5 = 2½+½+1 = 4;
    //           7 = 3,5,8 = ½+1+½ = 2;    8 = 4,6,7 = 2+1½+1½ = 5.
    // SB: 1 = 1 (5) + ½·2 (4) + ½ (3) = 2½;  2 = 1½ (6) + ½ (3) + ½·2 (4) = 3;  3 = ½·1½ (7) = ¾;
    //     4 = ½ (8) + ½·2½ (1) + ½·2½ (2) = 3;  5 = 1½ (7) = 1½;  6 = ½·½ (8) + 1 (5) = 1¼;
    //     7 = ½·½ (3) + ½ (8) = ¾;  8 = ½·1½ (6) = ¾.
    // Swiss order: 2 (2½, Bh 4) before 1 (2½, Bh 3½); 4; 6 (1½, Bh 4) before 7 (1½, Bh 2); 5;
    // 3 (½, Bh 6½) before 8 (½, Bh 5).
    let players = [1, 2, 3, 4, 5, 6, 7, 8];
    let s = standings(&players, &eight_player_swiss(), &[], true);
    assert_eq!(
        rows(&s),
        vec![
            (2, 1, 5, 3, 2, 1, 0, 12, 8),
            (1, 2, 5, 3, 2, 1, 0, 10, 7),
            (4, 3, 4, 3, 1, 2, 0, 12, 11),
            (6, 4, 3, 3, 1, 1, 1, 5, 8),
            (7, 5, 3, 3, 1, 1, 1, 3, 4),
            (5, 6, 2, 3, 1, 0, 2, 6, 11),
            (3, 7, 1, 3, 0, 1, 2, 3, 13),
            (8, 8, 1, 3, 0, 1, 2, 3, 10),
        ]
    );
    // Ranked as a round robin (points, then SB only), 3 and 8 are tied on ½ and SB ¾ and share
    // 7th place, listed by id.
    let rr = standings(&players, &eight_player_swiss(), &[], false);
    let ranks: Vec<(i32, usize)> = rr.iter().map(|s| (s.player, s.rank)).collect();
    assert_eq!(
        ranks,
        vec![
            (2, 1),
            (1, 2),
            (4, 3),
            (6, 4),
            (7, 5),
            (5, 6),
            (3, 7),
            (8, 7)
        ]
    );
}

#[test]
fn byes_score_a_point_and_count_in_buchholz_as_the_own_score() {
    // Round 1: 1 beats 2, 3 has the bye. Round 2: 3-1 drawn, 2 has the bye.
    // Points: 1 = 1½, 2 = 0 + 1 (bye) = 1, 3 = 1 (bye) + ½ = 1½.
    // Buchholz: 1 = 1 (2) + 1½ (3) = 2½; 2 = 1½ (1) + 1 (bye: own score) = 2½;
    //           3 = 1½ (bye: own score) + 1½ (1) = 3.
    // SB (byes add nothing): 1 = 1 (beat 2) + ½·1½ (drew 3) = 1¾; 2 = 0; 3 = ½·1½ = ¾.
    // A bye is not a game played nor a win.
    let games = [game(1, 2, W), game(3, 1, D)];
    let s = standings(&[1, 2, 3], &games, &[3, 2], true);
    assert_eq!(
        rows(&s),
        vec![
            (3, 1, 3, 1, 0, 1, 0, 3, 6),
            (1, 2, 3, 2, 1, 1, 0, 7, 5),
            (2, 3, 2, 1, 0, 0, 1, 0, 5),
        ]
    );
}

#[test]
fn results_of_unlisted_players_are_ignored() {
    // Player 9's results were cancelled and they are not listed: their games and bye do not count.
    let games = [game(1, 9, W), game(2, 1, W), game(9, 2, D)];
    let s = standings(&[1, 2], &games, &[9], false);
    assert_eq!(
        rows(&s),
        vec![(2, 1, 2, 1, 1, 0, 0, 0, 0), (1, 2, 0, 1, 0, 0, 1, 0, 2)]
    );
}

#[test]
fn double_round_robin_crosstable_cells_hold_both_games() {
    // First cycle: 1 beats 2, 1 beats 3, 2-3 drawn. Second cycle so far: 2-1 drawn only.
    let games = [game(1, 2, W), game(3, 1, B), game(2, 3, D), game(2, 1, D)];
    let s = standings(&[1, 2, 3], &games, &[], false);
    let t = crosstable(&s, &games);
    assert_eq!(t.players, vec![1, 2, 3]);
    assert_eq!(t.cells[0], vec!["X", "1½", "1"]);
    assert_eq!(t.cells[1], vec!["0½", "X", "½"]);
    assert_eq!(t.cells[2], vec!["0", "½", "X"]);
    // With no games yet every cell off the diagonal is empty.
    let empty = crosstable(&standings(&[1, 2], &[], &[], false), &[]);
    assert_eq!(empty.cells, vec![vec!["X", ""], vec!["", "X"]]);
}

#[test]
fn withdrawal_cancels_below_half_and_counts_losses_from_half() {
    use WithdrawalEffect::{CancelResults as Cancel, RemainingAreLosses as Losses};
    for (completed, scheduled, effect) in [
        (0, 4, Cancel),
        (1, 4, Cancel),
        (2, 4, Losses),
        (3, 4, Losses),
        (2, 5, Cancel),
        (3, 5, Losses),
        (0, 1, Cancel),
        (1, 1, Losses),
        (3, 7, Cancel),
        (4, 7, Losses),
    ] {
        assert_eq!(
            withdrawal_effect(completed, scheduled),
            effect,
            "{completed} of {scheduled}"
        );
    }
}

/// Larger fields, up to the end of what a Swiss can pair: every round passes `Sim::pair`'s checks
/// (everyone once, no repeats, byes), and the search stays quick because it tests each partial
/// pairing for completability instead of exploring dead ends (all three: about 2 s in a debug
/// build on the 2-core machine).
#[test]
fn swiss_large_fields_pair_to_the_end() {
    for (n, rounds) in [(24usize, 23usize), (25, 24), (100, 12)] {
        let mut rng = StdRng::seed_from_u64(n as u64);
        let mut sim = Sim::new(n);
        let mut paired = 0;
        for _ in 0..rounds {
            let Ok(round) = sim.pair() else { break };
            paired += 1;
            sim.play(&round, |_, _| match rng.gen_range(0..10) {
                0..=3 => 2,
                4..=5 => 1,
                _ => 0,
            });
        }
        // A Swiss cannot always be played to a full round robin, but it gets most of the way.
        assert!(paired >= rounds * 3 / 4, "n={n}: {paired} rounds");
        println!("n={n}: {paired} of {rounds} rounds paired");
    }
}

// ---------------------------------------------------------------- floats

/// Three players on 1 point, three on 0: one of the three floats down and
/// meets the top of the 0-point group; the others pair as they are.
fn six_with_an_odd_top_group() -> Vec<SwissEntrant> {
    (0..6)
        .map(|i| SwissEntrant {
            points2: if i < 3 { 2 } else { 0 },
            ..entrant(i as i32 + 1, i)
        })
        .collect()
}

/// The game `id` plays in a round, as (opponent, it played White).
fn opponent(round: &SwissRound, id: i32) -> i32 {
    round
        .games
        .iter()
        .find_map(|&(w, b)| {
            if w == id {
                Some(b)
            } else if b == id {
                Some(w)
            } else {
                None
            }
        })
        .unwrap()
}

#[test]
fn swiss_floats_the_lowest_of_an_odd_group_to_the_top_of_the_next() {
    let r = swiss_round(&six_with_an_odd_top_group()).unwrap();
    assert_eq!(opponent(&r, 3), 4, "{r:?}");
    assert_eq!(opponent(&r, 1), 2, "{r:?}");
    assert_eq!(opponent(&r, 5), 6, "{r:?}");
}

/// Dutch C.14: a player who floated down in the round before does not float
/// down again when another can: the next lowest floats instead.
#[test]
fn swiss_does_not_float_down_the_same_player_twice_running() {
    let mut field = six_with_an_odd_top_group();
    field[2].last_float = Some(Float::Down);
    let r = swiss_round(&field).unwrap();
    assert_eq!(opponent(&r, 2), 4, "2 floats instead of 3: {r:?}");
    assert_eq!(opponent(&r, 1), 3, "{r:?}");
    assert_eq!(opponent(&r, 5), 6, "{r:?}");
}

/// A bye is a downfloat (Dutch C.14): the lowest player, who floated down
/// in the round before, plays; the next lowest of the same score has the
/// bye; when all of that score floated down, the lowest has it after all.
#[test]
fn swiss_bye_passes_over_a_player_who_floated_down_last_round() {
    let mut field: Vec<SwissEntrant> = (1..=5).map(|i| entrant(i, (i - 1) as usize)).collect();
    field[0].points2 = 2;
    field[1].points2 = 2;
    assert_eq!(swiss_round(&field).unwrap().bye, Some(5));
    field[4].last_float = Some(Float::Down);
    let r = swiss_round(&field).unwrap();
    assert_eq!(r.bye, Some(4), "{r:?}");
    for p in &mut field[2..] {
        p.last_float = Some(Float::Down);
    }
    assert_eq!(swiss_round(&field).unwrap().bye, Some(5));
    // A lower score comes first all the same: 5 alone on no points.
    field[3].points2 = 1;
    field[3].last_float = None;
    assert_eq!(swiss_round(&field).unwrap().bye, Some(5));
}

/// Dutch C.15: the floater meets the top of the group below unless that
/// player floated up in the round before; then the next one.
#[test]
fn swiss_does_not_float_up_the_same_player_twice_running() {
    let mut field = six_with_an_odd_top_group();
    field[3].last_float = Some(Float::Up);
    let r = swiss_round(&field).unwrap();
    assert_eq!(opponent(&r, 3), 5, "4 floated up last round: {r:?}");
    assert_eq!(opponent(&r, 4), 6, "{r:?}");
}

/// The float limits give way when nobody else can float: every 1-point
/// player floated down last round, so the lowest floats once more; and a
/// repeat pairing is never the price of a float limit.
#[test]
fn swiss_float_limits_give_way_when_they_cannot_be_kept() {
    let mut field = six_with_an_odd_top_group();
    for p in &mut field[..3] {
        p.last_float = Some(Float::Down);
    }
    let r = swiss_round(&field).unwrap();
    assert_eq!(opponent(&r, 3), 4, "{r:?}");
    let mut field = six_with_an_odd_top_group();
    field[2].last_float = Some(Float::Down);
    // 2 has met every 0-point player, so it cannot float, and 3 floated
    // last round: 1 floats, though it is the highest, before 3 floats again.
    field[1].opponents = vec![4, 5, 6];
    for o in 4..=6 {
        field[o as usize - 1].opponents.push(2);
    }
    let r = swiss_round(&field).unwrap();
    assert_eq!(opponent(&r, 1), 4, "{r:?}");
    assert_eq!(opponent(&r, 2), 3, "{r:?}");
    // And when 1 has met them too, nobody can float but 3: it floats again.
    field[0].opponents = vec![4, 5, 6];
    for o in 4..=6 {
        field[o as usize - 1].opponents.push(1);
    }
    let r = swiss_round(&field).unwrap();
    assert_eq!(opponent(&r, 3), 4, "{r:?}");
}
