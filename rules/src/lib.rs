//! Missive's rules engine: boards, pieces, legal moves, game end and
//! notation for every variant the server plays. No I/O, no clock.
//!
//! The server uses [`variant`]/[`variants`], the [`Variant`] trait and
//! [`Game`]; everything else is the machinery variants are built from.

#![warn(unreachable_pub)]

// Modules are private: what the server, the CLI and the tests use is
// re-exported below, so the machinery variants are built from can change
// without touching them. `record` and `perft` stay public as namespaces of
// free functions (`record::check`, `perft::divide`) that read better with
// their module's name than as root items, and so does `diagram` (the
// legends' piece types and movement diagrams).
mod describe;
pub mod diagram;
mod errors;
mod family;
mod fen;
mod game;
mod generic;
mod geometry;
mod movement;
mod moves;
mod notation;
pub mod perft;
mod piece;
mod position;
pub mod record;
mod spec;
mod trial;
mod variant;
mod variants;
mod view;

pub use errors::{FenError, MoveError};
pub use family::Family;
pub use game::{Game, HistoryEntry, Played, ReplayError};
pub use generic::check_definitions;
pub use geometry::{Geometry, Square, SquareSet};
pub use moves::{Move, MoveKind, Path};
pub use piece::{Color, Kind, Piece};
pub use position::Position;
pub use spec::SpecError;
pub use trial::{trial, TrialFailure, TrialPlan, TrialReport};
pub use variant::{HandItem, Notation, Outcome, PieceLabel, Reason, RepetitionRule, Variant};
pub use view::{BoardView, Cell, LegalMoveForms, MoveView};

/// Every variant the server offers: the seeds (FIDE chess first), then
/// the Fairy-Stockfish definitions under their own names, then any added
/// by [`add_definitions`].
pub fn variants() -> &'static [&'static dyn Variant] {
    variants::registry()
}

/// Offer the variants `text` defines (Fairy-Stockfish's `variants.ini`
/// syntax; the server reads `MISSIVE_VARIANTS_DIR` with it at start) from
/// now on; their ids are returned. Refused with the line at fault: a key
/// the engine does not support, a name already offered, a start position
/// that does not fit. The same text twice adds nothing the second time.
pub fn add_definitions(text: &str) -> Result<Vec<&'static str>, SpecError> {
    variants::added::add(text)
}

/// The variants played from Fairy-Stockfish definitions
/// (`rules/variants/<id>.ini`) on the generic engine, under
/// Fairy-Stockfish's names, each checked against Fairy-Stockfish by
/// `tests/fsf_variants.rs`; all of them but `normal` (the seed `chess`'s
/// game) are among [`variants`].
pub fn definition_variants() -> &'static [&'static dyn Variant] {
    variants::definition_variants()
}

/// A posted definition (one section of Fairy-Stockfish's `variants.ini`
/// syntax; its template may be any built-in variant) as a variant under
/// `id` and `name`, not offered: what a check of the text plays. The
/// variant is leaked: call it in a process that ends soon (the server's
/// checker), not once per request.
pub fn read_posted(text: &str, id: &str, name: &str) -> Result<&'static dyn Variant, SpecError> {
    variants::added::read_posted(text, id, name)
}

/// Offer a posted definition under `id` (one version of a posted variant:
/// the server keys each version) and `name` from now on, so that
/// [`variant`] finds it (it is not among [`variants`]: the server lists a
/// posted variant as it may be seen); the same id again returns the variant offered
/// before, without reading `text`.
pub fn offer_posted(text: &str, id: &str, name: &str) -> Result<&'static dyn Variant, SpecError> {
    variants::added::offer_posted(text, id, name)
}

/// The definition variant with this Fairy-Stockfish name (`capablanca`).
pub fn definition_variant(id: &str) -> Option<&'static dyn Variant> {
    definition_variants().iter().copied().find(|v| v.id() == id)
}

/// The variant with this id (`chess`, `leaperhouse`...), or the posted
/// version offered under it ([`offer_posted`]).
pub fn variant(id: &str) -> Option<&'static dyn Variant> {
    variants()
        .iter()
        .copied()
        .find(|v| v.id() == id)
        .or_else(|| variants::added::posted(id))
}
