//! Group commit for SQLite: moves are stored by one writer thread, which
//! takes every write waiting when it starts a transaction and commits them
//! together, each in a savepoint of its own.
//!
//! SQLite lets one connection write at a time. With writes from every
//! database thread, the others waited on its lock in `busy_timeout` sleeps
//! (idle CPU) and every move paid a commit of its own: the WAL frames of
//! the same few pages (the moves table's and outbox's last pages, their
//! index pages) written again for each move, and the checkpoints that copy
//! them back, were a fifth of a move POST (`perf`). One writer never waits
//! for another of ours, and a batch writes each page once.
//!
//! Nothing is acknowledged before it is durable as before: a write's answer
//! ([`GroupCommit::queue`]) comes once the batch's
//! COMMIT has returned. A request waits for it without holding a database
//! connection or thread, so a batch can hold every move in flight rather
//! than one per pooled connection. A write that fails rolls
//! back to its savepoint and fails alone; a COMMIT that fails fails every
//! write of its batch. PostgreSQL needs none of this (its writers do not
//! exclude each other, and it groups commits itself).

use super::{DbConn, Manager};
use crate::domain::error::Error;
use diesel::Connection;
use std::sync::mpsc;
use std::sync::Mutex;
use std::thread;
use tokio::sync::oneshot;

/// A write to run in the batch's transaction.
pub type Job = Box<dyn FnOnce(&mut DbConn) -> Result<(), Error> + Send>;

/// The answer to one write: Ok once its batch is committed.
pub type Answer = oneshot::Receiver<Result<(), Error>>;

struct Pending {
    job: Job,
    done: oneshot::Sender<Result<(), Error>>,
}

/// Most writes in one transaction (bounds how long the lock is held).
const MAX_BATCH: usize = 64;

pub struct GroupCommit {
    queue: Mutex<Option<mpsc::Sender<Pending>>>,
    thread: Mutex<Option<thread::JoinHandle<()>>>,
}

impl GroupCommit {
    /// Start the writer thread on a connection of its own.
    pub fn start(manager: &Manager) -> anyhow::Result<GroupCommit> {
        let mut conn = manager
            .open()
            .map_err(|e| anyhow::anyhow!("cannot open the writer's connection: {e}"))?;
        let manager = manager.clone();
        let (tx, rx) = mpsc::channel::<Pending>();
        let thread = thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || {
                while let Ok(first) = rx.recv() {
                    let mut batch = vec![first];
                    while batch.len() < MAX_BATCH {
                        match rx.try_recv() {
                            Ok(p) => batch.push(p),
                            Err(_) => break,
                        }
                    }
                    // A panic outside the writes themselves (in diesel or
                    // SQLite) drops the batch's answer channels, so its
                    // requests get an error, and the writer goes on.
                    let committed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        commit_batch(&mut conn, batch)
                    }))
                    .unwrap_or(false);
                    if !committed {
                        // A failed COMMIT can leave the connection inside a
                        // transaction: start the next batch on a new one.
                        match manager.open() {
                            Ok(c) => conn = c,
                            Err(e) => tracing::error!("writer cannot reopen its connection: {e}"),
                        }
                    }
                }
            })?;
        Ok(GroupCommit {
            queue: Mutex::new(Some(tx)),
            thread: Mutex::new(Some(thread)),
        })
    }

    /// Hand `job` to the writer; the answer comes once its batch is
    /// committed (or failed).
    pub fn queue(&self, job: Job) -> Result<Answer, Error> {
        let (done, answer) = oneshot::channel();
        let sent = match &*self.queue.lock().unwrap_or_else(|e| e.into_inner()) {
            Some(q) => q.send(Pending { job, done }).is_ok(),
            None => false,
        };
        if !sent {
            return Err(Error::internal("the database writer has stopped"));
        }
        Ok(answer)
    }

    /// [`queue`](Self::queue) and wait for the answer, for the tests below
    /// (the server awaits [`Answer`] instead).
    #[cfg(test)]
    fn run(&self, job: Job) -> Result<(), Error> {
        answer_of(self.queue(job)?.blocking_recv())
    }
}

