//! The pool: a manager that opens connections of the backend a URL names,
//! checks a PostgreSQL connection's health as it leaves the pool, and brings
//! the schema up to date.

use super::{trace, DbConn, PoolGate};
use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::r2d2::{self, ManageConnection};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};
use std::time::{Duration, Instant};

pub type Pool = r2d2::Pool<Manager>;
pub type PooledConn = r2d2::PooledConnection<Manager>;

pub const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");
pub const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Which backend a `DATABASE_URL` names, and the URL as that backend wants it.
/// `postgres://` and `postgresql://` are PostgreSQL; `sqlite://path`,
/// `sqlite:path` or a plain file path are SQLite.
pub fn parse_url(url: &str) -> (Backend, String) {
    let url = url.trim();
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        (Backend::Postgres, url.to_string())
    } else if let Some(rest) = url.strip_prefix("sqlite://") {
        (Backend::Sqlite, rest.to_string())
    } else if let Some(rest) = url.strip_prefix("sqlite:") {
        (Backend::Sqlite, rest.to_string())
    } else {
        (Backend::Sqlite, url.to_string())
    }
}

pub use crate::config::SqliteSync;

impl SqliteSync {
    fn pragma(self) -> &'static str {
        match self {
            SqliteSync::Full => "FULL",
            SqliteSync::Normal => "NORMAL",
        }
    }
}

/// Opens connections of the backend the URL names (never falls back to the
/// other backend, unlike `DbConn::establish`).
#[derive(Clone, Debug)]
pub struct Manager {
    backend: Backend,
    url: String,
    sqlite_sync: SqliteSync,
    /// Shut when the server stops ([`PoolGate`]); shared by clones.
    gate: PoolGate,
}

impl Manager {
    /// SQLite connections sync every commit ([`SqliteSync::Full`]) unless
    /// [`Manager::sqlite_sync`] says otherwise.
    pub fn new(database_url: &str) -> Manager {
        let (backend, url) = parse_url(database_url);
        Manager {
            backend,
            url,
            sqlite_sync: SqliteSync::default(),
            gate: PoolGate::default(),
        }
    }
    /// The database the configuration names, as it says to sync.
    pub fn from_config(config: &crate::config::Config) -> Manager {
        Manager::new(&config.database_url).sqlite_sync(config.sqlite_sync)
    }
    pub fn sqlite_sync(mut self, sync: SqliteSync) -> Manager {
        self.sqlite_sync = sync;
        self
    }
    pub fn backend(&self) -> Backend {
        self.backend
    }
    /// The gate of the pools this manager (or a clone) fills.
    pub fn gate(&self) -> PoolGate {
        self.gate.clone()
    }
    pub fn open(&self) -> Result<DbConn, ConnectionError> {
        match self.backend {
            Backend::Postgres => {
                let mut conn = diesel::PgConnection::establish(&self.url)?;
                conn.set_instrumentation(Health::new());
                Ok(DbConn::Postgresql(conn))
            }
            Backend::Sqlite => {
                sqlite_process_setup();
                let mut conn = diesel::SqliteConnection::establish(&self.url)?;
                conn.set_instrumentation(trace::Traced);
                conn.batch_execute(&format!(
                    "PRAGMA busy_timeout = 10000; PRAGMA journal_mode = WAL; \
                     PRAGMA synchronous = {}; PRAGMA foreign_keys = ON;",
                    self.sqlite_sync.pragma()
                ))
                .map_err(|e| ConnectionError::BadConnection(e.to_string()))?;
                Ok(DbConn::Sqlite(conn))
            }
        }
    }
}

