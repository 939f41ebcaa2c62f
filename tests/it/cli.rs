//! The command line's output formats are contracts: check them.

use std::process::Command;

fn missive(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_missive"))
        .args(args)
        .output()
        .expect("run missive");
    (
        out.status.success(),
        String::from_utf8(out.stdout).expect("utf-8 output"),
    )
}

#[test]
fn perft_prints_the_total_alone_on_the_last_line() {
    let (ok, out) = missive(&["perft", "chess", "3"]);
    assert!(ok);
    assert_eq!(out.trim_end().lines().last(), Some("8902"));
}

#[test]
fn perft_divide_prints_move_count_lines_then_the_total() {
    let (ok, out) = missive(&[
        "perft",
        "chess",
        "2",
        "--divide",
        "--fen",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ]);
    assert!(ok);
    let lines: Vec<&str> = out.trim_end().lines().collect();
    assert_eq!(lines.len(), 49);
    assert_eq!(lines[48], "2039");
    let mut sum = 0;
    for l in &lines[..48] {
        let (mv, n) = l.split_once(' ').unwrap();
        assert!(mv.len() == 4 || mv.len() == 5, "{l}");
        sum += n.parse::<u64>().unwrap();
    }
    assert_eq!(sum, 2039);
    assert!(lines.contains(&"e1g1 43"), "castling in coordinate form");
}

#[test]
fn perft_divide_for_every_variant_sums_to_the_total() {
    let (_, list) = missive(&["variants"]);
    for line in list.lines() {
        let id = line.split('\t').next().unwrap();
        let (ok, out) = missive(&["perft", id, "2", "--divide"]);
        assert!(ok, "{id}");
        let lines: Vec<&str> = out.trim_end().lines().collect();
        let total: u64 = lines.last().unwrap().parse().unwrap();
        let sum: u64 = lines[..lines.len() - 1]
            .iter()
            .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
            .sum();
        assert_eq!(sum, total, "{id}");
    }
}

#[test]
fn variants_lists_id_name_and_size() {
    let (ok, out) = missive(&["variants"]);
    assert!(ok);
    let ids: Vec<&str> = out.lines().map(|l| l.split('\t').next().unwrap()).collect();
    for id in [
        "chess",
        "leaperhouse",
        "leap-chess",
        "leap-chess-multi",
        "leap-chess-optional",
        "leap-chess-64",
        "lionized-chess",
        "fleap",
        "maohopper",
    ] {
        assert!(ids.contains(&id), "{id} missing from {out}");
    }
    // id, name, size, family (issue 61).
    assert!(out
        .lines()
        .any(|l| l == "leaperhouse\tLeaperhouse\t10x10\tgame-courier"));
    assert!(out
        .lines()
        .any(|l| l.starts_with("shogi\t") && l.ends_with("\t9x9\tshogi")));
    assert!(out
        .lines()
        .any(|l| l.starts_with("xiangqi\t") && l.ends_with("\t9x10\txiangqi")));
}

#[test]
fn bad_perft_input_is_an_error_not_a_panic() {
    for args in [
        &["perft", "nonesuch", "2"][..],
        &["perft", "chess", "2", "--fen", "garbage"][..],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_missive"))
            .args(args)
            .output()
            .unwrap();
        assert!(!out.status.success());
        assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    }
}

#[test]
fn record_check_reports_the_first_illegal_ply() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.pgn");
    std::fs::write(&bad, "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n").unwrap();
    let (ok, out) = missive(&["record", "check", bad.to_str().unwrap()]);
    assert!(!ok);
    assert!(out.contains("ply 3") && out.contains("Ke3"), "{out}");
    let good = dir.path().join("good.txt");
    std::fs::write(
        &good,
        "// Variant: chess\n1. P f2-f3\n1... p e7-e5\n2. P g2-g4\n2... q d8-h4 // mate\n0-1\n",
    )
    .unwrap();
    let (ok, out) = missive(&["record", "check", good.to_str().unwrap()]);
    assert!(ok, "{out}");
    assert!(out.contains("ok") && out.contains("checkmate"), "{out}");
}

#[test]
fn position_plays_moves_and_lists_legal_ones() {
    let (ok, out) = missive(&["position", "chess", "f3", "e5", "g4", "Qh4#"]);
    assert!(ok);
    assert!(out.contains("outcome 0-1 Black wins by checkmate"), "{out}");
    let (ok, out) = missive(&["position", "chess"]);
    assert!(ok);
    assert_eq!(out.lines().filter(|l| l.starts_with("move ")).count(), 20);
}

