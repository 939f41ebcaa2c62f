//! One module per variant, and the registry.

pub mod chess;
pub mod chesslike;
pub mod maohopper;

use crate::variant::Variant;
use std::sync::OnceLock;

pub fn registry() -> &'static [&'static dyn Variant] {
    static REGISTRY: OnceLock<Vec<&'static dyn Variant>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let chess: &'static dyn Variant = Box::leak(Box::new(chess::Chess::new()));
        let maohopper: &'static dyn Variant = Box::leak(Box::new(maohopper::Maohopper::new()));
        vec![chess, maohopper]
    })
}
