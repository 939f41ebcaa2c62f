//! Database access: one connection type over SQLite and PostgreSQL, chosen by
//! the URL's scheme, a pool, and the embedded migrations of each backend.

pub mod account_tokens;
pub mod adjudications;
pub mod administrators;
pub mod api_credentials;
pub mod backup;
pub mod bulk;
pub mod byes;
pub mod calendar_feeds;
pub mod clock_heartbeat;
pub mod coded;
pub mod conditional_lines;
pub mod credential_revocations;
pub mod digest_sent;
pub mod directors;
pub mod entrants;
pub mod error;
pub mod game_archive;
pub mod game_clocks;
pub mod game_events;
pub mod game_notes;
pub mod game_updates;
pub mod games;
pub mod group_commit;
pub mod ids;
pub mod kept_update;
pub mod leave;
pub mod login_attempts;
pub mod login_throttles;
pub mod mail_failures;
pub mod mail_in;
pub mod mail_prefs;
pub mod moves;
pub mod once;
pub mod outbox;
pub mod pool;
pub mod pool_gate;
pub mod posted_variants;
pub mod push;
pub mod rate_counters;
pub mod ratings;
pub mod reminder_prefs;
pub mod retired_usernames;
pub mod schema;
pub mod sessions;
pub mod settings;
pub mod team_matches;
pub mod tournament_games;
pub mod tournaments;
pub mod trace;
pub mod user_lock;
pub mod users;
pub mod verified_emails;
pub mod verify_mail_sent;

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
pub use pool_gate::PoolGate;

/// A connection to either backend. Every use case takes this.
#[derive(diesel::MultiConnection)]
pub enum DbConn {
    Postgresql(diesel::PgConnection),
    Sqlite(diesel::SqliteConnection),
}

impl DbConn {
    /// Which backend this connection talks to.
    pub fn backend(&self) -> Backend {
        match self {
            DbConn::Sqlite(_) => Backend::Sqlite,
            DbConn::Postgresql(_) => Backend::Postgres,
        }
    }
}

/// Run a query on the connection's own backend: `per_backend!(conn, |c| q)`
/// compiles `q` once for SQLite and once for PostgreSQL, with `c` the
/// concrete connection.
///
/// Through [`DbConn`] itself, diesel's `MultiConnection` writes out every
/// query's SQL text and walks its tree again on each run, to key its
/// statement cache; on a concrete connection a query of static shape is keyed
/// by its type and those walks are skipped. They were a tenth of a move POST
/// (`perf`), so the queries on the game page's and the move's path use this.
/// Inside a transaction begun on the [`DbConn`] the query runs in it: it is
/// the same connection.
macro_rules! per_backend {
    ($conn:expr, |$c:ident| $body:expr) => {
        match $conn {
            $crate::db::DbConn::Sqlite($c) => $body,
            $crate::db::DbConn::Postgresql($c) => $body,
        }
    };
}
pub(crate) use per_backend;

/// Run `f` in the transaction `conn` is in, or else in a new one. A game
/// page that reads its session and its game in one transaction (on SQLite
/// one read-lock cycle) pays no savepoint for the parts that want a
/// transaction of their own. Inside a caller's transaction a failing `f` is
/// not rolled back by itself, so this is for reads, or for a caller that
/// rolls back on its error.
pub fn in_transaction<T, E>(
    conn: &mut DbConn,
    f: impl FnOnce(&mut DbConn) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    match transaction_depth(conn) {
        Ok(Some(_)) => f(conn),
        _ => conn.transaction(f),
    }
}

/// Run `f`, which reads and then writes, in a transaction (a savepoint
/// inside a caller's). On SQLite it begins IMMEDIATE, taking the write lock
/// first and waiting for it (`busy_timeout`) while another connection
/// writes: a deferred transaction that has read cannot wait for the lock
/// (its snapshot may be stale), so SQLite answers "database is locked" at
/// once, and a dozen requests at the same moment all but one failed.
pub fn write_transaction<T, E>(
    conn: &mut DbConn,
    f: impl FnOnce(&mut DbConn) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    use diesel::connection::{AnsiTransactionManager, TransactionManager};
    type Manager = <DbConn as Connection>::TransactionManager;
    if !matches!(transaction_depth(conn), Ok(None)) {
        return conn.transaction(f);
    }
    match conn {
        DbConn::Sqlite(c) => AnsiTransactionManager::begin_transaction_sql(c, "BEGIN IMMEDIATE")?,
        DbConn::Postgresql(_) => return conn.transaction(f),
    }
    match f(conn) {
        Ok(value) => match Manager::commit_transaction(conn) {
            Ok(()) => Ok(value),
            Err(e) => {
                let _ = Manager::rollback_transaction(conn);
                Err(e.into())
            }
        },
        Err(e) => {
            Manager::rollback_transaction(conn)?;
            Err(e)
        }
    }
}

