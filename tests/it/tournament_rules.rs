//! Issue 10's pure tournament algorithms: Berger tables, standings, tie-breaks, the crosstable and
//! the withdrawal rule. (Swiss rounds are paired by the FIDE Dutch system, crate `missive-dutch`,
//! checked against bbpPairings by tests/it/swiss_oracle.rs.)

use missive::domain::pairing::Pairing;
use missive::domain::round_robin::{double_round_robin, round_robin};
use missive::domain::standings::{
    crosstable, standings, withdrawal_effect, GameResult, ScoredGame, Standing, WithdrawalEffect,
};
use std::collections::HashMap;

// ---------------------------------------------------------------- round robin

/// Checks the structure of a (single or double) round robin and returns how often each ordered
/// (white, black) pair occurs.
fn check_round_robin(
    n: usize,
    rounds: &[Vec<Pairing>],
    cycles: usize,
) -> HashMap<(usize, usize), usize> {
    let per_cycle = if n.is_multiple_of(2) { n - 1 } else { n };
    assert_eq!(rounds.len(), per_cycle * cycles, "n={n}: number of rounds");
    let mut games = HashMap::new();
    let mut byes = vec![0usize; n];
    for (r, round) in rounds.iter().enumerate() {
        let mut seen = vec![0usize; n];
        let mut round_byes = 0;
        for p in round {
            match *p {
                Pairing::Game { white, black } => {
                    assert!(
                        white < n && black < n && white != black,
                        "n={n} round {r}: {p:?}"
                    );
                    seen[white] += 1;
                    seen[black] += 1;
                    *games.entry((white, black)).or_insert(0) += 1;
                }
                Pairing::Bye(p) => {
                    assert!(p < n);
                    seen[p] += 1;
                    byes[p] += 1;
                    round_byes += 1;
                }
            }
        }
        assert!(
            seen.iter().all(|&s| s == 1),
            "n={n} round {r}: each player once: {seen:?}"
        );
        assert_eq!(round_byes, n % 2, "n={n} round {r}: byes");
    }
    assert!(
        byes.iter().all(|&b| b == cycles * (n % 2)),
        "n={n}: byes per player {byes:?}"
    );
    games
}

#[test]
fn round_robin_every_pair_meets_once_for_2_to_12_players() {
    for n in 2..=12 {
        let rounds = round_robin(n);
        let games = check_round_robin(n, &rounds, 1);
        for a in 0..n {
            for b in a + 1..n {
                let met = games.get(&(a, b)).unwrap_or(&0) + games.get(&(b, a)).unwrap_or(&0);
                assert_eq!(met, 1, "n={n}: {a} and {b}");
            }
        }
        // Berger colours: whites and blacks differ by at most one for an even field (odd number
        // of games) and are equal or differ by two for an odd one, never more.
        for p in 0..n {
            let whites = games.iter().filter(|((w, _), _)| *w == p).count() as i32;
            let blacks = games.iter().filter(|((_, b), _)| *b == p).count() as i32;
            let limit = if n % 2 == 0 { 1 } else { 2 };
            assert!(
                (whites - blacks).abs() <= limit,
                "n={n} player {p}: {whites}W {blacks}B"
            );
        }
    }
}

#[test]
fn double_round_robin_every_pair_meets_twice_with_reversed_colours() {
    for n in 2..=12 {
        let rounds = double_round_robin(n);
        let games = check_round_robin(n, &rounds, 2);
        for a in 0..n {
            for b in 0..n {
                if a != b {
                    assert_eq!(games.get(&(a, b)), Some(&1), "n={n}: {a} white against {b}");
                }
            }
        }
        let half = rounds.len() / 2;
        for r in 0..half {
            for (first, second) in rounds[r].iter().zip(&rounds[r + half]) {
                match (*first, *second) {
                    (
                        Pairing::Game { white, black },
                        Pairing::Game {
                            white: w2,
                            black: b2,
                        },
                    ) => {
                        assert_eq!((white, black), (b2, w2))
                    }
                    (Pairing::Bye(a), Pairing::Bye(b)) => assert_eq!(a, b),
                    other => panic!("n={n} round {r}: {other:?}"),
                }
            }
        }
    }
}

