//! The FEN-like position string shared by every variant: board rows from the
//! top rank down separated by `/`, digits for empty runs (multi-digit on wide
//! boards), `*` for a hole or crater, pieces in hand in `[...]`, then fields.

use crate::errors::FenError;
use crate::geometry::{Geometry, Square};
use crate::piece::{Color, Piece};
use crate::position::Position;
use std::iter::Peekable;
use std::str::Chars;

/// Longest position string accepted (guards the parsers against huge input).
pub(crate) const MAX_FEN_LEN: usize = 2048;

/// Reads one piece token from the board text (the first character is
/// neither a digit, `*` nor `/`).
pub(crate) type PieceReader<'a> = &'a dyn Fn(&mut Peekable<Chars<'_>>) -> Result<Piece, FenError>;

/// Split a position string into the board (with hand) and the other fields.
pub(crate) fn fields(fen: &str) -> Result<(&str, Vec<&str>), FenError> {
    if fen.len() > MAX_FEN_LEN {
        return Err(FenError::Syntax("the position string is too long".into()));
    }
    let mut parts = fen.split_whitespace();
    let board = parts
        .next()
        .ok_or_else(|| FenError::Syntax("the position string is empty".into()))?;
    Ok((board, parts.collect()))
}

/// Parse the board part (with an optional `[...]` hand suffix) into an empty
/// position of `geometry`; returns the hand text if present.
pub(crate) fn parse_board<'f>(
    geometry: &Geometry,
    board: &'f str,
    read: PieceReader,
) -> Result<(Position, Option<&'f str>), FenError> {
    let (rows_text, hand) = match board.find('[') {
        Some(i) => {
            let rest = &board[i + 1..];
            let close = rest
                .find(']')
                .ok_or_else(|| FenError::Syntax("“[” without “]” in the hand".into()))?;
            if close + 1 != rest.len() {
                return Err(FenError::Syntax("text after the hand's “]”".into()));
            }
            (&board[..i], Some(&rest[..close]))
        }
        None => (board, None),
    };
    let mut pos = Position::empty(geometry);
    let rows: Vec<&str> = rows_text.split('/').collect();
    if rows.len() != geometry.height as usize {
        return Err(FenError::Syntax(format!(
            "{} rows given, the board has {}",
            rows.len(),
            geometry.height
        )));
    }
    let mut holes_seen = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let rank = geometry.height - 1 - i as u8;
        let mut file: u32 = 0;
        let mut chars = row.chars().peekable();
        while let Some(&c) = chars.peek() {
            if c.is_ascii_digit() {
                let mut n: u32 = 0;
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                    n = n * 10 + d;
                    chars.next();
                    if n > 64 {
                        return Err(FenError::Syntax(format!("row {} is too long", rank + 1)));
                    }
                }
                if n == 0 {
                    return Err(FenError::Syntax(format!(
                        "a run of 0 empty squares in row {}",
                        rank + 1
                    )));
                }
                file += n;
            } else if c == '*' {
                chars.next();
                if file < geometry.width as u32 {
                    holes_seen.push(Square::new(file as u8, rank));
                }
                file += 1;
            } else {
                let piece = read(&mut chars)?;
                if file < geometry.width as u32 {
                    pos.set(Square::new(file as u8, rank), Some(piece));
                }
                file += 1;
            }
            if file > geometry.width as u32 {
                return Err(FenError::Syntax(format!(
                    "row {} has more than {} squares",
                    rank + 1,
                    geometry.width
                )));
            }
        }
        if file != geometry.width as u32 {
            return Err(FenError::Syntax(format!(
                "row {} has {} squares, the board has {} files",
                rank + 1,
                file,
                geometry.width
            )));
        }
    }
    for sq in geometry.holes.iter() {
        if pos.get(sq).is_some() {
            return Err(FenError::Invalid(format!(
                "{sq} is not a square of this board, but a piece stands there"
            )));
        }
        if !holes_seen.contains(&sq) {
            return Err(FenError::Invalid(format!(
                "{sq} is not a square of this board and must be written “*”"
            )));
        }
    }
    for sq in holes_seen {
        pos.make_hole(sq);
    }
    Ok((pos, hand))
}

