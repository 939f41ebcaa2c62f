//! Lionized Chess (`lionized-chess`), by the seed page as settled by the
//! rulings.
//!
//! Regular pieces (Lance, Hot Horse, Cold Horse, Mammoth, Ferz) standing on a
//! clear line with a friendly Lionizer, or on the file of a friendly Pawn that
//! stands on its last rank, are *Lionized*. A Lionized piece moves only when
//! its side has another Lionized piece (a partner), and then it may use its
//! own power, or a partner's power for one leg and optionally its own power
//! for a second leg, or jump to where a partner's power reaches whatever
//! stands there and then continue by its own power (rule 17).
//!
//! Move encoding (see [`Move`]):
//! - `Normal` `from` → `to`, capturing whatever stands on `to`. This covers
//!   every turn that captures at most on its end square, whatever route a
//!   Lionized piece took (the result, and the footnote-15 string, are the
//!   same, so such routes are one move). `piece` is the captured Regular
//!   piece a Pawn switches places with on its last rank (`None`: it stays a
//!   Pawn).
//! - `EnPassant` `from` → `to`, capturing the Pawn on `extra[0]`.
//! - `TwoLeg` `from` → `extra[0]` → `to` (`extra[1] == extra[0]`): a
//!   Lionized turn that captures on `extra[0]` and goes on to `to` (capturing
//!   there too if an enemy stands there); `to` may equal `from`.
//!
//! Captured Regular pieces are kept in their owner's `hands` (the FEN's
//! `[...]` field) for a later Pawn swap. `halfmove` counts plies since the
//! last capture.

use crate::errors::{FenError, MoveError};
use crate::fen;
use crate::geometry::{Geometry, Square};
use crate::moves::{Move, MoveKind, NO_SQUARE};
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;
use crate::variant::{Notation, Outcome, PieceLabel, Reason, RepetitionRule, Variant};

pub const PAWN: Kind = 0;
pub const LANCE: Kind = 1;
pub const HOT_HORSE: Kind = 2;
pub const COLD_HORSE: Kind = 3;
pub const MAMMOTH: Kind = 4;
pub const FERZ: Kind = 5;
pub const LIONIZER: Kind = 6;
pub const KING: Kind = 7;

const LETTERS: [char; 8] = ['P', 'L', 'H', 'C', 'M', 'F', 'Z', 'K'];
const NAMES: [&str; 8] = [
    "Pawn",
    "Lance",
    "Hot Horse",
    "Cold Horse",
    "Mammoth",
    "Ferz",
    "Lionizer",
    "King",
];
/// The Regular pieces, in the order the pool is written.
const REGULARS: [Kind; 5] = [LANCE, HOT_HORSE, COLD_HORSE, MAMMOTH, FERZ];

pub const START: &str = "lcmzkfhl/pppppppp/8/8/8/8/PPPPPPPP/LHMZKFCL[] w - - 0 1";

/// Hot Horse: an orthogonal step (which must be to an empty square), then one
/// step 45° to the right of it. Board-absolute for both colours.
const HOT_LEGS: [((i8, i8), (i8, i8)); 4] = [
    ((0, 1), (1, 2)),
    ((1, 0), (2, -1)),
    ((0, -1), (-1, -2)),
    ((-1, 0), (-2, 1)),
];
/// Cold Horse: the same, turning 45° to the left.
const COLD_LEGS: [((i8, i8), (i8, i8)); 4] = [
    ((0, 1), (-1, 2)),
    ((1, 0), (2, 1)),
    ((0, -1), (1, -2)),
    ((-1, 0), (-2, -1)),
];
const DIAGONALS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KING_STEPS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// Plies without a capture that draw the game (50 turns of each player).
const MOVE_COUNT_LIMIT: u16 = 100;

const RULES: &str = "Lionized Chess is played on an 8x8 board by the Basic Rules of Play of the FIDE Laws of Chess, with the differences below. White moves first.

Start position: White has, from a1 to h1, Lance, Hot Horse, Mammoth, Lionizer, King, Ferz, Cold Horse, Lance; Black has, from a8 to h8, Lance, Cold Horse, Mammoth, Lionizer, King, Ferz, Hot Horse, Lance; Pawns fill the second and seventh ranks. Letters: L Lance, H Hot Horse, C Cold Horse, M Mammoth, F Ferz, Z Lionizer, K King, P Pawn. The rule page gives the Lionizer no letter: Z is this server's choice.

The Regular pieces are the Lance, Hot Horse, Cold Horse, Mammoth and Ferz (not Pawns, Kings or Lionizers). Their powers: the Lance moves or captures like a Rook, but only straight forward. The Ferz moves or captures one square diagonally. The Mammoth moves or captures exactly two squares diagonally, and cannot jump over a piece on the square between. The Hot Horse steps one square orthogonally to an empty square and then, in the same turn, one square diagonally turning 45 degrees to the right (from e4: f6, g3, d2, c5); the Cold Horse does the same turning left (from e4: d6, c3, f2, g5). The turn is the same for both players (right means clockwise on the board). The Horses capture on their final square.

The Lionizer moves to any empty square of the board. It never captures, it can be captured, and it is never Lionized. The King and the Pawns move as in chess, with the Pawn's double step and en passant. There is no castling.

A Regular piece is Lionized while it stands on the same rank, file or diagonal as a friendly Lionizer with no piece between them, or on the same file as a friendly Pawn standing on that Pawn's last rank (pieces between do not matter). Whether a piece is Lionized is judged on the position before the turn.

A piece that is not Lionized uses its own power. A Lionized piece cannot move at all while its player has no other Lionized piece. When its player has at least one other Lionized piece (a partner), a Lionized piece may, in one turn: (1) use its own power; or (2) use the power of a partner for one leg and then, if it wishes, its own power for a second leg; or (3) go to a square that a partner's power would bring it to, whatever stands there (that piece is passed over and stays untouched), and then must continue with its own power. A partner of the same kind lends the same power (two Lionized Ferzes may each make two Ferz steps), and a borrowed Lance power runs forward for the mover. Each leg obeys the blocking of the power used, measured from where that leg starts; the square between the legs may be passed over. During the turn the piece's starting square counts as empty, so it may capture on the first leg and come back (b6c7b6). A piece captured on the first leg is gone before the second leg, and each leg may capture, so one turn can capture two pieces. A turn that leaves the board unchanged is not allowed.

