//! Pools of real games per variant: random legal moves played by the rules
//! crate, each ply written as the server stores it. A generated game takes
//! a pooled game's first plies, so a million games cost a few thousand
//! games' worth of rules work per variant.

use missive_rules::{Color, Game, Outcome, Variant};
use rand::Rng;

/// The longest pooled game, in plies (the length distribution's 99th
/// percentile is about 190; longer draws are cut here).
pub const MAX_PLIES: usize = 160;

/// One ply as `moves` stores it.
pub struct Ply {
    pub display: String,
    pub coordinate: String,
    pub from: Option<String>,
    pub to: String,
    pub fen_after: String,
    pub history_entry: String,
    pub mover: Color,
}

/// A game played from the start, to [`MAX_PLIES`] or its end by the rules.
pub struct PoolGame {
    pub plies: Vec<Ply>,
    /// The rules' end after the last ply, if the game ended.
    pub outcome: Option<Outcome>,
    /// The side to move after the last ply.
    pub final_turn: Color,
}

/// A variant's pooled games and its start.
pub struct Pool {
    pub variant: &'static dyn Variant,
    pub start_fen: String,
    /// The repetition history at the start (`game_histories` at ply 0).
    pub start_history: String,
    pub first_mover: Color,
    pub games: Vec<PoolGame>,
}

impl Pool {
    /// `size` games of `variant` played with random legal moves.
    pub fn generate(
        variant: &'static dyn Variant,
        size: usize,
        rng: &mut impl Rng,
    ) -> Result<Pool, String> {
        let start = Game::new(variant, None)
            .map_err(|e| format!("{} has no start position: {e}", variant.id()))?;
        let games = (0..size.max(1)).map(|_| play_out(&start, rng)).collect();
        Ok(Pool {
            variant,
            start_fen: start.fen(),
            start_history: start.history_string(),
            first_mover: start.side_to_move(),
            games,
        })
    }

    /// A game of the pool, uniformly.
    pub fn pick(&self, rng: &mut impl Rng) -> &PoolGame {
        &self.games[rng.gen_range(0..self.games.len())]
    }
}

fn play_out(start: &Game, rng: &mut impl Rng) -> PoolGame {
    let mut game = start.clone();
    let variant = game.variant();
    let mut plies = Vec::with_capacity(MAX_PLIES);
    while plies.len() < MAX_PLIES && game.outcome().is_none() {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.gen_range(0..legal.len())];
        let mover = game.side_to_move();
        let played = game.play(&mv);
        let (from, to) = variant.move_squares(&played.mv);
        plies.push(Ply {
            display: played.display,
            coordinate: played.coordinate,
            from: from.map(|s| s.name()),
            to: to.name(),
            fen_after: game.fen(),
            history_entry: game.last_history_entry(),
            mover,
        });
    }
    PoolGame {
        plies,
        outcome: game.outcome(),
        final_turn: game.side_to_move(),
    }
}

/// A game's length in plies: log-normal around a median of 60 (most games
/// between 25 and 140), at least 2.
pub fn draw_length(rng: &mut impl Rng) -> usize {
    // Box-Muller: one standard normal from two uniforms.
    let u1: f64 = rng.gen_range(f64::EPSILON..1.0);
    let u2: f64 = rng.gen();
    let z = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos();
    let plies = (60f64.ln() + 0.45 * z).exp().round();
    (plies as usize).clamp(2, MAX_PLIES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn pooled_games_replay_as_the_rules_read_them() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let chess = missive_rules::variant("chess").unwrap();
        let pool = Pool::generate(chess, 3, &mut rng).unwrap();
        for g in &pool.games {
            assert!(!g.plies.is_empty());
            let mut game = Game::new(chess, None).unwrap();
            for p in &g.plies {
                game.play_text(&p.coordinate).unwrap();
                assert_eq!(game.fen(), p.fen_after);
                assert_eq!(game.last_history_entry(), p.history_entry);
            }
            assert_eq!(game.outcome(), g.outcome);
        }
    }

    #[test]
    fn lengths_centre_on_sixty_plies() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let mut lengths: Vec<usize> = (0..2001).map(|_| draw_length(&mut rng)).collect();
        lengths.sort_unstable();
        let median = lengths[1000];
        assert!((50..=70).contains(&median), "median {median}");
        assert!(lengths.iter().all(|&l| (2..=MAX_PLIES).contains(&l)));
    }
}
