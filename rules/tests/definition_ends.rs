//! How games of definition variants end where perft and SAN do not look:
//! each position and result below is Fairy-Stockfish's (pyffish 0.0.90's
//! `game_result` / `is_immediate_game_end`, checked when written).

use missive_rules::{definition_variant, Color, Outcome, Variant};

fn variant(id: &str) -> &'static dyn Variant {
    definition_variant(id).unwrap_or_else(|| panic!("{id} is registered"))
}

/// The outcome after playing `moves` (coordinates) from `fen`.
fn outcome_after(id: &str, fen: &str, moves: &[&str]) -> Option<Outcome> {
    let v = variant(id);
    let mut pos = v.parse_fen(fen).expect("a position");
    for m in moves {
        let legal = v.legal_moves(&pos);
        let mv = v.parse_move(&pos, &legal, m).expect("a legal move");
        pos = v.play(&pos, &mv);
    }
    let legal = v.legal_moves(&pos);
    v.outcome(&pos, &legal)
}

#[test]
fn a_mate_by_a_dropped_pawn_loses_for_the_side_that_drops_it() {
    let o = outcome_after("minishogi", "kr3/1s3/G4/5/4K[P] w 0 1", &["P@a4"]).expect("over");
    assert_eq!(o.winner, Some(Color::Black));
}

#[test]
fn the_last_check_needed_wins_at_three_check() {
    let fen = "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+3 0 3";
    let o = outcome_after("3check", fen, &["f1b5"]).expect("over");
    assert_eq!(o.winner, Some(Color::White));
    let pos = variant("3check").parse_fen(fen).unwrap();
    let v = variant("3check");
    let bb5 = v.parse_move(&pos, &v.legal_moves(&pos), "Bb5+").unwrap();
    assert!(v.fen(&v.play(&pos, &bb5)).contains(" 0+3 "));
}

#[test]
fn suicide_scores_a_stalemate_by_the_pieces_left() {
    assert_eq!(
        outcome_after("suicide", "8/8/8/8/8/p7/P7/8 w - - 0 1", &[])
            .expect("over")
            .winner,
        None
    );
    // White, stalemated with fewer pieces, wins.
    assert_eq!(
        outcome_after("suicide", "8/8/8/8/8/p7/P7/7p w - - 0 1", &[])
            .expect("over")
            .winner,
        Some(Color::White)
    );
}

#[test]
fn a_bare_king_loses_at_shatranj_unless_it_can_bare_back() {
    let o = outcome_after("shatranj", "8/8/8/4k3/8/8/3r4/4K3 b - - 0 1", &[]).expect("over");
    assert_eq!(o.winner, Some(Color::Black));
    assert_eq!(
        outcome_after("shatranj", "8/8/8/4k3/8/8/3r4/4K3 w - - 0 1", &[]),
        None
    );
}

#[test]
fn a_jeson_mor_knight_wins_once_it_survives_on_e5() {
    let fen = "n8/9/9/9/9/9/5N3/9/9 w - - 0 1";
    assert_eq!(outcome_after("jesonmor", fen, &["f3e5"]), None);
    let o = outcome_after("jesonmor", fen, &["f3e5", "a9b7"]).expect("over");
    assert_eq!(o.winner, Some(Color::White));
}

#[test]
fn racing_kings_gives_black_the_move_that_draws() {
    let fen = "8/K6k/8/8/8/8/8/8 w - - 0 1";
    assert_eq!(outcome_after("racingkings", fen, &["a7a8"]), None);
    let draw = outcome_after("racingkings", fen, &["a7a8", "h7h8"]).expect("over");
    assert_eq!(draw.winner, None);
    let lost = outcome_after("racingkings", fen, &["a7a8", "h7g7"]).expect("over");
    assert_eq!(lost.winner, Some(Color::White));
    let far = outcome_after("racingkings", "8/K7/8/7k/8/8/8/8 w - - 0 1", &["a7a8"]);
    assert_eq!(far.expect("over").winner, Some(Color::White));
}

