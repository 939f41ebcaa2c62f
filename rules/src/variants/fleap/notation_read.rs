//! Reading Fleap's moves: the exact written forms first, then placements,
//! the page's Nuke form and board moves read by their parts. Apart from
//! writing: reading also says why a text names no legal move.

use super::explain::FleapExplain;
use super::moves::nuke_victims;
use super::notation_write::{square_list, Written};
use super::*;
use crate::errors::MoveError;
use crate::geometry::Square;
use crate::moves::Move;
use crate::notation::{self, Candidate};
use crate::position::Position;

/// The one move of `moves` (written as `written`) that has a form squashing
/// to `norm`, if exactly one does.
pub(super) fn exact_in(moves: &[Move], written: &[Written], norm: &str) -> Option<Move> {
    let mut exact =
        (0..moves.len()).filter(|&i| written[i].forms.iter().any(|f| squash(f) == norm));
    match (exact.next(), exact.next()) {
        (Some(i), None) => Some(moves[i]),
        _ => None,
    }
}

pub(super) fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

impl Fleap {
    pub(crate) fn parse_move(
        &self,
        pos: &Position,
        legal: &[Move],
        text: &str,
    ) -> Result<Move, MoveError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(MoveError::Empty);
        }
        if t.chars().count() > 200 {
            return Err(MoveError::Syntax {
                input: t.chars().take(40).collect::<String>() + "…",
                reason: "the text is far too long for a move".into(),
            });
        }
        let norm = squash(t.trim_end_matches(['!', '?', '#']));
        // Every form of a move names its destination square: a text that
        // writes one move exactly is found among the moves to the squares
        // it names, without writing the forms of every legal move.
        if let Some(named) = notation::moves_named_in(&norm, legal, |_| false) {
            if let Some(m) = exact_in(&named, &self.written(pos, &named), &norm) {
                return Ok(m);
            }
        }
        self.parse_among_all(pos, legal, t, &norm)
    }

    /// [`parse_move`](Self::parse_move) with every legal move written: the
    /// exact forms, then placements and the forms read by their parts.
    pub(super) fn parse_among_all(
        &self,
        pos: &Position,
        legal: &[Move],
        t: &str,
        norm: &str,
    ) -> Result<Move, MoveError> {
        let written = self.written(pos, legal);
        if let Some(m) = exact_in(legal, &written, norm) {
            return Ok(m);
        }
        // Leading placements `P>b2,` then the move itself.
        // Spaces are kept in the move part for the Game Courier reader.
        let mut parts: Vec<&str> = t.split(',').map(str::trim).collect();
        let mut given: Vec<(char, Square)> = Vec::new();
        while parts.len() > 1 {
            let Some((l, s)) = parts[0].split_once('>') else {
                break;
            };
            let (l, s) = (l.trim(), s.trim());
            let mut lc = l.chars();
            let (Some(c), None, Some(square)) = (lc.next(), lc.next(), Square::parse(s)) else {
                return Err(MoveError::Syntax {
                    input: t.to_string(),
                    reason: format!("“{}” is not a placement such as “P>b2”", parts[0]),
                });
            };
            given.push((c.to_ascii_uppercase(), square));
            parts.remove(0);
        }
        let core = parts.join(",");
        if let Some(r) = self.parse_nuke(pos, legal, &written, t, &squash(&core), &given) {
            return r;
        }
        self.parse_board_move(pos, legal, &written, t, &core, &given)
    }

    /// The page's nuke form (`Bxxc4,xc3,d5`, `Be1xxc4`, `e1xxc4`): `None` if
    /// the text is not one.
    pub(super) fn parse_nuke(
        &self,
        pos: &Position,
        legal: &[Move],
        written: &[Written],
        input: &str,
        core: &str,
        given: &[(char, Square)],
    ) -> Option<Result<Move, MoveError>> {
        let (head, tail) = match core.split_once(',') {
            Some((h, t)) => (h, Some(t)),
            None => (core, None),
        };
        let (origin, target) = head.split_once("xx")?;
        let origin = origin.strip_prefix(['A', 'B']).unwrap_or(origin);
        let target = self.geometry.parse_square(target)?;
        let fits_origin = |s: Square| -> bool {
            if origin.is_empty() {
                return true;
            }
            if let Some(o) = Square::parse(origin) {
                return o == s;
            }
            let b = origin.as_bytes();
            b.len() == 1
                && ((b[0].is_ascii_lowercase() && b[0] - b'a' == s.file())
                    || (b[0].is_ascii_digit() && b[0] > b'0' && b[0] - b'1' == s.rank()))
        };
        let listed: Option<Vec<Square>> = match tail {
            None => Some(Vec::new()),
            Some(t) => t
                .strip_prefix('x')
                .unwrap_or(t)
                .split(',')
                .map(|s| Square::parse(s.strip_prefix('x').unwrap_or(s)))
                .collect(),
        };
        let Some(mut listed) = listed else {
            return Some(Err(MoveError::Syntax {
                input: input.to_string(),
                reason: "a Nuke is written like “Bxxc4,xc3,d5,b4,c4”: the target, then the squares whose pieces are destroyed".into(),
            }));
        };
        let nukes: Vec<usize> = (0..legal.len())
            .filter(|&i| Fleap::is_nuke(&legal[i]))
            .collect();
        let here: Vec<usize> = nukes
            .iter()
            .copied()
            .filter(|&i| {
                legal[i].to == target && fits_origin(legal[i].from) && written[i].own == given
            })
            .collect();
        let illegal = |reason: String, alts: Vec<String>| {
            Some(Err(MoveError::Illegal {
                input: input.to_string(),
                reason,
                alternatives: alts,
            }))
        };
        if here.is_empty() {
            let alts: Vec<String> = nukes.iter().map(|&i| written[i].display.clone()).collect();
            let reason = if pos.counters[pos.side.index()] == 0 {
                "you have no Nuke left.".to_string()
            } else if nukes.is_empty() {
                "no Ballista of yours can fire a Nuke now.".to_string()
            } else if nukes
                .iter()
                .any(|&i| legal[i].to == target && fits_origin(legal[i].from))
            {
                "your waiting tokens must be placed first, as the legal forms show.".to_string()
            } else {
                format!("a Ballista can only fire a Nuke at a square where an Equihopper move from it would land, and none of yours can land on {target}.")
            };
            return illegal(reason, alts);
        }
        if here.len() > 1 {
            return Some(Err(MoveError::Ambiguous {
                input: input.to_string(),
                candidates: here.iter().map(|&i| written[i].display.clone()).collect(),
            }));
        }
        let i = here[0];
        let placed = self.placed(pos, &legal[i]);
        let mut truth = nuke_victims(&placed, target);
        listed.sort();
        listed.dedup();
        truth.sort();
        if listed != truth {
            let correct = written[i].display.clone();
            let what = if truth.is_empty() {
                format!("a Nuke on {target} destroys nothing")
            } else {
                format!(
                    "a Nuke on {target} destroys the pieces on {}",
                    square_list(&nuke_victims(&placed, target))
                )
            };
            return illegal(format!("{what}; write {correct}."), vec![correct]);
        }
        Some(Ok(legal[i]))
    }

    /// Moves other than Nukes, read through the shared reader on their
    /// board part, then told apart by their placements.
    pub(super) fn parse_board_move(
        &self,
        pos: &Position,
        legal: &[Move],
        written: &[Written],
        input: &str,
        core: &str,
        given: &[(char, Square)],
    ) -> Result<Move, MoveError> {
        // One candidate per distinct board part.
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut cands: Vec<Candidate> = Vec::new();
        let key = |m: &Move| (m.kind, m.from, m.to, m.piece, m.tag);
        for (i, m) in legal.iter().enumerate() {
            if Fleap::is_nuke(m) {
                continue;
            }
            match groups.iter().position(|g| key(&legal[g[0]]) == key(m)) {
                Some(g) => groups[g].push(i),
                None => {
                    groups.push(vec![i]);
                    let placed = self.placed(pos, m);
                    let mut c = self.candidate(&placed, m);
                    c.forms = written[i].core.clone();
                    c.display = written[i].core.last().cloned().unwrap_or_default();
                    if !written[i].own.is_empty() || written[i].ret.is_some() {
                        c.display = written[i].display.clone();
                    }
                    cands.push(c);
                }
            }
        }
        let explain = FleapExplain { v: self, pos };
        let g = notation::read_move(core, &cands, &explain).map_err(|e| match e {
            MoveError::Syntax { reason, .. } => MoveError::Syntax {
                input: input.to_string(),
                reason,
            },
            MoveError::Illegal {
                reason,
                alternatives,
                ..
            } => MoveError::Illegal {
                input: input.to_string(),
                reason,
                alternatives,
            },
            MoveError::Ambiguous { candidates, .. } => MoveError::Ambiguous {
                input: input.to_string(),
                candidates,
            },
            other => other,
        })?;
        let group = &groups[g];
        let matching: Vec<usize> = group
            .iter()
            .copied()
            .filter(|&i| {
                let w = &written[i];
                let all: Vec<(char, Square)> = w.own.iter().copied().chain(w.ret).collect();
                given.is_empty() && group.len() == 1 || all == given
            })
            .collect();
        let displays: Vec<String> = group.iter().map(|&i| written[i].display.clone()).collect();
        match matching.len() {
            1 => Ok(legal[matching[0]]),
            0 if given.is_empty() => Err(MoveError::Ambiguous {
                input: input.to_string(),
                candidates: displays,
            }),
            _ => Err(MoveError::Illegal {
                input: input.to_string(),
                reason: "the placements do not fit: a returned token goes to an empty home square of its type (a Pawn to its owner's pawn row), or, if none is free, to an empty square of its owner's first two rows; waiting tokens are placed first, in the order Pawn, Knight, Bishop, Rook, King.".into(),
                alternatives: displays,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What reading among the named moves rests on holds here: every form
    /// of every move (placements, nukes and returns too) names its
    /// destination, and a form reads the same whether the named moves are
    /// tried first or not.
    #[test]
    fn a_move_is_read_among_the_moves_to_the_squares_its_text_names() {
        let v = Fleap::new();
        let positions = notation::positions_to_read_in(&v, &[], 6);
        let lists: Vec<(Vec<Move>, Vec<Vec<String>>)> = positions
            .iter()
            .map(|pos| {
                let legal = v.legal_moves(pos);
                let forms = v
                    .written(pos, &legal)
                    .into_iter()
                    .map(|w| w.forms)
                    .collect();
                (legal, forms)
            })
            .collect();
        let checked = notation::check_reading_among_named(
            lists.clone(),
            |_| false,
            |p, text| v.parse_move(&positions[p], &lists[p].0, text),
            |p, text| {
                let t = text.trim();
                let norm = squash(t.trim_end_matches(['!', '?', '#']));
                v.parse_among_all(&positions[p], &lists[p].0, t, &norm)
            },
        );
        assert!(checked > 10_000, "{checked}");
    }
}
