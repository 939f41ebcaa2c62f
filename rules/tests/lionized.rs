//! Lionized Chess: one test per rule sentence of the seed page and of the
//! rulings, hand-counted small positions, the footnote-15 notation, and perft
//! from the start position.
//!
//! Every move count below was counted by hand (the reasoning is in the
//! comments). Deeper perft numbers were also reproduced by an independent
//! reference generator written separately from the rules text (different
//! structure: every partner's route enumerated explicitly, moves deduplicated
//! by their footnote-15 string, check tested by generating every enemy turn).

use missive_rules::perft::perft;
use missive_rules::{
    variant, Color, Game, MoveError, MoveKind, Notation, Outcome, Position, Reason, RepetitionRule,
    Square, Variant,
};

fn v() -> &'static dyn Variant {
    variant("lionized-chess").expect("registered")
}

fn pos(fen: &str) -> Position {
    v().parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Legal moves in footnote-15 form, sorted.
fn moves(fen: &str) -> Vec<String> {
    let p = pos(fen);
    let mut out: Vec<String> = v()
        .legal_moves(&p)
        .iter()
        .map(|m| v().format_move(&p, m, Notation::Coordinate))
        .collect();
    out.sort();
    out
}

/// Legal moves of the piece on `from`, footnote-15 form, sorted.
fn moves_from(fen: &str, from: &str) -> Vec<String> {
    moves(fen)
        .into_iter()
        .filter(|m| m.starts_with(from))
        .collect()
}

fn count(fen: &str, depth: u32) -> u64 {
    perft(v(), &pos(fen), depth)
}

/// Play a move text and return the resulting FEN.
fn after(fen: &str, text: &str) -> String {
    let p = pos(fen);
    let legal = v().legal_moves(&p);
    let m = v()
        .parse_move(&p, &legal, text)
        .unwrap_or_else(|e| panic!("{text} in {fen}: {e}"));
    v().fen(&v().play(&p, &m))
}

fn illegal_reason(fen: &str, text: &str) -> String {
    let p = pos(fen);
    let legal = v().legal_moves(&p);
    match v().parse_move(&p, &legal, text) {
        Err(MoveError::Illegal { reason, .. }) => reason,
        other => panic!("{text} in {fen}: expected an illegal move, got {other:?}"),
    }
}

fn names(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

const START: &str = "lcmzkfhl/pppppppp/8/8/8/8/PPPPPPPP/LHMZKFCL[] w - - 0 1";

// ---------------------------------------------------------------- start

/// Rulings: "White rank 1: a1 Lance, b1 Hot Horse, c1 Mammoth, d1 Lionizer,
/// e1 King, f1 Ferz, g1 Cold Horse, h1 Lance. Black rank 8: a8 Lance, b8 Cold
/// Horse, c8 Mammoth, d8 Lionizer, e8 King, f8 Ferz, g8 Hot Horse, h8 Lance."
/// (The seed lists Black's rank from Black's own left, h8 to a8: the same.)
#[test]
fn start_position_follows_the_rulings_square_by_square() {
    assert_eq!(v().start_fen(), START);
    let p = pos(START);
    let white = [
        "Lance",
        "Hot Horse",
        "Mammoth",
        "Lionizer",
        "King",
        "Ferz",
        "Cold Horse",
        "Lance",
    ];
    let black = [
        "Lance",
        "Cold Horse",
        "Mammoth",
        "Lionizer",
        "King",
        "Ferz",
        "Hot Horse",
        "Lance",
    ];
    for f in 0..8u8 {
        let w = p.get(Square::new(f, 0)).unwrap();
        let b = p.get(Square::new(f, 7)).unwrap();
        assert_eq!(
            (w.color, v().piece_label(w).name),
            (Color::White, white[f as usize].to_string())
        );
        assert_eq!(
            (b.color, v().piece_label(b).name),
            (Color::Black, black[f as usize].to_string())
        );
        assert_eq!(
            v().piece_label(p.get(Square::new(f, 1)).unwrap()).letter,
            "P"
        );
        assert_eq!(
            v().piece_label(p.get(Square::new(f, 6)).unwrap()).letter,
            "p"
        );
    }
    assert_eq!(v().fen(&p), START);
}

/// Depth 1 by hand: 16 pawn moves, the Lionizer to any of the 32 empty
/// squares. The Lances, Horses and Ferz are boxed in by their own pieces, the
/// King has no empty neighbour, and the c1 Mammoth is Lionized (next to the
/// d1 Lionizer) without a partner, so it is frozen: 48.
///
/// Depth 2 by hand: after a pawn move Black has 48 again (Black's Lionizer
/// still has 32 empty squares; nothing else changes). After the Lionizer goes
/// to X: X on ranks 3-4 changes nothing (48 x 16); on rank 5 it blocks one
/// double step (47 x 8); on rank 6 it blocks both steps of one Pawn but may be
/// captured by one or two Pawns (a6, h6: 47; b6..g6: 48) = 382.
/// 8*48 + 8*48 + 16*48 + 8*47 + 382 = 2294.
#[test]
fn perft_start_depth_1_2_by_hand() {
    assert_eq!(count(START, 1), 48);
    assert_eq!(count(START, 2), 2294);
}

/// No Lionized turn is possible before ply 5 (a side needs two Lionized
/// pieces, which needs a Pawn move and then a Lionizer move), so depths 3 and
/// 4 test the plain powers, the Lionizer, the frozen Mammoth and the pawns;
/// both were reproduced by the independent reference generator.
#[test]
fn perft_start_depth_3_4() {
    assert_eq!(count(START, 3), 109_794);
    assert_eq!(count(START, 4), 5_247_843);
}

/// A middlegame with Lionized pieces on both sides, pools, and a Pawn about
/// to reach the last rank. White's Z d4 Lionizes F e5, H b4 and L d1;
/// Black's Z d6 Lionizes f f6 and m d8. Black is in check: the Ferz e5 takes
/// e8 by the Lance leg e5-e7 or by the Hot Horse leg e5-(e6)-f7 followed by
/// a Ferz step. By hand, Black has 2 moves: the Lionizer to e6 (blocking the
/// Lance leg and the Horse's step through e6) and f6xe5. The King has no
/// square (d7, e7 and f8 are reached the same ways), and blocking on e7
/// leaves the Horse route. Deeper counts reproduced by the independent
/// generator.
#[test]
fn perft_lionized_middlegame() {
    let fen = "l2mk1h1/ppP2ppp/3z1f2/4F3/1H1Z4/8/PP3PPP/3L2K1[Cl] b - - 0 1";
    assert_eq!(moves(fen), names(&["d6e6", "f6e5"]));
    assert_eq!(count(fen, 2), 188);
    assert_eq!(count(fen, 3), 7_677);
    assert_eq!(count(fen, 4), 530_337);
    let fen = "l2mk1h1/ppP2ppp/3zpf2/4F3/1H1Z4/8/PP3PPP/3L2K1[Cl] w - - 0 1";
    assert_eq!(count(fen, 1), 111);
    assert_eq!(count(fen, 2), 5_432);
    assert_eq!(count(fen, 3), 460_079);
}

// ---------------------------------------------------------------- powers

/// "The Regular Power of the Lance is to Move or Capture as a Rook but only
/// forwards." Forward is up the board for White, down for Black.
#[test]
fn lance_moves_and_captures_forward_only() {
    assert_eq!(
        moves_from("7k/8/8/3p4/8/3L4/8/K7 w - - 0 1", "d3"),
        names(&["d3d4", "d3d5"])
    );
    assert_eq!(
        moves_from("k7/8/8/3l4/8/3P4/8/7K b - - 0 1", "d5"),
        names(&["d5d4", "d5d3"])
    );
}

/// "The Regular Power of the Hot Horse is to step 1 Square orthogonally to an
/// empty Square and then ... step 1 Square in the direction 45 degrees to the
/// right": from e4 f6, g3, d2, c5 — for both colours (board-absolute).
#[test]
fn hot_horse_turns_right_for_both_colours() {
    let all = names(&["e4f6", "e4g3", "e4d2", "e4c5"]);
    assert_eq!(moves_from("7k/8/8/8/4H3/8/8/K7 w - - 0 1", "e4"), all);
    assert_eq!(moves_from("7k/8/8/8/4h3/8/8/K7 b - - 0 1", "e4"), all);
}

/// Cold Horse: the same turning left: from e4 d6, c3, f2, g5.
#[test]
fn cold_horse_turns_left_for_both_colours() {
    let all = names(&["e4d6", "e4c3", "e4f2", "e4g5"]);
    assert_eq!(moves_from("7k/8/8/8/4C3/8/8/K7 w - - 0 1", "e4"), all);
    assert_eq!(moves_from("7k/8/8/8/4c3/8/8/K7 b - - 0 1", "e4"), all);
}

/// Footnote 03: "Like a xiangqi horse, it cannot jump over a piece
/// orthogonally adjacent to it." The Horses capture on their destination.
#[test]
fn horses_are_blocked_by_an_orthogonal_neighbour_and_capture_at_the_end() {
    // e5 occupied: the step north is blocked, so no f6; f6 black piece
    // is not reachable. d2 (via e3) holds a black Pawn: captured.
    let fen = "7k/8/5c2/4P3/4H3/8/3p4/K7 w - - 0 1";
    assert_eq!(moves_from(fen, "e4"), names(&["e4g3", "e4d2", "e4c5"]));
    let fen = "7k/8/5c2/8/4H3/8/8/K7 w - - 0 1";
    assert!(moves_from(fen, "e4").contains(&"e4f6".to_string()));
}

/// "The Regular Power of the Mammoth is to Move or Capture as a Bishop but
/// only exactly 2 Squares." Footnote 06: blocked by the square between.
#[test]
fn mammoth_leaps_two_diagonally_unless_blocked() {
    let fen = "7k/8/2p3p1/5P2/4M3/8/8/K7 w - - 0 1";
    // g6 blocked by f5; c6 captured; c2 and g2 empty.
    assert_eq!(moves_from(fen, "e4"), names(&["e4c6", "e4c2", "e4g2"]));
}

/// "The Regular Power of the Ferz is to Move or Capture as a Bishop but only
/// exactly 1 Square."
#[test]
fn ferz_steps_one_diagonally() {
    let fen = "7k/8/8/3p1P2/4F3/8/8/K7 w - - 0 1";
    assert_eq!(moves_from(fen, "e4"), names(&["e4d5", "e4d3", "e4f3"]));
}

/// "The Regular Power of the Lionizer is to Move to any empty Square." It
/// cannot capture (footnote 07) but can be captured.
#[test]
fn lionizer_goes_to_any_empty_square_and_never_captures() {
    let fen = "7k/8/8/8/3p4/8/8/K2Z4 w - - 0 1";
    // 64 squares - 4 occupied = 60.
    assert_eq!(moves_from(fen, "d1").len(), 60);
    assert!(illegal_reason(fen, "d1d4").contains("never captures"));
    // A black Pawn on e3 takes it.
    let fen = "7k/8/8/8/8/4p3/3Z4/K7 b - - 0 1";
    assert!(moves(fen).contains(&"e3d2".to_string()));
}

/// "All Regular Pieces on the same File as a friendly Pawn on that Rank
/// furthest from its starting position are Lionized" (nothing need be
/// between). White P c8, F c3, L c1, K h1; black K h6.
/// By hand: Ferz c3 (partner Lance): own b4 d4 b2 d2; Lance legs c4..c7
/// (stops); jumping the c8 Pawn; then Ferz steps: b3 b5 b6 b7 b8 d3 d5 d6 d7
/// d8 = 4+4+10 = 18. Lance c1 (partner Ferz): own c2; Ferz legs b2 d2; then
/// Lance b3..b8, d3..d8 = 1+2+12 = 15. King 3. Total 36. With the Pawn on c7
/// instead nothing is Lionized: Ferz 4, Lance 1, King 3, Pawn 1 = 9.
#[test]
fn pawn_on_its_last_rank_lionizes_its_file() {
    // Which pieces are Lionized (c3 and c1 here, and a black Pawn on its
    // last rank Lionizing Black's pieces only) is checked where `Lionized`
    // lives, in the crate's own tests.
    assert_eq!(count("2P5/8/7k/8/8/2F5/8/2L4K w - - 0 1", 1), 36);
    assert_eq!(count("8/2P5/7k/8/8/2F5/8/2L4K w - - 0 1", 1), 9);
}

/// "Lionized ... for as long as that situation persists but no longer":
/// judged on each position before the move. The Lionizer leaving the line
/// frees a frozen piece; coming back freezes it again.
#[test]
fn lionization_lasts_only_while_the_line_stands() {
    let fen = "7k/8/8/3F4/3Z4/8/8/7K w - - 0 1";
    assert!(moves_from(fen, "d5").is_empty());
    let moved = after(fen, "d4a1");
    // Black moves, then the Ferz is an ordinary Ferz again.
    let back = after(&moved, "h8g8");
    assert_eq!(
        moves_from(&back, "d5"),
        names(&["d5c6", "d5e6", "d5c4", "d5e4"])
    );
}

// ---------------------------------------------------------------- Lionized turns

/// "A Lionized piece cannot use its Regular Power if its controlling Player
/// has no other Lionized pieces anywhere on the Board."
/// White K h1, Z d4, F d5: King 3 + Lionizer 60 + frozen Ferz 0 = 63.
#[test]
fn lone_lionized_piece_is_frozen() {
    let fen = "7k/8/8/3F4/3Z4/8/8/7K w - - 0 1";
    assert_eq!(count(fen, 1), 63);
    assert!(moves_from(fen, "d5").is_empty());
    let why = illegal_reason(fen, "d5e6");
    assert!(why.contains("cannot move at all"), "{why}");
}

/// Two Lionized Ferzes (d5, d3, Lionizer d4): each may take one or two Ferz
/// steps. Ferz d5: c6 e6 c4 e4, then b7 d7 b5 f7 f5 b3 f3 (d5 again would be
/// a null turn, d3 is a friend) = 11. Ferz d3 likewise 11. King 3, Lionizer
/// 59. Total 84.
#[test]
fn lionized_pair_hand_count() {
    let fen = "7k/8/8/3F4/3Z4/3F4/8/7K w - - 0 1";
    assert_eq!(moves_from(fen, "d5").len(), 11);
    assert_eq!(moves_from(fen, "d3").len(), 11);
    assert_eq!(count(fen, 1), 84);
    assert_eq!(count(fen, 2), 251);
    assert_eq!(count(fen, 3), 17_441);
}

/// Lance d5 and Mammoth f6, both Lionized by the d4 Lionizer.
/// Lance d5: own d6 d7 d8; Mammoth legs f7 b7 f3 b3; then its own Lance
/// power from there: f8, b8, f4 f5 (f6 is a friend), b4 b5 b6 = 14.
/// Mammoth f6: own h8 d8 h4 (d4 is the Lionizer); Lance legs f7 f8; then
/// Mammoth from f7: h5 (d5 a friend); from f8: h6 d6 = 8.
/// King 3, Lionizer 59: 84.
#[test]
fn lance_and_mammoth_partners_hand_count() {
    let fen = "k7/8/5M2/3L4/3Z4/8/8/7K w - - 0 1";
    assert_eq!(
        moves_from(fen, "d5"),
        names(&[
            "d5d6", "d5d7", "d5d8", "d5f7", "d5b7", "d5f3", "d5b3", "d5f8", "d5b8", "d5f4", "d5f5",
            "d5b4", "d5b5", "d5b6"
        ])
    );
    assert_eq!(
        moves_from(fen, "f6"),
        names(&["f6h8", "f6d8", "f6h4", "f6f7", "f6f8", "f6h5", "f6h6", "f6d6"])
    );
    assert_eq!(count(fen, 1), 84);
    assert_eq!(count(fen, 2), 208);
    assert_eq!(count(fen, 3), 13_955);
}

/// "If its controlling Player has at least 1 other Lionized piece ... a
/// Lionized piece can use ... its own Regular Power" (first kind).
#[test]
fn lionized_piece_with_a_partner_uses_its_own_power() {
    let fen = "k7/8/5M2/3L4/3Z4/8/8/7K w - - 0 1";
    assert_eq!(after(fen, "d5d8"), "k2L4/8/5M2/8/3Z4/8/8/7K[] b - - 1 1");
}

/// "... can use the Regular Power of 1 other friendly Lionized Piece ... and
/// then optionally use its own Regular Power immediately afterwards" (second
/// kind): the Lance borrows the Mammoth's leap d5-f3 and may stop there or go
/// on up the f-file by its own power.
#[test]
fn lionized_piece_borrows_a_partner_power_then_optionally_its_own() {
    let fen = "k7/8/5M2/3L4/3Z4/8/8/7K w - - 0 1";
    assert_eq!(after(fen, "d5f3"), "k7/8/5M2/8/3Z4/5L2/8/7K[] b - - 1 1");
    assert_eq!(after(fen, "d5f5"), "k7/8/5M2/5L2/3Z4/8/8/7K[] b - - 1 1");
    // Without the partner the Lance is frozen: neither is possible.
    assert!(moves_from("k7/8/8/3L4/3Z4/8/8/7K w - - 0 1", "d5").is_empty());
}

/// Third kind (rule 17): "go to a Square that the Regular Power of 1 other
/// friendly Lionized piece ... would bring it and then immediately ... go from
/// that square in accordance with its own Regular Power, leaving the piece on
/// the Square it was on in the middle of the turn ... completely unaffected".
/// White Z e4 Lionizes the Ferz e5 and the Lance b4. The Ferz borrows the
/// Lance power up the e-file to e7, where a white Ferz stands: it may jump
/// there and must go on (d8, f8), but cannot stop on its own piece.
/// By hand: Ferz e5: own d6 f6 d4 f4; e6; from e6 d7 f7 d5 f5; over e7 to d8
/// f8 = 11. Ferz e7 (not Lionized, e5 is in the way) 4. Lance b4: own b5..b8;
/// Ferz legs a5 c5 a3 c3, then up their files: a6 a7 a8 c6 c7 c8 a4 c4 = 16.
/// King 3, Lionizer 58: 92.
#[test]
fn rule_17_jump_passes_over_the_junction_square_then_must_continue() {
    let fen = "7k/4F3/8/4F3/1L2Z3/8/8/K7 w - - 0 1";
    assert_eq!(count(fen, 1), 92);
    let ferz = moves_from(fen, "e5");
    assert!(ferz.contains(&"e5d8".to_string()) && ferz.contains(&"e5f8".to_string()));
    assert!(!ferz.contains(&"e5e7".to_string()));
    assert_eq!(after(fen, "e5d8"), "3F3k/4F3/8/8/1L2Z3/8/8/K7[] b - - 1 1");
    // In Game Courier form the legs are written out.
    assert_eq!(
        after(fen, "F e5-e7; F e7-d8"),
        "3F3k/4F3/8/8/1L2Z3/8/8/K7[] b - - 1 1"
    );
    assert_eq!(count(fen, 2), 258);
    assert_eq!(count(fen, 3), 19_865);
}

/// The rule-17 jump over an enemy piece leaves it untouched; capturing it
/// on the way is a different move. Same set-up with a black Pawn on e7.
/// By hand: Ferz e5 12 single-end moves (d6 f6 d4 f4 e6 d7 f7 d5 f5 e7 d8 f8)
/// plus 4 that capture on e7 and go on (d8 f8 d6 f6); Lance b4 16; King 3;
/// Lionizer 58: 93.
#[test]
fn rule_17_jump_over_an_enemy_leaves_it_untouched() {
    let fen = "7k/4p3/8/4F3/1L2Z3/8/8/K7 w - - 0 1";
    assert_eq!(count(fen, 1), 93);
    assert_eq!(after(fen, "e5d8"), "3F3k/4p3/8/8/1L2Z3/8/8/K7[] b - - 1 1");
    assert_eq!(after(fen, "e5e7d8"), "3F3k/8/8/8/1L2Z3/8/8/K7[] b - - 0 1");
    assert_eq!(count(fen, 2), 370);
    assert_eq!(count(fen, 3), 26_291);
}

/// Footnote 11 and the rulings: "Each leg obeys the blocking of the power it
/// uses, measured from the leg's start". Hot Horse d4 (Lionized by Z a4) with
/// the Lance a1 as partner: up the d-file by the Lance, then its own Horse
/// step. By hand: own e6 f3 c2 b5; Lance legs d5 d6 d7 d8; then from d5 e7 f4
/// c3 b6, d6 e8 f5 c4 b7, d7 f6 c5 b8, d8 f7 c6 = 21. Lance a1: a2 a3; Horse
/// leg b3 then b4..b8 = 8. King 3, Lionizer 59: 91.
#[test]
fn each_leg_obeys_its_own_blocking_from_its_start() {
    let fen = "7k/8/8/8/Z2H4/8/8/L6K w - - 0 1";
    assert_eq!(moves_from(fen, "d4").len(), 21);
    assert_eq!(count(fen, 1), 91);
    assert_eq!(count(fen, 2), 267);
    assert_eq!(count(fen, 3), 19_410);
    // A black Pawn on e5 blocks the second leg d5-(e5)-f4 only (the Horse's
    // orthogonal step from d5), and is itself no target of the Horse.
    let blocked = "7k/8/8/4p3/Z2H4/8/8/L6K w - - 0 1";
    let m = moves_from(blocked, "d4");
    assert!(!m.contains(&"d4f4".to_string()));
    assert!(m.contains(&"d4e7".to_string()));
    // A piece on d6 stops the Lance leg: d7, d8 and what follows from them
    // are gone (e8, f5 via e6... from d6, b7, f6, c5, b8, f7, c6).
    let wall = "7k/8/3p4/8/Z2H4/8/8/L6K w - - 0 1";
    let m = moves_from(wall, "d4");
    for gone in ["d4d7", "d4d8", "d4f6", "d4b8", "d4f7", "d4c6"] {
        assert!(!m.contains(&gone.to_string()), "{gone}");
    }
    // The Lance leg may capture on d6 and the Horse go on from there.
    assert!(m.contains(&"d4d6".to_string()) && m.contains(&"d4d6e8".to_string()));
}

/// Rulings: "During a two-leg turn the mover's start square counts as empty":
/// the Horse goes d4-d5 by the Lance and then steps back through d4 to c3.
#[test]
fn start_square_counts_as_empty_during_the_turn() {
    let fen = "7k/8/8/8/Z2H4/8/8/L6K w - - 0 1";
    assert!(moves_from(fen, "d4").contains(&"d4c3".to_string()));
    assert_eq!(after(fen, "d4c3"), "7k/8/8/8/Z7/2H5/8/L6K[] b - - 1 1");
}

/// "Each leg may capture, so a turn may capture twice"; "a piece captured on
/// the first leg is gone before the second leg"; the out-and-back capture
/// `b6c7b6` is allowed. White Z a5, Ferzes b6 and b4 (both Lionized), black
/// Lance c7 and Mammoth d8.
/// By hand: Ferz b6: a7 c7 c5 b8 d8 d6 d4 and the captures on c7 going on to
/// b8 d8 b6 d6 = 11; Ferz b4: c5 a3 c3 d6 d4 b2 d2 = 7; King 3; Lionizer 57:
/// 78.
#[test]
fn double_capture_and_out_and_back() {
    let fen = "3m3k/2l5/1F6/Z7/1F6/8/8/7K w - - 0 1";
    assert_eq!(count(fen, 1), 78);
    assert_eq!(
        moves_from(fen, "b6"),
        names(&[
            "b6a7", "b6c7", "b6c5", "b6b8", "b6d8", "b6d6", "b6d4", "b6c7b8", "b6c7d8", "b6c7b6",
            "b6c7d6"
        ])
    );
    // Both captured pieces go to Black's pool; the clock restarts.
    assert_eq!(after(fen, "b6c7d8"), "3F3k/8/8/Z7/1F6/8/8/7K[lm] b - - 0 1");
    assert_eq!(
        after(fen, "b6c7b6"),
        "3m3k/8/1F6/Z7/1F6/8/8/7K[l] b - - 0 1"
    );
    assert_eq!(count(fen, 2), 725);
    assert_eq!(count(fen, 3), 48_604);
}

/// "unless this would leave the position completely unaffected except for
/// whose turn it is": going out and back without capturing is no move.
#[test]
fn null_turn_is_refused() {
    let fen = "3m3k/2l5/1F6/Z7/1F6/8/8/7K w - - 0 1";
    let p = pos(fen);
    for m in v().legal_moves(&p) {
        let next = v().play(&p, &m);
        let board = |f: String| f.split('[').next().unwrap().to_string();
        assert_ne!(board(v().fen(&next)), board(v().fen(&p)));
        assert!(!(m.from == m.to && m.kind == MoveKind::Normal));
    }
    let why = illegal_reason(fen, "F b6-a7; F a7-b6");
    assert!(why.contains("unchanged"), "{why}");
    let why = illegal_reason(fen, "b6a7b6");
    assert!(why.contains("no enemy piece on a7"), "{why}");
}

/// The squares passed over by a leg still block (footnote 11): the Ferz b6
/// cannot borrow anything to pass the Lionizer a5 and the friendly Ferz b4.
#[test]
fn a_friend_cannot_be_captured_on_either_leg() {
    let fen = "3m3k/2l5/1F6/Z7/1F6/8/8/7K w - - 0 1";
    for m in moves_from(fen, "b6") {
        assert!(!m.ends_with("a5") && !m.ends_with("b4"), "{m}");
    }
    let why = illegal_reason(fen, "b6b4");
    assert!(why.contains("own"), "{why}");
}

// ---------------------------------------------------------------- pawns

/// "King and Pawns as in chess (double step, en passant)". En passant is
/// written start, captured Pawn's square, end: `c5d5d6`.
#[test]
fn pawns_double_step_and_take_en_passant() {
    let fen = "7k/3p4/8/2P5/8/8/8/K7 b - - 0 1";
    let fen2 = after(fen, "d7d5");
    assert_eq!(fen2, "7k/8/8/2Pp4/8/8/8/K7[] w - d6 1 2");
    assert_eq!(moves_from(&fen2, "c5"), names(&["c5c6", "c5d5d6"]));
    assert_eq!(after(&fen2, "c5d5d6"), "7k/8/3P4/8/8/8/8/K7[] b - - 0 2");
    // The UCI-style `c5d6` and Game Courier `P c5-d6` are read as well.
    assert_eq!(after(&fen2, "c5d6"), after(&fen2, "c5d5d6"));
    assert_eq!(after(&fen2, "P c5-d6"), after(&fen2, "c5d5d6"));
}

/// "There is no castling."
#[test]
fn there_is_no_castling() {
    let fen = "4k3/8/8/8/8/8/8/L3K2L w - - 0 1";
    assert!(!moves(fen).iter().any(|m| m == "e1g1" || m == "e1c1"));
    assert!(v().parse_fen("4k3/8/8/8/8/8/8/L3K2L w KQ - 0 1").is_err());
}

/// "A Pawn upon reaching the Rank furthest from its starting position may not
/// Promote but may either remain a Pawn or switch places with any Regular
/// Piece friendly to it that is currently out of play due to having been
/// Captured." White's pool holds a Cold Horse and a Lance.
/// By hand: a7 to a8 or capturing b8, each as a Pawn, C or L: 6; King 3: 9.
#[test]
fn pawn_on_last_rank_stays_or_swaps_each_choice() {
    let fen = "1m5k/P7/8/8/8/8/8/K7[LCl] w - - 0 1";
    assert_eq!(count(fen, 1), 9);
    assert_eq!(
        moves_from(fen, "a7"),
        names(&["a7a8", "a7a8C", "a7a8L", "a7b8", "a7b8C", "a7b8L"])
    );
    assert_eq!(after(fen, "a7a8"), "Pm5k/8/8/8/8/8/8/K7[LCl] b - - 1 1");
    assert_eq!(after(fen, "a7a8C"), "Cm5k/8/8/8/8/8/8/K7[Ll] b - - 1 1");
    assert_eq!(after(fen, "a7a8L"), "Lm5k/8/8/8/8/8/8/K7[Cl] b - - 1 1");
    // Capturing: the black Mammoth joins Black's pool.
    assert_eq!(after(fen, "a7b8C"), "1C5k/8/8/8/8/8/8/K7[Llm] b - - 0 1");
    assert_eq!(
        after(fen, "P a7-b8; L*b8"),
        "1L5k/8/8/8/8/8/8/K7[Clm] b - - 0 1"
    );
    // Nothing captured, nothing to swap with.
    assert_eq!(
        moves_from("7k/P7/8/8/8/8/8/K7[] w - - 0 1", "a7"),
        names(&["a7a8"])
    );
    // Rulings: "one move per kind of piece available".
    assert_eq!(
        moves_from("7k/P7/8/8/8/8/8/K7[CC] w - - 0 1", "a7"),
        names(&["a7a8", "a7a8C"])
    );
}

/// "Captured Regular pieces are not necessarily removed from the game
/// completely": they go to their owner's pool; captured Pawns, Lionizers (and
/// Kings) do not.
#[test]
fn captured_regular_pieces_are_kept_for_their_owner() {
    assert_eq!(
        after("7k/8/8/8/8/4f3/3P4/K7 w - - 0 1", "d2e3"),
        "7k/8/8/8/8/4P3/8/K7[f] b - - 0 1"
    );
    assert_eq!(
        after("7k/8/8/8/8/4z3/3P4/K7 w - - 0 1", "d2e3"),
        "7k/8/8/8/8/4P3/8/K7[] b - - 0 1"
    );
    assert_eq!(
        after("7k/8/8/8/8/4p3/3F4/K7 w - - 0 1", "d2e3"),
        "7k/8/8/8/8/4F3/8/K7[] b - - 0 1"
    );
}

// ---------------------------------------------------------------- check and game end

/// Rulings: "Check and checkmate as in chess, with attacks including Lionized
/// two-leg moves." The Ferz d4 (Lionized by Z d3, partner Lance a3) reaches e8
/// only by the Lance leg d4-d7 and a Ferz step. Black's King can go only to
/// f8 and f7: d8 and d7 are on the Lance leg, e7 is a Ferz step from d6/d8.
#[test]
fn check_given_by_a_two_leg_move() {
    let fen = "4k3/8/8/8/3F4/L2Z4/8/7K b - - 0 1";
    assert!(v().in_check(&pos(fen)));
    assert_eq!(moves(fen), names(&["e8f8", "e8f7"]));
}

/// Rulings: "A Lionized piece without a Lionized partner gives no check."
#[test]
fn lone_lionized_piece_gives_no_check() {
    assert!(!v().in_check(&pos("4k3/8/8/8/3F4/3Z4/8/7K b - - 0 1")));
    // Nor does an ordinary Ferz on d4.
    assert!(!v().in_check(&pos("4k3/8/8/8/3F4/8/8/7K b - - 0 1")));
    // A Lionized Ferz next to the King without a partner cannot take it,
    // so the King may even step next to it.
    let lone = "4k3/3F4/3Z4/8/8/8/8/7K b - - 0 1";
    assert!(!v().in_check(&pos(lone)));
    assert!(moves(lone).contains(&"e8d8".to_string()));
}

/// A move that would expose the King to a two-leg capture is illegal, and
/// the reader says why.
#[test]
fn moves_into_a_two_leg_attack_are_illegal() {
    let fen = "4k3/8/8/8/3F4/L2Z4/8/7K b - - 0 1";
    let why = illegal_reason(fen, "e8d8");
    assert!(why.contains("check"), "{why}");
}

/// Checkmate wins; "Stalemate is a draw."
#[test]
fn checkmate_wins_and_stalemate_draws() {
    let mate = pos("7k/8/8/8/8/8/8/K5LL b - - 0 1");
    let legal = v().legal_moves(&mate);
    assert!(legal.is_empty() && v().in_check(&mate));
    assert_eq!(
        v().outcome(&mate, &legal),
        Some(Outcome::win(Color::White, Reason::Checkmate))
    );
    let stale = pos("7k/8/4M1FF/8/8/8/8/K7 b - - 0 1");
    let legal = v().legal_moves(&stale);
    assert!(legal.is_empty() && !v().in_check(&stale));
    assert_eq!(
        v().outcome(&stale, &legal),
        Some(Outcome::draw(Reason::Stalemate))
    );
}

/// "If the last 50 Turns of each Player did not include a Capture, the game
/// is Drawn." The halfmove field counts plies since the last capture; Pawn
/// moves do not reset it.
#[test]
fn fifty_turns_without_capture_draw() {
    let g = |fen: &str| Game::new(v(), Some(fen)).unwrap();
    let mut game = g("7k/8/8/8/8/8/P7/K5L1 w - - 99 80");
    assert_eq!(game.outcome(), None);
    game.play_text("a2a4").unwrap();
    assert_eq!(game.outcome(), Some(Outcome::draw(Reason::MoveCountRule)));
    // A capture on the 100th ply restarts the count.
    let mut game = g("7k/8/8/8/8/8/p7/K5L1 w - - 99 80");
    game.play_text("a1a2").unwrap();
    assert_eq!(game.outcome(), None);
    assert_eq!(game.position().halfmove, 0);
    // A checkmate on that turn stands (this server's reading: the game is
    // over by checkmate before the count is looked at).
    let mut game = g("7k/7p/8/8/7M/8/8/K5L1 w - - 99 80");
    game.play_text("h4f6").unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, Reason::Checkmate))
    );
    // 98 + 1 is not yet a draw.
    let mut game = g("7k/8/8/8/8/8/P7/K5L1 w - - 98 80");
    game.play_text("a2a3").unwrap();
    assert_eq!(game.outcome(), None);
}

