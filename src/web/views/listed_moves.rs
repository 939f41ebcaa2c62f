//! The plies a game page lists, kept between page views.
//!
//! Reading the forty listed plies was the largest single part of a game
//! page's CPU after its thread hops (`perf`, docs/performance.md), and a
//! correspondence game is looked at many times between two moves. A stored
//! ply never changes but by a takeback, which the game row counts
//! (`takebacks`, part of what an entry is checked against): moves are
//! otherwise only ever inserted, each under its own (game, ply) key, and
//! games are never deleted. So a window of plies, once read whole, stays
//! right until the game's next takeback; the game's creation time is part
//! of what an entry is checked against too, so even a
//! game id given again to a new game (a database edited by hand) cannot be
//! shown another game's moves. Several server processes on one database
//! each keep their own: there is nothing to invalidate.

use crate::db::games::GameRow;
use crate::db::moves::ListedMove;
use crate::domain::error::Error;
use crate::domain::ids::GameId;
use chrono::NaiveDateTime;
use quick_cache::sync::Cache;
use quick_cache::Weighter;
use std::sync::Arc;

struct Window {
    created_at: NaiveDateTime,
    /// Plies taken back may be played again differently.
    takebacks: i32,
    moves: Listed,
}

/// A window's plies, each shared: the window one ply longer, made after a
/// move, takes the plies it shares with the one before by reference
/// (copying their texts and freeing the copies was a tenth of a view after
/// a move; docs/performance.md).
pub type Listed = Arc<[Arc<ListedMove>]>;

/// Weights are bytes, roughly: each ply's texts and a fixed allowance.
#[derive(Clone)]
struct Bytes;

impl Weighter<(GameId, i32, i32), Arc<Window>> for Bytes {
    fn weight(&self, _: &(GameId, i32, i32), w: &Arc<Window>) -> u64 {
        w.moves
            .iter()
            .map(|m| {
                let squares = m.from_square.as_ref().map_or(0, String::len) + m.to_square.len();
                let comment = m.comment.as_ref().map_or(0, String::len);
                (m.display.len() + squares + m.fen_after.len() + comment + 96) as u64
            })
            .sum::<u64>()
            + 64
    }
}

pub struct ListedMoves {
    windows: Cache<(GameId, i32, i32), Arc<Window>, Bytes>,
}

impl ListedMoves {
    /// A cache holding about `bytes` of listed plies (0: keeps nothing).
    pub fn new(bytes: u64) -> ListedMoves {
        ListedMoves {
            windows: Cache::with_weighter(((bytes / 8_192) as usize).max(16), bytes, Bytes),
        }
    }

    /// Plies `first..=last` of the game `row`, in order: kept, or read with
    /// `read(from, to)` and kept when it returned every one of them (a
    /// window read short is shown as read, and read again next time). When
    /// the window one ply shorter is kept (the page before the game's last
    /// move), its plies are taken from it and only the newer ones read.
    pub fn window(
        &self,
        row: &GameRow,
        first: i32,
        last: i32,
        read: impl FnOnce(i32, i32) -> Result<Vec<ListedMove>, Error>,
    ) -> Result<Listed, Error> {
        if first > last {
            // Nothing to list (a game with no moves yet): nothing to read.
            return Ok(Arc::from([]));
        }
        if let Some(kept) = self.kept(row, first, last) {
            return Ok(kept);
        }
        // The window before the last ply: the same first ply (a short
        // game), or one before it (a window sliding along a long one).
        let before = [first - 1, first]
            .into_iter()
            .filter(|&f| f >= 1 && f < last)
            .find_map(|f| Some((f, self.kept(row, f, last - 1)?)));
        let moves: Listed = match &before {
            Some((_, before)) => {
                let mut moves: Vec<Arc<ListedMove>> =
                    before.iter().filter(|m| m.ply >= first).cloned().collect();
                moves.extend(read(last, last)?.into_iter().map(Arc::new));
                moves.into()
            }
            None => read(first, last)?.into_iter().map(Arc::new).collect(),
        };
        let whole = moves.iter().map(|m| m.ply).eq(first..=last);
        // Only plies the game already has: `last` past its end would be a
        // window that a later move fills in (and a game with none has no
        // window to keep).
        if whole && first <= last && last <= row.ply {
            self.windows.insert(
                (row.id, first, last),
                Arc::new(Window {
                    created_at: row.created_at,
                    takebacks: row.takebacks,
                    moves: moves.clone(),
                }),
            );
            // The window before the move is superseded: only a replay of
            // the ply before would ask for it again. Left in, it would push
            // out other games' windows once the cache is full.
            if let Some((f, _)) = before {
                self.windows.remove(&(row.id, f, last - 1));
            }
        }
        Ok(moves)
    }