/// Issue 66: the outcome names the variant's sides, as `to-move` does
/// (Leap Chess's Red, not White).
#[test]
fn position_outcome_uses_the_variants_side_names() {
    let fen = "*2k1*/6/6/6/p5/6/2B3/*2K1* w - - 0 1";
    let (ok, out) = missive(&["position", "leap-chess", "--fen", fen]);
    assert!(ok && out.contains("to-move Red"), "{out}");
    let (ok, out) = missive(&["position", "leap-chess", "--fen", fen, "Axa4"]);
    assert!(ok);
    assert!(out.contains("outcome 1-0 Red wins by bare king"), "{out}");
    assert!(!out.contains("White"), "{out}");
}

/// Standard error of a failing run with `RUST_BACKTRACE=1`.
fn failing(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_missive"))
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .output()
        .expect("run missive");
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(out.stdout.is_empty(), "{args:?}");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(
        !err.contains("backtrace") && !err.contains("panicked") && !err.contains("Stack"),
        "{args:?}: {err}"
    );
    err
}

/// A depth past the variant's documented maximum is refused at once,
/// naming the maximum, instead of running for days.
#[test]
fn perft_refuses_a_depth_past_the_variants_maximum() {
    for (id, max) in [
        ("lionized-chess", 5),
        ("chess", 8),
        ("leaperhouse", 6),
        ("maohopper", 5),
    ] {
        let deeper = (max + 1).to_string();
        let err = failing(&["perft", id, &deeper]);
        assert!(
            err.contains("too deep") && err.contains(&format!("at most {max}")),
            "{id}: {err}"
        );
    }
    let err = failing(&["perft", "lionized-chess", "100"]);
    assert!(err.contains("at most 5"), "{err}");
    let err = failing(&["perft", "chess", "99999999999"]);
    assert!(err.contains("too large"), "{err}");
}

/// Issue 60: the budget holds whatever the FEN. From a 218-move position
/// depth 8 was accepted (days of work); it is refused at once, naming the
/// deepest depth accepted from there, and a count that runs past
/// `--max-secs` stops with a message.
#[test]
fn perft_has_a_budget_whatever_the_fen() {
    let fen = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1";
    let (ok, out) = missive(&["perft", "chess", "1", "--fen", fen]);
    assert!(ok && out.trim() == "218", "{out}");
    for depth in ["8", "5"] {
        let started = std::time::Instant::now();
        let err = failing(&["perft", "chess", depth, "--fen", fen]);
        assert!(
            err.contains("more than the budget") && err.contains("at most depth 4"),
            "{err}"
        );
        assert!(started.elapsed().as_secs() < 30, "refused at once");
    }
    // Within the estimate but far more than a second's work (3.2e9 nodes).
    let err = failing(&["perft", "chess", "7", "--max-secs", "1"]);
    assert!(err.contains("stopped after 1 s"), "{err}");
}

/// Depth 0 is the position alone: 1, and no moves to divide.
#[test]
fn perft_depth_zero_is_one_with_or_without_divide() {
    for id in ["fleap", "chess", "leaperhouse"] {
        let (ok, plain) = missive(&["perft", id, "0"]);
        assert!(ok);
        let (ok, divided) = missive(&["perft", id, "0", "--divide"]);
        assert!(ok);
        assert_eq!(plain, "1\n", "{id}");
        assert_eq!(divided, plain, "{id}");
    }
}

