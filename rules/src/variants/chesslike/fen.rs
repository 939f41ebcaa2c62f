//! Reading and writing FEN for chess-like variants: castling rights (also
//! Shredder-FEN's), en passant, one King a side, no pawn on an end rank.

use super::{kind_of, Castling, ChessLike};
use crate::errors::FenError;
use crate::fen;
use crate::geometry::Square;
use crate::moves::MoveKind;
use crate::piece::{Color, Piece};
use crate::position::Position;

impl ChessLike {
    pub(crate) fn parse_fen(&self, text: &str) -> Result<Position, FenError> {
        let (board, rest) = fen::fields(text)?;
        let reader = fen::letter_reader(|c| kind_of(&self.pieces, c), false);
        let (mut pos, hand) = fen::parse_board(&self.geometry, board, &reader)?;
        if let Some(h) = hand {
            if !h.is_empty() {
                return Err(FenError::Invalid(
                    "this variant has no pieces in hand".into(),
                ));
            }
        }
        pos.side = fen::parse_side(rest.first())?;
        let rights = rest.get(1).copied().unwrap_or("-");
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
            let kings: Vec<Square> = pos
                .pieces()
                .filter(|(_, p)| p.kind == self.king && p.color == color)
                .map(|(s, _)| s)
                .collect();
            if kings.len() != 1 {
                return Err(FenError::Invalid(format!(
                    "{} must have exactly one King, not {}",
                    self.side_names[color.index()],
                    kings.len()
                )));
            }
            pos.royal[color.index()] = Some(kings[0]);
        }
        for (sq, p) in pos.pieces() {
            if p.kind == self.pawn
                && (pos.relative_rank(sq, p.color) == self.geometry.height - 1
                    || pos.relative_rank(sq, p.color) == 0)
            {
                return Err(FenError::Invalid(format!("a pawn cannot stand on {sq}")));
            }
        }
        if rights != "-" {
            for c in rights.chars() {
                let rule = self
                    .castlings
                    .iter()
                    .find(|r| r.right == c)
                    .or_else(|| self.castling_by_partner_file(c))
                    .ok_or_else(|| {
                        FenError::Syntax(format!("“{c}” is not a castling right of this variant"))
                    })?;
                let king_ok = pos.get(rule.king_from) == Some(Piece::new(self.king, rule.color));
                let partner_ok =
                    pos.get(rule.partner_from) == Some(Piece::new(rule.partner, rule.color));
                if !king_ok || !partner_ok {
                    return Err(FenError::Invalid(format!(
                        "castling right “{c}” needs the King on {} and the {} on {}",
                        rule.king_from,
                        self.pieces.def(rule.partner).name,
                        rule.partner_from
                    )));
                }
                pos.castling |= rule.bit;
            }
        }
        if let Some(ep) = pos.ep {
            // The square a pawn just skipped: behind it stands the pawn that moved.
            let mover = pos.side.opponent();
            let pawn_sq = pos.step(ep, 0, mover.forward());
            let ok = pos.get(ep).is_none()
                && matches!(pawn_sq.and_then(|s| pos.get(s)), Some(p) if p.kind == self.pawn && p.color == mover);
            if !ok {
                return Err(FenError::Invalid(format!(
                    "{ep} cannot be an en passant square here"
                )));
            }
        }
        if self.attacked(
            &pos,
            pos.royal[pos.side.opponent().index()].expect("set above"),
            pos.side,
        ) {
            return Err(FenError::Invalid("the side not to move is in check".into()));
        }
        Ok(pos)
    }

    /// Shredder-FEN's castling letters (`AHah` for `KQkq`): the file of
    /// the castling partner's square, upper case for White. Read, never
    /// written.
    fn castling_by_partner_file(&self, c: char) -> Option<&Castling> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let file = u32::from(c.to_ascii_lowercase()).checked_sub(u32::from('a'))?;
        self.castlings
            .iter()
            .find(|r| r.color == color && u32::from(r.partner_from.file()) == file)
    }

    pub(crate) fn fen(&self, pos: &Position) -> String {
        let board = fen::write_board(pos, |p| self.piece_label(p).letter);
        let side = if pos.side == Color::White { "w" } else { "b" };
        let mut rights: String = self
            .castlings
            .iter()
            .filter(|r| pos.castling & r.bit != 0)
            .map(|r| r.right)
            .collect();
        if rights.is_empty() {
            rights.push('-');
        }
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
            "{board} {side} {rights} {ep} {} {}",
            pos.halfmove, pos.fullmove
        )
    }
}
