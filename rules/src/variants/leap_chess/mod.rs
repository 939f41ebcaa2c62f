//! Leap Chess (Ken Franklin, 2004) and its sub-variants, as configurations
//! of the chess-like machinery:
//!
//! - `leap-chess`: 6x8 board without its corners, leapers (Alfil, Dabbabah,
//!   Sail), castling with the Knights, double steps only from the second
//!   rank, compulsory capture, stalemate loses, bare King loses;
//! - `leap-chess-multi`: the same, but a capturing piece must go on
//!   capturing while it can: the whole chain is one move
//!   ([`MoveKind::Chain`]: `from`, then the landing squares in `path`, then
//!   `to`; `piece` is the promotion result when a Pawn's chain ends on the
//!   last rank);
//! - `leap-chess-optional`: captures not compulsory;
//! - `leap-chess-64`: the chess array on 8x8 with the leapers.
//!
//! Chain readings (the page is silent; stated in the rules text): "while it
//! can" means while the piece has a capture by its movement, and only the
//! end of the turn is tested for check, so a capture all of whose chains end
//! in check may not be made; a chain never takes the King; a Pawn capturing
//! onto the last rank promotes and ends the chain; en passant may start a
//! chain or be taken within one while the en passant square is live.
//!
//! Letters: the FEN keeps the rulings' `Q`/`R`/`B` for Sail, Dabbabah and
//! Alfil (Fairy-Stockfish compatible); SAN shows `S`/`D`/`A`, which name the
//! pieces themselves, and the move reader accepts both sets.

mod moves;
mod notation;

use super::chesslike::{def, fide_castlings, Castling, ChessLike};
use crate::errors::{FenError, MoveError};
use crate::fen;
use crate::geometry::{Geometry, Square};
use crate::movement::PieceSet;
use crate::moves::Move;
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;
use crate::variant::{Notation, Outcome, PieceLabel, RepetitionRule, Variant};
use notation::LeapExplain;

pub(crate) const PAWN: Kind = 0;
pub(crate) const KNIGHT: Kind = 1;
pub(crate) const ALFIL: Kind = 2;
pub(crate) const DABBABAH: Kind = 3;
pub(crate) const SAIL: Kind = 4;
pub(crate) const KING: Kind = 5;

/// Letters shown in SAN, by kind: they name the pieces themselves.
const SAN_LETTERS: [char; 6] = ['P', 'N', 'A', 'D', 'S', 'K'];
/// The FEN letters, read in SAN and Game Courier text as the SAN letters.
const ALIASES: [(char, char); 3] = [('B', 'A'), ('R', 'D'), ('Q', 'S')];

