//! A variant as data, read from Fairy-Stockfish's `variants.ini` syntax.
//!
//! [`Library::parse`] reads definition text into [`Spec`]s; a section may
//! name another (ours or one defined before it) as its template and
//! changes only what it sets. Every key is either understood exactly as
//! Fairy-Stockfish understands it or refused with its name and line.

mod betza;
pub(crate) mod builtin;
mod ini;
mod keys;
mod pieces;
mod reader;
mod shogi;
mod squares;
mod xiangqi;

pub(crate) use betza::{Atom, Movement, Reach};
pub(crate) use shogi::ShogiRules;
pub(crate) use xiangqi::XiangqiRules;

use crate::geometry::SquareSet;
use std::collections::HashMap;
use std::fmt;

/// Largest board the generic engine plays (Fairy-Stockfish's large-board build).
pub(crate) const MAX_FILES: u8 = 12;
pub(crate) const MAX_RANKS: u8 = 10;

/// Why a definition was refused, with the line it comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    pub line: usize,
    pub message: String,
}

impl SpecError {
    pub(crate) fn at(line: usize, message: impl Into<String>) -> SpecError {
        SpecError {
            line,
            message: message.into(),
        }
    }
    pub(crate) fn key(line: usize, key: &str, message: impl fmt::Display) -> SpecError {
        SpecError::at(line, format!("`{key}` {message}"))
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for SpecError {}

/// A game-end value as Fairy-Stockfish writes it, for the side to move
/// (or the side concerned).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    Win,
    Loss,
    Draw,
}

/// One piece type of a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PieceSpec {
    /// Fairy-Stockfish's name for the type (`knight`, `customPiece1`).
    pub(crate) name: String,
    /// Lower-case FEN letter.
    pub(crate) letter: char,
    pub(crate) betza: String,
    pub(crate) movement: Movement,
    /// Fairy-Stockfish's pawn: pushes, double steps, en passant and
    /// promotion come from the variant's settings, not from Betza.
    pub(crate) pawn: bool,
    /// The king: royal, and the piece that castles.
    pub(crate) king: bool,
    /// Fairy-Stockfish's xiangqi soldier (sideways only across the river).
    pub(crate) soldier: bool,
    /// Janggi's cannon: hops over one piece that is no cannon, and takes
    /// no cannon.
    pub(crate) janggi_cannon: bool,
    /// A second letter (xiangqi's `h` horse, `e` elephant): read in FENs,
    /// written in SAN.
    pub(crate) synonym: Option<char>,
}

/// A region of the board per side.
pub(crate) type Regions = [SquareSet; 2];

/// Everything the generic engine needs to play a variant.
#[derive(Clone, Debug)]
pub(crate) struct Spec {
    pub(crate) name: String,
    /// The name players see (Missive's `displayName`), if given.
    pub(crate) display_name: Option<String>,
    pub(crate) width: u8,
    pub(crate) height: u8,
    /// Index = kind; at most [`crate::position::MAX_KINDS`].
    pub(crate) pieces: Vec<PieceSpec>,
    pub(crate) start_fen: String,
    /// The line the start position is read from, for messages.
    pub(crate) start_fen_line: usize,
    pub(crate) promotion_region: Regions,
    /// Kinds a pawn may promote to, per side.
    pub(crate) promotion_types: [Vec<u8>; 2],
    pub(crate) mandatory_pawn_promotion: bool,
    /// Per kind: how many may stand on the board before a pawn may no
    /// longer promote to it (grand chess); 0 for no limit.
    pub(crate) promotion_limit: Vec<u8>,
    pub(crate) double_step_region: Regions,
    pub(crate) en_passant_region: Regions,
    pub(crate) castling: bool,
    /// Chess960 castling: the king and rooks start anywhere on the back
    /// rank and end where chess's do; the FEN names the rooks' files.
    pub(crate) chess960: bool,
    pub(crate) castling_kingside_file: u8,
    pub(crate) castling_queenside_file: u8,
    /// Castling rank counted from each side's own edge (0-based).
    pub(crate) castling_rank: u8,
    /// The kind that castles as the king (a commoner in giveaway).
    pub(crate) castling_king: Option<u8>,
    /// Where the castling rooks start: king side, queen side.
    pub(crate) castling_rook_files: [u8; 2],
    /// The kinds that castle with the king.
    pub(crate) castling_rooks: Vec<u8>,
    pub(crate) checking: bool,
    pub(crate) piece_drops: bool,
    pub(crate) captures_to_hand: bool,
    /// Loop chess: a captured promoted piece goes to hand as what it is
    /// (a queen), not as a pawn.
    pub(crate) drop_loop: bool,
    /// Placement chess: while a side holds pieces it must drop one.
    pub(crate) must_drop: bool,
    /// Drops that would leave the bishops unable to stand on squares of
    /// both colours are illegal.
    pub(crate) drop_opposite_bishops: bool,
    /// A king dropped on its file of the back rank, and rooks dropped in
    /// the corners beside it, may castle.
    pub(crate) castling_dropped_piece: bool,
    pub(crate) first_rank_pawn_drops: bool,
    pub(crate) promotion_zone_pawn_drops: bool,
    pub(crate) drop_region: Regions,
    pub(crate) must_capture: bool,
    pub(crate) stalemate_value: Value,
    pub(crate) checkmate_value: Value,
    pub(crate) extinction_value: Option<Value>,
    /// Kinds whose extinction ends the game; `None` with a value means all.
    pub(crate) extinction_types: Option<Vec<u8>>,
    pub(crate) extinction_piece_count: u8,
    /// While a side has at most `extinction_piece_count + 1` of an
    /// extinction type, those pieces may not be left attacked.
    pub(crate) extinction_pseudo_royal: bool,
    /// Atomic: a capture blasts the capturer and every piece but pawns
    /// next to the square, save the immune kinds.
    pub(crate) blast_on_capture: bool,
    pub(crate) blast_immune: Vec<u8>,
    /// Kinds that may not take a piece of their own kind (atomar's kings).
    pub(crate) mutually_immune: Vec<u8>,
    /// The opponent must keep at least this many (bare king: 2).
    pub(crate) extinction_opponent_piece_count: u8,
    /// The side to move bared may bare back: its opponent needs one more.
    pub(crate) extinction_claim: bool,
    /// The flag wins only if the opponent cannot answer it (jesonmor,
    /// racing kings' last move for Black).
    pub(crate) flag_move: bool,
    /// The flag piece must stand unattacked in its region (dobutsu).
    pub(crate) flag_piece_safe: bool,
    /// A stalemate is scored by who has fewer pieces (suicide).
    pub(crate) stalemate_piece_count: bool,
    pub(crate) flag_piece: [Option<u8>; 2],
    pub(crate) flag_region: Regions,
    pub(crate) n_move_rule: u16,
    pub(crate) n_fold_rule: u8,
    pub(crate) n_fold_value: Value,
    /// Whether the FEN carries a hand (`[...]`).
    pub(crate) pockets: bool,
    pub(crate) shogi: ShogiRules,
    pub(crate) xiangqi: XiangqiRules,
    /// Three-check and the like: the checks each side still needs, in the
    /// FEN as `3+3` (Fairy-Stockfish's checkCounting).
    pub(crate) check_counting: bool,
    /// Perpetual check or an absolute n-fold value: repetition rules the
    /// server does not enforce yet (see `Generic::repetition_rule`).
    pub(crate) repetition_extras: bool,
    /// Makruk's and ASEAN chess's counting of the moves a lone king's
    /// side must survive (Fairy-Stockfish's `countingRule`).
    pub(crate) counting_rule: Option<CountingRule>,
    /// Makpong: a king in check may not move, except to take its checker.
    pub(crate) makpong: bool,
    /// Shatar's mate: a mate by knights alone loses, and a mate is a win
    /// only if a check of its series was a shak (knight, rook or bers).
    pub(crate) shatar_mate: bool,
    /// Who wins what would be a draw (`materialCounting`).
    pub(crate) material_counting: Option<MaterialCounting>,
}