/// A counter that does not fit says "too large", not "not a number"; a
/// user's mistakes print one line and no backtrace.
#[test]
fn user_mistakes_are_one_line_without_a_backtrace() {
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999 1";
    let err = failing(&["perft", "chess", "1", "--fen", fen]);
    assert!(
        err.contains("too large") && err.contains("99999999999"),
        "{err}"
    );
    let err = failing(&["perft", "chess", "1", "--fen", "rnbqkbnr w - - x 1"]);
    assert_eq!(err.lines().count(), 1, "{err}");
    for args in [
        &["perft", "nonesuch", "2"][..],
        &["position", "chess", "e4", "Ke3"][..],
        &["record", "check", "/nonexistent/file.pgn"][..],
    ] {
        let err = failing(args);
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

/// Leaperhouse as Fairy-Stockfish writes it: a drop resets the halfmove
/// clock, and `+` on a move that cannot promote is refused.
#[test]
fn leaperhouse_drops_and_promotion_marks_as_fairy_stockfish() {
    let fen = "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECNU[N] w - - 5 3";
    let (ok, out) = missive(&["position", "leaperhouse", "--fen", fen, "N@e5"]);
    assert!(ok, "{out}");
    let line = out.lines().next().unwrap();
    assert!(line.ends_with(" b - - 0 3"), "{line}");
    let err = failing(&["position", "leaperhouse", "--fen", fen, "e3e4+"]);
    assert!(err.contains("promot"), "{err}");
    let (ok, out) = missive(&["position", "leaperhouse", "--fen", fen, "e3e4"]);
    assert!(ok, "{out}");
}

/// Issue 63: `missive swiss pair FILE` prints bbpPairings' `-p` format (pairs, then
/// `WHITE BLACK`, a bye as `NUMBER 0`) for a TRF16 file with XXR/XXC.
#[test]
fn swiss_pair_prints_the_next_round_as_pairing_programs_do() {
    let dir = std::env::temp_dir().join(format!("missive-swiss-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let line = |n: u32, rating: u32, points: &str, rounds: &str| {
        let fixed = format!(
            "001 {n:>4}      {:<33} {rating:>4}{:27}{points:>4} {n:>4}",
            format!("Player {n}"),
            ""
        );
        format!("{fixed:<91}{rounds}\n")
    };
    // Round 1: 1 (white) beat 3, 4 (white) beat 2, 5 had the bye.
    let trf = format!(
        "012 Club\nXXR 3\nXXC white1\n{}{}{}{}{}",
        line(1, 2200, "1.0", "   3 w 1"),
        line(2, 2100, "0.0", "   4 b 0"),
        line(3, 2000, "0.0", "   1 b 0"),
        line(4, 1900, "1.0", "   2 w 1"),
        line(5, 1800, "1.0", "0000 - U"),
    );
    let file = dir.join("club.trf");
    std::fs::write(&file, &trf).unwrap();
    let (ok, out) = missive(&["swiss", "pair", file.to_str().unwrap()]);
    assert!(ok, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "3");
    assert_eq!(lines.len(), 4);
    let mut seen: Vec<u32> = Vec::new();
    let mut byes = 0;
    for l in &lines[1..] {
        let v: Vec<u32> = l.split(' ').map(|x| x.parse().unwrap()).collect();
        assert_eq!(v.len(), 2, "{l}");
        if v[1] == 0 {
            byes += 1;
            assert_ne!(v[0], 5, "no second bye");
        }
        seen.extend(v.into_iter().filter(|&x| x != 0));
    }
    seen.sort_unstable();
    assert_eq!((seen, byes), (vec![1, 2, 3, 4, 5], 1));
    // No pairing repeated.
    for repeat in ["1 3", "3 1", "2 4", "4 2"] {
        assert!(!lines.contains(&repeat), "{out}");
    }

    // Malformed files: one line, its number, no panic.
    for (text, needle) in [
        (
            format!("012 X\n{}", line(1, 2200, "1.0", "   3 q 1")),
            "line 2",
        ),
        ("012 X\nXXR lots\n".to_string(), "line 2"),
        (format!("012 X\n\n{}", line(1, 2200, "x.5", "")), "line 3"),
        (
            format!("012 X\n{}", line(1, 2200, "1.0", "   9 w 1")),
            "line 2",
        ),
    ] {
        std::fs::write(&file, text).unwrap();
        let err = failing(&["swiss", "pair", file.to_str().unwrap()]);
        assert!(err.contains(needle), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let err = failing(&["swiss", "pair", dir.join("absent.trf").to_str().unwrap()]);
    assert!(err.contains("absent.trf"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dev_populate_says_what_it_made_how_long_it_took_and_how_large() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("populated.db");
    let out = Command::new(env!("CARGO_BIN_EXE_missive"))
        .args(["dev", "populate", "--players", "30", "--games", "300"])
        .args(["--tournaments", "2", "--seed", "5"])
        .env("DATABASE_URL", &db)
        .output()
        .expect("run missive");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains(": 30 players, 300 games ("), "{text}");
    assert!(text.contains(" s (") && text.ends_with(" MB\n"), "{text}");
    // Fewer than two players cannot play: one line, no panic.
    let out = Command::new(env!("CARGO_BIN_EXE_missive"))
        .args(["dev", "populate", "--players", "1", "--games", "10"])
        .env("DATABASE_URL", &db)
        .output()
        .expect("run missive");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: --players must be at least 2"),
        "{err}"
    );
}
