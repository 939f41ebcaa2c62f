//! Fleap (Gavin King, 2003): two-faced tokens, an Equihopper-type piece
//! face up and a FIDE piece on the back; captured face-up tokens come back
//! flipped; Ballistas fire Nukes that leave craters. There is no check: a
//! side wins by capturing or destroying an enemy King.
//!
//! The original setup diagram is lost; the board and array are the
//! product's reconstruction (see `rulings.md`, "Fleap").
//!
//! # Pieces (kinds)
//! Face-up token faces `E S A T F` (Equihopper, Non-stop Equihopper,
//! Ballista, EquiRepeater, Fore'n'aft) flip to `P N B R K`: kind `k < 5`
//! flips to `k + 5`. `Piece::promoted` marks a piece a Pawn promoted to; such
//! pieces never flip or return. `Piece::state` is unused.
//!
//! # Position fields
//! `counters[c]`: the Nukes side `c` holds. `hands[c][k]`: tokens of side
//! `c` (always FIDE faces) waiting to be placed. `castling` is reused as the
//! game-decided flags: [`WHITE_WON`], [`BLACK_WON`] (a King was taken).
//!
//! # Moves
//! - `Normal`: `from` → `to` (capturing there), `piece` = promotion result.
//! - `Special` with `tag == RIFLE`: the Ballista on `from` captures on `to`
//!   without moving.
//! - `Special` with `tag == NUKE`: the Ballista on `from` fires a Nuke at `to`.
//!
//! In every kind, `extra[0]` is the square where the captured face-up
//! token is placed ([`NO_SQUARE`] when nothing returns or it must wait),
//! and `path` lists the squares where the mover's waiting tokens are placed
//! before the move, in kind order (Pawn, Knight, Bishop, Rook, King).
//!
//! # FEN
//! `*tsfat*/eeeeeee/7/*5*/7/EEEEEEE/*TSFAT*[] w 1/1 0 1`: letters `E S A T F`
//! (face up) and `P N B R K` (backs), upper case White; `+` before a letter
//! marks a promoted piece (`+A`); `*` a missing square or a crater; waiting
//! tokens in `[...]` (backs only); then side to move, Nukes held as
//! `White/Black`, halfmove clock, move number, and `1-0` / `0-1` once a
//! King has been taken.
//!
//! # Notation
//! - Coordinate (canonical, records and `perft --divide`): `b1b4`,
//!   promotion `c5c6a`, rifle `e1xc3`, Nuke `e1xxc4`, return placement
//!   after the move `e3c3>b2`, waiting placements before it `R@f1,b1b4`.
//! - Display (the page's algebraic): SAN (`Tb4`, `Axc3` for a rifle,
//!   `c6=A`); with placements, the page's `P>b2,e3xc3` (placements, then
//!   the move in long form); Nukes `Bxxc4,xc3,b4,c4,d5` (destroyed squares
//!   in board order; any order is read; a wrong list is refused).
//! - Game Courier: `T b1-b4`, `P c5-c6; +A*c6`, placements as drops
//!   (`R*f1; T b1-b4`, `T e3-c3; p*b6`), rifle `A e1-c3; A c3-e1`, Nuke
//!   `A e1-c4; A c4-e1; *c4`.
//!
//! # Perft conventions
//! Every distinct placement choice is a distinct move; an EquiRepeater or
//! Fore'n'aft destination reachable in several ways is one move; a rifle
//! capture and a Nuke on the same square are two moves; each promotion
//! choice is a move; a position where a King has been taken has no moves.

use crate::errors::{FenError, MoveError};
use crate::fen;
use crate::geometry::{Geometry, Square};
use crate::movement::equihop::{equihops, line_clear, mirror_hops};
use crate::movement::{PieceDef, PieceSet};
use crate::moves::{Move, MoveKind, Path, NO_SQUARE};
use crate::notation::{self, Candidate, Explain};
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;
use crate::variant::{Notation, Outcome, PieceLabel, Reason, RepetitionRule, Variant};

