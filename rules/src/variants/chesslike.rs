//! The machinery shared by variants built like FIDE chess: one royal King per
//! side, check, pawns with double steps, en passant and promotion, castling
//! described as data, and options for compulsory capture, stalemate as a
//! loss, the bare-king rule and the 50-move rule. FIDE chess and the Leap
//! Chess family are instances of [`ChessLike`].

use crate::errors::{FenError, MoveError};
use crate::fen;
use crate::geometry::{Geometry, Square};
use crate::movement::{PieceDef, PieceSet};
use crate::moves::{Move, MoveKind, NO_SQUARE};
use crate::notation::{self, Candidate, Explain};
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;
use crate::variant::{Notation, Outcome, PieceLabel, Reason};
use crate::variants::small_board::Tables;
use std::sync::OnceLock;

/// One way to castle, as data.
#[derive(Clone, Debug)]
pub(crate) struct Castling {
    pub color: Color,
    /// FEN letter of the right (`K`, `Q`, `k`, `q`) and its bit.
    pub right: char,
    pub bit: u8,
    pub king_side: bool,
    pub king_from: Square,
    pub king_to: Square,
    pub partner_from: Square,
    pub partner_to: Square,
    /// Kind of the partner piece (Rook, Knight).
    pub partner: Kind,
    /// Squares that must be empty (other than the king's and partner's own).
    pub empty: Vec<Square>,
    /// Squares the king stands on or crosses: none may be attacked.
    pub safe: Vec<Square>,
    /// Destination written in the coordinate form (`g1` in chess; `b1` for
    /// Leap Chess's queen-side, written as king-takes-knight).
    pub coordinate_to: Square,
}

/// Settings of one chess-like variant.
pub(crate) struct ChessLike {
    pub id: &'static str,
    pub name: &'static str,
    pub geometry: Geometry,
    pub start_fen: &'static str,
    pub rules_text: &'static str,
    pub side_names: [&'static str; 2],
    pub pieces: PieceSet,
    pub pawn: Kind,
    pub king: Kind,
    /// Kinds a pawn may become, in the order shown.
    pub promotions: Vec<Kind>,
    /// Relative rank (0-based from the owner's side) where a pawn may double step.
    pub double_step_rank: Option<u8>,
    pub castlings: Vec<Castling>,
    pub compulsory_capture: bool,
    pub stalemate_loses: bool,
    pub bare_king_loses: bool,
    /// Plies without capture or pawn move that draw (100 for the 50-move rule).
    pub move_count_limit: Option<u16>,
    /// FIDE's dead positions: K v K, K+minor v K.
    pub insufficient_material: bool,
    /// The bitboard tables of the variant, worked out on first use; `None`
    /// if its board or pieces are beyond them.
    pub small_board: OnceLock<Option<Tables>>,
}

/// Letters to pieces for FEN and notation.
pub(crate) fn kind_of(set: &PieceSet, c: char) -> Option<Kind> {
    set.kind_of_letter(c)
}

impl ChessLike {
    fn letter(&self, kind: Kind) -> char {
        self.pieces.def(kind).letter
    }

    pub(crate) fn piece_label(&self, piece: Piece) -> PieceLabel {
        let d = self.pieces.def(piece.kind);
        let letter = if piece.color == Color::Black {
            d.letter.to_ascii_lowercase()
        } else {
            d.letter
        };
        PieceLabel {
            symbol: String::new(),
            letter: letter.to_string(),
            name: d.name.to_string(),
            direction: None,
        }
    }

    // ---- FEN ----

