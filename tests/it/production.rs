//! Running it in production (issue 43): readiness, metrics read by
//! Prometheus's own checker, JSON logs with request ids, and backups of a
//! database under a move load. SIGTERM under load is in `tests/it/faults.rs`.

use crate::common;
use crate::common::server_proc;

use crate::common::smtp_sink::SmtpSink;
use common::{Backend, TestApp};
use diesel::prelude::*;
use diesel_migrations::MigrationHarness;
use missive::db::DbConn;
use server_proc::{missive, moves_under_way, restored_copy, said, spawn, spawn_logging};
use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::atomic::Ordering;
use std::thread;
use std::time::{Duration, Instant};

fn env_on(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

fn http() -> reqwest::blocking::Client {
    reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap()
}

fn readyz(app: &TestApp) -> (u16, String) {
    let r = http().get(format!("{}/readyz", app.base)).send().unwrap();
    (r.status().as_u16(), r.text().unwrap())
}

/// `/readyz` says 503 while the database lacks a migration this binary
/// has, and (PostgreSQL) while the database cannot be reached; 200 again
/// once it is back.
fn readiness_follows_the_database(backend: Backend) {
    let app = TestApp::start(backend);
    assert_eq!(readyz(&app), (200, "ready".to_string()));

    // Another process of an older version took the newest migration back.
    let mut conn = missive::db::Manager::new(&app.database_url).open().unwrap();
    match &mut conn {
        DbConn::Sqlite(c) => c
            .revert_last_migration(missive::db::SQLITE_MIGRATIONS)
            .map(|_| ()),
        DbConn::Postgresql(c) => c
            .revert_last_migration(missive::db::POSTGRES_MIGRATIONS)
            .map(|_| ()),
    }
    .unwrap();
    let (status, body) = readyz(&app);
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("1 database migrations are pending"), "{body}");
    missive::db::migrate(&mut conn).unwrap();
    assert_eq!(readyz(&app).0, 200);
    drop(conn);

    if backend == Backend::Postgres {
        let admin = common::postgres_url().unwrap();
        let name = url::Url::parse(&app.database_url).unwrap().path()[1..].to_string();
        let mut admin = diesel::PgConnection::establish(&admin).unwrap();
        let set = |conn: &mut diesel::PgConnection, allow: bool| {
            diesel::sql_query(format!(
                "ALTER DATABASE {name} WITH ALLOW_CONNECTIONS {allow}"
            ))
            .execute(conn)
            .unwrap();
        };
        set(&mut admin, false);
        diesel::sql_query(format!(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"
        ))
        .execute(&mut admin)
        .unwrap();
        let (status, body) = readyz(&app);
        set(&mut admin, true);
        assert_eq!(status, 503, "{body}");
        assert!(body.contains("cannot be reached"), "{body}");
        assert_eq!(readyz(&app).0, 200, "ready again once it is back");
    }
}

both_backends!(readiness_follows_the_database);

/// Once its server has stopped, a pool opens no connection. r2d2 replaces
/// a connection found cut on a thread of its own, which nothing joins; a
/// process that exited while one was inside libpq crashed in libssl's exit
/// handlers (a run of `postgres::readiness_follows_the_database` in about
/// 30 did, before this).
#[test]
fn a_stopped_servers_pool_opens_no_connection() {
    if common::postgres_url().is_none() {
        eprintln!("MISSIVE_TEST_POSTGRES_URL is not set: PostgreSQL run skipped");
        return;
    }
    let mut app = TestApp::start(Backend::Postgres);
    let name = url::Url::parse(&app.database_url).unwrap().path()[1..].to_string();
    let mut admin = diesel::PgConnection::establish(&common::postgres_url().unwrap()).unwrap();
    let backends = |admin: &mut diesel::PgConnection| {
        #[derive(QueryableByName)]
        struct N {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            n: i64,
        }
        diesel::sql_query(format!(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = '{name}'"
        ))
        .get_result::<N>(admin)
        .unwrap()
        .n
    };
    assert!(backends(&mut admin) > 0, "the pool holds connections");

    let state = app.stop_server();
    diesel::sql_query(format!(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"
    ))
    .execute(&mut admin)
    .unwrap();
    // Each pooled connection is found cut and leaves the pool; none comes
    // in its place.
    let mut refused = None;
    for _ in 0..=state.pool.max_size() {
        match state.pool.get_timeout(Duration::from_secs(2)) {
            Ok(mut conn) => {
                let cut = diesel::sql_query("SELECT 1").execute(&mut *conn).is_err();
                assert!(cut, "no connection to the database is opened again");
            }
            Err(e) => {
                refused = Some(e.to_string());
                break;
            }
        }
    }
    let refused = refused.expect("the pool runs out of connections");
    assert!(refused.contains("the server is stopping"), "{refused}");
    // The cut ones leave pg_stat_activity as their processes end.
    let deadline = Instant::now() + Duration::from_secs(60);
    while backends(&mut admin) > 0 && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(backends(&mut admin), 0, "nothing connected after the stop");
}

