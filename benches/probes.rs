//! Measurements run by hand, one at a time: `bash bench/probes.sh NAME`
//! (release build), or `cargo bench --bench probes -- NAME`. Each prints
//! its figures and asserts nothing about time. NAME is one of:
//! sweep, exports_while_checks, backup, forgot_timing, standings.

#[path = "../tests/it/common/mod.rs"]
mod common;

use chrono::{Duration as Days, NaiveDate, NaiveDateTime};
use common::server_proc::{missive, moves_under_way, restored_copy, said};
use common::smtp_sink::SmtpSink;
use common::tournament_kit::{by_id, director, finish, form, started, tgames};
use common::{Backend, TestApp};
use diesel::prelude::*;
use missive::clocks::forfeit;
use missive::db::users::User;
use missive::db::DbConn;
use missive::domain::error::Error;
use missive::domain::time_control::TimeControl;
use missive::game::challenge;
use std::sync::atomic::Ordering;
use std::thread;
use std::time::{Duration, Instant};

fn t0() -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 3, 2)
        .unwrap()
        .and_hms_opt(12, 0, 0)
        .unwrap()
}

/// A player signed up at `t0()`.
fn player(conn: &mut DbConn, name: &str) -> User {
    let (email, password) = (format!("{name}@example.org"), "correct horse battery");
    missive::accounts::users::signup(conn, name, &email, password, t0()).unwrap()
}

