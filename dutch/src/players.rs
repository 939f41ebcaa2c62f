//! What the Dutch system needs to know of each player before a round: the
//! history given by the caller ([`Entrant`]), and what follows from it
//! (score, colour preference, floats, bye eligibility), computed as the
//! FIDE rules (C.04.3 A.6, A.7, E) define it.

use missive_rules::Color;

/// One past round of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Record {
    /// Index of the opponent in [`Tournament::players`], for a game (played or forfeited).
    pub opponent: Option<usize>,
    /// Colour of a game played over the board.
    pub colour: Option<Color>,
    /// Played over the board (not forfeited): counts for colours, floats and meetings.
    pub played: bool,
    /// Paired this round: a game (even forfeited) or the pairing-allocated bye.
    pub paired: bool,
    /// Points times two scored this round.
    pub points2: u32,
}

/// A player: their rounds so far (one [`Record`] per round played; missing rounds are absences)
/// and whether they are out of this round (withdrawn, or a bye asked for).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Entrant {
    pub records: Vec<Record>,
    pub absent: bool,
}

/// A tournament before the round to pair: players in pairing-number order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tournament {
    pub players: Vec<Entrant>,
    /// Rounds paired so far.
    pub played_rounds: usize,
    /// Rounds the tournament will have (for the last-round exception of C.3).
    pub total_rounds: usize,
    /// The colour the top seed had in round 1 (E.5).
    pub initial: Color,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Float {
    Down,
    Up,
    None,
}

/// Derived data of a player taking part in the pairing.
#[derive(Clone, Debug)]
pub struct Player {
    /// Index in [`Tournament::players`].
    pub id: usize,
    /// Pairing number among the players still in the tournament, from 0.
    pub rank: usize,
    /// Points times two.
    pub score: u32,
    pub played_games: usize,
    pub preference: Option<Color>,
    pub strong: bool,
    /// |whites - blacks|.
    pub imbalance: usize,
    /// The colour of the last two games when they were the same.
    pub repeated: Option<Color>,
    pub bye_eligible: bool,
    /// Floats of the last round and the one before.
    pub floats: [Float; 2],
    /// Colours of the games played, oldest first.
    pub colours: Vec<Color>,
}

impl Player {
    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    pub fn absolute(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }
}

fn record(e: &Entrant, round: usize) -> Record {
    e.records.get(round).copied().unwrap_or_default()
}

/// Points times two of `e` before the last `back` rounds.
fn score_back(t: &Tournament, e: &Entrant, back: usize) -> u32 {
    (0..t.played_rounds - back)
        .map(|r| record(e, r).points2)
        .sum()
}

fn float(t: &Tournament, idx: usize, back: usize) -> Float {
    let e = &t.players[idx];
    let m = record(e, t.played_rounds - back);
    if !m.played {
        return if m.points2 > 0 {
            Float::Down
        } else {
            Float::None
        };
    }
    let Some(o) = m.opponent else {
        return Float::None;
    };
    let mine = score_back(t, e, back);
    let theirs = score_back(t, &t.players[o], back);
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => Float::Down,
        std::cmp::Ordering::Less => Float::Up,
        std::cmp::Ordering::Equal => Float::None,
    }
}

/// A player is ranked (has a pairing number) when present or paired before.
pub fn ranked(t: &Tournament, e: &Entrant) -> bool {
    !e.absent || (0..t.played_rounds).any(|r| record(e, r).paired)
}

