//! Every variant played from a Fairy-Stockfish definition against
//! Fairy-Stockfish itself (PyPI `pyffish==0.0.90`, installed by `.ci/run`,
//! driven by `tools/fsf_variants.py`): perft from the start (depth 3) and
//! from 10 positions reached by random play (`MISSIVE_FSF_POSITIONS=20`
//! for 20: the first 10 are the same), the legal moves at each, their
//! SAN as `pyffish.get_san` writes it, and that SAN read back to the same
//! move. Any difference fails.
//!
//! The random positions are counted to depth 2 unless
//! `MISSIVE_FSF_DEPTH=3` is set: pyffish answers one position per call,
//! some milliseconds each on a busy machine, and depth 3 from 20
//! positions costs minutes per variant. (20 positions at depth 2 took 25
//! minutes of CI's time on a busy 2-core machine; 10 take about half.)

use missive_rules::{definition_variants, perft, Notation, Variant};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};

/// How many random positions the driver plays to (it reads the same
/// variable).
fn positions() -> usize {
    std::env::var("MISSIVE_FSF_POSITIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10)
}

struct Reference {
    fen: String,
    depth: u32,
    perft: u64,
    /// UCI -> SAN.
    moves: BTreeMap<String, String>,
    /// UCI -> the family's own notation (xiangqi's WXF), where asked for.
    family: BTreeMap<String, String>,
}

fn reference(names: &[&str]) -> BTreeMap<String, Vec<Reference>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let depth = std::env::var("MISSIVE_FSF_DEPTH").unwrap_or_else(|_| "2".into());
    // One driver per core, each with its share of the variants: pyffish
    // answers one position per call and is most of this test's time.
    let jobs = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(names.len());
    let children: Vec<_> = (0..jobs)
        .map(|j| {
            Command::new("python3")
                .arg(root.join("tools/fsf_variants.py"))
                .args(["--depth", &depth])
                .args(names.iter().skip(j).step_by(jobs))
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("python3 runs")
        })
        .collect();
    let mut text = String::new();
    for child in children {
        let out = child.wait_with_output().expect("the driver ends");
        assert!(
            out.status.success(),
            "tools/fsf_variants.py failed (is pyffish==0.0.90 installed? .ci/run installs it): {}",
            String::from_utf8_lossy(&out.stderr)
        );
        text.push_str(&String::from_utf8(out.stdout).expect("utf-8"));
    }
    let mut refs: BTreeMap<String, Vec<Reference>> = BTreeMap::new();
    let mut current = String::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f[0] {
            "V" => current = f[1].to_string(),
            "P" => refs.entry(current.clone()).or_default().push(Reference {
                fen: f[1].to_string(),
                depth: f[2].parse().expect("depth"),
                perft: f[3].parse().expect("count"),
                moves: BTreeMap::new(),
                family: BTreeMap::new(),
            }),
            "M" => {
                let r = refs
                    .get_mut(&current)
                    .and_then(|v| v.last_mut())
                    .expect("a position first");
                r.moves.insert(f[1].to_string(), f[2].to_string());
                if let Some(w) = f.get(3) {
                    r.family.insert(f[1].to_string(), w.to_string());
                }
            }
            other => panic!("unexpected line kind {other}"),
        }
    }
    refs
}

