//! Fleap: one test per rule sentence of the seed page and of the rulings
//! (sections "Fleap" and "Precise readings → Fleap"), hand-checked small
//! positions, perft, notation round trips and bad input.
//!
//! Positions are written with `fen()`: a list of (square, FEN token) on the
//! 43-square board, extra craters, the hand, side to move and Nukes.

use missive_rules::perft::{divide, perft};
use missive_rules::{
    variant, Color, Game, Move, MoveError, MoveKind, Notation, Position, Reason, Square, Variant,
};
use std::collections::BTreeSet;

/// The `Move::tag` Fleap gives a Rifle capture and a Nuke among its
/// `MoveKind::Special` moves: part of what its moves mean, pinned here.
const RIFLE: u8 = 1;
const NUKE: u8 = 2;

fn v() -> &'static dyn Variant {
    variant("fleap").expect("fleap is registered")
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

const HOLES: [&str; 6] = ["a1", "g1", "a4", "g4", "a7", "g7"];

/// A position string from pieces, craters, hand, side and Nukes (`"1/1"`).
fn fen(pieces: &[(&str, &str)], craters: &[&str], hand: &str, side: &str, nukes: &str) -> String {
    let mut rows = Vec::new();
    for r in (1..=7).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for f in b'a'..=b'g' {
            let name = format!("{}{r}", f as char);
            let token = if HOLES.contains(&name.as_str()) || craters.contains(&name.as_str()) {
                Some("*".to_string())
            } else {
                pieces
                    .iter()
                    .find(|(s, _)| *s == name)
                    .map(|(_, t)| t.to_string())
            };
            match token {
                None => empty += 1,
                Some(t) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push_str(&t);
                }
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    format!("{}[{hand}] {side} {nukes} 0 1", rows.join("/"))
}

fn pos(f: &str) -> Position {
    v().parse_fen(f).unwrap_or_else(|e| panic!("{f}: {e}"))
}

/// Legal moves in coordinate form, sorted.
fn moves(f: &str) -> Vec<String> {
    let p = pos(f);
    let mut out: Vec<String> = v()
        .legal_moves(&p)
        .iter()
        .map(|m| v().format_move(&p, m, Notation::Coordinate))
        .collect();
    out.sort();
    out
}

/// Coordinate forms of the legal moves of the piece on `from`.
fn moves_from(f: &str, from: &str) -> Vec<String> {
    let p = pos(f);
    let mut out: Vec<String> = v()
        .legal_moves(&p)
        .iter()
        .filter(|m| m.from == sq(from))
        .map(|m| v().format_move(&p, m, Notation::Coordinate))
        .collect();
    out.sort();
    out
}

fn strs(items: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Parse a move text in `f` and play it.
fn after(f: &str, text: &str) -> Position {
    let p = pos(f);
    let legal = v().legal_moves(&p);
    let m = v()
        .parse_move(&p, &legal, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    v().play(&p, &m)
}

fn token_at(p: &Position, s: &str) -> String {
    match p.get(sq(s)) {
        None => if p.is_hole(sq(s)) { "*" } else { "." }.to_string(),
        Some(pc) => v().piece_label(pc).letter,
    }
}

// ---- board and setup ----

#[test]
fn board_is_7x7_without_six_squares_43_in_all() {
    let g = v().geometry();
    assert_eq!((g.width, g.height), (7, 7));
    assert_eq!(g.square_count(), 43);
    for h in HOLES {
        assert!(g.is_hole(sq(h)), "{h}");
    }
}

#[test]
fn reconstructed_setup_and_one_nuke_each() {
    // (reconstructed) White: b1 EquiRepeater, c1 Non-stop, d1 Fore'n'aft,
    // e1 Ballista, f1 EquiRepeater, Equihoppers a2-g2; Black the same on
    // b7-f7 and a6-g6. Each side holds one Nuke.
    let p = pos(v().start_fen());
    for (s, t) in [
        ("b1", "T"),
        ("c1", "S"),
        ("d1", "F"),
        ("e1", "A"),
        ("f1", "T"),
    ] {
        assert_eq!(token_at(&p, s), t);
        let black = format!("{}7", &s[..1]);
        assert_eq!(token_at(&p, &black), t.to_lowercase());
    }
    for f in 'a'..='g' {
        assert_eq!(token_at(&p, &format!("{f}2")), "E");
        assert_eq!(token_at(&p, &format!("{f}6")), "e");
    }
    assert_eq!(p.counters, [1, 1]);
    assert_eq!(p.side, Color::White);
}

#[test]
fn rules_page_says_the_setup_is_reconstructed() {
    let text = v().rules_text();
    assert!(text.contains("RECONSTRUCTED"));
    assert!(text.contains("diagram is lost"));
    assert!(text.contains("Bxxc4,xc3,d5,b4,c4"));
    assert!(text.contains("P>b2,e3xc3"));
}

// ---- movement ----

#[test]
fn equihopper_jumps_exactly_one_piece_at_the_midpoint() {
    // c4 (black) is the hurdle of c3-c5 (capturing the Pawn there); d3 of
    // c3-e3; e4 is off-line (2,1) so c3-g5 only needs the midpoint; c3-c7
    // over c5 is on a file and c4 between is occupied; b2's landing a1 is
    // not a square.
    let f = fen(
        &[
            ("c3", "E"),
            ("c4", "n"),
            ("c5", "p"),
            ("d3", "N"),
            ("e4", "r"),
            ("b2", "R"),
        ],
        &[],
        "",
        "w",
        "1/1",
    );
    assert_eq!(moves_from(&f, "c3"), strs(&["c3c5", "c3e3", "c3g5"]));
}

#[test]
fn nonstop_equihopper_only_the_midpoint_matters() {
    let f = fen(
        &[
            ("c3", "S"),
            ("c4", "n"),
            ("c5", "p"),
            ("d3", "N"),
            ("e4", "r"),
            ("b2", "R"),
        ],
        &[],
        "",
        "w",
        "1/1",
    );
    assert_eq!(
        moves_from(&f, "c3"),
        strs(&["c3c5", "c3c7", "c3e3", "c3g5"])
    );
}

/// Hand count of every White move in a position with craters.
/// E c2: a2 (over b2), g6 (diagonal over e4, d3 and f5 empty); c6 is cut
/// off by the crater c3, c3 is no hurdle, e2 and f2 block the rank.
/// E b2: d2 (over c2), d6 (off-line over c4); c3 is a crater, no hurdle.
/// S e2: e6 over e4 across the crater e3, g2 over f2, a2 over c2, a6 over c4.
/// E f2: d2 over e2, d6 off-line over e4; f3's landing f4 is a crater.
/// N f3: d4 e5 g5 d2 e1 (g1 is no square). 2+2+4+2+5 = 15.
#[test]
fn craters_block_line_hops_never_hurdles_never_landings() {
    let f = fen(
        &[
            ("c2", "E"),
            ("b2", "E"),
            ("e2", "S"),
            ("f2", "E"),
            ("f3", "N"),
            ("c4", "p"),
            ("e4", "p"),
        ],
        &["c3", "e3", "f4"],
        "",
        "w",
        "0/0",
    );
    assert_eq!(moves_from(&f, "c2"), strs(&["c2a2", "c2g6"]));
    assert_eq!(moves_from(&f, "b2"), strs(&["b2d2", "b2d6"]));
    assert_eq!(
        moves_from(&f, "e2"),
        strs(&["e2a2", "e2a6", "e2e6", "e2g2"])
    );
    assert_eq!(moves_from(&f, "f2"), strs(&["f2d2", "f2d6"]));
    assert_eq!(
        moves_from(&f, "f3"),
        strs(&["f3d2", "f3d4", "f3e1", "f3e5", "f3g5"])
    );
    assert_eq!(perft(v(), &pos(&f), 1), 15);
}

/// Ballista d3: quiet Queen moves of one or two squares (11: d2 d1 e3 f3 c3
/// e4 f5 c4 b5 e2 f1; d4 and c2 are own pieces, b3 an enemy it cannot take
/// by moving); rifle capture d5 over d4; Nukes at d5 and b1 (over c2).
#[test]
fn ballista_quiet_queen_two_rifle_and_nuke_targets() {
    let pieces = [
        ("d3", "A"),
        ("d4", "E"),
        ("c2", "N"),
        ("d5", "r"),
        ("b3", "p"),
    ];
    let f = fen(&pieces, &[], "", "w", "1/1");
    assert_eq!(
        moves_from(&f, "d3"),
        strs(&[
            "d3b5", "d3c3", "d3c4", "d3d1", "d3d2", "d3e2", "d3e3", "d3e4", "d3f1", "d3f3", "d3f5",
            "d3xd5", "d3xxb1", "d3xxd5"
        ])
    );
    // d4: d2 (over d3), d6 (over d5). c2: a3 b4 e3 e1.
    assert_eq!(perft(v(), &pos(&f), 1), 14 + 2 + 4);
    let no_nukes = fen(&pieces, &[], "", "w", "0/1");
    assert_eq!(perft(v(), &pos(&no_nukes), 1), 12 + 2 + 4);
}

#[test]
fn ballista_rifle_captures_without_moving() {
    let f = fen(
        &[("d3", "A"), ("d4", "E"), ("d5", "r")],
        &[],
        "",
        "w",
        "0/0",
    );
    let p = after(&f, "Axd5");
    assert_eq!(token_at(&p, "d3"), "A");
    assert_eq!(token_at(&p, "d5"), ".");
    let p0 = pos(&f);
    let m = v()
        .legal_moves(&p0)
        .into_iter()
        .find(|m| m.to == sq("d5"))
        .unwrap();
    assert_eq!((m.kind, m.tag), (MoveKind::Special, RIFLE));
}

#[test]
fn rifle_captures_may_take_a_king() {
    let f = fen(
        &[("d3", "A"), ("d4", "E"), ("d5", "k")],
        &[],
        "",
        "w",
        "0/0",
    );
    let p = after(&f, "d3xd5");
    assert_eq!(token_at(&p, "d3"), "A");
    let o = v().outcome(&p, &v().legal_moves(&p)).unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::White), Reason::KingCaptured)
    );
}

