//! One move type for every variant.
//!
//! A move is a kind tag plus squares; which fields mean what is fixed per
//! kind (documented on [`MoveKind`]). It is `Copy` and small so move lists
//! stay cheap in perft.

use crate::geometry::Square;
use crate::piece::Piece;

/// Placeholder for unused square fields.
pub(crate) const NO_SQUARE: Square = Square::from_index(255);

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// `from` → `to`, capturing what stands on `to`; `piece` is the promotion
    /// result if any.
    Normal,
    /// `piece` is placed on `to` from the hand.
    Drop,
    /// King `from` → `to`; the partner (rook, knight) goes `extra[0]` → `extra[1]`.
    Castle,
    /// Pawn `from` → `to`, capturing the pawn on `extra[0]`.
    EnPassant,
    /// Two legs: `from` → `extra[0]` → `to`, each leg may capture
    /// (`extra[1]` = `extra[0]` if the first leg captured there, else `NO_SQUARE`).
    /// `piece` may name a swap/promotion result.
    TwoLeg,
    /// A capture chain `from` → path... → `to` by one piece.
    Chain,
    /// Variant-defined special move; `extra` and `piece` are the variant's.
    Special,
}

/// Up to 15 intermediate squares of a capture chain.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Path {
    len: u8,
    squares: [Option<Square>; 15],
}

impl Path {
    pub fn push(&mut self, sq: Square) -> bool {
        if (self.len as usize) < self.squares.len() {
            self.squares[self.len as usize] = Some(sq);
            self.len += 1;
            true
        } else {
            false
        }
    }
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        self.squares[..self.len as usize]
            .iter()
            .map(|s| s.expect("pushed"))
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub kind: MoveKind,
    pub from: Square,
    pub to: Square,
    pub piece: Option<Piece>,
    pub extra: [Square; 2],
    /// Variant-defined small value (a Spear's new direction, a flag).
    pub tag: u8,
    pub path: Path,
}

impl Move {
    pub fn normal(from: Square, to: Square) -> Move {
        Move {
            kind: MoveKind::Normal,
            from,
            to,
            piece: None,
            extra: [NO_SQUARE; 2],
            tag: 0,
            path: Path::default(),
        }
    }
    pub fn promotion(from: Square, to: Square, piece: Piece) -> Move {
        Move {
            piece: Some(piece),
            ..Move::normal(from, to)
        }
    }
    pub fn drop(piece: Piece, to: Square) -> Move {
        Move {
            kind: MoveKind::Drop,
            from: NO_SQUARE,
            to,
            piece: Some(piece),
            extra: [NO_SQUARE; 2],
            tag: 0,
            path: Path::default(),
        }
    }
    pub fn with_kind(mut self, kind: MoveKind) -> Move {
        self.kind = kind;
        self
    }
    pub fn with_extra(mut self, a: Square, b: Square) -> Move {
        self.extra = [a, b];
        self
    }
    /// The square a piece leaves, if any (drops have none).
    pub fn origin(&self) -> Option<Square> {
        (self.from != NO_SQUARE).then_some(self.from)
    }
    pub fn is_drop(&self) -> bool {
        self.kind == MoveKind::Drop
    }
}