fn compare(v: &dyn Variant, refs: &[Reference]) -> Vec<String> {
    let mut diffs = Vec::new();
    for r in refs {
        let pos = match v.parse_fen(&r.fen) {
            Ok(p) => p,
            Err(e) => {
                diffs.push(format!("{}: cannot read {}: {e}", v.id(), r.fen));
                continue;
            }
        };
        let legal = v.legal_moves(&pos);
        let ours: BTreeMap<String, String> = legal
            .iter()
            .map(|m| {
                (
                    v.format_move_among(&pos, &legal, m, Notation::Coordinate),
                    v.format_move_among(&pos, &legal, m, Notation::Display),
                )
            })
            .collect();
        if ours != r.moves {
            let only_ours: Vec<_> = ours
                .iter()
                .filter(|(k, s)| r.moves.get(*k) != Some(s))
                .collect();
            let only_theirs: Vec<_> = r
                .moves
                .iter()
                .filter(|(k, s)| ours.get(*k) != Some(s))
                .collect();
            diffs.push(format!(
                "{} at {}: moves differ; only ours {only_ours:?}; only Fairy-Stockfish's {only_theirs:?}",
                v.id(),
                r.fen
            ));
            continue;
        }
        let family: BTreeMap<String, String> = legal
            .iter()
            .filter_map(|m| {
                v.format_move_family(&pos, m).map(|w| {
                    (
                        v.format_move_among(&pos, &legal, m, Notation::Coordinate),
                        w,
                    )
                })
            })
            .collect();
        if family != r.family {
            let differ: Vec<_> = family
                .iter()
                .filter(|(k, w)| r.family.get(*k) != Some(w))
                .map(|(k, w)| (k, w, r.family.get(k)))
                .collect();
            diffs.push(format!(
                "{} at {}: family notation differs (uci, ours, Fairy-Stockfish's): {differ:?}",
                v.id(),
                r.fen
            ));
        }
        for m in &legal {
            if let Some(w) = v.format_move_family(&pos, m) {
                // WXF writes a manchu banner's rook and knight moves alike
                // at times (as Fairy-Stockfish does): those read as ambiguous.
                let alike = family.values().filter(|o| **o == w).count();
                match v.parse_move(&pos, &legal, &w) {
                    Ok(back) if back == *m => {}
                    Err(missive_rules::MoveError::Ambiguous { .. }) if alike > 1 => {}
                    other => diffs.push(format!(
                        "{} at {}: {w} reads back as {other:?}",
                        v.id(),
                        r.fen
                    )),
                }
            }
            let san = v.format_move_among(&pos, &legal, m, Notation::Display);
            match v.parse_move(&pos, &legal, &san) {
                Ok(back) if back == *m => {}
                other => diffs.push(format!(
                    "{} at {}: {san} reads back as {other:?}",
                    v.id(),
                    r.fen
                )),
            }
        }
        let n = perft::perft(v, &pos, r.depth);
        if n != r.perft {
            diffs.push(format!(
                "{} at {}: perft {} is {n}, Fairy-Stockfish's {}",
                v.id(),
                r.fen,
                r.depth,
                r.perft
            ));
        }
    }
    diffs
}

#[test]
fn every_definition_variant_plays_as_fairy_stockfish() {
    // MISSIVE_FSF_ONLY=a,b narrows the run to some variants while working on them.
    let only = std::env::var("MISSIVE_FSF_ONLY").ok();
    let variants: Vec<&dyn Variant> = definition_variants()
        .iter()
        .copied()
        .filter(|v| {
            only.as_deref()
                .is_none_or(|o| o.split(',').any(|n| n == v.id()))
        })
        .collect();
    assert!(!variants.is_empty());
    // A variant with a notation of its own (xiangqi's WXF, janggi's) asks
    // the driver for it too.
    let names: Vec<String> = variants
        .iter()
        .map(|v| match v.family_notation() {
            Some(n) => format!("{}:{}", v.id(), n.to_lowercase()),
            None => v.id().to_string(),
        })
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let refs = reference(&names);
    let mut diffs = Vec::new();
    for v in &variants {
        let r = refs
            .get(v.id())
            .unwrap_or_else(|| panic!("no reference for {}", v.id()));
        let count = positions();
        assert_eq!(
            r.len(),
            count + 1,
            "{}: start and {count} random positions",
            v.id()
        );
        diffs.extend(compare(*v, r));
    }
    assert!(
        diffs.is_empty(),
        "{} differences:\n{}",
        diffs.len(),
        diffs.join("\n")
    );
}

