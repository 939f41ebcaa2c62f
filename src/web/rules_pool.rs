//! Rules work of a request (writing a record, checking one) on the blocking
//! pool, at most one job per core at a time: other requests queue as
//! futures instead of as threads competing for the cores, and no database
//! connection is held meanwhile (the caller reads its rows first).

use crate::domain::error::Error;
use crate::web::AppState;
use actix_web::web;

/// Jobs run at once: one per core.
pub fn permits() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// Run `f` on the blocking pool once one of [`permits`] is free.
pub async fn rules_work<F, T>(state: &AppState, f: F) -> Result<T, Error>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let _permit = state
        .rules_permits
        .acquire()
        .await
        .map_err(|e| Error::internal(format!("rules permits: {e}")))?;
    web::block(f)
        .await
        .map_err(|e| Error::internal(format!("blocking task: {e}")))
}

/// Record checks running at once: half the cores (at least one), so that
/// exports and pages keep the rest however many anonymous checks come.
pub fn check_permits() -> usize {
    (permits() / 2).max(1)
}

/// Record checks waiting for a permit; one more is refused (429) at once
/// rather than queued without end.
pub const CHECKS_WAITING: usize = 8;

/// Record checks in progress at once from one client address.
pub const CHECKS_PER_ADDRESS: usize = 1;

/// Run a record check `f` for the client at `addr` on the checks' own
/// permits: refused while that address has one in progress or while
/// [`CHECKS_WAITING`] wait already (issue 60: 16 clients looping checks
/// once held every rules permit, and a 6-ply game's export waited 5.7 s).
pub async fn checks_work<F, T>(state: &AppState, addr: &str, f: F) -> Result<T, Error>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let busy = |message: &str| Error::TooSoon {
        message: message.into(),
        retry_after: 1,
    };
    let _slot = state
        .checks_in_progress
        .take(addr, CHECKS_PER_ADDRESS)
        .ok_or_else(|| busy("A record check of yours is in progress: wait for its answer."))?;
    let _admitted = state
        .check_queue
        .try_acquire()
        .map_err(|_| busy("The record checker is busy: try again in a few seconds."))?;
    let _permit = state
        .check_permits
        .acquire()
        .await
        .map_err(|e| Error::internal(format!("check permits: {e}")))?;
    web::block(f)
        .await
        .map_err(|e| Error::internal(format!("blocking task: {e}")))
}