/// A dropped sender means the writer lost the write (a panic outside it).
pub fn answer_of(
    received: Result<Result<(), Error>, oneshot::error::RecvError>,
) -> Result<(), Error> {
    received.unwrap_or_else(|_| Err(Error::internal("the database writer dropped this write")))
}

impl Drop for GroupCommit {
    /// Let the writer finish what it was given, then stop.
    fn drop(&mut self) {
        self.queue.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(t) = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = t.join();
        }
    }
}

/// One transaction over the batch; answers every write. False when the
/// transaction itself failed.
fn commit_batch(conn: &mut DbConn, batch: Vec<Pending>) -> bool {
    let mut answers = Vec::with_capacity(batch.len());
    let committed = crate::db::write_transaction::<_, Error>(conn, |conn| {
        for Pending { job, done } in batch {
            let result = conn.transaction(|conn| {
                // A panic in one write must not take the batch down with it.
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(conn)))
                    .unwrap_or_else(|_| Err(Error::internal("a panic while storing a write")))
            });
            answers.push((done, result));
        }
        Ok(())
    });
    let ok = committed.is_ok();
    for (done, result) in answers {
        let result = match (&committed, result) {
            (Ok(()), r) => r,
            (Err(e), _) => Err(Error::internal(format!("commit failed: {e}"))),
        };
        let _ = done.send(result);
    }
    ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use diesel::prelude::*;
    use diesel::sql_types::{BigInt, Integer};
    use std::sync::Arc;

    fn writer() -> (tempfile::TempDir, Manager, GroupCommit) {
        let dir = tempfile::tempdir().unwrap();
        let manager = Manager::new(&dir.path().join("g.db").to_string_lossy());
        let mut conn = manager.open().unwrap();
        diesel::sql_query("CREATE TABLE t (k INTEGER PRIMARY KEY)")
            .execute(&mut conn)
            .unwrap();
        let group = GroupCommit::start(&manager).unwrap();
        (dir, manager, group)
    }

    fn insert(k: i32) -> Job {
        Box::new(move |conn| {
            diesel::sql_query("INSERT INTO t (k) VALUES (?)")
                .bind::<Integer, _>(k)
                .execute(conn)?;
            Ok(())
        })
    }

    #[derive(QueryableByName)]
    struct Count {
        #[diesel(sql_type = BigInt)]
        n: i64,
    }

    fn count(manager: &Manager) -> i64 {
        diesel::sql_query("SELECT count(*) AS n FROM t")
            .get_result::<Count>(&mut manager.open().unwrap())
            .unwrap()
            .n
    }

    /// Many threads at once: every write answered Ok is stored, each once;
    /// a write that fails (a duplicate key) fails alone, its batch's other
    /// writes are kept.
    #[test]
    fn concurrent_writes_are_each_stored_or_refused_alone() {
        let (_dir, manager, group) = writer();
        let group = Arc::new(group);
        let handles: Vec<_> = (0..8)
            .map(|t| {
                let group = group.clone();
                thread::spawn(move || {
                    (0..50)
                        .map(|i| {
                            // Every tenth key is one another thread also writes.
                            let k = if i % 10 == 0 { i } else { 1000 + t * 100 + i };
                            group.run(insert(k)).is_ok()
                        })
                        .filter(|ok| *ok)
                        .count() as i64
                })
            })
            .collect();
        let ok: i64 = handles.into_iter().map(|h| h.join().unwrap()).sum();
        // 8 × 45 distinct keys, and the 5 shared ones once each.
        assert_eq!(ok, 8 * 45 + 5);
        assert_eq!(count(&manager), ok);
    }

    #[test]
    fn a_panicking_write_fails_alone() {
        let (_dir, manager, group) = writer();
        assert!(group.run(Box::new(|_| panic!("boom"))).is_err());
        assert!(group.run(insert(1)).is_ok());
        assert_eq!(count(&manager), 1);
    }

    #[test]
    fn a_write_after_the_writer_stopped_is_refused() {
        let (_dir, _manager, group) = writer();
        group.queue.lock().unwrap().take();
        assert!(group.run(insert(1)).is_err());
    }
}
