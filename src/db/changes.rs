//! What this process's SQLite commits changed, as far as a game page can
//! tell: one game's rows, or anything else.
//!
//! Kept game pages ([`crate::page_cache`]) are checked against these
//! versions. With one count for every commit, a move in any game dropped
//! every kept page, so beside games in play almost every page was drawn
//! again. Here SQLite reports every row it changes to each connection's
//! pre-update hook, which, unlike its update hook, also sees `WITHOUT ROWID`
//! tables such as `moves`, and the rows a trigger or a cascade changes. Each
//! change is sorted by its table ([`kind_of`]):
//! - rows that belong to one game (`games`, `moves`, `game_histories`,
//!   `game_notes`): the game is noted, read from the row's own column,
//!   before and after the change;
//! - tables no game page reads (the outbox, login attempts, request keys,
//!   the digest and verification-mail marks): nothing is noted;
//! - any other table, a table whose layout is not the one the migrations
//!   made, or a game column that cannot be read: everything is.
//!
//! When the commit is done (SQLite's WAL hook), the version of each noted
//! game moves, or the version of everything. A commit that reported no row
//! change at all (a schema change is not reported) moves everything too, so
//! a write that is not understood can only drop more pages, never keep a
//! stale one. Games share 4,096 versions by their id: two games on one
//! version drop each other's pages, nothing worse. A rollback forgets what
//! its transaction noted. A commit that wrote no byte (an UPDATE that set
//! what was there: SQLite leaves such a page clean) never reaches the WAL
//! hook; what it noted is published with the connection's next commit, and
//! a connection closed first leaves it to the next one opened at the same
//! address: more pages dropped, never fewer.
//!
//! Commits by other processes on the same file are not seen; the page
//! cache's time limit bounds those.

use libsqlite3_sys as ffi;
use std::collections::HashMap;
use std::ffi::CStr;
use std::os::raw::{c_char, c_int, c_void};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{LazyLock, Mutex, OnceLock};

/// Every commit, whatever it changed.
static COMMITS: AtomicU64 = AtomicU64::new(0);
/// What this process's SQLite commits changed.
static SQLITE: Versions = Versions::new();
const SLOTS: usize = 4096;

/// Counts of the changes seen, for game pages: one for changes that may
/// have touched anything, and one for each game, shared by the games whose
/// ids are equal modulo [`SLOTS`]. SQLite's hooks move one set for the
/// whole process; each PostgreSQL database watched has its own
/// ([`super::page_changes`]).
pub struct Versions {
    everything: AtomicU64,
    games: [AtomicU64; SLOTS],
}

impl Default for Versions {
    fn default() -> Versions {
        Versions::new()
    }
}

impl Versions {
    pub const fn new() -> Versions {
        Versions {
            everything: AtomicU64::new(0),
            games: [const { AtomicU64::new(0) }; SLOTS],
        }
    }

    /// The version of `game` now. Read it before reading the game: whatever
    /// was read after may be out of date once the version has moved.
    pub fn of(&self, game: i32) -> Version {
        Version {
            everything: self.everything.load(Ordering::Acquire),
            game: self.games[slot(game as i64)].load(Ordering::Acquire),
        }
    }

    /// `game` changed, or (`None`) anything may have.
    pub fn moved(&self, game: Option<i64>) {
        match game {
            Some(g) => self.games[slot(g)].fetch_add(1, Ordering::AcqRel),
            None => self.everything.fetch_add(1, Ordering::AcqRel),
        };
    }
}

/// What a connection's open transaction has changed so far, by connection.
static PENDING: LazyLock<Mutex<HashMap<usize, Pending>>> = LazyLock::new(Mutex::default);

/// Past this many games in one transaction, everything is noted instead (a
/// connection not in WAL mode never reaches the WAL hook to clear its list).
const MOST_GAMES: usize = 64;

#[derive(Default, Debug, PartialEq)]
struct Pending {
    games: Vec<i64>,
    everything: bool,
}

/// How a change to a table concerns game pages.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// Each row belongs to one game, named in this column.
    Game(GameColumn),
    /// No game page reads it.
    Unread,
    /// Anything may have changed.
    Everything,
}

