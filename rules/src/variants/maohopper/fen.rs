//! Maohopper position strings (Spears carry their direction).

use super::*;
use crate::errors::FenError;
use crate::fen;
use crate::geometry::Square;
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;
use std::iter::Peekable;
use std::str::Chars;

impl Maohopper {
    pub(super) fn token(piece: Piece) -> String {
        if piece.kind == STONE {
            return "O".into();
        }
        let mut s = String::with_capacity(2);
        let l = LETTERS[piece.kind as usize];
        s.push(if piece.color == Color::Black {
            l.to_ascii_lowercase()
        } else {
            l
        });
        if piece.kind == SPEAR && piece.state != STRAIGHT {
            s.push(DIR_MARKS[piece.state as usize]);
        }
        s
    }

    pub(super) fn read(&self, text: &str) -> Result<Position, FenError> {
        let (board, rest) = fen::fields(text)?;
        let (mut pos, hand) = fen::parse_board(&self.geometry, board, &read_piece)?;
        if hand.is_some_and(|h| !h.is_empty() && h != "-") {
            return Err(FenError::Invalid(
                "this variant has no pieces in hand".into(),
            ));
        }
        if !pos.holes().is_empty() {
            return Err(FenError::Invalid("this board has no holes".into()));
        }
        pos.side = fen::parse_side(rest.first())?;
        pos.fullmove = fen::parse_counter(rest.get(1), 1, "move number")?.max(1);
        if rest.len() > 2 {
            return Err(FenError::Syntax(format!(
                "unexpected text “{}” after the move number",
                rest[2..].join(" ")
            )));
        }
        if matches!(pos.get(TRAP), Some(p) if p.kind != STONE) {
            return Err(FenError::Invalid(
                "a piece cannot stand on the trap square h4".into(),
            ));
        }
        for color in [Color::White, Color::Black] {
            let flags: Vec<Square> = pos
                .pieces()
                .filter(|(_, p)| p.kind == FLAG && p.color == color)
                .map(|(s, _)| s)
                .collect();
            if flags.len() > 1 {
                return Err(FenError::Invalid(format!(
                    "{color} has {} Flags; a side has at most one",
                    flags.len()
                )));
            }
            pos.royal[color.index()] = flags.first().copied();
        }
        let waiting = pos.side.opponent();
        if pos.royal[waiting.index()].is_none() {
            return Err(FenError::Invalid(format!(
                "{waiting}, not to move, has no Flag (only the side to move can have just lost it)"
            )));
        }
        Ok(pos)
    }

    pub(super) fn write(&self, pos: &Position) -> String {
        let board = fen::write_board(pos, Maohopper::token);
        let side = if pos.side == Color::White { "w" } else { "b" };
        format!("{board} {side} {}", pos.fullmove)
    }
}

/// Reads one FEN piece token (see the module documentation).
pub(super) fn read_piece(chars: &mut Peekable<Chars<'_>>) -> Result<Piece, FenError> {
    let c = chars.next().expect("called on a character");
    if c == 'O' || c == 'o' {
        return Ok(Piece::new(STONE, Color::Neutral));
    }
    let kind = if c.is_ascii_alphabetic() {
        LETTERS[..STONE as usize]
            .iter()
            .position(|&l| l == c.to_ascii_uppercase())
    } else {
        None
    };
    let kind =
        kind.ok_or_else(|| FenError::Syntax(format!("“{c}” is not a piece of this variant")))?;
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    let mut piece = Piece::new(kind as Kind, color);
    if let Some(&mark) = chars.peek() {
        if let Some(dir) = DIR_MARKS.iter().position(|&d| d == mark) {
            if piece.kind != SPEAR {
                return Err(FenError::Syntax(format!(
                    "“{mark}” (a direction) may only follow a Spear, not “{c}”"
                )));
            }
            chars.next();
            piece.state = dir as u8;
        }
    }
    Ok(piece)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_fen_round_trips() {
        let v = Maohopper::new();
        let pos = v.read(START).unwrap();
        assert_eq!(v.write(&pos), START);
    }
}
