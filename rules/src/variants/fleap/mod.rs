//! Fleap (Gavin King, 2003): two-faced tokens, an Equihopper-type piece
//! face up and a FIDE piece on the back; captured face-up tokens come back
//! flipped; Ballistas fire Nukes that leave craters. There is no check: a
//! side wins by capturing or destroying an enemy King.
//!
//! The original setup diagram is lost; the board and array are the
//! product's reconstruction (see `rulings.md`, "Fleap").
//!
//! # Pieces (kinds)
//! Face-up token faces `E S A T F` (Equihopper, Non-stop Equihopper,
//! Ballista, EquiRepeater, Fore'n'aft) flip to `P N B R K`: kind `k < 5`
//! flips to `k + 5`. `Piece::promoted` marks a piece a Pawn promoted to; such
//! pieces never flip or return. `Piece::state` is unused.
//!
//! # Position fields
//! `counters[c]`: the Nukes side `c` holds. `hands[c][k]`: tokens of side
//! `c` (always FIDE faces) waiting to be placed. `castling` is reused as the
//! game-decided flags: [`WHITE_WON`], [`BLACK_WON`] (a King was taken).
//!
//! # Moves
//! - `Normal`: `from` → `to` (capturing there), `piece` = promotion result.
//! - `Special` with `tag == RIFLE`: the Ballista on `from` captures on `to`
//!   without moving.
//! - `Special` with `tag == NUKE`: the Ballista on `from` fires a Nuke at `to`.
//!
//! In every kind, `extra[0]` is the square where the captured face-up
//! token is placed ([`NO_SQUARE`] when nothing returns or it must wait),
//! and `path` lists the squares where the mover's waiting tokens are placed
//! before the move, in kind order (Pawn, Knight, Bishop, Rook, King).
//!
//! # FEN
//! `*tsfat*/eeeeeee/7/*5*/7/EEEEEEE/*TSFAT*[] w 1/1 0 1`: letters `E S A T F`
//! (face up) and `P N B R K` (backs), upper case White; `+` before a letter
//! marks a promoted piece (`+A`); `*` a missing square or a crater; waiting
//! tokens in `[...]` (backs only); then side to move, Nukes held as
//! `White/Black`, halfmove clock, move number, and `1-0` / `0-1` once a
//! King has been taken.
//!
//! # Notation
//! - Coordinate (canonical, records and `perft --divide`): `b1b4`,
//!   promotion `c5c6a`, rifle `e1xc3`, Nuke `e1xxc4`, return placement
//!   after the move `e3c3>b2`, waiting placements before it `R@f1,b1b4`.
//! - Display (the page's algebraic): SAN (`Tb4`, `Axc3` for a rifle,
//!   `c6=A`); with placements, the page's `P>b2,e3xc3` (placements, then
//!   the move in long form); Nukes `Bxxc4,xc3,b4,c4,d5` (destroyed squares
//!   in board order; any order is read; a wrong list is refused).
//! - Game Courier: `T b1-b4`, `P c5-c6; +A*c6`, placements as drops
//!   (`R*f1; T b1-b4`, `T e3-c3; p*b6`), rifle `A e1-c3; A c3-e1`, Nuke
//!   `A e1-c4; A c4-e1; *c4`.
//!
//! # Perft conventions
//! Every distinct placement choice is a distinct move; an EquiRepeater or
//! Fore'n'aft destination reachable in several ways is one move; a rifle
//! capture and a Nuke on the same square are two moves; each promotion
//! choice is a move; a position where a King has been taken has no moves.

mod explain;
mod fen;
mod moves;
mod notation_read;
mod notation_write;
mod words;

use crate::errors::{FenError, MoveError};
use crate::geometry::Geometry;
use crate::movement::{PieceDef, PieceSet};
use crate::moves::Move;
use crate::piece::{Kind, Piece};
use crate::position::Position;
use crate::variant::{Notation, Outcome, PieceLabel, RepetitionRule, Variant};

pub(crate) const EQUIHOPPER: Kind = 0;
pub(crate) const NONSTOP: Kind = 1;
pub(crate) const BALLISTA: Kind = 2;
pub(crate) const REPEATER: Kind = 3;
pub(crate) const FORENAFT: Kind = 4;
pub(crate) const PAWN: Kind = 5;
pub(crate) const KNIGHT: Kind = 6;
pub(crate) const BISHOP: Kind = 7;
pub(crate) const ROOK: Kind = 8;
pub(crate) const KING: Kind = 9;
const KINDS: usize = 10;

/// FEN letters by kind (upper case; Black's are lower case).
pub(crate) const LETTERS: [char; KINDS] = ['E', 'S', 'A', 'T', 'F', 'P', 'N', 'B', 'R', 'K'];
const NAMES: [&str; KINDS] = [
    "Equihopper",
    "Non-stop Equihopper",
    "Ballista",
    "EquiRepeater",
    "Fore'n'aft",
    "Pawn",
    "Knight",
    "Bishop",
    "Rook",
    "King",
];
/// What a Pawn may become, in the order shown.
pub(crate) const PROMOTIONS: [Kind; 9] = [
    EQUIHOPPER, NONSTOP, BALLISTA, REPEATER, FORENAFT, KNIGHT, BISHOP, ROOK, KING,
];
/// Waiting tokens are placed in this order.
const HAND_ORDER: [Kind; 5] = [PAWN, KNIGHT, BISHOP, ROOK, KING];