/// Where a table names its game: the column's index, and how many columns
/// the table has (a row of another width is not this table as migrated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct GameColumn {
    index: i32,
    width: i32,
}

/// Tables whose rows each belong to one game, and the column naming it.
/// PostgreSQL's triggers (migration `2026-11-26-000000_page_changes`) sort
/// the tables as these two lists do; a test holds them to it
/// (`every_postgres_table_a_game_page_reads_reports_its_changes`).
pub const GAME_TABLES: [(&str, &str); 4] = [
    ("games", "id"),
    ("moves", "game_id"),
    ("game_histories", "game_id"),
    ("game_notes", "game_id"),
];

/// Tables no game page reads: what their changes touch is mail, logins and
/// request bookkeeping. (`sessions` is not here: a logout must drop the
/// pages kept for its cookie.)
pub const UNREAD_TABLES: [&str; 5] = [
    "email_outbox",
    "login_attempts",
    "request_keys",
    "digest_sent",
    "verify_mail_sent",
];

/// Where each game table names its game, as the migrations laid it out.
/// Learnt from the database after migrating ([`learn_layout`]); until then,
/// or when two databases of this process disagree, changes to those tables
/// note everything.
static LAYOUT: OnceLock<Vec<(&'static str, GameColumn)>> = OnceLock::new();
static LAYOUTS_DISAGREE: AtomicBool = AtomicBool::new(false);

/// A point in the changes seen, for one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Version {
    pub everything: u64,
    pub game: u64,
}

/// The version of `game` in this process's SQLite commits now. Read it
/// before reading the game: whatever was read after may be out of date once
/// the version has moved.
pub fn version_of(game: i32) -> Version {
    SQLITE.of(game)
}

/// How many write transactions SQLite connections of this process have
/// committed (in WAL mode), counted once each commit is done.
pub fn commits() -> u64 {
    COMMITS.load(Ordering::Acquire)
}

fn slot(game: i64) -> usize {
    game.rem_euclid(SLOTS as i64) as usize
}

/// How a change to `table` concerns game pages, given where the game tables
/// name their games (`None`: not known).
fn kind_of(table: &[u8], layout: Option<&[(&'static str, GameColumn)]>) -> Kind {
    if UNREAD_TABLES.iter().any(|t| t.as_bytes() == table) {
        return Kind::Unread;
    }
    match layout {
        Some(tables) => tables
            .iter()
            .find(|(t, _)| t.as_bytes() == table)
            .map_or(Kind::Everything, |(_, c)| Kind::Game(*c)),
        None => Kind::Everything,
    }
}

impl Pending {
    /// Note one change: the games it touched (`None`: one could not be read,
    /// or the table concerns everything).
    fn note(&mut self, games: Option<&[i64]>) {
        match games {
            Some(gs) if !self.everything => {
                for &g in gs {
                    if !self.games.contains(&g) {
                        self.games.push(g);
                    }
                }
                if self.games.len() > MOST_GAMES {
                    self.note(None);
                }
            }
            Some(_) => {}
            None => {
                self.everything = true;
                self.games = Vec::new();
            }
        }
    }
}

/// What a commit changed: the versions it moves.
#[derive(Debug, PartialEq)]
enum Moved {
    Everything,
    Games(Vec<i64>),
}

/// What a commit moves, from what its transaction noted (`None`: no row
/// change was reported, as for a schema change).
fn settle(pending: Option<Pending>) -> Moved {
    match pending {
        Some(p) if !p.everything => Moved::Games(p.games),
        _ => Moved::Everything,
    }
}

fn publish(moved: Moved) {
    match moved {
        Moved::Everything => SQLITE.moved(None),
        Moved::Games(games) => {
            for g in games {
                SQLITE.moved(Some(g));
            }
        }
    }
    COMMITS.fetch_add(1, Ordering::AcqRel);
}

fn pending<T>(f: impl FnOnce(&mut HashMap<usize, Pending>) -> T) -> T {
    f(&mut PENDING.lock().unwrap_or_else(|e| e.into_inner()))
}

/// Learn where the game tables name their games, from a database the
/// migrations have just brought up to date.
pub(super) fn learn_layout(conn: &mut diesel::SqliteConnection) -> diesel::QueryResult<()> {
    use diesel::prelude::*;
    #[derive(diesel::QueryableByName)]
    struct Column {
        #[diesel(sql_type = diesel::sql_types::Text)]
        name: String,
    }
    let mut layout = Vec::new();
    for (table, column) in GAME_TABLES {
        let columns: Vec<Column> =
            diesel::sql_query(format!("PRAGMA table_info({table})")).load(conn)?;
        let Some(index) = columns.iter().position(|c| c.name == column) else {
            // Not this schema: leave every change to note everything.
            LAYOUTS_DISAGREE.store(true, Ordering::Release);
            return Ok(());
        };
        layout.push((
            table,
            GameColumn {
                index: index as i32,
                width: columns.len() as i32,
            },
        ));
    }
    if *LAYOUT.get_or_init(|| layout.clone()) != layout {
        LAYOUTS_DISAGREE.store(true, Ordering::Release);
    }
    Ok(())
}

fn layout() -> Option<&'static [(&'static str, GameColumn)]> {
    if LAYOUTS_DISAGREE.load(Ordering::Acquire) {
        return None;
    }
    LAYOUT.get().map(Vec::as_slice)
}

