//! One module per variant, and the registry.

pub mod chess;
pub mod chesslike;
pub mod leap_chess;

use crate::variant::Variant;
use std::sync::OnceLock;

pub fn registry() -> &'static [&'static dyn Variant] {
    static REGISTRY: OnceLock<Vec<&'static dyn Variant>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let chess: &'static dyn Variant = Box::leak(Box::new(chess::Chess::new()));
        let leap: [&'static dyn Variant; 4] = [
            Box::leak(Box::new(leap_chess::LeapChess::standard())),
            Box::leak(Box::new(leap_chess::LeapChess::multi())),
            Box::leak(Box::new(leap_chess::LeapChess::optional())),
            Box::leak(Box::new(leap_chess::LeapChess::sixty_four())),
        ];
        let mut all = vec![chess];
        all.extend(leap);
        all
    })
}
