//! Leap Chess notations (SAN with its own letters, coordinates, Game Courier),
//! reading them, and saying why a move is not legal.

use super::*;
use crate::errors::MoveError;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind};
use crate::notation::{self, Candidate, Explain};
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;
use crate::variants::chesslike::Castling;

impl LeapChess {
    pub(super) fn fen_label(&self, piece: Piece) -> String {
        self.base.piece_label(piece).letter
    }

    pub(super) fn coordinate(&self, m: &Move) -> String {
        let mut s = m.from.name();
        match m.kind {
            MoveKind::Castle => {
                s.push_str(&self.base.castlings[m.tag as usize].coordinate_to.name())
            }
            MoveKind::Chain => {
                for sq in m.path.iter() {
                    s.push_str(&sq.name());
                }
                s.push_str(&m.to.name());
            }
            _ => s.push_str(&m.to.name()),
        }
        if let Some(p) = m.piece {
            s.push(self.base.pieces.def(p.kind).letter.to_ascii_lowercase());
        }
        s
    }

    /// The legs of a move as Game Courier writes them (`B c3-e5; B e5-c7`).
    pub(super) fn game_courier(&self, pos: &Position, m: &Move) -> String {
        let Some(piece) = pos.get(m.from) else {
            return self.coordinate(m);
        };
        let label = self.fen_label(piece);
        let mut s = match m.kind {
            MoveKind::Castle => {
                let rule = &self.base.castlings[m.tag as usize];
                let files = (rule.king_to.file() as i8 - rule.king_from.file() as i8).abs();
                if rule.king_to == rule.partner_from || files >= 2 {
                    // The King's move alone says it all (a swap, or a 2-square King move).
                    format!("{label} {}-{}", m.from, m.to)
                } else {
                    self.castle_in_full(pos, m)
                }
            }
            MoveKind::Chain => {
                let mut legs = Vec::new();
                let mut at = m.from;
                for sq in m.path.iter().chain(std::iter::once(m.to)) {
                    legs.push(format!("{label} {at}-{sq}"));
                    at = sq;
                }
                legs.join("; ")
            }
            _ => format!("{label} {}-{}", m.from, m.to),
        };
        if let Some(p) = m.piece {
            s.push_str(&format!("; {}*{}", self.fen_label(p), m.to));
        }
        s
    }

    /// Castling in Game Courier form naming both pieces (`K d1-c1; N b1-d1`).
    pub(super) fn castle_in_full(&self, pos: &Position, m: &Move) -> String {
        let rule = &self.base.castlings[m.tag as usize];
        let king = self.fen_label(Piece::new(KING, pos.side));
        let partner = self.fen_label(Piece::new(rule.partner, pos.side));
        format!(
            "{king} {}-{}; {partner} {}-{}",
            m.from, m.to, m.extra[0], m.extra[1]
        )
    }

    /// A chain as shown: its squares joined by `x` (`c3xe5xc7`, `c6xd7xe8=S`).
    pub(super) fn chain_display(&self, m: &Move) -> String {
        let mut s = m.from.name();
        for sq in m.path.iter().chain(std::iter::once(m.to)) {
            s.push('x');
            s.push_str(&sq.name());
        }
        if let Some(p) = m.piece {
            s.push('=');
            s.push(SAN_LETTERS[p.kind as usize]);
        }
        s
    }

    /// What SAN is worked out from, without the written forms a parser
    /// matches against (writing one move's SAN needs only this).
    pub(super) fn bare_candidate(&self, pos: &Position, m: &Move) -> Candidate {
        let kind = pos.get(m.from).map_or(PAWN, |p| p.kind);
        let castle =
            (m.kind == MoveKind::Castle).then(|| self.base.castlings[m.tag as usize].king_side);
        // A castling is matched by its coordinate destination: Leap Chess's
        // queen-side castling is "King to b1", so that `Kd1c1` stays the
        // ordinary King move.
        let to = match m.kind {
            MoveKind::Castle => self.base.castlings[m.tag as usize].coordinate_to,
            _ => m.to,
        };
        Candidate {
            from: Some(m.from),
            to,
            letter: SAN_LETTERS[kind as usize],
            pawn: kind == PAWN,
            capture: self.is_capture(pos, m),
            drop: false,
            promotion: m.piece.map(|p| SAN_LETTERS[p.kind as usize]),
            castle,
            forms: Vec::new(),
            display: String::new(),
        }
    }