/// Makruk's and ASEAN chess's counting rules against Fairy-Stockfish
/// (`tools/fsf_counting.py`): from endgames where a count starts (a side
/// bared, the last pawn taken, the board's honour), seeded random games,
/// each ply's FEN as Fairy-Stockfish writes it (the count in place of the
/// en passant square and the clock), and the draw when the count runs
/// out. Random play from the start never reaches a count.
#[test]
fn counting_rules_count_as_fairy_stockfish() {
    let starts = [
        // A rook against a bare king: 16 moves, counted from the pieces.
        "makruk:8/8/4k3/8/8/8/3RK3/8 w - - 0 1",
        // Two khons (22), two knights (32), a khon and a met (44).
        "makruk:8/8/4k3/8/8/2S5/3SK3/8 w - - 0 1",
        "makruk:8/8/4k3/8/8/2N5/3NK3/8 b - - 0 1",
        "makruk:8/8/3k4/8/8/2S5/4K3/4M3 w - - 0 1",
        // The board's honour (64, both sides with pieces), then a side
        // bared by captures.
        "makruk:8/8/3mk3/8/8/8/3MK3/8 w - - 0 1",
        "makruk:8/2n5/3mk3/8/8/8/3MKR2/8 w - - 0 1",
        // A bare king takes the last pawn.
        "makruk:8/8/8/8/3k4/3P4/8/R3K3 b - - 0 1",
        // A pawn promotes, a count already running in the FEN.
        "makruk:8/8/3k4/8/8/1p6/8/R3K3 b - 32 10 40",
        "makpong:8/8/4k3/8/8/8/3RK3/8 w - - 0 1",
        "ai-wok:8/8/4k3/8/8/8/3AK3/8 w - - 0 1",
        // ASEAN: only a bare king counts; rook 16, khon 44, knight 64.
        "asean:8/8/4k3/8/8/8/3RK3/8 w - - 0 1",
        "asean:8/8/4k3/8/8/3B4/4K3/8 w - - 0 1",
        "asean:8/8/4k3/8/8/3N4/4K3/8 b - - 0 1",
        "asean:8/8/3qk3/8/8/8/3QK3/8 w - - 0 1",
        "asean:8/8/8/8/3k4/3P4/8/R3K3 b - - 0 1",
    ];
    let (plies, run_out) = games_as_fairy_stockfish(&starts);
    // The games must reach counts that run out, or the test shows little.
    assert!(
        plies > 1000 && run_out >= 20,
        "{plies} plies, {run_out} counts run out"
    );
}

/// Placement chess against Fairy-Stockfish, FEN by FEN: drops only while
/// pieces are in hand, bishops on both colours, and castling rights for
/// a king dropped on e1 with rooks in the corners.
#[test]
fn placement_drops_as_fairy_stockfish() {
    let starts = [
        "placement:8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1",
        "placement:1nb2bn1/pppppppp/8/8/8/8/PPPPPPPP/1NB2BN1[KQRRkqrr] w - - 0 1",
        "placement:8/pppppppp/8/8/8/8/PPPPPPPP/8[BBbb] w - - 0 1",
    ];
    let (plies, _) = games_as_fairy_stockfish(&starts);
    assert!(plies > 100, "{plies} plies");
}

/// Grand chess's promotion limits (a pawn promotes only to a piece of
/// which fewer than one queen, archbishop or chancellor, or two of the
/// others, stand on the board) against Fairy-Stockfish, from positions
/// with pawns about to promote, which play from the start seldom reaches.
#[test]
fn promotion_limits_as_fairy_stockfish() {
    let starts = [
        "grand@4k5/1P5P2/10/10/10/10/10/10/6p3/R3K4R w - - 0 1",
        "grand@4k5/1P5P2/10/10/10/10/10/QA6C1/6p3/R3K4R w - - 0 1",
        "opulent@4k5/1P5P2/10/10/10/10/10/QA2WW2C1/6p3/R3K4R w - - 0 1",
    ];
    let refs = reference(&starts);
    let promotions = refs
        .values()
        .flatten()
        .flat_map(|p| p.moves.keys())
        .filter(|uci| uci.len() > 4 && uci.ends_with(|c: char| c.is_ascii_alphabetic()))
        .count();
    assert_same(&refs);
    assert!(promotions > 20, "only {promotions} promotions compared");
}

