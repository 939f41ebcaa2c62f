//! The real `missive` binary as a server process on a free loopback port,
//! for the tests that kill it, stop it or run two of it (`tests/it/faults.rs`,
//! `tests/it/production.rs`). Include it beside `common/load.rs` as `load`,
//! `common/move_load.rs` as `move_load` and `common/stored.rs` as `stored`.

use super::smtp_sink::free_port;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

pub const SECRET: &str = "fault-test-secret-0123456789abcdef";

/// A server process; killed (SIGKILL) when dropped.
pub struct Proc {
    pub child: Child,
    pub addr: String,
}

pub fn spawn(database_url: &str, smtp_url: &str, lease_secs: u32, dir: &std::path::Path) -> Proc {
    spawn_with(database_url, smtp_url, lease_secs, dir, &[])
}

/// [`spawn`] with more settings in the environment.
pub fn spawn_with(
    database_url: &str,
    smtp_url: &str,
    lease_secs: u32,
    dir: &std::path::Path,
    settings: &[(&str, &str)],
) -> Proc {
    spawn_logging(database_url, smtp_url, lease_secs, dir, settings, None)
}

/// [`spawn_with`], its log (standard error) written to `log` when given.
pub fn spawn_logging(
    database_url: &str,
    smtp_url: &str,
    lease_secs: u32,
    dir: &std::path::Path,
    settings: &[(&str, &str)],
    log: Option<&std::path::Path>,
) -> Proc {
    for _ in 0..5 {
        let addr = format!("127.0.0.1:{}", free_port());
        let stderr = match log {
            Some(path) => Stdio::from(std::fs::File::create(path).expect("a log file")),
            None => Stdio::inherit(),
        };
        let mut child = Command::new(env!("CARGO_BIN_EXE_missive"))
            .arg("serve")
            .current_dir(dir)
            .env("DATABASE_URL", database_url)
            .env("MISSIVE_BIND", &addr)
            .env("MISSIVE_SECRET", SECRET)
            .env("MISSIVE_SMTP_URL", smtp_url)
            .env("MISSIVE_MAIL_POLL_MS", "50")
            .env("MISSIVE_MAIL_LEASE_SECS", lease_secs.to_string())
            .env("MISSIVE_CLOCK_POLL_SECS", "1")
            .env("MISSIVE_WORKERS", "2")
            .env("MISSIVE_POOL_SIZE", "4")
            .env("RUST_LOG", "error")
            .envs(settings.iter().copied())
            .env_remove("MISSIVE_CONFIG")
            .stdout(if std::env::var_os("MISSIVE_FAULT_LOGS").is_some() {
                Stdio::inherit()
            } else {
                Stdio::null()
            })
            .stderr(stderr)
            .spawn()
            .expect("start the missive binary");
        if crate::common::load::wait_healthy(&addr, Duration::from_secs(60)) {
            return Proc { child, addr };
        }
        // Most likely the port was taken between choosing and binding it.
        let _ = child.kill();
        let _ = child.wait();
    }
    panic!("the server did not start");
}

impl Proc {
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Send SIGTERM, as systemd stops a service, and wait (bounded) for the
    /// process to end; its exit status.
    pub fn terminate(&mut self) -> ExitStatus {
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(sent.success(), "SIGTERM sent");
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for the server") {
                return status;
            }
            assert!(
                started.elapsed() < Duration::from_secs(90),
                "the server did not stop within 90 s of SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A server and the load on it: the moves it acknowledged, the flag that
/// stops the load, the load's threads.
pub type UnderWay = (
    Proc,
    Arc<Mutex<Vec<crate::common::stored::Acked>>>,
    Arc<AtomicBool>,
    Vec<thread::JoinHandle<Vec<crate::common::load::Table>>>,
);

/// A server on `db` with `games` games among `players` players, and three
/// threads playing them, once `moves` moves have been acknowledged (or a
/// minute has passed); `settings` as [`spawn_with`] takes them.
pub fn moves_under_way(
    db: &str,
    sink: &super::smtp_sink::SmtpSink,
    dir: &std::path::Path,
    players: usize,
    games: usize,
    moves: usize,
    settings: &[(&str, &str)],
) -> UnderWay {
    let games = crate::common::move_load::setup(db, players, games, SECRET);
    let server = spawn_with(db, &sink.url(), 3, dir, settings);
    let acked = Arc::new(Mutex::new(Vec::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let threads = crate::common::move_load::run_load(
        &server.addr,
        crate::common::move_load::tables_of(&games, 3),
        acked.clone(),
        stop.clone(),
        crate::common::move_load::Load::limit(100_000),
    );
    let started = Instant::now();
    while acked.lock().unwrap().len() < moves && started.elapsed() < Duration::from_secs(60) {
        thread::sleep(Duration::from_millis(10));
    }
    (server, acked, stop, threads)
}

/// The `missive` binary run with `args` on `database_url`.
pub fn missive(args: &[&str], database_url: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_missive"))
        .args(args)
        .current_dir(std::env::temp_dir())
        .env("DATABASE_URL", database_url)
        .env("MISSIVE_SECRET", SECRET)
        .env_remove("MISSIVE_CONFIG")
        .output()
        .unwrap()
}

/// What a run printed, both streams.
pub fn said(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The backup `file` restored into a new database in `dir`: every move of
/// `before` is there and every game is the replay of its moves. The moves
/// it holds, and what `missive restore` said.
pub fn restored_copy(
    dir: &std::path::Path,
    file: &std::path::Path,
    before: &[super::stored::Acked],
) -> (usize, String) {
    let restored = dir.join("restored.db").to_string_lossy().into_owned();
    let out = missive(&["restore", file.to_str().unwrap()], &restored);
    assert!(out.status.success(), "{}", said(&out));
    let mut conn = missive::db::Manager::new(&restored).open().unwrap();
    (super::stored::check_games(&mut conn, before), said(&out))
}