/// Settings of the SQLite library itself, made once per process before its
/// first connection.
///
/// - Query planner stability (`SQLITE_DBCONFIG_ENABLE_QPSG`) on every
///   connection, set from an auto-extension because diesel does not hand out
///   its raw handle. Without it, a statement whose plan looked at a bound
///   value (diesel's `.first()` binds `LIMIT ?`, and SQLite checks whether a
///   limit is a constant) is thrown away and compiled again on every run,
///   which cost more than reading the row (docs/performance.md).
/// - No memory statistics (`SQLITE_CONFIG_MEMSTATUS`): keeping them takes
///   one process-wide mutex on every allocation, which all the database
///   threads then queue on.
///
/// Two more are build settings, in `.cargo/config.toml`: no mutex per
/// connection, and a page cache of its own for each connection instead of
/// one shared under a process-wide mutex.
fn sqlite_process_setup() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        use libsqlite3_sys as ffi;
        unsafe extern "C" fn on_open(
            db: *mut ffi::sqlite3,
            _err: *mut *mut std::os::raw::c_char,
            _api: *const ffi::sqlite3_api_routines,
        ) -> std::os::raw::c_int {
            // SAFETY: SQLite calls this with a connection it has just opened.
            unsafe {
                ffi::sqlite3_db_config(
                    db,
                    ffi::SQLITE_DBCONFIG_ENABLE_QPSG,
                    1 as std::os::raw::c_int,
                    std::ptr::null_mut::<std::os::raw::c_int>(),
                );
            }
            ffi::SQLITE_OK
        }
        // SAFETY: both are documented as callable before any connection is
        // opened; `sqlite3_config` refuses (SQLITE_MISUSE, ignored: the
        // setting only costs speed) once the library was initialised.
        unsafe {
            ffi::sqlite3_config(ffi::SQLITE_CONFIG_MEMSTATUS, 0 as std::os::raw::c_int);
            ffi::sqlite3_auto_extension(Some(on_open));
        }
    });
}

impl ManageConnection for Manager {
    type Connection = DbConn;
    type Error = ConnectionError;

    fn connect(&self) -> Result<DbConn, ConnectionError> {
        self.gate.pass(
            || self.open(),
            || ConnectionError::BadConnection("the server is stopping: no new connections".into()),
        )
    }
    /// Checked on checkout (PostgreSQL only, see [`connect_with`]), unless a
    /// statement succeeded on it within `Health::TRUSTED_FOR`.
    fn is_valid(&self, conn: &mut DbConn) -> Result<(), ConnectionError> {
        if Health::of(conn).is_some_and(|h| h.last_ok.elapsed() < Health::TRUSTED_FOR) {
            return Ok(());
        }
        conn.batch_execute("SELECT 1")
            .map_err(|e| ConnectionError::BadConnection(e.to_string()))
    }
    /// A connection left inside a failed transaction, or found gone, leaves
    /// the pool instead of going back.
    fn has_broken(&self, conn: &mut DbConn) -> bool {
        use diesel::r2d2::R2D2Connection;
        Health::of(conn).is_some_and(|h| h.lost)
            || match conn {
                DbConn::Sqlite(c) => c.is_broken(),
                DbConn::Postgresql(c) => c.is_broken(),
            }
    }
}

/// What the pool knows of a PostgreSQL connection from the statements run
/// on it (diesel's instrumentation hook sees every one).
///
/// Checking each connection with `SELECT 1` as it leaves the pool was one
/// round trip in nine of a move and one in four of a page. A connection
/// that answered a statement a moment ago is taken as it is, as HikariCP
/// does. If the server went in that moment, the request's first statement
/// fails (`Error::ConnectionLost`: a page is read again on another
/// connection, other work answers 503), and the connection is marked lost,
/// so the pool drops it instead of handing it out again. diesel marks a
/// connection broken itself after some failed statements, not after all:
/// a query that failed as it was prepared left it in the pool
/// (`tests/it/faults.rs::postgres_pool_drops_a_connection_found_gone`,
/// `postgres_pages_are_read_again_after_their_connections_are_killed`).
struct Health {
    last_ok: Instant,
    lost: bool,
}

impl Health {
    /// HikariCP's default window (`aliveBypassWindowMs`).
    const TRUSTED_FOR: Duration = Duration::from_millis(500);

    fn new() -> Health {
        Health {
            last_ok: Instant::now(),
            lost: false,
        }
    }

    /// The connection's record, unless it has none (SQLite; a test that set
    /// an instrumentation of its own).
    fn of(conn: &mut DbConn) -> Option<&mut Health> {
        match conn {
            DbConn::Postgresql(c) => c.instrumentation().downcast_mut::<Health>(),
            DbConn::Sqlite(_) => None,
        }
    }
}

