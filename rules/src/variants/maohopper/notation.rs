//! Maohopper notations (the page's own, coordinates, Game Courier), reading
//! them, and saying why a move is not legal.

use super::*;
use crate::errors::MoveError;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind};
use crate::notation::{self, Candidate, Explain};
use crate::piece::Color;
use crate::position::Position;

impl Maohopper {
    pub(super) fn letter_case(color: Color, l: char) -> char {
        if color == Color::Black {
            l.to_ascii_lowercase()
        } else {
            l
        }
    }

    pub(super) fn gc_spear(color: Color, dir: u8) -> String {
        let l = GC_SPEAR[dir as usize % 3];
        if color == Color::Black {
            l.to_ascii_lowercase()
        } else {
            l.to_string()
        }
    }

    pub(super) fn coordinate(&self, pos: &Position, m: &Move) -> String {
        let piece = pos.get(m.from).expect("a piece on the origin");
        let mut s = format!("{}{}", m.from, m.to);
        if let Some(p) = m.piece {
            s.push(LETTERS[p.kind as usize].to_ascii_lowercase());
        } else if piece.kind == SPEAR && m.tag != piece.state && m.to != TRAP {
            // A new direction, after a step or in place (`e3e3>`).
            s.push(DIR_MARKS[m.tag as usize % 3]);
        }
        s
    }

    pub(super) fn game_courier(&self, pos: &Position, m: &Move) -> String {
        let piece = pos.get(m.from).expect("a piece on the origin");
        let us = piece.color;
        if m.kind == MoveKind::Special {
            return format!("{}*{}", Maohopper::gc_spear(us, m.tag), m.from);
        }
        if piece.kind != SPEAR {
            let l = Maohopper::letter_case(us, LETTERS[piece.kind as usize]);
            return format!("{l} {}-{}", m.from, m.to);
        }
        let mut s = format!(
            "{} {}-{}",
            Maohopper::gc_spear(us, piece.state),
            m.from,
            m.to
        );
        if let Some(p) = m.piece {
            let l = Maohopper::letter_case(us, LETTERS[p.kind as usize]);
            s.push_str(&format!("; {l}*{}", m.to));
        } else if m.tag != piece.state && m.to != TRAP {
            s.push_str(&format!("; {}*{}", Maohopper::gc_spear(us, m.tag), m.to));
        }
        s
    }

    pub(super) fn display(&self, pos: &Position, m: &Move) -> String {
        let piece = pos.get(m.from).expect("a piece on the origin");
        let l = LETTERS[piece.kind as usize];
        if m.kind == MoveKind::Special {
            return format!("{l}{}{}", m.from, DIR_MARKS[m.tag as usize % 3]);
        }
        let sep = if pos.get(m.to).is_some_and(|p| p.kind != STONE) {
            'x'
        } else {
            '-'
        };
        let mut s = format!("{l}{}{sep}{}", m.from, m.to);
        if let Some(p) = m.piece {
            s.push('=');
            s.push(LETTERS[p.kind as usize]);
        } else if piece.kind == SPEAR && m.tag != piece.state && m.to != TRAP {
            s.push(DIR_MARKS[m.tag as usize % 3]);
        }
        s
    }

    /// A move in words: a Spear's step says where the Spear points after
    /// it (`Sb3-b4>` is "Spear step b3-b4, turn to point forward-right"),
    /// and a turn in place says so.
    pub(super) fn words(&self, pos: &Position, m: &Move) -> String {
        let Some(piece) = pos.get(m.from) else {
            return crate::describe::generic(&|p| self.piece_label(p).name, pos, m);
        };
        if piece.kind != SPEAR || m.piece.is_some() {
            return crate::describe::generic(&|p| self.piece_label(p).name, pos, m);
        }
        let dir = DIR_WORDS[m.tag as usize % 3];
        if m.kind == MoveKind::Special {
            return format!("Spear on {}: turn to point {dir}, without a step", m.from);
        }
        let step = match pos.get(m.to).filter(|p| p.kind != STONE) {
            Some(v) => format!(
                "Spear {} takes the {} on {}",
                m.from,
                self.piece_label(v).name,
                m.to
            ),
            None => format!("Spear step {}-{}", m.from, m.to),
        };
        if m.to == TRAP {
            format!("{step}, onto the trap (the Spear is lost)")
        } else if m.tag == piece.state {
            format!("{step}, keep pointing {dir}")
        } else {
            format!("{step}, turn to point {dir}")
        }
    }