A Pawn reaching the last rank does not promote: it either stays a Pawn or switches places with a friendly Regular piece that was captured earlier, which appears on that square while the Pawn leaves play. Captured Regular pieces are therefore kept for their owner; the position string lists them between [ and ], White's in upper case and Black's in lower case.

Check and checkmate are as in chess; a King is in check when an enemy turn could capture it on either leg (a Lionized piece without a Lionized partner gives no check). Checkmate wins; stalemate is a draw. The game is drawn when each player's last 50 turns contained no capture (100 turns in a row without any capture; pawn moves do not matter). A checkmate given on the turn that completes those 100 turns still wins: the game ends by checkmate first. Repeating positions has no effect, and there is no dead-position rule.

Notation (the rule page's footnote 15, used in records): the square the piece started on, then the square of any piece it captured but did not end on, then the square it ended on, then the letter (always upper case) of the piece a Pawn switched places with. Examples: e5a4, e5e7f6 (captures on e7, ends on f6), b6c7b6 (captures on c7 and returns), c5d5d6 (en passant), a2b1C (a Pawn reaches b1 and switches places with a captured Cold Horse; a2b1 keeps the Pawn). Two ways of playing that give the same string are the same move. Game Courier forms are accepted and shown too: L a2-a5, F b6-c7; F c7-b6 (the legs joined by ;), P a7-a8; C*a8.";

#[inline]
fn is_regular(kind: Kind) -> bool {
    (LANCE..=FERZ).contains(&kind)
}

/// Bit of an 8x8 square in a 64-bit mask.
#[inline]
fn bit(sq: Square) -> u64 {
    1u64 << (sq.rank() * 8 + sq.file())
}

/// The squares of a 64-bit mask.
fn squares(mut mask: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let i = mask.trailing_zeros() as u8;
        mask &= mask - 1;
        Some(Square::new(i % 8, i / 8))
    })
}

/// The square `(dx, dy)` from `sq` on the 8x8 board (0x88 test on the
/// stride-16 index; this variant's boards have no holes).
#[inline(always)]
fn step(sq: Square, dx: i8, dy: i8) -> Option<Square> {
    let n = sq.index() as i16 + dy as i16 * 16 + dx as i16;
    (n >= 0 && n & 0x88 == 0).then(|| Square::from_index(n as u8))
}

/// Every 8x8 square, a1 first.
#[inline]
fn all_squares() -> impl Iterator<Item = Square> {
    (0u8..64).map(|i| Square::new(i % 8, i / 8))
}

/// Squares a Regular power of `kind` reaches from `from` for a piece of
/// `color`, whatever stands on them, provided the squares it must pass are
/// empty. `vacated` (the mover's start square during a second leg, or
/// [`NO_SQUARE`]) counts as empty.
#[inline]
fn reach(pos: &Position, kind: Kind, color: Color, from: Square, vacated: Square) -> u64 {
    let occupied = |s: Square| s != vacated && pos.get(s).is_some();
    let mut out = 0;
    match kind {
        LANCE => {
            let dy = color.forward();
            let mut cur = from;
            while let Some(t) = step(cur, 0, dy) {
                out |= bit(t);
                if occupied(t) {
                    break;
                }
                cur = t;
            }
        }
        HOT_HORSE | COLD_HORSE => {
            let legs = if kind == HOT_HORSE {
                &HOT_LEGS
            } else {
                &COLD_LEGS
            };
            for &((vx, vy), (dx, dy)) in legs {
                if let Some(v) = step(from, vx, vy) {
                    if !occupied(v) {
                        if let Some(t) = step(from, dx, dy) {
                            out |= bit(t);
                        }
                    }
                }
            }
        }
        MAMMOTH => {
            for (dx, dy) in DIAGONALS {
                if let Some(v) = step(from, dx, dy) {
                    if !occupied(v) {
                        if let Some(t) = step(from, 2 * dx, 2 * dy) {
                            out |= bit(t);
                        }
                    }
                }
            }
        }
        FERZ => {
            for (dx, dy) in DIAGONALS {
                if let Some(t) = step(from, dx, dy) {
                    out |= bit(t);
                }
            }
        }
        _ => {}
    }
    out
}

/// Occupancy masks of one position, per colour.
struct Occupancy {
    by: [u64; 2],
}

impl Occupancy {
    fn of(pos: &Position) -> Occupancy {
        let mut by = [0u64; 2];
        for sq in all_squares() {
            if let Some(p) = pos.get(sq) {
                if p.color != Color::Neutral {
                    by[p.color.index()] |= bit(sq);
                }
            }
        }
        Occupancy { by }
    }
}

/// The Lionized pieces of one side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Lionized {
    /// Squares of the Lionized pieces.
    pub mask: u64,
    /// How many Lionized pieces of each kind.
    counts: [u8; 8],
}

impl Lionized {
    /// The Lionized pieces of `color` in `pos`: Regular pieces on a clear
    /// line with a friendly Lionizer, or on the file of a friendly Pawn that
    /// stands on its last rank.
    pub fn of(pos: &Position, color: Color) -> Lionized {
        Lionized::with_lionizers(pos, color, &lionizers(pos, color))
    }