pub(crate) const RIFLE: u8 = 1;
pub(crate) const NUKE: u8 = 2;
/// The name of the counters each side holds ([`Variant::held_counters`]).
pub(crate) const NUKE_NAME: &str = "Nuke";
/// `Position::castling` bits: the game is decided by a taken King.
pub(crate) const WHITE_WON: u8 = 1;
pub(crate) const BLACK_WON: u8 = 2;

pub(crate) const START: &str = "*tsfat*/eeeeeee/7/*5*/7/EEEEEEE/*TSFAT*[] w 1/1 0 1";
const HOLES: [&str; 6] = ["a1", "g1", "a4", "g4", "a7", "g7"];
/// Relative rank (from the owner's side) of the opponent's pawn row.
const PROMOTION_RANK: u8 = 5;

const RULES: &str = include_str!("rules.txt");

pub(crate) struct Fleap {
    geometry: Geometry,
    /// Movement of the FIDE faces and the Ballista's quiet move, as data.
    pieces: PieceSet,
}

impl Default for Fleap {
    fn default() -> Self {
        Fleap::new()
    }
}
impl Fleap {
    pub(crate) fn new() -> Fleap {
        let defs = (0..KINDS)
            .map(|k| {
                let betza = match k as Kind {
                    BALLISTA => "mQ2",
                    PAWN => "mfWcfF",
                    KNIGHT => "N",
                    BISHOP => "B",
                    ROOK => "R",
                    KING => "K",
                    _ => "",
                };
                PieceDef::new(LETTERS[k], NAMES[k], betza)
            })
            .collect();
        Fleap {
            geometry: Geometry::with_holes(7, 7, &HOLES),
            pieces: PieceSet::new(defs),
        }
    }
}

impl Variant for Fleap {
    fn id(&self) -> &'static str {
        "fleap"
    }
    fn name(&self) -> &'static str {
        "Fleap"
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
        Fleap::piece_label(self, piece)
    }
    fn parse_fen(&self, fen: &str) -> Result<Position, FenError> {
        Fleap::parse_fen(self, fen)
    }
    fn fen(&self, pos: &Position) -> String {
        Fleap::fen(self, pos)
    }
    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        Fleap::legal_moves(self, pos)
    }
    fn play(&self, pos: &Position, mv: &Move) -> Position {
        Fleap::play(self, pos, mv)
    }
    fn outcome(&self, pos: &Position, legal: &[Move]) -> Option<Outcome> {
        Fleap::outcome(self, pos, legal)
    }
    fn repetition_rule(&self) -> RepetitionRule {
        RepetitionRule::ThreefoldDraw
    }
    fn format_move(&self, pos: &Position, mv: &Move, notation: Notation) -> String {
        Fleap::format_move(self, pos, mv, notation)
    }
    fn format_move_among(
        &self,
        pos: &Position,
        legal: &[Move],
        mv: &Move,
        notation: Notation,
    ) -> String {
        Fleap::format_move_among(self, pos, legal, mv, notation)
    }
    fn legal_displays(&self, pos: &Position, legal: &[Move]) -> Vec<String> {
        self.written(pos, legal)
            .into_iter()
            .map(|w| w.display)
            .collect()
    }
    fn moves_may_cost_own_pieces(&self) -> bool {
        true
    }
    fn describe_move(&self, pos: &Position, mv: &Move) -> String {
        self.words(pos, mv)
    }
    fn parse_move(&self, pos: &Position, legal: &[Move], text: &str) -> Result<Move, MoveError> {
        Fleap::parse_move(self, pos, legal, text)
    }
    fn family(&self) -> crate::family::Family {
        crate::family::Family::GameCourier
    }
    fn kind_count(&self) -> usize {
        KING as usize + 1
    }
    /// `crater` on each square a Nuke destroyed.
    fn state_marks(&self, pos: &Position) -> Vec<(crate::geometry::Square, &'static str)> {
        let board = &self.geometry().holes;
        pos.holes()
            .iter()
            .filter(|s| !board.contains(*s))
            .map(|s| (s, "crater"))
            .collect()
    }
    /// The Nukes each side holds (letter `*`, the only label with it).
    fn held_counters(&self, pos: &Position) -> Vec<crate::variant::HandItem> {
        use crate::piece::Color;
        [Color::White, Color::Black]
            .into_iter()
            .filter(|c| pos.counters[c.index()] > 0)
            .map(|color| crate::variant::HandItem {
                color,
                label: PieceLabel {
                    letter: "*".into(),
                    name: NUKE_NAME.into(),
                    direction: None,
                    symbol: "*".into(),
                },
                count: pos.counters[color.index()],
            })
            .collect()
    }
    fn legend_notes(&self) -> Vec<String> {
        vec![
            "Nukes: each side's count is shown with its hand, above the board for the side at the top and below it for the other (the trefoil), and here. Only a Ballista (A) fires one; moves write a Nuke as the original page does, Bxx… (B for the bomb, not a Bishop): Bxxc4,xc3,d5 is a Nuke on c4 destroying c3 and d5.".into(),
            "A burnt square with a star is a crater left by a Nuke; the board's own holes (a1, g1, a4, g4, a7, g7) are not drawn at all.".into(),
            "A white + marks a promoted piece. Face-up tokens (E S A T F) come back as P N B R K when captured.".into(),
        ]
    }
    fn max_perft_depth(&self) -> u32 {
        6
    }
}
