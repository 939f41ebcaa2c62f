//! Leaperhouse (Daphne Snowmoon, 2024): a 10x10 drop variant with only
//! leapers, shogi pawns and kings, played exactly as Fairy-Stockfish's
//! `leaperhouse` definition except for repetition (see the rulings).
//!
//! Representation:
//! - Kinds: see the constants below. The Guard (promoted pawn) is its own
//!   kind [`GUARD`] with `promoted = true`, written `+P` in the FEN; when
//!   captured it goes to the captor's hand as a Pawn.
//! - Moves: `MoveKind::Normal` (`piece` = the Guard for a promotion) and
//!   `MoveKind::Drop` (`piece` = the dropped piece). No special moves.
//! - Only leapers and one-step pieces exist, so nothing can be blocked or
//!   pinned: a drop never answers a check, a non-King move is legal exactly
//!   when it captures the only checker (or there is no check), and a King
//!   move is legal when its target is not attacked. Legality is decided
//!   without copy-make, which keeps perft fast.
//!
//! The pieces, the constants and the `Variant` impl are here; each part of
//! the rules has its file: `moves` (move and drop generation, and playing),
//! `fen`, `notation`, and `explain` (why a move or drop is not legal).

mod explain;
mod fen;
mod moves;
mod notation;

use crate::errors::{FenError, MoveError};
use crate::geometry::Geometry;
use crate::movement::{PieceDef, PieceSet};
use crate::moves::Move;
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;
use crate::variant::{Notation, Outcome, PieceLabel, Reason, RepetitionRule, Variant};
use moves::Count;

pub(crate) const PAWN: Kind = 0;
pub(crate) const KNIGHT: Kind = 1;
pub(crate) const BULL: Kind = 2;
pub(crate) const CAMEL: Kind = 3;
pub(crate) const ZEBRA: Kind = 4;
pub(crate) const RAM: Kind = 5;
pub(crate) const GUARD: Kind = 6;
pub(crate) const KING: Kind = 7;

/// Kinds that can be held in hand and dropped.
const DROPPABLE: [Kind; 6] = [PAWN, KNIGHT, BULL, CAMEL, ZEBRA, RAM];
/// The order Fairy-Stockfish writes a pocket in (its piece types, highest
/// first: custom pieces 4..1, then the shogi pawn, then the knight).
const HAND_ORDER: [Kind; 6] = [BULL, RAM, CAMEL, ZEBRA, PAWN, KNIGHT];

const SIZE: u8 = 10;
/// First rank (0-based, relative to the owner) of the enemy camp: ranks 8-10.
const CAMP_START: u8 = 7;
/// The far rank (0-based, relative): a King arriving there wins.
const FAR_RANK: u8 = SIZE - 1;

pub(crate) const START: &str =
    "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECNU[] w - - 0 1";

const RULES: &str = "Leaperhouse is a drop variant by Daphne Snowmoon on a 10x10 board. Apart from the Kings and the Pawns, every piece is a leaper: it jumps straight to its target square, whatever stands between.

Start position: White's Bull, Knight, Camel, Elephant, King, Ram, Elephant, Camel, Knight, Bull stand on a1 to j1 and ten Pawns on rank 3; Black's army faces them turned half around (the board rotated), so Black's Ram is on e10 and King on f10, with Black's Pawns on rank 8 (FEN unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECNU[] w - - 0 1). White moves first.

Pieces. King (K): one square in any direction. Pawn (P): one square straight forward, and it captures the same way (a shogi pawn; no double step, no en passant). Guard (+P, a promoted Pawn): one square in any direction, like a King, but it is not royal. Knight (N): the usual (1,2) leap. Bull (U): leaps two squares orthogonally or two squares diagonally, that is (2,0) or (2,2). Camel (C): the (3,1) leap. Elephant (E): the (3,2) leap (a zebra). Ram (A): leaps three squares orthogonally or three squares diagonally, that is (3,0) or (3,3).

