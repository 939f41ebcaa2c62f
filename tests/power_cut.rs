//! Power cut (issue 12, "nothing lost"): the server in this process on
//! SQLite, under a move load from several threads, loses power at a random
//! moment ([`cut_vfs`]: every write not yet synced is undone, wholly or in
//! part, and the disk goes dead). The files as the disk was left are then
//! opened as after a reboot: the database is whole, every move answered 303
//! is stored, every game is the replay of its moves, no mail is queued
//! twice, and the server goes on from there. Five cuts in a row, each on
//! the database the last one left.
//!
//! A `kill -9` (tests/it/faults.rs) loses only what the process held; the
//! operating system still writes out what it was given. This loses what the
//! disk had not been told to keep, which only the syncs SQLite makes at
//! each commit (`synchronous = FULL`, the default) stand against.

// Its own binary: it makes its file system the process's default.
#[path = "it/common/mod.rs"]
mod common;

use common::{cut_vfs, load, move_load, stored};

use common::smtp_sink::SmtpSink;
use load::Http;
use missive::mail::context;
use missive::mail::drain;
use missive::mail::transport;
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};
use stored::{check_games, check_mail, count, no_duplicate_mail};

const SECRET: &str = "power-cut-test-secret-0123456789abcdef";

/// Cuts in a row, each on the database the last one left.
const ROUNDS: u64 = 5;

fn config(db: &Path, sink: &SmtpSink) -> missive::Config {
    missive::Config {
        database_url: db.to_string_lossy().into_owned(),
        bind: "127.0.0.1:0".into(),
        secret: Some(SECRET.into()),
        workers: 2,
        pool_size: 4,
        smtp_url: Some(sink.url()),
        // A lease taken before a cut runs out soon after the reboot.
        mail_lease_secs: 1,
        ..missive::Config::default()
    }
}

/// The server and its mail sender, as `missive serve` runs them.
struct Server {
    base: String,
    running: common::Running,
    mailer: missive::jobs::Worker,
}

impl Server {
    fn start(db: &Path, sink: &SmtpSink) -> Server {
        let config = config(db, sink);
        missive::listen();
        let pool = missive::db::connect(&config.database_url, 2).expect("database");
        let secret = missive::web::load_secret(&mut pool.get().unwrap(), Some(SECRET)).unwrap();
        let sender = drain::Sender {
            transport: transport::Transport::from_config(&config).unwrap(),
            ctx: context::MailCtx::new(&config, &secret).unwrap(),
            owner: missive::jobs::worker_name(),
        };
        let mailer = missive::jobs::spawn_mail_worker(pool, sender, Duration::from_millis(20));
        let running = common::launch(config);
        Server {
            base: running.base.clone(),
            running,
            mailer,
        }
    }

    fn stop(self) {
        self.mailer.stop();
        common::halt(self.running);
    }
}

/// The database file and its log as the dead disk holds them, copied to
/// `to` (the `-shm` index stays behind, as memory does).
fn reboot(from: &Path, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(from, to).expect("the database file is there");
    let wal = |p: &Path| PathBuf::from(format!("{}-wal", p.display()));
    if wal(from).exists() {
        std::fs::copy(wal(from), wal(to)).unwrap();
    }
}