/// How many transactions (the outer one and its savepoints) `conn` is in;
/// an error when its transaction state is broken.
pub fn transaction_depth(conn: &mut DbConn) -> QueryResult<Option<u32>> {
    use diesel::connection::TransactionManager;
    <DbConn as Connection>::TransactionManager::transaction_manager_status_mut(conn)
        .transaction_depth()
        .map(|d| d.map(|d| d.get()))
}

/// Run `f`, whose statements belong together, in one transaction where that
/// saves work. On SQLite it does: one read-lock cycle instead of one per
/// statement, and one snapshot; a caller's transaction is joined. On
/// PostgreSQL `f` runs as it is: at READ COMMITTED a transaction gives each
/// statement its own snapshot anyway, and BEGIN and COMMIT would be two more
/// round trips; a write in `f` takes its own ([`in_transaction`]). A failing
/// `f` is rolled back on SQLite unless it joined the caller's transaction.
pub fn together<T, E>(
    conn: &mut DbConn,
    f: impl FnOnce(&mut DbConn) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    match conn {
        DbConn::Sqlite(_) => in_transaction(conn, f),
        DbConn::Postgresql(_) => f(conn),
    }
}

/// Run `f` with PostgreSQL planning its statements generically, as
/// `tests/it/query_plans.rs` checks them. PostgreSQL plans a prepared
/// statement's first runs with the values bound; for the archive by variant
/// and status those values are common, and it walked games by their last
/// move, skipping every running game and every other variant (69,135 rows,
/// 208 ms at a million games), where the generic plan walks
/// `games (variant, status, updated_at, id)` (0.3 ms). SQLite runs `f` as
/// it is: it never plans with the values (`SQLITE_DBCONFIG_ENABLE_QPSG`).
pub fn with_generic_plans<T, E>(
    conn: &mut DbConn,
    f: impl FnOnce(&mut DbConn) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    match conn {
        DbConn::Sqlite(_) => f(conn),
        DbConn::Postgresql(_) => in_transaction(conn, |c| {
            diesel::sql_query("SET LOCAL plan_cache_mode = force_generic_plan").execute(c)?;
            f(c)
        }),
    }
}

/// How a request's writes that may be grouped are committed.
pub enum Writes {
    /// In a transaction on the request's own connection (PostgreSQL).
    Own,
    /// By the SQLite writer thread, in batches ([`group_commit`]).
    Grouped(group_commit::GroupCommit),
}

impl Writes {
    /// Grouped on SQLite, the request's own on PostgreSQL.
    pub fn for_database(manager: &Manager) -> anyhow::Result<Writes> {
        Ok(match manager.backend() {
            Backend::Sqlite => Writes::Grouped(group_commit::GroupCommit::start(manager)?),
            Backend::Postgres => Writes::Own,
        })
    }

    /// Store `job` in a transaction: at once on the request's connection
    /// (PostgreSQL), or handed to the writer thread (SQLite), to be awaited
    /// with [`Stored::committed`] after the connection is given back.
    pub fn queue(
        &self,
        conn: &mut DbConn,
        job: group_commit::Job,
    ) -> Result<Stored, crate::domain::error::Error> {
        match self {
            Writes::Own => conn.transaction(job).map(|()| Stored::Committed),
            Writes::Grouped(g) => g.queue(job).map(Stored::Waiting),
        }
    }
}

/// A write [`Writes::queue`] took.
pub enum Stored {
    Committed,
    /// In the writer's queue or current batch.
    Waiting(group_commit::Answer),
}

impl Stored {
    /// Once the write is committed (or refused).
    pub async fn committed(self) -> Result<(), crate::domain::error::Error> {
        match self {
            Stored::Committed => Ok(()),
            Stored::Waiting(answer) => group_commit::answer_of(answer.await),
        }
    }
}

pub use pool::*;

