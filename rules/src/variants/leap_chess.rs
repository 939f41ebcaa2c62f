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

use super::chesslike::{def, fide_castlings, Castling, ChessLike};
use crate::errors::{FenError, MoveError};
use crate::fen;
use crate::geometry::{Geometry, Square};
use crate::movement::PieceSet;
use crate::moves::{Move, MoveKind, Path, NO_SQUARE};
use crate::notation::{self, Candidate, Explain};
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;
use crate::variant::{Notation, Outcome, PieceLabel, RepetitionRule, Variant};

pub const PAWN: Kind = 0;
pub const KNIGHT: Kind = 1;
pub const ALFIL: Kind = 2;
pub const DABBABAH: Kind = 3;
pub const SAIL: Kind = 4;
pub const KING: Kind = 5;

/// Letters shown in SAN, by kind: they name the pieces themselves.
const SAN_LETTERS: [char; 6] = ['P', 'N', 'A', 'D', 'S', 'K'];
/// The FEN letters, read in SAN and Game Courier text as the SAN letters.
const ALIASES: [(char, char); 3] = [('B', 'A'), ('R', 'D'), ('Q', 'S')];

pub const START_44: &str = "*nqkn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQKN* w KQkq - 0 1";
pub const START_64: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A side starts with 16 pieces and can never have more (promotion replaces
/// a Pawn). Positions are held to that in `leap-chess-multi`, so a capture
/// chain has at most 15 captures and its landing squares fit a [`Path`].
const MAX_PIECES_PER_SIDE: usize = 16;

const RULES_44: &str = "Leap Chess, by Ken Franklin (2004): chess on 44 squares in which every piece but the King and the Pawns leaps, captures are compulsory and stalemate loses. The sides are Red, who moves first, and Black.

Board and start. Six files (a–f) by eight ranks, with the four corners a1, f1, a8 and f8 cut out. Red: King d1, Sail c1, Knights b1 and e1, Dabbabahs a2 and f2, Alfils c2 and d2, Pawns b2, e2 and a3–f3. Black: King d8, Sail c8, Knights b8 and e8, Dabbabahs a7 and f7, Alfils c7 and d7, Pawns b7, e7 and a6–f6. (The original page puts a Black Dabbabah on “g7”, a slip for f7.)

Pieces. The King and the Knight move as in chess. The Alfil leaps exactly two squares diagonally; the Dabbabah leaps exactly two squares straight (left, right, up or down); the Sail moves as either. A leaper passes over occupied squares and over the missing corners, but never lands on a missing corner. Every piece captures by landing on the enemy piece.

Pawns move and capture as in chess, with two differences: only the Pawns that start on the second rank (b2 and e2; b7 and e7) may advance two squares on their first move, and only that double step can be taken en passant; the Pawns starting on the third rank have no double step. A Pawn reaching the last rank (rank 8 for Red, rank 1 for Black) becomes a Sail, Dabbabah, Alfil or Knight, as its player chooses.

Castling is done with the Knights, under the chess conditions: neither the King nor that Knight has moved, the King is not in check, and the square the King goes to is not attacked. King-side, the King and the e-Knight swap places (King d1 to e1, Knight e1 to d1). Queen-side, the King moves to c1, which must be empty, and the b-Knight leaps to d1. Black castles alike on rank 8.

Captures are compulsory: a player who can capture (en passant included) must capture, choosing freely among the captures. Only legal captures count: a player in check who can capture out of check must do so; otherwise any move out of check will do. Castling is not a capture.

End of the game. Checkmate wins. A player who is not in check and has no legal move is stalemated and loses. A player left with a bare King (nothing but the King) loses at once; if a capture leaves both sides with bare Kings, the player who captured wins. (The bare-King rule is not on the original page; this server adopts it.) The game is drawn automatically on the third occurrence of the same position (same player to move, same castling and en passant possibilities) and after 50 moves by each side without a capture or a Pawn move.

Notation. In the position string (FEN) the Sail is written Q, the Dabbabah R and the Alfil B (the letters of the chess pieces they stand in for), lower case for Black, and a missing corner *: the start is *nqkn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQKN* w KQkq - 0 1. Moves are shown in SAN with letters that name the pieces themselves: S Sail, D Dabbabah, A Alfil, N Knight, K King (Axe4, Dd4, b8=S, O-O, O-O-O). They may be entered in SAN with either set of letters (Axe4 or Bxe4), in coordinates as Fairy-Stockfish writes them (c2e4, b7b8q; king-side castling d1e1; queen-side castling d1b1, written as the King taking its own Knight because d1c1 is an ordinary King move), or in Game Courier form with the FEN letters (B c2-e4, P b7-b8; Q*b8; castling K d1-e1 and K d1-c1; N b1-d1).";

const RULES_MULTI: &str = "Leap Chess with multiple captures: Leap Chess (44-square board, Red moves first, leapers, castling with the Knights, compulsory capture, stalemate and a bare King lose) in which captures chain as in Checkers. See the rules of Leap Chess for everything not said here.

Multiple captures. A piece that captures must go on capturing with the same piece as long as it has a capture, landing on the enemy piece each time. The whole chain is one turn. Where several continuations are possible the player chooses any of them; there is no obligation to take the most pieces. Captures stay compulsory: a player who can capture must start a chain. A chain never takes the enemy King: when the capturing piece attacks only the King, the chain ends there with check.

Check. Only the end of the turn counts: the whole chain must not leave the player's own King in check, whatever happens on the way. The player cannot stop a chain early, so a capture all of whose chains end with the own King in check may not be made.

Readings of our own (the original page says nothing on these). A Pawn whose capture brings it to the last rank promotes there and its turn ends: the new piece does not go on capturing. En passant is a capture like any other: it may start a chain, and a capturing Pawn that arrives beside the enemy Pawn that has just made its double step may take it en passant within the chain. A side can never have more than 16 pieces, so a position string with more is refused.

End of the game, as in Leap Chess: checkmate wins, stalemate loses, a bare King loses (if a chain leaves both sides with bare Kings, the player who captured wins), and the game is drawn on the third occurrence of a position or after 50 moves by each side without a capture or Pawn move.

Notation. A chain is shown as its squares joined by x: c3xe5xc7 (with =S etc. when a Pawn promotes at the end); its coordinate form joins the squares (c3e5c7), and its Game Courier form lists the legs (B c3-e5; B e5-c7). A single capture and every other move is written as in Leap Chess: SAN with S Sail, D Dabbabah, A Alfil (the FEN and Game Courier letters Q, R, B are accepted too), coordinates as Fairy-Stockfish writes them (castling d1e1 and d1b1).";

const RULES_OPTIONAL: &str = "Leap Chess with captures optional: Leap Chess in every respect except that captures are not compulsory. See the rules of Leap Chess for everything not said here.

The board has 44 squares (6x8 without its corners); Red moves first. Kings and Knights move as in chess, the Alfil leaps two squares diagonally, the Dabbabah two squares straight, the Sail either way; leapers pass over pieces and the missing corners but never land on a missing corner. Pawns move as in chess, but only those starting on the second rank (b2, e2; b7, e7) have the double step, which can be taken en passant; promotion on the last rank to Sail, Dabbabah, Alfil or Knight. Castling with the Knights: king-side the King and the e-Knight swap (d1 and e1), queen-side the King goes to an empty c1 and the b-Knight to d1; neither piece may have moved, the King may not be in check nor go to an attacked square.

A player may capture or not, as they like. Checkmate wins; a stalemated player loses; a player left with a bare King loses at once (if a capture leaves both sides bare, the player who captured wins; this bare-King rule is the server's, not the original page's). The game is drawn on the third occurrence of a position and after 50 moves by each side without a capture or Pawn move.

Notation as in Leap Chess: FEN letters Q Sail, R Dabbabah, B Alfil and * for a missing corner; SAN with S, D, A (Q, R, B also accepted); coordinates as Fairy-Stockfish writes them (castling d1e1 and d1b1); Game Courier with the FEN letters (castling K d1-e1 and K d1-c1; N b1-d1).";

const RULES_64: &str = "Leap Chess on 64 squares: the pieces and rules of Leap Chess on the ordinary 8x8 board, with normal castling and Pawn moves. The sides are Red, who moves first, and Black.

Start. The chess array with the leapers in place of the chess pieces: Dabbabahs stand for the Rooks (a1, h1), Alfils for the Bishops (c1, f1) and the Sail for the Queen (d1); Knights b1 and g1, King e1, Pawns on rank 2; Black the same on ranks 8 and 7. (The original page only says that every version may be played on 64 squares with normal castling and Pawn moves; the chess array is the server's reading.)

Pieces. The King and the Knight move as in chess. The Alfil leaps exactly two squares diagonally, the Dabbabah exactly two squares straight, the Sail either way; leapers pass over occupied squares. Pawns move as in chess: every Pawn may advance two squares from its starting rank and be taken en passant; a Pawn reaching the last rank becomes a Sail, Dabbabah, Alfil or Knight.

Castling as in chess, with the Dabbabahs in the Rooks' role: King e1 to g1 with the h1-Dabbabah to f1, or King e1 to c1 with the a1-Dabbabah to d1; neither piece has moved, the squares between them are empty, and the King is not in check and does not pass over or land on an attacked square.

Captures are compulsory: a player who can capture (en passant included) must, choosing freely among the captures; only legal captures count, and castling is not a capture. Checkmate wins; a stalemated player loses; a player left with a bare King loses at once (if a capture leaves both sides bare, the player who captured wins; this bare-King rule is the server's, not the original page's). The game is drawn on the third occurrence of a position and after 50 moves by each side without a capture or Pawn move.

Notation. FEN as in chess, with Q for the Sail, R the Dabbabah, B the Alfil: the start is rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1. Moves are shown in SAN with S Sail, D Dabbabah, A Alfil, N Knight, K King (the FEN letters are accepted too), and may be entered in coordinates (e2e4, e7e8q, castling e1g1 and e1c1) or Game Courier form (B c1-e3, K e1-g1).";

/// Leap Chess or one of its sub-variants.
pub struct LeapChess {
    base: ChessLike,
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
pub fn knight_castlings() -> Vec<Castling> {
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
            },
            multi: c.multi,
        }
    }

    /// `leap-chess`.
    pub fn standard() -> LeapChess {
        LeapChess::build(Config {
            id: "leap-chess",
            name: "Leap Chess",
            rules: RULES_44,
            sixty_four: false,
            compulsory: true,
            multi: false,
        })
    }

    /// `leap-chess-multi`.
    pub fn multi() -> LeapChess {
        LeapChess::build(Config {
            id: "leap-chess-multi",
            name: "Leap Chess (multiple captures)",
            rules: RULES_MULTI,
            sixty_four: false,
            compulsory: true,
            multi: true,
        })
    }

    /// `leap-chess-optional`.
    pub fn optional() -> LeapChess {
        LeapChess::build(Config {
            id: "leap-chess-optional",
            name: "Leap Chess (captures optional)",
            rules: RULES_OPTIONAL,
            sixty_four: false,
            compulsory: false,
            multi: false,
        })
    }

    /// `leap-chess-64`.
    pub fn sixty_four() -> LeapChess {
        LeapChess::build(Config {
            id: "leap-chess-64",
            name: "Leap Chess (64 squares)",
            rules: RULES_64,
            sixty_four: true,
            compulsory: true,
            multi: false,
        })
    }

    // ---- moves ----

    fn legal(&self, pos: &Position) -> Vec<Move> {
        if self.multi {
            self.multi_legal(pos)
        } else {
            self.base.legal_moves(pos)
        }
    }

    /// Legal moves with capture chains: every capture is followed to the
    /// end of each of its chains, and a chain is legal when its final
    /// position leaves the mover's King safe.
    fn multi_legal(&self, pos: &Position) -> Vec<Move> {
        let b = &self.base;
        if b.bare(pos, Color::White) || b.bare(pos, Color::Black) {
            return Vec::new();
        }
        let mut pseudo = Vec::with_capacity(64);
        b.pseudo_moves(pos, &mut pseudo);
        let mut captures = Vec::new();
        let mut quiet = Vec::new();
        for m in pseudo {
            if b.is_capture(pos, &m) {
                self.extend_capture(pos, m, &mut captures);
            } else {
                quiet.push(m);
            }
        }
        let us = pos.side;
        captures.retain(|m| {
            let next = self.play_move(pos, m);
            let king = next.royal[us.index()].expect("one King per side");
            !b.attacked(&next, king, us.opponent())
        });
        if b.compulsory_capture && !captures.is_empty() {
            return captures;
        }
        quiet.retain(|m| b.keeps_king_safe(pos, m));
        captures.extend(quiet);
        captures
    }

    /// Every chain a first capture starts (the capture alone when the piece
    /// has no further capture, or when it is a promotion).
    fn extend_capture(&self, pos: &Position, first: Move, out: &mut Vec<Move>) {
        if first.piece.is_some() {
            // A Pawn that captured onto the last rank promotes; its turn ends.
            out.push(first);
            return;
        }
        let Some(piece) = pos.get(first.from) else {
            return;
        };
        let mut board = pos.clone();
        apply_leg(&mut board, first.from, first.to);
        self.continue_chain(&board, piece, &first, Path::default(), first.to, out);
    }

    /// The piece now on `at` has landed there by capturing; `path` holds the
    /// earlier landing squares. Continue with each capture it has, or end.
    fn continue_chain(
        &self,
        board: &Position,
        piece: Piece,
        first: &Move,
        path: Path,
        at: Square,
        out: &mut Vec<Move>,
    ) {
        let mut legs: Vec<Square> = Vec::new();
        self.base.pieces.targets(board, at, piece, |to, capture| {
            // The King is never taken: a chain that reaches it ends in check.
            if capture && board.get(to).is_some_and(|p| p.kind != KING) {
                legs.push(to);
            }
        });
        if piece.kind == PAWN {
            if let Some(ep) = board.ep {
                let victim = Square::new(ep.file(), at.rank());
                let takes = board.get(ep).is_none()
                    && board.get(victim) == Some(Piece::new(PAWN, piece.color.opponent()))
                    && [-1, 1]
                        .iter()
                        .any(|&dx| board.step(at, dx, piece.color.forward()) == Some(ep));
                if takes {
                    legs.push(ep);
                }
            }
        }
        if legs.is_empty() {
            out.push(if path.is_empty() {
                *first
            } else {
                chain_move(first.from, path, at, None)
            });
            return;
        }
        let last = self.base.geometry.height - 1;
        for to in legs {
            let mut path = path;
            if !path.push(at) {
                // Unreachable: a side has at most 15 capturable pieces
                // (checked when the position is read).
                continue;
            }
            let mut next = board.clone();
            apply_leg(&mut next, at, to);
            if piece.kind == PAWN && board.relative_rank(to, piece.color) == last {
                for &k in &self.base.promotions {
                    out.push(chain_move(
                        first.from,
                        path,
                        to,
                        Some(Piece::new(k, piece.color)),
                    ));
                }
            } else {
                self.continue_chain(&next, piece, first, path, to, out);
            }
        }
    }

    fn play_move(&self, pos: &Position, m: &Move) -> Position {
        if m.kind == MoveKind::Chain {
            self.play_chain(pos, m)
        } else {
            self.base.play(pos, m)
        }
    }

    fn play_chain(&self, pos: &Position, m: &Move) -> Position {
        let us = pos.side;
        let mut next = pos.clone();
        let moving = pos.get(m.from);
        let mut at = m.from;
        for sq in m.path.iter().chain(std::iter::once(m.to)) {
            apply_leg(&mut next, at, sq);
            at = sq;
        }
        if let Some(p) = m.piece {
            next.set(m.to, Some(p));
        }
        if moving.is_some_and(|p| p.kind == KING) {
            next.royal[us.index()] = Some(m.to);
        }
        next.ep = None;
        for rule in &self.base.castlings {
            let touched = |s: Square| s == m.from || s == m.to || m.path.iter().any(|p| p == s);
            if touched(rule.king_from) || touched(rule.partner_from) {
                next.castling &= !rule.bit;
            }
        }
        next.halfmove = 0;
        if us == Color::Black {
            next.fullmove = pos.fullmove.saturating_add(1);
        }
        next.side = us.opponent();
        next
    }

    fn is_capture(&self, pos: &Position, m: &Move) -> bool {
        m.kind == MoveKind::Chain || self.base.is_capture(pos, m)
    }

    /// Whether a move takes en passant (as a single capture or within a chain).
    fn uses_en_passant(&self, pos: &Position, m: &Move) -> bool {
        match m.kind {
            MoveKind::EnPassant => true,
            MoveKind::Chain => match pos.ep {
                Some(ep) => {
                    pos.get(m.from).is_some_and(|p| p.kind == PAWN)
                        && (m.to == ep || m.path.iter().any(|s| s == ep))
                }
                None => false,
            },
            _ => false,
        }
    }

    fn en_passant_possible(&self, pos: &Position) -> bool {
        pos.ep.is_some() && self.legal(pos).iter().any(|m| self.uses_en_passant(pos, m))
    }

    // ---- notation ----

    fn fen_label(&self, piece: Piece) -> String {
        self.base.piece_label(piece).letter
    }

    fn coordinate(&self, m: &Move) -> String {
        let mut s = m.from.name();
        match m.kind {
            MoveKind::Castle => {
                s.push_str(&self.base.castlings[m.tag as usize].coordinate_to.name())
            }
            MoveKind::Chain => {
                for sq in m.path.iter() {
                    s.push_str(&sq.name());
                }
                s.push_str(&m.to.name());
            }
            _ => s.push_str(&m.to.name()),
        }
        if let Some(p) = m.piece {
            s.push(self.base.pieces.def(p.kind).letter.to_ascii_lowercase());
        }
        s
    }

    /// The legs of a move as Game Courier writes them (`B c3-e5; B e5-c7`).
    fn game_courier(&self, pos: &Position, m: &Move) -> String {
        let Some(piece) = pos.get(m.from) else {
            return self.coordinate(m);
        };
        let label = self.fen_label(piece);
        let mut s = match m.kind {
            MoveKind::Castle => {
                let rule = &self.base.castlings[m.tag as usize];
                let files = (rule.king_to.file() as i8 - rule.king_from.file() as i8).abs();
                if rule.king_to == rule.partner_from || files >= 2 {
                    // The King's move alone says it all (a swap, or a 2-square King move).
                    format!("{label} {}-{}", m.from, m.to)
                } else {
                    self.castle_in_full(pos, m)
                }
            }
            MoveKind::Chain => {
                let mut legs = Vec::new();
                let mut at = m.from;
                for sq in m.path.iter().chain(std::iter::once(m.to)) {
                    legs.push(format!("{label} {at}-{sq}"));
                    at = sq;
                }
                legs.join("; ")
            }
            _ => format!("{label} {}-{}", m.from, m.to),
        };
        if let Some(p) = m.piece {
            s.push_str(&format!("; {}*{}", self.fen_label(p), m.to));
        }
        s
    }

    /// Castling in Game Courier form naming both pieces (`K d1-c1; N b1-d1`).
    fn castle_in_full(&self, pos: &Position, m: &Move) -> String {
        let rule = &self.base.castlings[m.tag as usize];
        let king = self.fen_label(Piece::new(KING, pos.side));
        let partner = self.fen_label(Piece::new(rule.partner, pos.side));
        format!(
            "{king} {}-{}; {partner} {}-{}",
            m.from, m.to, m.extra[0], m.extra[1]
        )
    }

    /// A chain as shown: its squares joined by `x` (`c3xe5xc7`, `c6xd7xe8=S`).
    fn chain_display(&self, m: &Move) -> String {
        let mut s = m.from.name();
        for sq in m.path.iter().chain(std::iter::once(m.to)) {
            s.push('x');
            s.push_str(&sq.name());
        }
        if let Some(p) = m.piece {
            s.push('=');
            s.push(SAN_LETTERS[p.kind as usize]);
        }
        s
    }

    /// What SAN is worked out from, without the written forms a parser
    /// matches against (writing one move's SAN needs only this).
    fn bare_candidate(&self, pos: &Position, m: &Move) -> Candidate {
        let kind = pos.get(m.from).map_or(PAWN, |p| p.kind);
        let castle =
            (m.kind == MoveKind::Castle).then(|| self.base.castlings[m.tag as usize].king_side);
        // A castling is matched by its coordinate destination: Leap Chess's
        // queen-side castling is "King to b1", so that `Kd1c1` stays the
        // ordinary King move.
        let to = match m.kind {
            MoveKind::Castle => self.base.castlings[m.tag as usize].coordinate_to,
            _ => m.to,
        };
        Candidate {
            from: Some(m.from),
            to,
            letter: SAN_LETTERS[kind as usize],
            pawn: kind == PAWN,
            capture: self.is_capture(pos, m),
            drop: false,
            promotion: m.piece.map(|p| SAN_LETTERS[p.kind as usize]),
            castle,
            forms: Vec::new(),
            display: String::new(),
        }
    }

    fn candidate(&self, pos: &Position, m: &Move) -> Candidate {
        let kind = pos.get(m.from).map_or(PAWN, |p| p.kind);
        let mut forms = vec![self.coordinate(m), self.game_courier(pos, m)];
        match m.kind {
            MoveKind::Castle => forms.push(self.castle_in_full(pos, m)),
            MoveKind::Chain => {
                let shown = self.chain_display(m);
                if kind != PAWN {
                    forms.push(format!("{}{shown}", SAN_LETTERS[kind as usize]));
                }
                forms.push(shown.replace('x', "-"));
                forms.push(shown);
                // Game Courier legs with the SAN letter (`A c3-e5; A e5-c7`).
                let gc = self.game_courier(pos, m);
                let fen_letter = self.base.pieces.def(kind).letter;
                let mut san = SAN_LETTERS[kind as usize];
                if pos.side == Color::Black {
                    san = san.to_ascii_lowercase();
                }
                let fen_letter = if pos.side == Color::Black {
                    fen_letter.to_ascii_lowercase()
                } else {
                    fen_letter
                };
                forms.push(gc.replace(&format!("{fen_letter} "), &format!("{san} ")));
            }
            _ => {}
        }
        Candidate {
            forms,
            ..self.bare_candidate(pos, m)
        }
    }

    fn candidates(&self, pos: &Position, legal: &[Move]) -> Vec<Candidate> {
        let mut cands: Vec<Candidate> = legal.iter().map(|m| self.candidate(pos, m)).collect();
        for i in 0..cands.len() {
            let shown = if legal[i].kind == MoveKind::Chain {
                self.chain_display(&legal[i])
            } else {
                notation::san(&cands, i)
            };
            cands[i].forms.push(shown.clone());
            cands[i].display = shown;
        }
        cands
    }

    fn display(&self, pos: &Position, m: &Move) -> String {
        let legal = self.legal(pos);
        match legal.iter().position(|x| x == m) {
            Some(i) => {
                let mut s = if m.kind == MoveKind::Chain {
                    self.chain_display(m)
                } else {
                    let bare: Vec<Candidate> =
                        legal.iter().map(|m| self.bare_candidate(pos, m)).collect();
                    notation::san(&bare, i)
                };
                s.push_str(self.check_mark(pos, m));
                s
            }
            None => self.coordinate(m),
        }
    }

    /// The display form of every legal move, disambiguated once.
    fn displays(&self, pos: &Position, legal: &[Move]) -> Vec<String> {
        notation::marked_displays(legal, self.candidates(pos, legal), |m| {
            self.check_mark(pos, m)
        })
    }

    /// `+`, `#` or nothing after the move `m` from `pos`.
    fn check_mark(&self, pos: &Position, m: &Move) -> &'static str {
        let next = self.play_move(pos, m);
        notation::check_mark(self.base.in_check(&next), || !self.legal(&next).is_empty())
    }

    fn piece_name_of_letter(&self, letter: char) -> Option<&'static str> {
        let up = letter.to_ascii_uppercase();
        let kind = SAN_LETTERS
            .iter()
            .position(|&l| l == up)
            .map(|k| k as Kind)
            .or_else(|| self.base.pieces.kind_of_letter(up))?;
        Some(self.base.pieces.def(kind).name)
    }
}