/// EquiRepeater a2: over c2 to e2 (b2, d2 empty), not on to g2 while f2
/// blocks; over b3 to c4 and on to d5 capturing; over b4 (off-line) to c6
/// capturing a Bishop, no continuation after a capture. (On this board a
/// continuation can never reach a direct hop's square: 3d = 2d' needs an
/// even offset d, and then the hurdle stands between start and the direct
/// hop's midpoint; the engine would count such a square once.)
#[test]
fn equirepeater_continues_once_by_the_hurdle_offset() {
    let mut pieces = vec![
        ("a2", "T"),
        ("c2", "b"),
        ("f2", "N"),
        ("b3", "E"),
        ("d5", "r"),
        ("b4", "p"),
        ("c6", "b"),
    ];
    let f = fen(&pieces, &[], "", "w", "1/1");
    assert_eq!(
        moves_from(&f, "a2"),
        strs(&["a2c4", "a2c6", "a2d5", "a2e2"])
    );
    // f2 moved away: the rank continuation e2-g2 is open.
    pieces.retain(|(s, _)| *s != "f2");
    pieces.push(("f3", "N"));
    let f = fen(&pieces, &[], "", "w", "1/1");
    assert_eq!(
        moves_from(&f, "a2"),
        strs(&["a2c4", "a2c6", "a2d5", "a2e2", "a2g2"])
    );
    // An enemy on the first landing square: capture there, no continuation.
    pieces.push(("c4", "n"));
    let f = fen(&pieces, &[], "", "w", "1/1");
    assert_eq!(
        moves_from(&f, "a2"),
        strs(&["a2c4", "a2c6", "a2e2", "a2g2"])
    );
}

/// Fore'n'aft d3: Equihopper moves d5 (over d4), f3 (over e3), f7
/// (off-line over e5); mirror moves d2 (of d4), c3 (of e3), c1 (of e5,
/// off-line), f1 capturing (of b5, c4 and e2 empty), b5 capturing (of f1).
#[test]
fn forenaft_mirror_moves_over_either_colour() {
    let f = fen(
        &[
            ("d3", "F"),
            ("d4", "p"),
            ("e3", "N"),
            ("e5", "E"),
            ("b5", "r"),
            ("f1", "b"),
        ],
        &[],
        "",
        "w",
        "1/1",
    );
    assert_eq!(
        moves_from(&f, "d3"),
        strs(&["d3b5", "d3c1", "d3c3", "d3d2", "d3d5", "d3f1", "d3f3", "d3f7"])
    );
    // A piece between blocks the mirror on a line: c4 occupied cuts b5-f1.
    let f = fen(
        &[("d3", "F"), ("c4", "N"), ("b5", "r"), ("f1", "b")],
        &[],
        "",
        "w",
        "1/1",
    );
    // c4 (own) mirrors to e2; hop over c4 lands on b5 capturing.
    assert_eq!(moves_from(&f, "d3"), strs(&["d3b5", "d3e2"]));
}

