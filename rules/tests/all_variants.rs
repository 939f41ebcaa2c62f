//! Properties every registered variant must have: notation round-trips,
//! FEN round-trips, and no panic on hostile input.

use missive_rules::{variants, Game, Move, MoveKind, Notation, Position, Reason, Variant};
use proptest::prelude::*;

/// Positions two plies deep from the start (and the start itself).
fn tree(v: &dyn Variant, pos: &Position, depth: u32, out: &mut Vec<Position>) {
    out.push(pos.clone());
    if depth == 0 {
        return;
    }
    for m in v.legal_moves(pos) {
        tree(v, &v.play(pos, &m), depth - 1, out);
    }
}

fn extra_fens(id: &str) -> &'static [&'static str] {
    match id {
        "chess" => &[
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ],
        _ => &[],
    }
}

/// Whether the random game of `seed` is played in `v`: always for the
/// seeds, each on its own engine; for one case in four in the definition
/// variants, which share the generic engine (81 variants at every case
/// made this binary the longest of the suite).
fn in_case(v: &dyn Variant, seed: u64) -> bool {
    missive_rules::definition_variant(v.id()).is_none() || seed.is_multiple_of(4)
}

/// How many positions of its tree a definition variant's round trip checks.
const DEFINITION_POSITIONS: usize = 120;

/// `n` of `all`, evenly spread, the first (the start) always among them.
fn spread(all: Vec<Position>, n: usize) -> Vec<Position> {
    if all.len() <= n {
        return all;
    }
    let step = all.len() as f64 / n as f64;
    (0..n)
        .map(|i| all[(i as f64 * step) as usize].clone())
        .collect()
}

