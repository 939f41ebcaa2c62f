//! Game pages as last sent, kept for a moment and sent again while nothing
//! they show has changed.
//!
//! A correspondence game's page is looked at far more often than it changes,
//! and once restoring, listing and drawing were kept (`position_cache`), the
//! session lookup and the game's reads were the page's largest cost: with
//! them, a page took three to four times the CPU of a trivial handler
//! (163-194 µs against 44-64), and a kept page sent again under twice
//! (84-90 µs; `bench/http.sh`, README "Game pages kept as sent").
//!
//! A kept page is only sent again when both hold:
//! - **Nothing it shows was committed since it was read.** Every SQLite
//!   connection this process opens reports what its commits changed
//!   ([`crate::db::changes`]): the rows of one game (its row, moves,
//!   repetition history, notes), tables no game page reads (the outbox,
//!   login attempts), or anything else. A page is kept with its game's
//!   version seen before its reads began, so a commit that its reads could
//!   have missed has moved it by the time the page is asked for again. A
//!   move in another game, or a mail marked sent, leaves it; a change to its
//!   own game, or to anything not known to belong to one game (a user's
//!   settings, a session ended, leave booked), drops it.
//! - **It is younger than [`Config::page_cache_ms`](crate::config::Config)**
//!   (1 s unless set). This bounds what the versions cannot see: a commit by
//!   another process on the same file (the `missive user` commands), and
//!   what the page draws from the clock alone (time left, a session's
//!   expiry).
//!
//! A page is found by everything it was drawn for: the game, the ply asked
//! for, the session cookie and the CSRF token. On SQLite only in WAL mode
//! (the commit is reported only there). PostgreSQL servers may be several
//! processes on one database, none seeing the others' commits: there the
//! database reports what every transaction changed, and each process looks
//! every few milliseconds ([`crate::db::page_changes`]); a page is sent
//! again only while the last look is recent, and a process's own writes
//! count at once ([`PageCache::wrote`]).

use crate::db::changes::{version_of, Version};
use crate::db::page_changes::Watch;
use actix_web::web::Bytes;
use quick_cache::sync::Cache;
use quick_cache::Weighter;
use std::time::{Duration, Instant};

/// What a page was drawn for.
#[derive(Clone, Hash, PartialEq, Eq)]
pub struct PageKey {
    pub game: i32,
    pub ply: Option<i64>,
    pub session: Option<String>,
    pub csrf: String,
}

#[derive(Clone)]
struct Kept {
    version: Version,
    at: Instant,
    body: Bytes,
}

#[derive(Clone)]
struct Size;

impl Weighter<PageKey, Kept> for Size {
    fn weight(&self, k: &PageKey, v: &Kept) -> u64 {
        (v.body.len() + k.csrf.len() + k.session.as_ref().map_or(0, String::len) + 64) as u64
    }
}

pub struct PageCache {
    pages: Option<Cache<PageKey, Kept, Size>>,
    fresh_for: Duration,
    changes: Changes,
}

/// Where the changes to the pages' database are seen.
pub enum Changes {
    /// This process's SQLite commits ([`crate::db::changes`]).
    Sqlite,
    /// A PostgreSQL database's, from its `page_changes` table.
    Postgres(Watch),
    /// Nowhere: nothing can be kept.
    Unseen,
}

impl Changes {
    fn version_of(&self, game: i32) -> Version {
        match self {
            Changes::Postgres(watch) => watch.version_of(game),
            Changes::Sqlite | Changes::Unseen => version_of(game),
        }
    }

    fn up_to_date(&self) -> bool {
        match self {
            Changes::Sqlite => true,
            Changes::Postgres(watch) => watch.up_to_date(),
            Changes::Unseen => false,
        }
    }
}

/// The game a request's path names (`/games/{id}/...`), if any.
pub fn game_of_path(path: &str) -> Option<i32> {
    let mut parts = path.strip_prefix("/games/")?.split('/');
    parts.next()?.parse().ok()
}

/// The game's version seen before a page's reads began: what the page is
/// kept with ([`PageCache::keep`]).
#[derive(Clone, Copy)]
pub struct Seen {
    version: Version,
    at: Instant,
}

impl PageCache {
    /// About `bytes` of pages, each sent again for at most `fresh_for`; none
    /// kept when either is zero or the changes are not seen. `changes` is
    /// called only when pages may be kept (on PostgreSQL it opens the
    /// watch's connection).
    pub fn new(changes: impl FnOnce() -> Changes, bytes: u64, fresh_for: Duration) -> PageCache {
        let changes = if bytes > 0 && !fresh_for.is_zero() {
            changes()
        } else {
            Changes::Unseen
        };
        let on = !matches!(changes, Changes::Unseen);
        PageCache {
            pages: on
                .then(|| Cache::with_weighter(((bytes / 16_384) as usize).max(16), bytes, Size)),
            fresh_for,
            changes,
        }
    }

    /// This process has just committed a request's writes, to the game
    /// named (or to anything): on PostgreSQL, where the database's own
    /// report comes with the next look, the writer's next page must not be
    /// an older one. (SQLite's hooks have counted them already.)
    pub fn wrote(&self, game: Option<i32>) {
        if let Changes::Postgres(watch) = &self.changes {
            watch.wrote(game.map(i64::from));
        }
    }

    pub fn is_on(&self) -> bool {
        self.pages.is_some()
    }

    /// The page kept for `key`, if nothing it shows was committed since it
    /// was read and it is still fresh.
    pub fn get(&self, key: &PageKey) -> Option<Bytes> {
        let pages = self.pages.as_ref()?;
        // Asked first: on PostgreSQL asking keeps the looks coming.
        let trusted = self.changes.up_to_date();
        let kept = pages.get(key)?;
        (trusted
            && kept.version == self.changes.version_of(key.game)
            && kept.at.elapsed() < self.fresh_for)
            .then_some(kept.body)
    }

    /// Call before the first read of a page of `game`.
    pub fn seen(&self, game: i32) -> Seen {
        Seen {
            version: self.changes.version_of(game),
            at: Instant::now(),
        }
    }

    /// Keep `body`, drawn from reads that began after `seen`.
    pub fn keep(&self, key: PageKey, seen: Seen, body: Bytes) {
        if let Some(pages) = &self.pages {
            pages.insert(
                key,
                Kept {
                    version: seen.version,
                    at: seen.at,
                    body,
                },
            );
        }
    }
}