    /// Facts and every accepted exact written form of a legal move.
    pub(super) fn candidate(&self, pos: &Position, m: &Move) -> Candidate {
        let piece = pos.get(m.from).expect("a piece on the origin");
        let display = self.display(pos, m);
        let mut forms = vec![
            self.coordinate(pos, m),
            self.game_courier(pos, m),
            display.clone(),
        ];
        if piece.kind == SPEAR && m.kind == MoveKind::Normal && m.piece.is_none() {
            if m.tag == piece.state || m.to == TRAP {
                // Keeping the direction may be said explicitly, and the
                // unlabelled Game Courier move keeps it too.
                forms.push(format!(
                    "{}{}{}",
                    m.from, m.to, DIR_MARKS[piece.state as usize]
                ));
                forms.push(format!("{}-{}", m.from, m.to));
            } else {
                forms.push(format!(
                    "{}-{}; {}*{}",
                    m.from,
                    m.to,
                    Maohopper::gc_spear(piece.color, m.tag),
                    m.to
                ));
            }
        }
        Candidate {
            from: Some(m.from),
            to: m.to,
            letter: LETTERS[piece.kind as usize],
            pawn: false,
            capture: pos
                .get(m.to)
                .is_some_and(|p| p.color == piece.color.opponent())
                && m.kind == MoveKind::Normal,
            // A turn in place is a Game Courier drop of the new label.
            drop: m.kind == MoveKind::Special,
            promotion: m.piece.map(|p| LETTERS[p.kind as usize]),
            castle: None,
            forms,
            display,
        }
    }

    pub(super) fn read_move(
        &self,
        pos: &Position,
        legal: &[Move],
        text: &str,
    ) -> Result<Move, MoveError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(MoveError::Empty);
        }
        if text.chars().count() > 200 {
            return Err(MoveError::Syntax {
                input: text.chars().take(40).collect::<String>() + "…",
                reason: "the text is far too long for a move".into(),
            });
        }
        // Every exact form names the origin square, so only moves whose
        // origin appears in the text need their forms written out.
        let key = squeeze(text);
        let hits: Vec<usize> = (0..legal.len())
            .filter(|&i| legal[i].from.is_named_in(&key))
            .filter(|&i| {
                self.candidate(pos, &legal[i])
                    .forms
                    .iter()
                    .any(|f| squeeze(f) == key)
            })
            .collect();
        if hits.len() == 1 {
            return Ok(legal[hits[0]]);
        }
        let cands: Vec<Candidate> = legal.iter().map(|m| self.candidate(pos, m)).collect();
        if has_spear_label(text) {
            return Err(self.spear_label_error(pos, text, &cands));
        }
        let explain = MaoExplain { pos };
        notation::read_move(text, &cands, &explain).map(|i| legal[i])
    }

    /// A Game Courier Spear move (`SM4! e3-f4`, `SM7!*e3`) that is not legal.
    pub(super) fn spear_label_error(
        &self,
        pos: &Position,
        text: &str,
        cands: &[Candidate],
    ) -> MoveError {
        let squares = squares_in(&strip_spear_labels(text));
        let Some(&sq) = squares.first() else {
            return MoveError::Syntax {
                input: text.to_string(),
                reason: "a Spear label must be followed by a move such as “SM! e3-e4” or a turn such as “SM4!*e3”.".into(),
            };
        };
        let illegal = |reason: String, alternatives: Vec<String>| MoveError::Illegal {
            input: text.to_string(),
            reason,
            alternatives,
        };
        if !self.geometry.contains(sq) {
            return illegal(format!("{sq} is not a square of this board."), vec![]);
        }
        match pos.get(sq) {
            Some(p) if p.kind == SPEAR && p.color == pos.side => {
                let own: Vec<String> = cands
                    .iter()
                    .filter(|c| c.from == Some(sq))
                    .map(|c| c.display.clone())
                    .collect();
                illegal(
                    format!(
                        "the Spear on {sq} points {} ({}); it steps only that way, and a turn must choose another direction.",
                        DIR_WORDS[p.state as usize % 3],
                        Maohopper::gc_spear(p.color, p.state)
                    ),
                    own,
                )
            }
            _ => illegal(format!("there is no Spear of yours on {sq}."), vec![]),
        }
    }
}