#[test]
fn every_legal_move_round_trips_in_every_notation() {
    for &v in variants() {
        let mut roots = vec![v.parse_fen(v.start_fen()).unwrap()];
        roots.extend(extra_fens(v.id()).iter().map(|f| v.parse_fen(f).unwrap()));
        let mut positions = Vec::new();
        for (i, root) in roots.iter().enumerate() {
            tree(v, root, if i == 0 { 2 } else { 1 }, &mut positions);
        }
        // The definition variants share one engine and its notation code,
        // and tests/fsf_variants.rs holds their SAN to Fairy-Stockfish's on
        // whole trees: a spread of their positions is enough here (the
        // shogi boards' full depth-2 trees took most of this binary's
        // 30 minutes).
        if missive_rules::definition_variant(v.id()).is_some() {
            positions = spread(positions, DEFINITION_POSITIONS);
        }
        let mut checked = 0;
        for pos in &positions {
            let legal = v.legal_moves(pos);
            for m in &legal {
                for n in Notation::ALL {
                    let text = v.format_move(pos, m, n);
                    let back = v.parse_move(pos, &legal, &text);
                    assert_eq!(
                        back.as_ref(),
                        Ok(m),
                        "{}: {:?} “{text}” in {}",
                        v.id(),
                        n,
                        v.fen(pos)
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 0, "{}: no moves checked", v.id());
    }
}

/// Positions along seeded random games, where checks, mates, promotions
/// and crowded disambiguations turn up that two plies from the start lack.
fn playouts(v: &dyn Variant, games: u64, plies: usize) -> Vec<Position> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut pos = v.parse_fen(v.start_fen()).unwrap();
        for _ in 0..plies {
            let legal = v.legal_moves(&pos);
            if legal.is_empty() {
                break;
            }
            out.push(pos.clone());
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            pos = v.play(&pos, &legal[(state % legal.len() as u64) as usize]);
        }
    }
    out
}

/// `Position::hash` as it was first written. Its values are stored in every
/// game's history, so a faster way of working them out must give the same.
fn hash_as_first_written(p: &Position) -> u64 {
    fn mix(mut z: u64) -> u64 {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    let mut h: u64 = 0x9E37_79B9_7F4A_7C15 ^ (p.side as u64);
    for sq in p.squares() {
        if let Some(pc) = p.get(sq) {
            let code = (pc.kind as u64)
                | (pc.color as u64) << 8
                | (pc.promoted as u64) << 10
                | (pc.state as u64) << 11;
            h ^= mix(code << 8 | sq.index() as u64);
        }
    }
    for sq in p.holes().iter() {
        h ^= mix(0x1_0000_0000 | sq.index() as u64);
    }
    for c in 0..2 {
        for (k, &n) in p.hands[c].iter().enumerate() {
            if n > 0 {
                h ^= mix(0x2_0000_0000 | (c as u64) << 16 | (k as u64) << 8 | n as u64);
            }
        }
    }
    h ^= mix(0x3_0000_0000 | p.castling as u64);
    if let Some(ep) = p.ep {
        h ^= mix(0x4_0000_0000 | ep.index() as u64);
    }
    h ^= mix(0x5_0000_0000 | (p.counters[0] as u64) << 8 | p.counters[1] as u64);
    h
}

#[test]
fn hash_values_are_as_first_worked_out() {
    let mut holed = 0;
    for &v in variants() {
        // The definition variants share one engine: a quarter of the games.
        let games = if missive_rules::definition_variant(v.id()).is_some() {
            3
        } else {
            12
        };
        let mut positions = playouts(v, games, 80);
        for f in extra_fens(v.id()) {
            positions.push(v.parse_fen(f).unwrap());
        }
        for pos in &positions {
            assert_eq!(
                pos.hash(),
                hash_as_first_written(pos),
                "{}: {}",
                v.id(),
                v.fen(pos)
            );
            holed += usize::from(pos.holes().iter().next().is_some());
        }
    }
    assert!(holed > 0, "no position with holes or craters met");
}

#[test]
fn whole_list_writing_matches_writing_each_move() {
    for &v in variants() {
        let mut positions = playouts(v, 12, 80);
        for f in extra_fens(v.id()) {
            positions.push(v.parse_fen(f).unwrap());
        }
        let (mut checked, mut marked) = (0, 0);
        for pos in &positions {
            let legal = v.legal_moves(pos);
            // `format_move_among` is given the list in any order.
            let reversed: Vec<Move> = legal.iter().rev().copied().collect();
            for n in Notation::ALL {
                let all = v.format_legal_moves(pos, &legal, n);
                assert_eq!(all.len(), legal.len());
                for (m, written) in legal.iter().zip(&all) {
                    assert_eq!(
                        written,
                        &v.format_move(pos, m, n),
                        "{}: {n:?} in {}",
                        v.id(),
                        v.fen(pos)
                    );
                    assert_eq!(
                        written,
                        &v.format_move_among(pos, &reversed, m, n),
                        "{}: {n:?} among the legal moves in {}",
                        v.id(),
                        v.fen(pos)
                    );
                    checked += 1;
                    marked += usize::from(written.ends_with('+') || written.ends_with('#'));
                }
            }
        }
        assert!(checked > 1000, "{}: only {checked} moves checked", v.id());
        // Chess-like variants give check along the way, so the marks are covered.
        if v.id() == "chess" {
            assert!(marked > 0, "no checking move met");
        }
    }
}

#[test]
fn fen_round_trips_through_the_tree() {
    for &v in variants() {
        let start = v.parse_fen(v.start_fen()).unwrap();
        let mut positions = Vec::new();
        tree(v, &start, 2, &mut positions);
        for pos in positions {
            let fen = v.fen(&pos);
            let mut again = v
                .parse_fen(&fen)
                .unwrap_or_else(|e| panic!("{}: {fen}: {e}", v.id()));
            assert_eq!(v.fen(&again), fen, "{}", v.id());
            // What the FEN leaves out (janggi's passes in a row) comes
            // back from the game's history, as `Game::restore` does.
            v.restore_unwritten_state(&mut again, v.unwritten_state(&pos));
            assert_eq!(
                v.legal_moves(&again).len(),
                v.legal_moves(&pos).len(),
                "{}: {fen}",
                v.id()
            );
        }
    }
}

#[test]
fn start_fen_is_written_back_unchanged() {
    for &v in variants() {
        let pos = v.parse_fen(v.start_fen()).unwrap();
        assert_eq!(v.fen(&pos), v.start_fen(), "{}", v.id());
    }
}

#[test]
fn hostile_move_texts_are_rejected_cleanly() {
    let long = "e2e4".repeat(10_000);
    let texts = [
        "",
        " ",
        "\0",
        "//",
        "e2-",
        "-e4",
        ";;;",
        "**",
        "P*",
        "e2e4e6",
        "O-O-O-O",
        "💥",
        "é2é4",
        "a99a98",
        "Z9-z9",
        "K e1-e1",
        "e4 e5",
        &long,
        "P e2-e4; ; Q*e8",
        "\u{202e}e2e4",
    ];
    for &v in variants() {
        let g = Game::new(v, None).unwrap();
        for t in texts {
            if let Ok((m, _)) = g.parse_move(t) {
                assert!(g.legal_moves().contains(&m));
            }
        }
    }
}

#[test]
fn hostile_fens_are_rejected_cleanly() {
    let long = "8/".repeat(5000);
    let texts = [
        "",
        "/",
        "//////////",
        "99999999999999999999",
        "8/8/8/8/8/8/8/8",
        "[",
        "]",
        "k[",
        "K[]]",
        "*",
        "+",
        "++P",
        &long,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra extra",
        "10/10/10/10/10/10/10/10/10/10[]",
        "k/K w 65535 65536",
    ];
    for &v in variants() {
        for t in texts {
            let _ = v.parse_fen(t);
            let _ = Game::new(v, Some(t));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn random_move_texts_never_panic(s in ".{0,40}", t in "[a-zA-Z0-9@*;/=+ -]{0,16}") {
        for &v in variants() {
            let g = Game::new(v, None).unwrap();
            for text in [&s, &t] {
                if let Ok((m, _)) = g.parse_move(text) {
                    prop_assert!(g.legal_moves().contains(&m));
                }
            }
        }
    }

    #[test]
    fn random_fens_never_panic(s in ".{0,80}", t in "[pnbrqkPNBRQK1-9/*+\\[\\] wb-]{0,90}") {
        for &v in variants() {
            let _ = v.parse_fen(&s);
            if let Ok(pos) = v.parse_fen(&t) {
                // A position we accept can be played from without panicking.
                for m in v.legal_moves(&pos).iter().take(8) {
                    let next = v.play(&pos, m);
                    let _ = v.legal_moves(&next);
                    let _ = v.fen(&next);
                }
            }
        }
    }

    #[test]
    fn random_games_keep_fen_and_moves_consistent(seed in 0u64..1_000_000) {
        for &v in variants().iter().filter(|v| in_case(**v, seed)) {
            let mut g = Game::new(v, None).unwrap();
            let mut x = seed;
            for _ in 0..40 {
                let legal = g.legal_moves().to_vec();
                if legal.is_empty() { break; }
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let m = legal[(x >> 33) as usize % legal.len()];
                let text = g.format(&m, Notation::Display);
                let played = g.play_text(&text).map_err(|e| TestCaseError::fail(format!("{}: {text}: {e}", v.id())))?;
                prop_assert_eq!(played.mv, m);
                let again = v.parse_fen(&g.fen()).map_err(|e| TestCaseError::fail(format!("{}: {e}", v.id())))?;
                prop_assert_eq!(v.fen(&again), g.fen());
            }
        }
    }

}

/// A move of `g` chosen by `x`: three times in four, when there is one, a
/// move back to a position the game has been in, so that repetition rules
/// come into play within a few dozen plies in every variant.
fn move_seeking_repetition(g: &Game, x: u64) -> Option<Move> {
    let legal = g.legal_moves();
    if legal.is_empty() {
        return None;
    }
    let v = g.variant();
    if !(x >> 13).is_multiple_of(4) {
        let seen: Vec<u64> = g.history().iter().map(|h| h.key).collect();
        let back: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| seen.contains(&v.repetition_key(&v.play(g.position(), m))))
            .collect();
        if !back.is_empty() {
            return Some(back[(x >> 33) as usize % back.len()]);
        }
    }
    Some(legal[(x >> 33) as usize % legal.len()])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, .. ProptestConfig::default() })]

    /// The server keeps a game as its FEN and history and restores it for
    /// every move, and may keep the game a move left in memory instead of
    /// restoring it: the two must be one game, in every variant and at
    /// every ply (same position, history, legal moves with the repetition
    /// rules applied, result, and the same next move written the same way).
    /// The moves seek repetitions, which random play seldom makes.
    #[test]
    fn a_game_restored_from_fen_and_history_is_the_game_played(seed in 0u64..1_000_000) {
        for &v in variants().iter().filter(|v| in_case(**v, seed)) {
            let mut g = Game::new(v, None).unwrap();
            let mut x = seed;
            let mut dropped_last = false;
            for _ in 0..60 {
                let r = Game::restore(v, &g.fen(), &g.history_string())
                    .map_err(|e| TestCaseError::fail(format!("{}: {e}", v.id())))?;
                prop_assert_eq!(r.fen(), g.fen());
                prop_assert_eq!(r.history_string(), g.history_string(), "{} at {}", v.id(), g.fen());
                prop_assert_eq!(r.legal_moves(), g.legal_moves(), "{} at {}", v.id(), g.fen());
                if dropped_last && g.outcome().is_some() && r.outcome() != g.outcome() {
                    // A known gap of the shogi family: a mate by a dropped
                    // pawn loses for the dropper (as Fairy-Stockfish scores
                    // it), which the engine remembers beside the position;
                    // no FEN says it, so a game restored just after such a
                    // mate scores a plain mate. (The server stores a
                    // game's result as the move is played.)
                    prop_assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::Checkmate));
                    prop_assert_eq!(r.outcome().map(|o| o.reason), Some(Reason::Checkmate));
                    break;
                }
                prop_assert_eq!(r.outcome(), g.outcome(), "{} at {}", v.id(), g.fen());
                if g.outcome().is_some() { break; }
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let Some(m) = move_seeking_repetition(&g, x) else { break };
                let mut r = r;
                dropped_last = m.kind == MoveKind::Drop;
                let (a, b) = (g.play(&m), r.play(&m));
                prop_assert_eq!(a.display, b.display);
                prop_assert_eq!(a.coordinate, b.coordinate);
                prop_assert_eq!(r.fen(), g.fen());
            }
        }
    }
}

