//! `missive mail-bench`: how fast the outbox drains into an SMTP server on
//! loopback (the in-process sink), over a scratch SQLite database or the
//! PostgreSQL database named by `--database-url`.

use crate::accounts::mail_settings;
use crate::accounts::users as accounts;
use crate::db::outbox;
use crate::domain::mail_kind::Mail;
use crate::game::challenge;
use crate::game::challenge::Challenge;
use crate::mail::context;
use crate::mail::drain;
use crate::mail::transport;
use crate::smtp_sink::SmtpSink;
use std::time::Instant;

pub struct BenchResult {
    pub mails: usize,
    pub seconds: f64,
}

/// Queue `count` mails, then drain them with `workers` workers (threads,
/// each its own connection and lease name) into a local SMTP sink.
pub fn run(
    database_url: Option<&str>,
    count: usize,
    workers: usize,
) -> anyhow::Result<BenchResult> {
    let scratch =
        std::env::temp_dir().join(format!("missive-mail-bench-{}.db", std::process::id()));
    let url = match database_url {
        Some(u) => u.to_string(),
        None => scratch.to_string_lossy().into_owned(),
    };
    let pool = crate::db::connect(&url, (workers as u32 + 1).max(2))?;
    let mut conn = pool.get()?;
    let now = crate::util::now();
    let tag = &crate::util::random_token()[..6];
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
    let b = crate::db::users::find_by_name(&mut conn, &format!("bench_b{tag}"))?.expect("user b");
    // Unverified addresses get no mail but the verification mail.
    let secret = crate::db::settings::load_secret(&mut conn, None)?;
    let sig = crate::accounts::links::verify_sig(&secret, b.id, &b.email);
    mail_settings::verify_email(&mut conn, &secret, b.id, &sig, now)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    for _ in 0..count {
        let challenged = Mail::ChallengeReceived { game, from: a.id };
        outbox::enqueue(&mut conn, b.id, &challenged, now)?;
    }
    drop(conn);
    let sink = SmtpSink::start();
    let config = crate::config::Config::default();
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