Check and checkmate. A King may never be left attacked. Checkmating the opposing King wins. Checking or mating by a drop is allowed, with a Pawn drop too.

Promotion. The enemy camp is ranks 8 to 10 for White and ranks 3 to 1 for Black. Only Pawns promote: a Pawn that moves into the camp, or moves within it, becomes a Guard at once; this is compulsory. A Pawn dropped into the camp stays a Pawn until it moves.

Drops. A piece you capture goes to your hand, in its unpromoted form (a captured Guard becomes a Pawn). On your turn you either move a piece or drop one piece from your hand on any empty square; dropped pieces are never promoted. A Pawn may not be dropped on your last rank (rank 10 for White, rank 1 for Black), nor on a file where you already have an unpromoted Pawn (a Guard does not count).

End of the game. You win by checkmate; by campmate, when your King reaches the far rank (rank 10 for White, rank 1 for Black), which it can only do onto a square that is not attacked; and when your opponent has no legal move or drop at all (stalemate loses). There is no castling and no 50-move rule. A player may resign on their own turn.

Repetition. A move or drop that would make the same position (board, pieces in hand and side to move) occur for the third time is not allowed. The one exception: if every move of your opponent since the first of those occurrences gave check, you may repeat; the checking side may not, so repeated checks cannot win or draw. A player left with no legal move because of this rule has lost by stalemate.

How Missive settles the rule page. The page's own text has slips from an earlier 9x9 draft; Missive follows the inventor's Fairy-Stockfish definition printed with the page: the board is 10x10, the camp is three ranks deep (ranks 8-10, not 7-9), and the last rank is rank 10. The page's line describing the King as moving forward and promoting to a Queen is a copying slip: the King is a normal King. The Guard moves one square in any direction (the page's \"orthogonally\" is superseded). Unlike Fairy-Stockfish, which scores repetitions, Missive forbids the repeating move as described above.

Notation. Records use coordinates as Fairy-Stockfish writes them: b1c3, a drop C@e5 (the piece letter is upper case for both sides), a promotion e7e8+. The move list shows a short algebraic form: Nc3, Nxc3, C@e5, e8+ for a promotion, Ge5 for a Guard, # after a checkmating move (checks are not marked, since + means promotion). Game Courier forms are accepted and written: N b1-c3, C*e5, P e7-e8 (promotes automatically; P e7-e8; +P*e8 is also accepted), +P e5-e6 for a Guard. Positions are exchanged in Fairy-Stockfish's FEN: pieces in hand in brackets after the board, a Guard written +P.";

pub(crate) struct Leaperhouse {
    geometry: Geometry,
    pieces: PieceSet,
    /// The longest leap component of any piece: no piece attacks a square
    /// farther than this along either axis.
    reach: u8,
}

impl Leaperhouse {
    pub(crate) fn new() -> Leaperhouse {
        let pieces = PieceSet::new(vec![
            PieceDef::new('P', "Pawn", "fW"),
            PieceDef::new('N', "Knight", "N"),
            PieceDef::new('U', "Bull", "AD"),
            PieceDef::new('C', "Camel", "C"),
            PieceDef::new('E', "Elephant", "Z"),
            PieceDef::new('A', "Ram", "GH"),
            PieceDef::new('G', "Guard", "K"),
            PieceDef::new('K', "King", "K").royal(),
        ]);
        let reach = pieces
            .defs
            .iter()
            .flat_map(|d| &d.atoms)
            .map(|a| a.dx.unsigned_abs().max(a.dy.unsigned_abs()))
            .max()
            .unwrap_or(0);
        Leaperhouse {
            geometry: Geometry::rect(SIZE, SIZE),
            pieces,
            reach,
        }
    }

    fn letter(&self, kind: Kind) -> char {
        self.pieces.def(kind).letter
    }

    fn name(&self, kind: Kind) -> &'static str {
        self.pieces.def(kind).name
    }
}