/// Rulings: "There is no repetition rule."
#[test]
fn repetition_has_no_effect() {
    assert_eq!(v().repetition_rule(), RepetitionRule::Ignored);
    let mut game = Game::new(v(), Some("7k/8/8/8/8/8/8/K7 w - - 0 1")).unwrap();
    for _ in 0..4 {
        for m in ["a1a2", "h8h7", "a2a1", "h7h8"] {
            game.play_text(m).unwrap();
        }
    }
    assert_eq!(game.outcome(), None);
}

/// A Pawn's double step that no Pawn can take en passant leaves no en
/// passant square in the FEN (as Fairy-Stockfish writes it), and the
/// position's key leaves it out too: a game restored from its FEN and
/// history (as the server stores it) is the game played, with no second
/// entry for the same position.
#[test]
fn a_dead_en_passant_square_is_in_neither_the_fen_nor_the_key() {
    let mut game = Game::new(v(), None).unwrap();
    game.play_text("h2h4").unwrap();
    let fen = game.fen();
    assert_eq!(fen.split(' ').nth(3), Some("-"), "{fen}");
    let restored = Game::restore(v(), &fen, &game.history_string()).unwrap();
    assert_eq!(restored.history_string(), game.history_string());
    assert_eq!(restored.history().len(), 2);
}

