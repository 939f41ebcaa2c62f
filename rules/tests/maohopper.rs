//! Maohopper Chess: one test per rule sentence of the seed page and of the
//! rulings, notation round trips, bad input, and perft. Every expected
//! number below was worked out by hand from the position drawn in the
//! comment (files a–i left to right, ranks 1–9 bottom to top).

use missive_rules::perft::perft;
use missive_rules::{
    variant, Color, Game, MoveError, MoveKind, Notation, Outcome, Reason, RepetitionRule, Square,
    Variant,
};

fn v() -> &'static dyn Variant {
    variant("maohopper").expect("registered")
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

/// Sorted destination squares of the legal moves of the piece on `from`.
fn dests(fen: &str, from: &str) -> Vec<String> {
    let pos = v().parse_fen(fen).unwrap();
    let mut out: Vec<String> = v()
        .legal_moves(&pos)
        .iter()
        .filter(|m| m.from == sq(from))
        .map(|m| m.to.name())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Sorted coordinate forms of the legal moves of the piece on `from`.
fn coords(fen: &str, from: &str) -> Vec<String> {
    let pos = v().parse_fen(fen).unwrap();
    let mut out: Vec<String> = v()
        .legal_moves(&pos)
        .iter()
        .filter(|m| m.from == sq(from))
        .map(|m| v().format_move(&pos, m, Notation::Coordinate))
        .collect();
    out.sort();
    out
}

fn list(items: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// The FEN after playing `text` (any notation) from `fen`.
fn after(fen: &str, text: &str) -> String {
    let mut g = Game::new(v(), Some(fen)).unwrap();
    g.play_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    g.fen()
}

fn piece_at(fen: &str, square: &str) -> Option<(String, Color)> {
    let pos = v().parse_fen(fen).unwrap();
    pos.get(sq(square))
        .map(|p| (v().piece_label(p).name, p.color))
}

fn perft_of(fen: &str, depth: u32) -> u64 {
    perft(v(), &v().parse_fen(fen).unwrap(), depth)
}

const START: &str = "nrmwfwmrn/amebabema/sssssssss/9/2O1O1O2/9/SSSSSSSSS/AMEBABEMA/NRMWFWMRN w 1";

// ---------------------------------------------------------------- setup

#[test]
fn reconstructed_setup_matches_the_ruling() {
    // Rulings: 9x9; White rank 1 Worm, Frog, Maohopper, Windmill, Flag,
    // Windmill, Maohopper, Frog, Worm; rank 2 Mason, Maohopper, Reflecting
    // Ferz, Butterfly, Mason, Butterfly, Reflecting Ferz, Maohopper, Mason;
    // Spears a3–i3 pointing straight; Black the same on 9, 8, 7; Stones c5, e5, g5.
    assert_eq!(v().start_fen(), START);
    assert_eq!((v().geometry().width, v().geometry().height), (9, 9));
    let rank1 = [
        "Worm",
        "Frog",
        "Maohopper",
        "Windmill",
        "Flag",
        "Windmill",
        "Maohopper",
        "Frog",
        "Worm",
    ];
    let rank2 = [
        "Mason",
        "Maohopper",
        "Reflecting Ferz",
        "Butterfly",
        "Mason",
        "Butterfly",
        "Reflecting Ferz",
        "Maohopper",
        "Mason",
    ];
    let pos = v().parse_fen(START).unwrap();
    for f in 0..9u8 {
        for (rank, names, color) in [
            (0u8, &rank1, Color::White),
            (1, &rank2, Color::White),
            (8, &rank1, Color::Black),
            (7, &rank2, Color::Black),
        ] {
            let p = pos.get(Square::new(f, rank)).unwrap();
            assert_eq!(v().piece_label(p).name, names[f as usize]);
            assert_eq!(p.color, color);
        }
        for (rank, color, deg) in [(2u8, Color::White, 0), (6, Color::Black, 180)] {
            let p = pos.get(Square::new(f, rank)).unwrap();
            let label = v().piece_label(p);
            assert_eq!((label.name.as_str(), p.color), ("Spear", color));
            assert_eq!(label.direction, Some(deg), "Spears point straight forward");
        }
    }
    for s in ["c5", "e5", "g5"] {
        let p = pos.get(sq(s)).unwrap();
        assert_eq!(
            (p.color, v().piece_label(p).name.as_str()),
            (Color::Neutral, "Stone")
        );
    }
    assert_eq!(pos.pieces().count(), 9 * 6 + 3);
    assert_eq!(pos.side, Color::White, "White moves first");
}

#[test]
fn rules_page_says_the_setup_is_reconstructed() {
    let text = v().rules_text();
    assert!(text.contains("Reconstructed"));
    assert!(text.contains("reconstructed by Missive"));
    assert!(text.contains("h4"));
    assert!(text.split("\n\n").count() > 10);
}

#[test]
fn the_trap_is_marked_on_the_board() {
    assert_eq!(v().marked_squares(), vec![(sq("h4"), "trap")]);
    let g = Game::new(v(), None).unwrap();
    assert_eq!(g.board_view().marks, vec![(sq("h4"), "trap")]);
}

// ---------------------------------------------------------------- Maohopper

#[test]
fn maohopper_has_one_possible_move() {
    // Seed: "Maohopper has one possible move." White Maohopper e5; a White
    // Mason on e6 is the only hurdle; the outward diagonals from e6 are d7
    // (White Mason: blocked) and f7 (Black Worm: capture). d5, f5, e4 are
    // empty, so those orthogonal steps give no hop.
    let fen = "8f/9/3A1n3/4A4/4M4/9/9/9/F8 w 1";
    assert_eq!(dests(fen, "e5"), list(&["f7"]));
}

#[test]
fn maohopper_hops_a_stone_but_never_lands_on_one() {
    // Maohopper e5: e6 Stone → d7 empty, f7 Stone (blocked). d5 enemy →
    // c6 (own Mason: blocked), c4 empty. f5, e4 empty.
    let fen = "8f/9/5O3/2A1O4/3aM4/9/9/9/F8 w 1";
    assert_eq!(dests(fen, "e5"), list(&["c4", "d7"]));
}

// ---------------------------------------------------------------- Worm

#[test]
fn worm_has_5_possible_moves() {
    // Seed: "Worm has 5 possible moves." Worm e5, knight lines:
    // (1,2) f7 Black Spear → g9 empty ✓; (2,1) g6 Stone → i7 empty ✓;
    // (2,-1) g4 own Mason → i3 Black Mason: capture ✓; (1,-2) f3 own Mason →
    // g1 Black Maohopper: capture ✓; (-1,-2) d3 enemy → c1 own: blocked;
    // (-2,-1) c4 own → a3 Stone: blocked; (-2,1) c6, a7 empty: no hurdle;
    // (-1,2) d7 own Mason → c9 empty ✓.
    let fen = "8f/9/3A1s3/6O2/4N4/2A3A2/O2m1A2a/9/F1A3m2 w 1";
    assert_eq!(dests(fen, "e5"), list(&["c9", "g1", "g9", "i3", "i7"]));
}

#[test]
fn worm_travels_a_nightrider_line_over_empty_squares() {
    // Worm a1: b3, c5 empty, d7 Black Spear → e9 ✓; c2, e3 empty, g4 own
    // Mason → i5 Black Mason: capture ✓. It never stops on an empty square
    // of the line itself.
    let fen = "f8/9/3s5/9/8a/6A2/9/9/N7F w 1";
    assert_eq!(dests(fen, "a1"), list(&["e9", "i5"]));
}

// ---------------------------------------------------------------- Frog

#[test]
fn frog_has_5_possible_moves() {
    // Seed: "Frog has 5 possible moves." Frog e1; the roses leaving the board
    // from e1 (points in order):
    //  g2 h4 g6 e7 c6 b4 c2 | g2 i1 | f3 e5 c6 a5 | f3 h4 | d3 b4 |
    //  d3 e5 g6 i5 | c2 a1 | c2 b4 c6 e7 g6 h4 g2.
    // Own Masons d3, f3; Black Masons e5, e7. Landings: over e7 → c6 and g6
    // (after three empty points each), over f3 → e5 (capture) and h4 (the
    // trap: legal), over d3 → b4 and e5. The other roses meet no hurdle.
    let fen = "f8/8F/4a4/9/4a4/9/3A1A3/9/4R4 w 1";
    assert_eq!(dests(fen, "e1"), list(&["b4", "c6", "e5", "g6", "h4"]));
}

#[test]
fn frog_never_lands_on_its_start_square() {
    // Frog e1, own Mason c2: the rose g2 h4 g6 e7 c6 b4 c2 (all empty before
    // c2) would land on e1 itself, which is not allowed; c2 as the first
    // point gives a1 and b4.
    let fen = "f8/8F/9/9/9/9/9/2A6/4R4 w 1";
    assert_eq!(dests(fen, "e1"), list(&["a1", "b4"]));
}

#[test]
fn frog_never_lands_on_a_stone_or_a_friend() {
    // Frog e1, Stones c2 and a1, own Mason b4: c2 → b4 (friend) or a1
    // (Stone); b4 as the 6th point → c2 (Stone); d3 b4 → off the board.
    let fen = "f8/8F/9/9/9/1A7/9/2O6/O3R4 w 1";
    assert_eq!(dests(fen, "e1"), Vec::<String>::new());
}

// ---------------------------------------------------------------- Butterfly

#[test]
fn butterfly_has_9_possible_moves() {
    // Seed: "Butterfly has 8 (correct - 9) possible moves." In the start
    // position the Butterfly d2 hops d3 → c4, e4; c4 over the Stone c5 →
    // b6, d6; e4 over e5 → d6, f6; b6 over b7 → a8, c8 (captures); d6 over
    // d7 → c8, e8; f6 over f7 → e8, g8. Nine squares.
    assert_eq!(
        dests(START, "d2"),
        list(&["a8", "b6", "c4", "c8", "d6", "e4", "e8", "f6", "g8"])
    );
    assert_eq!(
        dests(START, "f2"),
        list(&["c8", "d6", "e4", "e8", "f6", "g4", "g8", "h6", "i8"])
    );
}

#[test]
fn butterfly_start_square_is_not_a_hurdle() {
    // Butterfly e5; hurdles e6 (own Mason), c7 (Stone), c6 (Black Mason).
    // e5 → d7, f7 (over e6); d7 → b8, b6 (over c7); b6 → d5 (over c6; d7 is
    // visited). From d5 the vacated e5 is no hurdle, so f6/f4 stay out.
    let fen = "8f/9/2O6/2a1A4/4B4/9/9/9/F8 w 1";
    assert_eq!(dests(fen, "e5"), list(&["b6", "b8", "d5", "d7", "f7"]));
}

#[test]
fn butterfly_capture_ends_the_move() {
    // Butterfly e5, own Mason e6, Black Mason d7, Stone c7: e5 captures on
    // d7 and stops there (no further hop over c7 to b6/b8); f7 is empty.
    let fen = "8f/9/2Oa5/4A4/4B4/9/9/9/F8 w 1";
    assert_eq!(dests(fen, "e5"), list(&["d7", "f7"]));
}

#[test]
fn butterfly_never_ends_on_its_start_square() {
    // Butterfly e5, own Mason e6, Stone d6: e5 → d7, f7; d7 over d6 → c5 or
    // e5 (its start: not allowed).
    let fen = "8f/9/9/3OA4/4B4/9/9/9/F8 w 1";
    assert_eq!(dests(fen, "e5"), list(&["c5", "d7", "f7"]));
}

#[test]
fn butterfly_may_pass_the_trap_during_its_move() {
    // Butterfly f3, own Mason g3, Stone h5: f3 → h4 (over g3), then h4 → g6,
    // i6 (over h5). Only the end square triggers the trap.
    let fen = "8f/9/9/9/7O1/9/5BA2/9/F8 w 1";
    assert_eq!(dests(fen, "f3"), list(&["g6", "h2", "h4", "i6"]));
    assert!(dests(fen, "f3").contains(&"g6".to_string()));
    let next = after(fen, "f3g6");
    assert_eq!(
        piece_at(&next, "g6"),
        Some(("Butterfly".to_string(), Color::White))
    );
    let trapped = after(fen, "f3h4");
    assert_eq!(piece_at(&trapped, "h4"), None);
    assert_eq!(piece_at(&trapped, "f3"), None);
}

// ---------------------------------------------------------------- Reflecting Ferz

#[test]
fn reflecting_ferz_turns_where_blocked_and_captures_what_it_faces() {
    // Ferz a1, Stone c3, own Mason a3, Black Mason c1: a1 → b2; facing the
    // Stone it turns NW (a3, own: nothing) or SE, where it faces c1 and
    // captures it.
    let fen = "1f7/8F/9/9/9/9/A1O6/9/E1a6 w 1";
    assert_eq!(dests(fen, "a1"), list(&["b2", "c1"]));
}

#[test]
fn reflecting_ferz_reflects_only_where_the_square_ahead_is_off_board_or_occupied() {
    // Ferz a1, Stone d4, own Mason b4, Black Mason f2: a1 b2 c3 (may stop
    // anywhere); d4 blocks: NW b4 own, SE d2 e1; off the board at e1 it turns
    // NE and faces f2: capture. At b2 the square ahead (c3) is empty, so it
    // may not turn there: a3 and c1 are out of reach.
    let fen = "1f7/8F/9/9/9/1A1O5/9/5a3/E8 w 1";
    assert_eq!(dests(fen, "a1"), list(&["b2", "c3", "d2", "e1", "f2"]));
}

#[test]
fn reflecting_ferz_start_square_counts_as_empty_but_cannot_be_reentered() {
    // Lone Ferz e1 (the Flags stand on squares of the other colour): its
    // path runs round the diamond e1-i5-e9-a5, turning at each edge, and
    // comes back facing e1, which counts as empty (no turn) and cannot be
    // entered: 15 squares, h4 among them (it may pass and stop there).
    let fen = "1f7/8F/9/9/9/9/9/9/4E4 w 1";
    assert_eq!(
        dests(fen, "e1"),
        list(&[
            "f2", "g3", "h4", "i5", "h6", "g7", "f8", "e9", "d8", "c7", "b6", "a5", "b4", "c3",
            "d2"
        ])
    );
    // Passing h4 on the way to i5 is harmless; stopping there is fatal.
    let next = after(fen, "e1i5");
    assert_eq!(
        piece_at(&next, "i5"),
        Some(("Reflecting Ferz".to_string(), Color::White))
    );
    let trapped = after(fen, "e1h4");
    assert_eq!(piece_at(&trapped, "h4"), None);
}

#[test]
fn reflecting_ferz_never_visits_a_square_twice() {
    // Ferz a1, Stone e5: a1 b2 c3 d4, the Stone turns it NW (c5 b6 a7, then
    // b8 c9, d8 e7 f6 g5 h4 i3, h2 g1, f2 e3) or SE (the same loop the other
    // way round). Arriving on e3 it faces d4, already visited: it counts as
    // empty, so it cannot turn there, and cannot re-enter it — d2, c1 and f4
    // are never reached.
    let fen = "1f7/8F/9/9/4O4/9/9/9/E8 w 1";
    assert_eq!(
        dests(fen, "a1"),
        list(&[
            "b2", "c3", "d4", "c5", "b6", "a7", "b8", "c9", "d8", "e7", "f6", "g5", "h4", "i3",
            "h2", "g1", "f2", "e3"
        ])
    );
}

#[test]
fn reflecting_ferz_facing_an_enemy_may_capture_or_turn() {
    // Ferz a1, Black Mason c3, own Masons a3 and e3, Stone f2: a1 → b2 faces
    // c3: capture, or turn NW (a3 own) or SE: c1, off the board → NE d2,
    // faces e3 (own) → NW faces c3 (capture again) or SE e1, then NE faces
    // the Stone f2: stop.
    let fen = "1f7/8F/9/9/9/9/A1a1A4/5O3/E8 w 1";
    assert_eq!(dests(fen, "a1"), list(&["b2", "c1", "c3", "d2", "e1"]));
}

// ---------------------------------------------------------------- Spear

#[test]
fn spear_steps_then_may_turn_or_turns_in_place() {
    // Rulings: one move per final direction (keep, turn left, turn right)
    // plus a turn in place to each other direction: 3 + 2 = 5.
    let fen = "8f/9/9/9/9/9/4S4/9/F8 w 1";
    assert_eq!(
        coords(fen, "e3"),
        list(&["e3e3<", "e3e3>", "e3e4", "e3e4<", "e3e4>"])
    );
    let next = after(fen, "e3e4>");
    assert!(next.starts_with("8f/9/9/9/9/4S>4/9/9/F8 b"), "{next}");
    let turned = after(fen, "SM7!*e3");
    assert!(turned.contains("/4S<4/"), "{turned}");
}

#[test]
fn spear_points_right_and_left_from_its_owners_view() {
    // White S> on e3 steps to f4; Black s> on e7 (its right is the board's
    // left) steps to d6 and s< to f6.
    let white = "8f/9/9/9/9/9/4S>4/9/F8 w 1";
    assert_eq!(dests(white, "e3"), list(&["e3", "f4"]));
    let black = "8f/9/2s>3s<2/9/9/9/9/9/F8 b 1";
    assert_eq!(dests(black, "c7"), list(&["b6", "c7"]));
    assert_eq!(dests(black, "g7"), list(&["g7", "h6"]));
    let pos = v().parse_fen(black).unwrap();
    let dir = |s: &str| v().piece_label(pos.get(sq(s)).unwrap()).direction;
    assert_eq!(dir("c7"), Some(225));
    assert_eq!(dir("g7"), Some(135));
    let pos = v().parse_fen(white).unwrap();
    assert_eq!(
        v().piece_label(pos.get(sq("e3")).unwrap()).direction,
        Some(45)
    );
}

#[test]
fn spear_captures_forward_but_not_friends_or_stones() {
    // e3 straight: e4 Black Mason → capture (3 moves) + 2 turns. f3 straight
    // faces a Stone on f4, g3 faces its own Mason on g4: turns only.
    let fen = "8f/9/9/9/9/4aOA2/4SSS2/9/F8 w 1";
    assert_eq!(coords(fen, "e3").len(), 5);
    assert_eq!(coords(fen, "f3"), list(&["f3f3<", "f3f3>"]));
    assert_eq!(coords(fen, "g3"), list(&["g3g3<", "g3g3>"]));
    let next = after(fen, "e3e4");
    assert_eq!(piece_at(&next, "e4"), Some(("Spear".into(), Color::White)));
}

#[test]
fn spear_promotes_on_rank_7_to_frog_or_worm() {
    let fen = "8f/9/9/4S4/9/9/9/9/F8 w 1";
    assert_eq!(
        coords(fen, "e6"),
        list(&["e6e6<", "e6e6>", "e6e7", "e6e7<", "e6e7>", "e6e7n", "e6e7r"])
    );
    let next = after(fen, "e6e7r");
    assert_eq!(piece_at(&next, "e7"), Some(("Frog".into(), Color::White)));
    let next = after(fen, "S e6-e7; N*e7");
    assert_eq!(piece_at(&next, "e7"), Some(("Worm".into(), Color::White)));
    // Promotion is optional: the Spear may stay a Spear.
    let next = after(fen, "e6e7");
    assert_eq!(piece_at(&next, "e7"), Some(("Spear".into(), Color::White)));
}

#[test]
fn spear_promotes_on_rank_8_to_reflecting_ferz_or_windmill() {
    let fen = "8f/9/4S4/9/9/9/9/9/F8 w 1";
    assert_eq!(
        coords(fen, "e7"),
        list(&["e7e7<", "e7e7>", "e7e8", "e7e8<", "e7e8>", "e7e8e", "e7e8w"])
    );
    let next = after(fen, "e7e8e");
    assert_eq!(
        piece_at(&next, "e8"),
        Some(("Reflecting Ferz".into(), Color::White))
    );
    let next = after(fen, "SM! e7-e8; W*e8");
    assert_eq!(
        piece_at(&next, "e8"),
        Some(("Windmill".into(), Color::White))
    );
}

#[test]
fn spear_promotes_on_rank_9_to_butterfly_or_flag() {
    let fen = "8f/4S4/9/9/9/9/9/9/F8 w 1";
    assert_eq!(
        coords(fen, "e8"),
        list(&["e8e8<", "e8e8>", "e8e9", "e8e9<", "e8e9>", "e8e9b", "e8e9f"])
    );
    let next = after(fen, "e8e9b");
    assert_eq!(
        piece_at(&next, "e9"),
        Some(("Butterfly".into(), Color::White))
    );
}

#[test]
fn promoting_to_a_flag_removes_the_old_flag() {
    // "If it promotes to a Flag you must remove your previous flag."
    let fen = "8f/4S4/9/9/9/9/9/9/F8 w 1";
    let next = after(fen, "e8e9f");
    assert_eq!(piece_at(&next, "e9"), Some(("Flag".into(), Color::White)));
    assert_eq!(piece_at(&next, "a1"), None);
    assert_eq!(next, "4F3f/9/9/9/9/9/9/9/9 b 1");
    // The new Flag is the one that counts: capturing it wins.
    let pos = v().parse_fen(&next).unwrap();
    assert_eq!(pos.royal[0], Some(sq("e9")));
}

#[test]
fn black_spear_promotes_on_ranks_3_2_1() {
    let r3 = "8f/9/9/9/9/4s4/9/9/F8 b 1";
    // Black Spear e4 → e3: Frog or Worm.
    assert_eq!(
        coords(r3, "e4"),
        list(&["e4e3", "e4e3<", "e4e3>", "e4e3n", "e4e3r", "e4e4<", "e4e4>"])
    );
    let r2 = "8f/9/9/9/9/9/4s4/9/F8 b 1";
    assert_eq!(
        coords(r2, "e3"),
        list(&["e3e2", "e3e2<", "e3e2>", "e3e2e", "e3e2w", "e3e3<", "e3e3>"])
    );
    let r1 = "8f/9/9/9/9/9/9/4s4/F8 b 1";
    assert_eq!(
        coords(r1, "e2"),
        list(&["e2e1", "e2e1<", "e2e1>", "e2e1b", "e2e1f", "e2e2<", "e2e2>"])
    );
    let next = after(r1, "sm! e2-e1; f*e1");
    assert_eq!(next, "9/9/9/9/9/9/9/9/F3f4 w 2");
}

#[test]
fn spear_on_the_last_rank_can_only_turn() {
    let fen = "4S3f/9/9/9/9/9/9/9/F8 w 1";
    assert_eq!(coords(fen, "e9"), list(&["e9e9<", "e9e9>"]));
}

#[test]
fn spear_stepping_onto_the_trap_is_one_move() {
    // Rulings: "A step onto the trap is one move (the Spear is removed)."
    let fen = "8f/9/9/9/9/9/6S>S1/9/F8 w 1";
    assert_eq!(coords(fen, "g3"), list(&["g3g3<", "g3g3^", "g3h4"]));
    assert_eq!(coords(fen, "h3"), list(&["h3h3<", "h3h3>", "h3h4"]));
    let next = after(fen, "g3h4");
    assert_eq!(piece_at(&next, "h4"), None);
    assert_eq!(piece_at(&next, "g3"), None);
}

// ---------------------------------------------------------------- Mason and Stones

#[test]
fn mason_pushes_two_stones() {
    // Seed: "Mason stands on f5, stones: g4, h3. After move: Mason - g4,
    // stones - h3, i2."
    let fen = "8f/9/9/9/5A3/6O2/7O1/9/F8 w 1";
    let next = after(fen, "A f5-g4");
    assert_eq!(piece_at(&next, "g4"), Some(("Mason".into(), Color::White)));
    assert_eq!(
        piece_at(&next, "h3"),
        Some(("Stone".into(), Color::Neutral))
    );
    assert_eq!(
        piece_at(&next, "i2"),
        Some(("Stone".into(), Color::Neutral))
    );
    assert_eq!(piece_at(&next, "f5"), None);
    assert_eq!(next, "8f/9/9/9/9/6A2/7O1/8O/F8 b 1");
}

#[test]
fn mason_push_refused_when_the_far_square_is_blocked_or_off_board() {
    // Same Stones with a Black Mason on i2: g4 cannot be entered.
    let blocked = "8f/9/9/9/5A3/6O2/7O1/8a/F8 w 1";
    assert!(!dests(blocked, "f5").contains(&"g4".to_string()));
    assert_eq!(dests(blocked, "f5").len(), 7);
    // Three Stones g4 h3 i2: the square beyond i2 is off the board.
    let edge = "8f/9/9/9/5A3/6O2/7O1/8O/F8 w 1";
    assert!(!dests(edge, "f5").contains(&"g4".to_string()));
    // A single Stone with an empty square behind it can be pushed.
    let single = "8f/9/9/9/5A3/6O2/9/9/F8 w 1";
    assert!(dests(single, "f5").contains(&"g4".to_string()));
    // The reason is explained.
    let g = Game::new(v(), Some(blocked)).unwrap();
    match g.parse_move("f5g4") {
        Err(MoveError::Illegal { reason, .. }) => assert!(reason.contains("beyond"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn mason_moves_one_step_any_way_and_cannot_capture() {
    // Mason e5 among: d6 Black Mason, e6 own Mason, f6 Black Flag... (Flag
    // cannot be pushed or captured by a Mason), d4 empty etc.
    let fen = "8F/9/9/3aAf3/4A4/9/9/9/9 w 1";
    assert_eq!(dests(fen, "e5"), list(&["d4", "d5", "e4", "f4", "f5"]));
    let g = Game::new(v(), Some(fen)).unwrap();
    match g.parse_move("e5d6") {
        Err(MoveError::Illegal { reason, .. }) => {
            assert!(reason.contains("Mason cannot capture"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn masons_push_stones_only() {
    // Stone g4 with a Black Mason behind it on h3: not a line of Stones.
    let fen = "8f/9/9/9/5A3/6O2/7a1/9/F8 w 1";
    assert!(!dests(fen, "f5").contains(&"g4".to_string()));
}

#[test]
fn stones_are_never_captured() {
    // Stone e5 next to a White Windmill d4 (which may pivot round it) and in
    // front of a White Spear e4, which can only turn; no move of any piece
    // lands on the Stone or removes it.
    let fen = "8f/9/9/9/4O4/3WS4/9/9/F8 w 1";
    assert_eq!(coords(fen, "e4"), list(&["e4e4<", "e4e4>"]));
    let stones_before = 1;
    let pos = v().parse_fen(fen).unwrap();
    for m in v().legal_moves(&pos) {
        let next = v().play(&pos, &m);
        let stones = next
            .pieces()
            .filter(|(_, p)| p.color == Color::Neutral)
            .count();
        assert_eq!(stones, stones_before);
    }
}

// ---------------------------------------------------------------- Windmill

#[test]
fn windmill_orbits_an_adjacent_piece() {
    // Windmill e5, own Mason e6 its only neighbour: round e6 both ways over
    // d5 d6 d7 e7 f7 f6 f5: seven squares, never its start.
    let fen = "8f/9/9/4A4/4W4/9/9/9/F8 w 1";
    assert_eq!(
        dests(fen, "e5"),
        list(&["d5", "d6", "d7", "e7", "f5", "f6", "f7"])
    );
}

#[test]
fn windmill_pivot_may_be_friend_enemy_or_stone_and_it_captures_the_first_enemy() {
    // Windmill e5; neighbours e6 own Mason, d6 Black Mason, f6 Stone.
    // Round e6: clockwise d5, then d6 (enemy: capture, stop); anticlockwise
    // f5, then the Stone f6 stops it. Round d6: clockwise d5 c5 c6 c7 d7 e7,
    // then e6 (own) stops; anticlockwise e6 at once. Round f6: clockwise e6
    // at once; anticlockwise f5 g5 g6 g7 f7 e7, then e6.
    let fen = "8f/9/9/3aAO3/4W4/9/9/9/F8 w 1";
    assert_eq!(
        dests(fen, "e5"),
        list(&["c5", "c6", "c7", "d5", "d6", "d7", "e7", "f5", "f7", "g5", "g6", "g7"])
    );
}

#[test]
fn windmill_is_blocked_by_the_board_edge() {
    // Windmill a1, own Mason b1 its only neighbour, Black Mason c2:
    // clockwise a2 b2 c2 (capture, stop); anticlockwise a0 is off the board,
    // so c1 is never reached.
    let fen = "8f/9/9/9/9/9/9/2a6/WA6F w 1";
    assert_eq!(dests(fen, "a1"), list(&["a2", "b2", "c2"]));
}

// ---------------------------------------------------------------- trap

#[test]
fn trap_removes_a_white_piece() {
    // White Maohopper g2 hops over g3 to h4 and is removed.
    let fen = "8f/9/9/9/9/9/6A2/6M2/F8 w 1";
    assert!(dests(fen, "g2").contains(&"h4".to_string()));
    let next = after(fen, "g2h4");
    assert_eq!(piece_at(&next, "h4"), None);
    assert_eq!(v().parse_fen(&next).unwrap().pieces().count(), 3);
}

#[test]
fn trap_removes_a_black_piece() {
    // A Black Mason i5 steps onto h4 and is removed.
    let fen = "8f/9/9/9/8a/9/9/9/F8 b 1";
    assert!(dests(fen, "i5").contains(&"h4".to_string()));
    let next = after(fen, "i5h4");
    assert_eq!(piece_at(&next, "h4"), None);
    assert_eq!(next, "8f/9/9/9/9/9/9/9/F8 w 2");
}

#[test]
fn no_piece_can_stand_on_the_trap() {
    // A piece is removed as soon as it ends a move on h4, so a position
    // with a piece (other than a Stone) standing there is refused.
    assert!(v().parse_fen("8f/9/9/9/9/7M1/9/9/F8 w 1").is_err());
    assert!(v().parse_fen("8f/9/9/9/9/7O1/9/9/F8 w 1").is_ok());
}

#[test]
fn trap_does_not_remove_a_stone() {
    // Mason f4 pushes the Stone g4 onto h4: the Stone stays; then the Mason
    // g4 pushes it on to i4 and the Mason itself lands on h4 and is removed.
    let fen = "8f/8a/9/9/9/5AO2/9/9/F8 w 1";
    let next = after(fen, "f4g4");
    assert_eq!(
        piece_at(&next, "h4"),
        Some(("Stone".into(), Color::Neutral))
    );
    assert_eq!(piece_at(&next, "g4"), Some(("Mason".into(), Color::White)));
    let mut g = Game::new(v(), Some(fen)).unwrap();
    g.play_text("f4g4").unwrap();
    g.play_text("a i8-h8").unwrap();
    g.play_text("g4h4").unwrap();
    let fen = g.fen();
    assert_eq!(piece_at(&fen, "h4"), None);
    assert_eq!(piece_at(&fen, "i4"), Some(("Stone".into(), Color::Neutral)));
}

// ---------------------------------------------------------------- object and game end

#[test]
fn flag_never_moves() {
    assert!(dests(START, "e1").is_empty());
    let g = Game::new(v(), None).unwrap();
    match g.parse_move("e1e3") {
        Err(MoveError::Illegal { reason, .. }) => {
            assert!(reason.contains("Flag never moves"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn capturing_the_flag_wins() {
    // White Maohopper e7 hops over e8 onto f9, the Black Flag.
    let fen = "5f3/4A4/4M4/9/9/9/9/9/F8 w 1";
    let mut g = Game::new(v(), Some(fen)).unwrap();
    g.play_text("M e7-f9").unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::White, Reason::FlagCaptured))
    );
    assert!(g.legal_moves().is_empty());
    // The finished position can be stored and restored.
    let again = Game::restore(v(), &g.fen(), &g.history_string()).unwrap();
    assert_eq!(again.outcome(), g.outcome());
}

#[test]
fn no_check_a_flag_may_be_left_attacked() {
    // White to move with its Flag attacked by a Black Maohopper: any move is
    // legal (no check), e.g. the Spear turning.
    let fen = "8f/9/9/9/9/9/1m7/AS7/F8 w 1";
    let pos = v().parse_fen(fen).unwrap();
    assert!(!v().in_check(&pos));
    assert!(dests(fen, "b2").contains(&"b2".to_string()));
}

#[test]
fn a_player_with_no_legal_move_loses() {
    // White has only its Flag.
    let g = Game::new(v(), Some("8f/9/9/9/9/9/9/9/F8 w 1")).unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::Black, Reason::Stalemate))
    );
    let g = Game::new(v(), Some("8f/9/9/9/9/9/9/9/F7a b 1")).unwrap();
    assert!(g.outcome().is_none());
}

#[test]
fn repeating_any_earlier_position_is_illegal() {
    assert_eq!(v().repetition_rule(), RepetitionRule::AnyRepeatIllegal);
    let mut g = Game::new(v(), None).unwrap();
    g.play_text("SM4!*e3").unwrap();
    g.play_text("sm4!*e7").unwrap();
    g.play_text("SM!*e3").unwrap();
    // Turning e7 back would recreate the start position (White to move).
    match g.parse_move("sm!*e7") {
        Err(MoveError::Illegal { reason, .. }) => {
            assert!(reason.contains("already occurred"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    assert!(g
        .legal_moves()
        .iter()
        .all(|m| !(m.kind == MoveKind::Special && m.from == sq("e7") && m.tag == 0)));
    // Turning it the other way is new.
    g.play_text("sm7!*e7").unwrap();
}

#[test]
fn repetition_counts_spear_directions_and_side_to_move() {
    let a = v().parse_fen(START).unwrap();
    let b = v()
        .parse_fen(&START.replace("SSSSSSSSS", "SSSSS>SSSS"))
        .unwrap();
    let c = v().parse_fen(&START.replace(" w 1", " b 1")).unwrap();
    let d = v().parse_fen(&START.replace(" w 1", " w 7")).unwrap();
    let key = |p| v().repetition_key(p);
    assert_ne!(key(&a), key(&b));
    assert_ne!(key(&a), key(&c));
    assert_eq!(
        key(&a),
        key(&d),
        "the move number is not part of a position"
    );
    let mut e = a.clone();
    e.halfmove = 9;
    assert_eq!(key(&a), key(&e), "nor is a move-count rule's counter");
}

#[test]
fn a_player_whose_every_move_repeats_loses() {
    // White: Flag a1 and a Spear on e9 that can only turn; Black: Flag i9.
    // If both positions White's turns lead to have occurred before, White
    // has no legal move and loses.
    let now = "4S3f/9/9/9/9/9/9/9/F8 w 1";
    let key = |fen: &str| v().repetition_key(&v().parse_fen(fen).unwrap());
    let right = key("4S>3f/9/9/9/9/9/9/9/F8 b 1");
    let left = key("4S<3f/9/9/9/9/9/9/9/F8 b 1");
    let g = Game::restore(v(), now, &format!("{right:016x},{left:016x}")).unwrap();
    assert!(g.legal_moves().is_empty());
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::Black, Reason::Stalemate))
    );
    // With only one of them used up, the other turn is the only move.
    let g = Game::restore(v(), now, &format!("{right:016x}")).unwrap();
    let moves: Vec<String> = g
        .legal_moves()
        .iter()
        .map(|m| g.format(m, Notation::GameCourier))
        .collect();
    assert_eq!(moves, vec!["SM7!*e9".to_string()]);
}

// ---------------------------------------------------------------- FEN

#[test]
fn fen_round_trips_with_spear_directions_and_stones() {
    for fen in [
        START,
        "8f/9/2s>3s<2/9/O8/9/4S>S<S2/9/F8 b 12",
        "4F3f/9/9/9/9/7O1/9/9/9 b 1",
    ] {
        let pos = v().parse_fen(fen).unwrap();
        assert_eq!(v().fen(&pos), fen);
    }
    // Accepted variants of writing: explicit ^, lower-case o, no move number.
    let pos = v().parse_fen("8f/9/9/9/o8/9/4S^4/9/F8 w").unwrap();
    assert_eq!(v().fen(&pos), "8f/9/9/9/O8/9/4S4/9/F8 w 1");
}

#[test]
fn bad_fens_are_errors_not_panics() {
    let bad = [
        "",
        " ",
        "x",
        "9/9/9/9/9/9/9/9 w 1",
        "8f/9/9/9/9/9/9/9/F8 x 1",
        "8f/9/9/9/9/9/9/9/F8 w one",
        "8f/9/9/9/9/9/9/9/F8 w 1 extra",
        "8f/9/9/9/9/9/9/9/F9 w 1",
        "8f/9/9/9/9/9/9/9/F7 w 1",
        "8f/9/9/9/9/9/9/9/FF7 w 1",
        "9/9/9/9/9/9/9/9/8F w 1",
        "8f/9/9/9/9/9/9/9/9 b 1",
        "8f/9/9/9/9/9/9/9/M>7F w 1",
        "8f/9/9/9/9/9/9/9/>8 w 1",
        "8f/9/9/9/9/9/9/9/F7* w 1",
        "8f/9/9/9/9/9/9/9/F8[M] w 1",
        "8f/9/9/9/9/9/9/9/F8[ w 1",
        "8f/9/9/9/9/9/9/9/F99999999999999999999 w 1",
        "8f/9/9/9/9/9/9/9/Fé7 w 1",
        "8f/9/9/9/9/9/9/9/F8/ w 1",
        "8f/9/9/9/9/9/9/9/FK7 w 1",
        "8f/9/9/9/9/7A1/9/9/F8 w 1",
    ];
    for fen in bad {
        assert!(v().parse_fen(fen).is_err(), "{fen:?} should be refused");
    }
    let long = "9/".repeat(5000);
    assert!(v().parse_fen(&long).is_err());
    // Every prefix of a good FEN: an error or a position, never a panic.
    for i in 0..START.len() {
        let _ = v().parse_fen(&START[..i]);
    }
}

// ---------------------------------------------------------------- notation

#[test]
fn game_courier_spear_labels() {
    let pos = v().parse_fen(START).unwrap();
    let legal = v().legal_moves(&pos);
    let gc: Vec<String> = legal
        .iter()
        .filter(|m| m.from == sq("e3"))
        .map(|m| v().format_move(&pos, m, Notation::GameCourier))
        .collect();
    assert_eq!(
        gc,
        vec![
            "SM! e3-e4",
            "SM! e3-e4; SM4!*e4",
            "SM! e3-e4; SM7!*e4",
            "SM4!*e3",
            "SM7!*e3"
        ]
    );
    let black = v().parse_fen(&START.replace(" w 1", " b 1")).unwrap();
    let m = v()
        .parse_move(&black, &v().legal_moves(&black), "sm4!*e7")
        .unwrap();
    assert_eq!((m.kind, m.from, m.tag), (MoveKind::Special, sq("e7"), 1));
    assert_eq!(v().format_move(&black, &m, Notation::Display), "Se7>");
    let m = v()
        .parse_move(&black, &v().legal_moves(&black), "sm! e7-e6")
        .unwrap();
    assert_eq!(v().format_move(&black, &m, Notation::Coordinate), "e7e6");
}

#[test]
fn notation_forms_of_ordinary_moves() {
    let pos = v().parse_fen(START).unwrap();
    let legal = v().legal_moves(&pos);
    let m = v().parse_move(&pos, &legal, "M b2-c4").unwrap();
    assert_eq!(v().format_move(&pos, &m, Notation::Coordinate), "b2c4");
    assert_eq!(v().format_move(&pos, &m, Notation::Display), "Mb2-c4");
    assert_eq!(v().format_move(&pos, &m, Notation::GameCourier), "M b2-c4");
    let m = v().parse_move(&pos, &legal, "d2c8").unwrap();
    assert_eq!(v().format_move(&pos, &m, Notation::Display), "Bd2xc8");
    // Unlabelled Game Courier Spear move keeps the direction.
    let m = v().parse_move(&pos, &legal, "e3-e4").unwrap();
    assert_eq!(m.tag, 0);
    // Explicit "keep" mark.
    let m2 = v().parse_move(&pos, &legal, "e3e4^").unwrap();
    assert_eq!(m, m2);
    // A Spear letter with from-to is the display form: keep the direction.
    assert_eq!(v().parse_move(&pos, &legal, "S e3-e4").unwrap(), m);
    // A bare destination fits every direction the Spear may end with.
    assert!(matches!(
        v().parse_move(&pos, &legal, "Se4"),
        Err(MoveError::Ambiguous { .. })
    ));
}

#[test]
fn illegal_spear_moves_are_explained() {
    let pos = v().parse_fen(START).unwrap();
    let legal = v().legal_moves(&pos);
    match v().parse_move(&pos, &legal, "SM! e3-f4") {
        Err(MoveError::Illegal {
            reason,
            alternatives,
            ..
        }) => {
            assert!(reason.contains("points straight forward"), "{reason}");
            assert_eq!(alternatives.len(), 5);
        }
        other => panic!("{other:?}"),
    }
    match v().parse_move(&pos, &legal, "SM!*e3") {
        Err(MoveError::Illegal { .. }) => {}
        other => panic!("{other:?}"),
    }
    match v().parse_move(&pos, &legal, "SM4!*e5") {
        Err(MoveError::Illegal { reason, .. }) => assert!(reason.contains("no Spear")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn garbage_move_text_is_an_error_not_a_panic() {
    let pos = v().parse_fen(START).unwrap();
    let legal = v().legal_moves(&pos);
    let long = "SM!".repeat(500);
    let inputs = [
        "",
        " ",
        "x",
        "SM!",
        "SM4!",
        "SM! ",
        "SM!*",
        "sm7!*z9",
        "SM! e3-e4; SM4!*e9",
        "e3e4>>",
        "é4",
        "e3-",
        "--",
        ";;",
        "e10e11",
        "q1q2",
        "p16p15",
        "SM! p16-p15",
        "M*e4",
        "O-O",
        "e3e4q",
        "\u{0}",
        "SM!*a99",
        "🙂",
        long.as_str(),
    ];
    for text in inputs {
        let r = v().parse_move(&pos, &legal, text);
        assert!(r.is_err(), "{text:?} gave {r:?}");
    }
}

/// Every legal move at depth 0 and 1 of `fen`: format in each notation,
/// parse back, same move.
fn round_trip(fen: &str) {
    let root = v().parse_fen(fen).unwrap();
    let mut positions = vec![root.clone()];
    for m in v().legal_moves(&root) {
        positions.push(v().play(&root, &m));
    }
    let mut checked = 0;
    for pos in &positions {
        let legal = v().legal_moves(pos);
        for m in &legal {
            for n in Notation::ALL {
                let text = v().format_move(pos, m, n);
                let back = v()
                    .parse_move(pos, &legal, &text)
                    .unwrap_or_else(|e| panic!("{text} ({n:?}) in {}: {e}", v().fen(pos)));
                assert_eq!(&back, m, "{text} ({n:?}) in {}", v().fen(pos));
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
}

#[test]
fn notation_round_trips_for_every_move_to_depth_2() {
    round_trip(START);
    // Promotions for both sides, turned Spears, Stones next to Masons, the trap.
    round_trip(
        "nr1wfw1rn/amS>b1bema/s<sss1ssss/9/2O1O1Os1/5SS2/SSSSS1SS<S/AMEBAsEMA/NRMWFWMRN w 5",
    );
    round_trip("4f4/1S2S4/S5S2/3mO4/1A1O4A/3N1b3/2s>5s/4s<4/4F4 b 9");
}

// ---------------------------------------------------------------- perft

#[test]
fn perft_small_positions_by_hand() {
    // White Flag a1, Spear e3; Black Flag i9, Mason a9. White: Spear 3 steps
    // + 2 turns = 5. Black: Mason a8, b8, b9 = 3 → 15. White again: every
    // Spear (e4 any direction, or turned on e3) has one free square ahead:
    // 5 each → 75.
    let fen = "a7f/9/9/9/9/9/4S4/9/F8 w 1";
    assert_eq!(perft_of(fen, 1), 5);
    assert_eq!(perft_of(fen, 2), 15);
    assert_eq!(perft_of(fen, 3), 75);
    // Spear g3 pointing forward-right at the trap: h4 (1 move) + 2 turns = 3.
    // After g3h4 White has only its Flag: Black (Mason a9: 3 moves)...; after
    // a turn the Spear faces g4 or h4 again.
    let trap = "a7f/9/9/9/9/9/6S>2/9/F8 w 1";
    assert_eq!(perft_of(trap, 1), 3);
    assert_eq!(perft_of(trap, 2), 9);
    // Depth 3: after g3h4 White has no piece but the Flag (0 moves each);
    // after a turn to ^ (faces g4) or < (faces f4) 3 + 2 = 5 each:
    // 3·0 + 3·5 + 3·5 = 30.
    assert_eq!(perft_of(trap, 3), 30);
}

#[test]
fn perft_start_position() {
    // Depth 1 counted by hand: Spears 8×(3+2) + h3 (trap step 1 + 2 turns) =
    // 43; Maohoppers b2 (a4, c4) and h2 (g4, i4) = 4; Butterflies 9 + 9 = 18;
    // Frogs b1 (b5, e4) and h1 (e4, h5) = 4; Worms, Ferzes, Windmills,
    // Masons and the Flag are boxed in: 43 + 4 + 18 + 4 = 69.
    let pos = v().parse_fen(START).unwrap();
    assert_eq!(perft(v(), &pos, 1), 69);
    assert_eq!(perft(v(), &pos, 2), 5_139);
    assert_eq!(perft(v(), &pos, 3), 370_753);
}

#[test]
fn perft_start_position_black_to_move_feels_the_asymmetric_trap() {
    // Black's pieces mirror White's, but the single trap h4 does not: Black's
    // h7 Spear steps to h6 with 3 directions where White's h3 Spear has the
    // single trap step, so Black has 69 + 2 = 71 moves.
    let pos = v().parse_fen(&START.replace(" w 1", " b 1")).unwrap();
    assert_eq!(perft(v(), &pos, 1), 71);
}

/// A small deterministic generator for the fuzz tests below.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.next() as usize % items.len()]
    }
}

#[test]
fn mutated_fens_and_moves_never_panic() {
    let alphabet: Vec<char> = "FMBRNESAWOfmbrnesawo123456789/<>^*[] wb-xK0é"
        .chars()
        .collect();
    let mut rng = Lcg(7);
    let mut accepted = 0;
    for _ in 0..3000 {
        let mut chars: Vec<char> = START.chars().collect();
        for _ in 0..1 + rng.next() % 3 {
            let i = rng.next() as usize % chars.len();
            match rng.next() % 3 {
                0 => chars[i] = rng.pick(&alphabet),
                1 => chars.insert(i, rng.pick(&alphabet)),
                _ => {
                    chars.remove(i);
                }
            }
        }
        let fen: String = chars.into_iter().collect();
        let Ok(pos) = v().parse_fen(&fen) else {
            continue;
        };
        accepted += 1;
        // An accepted position writes back to a FEN that reads the same.
        let again = v().parse_fen(&v().fen(&pos)).unwrap();
        assert_eq!(v().fen(&again), v().fen(&pos));
        let legal = v().legal_moves(&pos);
        for m in legal.iter().take(5) {
            let next = v().play(&pos, m);
            let _ = v().legal_moves(&next);
        }
        let _ = v().outcome(&pos, &legal);
        for text in ["e3e4", "SM! e3-e4", "SM4!*e3", "M b2-c4", "zz", "a1a1"] {
            let _ = v().parse_move(&pos, &legal, text);
        }
    }
    assert!(
        accepted > 100,
        "only {accepted} mutated positions were valid"
    );

    let pos = v().parse_fen(START).unwrap();
    let legal = v().legal_moves(&pos);
    let pieces: Vec<&str> = vec![
        "SM!", "sm4!", "SM7!", "*", "-", ";", " ", "e3", "e4", "a9", "i1", "j1", "M", "x", "=",
        ">", "<", "^", "//", "q", "10", "é",
    ];
    for _ in 0..3000 {
        let n = 1 + rng.next() % 6;
        let text: String = (0..n).map(|_| rng.pick(&pieces)).collect();
        if let Ok(m) = v().parse_move(&pos, &legal, &text) {
            assert!(legal.contains(&m));
        }
    }
}
