//! FIDE chess rules through the public API: each rule the server relies on.

use missive_rules::{variant, Color, FenError, Game, MoveError, Notation, Reason};

fn game(fen: &str) -> Game {
    Game::new(variant("chess").unwrap(), Some(fen)).unwrap()
}

fn start() -> Game {
    Game::new(variant("chess").unwrap(), None).unwrap()
}

fn play_all(g: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

fn legal_coords(g: &Game) -> Vec<String> {
    let mut v: Vec<String> = g
        .legal_moves()
        .iter()
        .map(|m| g.format(m, Notation::Coordinate))
        .collect();
    v.sort();
    v
}

#[test]
fn fools_mate_is_checkmate() {
    let mut g = start();
    play_all(&mut g, "f3 e5 g4 Qh4#");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Black), Reason::Checkmate)
    );
    assert_eq!(o.result_code(), "0-1");
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.play_text("a3"), Err(MoveError::GameOver));
}

#[test]
fn stalemate_is_a_draw() {
    let mut g = game("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    play_all(&mut g, "Qf7");
    let o = g.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (None, Reason::Stalemate));
}

#[test]
fn castling_both_sides_and_notations() {
    let g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let coords = legal_coords(&g);
    assert!(coords.contains(&"e1g1".to_string()) && coords.contains(&"e1c1".to_string()));
    for text in ["O-O", "0-0", "e1g1", "K e1-g1", "K e1-g1; R h1-f1"] {
        let mut g2 = g.clone();
        let p = g2.play_text(text).unwrap();
        assert_eq!(p.display, "O-O", "{text}");
        assert_eq!(g2.fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    }
    let mut g2 = g.clone();
    assert_eq!(g2.play_text("O-O-O").unwrap().coordinate, "e1c1");
    assert_eq!(g2.fen(), "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
}

#[test]
fn castling_conditions() {
    // Through check (f1 attacked by the rook on f8): no king-side castling.
    let g = game("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    let c = legal_coords(&g);
    assert!(!c.contains(&"e1g1".to_string()) && c.contains(&"e1c1".to_string()));
    let err = g.parse_move("O-O").unwrap_err();
    assert!(matches!(err, MoveError::Illegal { .. }), "{err}");
    // In check: no castling at all.
    let g = game("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1");
    assert!(!legal_coords(&g).iter().any(|m| m == "e1g1" || m == "e1c1"));
    assert!(g
        .parse_move("O-O")
        .unwrap_err()
        .to_string()
        .contains("check"));
    // A piece between: no queen-side castling; b1 attacked does not matter.
    let g = game("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(legal_coords(&g).contains(&"e1c1".to_string()));
    let g = game("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1");
    assert!(!legal_coords(&g).contains(&"e1c1".to_string()));
    // Rights lost after the king or rook moves.
    let mut g = game("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    play_all(&mut g, "Rh2 Kd8 Rh1 Ke8");
    assert!(!legal_coords(&g).contains(&"e1g1".to_string()));
    assert!(legal_coords(&g).contains(&"e1c1".to_string()));
}

#[test]
fn en_passant_only_right_after_the_double_step() {
    let mut g = game("4k3/8/8/8/1p6/8/P7/4K3 w - - 0 1");
    play_all(&mut g, "a4");
    assert!(g.fen().contains(" a3 "), "{}", g.fen());
    assert!(legal_coords(&g).contains(&"b4a3".to_string()));
    let p = g.play_text("bxa3").unwrap();
    assert_eq!(p.coordinate, "b4a3");
    assert_eq!(g.fen(), "4k3/8/8/8/8/p7/8/4K3 w - - 0 2");
    // Not a move later.
    let mut g = game("4k3/8/8/8/1p6/8/P7/4K3 w - - 0 1");
    play_all(&mut g, "a4 Kd8 Kd1");
    assert!(!legal_coords(&g).contains(&"b4a3".to_string()));
}

#[test]
fn en_passant_square_written_only_when_capturable() {
    let mut g = start();
    play_all(&mut g, "e4");
    assert_eq!(
        g.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
}

#[test]
fn promotion_choices_and_forms() {
    let g = game("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    let c = legal_coords(&g);
    for p in ["e7e8q", "e7e8r", "e7e8b", "e7e8n"] {
        assert!(c.contains(&p.to_string()));
    }
    for (text, fen_piece) in [
        ("e8=Q", "Q"),
        ("e8Q", "Q"),
        ("e7e8n", "N"),
        ("P e7-e8; R*e8", "R"),
        ("e8=B", "B"),
    ] {
        let mut g2 = g.clone();
        g2.play_text(text).unwrap();
        assert!(
            g2.fen().starts_with(&format!("4{fen_piece}3/")),
            "{text}: {}",
            g2.fen()
        );
    }
    // Unsaid promotion piece: ambiguous, listing the choices.
    let err = g.parse_move("e7e8").unwrap_err();
    assert!(
        matches!(err, MoveError::Ambiguous { ref candidates, .. } if candidates.len() == 4),
        "{err}"
    );
    let err = g.parse_move("e8=K").unwrap_err();
    assert!(matches!(err, MoveError::Illegal { .. }), "{err}");
}

#[test]
fn threefold_repetition_draws() {
    let mut g = start();
    play_all(&mut g, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    assert!(g.outcome().is_none());
    play_all(&mut g, "Ng8");
    let o = g.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (None, Reason::Repetition));
}

#[test]
fn fifty_move_rule_draws() {
    let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    play_all(&mut g, "Ra2");
    assert_eq!(g.outcome().unwrap().reason, Reason::MoveCountRule);
    // A checkmate on the 100th ply stands.
    let mut g = game("k7/8/1K6/8/8/8/8/7R w - - 99 80");
    play_all(&mut g, "Rh8#");
    assert_eq!(g.outcome().unwrap().reason, Reason::Checkmate);
}

#[test]
fn bare_kings_are_a_dead_draw() {
    let mut g = game("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1");
    play_all(&mut g, "Kxd2");
    assert_eq!(g.outcome().unwrap().reason, Reason::InsufficientMaterial);
}

#[test]
fn check_must_be_answered_and_pins_hold() {
    let g = game("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
    assert!(g.in_check());
    assert_eq!(legal_coords(&g), vec!["e1d1", "e1e2", "e1f1"]);
    // A pinned knight cannot move; the message says why.
    let g = game("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    let err = g.parse_move("Nf4").unwrap_err();
    assert!(
        err.to_string().contains("leave your King in check"),
        "{err}"
    );
}

#[test]
fn illegal_moves_explain_and_list_alternatives() {
    let g = start();
    match g.parse_move("Ng3").unwrap_err() {
        MoveError::Illegal {
            reason,
            alternatives,
            ..
        } => {
            assert!(reason.contains("Knight"), "{reason}");
            assert_eq!(alternatives, vec!["Na3", "Nc3", "Nf3", "Nh3"]);
        }
        e => panic!("{e:?}"),
    }
    match g.parse_move("g1g3").unwrap_err() {
        MoveError::Illegal {
            reason,
            alternatives,
            ..
        } => {
            assert!(reason.contains("Knight on g1 cannot go to g3"), "{reason}");
            assert_eq!(alternatives, vec!["Nf3", "Nh3"]);
        }
        e => panic!("{e:?}"),
    }
    assert!(g
        .parse_move("e3e4")
        .unwrap_err()
        .to_string()
        .contains("no piece on e3"));
    assert!(g
        .parse_move("e7e5")
        .unwrap_err()
        .to_string()
        .contains("not yours"));
    assert!(g
        .parse_move("e2e9")
        .unwrap_err()
        .to_string()
        .contains("not a square"));
    assert!(matches!(
        g.parse_move("hello"),
        Err(MoveError::Syntax { .. })
    ));
    assert!(matches!(g.parse_move("   "), Err(MoveError::Empty)));
    assert!(g
        .parse_move("Bc4")
        .unwrap_err()
        .to_string()
        .contains("Bishop"));
}

#[test]
fn ambiguous_san_needs_disambiguation() {
    let g = game("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    let err = g.parse_move("Nd2").unwrap_err();
    assert!(
        matches!(err, MoveError::Ambiguous { ref candidates, .. } if candidates == &vec!["Nbd2".to_string(), "Nfd2".to_string()]),
        "{err}"
    );
    let mut g2 = g.clone();
    assert_eq!(g2.play_text("Nbd2").unwrap().coordinate, "b1d2");
    let mut g2 = g.clone();
    assert_eq!(g2.play_text("Nf1d2").unwrap().display, "Nfd2");
}

#[test]
fn comments_are_kept_apart() {
    let mut g = start();
    let p = g.play_text("e4 // the best by test").unwrap();
    assert_eq!(p.comment.as_deref(), Some("the best by test"));
    assert_eq!(p.display, "e4");
    assert_eq!(p.game_courier, "P e2-e4");
}

#[test]
fn check_and_mate_marks_in_display() {
    let mut g = game("k7/2K5/8/8/8/8/8/7R w - - 0 1");
    let p = g.clone().play_text("Rh7").unwrap();
    assert_eq!(p.display, "Rh7");
    let p = g.play_text("Ra1").unwrap();
    assert_eq!(p.display, "Ra1#");
    let mut g = game("k7/8/8/8/8/8/8/K6R w - - 0 1");
    assert_eq!(g.play_text("Rh8").unwrap().display, "Rh8+");
}

#[test]
fn fen_errors_are_typed() {
    let v = variant("chess").unwrap();
    let cases = [
        ("", "empty"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "rows"),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "squares",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            "not a piece",
        ),
        (
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            "exactly one King",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "side to move",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            "castling right",
        ),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "pawn cannot stand"),
        ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "not to move is in check"),
        ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "en passant"),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove"),
    ];
    for (fen, needle) in cases {
        let e = v.parse_fen(fen).unwrap_err();
        assert!(e.to_string().contains(needle), "{fen}: {e}");
        assert!(matches!(e, FenError::Syntax(_) | FenError::Invalid(_)));
    }
}

/// Shredder-FEN castling letters (the rook's file, as Chess960 tools write
/// them) are read as the standard rights; written back as `KQkq`.
#[test]
fn shredder_fen_castling_letters_are_read() {
    let v = variant("chess").unwrap();
    for (shredder, standard) in [("AHah", "KQkq"), ("Hq", "Kq"), ("Aa", "Qq"), ("hK", "Kk")] {
        let a = v
            .parse_fen(&format!("r3k2r/8/8/8/8/8/8/R3K2R w {shredder} - 0 1"))
            .unwrap();
        let b = v
            .parse_fen(&format!("r3k2r/8/8/8/8/8/8/R3K2R w {standard} - 0 1"))
            .unwrap();
        assert_eq!(v.fen(&a), v.fen(&b), "{shredder}");
        let count = |fen: &str| Game::new(v, Some(fen)).unwrap().legal_moves().len();
        assert_eq!(count(&v.fen(&a)), count(&v.fen(&b)));
    }
    // A letter with no castling partner on its file is refused, as before.
    for rights in ["Bb", "Z", "1"] {
        let e = v
            .parse_fen(&format!("r3k2r/8/8/8/8/8/8/R3K2R w {rights} - 0 1"))
            .unwrap_err();
        assert!(e.to_string().contains("castling right"), "{rights}: {e}");
    }
}

#[test]
fn history_round_trips_through_storage() {
    let v = variant("chess").unwrap();
    let mut g = start();
    play_all(&mut g, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    let restored = Game::restore(v, &g.fen(), &g.history_string()).unwrap();
    assert_eq!(restored.ply(), 7);
    let mut restored = restored;
    restored.play_text("Ng8").unwrap();
    assert_eq!(restored.outcome().unwrap().reason, Reason::Repetition);
    assert!(Game::restore(v, &g.fen(), "zz,12").is_err());
}

#[test]
fn history_is_written_as_sixteen_hex_digits_and_read_in_any_earlier_form() {
    let v = variant("chess").unwrap();
    let mut g = start();
    play_all(&mut g, "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#");
    let want: Vec<String> = g
        .history()
        .iter()
        .map(|h| format!("{:016x}{}", h.key, if h.checked { "+" } else { "" }))
        .collect();
    assert_eq!(g.history_string(), want.join(","));
    assert!(g.history_string().ends_with('+'), "the mate is a check");
    assert_eq!(&g.last_history_entry(), want.last().unwrap());
    // A move adds its entry after a comma (the server stores it that way).
    let before = Game::restore(v, &start().fen(), "")
        .unwrap()
        .history_string();
    let mut one = start();
    play_all(&mut one, "e4");
    assert_eq!(
        one.history_string(),
        format!("{before},{}", one.last_history_entry())
    );
    // Upper case, short keys and a leading '+' are what `from_str_radix`
    // reads, and still are read.
    let keys = |h: &str| -> Vec<(u64, bool)> {
        Game::restore(v, &g.fen(), h)
            .unwrap()
            .history()
            .iter()
            .map(|e| (e.key, e.checked))
            .collect()
    };
    let upper = g.history_string().to_uppercase();
    assert_eq!(keys(&upper), keys(&g.history_string()));
    let odd = keys("ABCDEF0123456789,1f+,+2a");
    assert_eq!(
        odd[..3],
        [(0xABCD_EF01_2345_6789, false), (0x1f, true), (0x2a, false)]
    );
    for bad in ["0123456789abcdeg", "12345678901234567", "-1", "x+"] {
        assert!(Game::restore(v, &g.fen(), bad).is_err(), "{bad}");
    }
}

#[test]
fn replay_reports_the_failing_ply() {
    let v = variant("chess").unwrap();
    let err = Game::replay(v, None, &["e4", "e5", "Ke3"]).err().unwrap();
    assert!(
        matches!(err, missive_rules::ReplayError::Move(2, _)),
        "{err}"
    );
    assert!(err.to_string().starts_with("ply 3"));
}

/// Bishops all on squares of one colour, of either side and however many,
/// can never mate (FIDE 5.2.2; Fairy-Stockfish calls both sides' material
/// insufficient, pyffish 0.0.90): the game is drawn at once.
#[test]
fn bishops_all_on_one_colour_are_a_dead_position() {
    for fen in [
        "8/8/3bk3/8/8/3KB3/8/8 w - - 0 1",
        "8/8/4k3/8/8/2BKB3/8/8 w - - 0 1",
        "1b6/8/4k3/8/8/2BKB3/8/B7 w - - 0 1",
        "8/8/4k3/8/8/3KB3/8/8 w - - 0 1",
        "8/8/4k3/8/8/3KN3/8/8 w - - 0 1",
    ] {
        let o = game(fen).outcome();
        assert_eq!(
            o.map(|o| (o.winner, o.reason)),
            Some((None, Reason::InsufficientMaterial)),
            "{fen}"
        );
    }
    // Fairy-Stockfish plays these on: Bishops on both colours, a Knight
    // with any other minor piece, a pawn.
    for fen in [
        "8/8/4k3/8/8/3KBB2/8/8 w - - 0 1",
        "8/8/8/3bk3/8/3KB3/8/8 w - - 0 1",
        "8/8/4kn2/8/8/3KN3/8/8 w - - 0 1",
        "8/8/4k3/8/8/3KNN2/8/8 w - - 0 1",
        "8/8/4kn2/8/8/3KB3/8/8 w - - 0 1",
        "8/8/4k3/8/8/2NKB3/8/8 w - - 0 1",
        "8/8/4k3/8/8/3KP3/8/8 w - - 0 1",
    ] {
        assert_eq!(game(fen).outcome(), None, "{fen}");
    }
    // Reached by a capture, as the game ends.
    let mut g = game("8/8/3bk3/8/8/3KB3/5n2/8 w - - 0 1");
    play_all(&mut g, "Bxf2");
    assert_eq!(g.outcome().unwrap().reason, Reason::InsufficientMaterial);
}

/// A check or mate mark that is wrong is refused, naming the move without
/// it; a right one is taken in every notation, Game Courier's included.
#[test]
fn check_and_mate_marks_are_held_against_the_move() {
    let g = start();
    for text in ["e4+", "e4#", "e4++", "Nf3+", "e2e4+", "P e2-e4+", "g1f3#"] {
        match g.parse_move(text) {
            Err(MoveError::Illegal { input, reason, .. }) => {
                assert_eq!(input, text);
                let plain = text.trim_end_matches(['+', '#']);
                assert!(reason.contains(&format!("“{plain}”")), "{text}: {reason}");
                assert!(reason.contains("gives none"), "{text}: {reason}");
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    // e2-e4 checks the King on f5 (the pawn attacks d5 and f5).
    let g = game("8/8/8/5k2/8/8/4P3/4K3 w - - 0 1");
    for text in ["e4+", "e2e4+", "P e2-e4+", "P e2-e4 +", "e4+!", "e4"] {
        let (mv, _) = g.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(g.format(&mv, Notation::Display), "e4+");
    }
    for text in ["e4#", "P e2-e4#", "e4++"] {
        match g.parse_move(text) {
            Err(MoveError::Illegal { reason, .. }) => {
                assert!(reason.contains("without mating"), "{text}: {reason}");
                assert!(
                    reason.contains("“e4+”") || reason.contains("“P e2-e4+”"),
                    "{reason}"
                );
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    // A mate takes `#`, `++` and `+` (a mate is a check), in every form.
    let g = game("k7/2K5/8/8/8/8/8/7R w - - 0 1");
    for text in ["Ra1#", "Ra1++", "Ra1+", "h1a1#", "R h1-a1#"] {
        assert!(g.parse_move(text).is_ok(), "{text}");
    }
    assert!(g.parse_move("Rh7+").is_err());
}
