//! Leaperhouse: Fairy-Stockfish vectors (perft, move lists, FEN), one test
//! per rule sentence of the seed page and the rulings, notation and
//! robustness.
//!
//! Every position below other than the vectors is small and hand-checked;
//! the comment next to each says why the asserted moves are what they are.

use missive_rules::perft::perft;
use missive_rules::{
    variant, FenError, Game, MoveError, Notation, Outcome, Position, Reason, Variant,
};
use missive_rules::{Color, Move};

fn v() -> &'static dyn Variant {
    variant("leaperhouse").expect("leaperhouse is registered")
}

fn pos(fen: &str) -> Position {
    v().parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Legal moves in coordinate form, sorted.
fn coords(p: &Position) -> Vec<String> {
    let mut out: Vec<String> = v()
        .legal_moves(p)
        .iter()
        .map(|m| v().format_move(p, m, Notation::Coordinate))
        .collect();
    out.sort();
    out
}

fn coords_of(fen: &str) -> Vec<String> {
    coords(&pos(fen))
}

fn has(fen: &str, mv: &str) -> bool {
    coords_of(fen).iter().any(|m| m == mv)
}

/// Legal moves starting from `from` (coordinate prefix).
fn moves_from(fen: &str, from: &str) -> Vec<String> {
    coords_of(fen)
        .into_iter()
        .filter(|m| {
            m.strip_prefix(from)
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_lowercase()))
        })
        .collect()
}