// ---------------------------------------------------------------- notation

/// Footnote 15: "Some examples would be "e5a4", "e5e7f6", and "a2b1C"."
/// Each parses in a position where it is legal and gives the expected
/// position.
#[test]
fn footnote_15_examples() {
    // e5a4: Hot Horse e5 (Lionized by Z e4, partner Mammoth h4) borrows the
    // Mammoth leap e5-c3 and turns right to a4 by its own power.
    let fen = "7k/8/8/4H3/4Z2M/8/8/K7 w - - 0 1";
    assert_eq!(after(fen, "e5a4"), "7k/8/8/8/H3Z2M/8/8/K7[] b - - 1 1");
    // e5e7f6: Ferz e5 borrows the Lance leg up to e7, captures there, and
    // steps to f6 by its own power.
    let fen = "7k/4p3/8/4F3/1L2Z3/8/8/K7 w - - 0 1";
    assert_eq!(after(fen, "e5e7f6"), "7k/8/5F2/8/1L2Z3/8/8/K7[] b - - 0 1");
    // a2b1C: a black Pawn takes on b1 and switches places with its captured
    // Cold Horse (the symbol is upper case for both sides).
    let fen = "7k/8/8/8/8/8/p7/1F5K[c] b - - 0 1";
    assert_eq!(count(fen, 1), 7); // a1, a1C, b1, b1C + King 3
    assert_eq!(after(fen, "a2b1C"), "7k/8/8/8/8/8/8/1c5K[F] w - - 0 2");
    assert_eq!(
        after(fen, "p a2-b1; c*b1"),
        "7k/8/8/8/8/8/8/1c5K[F] w - - 0 2"
    );
}