/// Whether a query failed on a unique key.
pub fn is_unique_violation(e: &diesel::result::Error) -> bool {
    matches!(
        e,
        diesel::result::Error::DatabaseError(diesel::result::DatabaseErrorKind::UniqueViolation, _)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use libsqlite3_sys as ffi;

    /// Every SQLite connection the process opens after the first pooled one
    /// has query planner stability on, so bound values never force a
    /// statement to be compiled again.
    #[test]
    fn sqlite_connections_keep_their_plans() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plans.db");
        Manager::new(&path.to_string_lossy()).open().unwrap();
        let c_path = std::ffi::CString::new(path.to_string_lossy().as_bytes()).unwrap();
        let mut db: *mut ffi::sqlite3 = std::ptr::null_mut();
        let mut on: std::os::raw::c_int = -1;
        // SAFETY: a connection of our own, closed before the test ends.
        unsafe {
            assert_eq!(ffi::sqlite3_open(c_path.as_ptr(), &mut db), ffi::SQLITE_OK);
            ffi::sqlite3_db_config(
                db,
                ffi::SQLITE_DBCONFIG_ENABLE_QPSG,
                -1 as std::os::raw::c_int,
                &mut on as *mut std::os::raw::c_int,
            );
            ffi::sqlite3_close(db);
        }
        assert_eq!(on, 1);
    }

    /// An SQLite connection syncs every commit to the disk unless told
    /// otherwise (`PRAGMA synchronous`: 2 is FULL, 1 NORMAL).
    #[test]
    fn sqlite_commits_are_synced_unless_told_otherwise() {
        #[derive(QueryableByName)]
        struct Level {
            #[diesel(sql_type = diesel::sql_types::Integer)]
            synchronous: i32,
        }
        let dir = tempfile::tempdir().unwrap();
        let url = dir.path().join("sync.db").to_string_lossy().into_owned();
        let level = |manager: Manager| {
            let mut conn = manager.open().unwrap();
            diesel::sql_query("PRAGMA synchronous")
                .get_result::<Level>(&mut conn)
                .unwrap()
                .synchronous
        };
        assert_eq!(level(Manager::new(&url)), 2);
        assert_eq!(level(Manager::new(&url).sqlite_sync(SqliteSync::Normal)), 1);
        assert_eq!(level(Manager::new(&url).sqlite_sync(SqliteSync::Full)), 2);
        let config = crate::config::Config {
            database_url: url.clone(),
            sqlite_sync: SqliteSync::Normal,
            ..Default::default()
        };
        assert_eq!(level(Manager::from_config(&config)), 1);
        assert_eq!("FULL".parse(), Ok(SqliteSync::Full));
        assert!("off".parse::<SqliteSync>().is_err());
    }

    /// `.cargo/config.toml`'s build flags reached the bundled SQLite: no
    /// mutex per connection (each is used by one thread at a time) and a
    /// page cache per connection rather than one behind a global mutex.
    #[test]
    fn sqlite_is_built_for_one_thread_per_connection() {
        // SAFETY: both only read constants compiled into the library.
        let (mode, shared_cache_memory) = unsafe {
            (
                ffi::sqlite3_threadsafe(),
                ffi::sqlite3_compileoption_used(c"ENABLE_MEMORY_MANAGEMENT".as_ptr()),
            )
        };
        assert_eq!(
            mode, 2,
            "SQLite should be built multi-thread, not serialized"
        );
        assert_eq!(
            shared_cache_memory, 0,
            "SQLite built with MEMORY_MANAGEMENT"
        );
    }

    /// Alone, `in_transaction` is a transaction of its own (rolled back when
    /// it fails); inside one it adds no savepoint, and the caller's rollback
    /// takes its writes too.
    #[test]
    fn in_transaction_joins_the_callers_transaction() {
        use diesel::result::Error;
        let dir = tempfile::tempdir().unwrap();
        let mut conn = Manager::new(&dir.path().join("t.db").to_string_lossy())
            .open()
            .unwrap();
        conn.batch_execute("CREATE TABLE scratch (x INTEGER)")
            .unwrap();
        let insert = |c: &mut DbConn, x: i32| {
            diesel::sql_query(format!("INSERT INTO scratch VALUES ({x})")).execute(c)
        };
        let count = |c: &mut DbConn| -> i64 {
            diesel::select(diesel::dsl::sql::<diesel::sql_types::BigInt>(
                "(SELECT count(*) FROM scratch)",
            ))
            .get_result(c)
            .unwrap()
        };
        let depth = |c: &mut DbConn| transaction_depth(c).unwrap();
        // Alone: committed when it succeeds, rolled back when it fails.
        in_transaction(&mut conn, |c| {
            assert_eq!(depth(c), Some(1));
            insert(c, 1)
        })
        .unwrap();
        let failed: Result<(), Error> = in_transaction(&mut conn, |c| {
            insert(c, 2)?;
            Err(Error::RollbackTransaction)
        });
        assert!(failed.is_err());
        assert_eq!(count(&mut conn), 1);
        // Inside: the same depth, and the caller's rollback undoes it.
        let outer: Result<(), Error> = conn.transaction(|c| {
            in_transaction(c, |c| {
                assert_eq!(depth(c), Some(1), "no savepoint");
                insert(c, 3)
            })?;
            assert_eq!(count(c), 2);
            Err(Error::RollbackTransaction)
        });
        assert!(outer.is_err());
        assert_eq!(count(&mut conn), 1);
        assert_eq!(depth(&mut conn), None);
    }
}
