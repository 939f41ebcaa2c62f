//! Tournament standings, tie-breaks and the round-robin crosstable (issue 10), and the scoring
//! helpers the pages and the pairing share. Pure functions: the caller passes the decided games
//! and the byes.
//!
//! Scores are kept in integers so that ties compare exactly: `points2` is points × 2 (win 2, draw 1,
//! loss 0, bye 2), `buchholz2` is Buchholz × 2 and `sonneborn_berger4` is Sonneborn-Berger × 4.
//!
//! - **Sonneborn-Berger**, per game: the final score of every opponent beaten, plus half the final
//!   score of every opponent drawn (a player met twice counts twice). An opponent's final score
//!   includes their byes. A bye adds nothing to Sonneborn-Berger.
//! - **Buchholz**: the sum of the final scores of the opponents of every game played. A bye counts
//!   as a game against oneself, as FIDE's tie-break regulations of 2023 treat unplayed rounds: it
//!   adds the player's own final score. (This replaces FIDE's older "virtual opponent" formula, which
//!   needs the round of the bye.)
//! - Games whose result was cancelled (issue 10's withdrawal rule) are simply not passed in; games
//!   or byes of players missing from the player list are ignored.
//! - `played`, `wins`, `draws` and `losses` count games played; a bye is none of them.
//!
//! Order: points, then Sonneborn-Berger for round robins, or Buchholz then Sonneborn-Berger for
//! Swiss, then player id. Players equal on everything but the id share a rank ("1, 2, 2, 4").

use crate::domain::game_state::{EndReason, Side};
use crate::domain::tournament_state::TournamentFormat;
use std::collections::HashMap;

pub use crate::domain::game_state::GameResult;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredGame {
    pub white: i32,
    pub black: i32,
    pub outcome: GameResult,
}

impl ScoredGame {
    /// Points × 2 for (white, black).
    fn points2(&self) -> (i32, i32) {
        match self.outcome {
            GameResult::WhiteWins => (2, 0),
            GameResult::BlackWins => (0, 2),
            GameResult::Draw => (1, 1),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// 1-based; tied players share the rank.
    pub rank: usize,
    pub player: i32,
    pub points2: i32,
    pub played: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Sonneborn-Berger × 4, exact.
    pub sonneborn_berger4: i64,
    /// Buchholz × 2.
    pub buchholz2: i32,
}

/// Decided games only (unfinished or cancelled games are simply not passed in); byes score one
/// point each. Sorted by points, then Sonneborn-Berger (round robins) or Buchholz then
/// Sonneborn-Berger (Swiss), then player id; equal players share a rank.
pub fn standings(
    players: &[i32],
    games: &[ScoredGame],
    byes: &[i32],
    swiss: bool,
) -> Vec<Standing> {
    let mut rows: Vec<Standing> = Vec::with_capacity(players.len());
    let mut index: HashMap<i32, usize> = HashMap::new();
    for &p in players {
        index.entry(p).or_insert_with(|| {
            rows.push(Standing {
                rank: 0,
                player: p,
                points2: 0,
                played: 0,
                wins: 0,
                draws: 0,
                losses: 0,
                sonneborn_berger4: 0,
                buchholz2: 0,
            });
            rows.len() - 1
        });
    }
    // (white row, black row, white points2, black points2)
    let counted: Vec<(usize, usize, i32, i32)> = games
        .iter()
        .filter_map(|g| {
            let w = *index.get(&g.white)?;
            let b = *index.get(&g.black)?;
            if w == b {
                return None;
            }
            let (pw, pb) = g.points2();
            Some((w, b, pw, pb))
        })
        .collect();
    let bye_rows: Vec<usize> = byes.iter().filter_map(|p| index.get(p).copied()).collect();

    for &(w, b, pw, pb) in &counted {
        for (me, score) in [(w, pw), (b, pb)] {
            let row = &mut rows[me];
            row.points2 += score;
            row.played += 1;
            match score {
                2 => row.wins += 1,
                1 => row.draws += 1,
                _ => row.losses += 1,
            }
        }
    }
    for &r in &bye_rows {
        rows[r].points2 += 2;
    }

    let finals: Vec<i32> = rows.iter().map(|r| r.points2).collect();
    for &(w, b, pw, pb) in &counted {
        for (me, them, score) in [(w, b, pw), (b, w, pb)] {
            rows[me].buchholz2 += finals[them];
            // A win adds the opponent's score (×4 = points2 × 2), a draw half of it.
            rows[me].sonneborn_berger4 += i64::from(score) * i64::from(finals[them]);
        }
    }
    for &r in &bye_rows {
        rows[r].buchholz2 += finals[r];
    }

    let key = |s: &Standing| {
        if swiss {
            (s.points2, i64::from(s.buchholz2), s.sonneborn_berger4)
        } else {
            (s.points2, s.sonneborn_berger4, 0)
        }
    };
    rows.sort_by(|a, b| key(b).cmp(&key(a)).then(a.player.cmp(&b.player)));
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && key(&rows[i]) == key(&rows[i - 1]) {
            rows[i - 1].rank
        } else {
            i + 1
        };
    }
    rows
}

/// Cross table for round robins: one row per player in standing order, one cell per opponent
/// column: "1", "½", "0" per game (two per cell in a double round robin, e.g. "1½"), "" when not
/// played yet, "X" on the diagonal. Columns are in the same order as rows; the games of a cell
/// appear in the order they are passed in (pass them in round order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrossTable {
    pub players: Vec<i32>,
    pub cells: Vec<Vec<String>>,
}