/// Strings that are illegal say why.
#[test]
fn illegal_strings_explain_why() {
    let fen = "7k/4p3/8/4F3/1L2Z3/8/8/K7 w - - 0 1";
    let why = illegal_reason(fen, "e5e6f7");
    assert!(why.contains("no enemy piece on e6"), "{why}");
    let why = illegal_reason(fen, "e5h8");
    assert!(why.contains("cannot go to h8"), "{why}");
    let why = illegal_reason(fen, "e7e6");
    assert!(why.contains("not yours"), "{why}");
    let why = illegal_reason(fen, "c3c4");
    assert!(why.contains("no piece on c3"), "{why}");
    let why = illegal_reason("7k/8/8/8/8/8/p7/1F5K[c] b - - 0 1", "a2b1L");
    assert!(why.contains("no captured Lance"), "{why}");
    let why = illegal_reason("7k/8/8/8/8/8/p7/1F5K[c] b - - 0 1", "a2b1Z");
    assert!(why.contains("Regular"), "{why}");
    let why = illegal_reason("7k/8/8/8/8/8/8/K3L3[C] w - - 0 1", "e1e2C");
    assert!(why.contains("only a Pawn"), "{why}");
    // A plain piece cannot capture and go on.
    let why = illegal_reason("7k/8/3p4/4F3/8/8/8/K7 w - - 0 1", "e5d6c7");
    assert!(why.contains("not Lionized"), "{why}");
    let why = illegal_reason(START, "b1c3");
    assert!(why.contains("blocked"), "{why}");
    let why = illegal_reason("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1g1");
    assert!(why.contains("no castling"), "{why}");
    // Label and piece disagree.
    let why = illegal_reason(fen, "L e5-e6");
    assert!(why.contains("Ferz"), "{why}");
    // A Game Courier route that does not exist.
    let why = illegal_reason(fen, "F e5-d6; F d6-d5");
    assert!(
        why.contains("by way of d6") || why.contains("cannot"),
        "{why}"
    );
}