fn find(p: &Position, text: &str) -> Move {
    let legal = v().legal_moves(p);
    v().parse_move(p, &legal, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn game(fen: &str) -> Game {
    Game::new(v(), Some(fen)).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play_all(g: &mut Game, moves: &[&str]) {
    for m in moves {
        g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

const START: &str = "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECNU[] w - - 0 1";
const PERFT: &str = include_str!("vectors/leaperhouse-perft.txt");
const MOVES: &str = include_str!("vectors/leaperhouse-moves.txt");

// ---------------------------------------------------------------- vectors

#[test]
fn start_position_perft() {
    let p = pos(START);
    assert_eq!(perft(v(), &p, 1), 28);
    assert_eq!(perft(v(), &p, 2), 784);
    assert_eq!(perft(v(), &p, 3), 22_456);
    assert_eq!(perft(v(), &p, 4), 636_196);
}

/// Every count of the Fairy-Stockfish perft file, depths 1 to 3 (the
/// largest is 20.6 million leaves; the whole file runs in about a second).
#[test]
fn fairy_stockfish_perft_vectors() {
    let mut lines = 0;
    for line in PERFT.lines().filter(|l| !l.trim().is_empty()) {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap();
        let p = pos(fen);
        for field in parts {
            let (d, n) = field.trim().split_once(' ').unwrap();
            let depth: u32 = d.trim_start_matches('D').parse().unwrap();
            let expected: u64 = n.parse().unwrap();
            assert_eq!(perft(v(), &p, depth), expected, "{fen} depth {depth}");
        }
        lines += 1;
    }
    assert_eq!(lines, 20);
}

#[test]
fn fairy_stockfish_move_lists() {
    let mut lines = 0;
    for line in MOVES.lines().filter(|l| !l.trim().is_empty()) {
        let (fen, list) = line.split_once(';').unwrap();
        let mut expected: Vec<String> = list.split_whitespace().map(String::from).collect();
        expected.sort();
        assert_eq!(coords_of(fen), expected, "{fen}");
        lines += 1;
    }
    assert_eq!(lines, 5);
}

/// FEN is read and written exactly as Fairy-Stockfish writes it: pockets
/// in `[...]` (White first, in FSF's piece order), `+P` for a Guard.
#[test]
fn fen_round_trips_every_vector_position() {
    assert_eq!(v().fen(&pos(START)), START);
    for line in PERFT.lines().chain(MOVES.lines()) {
        let fen = line.split(';').next().unwrap();
        if fen.trim().is_empty() {
            continue;
        }
        assert_eq!(v().fen(&pos(fen)), fen);
    }
}

#[test]
fn fen_pocket_order_is_fairy_stockfishs_whatever_the_input_order() {
    // Hand given in a scrambled order is written U A C E P N, White first.
    let p = pos("4k5/10/10/10/10/10/10/10/10/4K5[NPECAUnpecau] w - - 0 1");
    assert_eq!(
        v().fen(&p),
        "4k5/10/10/10/10/10/10/10/10/4K5[UACEPNuacepn] w - - 0 1"
    );
}

/// Halfmove clock as Fairy-Stockfish keeps it: plies since the last
/// capture (a shogi pawn's move does not reset it); the move number
/// grows after Black's move.
#[test]
fn fen_counters_follow_fairy_stockfish() {
    let mut g = game("4k5/10/10/4p5/10/10/10/3N6/4P5/4K5[] w - - 7 12");
    play_all(&mut g, &["e2e3"]);
    assert!(g.fen().ends_with(" b - - 8 12"), "{}", g.fen());
    play_all(&mut g, &["e7e6"]);
    assert!(g.fen().ends_with(" w - - 9 13"), "{}", g.fen());
    // Knight d3-f4 (no capture), then f4xe6 resets the clock.
    play_all(&mut g, &["d3f4", "e10d10", "f4e6"]);
    assert!(g.fen().ends_with("[P] b - - 0 14"), "{}", g.fen());
}

// ---------------------------------------------------------------- pieces

/// A piece of `letter` alone on e5 (Kings on a1 / j10) and its moves.
fn lone(letter: &str) -> Vec<String> {
    let fen = format!("9k/10/10/10/10/4{letter}5/10/10/10/K9[] w - - 0 1");
    moves_from(&fen, "e5")
}

#[test]
fn pieces_move_as_the_rulings_define_them() {
    let set = |v: &[&str]| {
        let mut v: Vec<String> = v.iter().map(|s| format!("e5{s}")).collect();
        v.sort();
        v
    };
    // Knight (1,2).
    assert_eq!(
        lone("N"),
        set(&["c4", "c6", "d3", "d7", "f3", "f7", "g4", "g6"])
    );
    // Bull = (2,0) + (2,2).
    assert_eq!(
        lone("U"),
        set(&["c3", "c5", "c7", "e3", "e7", "g3", "g5", "g7"])
    );
    // Camel (3,1).
    assert_eq!(
        lone("C"),
        set(&["b4", "b6", "d2", "d8", "f2", "f8", "h4", "h6"])
    );
    // Elephant = zebra (3,2).
    assert_eq!(
        lone("E"),
        set(&["b3", "b7", "c2", "c8", "g2", "g8", "h3", "h7"])
    );
    // Ram = (3,0) + (3,3).
    assert_eq!(
        lone("A"),
        set(&["b2", "b5", "b8", "e2", "e8", "h2", "h5", "h8"])
    );
    // Pawn: one step straight forward (no double step).
    assert_eq!(lone("P"), set(&["e6"]));
}

/// "The King is a normal king" (the page's forward-moving King is a slip).
#[test]
fn king_moves_one_square_in_every_direction() {
    let fen = "9k/10/10/10/10/4K5/10/10/10/10[] w - - 0 1";
    assert_eq!(moves_from(fen, "e5").len(), 8);
    assert!(has(fen, "e5e4"), "the King also moves backwards");
}

/// "Leaper pieces can pass pieces on the path as they move."
#[test]
fn leapers_jump_over_pieces() {
    // Ram e5 over e6 (pawn) and e7 (knight) to e8; Bull g5 over g6 to g7.
    let fen = "9k/10/10/4n5/4p1p3/4A1U3/10/10/10/K9[] w - - 0 1";
    assert!(has(fen, "e5e8"));
    assert!(has(fen, "g5g7"));
}

/// Shogi pawn: moves and captures one square straight forward only.
#[test]
fn pawn_captures_straight_forward_only() {
    // Black pieces on d6, e6, f6: only e5xe6.
    let fen = "9k/10/10/10/3nnn4/4P5/10/10/10/K9[] w - - 0 1";
    assert_eq!(moves_from(fen, "e5"), vec!["e5e6"]);
    // And no double step from the start rank.
    assert!(has(START, "e3e4"));
    assert!(!has(START, "e3e5"));
}

/// "The Guard moves one square in any direction, like a king but not royal."
#[test]
fn guard_moves_like_a_king() {
    assert_eq!(lone("+P").len(), 8);
    assert!(lone("+P").contains(&"e5e4".to_string()));
}

#[test]
fn guard_is_not_royal() {
    // The black Knight on c6 attacks the Guard on e5 (and d4): that is no
    // check, White may play anything, and the Guard may step onto d4.
    let fen = "9k/10/10/10/2n7/4+P5/10/10/10/K9[] w - - 0 1";
    assert!(!v().in_check(&pos(fen)));
    assert!(has(fen, "a1a2"));
    assert!(has(fen, "e5d4"));
}

/// "Your piece cannot move to a square where a friendly piece exists";
/// "there is no passing a turn".
#[test]
fn no_move_onto_a_friendly_piece_and_no_pass() {
    // Knight b1: a3 and c3 hold White Pawns, only d2 is free.
    assert_eq!(moves_from(START, "b1"), vec!["b1d2"]);
    let p = pos(START);
    assert!(v().legal_moves(&p).iter().all(|m| m.from != m.to));
}

/// "A promoted piece maintains its promoted state until it is captured."
#[test]
fn guard_stays_a_guard_outside_the_camp() {
    let mut g = game("9k/10/10/4+P5/10/10/10/10/10/K9[] w - - 0 1");
    play_all(&mut g, &["e7e6", "j10j9", "e6e5"]);
    assert!(g.fen().contains("4+P5"), "{}", g.fen());
}

// ---------------------------------------------------------------- captures and hands

/// "Captured pieces go to the captor's hand unpromoted": a captured Guard
/// returns to the hand as a Pawn.
#[test]
fn captured_guard_returns_to_hand_as_a_pawn() {
    let mut g = game("9k/10/10/10/2n7/4+P5/10/10/10/K9[] b - - 3 1");
    play_all(&mut g, &["c6e5"]);
    assert_eq!(g.fen(), "9k/10/10/10/10/4n5/10/10/10/K9[p] w - - 0 2");
    // ... and Black may later drop it as a Pawn.
    play_all(&mut g, &["a1a2", "P@e7"]);
    assert!(g.fen().starts_with("9k/10/10/4p5/"), "{}", g.fen());
}

#[test]
fn captured_piece_goes_to_the_captors_hand() {
    let mut g = game("9k/10/10/10/2n7/10/3N6/10/10/K9[] w - - 0 1");
    play_all(&mut g, &["d4c6"]);
    assert_eq!(g.fen(), "9k/10/10/10/2N7/10/10/10/10/K9[N] b - - 0 1");
}

// ---------------------------------------------------------------- promotion

/// "A pawn moving into the camp (ranks 8-10) must promote."
#[test]
fn pawn_promotes_on_entering_the_camp() {
    let fen = "9k/10/10/4P5/10/10/10/10/10/K9[] w - - 0 1";
    assert_eq!(moves_from(fen, "e7"), vec!["e7e8+"]);
    let mut g = game(fen);
    play_all(&mut g, &["e7e8+"]);
    assert!(g.fen().starts_with("9k/10/4+P5/"), "{}", g.fen());
}

/// The camp is ranks 8-10, not the page's 7-9: rank 6 to 7 does not promote.
#[test]
fn pawn_does_not_promote_before_the_camp() {
    let fen = "9k/10/10/10/4P5/10/10/10/10/K9[] w - - 0 1";
    assert_eq!(moves_from(fen, "e6"), vec!["e6e7"]);
}

/// Black's camp is ranks 3-1.
#[test]
fn black_pawn_promotes_in_its_camp() {
    let fen = "9k/10/10/10/10/10/4p5/10/10/K9[] b - - 0 1";
    assert_eq!(moves_from(fen, "e4"), vec!["e4e3+"]);
}

/// "A pawn dropped into the camp stays a pawn until it moves" (no
/// promotion on a drop) and "a pawn moving within the camp must promote".
#[test]
fn pawn_dropped_in_camp_stays_a_pawn_and_promotes_when_it_moves() {
    let mut g = game("9k/10/10/10/10/10/10/10/10/K9[P] w - - 0 1");
    play_all(&mut g, &["P@e8"]);
    assert!(g.fen().starts_with("9k/10/4P5/"), "{}", g.fen());
    play_all(&mut g, &["j10j9"]);
    let fen = g.fen();
    assert_eq!(moves_from(&fen, "e8"), vec!["e8e9+"]);
    play_all(&mut g, &["e8e9+"]);
    assert!(g.fen().starts_with("10/4+P4k/"), "{}", g.fen());
}

// ---------------------------------------------------------------- drops

/// "You may place a handpiece on any empty square instead of moving."
#[test]
fn pieces_drop_on_any_empty_square_even_the_last_rank() {
    let fen = "9k/10/10/10/10/10/10/10/10/K9[C] w - - 0 1";
    let drops: Vec<String> = coords_of(fen)
        .into_iter()
        .filter(|m| m.starts_with("C@"))
        .collect();
    assert_eq!(drops.len(), 98, "every square but the two Kings'");
    assert!(drops.contains(&"C@e10".to_string()));
}

/// "No pawn drop on the last rank (10 for White, 1 for Black)."
#[test]
fn no_pawn_drop_on_the_last_rank() {
    let white = "9k/10/10/10/10/10/10/10/10/K9[P] w - - 0 1";
    let w = coords_of(white);
    assert!(!w.iter().any(|m| m.starts_with("P@") && m.ends_with("10")));
    assert!(w.contains(&"P@e9".to_string()));
    let black = "9k/10/10/10/10/10/10/10/10/K9[p] b - - 0 1";
    let b = coords_of(black);
    assert!(!b.iter().any(|m| m.starts_with("P@") && m[3..] == *"1"));
    assert!(b.contains(&"P@e2".to_string()));
}

/// "No pawn drop on a file holding one's own unpromoted pawn." A Guard
/// does not count, nor does an enemy Pawn.
#[test]
fn no_two_unpromoted_pawns_on_a_file() {
    // White Pawn e3, White Guard d5, Black Pawn f7.
    let fen = "9k/10/10/5p4/10/3+P6/10/4P5/10/K9[P] w - - 0 1";
    let c = coords_of(fen);
    assert!(!c.iter().any(|m| m.starts_with("P@e")));
    assert!(c.contains(&"P@d4".to_string()));
    assert!(c.contains(&"P@f5".to_string()));
    let g = game(fen);
    match g.parse_move("P@e6") {
        Err(MoveError::Illegal { reason, .. }) => assert!(reason.contains("e-file"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

/// A drop cannot answer a check: nothing blocks a leaper.
#[test]
fn drops_do_not_answer_a_check() {
    // Black Knight c2 checks the King on a1.
    let fen = "9k/10/10/10/10/10/10/10/2n7/K9[CP] w - - 0 1";
    let c = coords_of(fen);
    assert!(!c.iter().any(|m| m.contains('@')));
    let mut sorted = c.clone();
    sorted.sort();
    assert_eq!(sorted, vec!["a1a2", "a1b1", "a1b2"]);
    let g = game(fen);
    match g.parse_move("C@b3") {
        Err(MoveError::Illegal { reason, .. }) => assert!(reason.contains("check"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------- end of game

/// Black King e10; White Bull d8 covers d10 and f10; White Guard e8
/// covers d9, e9, f9.
const MATE_NET: &str = "4k5/10/3U+P5/10/10/10/10/10/10/K9";

/// "Unlike in Shogi, you can deliver checkmate by dropping a Pawn."
#[test]
fn pawn_drop_mate_is_legal_and_wins() {
    let mut g = game(&format!("{MATE_NET}[P] w - - 0 1"));
    let played = g.play_text("P@e9").unwrap();
    assert_eq!(played.display, "P@e9#");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::White, Reason::Checkmate))
    );
    assert!(g.legal_moves().is_empty());
}

/// "You can deliver a check or checkmate to your opponent by dropping a piece."
#[test]
fn drop_mate_is_legal_and_wins() {
    let mut g = game(&format!("{MATE_NET}[N] w - - 0 1"));
    play_all(&mut g, &["N@g9"]);
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::White, Reason::Checkmate))
    );
}

/// "The player who can no longer move or drop pieces loses."
#[test]
fn stalemate_loses() {
    // Black King a10: a9 (Bull a7), b9 (Knight c7), b10 (Knight d9) are
    // attacked, a10 is not; Black has nothing else.
    let fen = "k9/3N6/10/U1N7/10/10/10/10/10/9K[] b - - 0 1";
    let g = game(fen);
    assert!(!g.in_check());
    assert!(g.legal_moves().is_empty());
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::White, Reason::Stalemate))
    );
    // A piece in hand is a way out: dropping it is a move.
    let g = game("k9/3N6/10/U1N7/10/10/10/10/10/9K[n] b - - 0 1");
    assert_eq!(g.outcome(), None);
}

/// "The player whose King reaches the last rank first wins (campmate)."
#[test]
fn campmate_wins() {
    let mut g = game("10/4K1n3/10/10/10/10/10/k9/10/10[] w - - 0 1");
    play_all(&mut g, &["e9d10"]);
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::White, Reason::Campmate))
    );
    assert!(g.legal_moves().is_empty());
    // Black's King reaching rank 1 wins for Black.
    let mut g = game("10/10/10/4K5/10/10/10/10/1k8/10[] b - - 0 1");
    play_all(&mut g, &["b2b1"]);
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::Black, Reason::Campmate))
    );
}

