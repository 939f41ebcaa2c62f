//! Leaperhouse's notation: coordinates as Fairy-Stockfish writes them,
//! Game Courier, the short algebraic display form, and reading any of them.

use super::explain::LeaperExplain;
use super::Leaperhouse;
use crate::errors::MoveError;
use crate::moves::{Move, MoveKind};
use crate::notation::{self, Candidate};
use crate::piece::Piece;
use crate::position::Position;
use crate::variant::Variant;

impl Leaperhouse {
    pub(super) fn coordinate(&self, m: &Move) -> String {
        match m.kind {
            MoveKind::Drop => {
                let p = m.piece.expect("a drop names its piece");
                format!("{}@{}", self.letter(p.kind), m.to)
            }
            _ => {
                let plus = if m.piece.is_some() { "+" } else { "" };
                format!("{}{}{plus}", m.from, m.to)
            }
        }
    }

    /// Game Courier label: `N`/`n`, `+P`/`+p` for a Guard.
    fn gc_label(&self, p: Piece) -> String {
        self.piece_label(p).letter
    }

    pub(super) fn game_courier(&self, pos: &Position, m: &Move) -> String {
        if m.kind == MoveKind::Drop {
            let p = m.piece.expect("a drop names its piece");
            return format!("{}*{}", self.gc_label(p), m.to);
        }
        let piece = pos.get(m.from).expect("a piece on the origin");
        let mut s = format!("{} {}-{}", self.gc_label(piece), m.from, m.to);
        if let Some(p) = m.piece {
            s.push_str(&format!("; {}*{}", self.gc_label(p), m.to));
        }
        s
    }

    /// What the reader and the short form need of a move; its written
    /// forms only when `with_forms` (the short form alone does not need them).
    fn candidate(&self, pos: &Position, m: &Move, with_forms: bool) -> Candidate {
        let (from, letter, drop) = match m.kind {
            MoveKind::Drop => (None, self.letter(m.piece.expect("drop piece").kind), true),
            _ => (
                Some(m.from),
                self.letter(pos.get(m.from).expect("a piece on the origin").kind),
                false,
            ),
        };
        let mut forms = Vec::new();
        if with_forms {
            forms.push(self.coordinate(m));
            forms.push(self.game_courier(pos, m));
        }
        if with_forms && m.piece.is_some() && !drop {
            // Game Courier promotes automatically: the bare move is enough.
            let piece = pos.get(m.from).expect("a piece on the origin");
            forms.push(format!("{} {}-{}", self.gc_label(piece), m.from, m.to));
        }
        Candidate {
            from,
            to: m.to,
            letter,
            pawn: letter == 'P' && !drop,
            capture: !drop && pos.get(m.to).is_some(),
            drop,
            promotion: (!drop && m.piece.is_some()).then_some('G'),
            castle: None,
            forms: forms.iter().map(|f| guard_letters(f)).collect(),
            display: String::new(),
        }
    }

    fn candidates(&self, pos: &Position, legal: &[Move]) -> Vec<Candidate> {
        let bare: Vec<Candidate> = legal
            .iter()
            .map(|m| self.candidate(pos, m, false))
            .collect();
        // Only moves to the same square can need disambiguation: write the
        // short forms group by group, which keeps this linear in practice.
        let mut order: Vec<usize> = (0..bare.len()).collect();
        order.sort_by_key(|&i| bare[i].to);
        let mut shorts = vec![String::new(); bare.len()];
        for run in order.chunk_by(|&a, &b| bare[a].to == bare[b].to) {
            let group: Vec<Candidate> = run.iter().map(|&i| bare[i].clone()).collect();
            for (j, &i) in run.iter().enumerate() {
                shorts[i] = short_form(&group, j);
            }
        }
        legal
            .iter()
            .zip(shorts)
            .map(|(m, s)| {
                let mut c = self.candidate(pos, m, true);
                c.forms.push(s.clone());
                c.display = s;
                c
            })
            .collect()
    }

    pub(super) fn display(&self, pos: &Position, m: &Move) -> String {
        let mut legal = Vec::new();
        self.generate(pos, &mut legal);
        self.display_among(pos, &legal, m)
    }