pub const EQUIHOPPER: Kind = 0;
pub const NONSTOP: Kind = 1;
pub const BALLISTA: Kind = 2;
pub const REPEATER: Kind = 3;
pub const FORENAFT: Kind = 4;
pub const PAWN: Kind = 5;
pub const KNIGHT: Kind = 6;
pub const BISHOP: Kind = 7;
pub const ROOK: Kind = 8;
pub const KING: Kind = 9;
const KINDS: usize = 10;

/// FEN letters by kind (upper case; Black's are lower case).
pub const LETTERS: [char; KINDS] = ['E', 'S', 'A', 'T', 'F', 'P', 'N', 'B', 'R', 'K'];
const NAMES: [&str; KINDS] = [
    "Equihopper",
    "Non-stop Equihopper",
    "Ballista",
    "EquiRepeater",
    "Fore'n'aft",
    "Pawn",
    "Knight",
    "Bishop",
    "Rook",
    "King",
];
/// What a Pawn may become, in the order shown.
pub const PROMOTIONS: [Kind; 9] = [
    EQUIHOPPER, NONSTOP, BALLISTA, REPEATER, FORENAFT, KNIGHT, BISHOP, ROOK, KING,
];
/// Waiting tokens are placed in this order.
const HAND_ORDER: [Kind; 5] = [PAWN, KNIGHT, BISHOP, ROOK, KING];

pub const RIFLE: u8 = 1;
pub const NUKE: u8 = 2;
/// `Position::castling` bits: the game is decided by a taken King.
pub const WHITE_WON: u8 = 1;
pub const BLACK_WON: u8 = 2;

pub const START: &str = "*tsfat*/eeeeeee/7/*5*/7/EEEEEEE/*TSFAT*[] w 1/1 0 1";
const HOLES: [&str; 6] = ["a1", "g1", "a4", "g4", "a7", "g7"];
/// Relative rank (from the owner's side) of the opponent's pawn row.
const PROMOTION_RANK: u8 = 5;

const RULES: &str = include_str!("fleap_rules.txt");

pub struct Fleap {
    geometry: Geometry,
    /// Movement of the FIDE faces and the Ballista's quiet move, as data.
    pieces: PieceSet,
}

impl Default for Fleap {
    fn default() -> Self {
        Fleap::new()
    }
}

/// The face a captured face-up token shows when it returns.
#[inline]
pub fn flipped(kind: Kind) -> Kind {
    kind + 5
}

#[inline]
fn is_face_up(p: Piece) -> bool {
    !p.promoted && p.kind < PAWN
}

fn sq(file: u8, rank: u8) -> Square {
    Square::new(file, rank)
}

/// Home squares of a token by its FIDE face: where tokens of its type stand
/// in the standard start position.
pub fn homes(face: Kind, color: Color) -> Vec<Square> {
    let (first, pawn_row) = if color == Color::Black {
        (6, 5)
    } else {
        (0, 1)
    };
    match face {
        PAWN => (0..7).map(|f| sq(f, pawn_row)).collect(),
        KNIGHT => vec![sq(2, first)],
        BISHOP => vec![sq(4, first)],
        ROOK => vec![sq(1, first), sq(5, first)],
        KING => vec![sq(3, first)],
        _ => Vec::new(),
    }
}

/// Where a returned token of `face` and `color` may be placed, with `free`
/// saying which squares are empty: an empty home square of its type; when
/// none is, any empty square of its owner's first two rows; none at all
/// means the token waits in hand.
fn placements(face: Kind, color: Color, free: impl Fn(Square) -> bool) -> Vec<Square> {
    let home: Vec<Square> = homes(face, color)
        .into_iter()
        .filter(|&s| free(s))
        .collect();
    if !home.is_empty() {
        return home;
    }
    let rows: [u8; 2] = if color == Color::Black {
        [6, 5]
    } else {
        [0, 1]
    };
    rows.iter()
        .flat_map(|&r| (0..7).map(move |f| sq(f, r)))
        .filter(|&s| free(s))
        .collect()
}

/// Every `r`-element subset of `items`, in order.
fn combinations(items: &[Square], r: usize) -> Vec<Vec<Square>> {
    if r == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        if items.len() - i < r {
            break;
        }
        for mut rest in combinations(&items[i + 1..], r - 1) {
            rest.insert(0, items[i]);
            out.push(rest);
        }
    }
    out
}

