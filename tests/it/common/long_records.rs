//! Long records that check as legal games, for the record checker's
//! benchmarks and measurements.

use missive_rules::{variant, Game, MoveKind, Notation};
use std::collections::HashMap;

const START: &str =
    "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECNU[UUCCEEAANNuucceeaann] w - - 0 1";

/// A Leaperhouse record of `plies` Knight moves (no capture, no check),
/// each to the position seen least so far, never a third time.
pub fn knight_shuffle(plies: usize) -> String {
    let v = variant("leaperhouse").unwrap();
    let mut g = Game::new(v, Some(START)).unwrap();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    seen.insert(g.history()[0].key, 1);
    let mut moves = Vec::with_capacity(plies);
    for _ in 0..plies {
        let pos = g.position().clone();
        let count = |k: u64| seen.get(&k).copied().unwrap_or(0);
        let best = g
            .legal_moves()
            .iter()
            .filter(|m| m.kind == MoveKind::Normal && pos.get(m.to).is_none())
            .filter(|m| {
                pos.get(m.from)
                    .is_some_and(|p| v.piece_label(p).letter.eq_ignore_ascii_case("n"))
            })
            .map(|m| {
                let next = v.play(&pos, m);
                (*m, v.repetition_key(&next), v.in_check(&next))
            })
            .filter(|&(_, key, check)| !check && count(key) < 2)
            .min_by_key(|&(m, key, _)| (count(key), v.format_move(&pos, &m, Notation::Coordinate)))
            .expect("a Knight can always shuffle on");
        let played = g.play(&best.0);
        *seen.entry(best.1).or_default() += 1;
        moves.push(played.coordinate);
    }
    format!(
        "[Variant \"leaperhouse\"]\n[SetUp \"1\"]\n[FEN \"{START}\"]\n\n{} *\n",
        moves.join(" ")
    )
}