/// The repetition rules as written, by scanning the whole history: the
/// legal moves and outcome a game must have (the game itself counts keys in
/// a table as they are played, so its cost does not grow with the game).
fn naive_repetition_legal(g: &Game) -> (Vec<Move>, bool) {
    use missive_rules::RepetitionRule;
    let v = g.variant();
    let h = g.history();
    let current = h.last().unwrap().key;
    let drawn = v.repetition_rule() == RepetitionRule::ThreefoldDraw
        && h.iter().filter(|e| e.key == current).count() >= 3;
    let legal = v
        .legal_moves(g.position())
        .into_iter()
        .filter(|m| {
            let key = v.repetition_key(&v.play(g.position(), m));
            let at: Vec<usize> = (0..h.len()).filter(|&i| h[i].key == key).collect();
            match v.repetition_rule() {
                RepetitionRule::AnyRepeatIllegal => at.is_empty(),
                RepetitionRule::ThirdIllegalUnlessChecked => {
                    at.len() < 2 || (at[0] + 1..h.len()).step_by(2).all(|j| h[j].checked)
                }
                _ => true,
            }
        })
        .collect();
    (legal, drawn)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    /// The counted repetition rules agree with the rules as written at every
    /// ply of games that seek repetitions, in every variant.
    #[test]
    fn counted_repetitions_agree_with_scanning_the_history(seed in 0u64..1_000_000) {
        for &v in variants().iter().filter(|v| in_case(**v, seed)) {
            let mut g = Game::new(v, None).unwrap();
            let mut x = seed;
            for _ in 0..80 {
                let (legal, drawn) = naive_repetition_legal(&g);
                if g.outcome().is_none() {
                    prop_assert!(!drawn, "{} at {}", v.id(), g.fen());
                    prop_assert_eq!(g.legal_moves(), &legal[..], "{} at {}", v.id(), g.fen());
                } else if drawn {
                    prop_assert_eq!(g.outcome().map(|o| o.reason), Some(missive_rules::Reason::Repetition));
                }
                if g.outcome().is_some() { break; }
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let Some(m) = move_seeking_repetition(&g, x) else { break };
                g.play(&m);
            }
        }
    }
}