/// Set this module's hooks on a connection SQLite has just opened.
///
/// # Safety
/// `db` must be an open connection, as SQLite hands it to an auto-extension.
pub(super) unsafe fn watch(db: *mut ffi::sqlite3) {
    // SAFETY: the caller's connection; each hook is given the connection
    // itself as its argument, and none outlives it.
    unsafe {
        ffi::sqlite3_commit_hook(db, Some(committing), db.cast());
        ffi::sqlite3_rollback_hook(db, Some(rolled_back), db.cast());
        ffi::sqlite3_preupdate_hook(db, Some(changing), db.cast());
    }
}

/// SQLite's pre-update hook: called before each row of a real table is
/// inserted, updated or deleted.
unsafe extern "C" fn changing(
    _: *mut c_void,
    db: *mut ffi::sqlite3,
    op: c_int,
    _schema: *const c_char,
    table: *const c_char,
    _old_rowid: ffi::sqlite3_int64,
    _new_rowid: ffi::sqlite3_int64,
) {
    // SAFETY: SQLite passes the changed table's name, NUL-terminated.
    let table = unsafe { CStr::from_ptr(table) }.to_bytes();
    let games = match kind_of(table, layout()) {
        Kind::Everything => None,
        Kind::Unread => Some(Games::default()),
        // SAFETY: called from within the pre-update hook, as these must be.
        Kind::Game(column) => unsafe { games_of_row(db, op, column) },
    };
    pending(|map| {
        map.entry(db as usize)
            .or_default()
            .note(games.as_ref().map(Games::as_slice))
    });
}

/// The games one changed row belongs to: before the change and after it,
/// at most two.
#[derive(Default)]
struct Games {
    ids: [i64; 2],
    len: usize,
}

impl Games {
    fn push(&mut self, game: i64) {
        self.ids[self.len] = game;
        self.len += 1;
    }
    fn as_slice(&self) -> &[i64] {
        &self.ids[..self.len]
    }
}

/// The game a changing row belongs to, before and after the change; `None`
/// when the row is not as the layout says or its game is not a number.
///
/// # Safety
/// Only from within SQLite's pre-update hook for `db`.
unsafe fn games_of_row(db: *mut ffi::sqlite3, op: c_int, column: GameColumn) -> Option<Games> {
    // SAFETY: the hook's connection, during the hook.
    if unsafe { ffi::sqlite3_preupdate_count(db) } != column.width {
        return None;
    }
    let read = |old: bool| -> Option<i64> {
        let mut value: *mut ffi::sqlite3_value = std::ptr::null_mut();
        // SAFETY: as above; SQLite sets `value` to a value it owns for the
        // rest of the hook, and it is read before the hook returns.
        unsafe {
            let rc = if old {
                ffi::sqlite3_preupdate_old(db, column.index, &mut value)
            } else {
                ffi::sqlite3_preupdate_new(db, column.index, &mut value)
            };
            (rc == ffi::SQLITE_OK
                && !value.is_null()
                && ffi::sqlite3_value_type(value) == ffi::SQLITE_INTEGER)
                .then(|| ffi::sqlite3_value_int64(value))
        }
    };
    let mut games = Games::default();
    if op != ffi::SQLITE_INSERT {
        games.push(read(true)?);
    }
    if op != ffi::SQLITE_DELETE {
        games.push(read(false)?);
    }
    Some(games)
}