/// Fairy-Stockfish's `materialCounting`: a game that would end drawn (by
/// stalemate, the move-count rule or repetition) goes to a side instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MaterialCounting {
    /// Janggi's points (chariot 13, cannon 7, horse 5, elephant and
    /// advisor 3, soldier 2); Black (Han) wins a tie.
    Janggi,
    /// More pieces wins; equal is a draw.
    Unweighted,
    /// Armageddon's draw odds.
    WhiteDrawOdds,
    BlackDrawOdds,
}

/// Fairy-Stockfish's counting rules (`countingRule = makruk | asean`):
/// once no pawn is left and one side is down to its king (or, in makruk,
/// to its king and, on the board's honour, anything), that side counts the
/// moves its opponent has to mate it; when the count is out, the game is
/// drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CountingRule {
    Makruk,
    Asean,
}

impl Spec {
    pub(crate) fn kind_of_letter(&self, c: char) -> Option<u8> {
        let l = c.to_ascii_lowercase();
        self.pieces
            .iter()
            .position(|p| p.letter == l || p.synonym == Some(l))
            .map(|i| i as u8)
    }
    pub(crate) fn king_kind(&self) -> Option<u8> {
        self.pieces.iter().position(|p| p.king).map(|i| i as u8)
    }
    pub(crate) fn pawn_kind(&self) -> Option<u8> {
        self.pieces.iter().position(|p| p.pawn).map(|i| i as u8)
    }
}

/// Definitions read so far: ours (the files under `rules/variants`) and
/// whatever text is added, each section's lines with those of its templates.
#[derive(Default, Clone)]
pub(crate) struct Library {
    resolved: HashMap<String, Vec<ini::Entry>>,
}

impl Library {
    /// Read `text`; every section in it becomes a variant. A section may
    /// use any section already read (here or in earlier text) as template.
    pub(crate) fn add(&mut self, text: &str) -> Result<Vec<Spec>, SpecError> {
        let mut out = Vec::new();
        for section in ini::sections(text)? {
            let mut entries = match &section.template {
                None => Vec::new(),
                Some(t) => self.resolved.get(t).cloned().ok_or_else(|| {
                    SpecError::at(section.line, format!("unknown template variant `{t}`"))
                })?,
            };
            // A template's display name is its own, not the new variant's.
            entries.retain(|old| old.key != keys::DISPLAY_NAME);
            for e in &section.entries {
                entries.retain(|old| old.key != e.key);
                entries.push(e.clone());
            }
            let spec = keys::build(&section.name, section.line, &entries)?;
            self.resolved.insert(section.name.clone(), entries);
            out.push(spec);
        }
        Ok(out)
    }
}
