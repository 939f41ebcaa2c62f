//! Lionized Chess (`lionized-chess`), by the seed page as settled by the
//! rulings.
//!
//! Regular pieces (Lance, Hot Horse, Cold Horse, Mammoth, Ferz) standing on a
//! clear line with a friendly Lionizer, or on the file of a friendly Pawn that
//! stands on its last rank, are *Lionized*. A Lionized piece moves only when
//! its side has another Lionized piece (a partner), and then it may use its
//! own power, or a partner's power for one leg and optionally its own power
//! for a second leg, or jump to where a partner's power reaches whatever
//! stands there and then continue by its own power (rule 17).
//!
//! Move encoding (see [`Move`]):
//! - `Normal` `from` → `to`, capturing whatever stands on `to`. This covers
//!   every turn that captures at most on its end square, whatever route a
//!   Lionized piece took (the result, and the footnote-15 string, are the
//!   same, so such routes are one move). `piece` is the captured Regular
//!   piece a Pawn switches places with on its last rank (`None`: it stays a
//!   Pawn).
//! - `EnPassant` `from` → `to`, capturing the Pawn on `extra[0]`.
//! - `TwoLeg` `from` → `extra[0]` → `to` (`extra[1] == extra[0]`): a
//!   Lionized turn that captures on `extra[0]` and goes on to `to` (capturing
//!   there too if an enemy stands there); `to` may equal `from`.
//!
//! Captured Regular pieces are kept in their owner's `hands` (the FEN's
//! `[...]` field) for a later Pawn swap. `halfmove` counts plies since the
//! last capture.

mod fen;
pub(crate) mod lionization;
mod moves;
mod notation;

use crate::errors::{FenError, MoveError};
use crate::geometry::Geometry;
use crate::moves::{Move, MoveKind};
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;
use crate::variant::{Notation, Outcome, PieceLabel, RepetitionRule, Variant};

pub(crate) const PAWN: Kind = 0;
pub(crate) const LANCE: Kind = 1;
pub(crate) const HOT_HORSE: Kind = 2;
pub(crate) const COLD_HORSE: Kind = 3;
pub(crate) const MAMMOTH: Kind = 4;
pub(crate) const FERZ: Kind = 5;
pub(crate) const LIONIZER: Kind = 6;
pub(crate) const KING: Kind = 7;

const LETTERS: [char; 8] = ['P', 'L', 'H', 'C', 'M', 'F', 'Z', 'K'];
const NAMES: [&str; 8] = [
    "Pawn",
    "Lance",
    "Hot Horse",
    "Cold Horse",
    "Mammoth",
    "Ferz",
    "Lionizer",
    "King",
];
/// The Regular pieces, in the order the pool is written.
const REGULARS: [Kind; 5] = [LANCE, HOT_HORSE, COLD_HORSE, MAMMOTH, FERZ];

pub(crate) const START: &str = "lcmzkfhl/pppppppp/8/8/8/8/PPPPPPPP/LHMZKFCL[] w - - 0 1";

/// Hot Horse: an orthogonal step (which must be to an empty square), then one
/// step 45° to the right of it. Board-absolute for both colours.
const HOT_LEGS: [((i8, i8), (i8, i8)); 4] = [
    ((0, 1), (1, 2)),
    ((1, 0), (2, -1)),
    ((0, -1), (-1, -2)),
    ((-1, 0), (-2, 1)),
];
/// Cold Horse: the same, turning 45° to the left.
const COLD_LEGS: [((i8, i8), (i8, i8)); 4] = [
    ((0, 1), (-1, 2)),
    ((1, 0), (2, 1)),
    ((0, -1), (1, -2)),
    ((-1, 0), (-2, -1)),
];
const DIAGONALS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KING_STEPS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// Plies without a capture that draw the game (50 turns of each player).
const MOVE_COUNT_LIMIT: u16 = 100;

const RULES: &str = include_str!("rules.txt");
pub(crate) struct LionizedChess {
    geometry: Geometry,
}

impl LionizedChess {
    pub(crate) fn new() -> LionizedChess {
        LionizedChess {
            geometry: Geometry::rect(8, 8),
        }
    }

    fn kind_of(c: char) -> Option<Kind> {
        LETTERS
            .iter()
            .position(|&l| l == c.to_ascii_uppercase())
            .map(|k| k as Kind)
    }

    fn cased(letter: char, color: Color) -> char {
        if color == Color::Black {
            letter.to_ascii_lowercase()
        } else {
            letter
        }
    }
}

impl Default for LionizedChess {
    fn default() -> Self {
        LionizedChess::new()
    }
}

impl Variant for LionizedChess {
    fn id(&self) -> &'static str {
        "lionized-chess"
    }
    fn name(&self) -> &'static str {
        "Lionized Chess"
    }
    fn geometry(&self) -> &Geometry {
        &self.geometry
    }
    fn start_fen(&self) -> &'static str {
        START
    }
    fn rules_text(&self) -> &'static str {
        RULES
    }
    fn piece_label(&self, piece: Piece) -> PieceLabel {
        let k = (piece.kind as usize).min(LETTERS.len() - 1);
        PieceLabel {
            symbol: String::new(),
            letter: Self::cased(LETTERS[k], piece.color).to_string(),
            name: NAMES[k].to_string(),
            direction: None,
        }
    }
    fn parse_fen(&self, fen: &str) -> Result<Position, FenError> {
        LionizedChess::parse_fen(self, fen)
    }
    fn fen(&self, pos: &Position) -> String {
        LionizedChess::fen(self, pos)
    }
    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        LionizedChess::legal_moves(self, pos)
    }
    fn play(&self, pos: &Position, mv: &Move) -> Position {
        LionizedChess::play(self, pos, mv)
    }
    fn outcome(&self, pos: &Position, legal: &[Move]) -> Option<Outcome> {
        LionizedChess::outcome(self, pos, legal)
    }
    fn in_check(&self, pos: &Position) -> bool {
        LionizedChess::in_check(self, pos)
    }
    fn repetition_rule(&self) -> RepetitionRule {
        RepetitionRule::Ignored
    }
    /// Repetition is no rule here, but the key is still the identity of a
    /// stored game's positions, so it leaves out what the FEN leaves out.
    fn repetition_key(&self, pos: &Position) -> u64 {
        pos.hash_without_dead_ep(|| {
            LionizedChess::legal_moves(self, pos)
                .iter()
                .any(|m| m.kind == MoveKind::EnPassant)
        })
    }
    fn format_move(&self, pos: &Position, mv: &Move, notation: Notation) -> String {
        LionizedChess::format_move(self, pos, mv, notation)
    }
    fn parse_move(&self, pos: &Position, legal: &[Move], text: &str) -> Result<Move, MoveError> {
        LionizedChess::parse_move(self, pos, legal, text)
    }
    fn family(&self) -> crate::family::Family {
        crate::family::Family::GameCourier
    }
    fn kind_count(&self) -> usize {
        KING as usize + 1
    }
    /// `lionized` on each Lionized piece.
    fn state_marks(&self, pos: &Position) -> Vec<(crate::geometry::Square, &'static str)> {
        let mut out = Vec::new();
        for color in [Color::White, Color::Black] {
            let l = lionization::Lionized::of(pos, color);
            out.extend(
                pos.pieces()
                    .filter(|(s, p)| p.color == color && l.contains(*s))
                    .map(|(s, _)| (s, "lionized")),
            );
        }
        out
    }
    fn legend_notes(&self) -> Vec<String> {
        vec!["A gold ring marks a Lionized piece (on a clear line with a friendly Lionizer, or on the file of a friendly Pawn on its last rank).".into()]
    }
}
