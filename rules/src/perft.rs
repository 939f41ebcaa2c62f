//! Perft: count the leaf nodes of the legal move tree.

use crate::position::Position;
use crate::variant::{Notation, Variant};

/// Number of leaf positions `depth` plies below `pos`.
pub fn perft(variant: &dyn Variant, pos: &Position, depth: u32) -> u64 {
    variant.perft(pos, depth)
}

/// [`perft`] by [`Variant::legal_moves`] and [`Variant::play`] for this
/// ply, which every variant has, and [`Variant::perft`] below it (so a
/// variant that counts its last ply faster uses that); the last ply is
/// counted, not played.
pub(crate) fn by_moves<V: Variant + ?Sized>(variant: &V, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = variant.legal_moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| variant.perft(&variant.play(pos, m), depth - 1))
        .sum()
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
