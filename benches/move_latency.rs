//! Posting a move never waits for SMTP (issue 9): the latency of move POSTs
//! while the mail worker sends the "your turn" mails to an SMTP server on
//! loopback that answers, and to one that accepts connections and never
//! answers. Run: `bash bench/move_latency.sh`, or
//! `cargo bench --bench move_latency`
//! (`MOVES=N` to change the number of moves; prints p50/p99 per case;
//! asserts nothing about timing). The outbox drain rate is
//! `cargo bench --bench mail` (benches/mail.rs).

#[path = "../tests/it/common/mod.rs"]
mod common;

use crate::common::smtp;
use missive::domain::ids::GameId;

use common::{csrf_from, Backend, TestApp};
use missive::mail::context::MailCtx;
use missive::mail::drain::Sender;
use missive::mail::transport;
use missive::mail::transport::Transport;
use reqwest::StatusCode;
use smtp::SmtpSink;
use std::time::{Duration, Instant};

struct Run {
    millis: Vec<f64>,
    delivered: usize,
    queued: i64,
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    let i = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

fn run(stalled: bool, moves: usize) -> Run {
    let app = TestApp::start(Backend::Sqlite);
    let sink = if stalled {
        SmtpSink::start_stalled()
    } else {
        SmtpSink::start()
    };
    let alice = app.verified_user("alice");
    let bob = app.verified_user("bob");
    let games: Vec<GameId> = (0..moves.div_ceil(4))
        .map(|_| {
            let id = alice.challenge("bob", "white");
            assert_eq!(
                bob.post(&format!("/games/{id}/accept"), &[]).status,
                StatusCode::SEE_OTHER
            );
            id
        })
        .collect();
    // The worker a server process runs, on its own pool, sending to the sink.
    missive::listen();
    let pool = missive::db::connect(&app.database_url, 2).unwrap();
    let secret = missive::web::load_secret(&mut app.db(), None).unwrap();
    let sender = Sender {
        transport: Transport::Smtp(transport::smtp_transport(&sink.url()).unwrap()),
        ctx: MailCtx::new(&app.config, &secret).unwrap(),
        owner: "bench".into(),
    };
    let worker = missive::jobs::spawn_mail_worker(pool, sender, Duration::from_millis(20));
    let tokens = [
        csrf_from(&alice.get("/").body).expect("a token"),
        csrf_from(&bob.get("/").body).expect("a token"),
    ];
    let mut millis = Vec::with_capacity(moves);
    'games: for id in &games {
        for (i, m) in ["e4", "e5", "Nf3", "Nc6"].into_iter().enumerate() {
            if millis.len() == moves {
                break 'games;
            }
            let (client, token) = if i % 2 == 0 {
                (&alice, &tokens[0])
            } else {
                (&bob, &tokens[1])
            };
            let t = Instant::now();
            let p = client.post_raw(
                &format!("/games/{id}/move"),
                &[("csrf_token", token), ("move", m), ("confirm", "1")],
            );
            millis.push(t.elapsed().as_secs_f64() * 1000.0);
            assert_eq!(p.status, StatusCode::SEE_OTHER, "{}", p.body);
        }
    }
    let delivered = sink.count();
    let queued = app.count(
        "SELECT COUNT(*) AS n FROM email_outbox WHERE sent_at IS NULL AND kind = 'your_turn'",
    );
    // Closing the stalled server ends the worker's wait at once.
    drop(sink);
    worker.stop();
    Run {
        millis,
        delivered,
        queued,
    }
}

fn move_latency_with_smtp_reachable_and_stalled() {
    let moves: usize = std::env::var("MOVES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    for (label, stalled) in [("SMTP reachable", false), ("SMTP stalled", true)] {
        let r = run(stalled, moves);
        let mut sorted = r.millis.clone();
        sorted.sort_by(f64::total_cmp);
        println!(
            "move POST, {label}: {} moves, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; \
             mails delivered meanwhile {}, still queued {}",
            sorted.len(),
            percentile(&sorted, 0.50),
            percentile(&sorted, 0.99),
            sorted.last().copied().unwrap_or_default(),
            r.delivered,
            r.queued
        );
    }
}

fn main() {
    move_latency_with_smtp_reachable_and_stalled();
}