const TOKEN: &str = "metrics-token-for-the-test-0123";

/// `promtool check metrics` on `text`, when Debian's `prometheus` package
/// is there (`.ci/run` installs it; with `CI` or `MISSIVE_TEST_PROMTOOL=1`
/// its absence fails the test).
fn promtool_check(text: &str) {
    let child = Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            if env_on("CI") || env_on("MISSIVE_TEST_PROMTOOL") {
                panic!("promtool (Debian package prometheus) cannot be run: {e}");
            }
            eprintln!("promtool check skipped: {e} (install Debian's prometheus package)");
            return;
        }
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "promtool check metrics: {}{}\n{text}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The value of the sample `name` (with its labels, as written) in `text`.
fn sample(text: &str, name: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("no sample {name} in\n{text}"))
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn metrics_are_off_unless_a_token_is_set_and_then_need_it() {
    let app = TestApp::start(Backend::Sqlite);
    let r = http().get(format!("{}/metrics", app.base)).send().unwrap();
    assert_eq!(r.status(), 404, "off without MISSIVE_METRICS_TOKEN");

    let app = TestApp::start_with(Backend::Sqlite, |c| c.metrics_token = Some(TOKEN.into()));
    let alice = app.verified_user("alice");
    let bob = app.verified_user("bob");
    let game = alice.challenge("bob", "white");
    bob.post(&format!("/games/{game}/accept"), &[]);
    alice.play(game, "e4");
    bob.play(game, "e5");
    assert!(alice.get(&format!("/games/{game}")).has("e5"));

    let url = format!("{}/metrics", app.base);
    let r = http().get(&url).send().unwrap();
    assert_eq!(r.status(), 401);
    assert!(r.headers().contains_key("www-authenticate"));
    let r = http()
        .get(&url)
        .bearer_auth("metrics-token-for-the-test-0124")
        .send()
        .unwrap();
    assert_eq!(r.status(), 401, "a wrong token");
    let r = http().get(&url).bearer_auth(TOKEN).send().unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/plain; version=0.0.4"));
    let text = r.text().unwrap();
    promtool_check(&text);
    // Counters are the process's, and other tests' servers run in this
    // process too: at least this test's.
    assert!(sample(&text, "missive_moves_stored_total") >= 2.0);
    assert!(sample(&text, "missive_mails_total{outcome=\"queued\"}") >= 1.0);
    assert!(
        sample(
            &text,
            "missive_http_requests_total{method=\"GET\",route=\"/games/{id}\",status=\"200\"}"
        ) >= 1.0,
        "requests are counted by route pattern, not by path"
    );
    assert!(
        !text.contains(&format!("/games/{game}\"")),
        "no path labels"
    );
    assert!(
        sample(
            &text,
            "missive_http_request_duration_seconds_count{method=\"GET\",route=\"/games/{id}\"}"
        ) >= 1.0
    );
    assert_eq!(sample(&text, "missive_active_games"), 1.0);
    assert_eq!(
        sample(&text, "missive_db_pool_connections{state=\"max\"}"),
        8.0
    );
    // The test's server runs no mail worker: the mails stay in the outbox.
    let unsent = app.count("SELECT COUNT(*) AS n FROM email_outbox WHERE sent_at IS NULL");
    assert!(unsent >= 1);
    assert_eq!(sample(&text, "missive_outbox_unsent_mails"), unsent as f64);
    assert!(sample(&text, "missive_outbox_oldest_unsent_age_seconds") >= 0.0);
    for name in [
        "missive_clock_sweeps_total",
        "missive_mails_total{outcome=\"sent\"}",
    ] {
        sample(&text, name);
    }
}