    /// The same, given where `color`'s Lionizers may stand (squares no
    /// longer holding one are skipped), to spare a board scan.
    fn with_lionizers(pos: &Position, color: Color, lionizers: &[Square]) -> Lionized {
        let mut l = Lionized::default();
        let mut mark = |t: Square, q: Piece| {
            if q.color == color && is_regular(q.kind) && l.mask & bit(t) == 0 {
                l.mask |= bit(t);
                l.counts[q.kind as usize] += 1;
            }
        };
        for &sq in lionizers {
            if pos.get(sq) != Some(Piece::new(LIONIZER, color)) {
                continue;
            }
            for (dx, dy) in KING_STEPS {
                let mut cur = sq;
                while let Some(t) = step(cur, dx, dy) {
                    if let Some(q) = pos.get(t) {
                        mark(t, q);
                        break;
                    }
                    cur = t;
                }
            }
        }
        let last = if color == Color::Black {
            0
        } else {
            pos.height - 1
        };
        for file in 0..pos.width {
            if pos.get(Square::new(file, last)) == Some(Piece::new(PAWN, color)) {
                for r in 0..pos.height {
                    let t = Square::new(file, r);
                    if let Some(q) = pos.get(t) {
                        mark(t, q);
                    }
                }
            }
        }
        l
    }

    pub fn contains(&self, sq: Square) -> bool {
        self.mask & bit(sq) != 0
    }

    pub fn len(&self) -> u32 {
        self.mask.count_ones()
    }

    pub fn is_empty(&self) -> bool {
        self.mask == 0
    }

    /// Kinds (bit per kind) of the partners of the Lionized `kind` piece:
    /// the kinds of the other Lionized pieces.
    fn borrowed(&self, kind: Kind) -> u8 {
        let mut out = 0u8;
        for k in REGULARS {
            let n = self.counts[k as usize] - (k == kind) as u8;
            if n > 0 {
                out |= 1 << k;
            }
        }
        out
    }
}

/// Squares of `color`'s Lionizers (normally one; custom positions may have
/// more or none).
fn lionizers(pos: &Position, color: Color) -> Vec<Square> {
    all_squares()
        .filter(|&s| pos.get(s) == Some(Piece::new(LIONIZER, color)))
        .collect()
}

/// Kinds set in a bit-per-kind mask.
fn kinds(mask: u8) -> impl Iterator<Item = Kind> {
    REGULARS.into_iter().filter(move |k| mask >> k & 1 == 1)
}

/// Every turn of a Lionized piece (with partners offering `borrowed`) as
/// result masks: `ends` = squares it can end on capturing at most there;
/// `caps` = for each square captured on the first leg, where it can end.
struct LionTurns {
    ends: u64,
    cap_mids: u64,
    caps: [u64; 64],
}

fn lion_turns(
    pos: &Position,
    occ: &Occupancy,
    from: Square,
    piece: Piece,
    borrowed: u8,
) -> LionTurns {
    let us = piece.color.index();
    let own = occ.by[us];
    let enemy = occ.by[1 - us];
    let mut t = LionTurns {
        ends: reach(pos, piece.kind, piece.color, from, NO_SQUARE) & !own,
        cap_mids: 0,
        caps: [0; 64],
    };
    // During a second leg the start square is empty: own pieces minus it.
    let own_second = own & !bit(from);
    for k in kinds(borrowed) {
        let mids = reach(pos, k, piece.color, from, NO_SQUARE);
        // Borrowed power alone (empty square or capture).
        t.ends |= mids & !own;
        for m in squares(mids) {
            let second = reach(pos, piece.kind, piece.color, m, from) & !own_second;
            // Through (or over) m without capturing there: coming back to the
            // start would leave the board unchanged.
            t.ends |= second & !bit(from);
            if enemy & bit(m) != 0 {
                let i = (m.rank() * 8 + m.file()) as usize;
                t.caps[i] |= second;
                t.cap_mids |= bit(m);
            }
        }
    }
    t
}

/// Whether a Lionized piece on `from` with partners `borrowed` can go to
/// `mid` by a partner's power and on to `to` by its own.
fn has_route(
    pos: &Position,
    from: Square,
    piece: Piece,
    borrowed: u8,
    mid: Square,
    to: Square,
) -> bool {
    kinds(borrowed).any(|k| {
        reach(pos, k, piece.color, from, NO_SQUARE) & bit(mid) != 0
            && reach(pos, piece.kind, piece.color, mid, from) & bit(to) != 0
    })
}

/// Whether a piece of `by` could capture on `sq` (on either leg) if it were
/// `by`'s turn.
pub fn attacked(pos: &Position, sq: Square, by: Color) -> bool {
    attacked_with(pos, sq, by, &lionizers(pos, by))
}

/// [`attacked`], given the squares where `by`'s Lionizers may stand.
fn attacked_with(pos: &Position, sq: Square, by: Color, lionizers: &[Square]) -> bool {
    let f = by.forward();
    for dx in [-1, 1] {
        if let Some(s) = step(sq, dx, -f) {
            if pos.get(s) == Some(Piece::new(PAWN, by)) {
                return true;
            }
        }
    }
    for (dx, dy) in KING_STEPS {
        if let Some(s) = step(sq, dx, dy) {
            if pos.get(s) == Some(Piece::new(KING, by)) {
                return true;
            }
        }
    }
    let lion = Lionized::with_lionizers(pos, by, lionizers);
    if plain_attack(pos, sq, by, lion.mask) {
        return true;
    }
    // Lionized pieces attack only with a partner; then by any of their turns.
    lion.len() >= 2
        && squares(lion.mask).any(|s| {
            let p = pos.get(s).expect("a Lionized piece");
            lion_attacks(pos, s, p, lion.borrowed(p.kind), bit(sq))
        })
}

/// Whether a Regular piece of `by` that is not Lionized (not in `lionized`)
/// reaches `sq` by its own power: looked up backwards from `sq`.
fn plain_attack(pos: &Position, sq: Square, by: Color, lionized: u64) -> bool {
    let is =
        |s: Square, kind: Kind| pos.get(s) == Some(Piece::new(kind, by)) && lionized & bit(s) == 0;
    for (dx, dy) in DIAGONALS {
        if let Some(s) = step(sq, dx, dy) {
            if is(s, FERZ) {
                return true;
            }
            if pos.get(s).is_none() {
                if let Some(m) = step(sq, 2 * dx, 2 * dy) {
                    if is(m, MAMMOTH) {
                        return true;
                    }
                }
            }
        }
    }
    for (kind, legs) in [(HOT_HORSE, &HOT_LEGS), (COLD_HORSE, &COLD_LEGS)] {
        for &((vx, vy), (dx, dy)) in legs {
            // A Horse on sq - d reaches sq when sq - d + v is empty.
            if let Some(s) = step(sq, -dx, -dy) {
                if is(s, kind) && step(s, vx, vy).is_some_and(|v| pos.get(v).is_none()) {
                    return true;
                }
            }
        }
    }
    // A Lance looks forward: search backwards down the file.
    let mut cur = sq;
    while let Some(s) = step(cur, 0, -by.forward()) {
        if pos.get(s).is_some() {
            return is(s, LANCE);
        }
        cur = s;
    }
    false
}

