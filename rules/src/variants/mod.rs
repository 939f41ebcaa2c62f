//! One module per variant, and the registry.

pub(crate) mod added;
pub(crate) mod castling;
pub(crate) mod chess;
pub(crate) mod chesslike;
pub(crate) mod fleap;
pub(crate) mod leap_chess;
pub(crate) mod leaperhouse;
pub(crate) mod lionized;
pub(crate) mod maohopper;
#[cfg(test)]
mod seed_definitions_tests;
mod small_board;

use crate::generic::Generic;
use crate::spec::builtin::generic_specs;
use crate::variant::Variant;
use std::sync::OnceLock;

/// The variants played from definitions, under Fairy-Stockfish's names
/// (FIDE chess is the seed's `chess`, so its definition serves as a
/// template and `normal` only).
pub(crate) fn definition_variants() -> &'static [&'static dyn Variant] {
    static DEFS: OnceLock<Vec<&'static dyn Variant>> = OnceLock::new();
    DEFS.get_or_init(|| {
        generic_specs()
            .1
            .into_iter()
            .filter(|s| s.name != "chess")
            .map(|s| {
                let name = s.name.clone();
                let g = Generic::new(s).unwrap_or_else(|e| panic!("{name}: start position: {e}"));
                &*Box::leak(Box::new(g)) as &'static dyn Variant
            })
            .collect()
    })
}

/// Every variant the server offers: the seeds (FIDE chess first, then the
/// Game Courier variants in issue order), then the definition variants,
/// then those added from definition text at start ([`added`]).
pub(crate) fn registry() -> &'static [&'static dyn Variant] {
    added::current()
}

/// The seed variants, each on its own engine, FIDE chess first.
fn seeds() -> Vec<&'static dyn Variant> {
    vec![
        Box::leak(Box::new(chess::Chess::new())),
        Box::leak(Box::new(leaperhouse::Leaperhouse::new())),
        Box::leak(Box::new(leap_chess::LeapChess::standard())),
        Box::leak(Box::new(leap_chess::LeapChess::multi())),
        Box::leak(Box::new(leap_chess::LeapChess::optional())),
        Box::leak(Box::new(leap_chess::LeapChess::sixty_four())),
        Box::leak(Box::new(lionized::LionizedChess::new())),
        Box::leak(Box::new(fleap::Fleap::new())),
        Box::leak(Box::new(maohopper::Maohopper::new())),
    ]
}
