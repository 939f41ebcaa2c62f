//! The process's Prometheus metrics (issue 43), for `GET /metrics`.
//!
//! Counters are counted where the event happens, in this process: a
//! deployment of several processes sums them in Prometheus. What the
//! database knows for all processes (active games, the outbox's backlog)
//! and the pool's use are read when scraped, by the web layer, and set
//! here as gauges just before the text is written.

use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts,
    Registry, TextEncoder,
};
use std::sync::LazyLock;

struct Metrics {
    registry: Registry,
    requests: IntCounterVec,
    request_seconds: HistogramVec,
    moves_stored: IntCounter,
    mails: IntCounterVec,
    clock_sweeps: IntCounter,
    clock_events: IntCounterVec,
    /// Set when scraped.
    active_games: IntGauge,
    outbox_unsent: IntGauge,
    outbox_oldest_unsent_seconds: IntGauge,
    pool_connections: IntGaugeVec,
}

fn metrics() -> &'static Metrics {
    static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);
    &METRICS
}

impl Metrics {
    fn new() -> Metrics {
        let registry =
            Registry::new_custom(Some("missive".into()), None).expect("a valid metrics prefix");
        let requests = IntCounterVec::new(
            Opts::new(
                "http_requests_total",
                "HTTP requests answered, by route and status",
            ),
            &["method", "route", "status"],
        )
        .unwrap();
        let request_seconds = HistogramVec::new(
            HistogramOpts::new(
                "http_request_duration_seconds",
                "Time from a request's arrival to its answer, by route",
            )
            .buckets(vec![
                0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
            ]),
            &["method", "route"],
        )
        .unwrap();
        let moves_stored = IntCounter::new(
            "moves_stored_total",
            "Moves committed to the database (a conditional reply played with a move counts too)",
        )
        .unwrap();
        let mails = IntCounterVec::new(
            Opts::new(
                "mails_total",
                "Mails by what became of them: queued (written to the outbox), sent, failed (an attempt that failed)",
            ),
            &["outcome"],
        )
        .unwrap();
        let clock_sweeps = IntCounter::new(
            "clock_sweeps_total",
            "Passes of the clock worker (heartbeat, silence, time forfeits, reminders)",
        )
        .unwrap();
        let clock_events = IntCounterVec::new(
            Opts::new(
                "clock_events_total",
                "What the clock worker did: forfeits on time, reminders, silence warnings and losses, outage extensions",
            ),
            &["event"],
        )
        .unwrap();
        let active_games =
            IntGauge::new("active_games", "Games in progress (from the database)").unwrap();
        let outbox_unsent = IntGauge::new(
            "outbox_unsent_mails",
            "Mails in the outbox not yet sent (from the database)",
        )
        .unwrap();
        let outbox_oldest_unsent_seconds = IntGauge::new(
            "outbox_oldest_unsent_age_seconds",
            "Age of the oldest unsent mail in the outbox, 0 when there is none",
        )
        .unwrap();
        let pool_connections = IntGaugeVec::new(
            Opts::new(
                "db_pool_connections",
                "This process's database connections: open, idle (open and free) and max",
            ),
            &["state"],
        )
        .unwrap();
        for c in [
            Box::new(requests.clone()) as Box<dyn prometheus::core::Collector>,
            Box::new(request_seconds.clone()),
            Box::new(moves_stored.clone()),
            Box::new(mails.clone()),
            Box::new(clock_sweeps.clone()),
            Box::new(clock_events.clone()),
            Box::new(active_games.clone()),
            Box::new(outbox_unsent.clone()),
            Box::new(outbox_oldest_unsent_seconds.clone()),
            Box::new(pool_connections.clone()),
        ] {
            registry.register(c).expect("metric names are distinct");
        }
        // Every outcome and event is listed from the start, at zero.
        for outcome in ["queued", "sent", "failed"] {
            mails.with_label_values(&[outcome]);
        }
        for event in ClockEvent::ALL {
            clock_events.with_label_values(&[event.label()]);
        }
        Metrics {
            registry,
            requests,
            request_seconds,
            moves_stored,
            mails,
            clock_sweeps,
            clock_events,
            active_games,
            outbox_unsent,
            outbox_oldest_unsent_seconds,
            pool_connections,
        }
    }
}

/// A request answered: `route` is the matched route's pattern
/// (`/games/{id}`), never the path, so that the labels stay few.
pub fn request(method: &str, route: &str, status: u16, seconds: f64) {
    let m = metrics();
    m.requests
        .with_label_values(&[method, route, &status.to_string()])
        .inc();
    m.request_seconds
        .with_label_values(&[method, route])
        .observe(seconds);
}

/// Moves committed (a move and the conditional replies it set off).
pub fn moves_stored(n: usize) {
    metrics().moves_stored.inc_by(n as u64);
}

pub fn mails_queued(n: usize) {
    metrics()
        .mails
        .with_label_values(&["queued"])
        .inc_by(n as u64);
}

pub fn mails_sent(n: usize) {
    metrics()
        .mails
        .with_label_values(&["sent"])
        .inc_by(n as u64);
}

pub fn mails_failed(n: usize) {
    metrics()
        .mails
        .with_label_values(&["failed"])
        .inc_by(n as u64);
}

/// What a clock worker pass did.
#[derive(Clone, Copy)]
pub enum ClockEvent {
    Forfeit,
    Reminder,
    SilenceWarning,
    SilenceLoss,
    OutageExtension,
}

impl ClockEvent {
    const ALL: [ClockEvent; 5] = [
        ClockEvent::Forfeit,
        ClockEvent::Reminder,
        ClockEvent::SilenceWarning,
        ClockEvent::SilenceLoss,
        ClockEvent::OutageExtension,
    ];

    fn label(self) -> &'static str {
        match self {
            ClockEvent::Forfeit => "forfeit",
            ClockEvent::Reminder => "reminder",
            ClockEvent::SilenceWarning => "silence_warning",
            ClockEvent::SilenceLoss => "silence_loss",
            ClockEvent::OutageExtension => "outage_extension",
        }
    }
}

pub fn clock_sweep() {
    metrics().clock_sweeps.inc();
}

pub fn clock_events(event: ClockEvent, n: usize) {
    metrics()
        .clock_events
        .with_label_values(&[event.label()])
        .inc_by(n as u64);
}

/// What is read from the database and the pool when scraped.
pub struct Scraped {
    pub active_games: i64,
    pub outbox_unsent: i64,
    pub outbox_oldest_unsent_seconds: i64,
    pub pool_open: u32,
    pub pool_idle: u32,
    pub pool_max: u32,
}

/// The text exposition format, with the scraped gauges set first.
pub fn render(scraped: &Scraped) -> String {
    let m = metrics();
    m.active_games.set(scraped.active_games);
    m.outbox_unsent.set(scraped.outbox_unsent);
    m.outbox_oldest_unsent_seconds
        .set(scraped.outbox_oldest_unsent_seconds);
    for (state, n) in [
        ("open", scraped.pool_open),
        ("idle", scraped.pool_idle),
        ("max", scraped.pool_max),
    ] {
        m.pool_connections
            .with_label_values(&[state])
            .set(i64::from(n));
    }
    let mut out = Vec::new();
    TextEncoder::new()
        .encode(&m.registry.gather(), &mut out)
        .expect("writing to memory cannot fail");
    String::from_utf8(out).expect("the text format is UTF-8")
}