    pub(crate) fn parse_fen(&self, text: &str) -> Result<Position, FenError> {
        let (board, rest) = fen::fields(text)?;
        let reader = fen::letter_reader(|c| kind_of(&self.pieces, c), false);
        let (mut pos, hand) = fen::parse_board(&self.geometry, board, &reader)?;
        if let Some(h) = hand {
            if !h.is_empty() {
                return Err(FenError::Invalid(
                    "this variant has no pieces in hand".into(),
                ));
            }
        }
        pos.side = fen::parse_side(rest.first())?;
        let rights = rest.get(1).copied().unwrap_or("-");
        pos.ep = fen::parse_square_field(&self.geometry, rest.get(2), "en passant square")?;
        pos.halfmove = fen::parse_counter(rest.get(3), 0, "halfmove clock")?;
        pos.fullmove = fen::parse_counter(rest.get(4), 1, "move number")?.max(1);
        if rest.len() > 5 {
            return Err(FenError::Syntax(format!(
                "unexpected text “{}” after the move number",
                rest[5..].join(" ")
            )));
        }
        for color in [Color::White, Color::Black] {
            let kings: Vec<Square> = pos
                .pieces()
                .filter(|(_, p)| p.kind == self.king && p.color == color)
                .map(|(s, _)| s)
                .collect();
            if kings.len() != 1 {
                return Err(FenError::Invalid(format!(
                    "{} must have exactly one King, not {}",
                    self.side_names[color.index()],
                    kings.len()
                )));
            }
            pos.royal[color.index()] = Some(kings[0]);
        }
        for (sq, p) in pos.pieces() {
            if p.kind == self.pawn
                && (pos.relative_rank(sq, p.color) == self.geometry.height - 1
                    || pos.relative_rank(sq, p.color) == 0)
            {
                return Err(FenError::Invalid(format!("a pawn cannot stand on {sq}")));
            }
        }
        if rights != "-" {
            for c in rights.chars() {
                let rule = self
                    .castlings
                    .iter()
                    .find(|r| r.right == c)
                    .or_else(|| self.castling_by_partner_file(c))
                    .ok_or_else(|| {
                        FenError::Syntax(format!("“{c}” is not a castling right of this variant"))
                    })?;
                let king_ok = pos.get(rule.king_from) == Some(Piece::new(self.king, rule.color));
                let partner_ok =
                    pos.get(rule.partner_from) == Some(Piece::new(rule.partner, rule.color));
                if !king_ok || !partner_ok {
                    return Err(FenError::Invalid(format!(
                        "castling right “{c}” needs the King on {} and the {} on {}",
                        rule.king_from,
                        self.pieces.def(rule.partner).name,
                        rule.partner_from
                    )));
                }
                pos.castling |= rule.bit;
            }
        }
        if let Some(ep) = pos.ep {
            // The square a pawn just skipped: behind it stands the pawn that moved.
            let mover = pos.side.opponent();
            let pawn_sq = pos.step(ep, 0, mover.forward());
            let ok = pos.get(ep).is_none()
                && matches!(pawn_sq.and_then(|s| pos.get(s)), Some(p) if p.kind == self.pawn && p.color == mover);
            if !ok {
                return Err(FenError::Invalid(format!(
                    "{ep} cannot be an en passant square here"
                )));
            }
        }
        if self.attacked(
            &pos,
            pos.royal[pos.side.opponent().index()].expect("set above"),
            pos.side,
        ) {
            return Err(FenError::Invalid("the side not to move is in check".into()));
        }
        Ok(pos)
    }

    /// Shredder-FEN's castling letters (`AHah` for `KQkq`): the file of
    /// the castling partner's square, upper case for White. Read, never
    /// written.
    fn castling_by_partner_file(&self, c: char) -> Option<&Castling> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let file = u32::from(c.to_ascii_lowercase()).checked_sub(u32::from('a'))?;
        self.castlings
            .iter()
            .find(|r| r.color == color && u32::from(r.partner_from.file()) == file)
    }

    pub(crate) fn fen(&self, pos: &Position) -> String {
        let board = fen::write_board(pos, |p| self.piece_label(p).letter);
        let side = if pos.side == Color::White { "w" } else { "b" };
        let mut rights: String = self
            .castlings
            .iter()
            .filter(|r| pos.castling & r.bit != 0)
            .map(|r| r.right)
            .collect();
        if rights.is_empty() {
            rights.push('-');
        }
        let ep = match pos.ep {
            Some(e)
                if self
                    .legal_moves(pos)
                    .iter()
                    .any(|m| m.kind == MoveKind::EnPassant) =>
            {
                e.name()
            }
            _ => "-".into(),
        };
        format!(
            "{board} {side} {rights} {ep} {} {}",
            pos.halfmove, pos.fullmove
        )
    }

    // ---- moves ----