mod records {
    use missive_rules::record::{
        check, parse_any, parse_gc_log, parse_pgn, write_gc_log, write_pgn, Export, RecordMove,
    };
    use missive_rules::{variant, variants, Game, Notation};

    /// A pseudo-random game of up to `plies` plies, with a comment on every
    /// third move; returns the game and its moves in coordinate form.
    fn random_game(
        v: &'static dyn missive_rules::Variant,
        seed: u64,
        plies: usize,
    ) -> (Game, Vec<RecordMove>) {
        let mut g = Game::new(v, None).unwrap();
        let mut x = seed;
        let mut moves = Vec::new();
        for i in 0..plies {
            let legal = g.legal_moves().to_vec();
            if legal.is_empty() {
                break;
            }
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = legal[(x >> 33) as usize % legal.len()];
            let text = g.format(&m, Notation::Coordinate);
            g.play(&m);
            moves.push(RecordMove {
                text,
                comment: (i % 3 == 0).then(|| format!("note {i} <b>&")),
                time: Some(format!("2026-11-23T10:{:02}:00Z", i % 60)),
            });
        }
        (g, moves)
    }

    #[test]
    fn pgn_and_log_round_trip_for_every_variant() {
        for &v in variants() {
            for seed in 1..=6u64 {
                let (game, moves) = random_game(v, seed, 80);
                let result = game
                    .outcome()
                    .map(|o| o.result_code().to_string())
                    .unwrap_or("*".into());
                let export = Export {
                    variant: v,
                    start_fen: None,
                    tags: vec![
                        ("White".into(), "alice".into()),
                        ("Black".into(), "bob \"the\" builder".into()),
                    ],
                    moves: moves.clone(),
                    result: result.clone(),
                };
                let pgn = write_pgn(&export);
                let rec = parse_pgn(&pgn)
                    .unwrap_or_else(|e| panic!("{}: {e}\n{pgn}", v.id()))
                    .remove(0);
                assert_eq!(rec.variant_id(), v.id());
                assert_eq!(rec.tag("Black"), Some("bob \"the\" builder"));
                let back =
                    check(&rec, variant).unwrap_or_else(|e| panic!("{}: {e}\n{pgn}", v.id()));
                assert_eq!(back.fen(), game.fen(), "{}", v.id());
                assert_eq!(back.ply(), moves.len());
                for (a, b) in rec.moves.iter().zip(&moves) {
                    assert_eq!(a.comment, b.comment);
                    assert_eq!(a.time, b.time);
                }
                assert_eq!(rec.result.as_deref(), Some(result.as_str()));

                let log = write_gc_log(&export);
                let rec = parse_gc_log(&log).unwrap();
                let back =
                    check(&rec, variant).unwrap_or_else(|e| panic!("{}: {e}\n{log}", v.id()));
                assert_eq!(back.fen(), game.fen(), "{}", v.id());
                assert_eq!(parse_any(&log).unwrap(), rec);
            }
        }
    }

