//! The game's move list: plies grouped into numbered lines, and which
//! window of a long game the page lists.

use crate::db::moves::ListedMove;
use std::borrow::Borrow;

/// One move of the move list: a link to the position after it.
/// Its texts are borrowed from the listed plies: copying them out (and
/// freeing the copies) was a tenth of drawing a game page.
pub struct MoveCell<'a> {
    pub(crate) ply: i32,
    pub(crate) display: &'a str,
    pub(crate) comment: Option<&'a str>,
    pub(crate) current: bool,
    /// Played at once from its player's conditional line.
    pub(crate) conditional: bool,
}

pub struct MoveLine<'a> {
    pub(crate) number: usize,
    /// Black moved first in this line (custom start): show "…" for White.
    pub(crate) ellipsis: bool,
    pub(crate) first: Vec<MoveCell<'a>>,
    pub(crate) second: Vec<MoveCell<'a>>,
}

/// Which plies the page's move list shows (`first..=last` of `total`).
pub struct ListWindow {
    pub(crate) first: i32,
    pub(crate) last: i32,
    pub(crate) total: i32,
}

/// How many plies the game page lists (around the ply shown); the full list
/// is at `/games/{id}/moves` and in the exports.
pub const MOVE_WINDOW: i32 = 40;

/// The plies to list around `shown` of `total`: `MOVE_WINDOW` of them, the
/// shown ply among the last ten when possible.
pub fn window_around(shown: i32, total: i32) -> (i32, i32) {
    if total <= 0 {
        return (1, 0);
    }
    let last = (shown + 10).clamp(MOVE_WINDOW.min(total), total);
    let first = (last - MOVE_WINDOW + 1).max(1);
    (first, last)
}

/// The move list: one line per move number, White's ply (or plies) then
/// Black's, each a link to the position after it. The number stored with
/// each ply groups them, so a window of a long game lists correctly.
pub(crate) fn move_lines<M: Borrow<ListedMove>>(
    moves: &[M],
    black_id: Option<i32>,
    shown: i32,
) -> Vec<MoveLine<'_>> {
    let mut rows: Vec<MoveLine> = Vec::new();
    for m in moves {
        let m: &ListedMove = m.borrow();
        let black = Some(m.played_by) == black_id;
        let cell = MoveCell {
            ply: m.ply,
            display: &m.display,
            comment: m.comment.as_deref(),
            current: m.ply == shown,
            conditional: m.conditional,
        };
        let number = m.turn_no.max(0) as usize;
        match rows.last_mut() {
            Some(r) if r.number == number => {
                if black {
                    r.second.push(cell)
                } else {
                    r.first.push(cell)
                }
            }
            _ => {
                let (first, second) = if black {
                    (Vec::new(), vec![cell])
                } else {
                    (vec![cell], Vec::new())
                };
                rows.push(MoveLine {
                    number,
                    ellipsis: black,
                    first,
                    second,
                })
            }
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_holds_the_shown_ply() {
        assert_eq!(window_around(0, 0), (1, 0));
        assert_eq!(window_around(10, 10), (1, 10));
        assert_eq!(window_around(3, 10), (1, 10));
        assert_eq!(window_around(1000, 1000), (961, 1000));
        assert_eq!(window_around(0, 1000), (1, 40));
        assert_eq!(window_around(500, 1000), (471, 510));
        assert_eq!(window_around(995, 1000), (961, 1000));
        for total in [1, 39, 40, 41, 100] {
            for shown in 0..=total {
                let (first, last) = window_around(shown, total);
                assert!(first >= 1 && last <= total && last - first < MOVE_WINDOW);
                assert!(
                    shown == 0 || (first..=last).contains(&shown),
                    "{shown} {total}"
                );
                assert_eq!(last - first + 1, MOVE_WINDOW.min(total));
            }
        }
    }
}
