//! What every process's PostgreSQL transactions changed, as far as a game
//! page can tell, for the game pages this process keeps
//! ([`crate::page_cache`]).
//!
//! Several server processes may share one PostgreSQL database, and none of
//! them sees the others' commits the way SQLite's hooks see this process's
//! ([`super::changes`]). So the database says it itself: triggers on every
//! table a game page reads (migration `2026-11-26-000000_page_changes`)
//! write one row per transaction and game into `page_changes` (game 0 for a
//! change to anything else: a user, a session, leave, a tournament), in the
//! transaction that makes the change. A thread of each process looks at the
//! table every [`LOOK_EVERY`] on a connection of its own (every
//! [`IDLE_LOOK_EVERY`] while no kept page is asked for) and moves the
//! versions of the games it finds ([`Watch`]).
//!
//! Rows are read by transaction id. Ids are handed out as transactions
//! begin to write but become visible as they commit, so a look reads every
//! row of the transactions not yet finished at the look before (those with
//! ids from that look's snapshot's `xmin` up), and each row is counted once.
//! Rows are pruned a minute after their transaction began; a look that
//! comes later than [`BLIND_AFTER`] after the one before, or the first one
//! on a new connection, moves everything instead ([`prune`]).
//!
//! The look is a round trip, so a commit is seen up to one look late. The
//! page cache sends a kept page again only while the last look began within
//! [`TRUSTED_FOR`], and this process's own writes move the versions they may
//! have touched before their answers go out ([`Watch::wrote`]), so a player
//! who posts a move sees it on the next page at once, whichever other
//! process had the page.

use super::changes::{Version, Versions};
use super::{DbConn, Manager};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Nullable, Text};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Weak};
use std::time::{Duration, Instant};

/// How often the table is looked at while kept pages are asked for.
pub const LOOK_EVERY: Duration = Duration::from_millis(5);
/// How often otherwise: a server nobody views pages on asks its database
/// four times a second, not two hundred. The first kept page asked for
/// after a pause is drawn again (the last look is too old to trust it),
/// and the looks that follow come every [`LOOK_EVERY`].
const IDLE_LOOK_EVERY: Duration = Duration::from_millis(250);
/// Pages asked for within this long keep the looks at [`LOOK_EVERY`].
const BUSY_FOR: Duration = Duration::from_secs(2);
/// A kept page is sent again only if the last look began this recently.
pub const TRUSTED_FOR: Duration = Duration::from_millis(100);
/// Rows are pruned after a minute; a look this much later than the one
/// before may have missed pruned rows, so it moves everything.
const BLIND_AFTER: Duration = Duration::from_secs(30);
const PRUNE_EVERY: Duration = Duration::from_secs(10);
/// Between tries to reconnect.
const RETRY_AFTER: Duration = Duration::from_millis(500);

/// Watches one PostgreSQL database's changes for as long as it lives.
pub struct Watch {
    shared: Arc<Shared>,
}

struct Shared {
    versions: Versions,
    /// When the last look that succeeded began, in microseconds after
    /// [`EPOCH`] (0: none yet, or the connection was lost since).
    last_look: AtomicU64,
    /// When a kept page was last asked for, likewise, to the millisecond.
    last_asked: AtomicU64,
}

static EPOCH: LazyLock<Instant> = LazyLock::new(Instant::now);

fn micros_since_epoch(t: Instant) -> u64 {
    t.saturating_duration_since(*EPOCH).as_micros() as u64 + 1
}

impl Watch {
    /// Start watching the database `manager` opens (PostgreSQL).
    pub fn start(manager: Manager) -> Watch {
        let shared = Arc::new(Shared {
            versions: Versions::new(),
            last_look: AtomicU64::new(0),
            last_asked: AtomicU64::new(0),
        });
        let weak = Arc::downgrade(&shared);
        let spawned = std::thread::Builder::new()
            .name("page-changes".into())
            .spawn(move || look_until_dropped(manager, weak));
        if let Err(e) = spawned {
            tracing::warn!("cannot watch the database for changes, no game page is kept: {e}");
        }
        Watch { shared }
    }

    /// The version of `game` now. Read it before reading the game.
    pub fn version_of(&self, game: i32) -> Version {
        self.shared.versions.of(game)
    }

