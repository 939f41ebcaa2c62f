//! Background loops. Each is safe to run in several processes at once.

use crate::clocks::{forfeit, outage, silence};
use crate::db::outbox;
use crate::db::{Pool, PooledConn};
use crate::mail::digest;
use crate::mail::drain;
use crate::mail::drain::Sender;
use crate::metrics::{self, ClockEvent};
use crate::tournaments::rounds;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// A running background loop; dropping the handle does not stop it, `stop`
/// does.
pub struct Worker {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Ask the loop to stop after its current pass and wait for it.
    pub fn stop(mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A name for leases, unique per process and worker.
pub fn worker_name() -> String {
    format!(
        "{}-{}-{}",
        hostname_or_local(),
        std::process::id(),
        &crate::util::random_token()[..8]
    )
}

fn hostname_or_local() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "local".into())
}

/// Run `pass` in a thread until stopped: again at once when it says it was
/// busy, else after `poll`.
fn spawn_loop(
    name: &str,
    poll: Duration,
    mut pass: impl FnMut() -> bool + Send + 'static,
) -> Worker {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let thread = std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            while !flag.load(Ordering::SeqCst) {
                if !pass() {
                    // Sleep in short steps so `stop` is quick.
                    let mut left = poll;
                    while !left.is_zero() && !flag.load(Ordering::SeqCst) {
                        let step = left.min(Duration::from_millis(100));
                        std::thread::sleep(step);
                        left -= step;
                    }
                }
            }
        })
        .expect("spawn a background thread");
    Worker {
        stop,
        thread: Some(thread),
    }
}

/// Start the mail sender: drain the outbox, then wait `poll` when there was
/// nothing to do (immediately again when a full batch went out).
pub fn spawn_mail_worker(pool: Pool, sender: Sender, poll: Duration) -> Worker {
    spawn_loop("mail-worker", poll, move || match pool.get() {
        Ok(mut conn) => match drain::drain_once(&mut conn, &sender, crate::util::now()) {
            Ok(r) => {
                metrics::mails_sent(r.sent);
                metrics::mails_failed(r.failed + r.refused);
                let handled = r.sent + r.failed + r.skipped + r.refused;
                if handled > 0 {
                    tracing::info!(
                        "mail: {} sent, {} failed, {} skipped, {} refused for good",
                        r.sent,
                        r.failed,
                        r.skipped,
                        r.refused
                    );
                }
                handled >= outbox::BATCH as usize
            }
            Err(e) => {
                tracing::warn!("mail worker: {e}");
                false
            }
        },
        Err(e) => {
            tracing::warn!("mail worker: no database connection: {e}");
            false
        }
    })
}

/// Start the push sender (issue 64): drain the push outbox like the mail
/// worker drains mail, again at once after a full batch.
pub fn spawn_push_worker(pool: Pool, pusher: crate::push::Pusher, poll: Duration) -> Worker {
    spawn_loop("push-worker", poll, move || match pool.get() {
        Ok(mut conn) => {
            match crate::push::drain::drain_once(&mut conn, &pusher, crate::util::now()) {
                Ok(r) => {
                    let handled = r.sent + r.failed + r.skipped + r.gone;
                    if handled > 0 {
                        tracing::info!(
                            "push: {} sent, {} failed, {} skipped, {} browsers gone",
                            r.sent,
                            r.failed,
                            r.skipped,
                            r.gone
                        );
                    }
                    handled >= crate::db::push::BATCH as usize
                }
                Err(e) => {
                    tracing::warn!("push worker: {e}");
                    false
                }
            }
        }
        Err(e) => {
            tracing::warn!("push worker: no database connection: {e}");
            false
        }
    })
}