/// Squares a Nuke on `target` clears: the target and its eight neighbours,
/// those holding a piece, in board order (rank 1 first, files left to right).
pub fn nuke_victims(pos: &Position, target: Square) -> Vec<Square> {
    let mut out = Vec::with_capacity(9);
    for dy in -1..=1 {
        for dx in -1..=1 {
            if let Some(s) = pos.step(target, dx, dy) {
                if pos.get(s).is_some() {
                    out.push(s);
                }
            }
        }
    }
    out
}

impl Fleap {
    pub fn new() -> Fleap {
        let defs = (0..KINDS)
            .map(|k| {
                let betza = match k as Kind {
                    BALLISTA => "mQ2",
                    PAWN => "mfWcfF",
                    KNIGHT => "N",
                    BISHOP => "B",
                    ROOK => "R",
                    KING => "K",
                    _ => "",
                };
                PieceDef::new(LETTERS[k], NAMES[k], betza)
            })
            .collect();
        Fleap {
            geometry: Geometry::with_holes(7, 7, &HOLES),
            pieces: PieceSet::new(defs),
        }
    }

    // ---- movement ----

    /// Board destinations of the piece on `from` (no placements, no Nukes):
    /// `f(to, kind)` with kind `MoveKind::Normal` or a rifle capture (tag).
    fn destinations(
        &self,
        pos: &Position,
        from: Square,
        piece: Piece,
        f: &mut impl FnMut(Square, u8),
    ) {
        let us = piece.color;
        let open = |t: Square| match pos.get(t) {
            None => true,
            Some(p) => p.color != us,
        };
        match piece.kind {
            EQUIHOPPER | NONSTOP => {
                equihops(pos, from, piece.kind == NONSTOP, |_, _, land| {
                    if open(land) {
                        f(land, 0)
                    }
                });
            }
            BALLISTA => {
                self.pieces.targets(pos, from, piece, |to, _| f(to, 0));
                equihops(pos, from, false, |_, _, land| {
                    if matches!(pos.get(land), Some(p) if p.color != us) {
                        f(land, RIFLE)
                    }
                });
            }
            REPEATER => {
                let mut seen: [Option<Square>; 64] = [None; 64];
                let mut n = 0;
                let mut add = |t: Square| {
                    if !seen[..n].contains(&Some(t)) && n < seen.len() {
                        seen[n] = Some(t);
                        n += 1;
                    }
                };
                equihops(pos, from, false, |(dx, dy), _, land| {
                    if pos.get(land).is_none() {
                        add(land);
                        if let Some(next) = pos.step(land, dx, dy) {
                            if open(next) && line_clear(pos, land, dx, dy) {
                                add(next);
                            }
                        }
                    } else if open(land) {
                        add(land);
                    }
                });
                for t in seen[..n].iter().flatten() {
                    f(*t, 0);
                }
            }
            FORENAFT => {
                let mut seen: [Option<Square>; 96] = [None; 96];
                let mut n = 0;
                let mut add = |t: Square| {
                    if open(t) && !seen[..n].contains(&Some(t)) && n < seen.len() {
                        seen[n] = Some(t);
                        n += 1;
                    }
                };
                equihops(pos, from, false, |_, _, land| add(land));
                mirror_hops(pos, from, false, |_, _, mirror| add(mirror));
                for t in seen[..n].iter().flatten() {
                    f(*t, 0);
                }
            }
            _ => self.pieces.targets(pos, from, piece, |to, _| f(to, 0)),
        }
    }

    /// Squares a Ballista on `from` may fire a Nuke at: all its Equihopper
    /// landing squares, whatever stands there.
    fn nuke_targets(&self, pos: &Position, from: Square, mut f: impl FnMut(Square)) {
        equihops(pos, from, false, |_, _, land| f(land));
    }