    pub(crate) fn attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        self.pieces.attacked(pos, sq, by)
    }

    pub(crate) fn in_check(&self, pos: &Position) -> bool {
        match pos.royal[pos.side.index()] {
            Some(k) => self.attacked(pos, k, pos.side.opponent()),
            None => false,
        }
    }

    /// Whether `color` has nothing left but its King.
    pub(crate) fn bare(&self, pos: &Position, color: Color) -> bool {
        pos.pieces()
            .all(|(_, p)| p.color != color || p.kind == self.king)
    }

    /// Moves by the rules of movement, ignoring check.
    pub(crate) fn pseudo_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        let us = pos.side;
        let last = self.geometry.height - 1;
        for (from, piece) in pos.pieces() {
            if piece.color != us {
                continue;
            }
            if piece.kind == self.pawn {
                self.pieces.targets(pos, from, piece, |to, _| {
                    if pos.relative_rank(to, us) == last {
                        for &k in &self.promotions {
                            out.push(Move::promotion(from, to, Piece::new(k, us)));
                        }
                    } else {
                        out.push(Move::normal(from, to));
                    }
                });
                if Some(pos.relative_rank(from, us)) == self.double_step_rank {
                    if let (Some(a), Some(b)) = (
                        pos.step(from, 0, us.forward()),
                        pos.step(from, 0, 2 * us.forward()),
                    ) {
                        if pos.get(a).is_none() && pos.get(b).is_none() {
                            out.push(Move::normal(from, b));
                        }
                    }
                }
                if let Some(ep) = pos.ep {
                    for dx in [-1, 1] {
                        if pos.step(from, dx, us.forward()) == Some(ep) {
                            let victim = Square::new(ep.file(), from.rank());
                            out.push(
                                Move::normal(from, ep)
                                    .with_kind(MoveKind::EnPassant)
                                    .with_extra(victim, NO_SQUARE),
                            );
                        }
                    }
                }
            } else {
                self.pieces
                    .targets(pos, from, piece, |to, _| out.push(Move::normal(from, to)));
            }
        }
        for (i, rule) in self.castlings.iter().enumerate() {
            if rule.color != us || pos.castling & rule.bit == 0 {
                continue;
            }
            // A hole (a custom FEN's `*`) holds no piece but is no square
            // to pass or land on.
            let clear = rule.empty.iter().all(|&s| {
                (pos.get(s).is_none() && !pos.is_hole(s))
                    || s == rule.king_from
                    || s == rule.partner_from
            });
            if clear {
                let mut m = Move::normal(rule.king_from, rule.king_to)
                    .with_kind(MoveKind::Castle)
                    .with_extra(rule.partner_from, rule.partner_to);
                m.tag = i as u8;
                out.push(m);
            }
        }
    }

    pub(crate) fn is_capture(&self, pos: &Position, m: &Move) -> bool {
        match m.kind {
            MoveKind::EnPassant => true,
            MoveKind::Castle => false,
            _ => pos.get(m.to).is_some(),
        }
    }

    /// Whether a pseudo-legal move keeps the mover's King safe.
    pub(crate) fn keeps_king_safe(&self, pos: &Position, m: &Move) -> bool {
        if m.kind == MoveKind::Castle {
            let rule = &self.castlings[m.tag as usize];
            if rule
                .safe
                .iter()
                .any(|&s| self.attacked(pos, s, pos.side.opponent()))
            {
                return false;
            }
        }
        let next = self.play(pos, m);
        let king = next.royal[pos.side.index()].expect("one King per side");
        !self.attacked(&next, king, pos.side.opponent())
    }

    /// Legal moves before the compulsory-capture filter.
    fn safe_moves(&self, pos: &Position) -> Vec<Move> {
        let mut pseudo = Vec::with_capacity(64);
        self.pseudo_moves(pos, &mut pseudo);
        let us = pos.side;
        let them = us.opponent();
        let king = pos.royal[us.index()].expect("one King per side");
        let checked = self.attacked(pos, king, them);
        pseudo.retain(|m| {
            // Most moves cannot expose the King: only test the risky ones.
            let risky = checked
                || m.from == king
                || m.kind != MoveKind::Normal
                || self.pieces.may_uncover(them, king, m.from);
            !risky || self.keeps_king_safe(pos, m)
        });
        pseudo
    }

    fn tables(&self) -> Option<&Tables> {
        self.small_board.get_or_init(|| Tables::new(self)).as_ref()
    }

    pub(crate) fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        match self.tables().and_then(|t| t.legal_moves(pos)) {
            Some(moves) => moves,
            None => self.legal_moves_square_by_square(pos),
        }
    }

    /// The legal moves found square by square from the piece table: for
    /// what the bitboard engine does not model (boards over 8x8, pieces
    /// beyond its tables, holes a FEN adds).
    pub(crate) fn legal_moves_square_by_square(&self, pos: &Position) -> Vec<Move> {
        if self.bare_king_loses && (self.bare(pos, Color::White) || self.bare(pos, Color::Black)) {
            return Vec::new();
        }
        let mut moves = self.safe_moves(pos);
        if self.compulsory_capture && moves.iter().any(|m| self.is_capture(pos, m)) {
            moves.retain(|m| self.is_capture(pos, m));
        }
        moves
    }

    /// Leaf nodes `depth` plies below `pos` by the bitboard engine, if it
    /// models the variant and the position.
    pub(crate) fn fast_perft(&self, pos: &Position, depth: u32) -> Option<u64> {
        self.tables().and_then(|t| t.perft(pos, depth))
    }

    pub(crate) fn play(&self, pos: &Position, m: &Move) -> Position {
        let mut next = pos.clone();
        let us = pos.side;
        let moving = next.take(m.from).expect("a piece on the origin");
        let mut reset = moving.kind == self.pawn;
        match m.kind {
            MoveKind::Castle => {
                let partner = next.take(m.extra[0]).expect("castling partner");
                next.set(m.to, Some(moving));
                next.set(m.extra[1], Some(partner));
            }
            MoveKind::EnPassant => {
                next.set(m.extra[0], None);
                next.set(m.to, Some(moving));
                reset = true;
            }
            _ => {
                if next.get(m.to).is_some() {
                    reset = true;
                }
                next.set(m.to, Some(m.piece.unwrap_or(moving)));
            }
        }
        if moving.kind == self.king {
            next.royal[us.index()] = Some(m.to);
        }
        next.ep = None;
        if moving.kind == self.pawn
            && m.kind == MoveKind::Normal
            && (m.to.rank() as i8 - m.from.rank() as i8).abs() == 2
        {
            next.ep = Some(Square::new(
                m.from.file(),
                (m.from.rank() + m.to.rank()) / 2,
            ));
        }
        if next.castling != 0 {
            for rule in &self.castlings {
                let touched = [m.from, m.to, m.extra[0]];
                if touched.contains(&rule.king_from) || touched.contains(&rule.partner_from) {
                    next.castling &= !rule.bit;
                }
            }
        }
        next.halfmove = if reset {
            0
        } else {
            pos.halfmove.saturating_add(1)
        };
        if us == Color::Black {
            next.fullmove = pos.fullmove.saturating_add(1);
        }
        next.side = us.opponent();
        next
    }

    pub(crate) fn outcome(&self, pos: &Position, legal: &[Move]) -> Option<Outcome> {
        let us = pos.side;
        if self.bare_king_loses {
            if self.bare(pos, us) {
                return Some(Outcome::win(us.opponent(), Reason::BareKing));
            }
            if self.bare(pos, us.opponent()) {
                return Some(Outcome::win(us, Reason::BareKing));
            }
        }
        if legal.is_empty() {
            return Some(if self.in_check(pos) {
                Outcome::win(us.opponent(), Reason::Checkmate)
            } else if self.stalemate_loses {
                Outcome::win(us.opponent(), Reason::Stalemate)
            } else {
                Outcome::draw(Reason::Stalemate)
            });
        }
        if let Some(limit) = self.move_count_limit {
            if pos.halfmove >= limit {
                return Some(Outcome::draw(Reason::MoveCountRule));
            }
        }
        if self.insufficient_material && self.dead_position(pos) {
            return Some(Outcome::draw(Reason::InsufficientMaterial));
        }
        None
    }

    /// K v K, K+B v K, K+N v K (minor pieces identified as the single leaper
    /// N or colour-bound rider B of FIDE chess).
    fn dead_position(&self, pos: &Position) -> bool {
        let others: Vec<Piece> = pos
            .pieces()
            .map(|(_, p)| p)
            .filter(|p| p.kind != self.king)
            .collect();
        match others.as_slice() {
            [] => true,
            [p] => matches!(self.letter(p.kind), 'N' | 'B'),
            _ => false,
        }
    }

    /// Key for repetition: en passant counts only when it can be taken.
    pub(crate) fn repetition_key(&self, pos: &Position) -> u64 {
        pos.hash_without_dead_ep(|| {
            self.legal_moves(pos)
                .iter()
                .any(|m| m.kind == MoveKind::EnPassant)
        })
    }

    // ---- notation ----

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
        let mut s = format!("{}{}", m.from, to);
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

    fn candidates(&self, pos: &Position, legal: &[Move]) -> Vec<Candidate> {
        let mut cands: Vec<Candidate> = legal.iter().map(|m| self.candidate(pos, m)).collect();
        for i in 0..cands.len() {
            let s = notation::san(&cands, i);
            cands[i].forms.push(s.clone());
            cands[i].display = s;
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
        notation::marked_displays(legal, self.candidates(pos, legal), |m| {
            self.check_mark(pos, m)
        })
    }

    /// `+`, `#` or nothing after the move `m` from `pos`.
    fn check_mark(&self, pos: &Position, m: &Move) -> &'static str {
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

struct ChessExplain<'a> {
    v: &'a ChessLike,
    pos: &'a Position,
    legal: &'a [Move],
}

