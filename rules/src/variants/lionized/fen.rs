//! Lionized Chess position strings.

use super::lionization::{all_squares, attacked, is_regular, step};
use super::*;
use crate::errors::FenError;
use crate::fen;
use crate::geometry::Square;
use crate::moves::MoveKind;
use crate::piece::{Color, Piece};
use crate::position::Position;

impl LionizedChess {
    pub(crate) fn parse_fen(&self, text: &str) -> Result<Position, FenError> {
        let (board, rest) = fen::fields(text)?;
        let reader = fen::letter_reader(Self::kind_of, false);
        let (mut pos, hand) = fen::parse_board(&self.geometry, board, &reader)?;
        if let Some(h) = hand {
            fen::parse_hand(&mut pos, h, |c| Self::kind_of(c).filter(|&k| is_regular(k)))?;
        }
        if !pos.holes().is_empty() {
            return Err(FenError::Invalid(
                "this variant's board has no holes (“*”)".into(),
            ));
        }
        pos.side = fen::parse_side(rest.first())?;
        match rest.get(1).copied() {
            None | Some("-") => {}
            Some(other) => {
                return Err(FenError::Syntax(format!(
                    "the castling field must be “-” (there is no castling), not “{other}”"
                )))
            }
        }
        pos.ep = fen::parse_square_field(&self.geometry, rest.get(2), "en passant square")?;
        pos.halfmove = fen::parse_counter(rest.get(3), 0, "halfmove clock")?;
        pos.fullmove = fen::parse_counter(rest.get(4), 1, "move number")?.max(1);
        if rest.len() > 5 {
            return Err(FenError::Syntax(format!(
                "unexpected text “{}” after the move number",
                rest[5..].join(" ")
            )));
        }
        for color in [Color::White, Color::Black] {
            let kings: Vec<Square> = all_squares()
                .filter(|&s| pos.get(s) == Some(Piece::new(KING, color)))
                .collect();
            if kings.len() != 1 {
                return Err(FenError::Invalid(format!(
                    "{color} must have exactly one King, not {}",
                    kings.len()
                )));
            }
            pos.royal[color.index()] = Some(kings[0]);
        }
        for sq in all_squares() {
            if let Some(p) = pos.get(sq) {
                if p.kind == PAWN && pos.relative_rank(sq, p.color) == 0 {
                    return Err(FenError::Invalid(format!(
                        "a {} Pawn cannot stand on {sq}, its own first rank",
                        p.color
                    )));
                }
            }
        }
        if let Some(ep) = pos.ep {
            // The square a pawn just skipped: beyond it stands the pawn that moved.
            let mover = pos.side.opponent();
            let pawn_sq = step(ep, 0, mover.forward());
            let ok = pos.get(ep).is_none()
                && pos.relative_rank(ep, mover) == 2
                && matches!(pawn_sq.and_then(|s| pos.get(s)), Some(p) if p == Piece::new(PAWN, mover));
            if !ok {
                return Err(FenError::Invalid(format!(
                    "{ep} cannot be an en passant square here"
                )));
            }
        }
        let them = pos.side.opponent();
        if attacked(&pos, pos.royal[them.index()].expect("set above"), pos.side) {
            return Err(FenError::Invalid("the side not to move is in check".into()));
        }
        Ok(pos)
    }

    pub(crate) fn fen(&self, pos: &Position) -> String {
        let board = fen::write_board(pos, |p| {
            Self::cased(LETTERS[p.kind as usize], p.color).to_string()
        });
        let hand = fen::write_hand(pos, &REGULARS, |k| LETTERS[k as usize]);
        let side = if pos.side == Color::White { "w" } else { "b" };
        // Like Fairy-Stockfish: the en passant square only when it can be taken.
        let ep = match pos.ep {
            Some(e)
                if self
                    .legal_moves(pos)
                    .iter()
                    .any(|m| m.kind == MoveKind::EnPassant) =>
            {
                e.name()
            }
            _ => "-".into(),
        };
        format!(
            "{board}[{hand}] {side} - {ep} {} {}",
            pos.halfmove, pos.fullmove
        )
    }
}