#[test]
fn fide_faces_move_as_in_chess_pawn_without_double_step() {
    // Pawn b2: b3 only (no double step), c3 capture.
    let f = fen(
        &[("b2", "P"), ("c3", "n"), ("d1", "R"), ("e5", "K")],
        &["d3"],
        "",
        "w",
        "0/0",
    );
    assert_eq!(moves_from(&f, "b2"), strs(&["b2b3", "b2c3"]));
    // Rook d1: d2 then the crater d3 stops it; c1 b1 (a1 is no square), e1 f1.
    assert_eq!(
        moves_from(&f, "d1"),
        strs(&["d1b1", "d1c1", "d1d2", "d1e1", "d1f1"])
    );
    // King e5: the eight neighbours (f4 included; g4 is not next to it).
    assert_eq!(moves_from(&f, "e5").len(), 8);
    // No en passant: a Black pawn stepping beside a White pawn gives nothing.
    let f = fen(&[("c5", "P"), ("d6", "p")], &[], "", "b", "0/0");
    let p = after(&f, "d6d5");
    assert!(p.ep.is_none());
    let legal = v().legal_moves(&p);
    assert!(legal.iter().all(|m| m.to == sq("c6")));
    assert_eq!(legal.len(), 9);
}

#[test]
fn craters_block_slides_but_not_knights() {
    let f = fen(
        &[("d1", "R"), ("b2", "N"), ("e1", "B")],
        &["d2", "c3"],
        "",
        "w",
        "0/0",
    );
    // The Rook cannot go up the d-file; the Bishop cannot cross d2.
    assert!(!moves_from(&f, "d1").iter().any(|m| m.starts_with("d1d")));
    assert!(!moves_from(&f, "e1")
        .iter()
        .any(|m| m == "e1c3" || m == "e1d2"));
    // The Knight b2 leaps over the crater c3 to d3? (b2-d3 is a knight move.)
    assert!(moves_from(&f, "b2").contains(&"b2d3".to_string()));
    assert!(moves_from(&f, "b2").contains(&"b2c4".to_string()));
}

// ---- capture and return ----

/// A captured EquiRepeater returns as a Rook; both home squares (b7, f7)
/// are free, so the capturer chooses: two moves.
#[test]
fn return_to_a_free_home_square() {
    let f = fen(
        &[("c3", "E"), ("c4", "N"), ("c5", "t")],
        &[],
        "",
        "w",
        "1/1",
    );
    assert_eq!(moves_from(&f, "c3"), strs(&["c3c5>b7", "c3c5>f7"]));
    let p = after(&f, "R>f7,c3xc5");
    assert_eq!(token_at(&p, "f7"), "r");
    assert_eq!(token_at(&p, "c5"), "E");
}

/// Home squares taken (or craters): the token goes to any empty square of
/// its owner's first two rows (here ranks 7 and 6).
#[test]
fn return_when_home_is_occupied_or_a_crater() {
    let f = fen(
        &[
            ("c3", "E"),
            ("c4", "N"),
            ("c5", "t"),
            ("b7", "n"),
            ("f7", "b"),
        ],
        &[],
        "",
        "w",
        "1/1",
    );
    let got = moves_from(&f, "c3");
    // c7 d7 e7 and a6-g6.
    assert_eq!(got.len(), 10);
    assert!(got.contains(&"c3c5>d7".to_string()) && got.contains(&"c3c5>a6".to_string()));
    let f = fen(
        &[("c3", "E"), ("c4", "N"), ("c5", "t")],
        &["b7", "f7"],
        "",
        "w",
        "1/1",
    );
    assert_eq!(moves_from(&f, "c3").len(), 10);
}

/// A token whose home square is a crater treats it as occupied: the
/// Fore'n'aft's home d7 is a crater, so the King goes to the two rows.
#[test]
fn home_square_crater_counts_as_occupied() {
    let f = fen(
        &[("c3", "E"), ("c4", "N"), ("c5", "f")],
        &["d7"],
        "",
        "w",
        "1/1",
    );
    let got = moves_from(&f, "c3");
    assert!(!got.iter().any(|m| m.ends_with(">d7")));
    assert_eq!(got.len(), 4 + 7); // b7 c7 e7 f7 and a6-g6
}

/// A returned Pawn goes to any empty square of its owner's pawn row; when
/// that row is full, to the first row.
#[test]
fn returned_pawn_goes_to_its_pawn_row() {
    let f = fen(
        &[
            ("c3", "E"),
            ("c4", "N"),
            ("c5", "e"),
            ("a6", "n"),
            ("b6", "n"),
        ],
        &[],
        "",
        "w",
        "1/1",
    );
    assert_eq!(
        moves_from(&f, "c3"),
        strs(&["c3c5>c6", "c3c5>d6", "c3c5>e6", "c3c5>f6", "c3c5>g6"])
    );
    let row: Vec<(&str, &str)> = ["a6", "b6", "c6", "d6", "e6", "f6", "g6"]
        .iter()
        .map(|s| (*s, "n"))
        .collect();
    let mut pieces = vec![("c3", "E"), ("c4", "N"), ("c5", "e"), ("c7", "b")];
    pieces.extend(row);
    let f = fen(&pieces, &[], "", "w", "1/1");
    assert_eq!(
        moves_from(&f, "c3"),
        strs(&["c3c5>b7", "c3c5>d7", "c3c5>e7", "c3c5>f7"])
    );
}

/// Placement is judged after the capture: the square a capturer leaves and
/// the square a rifle capture empties are free.
#[test]
fn placement_judged_after_the_capture() {
    // Black S c1 (White's Knight home) captures the White S on c3 over c2:
    // the Knight returns to c1, just vacated.
    let f = fen(
        &[("c1", "s"), ("c2", "E"), ("c3", "S")],
        &[],
        "",
        "b",
        "1/1",
    );
    // (c1-c5 over c3 is the other move of the non-stop jumper.)
    assert_eq!(moves_from(&f, "c1"), strs(&["c1c3>c1", "c1c5"]));
    // Black Ballista d6 rifles the Equihopper d2 of a full pawn row: the
    // Pawn returns to d2 itself.
    let mut pieces: Vec<(&str, &str)> = ["a2", "b2", "c2", "d2", "e2", "f2", "g2"]
        .iter()
        .map(|s| (*s, "E"))
        .collect();
    pieces.extend([("d6", "a"), ("d4", "N")]);
    let f = fen(&pieces, &[], "", "b", "0/0");
    let got: Vec<String> = moves(&f)
        .into_iter()
        .filter(|m| m.starts_with("d6x"))
        .collect();
    assert_eq!(got, strs(&["d6xd2>d2"]));
}

/// No free square: the token waits in its owner's hand.
#[test]
fn returned_token_waits_when_nothing_is_free() {
    let mut pieces = vec![("c3", "E"), ("c4", "N"), ("c5", "e")];
    for s in [
        "b7", "c7", "d7", "e7", "f7", "a6", "b6", "c6", "d6", "e6", "f6", "g6",
    ] {
        pieces.push((s, "r"));
    }
    let f = fen(&pieces, &[], "", "w", "1/1");
    assert_eq!(moves_from(&f, "c3"), strs(&["c3c5"]));
    let p = after(&f, "c3c5");
    assert!(v().fen(&p).contains("[p]"), "{}", v().fen(&p));
}