    /// Tags and comments as players and directors may type them (a
    /// tournament's name, a move's `//` comment), hostile ones included:
    /// both formats still read back as the same game, tags whole in PGN,
    /// and the text as each format can carry it (PGN comments lose their
    /// braces, a log's lines their line breaks; both are trimmed).
    #[test]
    fn hostile_tags_and_comments_keep_the_game() {
        let v = variant("chess").unwrap();
        let hostile = [
            "a}b",
            "{x",
            "line\nbreak",
            "tab\there",
            "back\\slash",
            "quote\"q",
            "]",
            "[Event \"x\"]",
            ";semi",
            "// slashes",
            "1-0",
            "*",
            "  padded  ",
            "\r\n",
            "日本",
            "%escape",
            "$1",
            "(var)",
            "1. e4",
            "x\ry",
            "<b>&amp;</b>",
            "[%ts 2026-01-01T00:00:00Z]",
            "[%ts x] y",
            " [%ts padded]",
        ];
        let stamps = [None, Some("2026-11-23T10:00:00Z".to_string())];
        for (h, time) in hostile
            .into_iter()
            .flat_map(|h| stamps.iter().map(move |t| (h, t.clone())))
        {
            let export = Export {
                variant: v,
                start_fen: None,
                tags: vec![("Event".into(), h.into())],
                moves: ["e4", "e5", "Nf3", "Nc6"]
                    .iter()
                    .enumerate()
                    .map(|(i, t)| RecordMove {
                        text: t.to_string(),
                        comment: (i == 1).then(|| h.to_string()),
                        time: time.clone().filter(|_| i == 1),
                    })
                    .collect(),
                result: "*".into(),
            };
            let pgn = write_pgn(&export);
            let rec = parse_pgn(&pgn)
                .unwrap_or_else(|e| panic!("{h:?}: {e}\n{pgn}"))
                .remove(0);
            assert_eq!(check(&rec, variant).unwrap().ply(), 4, "{h:?}\n{pgn}");
            // PGN has no escape for a line break: it becomes a space, and
            // the tag stays on its line.
            let on_its_line: String = h
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            assert_eq!(rec.tag("Event"), Some(on_its_line.as_str()), "{pgn}");
            assert!(
                pgn.lines()
                    .any(|l| l.starts_with("[Event ") && l.ends_with("\"]")),
                "{pgn}"
            );
            let carried = h.replace(['{', '}'], "");
            let carried = Some(carried.trim()).filter(|c| !c.is_empty());
            assert_eq!(rec.moves[1].comment.as_deref(), carried, "{pgn}");
            assert_eq!(rec.moves[1].time, time, "{pgn}");

            let log = write_gc_log(&export);
            let rec = parse_gc_log(&log).unwrap_or_else(|e| panic!("{h:?}: {e}\n{log}"));
            assert_eq!(check(&rec, variant).unwrap().ply(), 4, "{h:?}\n{log}");
            let one_line = on_its_line;
            assert_eq!(rec.tag("Event"), Some(one_line.trim()), "{log}");
            let carried = Some(one_line.trim()).filter(|c| !c.is_empty());
            assert_eq!(rec.moves[1].comment.as_deref(), carried, "{log}");
        }
    }