/// A published Berger table (FIDE Handbook C.05 annex 1), players numbered from 1, "a-b" = a white.
fn published(table: &[&str], n: usize) -> Vec<Vec<Pairing>> {
    table
        .iter()
        .map(|round| {
            round
                .split_whitespace()
                .map(|board| {
                    let (w, b) = board.split_once('-').unwrap();
                    let (w, b): (usize, usize) = (w.parse().unwrap(), b.parse().unwrap());
                    // For an odd field the highest number is the bye.
                    if b > n {
                        Pairing::Bye(w - 1)
                    } else if w > n {
                        Pairing::Bye(b - 1)
                    } else {
                        Pairing::Game {
                            white: w - 1,
                            black: b - 1,
                        }
                    }
                })
                .collect()
        })
        .collect()
}

const BERGER_4: [&str; 3] = ["1-4 2-3", "4-3 1-2", "2-4 3-1"];
const BERGER_6: [&str; 5] = [
    "1-6 2-5 3-4",
    "6-4 5-3 1-2",
    "2-6 3-1 4-5",
    "6-5 1-4 2-3",
    "3-6 4-2 5-1",
];
const BERGER_8: [&str; 7] = [
    "1-8 2-7 3-6 4-5",
    "8-5 6-4 7-3 1-2",
    "2-8 3-1 4-7 5-6",
    "8-6 7-5 1-4 2-3",
    "3-8 4-2 5-1 6-7",
    "8-7 1-6 2-5 3-4",
    "4-8 5-3 6-2 7-1",
];

#[test]
fn round_robin_matches_the_published_berger_tables() {
    assert_eq!(round_robin(4), published(&BERGER_4, 4));
    assert_eq!(round_robin(3), published(&BERGER_4, 3));
    assert_eq!(round_robin(6), published(&BERGER_6, 6));
    assert_eq!(round_robin(5), published(&BERGER_6, 5));
    assert_eq!(round_robin(8), published(&BERGER_8, 8));
    assert_eq!(round_robin(7), published(&BERGER_8, 7));
}

#[test]
fn round_robin_degenerate_sizes() {
    assert!(round_robin(0).is_empty());
    assert_eq!(round_robin(1), vec![vec![Pairing::Bye(0)]]);
    assert_eq!(
        round_robin(2),
        vec![vec![Pairing::Game { white: 0, black: 1 }]]
    );
}

// ---------------------------------------------------------------- standings

fn game(white: i32, black: i32, outcome: GameResult) -> ScoredGame {
    ScoredGame {
        white,
        black,
        outcome,
    }
}
use GameResult::{BlackWins as B, Draw as D, WhiteWins as W};

/// (player, rank, points2, played, wins, draws, losses, SB×4, Buchholz×2)
type Row = (i32, usize, i32, u32, u32, u32, u32, i64, i32);

fn rows(s: &[Standing]) -> Vec<Row> {
    s.iter()
        .map(|s| {
            (
                s.player,
                s.rank,
                s.points2,
                s.played,
                s.wins,
                s.draws,
                s.losses,
                s.sonneborn_berger4,
                s.buchholz2,
            )
        })
        .collect()
}

/// 1 beats 2 and 3, draws 4, loses to 5; 2 beats 3 and 4, draws 5; 3 beats 4 and 5; 4 beats 5.
fn five_player_round_robin() -> Vec<ScoredGame> {
    vec![
        game(1, 2, W),
        game(3, 1, B),
        game(1, 4, D),
        game(5, 1, W),
        game(2, 3, W),
        game(4, 2, B),
        game(2, 5, D),
        game(3, 4, W),
        game(5, 3, B),
        game(4, 5, W),
    ]
}

#[test]
fn standings_of_a_five_player_round_robin() {
    // Points: 1: 1+1+½+0 = 2½; 2: 0+1+1+½ = 2½; 3: 0+0+1+1 = 2; 4: ½+0+0+1 = 1½; 5: 1+½+0+0 = 1½.
    // SB: 1 = 2½ (beat 2) + 2 (beat 3) + ½·1½ (drew 4) = 5¼ → 21;
    //     2 = 2 (3) + 1½ (4) + ½·1½ (5) = 4¼ → 17;  3 = 1½ (4) + 1½ (5) = 3 → 12;
    //     4 = ½·2½ (1) + 1½ (5) = 2¾ → 11;          5 = 2½ (1) + ½·2½ (2) = 3¾ → 15.
    // Buchholz (everyone met everyone: 10 points in all minus one's own): 7½, 7½, 8, 8½, 8½.
    // Order: 1 before 2 on SB, 3, then 5 before 4 on SB.
    let s = standings(&[1, 2, 3, 4, 5], &five_player_round_robin(), &[], false);
    assert_eq!(
        rows(&s),
        vec![
            (1, 1, 5, 4, 2, 1, 1, 21, 15),
            (2, 2, 5, 4, 2, 1, 1, 17, 15),
            (3, 3, 4, 4, 2, 0, 2, 12, 16),
            (5, 4, 3, 4, 1, 1, 2, 15, 17),
            (4, 5, 3, 4, 1, 1, 2, 11, 17),
        ]
    );

    let table = crosstable(&s, &five_player_round_robin());
    assert_eq!(table.players, vec![1, 2, 3, 5, 4]);
    let expected = [
        ["X", "1", "1", "0", "½"],
        ["0", "X", "1", "½", "1"],
        ["0", "0", "X", "1", "1"],
        ["1", "½", "0", "X", "0"],
        ["½", "0", "0", "1", "X"],
    ];
    assert_eq!(
        table.cells,
        expected.map(|r| r.map(String::from).to_vec()).to_vec()
    );
}