/// Start the daily digest job: once a minute, queue the digests of the day
/// that are due (from `hour` o'clock UTC) and not yet claimed by any process.
pub fn spawn_digest_worker(pool: Pool, hour: u32, poll: Duration) -> Worker {
    spawn_loop("digest-worker", poll, move || {
        with_connection(&pool, "digest worker", |conn| {
            match digest::run_digests(conn, hour, crate::util::now()) {
                Ok(r) if r.queued + r.empty > 0 => tracing::info!(
                    "digests: {} queued, {} with nothing to list",
                    r.queued,
                    r.empty
                ),
                Ok(_) => {}
                Err(e) => tracing::warn!("digest worker: {e}"),
            }
        })
    })
}

/// Start the clock sweeper: every `poll`, beat the heartbeat (moving every
/// running clock on after an outage longer than `outage_grace`), apply the
/// silence rule, end the games whose player to move has run out of time and
/// queue due reminders, and forget the writes' old
/// retry keys (`db::once`). Several processes may run it on one database:
/// each forfeit and reminder is one conditional UPDATE.
pub fn spawn_clock_worker(pool: Pool, poll: Duration, outage_grace: chrono::TimeDelta) -> Worker {
    spawn_loop("clock-worker", poll, move || {
        with_connection(&pool, "clock worker", |conn| {
            let now = crate::util::now();
            metrics::clock_sweep();
            // The heartbeat first: after an outage the clocks move on
            // before any game is found out of time.
            match outage::check(conn, now, outage_grace) {
                Ok(Some(o)) => {
                    metrics::clock_events(ClockEvent::OutageExtension, 1);
                    tracing::warn!(
                        "clocks: service outage of {} s found; {} games' clocks moved on",
                        o.secs,
                        o.games
                    )
                }
                Ok(None) => {}
                Err(e) => tracing::warn!("clock worker, heartbeat: {e}"),
            }
            match silence::sweep(conn, now) {
                Ok(s) if s.warnings + s.losses > 0 => {
                    metrics::clock_events(ClockEvent::SilenceWarning, s.warnings);
                    metrics::clock_events(ClockEvent::SilenceLoss, s.losses);
                    tracing::info!(
                        "clocks: {} silence warnings, {} games lost by silence",
                        s.warnings,
                        s.losses
                    )
                }
                Ok(_) => {}
                Err(e) => tracing::warn!("clock worker, silence: {e}"),
            }
            match forfeit::sweep_report(conn, now) {
                Ok(s) if s.forfeits + s.reminders > 0 => {
                    metrics::clock_events(ClockEvent::Forfeit, s.forfeits);
                    metrics::clock_events(ClockEvent::Reminder, s.reminders);
                    tracing::info!(
                        "clocks: {} games lost on time, {} reminders",
                        s.forfeits,
                        s.reminders
                    )
                }
                Ok(_) => {}
                Err(e) => tracing::warn!("clock worker: {e}"),
            }
            // The retry keys of writes (`db::once`) are swept here too.
            if let Err(e) = crate::db::once::prune(conn, now) {
                tracing::warn!("clock worker, request keys: {e}");
            }
        })
    })
}

/// Start the tournament sweeper: every `poll`, start the tournaments whose
/// entry window has closed and pair Swiss rounds that are due
/// (`tournaments::rounds::sweep`; each start and round is claimed with a
/// conditional UPDATE, so several processes may run it).
pub fn spawn_tournament_worker(pool: Pool, poll: Duration) -> Worker {
    spawn_loop("tournaments", poll, move || {
        with_connection(&pool, "tournament sweeper", |conn| {
            match rounds::sweep(conn, crate::util::now()) {
                Ok(started) if !started.is_empty() => {
                    tracing::info!("tournaments started: {started:?}")
                }
                Ok(_) => {}
                Err(e) => tracing::warn!("tournament sweeper: {e}"),
            }
        })
    })
}

/// One pass of a loop that waits out its poll after every pass: `pass` on
/// a pooled connection, or a warning that none came (the next pass tries
/// again). Always `false`: no pass asks to run again at once.
fn with_connection(pool: &Pool, who: &str, pass: impl FnOnce(&mut PooledConn)) -> bool {
    match pool.get() {
        Ok(mut conn) => pass(&mut conn),
        Err(e) => tracing::warn!("{who}: no database connection: {e}"),
    }
    false
}
