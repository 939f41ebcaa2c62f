//! Makruk's and ASEAN chess's counting rules, as Fairy-Stockfish keeps
//! them (`Position::count_limit`, `do_move`): when a side is bared of
//! pawns and pieces, it counts the moves its opponent has left to mate
//! it, and a count run out is a draw. The count is carried in the FEN in
//! place of the en passant square and the halfmove clock
//! (`8/8/4k3/8/8/3R4/4K3/8 b - 32 6 1`).

use super::Generic;
use crate::moves::{Move, MoveKind};
use crate::piece::Color;
use crate::position::Position;
use crate::spec::CountingRule;

impl Generic {
    /// Pieces named `name` (a Fairy-Stockfish type: `rook`, `khon`...) of
    /// `color` on the board; `None` for all.
    pub(super) fn counted(
        &self,
        pos: &Position,
        color: Option<Color>,
        name: Option<&str>,
    ) -> usize {
        pos.pieces()
            .filter(|(_, p)| color.is_none_or(|c| p.color == c))
            .filter(|(_, p)| name.is_none_or(|n| self.spec.pieces[p.kind as usize].name == n))
            .count()
    }

    /// The moves `side` may count to, 0 where it does not count
    /// (Fairy-Stockfish's `count_limit`).
    fn count_limit(&self, rule: CountingRule, pos: &Position, side: Color) -> u16 {
        let other = side.opponent();
        let pawns = self.counted(pos, None, Some("pawn"));
        let own = self.counted(pos, Some(side), None);
        let theirs = |name| self.counted(pos, Some(other), Some(name));
        match rule {
            CountingRule::Makruk => {
                if pawns > 0 || self.counted(pos, Some(other), None) == 1 {
                    0
                } else if own > 1 {
                    // The board's honour: 64 moves, whatever is left.
                    64
                } else if theirs("rook") > 1 {
                    8
                } else if theirs("rook") == 1 {
                    16
                } else if theirs("khon") > 1 {
                    22
                } else if theirs("knight") > 1 {
                    32
                } else if theirs("khon") == 1 {
                    44
                } else {
                    64
                }
            }
            CountingRule::Asean => {
                if pawns > 0 || own > 1 {
                    0
                } else if theirs("rook") > 0 {
                    16
                } else if theirs("khon") > 0 {
                    44
                } else if theirs("knight") > 0 {
                    64
                } else {
                    0
                }
            }
        }
    }

    /// The count after `m` (played from `before`) left `p`.
    pub(super) fn update_counting(&self, before: &Position, m: &Move, p: &mut Position) {
        let Some(rule) = self.spec.counting_rule else {
            return;
        };
        if p.counting_limit > 0 {
            p.counting_ply = p.counting_ply.saturating_add(1);
        }
        let mover = before.side;
        let to_move = p.side;
        let captured = match m.kind {
            MoveKind::Drop | MoveKind::Castle => None,
            MoveKind::EnPassant => before.get(m.extra[0]),
            _ => before.get(m.to),
        };
        let promotion = m.kind != MoveKind::Drop && m.piece.is_some();
        let all = self.counted(p, None, None) as u16;
        // A bare king took the last pawn: its side counts from the
        // pieces on the board.
        if rule != CountingRule::Asean
            && captured.is_some_and(|c| self.spec.pieces[c.kind as usize].pawn)
            && self.counted(p, Some(mover), None) == 1
            && self.counted(p, None, Some("pawn")) == 0
        {
            let limit = self.count_limit(rule, p, mover);
            if limit > 0 {
                p.counting_limit = 2 * limit;
                p.counting_ply = 2 * all - 1;
            }
        }
        let bared = (captured.is_some() || promotion) && self.counted(p, Some(to_move), None) == 1;
        if p.counting_limit == 0 || bared {
            let limit = self.count_limit(rule, p, to_move);
            if limit > 0 {
                p.counting_limit = 2 * limit;
                p.counting_ply =
                    if rule == CountingRule::Asean || self.counted(p, Some(to_move), None) > 1 {
                        0
                    } else {
                        2 * all
                    };
            }
        }
    }

    /// Whether the count has run out: a draw (asked after mate, which a
    /// last counted move may still give).
    pub(super) fn count_run_out(&self, pos: &Position) -> bool {
        self.spec.counting_rule.is_some()
            && pos.counting_limit > 0
            && pos.counting_ply > pos.counting_limit
    }
}
