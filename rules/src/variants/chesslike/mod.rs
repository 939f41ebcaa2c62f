//! The machinery shared by variants built like FIDE chess: one royal King per
//! side, check, pawns with double steps, en passant and promotion, castling
//! described as data, and options for compulsory capture, stalemate as a
//! loss, the bare-king rule and the 50-move rule. FIDE chess and the Leap
//! Chess family are instances of [`ChessLike`].
//!
//! The settings and the piece table are here; each part of the rules has
//! its file: `fen`, `moves` (generation and playing), `legality` (check and
//! the legal-move filters), `outcome`, `notation`, `explain` (why a move is
//! not legal) and `variant_impl` (the `Variant` impl macro). Castling, as
//! data, is `variants/castling.rs`, which the bitboard engine
//! (`small_board`) reads too.

mod explain;
mod fen;
mod legality;
mod moves;
mod notation;
mod outcome;
#[cfg(test)]
mod tests;
mod variant_impl;

pub(crate) use super::castling::{fide_castlings, Castling};
pub(crate) use variant_impl::chess_like_variant;

use crate::geometry::Geometry;
use crate::movement::{PieceDef, PieceSet};
use crate::piece::{Color, Kind, Piece};
use crate::variant::PieceLabel;
use crate::variants::small_board::Tables;
use std::sync::OnceLock;

/// Settings of one chess-like variant.
pub(crate) struct ChessLike {
    pub id: &'static str,
    pub name: &'static str,
    pub geometry: Geometry,
    pub start_fen: &'static str,
    pub rules_text: &'static str,
    pub side_names: [&'static str; 2],
    pub pieces: PieceSet,
    pub pawn: Kind,
    pub king: Kind,
    /// Kinds a pawn may become, in the order shown.
    pub promotions: Vec<Kind>,
    /// Relative rank (0-based from the owner's side) where a pawn may double step.
    pub double_step_rank: Option<u8>,
    pub castlings: Vec<Castling>,
    pub compulsory_capture: bool,
    pub stalemate_loses: bool,
    pub bare_king_loses: bool,
    /// Plies without capture or pawn move that draw (100 for the 50-move rule).
    pub move_count_limit: Option<u16>,
    /// FIDE's dead positions: K v K, K+minor v K.
    pub insufficient_material: bool,
    /// The bitboard tables of the variant, worked out on first use; `None`
    /// if its board or pieces are beyond them.
    pub small_board: OnceLock<Option<Tables>>,
    /// The deepest perft `missive perft` runs (about minutes here).
    pub max_perft_depth: u32,
    /// The PGN `Variant` tag (`None` for FIDE chess).
    pub pgn_variant: Option<&'static str>,
}

/// Letters to pieces for FEN and notation.
pub(crate) fn kind_of(set: &PieceSet, c: char) -> Option<Kind> {
    set.kind_of_letter(c)
}

impl ChessLike {
    fn letter(&self, kind: Kind) -> char {
        self.pieces.def(kind).letter
    }

    pub(crate) fn piece_label(&self, piece: Piece) -> PieceLabel {
        let d = self.pieces.def(piece.kind);
        let letter = if piece.color == Color::Black {
            d.letter.to_ascii_lowercase()
        } else {
            d.letter
        };
        PieceLabel {
            symbol: String::new(),
            letter: letter.to_string(),
            name: d.name.to_string(),
            direction: None,
        }
    }
}

/// Shorthand for a piece table entry.
pub(crate) fn def(letter: char, name: &'static str, betza: &str) -> PieceDef {
    PieceDef::new(letter, name, betza)
}