fn tc(text: &str) -> TimeControl {
    text.parse().unwrap()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// How long a
/// sweep takes over many active games, when none and when some are due.
/// (Was the ignored test `clocks::sweep_bench`.)
fn sweep_bench() {
    let app = TestApp::start(Backend::Sqlite);
    let mut conn = app.db();
    let alice = player(&mut conn, "alice");
    let bob = player(&mut conn, "bob");
    let n: usize = 2000;
    conn.transaction::<_, Error, _>(|conn| {
        for i in 0..n {
            // One game in 20 runs on one day per move, the rest on 14.
            let control = if i % 20 == 0 { "1d/move" } else { "14d/move" };
            challenge::create_active_game(
                conn,
                "chess",
                alice.id,
                bob.id,
                Some(&tc(control)),
                None,
                t0(),
            )?;
        }
        Ok(())
    })
    .unwrap();
    let time = |conn: &mut DbConn, now: NaiveDateTime| {
        let started = std::time::Instant::now();
        let s = forfeit::sweep_report(conn, now).unwrap();
        (started.elapsed().as_secs_f64() * 1000.0, s)
    };
    // The first pass pays for preparing the statements.
    time(&mut conn, t0() + Days::minutes(1));
    let (idle, s) = time(&mut conn, t0() + Days::hours(1));
    assert_eq!(s, forfeit::Swept::default());
    let (busy, s) = time(&mut conn, t0() + Days::days(1));
    assert_eq!(s.forfeits, n / 20);
    println!(
        "sweep over {n} active games: {idle:.2} ms with nothing due, {busy:.1} ms ending {} games on time",
        s.forfeits
    );
}

/// The starvation case of issue 60, measured: a 6-ply game's PGN export
/// latency (median of 15) while 16 clients loop record checks, on the
/// binary `MISSIVE_MEASURE_BIN` (default: this build) serving a SQLite
/// database this test fills. Prints; asserts nothing about time.
/// `MISSIVE_MEASURE_BIN=old/missive bash bench/probes.sh exports_while_checks`
/// (Was the ignored test `record_checks::measure_exports_while_checks_loop`.)
fn measure_exports_while_checks_loop() {
    use std::process::{Command, Stdio};
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::time::Instant;
    let (mut app, alice, bob, id) = TestApp::game_of_alice_and_bob(Backend::Sqlite);
    for (who, mv) in [
        (&alice, "e4"),
        (&bob, "e5"),
        (&alice, "Nf3"),
        (&bob, "Nc6"),
        (&alice, "Bb5"),
        (&bob, "a6"),
    ] {
        who.play(id, mv);
    }
    app.stop_server();
    let bin = std::env::var("MISSIVE_MEASURE_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_missive").to_string());
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = tempfile::tempdir().unwrap();
    let mut server = Command::new(&bin)
        .arg("serve")
        .current_dir(dir.path())
        .env("DATABASE_URL", &app.database_url)
        .env("MISSIVE_BIND", format!("127.0.0.1:{port}"))
        .env("MISSIVE_WORKERS", "2")
        .env("MISSIVE_MAIL_WORKER", "off")
        .env("MISSIVE_CLOCK_WORKER", "off")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let base = format!("http://127.0.0.1:{port}");
    let pgn = format!("{base}/games/{id}.pgn");
    let get = reqwest::blocking::Client::new();
    let t0 = Instant::now();
    while get
        .get(&pgn)
        .send()
        .map(|r| r.status() != 200)
        .unwrap_or(true)
    {
        assert!(t0.elapsed().as_secs() < 60, "the server did not start");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let sample = |n: usize| -> Vec<f64> {
        (0..n)
            .map(|_| {
                let t = Instant::now();
                assert_eq!(get.get(&pgn).send().unwrap().status(), 200);
                t.elapsed().as_secs_f64()
            })
            .collect()
    };
    let idle = median(sample(15));
    // As the issue measured: 6,000 plies.
    let record = common::long_records::knight_shuffle(6_000);
    let stop = Arc::new(AtomicBool::new(false));
    let (checked, refused) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let clients: Vec<_> = (0..16)
        .map(|_| {
            let (stop, checked, refused) = (stop.clone(), checked.clone(), refused.clone());
            let (base, record) = (base.clone(), record.clone());
            std::thread::spawn(move || {
                let c = reqwest::blocking::Client::builder()
                    .cookie_store(true)
                    .build()
                    .unwrap();
                let form = c
                    .get(format!("{base}/records/check"))
                    .send()
                    .unwrap()
                    .text()
                    .unwrap();
                let token = common::csrf_from(&form).unwrap();
                while !stop.load(Ordering::Relaxed) {
                    let r = c
                        .post(format!("{base}/records/check"))
                        .form(&[("csrf_token", token.as_str()), ("record", record.as_str())])
                        .send()
                        .unwrap();
                    match r.status().as_u16() {
                        429 => refused.fetch_add(1, Ordering::Relaxed),
                        _ => checked.fetch_add(1, Ordering::Relaxed),
                    };
                }
            })
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_secs(2));
    let loaded = sample(15);
    stop.store(true, Ordering::Relaxed);
    for c in clients {
        c.join().unwrap();
    }
    let _ = server.kill();
    let _ = server.wait();
    eprintln!(
        "{bin}: PGN export median {:.3} s idle, {:.3} s (max {:.3}) while 16 clients looped checks \
         of {} bytes ({} checked, {} refused 429)",
        idle,
        median(loaded.clone()),
        loaded.iter().cloned().fold(0.0, f64::max),
        record.len(),
        checked.load(Ordering::Relaxed),
        refused.load(Ordering::Relaxed)
    );
}

/// The figures of a backup under a longer load, for the closing note of
/// issue 43: the moves a second before and during the backup, its
/// time and size, and the copy checked move by move once restored.
/// (Was the ignored test `production::backup_figures_under_a_longer_load`.)
fn backup_figures_under_a_longer_load() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("live.db").to_string_lossy().into_owned();
    let sink = SmtpSink::start();
    let (server, acked, stop, threads) =
        moves_under_way(&db, &sink, dir.path(), 200, 600, 15_000, &[]);
    let rate = |secs: f64| {
        let n0 = acked.lock().unwrap().len();
        thread::sleep(Duration::from_secs_f64(secs));
        (acked.lock().unwrap().len() - n0) as f64 / secs
    };
    let rate_before = rate(3.0);
    let before = acked.lock().unwrap().clone();
    let file = dir.path().join("copy.db");
    let t = Instant::now();
    let out = missive(&["backup", file.to_str().unwrap()], &db);
    let secs = t.elapsed().as_secs_f64();
    let during = acked.lock().unwrap().len() - before.len();
    assert!(out.status.success(), "{}", said(&out));
    let rate_after = rate(3.0);
    stop.store(true, Ordering::SeqCst);
    for t in threads {
        t.join().expect("load thread");
    }
    drop(server);
    let (stored, _) = restored_copy(dir.path(), &file, &before);
    println!(
        "backup under load: {} moves acknowledged before it began; {:.0} moves/s in the 3 s \
         before, {during} moves during its {secs:.2} s ({:.0}/s), {:.0} moves/s in the 3 s after; \
         {}; restored: {} moves, every acknowledged one there",
        before.len(),
        rate_before,
        during as f64 / secs,
        rate_after,
        said(&out).trim(),
        stored
    );
}

/// Issue 60, finding 10's measure: median times of
/// `/password/forgot` for 80 known and 80 unknown addresses, interleaved
/// (each first half of the time), one probe each; each known address is asked twice, its link deleted
/// in between, so each probe of it would send a mail.
/// (Was the ignored test `accounts::forgot_timing_probe`.)
fn forgot_timing_probe() {
    let mut backends = vec![Backend::Sqlite];
    if common::postgres_url().is_some() {
        backends.push(Backend::Postgres);
    }
    for backend in backends {
        let app = TestApp::start(backend);
        let now = missive::web::now();
        for i in 0..40 {
            missive::accounts::users::create_verified(
                &mut app.db(),
                &format!("known{i}"),
                &format!("known{i}@example.org"),
                "correct horse battery",
                now,
            )
            .unwrap();
        }
        let c = app.client();
        let token = c.csrf();
        let time = |email: &str| {
            let started = std::time::Instant::now();
            let r = c
                .http
                .post(format!("{}/password/forgot", c.base))
                .form(&[("csrf_token", token.as_str()), ("email", email)])
                .send()
                .unwrap();
            assert_eq!(r.status(), reqwest::StatusCode::OK);
            started.elapsed().as_secs_f64() * 1000.0
        };
        let (mut known, mut unknown) = (Vec::new(), Vec::new());
        for round in 0..2 {
            for i in 0..40 {
                diesel::sql_query("DELETE FROM account_tokens")
                    .execute(&mut app.db())
                    .unwrap();
                let k = format!("known{i}@example.org");
                let u = format!("nobody{round}-{i}@example.org");
                // Each goes first half of the time.
                if (round + i) % 2 == 0 {
                    known.push(time(&k));
                    unknown.push(time(&u));
                } else {
                    unknown.push(time(&u));
                    known.push(time(&k));
                }
            }
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            (v[v.len() / 2 - 1] + v[v.len() / 2]) / 2.0
        };
        eprintln!(
            "{backend:?}: /password/forgot median known {:.2} ms, unknown {:.2} ms ({} each)",
            median(&mut known),
            median(&mut unknown),
            known.len()
        );
    }
}

/// The
/// tournament page's data for a 46-player round robin (1,035 games, half of
/// them finished) is read in a fixed number of queries; prints the time.
/// (Was the ignored test `tournaments::bench_standings_of_a_thousand_games`.)
fn bench_standings_of_a_thousand_games() {
    let app = TestApp::start(Backend::Sqlite);
    let conn = &mut app.db();
    let dir = director(conn, "director");
    let mut players: Vec<User> = Vec::new();
    for i in 0..46 {
        // Plain sign-ups are enough here (no mail needed).
        players.push(
            missive::accounts::users::signup(
                conn,
                &format!("player{i}"),
                &format!("p{i}@example.org"),
                "correct horse battery",
                t0(),
            )
            .unwrap(),
        );
    }
    let refs: Vec<&User> = players.iter().collect();
    let built = std::time::Instant::now();
    let mut f = form("Big", "round-robin", "", "2");
    f.max_players = "46".into();
    let (tid, start) = started(conn, &dir, f, &refs);
    let games = tgames(conn, tid);
    assert_eq!(games.len(), 46 * 45 / 2);
    let who = by_id(&refs);
    for (k, g) in games.iter().enumerate().filter(|(k, _)| k % 2 == 0) {
        finish(
            conn,
            g,
            ["1-0", "0-1", "1/2-1/2"][k % 3],
            &who,
            start + Days::minutes(k as i64),
        );
    }
    eprintln!("set-up: {:.1} s", built.elapsed().as_secs_f64());
    let t = std::time::Instant::now();
    let runs = 10;
    for _ in 0..runs {
        let v = missive::tournaments::views::view(conn, tid).unwrap();
        assert_eq!(v.standings.len(), 46);
    }
    eprintln!(
        "tournament view with {} games: {:.1} ms",
        games.len(),
        t.elapsed().as_secs_f64() * 1000.0 / runs as f64
    );
}

fn main() {
    missive::listen();
    let probes: &[(&str, fn())] = &[
        ("sweep", sweep_bench),
        ("exports_while_checks", measure_exports_while_checks_loop),
        ("backup", backup_figures_under_a_longer_load),
        ("forgot_timing", forgot_timing_probe),
        ("standings", bench_standings_of_a_thousand_games),
    ];
    let asked: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if asked.is_empty() {
        let names: Vec<&str> = probes.iter().map(|(n, _)| *n).collect();
        eprintln!("which probe? one of: {}", names.join(", "));
        std::process::exit(2);
    }
    for a in &asked {
        match probes.iter().find(|(n, _)| n == a) {
            Some((_, probe)) => probe(),
            None => {
                eprintln!("no probe named {a}");
                std::process::exit(2);
            }
        }
    }
}