#[test]
fn game_courier_forms_are_shown_and_read() {
    let fen = "3m3k/2l5/1F6/Z7/1F6/8/8/7K w - - 0 1";
    let p = pos(fen);
    let legal = v().legal_moves(&p);
    let out_and_back = legal
        .iter()
        .find(|m| v().format_move(&p, m, Notation::Coordinate) == "b6c7b6")
        .unwrap();
    assert_eq!(
        v().format_move(&p, out_and_back, Notation::GameCourier),
        "F b6-c7; F c7-b6"
    );
    assert_eq!(
        v().format_move(&p, out_and_back, Notation::Display),
        "b6c7b6"
    );
    assert_eq!(
        v().parse_move(&p, &legal, "b6-c7; c7-b6").unwrap(),
        *out_and_back
    );
    let swap = pos("1m5k/P7/8/8/8/8/8/K7[LCl] w - - 0 1");
    let legal = v().legal_moves(&swap);
    let m = v().parse_move(&swap, &legal, "a7b8C").unwrap();
    assert_eq!(
        v().format_move(&swap, &m, Notation::GameCourier),
        "P a7-b8; C*b8"
    );
}

/// Rulings: "two move sequences producing the same string are the same move":
/// every legal move has a distinct footnote-15 string.
#[test]
fn routes_with_the_same_result_are_one_move() {
    for fen in [
        "3m3k/2l5/1F6/Z7/1F6/8/8/7K w - - 0 1",
        "7k/4p3/8/4F3/1L2Z3/8/8/K7 w - - 0 1",
        "7k/8/8/3F4/3Z4/3F4/8/7K w - - 0 1",
    ] {
        let list = moves(fen);
        let mut dedup = list.clone();
        dedup.dedup();
        assert_eq!(list, dedup, "{fen}");
    }
    // e5d8 in the jump position is reached over e7 both as a jump and
    // (the Lance leg stopping at e6 is not enough) — one move.
    let fen = "7k/4p3/8/4F3/1L2Z3/8/8/K7 w - - 0 1";
    assert_eq!(
        moves_from(fen, "e5")
            .iter()
            .filter(|m| *m == "e5d8")
            .count(),
        1
    );
}