    /// The display form of `m` given the legal moves of `pos`.
    pub(super) fn display_among(&self, pos: &Position, legal: &[Move], m: &Move) -> String {
        // Only moves to the same square can need disambiguation.
        let rivals: Vec<Candidate> = legal
            .iter()
            .filter(|x| x.to == m.to)
            .map(|x| self.candidate(pos, x, false))
            .collect();
        let mut s = match legal.iter().filter(|x| x.to == m.to).position(|x| x == m) {
            Some(i) => short_form(&rivals, i),
            None => self.coordinate(m),
        };
        let next = self.do_play(pos, m);
        if self.in_check_now(&next) {
            let mut replies = Vec::new();
            self.generate(&next, &mut replies);
            if replies.is_empty() {
                s.push('#');
            }
        }
        s
    }

    pub(super) fn read_move(
        &self,
        pos: &Position,
        legal: &[Move],
        text: &str,
    ) -> Result<Move, MoveError> {
        let normalized = guard_letters(text);
        let read = self.read_marked_move(pos, legal, &normalized, text)?;
        // `+` marks a promotion here (checks are not marked), so a move
        // that cannot promote is not read with it, as Fairy-Stockfish
        // refuses `e3e4+`.
        let marked = crate::notation::split_comment(text).0.trim().ends_with('+');
        if marked && (read.kind == MoveKind::Drop || read.piece.is_none()) {
            return Err(MoveError::Illegal {
                input: text.trim().to_string(),
                reason: "“+” marks a promotion, and this move does not promote.".into(),
                alternatives: Vec::new(),
            });
        }
        Ok(read)
    }

    fn read_marked_move(
        &self,
        pos: &Position,
        legal: &[Move],
        normalized: &str,
        text: &str,
    ) -> Result<Move, MoveError> {
        let normalized = normalized.to_string();
        // No castling here: every form names the destination square.
        if let Some(m) = notation::exact_among_named(
            &normalized,
            legal,
            |_| false,
            |named| self.candidates(pos, named),
        ) {
            return Ok(m);
        }
        let cands = self.candidates(pos, legal);
        let explain = LeaperExplain { v: self, pos };
        let result = notation::read_move(&normalized, &cands, &explain).map(|i| legal[i]);
        result.map_err(|e| {
            let original = text.trim().to_string();
            match e {
                MoveError::Syntax { reason, .. } => MoveError::Syntax {
                    input: original,
                    reason,
                },
                MoveError::Illegal {
                    reason,
                    alternatives,
                    ..
                } => {
                    let reason = self
                        .read_drop(&normalized)
                        .and_then(|(k, to)| self.drop_problem(pos, k, to))
                        .unwrap_or(reason);
                    MoveError::Illegal {
                        input: original,
                        reason,
                        alternatives,
                    }
                }
                MoveError::Ambiguous { candidates, .. } => MoveError::Ambiguous {
                    input: original,
                    candidates,
                },
                other => other,
            }
        })
    }
}

/// The Guard is `+P` in FEN and Game Courier; the reader knows it as `G`.
fn guard_letters(text: &str) -> String {
    text.replace("+P", "G").replace("+p", "g")
}

/// The short form: SAN letters and disambiguation, `C@e5` for drops, a
/// promotion marked by a trailing `+` (`e8+`), no check marks.
fn short_form(cands: &[Candidate], i: usize) -> String {
    let s = notation::san(cands, i);
    match s.strip_suffix("=G") {
        Some(base) => format!("{base}+"),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What reading among the named moves rests on holds here: every form
    /// of every move (drops and promotions too) names its destination, and
    /// a form reads the same whether the named moves are tried first or not.
    #[test]
    fn a_move_is_read_among_the_moves_to_the_squares_its_text_names() {
        let v = Leaperhouse::new();
        let positions = notation::positions_to_read_in(
            &v,
            &["u5kc1u/n1Ea6/5pp2e/Cp1c6/2C7/1a5e1P/10/2P5P1/7N2/1u5K+p1[PPPPPPNuepppppppn] w - - 0 63"],
            30,
        );
        let checked = notation::check_candidates_read_among_named(
            &v,
            &positions,
            |pos, legal| v.candidates(pos, legal),
            |_| false,
            |pos, legal, cands, text| {
                let explain = LeaperExplain { v: &v, pos };
                notation::read_move(&guard_letters(text), cands, &explain).map(|i| legal[i])
            },
        );
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn guard_letters_only_touch_plus_p() {
        assert_eq!(guard_letters("P e7-e8; +P*e8"), "P e7-e8; G*e8");
        assert_eq!(guard_letters("e7e8+"), "e7e8+");
        assert_eq!(guard_letters("+p e5-e4"), "g e5-e4");
    }
}