/// Whether the Lionized piece `p` on `s` (partners offering `borrowed`) can
/// capture on `target` on either leg of some turn.
fn lion_attacks(pos: &Position, s: Square, p: Piece, borrowed: u8, target: u64) -> bool {
    if reach(pos, p.kind, p.color, s, NO_SQUARE) & target != 0 {
        return true;
    }
    kinds(borrowed).any(|k| {
        let mids = reach(pos, k, p.color, s, NO_SQUARE);
        mids & target != 0 || squares(mids).any(|m| reach(pos, p.kind, p.color, m, s) & target != 0)
    })
}

pub struct LionizedChess {
    geometry: Geometry,
}

impl LionizedChess {
    pub fn new() -> LionizedChess {
        LionizedChess {
            geometry: Geometry::rect(8, 8),
        }
    }

    fn kind_of(c: char) -> Option<Kind> {
        LETTERS
            .iter()
            .position(|&l| l == c.to_ascii_uppercase())
            .map(|k| k as Kind)
    }

    fn cased(letter: char, color: Color) -> char {
        if color == Color::Black {
            letter.to_ascii_lowercase()
        } else {
            letter
        }
    }

    // ---- moves ----

    /// Moves by the rules of movement, ignoring check.
    pub fn pseudo_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        let us = pos.side;
        let occ = Occupancy::of(pos);
        let lion = Lionized::of(pos, us);
        for from in all_squares() {
            let Some(piece) = pos.get(from) else { continue };
            if piece.color != us {
                continue;
            }
            self.piece_moves(pos, &occ, &lion, from, piece, out);
        }
    }

    /// The pseudo-legal moves of the piece on `from`.
    fn piece_moves(
        &self,
        pos: &Position,
        occ: &Occupancy,
        lion: &Lionized,
        from: Square,
        piece: Piece,
        out: &mut Vec<Move>,
    ) {
        let us = piece.color;
        let own = occ.by[us.index()];
        match piece.kind {
            PAWN => self.pawn_moves(pos, from, us, out),
            KING => {
                for (dx, dy) in KING_STEPS {
                    if let Some(t) = step(from, dx, dy) {
                        if own & bit(t) == 0 {
                            out.push(Move::normal(from, t));
                        }
                    }
                }
            }
            LIONIZER => {
                let all = occ.by[0] | occ.by[1];
                for t in squares(!all) {
                    out.push(Move::normal(from, t));
                }
            }
            _ if lion.contains(from) => {
                if lion.len() < 2 {
                    return; // a lone Lionized piece is frozen
                }
                let turns = lion_turns(pos, occ, from, piece, lion.borrowed(piece.kind));
                for t in squares(turns.ends) {
                    out.push(Move::normal(from, t));
                }
                for m in squares(turns.cap_mids) {
                    let i = (m.rank() * 8 + m.file()) as usize;
                    for t in squares(turns.caps[i]) {
                        out.push(
                            Move::normal(from, t)
                                .with_kind(MoveKind::TwoLeg)
                                .with_extra(m, m),
                        );
                    }
                }
            }
            _ => {
                for t in squares(reach(pos, piece.kind, us, from, NO_SQUARE) & !own) {
                    out.push(Move::normal(from, t));
                }
            }
        }
    }

    fn pawn_moves(&self, pos: &Position, from: Square, us: Color, out: &mut Vec<Move>) {
        let f = us.forward();
        let last = pos.height - 1;
        let push = |to: Square, out: &mut Vec<Move>| {
            out.push(Move::normal(from, to));
            if pos.relative_rank(to, us) == last {
                for k in REGULARS {
                    if pos.hand(us, k) > 0 {
                        out.push(Move::promotion(from, to, Piece::new(k, us)));
                    }
                }
            }
        };
        if let Some(a) = step(from, 0, f) {
            if pos.get(a).is_none() {
                push(a, out);
                if pos.relative_rank(from, us) == 1 {
                    if let Some(b) = step(a, 0, f) {
                        if pos.get(b).is_none() {
                            out.push(Move::normal(from, b));
                        }
                    }
                }
            }
        }
        for dx in [-1, 1] {
            if let Some(t) = step(from, dx, f) {
                match pos.get(t) {
                    Some(p) if p.color == us.opponent() => push(t, out),
                    None if pos.ep == Some(t) => {
                        let victim = Square::new(t.file(), from.rank());
                        out.push(
                            Move::normal(from, t)
                                .with_kind(MoveKind::EnPassant)
                                .with_extra(victim, NO_SQUARE),
                        );
                    }
                    _ => {}
                }
            }
        }
    }

    /// Whether the mover's King is safe after `m`, tested on `scratch` (a
    /// copy of the position, restored before returning: only the board
    /// matters to attacks). `their_lionizers` are the opponent's Lionizer
    /// squares before the move (a move can only remove one, by capture).
    fn keeps_king_safe(
        &self,
        scratch: &mut Position,
        m: &Move,
        their_lionizers: &[Square],
    ) -> bool {
        let us = scratch.side;
        let mid = match m.kind {
            MoveKind::EnPassant | MoveKind::TwoLeg => Some(m.extra[0]),
            _ => None,
        };
        let saved = [
            (m.from, scratch.get(m.from)),
            (m.to, scratch.get(m.to)),
            (mid.unwrap_or(m.from), scratch.get(mid.unwrap_or(m.from))),
        ];
        let moving = scratch.take(m.from).expect("a piece on the origin");
        if let Some(x) = mid {
            scratch.set(x, None);
        }
        scratch.set(m.to, Some(m.piece.unwrap_or(moving)));
        let king = if moving.kind == KING {
            Some(m.to)
        } else {
            scratch.royal[us.index()]
        };
        let safe = king.is_none_or(|k| !attacked_with(scratch, k, us.opponent(), their_lionizers));
        // Every saved value is the square's original content: any order restores.
        for (sq, piece) in saved {
            scratch.set(sq, piece);
        }
        safe
    }

    pub fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        let mut moves = Vec::with_capacity(96);
        self.pseudo_moves(pos, &mut moves);
        let theirs = lionizers(pos, pos.side.opponent());
        let mut scratch = pos.clone();
        moves.retain(|m| self.keeps_king_safe(&mut scratch, m, &theirs));
        moves
    }

    pub fn play(&self, pos: &Position, m: &Move) -> Position {
        let mut next = pos.clone();
        let us = pos.side;
        let moving = next.take(m.from).expect("a piece on the origin");
        let mut captured = false;
        let mut capture = |next: &mut Position, sq: Square| {
            if let Some(victim) = next.take(sq) {
                captured = true;
                if is_regular(victim.kind) {
                    next.add_to_hand(victim.color, victim.kind);
                }
            }
        };
        match m.kind {
            MoveKind::EnPassant | MoveKind::TwoLeg => capture(&mut next, m.extra[0]),
            _ => {}
        }
        capture(&mut next, m.to);
        match m.piece {
            Some(swap) => {
                next.remove_from_hand(us, swap.kind);
                next.set(m.to, Some(swap));
            }
            None => next.set(m.to, Some(moving)),
        }
        if moving.kind == KING {
            next.royal[us.index()] = Some(m.to);
        }
        next.ep = None;
        if moving.kind == PAWN && (m.to.rank() as i8 - m.from.rank() as i8).abs() == 2 {
            next.ep = Some(Square::new(
                m.from.file(),
                (m.from.rank() + m.to.rank()) / 2,
            ));
        }
        next.halfmove = if captured {
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

    pub fn in_check(&self, pos: &Position) -> bool {
        match pos.royal[pos.side.index()] {
            Some(k) => attacked(pos, k, pos.side.opponent()),
            None => false,
        }
    }

    pub fn outcome(&self, pos: &Position, legal: &[Move]) -> Option<Outcome> {
        let us = pos.side;
        if legal.is_empty() {
            return Some(if self.in_check(pos) {
                Outcome::win(us.opponent(), Reason::Checkmate)
            } else {
                Outcome::draw(Reason::Stalemate)
            });
        }
        if pos.halfmove >= MOVE_COUNT_LIMIT {
            return Some(Outcome::draw(Reason::MoveCountRule));
        }
        None
    }

    // ---- FEN ----

    pub fn parse_fen(&self, text: &str) -> Result<Position, FenError> {
        let (board, rest) = fen::fields(text)?;
        let reader = fen::letter_reader(Self::kind_of, false);
        let (mut pos, hand) = fen::parse_board(&self.geometry, board, &reader)?;
        if let Some(h) = hand {
            fen::parse_hand(&mut pos, h, |c| Self::kind_of(c).filter(|&k| is_regular(k)))?;
        }
        if !pos.holes().is_empty() {
            return Err(FenError::Invalid(
                "this variant's board has no holes (“*”)".into(),
            ));
        }
        pos.side = fen::parse_side(rest.first())?;
        match rest.get(1).copied() {
            None | Some("-") => {}
            Some(other) => {
                return Err(FenError::Syntax(format!(
                    "the castling field must be “-” (there is no castling), not “{other}”"
                )))
            }
        }
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
            let kings: Vec<Square> = all_squares()
                .filter(|&s| pos.get(s) == Some(Piece::new(KING, color)))
                .collect();
            if kings.len() != 1 {
                return Err(FenError::Invalid(format!(
                    "{color} must have exactly one King, not {}",
                    kings.len()
                )));
            }
            pos.royal[color.index()] = Some(kings[0]);
        }
        for sq in all_squares() {
            if let Some(p) = pos.get(sq) {
                if p.kind == PAWN && pos.relative_rank(sq, p.color) == 0 {
                    return Err(FenError::Invalid(format!(
                        "a {} Pawn cannot stand on {sq}, its own first rank",
                        p.color
                    )));
                }
            }
        }
        if let Some(ep) = pos.ep {
            // The square a pawn just skipped: beyond it stands the pawn that moved.
            let mover = pos.side.opponent();
            let pawn_sq = step(ep, 0, mover.forward());
            let ok = pos.get(ep).is_none()
                && pos.relative_rank(ep, mover) == 2
                && matches!(pawn_sq.and_then(|s| pos.get(s)), Some(p) if p == Piece::new(PAWN, mover));
            if !ok {
                return Err(FenError::Invalid(format!(
                    "{ep} cannot be an en passant square here"
                )));
            }
        }
        let them = pos.side.opponent();
        if attacked(&pos, pos.royal[them.index()].expect("set above"), pos.side) {
            return Err(FenError::Invalid("the side not to move is in check".into()));
        }
        Ok(pos)
    }

    pub fn fen(&self, pos: &Position) -> String {
        let board = fen::write_board(pos, |p| {
            Self::cased(LETTERS[p.kind as usize], p.color).to_string()
        });
        let hand = fen::write_hand(pos, &REGULARS, |k| LETTERS[k as usize]);
        let side = if pos.side == Color::White { "w" } else { "b" };
        // Like Fairy-Stockfish: the en passant square only when it can be taken.
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
            "{board}[{hand}] {side} - {ep} {} {}",
            pos.halfmove, pos.fullmove
        )
    }

    // ---- notation ----

    /// Footnote 15: start, any square captured where the mover did not end,
    /// end, then the (upper-case) letter of the piece a Pawn swapped with.
    pub fn footnote(m: &Move) -> String {
        let mut s = m.from.name();
        if matches!(m.kind, MoveKind::EnPassant | MoveKind::TwoLeg) {
            s.push_str(&m.extra[0].name());
        }
        s.push_str(&m.to.name());
        if let Some(p) = m.piece {
            s.push(LETTERS[p.kind as usize]);
        }
        s
    }

    /// Game Courier: `L a2-a5`, `F b6-c7; F c7-b6`, `P a7-a8; C*a8`.
    fn game_courier(pos: &Position, m: &Move) -> String {
        let piece = pos.get(m.from).expect("a piece on the origin");
        let label = Self::cased(LETTERS[piece.kind as usize], piece.color);
        match m.kind {
            MoveKind::TwoLeg => format!(
                "{label} {}-{}; {label} {}-{}",
                m.from, m.extra[0], m.extra[0], m.to
            ),
            _ => {
                let mut s = format!("{label} {}-{}", m.from, m.to);
                if let Some(p) = m.piece {
                    s.push_str(&format!(
                        "; {}*{}",
                        Self::cased(LETTERS[p.kind as usize], p.color),
                        m.to
                    ));
                }
                s
            }
        }
    }

    pub fn format_move(&self, pos: &Position, m: &Move, notation: Notation) -> String {
        match notation {
            Notation::Coordinate | Notation::Display => Self::footnote(m),
            Notation::GameCourier => Self::game_courier(pos, m),
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
        // Exact written forms first.
        let norm = normalize(t);
        let exact: Vec<&Move> = legal
            .iter()
            .filter(|m| {
                normalize(&Self::footnote(m)) == norm
                    || normalize(&Self::game_courier(pos, m)) == norm
            })
            .collect();
        if let [m] = exact.as_slice() {
            return Ok(**m);
        }
        let req = read_request(t).ok_or_else(|| MoveError::Syntax {
            input: t.to_string(),
            reason: "expected a move such as “e2e4”, “e5e7f6”, “a7a8C”, “L a2-a5” or “F b6-c7; F c7-b6”.".into(),
        })?;
        self.resolve(pos, legal, t, &req)
    }

    /// Find the legal move a reading names, or explain why there is none.
    fn resolve(
        &self,
        pos: &Position,
        legal: &[Move],
        input: &str,
        req: &Request,
    ) -> Result<Move, MoveError> {
        let illegal = |reason: String, alternatives: Vec<String>| MoveError::Illegal {
            input: input.to_string(),
            reason,
            alternatives,
        };
        let piece = self.mover(pos, req).map_err(|r| illegal(r, vec![]))?;
        let own: Vec<String> = legal
            .iter()
            .filter(|m| m.from == req.from)
            .map(Self::footnote)
            .collect();
        let swap = Self::check_letters(req, piece).map_err(|r| illegal(r, own.clone()))?;
        // A two-leg reading whose middle square holds no enemy is the plain
        // move to the end square, provided the route exists.
        let enemy_on =
            |sq: Square| matches!(pos.get(sq), Some(p) if p.color == pos.side.opponent());
        let (mid, route) = match (req.via, req.legs) {
            (Some(v), true) if !enemy_on(v) => (None, Some(v)),
            (v, _) => (v, None),
        };
        let mut found = matching(legal, req.from, req.to, mid, swap);
        if found.is_empty() && mid.is_none() && route.is_none() && swap.is_none() {
            // `c5d6` for en passant is accepted too.
            found = legal
                .iter()
                .filter(|m| m.from == req.from && m.to == req.to && m.kind == MoveKind::EnPassant)
                .collect();
        }
        let [m] = found.as_slice() else {
            return Err(illegal(
                self.why_not(pos, legal, req, piece, mid, swap),
                own,
            ));
        };
        if let Some(v) = route {
            if !route_exists(pos, piece, req.from, v, req.to) {
                let reason = format!(
                    "the {} on {} cannot reach {} by way of {v}; write the move as {}.",
                    NAMES[piece.kind as usize],
                    req.from,
                    req.to,
                    Self::footnote(m)
                );
                return Err(illegal(reason, own));
            }
        }
        Ok(**m)
    }

    /// The mover's piece named by a reading, or why there is none.
    fn mover(&self, pos: &Position, req: &Request) -> Result<Piece, String> {
        for sq in [Some(req.from), req.via, Some(req.to)]
            .into_iter()
            .flatten()
        {
            if !self.geometry.contains(sq) {
                return Err(format!("{sq} is not a square of this board."));
            }
        }
        match pos.get(req.from) {
            None => Err(format!("there is no piece on {}.", req.from)),
            Some(p) if p.color != pos.side => Err(format!(
                "the {} on {} is not yours to move.",
                NAMES[p.kind as usize], req.from
            )),
            Some(p) => Ok(p),
        }
    }

    /// Check the piece label and read the swap letter of a reading.
    fn check_letters(req: &Request, piece: Piece) -> Result<Option<Kind>, String> {
        if let Some(l) = req.label {
            if Self::kind_of(l) != Some(piece.kind) {
                let other = Self::kind_of(l)
                    .map(|k| NAMES[k as usize])
                    .unwrap_or("piece of this variant");
                return Err(format!(
                    "the piece on {} is a {}, not a {other}.",
                    req.from, NAMES[piece.kind as usize]
                ));
            }
        }
        match req.swap {
            None => Ok(None),
            Some(c) => match Self::kind_of(c) {
                Some(k) if is_regular(k) => Ok(Some(k)),
                _ => Err(format!("a Pawn may only switch places with a captured Regular piece (L, H, C, M or F), not “{c}”.")),
            },
        }
    }

    /// Why the mover's piece cannot make the move read (the reading is well
    /// formed and names one of the mover's pieces).
    fn why_not(
        &self,
        pos: &Position,
        legal: &[Move],
        req: &Request,
        piece: Piece,
        mid: Option<Square>,
        swap: Option<Kind>,
    ) -> String {
        let from = req.from;
        let to = req.to;
        let name = NAMES[piece.kind as usize];
        let us = pos.side;
        let lion = Lionized::of(pos, us);
        let is_lion = lion.contains(from);
        if is_lion && lion.len() < 2 {
            return format!("the {name} on {from} is Lionized and you have no other Lionized piece, so it cannot move at all.");
        }
        if let Some(k) = swap {
            if piece.kind != PAWN || pos.relative_rank(to, us) != pos.height - 1 {
                return "only a Pawn reaching the last rank may switch places with a captured piece.".into();
            }
            if pos.hand(us, k) == 0 {
                return format!(
                    "no captured {} of yours is available to switch places with.",
                    NAMES[k as usize]
                );
            }
        }
        if let Some(x) = mid {
            let enemy = matches!(pos.get(x), Some(p) if p.color == us.opponent());
            if !enemy && !req.legs {
                return format!("a three-square move names the square of a piece captured on the way, and there is no enemy piece on {x}; a route that captures nothing there is written with the start and end squares only.");
            }
            if piece.kind != PAWN && !(is_lion && lion.len() >= 2) {
                return format!("only a Lionized piece with a Lionized partner moves in two legs; the {name} on {from} is not Lionized.");
            }
        }
        if piece.kind == KING && from.rank() == to.rank() && from.file().abs_diff(to.file()) == 2 {
            return "there is no castling in Lionized Chess.".into();
        }
        if piece.kind == LIONIZER && pos.get(to).is_some() {
            return "the Lionizer moves only to an empty square; it never captures.".into();
        }
        if let Some(p) = pos.get(to) {
            if p.color == us && to != from {
                return format!(
                    "you cannot capture your own {} on {to}.",
                    NAMES[p.kind as usize]
                );
            }
        }
        if to == from && mid.is_none() {
            return "a turn may not leave the position unchanged.".into();
        }
        let mut pseudo = Vec::new();
        self.pseudo_moves(pos, &mut pseudo);
        if !matching(&pseudo, from, to, mid, swap).is_empty()
            && matching(legal, from, to, mid, swap).is_empty()
        {
            return if self.in_check(pos) {
                "your King is in check and this move does not get it out of check.".into()
            } else {
                "it would leave your King in check.".into()
            };
        }
        if mid.is_none() && is_regular(piece.kind) && !is_lion {
            let open = Position::empty(&self.geometry);
            if reach(&open, piece.kind, us, from, NO_SQUARE) & bit(to) != 0 {
                return format!("the {name} on {from} is blocked: a square it must pass on the way to {to} is occupied.");
            }
        }
        match mid {
            Some(x) => format!("the {name} on {from} cannot capture on {x} and go on to {to}."),
            None => format!("the {name} on {from} cannot go to {to}."),
        }
    }
}

