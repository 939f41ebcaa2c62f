//! One module per variant, and the registry.

pub mod chess;
pub mod chesslike;
pub mod fleap;
pub mod leap_chess;
pub mod leaperhouse;
pub mod lionized;
pub mod maohopper;

use crate::variant::Variant;
use std::sync::OnceLock;

/// Every variant, FIDE chess first, then the seed variants in issue order.
pub fn registry() -> &'static [&'static dyn Variant] {
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
