//! `missive dev populate`: a large, realistic database made on the
//! configured one, for load tests and query plans: players, games with
//! their full move records (real play of the engine's variants, from
//! [`pool`]), tournaments, ratings, notes, conditional lines and an outbox
//! backlog, written in large batches straight to the tables
//! ([`crate::db::bulk`]), never through HTTP.
//!
//! The rows are the ones the server writes itself: a game's history row
//! and move entries restore it, ratings are moved game by game with the
//! computation a game's end uses (`missive ratings rebuild --dry-run` finds
//! them all equal), tournament games carry their rounds and byes.

mod games;
mod gen;
pub mod pool;
mod tournaments;

pub use gen::{draw_player, heavy_of, Options, Report};

use crate::db::bulk::{self, Batch, RatingIns, UserIns, VerifiedIns};
use crate::db::DbConn;
use chrono::Duration;
use gen::Gen;
use pool::Pool;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::time::Instant;

/// Every generated player's password.
pub const PASSWORD: &str = "populated player lantern";

/// The variants games are drawn from, with their shares: FIDE chess is
/// half the games, the rest are spread evenly over the next variants of
/// the registry.
const OTHER_VARIANTS: usize = 11;

/// How many distinct games each variant's pool plays.
fn pool_size(opts: &Options, share: f64) -> usize {
    if opts.pool > 0 {
        return opts.pool;
    }
    ((opts.games as f64 * share / 20.0) as usize).clamp(8, 2000)
}

/// Make the database `opts` describes on `conn` (migrated), after the rows
/// already there.
pub fn run(conn: &mut DbConn, opts: &Options) -> anyhow::Result<Report> {
    if opts.players < 2 {
        anyhow::bail!("--players must be at least 2");
    }
    let started = Instant::now();
    let mut rng = StdRng::seed_from_u64(opts.seed);
    let variants: Vec<_> = missive_rules::variants()
        .iter()
        .copied()
        .take(1 + OTHER_VARIANTS)
        .collect();
    let other_share = 0.5 / variants.len().saturating_sub(1).max(1) as f64;
    let mut pools = Vec::with_capacity(variants.len());
    for (i, v) in variants.into_iter().enumerate() {
        let share = if i == 0 { 0.5 } else { other_share };
        pools
            .push(Pool::generate(v, pool_size(opts, share), &mut rng).map_err(anyhow::Error::msg)?);
    }
    let pool_seconds = started.elapsed().as_secs_f64();
    let (last_user, last_game, last_tournament) =
        bulk::last_ids(conn).map_err(|e| anyhow::anyhow!("reading the database: {e}"))?;
    let players = i32::try_from(opts.players).map_err(|_| anyhow::anyhow!("too many players"))?;
    if i32::try_from(opts.games).is_err() {
        anyhow::bail!("too many games");
    }
    let now = crate::util::now();
    let span = Duration::days(3 * 365);
    let mut g = Gen {
        rng,
        pools,
        first_user: last_user + 1,
        players,
        heavy: gen::heavy_of(players),
        next_game: last_game + 1,
        next_tournament: last_tournament + 1,
        now,
        timeline_start: now - span - Duration::days(1),
        step_secs: span.num_seconds() as f64 / opts.games.max(1) as f64,
        made: 0,
        standings: HashMap::new(),
        batch: Batch::default(),
        report: Report {
            pool_seconds,
            ..Report::default()
        },
    };
    make_players(conn, &mut g, opts)?;
    tournaments::make_all(conn, &mut g, opts)?;
    games::make_casual(conn, &mut g, opts)?;
    // The ratings the games moved, as each player's last game left them.
    let mut standings: Vec<_> = std::mem::take(&mut g.standings).into_iter().collect();
    standings.sort_by_key(|((user, variant), _)| (*user, *variant));
    for ((user, variant), s) in standings {
        g.batch.ratings.push(RatingIns {
            user_id: user,
            variant: g.pools[variant].variant.id().to_string(),
            rating: s.rating.rating,
            deviation: s.rating.deviation,
            volatility: s.rating.volatility,
            games: s.games,
            last_played_at: s.last_played_at,
            seq: s.seq,
        });
        if g.batch.ratings.len() >= 50_000 {
            g.flush(conn, true)?;
        }
    }
    g.flush(conn, true)?;
    bulk::finish_load(conn).map_err(|e| anyhow::anyhow!("after loading: {e}"))?;
    let mut report = g.report;
    report.players = opts.players;
    report.first_player = (last_user + 1, username(1));
    report.bytes = bulk::database_bytes(conn).unwrap_or(0);
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// The name of the `n`-th generated player (from 1).
pub fn username(n: i32) -> String {
    format!("player{n}")
}

fn make_players(conn: &mut DbConn, g: &mut Gen, opts: &Options) -> anyhow::Result<()> {
    // One hash for all: argon2 is made to be slow.
    let hash = crate::accounts::users::hash_password(PASSWORD)
        .map_err(|e| anyhow::anyhow!(e.public_message()))?;
    let joined_from = g.timeline_start - Duration::days(365);
    for n in 1..=g.players {
        let id = g.first_user + n - 1;
        let name = username(n);
        let email = format!("{name}@example.org");
        let created_at = joined_from + Duration::seconds(g.rng.gen_range(0..365 * 86_400));
        g.batch.verified.push(VerifiedIns {
            user_id: id,
            email: email.clone(),
            verified_at: created_at,
        });
        g.batch.users.push(UserIns {
            id,
            username_key: crate::db::users::username_key(&name),
            username: name,
            email,
            password_hash: hash.clone(),
            confirm_moves: false,
            created_at,
            // Tournament directors: the first ten.
            is_director: n <= 10,
        });
        if g.batch.users.len() >= 20_000 {
            g.flush(conn, true)?;
        }
    }
    g.flush(conn, true)?;
    g.report.players = opts.players;
    Ok(())
}