#[test]
fn all_draws_share_the_first_rank() {
    // Four players, six draws: 1½ points each, SB ½·1½·3 = 2¼ → 9, Buchholz 4½ → 9.
    let games = [
        game(1, 2, D),
        game(3, 4, D),
        game(1, 3, D),
        game(2, 4, D),
        game(4, 1, D),
        game(2, 3, D),
    ];
    for swiss in [false, true] {
        let s = standings(&[4, 3, 2, 1], &games, &[], swiss);
        assert_eq!(
            rows(&s),
            (1..=4)
                .map(|p| (p, 1, 3, 3, 0, 3, 0, 9, 9))
                .collect::<Vec<Row>>()
        );
    }
}

/// Three rounds of an eight-player Swiss.
fn eight_player_swiss() -> Vec<ScoredGame> {
    vec![
        // Round 1: 1 beats 5, 2 beats 6 (black), 3-7 drawn, 4 beats 8 (black).
        game(1, 5, W),
        game(6, 2, B),
        game(3, 7, D),
        game(8, 4, B),
        // Round 2: 4-1 drawn, 2 beats 3, 5 beats 7 (black), 6-8 drawn.
        game(4, 1, D),
        game(2, 3, W),
        game(7, 5, B),
        game(6, 8, D),
        // Round 3: 2-4 drawn, 1 beats 3, 6 beats 5 (black), 7 beats 8 (black).
        game(2, 4, D),
        game(1, 3, W),
        game(5, 6, B),
        game(8, 7, B),
    ]
}

#[test]
fn standings_of_an_eight_player_swiss() {
    // Points: 1 = 1+½+1 = 2½; 2 = 1+1+½ = 2½; 3 = ½+0+0 = ½; 4 = 1+½+½ = 2; 5 = 0+1+0 = 1;
    //         6 = 0+½+1 = 1½; 7 = ½+0+1 = 1½; 8 = 0+½+0 = ½.           (12 games, 12 points)
    // Buchholz: 1 = 5,4,3 = 1+2+½ = 3½;   2 = 6,3,4 = 1½+½+2 = 4;   3 = 7,2,1 = 1½+2½+2½ = 6½;
    //           4 = 8,1,2 = ½+2½+2½ = 5½; 5 = 1,7,6 = 2½+1½+1½ = 5½; 6 = 2,8,5 = 2½+½+1 = 4;
    //           7 = 3,5,8 = ½+1+½ = 2;    8 = 4,6,7 = 2+1½+1½ = 5.
    // SB: 1 = 1 (5) + ½·2 (4) + ½ (3) = 2½;  2 = 1½ (6) + ½ (3) + ½·2 (4) = 3;  3 = ½·1½ (7) = ¾;
    //     4 = ½ (8) + ½·2½ (1) + ½·2½ (2) = 3;  5 = 1½ (7) = 1½;  6 = ½·½ (8) + 1 (5) = 1¼;
    //     7 = ½·½ (3) + ½ (8) = ¾;  8 = ½·1½ (6) = ¾.
    // Swiss order: 2 (2½, Bh 4) before 1 (2½, Bh 3½); 4; 6 (1½, Bh 4) before 7 (1½, Bh 2); 5;
    // 3 (½, Bh 6½) before 8 (½, Bh 5).
    let players = [1, 2, 3, 4, 5, 6, 7, 8];
    let s = standings(&players, &eight_player_swiss(), &[], true);
    assert_eq!(
        rows(&s),
        vec![
            (2, 1, 5, 3, 2, 1, 0, 12, 8),
            (1, 2, 5, 3, 2, 1, 0, 10, 7),
            (4, 3, 4, 3, 1, 2, 0, 12, 11),
            (6, 4, 3, 3, 1, 1, 1, 5, 8),
            (7, 5, 3, 3, 1, 1, 1, 3, 4),
            (5, 6, 2, 3, 1, 0, 2, 6, 11),
            (3, 7, 1, 3, 0, 1, 2, 3, 13),
            (8, 8, 1, 3, 0, 1, 2, 3, 10),
        ]
    );
    // Ranked as a round robin (points, then SB only), 3 and 8 are tied on ½ and SB ¾ and share
    // 7th place, listed by id.
    let rr = standings(&players, &eight_player_swiss(), &[], false);
    let ranks: Vec<(i32, usize)> = rr.iter().map(|s| (s.player, s.rank)).collect();
    assert_eq!(
        ranks,
        vec![
            (2, 1),
            (1, 2),
            (4, 3),
            (6, 4),
            (7, 5),
            (5, 6),
            (3, 7),
            (8, 7)
        ]
    );
}