/// A waiting token is placed at the start of its owner's next turn, and the
/// turn continues with a normal move; with no free square it keeps waiting.
#[test]
fn waiting_token_placed_at_the_start_of_the_next_turn() {
    let mut pieces = vec![("d3", "N")];
    for s in [
        "b7", "c7", "d7", "e7", "f7", "a6", "b6", "c6", "e6", "f6", "g6",
    ] {
        pieces.push((s, "n"));
    }
    let waiting = fen(&pieces, &[], "p", "b", "1/1");
    let mut placed_pieces = pieces.clone();
    placed_pieces.push(("d6", "p"));
    let placed = fen(&placed_pieces, &[], "", "b", "1/1");
    let expected: Vec<String> = moves(&placed).iter().map(|m| format!("P@d6,{m}")).collect();
    assert!(!expected.is_empty());
    assert_eq!(moves(&waiting), expected);
    let p = after(&waiting, &expected[0]);
    assert_eq!(token_at(&p, "d6"), "p");
    assert!(p.hand_is_empty(Color::Black));
    // Nothing free: every move is a plain move and the Pawn still waits.
    pieces.push(("d6", "n"));
    let full = fen(&pieces, &[], "p", "b", "1/1");
    assert!(moves(&full).iter().all(|m| !m.contains('@')));
    let first = moves(&full)[0].clone();
    assert!(v().fen(&after(&full, &first)).contains("[p]"));
}

#[test]
fn captured_fide_faces_and_promoted_pieces_leave_the_game() {
    // A Knight face and a promoted Equihopper are captured: nothing returns.
    for victim in ["n", "+e", "+a"] {
        let f = fen(
            &[("c3", "E"), ("c4", "N"), ("c5", victim)],
            &[],
            "",
            "w",
            "1/1",
        );
        assert_eq!(moves_from(&f, "c3"), strs(&["c3c5"]), "{victim}");
        let p = after(&f, "c3c5");
        assert!(p.hand_is_empty(Color::Black));
        assert_eq!(p.pieces().count(), 2, "{victim}");
    }
}

// ---- promotion ----

#[test]
fn pawn_promotes_compulsorily_on_the_opponent_pawn_row_to_every_type() {
    let f = fen(&[("c5", "P"), ("e4", "p")], &[], "", "w", "0/0");
    assert_eq!(
        moves_from(&f, "c5"),
        strs(&["c5c6a", "c5c6b", "c5c6e", "c5c6f", "c5c6k", "c5c6n", "c5c6r", "c5c6s", "c5c6t"])
    );
    for l in ['A', 'B', 'E', 'F', 'K', 'N', 'R', 'S', 'T'] {
        let p = after(&f, &format!("c6={l}"));
        let pc = p.get(sq("c6")).unwrap();
        assert!(pc.promoted);
        assert_eq!(v().piece_label(pc).letter, format!("+{l}"));
    }
    // Game Courier forms of a promotion.
    for text in ["P c5-c6; +A*c6", "P c5-c6; A*c6", "c5-c6; A*c6", "c5c6=A"] {
        assert!(after(&f, text).get(sq("c6")).unwrap().promoted, "{text}");
    }
    // Black promotes on rank 2.
    let f = fen(&[("e3", "p")], &[], "", "b", "0/0");
    assert_eq!(moves(&f).len(), 9);
}

#[test]
fn promotion_to_ballista_gains_a_nuke() {
    let f = fen(&[("c5", "P")], &[], "", "w", "0/1");
    let p = after(&f, "c5c6a");
    assert_eq!(p.counters, [1, 1]);
    let p = after(&f, "c5c6t");
    assert_eq!(p.counters, [0, 1]);
}

#[test]
fn promoted_pieces_move_as_their_type_and_never_flip() {
    // A promoted Equihopper jumps like one.
    let f = fen(&[("c3", "+E"), ("c4", "N")], &[], "", "w", "0/0");
    assert_eq!(moves_from(&f, "c3"), strs(&["c3c5"]));
    // Captured, it leaves the game: no placement, no hand.
    let f = fen(
        &[("c3", "+E"), ("c2", "n"), ("c1", "e")],
        &[],
        "",
        "b",
        "0/0",
    );
    assert_eq!(moves_from(&f, "c1"), strs(&["c1c3"]));
    let p = after(&f, "c1xc3");
    assert!(p.hand_is_empty(Color::White));
    assert_eq!(
        p.pieces()
            .filter(|(_, pc)| pc.color == Color::White)
            .count(),
        0
    );
}

// ---- Nukes ----

/// Nuke on an empty target: d5 over d4. Destroyed: d4 (own hurdle), e4
/// (own), c6 (enemy); d5 becomes a crater; White has no Nuke left.
#[test]
fn nuke_on_an_empty_square_destroys_neighbours_of_both_colours() {
    let f = fen(
        &[
            ("d3", "A"),
            ("d4", "E"),
            ("e4", "N"),
            ("c6", "p"),
            ("b3", "e"),
        ],
        &[],
        "",
        "w",
        "1/1",
    );
    let p = after(&f, "Bxxd5,xd4,e4,c6");
    for s in ["d4", "e4", "c6"] {
        assert_eq!(token_at(&p, s), ".", "{s}");
    }
    assert_eq!(token_at(&p, "d5"), "*");
    assert!(p.is_hole(sq("d5")));
    assert_eq!(token_at(&p, "b3"), "e");
    assert_eq!(p.counters, [0, 1]);
    // Destroyed pieces never return.
    assert!(p.hand_is_empty(Color::White) && p.hand_is_empty(Color::Black));
    assert!(v().fen(&p).starts_with("*5*/7/3*3/"), "{}", v().fen(&p));
    // No Nuke left: no more Nukes.
    assert!(!moves(&v().fen(&p)).iter().any(|m| m.contains("xx")));
}

#[test]
fn nuke_on_an_enemy_and_on_a_friendly_piece() {
    let f = fen(
        &[
            ("d3", "A"),
            ("d4", "E"),
            ("d5", "t"),
            ("b1", "N"),
            ("c2", "E"),
        ],
        &[],
        "",
        "w",
        "1/1",
    );
    let p = after(&f, "d3xxd5");
    assert_eq!(token_at(&p, "d5"), "*");
    assert!(p.hand_is_empty(Color::Black));
    // Target b1 holds a friendly Knight: still a Nuke target.
    assert!(moves_from(&f, "d3").contains(&"d3xxb1".to_string()));
    let p = after(&f, "d3xxb1");
    assert_eq!(token_at(&p, "b1"), "*");
    assert_eq!(token_at(&p, "c2"), ".");
}

#[test]
fn no_nuke_without_one_in_hand() {
    let f = fen(&[("d3", "A"), ("d4", "E")], &[], "", "w", "0/1");
    assert!(!moves(&f).iter().any(|m| m.contains("xx")));
}

