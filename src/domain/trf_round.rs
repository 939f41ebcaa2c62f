//! The next Swiss round of a tournament read from a TRF file, paired by the
//! FIDE Dutch system ([`dutch::pair`], the same code as the server's Swiss
//! rounds), and printed as JaVaFo and bbpPairings print it with `-p`.
//!
//! How a TRF says who is paired (as bbpPairings reads it): the rounds
//! played are the most rounds any player has with a pairing in them (a
//! game, a forfeit or a pairing-allocated bye); a player who already has an
//! entry for the round after (a half-point bye, an absence) is not paired.
//! Forfeited games do not count as meetings or colours.

use super::dutch::{self, Entrant, Record, Tournament};
use super::trf::{Trf, TrfResult};
use missive_rules::Color;
use std::collections::HashMap;
use std::fmt::Write as _;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NextRoundError {
    #[error("all {0} rounds are paired already")]
    Finished(u32),
    #[error("{0}")]
    Pairing(#[from] dutch::DutchError),
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

/// The tournament as the Dutch pairing sees it before round `played + 1`.
pub fn tournament_of(trf: &Trf) -> Tournament {
    let played = rounds_paired(trf);
    let mut players: Vec<&super::trf::TrfPlayer> = trf.players.iter().collect();
    players.sort_by_key(|p| p.number);
    let index: HashMap<u32, usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.number, i))
        .collect();
    let entrants = players
        .iter()
        .map(|p| Entrant {
            records: (0..played)
                .map(|r| {
                    let Some(e) = p.rounds.get(r).copied().flatten() else {
                        return Record::default();
                    };
                    let opponent = e.opponent.and_then(|o| index.get(&o).copied());
                    Record {
                        opponent,
                        colour: e.colour,
                        played: opponent.is_some() && e.result.played(),
                        paired: opponent.is_some() || e.result == TrfResult::PairingBye,
                        points2: e.result.points2(),
                    }
                })
                .collect(),
            absent: p.rounds.len() > played,
        })
        .collect();
    Tournament {
        players: entrants,
        played_rounds: played,
        // Without a stated length, no round is taken for the last (C.3's exception).
        total_rounds: trf.total_rounds.map_or(usize::MAX, |t| t as usize),
        initial: initial_colour(trf),
    }
}

/// Pair the round after the last paired one.
pub fn next_round(trf: &Trf) -> Result<NextRound, NextRoundError> {
    let played = rounds_paired(trf);
    if let Some(total) = trf.total_rounds {
        if played >= total as usize {
            return Err(NextRoundError::Finished(total));
        }
    }
    let t = tournament_of(trf);
    let mut numbers: Vec<u32> = trf.players.iter().map(|p| p.number).collect();
    numbers.sort_unstable();
    let round = dutch::pair(&t)?;
    Ok(NextRound {
        round: played as u32 + 1,
        games: round
            .games
            .iter()
            .map(|&(w, b)| (numbers[w], numbers[b]))
            .collect(),
        bye: round.bye.map(|b| numbers[b]),
    })
}

/// Record 152 or `XXC`; without them, as bbpPairings infers it: the first round with colours, the
/// colour there of the highest-numbered player paired by then, reversed once for each
/// higher-numbered one passed over for having no colour in that round; else white.
pub fn initial_colour(trf: &Trf) -> Color {
    if let Some(c) = trf.initial_colour {
        return c;
    }
    let mut players: Vec<_> = trf.players.iter().collect();
    players.sort_by_key(|p| p.number);
    let colour_in = |p: &super::trf::TrfPlayer, r: usize| {
        p.rounds
            .get(r)
            .copied()
            .flatten()
            .and_then(|e| e.colour)
            .filter(|&c| c != Color::Neutral)
    };
    let rounds = players.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
    let Some(first) = (0..rounds).find(|&r| players.iter().any(|p| colour_in(p, r).is_some()))
    else {
        return Color::White;
    };
    let paired_by = |p: &super::trf::TrfPlayer| {
        p.rounds
            .iter()
            .take(first + 1)
            .flatten()
            .any(|e| e.opponent.is_some() || e.result == TrfResult::PairingBye)
    };
    let mut flip = false;
    for p in players.iter().filter(|p| paired_by(p)) {
        if let Some(c) = colour_in(p, first) {
            return if flip { c.opponent() } else { c };
        }
        flip = !flip;
    }
    Color::White
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
