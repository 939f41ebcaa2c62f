//! Fairy-Stockfish's `materialCounting`: who wins a game that would end
//! drawn (armageddon's draw odds, janggi's points).

use super::Generic;
use crate::piece::Color;
use crate::position::Position;
use crate::spec::MaterialCounting;
use crate::variant::{Outcome, Reason};

impl Generic {
    /// A draw at `pos` for `reason`, or the side the count gives it to.
    pub(super) fn draw_or_count(&self, pos: &Position, reason: Reason) -> Outcome {
        let Some(rule) = self.spec.material_counting else {
            return Outcome::draw(reason);
        };
        let diff = |name: Option<&str>| {
            self.counted(pos, Some(Color::White), name) as i64
                - self.counted(pos, Some(Color::Black), name) as i64
        };
        let white_wins = match rule {
            MaterialCounting::Janggi => Some(
                13 * diff(Some("rook"))
                    + 7 * diff(Some("janggiCannon"))
                    + 5 * diff(Some("horse"))
                    + 3 * diff(Some("janggiElephant"))
                    + 3 * diff(Some("wazir"))
                    + 2 * diff(Some("soldier"))
                    // Han's (Black's) one and a half points for moving second.
                    - 1
                    > 0,
            ),
            MaterialCounting::Unweighted => match diff(None).signum() {
                1 => Some(true),
                -1 => Some(false),
                _ => None,
            },
            MaterialCounting::WhiteDrawOdds => Some(true),
            MaterialCounting::BlackDrawOdds => Some(false),
        };
        match white_wins {
            Some(true) => Outcome::win(Color::White, reason),
            Some(false) => Outcome::win(Color::Black, reason),
            None => Outcome::draw(reason),
        }
    }
}