    pub(super) fn candidate(&self, pos: &Position, m: &Move) -> Candidate {
        let kind = pos.get(m.from).map_or(PAWN, |p| p.kind);
        let mut forms = vec![self.coordinate(m), self.game_courier(pos, m)];
        match m.kind {
            MoveKind::Castle => forms.push(self.castle_in_full(pos, m)),
            MoveKind::Chain => {
                let shown = self.chain_display(m);
                if kind != PAWN {
                    forms.push(format!("{}{shown}", SAN_LETTERS[kind as usize]));
                }
                forms.push(shown.replace('x', "-"));
                forms.push(shown);
                // Game Courier legs with the SAN letter (`A c3-e5; A e5-c7`).
                let gc = self.game_courier(pos, m);
                let fen_letter = self.base.pieces.def(kind).letter;
                let mut san = SAN_LETTERS[kind as usize];
                if pos.side == Color::Black {
                    san = san.to_ascii_lowercase();
                }
                let fen_letter = if pos.side == Color::Black {
                    fen_letter.to_ascii_lowercase()
                } else {
                    fen_letter
                };
                forms.push(gc.replace(&format!("{fen_letter} "), &format!("{san} ")));
            }
            _ => {}
        }
        Candidate {
            forms,
            ..self.bare_candidate(pos, m)
        }
    }

    pub(super) fn candidates(&self, pos: &Position, legal: &[Move]) -> Vec<Candidate> {
        let mut cands: Vec<Candidate> = legal.iter().map(|m| self.candidate(pos, m)).collect();
        for i in 0..cands.len() {
            let shown = if legal[i].kind == MoveKind::Chain {
                self.chain_display(&legal[i])
            } else {
                notation::san(&cands, i)
            };
            cands[i].forms.push(shown.clone());
            cands[i].display = shown;
        }
        cands
    }

    pub(super) fn display(&self, pos: &Position, m: &Move) -> String {
        let legal = self.legal(pos);
        match legal.iter().position(|x| x == m) {
            Some(i) => {
                let mut s = if m.kind == MoveKind::Chain {
                    self.chain_display(m)
                } else {
                    let bare: Vec<Candidate> =
                        legal.iter().map(|m| self.bare_candidate(pos, m)).collect();
                    notation::san(&bare, i)
                };
                s.push_str(self.check_mark(pos, m));
                s
            }
            None => self.coordinate(m),
        }
    }

    /// The display form of every legal move, disambiguated once.
    pub(super) fn displays(&self, pos: &Position, legal: &[Move]) -> Vec<String> {
        notation::marked_displays(
            self.candidates(pos, legal),
            legal.iter().map(|m| self.check_mark(pos, m)),
        )
    }

    /// `+`, `#` or nothing after the move `m` from `pos`.
    pub(super) fn check_mark(&self, pos: &Position, m: &Move) -> &'static str {
        let next = self.play_move(pos, m);
        notation::check_mark(self.base.in_check(&next), || !self.legal(&next).is_empty())
    }

    pub(super) fn piece_name_of_letter(&self, letter: char) -> Option<&'static str> {
        let up = letter.to_ascii_uppercase();
        let kind = SAN_LETTERS
            .iter()
            .position(|&l| l == up)
            .map(|k| k as Kind)
            .or_else(|| self.base.pieces.kind_of_letter(up))?;
        Some(self.base.pieces.def(kind).name)
    }
}

/// Why a well-formed move is not legal, in Leap Chess's terms.
pub(super) struct LeapExplain<'a> {
    pub(super) v: &'a LeapChess,
    pub(super) pos: &'a Position,
    pub(super) legal: &'a [Move],
}

impl LeapExplain<'_> {
    /// Whether a legal move begins with the capture `from` → `to`.
    pub(super) fn starts_with(m: &Move, from: Square, to: Square) -> bool {
        m.from == from
            && match m.kind {
                MoveKind::Chain => m.path.iter().next() == Some(to),
                _ => m.to == to,
            }
    }
}

