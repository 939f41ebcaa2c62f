//! A posted variant tried out before it is kept: perft from the start,
//! then games of random moves played to their end, every move written in
//! the variant's notations and read back to the same move. What players
//! would find broken in their first games is found here instead.
//!
//! The trial asks its caller, every few hundred positions, whether the
//! budget still holds: the caller owns the clock (CPU time in the server's
//! checker), the trial only says which stage it was in when it ran out.

use crate::game::Game;
use crate::position::Position;
use crate::variant::{Notation, Reason, Variant};

/// What a trial does.
#[derive(Clone, Copy, Debug)]
pub struct TrialPlan {
    /// Perft is counted from the start to each depth up to this one.
    pub perft_depth: u32,
    /// Games of random moves played.
    pub games: u32,
    /// A game still going after this many plies stops there (counted as
    /// stopped, not as a result): variants without a move-count rule may
    /// otherwise never end.
    pub ply_cap: u32,
    /// The random moves' seed: the same seed plays the same games, so a
    /// report can be made again.
    pub seed: u64,
}

impl Default for TrialPlan {
    fn default() -> TrialPlan {
        TrialPlan {
            perft_depth: 3,
            games: 200,
            ply_cap: 600,
            seed: 0x6d69_7373_6976_6521,
        }
    }
}

/// What a trial found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrialReport {
    /// Positions at depth 1, 2, ... from the start.
    pub perft: Vec<u64>,
    pub games: u32,
    /// Wins of the side that moves first, of the other side, and draws.
    pub first_wins: u32,
    pub second_wins: u32,
    pub draws: u32,
    /// Games stopped at the ply cap.
    pub stopped: u32,
    /// The first player's score per game: a win 1, a draw ½ (games
    /// stopped at the cap count as draws here).
    pub first_score: f64,
    /// Plies per game: shortest, median, mean, longest.
    pub shortest: u32,
    pub median: u32,
    pub mean_length: f64,
    pub longest: u32,
    /// Legal moves per position played through, on average.
    pub mean_legal_moves: f64,
    /// How the games ended: each reason with its count, most common first.
    pub endings: Vec<(Reason, u32)>,
    /// Moves written and read back (each in every notation checked).
    pub moves_read_back: u64,
}

/// Why a trial refused the variant.
#[derive(Clone, Debug, PartialEq)]
pub enum TrialFailure {
    /// The start position has no legal move, or the game is over at once.
    NoGame(String),
    /// A move written in a notation did not read back to itself.
    Notation {
        game: u32,
        ply: u32,
        fen: String,
        written: String,
        notation: &'static str,
        problem: String,
    },
    /// The caller's budget ran out during this stage.
    OutOfBudget(String),
}

impl std::fmt::Display for TrialFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrialFailure::NoGame(why) => write!(f, "no game can be played: {why}"),
            TrialFailure::Notation {
                game,
                ply,
                fen,
                written,
                notation,
                problem,
            } => write!(
                f,
                "random game {game}, ply {ply} (position {fen}): the move written “{written}” in {notation} notation does not read back: {problem}"
            ),
            TrialFailure::OutOfBudget(stage) => write!(f, "the budget ran out during {stage}"),
        }
    }
}

/// How often, in positions generated, the budget is asked about.
const ASK_EVERY: u32 = 256;

/// Random numbers of our own (SplitMix64): a report must come out the
/// same for the same definition and seed on every build, which a general
/// generator does not promise across its versions.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

struct Budget<'a> {
    left: &'a mut dyn FnMut() -> bool,
    since: u32,
}

impl Budget<'_> {
    /// Count one position; false once the caller says the budget is spent.
    fn spend(&mut self) -> bool {
        self.since += 1;
        if self.since < ASK_EVERY {
            return true;
        }
        self.since = 0;
        (self.left)()
    }
}

fn perft(v: &dyn Variant, pos: &Position, depth: u32, budget: &mut Budget) -> Option<u64> {
    let moves = v.legal_moves(pos);
    if !budget.spend() {
        return None;
    }
    // Counted as [`Variant::perft`] counts: the legal moves, game end aside.
    if depth == 1 {
        return Some(moves.len() as u64);
    }
    let mut n = 0;
    for mv in &moves {
        n += perft(v, &v.play(pos, mv), depth - 1, budget)?;
    }
    Some(n)
}