    /// Every way the side to move may place its waiting tokens before its
    /// move: the position after placing, and the placement squares. Every
    /// token that can be placed is placed, kind by kind (Pawn, Knight,
    /// Bishop, Rook, King); tokens of one kind are alike, so each set of
    /// squares counts once.
    fn waiting_placements(&self, pos: &Position) -> Vec<(Position, Path)> {
        let mut states = vec![(pos.clone(), Path::default())];
        let us = pos.side;
        for &k in &HAND_ORDER {
            let count = pos.hand(us, k) as usize;
            if count == 0 {
                continue;
            }
            let mut next_states = Vec::new();
            for (p, path) in states {
                for squares in Fleap::placement_sets(&p, k, count) {
                    let mut q = p.clone();
                    let mut qp = path;
                    for &s in &squares {
                        q.set(s, Some(Piece::new(k, us)));
                        q.remove_from_hand(us, k);
                        qp.push(s);
                    }
                    next_states.push((q, qp));
                }
            }
            states = next_states;
        }
        states
    }

    /// The sets of squares where `count` alike waiting tokens of `face` are
    /// placed one after another: empty home squares first; once those are
    /// full, empty squares of the first two rows; tokens left over wait.
    fn placement_sets(pos: &Position, face: Kind, count: usize) -> Vec<Vec<Square>> {
        let us = pos.side;
        let home: Vec<Square> = homes(face, us)
            .into_iter()
            .filter(|&s| pos.is_empty_square(s))
            .collect();
        if count <= home.len() {
            return combinations(&home, count);
        }
        let rest: Vec<Square> =
            placements(face, us, |s| pos.is_empty_square(s) && !home.contains(&s));
        let more = (count - home.len()).min(rest.len());
        combinations(&rest, more)
            .into_iter()
            .map(|c| home.iter().copied().chain(c).collect())
            .collect()
    }

    /// Moves of the side to move on `pos` (after any waiting placements,
    /// which `path` records).
    fn board_moves(&self, pos: &Position, path: Path, out: &mut Vec<Move>) {
        let us = pos.side;
        for (from, piece) in pos.pieces() {
            if piece.color != us {
                continue;
            }
            self.destinations(pos, from, piece, &mut |to, tag| {
                let mut m = Move::normal(from, to);
                m.path = path;
                if tag == RIFLE {
                    m.kind = MoveKind::Special;
                    m.tag = RIFLE;
                }
                let promotes = piece.kind == PAWN
                    && !piece.promoted
                    && pos.relative_rank(to, us) == PROMOTION_RANK;
                if promotes {
                    for &k in &PROMOTIONS {
                        let mut pm = m;
                        pm.piece = Some(Piece::promoted(k, us));
                        self.push_with_return(pos, pm, out);
                    }
                } else {
                    self.push_with_return(pos, m, out);
                }
            });
            if piece.kind == BALLISTA && pos.counters[us.index()] > 0 {
                self.nuke_targets(pos, from, |t| {
                    let mut m = Move::normal(from, t).with_kind(MoveKind::Special);
                    m.tag = NUKE;
                    m.path = path;
                    out.push(m);
                });
            }
        }
    }

    /// Push `m`, once per square where the captured face-up token may be
    /// placed (judged after the capture), or once if nothing returns or it
    /// must wait.
    fn push_with_return(&self, pos: &Position, m: Move, out: &mut Vec<Move>) {
        let victim = match pos.get(m.to) {
            Some(v) if is_face_up(v) => v,
            _ => {
                out.push(m);
                return;
            }
        };
        let rifle = m.kind == MoveKind::Special;
        let free = |s: Square| {
            if s == m.to {
                rifle
            } else if s == m.from {
                !rifle
            } else {
                pos.is_empty_square(s)
            }
        };
        let squares = placements(flipped(victim.kind), victim.color, free);
        if squares.is_empty() {
            out.push(m);
        }
        for s in squares {
            let mut pm = m;
            pm.extra[0] = s;
            out.push(pm);
        }
    }