impl Explain for LeapExplain<'_> {
    fn piece_on(&self, sq: Square) -> Option<(bool, String)> {
        if !self.on_board(sq) {
            return None;
        }
        let p = self.pos.get(sq)?;
        Some((
            p.color == self.pos.side,
            self.v.base.pieces.def(p.kind).name.to_string(),
        ))
    }

    fn on_board(&self, sq: Square) -> bool {
        self.v.base.geometry.contains(sq) && !self.pos.is_hole(sq)
    }

    fn piece_name(&self, letter: char) -> String {
        self.v
            .piece_name_of_letter(letter)
            .map(str::to_string)
            .unwrap_or_else(|| format!("“{letter}”"))
    }

    fn why_not(&self, from: Option<Square>, to: Option<Square>) -> Option<String> {
        let (v, pos) = (self.v, self.pos);
        let b = &v.base;
        let in_check = b.in_check(pos);
        if from.is_none() && to.is_none() {
            let mine: Vec<&Castling> = b.castlings.iter().filter(|r| r.color == pos.side).collect();
            if mine.iter().all(|r| pos.castling & r.bit == 0) {
                return Some("the King or its castling partner has moved.".into());
            }
            if in_check {
                return Some("your King is in check.".into());
            }
            return Some("the squares between must be empty and the King may not cross or land on an attacked square.".into());
        }
        if v.multi {
            // A chain written only in part.
            let partial: Vec<&Move> = self
                .legal
                .iter()
                .filter(|m| {
                    m.kind == MoveKind::Chain
                        && from.is_none_or(|f| m.from == f)
                        && to.is_some_and(|t| m.path.iter().next() == Some(t))
                })
                .collect();
            if let (Some(m), Some(t)) = (partial.first(), to) {
                return Some(format!(
                    "after capturing on {t} the piece must go on capturing: write the whole chain as one move, such as {}.",
                    v.chain_display(m)
                ));
            }
        }
        let mut pseudo = Vec::new();
        b.pseudo_moves(pos, &mut pseudo);
        let matching: Vec<&Move> = pseudo
            .iter()
            .filter(|m| from.is_none_or(|f| m.from == f) && to.is_none_or(|t| m.to == t))
            .collect();
        if matching.is_empty() {
            return None;
        }
        let safe = |m: &&Move| {
            if v.multi && b.is_capture(pos, m) {
                self.legal
                    .iter()
                    .any(|l| LeapExplain::starts_with(l, m.from, m.to))
            } else {
                b.keeps_king_safe(pos, m)
            }
        };
        if !matching.iter().any(safe) {
            return Some(if in_check {
                "your King is in check and this move does not get it out of check.".into()
            } else if v.multi && matching.iter().any(|m| b.is_capture(pos, m)) {
                "every way of finishing this capture would leave your King in check.".into()
            } else {
                "it would leave your King in check.".into()
            });
        }
        if b.compulsory_capture
            && self.legal.iter().any(|m| v.is_capture(pos, m))
            && !matching.iter().any(|m| b.is_capture(pos, m))
        {
            let all = v.displays(pos, self.legal);
            let captures: Vec<&str> = self
                .legal
                .iter()
                .zip(&all)
                .filter(|(m, _)| v.is_capture(pos, m))
                .map(|(_, d)| d.as_str())
                .collect();
            return Some(format!(
                "a capture is compulsory, and this move captures nothing; the legal captures: {}.",
                captures.join(", ")
            ));
        }
        None
    }
}