/// "When the King reaches the last rank, that square must not be attacked."
#[test]
fn campmate_only_onto_an_unattacked_square() {
    // The black Knight g9 attacks e10 (and e8), not d10 or f10.
    let fen = "10/4K1n3/10/10/10/10/10/k9/10/10[] w - - 0 1";
    assert!(!has(fen, "e9e10"));
    assert!(has(fen, "e9d10"));
    assert!(has(fen, "e9f10"));
    match game(fen).parse_move("K e9-e10") {
        Err(MoveError::Illegal { reason, .. }) => assert!(reason.contains("attacked"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

/// Perft convention: a position where the King of the side that just
/// moved stands on its far rank has no moves.
#[test]
fn position_after_campmate_has_no_moves() {
    let p = pos("4K5/10/10/10/10/10/10/k9/10/10[p] b - - 0 1");
    assert!(v().legal_moves(&p).is_empty());
    assert_eq!(
        v().outcome(&p, &[]),
        Some(Outcome::win(Color::White, Reason::Campmate))
    );
}

/// "There is no castling. There is no 50-move rule."
#[test]
fn no_castling_and_no_fifty_move_rule() {
    assert_eq!(moves_from(START, "e1"), vec!["e1d2", "e1e2", "e1f2"]);
    let g = game("9k/10/10/10/10/10/10/10/10/K9[] w - - 250 300");
    assert_eq!(g.outcome(), None);
    assert!(v()
        .parse_fen("9k/10/10/10/10/10/10/10/10/K9[] w KQkq - 0 1")
        .is_err());
}

// ---------------------------------------------------------------- repetition

const KINGS: &str = "4k5/10/10/10/10/10/10/10/10/4K5[] w - - 0 1";

/// "A move that would make the same position occur for the third time is illegal."
#[test]
fn third_occurrence_is_illegal() {
    let mut g = game(KINGS);
    play_all(
        &mut g,
        &["e1d1", "e10d10", "d1e1", "d10e10", "e1d1", "e10d10", "d1e1"],
    );
    let legal: Vec<String> = g
        .legal_moves()
        .iter()
        .map(|m| g.format(m, Notation::Coordinate))
        .collect();
    assert!(!legal.contains(&"d10e10".to_string()));
    assert!(legal.contains(&"d10c10".to_string()));
    match g.parse_move("d10e10") {
        Err(MoveError::Illegal { reason, .. }) => assert!(reason.contains("third"), "{reason}"),
        other => panic!("{other:?}"),
    }
    // The same position a second time was fine (it happened above).
    assert!(g.play_text("d10c10").is_ok());
}

/// Knight e6 / g7 checking the King on e8 / f8 in a cycle.
const PERPETUAL: &str = "10/10/4k5/10/4N5/10/10/10/10/K9[] w - - 0 1";
const CYCLE: [&str; 4] = ["e6g7", "e8f8", "g7e6", "f8e8"];

/// "A player who receives check repeatedly does not lose by the
/// repetition rule": the checked side may make the third occurrence.
#[test]
fn checked_side_may_repeat_a_third_time() {
    let mut g = game(PERPETUAL);
    play_all(&mut g, &CYCLE);
    play_all(&mut g, &CYCLE[..3]);
    assert!(g.in_check());
    // f8e8 makes the start position occur a third time: allowed, since
    // every White move since its first occurrence gave check.
    assert!(g.play_text("f8e8").is_ok());
}

/// "It is impossible to win by repeatedly checking": the checker may not.
#[test]
fn checking_side_may_not_repeat_a_third_time() {
    let mut g = game(PERPETUAL);
    play_all(&mut g, &CYCLE);
    play_all(&mut g, &CYCLE);
    // e6g7 would make the position after 1. Ng7+ occur a third time, and
    // Black's moves since were not checks.
    assert!(g.parse_move("e6g7").is_err());
    assert!(g.play_text("a1a2").is_ok());
}

/// The exception needs every opponent move since the first occurrence to
/// have been a check; one quiet move is enough to lose it.
#[test]
fn checked_side_may_not_repeat_when_one_move_was_no_check() {
    let mut g = game(PERPETUAL);
    play_all(&mut g, &CYCLE);
    play_all(&mut g, &["a1b1", "e8e9", "b1a1"]);
    assert!(g.parse_move("e9e8").is_err());
    assert!(g.play_text("e9e10").is_ok());
}

/// "A player left with no legal move by this rule has lost by stalemate."
#[test]
fn no_move_left_by_repetition_is_a_stalemate_loss() {
    // Black King limited to a10 and b10: a9 and c9 (Bull a7), b9 and c10
    // (Knight d8) are attacked.
    let mut g = game("k9/10/3N6/U9/10/10/10/10/10/9K[] w - - 0 1");
    play_all(
        &mut g,
        &["j1i1", "a10b10", "i1j1", "b10a10", "j1i1", "a10b10", "i1j1"],
    );
    assert!(g.legal_moves().is_empty());
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::White, Reason::Stalemate))
    );
}

// ---------------------------------------------------------------- notation

#[test]
fn coordinate_display_and_game_courier_forms() {
    let p = pos(START);
    let m = find(&p, "b1d2");
    assert_eq!(v().format_move(&p, &m, Notation::Display), "Nd2");
    assert_eq!(v().format_move(&p, &m, Notation::GameCourier), "N b1-d2");
    for text in ["Nd2", "N b1-d2", "b1-d2", "Nb1d2", "b1d2"] {
        assert_eq!(find(&p, text), m, "{text}");
    }

    // Drops: C@e5 / C*e5; Black's drop letter is upper case in coordinates.
    let p = pos("unceake1nu/10/pppppppp1p/8p1/10/10/10/PPPPPPPPPP/10/UNCEK1ECNU[Ca] w - - 0 3");
    let m = find(&p, "C@e5");
    assert_eq!(v().format_move(&p, &m, Notation::Display), "C@e5");
    assert_eq!(v().format_move(&p, &m, Notation::GameCourier), "C*e5");
    assert_eq!(find(&p, "C*e5"), m);
    let p = pos("unceake1nu/10/pppppppp1p/8p1/10/10/4P5/PPPP1PPPPP/10/UNCEK1ECNU[Ca] b - - 0 3");
    let m = find(&p, "a*e6");
    assert_eq!(v().format_move(&p, &m, Notation::Coordinate), "A@e6");
    assert_eq!(v().format_move(&p, &m, Notation::GameCourier), "a*e6");

    // Promotion: e7e8+, e8+, P e7-e8; +P*e8 (Game Courier promotes by itself).
    let p = pos("9k/10/10/4P5/10/10/10/10/10/K9[] w - - 0 1");
    let m = find(&p, "e7e8+");
    assert_eq!(v().format_move(&p, &m, Notation::Display), "e8+");
    assert_eq!(
        v().format_move(&p, &m, Notation::GameCourier),
        "P e7-e8; +P*e8"
    );
    for text in [
        "e8+",
        "e8",
        "e7e8",
        "P e7-e8",
        "P e7-e8; +P*e8",
        "P e7-e8;+P*e8",
        "e7-e8",
    ] {
        assert_eq!(find(&p, text), m, "{text}");
    }

    // Guard: G in the move list, +P in FEN and Game Courier.
    let p = pos("9k/10/10/10/10/4+P5/10/10/10/K9[] w - - 0 1");
    let m = find(&p, "e5e6");
    assert_eq!(v().format_move(&p, &m, Notation::Display), "Ge6");
    assert_eq!(v().format_move(&p, &m, Notation::GameCourier), "+P e5-e6");
    for text in ["Ge6", "+P e5-e6", "G e5-e6", "+Pe6"] {
        assert_eq!(find(&p, text), m, "{text}");
    }

    // Black pieces are lower case in Game Courier.
    let p = pos("9k/10/10/10/10/4+p5/10/10/10/K9[] b - - 0 1");
    let m = find(&p, "e5e4");
    assert_eq!(v().format_move(&p, &m, Notation::GameCourier), "+p e5-e4");
    assert_eq!(find(&p, "+p e5-e4"), m);
}

#[test]
fn captures_are_shown_with_x() {
    let p = pos("9k/10/10/10/4n5/4P5/10/10/10/K9[] w - - 0 1");
    let m = find(&p, "e5e6");
    assert_eq!(v().format_move(&p, &m, Notation::Display), "exe6");
    assert_eq!(find(&p, "xe6"), m);
}

fn round_trip_tree(p: &Position, depth: u32) {
    let legal = v().legal_moves(p);
    for m in &legal {
        for n in Notation::ALL {
            let text = v().format_move(p, m, n);
            let back = v()
                .parse_move(p, &legal, &text)
                .unwrap_or_else(|e| panic!("{n:?} {text}: {e}"));
            assert_eq!(back, *m, "{n:?} {text} in {}", v().fen(p));
        }
        if depth > 1 {
            round_trip_tree(&v().play(p, m), depth - 1);
        }
    }
}

/// Every legal move, formatted in each notation, reads back as itself.
#[test]
fn notation_round_trips_over_perft_trees() {
    round_trip_tree(&pos(START), 2);
    for line in MOVES.lines().take(3) {
        let fen = line.split(';').next().unwrap();
        round_trip_tree(&pos(fen), 2);
    }
}

// ---------------------------------------------------------------- bad input

#[test]
fn bad_fens_are_errors() {
    let bad = [
        "",
        "   ",
        "unceakecnu",
        "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECNU[ w - - 0 1",
        "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECNU[K] w - - 0 1",
        "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECNU[G] w - - 0 1",
        "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECNU[+P] w - - 0 1",
        "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECNU[] x - - 0 1",
        "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECNU[] w - e3 0 1",
        "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECNU[] w - - x 1",
        "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECNU[] w - - 0 1 9",
        "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECN[] w - - 0 1",
        "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECNUU[] w - - 0 1",
        "uncea1ecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECNU[] w - - 0 1",
        "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAEC+NU[] w - - 0 1",
        "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECN+[] w - - 0 1",
        "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEGAECNU[] w - - 0 1",
        "4k4P/10/10/10/10/10/10/10/10/4K5[] w - - 0 1",
        // Black to move with White in check from the Knight on d3.
        "4k5/10/10/10/10/10/10/3n6/10/4K5[] b - - 0 1",
        "é/ü/∑",
        "0/0/0/0/0/0/0/0/0/0[] w - - 0 1",
        "99999999999/10/10/10/10/10/10/10/10/10[] w",
    ];
    for fen in bad {
        assert!(v().parse_fen(fen).is_err(), "{fen}");
    }
    let long = "1".repeat(100_000);
    assert!(matches!(v().parse_fen(&long), Err(FenError::Syntax(_))));
}

#[test]
fn bad_move_texts_are_errors() {
    let g = game(START);
    for text in [
        "",
        "   ",
        "e3",
        "e3e5",
        "K e1-e3",
        "Q@e5",
        "P@e5",
        "z9z9",
        "e11e12",
        "k1k2",
        "+",
        "@",
        "*",
        ";",
        "--",
        "P e3-e4; Q*e4",
        "N@",
        "@e5",
        "é4",
        "∑∑∑",
        "e3e4e5",
        "+P",
        "+Pe4",
        "G e3-e4",
    ] {
        assert!(g.parse_move(text).is_err(), "{text:?} parsed");
    }
    let long = "x".repeat(10_000);
    assert!(g.parse_move(&long).is_err());
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn parse_fen_never_panics(s in "\\PC{0,120}") {
            let _ = v().parse_fen(&s);
        }
        #[test]
        fn parse_fen_never_panics_on_fen_like_text(s in "[0-9a-zA-Z+/\\[\\] -]{0,120}") {
            let _ = v().parse_fen(&s);
        }
        #[test]
        fn parse_move_never_panics(s in "\\PC{0,40}") {
            let p = pos(START);
            let legal = v().legal_moves(&p);
            let _ = v().parse_move(&p, &legal, &s);
        }
        #[test]
        fn parse_move_never_panics_on_move_like_text(s in "[a-kA-Z0-9@*+;= -]{0,16}") {
            let p = pos("unceake1nu/10/pppppppp1p/8p1/10/10/10/PPPPPPPPPP/10/UNCEK1ECNU[Ca] w - - 0 3");
            let legal = v().legal_moves(&p);
            let _ = v().parse_move(&p, &legal, &s);
        }
    }
}

