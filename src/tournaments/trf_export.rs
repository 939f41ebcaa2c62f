//! A tournament as a TRF-2026 file (issue 63): players in seed order
//! (their pairing numbers), one entry per round, and record 132 with the
//! real date each round's last result came in (correspondence rounds end
//! over weeks, so a round's date is when its last game ended, not when it
//! was paired).

use crate::db::games::GameRow;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::{EndReason, GameStatus, Side};
use crate::domain::standings::{counts, points2_for};
use crate::domain::tournament_state::TournamentFormat;
use crate::domain::trf::{self, RoundEntry, Trf, TrfPlayer, TrfResult};
use crate::tournaments::views::{view, TournamentView};
use missive_rules::Color;
use std::collections::HashMap;

pub fn export(conn: &mut DbConn, tid: i32) -> Result<String, Error> {
    Ok(trf::write(&build(&view(conn, tid)?)))
}

/// A game lost before any move was made by time, silence or withdrawal is
/// a forfeit, not a game (TRF `+`/`-`): it is not rated and does not count as
/// a meeting for the pairing.
pub fn forfeited(g: &GameRow) -> bool {
    g.ply == 0
        && matches!(
            g.reason,
            Some(EndReason::TimeForfeit | EndReason::Silence | EndReason::Withdrawal)
        )
}

fn result_for(g: &GameRow, user: i32) -> TrfResult {
    if g.status != GameStatus::Finished {
        return TrfResult::Pending;
    }
    let side = if g.white_id == Some(user) {
        Side::White
    } else {
        Side::Black
    };
    match (points2_for(g.result, side), forfeited(g)) {
        (2, true) => TrfResult::ForfeitWin,
        (_, true) => TrfResult::ForfeitLoss,
        (2, false) => TrfResult::Win,
        (1, _) => TrfResult::Draw,
        _ => TrfResult::Loss,
    }
}

fn build(v: &TournamentView) -> Trf {
    let t = &v.t;
    // Pairing numbers: seed order (unseeded entrants after, in joining order).
    let mut order: Vec<_> = v.players.iter().map(|(p, _)| p).collect();
    order.sort_by_key(|p| (p.seed.unwrap_or(i32::MAX), p.joined_at, p.user_id));
    let number: HashMap<i32, u32> = order
        .iter()
        .enumerate()
        .map(|(i, p)| (p.user_id, i as u32 + 1))
        .collect();
    let games: Vec<&GameRow> = v.games.iter().filter(|g| counts(g.reason)).collect();
    let last_round = games
        .iter()
        .filter_map(|g| g.round)
        .chain(v.byes.iter().map(|&(r, _)| r))
        .max()
        .unwrap_or(0)
        .max(0) as usize;
    let rank: HashMap<i32, usize> = v.standings.iter().map(|s| (s.user_id, s.rank)).collect();
    let points: HashMap<i32, i32> = v.standings.iter().map(|s| (s.user_id, s.points2)).collect();
    let swiss = t.format == TournamentFormat::Swiss;
    let players = order
        .iter()
        .map(|p| {
            let user = p.user_id;
            let mut rounds = vec![None; last_round];
            for g in games
                .iter()
                .filter(|g| g.white_id == Some(user) || g.black_id == Some(user))
            {
                let Some(r) = g.round.filter(|&r| r >= 1) else {
                    continue;
                };
                let (colour, other) = if g.white_id == Some(user) {
                    (Color::White, g.black_id)
                } else {
                    (Color::Black, g.white_id)
                };
                let Some(&opponent) = other.and_then(|o| number.get(&o)) else {
                    continue;
                };
                rounds[r as usize - 1] = Some(RoundEntry {
                    opponent: Some(opponent),
                    colour: Some(colour),
                    result: result_for(g, user),
                });
            }
            for &(r, _) in v.byes.iter().filter(|&&(r, u)| u == user && r >= 1) {
                rounds[r as usize - 1] = Some(RoundEntry {
                    opponent: None,
                    colour: None,
                    // A round robin's bye is sitting out, worth nothing.
                    result: if swiss {
                        TrfResult::PairingBye
                    } else {
                        TrfResult::ZeroBye
                    },
                });
            }
            while rounds.last() == Some(&None) {
                rounds.pop();
            }
            TrfPlayer {
                number: number[&user],
                name: v.names.get(&user).cloned().unwrap_or_default(),
                rating: v
                    .ratings
                    .get(&user)
                    .and_then(|r| r.trim_end_matches('?').parse().ok())
                    .unwrap_or(0),
                points2: points.get(&user).copied().unwrap_or(0).max(0) as u32,
                rank: rank.get(&user).copied().unwrap_or(0) as u32,
                rounds,
                ..TrfPlayer::default()
            }
        })
        .collect();
    let round_dates = (1..=last_round as i32)
        .map(|r| {
            let in_round: Vec<_> = games.iter().filter(|g| g.round == Some(r)).collect();
            let all_ended = in_round.iter().all(|g| g.ended_at.is_some());
            in_round
                .iter()
                .filter_map(|g| g.ended_at)
                .max()
                .filter(|_| all_ended)
                .map(|d| d.date())
        })
        .collect();
    Trf {
        name: t.name.clone(),
        start: t.started_at.map(|d| d.date()),
        end: t.finished_at.map(|d| d.date()),
        total_rounds: Some((t.rounds.max(0) as u32).max(last_round as u32)).filter(|&r| r > 0),
        initial_colour: None,
        round_dates,
        players,
        ..Trf::default()
    }
}