impl Default for LionizedChess {
    fn default() -> Self {
        LionizedChess::new()
    }
}

/// The legal moves from `from` to `to` that capture on `mid` on the way (or
/// capture at most on `to`) and swap for `swap`.
fn matching(
    legal: &[Move],
    from: Square,
    to: Square,
    mid: Option<Square>,
    swap: Option<Kind>,
) -> Vec<&Move> {
    legal
        .iter()
        .filter(|m| {
            m.from == from
                && m.to == to
                && m.piece.map(|p| p.kind) == swap
                && match mid {
                    None => m.kind == MoveKind::Normal,
                    Some(x) => m.kind != MoveKind::Normal && m.extra[0] == x,
                }
        })
        .collect()
}

/// Whether the piece on `from` is a Lionized piece with a partner whose
/// power brings it to `via`, from where its own power reaches `to`.
fn route_exists(pos: &Position, piece: Piece, from: Square, via: Square, to: Square) -> bool {
    let lion = Lionized::of(pos, piece.color);
    lion.contains(from)
        && lion.len() >= 2
        && has_route(pos, from, piece, lion.borrowed(piece.kind), via, to)
}

/// A move as read from text, before it is matched with the legal moves.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Request {
    label: Option<char>,
    from: Square,
    /// The middle square: a captured square (footnote 15) or the junction of
    /// two Game Courier legs.
    via: Option<Square>,
    to: Square,
    swap: Option<char>,
    /// Whether `via` came from two Game Courier legs (it need not hold a
    /// captured piece then).
    legs: bool,
}