pub(super) fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

pub(super) fn has_spear_label(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    ["sm!", "sm4!", "sm7!"].iter().any(|l| t.contains(l))
}

pub(super) fn strip_spear_labels(text: &str) -> String {
    let mut t = text.to_ascii_lowercase();
    for l in ["sm4!", "sm7!", "sm!"] {
        t = t.replace(l, " ");
    }
    t
}

/// Square names in a text, in order (a letter and one or two digits not
/// glued to other letters or digits).
pub(super) fn squares_in(text: &str) -> Vec<Square> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = b[i].is_ascii_lowercase() && (i == 0 || !b[i - 1].is_ascii_alphanumeric());
        if starts {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() && j - i <= 2 {
                j += 1;
            }
            let ends = j == b.len() || !b[j].is_ascii_alphanumeric();
            if j > i + 1 && ends {
                if let Some(sq) = Square::parse(&text[i..j]) {
                    out.push(sq);
                }
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

pub(super) struct MaoExplain<'a> {
    pub(super) pos: &'a Position,
}

impl Explain for MaoExplain<'_> {
    fn piece_on(&self, sq: Square) -> Option<(bool, String)> {
        if !self.on_board(sq) {
            return None;
        }
        let p = self.pos.get(sq)?;
        Some((p.color == self.pos.side, NAMES[p.kind as usize].to_string()))
    }
    fn on_board(&self, sq: Square) -> bool {
        sq.file() < 9 && sq.rank() < 9
    }
    fn piece_name(&self, letter: char) -> String {
        match LETTERS.iter().position(|&l| l == letter) {
            Some(k) => NAMES[k].to_string(),
            None => format!("“{letter}”"),
        }
    }
    fn why_not(&self, from: Option<Square>, to: Option<Square>) -> Option<String> {
        let pos = self.pos;
        let mover = from.filter(|&s| self.on_board(s)).and_then(|s| pos.get(s));
        if let Some(p) = mover {
            if p.kind == FLAG {
                return Some("the Flag never moves.".into());
            }
        }
        let to = to.filter(|&s| self.on_board(s))?;
        let target = pos.get(to);
        match (mover, target) {
            (_, Some(t)) if t.kind == STONE => {
                if mover.is_some_and(|p| p.kind == MASON) {
                    Some("the Stones cannot be pushed there: the square beyond the last Stone must exist and be empty.".into())
                } else {
                    Some(
                        "Stones cannot be captured, and only a Mason moves them (by pushing)."
                            .into(),
                    )
                }
            }
            (_, Some(t)) if t.color == pos.side => {
                Some("you cannot capture your own piece.".into())
            }
            (Some(p), Some(_)) if p.kind == MASON => Some("a Mason cannot capture.".into()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_found_in_text() {
        assert_eq!(
            squares_in(" e3-e4;  *e4"),
            vec![
                Square::parse("e3").unwrap(),
                Square::parse("e4").unwrap(),
                Square::parse("e4").unwrap()
            ]
        );
        assert!(squares_in("xyz e").is_empty());
    }
}