// ---------------------------------------------------------------- server views

/// The rules page states the rulings' decisions.
#[test]
fn rules_text_states_the_rulings() {
    let text = v().rules_text();
    for needle in [
        "ranks 8 to 10",
        "stalemate loses",
        "third time",
        "Guard",
        "campmate",
        "no 50-move rule",
        "copying slip",
        "Pawn drop too",
    ] {
        assert!(text.contains(needle), "rules text lacks “{needle}”");
    }
}

#[test]
fn board_view_shows_guard_and_hands() {
    let g = game("9k/10/10/10/10/4+P5/10/10/10/K9[PPn] w - - 0 1");
    let view = g.board_view();
    match view.cell(4, 4) {
        missive_rules::Cell::Piece { label, .. } => {
            assert_eq!(label.letter, "+P");
            assert_eq!(label.name, "Guard");
        }
        other => panic!("{other:?}"),
    }
    let hands: Vec<(String, u8)> = view
        .hands
        .iter()
        .map(|h| (h.label.letter.clone(), h.count))
        .collect();
    assert_eq!(hands, vec![("P".to_string(), 2), ("n".to_string(), 1)]);
}

// ---------------------------------------------------------------- as Fairy-Stockfish writes it

/// A drop resets the halfmove clock, as Fairy-Stockfish writes the FEN
/// (pyffish 0.0.90 with `tools/fsf/leaperhouse.ini`: `N@e5` from this
/// position gives `... b - - 0 3`); a move that neither captures nor drops
/// counts on.
#[test]
fn a_drop_resets_the_halfmove_clock() {
    let fen = "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECNU[N] w - - 5 3";
    let mut g = game(fen);
    play_all(&mut g, &["N@e5"]);
    let after_drop = g.fen();
    let fields: Vec<&str> = after_drop.rsplit(' ').take(2).collect();
    assert_eq!(fields, ["3", "0"], "{after_drop}");
    let mut g = game(fen);
    play_all(&mut g, &["e3e4"]);
    let after_move = g.fen();
    let fields: Vec<&str> = after_move.rsplit(' ').take(2).collect();
    assert_eq!(fields, ["3", "6"], "{after_move}");
}