    #[test]
    fn custom_start_and_black_first_numbering() {
        let v = variant("chess").unwrap();
        let fen = "4k3/8/8/8/8/8/4p3/4K3 b - - 0 30";
        let export = Export {
            variant: v,
            start_fen: Some(fen),
            tags: vec![],
            moves: vec![
                RecordMove {
                    text: "Kd7".into(),
                    ..Default::default()
                },
                RecordMove {
                    text: "Kxe2".into(),
                    ..Default::default()
                },
            ],
            result: "1/2-1/2".into(),
        };
        let pgn = write_pgn(&export);
        assert!(
            pgn.contains("[SetUp \"1\"]") && pgn.contains(&format!("[FEN \"{fen}\"]")),
            "{pgn}"
        );
        assert!(pgn.contains("30... Kd7 31. Kxe2 1/2-1/2"), "{pgn}");
        let rec = parse_pgn(&pgn).unwrap().remove(0);
        let g = check(&rec, variant).unwrap();
        assert_eq!(
            g.outcome().unwrap().reason,
            missive_rules::Reason::InsufficientMaterial
        );
    }

    #[test]
    fn check_reports_the_first_illegal_move_and_result_mismatch() {
        let rec = parse_pgn("1. e4 e5 2. Ke3 *").unwrap().remove(0);
        let err = check(&rec, variant).unwrap_err();
        assert!(err.to_string().starts_with("ply 3:"), "{err}");
        let rec = parse_pgn("1. f3 e5 2. g4 Qh4# 1-0").unwrap().remove(0);
        assert!(matches!(
            check(&rec, variant),
            Err(missive_rules::record::RecordError::ResultMismatch { .. })
        ));
        let rec = parse_pgn("[Variant \"nonesuch\"]\n1. e4 *")
            .unwrap()
            .remove(0);
        assert!(check(&rec, variant)
            .unwrap_err()
            .to_string()
            .contains("unknown variant"));
    }
}