/// Move the piece on `from` to `to`, capturing what stands there; a Pawn
/// moving diagonally to an empty square takes en passant the Pawn beside it.
fn apply_leg(board: &mut Position, from: Square, to: Square) {
    let Some(piece) = board.take(from) else {
        return;
    };
    if piece.kind == PAWN && board.get(to).is_none() && from.file() != to.file() {
        board.set(Square::new(to.file(), from.rank()), None);
    }
    board.set(to, Some(piece));
}

fn chain_move(from: Square, path: Path, to: Square, promotion: Option<Piece>) -> Move {
    Move {
        kind: MoveKind::Chain,
        from,
        to,
        piece: promotion,
        extra: [NO_SQUARE; 2],
        tag: 0,
        path,
    }
}

/// Why a well-formed move is not legal, in Leap Chess's terms.
struct LeapExplain<'a> {
    v: &'a LeapChess,
    pos: &'a Position,
    legal: &'a [Move],
}

impl LeapExplain<'_> {
    /// Whether a legal move begins with the capture `from` → `to`.
    fn starts_with(m: &Move, from: Square, to: Square) -> bool {
        m.from == from
            && match m.kind {
                MoveKind::Chain => m.path.iter().next() == Some(to),
                _ => m.to == to,
            }
    }
}

impl Explain for LeapExplain<'_> {
    fn piece_on(&self, sq: Square) -> Option<(bool, String)> {
        if !self.on_board(sq) {
            return None;
        }
        let p = self.pos.get(sq)?;
        Some((
            p.color == self.pos.side,
            self.v.base.pieces.def(p.kind).name.to_string(),
        ))
    }

    fn on_board(&self, sq: Square) -> bool {
        self.v.base.geometry.contains(sq) && !self.pos.is_hole(sq)
    }

    fn piece_name(&self, letter: char) -> String {
        self.v
            .piece_name_of_letter(letter)
            .map(str::to_string)
            .unwrap_or_else(|| format!("“{letter}”"))
    }

    fn why_not(&self, from: Option<Square>, to: Option<Square>) -> Option<String> {
        let (v, pos) = (self.v, self.pos);
        let b = &v.base;
        let in_check = b.in_check(pos);
        if from.is_none() && to.is_none() {
            let mine: Vec<&Castling> = b.castlings.iter().filter(|r| r.color == pos.side).collect();
            if mine.iter().all(|r| pos.castling & r.bit == 0) {
                return Some("the King or its castling partner has moved.".into());
            }
            if in_check {
                return Some("your King is in check.".into());
            }
            return Some("the squares between must be empty and the King may not cross or land on an attacked square.".into());
        }
        if v.multi {
            // A chain written only in part.
            let partial: Vec<&Move> = self
                .legal
                .iter()
                .filter(|m| {
                    m.kind == MoveKind::Chain
                        && from.is_none_or(|f| m.from == f)
                        && to.is_some_and(|t| m.path.iter().next() == Some(t))
                })
                .collect();
            if let (Some(m), Some(t)) = (partial.first(), to) {
                return Some(format!(
                    "after capturing on {t} the piece must go on capturing: write the whole chain as one move, such as {}.",
                    v.chain_display(m)
                ));
            }
        }
        let mut pseudo = Vec::new();
        b.pseudo_moves(pos, &mut pseudo);
        let matching: Vec<&Move> = pseudo
            .iter()
            .filter(|m| from.is_none_or(|f| m.from == f) && to.is_none_or(|t| m.to == t))
            .collect();
        if matching.is_empty() {
            return None;
        }
        let safe = |m: &&Move| {
            if v.multi && b.is_capture(pos, m) {
                self.legal
                    .iter()
                    .any(|l| LeapExplain::starts_with(l, m.from, m.to))
            } else {
                b.keeps_king_safe(pos, m)
            }
        };
        if !matching.iter().any(safe) {
            return Some(if in_check {
                "your King is in check and this move does not get it out of check.".into()
            } else if v.multi && matching.iter().any(|m| b.is_capture(pos, m)) {
                "every way of finishing this capture would leave your King in check.".into()
            } else {
                "it would leave your King in check.".into()
            });
        }
        if b.compulsory_capture
            && self.legal.iter().any(|m| v.is_capture(pos, m))
            && !matching.iter().any(|m| b.is_capture(pos, m))
        {
            return Some("a capture is compulsory, and this move captures nothing.".into());
        }
        None
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
        if let Some(m) = notation::exact_among_named_or_castling(text, legal, |named| {
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
        match notation::read_move_with_aliases(text, &cands, &explain, &ALIASES) {
            Ok(i) => Ok(legal[i]),
            Err(MoveError::Syntax { input, reason }) => Err(self
                .explain_chain(legal, text)
                .unwrap_or(MoveError::Syntax { input, reason })),
            Err(e) => Err(e),
        }
    }
}

impl LeapChess {
    /// Explain a text that lists three or more squares (`c3xe5`, `c3e5c7e9`)
    /// but is no legal chain: too short, or no chain of the position.
    fn explain_chain(&self, legal: &[Move], text: &str) -> Option<MoveError> {
        if !self.multi {
            return None;
        }
        let squares = squares_in(text)?;
        if squares.len() < 3 {
            return None;
        }
        let legs = |m: &Move| -> Vec<Square> {
            let mut v = vec![m.from];
            v.extend(m.path.iter());
            v.push(m.to);
            v
        };
        let chains: Vec<&Move> = legal.iter().filter(|m| m.kind == MoveKind::Chain).collect();
        let longer: Vec<String> = chains
            .iter()
            .filter(|m| legs(m).starts_with(&squares))
            .map(|m| self.chain_display(m))
            .collect();
        let from_same: Vec<String> = chains
            .iter()
            .filter(|m| m.from == squares[0])
            .map(|m| self.chain_display(m))
            .collect();
        let reason = if longer.is_empty() {
            "no capture chain of this position goes that way.".to_string()
        } else {
            "the capturing piece must go on capturing as long as it can.".to_string()
        };
        Some(MoveError::Illegal {
            input: text.to_string(),
            reason,
            alternatives: if longer.is_empty() { from_same } else { longer },
        })
    }
}

/// The squares named in a chain text (`c3xe5xc7`, `Ac3-e5-c7`, `c3e5c7`):
/// an optional piece letter, then squares with optional `x`/`-` between.
fn squares_in(text: &str) -> Option<Vec<Square>> {
    let t = text.trim();
    let t = t
        .strip_prefix(|c: char| c.is_ascii_uppercase())
        .unwrap_or(t);
    let mut out = Vec::new();
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        if c == 'x' || c == '-' {
            continue;
        }
        if !c.is_ascii_lowercase() {
            return None;
        }
        let mut name = c.to_string();
        while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            name.push(*d);
            chars.next();
        }
        out.push(Square::parse(&name)?);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What reading among the named moves rests on holds in every form of
    /// Leap Chess: every form of every move but a castling (chains and their
    /// legs too) names its destination, and a form reads the same whether
    /// the named moves are tried first or not.
    #[test]
    fn a_move_is_read_among_the_moves_to_the_squares_its_text_names() {
        for v in [
            LeapChess::standard(),
            LeapChess::multi(),
            LeapChess::optional(),
            LeapChess::sixty_four(),
        ] {
            let positions = notation::positions_to_read_in(&v, &[], 8);
            let checked = notation::check_candidates_read_among_named(
                &v,
                &positions,
                |pos, legal| v.candidates(pos, legal),
                notation::is_castling,
                |pos, legal, cands, text| {
                    let explain = LeapExplain { v: &v, pos, legal };
                    let text = text.trim().trim_end_matches(['+', '#', '!', '?']);
                    notation::read_move_with_aliases(text, cands, &explain, &ALIASES)
                        .map(|i| legal[i])
                },
            );
            assert!(checked > 2_000, "{}: {checked}", v.id());
        }
    }

    #[test]
    fn letters_agree_with_the_piece_table() {
        let set = pieces();
        for (kind, d) in set.defs.iter().enumerate() {
            // FEN letters are the rulings' (Q Sail, R Dabbabah, B Alfil).
            let fen = match d.name {
                "Sail" => 'Q',
                "Dabbabah" => 'R',
                "Alfil" => 'B',
                "Knight" => 'N',
                other => other.chars().next().unwrap(),
            };
            assert_eq!(d.letter, fen, "{}", d.name);
            // SAN letters name the piece (the Knight keeps chess's N).
            let san = SAN_LETTERS[kind];
            assert!(
                d.name.starts_with(san) || (d.name, san) == ("Knight", 'N'),
                "{} {san}",
                d.name
            );
        }
        for (alias, letter) in ALIASES {
            assert_eq!(
                set.kind_of_letter(alias).map(|k| SAN_LETTERS[k as usize]),
                Some(letter)
            );
        }
    }

    #[test]
    fn knight_castling_table() {
        let c = knight_castlings();
        assert_eq!(c.len(), 4);
        let names = |r: &Castling| {
            format!(
                "{}{} {}{} {}",
                r.king_from, r.king_to, r.partner_from, r.partner_to, r.coordinate_to
            )
        };
        assert_eq!(names(&c[0]), "d1e1 e1d1 e1");
        assert_eq!(names(&c[1]), "d1c1 b1d1 b1");
        assert_eq!(names(&c[2]), "d8e8 e8d8 e8");
        assert_eq!(names(&c[3]), "d8c8 b8d8 b8");
    }
}
