//! Maohopper Chess (Chess Variant Pages, 2010), as settled by Missive's
//! rulings: a 9x9 board with a trap on h4, neutral Stones, hoppers of
//! several kinds, directional Spears, Stone-pushing Masons and Windmills.
//! The object is to capture the enemy Flag; there is no check.
//!
//! # Pieces and FEN letters
//! Upper case White, lower case Black:
//! `F` Flag, `M` Maohopper, `B` Butterfly (Ubi-Ubi-hopper), `R` Frog
//! (Rose-hopper), `N` Worm (Night-hopper), `E` Reflecting Ferz, `S` Spear,
//! `A` Mason, `W` Windmill. A neutral Stone is `O` (`o` is read too).
//! A Spear's direction, from its owner's point of view, follows its letter:
//! nothing (or `^`) straight forward, `>` forward-right, `<` forward-left.
//! The FEN is `board side [move-number]`, e.g. the start position
//! `nrmwfwmrn/amebabema/sssssssss/9/2O1O1O2/9/SSSSSSSSS/AMEBABEMA/NRMWFWMRN w 1`.
//!
//! # Moves
//! - [`MoveKind::Normal`] `from` → `to` for every piece move. A Mason moving
//!   onto a Stone pushes that Stone and the Stones lined up behind it one
//!   square on (implied by the board). For a Spear step `tag` is the
//!   Spear's direction after the move ([`STRAIGHT`], [`RIGHT`], [`LEFT`]),
//!   or `piece` is the promotion result (then `tag` is 0). Hoppers, the
//!   Reflecting Ferz and the Windmill may reach one square by several paths;
//!   the result is the same, so it is one move.
//! - [`MoveKind::Special`] a Spear turning in place: `from` = `to` = its
//!   square, `tag` = the new direction.
//!
//! A piece (not a Stone) ending a move on the trap h4 is removed.
//!
//! # Notation
//! - Coordinate (canonical): `b2c4`; a Spear step that changes direction
//!   ends with the new direction's mark (`e3e4>`), a promotion with the new
//!   piece's lower-case letter (`e7e8w`); a turn in place is `e3e3>`.
//! - Game Courier: `M b2-c4`; Spears use the labels `SM!`, `SM4!`, `SM7!`
//!   (`sm!`... for Black): `SM! e3-e4`, a step with a turn
//!   `SM! e3-e4; SM4!*e4`, a promotion `SM! e7-e8; W*e8`, a turn in place
//!   `SM4!*e3`.
//! - Display: long algebraic with upper-case letters, `Mb2-c4`, `Bd2xc8`,
//!   `Se3-e4>`, `Se7-e8=W`, `Se3>`.

mod fen;
mod moves;
mod notation;

use crate::errors::{FenError, MoveError};
use crate::geometry::{Geometry, Square};
use crate::moves::Move;
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;
use crate::variant::{Notation, Outcome, PieceLabel, Reason, RepetitionRule, Variant};

pub(crate) const FLAG: Kind = 0;
pub(crate) const MAOHOPPER: Kind = 1;
pub(crate) const BUTTERFLY: Kind = 2;
pub(crate) const FROG: Kind = 3;
pub(crate) const WORM: Kind = 4;
pub(crate) const FERZ: Kind = 5;
pub(crate) const SPEAR: Kind = 6;
pub(crate) const MASON: Kind = 7;
pub(crate) const WINDMILL: Kind = 8;
pub(crate) const STONE: Kind = 9;

const LETTERS: [char; 10] = ['F', 'M', 'B', 'R', 'N', 'E', 'S', 'A', 'W', 'O'];
const NAMES: [&str; 10] = [
    "Flag",
    "Maohopper",
    "Butterfly",
    "Frog",
    "Worm",
    "Reflecting Ferz",
    "Spear",
    "Mason",
    "Windmill",
    "Stone",
];

/// The trap square h4.
pub(crate) const TRAP: Square = Square::new(7, 3);

/// Spear directions (stored in `Piece::state`), from the owner's view.
pub(crate) const STRAIGHT: u8 = 0;
pub(crate) const RIGHT: u8 = 1;
pub(crate) const LEFT: u8 = 2;
/// FEN / coordinate marks of the three directions.
const DIR_MARKS: [char; 3] = ['^', '>', '<'];
/// Game Courier labels of the three directions (White's; lower case for Black).
const GC_SPEAR: [&str; 3] = ["SM!", "SM4!", "SM7!"];
const DIR_WORDS: [&str; 3] = ["straight forward", "forward-right", "forward-left"];

