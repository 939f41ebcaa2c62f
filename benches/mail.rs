//! The outbox drain rate: `bash bench/mail.sh` (see there), or
//! `cargo bench --bench mail -- --count 2000 --workers 1 [--database-url URL]`
//! (formerly `missive mail-bench`). Queues `--count` mails, then drains
//! them with `--workers` workers into an SMTP sink on 127.0.0.1 (in this
//! process), over a scratch SQLite database or the PostgreSQL database
//! named by `--database-url`; prints mails/second.

#[path = "../tests/it/common/smtp_sink.rs"]
mod smtp_sink;

use missive::accounts::mail_settings;
use missive::accounts::users as accounts;
use missive::db::outbox;
use missive::domain::mail_kind::Mail;
use missive::game::challenge;
use missive::game::challenge::Challenge;
use missive::mail::context;
use missive::mail::drain;
use missive::mail::transport;
use smtp_sink::SmtpSink;
use std::time::Instant;

struct BenchResult {
    mails: usize,
    seconds: f64,
}

/// Queue `count` mails, then drain them with `workers` workers (threads,
/// each its own connection and lease name) into a local SMTP sink.
fn run(database_url: Option<&str>, count: usize, workers: usize) -> anyhow::Result<BenchResult> {
    let scratch =
        std::env::temp_dir().join(format!("missive-mail-bench-{}.db", std::process::id()));
    let url = match database_url {
        Some(u) => u.to_string(),
        None => scratch.to_string_lossy().into_owned(),
    };
    missive::listen();
    let pool = missive::db::connect(&url, (workers as u32 + 1).max(2))?;
    let mut conn = pool.get()?;
    let now = missive::util::now();
    let tag = &missive::util::random_token()[..6];
    let a = accounts::signup(
        &mut conn,
        &format!("bench_a{tag}"),
        "a@example.org",
        "bench password 1",
        now,
    )
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    accounts::signup(
        &mut conn,
        &format!("bench_b{tag}"),
        "b@example.org",
        "bench password 2",
        now,
    )
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    let challenge = Challenge {
        variant: "chess".into(),
        opponent: format!("bench_b{tag}"),
        color: "white".into(),
        fen: String::new(),
        time_control: String::new(),
        ..Default::default()
    };
    let game = challenge::create_game(&mut conn, &a, &challenge, now)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let b = missive::db::users::find_by_name(&mut conn, &format!("bench_b{tag}"))?.expect("user b");
    // Unverified addresses get no mail but the verification mail.
    let secret = missive::db::settings::load_secret(&mut conn, None)?;
    let sig = missive::accounts::links::verify_sig(&secret, b.id, &b.email);
    mail_settings::verify_email(&mut conn, &secret, b.id, &sig, now)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    for _ in 0..count {
        let challenged = Mail::ChallengeReceived { game, from: a.id };
        outbox::enqueue(&mut conn, b.id, &challenged, now)?;
    }
    drop(conn);
    let sink = SmtpSink::start();
    let config = missive::config::Config::default();
    let started = Instant::now();
    let handles: Vec<_> = (0..workers.max(1))
        .map(|i| {
            let sender = drain::Sender {
                transport: transport::Transport::Smtp(transport::smtp_transport(&sink.url())?),
                ctx: context::MailCtx::new(&config, &secret)?,
                owner: format!("bench-{i}"),
            };
            let pool = pool.clone();
            Ok(std::thread::spawn(move || -> anyhow::Result<usize> {
                let mut conn = pool.get()?;
                let mut sent = 0;
                loop {
                    let r = drain::drain_once(&mut conn, &sender, now)
                        .map_err(|e| anyhow::anyhow!("{e}"))?;
                    sent += r.sent;
                    if r.sent + r.failed + r.skipped + r.refused == 0 {
                        return Ok(sent);
                    }
                }
            }))
        })
        .collect::<anyhow::Result<_>>()?;
    let mut sent = 0;
    for h in handles {
        sent += h
            .join()
            .map_err(|_| anyhow::anyhow!("a worker panicked"))??;
    }
    let seconds = started.elapsed().as_secs_f64();
    anyhow::ensure!(sent == count, "{count} mails queued, {sent} sent");
    anyhow::ensure!(
        sink.count() == sent,
        "the sink got {} mails, the workers sent {sent}",
        sink.count()
    );
    drop(pool);
    if database_url.is_none() {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", scratch.display()));
        }
    }
    Ok(BenchResult {
        mails: sent,
        seconds,
    })
}

struct Args {
    count: usize,
    workers: usize,
    database_url: Option<String>,
}

fn args() -> Args {
    let mut a = Args {
        count: 2000,
        workers: 1,
        database_url: None,
    };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < argv.len() {
        let val = argv.get(i + 1).cloned().unwrap_or_default();
        match argv[i].as_str() {
            "--count" => a.count = val.parse().expect("--count N"),
            "--workers" => a.workers = val.parse().expect("--workers N"),
            "--database-url" => a.database_url = Some(val),
            // `cargo bench` adds `--bench`; anything else is ignored too.
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    a
}

fn main() -> anyhow::Result<()> {
    let a = args();
    let r = run(a.database_url.as_deref(), a.count.max(1), a.workers)?;
    println!(
        "{} mails in {:.2} s: {:.0} mails/s ({} worker(s), SMTP sink on 127.0.0.1)",
        r.mails,
        r.seconds,
        r.mails as f64 / r.seconds.max(1e-9),
        a.workers.max(1)
    );
    Ok(())
}
