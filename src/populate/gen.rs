//! The generator's options and its state across batches.

use crate::db::bulk::Batch;
use crate::db::DbConn;
use crate::domain::rating::Standing;
use chrono::NaiveDateTime;
use rand::rngs::StdRng;
use rand::Rng;
use std::collections::HashMap;

use super::pool::Pool;

/// What to make.
#[derive(Clone, Debug)]
pub struct Options {
    pub players: usize,
    pub games: usize,
    pub tournaments: usize,
    pub seed: u64,
    /// Distinct games per variant pool (0: chosen from the number of games).
    pub pool: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            players: 100_000,
            games: 1_000_000,
            tournaments: 500,
            seed: 1,
            pool: 0,
        }
    }
}

/// Rows written per transaction (moves, which are most of them).
const MOVES_PER_BATCH: usize = 200_000;

/// The generator's state across batches.
pub struct Gen {
    pub rng: StdRng,
    pub pools: Vec<Pool>,
    /// The first generated user's id, and how many there are.
    pub first_user: i32,
    pub players: i32,
    /// Players with many games: the first `heavy` ids.
    pub heavy: i32,
    pub next_game: i32,
    pub next_tournament: i32,
    pub now: NaiveDateTime,
    /// Generated games are spread over three years before `now`, in the
    /// order they are made.
    pub timeline_start: NaiveDateTime,
    pub step_secs: f64,
    pub made: usize,
    pub standings: HashMap<(i32, usize), Standing>,
    pub batch: Batch,
    pub report: Report,
}

/// The busiest players of `players`: the first hundredth (at least two).
pub fn heavy_of(players: i32) -> i32 {
    (players / 100).max(2)
}

/// A player's place (0-based) among `players`, drawn as games draw them:
/// three picks in ten from the busiest `heavy`, the rest from everyone.
/// The load bench draws the profiles it looks at the same way, so a
/// profile at 10,000 games and one at a million are of alike players.
pub fn draw_player(rng: &mut impl Rng, players: i32, heavy: i32) -> i32 {
    let span = if rng.gen_bool(0.3) { heavy } else { players };
    rng.gen_range(0..span.clamp(1, players.max(1)))
}

impl Gen {
    /// A player, chosen as games choose them ([`draw_player`]).
    pub fn player(&mut self) -> i32 {
        self.first_user + draw_player(&mut self.rng, self.players, self.heavy)
    }

    /// Two different players.
    pub fn pair(&mut self) -> (i32, i32) {
        let a = self.player();
        loop {
            let b = self.player();
            if b != a {
                return (a, b);
            }
        }
    }

    /// A variant by its share (an index into `pools`).
    pub fn variant(&mut self) -> usize {
        if self.pools.len() == 1 || self.rng.gen_bool(0.5) {
            0
        } else {
            self.rng.gen_range(1..self.pools.len())
        }
    }

    /// Write the batch when it is large enough (or `force`).
    pub fn flush(&mut self, conn: &mut DbConn, force: bool) -> anyhow::Result<()> {
        if !force && self.batch.moves.len() < MOVES_PER_BATCH && self.batch.games.len() < 20_000 {
            return Ok(());
        }
        let batch = std::mem::take(&mut self.batch);
        batch
            .write(conn)
            .map_err(|e| anyhow::anyhow!("writing a batch: {e}"))?;
        Ok(())
    }
}

/// What was made, and what it took.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub players: usize,
    pub games: usize,
    pub running: usize,
    pub moves: usize,
    pub tournaments: usize,
    pub rated: usize,
    pub seconds: f64,
    /// Seconds of it spent playing the pools' games.
    pub pool_seconds: f64,
    pub bytes: i64,
    /// The first generated player's id and name (the one with the most
    /// running games).
    pub first_player: (i32, String),
}
