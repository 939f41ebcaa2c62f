//! Fleap's move notations: coordinates, the page's algebraic (placements,
//! Nukes) and Game Courier; reading any of them, and saying why a move is not legal.

use super::moves::{flipped, nuke_victims};
use super::*;
use crate::errors::MoveError;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind, Path, NO_SQUARE};
use crate::notation::{self, Candidate, Explain};
use crate::piece::{Color, Kind};
use crate::position::Position;
use crate::variant::Notation;

/// One legal move with its parts as written.
pub(super) struct Written {
    /// Own waiting tokens placed first: letter and square.
    pub(super) own: Vec<(char, Square)>,
    /// The captured token's placement: letter and square.
    pub(super) ret: Option<(char, Square)>,
    /// Forms of the move without placements (SAN, long, coordinates...).
    pub(super) core: Vec<String>,
    /// Full forms, matched exactly (spaces ignored).
    pub(super) forms: Vec<String>,
    pub(super) display: String,
}

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

pub(super) fn case(c: char, color: Color) -> char {
    if color == Color::Black {
        c.to_ascii_lowercase()
    } else {
        c.to_ascii_uppercase()
    }
}

pub(super) fn square_list(squares: &[Square]) -> String {
    squares
        .iter()
        .map(|s| s.name())
        .collect::<Vec<_>>()
        .join(",")
}

impl Fleap {
    pub(super) fn is_nuke(m: &Move) -> bool {
        m.kind == MoveKind::Special && m.tag == NUKE
    }
    pub(super) fn is_rifle(m: &Move) -> bool {
        m.kind == MoveKind::Special && m.tag == RIFLE
    }

    /// The position the move's main part is played in (waiting tokens placed).
    pub(super) fn placed(&self, pos: &Position, m: &Move) -> Position {
        let mut p = pos.clone();
        if !m.path.is_empty() {
            self.place_waiting(&mut p, m);
        }
        p
    }

    /// Own placements as (letter, square).
    pub(super) fn own_placements(&self, pos: &Position, m: &Move) -> Vec<(char, Square)> {
        let us = pos.side;
        let mut kinds = Vec::new();
        for &k in &HAND_ORDER {
            for _ in 0..pos.hand(us, k) {
                kinds.push(k);
            }
        }
        kinds
            .into_iter()
            .zip(m.path.iter())
            .map(|(k, s)| (LETTERS[k as usize], s))
            .collect()
    }

    pub(super) fn returned(&self, placed: &Position, m: &Move) -> Option<(char, Square, Color)> {
        if m.extra[0] == NO_SQUARE || Fleap::is_nuke(m) {
            return None;
        }
        let v = placed.get(m.to)?;
        Some((LETTERS[flipped(v.kind) as usize], m.extra[0], v.color))
    }

    pub(crate) fn coordinate(&self, pos: &Position, m: &Move) -> String {
        let placed = self.placed(pos, m);
        let mut s = String::new();
        for (l, sq) in self.own_placements(pos, m) {
            s.push_str(&format!("{l}@{sq},"));
        }
        s.push_str(&self.coordinate_core(m));
        if let Some((_, sq, _)) = self.returned(&placed, m) {
            s.push_str(&format!(">{sq}"));
        }
        s
    }

    pub(super) fn coordinate_core(&self, m: &Move) -> String {
        if Fleap::is_nuke(m) {
            return format!("{}xx{}", m.from, m.to);
        }
        if Fleap::is_rifle(m) {
            return format!("{}x{}", m.from, m.to);
        }
        let mut s = format!("{}{}", m.from, m.to);
        if let Some(p) = m.piece {
            s.push(LETTERS[p.kind as usize].to_ascii_lowercase());
        }
        s
    }

    pub(crate) fn game_courier(&self, pos: &Position, m: &Move) -> String {
        let us = pos.side;
        let placed = self.placed(pos, m);
        let mut parts: Vec<String> = self
            .own_placements(pos, m)
            .into_iter()
            .map(|(l, s)| format!("{}*{s}", case(l, us)))
            .collect();
        let mover = placed.get(m.from).expect("a piece on the origin");
        let label = Fleap::token(mover);
        if m.kind == MoveKind::Special {
            parts.push(format!("{label} {}-{}", m.from, m.to));
            parts.push(format!("{label} {}-{}", m.to, m.from));
            if Fleap::is_nuke(m) {
                parts.push(format!("*{}", m.to));
            }
        } else {
            parts.push(format!("{label} {}-{}", m.from, m.to));
            if let Some(p) = m.piece {
                parts.push(format!("{}*{}", Fleap::token(p), m.to));
            }
        }
        if let Some((l, s, c)) = self.returned(&placed, m) {
            parts.push(format!("{}*{s}", case(l, c)));
        }
        parts.join("; ")
    }

