//! Leap Chess and its sub-variants: perft against Fairy-Stockfish, and one
//! test per rule sentence of the seed page and the rulings, each on a small
//! position whose legal moves were worked out by hand (listed in comments).

use missive_rules::perft::perft;
use missive_rules::{
    variant, Cell, Color, FenError, Game, Move, MoveError, MoveKind, Notation, Position, Reason,
    Variant,
};

const LEAP: &str = "leap-chess";
const MULTI: &str = "leap-chess-multi";
const OPTIONAL: &str = "leap-chess-optional";
const SIXTY_FOUR: &str = "leap-chess-64";
const ALL: [&str; 4] = [LEAP, MULTI, OPTIONAL, SIXTY_FOUR];

const START: &str = "*nqkn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQKN* w KQkq - 0 1";

fn v(id: &str) -> &'static dyn Variant {
    variant(id).unwrap_or_else(|| panic!("{id} is registered"))
}

fn pos(id: &str, fen: &str) -> Position {
    v(id)
        .parse_fen(fen)
        .unwrap_or_else(|e| panic!("{id} {fen}: {e}"))
}

/// Legal moves in coordinate form, sorted.
fn coords(id: &str, p: &Position) -> Vec<String> {
    let var = v(id);
    let mut out: Vec<String> = var
        .legal_moves(p)
        .iter()
        .map(|m| var.format_move(p, m, Notation::Coordinate))
        .collect();
    out.sort();
    out
}

fn moves_of(id: &str, fen: &str) -> Vec<String> {
    coords(id, &pos(id, fen))
}