    pub fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        let mut out = Vec::with_capacity(64);
        if pos.castling & (WHITE_WON | BLACK_WON) != 0 {
            return out;
        }
        if pos.hand_is_empty(pos.side) {
            self.board_moves(pos, Path::default(), &mut out);
        } else {
            for (placed, path) in self.waiting_placements(pos) {
                self.board_moves(&placed, path, &mut out);
            }
        }
        out
    }

    /// The position after the mover's waiting tokens are placed as `m.path` says.
    fn place_waiting(&self, pos: &mut Position, m: &Move) {
        let us = pos.side;
        let mut squares = m.path.iter();
        'tokens: for &k in &HAND_ORDER {
            while pos.hand(us, k) > 0 {
                let Some(s) = squares.next() else {
                    break 'tokens;
                };
                pos.set(s, Some(Piece::new(k, us)));
                pos.remove_from_hand(us, k);
            }
        }
    }

    pub fn play(&self, pos: &Position, m: &Move) -> Position {
        let mut next = pos.clone();
        let us = pos.side;
        let them = us.opponent();
        self.place_waiting(&mut next, m);
        let mut removed: Vec<Piece> = Vec::with_capacity(9);
        let mut reset = false;
        if m.kind == MoveKind::Special && m.tag == NUKE {
            next.counters[us.index()] = next.counters[us.index()].saturating_sub(1);
            for s in nuke_victims(&next, m.to) {
                removed.extend(next.take(s));
            }
            next.make_hole(m.to);
            reset = !removed.is_empty();
        } else {
            let victim = next.take(m.to);
            if m.kind != MoveKind::Special {
                let moving = next.take(m.from).expect("a piece on the origin");
                reset = moving.kind == PAWN && !moving.promoted;
                next.set(m.to, Some(m.piece.unwrap_or(moving)));
                if let Some(p) = m.piece {
                    if p.kind == BALLISTA {
                        next.counters[us.index()] = next.counters[us.index()].saturating_add(1);
                    }
                }
            }
            if let Some(v) = victim {
                reset = true;
                if v.kind == BALLISTA && next.counters[them.index()] > 0 {
                    next.counters[them.index()] -= 1;
                    next.counters[us.index()] = next.counters[us.index()].saturating_add(1);
                }
                if is_face_up(v) {
                    let back = Piece::new(flipped(v.kind), v.color);
                    if m.extra[0] != NO_SQUARE {
                        next.set(m.extra[0], Some(back));
                    } else {
                        next.add_to_hand(v.color, back.kind);
                    }
                }
                removed.push(v);
            }
        }
        let king_lost = |c: Color| removed.iter().any(|p| p.kind == KING && p.color == c);
        if king_lost(them) {
            next.castling |= if us == Color::White {
                WHITE_WON
            } else {
                BLACK_WON
            };
        } else if king_lost(us) {
            next.castling |= if us == Color::White {
                BLACK_WON
            } else {
                WHITE_WON
            };
        }
        next.halfmove = if reset {
            0
        } else {
            pos.halfmove.saturating_add(1)
        };
        if us == Color::Black {
            next.fullmove = pos.fullmove.saturating_add(1);
        }
        next.ep = None;
        next.side = them;
        next
    }

    pub fn outcome(&self, pos: &Position, legal: &[Move]) -> Option<Outcome> {
        if pos.castling & WHITE_WON != 0 {
            return Some(Outcome::win(Color::White, Reason::KingCaptured));
        }
        if pos.castling & BLACK_WON != 0 {
            return Some(Outcome::win(Color::Black, Reason::KingCaptured));
        }
        if pos.halfmove >= 100 {
            return Some(Outcome::draw(Reason::MoveCountRule));
        }
        if legal.is_empty() {
            return Some(Outcome::draw(Reason::Stalemate));
        }
        None
    }

    // ---- FEN ----

    fn kind_of(c: char) -> Option<Kind> {
        LETTERS.iter().position(|&l| l == c).map(|k| k as Kind)
    }

    fn token(p: Piece) -> String {
        let l = LETTERS[p.kind as usize];
        let l = if p.color == Color::Black {
            l.to_ascii_lowercase()
        } else {
            l
        };
        if p.promoted {
            format!("+{l}")
        } else {
            l.to_string()
        }
    }

    pub fn parse_fen(&self, text: &str) -> Result<Position, FenError> {
        let (board, rest) = fen::fields(text)?;
        let reader = fen::letter_reader(Fleap::kind_of, true);
        let (mut pos, hand) = fen::parse_board(&self.geometry, board, &reader)?;
        if let Some(h) = hand {
            fen::parse_hand(&mut pos, h, |c| Fleap::kind_of(c).filter(|&k| k >= PAWN))?;
        }
        pos.side = fen::parse_side(rest.first())?;
        if let Some(n) = rest.get(1) {
            let (w, b) = n.split_once('/').ok_or_else(|| {
                FenError::Syntax(format!("the Nuke field must read like “1/1”, not “{n}”"))
            })?;
            for (i, t) in [w, b].into_iter().enumerate() {
                pos.counters[i] = t
                    .parse::<u8>()
                    .ok()
                    .filter(|&v| v <= 20)
                    .ok_or_else(|| FenError::Syntax(format!("“{t}” is not a Nuke count")))?;
            }
        } else {
            pos.counters = [1, 1];
        }
        pos.halfmove = fen::parse_counter(rest.get(2), 0, "halfmove clock")?;
        pos.fullmove = fen::parse_counter(rest.get(3), 1, "move number")?.max(1);
        match rest.get(4).copied() {
            None | Some("-") | Some("*") => {}
            Some("1-0") => pos.castling = WHITE_WON,
            Some("0-1") => pos.castling = BLACK_WON,
            Some(other) => {
                return Err(FenError::Syntax(format!(
                    "the result field must be “1-0” or “0-1”, not “{other}”"
                )))
            }
        }
        if rest.len() > 5 {
            return Err(FenError::Syntax(format!(
                "unexpected text “{}” after the result field",
                rest[5..].join(" ")
            )));
        }
        for (s, p) in pos.pieces() {
            if p.promoted && p.kind == PAWN {
                return Err(FenError::Invalid(
                    "a Pawn cannot be a promoted piece".into(),
                ));
            }
            if p.kind == PAWN && !p.promoted && pos.relative_rank(s, p.color) >= PROMOTION_RANK {
                return Err(FenError::Invalid(format!(
                    "a Pawn on {s} would already have promoted"
                )));
            }
        }
        Ok(pos)
    }

    pub fn fen(&self, pos: &Position) -> String {
        let board = fen::write_board(pos, Fleap::token);
        let hand = fen::write_hand(pos, &HAND_ORDER, |k| LETTERS[k as usize]);
        let side = if pos.side == Color::White { "w" } else { "b" };
        let mut s = format!(
            "{board}[{hand}] {side} {}/{} {} {}",
            pos.counters[0], pos.counters[1], pos.halfmove, pos.fullmove
        );
        if pos.castling & WHITE_WON != 0 {
            s.push_str(" 1-0");
        } else if pos.castling & BLACK_WON != 0 {
            s.push_str(" 0-1");
        }
        s
    }

    pub fn piece_label(&self, p: Piece) -> PieceLabel {
        let name = if p.promoted {
            format!("{} (promoted)", NAMES[p.kind as usize])
        } else {
            NAMES[p.kind as usize].to_string()
        };
        PieceLabel {
            symbol: String::new(),
            letter: Fleap::token(p),
            name,
            direction: None,
        }
    }
}

