//! Missive's rules engine: boards, pieces, legal moves, game end and
//! notation for every variant the server plays. No I/O, no clock.
//!
//! The server uses [`variant`]/[`variants`], the [`Variant`] trait and
//! [`Game`]; everything else is the machinery variants are built from.

pub mod diagram;
pub mod errors;
pub mod fen;
pub mod game;
pub mod geometry;
pub mod movement;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod record;
pub mod variant;
pub mod variants;
pub mod view;

pub use errors::{FenError, MoveError};
pub use game::{Game, HistoryEntry, Played, ReplayError};
pub use geometry::{Geometry, Square, SquareSet};
pub use moves::{Move, MoveKind};
pub use piece::{Color, Piece};
pub use position::Position;
pub use variant::{Notation, Outcome, PieceLabel, Reason, RepetitionRule, Variant};
pub use view::{BoardView, Cell, HandItem, MoveView};

/// Every registered variant, FIDE chess first.
pub fn variants() -> &'static [&'static dyn Variant] {
    variants::registry()
}

/// The variant with this id (`chess`, `leaperhouse`...).
pub fn variant(id: &str) -> Option<&'static dyn Variant> {
    variants().iter().copied().find(|v| v.id() == id)
}