#[test]
fn board_views_name_every_piece_with_a_symbol() {
    for &v in variants() {
        let view = Game::new(v, None).unwrap().board_view();
        for cell in &view.cells {
            if let missive_rules::Cell::Piece { label, .. } = cell {
                assert!(
                    !label.symbol.is_empty() && !label.name.is_empty() && !label.letter.is_empty(),
                    "{}",
                    v.id()
                );
            }
        }
    }
    // Leap Chess draws the letters its notation uses, not its FEN letters.
    let v = missive_rules::variant("leap-chess").unwrap();
    let view = Game::new(v, None).unwrap().board_view();
    let symbol = |file: u8, rank: u8| match view.cell(file, rank) {
        missive_rules::Cell::Piece { label, .. } => (label.letter.clone(), label.symbol.clone()),
        _ => panic!("empty"),
    };
    assert_eq!(symbol(2, 0), ("Q".into(), "S".into()));
    assert_eq!(symbol(0, 1), ("R".into(), "D".into()));
    assert_eq!(symbol(2, 1), ("B".into(), "A".into()));
}

/// The list a game page shows (`Game::legal_move_forms`) carries, for every
/// legal move in order, the display and coordinate forms each move is
/// written in on its own, and the move's squares; `move_views` adds Game
/// Courier's form to the same list.
#[test]
fn a_page_s_legal_move_forms_are_each_move_written_alone() {
    for &v in variants() {
        let mut g = Game::new(v, None).unwrap();
        for _ in 0..6 {
            let listed = g.legal_move_forms();
            let views = g.move_views();
            assert_eq!(listed.len(), g.legal_moves().len(), "{}", v.id());
            for ((m, l), mv) in g.legal_moves().iter().zip(&listed).zip(&views) {
                assert_eq!(l.display, g.format(m, Notation::Display), "{}", v.id());
                assert_eq!(l.coordinate, g.format(m, Notation::Coordinate));
                assert_eq!((l.from, l.to), v.move_squares(m));
                assert_eq!(mv.game_courier, g.format(m, Notation::GameCourier));
                assert_eq!((&mv.display, &mv.coordinate), (&l.display, &l.coordinate));
            }
            // The middle move keeps the games apart from one another.
            let Some(&m) = g.legal_moves().get(g.legal_moves().len() / 2) else {
                break;
            };
            g.play(&m);
        }
    }
}

/// In every variant, along games that seek repetitions (where a move the
/// repetition rule forbids could make a listed form ambiguous): each legal
/// move's listed forms read back through the game as that move, which is
/// written as listed; and a check or mate mark after any of a move's forms
/// is taken exactly when it is true.
#[test]
fn listed_forms_read_back_and_marks_are_held_to_the_truth() {
    let mut marked = [0usize; 2];
    for &v in variants() {
        let plus = v.plus_marks_check();
        for seed in 1..=4u64 {
            let mut g = Game::new(v, None).unwrap();
            let mut x = seed;
            for ply in 0..40 {
                if g.outcome().is_some() {
                    break;
                }
                let views = g.move_views();
                for (i, (m, view)) in g.legal_moves().iter().zip(&views).enumerate() {
                    for form in [&view.coordinate, &view.display, &view.game_courier] {
                        let read = g.parse_move(form).map(|(mv, _)| mv);
                        assert_eq!(read, Ok(*m), "{} {form} at {}", v.id(), g.fen());
                    }
                    assert_eq!(g.format(m, Notation::Display), view.display);
                    if (i + ply) % 5 != 0 {
                        continue;
                    }
                    let next = v.play(g.position(), m);
                    let check = v.in_check(&next);
                    let mate = check && v.legal_moves(&next).is_empty();
                    let bare = if plus {
                        view.display.trim_end_matches(['+', '#'])
                    } else {
                        view.display.trim_end_matches('#')
                    };
                    for form in [view.coordinate.as_str(), bare, view.game_courier.as_str()] {
                        if plus {
                            let text = format!("{form}+");
                            assert_eq!(g.parse_move(&text).is_ok(), check, "{} {text}", v.id());
                        }
                        let text = format!("{form}#");
                        assert_eq!(g.parse_move(&text).is_ok(), mate, "{} {text}", v.id());
                    }
                    marked[usize::from(check)] += 1;
                }
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let Some(m) = move_seeking_repetition(&g, x) else {
                    break;
                };
                g.play(&m);
            }
        }
    }
    assert!(marked[0] > 1000 && marked[1] > 20, "{marked:?}");
}
