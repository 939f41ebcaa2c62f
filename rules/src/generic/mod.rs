//! One engine for every [`Spec`]: the Fairy-Stockfish variants Missive
//! plays from their definitions alone.

mod fen;
mod movegen;
mod play;
mod san;

use crate::errors::{FenError, MoveError};
use crate::geometry::Geometry;
use crate::moves::Move;
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::spec::{Spec, Value};
use crate::variant::{Notation, Outcome, PieceLabel, Reason, RepetitionRule, Variant};

pub(crate) struct Generic {
    spec: Spec,
    geometry: Geometry,
    id: &'static str,
    start: &'static str,
    rules: &'static str,
}

impl Generic {
    /// The engine for `spec`, or why its start position cannot be played.
    pub(crate) fn new(spec: Spec) -> Result<Generic, FenError> {
        let geometry = Geometry::rect(spec.width, spec.height);
        let rules = crate::variants::definitions::rules_text(&spec);
        let g = Generic {
            id: Box::leak(spec.name.clone().into_boxed_str()),
            start: Box::leak(spec.start_fen.clone().into_boxed_str()),
            rules: Box::leak(rules.into_boxed_str()),
            geometry,
            spec,
        };
        g.parse(g.start)?;
        Ok(g)
    }

    fn value_outcome(us: Color, v: Value, reason: Reason) -> Outcome {
        match v {
            Value::Win => Outcome::win(us, reason),
            Value::Loss => Outcome::win(us.opponent(), reason),
            Value::Draw => Outcome::draw(reason),
        }
    }

    fn count(&self, pos: &Position, color: Color, kind: u8) -> usize {
        let hand = |k: usize| pos.hands[color.index()][k] as usize;
        if kind == u8::MAX {
            pos.pieces().filter(|(_, p)| p.color == color).count()
                + (0..self.spec.pieces.len()).map(hand).sum::<usize>()
        } else {
            pos.pieces()
                .filter(|(_, p)| p.color == color && p.kind == kind)
                .count()
                + hand(kind as usize)
        }
    }

    /// Ends Fairy-Stockfish sees before generating moves: a flag piece in
    /// its region, a side's extinction.
    fn immediate_end(&self, pos: &Position) -> Option<Outcome> {
        let s = &self.spec;
        let us = pos.side;
        for color in [us.opponent(), us] {
            let c = color.index();
            if let Some(flag) = s.flag_piece[c] {
                if pos.pieces().any(|(sq, p)| {
                    p.color == color && p.kind == flag && s.flag_region[c].contains(sq)
                }) {
                    return Some(Outcome::win(color, Reason::FlagReached));
                }
            }
        }
        if let (Some(v), Some(types)) = (s.extinction_value, &s.extinction_types) {
            for color in [us.opponent(), us] {
                for &k in types {
                    if self.count(pos, color, k) <= s.extinction_piece_count as usize {
                        let o = Self::value_outcome(us, v, Reason::Extinction);
                        return Some(if color == us {
                            o
                        } else {
                            Outcome {
                                winner: o.winner.map(Color::opponent),
                                ..o
                            }
                        });
                    }
                }
            }
        }
        None
    }
}

impl Variant for Generic {
    fn id(&self) -> &'static str {
        self.id
    }
    fn name(&self) -> &'static str {
        self.id
    }
    fn geometry(&self) -> &Geometry {
        &self.geometry
    }
    fn start_fen(&self) -> &'static str {
        self.start
    }
    fn rules_text(&self) -> &'static str {
        self.rules
    }
    fn piece_label(&self, piece: Piece) -> PieceLabel {
        let p = &self.spec.pieces[piece.kind as usize];
        let letter = if piece.color == Color::White {
            p.letter.to_ascii_uppercase()
        } else {
            p.letter
        };
        PieceLabel {
            letter: letter.to_string(),
            name: crate::variants::definitions::piece_name(p),
            direction: None,
            symbol: String::new(),
        }
    }
    fn parse_fen(&self, fen: &str) -> Result<Position, FenError> {
        self.parse(fen)
    }
    fn fen(&self, pos: &Position) -> String {
        self.write(pos)
    }
    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        if self.immediate_end(pos).is_some() {
            return Vec::new();
        }
        self.legal_unchecked(pos)
    }
    fn play(&self, pos: &Position, mv: &Move) -> Position {
        self.apply(pos, mv)
    }
    fn outcome(&self, pos: &Position, legal: &[Move]) -> Option<Outcome> {
        if let Some(o) = self.immediate_end(pos) {
            return Some(o);
        }
        let us = pos.side;
        if legal.is_empty() {
            return Some(if self.in_check(pos) {
                Self::value_outcome(us, self.spec.checkmate_value, Reason::Checkmate)
            } else {
                Self::value_outcome(us, self.spec.stalemate_value, Reason::Stalemate)
            });
        }
        let n = self.spec.n_move_rule;
        if n > 0 && pos.halfmove >= 2 * n {
            return Some(Outcome::draw(Reason::MoveCountRule));
        }
        None
    }
    fn in_check(&self, pos: &Position) -> bool {
        self.in_check_of(pos, pos.side)
    }
    fn repetition_rule(&self) -> RepetitionRule {
        if self.spec.n_fold_rule == 3 && self.spec.n_fold_value == Value::Draw {
            RepetitionRule::ThreefoldDraw
        } else {
            RepetitionRule::Ignored
        }
    }
    fn format_move(&self, pos: &Position, mv: &Move, notation: Notation) -> String {
        let legal = notation.legal_needed(|| self.legal_moves(pos));
        self.format_move_among(pos, &legal, mv, notation)
    }
    fn format_move_among(
        &self,
        pos: &Position,
        legal: &[Move],
        mv: &Move,
        notation: Notation,
    ) -> String {
        match notation {
            Notation::Display => self.san(pos, legal, mv),
            _ => self.uci(mv),
        }
    }
    fn parse_move(&self, pos: &Position, legal: &[Move], text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(MoveError::Empty);
        }
        let bare = |s: &str| {
            let s = s.trim_end_matches(['+', '#', '!', '?']);
            if s.starts_with("0-0") {
                s.replace('0', "O")
            } else {
                s.to_string()
            }
        };
        let want = bare(t);
        let found: Vec<&Move> = legal
            .iter()
            .filter(|m| self.uci(m) == t || bare(&self.san(pos, legal, m)) == want)
            .collect();
        match found.as_slice() {
            [m] => Ok(**m),
            [] => Err(MoveError::Illegal {
                input: t.to_string(),
                reason: "no legal move is written so".into(),
                alternatives: legal
                    .iter()
                    .take(40)
                    .map(|m| self.san(pos, legal, m))
                    .collect(),
            }),
            many => Err(MoveError::Ambiguous {
                input: t.to_string(),
                candidates: many.iter().map(|m| self.san(pos, legal, m)).collect(),
            }),
        }
    }
    // What lists, legends and pictures ask, from the definition alone.
    fn family(&self) -> crate::family::Family {
        crate::variants::definitions::family(&self.spec)
    }
    fn kind_count(&self) -> usize {
        self.spec.pieces.len()
    }
    fn piece_betza(&self, kind: crate::piece::Kind) -> Option<String> {
        let p = self.spec.pieces.get(kind as usize)?;
        Some(if p.pawn {
            "fmWfcF".into()
        } else {
            p.betza.clone()
        })
    }
    fn legend_notes(&self) -> Vec<String> {
        crate::variants::definitions::legend_notes(&self.spec)
    }
    fn max_perft_depth(&self) -> u32 {
        crate::variants::definitions::max_perft_depth(&self.spec)
    }
}
