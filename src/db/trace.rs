//! A statement trace: while it is on, every statement any connection of
//! this process starts is kept, with its backend, as SQL text with its
//! placeholders (`?` or `$n`), without its bound values. For tests that
//! look at what pages really run (`tests/it/query_plans.rs`); off, it costs a
//! flag read per statement.

use crate::db::Backend;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

static ON: AtomicBool = AtomicBool::new(false);
static KEPT: Mutex<Vec<(Backend, String)>> = Mutex::new(Vec::new());

/// Keep the statements started from now on (the ones kept so far are
/// dropped).
pub fn start() {
    KEPT.lock().unwrap_or_else(|e| e.into_inner()).clear();
    ON.store(true, Ordering::SeqCst);
}

/// Stop keeping statements.
pub fn stop() {
    ON.store(false, Ordering::SeqCst);
}

/// The statements kept since [`start`] (or the last `take`), in the order
/// they started.
pub fn take() -> Vec<(Backend, String)> {
    std::mem::take(&mut *KEPT.lock().unwrap_or_else(|e| e.into_inner()))
}

/// Called by the connections' instrumentation for each statement.
pub(crate) fn on_event(backend: Backend, event: &diesel::connection::InstrumentationEvent<'_>) {
    if !ON.load(Ordering::Relaxed) {
        return;
    }
    if let diesel::connection::InstrumentationEvent::StartQuery { query, .. } = event {
        let text = query.to_string();
        // diesel writes the bound values after the SQL.
        let sql = match text.rfind(" -- binds: ") {
            Some(i) => &text[..i],
            None => &text[..],
        };
        KEPT.lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((backend, sql.trim().to_string()));
    }
}

/// The instrumentation of SQLite connections (PostgreSQL's is the pool's
/// health record, which calls [`on_event`] too).
pub(crate) struct Traced;

impl diesel::connection::Instrumentation for Traced {
    fn on_connection_event(&mut self, event: diesel::connection::InstrumentationEvent<'_>) {
        on_event(Backend::Sqlite, &event);
    }
}