#[test]
fn armageddon_gives_black_every_draw() {
    // Stalemate, whoever is stalemated (pyffish: 32000 for Black to move).
    let o = outcome_after("armageddon", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", &["f1f7"]).expect("over");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Black), missive_rules::Reason::Stalemate)
    );
    // The fifty-move rule (pyffish's optional end, 32000 for Black to move).
    let o = outcome_after("armageddon", "k7/8/8/8/8/8/8/K6R w - - 99 80", &["h1h2"]).expect("over");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Black), missive_rules::Reason::MoveCountRule)
    );
    // Threefold repetition (pyffish: -32000 for White to move).
    let v = variant("armageddon");
    let mut game = missive_rules::Game::new(v, Some("k7/8/8/8/8/8/8/K6R w - - 0 1")).unwrap();
    for m in ["Rh2", "Kb8", "Rh1", "Ka8", "Rh2", "Kb8", "Rh1", "Ka8"] {
        assert!(game.outcome().is_none(), "over before {m}");
        game.play_text(m).expect("legal");
    }
    let o = game.outcome().expect("drawn by repetition, so Black's");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Black), missive_rules::Reason::Repetition)
    );
    // Chess itself still draws there.
    let mut chess =
        missive_rules::Game::new(variant("normal"), Some("k7/8/8/8/8/8/8/K6R w - - 0 1")).unwrap();
    for m in ["Rh2", "Kb8", "Rh1", "Ka8", "Rh2", "Kb8", "Rh1", "Ka8"] {
        chess.play_text(m).expect("legal");
    }
    assert_eq!(chess.outcome().map(|o| o.winner), Some(None));
}

#[test]
fn janggi_ends_on_bikjang_and_double_passes_by_points_or_drawn() {
    use missive_rules::Reason;
    // Kings facing, White passes: still facing, so over (pyffish: -32000
    // for Black to move). Points: White 13 + 3 + 3, Black 3 + 3 (and
    // Han's bonus): White's; traditional rules draw it.
    let facing = "9/3aka3/9/9/9/9/9/9/3AKA3/R8 w - - 0 1";
    let o = outcome_after("janggi", facing, &["e2e2"]).expect("over");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::White), Reason::KingsFacing)
    );
    let o = outcome_after("janggitraditional", facing, &["e2e2"]).expect("over");
    assert_eq!((o.winner, o.reason), (None, Reason::KingsFacing));
    // Both sides pass in turn (pyffish: -32000 for White to move where
    // points count, 0 in casual janggi): White 23 points, Black 22 and
    // the bonus: Black's.
    let even = "r3k4/9/4c4/9/4p4/9/4C4/3R5/4A4/4K4 w - - 0 1";
    for (id, winner) in [
        ("janggi", Some(Color::Black)),
        ("janggimodern", Some(Color::Black)),
        ("janggicasual", None),
    ] {
        assert!(
            outcome_after(id, even, &["e1e1"]).is_none(),
            "{id}: one pass"
        );
        let o = outcome_after(id, even, &["e1e1", "e10e10"]).expect("over");
        assert_eq!((o.winner, o.reason), (winner, Reason::BothPassed), "{id}");
    }
}

/// With the kings facing, a pass in check is legal (janggi's bikjang), so
/// the position it leaves, the passer still in check, is one a game
/// reaches: its FEN is read back (a random game found this).
#[test]
fn a_pass_in_check_under_bikjang_leaves_a_position_that_reads_back() {
    let v = variant("janggi");
    // White's king on f2 is checked by the horse on e4 and faces Black's.
    let before = "rnba2b2/4ak1r1/1c5c1/2p1p2pp/p8/2P6/1P2n2PP/RC5CN/3A1K3/1NBA2B1R w - - 0 13";
    let pos = v.parse_fen(before).expect("a position");
    assert!(v.in_check(&pos));
    let legal = v.legal_moves(&pos);
    let pass = v
        .parse_move(&pos, &legal, "f2f2")
        .expect("the pass is legal");
    let after = v.play(&pos, &pass);
    let fen = v.fen(&after);
    let again = v.parse_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(v.fen(&again), fen);
    // A check on the side not to move without facing kings is refused.
    let parted = "rnba2b2/4a1kr1/1c5c1/2p1p2pp/p8/2P6/1P2n2PP/RC5CN/3A1K3/1NBA2B1R b - - 1 13";
    assert!(v.parse_fen(parted).is_err());
}

