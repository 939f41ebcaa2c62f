//! Leaperhouse (Daphne Snowmoon, 2024): a 10x10 drop variant with only
//! leapers, shogi pawns and kings, played exactly as Fairy-Stockfish's
//! `leaperhouse` definition except for repetition (see the rulings).
//!
//! Representation:
//! - Kinds: see the constants below. The Guard (promoted pawn) is its own
//!   kind [`GUARD`] with `promoted = true`, written `+P` in the FEN; when
//!   captured it goes to the captor's hand as a Pawn.
//! - Moves: `MoveKind::Normal` (`piece` = the Guard for a promotion) and
//!   `MoveKind::Drop` (`piece` = the dropped piece). No special moves.
//! - Only leapers and one-step pieces exist, so nothing can be blocked or
//!   pinned: a drop never answers a check, a non-King move is legal exactly
//!   when it captures the only checker (or there is no check), and a King
//!   move is legal when its target is not attacked. Legality is decided
//!   without copy-make, which keeps perft fast.

use crate::errors::{FenError, MoveError};
use crate::fen;
use crate::geometry::{Geometry, Square};
use crate::movement::{PieceDef, PieceSet};
use crate::moves::{Move, MoveKind, NO_SQUARE};
use crate::notation::{self, Candidate, Explain};
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;
use crate::variant::{Notation, Outcome, PieceLabel, Reason, RepetitionRule, Variant};
use std::iter::Peekable;
use std::str::Chars;

pub(crate) const PAWN: Kind = 0;
pub(crate) const KNIGHT: Kind = 1;
pub(crate) const BULL: Kind = 2;
pub(crate) const CAMEL: Kind = 3;
pub(crate) const ZEBRA: Kind = 4;
pub(crate) const RAM: Kind = 5;
pub(crate) const GUARD: Kind = 6;
pub(crate) const KING: Kind = 7;

/// Kinds that can be held in hand and dropped.
const DROPPABLE: [Kind; 6] = [PAWN, KNIGHT, BULL, CAMEL, ZEBRA, RAM];
/// The order Fairy-Stockfish writes a pocket in (its piece types, highest
/// first: custom pieces 4..1, then the shogi pawn, then the knight).
const HAND_ORDER: [Kind; 6] = [BULL, RAM, CAMEL, ZEBRA, PAWN, KNIGHT];

const SIZE: u8 = 10;
/// First rank (0-based, relative to the owner) of the enemy camp: ranks 8-10.
const CAMP_START: u8 = 7;
/// The far rank (0-based, relative): a King arriving there wins.
const FAR_RANK: u8 = SIZE - 1;

pub(crate) const START: &str =
    "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECNU[] w - - 0 1";

const RULES: &str = "Leaperhouse is a drop variant by Daphne Snowmoon on a 10x10 board. Apart from the Kings and the Pawns, every piece is a leaper: it jumps straight to its target square, whatever stands between.

Start position: White's Bull, Knight, Camel, Elephant, King, Ram, Elephant, Camel, Knight, Bull stand on a1 to j1 and ten Pawns on rank 3; Black's army faces them turned half around (the board rotated), so Black's Ram is on e10 and King on f10, with Black's Pawns on rank 8 (FEN unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECNU[] w - - 0 1). White moves first.

Pieces. King (K): one square in any direction. Pawn (P): one square straight forward, and it captures the same way (a shogi pawn; no double step, no en passant). Guard (+P, a promoted Pawn): one square in any direction, like a King, but it is not royal. Knight (N): the usual (1,2) leap. Bull (U): leaps two squares orthogonally or two squares diagonally, that is (2,0) or (2,2). Camel (C): the (3,1) leap. Elephant (E): the (3,2) leap (a zebra). Ram (A): leaps three squares orthogonally or three squares diagonally, that is (3,0) or (3,3).

Check and checkmate. A King may never be left attacked. Checkmating the opposing King wins. Checking or mating by a drop is allowed, with a Pawn drop too.

Promotion. The enemy camp is ranks 8 to 10 for White and ranks 3 to 1 for Black. Only Pawns promote: a Pawn that moves into the camp, or moves within it, becomes a Guard at once; this is compulsory. A Pawn dropped into the camp stays a Pawn until it moves.

