//! Why a Fleap move is not legal: each piece's movement rule in words, for
//! the shared reader's messages. Apart from reading: it asks the rules.

use super::*;
use crate::geometry::Square;
use crate::notation::Explain;
use crate::piece::Kind;
use crate::position::Position;

pub(super) struct FleapExplain<'a> {
    pub(super) v: &'a Fleap,
    pub(super) pos: &'a Position,
}

pub(super) fn movement_rule(kind: Kind) -> &'static str {
    match kind {
        EQUIHOPPER => "an Equihopper jumps over exactly one piece standing halfway to its destination; on a rank, file or diagonal every other square between must be empty",
        NONSTOP => "a Non-stop Equihopper jumps over exactly one piece standing halfway to its destination, whatever stands elsewhere",
        BALLISTA => "a Ballista moves up to two squares like a Queen without capturing, and captures without moving on a square where an Equihopper move from it would land",
        REPEATER => "an EquiRepeater jumps like an Equihopper and, if it landed on an empty square, may go once more by the hurdle's offset",
        FORENAFT => "a Fore'n'aft jumps like an Equihopper, or goes to the mirror square of a piece across itself",
        PAWN => "a Pawn moves one square forward and captures one square diagonally forward",
        KNIGHT => "a Knight leaps like a chess Knight",
        BISHOP => "a Bishop slides diagonally and cannot cross craters",
        ROOK => "a Rook slides along ranks and files and cannot cross craters",
        _ => "a King moves one square in any direction",
    }
}

impl Explain for FleapExplain<'_> {
    fn piece_on(&self, sq: Square) -> Option<(bool, String)> {
        let p = self.pos.get(sq)?;
        Some((p.color == self.pos.side, NAMES[p.kind as usize].to_string()))
    }
    fn why_not(&self, from: Option<Square>, to: Option<Square>) -> Option<String> {
        let to = to?;
        if self.pos.is_hole(to) {
            return Some(format!(
                "{to} is a crater or not part of the board; nothing can land there."
            ));
        }
        if let Some(t) = self.pos.get(to) {
            if t.color == self.pos.side && from.is_some() {
                return Some(format!("{to} holds one of your own pieces."));
            }
        }
        let p = self.pos.get(from?)?;
        if p.color != self.pos.side {
            return None;
        }
        Some(format!(
            "the {} on {} cannot reach {to}: {}.",
            NAMES[p.kind as usize],
            from?,
            movement_rule(p.kind)
        ))
    }
    fn on_board(&self, sq: Square) -> bool {
        self.v.geometry.contains(sq) && !self.v.geometry.is_hole(sq)
    }
    fn piece_name(&self, letter: char) -> String {
        Fleap::kind_of(letter.to_ascii_uppercase())
            .map(|k| NAMES[k as usize].to_string())
            .unwrap_or_else(|| format!("“{letter}”"))
    }
}