impl Explain for ChessExplain<'_> {
    fn piece_on(&self, sq: Square) -> Option<(bool, String)> {
        let p = self.pos.get(sq)?;
        Some((
            p.color == self.pos.side,
            self.v.pieces.def(p.kind).name.to_string(),
        ))
    }
    fn on_board(&self, sq: Square) -> bool {
        self.v.geometry.contains(sq) && !self.pos.is_hole(sq)
    }
    fn piece_name(&self, letter: char) -> String {
        kind_of(&self.v.pieces, letter)
            .map(|k| self.v.pieces.def(k).name.to_string())
            .unwrap_or_else(|| format!("“{letter}”"))
    }
    fn why_not(&self, from: Option<Square>, to: Option<Square>) -> Option<String> {
        let v = self.v;
        let pos = self.pos;
        let mut pseudo = Vec::new();
        v.pseudo_moves(pos, &mut pseudo);
        let in_check = v.in_check(pos);
        let king_name = v.pieces.def(v.king).name;
        if from.is_none() && to.is_none() {
            // Castling: say which condition fails.
            let rules: Vec<&Castling> =
                v.castlings.iter().filter(|r| r.color == pos.side).collect();
            if rules.iter().all(|r| pos.castling & r.bit == 0) {
                return Some(format!("the {king_name} or its partner has moved."));
            }
            if in_check {
                return Some(format!("your {king_name} is in check."));
            }
            return Some(format!("the squares between must be empty and the {king_name} may not cross or land on an attacked square."));
        }
        let matching: Vec<&Move> = pseudo
            .iter()
            .filter(|m| from.is_none_or(|f| m.from == f) && to.is_none_or(|t| m.to == t))
            .collect();
        if matching.is_empty() {
            return None;
        }
        let safe: Vec<&&Move> = matching
            .iter()
            .filter(|m| v.keeps_king_safe(pos, m))
            .collect();
        if safe.is_empty() {
            return Some(if in_check {
                format!("your {king_name} is in check and this move does not get it out of check.")
            } else {
                format!("it would leave your {king_name} in check.")
            });
        }
        if v.compulsory_capture && !safe.iter().any(|m| self.legal.contains(m)) {
            return Some("a capture is compulsory, and this move captures nothing.".into());
        }
        None
    }
}