pub(crate) const START_44: &str = "*nqkn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQKN* w KQkq - 0 1";
pub(crate) const START_64: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A side starts with 16 pieces and can never have more (promotion replaces
/// a Pawn). Positions are held to that in `leap-chess-multi`, so a capture
/// chain has at most 15 captures and its landing squares fit a [`Path`].
const MAX_PIECES_PER_SIDE: usize = 16;

const RULES_44: &str = include_str!("rules_44.txt");

const RULES_MULTI: &str = include_str!("rules_multi.txt");

const RULES_OPTIONAL: &str = include_str!("rules_optional.txt");

const RULES_64: &str = include_str!("rules_64.txt");

/// Leap Chess or one of its sub-variants.
pub(crate) struct LeapChess {
    pub(crate) base: ChessLike,
    /// `leap-chess-multi`: a capturing piece goes on capturing, as one move.
    multi: bool,
}

fn pieces() -> PieceSet {
    PieceSet::new(vec![
        def('P', "Pawn", "mfWcfF"),
        def('N', "Knight", "N"),
        def('B', "Alfil", "A"),
        def('R', "Dabbabah", "D"),
        def('Q', "Sail", "AD"),
        def('K', "King", "K").royal(),
    ])
}

/// Castling with the Knights on the 44-square board. King-side the King
/// and the e-Knight swap; queen-side the King goes to c and the b-Knight to
/// d. Only the King's own squares must be safe (it crosses none); the
/// coordinate forms are Fairy-Stockfish's (`d1e1`, and `d1b1` as
/// king-takes-knight because `d1c1` is an ordinary King move).
pub(crate) fn knight_castlings() -> Vec<Castling> {
    let (b, c, d, e) = (1, 2, 3, 4);
    let mut out = Vec::new();
    for (color, rank, k, q, kb, qb) in [
        (Color::White, 0, 'K', 'Q', 1, 2),
        (Color::Black, 7, 'k', 'q', 4, 8),
    ] {
        let sq = |file: u8| Square::new(file, rank);
        out.push(Castling {
            color,
            right: k,
            bit: kb,
            king_side: true,
            king_from: sq(d),
            king_to: sq(e),
            partner_from: sq(e),
            partner_to: sq(d),
            partner: KNIGHT,
            empty: vec![],
            safe: vec![sq(d), sq(e)],
            coordinate_to: sq(e),
        });
        out.push(Castling {
            color,
            right: q,
            bit: qb,
            king_side: false,
            king_from: sq(d),
            king_to: sq(c),
            partner_from: sq(b),
            partner_to: sq(d),
            partner: KNIGHT,
            empty: vec![sq(c)],
            safe: vec![sq(d), sq(c)],
            coordinate_to: sq(b),
        });
    }
    out
}

struct Config {
    id: &'static str,
    name: &'static str,
    rules: &'static str,
    sixty_four: bool,
    compulsory: bool,
    multi: bool,
    /// What `missive perft` counts in minutes from the start.
    max_perft_depth: u32,
}

impl LeapChess {
    fn build(c: Config) -> LeapChess {
        let (geometry, start, castlings) = if c.sixty_four {
            (Geometry::rect(8, 8), START_64, fide_castlings(DABBABAH, 8))
        } else {
            (
                Geometry::with_holes(6, 8, &["a1", "f1", "a8", "f8"]),
                START_44,
                knight_castlings(),
            )
        };
        LeapChess {
            base: ChessLike {
                id: c.id,
                name: c.name,
                max_perft_depth: c.max_perft_depth,
                pgn_variant: Some(c.id),
                geometry,
                start_fen: start,
                rules_text: c.rules,
                side_names: ["Red", "Black"],
                pieces: pieces(),
                pawn: PAWN,
                king: KING,
                promotions: vec![SAIL, DABBABAH, ALFIL, KNIGHT],
                double_step_rank: Some(1),
                castlings,
                compulsory_capture: c.compulsory,
                stalemate_loses: true,
                bare_king_loses: true,
                move_count_limit: Some(100),
                // K v K cannot arise (a bare King has already lost), and a
                // lone minor piece can still win by baring or stalemating.
                insufficient_material: false,
                small_board: Default::default(),
            },
            multi: c.multi,
        }
    }

    /// `leap-chess`.
    pub(crate) fn standard() -> LeapChess {
        LeapChess::build(Config {
            id: "leap-chess",
            name: "Leap Chess",
            rules: RULES_44,
            sixty_four: false,
            compulsory: true,
            multi: false,
            max_perft_depth: 9,
        })
    }

    /// `leap-chess-multi`.
    pub(crate) fn multi() -> LeapChess {
        LeapChess::build(Config {
            id: "leap-chess-multi",
            name: "Leap Chess (multiple captures)",
            rules: RULES_MULTI,
            sixty_four: false,
            compulsory: true,
            multi: true,
            max_perft_depth: 8,
        })
    }

    /// `leap-chess-optional`.
    pub(crate) fn optional() -> LeapChess {
        LeapChess::build(Config {
            id: "leap-chess-optional",
            name: "Leap Chess (captures optional)",
            rules: RULES_OPTIONAL,
            sixty_four: false,
            compulsory: false,
            multi: false,
            max_perft_depth: 8,
        })
    }

    /// `leap-chess-64`.
    pub(crate) fn sixty_four() -> LeapChess {
        LeapChess::build(Config {
            id: "leap-chess-64",
            name: "Leap Chess (64 squares)",
            rules: RULES_64,
            sixty_four: true,
            compulsory: true,
            multi: false,
            max_perft_depth: 7,
        })
    }
}

impl Variant for LeapChess {
    fn id(&self) -> &'static str {
        self.base.id
    }
    fn name(&self) -> &'static str {
        self.base.name
    }
    fn geometry(&self) -> &Geometry {
        &self.base.geometry
    }
    fn side_name(&self, color: Color) -> &'static str {
        match color {
            Color::Black => self.base.side_names[1],
            _ => self.base.side_names[0],
        }
    }
    fn start_fen(&self) -> &'static str {
        self.base.start_fen
    }
    fn rules_text(&self) -> &'static str {
        self.base.rules_text
    }
    fn piece_label(&self, piece: Piece) -> PieceLabel {
        let mut label = self.base.piece_label(piece);
        // Boards show the letters the display notation uses (S, D, A).
        label.symbol = SAN_LETTERS[piece.kind as usize].to_string();
        label
    }

    fn parse_fen(&self, text: &str) -> Result<Position, FenError> {
        let pos = self.base.parse_fen(text)?;
        if self.multi {
            for color in [Color::White, Color::Black] {
                let n = pos.pieces().filter(|(_, p)| p.color == color).count();
                if n > MAX_PIECES_PER_SIDE {
                    return Err(FenError::Invalid(format!(
                        "{} has {n} pieces; a side has at most {MAX_PIECES_PER_SIDE}",
                        self.side_name(color)
                    )));
                }
            }
        }
        Ok(pos)
    }

    fn fen(&self, pos: &Position) -> String {
        let board = fen::write_board(pos, |p| self.fen_label(p));
        let side = if pos.side == Color::White { "w" } else { "b" };
        let mut rights: String = self
            .base
            .castlings
            .iter()
            .filter(|r| pos.castling & r.bit != 0)
            .map(|r| r.right)
            .collect();
        if rights.is_empty() {
            rights.push('-');
        }
        let ep = match pos.ep {
            Some(e) if self.en_passant_possible(pos) => e.name(),
            _ => "-".into(),
        };
        format!(
            "{board} {side} {rights} {ep} {} {}",
            pos.halfmove, pos.fullmove
        )
    }

    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        self.legal(pos)
    }

    fn play(&self, pos: &Position, mv: &Move) -> Position {
        self.play_move(pos, mv)
    }

    fn perft(&self, pos: &Position, depth: u32) -> u64 {
        // Capture chains are beyond the bitboard engine.
        let fast = (!self.multi).then(|| self.base.fast_perft(pos, depth));
        fast.flatten()
            .unwrap_or_else(|| crate::variant::perft_by_moves(self, pos, depth))
    }

    fn outcome(&self, pos: &Position, legal: &[Move]) -> Option<Outcome> {
        self.base.outcome(pos, legal)
    }

    fn in_check(&self, pos: &Position) -> bool {
        self.base.in_check(pos)
    }

    fn repetition_rule(&self) -> RepetitionRule {
        RepetitionRule::ThreefoldDraw
    }

    /// En passant makes positions differ only when it can be taken.
    fn repetition_key(&self, pos: &Position) -> u64 {
        if pos.ep.is_some() && !self.en_passant_possible(pos) {
            let mut p = pos.clone();
            p.ep = None;
            return p.hash();
        }
        pos.hash()
    }

    fn format_move(&self, pos: &Position, mv: &Move, notation: Notation) -> String {
        match notation {
            Notation::Coordinate => self.coordinate(mv),
            Notation::GameCourier => self.game_courier(pos, mv),
            Notation::Display => self.display(pos, mv),
        }
    }

    fn legal_displays(&self, pos: &Position, legal: &[Move]) -> Vec<String> {
        self.displays(pos, legal)
    }

    fn parse_move(&self, pos: &Position, legal: &[Move], text: &str) -> Result<Move, MoveError> {
        // Check marks are dropped here because a chain (`c3xe5xc7+`) is only
        // read by its exact forms.
        let text = text.trim().trim_end_matches(['+', '#', '!', '?']);
        if let Some(m) = crate::notation::exact_among_named_or_castling(text, legal, |named| {
            self.candidates(pos, named)
        }) {
            return Ok(m);
        }
        let cands = self.candidates(pos, legal);
        let explain = LeapExplain {
            v: self,
            pos,
            legal,
        };
        match crate::notation::read_move_with_aliases(text, &cands, &explain, &ALIASES) {
            Ok(i) => Ok(legal[i]),
            Err(MoveError::Syntax { input, reason }) => Err(self
                .explain_chain(legal, text)
                .unwrap_or(MoveError::Syntax { input, reason })),
            Err(e) => Err(e),
        }
    }
    fn family(&self) -> crate::family::Family {
        crate::family::Family::GameCourier
    }
    fn kind_count(&self) -> usize {
        KING as usize + 1
    }
    fn legend_notes(&self) -> Vec<String> {
        vec!["Red moves first. The board, the moves (SAN) and mail diagrams use S Sail, D Dabbabah, A Alfil; the FEN and the Game Courier log write them Q, R, B (lower case for Black in the FEN); moves may be typed with either.".into()]
    }
    fn max_perft_depth(&self) -> u32 {
        self.base.max_perft_depth
    }
}