#[test]
fn shatar_scores_a_mate_by_who_gave_it() {
    use missive_rules::Reason;
    // pyffish: 32000 for Black to move: a mate by a knight alone loses
    // for the side that gives it.
    let o = outcome_after("shatar", "6rk/6pp/8/6N1/8/8/8/K7 w - - 0 1", &["g5f7"]).expect("over");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Black), Reason::Checkmate)
    );
    // -32000: a rook's mate (a shak) wins.
    let o = outcome_after("shatar", "6k1/5ppp/8/8/8/8/8/K2R4 w - - 0 1", &["d1d8"]).expect("over");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::White), Reason::Checkmate)
    );
    // 0: a bishop's mate with no shak in its series of checks is drawn.
    let o = outcome_after("shatar", "7k/5K2/p5P1/P7/8/8/8/2B5 w - - 0 1", &["c1b2"]).expect("over");
    assert_eq!((o.winner, o.reason), (None, Reason::Checkmate));
    // A king bared of every other piece: robado, drawn at once (pyffish:
    // an immediate end, 0).
    let o = outcome_after("shatar", "7k/8/p7/1B6/8/8/8/K7 w - - 0 1", &["b5a6"]).expect("over");
    assert_eq!((o.winner, o.reason), (None, Reason::Extinction));
}

/// A stored game is resumed from its FEN and its history string: what the
/// FEN leaves out (janggi's passes in a row, a mate by a dropped shogi
/// pawn) comes back from the history, so the game goes on as played.
#[test]
fn a_game_resumed_from_its_fen_keeps_what_the_fen_leaves_out() {
    use missive_rules::{Game, Reason};
    let resumed = |g: &Game| Game::restore(g.variant(), &g.fen(), &g.history_string()).unwrap();
    let even = "r3k4/9/4c4/9/4p4/9/4C4/3R5/4A4/4K4 w - - 0 1";
    let mut g = Game::new(variant("janggi"), Some(even)).unwrap();
    g.play_text("e1e1").unwrap();
    let mut g = resumed(&g);
    g.play_text("e10e10").unwrap();
    let o = g.outcome().expect("both passed");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Black), Reason::BothPassed)
    );
    // Without the history's note the second pass would not end it.
    let mut bare = Game::new(variant("janggi"), Some(even)).unwrap();
    bare.play_text("e1e1").unwrap();
    let mut bare = Game::new(variant("janggi"), Some(&bare.fen())).unwrap();
    bare.play_text("e10e10").unwrap();
    assert!(bare.outcome().is_none());

    let mut g = Game::new(variant("minishogi"), Some("kr3/1s3/G4/5/4K[P] w 0 1")).unwrap();
    g.play_text("P@a4").unwrap();
    let g = resumed(&g);
    assert_eq!(g.outcome().map(|o| o.winner), Some(Some(Color::Black)));
}

#[test]
fn chess960_draws_every_one_of_its_960_starts_and_knows_them() {
    use std::collections::HashSet;
    let v = variant("fischerandom");
    let mut seen = HashSet::new();
    for seed in 0..20_000u64 {
        let fen = v.shuffled_start(seed).expect("a shuffled start");
        let pos = v.parse_fen(&fen).expect("it reads");
        assert_eq!(v.fen(&pos), fen, "written back alike");
        assert!(v.is_shuffled_start(&fen), "{fen}");
        let rank: Vec<char> = fen
            .split('/')
            .next_back()
            .unwrap()
            .chars()
            .take(8)
            .collect();
        let at = |c: char| {
            rank.iter()
                .enumerate()
                .filter(|(_, x)| **x == c)
                .map(|(i, _)| i)
                .collect::<Vec<_>>()
        };
        let (b, r, k) = (at('B'), at('R'), at('K'));
        assert!(b[0] % 2 != b[1] % 2 && r[0] < k[0] && k[0] < r[1], "{fen}");
        seen.insert(fen);
    }
    assert_eq!(seen.len(), 960);
    assert!(v.is_shuffled_start(v.start_fen().replace("KQkq", "HAha").as_str()));
    assert!(!v.is_shuffled_start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBBKQNR w HAha - 0 1"));
    assert!(variant("normal").shuffled_start(1).is_none());
    assert!(missive_rules::variant("chess")
        .unwrap()
        .shuffled_start(1)
        .is_none());
    // Capablanca random chess: queen and archbishop on both colours too.
    let capa = variant("caparandom");
    for seed in 0..500u64 {
        let fen = capa.shuffled_start(seed).unwrap();
        let rank: Vec<char> = fen
            .split('/')
            .next_back()
            .unwrap()
            .chars()
            .take(10)
            .collect();
        let q = rank.iter().position(|c| *c == 'Q').unwrap();
        let a = rank.iter().position(|c| *c == 'A').unwrap();
        assert_ne!(q % 2, a % 2, "{fen}");
        assert!(capa.is_shuffled_start(&fen));
    }
}