fn find(id: &str, p: &Position, text: &str) -> Move {
    let var = v(id);
    let legal = var.legal_moves(p);
    var.parse_move(p, &legal, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play(id: &str, p: &Position, text: &str) -> Position {
    v(id).play(p, &find(id, p, text))
}

fn fen_after(id: &str, fen: &str, moves: &[&str]) -> String {
    let mut p = pos(id, fen);
    for m in moves {
        p = play(id, &p, m);
    }
    v(id).fen(&p)
}

fn illegal_reason(id: &str, p: &Position, text: &str) -> String {
    let var = v(id);
    let legal = var.legal_moves(p);
    match var.parse_move(p, &legal, text) {
        Err(MoveError::Illegal { reason, .. }) => reason,
        other => panic!("{text}: expected an illegal-move error, got {other:?}"),
    }
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

// ---------------------------------------------------------------- perft

/// `rules/tests/vectors/leap-chess-perft.txt`, computed by Fairy-Stockfish.
#[test]
fn perft_matches_fairy_stockfish_vectors() {
    let text = include_str!("vectors/leap-chess-perft.txt");
    let var = v(LEAP);
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap();
        let p = pos(LEAP, fen);
        for field in parts {
            let (d, n) = field.trim().split_once(' ').unwrap();
            let depth: u32 = d.trim_start_matches('D').parse().unwrap();
            let expected: u64 = n.parse().unwrap();
            assert_eq!(perft(var, &p, depth), expected, "{fen} depth {depth}");
            checked += 1;
        }
    }
    assert_eq!(checked, 28);
}

/// The start position to depth 5 (13 / 169 / 1,126 / 8,001 / 52,184).
#[test]
fn perft_start_position_to_depth_5() {
    let p = pos(LEAP, START);
    let counts: Vec<u64> = (1..=5).map(|d| perft(v(LEAP), &p, d)).collect();
    assert_eq!(counts, vec![13, 169, 1_126, 8_001, 52_184]);
}

/// Red's 13 opening moves: six Pawn steps from rank 3 (the b2/e2 Pawns are
/// blocked), Alfils c2-a4, c2-e4, d2-b4, d2-f4, Dabbabahs a2-a4, f2-f4, and
/// king-side castling d1e1 (nothing between, nothing attacked).
#[test]
fn opening_moves_by_hand() {
    assert_eq!(
        moves_of(LEAP, START),
        sorted(&[
            "a3a4", "b3b4", "c3c4", "d3d4", "e3e4", "f3f4", "c2a4", "c2e4", "d2b4", "d2f4", "a2a4",
            "f2f4", "d1e1"
        ])
    );
}

/// "after `b2b4` Black's only move is `a4b3`" (the issue's check).
#[test]
fn en_passant_after_double_step_is_the_only_move() {
    let fen = "*nqkn*/rpbbpr/6/6/p5/6/1P4/*NQKN* w - - 0 1";
    let p = play(LEAP, &pos(LEAP, fen), "b2b4");
    assert_eq!(
        v(LEAP).fen(&p),
        "*nqkn*/rpbbpr/6/6/pP4/6/6/*NQKN* b - b3 0 1"
    );
    assert_eq!(coords(LEAP, &p), vec!["a4b3"]);
    let after = play(LEAP, &p, "a4b3");
    assert_eq!(
        v(LEAP).fen(&after),
        "*nqkn*/rpbbpr/6/6/6/1p4/6/*NQKN* w - - 0 2"
    );
}

/// Captures optional: Fairy-Stockfish (pyffish 0.0.90) with the definition
/// of `leap-chess-perft.txt` and `mustCapture = false`.
#[test]
fn perft_optional_start_position() {
    let p = pos(OPTIONAL, START);
    let counts: Vec<u64> = (1..=4).map(|d| perft(v(OPTIONAL), &p, d)).collect();
    assert_eq!(counts, vec![13, 169, 2_307, 31_682]);
}

/// 64 squares. Depth 1 by hand: 16 Pawn moves, Knights 4 (a3 c3 f3 h3),
/// Alfils 4 (c1-a3/e3, f1-d3/h3), Dabbabahs 2 (a1-a3, h1-h3), Sail 3
/// (d1-b3/f3 as Alfil, d1-d3 as Dabbabah; b1 and f1 are its own pieces),
/// King 0: 29. Depth 2: no Red move brings a piece within reach of a Black
/// piece or blocks one of Black's 29 symmetric moves (Red stays on ranks
/// 1-4, Black's targets are on ranks 5-6): 29 x 29 = 841. Depth 3 (and 4,
/// 588,303) from Fairy-Stockfish (pyffish 0.0.90, chess with
/// `customPiece1 = b:A`, `customPiece2 = r:D`, `customPiece3 = q:AD`,
/// `castlingRookPieces = r`, `mustCapture = true`, `stalemateValue = loss`).
#[test]
fn perft_sixty_four_start_position() {
    let p = pos(SIXTY_FOUR, v(SIXTY_FOUR).start_fen());
    let counts: Vec<u64> = (1..=3).map(|d| perft(v(SIXTY_FOUR), &p, d)).collect();
    assert_eq!(counts, vec![29, 841, 22_595]);
}

/// Multiple captures change nothing until a capture can continue: the
/// first two plies from the start have no capture at all.
#[test]
fn perft_multi_start_equals_leap_chess_while_no_capture_exists() {
    let p = pos(MULTI, START);
    for d in 1..=2 {
        assert_eq!(perft(v(MULTI), &p, d), perft(v(LEAP), &p, d));
    }
}

// ---------------------------------------------------------------- board

/// "Board 6x8 with the four corners a1, f1, a8, f8 removed (44 squares)";
/// the board view shows the holes as missing squares and the sides as Red
/// and Black; Red moves first.
#[test]
fn board_has_44_squares_and_red_moves_first() {
    let var = v(LEAP);
    assert_eq!(var.geometry().square_count(), 44);
    assert_eq!(var.start_fen(), START);
    let p = pos(LEAP, START);
    assert_eq!(p.side, Color::White);
    assert_eq!(var.side_name(Color::White), "Red");
    assert_eq!(var.side_name(Color::Black), "Black");
    let view = Game::new(var, None).unwrap().board_view();
    assert_eq!(view.side_names, ["Red", "Black"]);
    for (f, r) in [(0, 0), (5, 0), (0, 7), (5, 7)] {
        assert_eq!(*view.cell(f, r), Cell::Hole);
    }
    assert_eq!(view.cells.iter().filter(|c| **c == Cell::Hole).count(), 4);
    assert_eq!(var.fen(&p), START);
}

/// FEN `q` is the Sail, `r` the Dabbabah, `b` the Alfil; the seed's Black
/// Dabbabah on "g7" is a typo for f7.
#[test]
fn fen_letters_name_sail_dabbabah_alfil() {
    let var = v(LEAP);
    let p = pos(LEAP, START);
    let name = |sq: &str| {
        let s = missive_rules::Square::parse(sq).unwrap();
        let piece = p.get(s).unwrap();
        (var.piece_label(piece).letter, var.piece_label(piece).name)
    };
    assert_eq!(name("c1"), ("Q".into(), "Sail".into()));
    assert_eq!(name("a2"), ("R".into(), "Dabbabah".into()));
    assert_eq!(name("c2"), ("B".into(), "Alfil".into()));
    assert_eq!(name("b1"), ("N".into(), "Knight".into()));
    assert_eq!(name("d1"), ("K".into(), "King".into()));
    assert_eq!(name("f7"), ("r".into(), "Dabbabah".into()));
    assert_eq!(name("c8"), ("q".into(), "Sail".into()));
}

/// A piece may not stand on a missing corner; a FEN must mark them `*`.
#[test]
fn fen_rejects_pieces_on_holes() {
    let var = v(LEAP);
    assert!(var
        .parse_fen("nnqkn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQKN* w - - 0 1")
        .is_err());
    assert!(var
        .parse_fen("1nqkn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQKN* w - - 0 1")
        .is_err());
}

// ---------------------------------------------------------------- pieces

/// "Alfils leap two squares diagonally (possibly passing over an occupied
/// square)", and leapers never land on a hole. Alfil c3 over pawns on b4,
/// d4 and d2: e1, a5, e5, and not the corner a1.
#[test]
fn alfil_leaps_two_diagonally_over_pieces_never_into_a_hole() {
    let fen = "*k3*/6/6/6/1P1p2/2B3/3P2/*2K1* w - - 0 1";
    let p = pos(LEAP, fen);
    let alfil: Vec<String> = coords(LEAP, &p)
        .into_iter()
        .filter(|m| m.starts_with("c3"))
        .collect();
    assert_eq!(alfil, sorted(&["c3a5", "c3e5", "c3e1"]));
}

/// "Dabbabahs leap two squares left, right, up or down (possibly passing
/// over an occupied square)". Dabbabah c3 over b3, d3, c4, c2: a3, e3, c5,
/// c1.
#[test]
fn dabbabah_leaps_two_orthogonally_over_pieces() {
    let fen = "*k3*/6/5p/6/2P3/1PRP2/2P3/*2K1* w - - 0 1";
    let p = pos(LEAP, fen);
    let dab: Vec<String> = coords(LEAP, &p)
        .into_iter()
        .filter(|m| m.starts_with("c3"))
        .collect();
    assert_eq!(dab, sorted(&["c3a3", "c3e3", "c3c5", "c3c1"]));
    // From a2 the Dabbabah cannot land on the missing corner... nor below
    // the board: a4 and c2 only.
    let p = pos(LEAP, "*k3*/6/5p/6/6/6/R5/*2K1* w - - 0 1");
    let dab: Vec<String> = coords(LEAP, &p)
        .into_iter()
        .filter(|m| m.starts_with("a2"))
        .collect();
    assert_eq!(dab, sorted(&["a2a4", "a2c2"]));
}

/// "Sails move either like an Alfil or a Dabbabah". Sail c4 on an open
/// board: a2, e2, a6, e6 and a4, e4, c2, c6.
#[test]
fn sail_moves_as_alfil_or_dabbabah() {
    let p = pos(LEAP, "*k3*/6/5p/6/2Q3/6/6/*2K1* w - - 0 1");
    let sail: Vec<String> = coords(LEAP, &p)
        .into_iter()
        .filter(|m| m.starts_with("c4"))
        .collect();
    assert_eq!(
        sail,
        sorted(&["c4a2", "c4e2", "c4a6", "c4e6", "c4a4", "c4e4", "c4c2", "c4c6"])
    );
}

/// "Knights move and capture as in Orthodox Chess", never onto a corner:
/// Knight c2 reaches a3, b4, d4, e3, e1 but not a1.
#[test]
fn knight_moves_as_in_chess_but_not_into_a_hole() {
    let p = pos(LEAP, "*k3*/6/5p/6/6/6/2N3/*2K1* w - - 0 1");
    let knight: Vec<String> = coords(LEAP, &p)
        .into_iter()
        .filter(|m| m.starts_with("c2"))
        .collect();
    assert_eq!(knight, sorted(&["c2a3", "c2b4", "c2d4", "c2e3", "c2e1"]));
}

// ---------------------------------------------------------------- pawns

/// "Only pawns starting on the second rank (b2, e2, b7, e7) have the
/// double step."
#[test]
fn double_step_from_the_second_rank() {
    let fen = "*2k1*/6/p5/6/6/6/1P2P1/*2K1* w - - 0 1";
    assert_eq!(
        moves_of(LEAP, fen),
        sorted(&["b2b3", "b2b4", "e2e3", "e2e4", "d1c1", "d1c2", "d1d2", "d1e1"])
    );
    let black = "*2k1*/1p2p1/6/6/6/P5/6/*2K1* b - - 0 1";
    let m = moves_of(LEAP, black);
    assert!(m.contains(&"b7b5".to_string()) && m.contains(&"e7e5".to_string()));
}

/// "Pawns that start the game on the 3rd rank have no initial double move."
#[test]
fn no_double_step_from_the_third_rank() {
    let fen = "*2k1*/6/p5/6/6/P1P3/6/*2K1* w - - 0 1";
    let pawn: Vec<String> = moves_of(LEAP, fen)
        .into_iter()
        .filter(|m| m.starts_with("a3") || m.starts_with("c3"))
        .collect();
    assert_eq!(pawn, sorted(&["a3a4", "c3c4"]));
    // A second-rank Pawn that has stepped to the third rank has lost it too.
    let p = play(
        LEAP,
        &pos(LEAP, "*2k1*/6/p5/6/6/6/1P4/*2K1* w - - 0 1"),
        "b2b3",
    );
    let p = play(LEAP, &p, "a6a5");
    assert!(!coords(LEAP, &p).contains(&"b3b5".to_string()));
    // The start position: the b2/e2 Pawns are blocked by the third-rank Pawns.
    assert!(!moves_of(LEAP, START)
        .iter()
        .any(|m| m == "b2b4" || m == "e2e4"));
}

/// The double step needs both squares empty.
#[test]
fn double_step_needs_both_squares_empty() {
    let fen = "*2k1*/6/p5/6/1P4/6/1P4/*2K1* w - - 0 1";
    let m = moves_of(LEAP, fen);
    assert!(m.contains(&"b2b3".to_string()) && !m.contains(&"b2b4".to_string()));
    let fen = "*2k1*/6/p5/6/6/1P4/1P4/*2K1* w - - 0 1";
    assert!(!moves_of(LEAP, fen).iter().any(|m| m.starts_with("b2")));
}

/// "en passant applies to it": only after a double step. A single step
/// from the third rank sets no en passant square (captures optional so the
/// step can be made next to the enemy Pawn).
#[test]
fn en_passant_only_after_a_double_step() {
    let fen = "*2k1*/6/6/6/1p4/2P3/6/*2K1* w - - 0 1";
    let p = play(OPTIONAL, &pos(OPTIONAL, fen), "c3c4");
    assert_eq!(p.ep, None);
    assert!(!v(OPTIONAL)
        .legal_moves(&p)
        .iter()
        .any(|m| m.kind == MoveKind::EnPassant));
    assert!(!coords(OPTIONAL, &p).contains(&"b4c3".to_string()));
}

/// "Promotion on the last rank to Sail, Dabbabah, Alfil or Knight", for
/// both sides; written b7b8q / b8=S.
#[test]
fn promotion_choices() {
    let fen = "*3k*/1P4/6/6/6/6/1p4/*2K1* w - - 0 1";
    let p = pos(LEAP, fen);
    let promo: Vec<String> = coords(LEAP, &p)
        .into_iter()
        .filter(|m| m.starts_with("b7"))
        .collect();
    assert_eq!(promo, sorted(&["b7b8q", "b7b8r", "b7b8b", "b7b8n"]));
    let var = v(LEAP);
    for (text, letter, name) in [
        ("b7b8q", "S", "Sail"),
        ("b8=D", "D", "Dabbabah"),
        ("b8=B", "A", "Alfil"),
        ("P b7-b8; N*b8", "N", "Knight"),
    ] {
        let m = find(LEAP, &p, text);
        let shown = var.format_move(&p, &m, Notation::Display);
        assert!(shown.starts_with(&format!("b8={letter}")), "{text} {shown}");
        let after = var.play(&p, &m);
        let piece = after
            .get(missive_rules::Square::parse("b8").unwrap())
            .unwrap();
        assert_eq!(var.piece_label(piece).name, name);
    }
    // Black promotes on rank 1.
    let p = pos(LEAP, "*3k*/1P4/6/6/6/6/1p4/*2K1* b - - 0 1");
    let promo: Vec<String> = coords(LEAP, &p)
        .into_iter()
        .filter(|m| m.starts_with("b2"))
        .collect();
    assert_eq!(promo, sorted(&["b2b1q", "b2b1r", "b2b1b", "b2b1n"]));
}

/// "Pawns promote on the back row squares only": a Pawn on a7 faces the
/// missing corner a8 and cannot advance (it can still capture on b8).
#[test]
fn pawn_cannot_advance_into_a_missing_corner() {
    let p = pos(LEAP, "*2k1*/P5/5p/6/6/6/6/*2K1* w - - 0 1");
    assert!(!coords(LEAP, &p).iter().any(|m| m.starts_with("a7")));
    let p = pos(LEAP, "*n1k1*/P5/6/6/6/6/6/*2K1* w - - 0 1");
    assert_eq!(
        coords(LEAP, &p),
        sorted(&["a7b8q", "a7b8r", "a7b8b", "a7b8n"])
    );
}

// ---------------------------------------------------------------- castling

const CASTLE: &str = "*n1kn*/6/6/6/6/6/6/*N1KN* w KQkq - 0 1";

/// "king-side, King and e-Knight swap (K d1→e1, N→d1)"; coordinate `d1e1`,
/// SAN `O-O`, Game Courier `K d1-e1`.
#[test]
fn castling_king_side_swaps_king_and_e_knight() {
    let var = v(LEAP);
    let p = pos(LEAP, CASTLE);
    // King 4 steps, Knights 3 + 3, both castlings: 12.
    assert_eq!(coords(LEAP, &p).len(), 12);
    let m = find(LEAP, &p, "O-O");
    assert_eq!(m.kind, MoveKind::Castle);
    assert_eq!(var.format_move(&p, &m, Notation::Coordinate), "d1e1");
    assert_eq!(var.format_move(&p, &m, Notation::Display), "O-O");
    assert_eq!(var.format_move(&p, &m, Notation::GameCourier), "K d1-e1");
    for text in ["d1e1", "K d1-e1", "K d1-e1; N e1-d1", "0-0"] {
        assert_eq!(find(LEAP, &p, text), m, "{text}");
    }
    assert_eq!(
        var.fen(&var.play(&p, &m)),
        "*n1kn*/6/6/6/6/6/6/*N1NK* b kq - 1 1"
    );
}

/// "queen-side, King d1→c1 and the b-Knight leaps to d1 (c1 must be
/// empty)"; coordinate `d1b1`, SAN `O-O-O`, Game Courier
/// `K d1-c1; N b1-d1`; `d1c1` is the ordinary King move.
#[test]
fn castling_queen_side_king_to_c1_knight_to_d1() {
    let var = v(LEAP);
    let p = pos(LEAP, CASTLE);
    let m = find(LEAP, &p, "O-O-O");
    assert_eq!(var.format_move(&p, &m, Notation::Coordinate), "d1b1");
    assert_eq!(var.format_move(&p, &m, Notation::Display), "O-O-O");
    assert_eq!(
        var.format_move(&p, &m, Notation::GameCourier),
        "K d1-c1; N b1-d1"
    );
    for text in ["d1b1", "K d1-c1; N b1-d1", "O-O-O"] {
        assert_eq!(find(LEAP, &p, text), m, "{text}");
    }
    assert_eq!(
        var.fen(&var.play(&p, &m)),
        "*n1kn*/6/6/6/6/6/6/*1KNN* b kq - 1 1"
    );
    let king_move = find(LEAP, &p, "d1c1");
    assert_eq!(king_move.kind, MoveKind::Normal);
    for text in ["K d1-c1", "Kc1", "Kd1c1"] {
        assert_eq!(find(LEAP, &p, text), king_move, "{text}");
    }
    assert_eq!(
        var.fen(&var.play(&p, &king_move)),
        "*n1kn*/6/6/6/6/6/6/*NK1N* b kq - 1 1"
    );
}

/// Found by fuzzing (`rules/tests/fuzz-regressions/fen_parser/`): a custom
/// FEN may put a hole (`*`) on c1; queen-side castling, whose King lands on
/// c1, must then not exist (it used to drop the King into the hole).
#[test]
fn no_castling_onto_or_across_a_hole() {
    let p = pos(LEAP, "*n1kn*/6/6/6/6/6/6/*N*KN* w KQkq - 0 1");
    let moves = coords(LEAP, &p);
    assert!(!moves.contains(&"d1b1".to_string()), "{moves:?}");
    assert!(!moves.contains(&"d1c1".to_string()), "{moves:?}");
    // King-side castling does not touch c1 and stays.
    assert!(moves.contains(&"d1e1".to_string()), "{moves:?}");
    // Chess too: a hole between King and Rook blocks castling that side.
    let chess = v("chess");
    let p = chess
        .parse_fen("r3k2r/8/8/8/8/8/8/R1*1K2R w KQkq - 0 1")
        .unwrap();
    let castles: Vec<String> = chess
        .legal_moves(&p)
        .iter()
        .filter(|m| m.kind == MoveKind::Castle)
        .map(|m| chess.format_move(&p, m, Notation::Coordinate))
        .collect();
    assert_eq!(castles, ["e1g1"]);
    // "The squares between must be empty" (FIDE, rulings.md): a hole only
    // crossed, by the Rook (b1) or by the King (d1, f1), blocks that side
    // too, for Black alike.
    let castles_in = |fen: &str| -> Vec<String> {
        let p = chess.parse_fen(fen).unwrap();
        chess
            .legal_moves(&p)
            .iter()
            .filter(|m| m.kind == MoveKind::Castle)
            .map(|m| chess.format_move(&p, m, Notation::Coordinate))
            .collect()
    };
    assert_eq!(
        castles_in("r3k2r/8/8/8/8/8/8/R*2K2R w KQkq - 0 1"),
        ["e1g1"]
    );
    assert_eq!(
        castles_in("r3k2r/8/8/8/8/8/8/R2*K2R w KQkq - 0 1"),
        ["e1g1"]
    );
    assert_eq!(
        castles_in("r3k2r/8/8/8/8/8/8/R3K*1R w KQkq - 0 1"),
        ["e1c1"]
    );
    assert_eq!(
        castles_in("r*2k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"),
        ["e8g8"]
    );
    assert_eq!(
        castles_in("r3k*1r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"),
        ["e8c8"]
    );
}

/// "Black alike on rank 8": d8e8 and d8b8.
#[test]
fn castling_black_on_rank_8() {
    let var = v(LEAP);
    let fen = "*n1kn*/6/6/6/6/6/6/*N1KN* b KQkq - 0 1";
    let p = pos(LEAP, fen);
    let ks = find(LEAP, &p, "O-O");
    assert_eq!(var.format_move(&p, &ks, Notation::Coordinate), "d8e8");
    assert_eq!(var.format_move(&p, &ks, Notation::GameCourier), "k d8-e8");
    assert_eq!(
        var.fen(&var.play(&p, &ks)),
        "*n1nk*/6/6/6/6/6/6/*N1KN* w KQ - 1 2"
    );
    let qs = find(LEAP, &p, "O-O-O");
    assert_eq!(var.format_move(&p, &qs, Notation::Coordinate), "d8b8");
    assert_eq!(
        var.format_move(&p, &qs, Notation::GameCourier),
        "k d8-c8; n b8-d8"
    );
    assert_eq!(
        var.fen(&var.play(&p, &qs)),
        "*1knn*/6/6/6/6/6/6/*N1KN* w KQ - 1 2"
    );
}

/// "the King is not in check": Alfil b3 checks d1 (but attacks neither e1
/// nor c1). Only the four King moves out of check remain.
#[test]
fn castling_not_out_of_check() {
    let fen = "*n1kn*/6/6/6/6/1b4/6/*N1KN* w KQkq - 0 1";
    assert_eq!(
        moves_of(LEAP, fen),
        sorted(&["d1c1", "d1c2", "d1d2", "d1e2"])
    );
    let p = pos(LEAP, fen);
    assert!(illegal_reason(LEAP, &p, "O-O").contains("check"));
}

/// "its destination is not attacked": Dabbabah e3 attacks e1 (no O-O);
/// Alfil e3 attacks c1 (no O-O-O, and no Kc1).
#[test]
fn castling_not_onto_an_attacked_square() {
    let m = moves_of(LEAP, "*n1kn*/6/6/6/6/4r1/6/*N1KN* w KQkq - 0 1");
    assert!(!m.contains(&"d1e1".to_string()) && m.contains(&"d1b1".to_string()));
    let m = moves_of(LEAP, "*n1kn*/6/6/6/6/4b1/6/*N1KN* w KQkq - 0 1");
    assert!(m.contains(&"d1e1".to_string()) && !m.contains(&"d1b1".to_string()));
    assert!(!m.contains(&"d1c1".to_string()));
}

/// The Knight may stand attacked: Dabbabah b3 attacks b1, O-O-O stays legal.
#[test]
fn castling_with_an_attacked_knight_is_allowed() {
    let m = moves_of(LEAP, "*n1kn*/6/6/6/6/1r4/6/*N1KN* w KQkq - 0 1");
    assert!(m.contains(&"d1b1".to_string()) && m.contains(&"d1e1".to_string()));
}

/// "(c1 must be empty)": with an Alfil on c1 only O-O remains.
#[test]
fn castling_queen_side_needs_c1_empty() {
    let m = moves_of(LEAP, "*n1kn*/6/6/6/6/6/6/*NBKN* w KQkq - 0 1");
    assert!(m.contains(&"d1e1".to_string()) && !m.contains(&"d1b1".to_string()));
}

/// "neither piece has moved": rights go when the King or that Knight moves
/// (and do not come back when it returns).
#[test]
fn castling_rights_lost_when_king_or_knight_moves() {
    assert_eq!(
        fen_after(LEAP, CASTLE, &["b1c3", "b8c6", "c3b1", "c6b8"]),
        "*n1kn*/6/6/6/6/6/6/*N1KN* w Kk - 4 3"
    );
    assert_eq!(
        fen_after(LEAP, CASTLE, &["e1f3", "e8f6"]),
        "*n1k1*/6/5n/6/6/5N/6/*N1K1* w Qq - 2 2"
    );
    assert_eq!(
        fen_after(LEAP, CASTLE, &["d1d2", "d8d7", "d2d1", "d7d8"]),
        "*n1kn*/6/6/6/6/6/6/*N1KN* w - - 4 3"
    );
    // Without the right in the FEN there is no castling.
    let m = moves_of(LEAP, "*n1kn*/6/6/6/6/6/6/*N1KN* w K - 0 1");
    assert!(m.contains(&"d1e1".to_string()) && !m.contains(&"d1b1".to_string()));
}

/// "castling is not a capture": with a capture available (Knight b1 takes
/// a3) castling is not allowed.
#[test]
fn castling_is_not_a_capture() {
    assert_eq!(
        moves_of(LEAP, "*n1kn*/6/6/6/6/p5/6/*N1KN* w KQkq - 0 1"),
        vec!["b1a3"]
    );
}

// ---------------------------------------------------------------- captures

/// "Captures are compulsory ...; among several the player chooses": Alfil
/// c2 may take a4 or e4, and nothing else is legal.
#[test]
fn captures_are_compulsory_and_the_player_chooses() {
    let fen = "*2k1*/6/6/6/p3p1/6/2B3/*2K1* w - - 0 1";
    assert_eq!(moves_of(LEAP, fen), sorted(&["c2a4", "c2e4"]));
    let p = pos(LEAP, fen);
    let reason = illegal_reason(LEAP, &p, "Kd2");
    assert!(reason.contains("compulsory"), "{reason}");
    // The reason lists what is legal, as every other reason does.
    assert!(
        reason.contains("the legal captures: ") && reason.contains("xa4") && reason.contains("xe4"),
        "{reason}"
    );
}

/// "a player in check who has a capturing evasion must capture": Dabbabah
/// d3 checks d1; Knight e1 can take it, so Nxd3 is the only move (Alfil
/// c2xa4 would leave the King in check and does not count; the King's
/// evasions c1, d2, e2 are not captures).
#[test]
fn in_check_with_a_capturing_evasion_must_capture() {
    let fen = "*2k1*/6/6/6/p5/3r2/2B3/*2KN* w - - 0 1";
    assert_eq!(moves_of(LEAP, fen), vec!["e1d3"]);
    // With captures optional the King's evasions are allowed too.
    assert_eq!(
        moves_of(OPTIONAL, fen),
        sorted(&["d1c1", "d1d2", "d1e2", "e1d3"])
    );
}

/// "otherwise any evasion will do": without the Knight, Alfil c2xa4 is a
/// capture but leaves the King in check, so the King's four moves are legal.
#[test]
fn in_check_without_a_capturing_evasion_any_evasion() {
    let fen = "*2k1*/6/6/6/p5/3r2/2B3/*2K1* w - - 0 1";
    assert_eq!(
        moves_of(LEAP, fen),
        sorted(&["d1c1", "d1d2", "d1e1", "d1e2"])
    );
}

/// "only legal captures count": Kxd2 would put the King on a square the
/// Dabbabah d4 guards, so it forces nothing.
#[test]
fn an_illegal_capture_does_not_force() {
    let fen = "*2k1*/6/6/6/p2r2/P5/3b2/*2K1* w - - 0 1";
    assert_eq!(
        moves_of(LEAP, fen),
        sorted(&["d1c1", "d1c2", "d1e1", "d1e2"])
    );
}

/// "en passant counts" as a capture for the compulsory-capture rule (see
/// also `en_passant_after_double_step_is_the_only_move`): after e2e4 the
/// Black Pawn d4 must take en passant although the Knight could move.
#[test]
fn en_passant_is_compulsory() {
    let fen = "*n1k1*/6/6/6/3p2/6/4P1/*2K1* w - - 0 1";
    let p = play(LEAP, &pos(LEAP, fen), "e2e4");
    assert_eq!(coords(LEAP, &p), vec!["d4e3"]);
    assert!(illegal_reason(LEAP, &p, "Nc6").contains("compulsory"));
}

// ---------------------------------------------------------------- game end

/// "stalemating the opponent (the stalemated side loses)": Red's King b1
/// has every flight square covered and its Pawn e3 is blocked.
#[test]
fn stalemate_loses() {
    let var = v(LEAP);
    let p = pos(LEAP, "*2k1*/6/6/6/rrr1p1/b3P1/6/*K3* w - - 0 1");
    let legal = var.legal_moves(&p);
    assert!(legal.is_empty() && !var.in_check(&p));
    let out = var.outcome(&p, &legal).unwrap();
    assert_eq!(
        (out.winner, out.reason),
        (Some(Color::Black), Reason::Stalemate)
    );
}

/// "Win by checkmate": the same with an Alfil on d3 checking b1.
#[test]
fn checkmate_wins() {
    let var = v(LEAP);
    let p = pos(LEAP, "*2k1*/6/6/6/rrr1p1/b2bP1/6/*K3* w - - 0 1");
    let legal = var.legal_moves(&p);
    assert!(legal.is_empty() && var.in_check(&p));
    let out = var.outcome(&p, &legal).unwrap();
    assert_eq!(
        (out.winner, out.reason),
        (Some(Color::Black), Reason::Checkmate)
    );
}

/// "by leaving the opponent a bare King": Red takes Black's last piece.
#[test]
fn bare_king_loses_red_bares_black() {
    let mut game = Game::new(v(LEAP), Some("*2k1*/6/6/6/p5/6/2B3/*2K1* w - - 0 1")).unwrap();
    let played = game.play_text("Axa4").unwrap();
    assert_eq!(played.display, "Axa4");
    let out = game.outcome().unwrap();
    assert_eq!(
        (out.winner, out.reason),
        (Some(Color::White), Reason::BareKing)
    );
    assert!(game.legal_moves().is_empty());
}

/// The other way: Black takes Red's last piece and wins.
#[test]
fn bare_king_loses_black_bares_red() {
    let mut game = Game::new(v(LEAP), Some("*2k1*/6/6/6/P5/6/2b3/*2K1* b - - 0 1")).unwrap();
    assert_eq!(game.legal_moves().len(), 1);
    game.play_text("c2a4").unwrap();
    let out = game.outcome().unwrap();
    assert_eq!(
        (out.winner, out.reason),
        (Some(Color::Black), Reason::BareKing)
    );
}

/// "if a capture leaves both sides with bare Kings, the capturer wins": the
/// player who has just moved (the capturer) wins a position with two bare
/// Kings. (Such a capture can only follow a set-up position, since a bare
/// King loses at once.)
#[test]
fn both_kings_bare_the_capturer_wins() {
    let var = v(LEAP);
    for (side, capturer) in [("b", Color::White), ("w", Color::Black)] {
        let p = pos(LEAP, &format!("*2k1*/6/6/6/6/6/6/*2K1* {side} - - 0 1"));
        let legal = var.legal_moves(&p);
        assert!(legal.is_empty());
        let out = var.outcome(&p, &legal).unwrap();
        assert_eq!((out.winner, out.reason), (Some(capturer), Reason::BareKing));
    }
}

/// "Threefold repetition ... draw automatically", through `Game`.
#[test]
fn threefold_repetition_draws() {
    let mut game = Game::new(v(LEAP), Some("*n1k1*/6/6/6/6/6/6/*2KN* w - - 0 1")).unwrap();
    for _ in 0..2 {
        for m in ["Nc2", "Nc6", "Ne1", "Nb8"] {
            assert!(game.outcome().is_none());
            game.play_text(m).unwrap();
        }
    }
    let out = game.outcome().unwrap();
    assert_eq!((out.winner, out.reason), (None, Reason::Repetition));
}

/// "... and the 50-move rule draw automatically", through `Game`; a capture
/// or Pawn move resets the count.
#[test]
fn fifty_move_rule_draws() {
    let fen = "*n1k1*/6/6/6/6/6/6/*2KN* w - - 99 70";
    let mut game = Game::new(v(LEAP), Some(fen)).unwrap();
    assert!(game.outcome().is_none());
    game.play_text("Nc2").unwrap();
    let out = game.outcome().unwrap();
    assert_eq!((out.winner, out.reason), (None, Reason::MoveCountRule));

    let fen = "*n1k1*/6/p5/6/6/6/6/*2KN* b - - 99 70";
    let mut game = Game::new(v(LEAP), Some(fen)).unwrap();
    game.play_text("a5").unwrap();
    assert!(game.outcome().is_none());
    assert!(game.fen().contains(" 0 71"));
}

// ---------------------------------------------------------------- notation

/// SAN shows A Alfil, D Dabbabah, S Sail; the FEN letters B, R, Q are read
/// too; Game Courier writes the FEN letters.
#[test]
fn san_letters_and_their_fen_aliases() {
    let var = v(LEAP);
    let p = pos(LEAP, START);
    let m = find(LEAP, &p, "c2e4");
    assert_eq!(var.format_move(&p, &m, Notation::Display), "Ae4");
    assert_eq!(var.format_move(&p, &m, Notation::GameCourier), "B c2-e4");
    for text in ["Ae4", "Be4", "Ac2e4", "B c2-e4", "b c2-e4", "Ace4"] {
        assert_eq!(find(LEAP, &p, text), m, "{text}");
    }
    let m = find(LEAP, &p, "Da4");
    assert_eq!(var.format_move(&p, &m, Notation::Coordinate), "a2a4");
    assert_eq!(find(LEAP, &p, "Ra4"), m);
    let sail = pos(LEAP, "*k3*/6/5p/6/2Q3/6/6/*2K1* w - - 0 1");
    let m = find(LEAP, &sail, "Sc6");
    assert_eq!(find(LEAP, &sail, "Qc6"), m);
    assert_eq!(var.format_move(&sail, &m, Notation::GameCourier), "Q c4-c6");
    // A letter naming no piece of the game is explained, not guessed.
    assert!(matches!(
        var.parse_move(&p, &var.legal_moves(&p), "Xe4"),
        Err(MoveError::Illegal { .. })
    ));
}

/// Rule texts exist and say what the page leaves open.
#[test]
fn rules_texts() {
    for id in ALL {
        let text = v(id).rules_text();
        assert!(text.len() > 500, "{id}");
        assert!(text.contains("Red"), "{id}");
    }
    assert!(v(MULTI).rules_text().contains("c3xe5xc7"));
    assert!(v(MULTI).rules_text().contains("promotes"));
    assert!(v(MULTI).rules_text().contains("en passant"));
    assert!(v(SIXTY_FOUR).rules_text().contains("reading"));
}

// ---------------------------------------------------------------- multi

/// "a piece that captures must keep capturing with the same piece while it
/// can ... the player picks among chains". Dabbabah a4 takes a6, must go on
/// to c6, and from there may take c8 or e6 (e8 is the King, never taken).
#[test]
fn multi_chain_must_continue_and_player_picks() {
    let fen = "*nqnk*/rpbbpr/pppppp/6/R5/PPPPPP/1PBBPR/*NQKN* w KQ - 2 2";
    assert_eq!(moves_of(LEAP, fen), vec!["a4a6"]);
    assert_eq!(moves_of(MULTI, fen), sorted(&["a4a6c6c8", "a4a6c6e6"]));
    let p = pos(MULTI, fen);
    let reason = illegal_reason(MULTI, &p, "a4a6");
    assert!(reason.contains("go on capturing"), "{reason}");
    // A chain written in part, or one the position does not have.
    match v(MULTI).parse_move(&p, &v(MULTI).legal_moves(&p), "a4xa6xc6") {
        Err(MoveError::Illegal {
            reason,
            alternatives,
            ..
        }) => {
            assert!(reason.contains("go on capturing"), "{reason}");
            assert_eq!(alternatives, vec!["a4xa6xc6xc8", "a4xa6xc6xe6"]);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        v(MULTI).parse_move(&p, &v(MULTI).legal_moves(&p), "a4xa6xa8"),
        Err(MoveError::Illegal { .. })
    ));
    let m = find(MULTI, &p, "a4xa6xc6xe6");
    assert_eq!(m.kind, MoveKind::Chain);
    let after = v(MULTI).play(&p, &m);
    assert_eq!(
        v(MULTI).fen(&after),
        "*nqnk*/rpbbpr/1p1pRp/6/6/PPPPPP/1PBBPR/*NQKN* b KQ - 0 2"
    );
}

/// "There is no requirement to choose a capture that leads to the maximum
/// possible number of captures": Dabbabah c3 may take a3 alone (no further
/// capture from a3) or c5 and then c7.
#[test]
fn multi_no_obligation_to_take_the_most() {
    let fen = "*k3*/2p3/6/2p3/6/p1R3/6/*2K1* w - - 0 1";
    assert_eq!(moves_of(MULTI, fen), sorted(&["c3a3", "c3c5c7"]));
    assert_eq!(moves_of(LEAP, fen), sorted(&["c3a3", "c3c5"]));
}

/// "the whole turn must not leave one's own King in check": Knight c3
/// checks d1. Dabbabah e5 takes c5 (still in check) and must go on to take
/// the Knight on c3: legal as a whole. In Leap Chess the single capture
/// e5xc5 does not meet the check, so only King moves are legal there.
#[test]
fn multi_whole_chain_must_meet_the_check() {
    let fen = "*k3*/6/6/2p1R1/6/2n3/6/*2K1* w - - 0 1";
    assert_eq!(moves_of(MULTI, fen), vec!["e5c5c3"]);
    assert_eq!(
        moves_of(LEAP, fen),
        sorted(&["d1c1", "d1c2", "d1d2", "d1e1"])
    );
}

/// A chain that must end with the own King in check may not be started,
/// even if its first capture alone was safe: King d1 takes d2 (safe in
/// Leap Chess), but then must take the Alfil on e3, a square the Dabbabah
/// e5 guards. No legal capture remains, so the King's quiet moves are legal.
#[test]
fn multi_chain_may_not_end_in_check() {
    let fen = "*k3*/6/6/4r1/p5/P3b1/3p2/*2K1* w - - 0 1";
    assert_eq!(moves_of(LEAP, fen), vec!["d1d2"]);
    assert_eq!(moves_of(MULTI, fen), sorted(&["d1c2", "d1e2"]));
    let p = pos(MULTI, fen);
    let reason = illegal_reason(MULTI, &p, "Kxd2");
    assert!(reason.contains("check"), "{reason}");
}

/// "notation joins the squares (`c3xe5xc7`, coordinate form `c3e5c7`)";
/// Game Courier lists the legs.
#[test]
fn multi_chain_notation() {
    let var = v(MULTI);
    let p = pos(MULTI, "*k3*/2p3/6/4p1/6/2B3/6/*2K1* w - - 0 1");
    let legal = var.legal_moves(&p);
    assert_eq!(legal.len(), 1);
    let m = legal[0];
    assert_eq!(var.format_move(&p, &m, Notation::Display), "c3xe5xc7");
    assert_eq!(var.format_move(&p, &m, Notation::Coordinate), "c3e5c7");
    assert_eq!(
        var.format_move(&p, &m, Notation::GameCourier),
        "B c3-e5; B e5-c7"
    );
    for text in [
        "c3xe5xc7",
        "c3e5c7",
        "B c3-e5; B e5-c7",
        "A c3-e5; A e5-c7",
        "Ac3xe5xc7",
        "c3-e5-c7",
    ] {
        assert_eq!(var.parse_move(&p, &legal, text), Ok(m), "{text}");
    }
    // Black, through Game: c6xe4xc2.
    let mut game = Game::new(var, Some("*2k1*/6/2b3/6/4P1/6/2P3/*2K1* b - - 0 1")).unwrap();
    let played = game.play_text("c6e4c2").unwrap();
    assert_eq!(played.display, "c6xe4xc2");
    assert_eq!(played.game_courier, "b c6-e4; b e4-c2");
    assert_eq!(game.fen(), "*2k1*/6/6/6/6/6/2b3/*2K1* w - - 0 2");
}

/// Our reading: a Pawn whose capture reaches the last rank promotes and the
/// chain ends (the Sail on c8 could take e6 but does not go on). Pawn b5
/// takes c6, d7 and then c8 (not the King on e8), choosing its piece.
#[test]
fn multi_pawn_chain_ends_with_promotion() {
    let var = v(MULTI);
    let fen = "*1n1k*/3p2/2p1p1/1P4/6/6/6/*2K1* w - - 0 1";
    assert_eq!(
        moves_of(MULTI, fen),
        sorted(&["b5c6d7c8q", "b5c6d7c8r", "b5c6d7c8b", "b5c6d7c8n"])
    );
    let p = pos(MULTI, fen);
    let m = find(MULTI, &p, "b5c6d7c8q");
    assert_eq!(var.format_move(&p, &m, Notation::Display), "b5xc6xd7xc8=S+");
    assert_eq!(
        var.format_move(&p, &m, Notation::GameCourier),
        "P b5-c6; P c6-d7; P d7-c8; Q*c8"
    );
    assert_eq!(find(MULTI, &p, "b5xc6xd7xc8=S+"), m);
    assert_eq!(
        var.fen(&var.play(&p, &m)),
        "*1Q1k*/6/4p1/6/6/6/6/*2K1* b - - 0 1"
    );
}

/// Our reading: en passant is a capture like any other, so it may start a
/// chain: after b2b4 the Pawn a4 takes b3 en passant, then c2 and b1
/// (promoting; the King on d1 is never taken).
#[test]
fn multi_en_passant_starts_a_chain() {
    let fen = "*nqkn*/rpbbpr/6/6/p5/6/1PN3/*NQKN* w - - 0 1";
    let p = play(MULTI, &pos(MULTI, fen), "b2b4");
    assert_eq!(
        coords(MULTI, &p),
        sorted(&["a4b3c2b1q", "a4b3c2b1r", "a4b3c2b1b", "a4b3c2b1n"])
    );
    let after = play(MULTI, &p, "a4b3c2b1n");
    assert_eq!(
        v(MULTI).fen(&after),
        "*nqkn*/rpbbpr/6/6/6/6/6/*nQKN* w - - 0 2"
    );
    // In Leap Chess the en passant capture is a move of its own.
    let p = play(LEAP, &pos(LEAP, fen), "b2b4");
    assert_eq!(coords(LEAP, &p), vec!["a4b3"]);
}

/// Our reading: within a chain a Pawn that arrives beside the Pawn that has
/// just double-stepped may take it en passant: c5xd4, then d4xe3 e.p.
#[test]
fn multi_en_passant_within_a_chain() {
    let var = v(MULTI);
    let fen = "*k3*/6/6/2p3/3B2/6/4P1/*2K1* w - - 0 1";
    let p = play(MULTI, &pos(MULTI, fen), "e2e4");
    assert_eq!(var.fen(&p), "*k3*/6/6/2p3/3BP1/6/6/*2K1* b - e3 0 1");
    assert_eq!(coords(MULTI, &p), vec!["c5d4e3"]);
    let after = play(MULTI, &p, "c5xd4xe3");
    assert_eq!(var.fen(&after), "*k3*/6/6/6/6/4p1/6/*2K1* w - - 0 2");
    // In Leap Chess the Pawn on c5 only takes d4, and e3 is no en passant
    // square for the FEN since nobody can take there.
    let p = play(LEAP, &pos(LEAP, fen), "e2e4");
    assert_eq!(v(LEAP).fen(&p), "*k3*/6/6/2p3/3BP1/6/6/*2K1* b - - 0 1");
    assert_eq!(coords(LEAP, &p), vec!["c5d4"]);
}

/// A side never has more than 16 pieces; `leap-chess-multi` refuses such a
/// position (its chains would be longer than a move can hold).
#[test]
fn multi_refuses_more_than_16_pieces_a_side() {
    let fen = "*nnkn*/pppppp/pppppp/pppppp/6/6/6/*2K1* w - - 0 1";
    assert!(matches!(v(MULTI).parse_fen(fen), Err(FenError::Invalid(_))));
    assert!(v(LEAP).parse_fen(fen).is_ok());
}

/// Every capture of `leap-chess-multi` is a complete chain: each leg takes
/// one enemy piece (never the King), and when it ends the piece has no
/// capture left; positions without captures have the same moves as in Leap
/// Chess. Checked over the tree to depth 3 from several positions.
#[test]
fn multi_chains_are_complete_over_perft_trees() {
    let multi = v(MULTI);
    let leap = v(LEAP);
    let starts = [
        START,
        "*nqnk*/rpbbpr/pppppp/6/R5/PPPPPP/1PBBPR/*NQKN* w KQ - 2 2",
        "*n1kn*/1p1bpr/p2ppp/p5/4P1/PP1P2/RP1BPR/*N1KN* w KQkq - 0 7",
        "*n1kn*/r2bpr/qp2pp/2p3/5R/PPP1PP/1PB1P1/*NQK1* b Qkq - 0 8",
    ];
    fn walk(p: &Position, depth: u32, f: &mut dyn FnMut(&Position)) {
        f(p);
        if depth == 0 {
            return;
        }
        let multi = v(MULTI);
        for m in multi.legal_moves(p) {
            walk(&multi.play(p, &m), depth - 1, f);
        }
    }
    let mut chains = 0;
    for fen in starts {
        walk(&pos(MULTI, fen), 3, &mut |p| {
            let us = p.side;
            let count = |q: &Position| q.pieces().filter(|(_, x)| x.color != us).count();
            let legal = multi.legal_moves(p);
            let any_capture = legal.iter().any(|m| count(&multi.play(p, m)) < count(p));
            if !any_capture {
                let mut b: Vec<Move> = leap.legal_moves(p);
                // (Leap Chess may have a capture whose chains are all illegal.)
                if !b.iter().any(|m| count(&leap.play(p, m)) < count(p)) {
                    let mut a: Vec<Move> = legal.clone();
                    a.sort_by_key(|m| format!("{m:?}"));
                    b.sort_by_key(|m| format!("{m:?}"));
                    assert_eq!(a, b, "{}", multi.fen(p));
                }
                return;
            }
            for m in &legal {
                let next = multi.play(p, m);
                let legs = 1 + m.path.len();
                assert_eq!(count(p) - count(&next), legs, "{}", multi.fen(p));
                assert!(next.royal[us.opponent().index()].is_some());
                if m.kind == MoveKind::Chain {
                    chains += 1;
                }
                if m.piece.is_some() {
                    continue;
                }
                // Give the mover the turn again: its piece on `to` has no
                // capture of a non-King piece left.
                let mut again = next.clone();
                again.side = us;
                again.ep = None;
                let enemy_king = next.royal[us.opponent().index()];
                let more = leap.legal_moves(&again).into_iter().any(|x| {
                    x.from == m.to
                        && Some(x.to) != enemy_king
                        && count(&leap.play(&again, &x)) < count(&again)
                });
                assert!(!more, "{} {m:?}", multi.fen(p));
            }
        });
    }
    assert!(chains > 0);
}

// ---------------------------------------------------------------- optional

/// "captures are not compulsory": Alfil c2 may take a4 or e4, or not.
#[test]
fn optional_captures_are_not_forced() {
    let fen = "*2k1*/6/6/6/p3p1/6/2B3/*2K1* w - - 0 1";
    let m = moves_of(OPTIONAL, fen);
    assert!(m.contains(&"c2a4".to_string()) && m.contains(&"c2e4".to_string()));
    assert!(m.contains(&"d1d2".to_string()));
    // The two captures and the King's c1, d2, e1, e2 (c2 is its own Alfil).
    assert_eq!(m.len(), 2 + 4);
    // Stalemate still loses.
    let var = v(OPTIONAL);
    let p = pos(OPTIONAL, "*2k1*/6/6/6/rrr1p1/b3P1/6/*K3* w - - 0 1");
    let out = var.outcome(&p, &var.legal_moves(&p)).unwrap();
    assert_eq!(
        (out.winner, out.reason),
        (Some(Color::Black), Reason::Stalemate)
    );
}

// ---------------------------------------------------------------- 64

/// "the same pieces on the 8x8 board in the chess array (Dabbabahs for
/// Rooks, Alfils for Bishops, Sail for Queen)".
#[test]
fn sixty_four_start_position() {
    let var = v(SIXTY_FOUR);
    assert_eq!(
        var.start_fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(var.geometry().square_count(), 64);
    let p = pos(SIXTY_FOUR, var.start_fen());
    let names: Vec<String> = "abcdefgh"
        .chars()
        .map(|f| {
            let sq = missive_rules::Square::parse(&format!("{f}1")).unwrap();
            var.piece_label(p.get(sq).unwrap()).name
        })
        .collect();
    assert_eq!(
        names,
        ["Dabbabah", "Knight", "Alfil", "Sail", "King", "Alfil", "Knight", "Dabbabah"]
    );
    assert_eq!(var.side_name(Color::White), "Red");
    // "ordinary ... pawn moves": all eight Pawns may double step.
    let doubles = moves_of(SIXTY_FOUR, var.start_fen())
        .into_iter()
        .filter(|m| m.ends_with('4') && m.starts_with(|c: char| c.is_ascii_lowercase()))
        .filter(|m| &m[1..2] == "2")
        .count();
    assert_eq!(doubles, 8);
}

/// "ordinary castling": e1g1 with the h1-Dabbabah to f1, e1c1 with the
/// a1-Dabbabah to d1; the King may not cross an attacked square (Dabbabah
/// f3 attacks f1).
#[test]
fn sixty_four_castling() {
    let var = v(SIXTY_FOUR);
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let p = pos(SIXTY_FOUR, fen);
    // King 5, Dabbabahs a3 c1 f1 h3, castling 2.
    assert_eq!(coords(SIXTY_FOUR, &p).len(), 11);
    let ks = find(SIXTY_FOUR, &p, "O-O");
    assert_eq!(var.format_move(&p, &ks, Notation::Coordinate), "e1g1");
    assert_eq!(var.format_move(&p, &ks, Notation::GameCourier), "K e1-g1");
    assert_eq!(
        var.fen(&var.play(&p, &ks)),
        "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"
    );
    let qs = find(SIXTY_FOUR, &p, "e1c1");
    assert_eq!(var.format_move(&p, &qs, Notation::Display), "O-O-O");
    assert_eq!(
        var.fen(&var.play(&p, &qs)),
        "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1"
    );
    let m = moves_of(SIXTY_FOUR, "r3k2r/8/8/8/8/5r2/8/R3K2R w KQkq - 0 1");
    assert!(!m.contains(&"e1g1".to_string()) && m.contains(&"e1c1".to_string()));
}

/// Compulsory capture and stalemate-loses on 64 squares.
#[test]
fn sixty_four_compulsory_capture_and_stalemate() {
    let p = play(
        SIXTY_FOUR,
        &pos(SIXTY_FOUR, v(SIXTY_FOUR).start_fen()),
        "e4",
    );
    let p = play(SIXTY_FOUR, &p, "d5");
    assert_eq!(coords(SIXTY_FOUR, &p), vec!["e4d5"]);
    // Stalemate: King h1 with g1 guarded by the Dabbabah e1, g2 by the
    // Alfil e4, h2 by the Dabbabah h4; the Pawn a2 is blocked by a3.
    let var = v(SIXTY_FOUR);
    let s = pos(SIXTY_FOUR, "k7/8/8/8/4b2r/p7/P7/4r2K w - - 0 1");
    let legal = var.legal_moves(&s);
    assert!(legal.is_empty() && !var.in_check(&s));
    let out = var.outcome(&s, &legal).unwrap();
    assert_eq!(
        (out.winner, out.reason),
        (Some(Color::Black), Reason::Stalemate)
    );
}

// ---------------------------------------------------------------- robustness

/// Every legal move in the perft trees to depth 2, formatted in each
/// notation, reads back as the same move.
#[test]
fn notation_round_trip() {
    let positions: [(&str, &str); 10] = [
        (LEAP, START),
        (LEAP, CASTLE),
        (LEAP, "*n1kn*/6/6/6/6/6/6/*N1KN* b KQkq - 0 1"),
        (LEAP, "*3k*/1P4/6/6/6/6/1p4/*2K1* w - - 0 1"),
        (
            MULTI,
            "*nqnk*/rpbbpr/pppppp/6/R5/PPPPPP/1PBBPR/*NQKN* w KQ - 2 2",
        ),
        (MULTI, "*1n1k*/3p2/2p1p1/1P4/6/6/6/*2K1* w - - 0 1"),
        (MULTI, "*nqkn*/rpbbpr/6/6/p5/6/1PN3/*NQKN* w - - 0 1"),
        (OPTIONAL, START),
        (
            SIXTY_FOUR,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ),
        (SIXTY_FOUR, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
    ];
    let mut n = 0;
    for (id, fen) in positions {
        let var = v(id);
        let root = pos(id, fen);
        let mut level = vec![root.clone()];
        for m in var.legal_moves(&root) {
            level.push(var.play(&root, &m));
        }
        for p in &level {
            let legal = var.legal_moves(p);
            for m in &legal {
                for notation in Notation::ALL {
                    let text = var.format_move(p, m, notation);
                    assert_eq!(
                        var.parse_move(p, &legal, &text).as_ref(),
                        Ok(m),
                        "{id} {} {text}",
                        var.fen(p)
                    );
                    n += 1;
                }
            }
        }
    }
    assert!(n > 1000);
}

/// Malformed FEN and move text give typed errors, never a panic.
#[test]
fn garbage_input_gives_errors() {
    let long = "x".repeat(5000);
    let fens = [
        "",
        " ",
        "*",
        "////////",
        "*nqkn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQKN*",
        "*nqkn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQKN* x",
        "*nqkn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQKN* w KQkqX - 0 1",
        "*nqkn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQKN* w - z9 0 1",
        "*nqkn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQKN* w - - -1 1",
        "*nqkn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQKN* w - - 0 1 extra",
        "*nqkn*/rpbbpr/pppppp/99999999999/6/PPPPPP/RPBBPR/*NQKN* w - - 0 1",
        "*nqkn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQQN* w - - 0 1",
        "*nqkn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQKN*[Q] w - - 0 1",
        "*nqkn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQKN* w KQkq b3 0 1",
        "*nqkn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQKN* w - c1 0 1",
        "*nqkn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQKN* w - a1 0 1",
        "*ñqkn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQKN* w - - 0 1",
        "*n\u{0}kn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQKN* w - - 0 1",
        "Pnqkn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQKN* w - - 0 1",
        "*nqkn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQKN* w - - 0 1 ;",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &long,
    ];
    for id in ALL {
        for f in fens {
            let _ = v(id).parse_fen(f);
        }
    }
    let texts = [
        "",
        " ",
        "x",
        "O-O-O-O",
        "0-0-0",
        "e2e4e6",
        "c3xe5xc7xa9",
        "c3xxe5",
        "a0a1",
        "z9z9",
        "K d1-",
        "; ;",
        "*",
        "@",
        "P*e5",
        "Q@c3",
        "b7b8=",
        "b7b8=X",
        "=Q",
        "Kxx",
        "é4",
        "a١",
        "e2-e4-e6-e8-e9",
        "P e7-e8; Q*e7",
        "N b1-d2; N d2-b1; N b1-d2",
        "K d1-c1; N b1-d1; x",
        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "+",
        "#",
        "c3e5c7q",
        "\u{0}",
        "a4a6c6c8c8c8",
        "d1b1q",
        "g7g8",
    ];
    for (id, fen) in [
        (LEAP, START),
        (
            MULTI,
            "*nqnk*/rpbbpr/pppppp/6/R5/PPPPPP/1PBBPR/*NQKN* w KQ - 2 2",
        ),
        (OPTIONAL, CASTLE),
        (SIXTY_FOUR, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
    ] {
        let var = v(id);
        let p = pos(id, fen);
        let legal = var.legal_moves(&p);
        for t in texts.iter().copied().chain([long.as_str()]) {
            if let Ok(m) = var.parse_move(&p, &legal, t) {
                assert!(legal.contains(&m), "{id} {t}");
            }
        }
        let mut game = Game::new(var, Some(fen)).unwrap();
        for t in texts.iter().copied().chain([long.as_str()]) {
            let _ = game.parse_move(t);
        }
        assert!(game.play_text(&long).is_err());
    }
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn arbitrary_fen_never_panics(s in "\\PC{0,80}") {
            for id in ALL {
                let _ = v(id).parse_fen(&s);
            }
        }

        #[test]
        fn arbitrary_move_text_never_panics(s in "[a-hK-SxX0-9 *;@=+#-]{0,24}") {
            let var = v(MULTI);
            let p = pos(MULTI, "*nqnk*/rpbbpr/pppppp/6/R5/PPPPPP/1PBBPR/*NQKN* w KQ - 2 2");
            let legal = var.legal_moves(&p);
            if let Ok(m) = var.parse_move(&p, &legal, &s) {
                prop_assert!(legal.contains(&m));
            }
        }
    }
}

/// An outcome is told in the variant's side names (Red, not White), as
/// every surface writes it.
#[test]
fn outcome_words_name_red_and_black() {
    let mut game = Game::new(v(LEAP), Some("*2k1*/6/6/6/p5/6/2B3/*2K1* w - - 0 1")).unwrap();
    game.play_text("Axa4").unwrap();
    let out = game.outcome().unwrap();
    assert_eq!(out.describe(game.variant()), "Red wins by bare king");
    let mut game = Game::new(v(LEAP), Some("*2k1*/6/6/6/P5/6/2b3/*2K1* b - - 0 1")).unwrap();
    game.play_text("c2a4").unwrap();
    let out = game.outcome().unwrap();
    assert_eq!(out.describe(game.variant()), "Black wins by bare king");
}
