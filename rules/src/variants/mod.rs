//! One module per variant, and the registry.

pub(crate) mod chess;
pub(crate) mod chesslike;
pub(crate) mod fleap;
pub(crate) mod leap_chess;
pub(crate) mod leaperhouse;
pub(crate) mod lionized;
pub(crate) mod maohopper;
mod small_board;

use crate::variant::Variant;
use std::sync::OnceLock;

/// Every variant, FIDE chess first, then the seed variants in issue order.
pub(crate) fn registry() -> &'static [&'static dyn Variant] {
    static REGISTRY: OnceLock<Vec<&'static dyn Variant>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
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
    })
}
