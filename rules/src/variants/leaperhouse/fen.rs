//! Leaperhouse's FEN as Fairy-Stockfish writes it: the Guard as `+P`,
//! pieces in hand in brackets, no castling or en passant fields.

use super::{Leaperhouse, DROPPABLE, FAR_RANK, GUARD, HAND_ORDER, KING, PAWN};
use crate::errors::FenError;
use crate::fen;
use crate::geometry::Square;
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;
use crate::variant::Variant;
use std::iter::Peekable;
use std::str::Chars;

impl Leaperhouse {
    /// Board letters: every piece but the Guard, which is written `+P`.
    fn board_kind(&self, c: char) -> Option<Kind> {
        self.pieces.kind_of_letter(c).filter(|&k| k != GUARD)
    }

    fn hand_kind(&self, c: char) -> Option<Kind> {
        self.pieces
            .kind_of_letter(c)
            .filter(|k| DROPPABLE.contains(k))
    }

    pub(super) fn read_fen(&self, text: &str) -> Result<Position, FenError> {
        let (board, rest) = fen::fields(text)?;
        let letters = fen::letter_reader(|c| self.board_kind(c), true);
        let reader = |chars: &mut Peekable<Chars<'_>>| -> Result<Piece, FenError> {
            let p = letters(chars)?;
            match (p.promoted, p.kind) {
                (false, _) => Ok(p),
                (true, PAWN) => Ok(Piece::promoted(GUARD, p.color)),
                (true, k) => Err(FenError::Syntax(format!(
                    "only a Pawn can be promoted (“+{}”)",
                    self.letter(k)
                ))),
            }
        };
        let (mut pos, hand) = fen::parse_board(&self.geometry, board, &reader)?;
        if let Some(h) = hand {
            fen::parse_hand(&mut pos, h, |c| self.hand_kind(c))?;
        }
        pos.side = fen::parse_side(rest.first())?;
        for (i, what) in [(1, "castling field"), (2, "en passant field")] {
            if let Some(f) = rest.get(i) {
                if *f != "-" {
                    return Err(FenError::Syntax(format!(
                        "the {what} must be “-” (Leaperhouse has neither), not “{f}”"
                    )));
                }
            }
        }
        pos.halfmove = fen::parse_counter(rest.get(3), 0, "halfmove clock")?;
        pos.fullmove = fen::parse_counter(rest.get(4), 1, "move number")?.max(1);
        if rest.len() > 5 {
            return Err(FenError::Syntax(format!(
                "unexpected text “{}” after the move number",
                rest[5..].join(" ")
            )));
        }
        self.validate(&mut pos)?;
        Ok(pos)
    }

    /// Kings (one each, recorded as royal), no stranded Pawn, and the side
    /// that just moved not in check.
    fn validate(&self, pos: &mut Position) -> Result<(), FenError> {
        for color in [Color::White, Color::Black] {
            let kings: Vec<Square> = pos
                .pieces()
                .filter(|(_, p)| p.kind == KING && p.color == color)
                .map(|(s, _)| s)
                .collect();
            if kings.len() != 1 {
                return Err(FenError::Invalid(format!(
                    "{color} must have exactly one King, not {}",
                    kings.len()
                )));
            }
            pos.royal[color.index()] = Some(kings[0]);
        }
        for (sq, p) in pos.pieces() {
            if p.kind == PAWN && pos.relative_rank(sq, p.color) == FAR_RANK {
                return Err(FenError::Invalid(format!(
                    "an unpromoted Pawn cannot stand on its last rank ({sq})"
                )));
            }
        }
        let mover = pos.side.opponent();
        let king = pos.royal[mover.index()].expect("set above");
        if self.attacked(pos, king, pos.side) {
            return Err(FenError::Invalid(
                "the side that is not to move is in check".into(),
            ));
        }
        Ok(())
    }

    pub(super) fn write_fen(&self, pos: &Position) -> String {
        let board = fen::write_board(pos, |p| self.piece_label(p).letter);
        let hand = fen::write_hand(pos, &HAND_ORDER, |k| self.letter(k));
        let side = if pos.side == Color::White { "w" } else { "b" };
        format!(
            "{board}[{hand}] {side} - - {} {}",
            pos.halfmove, pos.fullmove
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_order_is_fairy_stockfish_order() {
        let v = Leaperhouse::new();
        let fen = "u5kc1u/n1Ea6/5pp2e/Cp1c6/2C7/1a5e1P/10/2P5P1/7N2/1u5K+p1[PPPPPPNuepppppppn] w - - 0 63";
        let pos = v.parse_fen(fen).unwrap();
        assert_eq!(v.fen(&pos), fen);
    }
}