/// `+` marks a promotion: on a move that cannot promote it is refused
/// (Fairy-Stockfish has no `e3e4+`), not read as the bare move.
#[test]
fn a_promotion_mark_on_a_move_that_cannot_promote_is_refused() {
    let fen = "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECNU[N] w - - 5 3";
    assert!(game(fen).play_text("P e3-e4+").is_err());
    for text in ["e3e4+", "N@e5+", "e4+"] {
        match game(fen).play_text(text) {
            Err(MoveError::Illegal { reason, .. }) => {
                assert!(reason.contains("promot"), "{text}: {reason}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    let mut g = game(fen);
    play_all(&mut g, &["e3e4"]);
    let promoting = "9k/10/10/4P5/10/10/10/10/10/K9[] w - - 0 1";
    let mut g = game(promoting);
    play_all(&mut g, &["e7e8+"]);
}

/// The key a move leads to, worked out from what the move changes, is the
/// key of the position it makes, for every legal move of every position of
/// twenty vectors' perft trees to depth 1 (drops, captures to hand, captured
/// Guards, promotions).
#[test]
fn repetition_keys_after_a_move_are_the_keys_of_the_positions_played() {
    let mut checked = 0;
    let fens: Vec<String> = PERFT
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(20)
        .filter_map(|l| l.split(';').next())
        .map(|f| f.trim().to_string())
        .chain([START.to_string()])
        .collect();
    assert!(fens.len() > 2, "{fens:?}");
    for fen in &fens {
        let root = pos(fen);
        let mut positions = vec![root.clone()];
        positions.extend(v().legal_moves(&root).iter().map(|m| v().play(&root, m)));
        for p in &positions {
            let key = v().repetition_key(p);
            for m in v().legal_moves(p) {
                let played = v().repetition_key(&v().play(p, &m));
                assert_eq!(v().repetition_key_after(p, key, &m), played, "{fen}");
                checked += 1;
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

// ------------------------------------------------- reading among the legal

/// Knights b1 and f1 can both reach d2, but after this sequence the f1
/// Knight's d2 would make a position occur a third time: `Nd2` names the
/// one legal move, and the record writes it as the move list shows it.
#[test]
fn a_move_the_repetition_rule_forbids_makes_no_text_ambiguous() {
    let mut g = game("9k/10/10/10/10/10/10/10/10/KN3N4[] w - - 0 1");
    play_all(
        &mut g,
        &[
            "f1d2", "j10i10", "d2f3", "i10j10", "f3d2", "j10i10", "d2f1", "i10j10",
        ],
    );
    let listed: Vec<String> = g
        .legal_move_forms()
        .into_iter()
        .map(|m| m.display)
        .collect();
    assert!(listed.contains(&"Nd2".to_string()), "{listed:?}");
    assert!(
        !listed.iter().any(|m| m == "Nbd2" || m == "Nfd2"),
        "{listed:?}"
    );
    let (mv, _) = g.parse_move("Nd2").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.format(&mv, Notation::Coordinate), "b1d2");
    assert_eq!(g.format(&mv, Notation::Display), "Nd2");
    // The forbidden Knight still says why it may not go.
    for text in ["Nfd2", "f1d2", "N f1-d2"] {
        match g.parse_move(text) {
            Err(MoveError::Illegal { reason, .. }) => {
                assert!(reason.contains("third"), "{text}: {reason}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    let played = g.play_text("Nd2").unwrap();
    assert_eq!(
        (played.display.as_str(), played.coordinate.as_str()),
        ("Nd2", "b1d2")
    );
}

/// Fairy-Stockfish resets the halfmove clock on a promotion (pyffish
/// 0.0.90: `e7e8+` from this position writes 0), though not on a Pawn's
/// plain move.
#[test]
fn fen_clock_resets_on_a_promotion() {
    let mut g = game("k9/10/10/4P5/10/10/10/10/10/4K5[] w - - 7 20");
    play_all(&mut g, &["e7e8+"]);
    assert_eq!(g.fen(), "k9/10/4+P5/10/10/10/10/10/10/4K5[] b - - 0 20");
    let mut g = game("k9/10/10/10/4P5/10/10/10/10/4K5[] w - - 7 20");
    play_all(&mut g, &["e6e7"]);
    assert!(g.fen().ends_with(" b - - 8 20"), "{}", g.fen());
}

/// A mate mark on a move that does not mate is refused, naming the move
/// without it; on a mate it is taken, as `+` still marks a promotion.
#[test]
fn a_false_mate_mark_is_refused() {
    let mut g = game("9k/10/10/10/10/10/10/10/10/KN3N4[] w - - 0 1");
    play_all(
        &mut g,
        &[
            "f1d2", "j10i10", "d2f3", "i10j10", "f3d2", "j10i10", "d2f1", "i10j10",
        ],
    );
    for text in ["Nd2#", "b1d2#", "N b1-d2#"] {
        match g.parse_move(text) {
            Err(MoveError::Illegal { input, reason, .. }) => {
                assert_eq!(input, text);
                let plain = text.trim_end_matches('#');
                assert!(reason.contains(&format!("“{plain}”")), "{text}: {reason}");
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    // `+` is a promotion here, never a check mark.
    assert!(g.parse_move("Nd2+").is_err());
    // A drop mate, marked or not (Pawn drop mate is legal).
    let g = game(&format!("{MATE_NET}[P] w - - 0 1"));
    let (mate, _) = g.parse_move("P@e9").unwrap();
    assert_eq!(g.format(&mate, Notation::Display), "P@e9#");
    for text in ["P@e9#", "P*e9#"] {
        assert_eq!(g.parse_move(text).map(|(m, _)| m), Ok(mate), "{text}");
    }
    assert!(g.parse_move("P@e8#").is_err());
}
