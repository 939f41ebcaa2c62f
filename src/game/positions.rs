//! Games restored from their stored FEN and history, with their legal-move
//! lists, kept for the positions seen lately (board pictures are kept by
//! `web::views::pictures`).
//!
//! Restoring, listing and drawing were over a quarter of a game page's CPU
//! (`perf`), and a correspondence game's page is seen many times between two
//! moves. A restored game is found by the game's identity (id and creation
//! time), its ply and its FEN: a game's moves are never changed once stored
//! (no takebacks, no deleted games, ids never reused), so its repetition
//! history at a ply is fixed, and the page need not even read it (it is
//! kilobytes in a long game) unless the game must be restored. A picture is
//! found by its content: the FEN, the side at the bottom and the last move's
//! squares. So no entry can be stale: a move makes a new key, and an entry
//! that a newer one replaces is simply never asked for again. Keys are
//! 64-bit hashes, and every hit is checked against the entry's own copy of
//! what it was found by, so a hash collision costs a miss, never a wrong page.

use crate::db::games::GameRow;
use crate::domain::error::Error;
use crate::domain::ids::GameId;
use chrono::NaiveDateTime;
use missive_rules::Game;
use quick_cache::sync::Cache;
use quick_cache::Weighter;
use std::any::Any;
use std::hash::{BuildHasher, Hash};
use std::sync::{Arc, OnceLock};

/// What a restored game is found by: which game, at which ply and FEN.
#[derive(Hash, PartialEq)]
struct GameKey<'a> {
    variant: &'a str,
    id: GameId,
    created_at: NaiveDateTime,
    /// A taken-back ply can be played again differently: the same ply and
    /// FEN reached another way has another repetition history.
    takebacks: i32,
    ply: i32,
    fen: &'a str,
}

impl<'a> GameKey<'a> {
    fn of(row: &'a GameRow) -> GameKey<'a> {
        GameKey {
            variant: &row.variant,
            id: row.id,
            created_at: row.created_at,
            takebacks: row.takebacks,
            ply: row.ply,
            fen: &row.fen,
        }
    }

    /// The game of `row` once `plies` moves have left `fen`.
    fn after_moves(row: &'a GameRow, plies: i32, fen: &'a str) -> GameKey<'a> {
        GameKey {
            ply: row.ply + plies,
            fen,
            ..GameKey::of(row)
        }
    }
}

/// A game restored from its stored position and history.
pub struct Restored {
    variant: &'static str,
    game_id: GameId,
    created_at: NaiveDateTime,
    takebacks: i32,
    ply: i32,
    fen: String,
    pub game: Game,
    /// What a view made of the position, kept with it ([`Restored::kept_view`]).
    view: OnceLock<Arc<dyn Any + Send + Sync>>,
}

impl Restored {
    fn key(&self) -> GameKey<'_> {
        GameKey {
            variant: self.variant,
            id: self.game_id,
            created_at: self.created_at,
            takebacks: self.takebacks,
            ply: self.ply,
            fen: &self.fen,
        }
    }

    /// What `make` makes of the position (the game page's list of legal
    /// moves, `web::views::legal_moves`), made on first use and kept with
    /// the game: a page seen by the player not to move never needs it, and
    /// one seen again does not make it again. One view is kept: asked for
    /// another type, it is made afresh.
    pub fn kept_view<T: Any + Send + Sync>(&self, make: impl FnOnce(&Game) -> T) -> Arc<T> {
        if let Some(kept) = self.view.get() {
            if let Ok(view) = kept.clone().downcast::<T>() {
                return view;
            }
        }
        let view = Arc::new(make(&self.game));
        let _ = self.view.set(view.clone());
        view
    }
}

/// Weights are bytes, roughly: the FEN kept, the game's history (its entries
/// take about as much as their text, 17 bytes), and a fixed allowance for
/// the position, its legal moves and their written list.
#[derive(Clone)]
struct Bytes;

impl Weighter<u64, Arc<Restored>> for Bytes {
    fn weight(&self, _: &u64, r: &Arc<Restored>) -> u64 {
        (r.fen.len() + 17 * r.game.history().len() + 8192) as u64
    }
}

pub struct PositionCache {
    games: Cache<u64, Arc<Restored>, Bytes>,
    hasher: std::collections::hash_map::RandomState,
}

