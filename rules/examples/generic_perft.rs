//! Perft of Fairy-Stockfish variants played from their definitions on the
//! generic engine, single thread, with the time it took: the figures
//! `docs/variants.md` compares with native Fairy-Stockfish.
//! `cargo run --release -p missive-rules --example generic_perft -- capablanca 4 shogi 3`
//! (pairs of variant and depth; an optional FEN after a `@`: `shogi 3@FEN`).

use missive_rules::{definition_variant, perft};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.len().is_multiple_of(2) || args.is_empty() {
        eprintln!("usage: generic_perft VARIANT DEPTH[@FEN] [VARIANT DEPTH[@FEN] ...]");
        std::process::exit(2);
    }
    println!(
        "{:<14} {:>5} {:>12} {:>9} {:>10}",
        "variant", "depth", "nodes", "seconds", "knodes/s"
    );
    for pair in args.chunks(2) {
        let Some(v) = definition_variant(&pair[0]) else {
            eprintln!("{}: no such definition variant", pair[0]);
            std::process::exit(2);
        };
        let (depth, fen) = match pair[1].split_once('@') {
            Some((d, f)) => (d, f),
            None => (pair[1].as_str(), v.start_fen()),
        };
        let Ok(depth) = depth.parse::<u32>() else {
            eprintln!("{}: the depth must be a number", pair[1]);
            std::process::exit(2);
        };
        let pos = match v.parse_fen(fen) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{fen}: {e}");
                std::process::exit(2);
            }
        };
        let t = Instant::now();
        let nodes = perft::perft(v, &pos, depth);
        let s = t.elapsed().as_secs_f64();
        println!(
            "{:<14} {:>5} {:>12} {:>9.3} {:>10.0}",
            v.id(),
            depth,
            nodes,
            s,
            nodes as f64 / s.max(1e-6) / 1000.0
        );
    }
}
