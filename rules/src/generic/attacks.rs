//! Whether a square is attacked, seen from the square: each capturing
//! direction of the attacking side is walked backwards from the target to
//! the first piece that could have made it, rather than every piece of that
//! side tried forwards. Legality asks this once for every move generated,
//! so it is most of perft's work.

use super::Generic;
use crate::geometry::{Square, SquareSet};
use crate::piece::Color;
use crate::position::Position;
use crate::spec::{Reach, Spec};

/// One capturing direction of one side, reversed: a piece of one of
/// `kinds` (bit per kind) found from the target along `(df, dr)` in the
/// way `reach` says attacks the target.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Backward {
    df: i8,
    dr: i8,
    reach: Reach,
    kinds: u32,
}

/// Per attacking colour (White, Black), its capturing directions reversed.
#[derive(Clone, Debug, Default)]
pub(super) struct Attacks([Vec<Backward>; 2]);

impl Attacks {
    pub(super) fn new(spec: &Spec) -> Attacks {
        let mut out: [Vec<Backward>; 2] = Default::default();
        for color in [Color::White, Color::Black] {
            let list = &mut out[color.index()];
            for (kind, piece) in spec.pieces.iter().enumerate() {
                for a in piece.movement.normal.iter().filter(|a| a.capture) {
                    let (df, dr) = Generic::dir(color, a);
                    let (df, dr) = (-df, -dr);
                    match list
                        .iter_mut()
                        .find(|b| b.df == df && b.dr == dr && b.reach == a.reach)
                    {
                        Some(b) => b.kinds |= 1 << kind,
                        None => list.push(Backward {
                            df,
                            dr,
                            reach: a.reach,
                            kinds: 1 << kind,
                        }),
                    }
                }
            }
            // Short reaches first: a knight or a pawn next to the king is
            // found before the long walks.
            list.sort_by_key(|b| !matches!(b.reach, Reach::Leap | Reach::Lame));
        }
        Attacks(out)
    }
}

impl Generic {
    /// Whether a piece of `color` attacks `target`, walking backwards from
    /// it; the same answer as trying each of `color`'s pieces forwards with
    /// an enemy piece on `target` (janggi's cannon, which may not take a
    /// cannon, is judged forwards).
    pub(super) fn attacked_backwards(&self, pos: &Position, target: Square, color: Color) -> bool {
        let c = color.index();
        // The piece found on `from`, if it is `color`'s, of one of `kinds`
        // and (xiangqi) allowed where `target` is.
        let attacker = |from: Square, kinds: u32| {
            pos.get(from).is_some_and(|p| {
                p.color == color
                    && kinds & (1 << p.kind) != 0
                    && (!self.slow_moves || self.may_reach(pos, from, p, target))
            })
        };
        for b in &self.attacks.0[c] {
            match b.reach {
                Reach::Leap => {
                    if let Some(from) = pos.step(target, b.df, b.dr) {
                        if attacker(from, b.kinds) {
                            return true;
                        }
                    }
                }
                Reach::Lame => {
                    if let Some(from) = pos.step(target, b.df, b.dr) {
                        if attacker(from, b.kinds) && Self::lame_path_clear(pos, from, -b.df, -b.dr)
                        {
                            return true;
                        }
                    }
                }
                Reach::Ride(limit) => {
                    let mut sq = target;
                    let mut n = 0;
                    while let Some(from) = pos.step(sq, b.df, b.dr) {
                        n += 1;
                        if pos.get(from).is_some() {
                            if attacker(from, b.kinds) {
                                return true;
                            }
                            break;
                        }
                        if limit != 0 && n >= limit {
                            break;
                        }
                        sq = from;
                    }
                }
                Reach::Hop | Reach::Grasshop => {
                    let mut sq = target;
                    let mut hurdle = false;
                    let mut first = true;
                    while let Some(from) = pos.step(sq, b.df, b.dr) {
                        if pos.get(from).is_some() {
                            if hurdle {
                                if attacker(from, b.kinds) {
                                    return true;
                                }
                                break;
                            }
                            hurdle = true;
                        } else if first && b.reach == Reach::Grasshop {
                            // A grasshopper lands right behind its hurdle.
                            break;
                        }
                        first = false;
                        sq = from;
                    }
                }
            }
        }
        false
    }
}

