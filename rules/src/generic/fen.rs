//! FEN as Fairy-Stockfish writes it: ranks of letters and counts (`10`
//! on wide boards), `~` after a promoted piece, the hand in `[...]`,
//! castling as `KQkq`.

use super::movegen::CASTLE_BITS;
use super::Generic;
use crate::errors::FenError;
use crate::geometry::Square;
use crate::piece::{Color, Piece};
use crate::position::Position;

fn syntax(m: impl Into<String>) -> FenError {
    FenError::Syntax(m.into())
}

impl Generic {
    fn piece_of(&self, c: char) -> Option<Piece> {
        let kind = self.spec.kind_of_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(kind, color))
    }

    pub(super) fn parse(&self, fen: &str) -> Result<Position, FenError> {
        let s = &self.spec;
        let mut fields = fen.split_whitespace();
        let board = fields.next().ok_or_else(|| syntax("empty"))?;
        let (board, hand) = match board.find('[') {
            Some(i) => {
                let rest = &board[i + 1..];
                let h = rest
                    .strip_suffix(']')
                    .ok_or_else(|| syntax("the hand must end with `]`"))?;
                (&board[..i], Some(h))
            }
            None => (board, None),
        };
        // Holes come from the FEN (`*`), as Fairy-Stockfish's wall squares.
        let mut pos = Position::empty(&crate::geometry::Geometry::rect(s.width, s.height));
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != s.height as usize {
            return Err(syntax(format!(
                "{} ranks; this board has {}",
                rows.len(),
                s.height
            )));
        }
        for (i, row) in rows.iter().enumerate() {
            let rank = s.height - 1 - i as u8;
            let mut file: u32 = 0;
            let mut chars = row.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    let mut n = d;
                    while let Some(d2) = chars.peek().and_then(|c| c.to_digit(10)) {
                        n = n * 10 + d2;
                        chars.next();
                    }
                    file += n;
                } else if c == '*' {
                    if file >= s.width as u32 {
                        return Err(syntax(format!("rank {} is too long", rank + 1)));
                    }
                    pos.make_hole(Square::new(file as u8, rank));
                    file += 1;
                } else if c == '+' {
                    let base = chars
                        .next()
                        .and_then(|l| self.piece_of(l))
                        .ok_or_else(|| syntax("`+` must precede a piece letter"))?;
                    let p = self
                        .promote(base.kind, base.color)
                        .ok_or_else(|| syntax("`+` before a piece that does not promote"))?;
                    if file >= s.width as u32 {
                        return Err(syntax(format!("rank {} is too long", rank + 1)));
                    }
                    pos.set(Square::new(file as u8, rank), Some(p));
                    file += 1;
                } else {
                    let mut p = self
                        .piece_of(c)
                        .ok_or_else(|| syntax(format!("`{c}` is no piece of this variant")))?;
                    if chars.peek() == Some(&'~') {
                        chars.next();
                        p.promoted = true;
                    }
                    if file >= s.width as u32 {
                        return Err(syntax(format!("rank {} is too long", rank + 1)));
                    }
                    pos.set(Square::new(file as u8, rank), Some(p));
                    file += 1;
                }
            }
            if file != s.width as u32 {
                return Err(syntax(format!(
                    "rank {} has {file} squares, not {}",
                    rank + 1,
                    s.width
                )));
            }
        }
        if let Some(h) = hand {
            if !s.pockets {
                return Err(syntax("this variant has no hands"));
            }
            for c in h.chars() {
                if c == '-' {
                    continue;
                }
                let p = self
                    .piece_of(c)
                    .ok_or_else(|| syntax(format!("`{c}` in hand is no piece of this variant")))?;
                pos.add_to_hand(p.color, p.kind);
            }
        }
        pos.side = match fields.next() {
            Some("w") | None => Color::White,
            Some("b") => Color::Black,
            Some(x) => return Err(syntax(format!("side to move `{x}`"))),
        };
        // Castling and en passant may be left out (`w 0 1`), as
        // Fairy-Stockfish's variants without them write.
        let mut rest: Vec<&str> = fields.collect();
        // Checks still needed (`3+3`), before the counters.
        if s.check_counting {
            pos.counters = [1, 1];
            if let Some(i) = rest.iter().position(|f| {
                f.split_once('+').is_some_and(|(a, b)| {
                    !a.is_empty() && a.bytes().chain(b.bytes()).all(|c| c.is_ascii_digit())
                })
            }) {
                let (a, b) = rest.remove(i).split_once('+').expect("checked");
                pos.counters = [
                    a.parse().map_err(|_| syntax("check count"))?,
                    b.parse().map_err(|_| syntax("check count"))?,
                ];
            }
        }
        let numeric = |f: &&str| f.bytes().all(|b| b.is_ascii_digit());
        if s.chess960 && rest.first().is_some_and(|f| !numeric(f)) {
            let c = rest.remove(0);
            if c != "-" {
                self.read_960_rights(&mut pos, c)?;
            }
        } else if rest.first().is_some_and(|f| !numeric(f)) {
            let c = rest.remove(0);
            if c != "-" {
                for ch in c.chars() {
                    let (color, side) = match ch {
                        'K' => (0, 0),
                        'Q' => (0, 1),
                        'k' => (1, 0),
                        'q' => (1, 1),
                        _ => return Err(syntax(format!("castling right `{ch}`"))),
                    };
                    pos.castling |= CASTLE_BITS[color][side];
                }
            }
        }
        // A count running (makruk): its limit stands where en passant would,
        // and the plies counted where the halfmove clock would.
        if s.counting_rule.is_some() && rest.len() >= 3 && rest[..3].iter().all(numeric) {
            let limit = rest.remove(0);
            pos.counting_limit = limit
                .parse()
                .map_err(|_| syntax(format!("counting limit `{limit}`")))?;
        }
        if rest.first().is_some_and(|f| !numeric(f)) {
            let ep = rest.remove(0);
            if ep != "-" {
                let sq = self
                    .geometry
                    .parse_square(ep)
                    .ok_or_else(|| syntax(format!("en passant square `{ep}`")))?;
                pos.ep = Some(sq);
            }
        }
        let mut numbers = rest.into_iter();
        if let Some(h) = numbers.next() {
            pos.halfmove = h
                .parse()
                .map_err(|_| syntax(format!("halfmove clock `{h}`")))?;
        }
        if let Some(f) = numbers.next() {
            pos.fullmove = f
                .parse()
                .map_err(|_| syntax(format!("move number `{f}`")))?;
        }
        if let Some(x) = numbers.next() {
            return Err(syntax(format!("unexpected `{x}` at the end")));
        }
        if pos.counting_limit > 0 {
            pos.counting_ply = pos.halfmove;
            pos.halfmove = 0;
        }
        for color in [Color::White, Color::Black] {
            if let Some(k) = s.king_kind() {
                let n = pos
                    .pieces()
                    .filter(|(_, p)| p.color == color && p.kind == k)
                    .count();
                // Horde's White has none.
                if n > 1 {
                    return Err(FenError::Invalid(format!("{color} has {n} kings")));
                }
            }
        }
        // Janggi: with the kings facing, a pass is legal even in check
        // and leaves the passer in check (bikjang then ends the game).
        if !self.bikjang(&pos) && self.in_check_of(&pos, pos.side.opponent()) {
            return Err(FenError::Invalid("the side not to move is in check".into()));
        }
        // Shatar: a check standing in the FEN counts for the mate rule if
        // it is a shak (the series before it is not known).
        pos.shak = self.shak_now(&pos);
        Ok(pos)
    }

    /// Chess960's castling field: `K`/`Q` for the outermost rook on that
    /// side of the king, or the rook's file (`HAha`, Shredder's form). A
    /// right whose king or rook is not there is left out, as
    /// Fairy-Stockfish does.
    fn read_960_rights(&self, pos: &mut Position, field: &str) -> Result<(), FenError> {
        let s = &self.spec;
        let Some(king) = s.castling_king else {
            return Ok(());
        };
        for ch in field.chars() {
            let color = if ch.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let rank = if color == Color::White {
                s.castling_rank
            } else {
                s.height - 1 - s.castling_rank
            };
            let is_rook = |f: u8| {
                pos.get(Square::new(f, rank))
                    .is_some_and(|p| p.color == color && s.castling_rooks.contains(&p.kind))
            };
            let Some(kfile) = (0..s.width)
                .find(|&f| pos.get(Square::new(f, rank)) == Some(Piece::new(king, color)))
            else {
                continue;
            };
            let file = match ch.to_ascii_lowercase() {
                'k' => (0..s.width).rev().find(|&f| is_rook(f)),
                'q' => (0..s.width).find(|&f| is_rook(f)),
                l @ 'a'..='z' if ((l as u8 - b'a') < s.width) => Some(l as u8 - b'a'),
                _ => return Err(FenError::Syntax(format!("castling right `{ch}`"))),
            };
            let Some(file) = file.filter(|&f| is_rook(f) && f != kfile) else {
                continue;
            };
            let side = usize::from(file < kfile);
            pos.castling |= CASTLE_BITS[color.index()][side];
            pos.castling_files[color.index()][side] = file;
        }
        Ok(())
    }

    fn letter(&self, p: Piece) -> char {
        let l = self.spec.pieces[p.kind as usize].letter;
        if p.color == Color::White {
            l.to_ascii_uppercase()
        } else {
            l
        }
    }

    pub(super) fn write(&self, pos: &Position) -> String {
        let s = &self.spec;
        let mut out = String::new();
        for rank in (0..s.height).rev() {
            let mut empty = 0;
            for file in 0..s.width {
                let sq = Square::new(file, rank);
                let p = pos.get(sq);
                if p.is_none() && !pos.is_hole(sq) {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                match p {
                    None => out.push('*'),
                    Some(p) => match Self::unpromoted(p) {
                        Some(k) => {
                            out.push('+');
                            out.push(self.letter(Piece::new(k, p.color)));
                        }
                        None => {
                            out.push(self.letter(p));
                            if p.promoted {
                                out.push('~');
                            }
                        }
                    },
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        if s.pockets {
            out.push('[');
            for color in [Color::White, Color::Black] {
                // Fairy-Stockfish's order: from the king down to the pawn.
                for (k, &n) in pos.hands[color.index()]
                    .iter()
                    .enumerate()
                    .take(s.pieces.len())
                    .rev()
                {
                    for _ in 0..n {
                        out.push(self.letter(Piece::new(k as u8, color)));
                    }
                }
            }
            out.push(']');
        }
        out.push_str(if pos.side == Color::White {
            " w "
        } else {
            " b "
        });
        let mut rights = String::new();
        for (i, ch) in ['K', 'Q', 'k', 'q'].into_iter().enumerate() {
            let (c, side) = (i / 2, i % 2);
            if pos.castling & CASTLE_BITS[c][side] != 0 {
                if s.chess960 {
                    // Chess960 names the rook's file, as Fairy-Stockfish
                    // writes it (`HAha`).
                    let file = (b'a' + pos.castling_files[c][side]) as char;
                    rights.push(if c == 0 {
                        file.to_ascii_uppercase()
                    } else {
                        file
                    });
                } else {
                    rights.push(ch);
                }
            }
        }
        out.push_str(if rights.is_empty() { "-" } else { &rights });
        out.push(' ');
        match pos.ep {
            _ if pos.counting_limit > 0 => out.push_str(&pos.counting_limit.to_string()),
            Some(ep)
                if self
                    .legal_unchecked(pos)
                    .iter()
                    .any(|m| m.kind == crate::moves::MoveKind::EnPassant) =>
            {
                out.push_str(&ep.name())
            }
            _ => out.push('-'),
        }
        if s.check_counting {
            out.push_str(&format!(" {}+{}", pos.counters[0], pos.counters[1]));
        }
        let clock = if pos.counting_limit > 0 {
            pos.counting_ply
        } else {
            pos.halfmove
        };
        out.push_str(&format!(" {clock} {}", pos.fullmove));
        out
    }
}
