//! Chess-like notation: SAN, coordinates and Game Courier, written and
//! read through the shared reader.

use super::explain::ChessExplain;
use super::ChessLike;
use crate::errors::MoveError;
use crate::moves::{Move, MoveKind};
use crate::notation::{self, Candidate};
use crate::piece::Color;
use crate::position::Position;
use crate::variant::Notation;

impl ChessLike {
    /// What SAN is worked out from, without the written forms a parser
    /// matches against (writing one move's SAN needs only this).
    fn bare_candidate(&self, pos: &Position, m: &Move) -> Candidate {
        let piece = pos.get(m.from).expect("a piece on the origin");
        let castle = (m.kind == MoveKind::Castle).then(|| self.castlings[m.tag as usize].king_side);
        Candidate {
            from: Some(m.from),
            to: m.to,
            letter: self.letter(piece.kind),
            pawn: piece.kind == self.pawn,
            capture: self.is_capture(pos, m),
            drop: false,
            promotion: m.piece.map(|p| self.letter(p.kind)),
            castle,
            forms: Vec::new(),
            display: String::new(),
        }
    }

    fn candidate(&self, pos: &Position, m: &Move) -> Candidate {
        let mut c = self.bare_candidate(pos, m);
        c.forms = vec![self.coordinate(m), self.game_courier(pos, m)];
        if m.kind == MoveKind::Castle {
            // Also the king's own destination in coordinates, and the GC form naming both pieces.
            c.forms.push(format!("{}{}", m.from, m.to));
            let p = self
                .pieces
                .def(self.castlings[m.tag as usize].partner)
                .letter;
            let k = self.letter(self.king);
            let case = |ch: char| {
                if pos.side == Color::White {
                    ch
                } else {
                    ch.to_ascii_lowercase()
                }
            };
            c.forms.push(format!(
                "{} {}-{}; {} {}-{}",
                case(k),
                m.from,
                m.to,
                case(p),
                m.extra[0],
                m.extra[1]
            ));
        }
        c
    }

    fn coordinate(&self, m: &Move) -> String {
        let to = if m.kind == MoveKind::Castle {
            self.castlings[m.tag as usize].coordinate_to
        } else {
            m.to
        };
        let mut s = String::with_capacity(6);
        m.from.push_name(&mut s);
        to.push_name(&mut s);
        if let Some(p) = m.piece {
            s.push(self.letter(p.kind).to_ascii_lowercase());
        }
        s
    }

    fn game_courier(&self, pos: &Position, m: &Move) -> String {
        let piece = pos.get(m.from).expect("a piece on the origin");
        let label = self.piece_label(piece).letter;
        let mut s = format!("{label} {}-{}", m.from, m.to);
        if let Some(p) = m.piece {
            s.push_str(&format!("; {}*{}", self.piece_label(p).letter, m.to));
        }
        s
    }

    pub(super) fn candidates(&self, pos: &Position, legal: &[Move]) -> Vec<Candidate> {
        let mut cands =
            notation::with_san_displays(legal.iter().map(|m| self.candidate(pos, m)).collect());
        for c in &mut cands {
            c.forms.push(c.display.clone());
        }
        cands
    }

    pub(crate) fn format_move(&self, pos: &Position, m: &Move, notation: Notation) -> String {
        let legal = notation.legal_needed(|| self.legal_moves(pos));
        self.format_move_among(pos, &legal, m, notation)
    }

    /// [`crate::Variant::format_move_among`]: only SAN reads `legal`.
    pub(crate) fn format_move_among(
        &self,
        pos: &Position,
        legal: &[Move],
        m: &Move,
        notation: Notation,
    ) -> String {
        match notation {
            Notation::Coordinate => self.coordinate(m),
            Notation::GameCourier => self.game_courier(pos, m),
            Notation::Display => {
                // SAN tells a move from its rivals: legal moves to the same
                // square. The others need not be worked out.
                let rivals: Vec<&Move> = legal.iter().filter(|x| x.to == m.to).collect();
                match rivals.iter().position(|x| *x == m) {
                    Some(i) => {
                        let bare: Vec<Candidate> =
                            rivals.iter().map(|m| self.bare_candidate(pos, m)).collect();
                        let mut s = notation::san(&bare, i);
                        s.push_str(self.check_mark(pos, m));
                        s
                    }
                    None => self.coordinate(m),
                }
            }
        }
    }

    /// [`crate::Variant::legal_displays`]: SAN's disambiguation is worked
    /// out once for the whole list.
    pub(crate) fn legal_displays(&self, pos: &Position, legal: &[Move]) -> Vec<String> {
        // SAN reads only the bare candidates: the other forms a move is
        // read in (coordinates, Game Courier's) are not written here.
        let bare = legal.iter().map(|m| self.bare_candidate(pos, m)).collect();
        let sans = notation::with_san_displays(bare);
        // The bitboard engine's marks when it lists these same moves.
        let marks: Vec<&'static str> = match self
            .tables()
            .and_then(|t| t.check_marks(pos))
            .filter(|marked| marked.iter().map(|(m, _)| m).eq(legal.iter()))
        {
            Some(marked) => marked.into_iter().map(|(_, mark)| mark).collect(),
            None => legal.iter().map(|m| self.check_mark(pos, m)).collect(),
        };
        notation::marked_displays(sans, marks)
    }

    /// `+`, `#` or nothing after the move `m` from `pos`.
    pub(super) fn check_mark(&self, pos: &Position, m: &Move) -> &'static str {
        let next = self.play(pos, m);
        notation::check_mark(self.in_check(&next), || !self.legal_moves(&next).is_empty())
    }

    pub(crate) fn parse_move(
        &self,
        pos: &Position,
        legal: &[Move],
        text: &str,
    ) -> Result<Move, MoveError> {
        if let Some(m) = notation::exact_among_named_or_castling(text, legal, |named| {
            self.candidates(pos, named)
        }) {
            return Ok(m);
        }
        let cands = self.candidates(pos, legal);
        let explain = ChessExplain {
            v: self,
            pos,
            legal,
        };
        notation::read_move(text, &cands, &explain).map(|i| legal[i])
    }
}
