//! What the server's rules work per move costs: restore the game from its
//! stored FEN and history, then read and play a move text, over fixed
//! pseudo-random games of every variant, in coordinate and display notation.
//! `bash bench/play.sh` (or `cargo run --release -p missive-rules --example
//! play_moves [GAMES]`).

use missive_rules::{variants, Game, Notation};
use std::time::Instant;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100);
    println!(
        "{:<24} {:<11} {:>8} {:>12}",
        "variant", "notation", "plies", "µs per move"
    );
    for &v in variants() {
        for notation in [Notation::Coordinate, Notation::Display] {
            let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
            let (mut plies, mut spent) = (0u64, 0f64);
            for _ in 0..games {
                let mut game = Game::new(v, None).expect("start position");
                for _ in 0..80 {
                    let legal = game.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let mv = legal[(state % legal.len() as u64) as usize];
                    let text = game.format(&mv, notation);
                    let (fen, history) = (game.fen(), game.history_string());
                    let t = Instant::now();
                    let mut next = Game::restore(v, &fen, &history).expect("restores");
                    let played = next.play_text(&text).expect("its own text reads back");
                    spent += t.elapsed().as_secs_f64();
                    assert_eq!(played.mv, mv);
                    game = next;
                    plies += 1;
                }
            }
            println!(
                "{:<24} {:<11} {:>8} {:>12.1}",
                v.id(),
                format!("{notation:?}"),
                plies,
                spent * 1e6 / plies.max(1) as f64
            );
        }
    }
}
