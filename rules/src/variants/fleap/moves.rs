//! Fleap movement: each face's destinations, placements of returned and
//! waiting tokens, Nukes, playing a move and the game's end.

use super::*;
use crate::geometry::Square;
use crate::movement::equihop::{equihops, line_clear, mirror_hops};
use crate::moves::{Move, MoveKind, Path, NO_SQUARE};
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;
use crate::variant::{Outcome, Reason};

/// The face a captured face-up token shows when it returns.
#[inline]
pub(crate) fn flipped(kind: Kind) -> Kind {
    kind + 5
}

#[inline]
pub(super) fn is_face_up(p: Piece) -> bool {
    !p.promoted && p.kind < PAWN
}

pub(super) fn sq(file: u8, rank: u8) -> Square {
    Square::new(file, rank)
}

/// Home squares of a token by its FIDE face: where tokens of its type stand
/// in the standard start position.
pub(crate) fn homes(face: Kind, color: Color) -> Vec<Square> {
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
pub(super) fn placements(face: Kind, color: Color, free: impl Fn(Square) -> bool) -> Vec<Square> {
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
pub(super) fn combinations(items: &[Square], r: usize) -> Vec<Vec<Square>> {
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
pub(crate) fn nuke_victims(pos: &Position, target: Square) -> Vec<Square> {
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
    /// Board destinations of the piece on `from` (no placements, no Nukes):
    /// `f(to, kind)` with kind `MoveKind::Normal` or a rifle capture (tag).
    pub(super) fn destinations(
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
    pub(super) fn nuke_targets(&self, pos: &Position, from: Square, mut f: impl FnMut(Square)) {
        equihops(pos, from, false, |_, _, land| f(land));
    }

    /// Every way the side to move may place its waiting tokens before its
    /// move: the position after placing, and the placement squares. Every
    /// token that can be placed is placed, kind by kind (Pawn, Knight,
    /// Bishop, Rook, King); tokens of one kind are alike, so each set of
    /// squares counts once.
    pub(super) fn waiting_placements(&self, pos: &Position) -> Vec<(Position, Path)> {
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
    pub(super) fn placement_sets(pos: &Position, face: Kind, count: usize) -> Vec<Vec<Square>> {
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
    pub(super) fn board_moves(&self, pos: &Position, path: Path, out: &mut Vec<Move>) {
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
    pub(super) fn push_with_return(&self, pos: &Position, m: Move, out: &mut Vec<Move>) {
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

    pub(crate) fn legal_moves(&self, pos: &Position) -> Vec<Move> {
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
    pub(super) fn place_waiting(&self, pos: &mut Position, m: &Move) {
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

    pub(crate) fn play(&self, pos: &Position, m: &Move) -> Position {
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

    pub(crate) fn outcome(&self, pos: &Position, legal: &[Move]) -> Option<Outcome> {
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
}
