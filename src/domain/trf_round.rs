//! The next Swiss round of a tournament read from a TRF file, paired with
//! the same code as the server's Swiss rounds ([`pairing::swiss_round`]),
//! and printed as JaVaFo and bbpPairings print it with `-p`.
//!
//! How a TRF says who is paired (as bbpPairings reads it): the rounds
//! played are the most rounds any player has with a pairing in them (a
//! game, a forfeit or a pairing-allocated bye); a player who already has an
//! entry for the round after (a half-point bye, an absence) is not paired.
//! Forfeited games do not count as meetings or colours.

use super::pairing::{self, Float, SwissEntrant};
use super::trf::{Trf, TrfResult};
use missive_rules::Color;
use std::fmt::Write as _;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NextRoundError {
    #[error("all {0} rounds are paired already")]
    Finished(u32),
    #[error("{0}")]
    Pairing(#[from] pairing::PairingError),
}

/// Boards of the next round by pairing number, and the player given the bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NextRound {
    pub round: u32,
    pub games: Vec<(u32, u32)>,
    pub bye: Option<u32>,
}

impl NextRound {
    /// The `-p` output: number of pairs, then `WHITE BLACK` per line, a bye as `NUMBER 0`.
    pub fn to_pairs_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}",
            self.games.len() + usize::from(self.bye.is_some())
        );
        for (w, b) in &self.games {
            let _ = writeln!(out, "{w} {b}");
        }
        if let Some(b) = self.bye {
            let _ = writeln!(out, "{b} 0");
        }
        out
    }
}

/// Rounds a pairing was made for: the last round in which anyone was paired.
pub fn rounds_paired(trf: &Trf) -> usize {
    trf.players
        .iter()
        .filter_map(|p| {
            p.rounds.iter().rposition(|e| {
                e.is_some_and(|e| e.opponent.is_some() || e.result == TrfResult::PairingBye)
            })
        })
        .map(|i| i + 1)
        .max()
        .unwrap_or(0)
}

/// Pair the round after the last paired one.
pub fn next_round(trf: &Trf) -> Result<NextRound, NextRoundError> {
    let played = rounds_paired(trf);
    if let Some(total) = trf.total_rounds {
        if played >= total as usize {
            return Err(NextRoundError::Finished(total));
        }
    }
    let points_before = |p: &super::trf::TrfPlayer, round: usize| -> i32 {
        p.rounds
            .iter()
            .take(round)
            .flatten()
            .map(|e| e.result.points2() as i32)
            .sum()
    };
    let by_number: std::collections::HashMap<u32, &super::trf::TrfPlayer> =
        trf.players.iter().map(|p| (p.number, p)).collect();
    let entrants: Vec<SwissEntrant> = trf
        .players
        .iter()
        .map(|p| {
            let history = p.rounds.iter().take(played);
            let games = || history.clone().flatten().filter(|e| e.result.played());
            let last_float = played.checked_sub(1).and_then(|r| {
                let e = p.rounds.get(r).copied().flatten()?;
                // An unplayed round that brought points (a bye, a forfeit win) is a downfloat.
                if !e.result.played() {
                    return (e.result.points2() > 0).then_some(Float::Down);
                }
                let other = by_number.get(&e.opponent?)?;
                match points_before(p, r).cmp(&points_before(other, r)) {
                    std::cmp::Ordering::Greater => Some(Float::Down),
                    std::cmp::Ordering::Less => Some(Float::Up),
                    std::cmp::Ordering::Equal => None,
                }
            });
            SwissEntrant {
                id: p.number as i32,
                seed: p.number as usize - 1,
                points2: points_before(p, played),
                opponents: games()
                    .filter_map(|e| e.opponent)
                    .map(|o| o as i32)
                    .collect(),
                colors: games().filter_map(|e| e.colour).collect::<Vec<Color>>(),
                had_bye: history.clone().flatten().any(|e| {
                    matches!(e.result, TrfResult::PairingBye | TrfResult::ForfeitWin)
                        || (e.opponent.is_none() && e.result == TrfResult::FullBye)
                }),
                withdrawn: p.rounds.len() > played,
                last_float,
            }
        })
        .collect();
    let round = pairing::swiss_round_with(&entrants, initial_colour(trf))?;
    Ok(NextRound {
        round: played as u32 + 1,
        games: round
            .games
            .iter()
            .map(|&(w, b)| (w as u32, b as u32))
            .collect(),
        bye: round.bye.map(|b| b as u32),
    })
}

/// Record 152 or `XXC`; without them, the colour of the highest-ranked player paired in round 1
/// (TRF-2026 makes 152 mandatory only when it differs from that), else white.
pub fn initial_colour(trf: &Trf) -> Color {
    trf.initial_colour
        .or_else(|| {
            let mut players: Vec<_> = trf.players.iter().collect();
            players.sort_by_key(|p| p.number);
            players
                .iter()
                .find_map(|p| p.rounds.first().copied().flatten().and_then(|e| e.colour))
        })
        .unwrap_or(Color::White)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::trf::{RoundEntry, TrfPlayer};

    fn game(opponent: u32, colour: Color, result: TrfResult) -> Option<RoundEntry> {
        Some(RoundEntry {
            opponent: Some(opponent),
            colour: Some(colour),
            result,
        })
    }

    fn bye(result: TrfResult) -> Option<RoundEntry> {
        Some(RoundEntry {
            opponent: None,
            colour: None,
            result,
        })
    }

    fn player(number: u32, rounds: Vec<Option<RoundEntry>>) -> TrfPlayer {
        TrfPlayer {
            number,
            rounds,
            ..TrfPlayer::default()
        }
    }

    #[test]
    fn pairs_the_round_after_the_last_paired_and_leaves_out_the_absent() {
        use TrfResult::*;
        let trf = Trf {
            total_rounds: Some(3),
            players: vec![
                player(1, vec![game(2, Color::Black, Win)]),
                player(2, vec![game(1, Color::White, Loss)]),
                player(3, vec![game(4, Color::Black, ForfeitWin)]),
                player(4, vec![game(3, Color::White, ForfeitLoss)]),
                // 5 had the bye and asked for a half-point bye in round 2.
                player(5, vec![bye(PairingBye), bye(HalfBye)]),
            ],
            ..Trf::default()
        };
        assert_eq!(rounds_paired(&trf), 1);
        // No 152/XXC: the top seed's colour in round 1.
        assert_eq!(initial_colour(&trf), Color::Black);
        let next = next_round(&trf).unwrap();
        assert_eq!(next.round, 2);
        assert_eq!(next.bye, None);
        let mut met: Vec<(u32, u32)> = next
            .games
            .iter()
            .map(|&(w, b)| (w.min(b), w.max(b)))
            .collect();
        met.sort_unstable();
        // 1 and 3 lead with a point; 1-2 is a repeat, but the forfeit 3-4 was no meeting.
        assert_eq!(met, [(1, 3), (2, 4)]);
        assert_eq!(next.to_pairs_text().lines().next(), Some("2"));
    }

    #[test]
    fn a_finished_tournament_is_an_error() {
        let trf = Trf {
            total_rounds: Some(1),
            players: vec![
                player(1, vec![game(2, Color::White, TrfResult::Draw)]),
                player(2, vec![game(1, Color::Black, TrfResult::Draw)]),
            ],
            ..Trf::default()
        };
        assert_eq!(next_round(&trf), Err(NextRoundError::Finished(1)));
    }
}