/// `compare` for every variant of `refs`; fails on any difference.
fn assert_same(refs: &BTreeMap<String, Vec<Reference>>) {
    let mut diffs = Vec::new();
    for (id, r) in refs {
        let v = missive_rules::definition_variant(id).expect("registered");
        diffs.extend(compare(v, r));
    }
    assert!(
        diffs.is_empty(),
        "{} differences:\n{}",
        diffs.len(),
        diffs.join("\n")
    );
}

/// Atomic chess's blast against Fairy-Stockfish where play from the start
/// seldom goes: kings touching (neither can take the other, so neither is
/// in check from the rest), castling past attacked squares, captures
/// beside kings and rooks that still have castling rights.
#[test]
fn atomic_blasts_as_fairy_stockfish() {
    let starts = [
        "atomic@8/8/8/3kK3/8/8/8/4q3 w - - 0 1",
        "atomic@8/8/8/3kK3/8/8/2Q5/4q3 b - - 0 1",
        "atomic@5r2/8/8/3k4/8/8/8/R3K2R w KQ - 0 1",
        "atomic@r3k2r/pppq1ppp/2n5/3pp3/3PP3/2N5/PPPQ1PPP/R3K2R w KQkq - 0 1",
        "nocheckatomic@r3k2r/pppq1ppp/2n5/3pp3/3PP3/2N5/PPPQ1PPP/R3K2R w KQkq - 0 1",
        "nocheckatomic@8/8/8/3kK3/8/8/8/4q3 w - - 0 1",
        "atomar@8/8/8/3kK3/8/8/8/4q3 w - - 0 1",
        "atomar@r3k2r/pppq1ppp/2n5/3pp3/3PP3/2N5/PPPQ1PPP/R3K2R w KQkq - 0 1",
    ];
    assert_same(&reference(&starts));
}

/// Janggi against Fairy-Stockfish where play from the start seldom goes:
/// kings facing (bikjang: part them or pass; facing twice running ends
/// the game), chariots and cannons on the palace diagonals, a cannon
/// that may not use another cannon as its screen.
#[test]
fn janggi_palaces_and_bikjang_as_fairy_stockfish() {
    let starts = [
        "janggi:janggi@9/3aka3/9/9/9/9/9/9/3AKA3/R8 w - - 0 1",
        "janggi:janggi@4k4/4a4/3R5/9/9/9/9/9/3CA4/4K4 b - - 0 1",
        "janggi:janggi@3k5/4a4/9/9/9/9/2c1C4/9/4P4/3CK4 w - - 0 1",
        "janggitraditional:janggi@9/3aka3/9/9/9/9/9/9/3AKA3/R8 b - - 0 1",
        "janggicasual:janggi@r3k4/9/4c4/9/4p4/9/4C4/3R5/4A4/4K4 w - - 0 1",
    ];
    assert_same(&reference(&starts));
}

/// Loop chess and chessgi against Fairy-Stockfish where a promoted piece
/// is taken: it goes to hand as what it became, not as a pawn (crazyhouse
/// compared beside them).
#[test]
fn loop_chess_keeps_promoted_pieces_as_fairy_stockfish() {
    let starts = [
        "loop@q~3k3/8/8/8/8/8/8/R3K3[] w - - 0 1",
        "chessgi@q~3k3/8/8/8/8/8/8/R3K3[] w - - 0 1",
        "crazyhouse@q~3k3/8/8/8/8/8/8/R3K3[] w - - 0 1",
        "loop@r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R[] w KQkq - 0 1",
        "chessgi@r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R[] b KQkq - 0 1",
    ];
    assert_same(&reference(&starts));
}