/// Every legal move in the trees to depth 2, written in each notation, reads
/// back as the same move.
#[test]
fn notation_round_trip_to_depth_2() {
    let fens = [
        START,
        "3m3k/2l5/1F6/Z7/1F6/8/8/7K w - - 0 1",
        "7k/4p3/8/4F3/1L2Z3/8/8/K7 w - - 0 1",
        "1m5k/P7/8/8/8/8/8/K7[LCl] w - - 0 1",
        "7k/3p4/8/2P5/8/8/8/K7 b - - 0 1",
        "2P5/8/7k/8/8/2F5/8/2L4K w - - 0 1",
    ];
    for fen in fens {
        let root = pos(fen);
        let mut nodes = vec![root.clone()];
        for m in v().legal_moves(&root) {
            nodes.push(v().play(&root, &m));
        }
        for p in &nodes {
            let legal = v().legal_moves(p);
            for m in &legal {
                for n in Notation::ALL {
                    let text = v().format_move(p, m, n);
                    let back = v().parse_move(p, &legal, &text);
                    assert_eq!(back.as_ref(), Ok(m), "{fen}: {text} ({n:?})");
                }
            }
        }
    }
}

/// Bad input never panics: garbage FENs and move texts give typed errors.
#[test]
fn garbage_input_gives_errors_not_panics() {
    let fens = [
        "",
        " ",
        "x",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "lcmzkfhl/pppppppp/8/8/8/8/PPPPPPPP/LHMZKFCL[ w - - 0 1",
        "lcmzkfhl/pppppppp/8/8/8/8/PPPPPPPP/LHMZKFCL[K] w - - 0 1",
        "lcmzkfhl/pppppppp/8/8/8/8/PPPPPPPP/LHMZKFCL[Z] w - - 0 1",
        "lcmzkfhl/pppppppp/8/8/8/8/PPPPPPPP/LHMZKFCL[] x - - 0 1",
        "lcmzkfhl/pppppppp/8/8/8/8/PPPPPPPP/LHMZKFCL[] w - e9 0 1",
        "lcmzkfhl/pppppppp/8/8/8/8/PPPPPPPP/LHMZKFCL[] w - e3 0 1",
        "lcmzkfhl/pppppppp/8/8/8/8/PPPPPPPP/LHMZKFCQ[] w - - 0 1",
        "lcmzkfhl/pppppppp/9/8/8/8/PPPPPPPP/LHMZKFCL[] w - - 0 1",
        "7k/8/8/8/8/8/8/P6K w - - 0 1",
        "7k/8/8/8/8/8/8/K5LL w - - 0 1",
        "lcmzkfhl/pppppppp/8/8/8/8/PPPPPPPP/LHMZKFCL[] w - - -1 1",
        "lcmzkfhl/pppppppp/8/8/8/8/PPPPPPPP/LHMZKFCL[] w - - 0 1 extra",
        "7k/8/8/8/8/8/8/K6* w - - 0 1",
        "ééé/ü",
        "\u{0}\u{1}",
        &"8/".repeat(300),
    ];
    for f in fens {
        assert!(v().parse_fen(f).is_err(), "{f:?}");
    }
    let p = pos(START);
    let legal = v().legal_moves(&p);
    let long = "e2e4".repeat(500);
    let texts = [
        "",
        " ",
        "e2",
        "e2e",
        "e2e4e6e8",
        "e9e4",
        "z2e4",
        "e2-",
        "-e4",
        ";",
        "P*e4",
        "e2e4Q",
        "e2e4==",
        "é2é4",
        "ＬＨ",
        "\u{0}",
        "a1a1",
        "e2e3e4",
        "P e2-e4; P e4-e5",
        "X e2-e4",
        "e2-e4; Q*e4",
        long.as_str(),
        "1234",
        "🦁",
        "e10e11",
        "p9p10",
    ];
    for t in texts {
        let r = v().parse_move(&p, &legal, t);
        assert!(r.is_err(), "{t:?} read as {r:?}");
    }
}