const ORTHO: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
/// Knight steps in anticlockwise order: a rose takes consecutive entries
/// (one sense or the other), which is the "turn of 45°" between its steps.
const KNIGHT: [(i8, i8); 8] = [
    (2, 1),
    (1, 2),
    (-1, 2),
    (-2, 1),
    (-2, -1),
    (-1, -2),
    (1, -2),
    (2, -1),
];
/// The eight squares round a pivot, clockwise starting above it (also the
/// Mason's eight directions).
const RING: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

pub(crate) const START: &str =
    "nrmwfwmrn/amebabema/sssssssss/9/2O1O1O2/9/SSSSSSSSS/AMEBABEMA/NRMWFWMRN w 1";

const RULES: &str = include_str!("rules.txt");

/// Maohopper Chess.
pub(crate) struct Maohopper {
    geometry: Geometry,
}

impl Maohopper {
    pub(crate) fn new() -> Maohopper {
        Maohopper {
            geometry: Geometry::rect(9, 9),
        }
    }
}

impl Default for Maohopper {
    fn default() -> Self {
        Maohopper::new()
    }
}
impl Variant for Maohopper {
    fn id(&self) -> &'static str {
        "maohopper"
    }
    fn name(&self) -> &'static str {
        "Maohopper Chess"
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
        let direction = (piece.kind == SPEAR).then(|| {
            let base: i16 = if piece.color == Color::Black { 180 } else { 0 };
            let turn: i16 = match piece.state {
                RIGHT => 45,
                LEFT => -45,
                _ => 0,
            };
            (base + turn).rem_euclid(360)
        });
        PieceLabel {
            symbol: String::new(),
            letter: Maohopper::token(piece),
            name: NAMES.get(piece.kind as usize).unwrap_or(&"?").to_string(),
            direction,
        }
    }
    fn parse_fen(&self, fen: &str) -> Result<Position, FenError> {
        self.read(fen)
    }
    fn fen(&self, pos: &Position) -> String {
        self.write(pos)
    }
    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        self.generate(pos)
    }
    fn play(&self, pos: &Position, mv: &Move) -> Position {
        self.apply(pos, mv)
    }
    fn outcome(&self, pos: &Position, legal: &[Move]) -> Option<Outcome> {
        let them = pos.side.opponent();
        if pos.royal[pos.side.index()].is_none() {
            Some(Outcome::win(them, Reason::FlagCaptured))
        } else if legal.is_empty() {
            // A player with no legal move (repetitions excluded) loses.
            Some(Outcome::win(them, Reason::Stalemate))
        } else {
            None
        }
    }
    fn repetition_rule(&self) -> RepetitionRule {
        RepetitionRule::AnyRepeatIllegal
    }
    /// The board (Spear directions included) and the side to move; the move
    /// number is left out, and nothing else varies in this variant.
    /// The move counters are not part of [`Position::hash`], so the hash is
    /// the key as it stands (a copy with them reset, as this once made, was
    /// a fifth of the rules work per Maohopper move: the rule tries every
    /// legal move).
    fn repetition_key(&self, pos: &Position) -> u64 {
        pos.hash()
    }
    fn format_move(&self, pos: &Position, mv: &Move, notation: Notation) -> String {
        match notation {
            Notation::Coordinate => self.coordinate(pos, mv),
            Notation::GameCourier => self.game_courier(pos, mv),
            Notation::Display => self.display(pos, mv),
        }
    }
    fn moves_may_cost_own_pieces(&self) -> bool {
        true
    }
    fn describe_move(&self, pos: &Position, mv: &Move) -> String {
        self.words(pos, mv)
    }
    fn parse_move(&self, pos: &Position, legal: &[Move], text: &str) -> Result<Move, MoveError> {
        self.read_move(pos, legal, text)
    }
    fn marked_squares(&self) -> Vec<(Square, &'static str)> {
        vec![(TRAP, "trap")]
    }
    fn family(&self) -> crate::family::Family {
        crate::family::Family::GameCourier
    }
    fn kind_count(&self) -> usize {
        STONE as usize + 1
    }
    fn legend_notes(&self) -> Vec<String> {
        vec![
            "TRAP: h4. A piece (not a Stone) that ends its move there is removed.".into(),
            "A Spear is drawn pointing the way it steps. The Flag (on gold) is the piece to capture.".into(),
            "Stones (grey rocks) belong to nobody: they are hopped over and pushed by Masons, never captured.".into(),
        ]
    }
}
