//! Shutting a pool to new connections when its server stops.
//!
//! r2d2 opens connections on threads of its own, retries a failed one for
//! as long as the pool lives, has no way to be closed, and nothing joins
//! its threads. A process that exits while one of them is inside libpq
//! can crash in libssl's or libkrb5's exit handlers (seen about once in 30
//! runs of a test whose server was stopped with its pool still retrying a
//! database that the test then dropped). Once the gate is shut, the pool's
//! threads get an error at once instead of a connection, without entering
//! libpq; shutting waits for the connections already being opened.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

#[derive(Default, Debug)]
struct Inner {
    shut: bool,
    opening: usize,
}

/// Shared by a [`Manager`](super::Manager)'s clones.
#[derive(Clone, Default, Debug)]
pub struct PoolGate(Arc<(Mutex<Inner>, Condvar)>);

impl PoolGate {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.0 .0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `open()`'s answer, or `refused()` without calling it once the gate
    /// is shut.
    pub fn pass<T, E>(
        &self,
        open: impl FnOnce() -> Result<T, E>,
        refused: impl FnOnce() -> E,
    ) -> Result<T, E> {
        {
            let mut inner = self.lock();
            if inner.shut {
                return Err(refused());
            }
            inner.opening += 1;
        }
        // Counted out even if `open` panics, so `shut` does not wait for it.
        struct Opened<'a>(&'a PoolGate);
        impl Drop for Opened<'_> {
            fn drop(&mut self) {
                self.0.lock().opening -= 1;
                self.0 .0 .1.notify_all();
            }
        }
        let _opened = Opened(self);
        open()
    }

    /// Let no new connection through, then wait up to `wait` for those
    /// being opened. Whether none is left: a connection attempt that hangs
    /// (a server that does not answer) is not waited for beyond `wait`, so
    /// that a stopping process is not held up by it.
    pub fn shut(&self, wait: Duration) -> bool {
        let mut inner = self.lock();
        inner.shut = true;
        let (inner, _) = self
            .0
             .1
            .wait_timeout_while(inner, wait, |i| i.opening > 0)
            .unwrap_or_else(|e| e.into_inner());
        inner.opening == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn a_shut_gate_refuses_without_opening() {
        let gate = PoolGate::default();
        assert_eq!(gate.pass(|| Ok::<_, &str>(1), || "refused"), Ok(1));
        assert!(gate.shut(Duration::ZERO));
        let mut called = false;
        let r = gate.pass(
            || {
                called = true;
                Ok(2)
            },
            || "refused",
        );
        assert_eq!(r, Err("refused"));
        assert!(!called, "a shut gate never calls open");
    }

    #[test]
    fn shutting_waits_for_a_connection_being_opened() {
        let gate = PoolGate::default();
        let (entered_tx, entered) = mpsc::channel();
        let (release, release_rx) = mpsc::channel::<()>();
        let g = gate.clone();
        let opener = std::thread::spawn(move || {
            g.pass(
                || {
                    entered_tx.send(()).unwrap();
                    release_rx.recv().unwrap();
                    Ok::<_, ()>("opened")
                },
                || (),
            )
        });
        entered.recv().unwrap();
        // Still inside `open`: a short wait gives up and says so.
        assert!(!gate.shut(Duration::from_millis(1)));
        let g = gate.clone();
        let shutter = std::thread::spawn(move || g.shut(Duration::from_secs(3600)));
        release.send(()).unwrap();
        assert_eq!(opener.join().unwrap(), Ok("opened"));
        assert!(shutter.join().unwrap(), "none left being opened");
    }

    #[test]
    fn a_panicking_open_is_counted_out() {
        let gate = PoolGate::default();
        let g = gate.clone();
        let r = std::thread::spawn(move || g.pass(|| -> Result<(), ()> { panic!("boom") }, || ()))
            .join();
        assert!(r.is_err());
        assert!(gate.shut(Duration::ZERO));
    }
}
