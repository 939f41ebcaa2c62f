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
