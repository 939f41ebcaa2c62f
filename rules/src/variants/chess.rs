//! FIDE chess, the reference variant.

use super::chesslike::{chess_like_variant, def, fide_castlings, ChessLike};
use crate::geometry::Geometry;
use crate::movement::PieceSet;

pub(crate) struct Chess(pub ChessLike);

pub(crate) const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

const RULES: &str = "FIDE chess, played by the FIDE Laws of Chess: castling, en passant, promotion to Queen, Rook, Bishop or Knight, checkmate wins, stalemate is a draw.

The server ends the game as a draw automatically on the third occurrence of the same position (same side to move, same castling and en passant possibilities), after 50 moves by each side without a capture or a pawn move, and when neither side can possibly checkmate (King against King, King and Bishop or Knight against King, or Kings and Bishops only, all on squares of one colour).

Moves may be entered in SAN (Nf3, exd5, O-O, e8=Q), in coordinates (g1f3, e7e8q) or in Game Courier form (N g1-f3, e2-e4, P e7-e8; Q*e8). Records show SAN.";

impl Chess {
    pub(crate) fn new() -> Chess {
        const PAWN: u8 = 0;
        const KNIGHT: u8 = 1;
        const BISHOP: u8 = 2;
        const ROOK: u8 = 3;
        const QUEEN: u8 = 4;
        const KING: u8 = 5;
        let pieces = PieceSet::new(vec![
            def('P', "Pawn", "mfWcfF"),
            def('N', "Knight", "N"),
            def('B', "Bishop", "B"),
            def('R', "Rook", "R"),
            def('Q', "Queen", "Q"),
            def('K', "King", "K").royal(),
        ]);
        Chess(ChessLike {
            id: "chess",
            name: "Chess",
            max_perft_depth: 8,
            pgn_variant: None,
            geometry: Geometry::rect(8, 8),
            start_fen: START,
            rules_text: RULES,
            side_names: ["White", "Black"],
            pieces,
            pawn: PAWN,
            king: KING,
            promotions: vec![QUEEN, ROOK, BISHOP, KNIGHT],
            double_step_rank: Some(1),
            castlings: fide_castlings(ROOK, 8),
            compulsory_capture: false,
            stalemate_loses: false,
            bare_king_loses: false,
            move_count_limit: Some(100),
            insufficient_material: true,
            small_board: Default::default(),
        })
    }
}

impl Default for Chess {
    fn default() -> Self {
        Chess::new()
    }
}

chess_like_variant!(Chess);