/// Where a move must not start or end for the king of the side to move,
/// not in check, to stay out of check without testing it: a piece leaving
/// `uncover` (pinned, or a horse's leg, or on a cannon's line) may open a
/// line to the king, one arriving on `hurdle` may become a cannon's
/// screen. Every other move of a piece other than the king leaves the
/// attacks on the king as they were: arriving on a rider's line only
/// blocks it, and a capture leaves a piece where one stood.
pub(super) struct Exposure {
    pub(super) king: Square,
    pub(super) uncover: SquareSet,
    pub(super) hurdle: SquareSet,
}

impl Generic {
    /// The squares of [`Exposure`] for the king on `king`, attacked by `by`.
    pub(super) fn exposure(&self, pos: &Position, king: Square, by: Color) -> Exposure {
        let mut e = Exposure {
            king,
            uncover: SquareSet::default(),
            hurdle: SquareSet::default(),
        };
        let us = by.opponent();
        for b in &self.attacks.0[by.index()] {
            match b.reach {
                Reach::Leap => {}
                Reach::Lame => {
                    // A leg matters only under a horse that stands there.
                    if let Some(from) = pos.step(king, b.df, b.dr) {
                        if pos
                            .get(from)
                            .is_some_and(|p| p.color == by && b.kinds & (1 << p.kind) != 0)
                        {
                            Self::lame_path(from, -b.df, -b.dr, |sq| {
                                e.uncover.insert(sq);
                                true
                            });
                        }
                    }
                }
                Reach::Ride(limit) => {
                    // Pinned: our first piece along the line, with one of
                    // the riders behind it and within its range.
                    let mut sq = king;
                    let mut n = 0;
                    let mut ours = None;
                    while let Some(next) = pos.step(sq, b.df, b.dr) {
                        n += 1;
                        if limit != 0 && n > limit {
                            break;
                        }
                        if let Some(p) = pos.get(next) {
                            match ours {
                                None if p.color == us => ours = Some(next),
                                Some(pinned) => {
                                    if p.color == by && b.kinds & (1 << p.kind) != 0 {
                                        e.uncover.insert(pinned);
                                    }
                                    break;
                                }
                                None => break,
                            }
                        }
                        sq = next;
                    }
                }
                Reach::Hop | Reach::Grasshop => {
                    // Any piece along a cannon's line may be its screen.
                    let mut sq = king;
                    while let Some(next) = pos.offset(sq, b.df, b.dr) {
                        e.uncover.insert(next);
                        e.hurdle.insert(next);
                        sq = next;
                    }
                }
            }
        }
        if self.spec.xiangqi.flying_general {
            // The other king may look down this file.
            for r in 0..pos.height {
                e.uncover.insert(Square::new(king.file(), r));
            }
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::Generic;
    use crate::piece::Color;
    use crate::variant::Variant;

    /// The backward walk answers as trying every piece forwards does, on
    /// every square of positions from random play in every definition
    /// variant (janggi, judged forwards anyway, aside).
    #[test]
    fn walking_backwards_finds_what_trying_each_piece_finds() {
        let mut checked = 0;
        for spec in crate::spec::builtin::generic_specs().1 {
            let name = spec.name.clone();
            let g = Generic::new(spec).expect("a definition's start");
            if g.janggi {
                continue;
            }
            for pos in crate::notation::positions_to_read_in(&g, &[], 1) {
                for sq in pos.squares() {
                    for color in [Color::White, Color::Black] {
                        assert_eq!(
                            g.attacked_backwards(&pos, sq, color),
                            g.attacked_forwards(&pos, sq, color),
                            "{name}: {} on {sq:?} by {color:?}",
                            g.fen(&pos),
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }
}
