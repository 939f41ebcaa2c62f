//! One engine for every [`Spec`]: the Fairy-Stockfish variants Missive
//! plays from their definitions alone.

mod attacks;
mod counting;
mod definitions;
mod ends;
mod fen;
mod janggi;
mod kings;
mod material;
mod movegen;
mod placement;
mod play;
mod pseudo_royal;
mod san;
mod shatar;
mod shogi;
mod shuffle;
mod xiangqi;

use crate::errors::{FenError, MoveError};
use crate::geometry::Geometry;
use crate::moves::Move;
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::spec::{Spec, SpecError, Value};
use crate::variant::{Notation, Outcome, PieceLabel, Reason, RepetitionRule, Variant};

pub(crate) struct Generic {
    spec: Spec,
    geometry: Geometry,
    id: &'static str,
    /// The display name, or the id.
    name: &'static str,
    start: &'static str,
    rules: &'static str,
    /// Whether any type promotes shogi-style or is confined (xiangqi):
    /// the slower move path.
    slow_moves: bool,
    /// Janggi's cannon or palace diagonals (on the slower path).
    janggi: bool,
    /// Per kind and colour: squares it could never leave.
    immobile: Vec<[crate::geometry::SquareSet; 2]>,
    /// Capturing directions reversed, for attack detection.
    attacks: attacks::Attacks,
    /// Lines drawn on the board (palace diagonals), worked out once: every
    /// board drawn asks for them.
    lines: Vec<(crate::geometry::Square, crate::geometry::Square)>,
}

impl Generic {
    /// The engine for `spec`, or why its start position cannot be played.
    pub(crate) fn new(spec: Spec) -> Result<Generic, FenError> {
        let geometry = Geometry::rect(spec.width, spec.height);
        let rules = definitions::rules_text(&spec);
        let janggi =
            spec.pieces.iter().any(|p| p.janggi_cannon) || !spec.xiangqi.diagonal_lines.is_empty();
        let mut g = Generic {
            janggi,
            slow_moves: janggi
                || spec.shogi.promoted.iter().any(Option::is_some)
                || spec.pieces.iter().any(|p| p.soldier)
                || spec
                    .xiangqi
                    .mobility
                    .iter()
                    .any(|m| m.iter().any(Option::is_some)),
            immobile: Vec::new(),
            attacks: attacks::Attacks::new(&spec),
            lines: definitions::palace_lines(&spec),
            id: Box::leak(spec.name.clone().into_boxed_str()),
            name: Box::leak(
                spec.display_name
                    .clone()
                    .unwrap_or_else(|| spec.name.clone())
                    .into_boxed_str(),
            ),
            start: Box::leak(spec.start_fen.clone().into_boxed_str()),
            rules: Box::leak(rules.into_boxed_str()),
            geometry,
            spec,
        };
        g.immobile = g.immobile_squares();
        let start = g.parse(g.start)?;
        // Holes (`*`) in the start position are the board's.
        g.geometry.holes = *start.holes();
        // The castling rooks are the first found from the corners inwards
        // (Gustav III's stand inside its amazons), as Fairy-Stockfish
        // finds them when it reads `KQ`.
        let s = &g.spec;
        let rank = s.castling_rank;
        let is_rook = |f: u8| {
            start
                .get(crate::geometry::Square::new(f, rank))
                .is_some_and(|p| p.color == Color::White && s.castling_rooks.contains(&p.kind))
        };
        let [mut king_side, mut queen_side] = s.castling_rook_files;
        while king_side > 0 && !is_rook(king_side) {
            king_side -= 1;
        }
        while queen_side + 1 < s.width && !is_rook(queen_side) {
            queen_side += 1;
        }
        if is_rook(king_side) && is_rook(queen_side) {
            g.spec.castling_rook_files = [king_side, queen_side];
        }
        // The start as this engine writes it (a definition may leave out
        // fields Fairy-Stockfish fills in, `w 0 1`), so that the start
        // FEN and the start position written back are one text.
        let written = g.fen(&g.parse(g.start)?);
        if written != g.start {
            g.start = Box::leak(written.into_boxed_str());
        }
        Ok(g)
    }
}