/// The players to pair this round, with what follows from their history.
pub fn derive(t: &Tournament) -> Vec<Player> {
    let mut out = Vec::new();
    let mut rank = 0;
    for (id, e) in t.players.iter().enumerate() {
        if !ranked(t, e) {
            continue;
        }
        rank += 1;
        if e.absent {
            continue;
        }
        let records: Vec<Record> = (0..t.played_rounds).map(|r| record(e, r)).collect();
        let colours: Vec<Color> = records
            .iter()
            .filter(|m| m.played)
            .filter_map(|m| m.colour.filter(|&c| c != Color::Neutral))
            .collect();
        let whites = colours.iter().filter(|&&c| c == Color::White).count();
        let blacks = colours.len() - whites;
        let mut consecutive = 0;
        let mut last = None;
        for &c in &colours {
            consecutive = if last == Some(c) { consecutive + 1 } else { 1 };
            last = Some(c);
        }
        let lower = if whites > blacks {
            Color::Black
        } else {
            Color::White
        };
        let imbalance = whites.abs_diff(blacks);
        let invert = |c: Option<Color>| c.map(|c| c.opponent());
        let preference = if imbalance > 1 {
            Some(lower)
        } else if consecutive > 1 {
            invert(last)
        } else if imbalance > 0 {
            Some(lower)
        } else if consecutive > 0 {
            invert(last)
        } else {
            None
        };
        let repeated = if consecutive > 1 { last } else { None };
        let absolute = imbalance > 1 || repeated.is_some();
        let bye_eligible = !records.iter().enumerate().any(|(r, m)| {
            // A pairing-allocated bye, or any unplayed round that scored a win (forfeit win,
            // full-point bye) — FIDE C.2 of the 2025 rules.
            let _ = r;
            !m.played && (m.points2 >= 2 || (m.paired && m.opponent.is_none()))
        });
        let floats = [
            if t.played_rounds >= 1 {
                float(t, id, 1)
            } else {
                Float::None
            },
            if t.played_rounds >= 2 {
                float(t, id, 2)
            } else {
                Float::None
            },
        ];
        out.push(Player {
            id,
            rank: rank - 1,
            score: records.iter().map(|m| m.points2).sum(),
            played_games: colours.len(),
            preference,
            strong: !absolute && imbalance > 0,
            imbalance,
            repeated,
            bye_eligible,
            floats,
            colours,
        });
    }
    out
}

/// `a` ranks below `b` (lower score, or the same score and a later pairing number).
pub fn ranks_below(a: &Player, b: &Player) -> bool {
    (a.score, b.rank) < (b.score, a.rank)
}

/// C.3/E: two colour preferences that can both be met.
pub fn preferences_compatible(a: Option<Color>, b: Option<Color>) -> bool {
    a != b || a.is_none() || b.is_none()
}

/// The colour `player` gets against `opponent` (Dutch E.1-E.5).
pub fn colour_of(player: &Player, opponent: &Player, initial: Color) -> Color {
    if let Some(c) = neutral_colour(player, opponent) {
        return c;
    }
    let player_lower = ranks_below(player, opponent);
    match player.preference {
        None => {
            let higher_rank = if player_lower {
                opponent.rank
            } else {
                player.rank
            };
            let higher_gets = if higher_rank % 2 == 1 {
                initial.opponent()
            } else {
                initial
            };
            if player_lower {
                higher_gets.opponent()
            } else {
                higher_gets
            }
        }
        Some(p) => {
            if player_lower {
                opponent.preference.unwrap_or(p.opponent()).opponent()
            } else {
                p
            }
        }
    }
}

/// E.1-E.3: the colour that follows from the preferences, if they decide it.
fn neutral_colour(player: &Player, opponent: &Player) -> Option<Color> {
    if preferences_compatible(player.preference, opponent.preference) {
        return player
            .preference
            .or(opponent.preference.map(|c| c.opponent()));
    }
    if player.absolute() && (player.imbalance > opponent.imbalance || !opponent.absolute()) {
        return player.preference;
    }
    if opponent.absolute() && (opponent.imbalance > player.imbalance || !player.absolute()) {
        return opponent.preference.map(|c| c.opponent());
    }
    if player.strong && !opponent.strong {
        return player.preference;
    }
    if opponent.strong && !player.strong {
        return opponent.preference.map(|c| c.opponent());
    }
    // E.4: alternate from the latest round in which they had different colours.
    let (mut a, mut b) = (player.colours.iter().rev(), opponent.colours.iter().rev());
    loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (Some(_), Some(y)) => return Some(*y),
            _ => return None,
        }
    }
}