#[test]
fn capturing_a_ballista_takes_its_nuke_destroying_it_does_not() {
    // Face-up Ballista captured: its Nuke changes sides.
    let f = fen(
        &[("c3", "E"), ("c4", "N"), ("c5", "a")],
        &[],
        "",
        "w",
        "1/1",
    );
    let p = after(&f, "B>e7,c3xc5");
    assert_eq!(p.counters, [2, 0]);
    // Promoted Ballista captured: the same.
    let f = fen(
        &[("c3", "E"), ("c4", "N"), ("c5", "+a")],
        &[],
        "",
        "w",
        "0/1",
    );
    assert_eq!(after(&f, "c3c5").counters, [1, 0]);
    // Its side has no Nuke left: nothing to take.
    let f = fen(
        &[("c3", "E"), ("c4", "N"), ("c5", "+a")],
        &[],
        "",
        "w",
        "0/0",
    );
    assert_eq!(after(&f, "c3c5").counters, [0, 0]);
    // Destroyed by a Nuke: Black keeps its Nuke.
    let f = fen(
        &[("d3", "A"), ("d4", "E"), ("d6", "a")],
        &[],
        "",
        "w",
        "1/1",
    );
    let p = after(&f, "d3xxd5");
    assert_eq!(token_at(&p, "d6"), ".");
    assert_eq!(p.counters, [0, 1]);
}

// ---- object ----

#[test]
fn capturing_a_king_wins() {
    let f = fen(
        &[("c3", "E"), ("c4", "N"), ("c5", "k"), ("e6", "k")],
        &[],
        "",
        "w",
        "1/1",
    );
    let p = after(&f, "c3c5");
    assert!(v().legal_moves(&p).is_empty());
    let o = v().outcome(&p, &[]).unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::White), Reason::KingCaptured)
    );
    assert!(v().fen(&p).ends_with(" 1-0"));
    assert_eq!(v().fen(&pos(&v().fen(&p))), v().fen(&p));
}

#[test]
fn kings_may_stand_attacked_no_check() {
    // White's King may step next to the enemy and stay attacked.
    let f = fen(&[("d3", "K"), ("d5", "k")], &[], "", "w", "0/0");
    assert!(moves_from(&f, "d3").contains(&"d3d4".to_string()));
    assert!(!v().in_check(&pos(&f)));
}

#[test]
fn nuke_destroying_kings() {
    // Enemy King destroyed: the firing side wins.
    let f = fen(
        &[("d3", "A"), ("d4", "E"), ("e6", "k")],
        &[],
        "",
        "w",
        "1/1",
    );
    let p = after(&f, "d3xxd5");
    assert_eq!(v().outcome(&p, &[]).unwrap().winner, Some(Color::White));
    // Only its own King destroyed: the firing side loses.
    let f = fen(
        &[("d3", "A"), ("d4", "E"), ("e4", "K"), ("a6", "k")],
        &[],
        "",
        "w",
        "1/1",
    );
    let p = after(&f, "d3xxd5");
    let o = v().outcome(&p, &[]).unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Black), Reason::KingCaptured)
    );
    // Both: the firing side wins.
    let f = fen(
        &[("d3", "A"), ("d4", "E"), ("e4", "K"), ("c6", "k")],
        &[],
        "",
        "w",
        "1/1",
    );
    let p = after(&f, "d3xxd5");
    assert_eq!(v().outcome(&p, &[]).unwrap().winner, Some(Color::White));
}

#[test]
fn no_legal_move_is_a_draw() {
    let f = fen(&[("d3", "E"), ("d6", "e")], &[], "", "w", "0/0");
    assert!(moves(&f).is_empty());
    let g = Game::new(v(), Some(&f)).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (None, Reason::Stalemate));
}

#[test]
fn fifty_moves_without_capture_or_pawn_move_draw() {
    let f = fen(&[("d3", "N"), ("d5", "n")], &[], "", "w", "0/0").replace(" 0 1", " 99 60");
    let mut g = Game::new(v(), Some(&f)).unwrap();
    assert!(g.outcome().is_none());
    g.play_text("d3b4").unwrap();
    let o = g.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (None, Reason::MoveCountRule));
    // A Pawn move resets the clock.
    let f = fen(&[("d3", "P"), ("d5", "n")], &[], "", "w", "0/0").replace(" 0 1", " 99 60");
    let mut g = Game::new(v(), Some(&f)).unwrap();
    g.play_text("d4").unwrap();
    assert!(g.outcome().is_none());
}

#[test]
fn threefold_repetition_draws() {
    let f = fen(&[("b2", "N"), ("f6", "n")], &[], "", "w", "0/0");
    let mut g = Game::new(v(), Some(&f)).unwrap();
    for m in [
        "b2c4", "f6e4", "c4b2", "e4f6", "b2c4", "f6e4", "c4b2", "e4f6",
    ] {
        g.play_text(m).unwrap();
    }
    let o = g.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (None, Reason::Repetition));
}

// ---- notation ----

#[test]
fn page_placement_form_is_read_and_shown() {
    // Black's e3 captures the White Equihopper on c3 over d3; the Pawn is
    // placed on b2, the only free square of White's pawn row.
    let f = fen(
        &[
            ("e3", "e"),
            ("d3", "N"),
            ("c3", "E"),
            ("a2", "E"),
            ("c2", "E"),
            ("d2", "E"),
            ("e2", "E"),
            ("f2", "E"),
            ("g2", "E"),
        ],
        &[],
        "",
        "b",
        "1/1",
    );
    let p = pos(&f);
    let legal = v().legal_moves(&p);
    let m = v().parse_move(&p, &legal, "P>b2,e3xc3").unwrap();
    assert_eq!(v().format_move(&p, &m, Notation::Display), "P>b2,e3xc3");
    assert_eq!(v().format_move(&p, &m, Notation::Coordinate), "e3c3>b2");
    assert_eq!(
        v().format_move(&p, &m, Notation::GameCourier),
        "e e3-c3; P*b2"
    );
    let next = v().play(&p, &m);
    assert_eq!(token_at(&next, "b2"), "P");
    assert_eq!(token_at(&next, "c3"), "e");
}

fn nuke_position() -> String {
    // Ballista c2 fires at c4 over c3: pieces on c3, b4, c4 and d5 go.
    fen(
        &[
            ("c2", "A"),
            ("c3", "E"),
            ("c4", "p"),
            ("d5", "n"),
            ("b4", "N"),
            ("f6", "k"),
        ],
        &[],
        "",
        "w",
        "1/1",
    )
}

#[test]
fn page_nuke_form_is_read_and_shown() {
    let f = nuke_position();
    let p = pos(&f);
    let legal = v().legal_moves(&p);
    let m = v().parse_move(&p, &legal, "Bxxc4,xc3,d5,b4,c4").unwrap();
    assert_eq!((m.kind, m.tag, m.to), (MoveKind::Special, NUKE, sq("c4")));
    assert_eq!(
        v().format_move(&p, &m, Notation::Display),
        "Bxxc4,xc3,b4,c4,d5"
    );
    assert_eq!(v().format_move(&p, &m, Notation::Coordinate), "c2xxc4");
    for text in ["c2xxc4", "Bxxc4,xb4,c4,c3,d5", "A c2-c4; A c4-c2; *c4"] {
        assert_eq!(v().parse_move(&p, &legal, text).unwrap(), m, "{text}");
    }
}