#[test]
fn fen_round_trips_and_pool_letters() {
    for fen in [
        START,
        "3m3k/2l5/1F6/Z7/1F6/8/8/7K[LLcf] w - - 12 30",
        "7k/8/8/2Pp4/8/8/8/K7[] w - d6 1 2",
        "2P5/8/7k/8/8/2F5/8/2L4K[] b - - 0 1",
    ] {
        assert_eq!(v().fen(&pos(fen)), fen);
    }
    // The hand field may be left out; en passant is written only when it can
    // be taken.
    assert_eq!(
        v().fen(&pos("7k/8/8/8/8/8/8/K7 w - - 0 1")),
        "7k/8/8/8/8/8/8/K7[] w - - 0 1"
    );
    assert_eq!(
        v().fen(&pos("7k/8/8/3p4/8/8/8/K7 w - d6 0 1")),
        "7k/8/8/3p4/8/8/8/K7[] w - - 0 1"
    );
}

#[test]
fn rules_page_mentions_every_rule() {
    let text = v().rules_text();
    for needle in [
        "Lionizer",
        "Z is this server's choice",
        "partner",
        "b6c7b6",
        "e5e7f6",
        "a2b1C",
        "50 turns",
        "stalemate",
        "no castling",
        "last rank",
    ] {
        assert!(text.contains(needle), "{needle}");
    }
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Any text as a position string gives a position or a typed error.
        #[test]
        fn parse_fen_never_panics(text in "\\PC{0,80}") {
            let _ = v().parse_fen(&text);
        }

        /// FEN-like noise made of the variant's own characters.
        #[test]
        fn parse_fen_noise_never_panics(text in "[lhcmfzkpLHCMFZKP1-9/\\[\\] wb\\-a-h0-9*]{0,90}") {
            if let Ok(p) = v().parse_fen(&text) {
                let again = v().fen(&p);
                prop_assert!(v().parse_fen(&again).is_ok(), "{again}");
            }
        }

        /// Any text as a move gives a move or a typed error.
        #[test]
        fn parse_move_never_panics(text in "\\PC{0,40}", fen_pick in 0usize..3) {
            let fens = [
                START,
                "3m3k/2l5/1F6/Z7/1F6/8/8/7K w - - 0 1",
                "1m5k/P7/8/8/8/8/8/K7[LCl] w - - 0 1",
            ];
            let p = pos(fens[fen_pick]);
            let legal = v().legal_moves(&p);
            if let Ok(m) = v().parse_move(&p, &legal, &text) {
                prop_assert!(legal.contains(&m));
            }
        }

        /// Move-like noise: squares, letters, hyphens and semicolons.
        #[test]
        fn parse_move_noise_never_panics(text in "[a-i1-9LHCMFZKPlhcmfzkp \\-;*]{0,24}") {
            let p = pos("3m3k/2l5/1F6/Z7/1F6/8/8/7K w - - 0 1");
            let legal = v().legal_moves(&p);
            if let Ok(m) = v().parse_move(&p, &legal, &text) {
                prop_assert!(legal.contains(&m));
            }
        }
    }
}