    /// Whether the last look began recently enough for kept pages to be
    /// trusted ([`TRUSTED_FOR`]). Asking keeps the looks coming every
    /// [`LOOK_EVERY`] for [`BUSY_FOR`].
    pub fn up_to_date(&self) -> bool {
        let now = micros_since_epoch(Instant::now());
        // Written at most once a millisecond: every worker asks on every
        // kept page, and a store each time would bounce the line between
        // cores.
        if now.saturating_sub(self.shared.last_asked.load(Ordering::Relaxed)) > 1000 {
            self.shared.last_asked.store(now, Ordering::Relaxed);
        }
        let last = self.shared.last_look.load(Ordering::Acquire);
        last != 0 && now.saturating_sub(last) < TRUSTED_FOR.as_micros() as u64
    }

    /// This process has just committed a write to `game`, or (`None`) to
    /// anything: its own next page must not wait for the next look.
    pub fn wrote(&self, game: Option<i64>) {
        self.shared.versions.moved(game);
    }
}

/// One row of a look: the snapshot's horizon, and a change (none when the
/// table has no row past the horizon asked for).
#[derive(QueryableByName)]
struct Seen {
    #[diesel(sql_type = Text)]
    horizon: String,
    #[diesel(sql_type = Nullable<Text>)]
    xid: Option<String>,
    #[diesel(sql_type = Nullable<BigInt>)]
    game_id: Option<i64>,
}

/// What the looks so far have read.
#[derive(Default)]
struct Reader {
    /// The oldest transaction still running at the last look (`None`: no
    /// look yet on this connection).
    horizon: Option<u64>,
    /// The rows read of transactions from the horizon up, read again by the
    /// next look and not counted twice.
    counted: HashSet<(u64, i64)>,
    last_began: Option<Instant>,
}

impl Reader {
    /// Take in one look's rows; `moved` is called with each change first
    /// seen (`None`: anything).
    fn take(&mut self, began: Instant, rows: &[Seen], mut moved: impl FnMut(Option<i64>)) -> bool {
        let Some(horizon) = rows.first().and_then(|r| r.horizon.parse::<u64>().ok()) else {
            return false;
        };
        let blind = self.horizon.is_none()
            || self
                .last_began
                .is_none_or(|t| began.duration_since(t) > BLIND_AFTER);
        if blind {
            moved(None);
        }
        for row in rows {
            let (Some(xid), Some(game)) = (&row.xid, row.game_id) else {
                continue;
            };
            let Ok(xid) = xid.parse::<u64>() else {
                moved(None);
                continue;
            };
            if self.counted.insert((xid, game)) && !blind {
                moved((game != 0).then_some(game));
            }
        }
        self.counted.retain(|&(xid, _)| xid >= horizon);
        self.horizon = Some(horizon);
        self.last_began = Some(began);
        true
    }
}

fn look(conn: &mut DbConn, from: Option<u64>) -> QueryResult<Vec<Seen>> {
    let DbConn::Postgresql(pg) = conn else {
        return Err(diesel::result::Error::NotFound);
    };
    // The first look reads from its own horizon: it moves everything, and
    // the rows it counts are not taken for news by the next.
    let from = from.unwrap_or(u64::MAX);
    diesel::sql_query(
        "SELECT h.horizon::text AS horizon, c.xid::text AS xid, c.game_id \
         FROM (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS horizon) h \
         LEFT JOIN page_changes c ON c.xid >= LEAST($1::xid8, h.horizon)",
    )
    .bind::<Text, _>(from.to_string())
    .load(pg)
}

/// Forget the changes of transactions begun more than a minute ago (none
/// on SQLite, which has no such table). Each watch does it every
/// [`PRUNE_EVERY`], and the clock worker on each pass, so the table stays
/// small whether pages are kept or not. Several processes may prune at
/// once.
pub fn prune(conn: &mut DbConn) -> QueryResult<usize> {
    let DbConn::Postgresql(pg) = conn else {
        return Ok(0);
    };
    diesel::sql_query("DELETE FROM page_changes WHERE at < now() - interval '1 minute'").execute(pg)
}