/// Try `variant` out as `plan` says, asking `budget_left` now and then
/// whether to go on.
pub fn trial(
    variant: &'static dyn Variant,
    plan: &TrialPlan,
    budget_left: &mut dyn FnMut() -> bool,
) -> Result<TrialReport, TrialFailure> {
    let mut budget = Budget {
        left: budget_left,
        since: 0,
    };
    let start = Game::new(variant, None).map_err(|e| TrialFailure::NoGame(e.to_string()))?;
    if let Some(o) = start.outcome() {
        return Err(TrialFailure::NoGame(format!(
            "the start position is already over ({})",
            o.reason.describe()
        )));
    }
    let first = start.side_to_move();
    let mut report = TrialReport::default();
    for depth in 1..=plan.perft_depth {
        let n = perft(variant, start.position(), depth, &mut budget)
            .ok_or_else(|| TrialFailure::OutOfBudget(format!("perft to depth {depth}")))?;
        report.perft.push(n);
    }
    let mut rng = SplitMix(plan.seed);
    let mut lengths = Vec::with_capacity(plan.games as usize);
    let mut endings: Vec<(Reason, u32)> = Vec::new();
    let (mut positions, mut legal_total) = (0u64, 0u64);
    for g in 1..=plan.games {
        let mut game = start.clone();
        let mut ply = 0;
        while game.outcome().is_none() && ply < plan.ply_cap {
            if !budget.spend() {
                return Err(TrialFailure::OutOfBudget(format!(
                    "random game {g} of {}",
                    plan.games
                )));
            }
            let legal = game.legal_moves();
            positions += 1;
            legal_total += legal.len() as u64;
            let mv = legal[rng.below(legal.len())];
            for (notation, name) in [
                (Notation::Display, "the variant's"),
                (Notation::Coordinate, "coordinate"),
            ] {
                let written = game.format(&mv, notation);
                let problem = match game.parse_move(&written) {
                    Ok((read, _)) if read == mv => None,
                    Ok((read, _)) => Some(format!(
                        "it reads as {}",
                        game.format(&read, Notation::Coordinate)
                    )),
                    Err(e) => Some(e.to_string()),
                };
                if let Some(problem) = problem {
                    return Err(TrialFailure::Notation {
                        game: g,
                        ply: ply + 1,
                        fen: game.fen(),
                        written,
                        notation: name,
                        problem,
                    });
                }
                report.moves_read_back += 1;
            }
            game.play(&mv);
            ply += 1;
        }
        lengths.push(ply);
        match game.outcome() {
            None => report.stopped += 1,
            Some(o) => {
                match o.winner {
                    Some(w) if w == first => report.first_wins += 1,
                    Some(_) => report.second_wins += 1,
                    None => report.draws += 1,
                }
                match endings.iter_mut().find(|(r, _)| *r == o.reason) {
                    Some((_, n)) => *n += 1,
                    None => endings.push((o.reason, 1)),
                }
            }
        }
    }
    report.games = plan.games;
    if plan.games > 0 {
        let games = f64::from(plan.games);
        report.first_score =
            (f64::from(report.first_wins) + 0.5 * f64::from(report.draws + report.stopped)) / games;
        report.mean_length = lengths.iter().map(|&l| f64::from(l)).sum::<f64>() / games;
        lengths.sort_unstable();
        report.shortest = lengths[0];
        report.longest = lengths[lengths.len() - 1];
        report.median = lengths[lengths.len() / 2];
    }
    if positions > 0 {
        report.mean_legal_moves = legal_total as f64 / positions as f64;
    }
    endings.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.code().cmp(b.0.code())));
    report.endings = endings;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(games: u32) -> TrialPlan {
        TrialPlan {
            games,
            ..TrialPlan::default()
        }
    }

    #[test]
    fn chess_perft_and_games_add_up() {
        let chess = crate::variant("chess").unwrap();
        let r = trial(chess, &plan(20), &mut || true).unwrap();
        assert_eq!(r.perft, vec![20, 400, 8902]);
        assert_eq!(r.games, 20);
        assert_eq!(r.first_wins + r.second_wins + r.draws + r.stopped, 20);
        assert_eq!(r.endings.iter().map(|e| e.1).sum::<u32>(), 20 - r.stopped);
        assert!(r.shortest <= r.median && r.median <= r.longest);
        assert!(r.mean_legal_moves > 1.0);
        // Every ply played was written twice and read back.
        let plies = (r.mean_length * 20.0).round() as u64;
        assert_eq!(r.moves_read_back, 2 * plies);
    }

    #[test]
    fn the_same_seed_plays_the_same_games() {
        let v = crate::variant("capablanca").unwrap();
        let a = trial(v, &plan(5), &mut || true).unwrap();
        let b = trial(v, &plan(5), &mut || true).unwrap();
        assert_eq!(a, b);
        let other = TrialPlan { seed: 7, ..plan(5) };
        assert_ne!(
            a.mean_length,
            trial(v, &other, &mut || true).unwrap().mean_length
        );
    }

    #[test]
    fn a_spent_budget_names_the_stage() {
        let chess = crate::variant("chess").unwrap();
        // Depth 3 walks 421 positions, past the first question (at 256).
        let err = trial(chess, &plan(5), &mut || false).unwrap_err();
        assert_eq!(err, TrialFailure::OutOfBudget("perft to depth 3".into()));
        let mut asked = 0;
        let err = trial(chess, &plan(5), &mut || {
            asked += 1;
            asked < 2
        })
        .unwrap_err();
        assert!(
            matches!(&err, TrialFailure::OutOfBudget(s) if s.starts_with("random game ")),
            "{err}"
        );
    }
}