fn normalize(s: &str) -> String {
    s.trim()
        .trim_end_matches(['#', '!', '?', '+'])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Read a footnote-15 string or a Game Courier move.
fn read_request(text: &str) -> Option<Request> {
    let t = text.trim().trim_end_matches(['#', '!', '?', '+']).trim();
    if t.contains(['-', ';', '*']) {
        read_game_courier(t)
    } else {
        read_footnote(t)
    }
}

/// A square name: a lower-case file letter and one or two digits.
fn take_square(s: &str) -> Option<(Square, &str)> {
    let bytes = s.as_bytes();
    if bytes.is_empty() || !bytes[0].is_ascii_lowercase() {
        return None;
    }
    let digits = bytes[1..]
        .iter()
        .take(2)
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 {
        return None;
    }
    Some((Square::parse(&s[..1 + digits])?, &s[1 + digits..]))
}

/// `e5a4`, `e5e7f6`, `a2b1C`.
fn read_footnote(t: &str) -> Option<Request> {
    let mut rest = t;
    let mut sqs = Vec::new();
    while let Some((sq, r)) = take_square(rest) {
        sqs.push(sq);
        rest = r;
        if sqs.len() > 3 {
            return None;
        }
    }
    let swap = match rest {
        "" => None,
        s => {
            let s = s.trim_start_matches('=');
            let mut cs = s.chars();
            let c = cs.next()?;
            if !c.is_ascii_alphabetic() || cs.next().is_some() {
                return None;
            }
            Some(c.to_ascii_uppercase())
        }
    };
    let (from, via, to) = match sqs.as_slice() {
        [a, b] => (*a, None, *b),
        [a, m, b] => (*a, Some(*m), *b),
        _ => return None,
    };
    Some(Request {
        label: None,
        from,
        via,
        to,
        swap,
        legs: false,
    })
}

/// One part of a Game Courier move.
enum GcPart {
    Move(Option<char>, Square, Square),
    Drop(char, Square),
}

fn read_gc_label(label: &str) -> Option<char> {
    let mut cs = label.trim().chars();
    let c = cs.next()?;
    (c.is_ascii_alphabetic() && cs.next().is_none()).then_some(c)
}

fn read_gc_part(part: &str) -> Option<GcPart> {
    if let Some((label, sq)) = part.split_once('*') {
        return Some(GcPart::Drop(
            read_gc_label(label)?,
            Square::parse(sq.trim())?,
        ));
    }
    let (left, right) = part.split_once('-')?;
    let (label, from) = match left.trim().rsplit_once(' ') {
        Some((l, f)) => (Some(read_gc_label(l)?), f),
        None => (None, left.trim()),
    };
    Some(GcPart::Move(
        label,
        Square::parse(from.trim())?,
        Square::parse(right.trim())?,
    ))
}

/// `L a2-a5`, `F b6-c7; F c7-b6`, `b6-c7; c7-b6`, `P a7-a8; C*a8`.
fn read_game_courier(t: &str) -> Option<Request> {
    let parts: Vec<GcPart> = t
        .split(';')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(read_gc_part)
        .collect::<Option<_>>()?;
    match parts.as_slice() {
        [GcPart::Move(label, from, to)] => Some(Request {
            label: *label,
            from: *from,
            via: None,
            to: *to,
            swap: None,
            legs: false,
        }),
        [GcPart::Move(label, from, to), GcPart::Drop(c, at)] if at == to => Some(Request {
            label: *label,
            from: *from,
            via: None,
            to: *to,
            swap: Some(c.to_ascii_uppercase()),
            legs: false,
        }),
        [GcPart::Move(label, from, mid), GcPart::Move(label2, mid2, to)]
            if mid == mid2 && mid != to =>
        {
            if let (Some(a), Some(b)) = (label, label2) {
                if !a.eq_ignore_ascii_case(b) {
                    return None;
                }
            }
            Some(Request {
                label: label.or(*label2),
                from: *from,
                via: Some(*mid),
                to: *to,
                swap: None,
                legs: true,
            })
        }
        _ => None,
    }
}

impl Variant for LionizedChess {
    fn id(&self) -> &'static str {
        "lionized-chess"
    }
    fn name(&self) -> &'static str {
        "Lionized Chess"
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
        let k = (piece.kind as usize).min(LETTERS.len() - 1);
        PieceLabel {
            symbol: String::new(),
            letter: Self::cased(LETTERS[k], piece.color).to_string(),
            name: NAMES[k].to_string(),
            direction: None,
        }
    }
    fn parse_fen(&self, fen: &str) -> Result<Position, FenError> {
        LionizedChess::parse_fen(self, fen)
    }
    fn fen(&self, pos: &Position) -> String {
        LionizedChess::fen(self, pos)
    }
    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        LionizedChess::legal_moves(self, pos)
    }
    fn play(&self, pos: &Position, mv: &Move) -> Position {
        LionizedChess::play(self, pos, mv)
    }
    fn outcome(&self, pos: &Position, legal: &[Move]) -> Option<Outcome> {
        LionizedChess::outcome(self, pos, legal)
    }
    fn in_check(&self, pos: &Position) -> bool {
        LionizedChess::in_check(self, pos)
    }
    fn repetition_rule(&self) -> RepetitionRule {
        RepetitionRule::Ignored
    }
    /// Repetition is no rule here, but the key is still the identity of a
    /// stored game's positions, so it leaves out what the FEN leaves out.
    fn repetition_key(&self, pos: &Position) -> u64 {
        pos.hash_without_dead_ep(|| {
            LionizedChess::legal_moves(self, pos)
                .iter()
                .any(|m| m.kind == MoveKind::EnPassant)
        })
    }
    fn format_move(&self, pos: &Position, mv: &Move, notation: Notation) -> String {
        LionizedChess::format_move(self, pos, mv, notation)
    }
    fn parse_move(&self, pos: &Position, legal: &[Move], text: &str) -> Result<Move, MoveError> {
        LionizedChess::parse_move(self, pos, legal, text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn horse_turns_match_the_rulings() {
        // From e4: Hot Horse f6, g3, d2, c5; Cold Horse d6, c3, f2, g5.
        let v = LionizedChess::new();
        let pos = v.parse_fen("k7/8/8/8/8/8/8/7K w - - 0 1").unwrap();
        let names = |m: u64| {
            let mut v: Vec<String> = squares(m).map(|s| s.name()).collect();
            v.sort();
            v
        };
        assert_eq!(
            names(reach(&pos, HOT_HORSE, Color::White, sq("e4"), NO_SQUARE)),
            ["c5", "d2", "f6", "g3"]
        );
        assert_eq!(
            names(reach(&pos, COLD_HORSE, Color::Black, sq("e4"), NO_SQUARE)),
            ["c3", "d6", "f2", "g5"]
        );
    }

    #[test]
    fn requests_read() {
        let r = read_request("e5e7f6").unwrap();
        assert_eq!((r.from, r.via, r.to), (sq("e5"), Some(sq("e7")), sq("f6")));
        let r = read_request("a2b1C").unwrap();
        assert_eq!((r.from, r.to, r.swap), (sq("a2"), sq("b1"), Some('C')));
        let r = read_request("F b6-c7; F c7-b6").unwrap();
        assert_eq!(
            (r.from, r.via, r.to, r.legs),
            (sq("b6"), Some(sq("c7")), sq("b6"), true)
        );
        let r = read_request("p a7-a8; c*a8").unwrap();
        assert_eq!(r.swap, Some('C'));
        for bad in [
            "",
            "e5",
            "e5e6e7e8",
            "e5e7f6CC",
            "a-b",
            "L e5-e6; M e6-e7",
            "e5-e6; e7-e8",
            "e2e4;;x",
            "é4é5",
        ] {
            assert!(read_request(bad).is_none(), "{bad}");
        }
    }
}
