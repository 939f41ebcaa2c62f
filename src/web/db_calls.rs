//! Running database work from a request: on the blocking pool or, when it
//! is short, on the request's own thread; reads and moves tried again on
//! another connection when theirs was lost.

use crate::db::DbConn;
use crate::domain::error::Error;
use crate::game::play::{MoveOutcome, Submitted, UnsureMove};
use crate::util::{now, random_token};
use crate::web::AppState;
use actix_web::web;
use std::future::Future;

/// Run database work on the blocking pool with a pooled connection.
pub async fn db<F, T>(state: &AppState, f: F) -> Result<T, Error>
where
    F: FnOnce(&mut DbConn) -> Result<T, Error> + Send + 'static,
    T: Send + 'static,
{
    let _permit = state
        .db_permits
        .acquire()
        .await
        .map_err(|e| Error::internal(format!("database permits: {e}")))?;
    let pool = state.pool.clone();
    web::block(move || {
        let mut conn = pool
            .get()
            .map_err(|e| Error::Unavailable(format!("no database connection: {e}")))?;
        f(&mut conn)
    })
    .await
    .map_err(|e| Error::internal(format!("blocking task: {e}")))?
}

/// [`db`] for work that is short and, on SQLite, only reads or hands its
/// writes to the group commit (a session lookup, the game page, checking a
/// move): on SQLite it runs right here, on the request's thread, when a
/// pooled connection is free at once, and goes to the blocking pool
/// otherwise.
///
/// The hop to a blocking thread and back (two wake-ups and two thread
/// switches) cost a game page more CPU than its database reads (measured in
/// docs/performance.md, "Request path"). An SQLite read in WAL mode takes no lock a writer
/// holds, so it does not stall the thread's other connections for longer
/// than its own few tens of microseconds.
pub async fn db_short<F, T>(state: &AppState, f: F) -> Result<T, Error>
where
    F: FnOnce(&mut DbConn) -> Result<T, Error> + Send + 'static,
    T: Send + 'static,
{
    if state.inline_short_work {
        if let Ok(_permit) = state.db_permits.try_acquire() {
            if let Some(mut conn) = state.pool.try_get() {
                // A panic must not take the worker thread and its other
                // connections with it (on the blocking pool it cannot).
                return std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&mut conn)))
                    .unwrap_or_else(|_| Err(Error::internal("panic in database work")));
            }
        }
    }
    db(state, f).await
}

/// [`db`] for work that only reads: when its connection is found gone (a
/// database restart or a network cut, on PostgreSQL), it runs again on
/// another connection instead of answering 503. The pool drops each dead
/// connection as it fails and checks one that has been idle, so at most one
/// try per pooled connection can fail. Work that writes must not come here
/// (a COMMIT whose answer was lost may have been stored) unless doing it
/// twice is harmless ([`new_session`](crate::web::new_session)); see [`write_once`].
pub async fn db_read<F, T>(state: &AppState, f: F) -> Result<T, Error>
where
    F: Fn(&mut DbConn) -> Result<T, Error> + Clone + Send + 'static,
    T: Send + 'static,
{
    read_again(state, || db(state, f.clone())).await
}

/// [`db_short`] for work that only reads, tried again as [`db_read`] is.
pub async fn db_short_read<F, T>(state: &AppState, f: F) -> Result<T, Error>
where
    F: Fn(&mut DbConn) -> Result<T, Error> + Clone + Send + 'static,
    T: Send + 'static,
{
    read_again(state, || db_short(state, f.clone())).await
}

/// `attempt` until it does not answer [`Error::ConnectionLost`], at most
/// once per pooled connection and once more.
async fn read_again<T, Fut>(state: &AppState, attempt: impl Fn() -> Fut) -> Result<T, Error>
where
    Fut: Future<Output = Result<T, Error>>,
{
    let tries = state.pool.max_size() + 1;
    let mut tried = 1;
    loop {
        match attempt().await {
            Err(Error::ConnectionLost(cause)) if tried < tries => {
                tracing::warn!(
                    "database connection lost ({cause}): trying again, {tried} of {tries}"
                );
                tried += 1;
            }
            answer => return answer,
        }
    }
}

/// Work that writes, tried again on another connection when its own was
/// lost (PostgreSQL), as a read is ([`db_read`]): every try runs under the
/// request's one random key ([`crate::db::once`]), so a try after one that
/// was committed although its answer was lost answers what that one
/// answered and writes nothing.
pub async fn write_once<F, T>(state: &AppState, f: F) -> Result<T, Error>
where
    F: Fn(&mut DbConn) -> Result<T, Error> + Clone + Send + 'static,
    T: crate::db::once::Answer + Send + 'static,
{
    let key = random_token();
    let tried = std::cell::Cell::new(false);
    read_again(state, || {
        let (f, key, again) = (f.clone(), key.clone(), tried.replace(true));
        db(state, move |conn| {
            crate::db::once::once(conn, &key, again, now(), f)
        })
    })
    .await
}

/// A move, tried again on another connection when its own was lost
/// (PostgreSQL), as a read is ([`db_read`]), with one difference: when the
/// connection was lost while the move was being stored, the next try is
/// told ([`UnsureMove`]) and first asks whether it was stored. `attempt`
/// gives the session lookup's answer (`X`) and the move's, given the
/// earlier unsure try if any
/// ([`queue_move`](crate::game::play::queue_move)).
pub async fn settle_move<X, Fut>(
    state: &AppState,
    attempt: impl Fn(Option<UnsureMove>) -> Fut,
) -> Result<(X, Result<MoveOutcome, Error>), Error>
where
    Fut: Future<Output = Result<(X, Result<Submitted, Error>), Error>>,
{
    let unsure = std::cell::RefCell::new(None::<UnsureMove>);
    let (unsure, attempt) = (&unsure, &attempt);
    // A move that lost its race with an edit of the opponent's conditional
    // lines stored nothing; played again it comes after the edit.
    let mut tries = 0;
    loop {
        tries += 1;
        let (x, submitted) = read_again(state, move || async move {
            let earlier = unsure.borrow().clone();
            match attempt(earlier).await? {
                (_, Err(lost @ Error::ConnectionLost(_))) => Err(lost),
                (_, Ok(Submitted::Unsure(this))) => {
                    let lost = this.lost();
                    *unsure.borrow_mut() = Some(this);
                    Err(lost)
                }
                answer => Ok(answer),
            }
        })
        .await?;
        let outcome = match submitted {
            Ok(s) => s.outcome().await,
            Err(e) => Err(e),
        };
        match outcome {
            Err(Error::Conflict(m)) if m == crate::game::store_move::LINES_CHANGED && tries < 3 => {
            }
            outcome => return Ok((x, outcome)),
        }
    }
}
