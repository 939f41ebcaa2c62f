//! Fairy-Stockfish's `extinctionPseudoRoyal`: while a side is down to the
//! last of a type whose extinction loses (sho shogi's king until the drunk
//! elephant is crowned, coregal's queens), those pieces are royal for
//! legality: no move may leave one attacked, unless it takes one of the
//! opponent's. The game then ends only by mate: no legal move while one
//! is attacked (extinction is not looked for, since they cannot be
//! taken, save by atomic's blast). Check in notation is still the king's
//! alone, as in Fairy-Stockfish.

use super::Generic;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind};
use crate::piece::Color;
use crate::position::Position;

impl Generic {
    /// Whether a pseudo-royal piece of the side to move is attacked: with
    /// no legal move, that is mate, not stalemate.
    pub(super) fn pseudo_royal_attacked(&self, pos: &Position) -> bool {
        if !self.spec.extinction_pseudo_royal {
            return false;
        }
        let theirs = self.pseudo_royals(pos, pos.side.opponent());
        self.pseudo_royals(pos, pos.side)
            .into_iter()
            .any(|sq| self.royal_threatened(pos, sq, pos.side.opponent(), &theirs))
    }

    /// Whether `by` attacks the pseudo-royal piece on `sq`; under atomic's
    /// blast, never while it touches one of `by`'s own (`theirs`), which
    /// taking it would blow up.
    fn royal_threatened(&self, pos: &Position, sq: Square, by: Color, theirs: &[Square]) -> bool {
        let touching = self.spec.blast_on_capture
            && theirs.iter().any(|t| {
                (t.file() as i8 - sq.file() as i8).abs() <= 1
                    && (t.rank() as i8 - sq.rank() as i8).abs() <= 1
            });
        !touching && self.attacked_by(pos, sq, by)
    }

    /// Whether the castling king on `ksq` is pseudo-royal and so may not
    /// pass through `path` attacked.
    pub(super) fn castling_path_attacked(
        &self,
        pos: &Position,
        ksq: Square,
        path: &[Square],
    ) -> bool {
        let us = pos.side;
        if !self.spec.extinction_pseudo_royal || !self.pseudo_royals(pos, us).contains(&ksq) {
            return false;
        }
        let theirs = self.pseudo_royals(pos, us.opponent());
        path.iter()
            .any(|&sq| self.royal_threatened(pos, sq, us.opponent(), &theirs))
    }

    /// `color`'s pieces that are pseudo-royal in `pos`.
    fn pseudo_royals(&self, pos: &Position, color: Color) -> Vec<Square> {
        let Some(types) = &self.spec.extinction_types else {
            return Vec::new();
        };
        let most = usize::from(self.spec.extinction_piece_count) + 1;
        let royal_type = |k: u8| {
            types.contains(&k)
                && pos
                    .pieces()
                    .filter(|(_, p)| p.color == color && p.kind == k)
                    .count()
                    <= most
        };
        pos.pieces()
            .filter(|(_, p)| p.color == color && royal_type(p.kind))
            .map(|(sq, _)| sq)
            .collect()
    }

    /// Whether `m`, played from `pos` to `after`, leaves none of the
    /// mover's pseudo-royal pieces attacked (or takes one of the
    /// opponent's).
    /// Both sides' pseudo-royal pieces in `pos` (the side to move's
    /// first), once for all its moves; `None` where the rule is off.
    pub(super) fn royals_of(&self, pos: &Position) -> Option<[Vec<Square>; 2]> {
        self.spec.extinction_pseudo_royal.then(|| {
            [
                self.pseudo_royals(pos, pos.side),
                self.pseudo_royals(pos, pos.side.opponent()),
            ]
        })
    }

    pub(super) fn pseudo_royals_safe(
        &self,
        pos: &Position,
        [ours, theirs]: &[Vec<Square>; 2],
        m: &Move,
        after: &Position,
    ) -> bool {
        let us = pos.side;
        let them = us.opponent();
        let mut ours: Vec<Square> = ours
            .iter()
            .copied()
            .map(|sq| {
                if m.kind != MoveKind::Drop && sq == m.from {
                    m.to
                } else {
                    sq
                }
            })
            .collect();
        let types = self.spec.extinction_types.as_deref().unwrap_or(&[]);
        match m.piece {
            Some(p) if m.kind == MoveKind::Drop => {
                ours.extend(types.contains(&p.kind).then_some(m.to))
            }
            // A pawn's promotion to a royal type: royal while it is the
            // only one so many, else those of its type are royal no more.
            Some(p)
                if types.contains(&p.kind)
                    && pos
                        .get(m.from)
                        .is_some_and(|q| self.spec.pieces[q.kind as usize].pawn) =>
            {
                let before = pos
                    .pieces()
                    .filter(|(_, q)| q.color == us && q.kind == p.kind)
                    .count();
                if before > usize::from(self.spec.extinction_piece_count) {
                    ours.retain(|sq| pos.get(*sq).is_none_or(|q| q.kind != p.kind));
                } else {
                    ours.push(m.to);
                }
            }
            _ => {}
        }
        // Blowing up one's own is illegal, even when it takes theirs.
        if ours
            .iter()
            .any(|&sq| after.get(sq).is_none_or(|p| p.color != us))
        {
            return false;
        }
        if theirs
            .iter()
            .any(|&sq| after.get(sq).is_none_or(|p| p.color != them))
        {
            return true;
        }
        ours.iter()
            .all(|&sq| !self.royal_threatened(after, sq, them, theirs))
    }
}