pub fn crosstable(standings: &[Standing], games: &[ScoredGame]) -> CrossTable {
    let players: Vec<i32> = standings.iter().map(|s| s.player).collect();
    let index: HashMap<i32, usize> = players.iter().enumerate().map(|(i, p)| (*p, i)).collect();
    let n = players.len();
    let mut cells: Vec<Vec<String>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    if i == j {
                        "X".to_string()
                    } else {
                        String::new()
                    }
                })
                .collect()
        })
        .collect();
    let symbol = |p: i32| match p {
        2 => "1",
        1 => "½",
        _ => "0",
    };
    for g in games {
        let (Some(&w), Some(&b)) = (index.get(&g.white), index.get(&g.black)) else {
            continue;
        };
        if w == b {
            continue;
        }
        let (pw, pb) = g.points2();
        cells[w][b].push_str(symbol(pw));
        cells[b][w].push_str(symbol(pb));
    }
    CrossTable { players, cells }
}

/// What happens to a withdrawn player's results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WithdrawalEffect {
    /// Fewer than half of the scheduled games completed: every result of the player is removed.
    CancelResults,
    /// At least half completed: the results stand and the games not played count as losses.
    RemainingAreLosses,
}

/// Issue 10's withdrawal rule: a withdrawn player who completed fewer than half of their scheduled
/// games has all their results cancelled; otherwise their remaining games count as losses.
pub fn withdrawal_effect(completed: usize, scheduled: usize) -> WithdrawalEffect {
    // completed < scheduled / 2, exactly, for odd counts too.
    if completed.saturating_mul(2) < scheduled {
        WithdrawalEffect::CancelResults
    } else {
        WithdrawalEffect::RemainingAreLosses
    }
}

/// Points times two of a finished game for the player of `side` (win 2,
/// draw 1, loss 0; a game without a result 0).
pub fn points2_for(result: Option<GameResult>, side: Side) -> i32 {
    match result.map(GameResult::winner) {
        Some(Some(winner)) if winner == side => 2,
        Some(None) => 1,
        _ => 0,
    }
}

/// Whether a tournament game counts, by its end's reason (not an unplayed
/// pairing handed to a newcomer).
pub fn counts(reason: Option<EndReason>) -> bool {
    reason != Some(EndReason::Replaced)
}

/// How many games a player is scheduled to play in a field of `field`:
/// every opponent once (twice in a double round robin), or one a round
/// (of `rounds`) in a Swiss.
pub fn scheduled_games(format: TournamentFormat, rounds: i32, field: usize) -> i32 {
    let others = field.saturating_sub(1) as i32;
    match format {
        TournamentFormat::Swiss => rounds,
        TournamentFormat::DoubleRoundRobin => 2 * others,
        TournamentFormat::RoundRobin => others,
    }
}

/// Points as text: 2 → "1", 3 → "1½".
pub fn halves(points2: i32) -> String {
    let whole = points2 / 2;
    match (whole, points2 % 2) {
        (0, 1) => "½".into(),
        (w, 1) => format!("{w}½"),
        (w, _) => w.to_string(),
    }
}

/// Quarter points as text: 5 → "1¼".
pub fn quarters(q: i64) -> String {
    let whole = q / 4;
    let frac = match q % 4 {
        1 => "¼",
        2 => "½",
        3 => "¾",
        _ => "",
    };
    if whole == 0 && !frac.is_empty() {
        frac.to_string()
    } else {
        format!("{whole}{frac}")
    }
}