#[test]
fn a_power_cut_under_load_loses_no_acknowledged_move() {
    // The library is set up as the server sets it up, then the VFS goes in
    // before the first database file is opened.
    drop(missive::db::Manager::new(":memory:").open().unwrap());
    cut_vfs::install();

    let dir = tempfile::tempdir().unwrap();
    let mut db = dir.path().join("boot0/power.db");
    std::fs::create_dir_all(db.parent().unwrap()).unwrap();
    let games = move_load::setup(&db.to_string_lossy(), 8, 12, SECRET);
    let mut tables = move_load::tables_of(&games, 3);

    let sink = SmtpSink::start();
    let acked = Arc::new(Mutex::new(Vec::new()));
    let mut rng = rand::thread_rng();
    for round in 0..ROUNDS {
        let server = Server::start(&db, &sink);
        let before = acked.lock().unwrap().len();
        let stop = Arc::new(AtomicBool::new(false));
        let threads = move_load::run_load(
            &server.base,
            tables,
            acked.clone(),
            stop.clone(),
            // The dead disk: the server answers 5xx from the cut on.
            move_load::Load {
                limit: usize::MAX,
                seed: 10 * round,
                refusal_ends_it: true,
            },
        );
        // Once moves flow, the cut is armed to strike in the middle of a
        // random piece of file work (a commit's log writes, its sync; in the
        // second round a checkpoint's writes to the database file): the
        // first loses every unsynced write, the others a random number of
        // each file's latest ones.
        let started = Instant::now();
        while acked.lock().unwrap().len() == before && started.elapsed() < Duration::from_secs(60) {
            thread::sleep(Duration::from_millis(2));
        }
        let all = round == 0;
        if round == 1 {
            cut_vfs::arm(rng.gen_range(1..60), true, all, rng.gen());
        } else {
            cut_vfs::arm(rng.gen_range(200..8000), false, all, rng.gen());
        }
        let started = Instant::now();
        while cut_vfs::fired().is_none()
            && !threads.iter().all(|t| t.is_finished())
            && started.elapsed() < Duration::from_secs(60)
        {
            thread::sleep(Duration::from_millis(5));
        }
        let report = cut_vfs::fired().unwrap_or_else(|| cut_vfs::cut(&mut rng, all));
        stop.store(true, Ordering::SeqCst);
        tables = threads
            .into_iter()
            .map(|t| t.join().expect("load thread"))
            .collect();
        server.stop();
        let made = acked.lock().unwrap().len() - before;
        assert!(made > 0, "round {round}: moves were made before the cut");

        let next = dir.path().join(format!("boot{}/power.db", round + 1));
        reboot(&db, &next);
        let mut conn = missive::db::Manager::new(&next.to_string_lossy())
            .open()
            .expect("the database opens after the cut");
        let whole = count(
            &mut conn,
            "SELECT COUNT(*) AS n FROM pragma_integrity_check WHERE integrity_check <> 'ok'",
        );
        assert_eq!(whole, 0, "round {round}: the database is whole");
        let stored = check_games(&mut conn, &acked.lock().unwrap());
        no_duplicate_mail(&mut conn);
        let mails = count(
            &mut conn,
            // The move that ends a game has the game-over mails instead.
            "SELECT COUNT(*) AS n FROM moves m WHERE NOT EXISTS \
             (SELECT 1 FROM email_outbox o WHERE o.game_id = m.game_id AND (o.ply = m.ply \
              OR (o.kind = 'game_over' AND o.ply IS NULL AND m.ply = \
                  (SELECT g.ply FROM games g WHERE g.id = m.game_id AND g.status <> 'active'))))",
        );
        assert_eq!(
            mails, 0,
            "round {round}: every stored move has its mail queued"
        );
        eprintln!(
            "power cut {round}: {made} moves acknowledged this round, {} in all, {stored} stored; \
             unsynced writes at the cut (file, writes, undone): {report:?}",
            acked.lock().unwrap().len()
        );
        drop(conn);
        db = next;
    }

    // The games go on from what the last cut left, and the mail queued
    // before the cuts goes out.
    let server = Server::start(&db, &sink);
    let mut http = Http::new(server.base.trim_start_matches("http://"));
    let seed = load::csrf_seed();
    let csrf = load::csrf_for(&mut http, &seed).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for mut table in tables.into_iter().flatten() {
        if table.sync(&mut http, &seed).unwrap() && !table.finished() {
            let p = load::post_move(&mut http, &mut table, &seed, &csrf, &mut rng).unwrap();
            assert_eq!(p.status, 303, "a move after the last cut");
        }
    }
    let mut conn = missive::db::Manager::new(&db.to_string_lossy())
        .open()
        .unwrap();
    let started = Instant::now();
    while count(
        &mut conn,
        "SELECT COUNT(*) AS n FROM email_outbox WHERE sent_at IS NULL",
    ) > 0
    {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the outbox drains"
        );
        thread::sleep(Duration::from_millis(20));
    }
    server.stop();
    // A mail handed to the SMTP server just before a cut, whose "sent" mark
    // the cut undid, goes out again: at most one per cut.
    let (sent, skipped) = check_mail(&mut conn, &sink, ROUNDS as usize);
    eprintln!("after the cuts: {sent} mails sent, {skipped} closed as stale");
    assert!(sent > 0);
}
