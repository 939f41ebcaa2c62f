//! Generated tournaments: round robins of 4 to 12 players (Berger tables,
//! as a started round robin has them) and Swiss tournaments of 16 to 200,
//! the first one of up to 1,000 players; most finished, the last tenth
//! running in their last round.

use super::games::{make, Spec, TIME_CONTROL};
use super::gen::{Gen, Options};
use crate::db::bulk::{ByeIns, EntrantIns, TournamentIns};
use crate::db::DbConn;
use crate::domain::game_state::{GameResult, Side};
use crate::domain::pairing::Pairing;
use crate::domain::tournament_state::{TournamentFormat, TournamentStatus};
use chrono::Duration;
use rand::seq::index::sample;
use rand::Rng;
use std::collections::HashSet;

/// The largest Swiss tournament's field.
const LARGEST: usize = 1_000;

pub fn make_all(conn: &mut DbConn, g: &mut Gen, opts: &Options) -> anyhow::Result<()> {
    // Tournament games take at most a fifth of `--games`.
    let budget = opts.games / 5;
    let players = g.players as usize;
    for k in 0..opts.tournaments {
        let running = k * 10 >= opts.tournaments * 9;
        let swiss = k == 0 || g.rng.gen_bool(0.25);
        let field = if k == 0 {
            // The largest, as large as the budget lets a 9-round Swiss be.
            LARGEST.min(players).min((budget * 2 / 9).max(4))
        } else if swiss {
            // Log-uniform from 16 to 200.
            (16f64 * (200f64 / 16.0).powf(g.rng.gen_range(0.0..1.0))) as usize
        } else {
            g.rng.gen_range(4..=12)
        }
        .min(players);
        let rounds = if swiss {
            g.rng.gen_range(5..=9).min(field - 1)
        } else {
            field - 1 + field % 2
        };
        let games = match swiss {
            true => rounds * (field / 2),
            false => field * (field - 1) / 2,
        };
        if field < 2 || g.report.games + games > budget.max(1) {
            continue;
        }
        let variant = if g.rng.gen_bool(0.7) { 0 } else { g.variant() };
        let rated = g.rng.gen_bool(0.7);
        let entrants: Vec<i32> = sample(&mut g.rng, players, field)
            .into_iter()
            .map(|i| g.first_user + i as i32)
            .collect();
        let tid = g.next_tournament;
        g.next_tournament += 1;
        let (format, finished_rounds) = match swiss {
            true => (
                TournamentFormat::Swiss,
                one_swiss(g, tid, &entrants, rounds, variant, rated, running),
            ),
            false => (
                TournamentFormat::RoundRobin,
                one_round_robin(g, tid, &entrants, variant, rated, running),
            ),
        };
        let start = g.timeline_start + Duration::seconds((g.made as f64 * g.step_secs) as i64);
        let created = start - Duration::days(14);
        let status = match running {
            true => TournamentStatus::Running,
            false => TournamentStatus::Finished,
        };
        g.batch.tournaments.push(TournamentIns {
            id: tid,
            name: format!("{} {}", if swiss { "Swiss" } else { "Round robin" }, tid),
            variant: g.pools[variant].variant.id().to_string(),
            time_control: Some(TIME_CONTROL.to_string()),
            format: format.code().to_string(),
            rounds: rounds as i32,
            entry_opens: created,
            entry_closes: start,
            max_players: field as i32,
            entrants: field as i32,
            leave_days: 14,
            forfeit_limit: 2,
            director_id: g.first_user + (k % 10) as i32,
            status: status.code().to_string(),
            current_round: finished_rounds,
            created_at: created,
            started_at: Some(start),
            finished_at: (!running).then_some(g.now - Duration::days(1)),
            rated,
        });
        for (i, &u) in entrants.iter().enumerate() {
            g.batch.entrants.push(EntrantIns {
                tournament_id: tid,
                user_id: u,
                seed: Some(i as i32 + 1),
                joined_at: created,
            });
        }
        g.report.tournaments += 1;
        g.flush(conn, false)?;
    }
    g.flush(conn, true)
}

/// A round robin: every game of the Berger table at once, as a started
/// one has them; running, about half of them still in play. Its current
/// round is its last.
fn one_round_robin(
    g: &mut Gen,
    tid: i32,
    ids: &[i32],
    variant: usize,
    rated: bool,
    running: bool,
) -> i32 {
    let table = crate::domain::round_robin::round_robin(ids.len());
    for (r, boards) in table.iter().enumerate() {
        let round = r as i32 + 1;
        for board in boards {
            match *board {
                Pairing::Game { white, black } => {
                    let spec = Spec {
                        white: ids[white],
                        black: ids[black],
                        variant,
                        running: running && g.rng.gen_bool(0.5),
                        rated,
                        timed: true,
                        tournament: Some((tid, round)),
                    };
                    make(g, &spec);
                }
                Pairing::Bye(p) => g.batch.byes.push(ByeIns {
                    tournament_id: tid,
                    round,
                    user_id: ids[p],
                }),
            }
        }
    }
    table.len() as i32
}

/// A Swiss tournament: each round pairs the players by score (neighbours
/// who have not met, the lowest without a bye sitting out an odd round);
/// running, its last round's games are in play.
fn one_swiss(
    g: &mut Gen,
    tid: i32,
    ids: &[i32],
    rounds: usize,
    variant: usize,
    rated: bool,
    running: bool,
) -> i32 {
    let n = ids.len();
    let mut points2 = vec![0i32; n];
    let mut met: HashSet<(usize, usize)> = HashSet::new();
    let mut had_bye = vec![false; n];
    for r in 1..=rounds {
        let last = r == rounds;
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (-points2[i], i));
        if n % 2 == 1 {
            let pos = order
                .iter()
                .rposition(|&i| !had_bye[i])
                .unwrap_or(order.len() - 1);
            let p = order.remove(pos);
            had_bye[p] = true;
            points2[p] += 2;
            g.batch.byes.push(ByeIns {
                tournament_id: tid,
                round: r as i32,
                user_id: ids[p],
            });
        }
        while let Some(a) = order.first().copied() {
            order.remove(0);
            let j = order
                .iter()
                .position(|&b| !met.contains(&(a.min(b), a.max(b))))
                .unwrap_or(0);
            let b = order.remove(j);
            met.insert((a.min(b), a.max(b)));
            let (white, black) = if (r + a) % 2 == 0 { (a, b) } else { (b, a) };
            let spec = Spec {
                white: ids[white],
                black: ids[black],
                variant,
                running: running && last,
                rated,
                timed: true,
                tournament: Some((tid, r as i32)),
            };
            match make(g, &spec) {
                Some(GameResult::Draw) => {
                    points2[white] += 1;
                    points2[black] += 1;
                }
                Some(res) => match res.winner() {
                    Some(Side::White) => points2[white] += 2,
                    _ => points2[black] += 2,
                },
                None => {}
            }
        }
    }
    rounds as i32
}
