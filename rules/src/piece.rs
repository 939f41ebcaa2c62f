//! Colours and pieces. A piece's kind is an index into its variant's piece table.

use std::fmt;

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    White,
    Black,
    /// Pieces that belong to nobody (Maohopper's Stones).
    Neutral,
}

impl Color {
    /// The other side; neutral stays neutral.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
            Color::Neutral => Color::Neutral,
        }
    }
    /// 0 for White, 1 for Black (neutral maps to 2).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
    /// +1 for White, -1 for Black: the direction of "forward" along ranks.
    #[inline]
    pub fn forward(self) -> i8 {
        if self == Color::Black {
            -1
        } else {
            1
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
            Color::Neutral => "Neutral",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Index into a variant's piece table.
pub type Kind = u8;

/// A piece on the board or in hand. `state` is free for a variant's per-piece
/// state (a Spear's direction, a token's face); `promoted` marks pieces that
/// revert when captured or never flip.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub kind: Kind,
    pub color: Color,
    pub promoted: bool,
    pub state: u8,
}

impl Piece {
    #[inline]
    pub const fn new(kind: Kind, color: Color) -> Piece {
        Piece {
            kind,
            color,
            promoted: false,
            state: 0,
        }
    }
    #[inline]
    pub const fn promoted(kind: Kind, color: Color) -> Piece {
        Piece {
            kind,
            color,
            promoted: true,
            state: 0,
        }
    }
}