impl Default for Leaperhouse {
    fn default() -> Self {
        Leaperhouse::new()
    }
}

impl Variant for Leaperhouse {
    fn id(&self) -> &'static str {
        "leaperhouse"
    }
    fn name(&self) -> &'static str {
        "Leaperhouse"
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
        let letter = if piece.kind == GUARD {
            "+P".to_string()
        } else {
            self.letter(piece.kind).to_string()
        };
        let letter = if piece.color == Color::Black {
            letter.to_ascii_lowercase()
        } else {
            letter
        };
        PieceLabel {
            symbol: String::new(),
            letter,
            name: self.name(piece.kind).to_string(),
            direction: None,
        }
    }
    fn parse_fen(&self, fen: &str) -> Result<Position, FenError> {
        self.read_fen(fen)
    }
    fn fen(&self, pos: &Position) -> String {
        self.write_fen(pos)
    }
    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        let mut out = Vec::with_capacity(128);
        self.generate(pos, &mut out);
        out
    }
    fn perft(&self, pos: &Position, depth: u32) -> u64 {
        if depth == 1 {
            // The last ply is counted as generated, drops by the square.
            let mut n = Count(0);
            self.generate(pos, &mut n);
            return n.0;
        }
        crate::variant::perft_by_moves(self, pos, depth)
    }
    fn play(&self, pos: &Position, mv: &Move) -> Position {
        self.do_play(pos, mv)
    }
    fn outcome(&self, pos: &Position, legal: &[Move]) -> Option<Outcome> {
        let us = pos.side;
        if Self::campmate_reached(pos) {
            return Some(Outcome::win(us.opponent(), Reason::Campmate));
        }
        if !legal.is_empty() {
            return None;
        }
        // No move left: the side to move loses. When moves exist but the
        // repetition rule forbids them all, the rulings call it stalemate.
        let reason = if self.in_check_now(pos) && self.legal_moves(pos).is_empty() {
            Reason::Checkmate
        } else {
            Reason::Stalemate
        };
        Some(Outcome::win(us.opponent(), reason))
    }
    fn in_check(&self, pos: &Position) -> bool {
        self.in_check_now(pos)
    }
    fn repetition_rule(&self) -> RepetitionRule {
        RepetitionRule::ThirdIllegalUnlessChecked
    }
    fn plus_marks_check(&self) -> bool {
        false
    }
    fn repetition_key_after(&self, pos: &Position, key: u64, mv: &Move) -> u64 {
        self.key_after(pos, key, mv)
    }
    fn format_move(&self, pos: &Position, mv: &Move, notation: Notation) -> String {
        match notation {
            Notation::Coordinate => self.coordinate(mv),
            Notation::GameCourier => self.game_courier(pos, mv),
            Notation::Display => self.display(pos, mv),
        }
    }
    fn format_move_among(
        &self,
        pos: &Position,
        legal: &[Move],
        mv: &Move,
        notation: Notation,
    ) -> String {
        match notation {
            Notation::Display => self.display_among(pos, legal, mv),
            _ => self.format_move(pos, mv, notation),
        }
    }
    fn legal_displays(&self, pos: &Position, legal: &[Move]) -> Vec<String> {
        legal
            .iter()
            .map(|m| self.display_among(pos, legal, m))
            .collect()
    }
    fn parse_move(&self, pos: &Position, legal: &[Move], text: &str) -> Result<Move, MoveError> {
        self.read_move(pos, legal, text)
    }
    fn family(&self) -> crate::family::Family {
        crate::family::Family::GameCourier
    }
    fn kind_count(&self) -> usize {
        KING as usize + 1
    }
    fn legend_notes(&self) -> Vec<String> {
        vec!["Captured pieces go to the captor's hand (shown with counts above the board for the side at the top, below it for the side at the bottom) and may be dropped.".into()]
    }
    fn max_perft_depth(&self) -> u32 {
        6
    }
}
