//! The position: what stands where, what is in hand, and the counters every
//! variant may need. One type serves all variants; fields a variant does not
//! use stay at their defaults.

use crate::geometry::{Geometry, Square, SquareSet, SLOTS};
use crate::piece::{Color, Kind, Piece};

/// Maximum number of piece kinds a variant may define (hands are indexed by kind).
pub(crate) const MAX_KINDS: usize = 24;

#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub width: u8,
    pub height: u8,
    board: [Option<Piece>; SLOTS],
    /// Squares that are not part of play: the board's own holes plus craters.
    holes: SquareSet,
    /// Pieces in hand by colour (0 White, 1 Black) and kind: drops, captured
    /// pieces available for a swap, tokens waiting to be placed.
    pub hands: [[u8; MAX_KINDS]; 2],
    pub side: Color,
    /// Castling rights as variant-defined bits (chess: 1 K, 2 Q, 4 k, 8 q).
    pub castling: u8,
    pub ep: Option<Square>,
    /// Plies since the last event that resets the variant's move-count rule.
    pub halfmove: u16,
    pub fullmove: u16,
    /// Small per-side counters (Fleap's nukes).
    pub counters: [u8; 2],
    /// A counting rule's count (makruk): the plies the counting side must
    /// survive, 0 while no count runs, and the plies counted so far. Not
    /// part of [`Position::hash`]: as in Fairy-Stockfish, a repetition is
    /// of the pieces, not of the count.
    pub counting_limit: u16,
    pub counting_ply: u16,
    /// Passes in a row up to this position, and whether the position
    /// before the last move had janggi's kings facing: two of either end
    /// the game. Like the count, not hashed, and not in the FEN (a game
    /// read from a FEN starts with none, as in Fairy-Stockfish).
    pub passes: u8,
    pub bikjang_before: bool,
    /// Shatar: the side to move is in check and a check of the series
    /// that led here was given by a knight, rook or bers (a "shak"), and
    /// the same for the position before the last move; not hashed.
    pub shak: bool,
    pub shak_before: bool,
    /// Chess960: the files of the rooks each side may castle with (king
    /// side, queen side), read from the FEN's castling field.
    pub castling_files: [[u8; 2]; 2],
    /// Royal piece squares, kept up to date by variants that have one royal each.
    pub royal: [Option<Square>; 2],
}

impl Position {
    /// An empty position on the given board, White to move.
    pub(crate) fn empty(geometry: &Geometry) -> Position {
        Position {
            width: geometry.width,
            height: geometry.height,
            board: [None; SLOTS],
            holes: geometry.holes,
            hands: [[0; MAX_KINDS]; 2],
            side: Color::White,
            castling: 0,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            counters: [0; 2],
            counting_limit: 0,
            counting_ply: 0,
            passes: 0,
            bikjang_before: false,
            shak: false,
            shak_before: false,
            castling_files: [[0; 2]; 2],
            royal: [None; 2],
        }
    }

