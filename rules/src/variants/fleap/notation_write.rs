//! Writing Fleap's moves: coordinates, the page's algebraic (placements,
//! Nukes) and Game Courier, and every written form of the legal moves that
//! the reader matches against.

use super::moves::{flipped, nuke_victims};
use super::*;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind, Path, NO_SQUARE};
use crate::notation::{self, Candidate};
use crate::piece::Color;
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
}
