//! The edge weights of the Dutch pairing (C.04.3 C.5-C.21 and the bracket
//! order rules), as bbpPairings (an endorsed FIDE program) lays them out:
//! each criterion a field of the weight, the most important highest, so a
//! maximum-weight matching satisfies them in order.

use super::players::{preferences_compatible, Float, Player};
use super::wide::Wide;
use std::collections::HashMap;

/// What the weights of one bracket depend on.
pub struct Context<'a> {
    pub players: &'a [Player],
    /// `forbidden[a]` holds the ids `a` has met (C.1).
    pub forbidden: &'a [Vec<bool>],
    pub played_rounds: usize,
    pub total_rounds: usize,
    /// Bits to count the players of the largest score group.
    pub group_bits: u32,
    /// Total width of a field with one counter per score group.
    pub groups_width: u32,
    /// Where each score's counter sits in such a field.
    pub group_shift: HashMap<u32, u32>,
    /// Score of the player who gets the bye (when the number is odd).
    pub bye_score: u32,
    pub single_downfloater_is_bye: bool,
    /// Rank of each number of played games among the players of the bye's score (C.9).
    pub unplayed_rank: HashMap<usize, u64>,
}

impl Context<'_> {
    /// Total bits a weight takes (plus room for the matching's dual variables).
    pub fn width(&self) -> u32 {
        let (b, g) = (self.group_bits, self.groups_width);
        let mut w = 2 + 2 * b + 2 * g + 2 * b + 4 * b + 3 * b + 1;
        if self.played_rounds >= 1 {
            w += 2 * b + 2 * g;
        }
        if self.played_rounds >= 2 {
            w += 2 * b + 2 * g;
        }
        w + 4
    }

    /// C.1-C.3: the two may meet.
    pub fn compatible(&self, a: &Player, b: &Player) -> bool {
        let threshold = self.played_rounds as u32; // half the maximum, in half points
        !self.forbidden[a.id][b.id]
            && (!a.absolute()
                || !b.absolute()
                || a.preference != b.preference
                || (self.played_rounds + 1 >= self.total_rounds
                    && (a.score > threshold || b.score > threshold)))
    }

    pub fn bye_candidate(&self, p: &Player) -> bool {
        p.bye_eligible && p.score <= self.bye_score
    }

    fn shift(&self, score: u32) -> u32 {
        self.group_shift[&score]
    }

    /// The weight of `higher` (ranked above) against `lower`; zero when they may not meet.
    pub fn weight<const L: usize>(
        &self,
        higher: &Player,
        lower: &Player,
        lower_in_bracket: bool,
        lower_in_next: bool,
    ) -> Wide<L> {
        if !self.compatible(higher, lower) {
            return Wide::ZERO;
        }
        let (b, g) = (self.group_bits, self.groups_width);
        let cur = lower_in_bracket;
        // C.4 completion, and the bye to one who may have it (C.2).
        let mut r = Wide::<L>::small(
            1 + u64::from(!self.bye_candidate(higher)) + u64::from(!self.bye_candidate(lower)),
        );
        // C.6: pairs in this bracket, then C.7: their scores.
        r = r.shl(b).or_small(u64::from(cur));
        r = r.shl(g);
        if cur {
            r = r.add(&Wide::bit(self.shift(higher.score)));
        }
        // C.8: pairs (and scores) in the next bracket.
        r = r.shl(b).or_small(u64::from(lower_in_next));
        r = r.shl(g);
        if lower_in_next {
            r = r.add(&Wide::bit(self.shift(higher.score)));
        }
        // C.9: the bye to the player with the fewest played games... counted by rank.
        r = r.shl(b).shl(b);
        if self.single_downfloater_is_bye {
            if higher.score == self.bye_score {
                r = r.or_small(self.unplayed_rank[&higher.played_games]);
            }
            if lower.score == self.bye_score {
                r = r.add_small(self.unplayed_rank[&lower.played_games]);
            }
        }
        // C.10-C.13: colours.
        r = colour_bits(r, lower, higher, cur, b);
        let down = |p: &Player, back: usize| p.floats[back - 1] == Float::Down;
        let up = |p: &Player, back: usize| p.floats[back - 1] == Float::Up;
        // C.14-C.17: repeated floats from one and two rounds before.
        for back in [1, 2] {
            if self.played_rounds < back {
                continue;
            }
            r = r.shl(b);
            if cur {
                r = r.or_small(u64::from(down(lower, back)));
                r = r.add_small(u64::from(higher.score <= lower.score && down(higher, back)));
            }
            r = r.shl(b);
            if cur {
                r = r.or_small(u64::from(!(higher.score > lower.score && up(lower, back))));
            }
        }
        // C.18-C.21: the scores of those repeated floaters.
        for back in [1, 2] {
            if self.played_rounds < back {
                continue;
            }
            r = r.shl(g);
            if cur {
                if down(lower, back) {
                    r = r.add(&Wide::bit(self.shift(lower.score)));
                }
                if down(higher, back) {
                    r = r.add(&Wide::bit(self.shift(higher.score)));
                }
            }
            r = r.shl(g);
            if cur && !(up(lower, back) && higher.score > lower.score) {
                r = r.add(&Wide::bit(self.shift(higher.score)));
            }
        }
        // Room for the order rules of homogeneous and heterogeneous brackets.
        r.shl(b).shl(b).shl(b).shl(1)
    }
}

/// C.10-C.13, for `player` against `opponent` (only inside the bracket).
fn colour_bits<const L: usize>(
    mut r: Wide<L>,
    player: &Player,
    opponent: &Player,
    in_bracket: bool,
    bits: u32,
) -> Wide<L> {
    let (p, o) = (player, opponent);
    let same = p.preference == o.preference;
    let invert = p.preference.map(|c| c.opponent());
    r = r.shl(bits);
    r = r.or_small(u64::from(
        in_bracket && (!p.absolute_imbalance() || !o.absolute_imbalance() || !same),
    ));
    r = r.shl(bits);
    let repeat_ok = if p.imbalance == o.imbalance {
        p.repeated.is_none() || p.repeated != o.repeated
    } else {
        let smaller = if p.imbalance > o.imbalance { o } else { p };
        smaller.repeated != invert
    };
    r = r.or_small(u64::from(
        in_bracket && (!p.absolute() || !o.absolute() || !same || repeat_ok),
    ));
    r = r.shl(bits);
    r = r.or_small(u64::from(
        in_bracket && preferences_compatible(p.preference, o.preference),
    ));
    r = r.shl(bits);
    r.or_small(u64::from(
        in_bracket
            && ((!p.strong && !p.absolute())
                || (!o.strong && !o.absolute())
                || (p.absolute() && o.absolute())
                || !same),
    ))
}
