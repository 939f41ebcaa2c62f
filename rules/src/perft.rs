//! Perft: count the leaf nodes of the legal move tree.

use crate::position::Position;
use crate::variant::{Notation, Variant};

/// Number of leaf positions `depth` plies below `pos`.
pub fn perft(variant: &dyn Variant, pos: &Position, depth: u32) -> u64 {
    variant.perft(pos, depth)
}

/// Per-move counts in coordinate notation, sorted by move text; none at
/// depth 0, where the tree is the position alone (its [`perft`] is 1).
pub fn divide(variant: &dyn Variant, pos: &Position, depth: u32) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut out: Vec<(String, u64)> = variant
        .legal_moves(pos)
        .iter()
        .map(|m| {
            let n = if depth <= 1 {
                1
            } else {
                variant.perft(&variant.play(pos, m), depth - 1)
            };
            (variant.format_move(pos, m, Notation::Coordinate), n)
        })
        .collect();
    out.sort();
    out
}