    #[inline]
    pub fn get(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }
    #[inline]
    pub(crate) fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.board[sq.index()] = piece;
    }
    #[inline]
    pub(crate) fn take(&mut self, sq: Square) -> Option<Piece> {
        self.board[sq.index()].take()
    }
    #[inline]
    pub(crate) fn is_empty_square(&self, sq: Square) -> bool {
        self.board[sq.index()].is_none() && !self.holes.contains(sq)
    }
    #[inline]
    pub fn is_hole(&self, sq: Square) -> bool {
        self.holes.contains(sq)
    }
    pub fn holes(&self) -> &SquareSet {
        &self.holes
    }
    /// Turn a square into a hole (a crater); whatever stood there is removed.
    pub(crate) fn make_hole(&mut self, sq: Square) {
        self.board[sq.index()] = None;
        self.holes.insert(sq);
    }
    /// The playable square `(dx, dy)` from `sq`, or `None` off the board or in a hole.
    #[inline]
    pub(crate) fn step(&self, sq: Square, dx: i8, dy: i8) -> Option<Square> {
        sq.offset(dx, dy, self.width, self.height)
            .filter(|s| !self.holes.contains(*s))
    }
    /// The square `(dx, dy)` from `sq` if it lies inside the rectangle (it may be a hole).
    #[inline]
    pub(crate) fn offset(&self, sq: Square, dx: i8, dy: i8) -> Option<Square> {
        sq.offset(dx, dy, self.width, self.height)
    }
    /// Every square of the rectangle that is not a hole.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        Scan::new(self).filter(move |s| !self.holes.contains(*s))
    }
    /// Occupied squares with their pieces (a hole holds none).
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Scan::new(self).filter_map(move |s| self.get(s).map(|p| (s, p)))
    }
    pub fn hand(&self, color: Color, kind: Kind) -> u8 {
        if color == Color::Neutral {
            return 0;
        }
        self.hands[color.index()][kind as usize]
    }
    pub(crate) fn add_to_hand(&mut self, color: Color, kind: Kind) {
        let slot = &mut self.hands[color.index()][kind as usize];
        *slot = slot.saturating_add(1);
    }
    pub(crate) fn remove_from_hand(&mut self, color: Color, kind: Kind) {
        let slot = &mut self.hands[color.index()][kind as usize];
        *slot = slot.saturating_sub(1);
    }
    pub fn hand_is_empty(&self, color: Color) -> bool {
        self.hands[color.index()].iter().all(|&n| n == 0)
    }
    /// The rank index (0-based) counted from `color`'s own side.
    #[inline]
    pub(crate) fn relative_rank(&self, sq: Square, color: Color) -> u8 {
        if color == Color::Black {
            self.height - 1 - sq.rank()
        } else {
            sq.rank()
        }
    }

    /// A 64-bit hash of board, holes, hands, side to move and rights:
    /// everything that makes two positions the same for repetition rules.
    ///
    /// The values are stored (a game's history), so they must never change;
    /// `tests/all_variants.rs::hash_values_are_as_first_worked_out` holds
    /// the way they were first worked out.
    /// [`Position::hash`] with the en passant square left out unless
    /// `usable` (a capture there is legal). FENs write the square only then,
    /// as Fairy-Stockfish does, so the position a move leaves and the one
    /// read back from its FEN must hash alike: a stored game is restored
    /// from its FEN and compared with the history it kept.
    pub(crate) fn hash_without_dead_ep(&self, usable: impl FnOnce() -> bool) -> u64 {
        if self.ep.is_some() && !usable() {
            let mut p = self.clone();
            p.ep = None;
            return p.hash();
        }
        self.hash()
    }

    pub fn hash(&self) -> u64 {
        let mut h: u64 = 0x9E37_79B9_7F4A_7C15 ^ (self.side as u64);
        // Row by row over the board's slots (`file + 16 * rank`): the same
        // pieces as `pieces()`, without its per-square iterator adaptors,
        // which were most of this function, itself a quarter of the rules
        // work per move in variants whose repetition rule tries every move.
        for rank in 0..self.height {
            let start = usize::from(rank) << 4;
            let row = &self.board[start..start + usize::from(self.width.min(16))];
            for (file, slot) in row.iter().enumerate() {
                let Some(p) = slot else { continue };
                let sq = Square::new(file as u8, rank);
                if self.holes.contains(sq) {
                    continue;
                }
                h ^= piece_key(sq, *p);
            }
        }
        for sq in self.holes.iter() {
            h ^= mix(0x1_0000_0000 | sq.index() as u64);
        }
        for c in 0..2 {
            for (k, &n) in self.hands[c].iter().enumerate() {
                h ^= hand_key(c, k, n);
            }
        }
        h ^= mix(0x3_0000_0000 | self.castling as u64);
        if let Some(ep) = self.ep {
            h ^= mix(0x4_0000_0000 | ep.index() as u64);
        }
        h ^= mix(0x5_0000_0000 | (self.counters[0] as u64) << 8 | self.counters[1] as u64);
        h
    }
}

/// What a piece on a square adds (by XOR) to [`Position::hash`]: with
/// [`hand_key`], what a variant needs to work out the key a move leads to
/// from the key before it, without playing the move.
pub(crate) fn piece_key(sq: Square, p: Piece) -> u64 {
    let code = (p.kind as u64)
        | (p.color as u64) << 8
        | (p.promoted as u64) << 10
        | (p.state as u64) << 11;
    mix(code << 8 | sq.index() as u64)
}

/// What holding `n` pieces of kind `k` in hand (colour index `c`) adds to
/// [`Position::hash`]: nothing for none.
pub(crate) fn hand_key(c: usize, k: usize, n: u8) -> u64 {
    if n == 0 {
        return 0;
    }
    mix(0x2_0000_0000 | (c as u64) << 16 | (k as u64) << 8 | n as u64)
}

/// splitmix64 finaliser: a good enough independent hash per feature.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for r in (0..self.height).rev() {
            for file in 0..self.width {
                let sq = Square::new(file, r);
                let c = if self.is_hole(sq) {
                    '*'
                } else {
                    match self.get(sq) {
                        None => '.',
                        Some(p) => {
                            let c = (b'a' + p.kind) as char;
                            if p.color == Color::White {
                                c.to_ascii_uppercase()
                            } else {
                                c
                            }
                        }
                    }
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        write!(f, "side {:?} hands {:?}", self.side, &self.hands)
    }
}

/// The rectangle's squares, rank by rank from a1: one counter, not nested
/// iterators (this walk is in every move generation).
struct Scan {
    next: u16,
    width: u8,
    /// One past the last square's index.
    end: u16,
}

impl Scan {
    fn new(pos: &Position) -> Scan {
        Scan {
            next: 0,
            width: pos.width,
            end: if pos.width == 0 || pos.height == 0 {
                0
            } else {
                Square::new(pos.width - 1, pos.height - 1).index() as u16 + 1
            },
        }
    }
}

impl Iterator for Scan {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.next >= self.end {
            return None;
        }
        let sq = Square::from_index(self.next as u8);
        // After the last file of a rank, the first of the next.
        self.next = if sq.file() + 1 >= self.width {
            (sq.rank() as u16 + 1) << 4
        } else {
            self.next + 1
        };
        Some(sq)
    }
}