/// SQLite's rollback hook: the transaction's changes are gone.
unsafe extern "C" fn rolled_back(db: *mut c_void) {
    pending(|map| map.remove(&(db as usize)));
}

/// SQLite's commit hook, called as each commit begins: it sets the WAL
/// hook ([`committed`]), which cannot be set when the connection opens
/// (SQLite sets its own after the auto-extensions have run), and which the
/// commit calls once done. Setting it again each time is two stores, and
/// keeps it set whatever ran since (`PRAGMA wal_autocheckpoint` sets it too).
unsafe extern "C" fn committing(db: *mut c_void) -> c_int {
    // SAFETY: the pointer is the connection whose commit calls this hook,
    // given as the hook's argument when the connection opened.
    unsafe {
        ffi::sqlite3_wal_hook(db.cast(), Some(committed), std::ptr::null_mut());
    }
    0 // go on with the commit
}

/// SQLite's WAL hook, which it calls after each commit, once the write lock
/// is released: the commit's changes are published. Setting it replaces
/// SQLite's own hook, whose only work is the automatic checkpoint, so that
/// is done here as SQLite does it (a passive checkpoint once the log holds
/// 1,000 pages, its default).
unsafe extern "C" fn committed(
    _: *mut c_void,
    db: *mut ffi::sqlite3,
    schema: *const c_char,
    frames: c_int,
) -> c_int {
    publish(settle(pending(|map| map.remove(&(db as usize)))));
    if frames >= 1000 {
        // SAFETY: SQLite hands over the connection and schema name it
        // committed on; checkpointing from the hook is what its own does.
        unsafe { ffi::sqlite3_wal_checkpoint(db, schema) };
    }
    ffi::SQLITE_OK
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAYOUT: [(&str, GameColumn); 2] = [
        (
            "games",
            GameColumn {
                index: 0,
                width: 20,
            },
        ),
        (
            "moves",
            GameColumn {
                index: 0,
                width: 12,
            },
        ),
    ];

    #[test]
    fn tables_are_sorted_by_what_game_pages_read() {
        let layout = Some(&LAYOUT[..]);
        assert_eq!(kind_of(b"moves", layout), Kind::Game(LAYOUT[1].1));
        assert_eq!(kind_of(b"email_outbox", layout), Kind::Unread);
        assert_eq!(kind_of(b"request_keys", None), Kind::Unread);
        for other in [
            "users",
            "sessions",
            "tournaments",
            "leave_bookings",
            "moves_by_game",
        ] {
            assert_eq!(
                kind_of(other.as_bytes(), layout),
                Kind::Everything,
                "{other}"
            );
        }
        assert_eq!(kind_of(b"games", None), Kind::Everything, "layout unknown");
    }

    #[test]
    fn a_commit_moves_its_games_or_everything() {
        assert_eq!(settle(None), Moved::Everything, "no change reported");
        let mut p = Pending::default();
        p.note(Some(&[7, 7]));
        p.note(Some(&[]));
        p.note(Some(&[9]));
        assert_eq!(settle(Some(p)), Moved::Games(vec![7, 9]));
        let mut p = Pending::default();
        p.note(Some(&[7]));
        p.note(None);
        p.note(Some(&[9]));
        assert_eq!(settle(Some(p)), Moved::Everything, "one unknown change");
        let mut p = Pending::default();
        for g in 0..=MOST_GAMES as i64 {
            p.note(Some(&[g]));
        }
        assert_eq!(settle(Some(p)), Moved::Everything, "too many games");
        let mut p = Pending::default();
        p.note(Some(&[]));
        assert_eq!(settle(Some(p)), Moved::Games(vec![]), "unread tables only");
    }

    #[test]
    fn games_share_versions_by_their_id() {
        assert_eq!(slot(5), slot(5 + SLOTS as i64));
        assert_ne!(slot(5), slot(6));
        assert!(slot(-1) < SLOTS);
    }
}