// ---- notation ----

/// One legal move with its parts as written.
struct Written {
    /// Own waiting tokens placed first: letter and square.
    own: Vec<(char, Square)>,
    /// The captured token's placement: letter and square.
    ret: Option<(char, Square)>,
    /// Forms of the move without placements (SAN, long, coordinates...).
    core: Vec<String>,
    /// Full forms, matched exactly (spaces ignored).
    forms: Vec<String>,
    display: String,
}

/// The one move of `moves` (written as `written`) that has a form squashing
/// to `norm`, if exactly one does.
fn exact_in(moves: &[Move], written: &[Written], norm: &str) -> Option<Move> {
    let mut exact =
        (0..moves.len()).filter(|&i| written[i].forms.iter().any(|f| squash(f) == norm));
    match (exact.next(), exact.next()) {
        (Some(i), None) => Some(moves[i]),
        _ => None,
    }
}

fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

fn case(c: char, color: Color) -> char {
    if color == Color::Black {
        c.to_ascii_lowercase()
    } else {
        c.to_ascii_uppercase()
    }
}

fn square_list(squares: &[Square]) -> String {
    squares
        .iter()
        .map(|s| s.name())
        .collect::<Vec<_>>()
        .join(",")
}

impl Fleap {
    fn is_nuke(m: &Move) -> bool {
        m.kind == MoveKind::Special && m.tag == NUKE
    }
    fn is_rifle(m: &Move) -> bool {
        m.kind == MoveKind::Special && m.tag == RIFLE
    }