/// Chess960 and Capablanca random chess against Fairy-Stockfish from
/// shuffled starts: castling with the king beside, between or on its
/// destination, rooks that start on the king's destination, and the
/// castling field by files.
#[test]
fn chess960_castles_as_fairy_stockfish() {
    let starts = [
        "fischerandom@1qnbrkr1/pppppppp/8/8/8/8/PPPPPPPP/1QNBRKR1 w GEge - 0 1",
        "fischerandom@bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
        "fischerandom@rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w GAga - 0 1",
        "fischerandom@1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR b HBhb - 0 1",
        "fischerandom@r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
        "caparandom@r1k6r/pppppppppp/10/10/10/10/PPPPPPPPPP/R1K6R w JAja - 0 1",
        "caparandom@1r3k2r1/pppppppppp/10/10/10/10/PPPPPPPPPP/1R3K2R1 w IBib - 0 1",
    ];
    assert_same(&reference(&starts));
}

/// Seeded random games from `starts` (`variant:FEN`) in both engines
/// (`tools/fsf_counting.py`): every ply's FEN compared, and a count run
/// out (makruk's) a draw in both; the plies played and counts run out.
fn games_as_fairy_stockfish(starts: &[&str]) -> (usize, usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = Command::new("python3")
        .arg(root.join("tools/fsf_counting.py"))
        .arg("3")
        .args(starts)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "tools/fsf_counting.py failed (is pyffish==0.0.90 installed? .ci/run installs it): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let mut diffs = Vec::new();
    let (mut plies, mut run_out) = (0, 0);
    let mut game: Option<(&dyn Variant, missive_rules::Position)> = None;
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f[0] {
            "G" => {
                let v = missive_rules::definition_variant(f[1]).expect("registered");
                let pos = v.parse_fen(f[2]).expect("the start reads");
                assert_eq!(v.fen(&pos), f[2], "{} writes its start back", f[1]);
                game = Some((v, pos));
            }
            "F" => {
                let Some((v, pos)) = game.as_mut() else {
                    panic!("a ply before its game")
                };
                let legal = v.legal_moves(pos);
                let Some(m) = legal
                    .iter()
                    .find(|m| v.format_move_among(pos, &legal, m, Notation::Coordinate) == f[1])
                else {
                    diffs.push(format!(
                        "{}: {} is not legal at {}",
                        v.id(),
                        f[1],
                        v.fen(pos)
                    ));
                    game = None;
                    continue;
                };
                *pos = v.play(pos, m);
                plies += 1;
                let fen = v.fen(pos);
                if fen != f[2] {
                    diffs.push(format!(
                        "{} after {}: {fen}, Fairy-Stockfish's {}",
                        v.id(),
                        f[1],
                        f[2]
                    ));
                }
                let legal = v.legal_moves(pos);
                let drawn = v.outcome(pos, &legal).is_some_and(|o| {
                    o.winner.is_none() && o.reason == missive_rules::Reason::MoveCountRule
                });
                let fields: Vec<&str> = f[2].split(' ').collect();
                let counted_out = fields[3]
                    .parse::<u32>()
                    .ok()
                    .is_some_and(|limit| fields[4].parse::<u32>().is_ok_and(|ply| ply > limit));
                run_out += usize::from(counted_out);
                // Fairy-Stockfish's optional end is also a repetition,
                // which the server judges, not the rules' outcome.
                if (counted_out && !drawn) || (drawn && f[3] != "1") {
                    diffs.push(format!(
                        "{} at {}: drawn by the count {drawn}, Fairy-Stockfish's count run out {counted_out}, its optional end {}",
                        v.id(),
                        f[2],
                        f[3]
                    ));
                }
            }
            other => panic!("unexpected line kind {other}"),
        }
    }
    assert!(
        diffs.is_empty(),
        "{} differences:\n{}",
        diffs.len(),
        diffs.join("\n")
    );
    (plies, run_out)
}
