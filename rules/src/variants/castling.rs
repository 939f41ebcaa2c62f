//! Castling as data: one rule per way to castle, and FIDE's four. Apart so
//! the variants that castle otherwise (Leap Chess) build their own rules,
//! and the bitboard engine (`small_board`) reads them without knowing
//! `ChessLike`.

use crate::geometry::Square;
use crate::piece::{Color, Kind};

/// One way to castle, as data.
#[derive(Clone, Debug)]
pub(crate) struct Castling {
    pub color: Color,
    /// FEN letter of the right (`K`, `Q`, `k`, `q`) and its bit.
    pub right: char,
    pub bit: u8,
    pub king_side: bool,
    pub king_from: Square,
    pub king_to: Square,
    pub partner_from: Square,
    pub partner_to: Square,
    /// Kind of the partner piece (Rook, Knight).
    pub partner: Kind,
    /// Squares that must be empty (other than the king's and partner's own).
    pub empty: Vec<Square>,
    /// Squares the king stands on or crosses: none may be attacked.
    pub safe: Vec<Square>,
    /// Destination written in the coordinate form (`g1` in chess; `b1` for
    /// Leap Chess's queen-side, written as king-takes-knight).
    pub coordinate_to: Square,
}

/// The standard FIDE castling rules on an 8-wide board (King on e, Rooks on a/h).
pub(crate) fn fide_castlings(rook: Kind, height: u8) -> Vec<Castling> {
    let sq = |name: &str, rank: u8| Square::new(name.as_bytes()[0] - b'a', rank);
    let mut out = Vec::new();
    for (color, rank, k, q, kb, qb) in [
        (Color::White, 0, 'K', 'Q', 1, 2),
        (Color::Black, height - 1, 'k', 'q', 4, 8),
    ] {
        out.push(Castling {
            color,
            right: k,
            bit: kb,
            king_side: true,
            king_from: sq("e", rank),
            king_to: sq("g", rank),
            partner_from: sq("h", rank),
            partner_to: sq("f", rank),
            partner: rook,
            empty: vec![sq("f", rank), sq("g", rank)],
            safe: vec![sq("e", rank), sq("f", rank), sq("g", rank)],
            coordinate_to: sq("g", rank),
        });
        out.push(Castling {
            color,
            right: q,
            bit: qb,
            king_side: false,
            king_from: sq("e", rank),
            king_to: sq("c", rank),
            partner_from: sq("a", rank),
            partner_to: sq("d", rank),
            partner: rook,
            empty: vec![sq("b", rank), sq("c", rank), sq("d", rank)],
            safe: vec![sq("e", rank), sq("d", rank), sq("c", rank)],
            coordinate_to: sq("c", rank),
        });
    }
    out
}