/// Reader for single letters with an optional `+` promotion prefix, using a
/// letter → kind table (upper case White, lower case Black).
pub(crate) fn letter_reader(
    kind_of: impl Fn(char) -> Option<u8>,
    allow_promoted: bool,
) -> impl Fn(&mut Peekable<Chars<'_>>) -> Result<Piece, FenError> {
    move |chars| {
        let mut c = chars.next().expect("called on a character");
        let promoted = c == '+';
        if promoted {
            if !allow_promoted {
                return Err(FenError::Syntax(
                    "“+” (promoted piece) is not used in this variant".into(),
                ));
            }
            c = chars
                .next()
                .ok_or_else(|| FenError::Syntax("“+” at the end of a row".into()))?;
        }
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let kind = if c.is_ascii_alphabetic() {
            kind_of(c.to_ascii_uppercase())
        } else {
            None
        };
        let kind =
            kind.ok_or_else(|| FenError::Syntax(format!("“{c}” is not a piece of this variant")))?;
        Ok(Piece {
            kind,
            color,
            promoted,
            state: 0,
        })
    }
}

/// Write the board rows (no hand).
pub(crate) fn write_board(pos: &Position, write_piece: impl Fn(Piece) -> String) -> String {
    let mut out = String::new();
    for r in (0..pos.height).rev() {
        let mut empty = 0;
        for f in 0..pos.width {
            let sq = Square::new(f, r);
            let token = if pos.is_hole(sq) {
                Some("*".to_string())
            } else {
                pos.get(sq).map(&write_piece)
            };
            match token {
                None => empty += 1,
                Some(t) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push_str(&t);
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if r > 0 {
            out.push('/');
        }
    }
    out
}

/// Parse hand letters (`PPn`, upper case White) into the position's hands.
pub(crate) fn parse_hand(
    pos: &mut Position,
    text: &str,
    kind_of: impl Fn(char) -> Option<u8>,
) -> Result<(), FenError> {
    for c in text.chars() {
        if c == '-' {
            continue;
        }
        let kind = if c.is_ascii_alphabetic() {
            kind_of(c.to_ascii_uppercase())
        } else {
            None
        };
        let kind = kind.ok_or_else(|| {
            FenError::Syntax(format!("“{c}” in the hand is not a piece of this variant"))
        })?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        if pos.hand(color, kind) >= 64 {
            return Err(FenError::Invalid("too many pieces in hand".into()));
        }
        pos.add_to_hand(color, kind);
    }
    Ok(())
}

/// Write hands as letters, White's first, each side in the given kind order.
pub(crate) fn write_hand(pos: &Position, order: &[u8], letter: impl Fn(u8) -> char) -> String {
    let mut s = String::new();
    for color in [Color::White, Color::Black] {
        for &k in order {
            for _ in 0..pos.hand(color, k) {
                let c = letter(k);
                s.push(if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c.to_ascii_lowercase()
                });
            }
        }
    }
    s
}

pub(crate) fn parse_side(field: Option<&&str>) -> Result<Color, FenError> {
    match field.copied() {
        None | Some("w") => Ok(Color::White),
        Some("b") => Ok(Color::Black),
        Some(other) => Err(FenError::Syntax(format!(
            "side to move must be “w” or “b”, not “{other}”"
        ))),
    }
}

pub(crate) fn parse_counter(
    field: Option<&&str>,
    default: u16,
    what: &str,
) -> Result<u16, FenError> {
    match field {
        None => Ok(default),
        Some(s) => s.parse::<u16>().map_err(|_| {
            let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            FenError::Syntax(if digits {
                format!("the {what} “{s}” is too large (at most {})", u16::MAX)
            } else {
                format!("the {what} must be a number, not “{s}”")
            })
        }),
    }
}

pub(crate) fn parse_square_field(
    geometry: &Geometry,
    field: Option<&&str>,
    what: &str,
) -> Result<Option<Square>, FenError> {
    match field.copied() {
        None | Some("-") => Ok(None),
        Some(s) => geometry
            .parse_square(s)
            .filter(|sq| !geometry.is_hole(*sq))
            .map(Some)
            .ok_or_else(|| {
                FenError::Syntax(format!("the {what} “{s}” is not a square of this board"))
            }),
    }
}
