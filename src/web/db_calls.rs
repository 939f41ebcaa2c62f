//! Database work from a request: one way to read ([`AppState::read`]), one
//! way to write ([`AppState::write`], carrying the request's retry key) and
//! one way to play a move ([`AppState::play`]), each on the blocking pool
//! and tried again on another connection when its own was lost.
//!
//! Inside `web` two devices serve the session-bound calls of a page or a
//! move ([`Session`](crate::web::Session)): [`short`] runs short work on the
//! request's own thread on SQLite, and [`settle_move`] lets a move's attempt
//! look up its session in the same call.

use crate::db::DbConn;
use crate::domain::error::{Error, MovedOn};
use crate::game::play::{MoveOutcome, Submitted, UnsureMove};
use crate::util::{now, random_token};
use crate::web::AppState;
use actix_web::web;
use std::future::Future;

impl AppState {
    /// Work that only reads. When its connection is found gone (a database
    /// restart or a network cut, on PostgreSQL), it runs again on another
    /// connection instead of answering 503. The pool drops each dead
    /// connection as it fails and checks one that has been idle, so at most
    /// one try per pooled connection can fail.
    pub async fn read<F, T>(&self, f: F) -> Result<T, Error>
    where
        F: Fn(&mut DbConn) -> Result<T, Error> + Clone + Send + 'static,
        T: Send + 'static,
    {
        read_again(self, || on_pool(self, f.clone())).await
    }

    /// Work that writes, tried again on another connection when its own was
    /// lost (PostgreSQL), as a read is: every try runs under the request's
    /// one random key ([`crate::db::once`]), so a try after one that was
    /// committed although its answer was lost answers what that one
    /// answered and writes nothing. An answer that is a secret is not kept
    /// ([`crate::db::once::Secret`]): that try says it was done, and not
    /// what it gave.
    pub async fn write<F, T>(&self, f: F) -> Result<T, Error>
    where
        F: Fn(&mut DbConn) -> Result<T, Error> + Clone + Send + 'static,
        T: crate::db::once::Answer + Send + 'static,
    {
        let key = random_token();
        let tried = std::cell::Cell::new(false);
        read_again(self, || {
            let (f, key, again) = (f.clone(), key.clone(), tried.replace(true));
            on_pool(self, move |conn| {
                crate::db::once::once(conn, &key, again, now(), f)
            })
        })
        .await
    }

    /// A move: `attempt` checks it and hands it to the writes
    /// ([`queue_move`](crate::game::play::queue_move)), given the earlier try
    /// whose connection was lost while the move was being stored, if any.
    /// Tried again as [`AppState::read`] is, and again at once when it lost
    /// its race with an edit of the opponent's conditional lines. It is
    /// [`short`] work: it reads, and hands its writes to the group commit.
    pub async fn play<F>(&self, attempt: F) -> Result<Result<MoveOutcome, Error>, Error>
    where
        F: Fn(&mut DbConn, Option<&UnsureMove>) -> Result<Submitted, Error>
            + Clone
            + Send
            + 'static,
    {
        let ((), outcome) = settle_move(self, |unsure| {
            let attempt = attempt.clone();
            async move {
                let submitted = short(self, move |conn| attempt(conn, unsure.as_ref())).await;
                Ok(((), submitted))
            }
        })
        .await?;
        Ok(outcome)
    }
}

/// Run database work on the blocking pool with a pooled connection, once.
async fn on_pool<F, T>(state: &AppState, f: F) -> Result<T, Error>
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

/// [`on_pool`] for work that is short and, on SQLite, only reads or hands its
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
pub(in crate::web) async fn short<F, T>(state: &AppState, f: F) -> Result<T, Error>
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
    on_pool(state, f).await
}

/// [`short`] for work that only reads, tried again as [`AppState::read`] is.
pub(in crate::web) async fn short_read<F, T>(state: &AppState, f: F) -> Result<T, Error>
where
    F: Fn(&mut DbConn) -> Result<T, Error> + Clone + Send + 'static,
    T: Send + 'static,
{
    read_again(state, || short(state, f.clone())).await
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

/// A move, tried again on another connection when its own was lost
/// (PostgreSQL), as a read is ([`AppState::read`]), with one difference: when the
/// connection was lost while the move was being stored, the next try is
/// told ([`UnsureMove`]) and first asks whether it was stored. `attempt`
/// gives the session lookup's answer (`X`) and the move's, given the
/// earlier unsure try if any
/// ([`queue_move`](crate::game::play::queue_move)).
pub(in crate::web) async fn settle_move<X, Fut>(
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
            Err(Error::MovedOn(MovedOn::LinesChanged)) if tries < 3 => {}
            outcome => return Ok((x, outcome)),
        }
    }
}