fn look_until_dropped(manager: Manager, shared: Weak<Shared>) {
    let mut conn: Option<DbConn> = None;
    let mut reader = Reader::default();
    let mut last_prune: Option<Instant> = None;
    let mut warned = false;
    loop {
        // The watch was dropped: so is its thread.
        let Some(s) = shared.upgrade() else { return };
        let c = match conn.as_mut() {
            Some(c) => c,
            None => match manager.open() {
                Ok(c) => {
                    reader = Reader::default();
                    conn.insert(c)
                }
                Err(e) => {
                    if !std::mem::replace(&mut warned, true) {
                        tracing::warn!("cannot watch the database for changes, no game page is kept until it can: {e}");
                    }
                    drop(s);
                    std::thread::sleep(RETRY_AFTER);
                    continue;
                }
            },
        };
        let began = Instant::now();
        match look(c, reader.horizon) {
            Ok(rows) if reader.take(began, &rows, |g| s.versions.moved(g)) => {
                s.last_look
                    .store(micros_since_epoch(began), Ordering::Release);
                if warned {
                    tracing::info!("watching the database for changes again");
                    warned = false;
                }
            }
            result => {
                s.last_look.store(0, Ordering::Release);
                if !std::mem::replace(&mut warned, true) {
                    tracing::warn!(
                        "lost the database's changes, no game page is kept until they are back: {:?}",
                        result.err()
                    );
                }
                conn = None;
                drop(s);
                std::thread::sleep(RETRY_AFTER);
                continue;
            }
        }
        if last_prune.is_none_or(|t| t.elapsed() > PRUNE_EVERY) {
            last_prune = Some(Instant::now());
            if let Err(e) = prune(c) {
                tracing::warn!("cannot prune page_changes: {e}");
            }
        }
        let asked = s.last_asked.load(Ordering::Relaxed);
        let busy =
            micros_since_epoch(Instant::now()).saturating_sub(asked) < BUSY_FOR.as_micros() as u64;
        drop(s);
        if busy {
            std::thread::sleep(LOOK_EVERY);
        } else {
            // In steps, so a page asked for soon brings the looks back.
            let idle_since = Instant::now();
            while idle_since.elapsed() < IDLE_LOOK_EVERY {
                std::thread::sleep(LOOK_EVERY * 4);
                match shared.upgrade() {
                    Some(s) if s.last_asked.load(Ordering::Relaxed) != asked => break,
                    Some(_) => {}
                    None => return,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(horizon: u64, change: Option<(u64, i64)>) -> Seen {
        Seen {
            horizon: horizon.to_string(),
            xid: change.map(|c| c.0.to_string()),
            game_id: change.map(|c| c.1),
        }
    }

    fn take(reader: &mut Reader, began: Instant, rows: &[Seen]) -> Vec<Option<i64>> {
        let mut moved = Vec::new();
        assert!(reader.take(began, rows, |g| moved.push(g)));
        moved
    }

    #[test]
    fn each_change_is_counted_once_and_the_first_look_moves_everything() {
        let t = Instant::now();
        let mut r = Reader::default();
        assert_eq!(take(&mut r, t, &[row(100, None)]), vec![None], "first look");
        // Transaction 99 is still running: the horizon stays below 100.
        assert_eq!(
            take(
                &mut r,
                t,
                &[row(99, Some((100, 7))), row(99, Some((100, 0)))]
            ),
            vec![Some(7), None]
        );
        // 99's rows come once it has committed, beside 100's read again.
        assert_eq!(
            take(
                &mut r,
                t,
                &[
                    row(102, Some((99, 9))),
                    row(102, Some((100, 7))),
                    row(102, Some((103, 9)))
                ]
            ),
            vec![Some(9), Some(9)]
        );
        assert_eq!(
            r.counted,
            HashSet::from([(103, 9)]),
            "rows below the horizon forgotten"
        );
        assert_eq!(take(&mut r, t, &[row(104, Some((103, 9)))]), vec![]);
    }

    #[test]
    fn a_late_look_moves_everything() {
        let t = Instant::now();
        let mut r = Reader::default();
        take(&mut r, t, &[row(5, None)]);
        // Transaction 5 still runs; 6 committed: counted, within everything.
        assert_eq!(
            take(
                &mut r,
                t + BLIND_AFTER + Duration::from_secs(1),
                &[row(5, Some((6, 3)))]
            ),
            vec![None]
        );
        assert_eq!(
            take(&mut r, t + BLIND_AFTER * 2, &[row(7, Some((6, 3)))]),
            vec![]
        );
    }

    #[test]
    fn a_look_without_a_horizon_is_refused() {
        let mut r = Reader::default();
        assert!(!r.take(Instant::now(), &[], |_| panic!("nothing to move")));
        let bad = Seen {
            horizon: "x".into(),
            xid: None,
            game_id: None,
        };
        assert!(!r.take(Instant::now(), &[bad], |_| panic!("nothing to move")));
        assert!(r.horizon.is_none());
    }
}