#[test]
fn byes_score_a_point_and_count_in_buchholz_as_the_own_score() {
    // Round 1: 1 beats 2, 3 has the bye. Round 2: 3-1 drawn, 2 has the bye.
    // Points: 1 = 1½, 2 = 0 + 1 (bye) = 1, 3 = 1 (bye) + ½ = 1½.
    // Buchholz: 1 = 1 (2) + 1½ (3) = 2½; 2 = 1½ (1) + 1 (bye: own score) = 2½;
    //           3 = 1½ (bye: own score) + 1½ (1) = 3.
    // SB (byes add nothing): 1 = 1 (beat 2) + ½·1½ (drew 3) = 1¾; 2 = 0; 3 = ½·1½ = ¾.
    // A bye is not a game played nor a win.
    let games = [game(1, 2, W), game(3, 1, D)];
    let s = standings(&[1, 2, 3], &games, &[3, 2], true);
    assert_eq!(
        rows(&s),
        vec![
            (3, 1, 3, 1, 0, 1, 0, 3, 6),
            (1, 2, 3, 2, 1, 1, 0, 7, 5),
            (2, 3, 2, 1, 0, 0, 1, 0, 5),
        ]
    );
}

#[test]
fn results_of_unlisted_players_are_ignored() {
    // Player 9's results were cancelled and they are not listed: their games and bye do not count.
    let games = [game(1, 9, W), game(2, 1, W), game(9, 2, D)];
    let s = standings(&[1, 2], &games, &[9], false);
    assert_eq!(
        rows(&s),
        vec![(2, 1, 2, 1, 1, 0, 0, 0, 0), (1, 2, 0, 1, 0, 0, 1, 0, 2)]
    );
}

#[test]
fn double_round_robin_crosstable_cells_hold_both_games() {
    // First cycle: 1 beats 2, 1 beats 3, 2-3 drawn. Second cycle so far: 2-1 drawn only.
    let games = [game(1, 2, W), game(3, 1, B), game(2, 3, D), game(2, 1, D)];
    let s = standings(&[1, 2, 3], &games, &[], false);
    let t = crosstable(&s, &games);
    assert_eq!(t.players, vec![1, 2, 3]);
    assert_eq!(t.cells[0], vec!["X", "1½", "1"]);
    assert_eq!(t.cells[1], vec!["0½", "X", "½"]);
    assert_eq!(t.cells[2], vec!["0", "½", "X"]);
    // With no games yet every cell off the diagonal is empty.
    let empty = crosstable(&standings(&[1, 2], &[], &[], false), &[]);
    assert_eq!(empty.cells, vec![vec!["X", ""], vec!["", "X"]]);
}

#[test]
fn withdrawal_cancels_below_half_and_counts_losses_from_half() {
    use WithdrawalEffect::{CancelResults as Cancel, RemainingAreLosses as Losses};
    for (completed, scheduled, effect) in [
        (0, 4, Cancel),
        (1, 4, Cancel),
        (2, 4, Losses),
        (3, 4, Losses),
        (2, 5, Cancel),
        (3, 5, Losses),
        (0, 1, Cancel),
        (1, 1, Losses),
        (3, 7, Cancel),
        (4, 7, Losses),
    ] {
        assert_eq!(
            withdrawal_effect(completed, scheduled),
            effect,
            "{completed} of {scheduled}"
        );
    }
}