impl Variant for Generic {
    fn id(&self) -> &'static str {
        self.id
    }
    fn name(&self) -> &'static str {
        self.name
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
    /// A posted variant's version is offered as `id@version`; its records
    /// name the variant `id` (the server adds the version as a tag of its own).
    fn pgn_variant(&self) -> Option<&'static str> {
        self.id.split('@').next()
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
            name: definitions::piece_name(p),
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
            return Some(if self.in_check(pos) || self.pseudo_royal_attacked(pos) {
                if self.spec.shogi.pawn_drop_mate_illegal
                    && !self.spec.check_counting
                    && pos.counters[1] == 1
                {
                    // Uchifuzume: mate by a pawn drop loses for the dropper.
                    return Some(Outcome::win(us, Reason::Checkmate));
                }
                if self.spec.shatar_mate {
                    return Some(self.shatar_mate(pos));
                }
                Self::value_outcome(us, self.spec.checkmate_value, Reason::Checkmate)
            } else if self.spec.stalemate_piece_count {
                // Suicide: the side with fewer pieces wins a stalemate.
                let mine = self.count(pos, us, u8::MAX) as i64;
                let theirs = self.count(pos, us.opponent(), u8::MAX) as i64;
                let v = match mine.cmp(&theirs) {
                    std::cmp::Ordering::Equal => Value::Draw,
                    std::cmp::Ordering::Less => self.spec.stalemate_value,
                    std::cmp::Ordering::Greater => match self.spec.stalemate_value {
                        Value::Win => Value::Loss,
                        Value::Loss => Value::Win,
                        Value::Draw => Value::Draw,
                    },
                };
                Self::value_outcome(us, v, Reason::Stalemate)
            } else if self.spec.stalemate_value == Value::Draw {
                self.draw_or_count(pos, Reason::Stalemate)
            } else {
                Self::value_outcome(us, self.spec.stalemate_value, Reason::Stalemate)
            });
        }
        if self.count_run_out(pos) {
            return Some(Outcome::draw(Reason::MoveCountRule));
        }
        let n = self.spec.n_move_rule;
        if n > 0 && pos.halfmove >= 2 * n {
            return Some(self.draw_or_count(pos, Reason::MoveCountRule));
        }
        None
    }
    fn in_check(&self, pos: &Position) -> bool {
        self.in_check_of(pos, pos.side)
    }
    fn repetition_rule(&self) -> RepetitionRule {
        // Shogi's fourfold repetition and perpetual-check rules are not
        // enforced yet (docs/variants.md says so); they do not change the
        // legal moves Fairy-Stockfish counts in perft.
        if self.spec.n_fold_rule == 3
            && self.spec.n_fold_value == Value::Draw
            && !self.spec.repetition_extras
        {
            RepetitionRule::ThreefoldDraw
        } else {
            RepetitionRule::Ignored
        }
    }
    // Bits: passes in a row (two), the kings faced before the last move,
    // shatar's shak now and before it, the mate-by-dropped-pawn flag.
    fn unwritten_state(&self, pos: &Position) -> u8 {
        let drop_flag = self.spec.shogi.pawn_drop_mate_illegal && !self.spec.check_counting;
        pos.passes.min(3)
            | u8::from(pos.bikjang_before) << 2
            | u8::from(pos.shak) << 3
            | u8::from(pos.shak_before) << 4
            | u8::from(drop_flag && pos.counters[1] == 1) << 5
    }
    fn restore_unwritten_state(&self, pos: &mut Position, state: u8) {
        pos.passes = state & 3;
        pos.bikjang_before = state & 4 != 0;
        pos.shak = state & 8 != 0;
        pos.shak_before = state & 16 != 0;
        if self.spec.shogi.pawn_drop_mate_illegal && !self.spec.check_counting {
            pos.counters[1] = u8::from(state & 32 != 0);
        }
    }
    fn shuffled_start(&self, seed: u64) -> Option<String> {
        self.shuffled_start_fen(seed)
    }
    fn is_shuffled_start(&self, fen: &str) -> bool {
        self.is_shuffled_start_fen(fen)
    }
    fn drawn(&self, pos: &Position, reason: Reason) -> Outcome {
        self.draw_or_count(pos, reason)
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
    fn format_move_family(&self, pos: &Position, mv: &Move) -> Option<String> {
        if mv.kind == crate::moves::MoveKind::Drop {
            return None;
        }
        if self.spec.xiangqi.janggi_notation {
            return Some(self.janggi_notation(pos, mv));
        }
        self.spec.xiangqi.wxf.then(|| self.wxf(pos, mv))
    }
    fn family_notation(&self) -> Option<&'static str> {
        if self.spec.xiangqi.janggi_notation {
            Some("janggi")
        } else if self.spec.xiangqi.wxf {
            Some("WXF")
        } else {
            None
        }
    }
    fn parse_move(&self, pos: &Position, legal: &[Move], text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(MoveError::Empty);
        }
        // Shogi notation ends a promotion with `+` and writes no checks.
        let shogi = self.spec.shogi.notation;
        let bare = |s: &str| {
            if shogi {
                return s.to_string();
            }
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
            .filter(|m| {
                self.uci(m) == t
                    || bare(&self.san(pos, legal, m)) == want
                    || self.format_move_family(pos, m).is_some_and(|w| w == t)
            })
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
        definitions::family(&self.spec)
    }
    // Shogi's notation writes a promotion with `+` (`B-22+`, `e2d1+`), so
    // there only `#` marks a mate, as in Leaperhouse.
    fn plus_marks_check(&self) -> bool {
        !self.spec.shogi.promoted.iter().any(Option::is_some)
    }
    fn kind_count(&self) -> usize {
        self.spec.pieces.len()
    }
    // A position is what its FEN says, so that a game restored from its
    // FEN and history counts repetitions as the game played did: en
    // passant only where it can be taken, the counters only where the FEN
    // carries them (check counting; elsewhere they are the engine's own
    // bookkeeping).
    fn repetition_key(&self, pos: &Position) -> u64 {
        let hidden = !self.spec.check_counting && pos.counters != [0; 2];
        let cleared;
        let pos = if hidden {
            let mut p = pos.clone();
            p.counters = [0; 2];
            cleared = p;
            &cleared
        } else {
            pos
        };
        pos.hash_without_dead_ep(|| {
            self.legal_unchecked(pos)
                .iter()
                .any(|m| m.kind == crate::moves::MoveKind::EnPassant)
        })
    }
    fn kept_kinds(&self) -> Vec<crate::piece::Kind> {
        match (&self.spec.extinction_value, &self.spec.extinction_types) {
            // `*` (every piece, `u8::MAX`) is kept by any piece at all.
            (Some(_), Some(types)) => types
                .iter()
                .copied()
                .filter(|&k| (k as usize) < self.spec.pieces.len())
                .collect(),
            _ => Vec::new(),
        }
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
        definitions::legend_notes(&self.spec)
    }
    fn board_lines(&self) -> Vec<(crate::geometry::Square, crate::geometry::Square)> {
        self.lines.clone()
    }
    fn max_perft_depth(&self) -> u32 {
        definitions::max_perft_depth(&self.spec)
    }
}

/// Read one or more variant definitions in Fairy-Stockfish's `variants.ini`
/// syntax (templates may be any built-in variant) and check that each can
/// be played; the error names the line. Returns the names read.
pub fn check_definitions(text: &str) -> Result<Vec<String>, SpecError> {
    let mut lib = crate::spec::builtin::generic_library();
    let mut names = Vec::new();
    for spec in lib.add(text)? {
        let (name, line) = (spec.name.clone(), spec.start_fen_line);
        Generic::new(spec).map_err(|e| {
            SpecError::at(
                line,
                format!("the start position of `{name}` does not fit: {e}"),
            )
        })?;
        names.push(name);
    }
    Ok(names)
}