#[test]
fn nuke_with_a_wrong_list_is_refused_with_the_right_one() {
    let f = nuke_position();
    let p = pos(&f);
    let legal = v().legal_moves(&p);
    for wrong in ["Bxxc4,xc3,d5", "Bxxc4", "Bxxc4,xc3,d5,b4,c4,e5"] {
        match v().parse_move(&p, &legal, wrong) {
            Err(MoveError::Illegal { reason, .. }) => {
                assert!(reason.contains("c3,b4,c4,d5"), "{reason}");
                assert!(reason.contains("Bxxc4,xc3,b4,c4,d5"), "{reason}");
            }
            other => panic!("{wrong}: {other:?}"),
        }
    }
    // Not a landing square of the Ballista.
    assert!(matches!(
        v().parse_move(&p, &legal, "Bxxe5"),
        Err(MoveError::Illegal { .. })
    ));
}

#[test]
fn placement_choice_left_out_is_ambiguous_wrong_one_is_illegal() {
    let f = fen(
        &[("c3", "E"), ("c4", "N"), ("c5", "t")],
        &[],
        "",
        "w",
        "1/1",
    );
    let p = pos(&f);
    let legal = v().legal_moves(&p);
    assert!(matches!(
        v().parse_move(&p, &legal, "Exc5"),
        Err(MoveError::Ambiguous { .. })
    ));
    assert!(matches!(
        v().parse_move(&p, &legal, "R>d7,c3xc5"),
        Err(MoveError::Illegal { .. })
    ));
    assert!(v().parse_move(&p, &legal, "R>b7,Exc5").is_ok());
    assert!(v().parse_move(&p, &legal, "E c3-c5; r*b7").is_ok());
    assert!(v().parse_move(&p, &legal, "c3c5>b7").is_ok());
}

