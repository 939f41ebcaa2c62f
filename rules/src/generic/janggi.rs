//! Janggi on the generic engine, as Fairy-Stockfish plays it: the cannon
//! that hops over any piece but a cannon and takes no cannon, the palace
//! diagonals (`diagonalLines`) along which chariot, cannon, soldier, king
//! and advisors also move, passing (the king "moves" to its own square),
//! bikjang (kings facing on an open file must be parted; facing twice
//! running, or both sides passing in turn, ends the game), and janggi
//! notation (`R01-91`: rank digit counted from the top, then file).

use super::Generic;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind};
use crate::piece::{Color, Piece};
use crate::position::Position;

const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

impl Generic {
    fn is_cannon(&self, p: Piece) -> bool {
        self.spec.pieces[p.kind as usize].janggi_cannon
    }

    /// The cannon's hops from `from` along `dirs`: over a screen that is no
    /// cannon, to the empty squares beyond and the first piece there if it
    /// is an enemy and no cannon. `on_lines`: the diagonal hops stay on the
    /// palace diagonals.
    fn cannon_hops(
        &self,
        pos: &Position,
        from: Square,
        color: Color,
        dirs: &[(i8, i8)],
        on_lines: bool,
        emit: &mut dyn FnMut(Square, bool),
    ) {
        let lines = &self.spec.xiangqi.diagonal_lines;
        for &(dx, dy) in dirs {
            let mut sq = from;
            let mut screened = false;
            while let Some(to) = pos.step(sq, dx, dy) {
                if on_lines && !lines.contains(to) {
                    break;
                }
                sq = to;
                match pos.get(to) {
                    None if screened => emit(to, false),
                    None => {}
                    Some(p) if !screened => {
                        if self.is_cannon(p) {
                            break;
                        }
                        screened = true;
                    }
                    Some(p) => {
                        if p.color != color && !self.is_cannon(p) {
                            emit(to, true);
                        }
                        break;
                    }
                }
            }
        }
    }

    /// Targets `p` on `from` has besides its Betza movement (the palace
    /// diagonals), or instead of it (the cannon: `true` returned).
    pub(super) fn janggi_targets(
        &self,
        pos: &Position,
        from: Square,
        p: Piece,
        emit: &mut dyn FnMut(Square, bool),
    ) -> bool {
        let ps = &self.spec.pieces[p.kind as usize];
        let lines = &self.spec.xiangqi.diagonal_lines;
        let on_lines = lines.contains(from);
        if ps.janggi_cannon {
            self.cannon_hops(pos, from, p.color, &ORTHOGONAL, false, emit);
            if on_lines {
                self.cannon_hops(pos, from, p.color, &DIAGONAL, true, emit);
            }
            return true;
        }
        if !on_lines {
            return false;
        }
        let land = |to: Square, emit: &mut dyn FnMut(Square, bool)| match pos.get(to) {
            None => emit(to, false),
            Some(q) if q.color != p.color => emit(to, true),
            Some(_) => {}
        };
        if ps.name == "rook" {
            for (dx, dy) in DIAGONAL {
                let mut sq = from;
                while let Some(to) = pos.step(sq, dx, dy).filter(|s| lines.contains(*s)) {
                    land(to, emit);
                    if pos.get(to).is_some() {
                        break;
                    }
                    sq = to;
                }
            }
        } else if ps.soldier || ps.name == "wazir" || (ps.king && ps.betza == "W") {
            let forward = p.color.forward();
            for (dx, dy) in DIAGONAL {
                if ps.soldier && dy != forward {
                    continue;
                }
                if let Some(to) = pos.step(from, dx, dy).filter(|s| lines.contains(*s)) {
                    land(to, emit);
                }
            }
        }
        false
    }

    /// Whether `m` is a pass: the king to its own square.
    pub(super) fn is_pass(m: &Move) -> bool {
        m.kind == MoveKind::Normal && m.from == m.to
    }

    /// The pass, where the side to move may pass.
    pub(super) fn passes(&self, pos: &Position, out: &mut Vec<Move>) {
        if self.spec.xiangqi.pass[pos.side.index()] {
            if let Some(k) = self.king_square(pos, pos.side) {
                out.push(Move::normal(k, k));
            }
        }
    }

    /// Bikjang: the kings face each other with nothing between.
    pub(super) fn bikjang(&self, pos: &Position) -> bool {
        self.spec.xiangqi.bikjang && self.generals_face(pos)
    }

    /// Janggi notation as Fairy-Stockfish writes it (`NOTATION_JANGGI`):
    /// the piece, both squares as rank (from the top, 0 for the tenth)
    /// then file, `x` for a capture or `-`, and `+` or `#`.
    pub(super) fn janggi_notation(&self, pos: &Position, m: &Move) -> String {
        let square = |s: Square| format!("{}{}", (self.spec.height - s.rank()) % 10, s.file() + 1);
        let mover = pos.get(m.from).expect("a move starts on a piece");
        let ps = &self.spec.pieces[mover.kind as usize];
        let mut out = String::new();
        out.push(ps.synonym.unwrap_or(ps.letter).to_ascii_uppercase());
        out.push_str(&square(m.from));
        out.push(if Self::is_capture(pos, m) { 'x' } else { '-' });
        out.push_str(&square(m.to));
        out.push_str(self.check_mark(pos, m));
        out
    }
}