impl PositionCache {
    /// A cache holding about `bytes` of games.
    pub fn new(bytes: u64) -> PositionCache {
        PositionCache {
            games: Cache::with_weighter(((bytes / 16_384) as usize).max(16), bytes, Bytes),
            hasher: Default::default(),
        }
    }

    fn key(&self, parts: impl Hash) -> u64 {
        self.hasher.hash_one(parts)
    }

    /// The game of `row`, restored once from its FEN and the history that
    /// `history` reads ([`crate::db::games::history_of`]).
    pub fn game(
        &self,
        row: &GameRow,
        history: impl FnOnce() -> Result<String, Error>,
    ) -> Result<Arc<Restored>, Error> {
        let key = GameKey::of(row);
        let hash = self.key(&key);
        if let Some(r) = self.games.get(&hash) {
            if r.key() == key {
                return Ok(r);
            }
        }
        let game = crate::game::restore::restore_with(row, &history()?)?;
        Ok(self.keep(key, game))
    }

    /// Keep `game`, which a move has just made of the game of `row`,
    /// leaving `fen`, in place of the game `row` names, which no page will
    /// ask for again. Left in, such entries filled the cache with positions
    /// that each had one hit, so that a new one, not yet asked for, was
    /// evicted first: every long game's next move read its history again.
    pub fn keep_move(&self, row: &GameRow, fen: &str, game: Game) -> Arc<Restored> {
        self.keep_moves(row, 1, fen, game)
    }

    /// [`PositionCache::keep_move`] for `plies` moves stored together (a
    /// move and the conditional replies it set off).
    pub fn keep_moves(&self, row: &GameRow, plies: i32, fen: &str, game: Game) -> Arc<Restored> {
        let before = GameKey::of(row);
        self.games
            .remove_if(&self.key(&before), |r| r.key() == before);
        self.keep(GameKey::after_moves(row, plies, fen), game)
    }