/// The standard FIDE castling rules on an 8-wide board (King on e, Rooks on a/h).
pub(crate) fn fide_castlings(rook: Kind, height: u8) -> Vec<Castling> {
    let sq = |name: &str, rank: u8| Square::new(name.as_bytes()[0] - b'a', rank);
    let mut out = Vec::new();
    for (color, rank, k, q, kb, qb) in [
        (Color::White, 0, 'K', 'Q', 1, 2),
        (Color::Black, height - 1, 'k', 'q', 4, 8),
    ] {
        out.push(Castling {
            color,
            right: k,
            bit: kb,
            king_side: true,
            king_from: sq("e", rank),
            king_to: sq("g", rank),
            partner_from: sq("h", rank),
            partner_to: sq("f", rank),
            partner: rook,
            empty: vec![sq("f", rank), sq("g", rank)],
            safe: vec![sq("e", rank), sq("f", rank), sq("g", rank)],
            coordinate_to: sq("g", rank),
        });
        out.push(Castling {
            color,
            right: q,
            bit: qb,
            king_side: false,
            king_from: sq("e", rank),
            king_to: sq("c", rank),
            partner_from: sq("a", rank),
            partner_to: sq("d", rank),
            partner: rook,
            empty: vec![sq("b", rank), sq("c", rank), sq("d", rank)],
            safe: vec![sq("e", rank), sq("d", rank), sq("c", rank)],
            coordinate_to: sq("c", rank),
        });
    }
    out
}

/// Shorthand for a piece table entry.
pub(crate) fn def(letter: char, name: &'static str, betza: &str) -> PieceDef {
    PieceDef::new(letter, name, betza)
}