#[test]
fn illegal_moves_say_why() {
    let f = v().start_fen();
    let p = pos(f);
    let legal = v().legal_moves(&p);
    match v().parse_move(&p, &legal, "b2b3") {
        Err(MoveError::Illegal { reason, .. }) => {
            assert!(reason.contains("Equihopper"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        v().parse_move(&p, &legal, "a1a2"),
        Err(MoveError::Illegal { .. })
    ));
}

/// Every legal move at depth 0 and 1 of `f`: each notation reads back.
fn round_trip(f: &str) -> usize {
    let root = pos(f);
    let mut positions = vec![root.clone()];
    for m in v().legal_moves(&root) {
        positions.push(v().play(&root, &m));
    }
    let mut n = 0;
    for p in positions {
        let legal = v().legal_moves(&p);
        let distinct: BTreeSet<String> = legal
            .iter()
            .map(|m| v().format_move(&p, m, Notation::Coordinate))
            .collect();
        assert_eq!(
            distinct.len(),
            legal.len(),
            "duplicate moves in {}",
            v().fen(&p)
        );
        for m in &legal {
            for notation in Notation::ALL {
                let text = v().format_move(&p, m, notation);
                let back = v()
                    .parse_move(&p, &legal, &text)
                    .unwrap_or_else(|e| panic!("{} {text}: {e}", v().fen(&p)));
                assert_eq!(back, *m, "{} {text}", v().fen(&p));
                n += 1;
            }
        }
        assert_eq!(v().fen(&pos(&v().fen(&p))), v().fen(&p));
    }
    n
}

#[test]
fn notation_round_trip_over_perft_trees_to_depth_2() {
    assert!(round_trip(v().start_fen()) > 0);
    // Positions with placements, Nukes, promotions, waiting tokens.
    round_trip(&nuke_position());
    round_trip(&fen(
        &[
            ("c3", "E"),
            ("c4", "N"),
            ("c5", "t"),
            ("e6", "a"),
            ("e5", "S"),
        ],
        &[],
        "",
        "w",
        "1/1",
    ));
    round_trip(&fen(
        &[
            ("c5", "P"),
            ("d6", "e"),
            ("b6", "a"),
            ("e1", "A"),
            ("e2", "E"),
        ],
        &[],
        "",
        "w",
        "1/1",
    ));
    round_trip(&fen(
        &[("d3", "N"), ("c6", "e"), ("d6", "s")],
        &["e6"],
        "pr",
        "b",
        "1/1",
    ));
    round_trip(&fen(
        &[
            ("b3", "a"),
            ("b2", "E"),
            ("c3", "E"),
            ("d4", "A"),
            ("d5", "E"),
        ],
        &[],
        "P",
        "w",
        "1/1",
    ));
}

#[test]
fn garbage_never_panics() {
    let p = pos(v().start_fen());
    let legal = v().legal_moves(&p);
    let long = "x".repeat(10_000);
    let texts = [
        "",
        " ",
        "é",
        "P>",
        ">b2",
        "P>b2,",
        "P>z9,e3xc3",
        "Bxx",
        "Bxxz9",
        "xx",
        "Bxxc4,",
        "Bxxc4,x",
        "Bxxc4,xq",
        ",,,",
        ">>",
        "A e1-",
        "; ;",
        "*c4",
        "@",
        "e1xxe1",
        "Be9xxc4",
        "B0xxc4",
        "P>b2,P>b2,P>b2",
        "\u{0}",
        "🙂",
        &long,
        "e2e4e6",
        "O-O",
        "K@",
        "R@f1,",
        "R@f1,b1b4",
    ];
    for t in texts {
        let _ = v().parse_move(&p, &legal, t);
    }
    let fens = [
        "",
        "x",
        "*tsfat*",
        "*tsfat*/eeeeeee/7/*5*/7/EEEEEEE/*TSFAT*[ w",
        "8/8/8/8/8/8/8/8 w",
        "*tsfat*/eeeeeee/7/*5*/7/EEEEEEE/*TSFAT*[] w 1 0 1",
        "*tsfat*/eeeeeee/7/*5*/7/EEEEEEE/*TSFAT*[] w x/y 0 1",
        "*tsfat*/eeeeeee/7/*5*/7/EEEEEEE/*TSFAT*[Q] w 1/1 0 1",
        "*tsfat*/eeeeeee/7/*5*/7/EEEEEEE/*TSFAT*[] w 1/1 0 1 2-2",
        "*tsfat*/eeeeeee/7/7/7/EEEEEEE/*TSFAT*[] w 1/1 0 1",
        "+*tsfat*/eeeeeee/7/*5*/7/EEEEEEE/*TSFAT*[] w 1/1 0 1",
        "*tsfat*/eeeeeee/7/*5*/7/EEEEEEE/*TSFAT+[] w 1/1 0 1",
        "*tsfat*/eeeeeee/7/*5*/7/EEEEEEE/*TSFAT*[] q",
        "*tsfat*/eeeeeee/7/*5*/7/EEEEEEE/*TSFAT*[] w 1/1 0 1 1-0 x",
        "*tsfat*/ePeeeee/7/*5*/7/EEEEEEE/*TSFAT*[] w 1/1 0 1",
        "*tsfat*/eeeeeee/7/*5*/7/EEEEEEE/*+PSFAT*[] w 1/1 0 1",
        "🙂",
        &long,
    ];
    for f in fens {
        assert!(v().parse_fen(f).is_err(), "{f}");
    }
}

#[test]
fn fen_round_trips() {
    for f in [
        v().start_fen().to_string(),
        "*tsf1t*/e1eeeee/7/*5*/3**2/EEEEEEE/*TSFAT*[PPr] b 2/0 7 12".to_string(),
        "*2+a2*/7/7/*2K2*/7/7/*5* w 0/0 0 1 0-1".replace(" w", "[] w"),
    ] {
        assert_eq!(v().fen(&pos(&f)), f);
    }
}

// ---- perft ----

/// The start position, depth 1, by hand: EquiRepeater b1: b3 (over b2), d3
/// (over c2), f3 (off-line over d2), continuations b4, e4; f1 alike: f3, d3,
/// b3, f4, c4. Non-stop c1: a3 c3 e3 g3. Fore'n'aft d1: b3 d3 f3 (no mirror
/// move fits). Ballista e1: no quiet move, no enemy to rifle, Nukes at a3
/// c3 e3 g3 and c1 (over d1, a friendly target). Equihoppers: none. 22.
#[test]
fn perft_start_depth_1_by_hand() {
    let p = pos(v().start_fen());
    let rows: Vec<String> = divide(v(), &p, 1).into_iter().map(|(m, _)| m).collect();
    assert_eq!(
        rows,
        strs(&[
            "b1b3", "b1b4", "b1d3", "b1e4", "b1f3", "c1a3", "c1c3", "c1e3", "c1g3", "d1b3", "d1d3",
            "d1f3", "e1xxa3", "e1xxc1", "e1xxc3", "e1xxe3", "e1xxg3", "f1b3", "f1c4", "f1d3",
            "f1f3", "f1f4"
        ])
    );
}

/// Depth-2 divide lines checked by hand: most White moves leave Black its
/// own 22; a piece on the fourth rank opens new Black captures.
/// b1b4: b6xb2, a6xc2 (off-line over b4), c6xa2, each Pawn placed on b1: 25.
/// b1e4: e6, d6, f6, c6, g6 capture on rank 2 over e4 (Pawn to b1); d7xf1
/// (off-line, Rook to b1); f7xd1 (off-line, King to b1): 29.
/// f1c4: c6, b6, d6, a6, e6 capture on rank 2 over c4 (Pawn to f1);
/// b7xd1 (King to f1); c7xc1 non-stop over c4 (Knight to f1); d7xb1
/// (Rook to f1): 30.
#[test]
fn perft_start_depth_2_lines_by_hand() {
    let p = pos(v().start_fen());
    let rows = divide(v(), &p, 2);
    let get = |m: &str| rows.iter().find(|(x, _)| x == m).unwrap().1;
    assert_eq!(get("b1b4"), 25);
    assert_eq!(get("f1f4"), 25);
    assert_eq!(get("b1e4"), 29);
    assert_eq!(get("f1c4"), 30);
    assert_eq!(get("e1xxc1"), 22);
    assert_eq!(get("c1a3"), 22);
}

#[test]
fn perft_start_position() {
    let p = pos(v().start_fen());
    assert_eq!(perft(v(), &p, 1), 22);
    assert_eq!(perft(v(), &p, 2), 505);
    assert_eq!(perft(v(), &p, 3), 11_082);
}

// ---- an independent reference for board movement ----

/// Squares strictly between `a` and `b` on a rank, file or diagonal (empty
/// if they are not on one).
fn between(a: Square, b: Square) -> Vec<Square> {
    let (dx, dy) = (
        b.file() as i8 - a.file() as i8,
        b.rank() as i8 - a.rank() as i8,
    );
    if !(dx == 0 || dy == 0 || dx.abs() == dy.abs()) {
        return Vec::new();
    }
    let n = dx.abs().max(dy.abs());
    (1..n)
        .map(|i| {
            Square::new(
                (a.file() as i8 + i * dx.signum()) as u8,
                (a.rank() as i8 + i * dy.signum()) as u8,
            )
        })
        .collect()
}

fn playable(p: &Position, s: Square) -> bool {
    s.file() < 7 && s.rank() < 7 && !p.is_hole(s)
}

/// Whether an Equihopper-type jump from `a` to `b` works (landing contents
/// aside), written from the definition: the midpoint is a piece, and on a
/// line every other square between is an empty square.
fn jump(p: &Position, a: Square, b: Square, nonstop: bool) -> bool {
    let (dx, dy) = (
        b.file() as i8 - a.file() as i8,
        b.rank() as i8 - a.rank() as i8,
    );
    if (dx, dy) == (0, 0) || dx % 2 != 0 || dy % 2 != 0 || !playable(p, b) {
        return false;
    }
    let mid = Square::new(
        (a.file() as i8 + dx / 2) as u8,
        (a.rank() as i8 + dy / 2) as u8,
    );
    if p.get(mid).is_none() {
        return false;
    }
    nonstop
        || between(a, b)
            .into_iter()
            .filter(|&s| s != mid)
            .all(|s| playable(p, s) && p.get(s).is_none())
}

fn all_squares(p: &Position) -> Vec<Square> {
    (0..7)
        .flat_map(|r| (0..7).map(move |f| Square::new(f, r)))
        .filter(|&s| playable(p, s))
        .collect()
}

/// (from, to, what) of every board action, by the rules' definitions.
fn reference(p: &Position) -> BTreeSet<(Square, Square, u8)> {
    let us = p.side;
    let mut out = BTreeSet::new();
    if p.castling != 0 {
        return out;
    }
    let open = |t: Square| playable(p, t) && p.get(t).is_none_or(|x| x.color != us);
    for a in all_squares(p) {
        let Some(pc) = p.get(a) else { continue };
        if pc.color != us {
            continue;
        }
        let letter = v()
            .piece_label(pc)
            .letter
            .trim_start_matches('+')
            .to_ascii_uppercase();
        for b in all_squares(p) {
            if a == b {
                continue;
            }
            let (dx, dy) = (
                b.file() as i8 - a.file() as i8,
                b.rank() as i8 - a.rank() as i8,
            );
            let clear = between(a, b)
                .iter()
                .all(|&s| playable(p, s) && p.get(s).is_none());
            let line = dx == 0 || dy == 0 || dx.abs() == dy.abs();
            let fwd = if us == Color::White { 1 } else { -1 };
            let ok = match letter.as_str() {
                "E" => jump(p, a, b, false) && open(b),
                "S" => jump(p, a, b, true) && open(b),
                "A" => {
                    if jump(p, a, b, false) {
                        if p.get(b).is_some_and(|x| x.color != us) {
                            out.insert((a, b, 1));
                        }
                        if p.counters[us.index()] > 0 {
                            out.insert((a, b, 2));
                        }
                    }
                    line && dx.abs().max(dy.abs()) <= 2 && clear && p.get(b).is_none()
                }
                "T" => {
                    let direct = jump(p, a, b, false) && open(b);
                    // Continuation: a jump to an empty L, then on by half of a→L.
                    let cont = (dx % 3 == 0 && dy % 3 == 0) && {
                        let l = Square::new(
                            (a.file() as i8 + 2 * dx / 3) as u8,
                            (a.rank() as i8 + 2 * dy / 3) as u8,
                        );
                        playable(p, l)
                            && p.get(l).is_none()
                            && jump(p, a, l, false)
                            && between(l, b)
                                .iter()
                                .all(|&s| playable(p, s) && p.get(s).is_none())
                            && open(b)
                    };
                    direct || cont
                }
                "F" => {
                    let hop = jump(p, a, b, false) && open(b);
                    let m = (
                        2 * a.file() as i8 - b.file() as i8,
                        2 * a.rank() as i8 - b.rank() as i8,
                    );
                    let mirror = (0..7).contains(&m.0) && (0..7).contains(&m.1) && {
                        let ms = Square::new(m.0 as u8, m.1 as u8);
                        playable(p, ms)
                            && p.get(ms).is_some()
                            && between(ms, b)
                                .into_iter()
                                .filter(|&s| s != a)
                                .all(|s| playable(p, s) && p.get(s).is_none())
                            && open(b)
                    };
                    hop || mirror
                }
                "P" => {
                    (dx == 0 && dy == fwd && p.get(b).is_none())
                        || (dx.abs() == 1 && dy == fwd && p.get(b).is_some_and(|x| x.color != us))
                }
                "N" => dx.abs() * dy.abs() == 2 && open(b),
                "B" => dx.abs() == dy.abs() && clear && open(b),
                "R" => (dx == 0 || dy == 0) && clear && open(b),
                "K" => dx.abs() <= 1 && dy.abs() <= 1 && open(b),
                _ => false,
            };
            if ok {
                out.insert((a, b, 0));
            }
        }
    }
    out
}

fn engine_actions(p: &Position) -> BTreeSet<(Square, Square, u8)> {
    v().legal_moves(p)
        .iter()
        .map(|m: &Move| {
            let what = match (m.kind, m.tag) {
                (MoveKind::Special, t) if t == RIFLE => 1,
                (MoveKind::Special, t) if t == NUKE => 2,
                _ => 0,
            };
            (m.from, m.to, what)
        })
        .collect()
}

/// The engine's board actions equal the reference's on positions reached
/// by pseudo-random play from the start and from a crater-strewn position.
#[test]
fn movement_matches_an_independent_reference() {
    let mut seed: u64 = 0x1234_5678_9abc_def0;
    let mut rand = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let starts = [
        v().start_fen().to_string(),
        "*tsfat*/eeee*ee/7/*2*2*/7/EE*EEEE/*TSFAT*[] w 1/1 0 1".to_string(),
    ];
    let mut checked = 0;
    for start in &starts {
        for _game in 0..40 {
            let mut p = pos(start);
            for _ply in 0..60 {
                // Waiting placements first, as the engine does.
                let legal = v().legal_moves(&p);
                if legal.is_empty() {
                    break;
                }
                let m = legal[rand(legal.len())];
                if m.path.is_empty() {
                    assert_eq!(engine_actions(&p), reference(&p), "{}", v().fen(&p));
                    checked += 1;
                }
                p = v().play(&p, &m);
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

/// Several waiting tokens: every one that can be placed is placed; alike
/// tokens count once per set of squares; when the home squares run out
/// the rest go to the first two rows, and any left over keep waiting.
#[test]
fn several_waiting_tokens_are_all_placed_when_possible() {
    let base = ["b7", "c7", "d7", "e7", "f7", "a6", "b6", "c6", "g6"];
    let mut pieces: Vec<(&str, &str)> = base.iter().map(|s| (*s, "n")).collect();
    pieces.push(("d3", "N"));
    // d6 e6 f6 free: two Pawns go to two of them, three ways.
    let f = fen(&pieces, &[], "pp", "b", "1/1");
    let prefixes: BTreeSet<String> = moves(&f)
        .iter()
        .map(|m| m.rsplit_once(',').unwrap().0.to_string())
        .collect();
    assert_eq!(
        prefixes.into_iter().collect::<Vec<_>>(),
        strs(&["P@d6,P@e6", "P@d6,P@f6", "P@e6,P@f6"])
    );
    // Three Pawns, three free squares: one way.
    let f = fen(&pieces, &[], "ppp", "b", "1/1");
    let p = after(&f, &moves(&f)[0]);
    assert!(p.hand_is_empty(Color::Black));
    // Four Pawns: the pawn row fills, the fourth waits (rank 7 is full).
    let f = fen(&pieces, &[], "pppp", "b", "1/1");
    let p = after(&f, &moves(&f)[0]);
    assert_eq!(p.hand(Color::Black, 5), 1);
    // A Pawn and a Rook: the Pawn first (three squares), then the Rook to
    // the first two rows (its homes b7 and f7 are taken): two squares left.
    let f = fen(&pieces, &[], "pr", "b", "1/1");
    let prefixes: BTreeSet<String> = moves(&f)
        .iter()
        .map(|m| m.rsplit_once(',').unwrap().0.to_string())
        .collect();
    assert_eq!(prefixes.len(), 3 * 2);
    assert!(prefixes.contains("P@d6,R@e6"));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
    /// Random text, from any characters or from the notation's own, is a
    /// typed error or a legal move, never a panic.
    #[test]
    fn random_move_text_never_panics(text in "(\\PC{0,40}|[ABEPRTSNFKa-g1-8>,x@*;\\- ]{0,24})") {
        let f = fen(&[("c3", "E"), ("c4", "N"), ("c5", "t"), ("e6", "a"), ("e5", "S"), ("d3", "A"), ("d4", "E")], &[], "", "w", "1/1");
        let p = pos(&f);
        let legal = v().legal_moves(&p);
        if let Ok(m) = v().parse_move(&p, &legal, &text) {
            proptest::prop_assert!(legal.contains(&m));
        }
    }

    #[test]
    fn random_fen_never_panics(text in "(\\PC{0,60}|[*tsfatepnbrkTSFAEPNBRK+0-9/\\[\\] w-]{0,60})") {
        let _ = v().parse_fen(&text);
    }
}