    /// The page's nuke form: `Bxxc4,xc3,d5,b4,c4` (with `disamb` after `B`).
    pub(super) fn nuke_form(
        prefix: &str,
        disamb: &str,
        target: Square,
        victims: &[Square],
    ) -> String {
        let mut s = format!("{prefix}{disamb}xx{target}");
        if !victims.is_empty() {
            s.push_str(",x");
            s.push_str(&square_list(victims));
        }
        s
    }

    /// Origin needed to tell apart the moves in `rivals` (origins of other
    /// pieces doing the same thing), as SAN does.
    pub(super) fn disambiguation(from: Square, rivals: &[Square]) -> String {
        if rivals.is_empty() {
            String::new()
        } else if rivals.iter().all(|r| r.file() != from.file()) {
            ((b'a' + from.file()) as char).to_string()
        } else if rivals.iter().all(|r| r.rank() != from.rank()) {
            (from.rank() + 1).to_string()
        } else {
            from.name()
        }
    }

    /// Written forms of every legal move.
    pub(super) fn written(&self, pos: &Position, legal: &[Move]) -> Vec<Written> {
        // SAN for the board part, over the moves of the same placement set.
        let mut cands: Vec<Candidate> = Vec::with_capacity(legal.len());
        let mut placed_cache: Vec<(Path, Position)> = Vec::new();
        let placed_of = |m: &Move, cache: &mut Vec<(Path, Position)>| -> Position {
            if let Some((_, p)) = cache.iter().find(|(pa, _)| *pa == m.path) {
                return p.clone();
            }
            let p = self.placed(pos, m);
            cache.push((m.path, p.clone()));
            p
        };
        for m in legal {
            let placed = placed_of(m, &mut placed_cache);
            cands.push(self.candidate(&placed, m));
        }
        // SAN among the moves made after the same placements.
        let mut sans = vec![String::new(); legal.len()];
        let mut done = vec![false; legal.len()];
        for i in 0..legal.len() {
            if done[i] || Fleap::is_nuke(&legal[i]) {
                continue;
            }
            let group: Vec<usize> = (i..legal.len())
                .filter(|&j| !Fleap::is_nuke(&legal[j]) && legal[j].path == legal[i].path)
                .collect();
            let peers: Vec<Candidate> = group.iter().map(|&j| cands[j].clone()).collect();
            for (k, &j) in group.iter().enumerate() {
                sans[j] = notation::san(&peers, k);
                done[j] = true;
            }
        }
        legal
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let placed = placed_of(m, &mut placed_cache);
                let own = self.own_placements(pos, m);
                let ret = self.returned(&placed, m).map(|(l, s, _)| (l, s));
                let long = self.long_core(&placed, m);
                let mut core = vec![long.clone(), self.coordinate_core(m)];
                let short = if Fleap::is_nuke(m) {
                    let victims = nuke_victims(&placed, m.to);
                    let rivals: Vec<Square> = legal
                        .iter()
                        .filter(|o| {
                            Fleap::is_nuke(o)
                                && o.to == m.to
                                && o.from != m.from
                                && o.path == m.path
                        })
                        .map(|o| o.from)
                        .collect();
                    let d = Fleap::disambiguation(m.from, &rivals);
                    core.push(Fleap::nuke_form("A", &d, m.to, &victims));
                    core.push(Fleap::nuke_form("B", &m.from.name(), m.to, &victims));
                    core.push(Fleap::nuke_form("A", &m.from.name(), m.to, &victims));
                    Fleap::nuke_form("B", &d, m.to, &victims)
                } else {
                    std::mem::take(&mut sans[i])
                };
                core.push(short.clone());
                let prefix: String = own
                    .iter()
                    .chain(ret.iter())
                    .map(|(l, s)| format!("{l}>{s},"))
                    .collect();
                let display = if prefix.is_empty() || Fleap::is_nuke(m) {
                    format!("{prefix}{short}")
                } else {
                    format!("{prefix}{long}")
                };
                let mut forms: Vec<String> = core.iter().map(|c| format!("{prefix}{c}")).collect();
                forms.push(self.coordinate(pos, m));
                forms.push(self.game_courier(pos, m));
                forms.push(display.clone());
                Written {
                    own,
                    ret,
                    core,
                    forms,
                    display,
                }
            })
            .collect()
    }

    /// Long algebraic: `e3xc3`, `b1-b4`, `c5-c6=A`; rifle `e1xc3`; nuke `e1xxc4`.
    pub(super) fn long_core(&self, placed: &Position, m: &Move) -> String {
        if Fleap::is_nuke(m) {
            return format!("{}xx{}", m.from, m.to);
        }
        let sep = if placed.get(m.to).is_some() { "x" } else { "-" };
        let mut s = format!("{}{sep}{}", m.from, m.to);
        if let Some(p) = m.piece {
            s.push('=');
            s.push(LETTERS[p.kind as usize]);
        }
        s
    }

    pub(super) fn candidate(&self, placed: &Position, m: &Move) -> Candidate {
        let piece = placed.get(m.from).expect("a piece on the origin");
        Candidate {
            from: Some(m.from),
            to: m.to,
            letter: LETTERS[piece.kind as usize],
            pawn: piece.kind == PAWN && !piece.promoted,
            capture: placed.get(m.to).is_some(),
            drop: false,
            promotion: m.piece.map(|p| LETTERS[p.kind as usize]),
            castle: None,
            forms: Vec::new(),
            display: String::new(),
        }
    }

    pub(crate) fn format_move(&self, pos: &Position, m: &Move, notation: Notation) -> String {
        let legal = notation.legal_needed(|| self.legal_moves(pos));
        self.format_move_among(pos, &legal, m, notation)
    }

    /// [`crate::Variant::format_move_among`]: only the display form reads
    /// `legal`.
    pub(crate) fn format_move_among(
        &self,
        pos: &Position,
        legal: &[Move],
        m: &Move,
        notation: Notation,
    ) -> String {
        match notation {
            Notation::Coordinate => self.coordinate(pos, m),
            Notation::GameCourier => self.game_courier(pos, m),
            Notation::Display => {
                // A move's display reads only the moves with its placements
                // to its square (SAN's and the nuke's rivals).
                let rivals: Vec<Move> = legal
                    .iter()
                    .filter(|x| x.path == m.path && x.to == m.to)
                    .copied()
                    .collect();
                match rivals.iter().position(|x| x == m) {
                    Some(i) => self.written(pos, &rivals).swap_remove(i).display,
                    None => self.coordinate(pos, m),
                }
            }
        }
    }

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

