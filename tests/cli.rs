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
    assert!(out.lines().any(|l| l == "leaperhouse\tLeaperhouse\t10x10"));
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