/// With `MISSIVE_LOG_FORMAT=json` every line of the log is a JSON object;
/// each request's line carries its id, which the answer's `X-Request-Id`
/// also gives (the proxy's own id when it sent a plain one).
#[test]
fn json_logs_carry_the_request_id_the_answer_gives() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("logs.db").to_string_lossy().into_owned();
    let log = dir.path().join("server.log");
    let sink = SmtpSink::start();
    let mut server = spawn_logging(
        &db,
        &sink.url(),
        3,
        dir.path(),
        &[("MISSIVE_LOG_FORMAT", "json"), ("RUST_LOG", "info")],
        Some(&log),
    );
    let base = format!("http://{}", server.addr);
    let r = http()
        .get(format!("{base}/login"))
        .header("X-Request-Id", "proxy-4f2a.7")
        .send()
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["x-request-id"], "proxy-4f2a.7");
    let r = http()
        .get(format!("{base}/no/such/page"))
        .header("X-Request-Id", "not a plain id; <script>")
        .send()
        .unwrap();
    assert_eq!(r.status(), 404);
    let made = r.headers()["x-request-id"].to_str().unwrap().to_string();
    assert_eq!(made.len(), 16, "a new id in place of one that is not plain");
    assert!(made.bytes().all(|b| b.is_ascii_hexdigit()));
    assert!(server.terminate().success());

    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert!(!lines.is_empty());
    let answered = |id: &str| {
        lines
            .iter()
            .find(|v| v["span"]["request_id"] == id && v["fields"]["message"] == "answered")
    };
    let line =
        answered("proxy-4f2a.7").unwrap_or_else(|| panic!("no line for the request:\n{text}"));
    assert_eq!(line["fields"]["status"], 200);
    assert_eq!(line["fields"]["path"], "/login");
    assert_eq!(line["level"], "INFO");
    assert_eq!(answered(&made).unwrap()["fields"]["status"], 404);

    // A format the server does not know stops it at once, saying why.
    let out = Command::new(env!("CARGO_BIN_EXE_missive"))
        .arg("serve")
        .current_dir(dir.path())
        .env("DATABASE_URL", &db)
        .env("MISSIVE_LOG_FORMAT", "xml")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("MISSIVE_LOG_FORMAT"));
}

/// `missive backup` while moves are being made: the copy has every move
/// acknowledged before the backup began, and is a whole database of its
/// own once restored. `missive restore` will not replace the database a
/// server is using.
#[test]
fn a_backup_under_load_restores_every_move_acknowledged_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("live.db").to_string_lossy().into_owned();
    let sink = SmtpSink::start();
    let (server, acked, stop, threads) = moves_under_way(&db, &sink, dir.path(), 8, 6, 30, &[]);
    let before = acked.lock().unwrap().clone();
    assert!(!before.is_empty(), "moves were made before the backup");
    let file = dir.path().join("copy.db");
    let backup_started = Instant::now();
    let out = missive(&["backup", file.to_str().unwrap()], &db);
    let backup_secs = backup_started.elapsed().as_secs_f64();
    let during = acked.lock().unwrap().len() - before.len();
    assert!(out.status.success(), "{}", said(&out));
    assert!(said(&out).contains("backed up"), "{}", said(&out));

    // A file that is there already is not overwritten.
    let again = missive(&["backup", file.to_str().unwrap()], &db);
    assert!(!again.status.success());
    assert!(said(&again).contains("exists already"), "{}", said(&again));
    // The live database cannot be restored over while the server runs.
    let refused = missive(&["restore", file.to_str().unwrap()], &db);
    assert!(!refused.status.success());
    assert!(
        said(&refused).contains("in use by a running server"),
        "{}",
        said(&refused)
    );

    thread::sleep(Duration::from_millis(300));
    stop.store(true, Ordering::SeqCst);
    for t in threads {
        t.join().expect("load thread");
    }
    let total = acked.lock().unwrap().len();
    drop(server);

    // Restored in a new place: every move acknowledged before the backup
    // began, and every game the replay of its moves.
    let (stored, told) = restored_copy(dir.path(), &file, &before);
    eprintln!(
        "backup under load: {} moves acknowledged before it began, {during} during its \
         {backup_secs:.2} s, {total} in all; the copy has {stored} moves; {}",
        before.len(),
        told.trim()
    );

    // Restored over a database no server uses: the old one is kept beside.
    let out = missive(&["restore", file.to_str().unwrap()], &db);
    assert!(out.status.success(), "{}", said(&out));
    assert!(said(&out).contains("is kept as"), "{}", said(&out));
    let server = spawn(&db, &sink.url(), 3, dir.path());
    let r = http()
        .get(format!("http://{}/readyz", server.addr))
        .send()
        .unwrap();
    assert_eq!(r.status(), 200, "a server starts on the restored database");

    // PostgreSQL has its own tools, and the answer names them.
    let out = missive(&["backup", "x.dump"], "postgres://nobody@127.0.0.1:1/none");
    assert!(!out.status.success());
    assert!(said(&out).contains("pg_dump"), "{}", said(&out));
}