pub(super) struct FleapExplain<'a> {
    pub(super) v: &'a Fleap,
    pub(super) pos: &'a Position,
}

pub(super) fn movement_rule(kind: Kind) -> &'static str {
    match kind {
        EQUIHOPPER => "an Equihopper jumps over exactly one piece standing halfway to its destination; on a rank, file or diagonal every other square between must be empty",
        NONSTOP => "a Non-stop Equihopper jumps over exactly one piece standing halfway to its destination, whatever stands elsewhere",
        BALLISTA => "a Ballista moves up to two squares like a Queen without capturing, and captures without moving on a square where an Equihopper move from it would land",
        REPEATER => "an EquiRepeater jumps like an Equihopper and, if it landed on an empty square, may go once more by the hurdle's offset",
        FORENAFT => "a Fore'n'aft jumps like an Equihopper, or goes to the mirror square of a piece across itself",
        PAWN => "a Pawn moves one square forward and captures one square diagonally forward",
        KNIGHT => "a Knight leaps like a chess Knight",
        BISHOP => "a Bishop slides diagonally and cannot cross craters",
        ROOK => "a Rook slides along ranks and files and cannot cross craters",
        _ => "a King moves one square in any direction",
    }
}

impl Explain for FleapExplain<'_> {
    fn piece_on(&self, sq: Square) -> Option<(bool, String)> {
        let p = self.pos.get(sq)?;
        Some((p.color == self.pos.side, NAMES[p.kind as usize].to_string()))
    }
    fn why_not(&self, from: Option<Square>, to: Option<Square>) -> Option<String> {
        let to = to?;
        if self.pos.is_hole(to) {
            return Some(format!(
                "{to} is a crater or not part of the board; nothing can land there."
            ));
        }
        if let Some(t) = self.pos.get(to) {
            if t.color == self.pos.side && from.is_some() {
                return Some(format!("{to} holds one of your own pieces."));
            }
        }
        let p = self.pos.get(from?)?;
        if p.color != self.pos.side {
            return None;
        }
        Some(format!(
            "the {} on {} cannot reach {to}: {}.",
            NAMES[p.kind as usize],
            from?,
            movement_rule(p.kind)
        ))
    }
    fn on_board(&self, sq: Square) -> bool {
        self.v.geometry.contains(sq) && !self.v.geometry.is_hole(sq)
    }
    fn piece_name(&self, letter: char) -> String {
        Fleap::kind_of(letter.to_ascii_uppercase())
            .map(|k| NAMES[k as usize].to_string())
            .unwrap_or_else(|| format!("“{letter}”"))
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