impl diesel::connection::Instrumentation for Health {
    fn on_connection_event(&mut self, event: diesel::connection::InstrumentationEvent<'_>) {
        trace::on_event(Backend::Postgres, &event);
        if let diesel::connection::InstrumentationEvent::FinishQuery { error, .. } = event {
            match error {
                None => self.last_ok = Instant::now(),
                Some(e) if connection_lost(e) => self.lost = true,
                Some(_) => {}
            }
        }
    }
}

/// Whether diesel reports the connection itself gone (closed by the server,
/// or its socket broken), rather than a statement failing.
pub fn connection_lost(e: &diesel::result::Error) -> bool {
    matches!(
        e,
        diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::ClosedConnection
                | diesel::result::DatabaseErrorKind::UnableToSendCommand,
            _,
        )
    )
}

/// Open a pool and bring the schema up to date.
pub fn connect(database_url: &str, max_size: u32) -> anyhow::Result<Pool> {
    connect_with(Manager::new(database_url), max_size)
}

/// [`connect`] with a manager's settings.
pub fn connect_with(manager: Manager, max_size: u32) -> anyhow::Result<Pool> {
    let mut first = manager
        .open()
        .map_err(|e| anyhow::anyhow!("cannot open the database: {e}"))?;
    migrate(&mut first)?;
    drop(first);
    // A PostgreSQL connection can die with its server, so each is checked
    // (`SELECT 1`) as it leaves the pool, unless it answered a statement a
    // moment ago ([`Health`]); an SQLite file cannot go away, and the check
    // would be one more statement per request.
    let check = manager.backend() == Backend::Postgres;
    let pool = r2d2::Pool::builder()
        .max_size(max_size)
        .connection_timeout(Duration::from_secs(15))
        .test_on_check_out(check)
        .build(manager)?;
    Ok(pool)
}

/// Apply the pending embedded migrations of the connection's backend.
pub fn migrate(conn: &mut DbConn) -> anyhow::Result<()> {
    let applied = match conn {
        DbConn::Sqlite(c) => c.run_pending_migrations(SQLITE_MIGRATIONS),
        DbConn::Postgresql(c) => c.run_pending_migrations(POSTGRES_MIGRATIONS),
    }
    .map_err(|e| anyhow::anyhow!("migrations failed: {e}"))?;
    for m in applied {
        tracing::info!("applied migration {m}");
    }
    Ok(())
}

/// How many of the binary's migrations the database has not had: more
/// than none while another process upgrades it (`/readyz`).
pub fn pending_migrations(conn: &mut DbConn) -> anyhow::Result<usize> {
    match conn {
        DbConn::Sqlite(c) => c.pending_migrations(SQLITE_MIGRATIONS).map(|p| p.len()),
        DbConn::Postgresql(c) => c.pending_migrations(POSTGRES_MIGRATIONS).map(|p| p.len()),
    }
    .map_err(|e| anyhow::anyhow!("cannot read the applied migrations: {e}"))
}

/// Whether the database can serve: it answers on a pooled connection got
/// within `wait`, and has every migration this binary knows; else why not.
/// A pooled connection cut since its last statement is found so here and
/// leaves the pool: another is tried, as many as the pool holds.
pub fn ready(pool: &Pool, wait: Duration) -> Result<(), String> {
    for _ in 0..=pool.max_size() {
        let mut conn = pool
            .get_timeout(wait)
            .map_err(|e| format!("the database cannot be reached: {e}"))?;
        match diesel::sql_query("SELECT 1").execute(&mut *conn) {
            Err(e) if connection_lost(&e) => continue,
            Err(e) => return Err(format!("the database cannot be read: {e}")),
            Ok(_) => {}
        }
        return match pending_migrations(&mut conn) {
            Ok(0) => Ok(()),
            Ok(n) => Err(format!("{n} database migrations are pending")),
            Err(e) => Err(format!("the database cannot be read: {e}")),
        };
    }
    Err("the database cannot be reached: every connection was found cut".into())
}