/// Implement [`crate::Variant`] for a type that derefs to a [`ChessLike`].
macro_rules! chess_like_variant {
    ($t:ty) => {
        impl $crate::variant::Variant for $t {
            fn id(&self) -> &'static str {
                self.0.id
            }
            fn name(&self) -> &'static str {
                self.0.name
            }
            fn geometry(&self) -> &$crate::geometry::Geometry {
                &self.0.geometry
            }
            fn side_name(&self, color: $crate::piece::Color) -> &'static str {
                match color {
                    $crate::piece::Color::Black => self.0.side_names[1],
                    _ => self.0.side_names[0],
                }
            }
            fn start_fen(&self) -> &'static str {
                self.0.start_fen
            }
            fn rules_text(&self) -> &'static str {
                self.0.rules_text
            }
            fn piece_label(&self, piece: $crate::piece::Piece) -> $crate::variant::PieceLabel {
                self.0.piece_label(piece)
            }
            fn parse_fen(
                &self,
                fen: &str,
            ) -> Result<$crate::position::Position, $crate::errors::FenError> {
                self.0.parse_fen(fen)
            }
            fn fen(&self, pos: &$crate::position::Position) -> String {
                self.0.fen(pos)
            }
            fn legal_moves(&self, pos: &$crate::position::Position) -> Vec<$crate::moves::Move> {
                self.0.legal_moves(pos)
            }
            fn play(
                &self,
                pos: &$crate::position::Position,
                mv: &$crate::moves::Move,
            ) -> $crate::position::Position {
                self.0.play(pos, mv)
            }
            fn perft(&self, pos: &$crate::position::Position, depth: u32) -> u64 {
                self.0
                    .fast_perft(pos, depth)
                    .unwrap_or_else(|| $crate::perft::by_moves(self, pos, depth))
            }
            fn outcome(
                &self,
                pos: &$crate::position::Position,
                legal: &[$crate::moves::Move],
            ) -> Option<$crate::variant::Outcome> {
                self.0.outcome(pos, legal)
            }
            fn in_check(&self, pos: &$crate::position::Position) -> bool {
                self.0.in_check(pos)
            }
            fn repetition_rule(&self) -> $crate::variant::RepetitionRule {
                $crate::variant::RepetitionRule::ThreefoldDraw
            }
            fn repetition_key(&self, pos: &$crate::position::Position) -> u64 {
                self.0.repetition_key(pos)
            }
            fn format_move(
                &self,
                pos: &$crate::position::Position,
                mv: &$crate::moves::Move,
                notation: $crate::variant::Notation,
            ) -> String {
                self.0.format_move(pos, mv, notation)
            }
            fn format_move_among(
                &self,
                pos: &$crate::position::Position,
                legal: &[$crate::moves::Move],
                mv: &$crate::moves::Move,
                notation: $crate::variant::Notation,
            ) -> String {
                self.0.format_move_among(pos, legal, mv, notation)
            }
            fn legal_displays(
                &self,
                pos: &$crate::position::Position,
                legal: &[$crate::moves::Move],
            ) -> Vec<String> {
                self.0.legal_displays(pos, legal)
            }
            fn parse_move(
                &self,
                pos: &$crate::position::Position,
                legal: &[$crate::moves::Move],
                text: &str,
            ) -> Result<$crate::moves::Move, $crate::errors::MoveError> {
                self.0.parse_move(pos, legal, text)
            }
        }
    };
}

pub(crate) use chess_like_variant;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::chess::Chess;

    /// What reading among the named moves rests on holds for chess: every
    /// form of every move but a castling names its destination, and a form
    /// reads the same whether the named moves are tried first or not.
    #[test]
    fn a_move_is_read_among_the_moves_to_the_squares_its_text_names() {
        let chess = Chess::new();
        let positions = notation::positions_to_read_in(
            &chess,
            &[
                "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "4k3/1P6/8/8/8/2N3N1/8/N1N1N1NK w - - 0 1",
                "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            ],
            30,
        );
        let v = &chess.0;
        let checked = notation::check_candidates_read_among_named(
            &chess,
            &positions,
            |pos, legal| v.candidates(pos, legal),
            notation::is_castling,
            |pos, legal, cands, text| {
                let explain = ChessExplain { v, pos, legal };
                notation::read_move(text, cands, &explain).map(|i| legal[i])
            },
        );
        assert!(checked > 10_000, "{checked}");
    }
}