Drops. A piece you capture goes to your hand, in its unpromoted form (a captured Guard becomes a Pawn). On your turn you either move a piece or drop one piece from your hand on any empty square; dropped pieces are never promoted. A Pawn may not be dropped on your last rank (rank 10 for White, rank 1 for Black), nor on a file where you already have an unpromoted Pawn (a Guard does not count).

End of the game. You win by checkmate; by campmate, when your King reaches the far rank (rank 10 for White, rank 1 for Black), which it can only do onto a square that is not attacked; and when your opponent has no legal move or drop at all (stalemate loses). There is no castling and no 50-move rule. A player may resign on their own turn.

Repetition. A move or drop that would make the same position (board, pieces in hand and side to move) occur for the third time is not allowed. The one exception: if every move of your opponent since the first of those occurrences gave check, you may repeat; the checking side may not, so repeated checks cannot win or draw. A player left with no legal move because of this rule has lost by stalemate.

How Missive settles the rule page. The page's own text has slips from an earlier 9x9 draft; Missive follows the inventor's Fairy-Stockfish definition printed with the page: the board is 10x10, the camp is three ranks deep (ranks 8-10, not 7-9), and the last rank is rank 10. The page's line describing the King as moving forward and promoting to a Queen is a copying slip: the King is a normal King. The Guard moves one square in any direction (the page's \"orthogonally\" is superseded). Unlike Fairy-Stockfish, which scores repetitions, Missive forbids the repeating move as described above.

Notation. Records use coordinates as Fairy-Stockfish writes them: b1c3, a drop C@e5 (the piece letter is upper case for both sides), a promotion e7e8+. The move list shows a short algebraic form: Nc3, Nxc3, C@e5, e8+ for a promotion, Ge5 for a Guard, # after a checkmating move (checks are not marked, since + means promotion). Game Courier forms are accepted and written: N b1-c3, C*e5, P e7-e8 (promotes automatically; P e7-e8; +P*e8 is also accepted), +P e5-e6 for a Guard. Positions are exchanged in Fairy-Stockfish's FEN: pieces in hand in brackets after the board, a Guard written +P.";

/// Where [`Leaperhouse::generate`] puts the moves it finds.
pub(crate) trait MoveSink {
    fn push(&mut self, m: Move);
    /// A drop of `piece` on each of `squares`.
    fn drops(&mut self, piece: Piece, squares: &[Square]);
}

impl MoveSink for Vec<Move> {
    fn push(&mut self, m: Move) {
        Vec::push(self, m);
    }
    fn drops(&mut self, piece: Piece, squares: &[Square]) {
        self.extend(squares.iter().map(|&to| Move::drop(piece, to)));
    }
}

/// Counts moves without making them (perft's last ply).
struct Count(u64);

impl MoveSink for Count {
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
    fn drops(&mut self, _: Piece, squares: &[Square]) {
        self.0 += squares.len() as u64;
    }
}

pub(crate) struct Leaperhouse {
    geometry: Geometry,
    pieces: PieceSet,
    /// The longest leap component of any piece: no piece attacks a square
    /// farther than this along either axis.
    reach: u8,
}

impl Leaperhouse {
    pub(crate) fn new() -> Leaperhouse {
        let pieces = PieceSet::new(vec![
            PieceDef::new('P', "Pawn", "fW"),
            PieceDef::new('N', "Knight", "N"),
            PieceDef::new('U', "Bull", "AD"),
            PieceDef::new('C', "Camel", "C"),
            PieceDef::new('E', "Elephant", "Z"),
            PieceDef::new('A', "Ram", "GH"),
            PieceDef::new('G', "Guard", "K"),
            PieceDef::new('K', "King", "K").royal(),
        ]);
        let reach = pieces
            .defs
            .iter()
            .flat_map(|d| &d.atoms)
            .map(|a| a.dx.unsigned_abs().max(a.dy.unsigned_abs()))
            .max()
            .unwrap_or(0);
        Leaperhouse {
            geometry: Geometry::rect(SIZE, SIZE),
            pieces,
            reach,
        }
    }

    /// Whether a piece of `by` stands within `reach + 1` of `king` along both
    /// axes: if none does, nothing of `by` attacks the King or a square it
    /// could step to, and the attack tests can be skipped.
    fn near_king(&self, pos: &Position, king: Square, by: Color) -> bool {
        let d = self.reach as i16 + 1;
        let (f, r) = (king.file() as i16, king.rank() as i16);
        for rank in (r - d).max(0)..=(r + d).min(SIZE as i16 - 1) {
            for file in (f - d).max(0)..=(f + d).min(SIZE as i16 - 1) {
                if matches!(pos.get(Square::new(file as u8, rank as u8)), Some(p) if p.color == by)
                {
                    return true;
                }
            }
        }
        false
    }