impl LeapChess {
    /// Explain a text that lists three or more squares (`c3xe5`, `c3e5c7e9`)
    /// but is no legal chain: too short, or no chain of the position.
    pub(super) fn explain_chain(&self, legal: &[Move], text: &str) -> Option<MoveError> {
        if !self.multi {
            return None;
        }
        let squares = squares_in(text)?;
        if squares.len() < 3 {
            return None;
        }
        let legs = |m: &Move| -> Vec<Square> {
            let mut v = vec![m.from];
            v.extend(m.path.iter());
            v.push(m.to);
            v
        };
        let chains: Vec<&Move> = legal.iter().filter(|m| m.kind == MoveKind::Chain).collect();
        let longer: Vec<String> = chains
            .iter()
            .filter(|m| legs(m).starts_with(&squares))
            .map(|m| self.chain_display(m))
            .collect();
        let from_same: Vec<String> = chains
            .iter()
            .filter(|m| m.from == squares[0])
            .map(|m| self.chain_display(m))
            .collect();
        let reason = if longer.is_empty() {
            "no capture chain of this position goes that way.".to_string()
        } else {
            "the capturing piece must go on capturing as long as it can.".to_string()
        };
        Some(MoveError::Illegal {
            input: text.to_string(),
            reason,
            alternatives: if longer.is_empty() { from_same } else { longer },
        })
    }
}

/// The squares named in a chain text (`c3xe5xc7`, `Ac3-e5-c7`, `c3e5c7`):
/// an optional piece letter, then squares with optional `x`/`-` between.
pub(super) fn squares_in(text: &str) -> Option<Vec<Square>> {
    let t = text.trim();
    let t = t
        .strip_prefix(|c: char| c.is_ascii_uppercase())
        .unwrap_or(t);
    let mut out = Vec::new();
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        if c == 'x' || c == '-' {
            continue;
        }
        if !c.is_ascii_lowercase() {
            return None;
        }
        let mut name = c.to_string();
        while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            name.push(*d);
            chars.next();
        }
        out.push(Square::parse(&name)?);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What reading among the named moves rests on holds in every form of
    /// Leap Chess: every form of every move but a castling (chains and their
    /// legs too) names its destination, and a form reads the same whether
    /// the named moves are tried first or not.
    #[test]
    fn a_move_is_read_among_the_moves_to_the_squares_its_text_names() {
        for v in [
            LeapChess::standard(),
            LeapChess::multi(),
            LeapChess::optional(),
            LeapChess::sixty_four(),
        ] {
            let positions = notation::positions_to_read_in(&v, &[], 8);
            let checked = notation::check_candidates_read_among_named(
                &v,
                &positions,
                |pos, legal| v.candidates(pos, legal),
                notation::is_castling,
                |pos, legal, cands, text| {
                    let explain = LeapExplain { v: &v, pos, legal };
                    let text = text.trim().trim_end_matches(['+', '#', '!', '?']);
                    notation::read_move_with_aliases(text, cands, &explain, &ALIASES)
                        .map(|i| legal[i])
                },
            );
            assert!(checked > 2_000, "{}: {checked}", v.id());
        }
    }

    #[test]
    fn letters_agree_with_the_piece_table() {
        let set = pieces();
        for (kind, d) in set.defs.iter().enumerate() {
            // FEN letters are the rulings' (Q Sail, R Dabbabah, B Alfil).
            let fen = match d.name {
                "Sail" => 'Q',
                "Dabbabah" => 'R',
                "Alfil" => 'B',
                "Knight" => 'N',
                other => other.chars().next().unwrap(),
            };
            assert_eq!(d.letter, fen, "{}", d.name);
            // SAN letters name the piece (the Knight keeps chess's N).
            let san = SAN_LETTERS[kind];
            assert!(
                d.name.starts_with(san) || (d.name, san) == ("Knight", 'N'),
                "{} {san}",
                d.name
            );
        }
        for (alias, letter) in ALIASES {
            assert_eq!(
                set.kind_of_letter(alias).map(|k| SAN_LETTERS[k as usize]),
                Some(letter)
            );
        }
    }

    #[test]
    fn knight_castling_table() {
        let c = knight_castlings();
        assert_eq!(c.len(), 4);
        let names = |r: &Castling| {
            format!(
                "{}{} {}{} {}",
                r.king_from, r.king_to, r.partner_from, r.partner_to, r.coordinate_to
            )
        };
        assert_eq!(names(&c[0]), "d1e1 e1d1 e1");
        assert_eq!(names(&c[1]), "d1c1 b1d1 b1");
        assert_eq!(names(&c[2]), "d8e8 e8d8 e8");
        assert_eq!(names(&c[3]), "d8c8 b8d8 b8");
    }
}
