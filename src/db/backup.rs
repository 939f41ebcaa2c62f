//! `missive backup` and `missive restore` for an SQLite database (issue
//! 43), and the lock by which a running server says it is using one.
//!
//! A backup is SQLite's `VACUUM INTO`: one read transaction, so the copy is
//! the database as of one commit, taken while the server goes on writing
//! (in WAL mode a reader holds no lock a writer waits for). PostgreSQL has
//! `pg_dump` for this; docs/operations.md, "Backups", gives the recipe.

use super::{parse_url, Backend, DbConn, Manager};
use anyhow::{bail, Context};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The SQLite file a `DATABASE_URL` names; PostgreSQL is told to use its
/// own tools.
fn sqlite_path(database_url: &str, what: &str) -> anyhow::Result<PathBuf> {
    match parse_url(database_url) {
        (Backend::Sqlite, path) => Ok(PathBuf::from(path)),
        (Backend::Postgres, _) => bail!(
            "DATABASE_URL is a PostgreSQL database: {what} it with PostgreSQL's own tools \
             (pg_dump -Fc and pg_restore; README, \"Running in production\")"
        ),
    }
}

/// `path` with `suffix` added to its name (`missive.db` + `.lock`).
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The file a server holds a shared lock on while it runs on the database
/// beside it.
fn lock_path(db: &Path) -> PathBuf {
    with_suffix(db, ".lock")
}

fn open_lock(db: &Path) -> anyhow::Result<File> {
    let path = lock_path(db);
    OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))
}

/// A running server's claim on its SQLite file: shared, so that several
/// processes may serve one file, and released by the operating system when
/// the process ends, however it ends. `restore` will not replace a file
/// while any is held.
pub struct ServingLock {
    _file: Option<File>,
}

impl ServingLock {
    /// Hold the lock for the database `database_url` names (nothing for
    /// PostgreSQL).
    pub fn hold(database_url: &str) -> anyhow::Result<ServingLock> {
        let file = match parse_url(database_url) {
            (Backend::Sqlite, path) => {
                let file = open_lock(Path::new(&path))?;
                file.lock_shared().with_context(|| {
                    format!("cannot lock {}", lock_path(Path::new(&path)).display())
                })?;
                Some(file)
            }
            (Backend::Postgres, _) => None,
        };
        Ok(ServingLock { _file: file })
    }
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

#[derive(QueryableByName)]
struct Check {
    #[diesel(sql_type = Text)]
    integrity_check: String,
}

/// What a backup or a restore holds, read back from the file itself.
pub struct Contents {
    pub bytes: u64,
    pub games: i64,
    pub moves: i64,
    pub seconds: f64,
}

impl std::fmt::Display for Contents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:.1} MB, {} games, {} moves, in {:.2} s",
            self.bytes as f64 / 1e6,
            self.games,
            self.moves,
            self.seconds
        )
    }
}

/// Open `file` read-only and check that it is a whole Missive database:
/// SQLite's integrity check passes and it has the games and their moves.
fn read_back(file: &Path, started: Instant) -> anyhow::Result<Contents> {
    let bytes = std::fs::metadata(file)
        .with_context(|| format!("cannot read {}", file.display()))?
        .len();
    let uri = format!("file:{}?mode=ro", file.display());
    let mut conn = diesel::SqliteConnection::establish(&uri)
        .with_context(|| format!("{} cannot be opened as an SQLite database", file.display()))?;
    let check: Vec<Check> = diesel::sql_query("PRAGMA integrity_check")
        .load(&mut conn)
        .with_context(|| format!("{} is not an SQLite database", file.display()))?;
    if check.first().map(|c| c.integrity_check.as_str()) != Some("ok") {
        bail!(
            "{} fails SQLite's integrity check: {}",
            file.display(),
            check.first().map_or("", |c| c.integrity_check.as_str())
        );
    }
    let mut count = |table: &str| -> anyhow::Result<i64> {
        Ok(
            diesel::sql_query(format!("SELECT COUNT(*) AS n FROM {table}"))
                .get_result::<Count>(&mut conn)
                .with_context(|| {
                    format!("{} is not a Missive database (no {table})", file.display())
                })?
                .n,
        )
    };
    Ok(Contents {
        bytes,
        games: count("games")?,
        moves: count("moves")?,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Copy the database `database_url` names, while it is in use, to `to`
/// (which must not exist), and read the copy back.
pub fn backup(database_url: &str, to: &Path) -> anyhow::Result<Contents> {
    let started = Instant::now();
    let db = sqlite_path(database_url, "back up")?;
    if !db.exists() {
        bail!("there is no database at {}", db.display());
    }
    if to.exists() {
        bail!("{} exists already: name a new file", to.display());
    }
    // Written under another name and renamed when whole, so that a backup
    // cut short never looks like one.
    let partial = with_suffix(to, ".partial");
    let _ = std::fs::remove_file(&partial);
    let mut conn = Manager::new(database_url)
        .open()
        .with_context(|| format!("cannot open {}", db.display()))?;
    let DbConn::Sqlite(c) = &mut conn else {
        bail!("{} did not open as an SQLite database", db.display())
    };
    diesel::sql_query("VACUUM INTO ?")
        .bind::<Text, _>(partial.to_string_lossy().as_ref())
        .execute(c)
        .with_context(|| format!("cannot write {}", partial.display()))?;
    drop(conn);
    File::open(&partial)?.sync_all()?;
    std::fs::rename(&partial, to)?;
    read_back(to, started)
}

/// Put the backup `from` in place of the database `database_url` names,
/// unless a server is using it. The database it replaces is kept beside
/// it, renamed `….replaced-YYYYMMDDHHMMSS`.
pub fn restore(from: &Path, database_url: &str) -> anyhow::Result<(Contents, Option<PathBuf>)> {
    let started = Instant::now();
    let db = sqlite_path(database_url, "restore")?;
    if !from.is_file() {
        bail!("there is no backup at {}", from.display());
    }
    read_back(from, started)?;
    let lock = open_lock(&db)?;
    match lock.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => bail!(
            "{} is in use by a running server (it holds {}): stop the server first",
            db.display(),
            lock_path(&db).display()
        ),
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(e).with_context(|| format!("cannot lock {}", lock_path(&db).display()))
        }
    }
    // Copied next to the database and renamed: the database is at every
    // moment either the old one or the whole backup.
    let incoming = with_suffix(&db, ".restoring");
    std::fs::copy(from, &incoming)
        .with_context(|| format!("cannot write {}", incoming.display()))?;
    File::open(&incoming)?.sync_all()?;
    let kept = if db.exists() {
        let stamp = chrono::Utc::now().format("%Y%m%d%H%M%S");
        let kept = with_suffix(&db, &format!(".replaced-{stamp}"));
        std::fs::rename(&db, &kept)?;
        // The old database's journal goes with it: left beside the new
        // file it would be read as the new file's.
        for journal in ["-wal", "-shm", "-journal"] {
            let old = with_suffix(&db, journal);
            if old.exists() {
                std::fs::rename(&old, with_suffix(&kept, journal))?;
            }
        }
        Some(kept)
    } else {
        None
    };
    std::fs::rename(&incoming, &db)?;
    if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
        File::open(dir)?.sync_all()?;
    }
    drop(lock);
    Ok((read_back(&db, started)?, kept))
}