    /// Keep `game`, the game that `key` names.
    fn keep(&self, key: GameKey, game: Game) -> Arc<Restored> {
        let r = Arc::new(Restored {
            variant: game.variant().id(),
            game_id: key.id,
            created_at: key.created_at,
            takebacks: key.takebacks,
            ply: key.ply,
            fen: key.fen.to_string(),
            game,
            view: OnceLock::new(),
        });
        self.games.insert(self.key(&key), r.clone());
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use missive_rules::Variant;
    use std::cell::Cell;

    fn chess() -> &'static dyn Variant {
        missive_rules::variant("chess").unwrap()
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

    /// Game `id` of chess at `ply` with `fen`.
    fn row(id: i32, ply: i32, fen: &str) -> GameRow {
        let at = chrono::DateTime::from_timestamp(1_700_000_000, 0).unwrap();
        GameRow::for_tests(id, ply, fen, at.naive_utc())
    }

    /// A history reader that counts its reads.
    fn reading<'a>(
        reads: &'a Cell<u32>,
        history: &'a str,
    ) -> impl FnOnce() -> Result<String, Error> + 'a {
        move || {
            reads.set(reads.get() + 1);
            Ok(history.to_string())
        }
    }

    #[test]
    fn a_kept_game_is_the_one_asked_for() {
        let cache = PositionCache::new(1 << 20);
        let reads = Cell::new(0);
        let a = cache.game(&row(1, 0, START), reading(&reads, "")).unwrap();
        let again = cache.game(&row(1, 0, START), reading(&reads, "")).unwrap();
        assert!(
            Arc::ptr_eq(&a, &again),
            "the second ask is served from the cache"
        );
        assert_eq!(reads.get(), 1, "the history is read only to restore");
        let b = cache.game(&row(1, 1, E4), reading(&reads, "")).unwrap();
        assert!(!Arc::ptr_eq(&a, &b));
        assert_eq!(reads.get(), 2);
        assert_eq!(
            a.game.fen(),
            Game::restore(chess(), START, "").unwrap().fen()
        );
        assert_eq!(b.game.fen(), Game::restore(chess(), E4, "").unwrap().fen());
        let made = std::cell::Cell::new(0);
        let count = |g: &Game| {
            made.set(made.get() + 1);
            g.legal_moves().len()
        };
        assert_eq!(*b.kept_view(count), 20);
        assert_eq!(*b.kept_view(count), 20);
        assert_eq!(made.get(), 1, "a view is made once and kept");
        assert_eq!(*b.kept_view(|_| "another type"), "another type");
    }

    #[test]
    fn a_bad_position_or_history_is_an_error_not_a_kept_game() {
        let cache = PositionCache::new(1 << 20);
        let reads = Cell::new(0);
        assert!(cache
            .game(&row(1, 0, "not a fen"), reading(&reads, ""))
            .is_err());
        assert!(cache
            .game(&row(2, 0, START), reading(&reads, "not hex"))
            .is_err());
        let failing = || Err(Error::internal("no history".to_string()));
        assert!(cache.game(&row(3, 0, START), failing).is_err());
        assert_eq!(cache.games.len(), 0);
        assert_eq!(reads.get(), 2);
    }

    /// Another game, another ply or another creation time is another
    /// entry, even at the same FEN: the history at a game's ply is what
    /// differs (here, a position seen before counts for repetition).
    #[test]
    fn the_game_and_its_ply_are_the_key() {
        let cache = PositionCache::new(1 << 20);
        let reads = Cell::new(0);
        let once = Game::restore(chess(), START, "").unwrap().history_string();
        let plain = cache.game(&row(1, 0, START), reading(&reads, "")).unwrap();
        let twice = format!("{once},{once}");
        let mut at_4 = row(1, 4, START);
        let other_ply = cache.game(&at_4, reading(&reads, &twice)).unwrap();
        let other_game = cache.game(&row(2, 0, START), reading(&reads, "")).unwrap();
        at_4.created_at += chrono::Duration::seconds(1);
        let other_time = cache.game(&at_4, reading(&reads, "")).unwrap();
        assert_eq!(reads.get(), 4);
        assert!(!Arc::ptr_eq(&plain, &other_ply));
        assert!(!Arc::ptr_eq(&plain, &other_game));
        assert!(!Arc::ptr_eq(&other_ply, &other_time));
        assert_eq!(other_ply.game.history_string(), twice);
        assert_eq!(plain.game.history_string(), once);
    }

    /// The server keeps the game a move leaves: the page after the move
    /// (and the next move) finds it without reading the history.
    #[test]
    fn a_kept_move_is_found_by_the_row_it_leaves() {
        let cache = PositionCache::new(1 << 20);
        let reads = Cell::new(0);
        let before = row(1, 0, START);
        let mut game = cache
            .game(&before, reading(&reads, ""))
            .unwrap()
            .game
            .clone();
        let (e4, _) = game.parse_move("e4").unwrap();
        game.play(&e4);
        let (fen, history) = (game.fen(), game.history_string());
        cache.keep_move(&before, &fen, game);
        let after = cache
            .game(&row(1, 1, &fen), reading(&reads, &history))
            .unwrap();
        assert_eq!(reads.get(), 1, "the game after the move is not restored");
        assert_eq!(cache.games.len(), 1, "the game before the move is dropped");
        assert_eq!(after.game.fen(), E4);
        assert_eq!(after.game.history_string(), history);
    }

    /// `MISSIVE_POSITION_CACHE_MB=0`: nothing is kept, every answer is
    /// worked out afresh and still right.
    #[test]
    fn a_cache_of_no_size_keeps_nothing() {
        let cache = PositionCache::new(0);
        let reads = Cell::new(0);
        let a = cache.game(&row(1, 0, START), reading(&reads, "")).unwrap();
        let b = cache.game(&row(1, 0, START), reading(&reads, "")).unwrap();
        assert!(!Arc::ptr_eq(&a, &b));
        assert_eq!(b.game.legal_moves().len(), 20);
        assert_eq!(cache.games.len(), 0);
    }

    /// Far more positions than fit: the cache stays within its budget and
    /// every answer is still the right game.
    #[test]
    fn a_full_cache_evicts_and_stays_right() {
        let cache = PositionCache::new(64 * 1024);
        let mut game = Game::new(chess(), None).unwrap();
        let reads = Cell::new(0);
        for ply in 1..=40 {
            let Some(mv) = game.legal_moves().first().copied() else {
                break;
            };
            game.play(&mv);
            let history = game.history_string();
            let r = cache
                .game(&row(1, ply, &game.fen()), reading(&reads, &history))
                .unwrap();
            assert_eq!(r.game.fen(), game.fen());
            assert_eq!(r.game.history_string(), history);
        }
        assert!(cache.games.weight() <= 64 * 1024);
        assert!(cache.games.len() < 40);
    }
}
