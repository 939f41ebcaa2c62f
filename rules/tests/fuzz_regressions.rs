//! Inputs the fuzzers found (`rules/tests/fuzz-regressions/<target>/`) and
//! their seeds (`fuzz/seeds/<target>/`), replayed through the fuzz targets'
//! own checks (`fuzz/src/lib.rs`), without libFuzzer.

#[path = "../../fuzz/src/lib.rs"]
mod checks;

use missive_rules::record::{write_gc_log, write_pgn, Export, RecordMove};
use missive_rules::{variants, Game, Notation};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// A fuzz target's check: it panics on a failure.
type Check = fn(&[u8]);

const TARGETS: [(&str, Check); 4] = [
    ("move_parser", checks::move_parser),
    ("fen_parser", checks::fen_parser),
    ("parse_then_play", checks::parse_then_play),
    ("record_reader", checks::record_reader),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    out.retain(|p| p.is_file());
    out.sort();
    out
}

/// Replay every saved input of every target; report all failures at once.
fn replay(base: &Path) -> usize {
    let mut failures = Vec::new();
    let mut count = 0;
    for (target, check) in TARGETS {
        for file in files(&base.join(target)) {
            let data = std::fs::read(&file).unwrap();
            count += 1;
            if let Err(e) = catch_unwind(AssertUnwindSafe(|| check(&data))) {
                let msg = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                failures.push(format!("{}: {msg}", file.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    count
}

/// Crashes found by fuzzing stay fixed, and the seeds pass.
#[test]
fn saved_fuzz_inputs_pass_the_fuzz_checks() {
    let seeds = replay(&root().join("fuzz/seeds"));
    assert!(
        seeds >= variants().len() * TARGETS.len(),
        "only {seeds} seeds in fuzz/seeds"
    );
    replay(&root().join("rules/tests/fuzz-regressions"));
}

/// Writes the seed corpus (a start FEN, a few moves in every notation and a
/// short random game per variant):
/// `cargo test -p missive-rules --test fuzz_regressions -- --ignored write_seeds`.
#[test]
#[ignore]
fn write_seeds() {
    let dir = root().join("fuzz/seeds");
    for (t, _) in TARGETS {
        std::fs::create_dir_all(dir.join(t)).unwrap();
    }
    for (i, &v) in variants().iter().enumerate() {
        let byte = i as u8;
        let with = |rest: &[u8]| [&[byte][..], rest].concat();
        let write = |target: &str, name: &str, data: Vec<u8>| {
            std::fs::write(dir.join(target).join(format!("{}-{name}", v.id())), data).unwrap();
        };
        write("fen_parser", "start", with(v.start_fen().as_bytes()));
        let mut game = Game::new(v, None).unwrap();
        let first = game.legal_moves().to_vec();
        for (n, m) in first.iter().take(2).enumerate() {
            for (k, notation) in Notation::ALL.into_iter().enumerate() {
                let text = game.format(m, notation);
                write("move_parser", &format!("{n}-{k}"), with(text.as_bytes()));
            }
        }
        let choices = [3u8, 1, 4, 1, 5, 9];
        for &c in &choices {
            let legal = game.legal_moves().to_vec();
            if legal.is_empty() {
                break;
            }
            game.play(&legal[c as usize % legal.len()]);
        }
        write("fen_parser", "played", with(game.fen().as_bytes()));
        let next = game.legal_moves().first().copied();
        let mut play = vec![byte, choices.len() as u8];
        play.extend_from_slice(&choices);
        if let Some(m) = next {
            play.extend_from_slice(game.format(&m, Notation::GameCourier).as_bytes());
            play.extend_from_slice(b" // a comment\nnonsense");
        }
        write("parse_then_play", "game", play);
        let mut replayed = Game::new(v, None).unwrap();
        let moves: Vec<RecordMove> = choices
            .iter()
            .map_while(|&c| {
                let legal = replayed.legal_moves().to_vec();
                let m = legal.get(c as usize % legal.len().max(1))?;
                let text = replayed.format(m, Notation::Coordinate);
                replayed.play(m);
                Some(RecordMove {
                    text,
                    comment: Some("a {comment}".into()),
                    time: None,
                })
            })
            .collect();
        let export = Export {
            variant: v,
            start_fen: None,
            tags: vec![
                ("White".into(), "alice".into()),
                ("Black".into(), "bob".into()),
            ],
            moves,
            result: "*".into(),
        };
        write("record_reader", "pgn", write_pgn(&export).into_bytes());
        write("record_reader", "log", write_gc_log(&export).into_bytes());
    }
}
