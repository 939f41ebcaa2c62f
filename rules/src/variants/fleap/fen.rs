//! Fleap's position strings and piece letters.

use super::*;
use crate::errors::FenError;
use crate::fen;
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;
use crate::variant::PieceLabel;

impl Fleap {
    pub(super) fn kind_of(c: char) -> Option<Kind> {
        LETTERS.iter().position(|&l| l == c).map(|k| k as Kind)
    }

    pub(super) fn token(p: Piece) -> String {
        let l = LETTERS[p.kind as usize];
        let l = if p.color == Color::Black {
            l.to_ascii_lowercase()
        } else {
            l
        };
        if p.promoted {
            format!("+{l}")
        } else {
            l.to_string()
        }
    }

    pub(crate) fn parse_fen(&self, text: &str) -> Result<Position, FenError> {
        let (board, rest) = fen::fields(text)?;
        let reader = fen::letter_reader(Fleap::kind_of, true);
        let (mut pos, hand) = fen::parse_board(&self.geometry, board, &reader)?;
        if let Some(h) = hand {
            fen::parse_hand(&mut pos, h, |c| Fleap::kind_of(c).filter(|&k| k >= PAWN))?;
        }
        pos.side = fen::parse_side(rest.first())?;
        if let Some(n) = rest.get(1) {
            let (w, b) = n.split_once('/').ok_or_else(|| {
                FenError::Syntax(format!("the Nuke field must read like “1/1”, not “{n}”"))
            })?;
            for (i, t) in [w, b].into_iter().enumerate() {
                pos.counters[i] = t
                    .parse::<u8>()
                    .ok()
                    .filter(|&v| v <= 20)
                    .ok_or_else(|| FenError::Syntax(format!("“{t}” is not a Nuke count")))?;
            }
        } else {
            pos.counters = [1, 1];
        }
        pos.halfmove = fen::parse_counter(rest.get(2), 0, "halfmove clock")?;
        pos.fullmove = fen::parse_counter(rest.get(3), 1, "move number")?.max(1);
        match rest.get(4).copied() {
            None | Some("-") | Some("*") => {}
            Some("1-0") => pos.castling = WHITE_WON,
            Some("0-1") => pos.castling = BLACK_WON,
            Some(other) => {
                return Err(FenError::Syntax(format!(
                    "the result field must be “1-0” or “0-1”, not “{other}”"
                )))
            }
        }
        if rest.len() > 5 {
            return Err(FenError::Syntax(format!(
                "unexpected text “{}” after the result field",
                rest[5..].join(" ")
            )));
        }
        for (s, p) in pos.pieces() {
            if p.promoted && p.kind == PAWN {
                return Err(FenError::Invalid(
                    "a Pawn cannot be a promoted piece".into(),
                ));
            }
            if p.kind == PAWN && !p.promoted && pos.relative_rank(s, p.color) >= PROMOTION_RANK {
                return Err(FenError::Invalid(format!(
                    "a Pawn on {s} would already have promoted"
                )));
            }
        }
        Ok(pos)
    }

    pub(crate) fn fen(&self, pos: &Position) -> String {
        let board = fen::write_board(pos, Fleap::token);
        let hand = fen::write_hand(pos, &HAND_ORDER, |k| LETTERS[k as usize]);
        let side = if pos.side == Color::White { "w" } else { "b" };
        let mut s = format!(
            "{board}[{hand}] {side} {}/{} {} {}",
            pos.counters[0], pos.counters[1], pos.halfmove, pos.fullmove
        );
        if pos.castling & WHITE_WON != 0 {
            s.push_str(" 1-0");
        } else if pos.castling & BLACK_WON != 0 {
            s.push_str(" 0-1");
        }
        s
    }

    pub(crate) fn piece_label(&self, p: Piece) -> PieceLabel {
        let name = if p.promoted {
            format!("{} (promoted)", NAMES[p.kind as usize])
        } else {
            NAMES[p.kind as usize].to_string()
        };
        PieceLabel {
            symbol: String::new(),
            letter: Fleap::token(p),
            name,
            direction: None,
        }
    }
}