    fn letter(&self, kind: Kind) -> char {
        self.pieces.def(kind).letter
    }

    fn name(&self, kind: Kind) -> &'static str {
        self.pieces.def(kind).name
    }

    /// Whether `sq` lies in the camp `color` promotes in.
    fn in_camp(pos: &Position, sq: Square, color: Color) -> bool {
        pos.relative_rank(sq, color) >= CAMP_START
    }

    /// The side that just moved has its King on its far rank: it has won
    /// by campmate and the side to move has no moves (Fairy-Stockfish's
    /// flag rule, which only looks at the side that just moved).
    fn campmate_reached(pos: &Position) -> bool {
        let mover = pos.side.opponent();
        matches!(pos.royal[mover.index()], Some(k) if pos.relative_rank(k, mover) == FAR_RANK)
    }

    fn attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        self.pieces.attacked(pos, sq, by)
    }

    /// Up to two pieces checking the side to move's King, and how many there are.
    fn checkers(&self, pos: &Position) -> ([Square; 2], usize) {
        let mut found = [NO_SQUARE; 2];
        let mut n = 0;
        if let Some(king) = pos.royal[pos.side.index()] {
            self.pieces
                .attackers_of(pos, king, pos.side.opponent(), |s| {
                    if n < 2 {
                        found[n] = s;
                    }
                    n += 1;
                    // Keep scanning: every attacker is wanted.
                    false
                });
        }
        (found, n)
    }

    /// Files (bit per file) holding an unpromoted Pawn of `color`.
    fn pawn_files(pos: &Position, color: Color) -> u16 {
        pos.pieces()
            .filter(|(_, p)| p.color == color && p.kind == PAWN)
            .fold(0, |acc, (s, _)| acc | 1 << s.file())
    }

    /// Whether `color` may drop a piece of `kind` on the empty square `to`
    /// by the drop restrictions (Pawns: not on the last rank, not on a
    /// file with an own unpromoted Pawn). Check is handled by the caller.
    fn drop_allowed(pos: &Position, kind: Kind, to: Square, color: Color, pawn_files: u16) -> bool {
        kind != PAWN
            || (pos.relative_rank(to, color) != FAR_RANK && pawn_files >> to.file() & 1 == 0)
    }

    /// All legal moves (repetition aside), given to `out`.
    pub(crate) fn generate(&self, pos: &Position, out: &mut impl MoveSink) {
        if Self::campmate_reached(pos) {
            return;
        }
        let us = pos.side;
        let them = us.opponent();
        let Some(king) = pos.royal[us.index()] else {
            return;
        };
        let threatened = self.near_king(pos, king, them);
        let (checkers, n_checks) = if threatened {
            self.checkers(pos)
        } else {
            ([NO_SQUARE; 2], 0)
        };

        // King: any target not attacked. Nothing can be blocked or
        // unblocked by the King leaving its square, so the board as it is
        // answers the question.
        self.pieces
            .targets(pos, king, Piece::new(KING, us), |to, _| {
                if !threatened || !self.attacked(pos, to, them) {
                    out.push(Move::normal(king, to));
                }
            });
        if n_checks >= 2 {
            return;
        }
        // In check by one piece: only capturing it helps (no blocking a leaper).
        let must_take = (n_checks == 1).then_some(checkers[0]);
        for (from, piece) in pos.pieces() {
            if piece.color != us || piece.kind == KING {
                continue;
            }
            self.pieces.targets(pos, from, piece, |to, _| {
                if must_take.is_some_and(|t| t != to) {
                    return;
                }
                if piece.kind == PAWN && Self::in_camp(pos, to, us) {
                    out.push(Move::promotion(from, to, Piece::promoted(GUARD, us)));
                } else {
                    out.push(Move::normal(from, to));
                }
            });
        }
        if n_checks > 0 || pos.hand_is_empty(us) {
            return;
        }
        let pawn_files = Self::pawn_files(pos, us);
        let mut empty = [NO_SQUARE; (SIZE * SIZE) as usize];
        let mut n_empty = 0;
        for s in pos.squares().filter(|&s| pos.get(s).is_none()) {
            empty[n_empty] = s;
            n_empty += 1;
        }
        let empty = &empty[..n_empty];
        for kind in DROPPABLE {
            if pos.hand(us, kind) == 0 {
                continue;
            }
            if kind == PAWN {
                for &to in empty {
                    if Self::drop_allowed(pos, kind, to, us, pawn_files) {
                        out.push(Move::drop(Piece::new(kind, us), to));
                    }
                }
            } else {
                out.drops(Piece::new(kind, us), empty);
            }
        }
    }

    fn do_play(&self, pos: &Position, m: &Move) -> Position {
        let mut next = pos.clone();
        let us = pos.side;
        let mut capture = false;
        if m.kind == MoveKind::Drop {
            let p = m.piece.expect("a drop names its piece");
            next.remove_from_hand(us, p.kind);
            next.set(m.to, Some(p));
        } else {
            let moving = next.take(m.from).expect("a piece on the origin");
            if let Some(victim) = next.get(m.to) {
                capture = true;
                // Captured pieces change sides unpromoted: a Guard is a Pawn again.
                let kind = if victim.kind == GUARD {
                    PAWN
                } else {
                    victim.kind
                };
                next.add_to_hand(us, kind);
            }
            next.set(m.to, Some(m.piece.unwrap_or(moving)));
            if moving.kind == KING {
                next.royal[us.index()] = Some(m.to);
            }
        }
        // As Fairy-Stockfish counts: plies since the last capture (a shogi
        // pawn's move does not reset the counter).
        next.halfmove = if capture {
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

    fn in_check_now(&self, pos: &Position) -> bool {
        match pos.royal[pos.side.index()] {
            Some(k) => self.attacked(pos, k, pos.side.opponent()),
            None => false,
        }
    }

    // ---- FEN ----

    /// Board letters: every piece but the Guard, which is written `+P`.
    fn board_kind(&self, c: char) -> Option<Kind> {
        self.pieces.kind_of_letter(c).filter(|&k| k != GUARD)
    }

    fn hand_kind(&self, c: char) -> Option<Kind> {
        self.pieces
            .kind_of_letter(c)
            .filter(|k| DROPPABLE.contains(k))
    }

    fn read_fen(&self, text: &str) -> Result<Position, FenError> {
        let (board, rest) = fen::fields(text)?;
        let letters = fen::letter_reader(|c| self.board_kind(c), true);
        let reader = |chars: &mut Peekable<Chars<'_>>| -> Result<Piece, FenError> {
            let p = letters(chars)?;
            match (p.promoted, p.kind) {
                (false, _) => Ok(p),
                (true, PAWN) => Ok(Piece::promoted(GUARD, p.color)),
                (true, k) => Err(FenError::Syntax(format!(
                    "only a Pawn can be promoted (“+{}”)",
                    self.letter(k)
                ))),
            }
        };
        let (mut pos, hand) = fen::parse_board(&self.geometry, board, &reader)?;
        if let Some(h) = hand {
            fen::parse_hand(&mut pos, h, |c| self.hand_kind(c))?;
        }
        pos.side = fen::parse_side(rest.first())?;
        for (i, what) in [(1, "castling field"), (2, "en passant field")] {
            if let Some(f) = rest.get(i) {
                if *f != "-" {
                    return Err(FenError::Syntax(format!(
                        "the {what} must be “-” (Leaperhouse has neither), not “{f}”"
                    )));
                }
            }
        }
        pos.halfmove = fen::parse_counter(rest.get(3), 0, "halfmove clock")?;
        pos.fullmove = fen::parse_counter(rest.get(4), 1, "move number")?.max(1);
        if rest.len() > 5 {
            return Err(FenError::Syntax(format!(
                "unexpected text “{}” after the move number",
                rest[5..].join(" ")
            )));
        }
        self.validate(&mut pos)?;
        Ok(pos)
    }

    /// Kings (one each, recorded as royal), no stranded Pawn, and the side
    /// that just moved not in check.
    fn validate(&self, pos: &mut Position) -> Result<(), FenError> {
        for color in [Color::White, Color::Black] {
            let kings: Vec<Square> = pos
                .pieces()
                .filter(|(_, p)| p.kind == KING && p.color == color)
                .map(|(s, _)| s)
                .collect();
            if kings.len() != 1 {
                return Err(FenError::Invalid(format!(
                    "{color} must have exactly one King, not {}",
                    kings.len()
                )));
            }
            pos.royal[color.index()] = Some(kings[0]);
        }
        for (sq, p) in pos.pieces() {
            if p.kind == PAWN && pos.relative_rank(sq, p.color) == FAR_RANK {
                return Err(FenError::Invalid(format!(
                    "an unpromoted Pawn cannot stand on its last rank ({sq})"
                )));
            }
        }
        let mover = pos.side.opponent();
        let king = pos.royal[mover.index()].expect("set above");
        if self.attacked(pos, king, pos.side) {
            return Err(FenError::Invalid(
                "the side that is not to move is in check".into(),
            ));
        }
        Ok(())
    }

    fn write_fen(&self, pos: &Position) -> String {
        let board = fen::write_board(pos, |p| self.piece_label(p).letter);
        let hand = fen::write_hand(pos, &HAND_ORDER, |k| self.letter(k));
        let side = if pos.side == Color::White { "w" } else { "b" };
        format!(
            "{board}[{hand}] {side} - - {} {}",
            pos.halfmove, pos.fullmove
        )
    }

    // ---- notation ----

    fn coordinate(&self, m: &Move) -> String {
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

    fn game_courier(&self, pos: &Position, m: &Move) -> String {
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

    fn display(&self, pos: &Position, m: &Move) -> String {
        let mut legal = Vec::new();
        self.generate(pos, &mut legal);
        self.display_among(pos, &legal, m)
    }

    /// The display form of `m` given the legal moves of `pos`.
    fn display_among(&self, pos: &Position, legal: &[Move], m: &Move) -> String {
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

    /// A drop written in any form (`C@e5`, `c*e5`): its kind and square.
    fn read_drop(&self, text: &str) -> Option<(Kind, Square)> {
        let first = text.split(';').next()?.trim();
        let (label, sq) = first.split_once('@').or_else(|| first.split_once('*'))?;
        let mut cs = label.trim().chars();
        let c = cs.next()?;
        if cs.next().is_some() {
            return None;
        }
        Some((
            self.pieces.kind_of_letter(c)?,
            self.geometry.parse_square(sq.trim())?,
        ))
    }

    /// Why `pos.side` may not drop `kind` on `to`, if it may not.
    fn drop_problem(&self, pos: &Position, kind: Kind, to: Square) -> Option<String> {
        let name = self.name(kind);
        let us = pos.side;
        if !DROPPABLE.contains(&kind) {
            return Some(format!("a {name} is never held in hand."));
        }
        if pos.hand(us, kind) == 0 {
            return Some(format!("you have no {name} in hand."));
        }
        if pos.get(to).is_some() {
            return Some(format!(
                "{to} is not empty; pieces are dropped on empty squares."
            ));
        }
        if kind == PAWN && pos.relative_rank(to, us) == FAR_RANK {
            return Some("a Pawn may not be dropped on your last rank.".into());
        }
        if kind == PAWN && Self::pawn_files(pos, us) >> to.file() & 1 == 1 {
            return Some(format!(
                "you already have an unpromoted Pawn on the {}-file (no two Pawns on a file).",
                (b'a' + to.file()) as char
            ));
        }
        if self.checkers(pos).1 > 0 {
            return Some("your King is in check, and a dropped piece cannot block a leaper's check: move the King or capture the checking piece.".into());
        }
        None
    }

    fn read_move(&self, pos: &Position, legal: &[Move], text: &str) -> Result<Move, MoveError> {
        let normalized = guard_letters(text);
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

impl Default for Leaperhouse {
    fn default() -> Self {
        Leaperhouse::new()
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

struct LeaperExplain<'a> {
    v: &'a Leaperhouse,
    pos: &'a Position,
}

impl Explain for LeaperExplain<'_> {
    fn piece_on(&self, sq: Square) -> Option<(bool, String)> {
        if !self.on_board(sq) {
            return None;
        }
        let p = self.pos.get(sq)?;
        Some((p.color == self.pos.side, self.v.name(p.kind).to_string()))
    }
    fn on_board(&self, sq: Square) -> bool {
        self.v.geometry.contains(sq)
    }
    fn piece_name(&self, letter: char) -> String {
        self.v
            .pieces
            .kind_of_letter(letter)
            .map(|k| self.v.name(k).to_string())
            .unwrap_or_else(|| format!("“{letter}”"))
    }
    fn why_not(&self, from: Option<Square>, to: Option<Square>) -> Option<String> {
        let (v, pos) = (self.v, self.pos);
        let (checkers, n) = v.checkers(pos);
        let check_text = || {
            if n >= 2 {
                "your King is in double check, so only a King move can help.".to_string()
            } else {
                format!("your King is in check from {}, and a leaper's check cannot be blocked: move the King or capture that piece.", checkers[0])
            }
        };
        let Some(from) = from else {
            return (n > 0).then(check_text);
        };
        let to = to?;
        let piece = pos.get(from).filter(|p| p.color == pos.side)?;
        let mut reaches = false;
        v.pieces
            .targets(pos, from, piece, |t, _| reaches |= t == to);
        if !reaches {
            return None;
        }
        if piece.kind == KING {
            return Some(format!("the King may not move to {to}, which is attacked."));
        }
        (n > 0).then(check_text)
    }
}

impl Variant for Leaperhouse {
    fn id(&self) -> &'static str {
        "leaperhouse"
    }
    fn name(&self) -> &'static str {
        "Leaperhouse"
    }
    fn geometry(&self) -> &Geometry {
        &self.geometry
    }
    fn start_fen(&self) -> &'static str {
        START
    }
    fn rules_text(&self) -> &'static str {
        RULES
    }
    fn piece_label(&self, piece: Piece) -> PieceLabel {
        let letter = if piece.kind == GUARD {
            "+P".to_string()
        } else {
            self.letter(piece.kind).to_string()
        };
        let letter = if piece.color == Color::Black {
            letter.to_ascii_lowercase()
        } else {
            letter
        };
        PieceLabel {
            symbol: String::new(),
            letter,
            name: self.name(piece.kind).to_string(),
            direction: None,
        }
    }
    fn parse_fen(&self, fen: &str) -> Result<Position, FenError> {
        self.read_fen(fen)
    }
    fn fen(&self, pos: &Position) -> String {
        self.write_fen(pos)
    }
    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        let mut out = Vec::with_capacity(128);
        self.generate(pos, &mut out);
        out
    }
    fn perft(&self, pos: &Position, depth: u32) -> u64 {
        if depth == 1 {
            // The last ply is counted as generated, drops by the square.
            let mut n = Count(0);
            self.generate(pos, &mut n);
            return n.0;
        }
        crate::perft::by_moves(self, pos, depth)
    }
    fn play(&self, pos: &Position, mv: &Move) -> Position {
        self.do_play(pos, mv)
    }
    fn outcome(&self, pos: &Position, legal: &[Move]) -> Option<Outcome> {
        let us = pos.side;
        if Self::campmate_reached(pos) {
            return Some(Outcome::win(us.opponent(), Reason::Campmate));
        }
        if !legal.is_empty() {
            return None;
        }
        // No move left: the side to move loses. When moves exist but the
        // repetition rule forbids them all, the rulings call it stalemate.
        let reason = if self.in_check_now(pos) && self.legal_moves(pos).is_empty() {
            Reason::Checkmate
        } else {
            Reason::Stalemate
        };
        Some(Outcome::win(us.opponent(), reason))
    }
    fn in_check(&self, pos: &Position) -> bool {
        self.in_check_now(pos)
    }
    fn repetition_rule(&self) -> RepetitionRule {
        RepetitionRule::ThirdIllegalUnlessChecked
    }
    fn format_move(&self, pos: &Position, mv: &Move, notation: Notation) -> String {
        match notation {
            Notation::Coordinate => self.coordinate(mv),
            Notation::GameCourier => self.game_courier(pos, mv),
            Notation::Display => self.display(pos, mv),
        }
    }
    fn legal_displays(&self, pos: &Position, legal: &[Move]) -> Vec<String> {
        legal
            .iter()
            .map(|m| self.display_among(pos, legal, m))
            .collect()
    }
    fn parse_move(&self, pos: &Position, legal: &[Move], text: &str) -> Result<Move, MoveError> {
        self.read_move(pos, legal, text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_order_is_fairy_stockfish_order() {
        let v = Leaperhouse::new();
        let fen = "u5kc1u/n1Ea6/5pp2e/Cp1c6/2C7/1a5e1P/10/2P5P1/7N2/1u5K+p1[PPPPPPNuepppppppn] w - - 0 63";
        let pos = v.parse_fen(fen).unwrap();
        assert_eq!(v.fen(&pos), fen);
    }

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