    /// The position the move's main part is played in (waiting tokens placed).
    fn placed(&self, pos: &Position, m: &Move) -> Position {
        let mut p = pos.clone();
        if !m.path.is_empty() {
            self.place_waiting(&mut p, m);
        }
        p
    }

    /// Own placements as (letter, square).
    fn own_placements(&self, pos: &Position, m: &Move) -> Vec<(char, Square)> {
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

    fn returned(&self, placed: &Position, m: &Move) -> Option<(char, Square, Color)> {
        if m.extra[0] == NO_SQUARE || Fleap::is_nuke(m) {
            return None;
        }
        let v = placed.get(m.to)?;
        Some((LETTERS[flipped(v.kind) as usize], m.extra[0], v.color))
    }

    pub fn coordinate(&self, pos: &Position, m: &Move) -> String {
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

    fn coordinate_core(&self, m: &Move) -> String {
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

    pub fn game_courier(&self, pos: &Position, m: &Move) -> String {
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
    fn nuke_form(prefix: &str, disamb: &str, target: Square, victims: &[Square]) -> String {
        let mut s = format!("{prefix}{disamb}xx{target}");
        if !victims.is_empty() {
            s.push_str(",x");
            s.push_str(&square_list(victims));
        }
        s
    }

    /// Origin needed to tell apart the moves in `rivals` (origins of other
    /// pieces doing the same thing), as SAN does.
    fn disambiguation(from: Square, rivals: &[Square]) -> String {
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
    fn written(&self, pos: &Position, legal: &[Move]) -> Vec<Written> {
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
    fn long_core(&self, placed: &Position, m: &Move) -> String {
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

    fn candidate(&self, placed: &Position, m: &Move) -> Candidate {
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

    pub fn format_move(&self, pos: &Position, m: &Move, notation: Notation) -> String {
        let legal = notation.legal_needed(|| self.legal_moves(pos));
        self.format_move_among(pos, &legal, m, notation)
    }

    /// [`crate::Variant::format_move_among`]: only the display form reads
    /// `legal`.
    pub fn format_move_among(
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

    pub fn parse_move(
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
    fn parse_among_all(
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
    fn parse_nuke(
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
    fn parse_board_move(
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

struct FleapExplain<'a> {
    v: &'a Fleap,
    pos: &'a Position,
}

fn movement_rule(kind: Kind) -> &'static str {
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

impl Variant for Fleap {
    fn id(&self) -> &'static str {
        "fleap"
    }
    fn name(&self) -> &'static str {
        "Fleap"
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
        Fleap::piece_label(self, piece)
    }
    fn parse_fen(&self, fen: &str) -> Result<Position, FenError> {
        Fleap::parse_fen(self, fen)
    }
    fn fen(&self, pos: &Position) -> String {
        Fleap::fen(self, pos)
    }
    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        Fleap::legal_moves(self, pos)
    }
    fn play(&self, pos: &Position, mv: &Move) -> Position {
        Fleap::play(self, pos, mv)
    }
    fn outcome(&self, pos: &Position, legal: &[Move]) -> Option<Outcome> {
        Fleap::outcome(self, pos, legal)
    }
    fn repetition_rule(&self) -> RepetitionRule {
        RepetitionRule::ThreefoldDraw
    }
    fn format_move(&self, pos: &Position, mv: &Move, notation: Notation) -> String {
        Fleap::format_move(self, pos, mv, notation)
    }
    fn format_move_among(
        &self,
        pos: &Position,
        legal: &[Move],
        mv: &Move,
        notation: Notation,
    ) -> String {
        Fleap::format_move_among(self, pos, legal, mv, notation)
    }
    fn legal_displays(&self, pos: &Position, legal: &[Move]) -> Vec<String> {
        self.written(pos, legal)
            .into_iter()
            .map(|w| w.display)
            .collect()
    }
    fn parse_move(&self, pos: &Position, legal: &[Move], text: &str) -> Result<Move, MoveError> {
        Fleap::parse_move(self, pos, legal, text)
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
