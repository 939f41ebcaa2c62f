//! A Swiss tournament as the Dutch pairing ([`crate::domain::dutch`]) sees
//! it before a round: every player in seed order with their rounds so far
//! (game, colour, points, bye) and whether they are out of this round, as
//! the tournament's TRF export states them.

use crate::db::games;
use crate::db::tournaments::TournamentRow;
use crate::db::{byes, entrants, tournament_games, DbConn};
use crate::domain::dutch::{Entrant, Record, Tournament};
use crate::domain::error::Error;
use crate::domain::game_state::{GameStatus, Side};
use crate::domain::standings::{counts, points2_for};
use crate::tournaments::trf_export::forfeited;
use missive_rules::Color;
use std::collections::{HashMap, HashSet};

/// The players (user ids, in the order of [`Tournament::players`]) and the tournament before
/// round `round`.
pub fn swiss_field(
    conn: &mut DbConn,
    t: &TournamentRow,
    round: i32,
) -> Result<(Vec<i32>, Tournament), Error> {
    let players = entrants::of_tournament(conn, t.id)?;
    let all_games = tournament_games::of_tournament(conn, t.id)?;
    let byes = byes::of_tournament(conn, t.id)?;
    let cancelled: HashSet<i32> = players
        .iter()
        .filter(|p| p.results_cancelled)
        .map(|p| p.user_id)
        .collect();
    let index: HashMap<i32, usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.user_id, i))
        .collect();
    let played = (round.max(1) - 1) as usize;
    let mut field = Vec::with_capacity(players.len());
    for p in &players {
        let user = p.user_id;
        let mut records = vec![Record::default(); played];
        for g in all_games.iter().filter(|g| counts(g.reason)) {
            let (Some(r), Some(colour)) = (g.round, crate::db::games::side_of(g, user)) else {
                continue;
            };
            let Some(rec) = usize::try_from(r - 1).ok().and_then(|i| records.get_mut(i)) else {
                continue;
            };
            let opponent = games::opponent_of(g, user);
            // A game lost before any move is a forfeit, as the TRF export writes it: no
            // meeting, no colour (so `missive swiss pair` on the export pairs the same).
            let played = !forfeited(g);
            // Games against a player whose results were cancelled score nothing.
            let scores = g.status == GameStatus::Finished
                && !opponent.is_some_and(|o| cancelled.contains(&o));
            *rec = Record {
                opponent: opponent.and_then(|o| index.get(&o).copied()),
                colour: Some(colour).filter(|&c| played && c != Color::Neutral),
                played,
                paired: true,
                points2: if scores {
                    let side = if g.white_id == Some(user) {
                        Side::White
                    } else {
                        Side::Black
                    };
                    points2_for(g.result, side) as u32
                } else {
                    0
                },
            };
        }
        for &(r, u) in &byes {
            if u != user {
                continue;
            }
            if let Some(rec) = usize::try_from(r - 1).ok().and_then(|i| records.get_mut(i)) {
                *rec = Record {
                    opponent: None,
                    colour: None,
                    played: false,
                    paired: true,
                    points2: 2,
                };
            }
        }
        field.push(Entrant {
            records,
            absent: p.withdrawn_at.is_some() || p.replaced_by.is_some(),
        });
    }
    let tournament = Tournament {
        players: field,
        played_rounds: played,
        total_rounds: t.rounds.max(round) as usize,
        initial: Color::White,
    };
    Ok((players.iter().map(|p| p.user_id).collect(), tournament))
}