    /// The kept window `first..=last` of the game `row`, if it is this game's.
    fn kept(&self, row: &GameRow, first: i32, last: i32) -> Option<Listed> {
        self.windows
            .get(&(row.id, first, last))
            .filter(|w| w.created_at == row.created_at && w.takebacks == row.takebacks)
            .map(|w| w.moves.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn game(id: i32, ply: i32, created_at: NaiveDateTime) -> GameRow {
        GameRow::for_tests(id, ply, "", created_at)
    }

    fn plies(first: i32, last: i32, tag: &str) -> Vec<ListedMove> {
        (first..=last)
            .map(|ply| ListedMove {
                ply,
                display: format!("{tag}{ply}"),
                from_square: Some("e2".into()),
                to_square: "e4".into(),
                fen_after: "8/8/8/8/8/8/8/8 w - - 0 1".into(),
                played_by: 1,
                comment: None,
                turn_no: (ply + 1) / 2,
                conditional: false,
            })
            .collect()
    }

    fn at(secs: i64) -> NaiveDateTime {
        chrono::DateTime::from_timestamp(secs, 0)
            .unwrap()
            .naive_utc()
    }

    #[test]
    fn a_whole_window_is_read_once() {
        let cache = ListedMoves::new(1 << 20);
        let row = game(7, 12, at(1_000));
        let reads = Cell::new(0);
        let read = |tag: &'static str| {
            let reads = &reads;
            move |_: i32, _: i32| {
                reads.set(reads.get() + 1);
                Ok(plies(3, 12, tag))
            }
        };
        let a = cache.window(&row, 3, 12, read("a")).unwrap();
        let b = cache.window(&row, 3, 12, read("b")).unwrap();
        assert_eq!(reads.get(), 1);
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(b[0].display, "a3");
        // Another window of the same game, or the same window of another
        // game, is read for itself.
        cache
            .window(&row, 4, 12, |_, _| Ok(plies(4, 12, "c")))
            .unwrap();
        let other = cache
            .window(&game(8, 12, at(1_000)), 3, 12, read("d"))
            .unwrap();
        assert_eq!((reads.get(), other[0].display.as_str()), (2, "d3"));
    }

    #[test]
    fn an_empty_window_reads_nothing() {
        let cache = ListedMoves::new(1 << 20);
        let listed = cache
            .window(&game(7, 0, at(1_000)), 1, 0, |_, _| panic!("read"))
            .unwrap();
        assert!(listed.is_empty());
    }

    #[test]
    fn a_new_game_under_an_old_id_is_read_afresh() {
        let cache = ListedMoves::new(1 << 20);
        cache
            .window(&game(7, 5, at(1_000)), 1, 5, |_, _| Ok(plies(1, 5, "old")))
            .unwrap();
        let again = cache
            .window(&game(7, 5, at(2_000)), 1, 5, |_, _| Ok(plies(1, 5, "new")))
            .unwrap();
        assert_eq!(again[0].display, "new1");
    }

    #[test]
    fn a_window_read_short_or_past_the_end_is_not_kept() {
        let cache = ListedMoves::new(1 << 20);
        let row = game(7, 5, at(1_000));
        let reads = Cell::new(0);
        for _ in 0..2 {
            let short = cache
                .window(&row, 1, 5, |_, _| {
                    reads.set(reads.get() + 1);
                    let mut p = plies(1, 5, "x");
                    p.remove(2);
                    Ok(p)
                })
                .unwrap();
            assert_eq!(short.len(), 4, "shown as read");
        }
        assert_eq!(reads.get(), 2, "a window with a ply missing is read again");
        for _ in 0..2 {
            cache
                .window(&row, 1, 6, |_, _| {
                    reads.set(reads.get() + 1);
                    Ok(plies(1, 6, "x"))
                })
                .unwrap();
        }
        assert_eq!(reads.get(), 4, "plies past the game's end are not kept");
        let err = cache.window(&row, 1, 5, |_, _| Err(Error::internal("disk")));
        assert!(err.is_err(), "a failed read is the page's error");
        let zero = ListedMoves::new(0);
        for _ in 0..2 {
            zero.window(&row, 1, 5, |_, _| {
                reads.set(reads.get() + 1);
                Ok(plies(1, 5, "x"))
            })
            .unwrap();
        }
        assert_eq!(reads.get(), 6, "a cache of no size keeps nothing");
    }

    /// After a move, the window ending at the new ply takes the plies it
    /// shares with the kept window ending at the ply before, and reads only
    /// the new one: in a short game (same first ply) and in a long one (the
    /// window slides by one). What it makes is kept like a window read whole,
    /// in place of the one it extended.
    #[test]
    fn a_window_one_ply_longer_reads_only_the_new_ply() {
        let cache = ListedMoves::new(1 << 20);
        let reads = std::cell::RefCell::new(Vec::new());
        let read = |tag: &'static str| {
            let reads = &reads;
            move |from: i32, to: i32| {
                reads.borrow_mut().push((from, to));
                Ok(plies(from, to, tag))
            }
        };
        cache
            .window(&game(7, 5, at(1_000)), 1, 5, read("a"))
            .unwrap();
        let six = cache
            .window(&game(7, 6, at(1_000)), 1, 6, read("b"))
            .unwrap();
        let shown: Vec<&str> = six.iter().map(|m| m.display.as_str()).collect();
        assert_eq!(shown, ["a1", "a2", "a3", "a4", "a5", "b6"]);
        cache
            .window(&game(7, 6, at(1_000)), 1, 6, read("c"))
            .unwrap();
        assert_eq!(*reads.borrow(), [(1, 5), (6, 6)]);
        // A long game: 3..=42, then 4..=43.
        cache
            .window(&game(9, 42, at(1_000)), 3, 42, read("x"))
            .unwrap();
        let next = cache
            .window(&game(9, 43, at(1_000)), 4, 43, read("y"))
            .unwrap();
        assert_eq!(next.len(), 40);
        assert_eq!((next[0].ply, next[0].display.as_str()), (4, "x4"));
        assert_eq!(next[39].display, "y43");
        assert_eq!(reads.borrow()[2..], [(3, 42), (43, 43)]);
        // The window it extended is superseded and given up; a replay of
        // the ply before reads it again.
        assert!(cache.kept(&game(9, 43, at(1_000)), 3, 42).is_none());
        assert!(cache.kept(&game(9, 43, at(1_000)), 4, 43).is_some());
        // The new ply not there yet (read short): shown as read, not kept.
        let short = cache
            .window(&game(9, 44, at(1_000)), 5, 44, |_, _| Ok(Vec::new()))
            .unwrap();
        assert_eq!(short.len(), 39);
        let again = cache
            .window(&game(9, 44, at(1_000)), 5, 44, read("w"))
            .unwrap();
        assert_eq!(again[39].display, "w44");
        // Another game under the same id shares nothing.
        cache
            .window(&game(9, 43, at(2_000)), 4, 43, read("z"))
            .unwrap();
        assert_eq!(reads.borrow().last(), Some(&(4, 43)));
    }
}
