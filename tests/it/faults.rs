//! Fault tests (issue 12): the real `missive` binary on a free loopback port
//! over a temporary database, under a move load from several threads:
//! killed with SIGKILL and restarted; two processes on one PostgreSQL
//! database; the SMTP server down while moves are made. Each checks that
//! every move answered 303 is stored, that every game's stored FEN is the
//! replay of its stored moves, and that each mail is delivered once.

use crate::common;
use crate::common::load;
use crate::common::move_load;
use crate::common::server_proc;
use crate::common::stored;
use missive::db::games;
use missive::db::moves;
use missive::domain::ids::GameId;

use crate::common::smtp_sink::{free_port, SmtpSink};
use diesel::prelude::*;
use load::{Http, Player, Table};
use missive::db::DbConn;
use missive::domain::game_state::{EndReason, GameResult, GameStatus};
use missive::game::challenge;
use missive::game::draw;
use missive::game::play;
use move_load::{run_load, setup, tables_of, Load};
use rand::{Rng, SeedableRng};
use server_proc::{moves_under_way, spawn, spawn_with, Proc, SECRET};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};
use stored::{check_games, check_mail, count, Acked};

/// Wait (bounded) until `sql` counts zero rows.
fn wait_zero(conn: &mut DbConn, sql: &str, limit: Duration) {
    let started = Instant::now();
    loop {
        let n = count(conn, sql);
        if n == 0 {
            return;
        }
        assert!(
            started.elapsed() < limit,
            "still {n} rows after {limit:?}: {sql}"
        );
        thread::sleep(Duration::from_millis(50));
    }
}

/// Once the load is over: wait (bounded) until the outbox is drained, stop
/// the servers, and check the games and the mail. Every acknowledged move
/// is stored; a move may be stored whose 303 never reached the client
/// (its server killed, its connection cut), never the other way round.
/// Returns (moves stored, mails sent, mails closed as stale).
fn drain_and_check<S>(
    db: &str,
    servers: S,
    acked: &Mutex<Vec<Acked>>,
    sink: &SmtpSink,
    surplus: usize,
) -> (usize, usize, usize) {
    let mut conn = missive::db::Manager::new(db).open().unwrap();
    wait_zero(
        &mut conn,
        "SELECT COUNT(*) AS n FROM email_outbox WHERE sent_at IS NULL",
        Duration::from_secs(90),
    );
    drop(servers);
    let acked = acked.lock().unwrap().clone();
    let stored = check_games(&mut conn, &acked);
    assert!(stored >= acked.len());
    let (sent, skipped) = check_mail(&mut conn, sink, surplus);
    (stored, sent, skipped)
}

#[test]
fn kill_9_under_load_loses_no_acknowledged_move_and_no_mail() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.db").to_string_lossy().into_owned();
    let sink = SmtpSink::start();
    let (mut server, acked, stop, threads) = moves_under_way(&db, &sink, dir.path(), 8, 6, 1, &[]);
    // Kill at a random moment once moves are flowing.
    thread::sleep(Duration::from_millis(
        rand::thread_rng().gen_range(200..1500),
    ));
    server.kill();
    stop.store(true, Ordering::SeqCst);
    let tables: Vec<Table> = threads
        .into_iter()
        .flat_map(|t| t.join().expect("load thread"))
        .collect();
    let before = acked.lock().unwrap().len();
    assert!(before > 0, "moves were made before the kill");

    // Restart on the same database: the games go on from what was stored.
    let server = spawn(&db, &sink.url(), 3, dir.path());
    let mut http = Http::new(&server.addr);
    let seed = load::csrf_seed();
    let csrf = load::csrf_for(&mut http, &seed).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(99);
    for mut table in tables {
        if table.sync(&mut http, &seed).unwrap() && !table.finished() {
            let p = load::post_move(&mut http, &mut table, &seed, &csrf, &mut rng).unwrap();
            assert_eq!(p.status, 303, "a move after the restart");
            acked.lock().unwrap().push((table.id, p.ply, p.coordinate));
        }
    }
    // A killed process may have had one mail in flight: it goes out again.
    let (stored, sent, skipped) = drain_and_check(&db, server, &acked, &sink, 1);
    eprintln!(
        "crash: {before} moves acknowledged before the kill, {stored} stored; \
         {sent} mails sent, {skipped} closed as stale"
    );
    assert!(sent > 0);
}

/// SIGTERM under load (issue 43), as systemd stops the service: the server
/// answers the requests in flight, its mail worker finishes its batch, and
/// it exits 0. Restarted, it has every acknowledged move, and no mail goes
/// out twice (where after a SIGKILL one may).
#[test]
fn sigterm_under_load_loses_no_move_and_sends_no_mail_twice() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("stop.db").to_string_lossy().into_owned();
    let sink = SmtpSink::start();
    let (mut server, acked, stop, threads) = moves_under_way(&db, &sink, dir.path(), 8, 6, 1, &[]);
    thread::sleep(Duration::from_millis(
        rand::thread_rng().gen_range(200..1500),
    ));
    let status = server.terminate();
    stop.store(true, Ordering::SeqCst);
    for t in threads {
        t.join().expect("load thread");
    }
    assert!(
        status.success(),
        "the server's exit after SIGTERM: {status}"
    );
    let before = acked.lock().unwrap().len();
    assert!(before > 0, "moves were made before the stop");
    let server = spawn(&db, &sink.url(), 3, dir.path());
    let (stored, sent, skipped) = drain_and_check(&db, server, &acked, &sink, 0);
    eprintln!(
        "SIGTERM: {before} moves acknowledged before the stop, {stored} stored; \
         {sent} mails sent, {skipped} closed as stale, none twice"
    );
    assert!(sent > 0);
}

#[test]
fn smtp_outage_queues_mail_and_delivers_each_once_when_back() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("outage.db").to_string_lossy().into_owned();
    let port = free_port();
    let smtp_url = format!("smtp://127.0.0.1:{port}");
    let games = setup(&db, 4, 4, SECRET);
    let server = spawn(&db, &smtp_url, 5, dir.path());
    let acked = Arc::new(Mutex::new(Vec::new()));
    let stop = Arc::new(AtomicBool::new(false));
    for t in run_load(
        &server.addr,
        tables_of(&games, 2),
        acked.clone(),
        stop,
        Load::limit(12),
    ) {
        t.join().expect("load thread");
    }
    let acked = acked.lock().unwrap().clone();
    assert_eq!(acked.len(), 24, "every move was accepted with SMTP down");
    let mut conn = missive::db::Manager::new(&db).open().unwrap();
    // Every mail was tried and failed: queued, not lost, not sent.
    wait_zero(
        &mut conn,
        "SELECT COUNT(*) AS n FROM email_outbox WHERE attempts = 0 AND sent_at IS NULL",
        Duration::from_secs(60),
    );
    assert_eq!(
        count(
            &mut conn,
            "SELECT COUNT(*) AS n FROM email_outbox WHERE sent_at IS NOT NULL \
             AND last_error IS NULL"
        ),
        0
    );
    // SMTP is back. Rather than wait out the retry delay (30 s, tested in
    // `db::outbox::backoff`), move the queued rows' next attempt to now.
    let sink = SmtpSink::start_on(port);
    diesel::sql_query("UPDATE email_outbox SET next_attempt_at = ? WHERE sent_at IS NULL")
        .bind::<diesel::sql_types::Timestamp, _>(missive::web::now() - chrono::Duration::seconds(1))
        .execute(&mut conn)
        .unwrap();
    wait_zero(
        &mut conn,
        "SELECT COUNT(*) AS n FROM email_outbox WHERE sent_at IS NULL",
        Duration::from_secs(60),
    );
    drop(server);
    assert_eq!(check_games(&mut conn, &acked), acked.len());
    let (sent, _) = check_mail(&mut conn, &sink, 0);
    // At least the last "your turn" of each game is still true and sent.
    assert!(sent >= games.len(), "{sent} mails sent");
}

/// A scratch PostgreSQL database, dropped with the value.
struct ScratchDb {
    admin: diesel::PgConnection,
    name: String,
    url: String,
}

impl ScratchDb {
    /// `None` (the test is skipped, and says so) without `MISSIVE_TEST_POSTGRES_URL`.
    fn create() -> Option<ScratchDb> {
        let Some(admin_url) = common::postgres_url() else {
            eprintln!("MISSIVE_TEST_POSTGRES_URL is not set: PostgreSQL run skipped");
            return None;
        };
        let name = format!(
            "missive_fault_{}",
            rand::thread_rng().gen_range(0..u32::MAX)
        );
        let mut admin = diesel::PgConnection::establish(&admin_url).expect("PostgreSQL");
        diesel::sql_query(format!("CREATE DATABASE {name}"))
            .execute(&mut admin)
            .unwrap();
        let mut url = url::Url::parse(&admin_url).unwrap();
        url.set_path(&format!("/{name}"));
        Some(ScratchDb {
            admin,
            name,
            url: url.to_string(),
        })
    }
}

impl ScratchDb {
    /// End every connection to the database but the admin's own, as a
    /// database restart or a network cut would; how many were ended.
    fn kill_connections(&mut self) -> usize {
        #[derive(QueryableByName)]
        struct Killed {
            #[diesel(sql_type = diesel::sql_types::Bool)]
            killed: bool,
        }
        let killed: Vec<Killed> = diesel::sql_query(format!(
            "SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity \
             WHERE datname = '{}' AND pid <> pg_backend_pid()",
            self.name
        ))
        .load(&mut self.admin)
        .unwrap();
        killed.iter().filter(|k| k.killed).count()
    }
}

/// One server process over a scratch PostgreSQL database, with `players`
/// players and `games` games set up and an SMTP sink for its mail.
struct OnePgServer {
    scratch: ScratchDb,
    games: Vec<(i32, Player, Player)>,
    sink: SmtpSink,
    server: Proc,
    _dir: tempfile::TempDir,
}

impl OnePgServer {
    /// `None` (the test is skipped, and says so) without PostgreSQL.
    fn start(players: usize, games: usize) -> Option<OnePgServer> {
        Self::start_with(players, games, &[])
    }

    fn start_with(players: usize, games: usize, settings: &[(&str, &str)]) -> Option<OnePgServer> {
        let scratch = ScratchDb::create()?;
        let dir = tempfile::tempdir().unwrap();
        let sink = SmtpSink::start();
        let games = setup(&scratch.url, players, games, SECRET);
        let server = spawn_with(&scratch.url, &sink.url(), 3, dir.path(), settings);
        Some(OnePgServer {
            scratch,
            games,
            sink,
            server,
            _dir: dir,
        })
    }
}

impl Drop for ScratchDb {
    fn drop(&mut self) {
        let _ = diesel::sql_query(format!(
            "DROP DATABASE IF EXISTS {} WITH (FORCE)",
            self.name
        ))
        .execute(&mut self.admin);
    }
}

#[test]
fn two_processes_on_one_postgres_database() {
    let Some(scratch) = ScratchDb::create() else {
        return;
    };
    let db = scratch.url.clone();
    let dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start();
    let games = setup(&db, 6, 4, SECRET);
    let servers = [
        spawn(&db, &sink.url(), 10, dir.path()),
        spawn(&db, &sink.url(), 10, dir.path()),
    ];
    // Two players per game, one on each server, racing for every ply.
    let acked = Arc::new(Mutex::new(Vec::<Acked>::new()));
    let lost = Arc::new(Mutex::new(0usize));
    let mut handles = Vec::new();
    for (gi, (id, w, b)) in games.iter().enumerate() {
        for (si, server) in servers.iter().enumerate() {
            let (acked, lost, addr) = (acked.clone(), lost.clone(), server.addr.clone());
            let mut table = Table::new(*id, w.clone(), b.clone());
            handles.push(thread::spawn(move || {
                let mut http = Http::new(&addr);
                let seed = load::csrf_seed();
                let csrf = load::csrf_for(&mut http, &seed).unwrap();
                let mut rng = rand::rngs::StdRng::seed_from_u64((gi * 2 + si) as u64);
                let started = Instant::now();
                while started.elapsed() < Duration::from_secs(20) {
                    if !table.sync(&mut http, &seed).unwrap() || table.game.ply() >= 24 {
                        break;
                    }
                    let p = load::post_move(&mut http, &mut table, &seed, &csrf, &mut rng)
                        .expect("the server answers");
                    match p.status {
                        303 => acked.lock().unwrap().push((table.id, p.ply, p.coordinate)),
                        // The other process stored this ply first.
                        409 | 403 => *lost.lock().unwrap() += 1,
                        s => panic!("move {} in game {}: {s}", p.coordinate, table.id),
                    }
                }
            }));
        }
    }
    for h in handles {
        h.join().expect("load thread");
    }
    let (stored, sent, _) = drain_and_check(&db, servers, &acked, &sink, 0);
    // Each stored move was acknowledged exactly once: no ply stored twice,
    // no 303 for a move that lost the race.
    let acked = acked.lock().unwrap().len();
    assert_eq!(stored, acked);
    eprintln!(
        "two processes: {acked} moves, {} races lost, {sent} mails",
        lost.lock().unwrap()
    );
}

/// `n` chess games among four players, with `control`, begun at `started`
/// (each player White in some, Black in others): their ids.
fn clocked_games(db: &str, n: usize, control: &str, started: chrono::NaiveDateTime) -> Vec<GameId> {
    missive::listen();
    let pool = missive::db::connect(db, 2).expect("database");
    let mut conn = pool.get().unwrap();
    let secret = missive::web::load_secret(&mut conn, Some(SECRET)).unwrap();
    let ps: Vec<Player> = (0..4)
        .map(|i| load::player(&mut conn, &secret, &format!("player{i}")))
        .collect();
    let tc: missive::domain::time_control::TimeControl = control.parse().unwrap();
    (0..n)
        .map(|i| {
            let (w, b) = (&ps[i % 4], &ps[(i + 1) % 4]);
            challenge::create_active_game(
                &mut conn,
                "chess",
                w.user.id,
                b.user.id,
                Some(&tc),
                None,
                started,
            )
            .unwrap()
        })
        .collect()
}

/// Issue 40's outage rule with two real server processes on one PostgreSQL
/// database: the clock worker's heartbeat was last beaten three hours ago
/// (the service was down); both processes' sweepers find it, and every
/// running clock moves by the outage once, with one history line each.
#[test]
fn two_processes_move_the_clocks_once_after_an_outage() {
    use missive::db::schema::clock_heartbeat;
    let Some(scratch) = ScratchDb::create() else {
        return;
    };
    let db = scratch.url.clone();
    let dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start();
    let down_since = missive::web::now() - chrono::Duration::hours(3);
    let before: Vec<(GameId, Option<chrono::NaiveDateTime>)> = {
        // Begun before the service went down.
        let ids = clocked_games(&db, 4, "3d/move", down_since - chrono::Duration::hours(1));
        let mut conn = missive::db::Manager::new(&db).open().unwrap();
        diesel::insert_into(clock_heartbeat::table)
            .values((
                clock_heartbeat::id.eq(1),
                clock_heartbeat::beat_at.eq(down_since),
            ))
            .execute(&mut conn)
            .unwrap();
        ids.iter()
            .map(|id| (*id, games::load(&mut conn, *id).unwrap().clock_deadline))
            .collect()
    };
    let servers = [
        spawn(&db, &sink.url(), 10, dir.path()),
        spawn(&db, &sink.url(), 10, dir.path()),
    ];
    let mut conn = missive::db::Manager::new(&db).open().unwrap();
    let outage_lines = "SELECT COUNT(*) AS n FROM game_events WHERE kind = 'outage'";
    let started = Instant::now();
    while count(&mut conn, outage_lines) < before.len() as i64 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no outage found"
        );
        thread::sleep(Duration::from_millis(50));
    }
    // Both sweepers beat several times more (once a second each).
    let beat = |conn: &mut DbConn| -> chrono::NaiveDateTime {
        clock_heartbeat::table
            .select(clock_heartbeat::beat_at)
            .first(conn)
            .unwrap()
    };
    let first = beat(&mut conn);
    let started = Instant::now();
    while beat(&mut conn) < first + chrono::Duration::seconds(3) {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the sweepers stopped beating"
        );
        thread::sleep(Duration::from_millis(100));
    }
    drop(servers);
    assert_eq!(
        count(&mut conn, outage_lines),
        before.len() as i64,
        "one line a game"
    );
    for (id, deadline) in &before {
        let moved =
            games::load(&mut conn, *id).unwrap().clock_deadline.unwrap() - deadline.unwrap();
        assert!(
            moved >= chrono::Duration::hours(3)
                && moved < chrono::Duration::hours(3) + chrono::Duration::minutes(2),
            "game {id}: the deadline moved by {moved}, once"
        );
    }
    eprintln!(
        "two processes, one outage: {} clocks moved once",
        before.len()
    );
}

/// Two server processes on one PostgreSQL database, both running the clock
/// sweeper: each game whose player to move ran out of time is lost on time
/// exactly once, and its two "game over" mails are queued and delivered once.
#[test]
fn two_processes_forfeit_each_flagged_game_once() {
    let Some(scratch) = ScratchDb::create() else {
        return;
    };
    let db = scratch.url.clone();
    let dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start();
    let flagged = 6;
    // Started three days ago with a day per move: White has run out.
    let ids = clocked_games(
        &db,
        flagged,
        "1d/move",
        missive::web::now() - chrono::Duration::days(3),
    );
    let servers = [
        spawn(&db, &sink.url(), 10, dir.path()),
        spawn(&db, &sink.url(), 10, dir.path()),
    ];
    let mut conn = missive::db::Manager::new(&db).open().unwrap();
    wait_zero(
        &mut conn,
        "SELECT COUNT(*) AS n FROM games WHERE status = 'active'",
        Duration::from_secs(60),
    );
    wait_zero(
        &mut conn,
        "SELECT COUNT(*) AS n FROM email_outbox WHERE sent_at IS NULL",
        Duration::from_secs(90),
    );
    drop(servers);
    for id in &ids {
        let g = games::load(&mut conn, *id).unwrap();
        assert_eq!(
            (g.result, g.reason),
            (Some(GameResult::BlackWins), Some(EndReason::TimeForfeit)),
            "game {id}"
        );
    }
    assert_eq!(
        count(
            &mut conn,
            "SELECT COUNT(*) AS n FROM email_outbox WHERE kind = 'game_over'"
        ),
        2 * flagged as i64,
        "two game-over mails per forfeit"
    );
    let (sent, _) = check_mail(&mut conn, &sink, 0);
    eprintln!("two sweepers: {flagged} games lost on time, {sent} mails sent");
}

/// PostgreSQL connections terminated under load (`pg_terminate_backend`,
/// as a database restart or a network cut does to them): every move
/// answered 303 is stored, a move whose connection died is tried again on
/// another (never a hang or a 500), and once the kills stop the server, its mail
/// worker and its clock sweeper carry on with fresh connections.
#[test]
fn postgres_connections_killed_under_load() {
    let Some(OnePgServer {
        mut scratch,
        games,
        sink,
        server,
        _dir,
    }) = OnePgServer::start(8, 6)
    else {
        return;
    };
    let db = scratch.url.clone();
    let acked = Arc::new(Mutex::new(Vec::<Acked>::new()));
    let failed = Arc::new(Mutex::new(HashMap::<u16, usize>::new()));
    let killing = Arc::new(AtomicBool::new(true));
    let mut handles = Vec::new();
    for (t, mut mine) in tables_of(&games, 3).into_iter().enumerate() {
        let (acked, failed, killing) = (acked.clone(), failed.clone(), killing.clone());
        let addr = server.addr.clone();
        handles.push(thread::spawn(move || {
            let mut http = Http::new(&addr);
            let seed = load::csrf_seed();
            let csrf = load::csrf_for(&mut http, &seed).expect("a CSRF token");
            let mut rng = rand::rngs::StdRng::seed_from_u64(t as u64);
            // While connections are killed: any answer but a 303 sends the
            // table to read the game again (the move may have been stored
            // all the same, if its connection died after the commit).
            while killing.load(Ordering::SeqCst) {
                for table in mine.iter_mut().filter(|t| !t.finished()) {
                    let p = load::post_move(&mut http, table, &seed, &csrf, &mut rng)
                        .expect("an answer while connections are killed");
                    if p.status == 303 {
                        acked.lock().unwrap().push((table.id, p.ply, p.coordinate));
                    } else {
                        *failed.lock().unwrap().entry(p.status).or_default() += 1;
                        while table.sync(&mut http, &seed).is_err() {
                            thread::sleep(Duration::from_millis(20));
                        }
                    }
                }
            }
            // Afterwards every move is accepted at the first try.
            for table in mine.iter_mut() {
                assert!(table.sync(&mut http, &seed).unwrap() || table.finished());
                for _ in 0..4 {
                    if table.finished() {
                        break;
                    }
                    let p = load::post_move(&mut http, table, &seed, &csrf, &mut rng).unwrap();
                    assert_eq!(p.status, 303, "a move after the kills, game {}", table.id);
                    acked.lock().unwrap().push((table.id, p.ply, p.coordinate));
                }
            }
        }));
    }
    let mut kills = 0;
    let mut rng = rand::thread_rng();
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(4) {
        thread::sleep(Duration::from_millis(rng.gen_range(100..400)));
        kills += scratch.kill_connections();
    }
    killing.store(false, Ordering::SeqCst);
    for h in handles {
        h.join().expect("load thread");
    }
    assert!(kills > 0, "connections were killed");
    // A mail whose "sent" mark died with its connection goes out again
    // (delivery is at least once): at most one per kill round.
    let (stored, sent, _) = drain_and_check(&db, server, &acked, &sink, 20);
    let failed = failed.lock().unwrap().clone();
    eprintln!(
        "connections killed: {kills} connections terminated, {} moves acknowledged, \
         {stored} stored, refused while killing: {failed:?}, {sent} mails",
        acked.lock().unwrap().len()
    );
    // A move is tried on one connection after another, at most once per
    // pooled connection and once more: it gives up (503, with Retry-After)
    // only if a second kill round (they are 100-400 ms apart) strikes
    // within its tries; 409 if it was stored all the same and the table,
    // reading the game again, was behind. Before moves were tried again,
    // 7-13 moves a run answered 503 here.
    for status in failed.keys() {
        assert!(
            *status == 503 || *status == 409,
            "a killed connection answers 503, not {status}"
        );
    }
    let refused: usize = failed.values().sum();
    assert!(
        refused <= 2,
        "{refused} moves refused: they are tried again"
    );
}

/// The pool hands out a PostgreSQL connection that answered a statement a
/// moment ago without checking it again, and drops one that a statement
/// found gone, so a dead connection fails one piece of work, not every one
/// after it.
#[test]
fn postgres_pool_drops_a_connection_found_gone() {
    let Some(scratch) = ScratchDb::create() else {
        return;
    };
    missive::listen();
    let pool = missive::db::connect(&scratch.url, 1).expect("database");
    let pid_of = |conn: &mut DbConn| count(conn, "SELECT pg_backend_pid()::bigint AS n");
    let kill = |pid: i64| {
        let mut admin = diesel::PgConnection::establish(&scratch.url).unwrap();
        diesel::sql_query(format!("SELECT pg_terminate_backend({pid})"))
            .execute(&mut admin)
            .unwrap();
    };

    // Killed just after its last statement: handed out unchecked, so the
    // first statement fails as a lost connection, and the pool drops it.
    let first = pid_of(&mut pool.get().unwrap());
    kill(first);
    thread::sleep(Duration::from_millis(50));
    {
        let mut conn = pool.get().expect("handed out without a check");
        let e = diesel::sql_query("SELECT 1")
            .execute(&mut *conn)
            .expect_err("the connection is gone");
        assert!(missive::db::connection_lost(&e), "{e:?}");
        assert!(matches!(
            missive::domain::error::Error::from(e),
            missive::domain::error::Error::ConnectionLost(_)
        ));
    }
    let second = pid_of(&mut pool.get().unwrap());
    assert_ne!(first, second, "the lost connection was dropped");

    // Killed and then left idle past the trusted moment: checked on the way
    // out, found dead and replaced, so the work never sees it.
    kill(second);
    thread::sleep(Duration::from_millis(700));
    let third = pid_of(&mut pool.get().expect("a fresh connection"));
    assert!(third != second && third != first);
}

/// A page whose database connections were all ended a moment ago is read
/// again on a new connection, not answered 503: each pooled connection
/// answered a statement within the moment the pool trusts it, so the
/// page's first try meets a dead one.
#[test]
fn postgres_pages_are_read_again_after_their_connections_are_killed() {
    let Some(mut one) = OnePgServer::start_with(2, 1, &[]) else {
        return;
    };
    let (server, scratch) = (&one.server, &mut one.scratch);
    let (id, white, _) = &one.games[0];
    let seed = load::csrf_seed();
    let mut http = Http::new(&server.addr);
    let page = format!("/games/{id}");
    // The game page, and pages read through the other retrying paths: the
    // dashboard, the game's JSON, leave and mail settings (the session
    // lookup, then their own reads).
    let pages = [
        (page.clone(), format!("Game {id}")),
        ("/".to_string(), "player0".to_string()),
        (format!("/games/{id}.json"), format!("\"id\":{id}")),
        ("/leave".to_string(), "<h1>Leave</h1>".to_string()),
        (
            "/settings/mail".to_string(),
            "<h1>Mail settings</h1>".to_string(),
        ),
        (page, format!("Game {id}")),
    ];
    for (path, shows) in pages {
        // Every pooled connection answers a statement, then all are ended.
        for _ in 0..30 {
            assert_eq!(http.get_status(&path, &white.cookie(&seed)).unwrap(), 200);
        }
        let killed = scratch.kill_connections();
        assert!(killed > 0, "{path}");
        let r = http.get(&path, &white.cookie(&seed)).unwrap();
        assert_eq!(r.status, 200, "{path}: {killed} connections ended");
        let body = String::from_utf8_lossy(&r.body);
        assert!(body.contains(&shows), "{path}: {body}");
    }
}

impl ScratchDb {
    /// Make the next connection that inserts into `table` end itself in the
    /// middle of that INSERT, once: its transaction dies with the
    /// connection, as it would in a database restart. The trigger counts
    /// with `nextval`, which no rollback takes back; it also changes what
    /// `lastval()` answers the INSERT's session, so these tests pin that
    /// the server takes new ids from `RETURNING` (with `lastval()`, the
    /// challenge's retry stored its history under the trigger's count).
    fn kill_the_next_insert(&mut self, table: &str) {
        let mut conn = diesel::PgConnection::establish(&self.url).expect("scratch database");
        let seq = format!("{table}_insert_kills");
        for sql in [
            format!("CREATE SEQUENCE IF NOT EXISTS {seq}"),
            format!("SELECT setval('{seq}', 1, false)"),
            format!(
                "CREATE OR REPLACE FUNCTION kill_{table}_insert() RETURNS trigger \
                 LANGUAGE plpgsql AS $$ BEGIN IF nextval('{seq}') = 1 THEN \
                 PERFORM pg_terminate_backend(pg_backend_pid()); END IF; RETURN NEW; END $$"
            ),
            format!(
                "CREATE OR REPLACE TRIGGER kill_{table}_insert AFTER INSERT ON {table} \
                 FOR EACH ROW EXECUTE FUNCTION kill_{table}_insert()"
            ),
        ] {
            diesel::sql_query(sql).execute(&mut conn).unwrap();
        }
    }

    /// How many rows [`Self::kill_the_next_insert`]'s trigger on `table`
    /// saw inserted (the killed one included).
    fn inserts_seen(&mut self, table: &str) -> i64 {
        missive::listen();
        let mut conn = DbConn::Postgresql(
            diesel::PgConnection::establish(&self.url).expect("scratch database"),
        );
        let sql = format!("SELECT last_value AS n FROM {table}_insert_kills");
        count(&mut conn, &sql)
    }
}

/// A move whose connection is found gone before it is stored, or dies
/// while it is being stored, is tried again on another connection: the
/// player gets the usual 303, and the move is stored once, with one mail.
#[test]
fn postgres_moves_are_tried_again_after_their_connections_are_lost() {
    let Some(OnePgServer {
        mut scratch,
        games,
        server,
        sink: _sink,
        _dir,
    }) = OnePgServer::start(2, 1)
    else {
        return;
    };
    let db = scratch.url.clone();
    let (id, white, black) = games[0].clone();
    let mut table = Table::new(id, white.clone(), black);
    let seed = load::csrf_seed();
    let mut http = Http::new(&server.addr);
    let csrf = load::csrf_for(&mut http, &seed).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(12);
    // Lost before: every pooled connection answers a statement, then all
    // are ended, and the move's session lookup finds its connection gone.
    for _ in 0..30 {
        let page = format!("/games/{id}");
        assert_eq!(http.get_status(&page, &white.cookie(&seed)).unwrap(), 200);
    }
    assert!(scratch.kill_connections() > 0);
    let first = load::post_move(&mut http, &mut table, &seed, &csrf, &mut rng).unwrap();
    assert_eq!(first.status, 303, "the first move, its connection gone");
    // Lost while storing: the connection storing the next move ends itself.
    scratch.kill_the_next_insert("moves");
    let second = load::post_move(&mut http, &mut table, &seed, &csrf, &mut rng).unwrap();
    assert_eq!(second.status, 303, "the second move, its connection killed");
    assert_eq!(
        scratch.inserts_seen("moves"),
        2,
        "the second move's first store was killed, and it was stored again"
    );
    drop(server);
    missive::listen();
    let mut conn = DbConn::Postgresql(diesel::PgConnection::establish(&db).unwrap());
    let stored = moves::of_game(&mut conn, GameId(id)).unwrap();
    let stored: Vec<(i32, String)> = stored.into_iter().map(|m| (m.ply, m.coordinate)).collect();
    assert_eq!(
        stored,
        vec![
            (first.ply, first.coordinate),
            (second.ply, second.coordinate)
        ]
    );
    assert_eq!(games::load(&mut conn, GameId(id)).unwrap().ply, 2);
    let mails = format!("SELECT COUNT(*) AS n FROM email_outbox WHERE game_id = {id} AND ply = 2");
    assert_eq!(count(&mut conn, &mails), 1, "one mail for the second move");
}

/// The service half of the above, for the case the server cannot be made
/// to meet on purpose: a move whose COMMIT went through but whose answer
/// was lost. Told of the unsure try, the next one finds the move stored
/// and answers it as played, storing nothing; a different move stored at
/// that ply (the player's other tab) is not taken for it.
#[test]
fn a_move_stored_before_its_connection_was_lost_is_not_stored_again() {
    let Some(mut scratch) = ScratchDb::create() else {
        return;
    };
    let db = scratch.url.clone();
    let games_set = setup(&db, 2, 1, SECRET);
    let (id, white, black) = games_set[0].clone();
    missive::listen();
    let pool = missive::db::connect(&db, 4).unwrap();
    let writes = missive::db::Writes::Own;
    let positions = missive::game::positions::PositionCache::new(1 << 20);
    let now = missive::web::now();
    // Black answers 1. e4 with e5, told of an earlier try or not.
    let e5 = |game: GameId, earlier: Option<&play::UnsureMove>| {
        let mut conn = pool.get().unwrap();
        let (user, writes, positions) = (&black.user, &writes, &positions);
        play::queue_move(
            &mut conn,
            writes,
            positions,
            play::MoveSubmission {
                id: game,
                user,
                text: "e5",
                expected_ply: Some(1),
                commit: true,
                unsure: earlier,
                now,
                also: None,
            },
        )
    };
    // 1. e4, then Black's e5 dies with its connection while being stored.
    let mut unsure_e5 = |game: GameId| {
        let mut conn = pool.get().unwrap();
        common::play_move(&mut conn, game, &white.user, "e4", Some(0), true, now).unwrap();
        scratch.kill_the_next_insert("moves");
        match e5(game, None).unwrap() {
            play::Submitted::Unsure(u) => u,
            _ => panic!("the killed store is unsure"),
        }
    };
    let unsure = unsure_e5(GameId(id));
    let mut conn = pool.get().unwrap();
    assert_eq!(
        games::load(&mut conn, GameId(id)).unwrap().ply,
        1,
        "nothing stored"
    );
    // Then it is stored after all (as a COMMIT whose answer was lost is).
    common::play_move(&mut conn, GameId(id), &black.user, "e5", Some(1), true, now).unwrap();
    match e5(GameId(id), Some(&unsure)).unwrap() {
        play::Submitted::Done(play::MoveOutcome::Committed { played }) => {
            assert_eq!(played.coordinate, "e7e5")
        }
        _ => panic!("the stored move is answered as played"),
    }
    let stored = moves::of_game(&mut conn, GameId(id)).unwrap().len();
    assert_eq!(stored, 2, "stored once");
    // Another game, where Black's other tab stored d5 at that ply.
    let other = load::new_game(&mut conn, &white, &black);
    let unsure = unsure_e5(GameId(other));
    common::play_move(
        &mut conn,
        GameId(other),
        &black.user,
        "d5",
        Some(1),
        true,
        now,
    )
    .unwrap();
    assert!(
        matches!(
            e5(GameId(other), Some(&unsure)),
            Err(missive::domain::error::Error::Conflict(_))
        ),
        "d5 is not taken for e5"
    );
}

/// Writes other than moves are tried again after a lost connection too,
/// under one request key: a note saved after every pooled connection was
/// ended, a challenge whose INSERT killed its own connection (made once),
/// a resignation and the mail settings after the connections were ended
/// again, a leave booking and a sign-up whose INSERT killed its
/// connection, and a login after the connections were ended again.
#[test]
fn postgres_writes_are_tried_again_after_their_connections_are_lost() {
    let Some(mut one) = OnePgServer::start(2, 1) else {
        return;
    };
    let (id, white, black) = one.games[0].clone();
    let seed = load::csrf_seed();
    let mut http = Http::new(&one.server.addr);
    let csrf = load::csrf_for(&mut http, &seed).unwrap();
    let cookie = white.cookie(&seed);
    let lose_every_connection = |http: &mut Http, scratch: &mut ScratchDb| {
        for _ in 0..30 {
            let page = format!("/games/{id}");
            assert_eq!(http.get_status(&page, &cookie).unwrap(), 200);
        }
        assert!(scratch.kill_connections() > 0);
    };
    lose_every_connection(&mut http, &mut one.scratch);
    let note = [("csrf_token", csrf.as_str()), ("note", "after the kill")];
    let r = http
        .post(&format!("/games/{id}/notes"), &cookie, &note)
        .unwrap();
    assert_eq!(r.status, 303, "the note, its connection gone");
    let challenge = [
        ("csrf_token", csrf.as_str()),
        ("variant", "chess"),
        ("opponent", black.user.username.as_str()),
        ("color", "white"),
        ("fen", ""),
        ("time_control", ""),
    ];
    one.scratch.kill_the_next_insert("games");
    let r = http.post("/games/new", &cookie, &challenge).unwrap();
    assert_eq!(r.status, 303, "the challenge, its connection killed");
    assert_eq!(
        one.scratch.inserts_seen("games"),
        2,
        "killed once, then made"
    );
    lose_every_connection(&mut http, &mut one.scratch);
    let resign = [("csrf_token", csrf.as_str()), ("confirm", "1")];
    let r = http
        .post(&format!("/games/{id}/resign"), &cookie, &resign)
        .unwrap();
    assert_eq!(r.status, 303, "the resignation, its connection gone");
    lose_every_connection(&mut http, &mut one.scratch);
    let policy = [("csrf_token", csrf.as_str()), ("policy", "digest")];
    let r = http.post("/settings/mail", &cookie, &policy).unwrap();
    assert_eq!(r.status, 303, "the mail settings, their connection gone");
    // Leave from the day after tomorrow, for two days.
    let day = |n| (chrono::Utc::now().date_naive() + chrono::Days::new(n)).to_string();
    let (start, end) = (day(2), day(3));
    let leave = [
        ("csrf_token", csrf.as_str()),
        ("action", "book"),
        ("start", start.as_str()),
        ("end", end.as_str()),
    ];
    one.scratch.kill_the_next_insert("leave_bookings");
    let r = http.post("/leave", &cookie, &leave).unwrap();
    assert_eq!(r.status, 303, "the leave, its connection killed");
    assert_eq!(one.scratch.inserts_seen("leave_bookings"), 2);
    // Sign-up and login: the account or the attempt once, then a session.
    let session_of = |r: &load::Reply| {
        let set = r
            .set_cookies
            .iter()
            .find(|c| c.starts_with("missive_session="));
        let value = set.expect("a session cookie").split(';').next().unwrap();
        format!("{value}; missive_csrf={seed}")
    };
    let signup = [
        ("csrf_token", csrf.as_str()),
        ("username", "carol"),
        ("email", "carol@example.org"),
        ("password", "a long enough secret 42"),
    ];
    one.scratch.kill_the_next_insert("users");
    let r = http
        .post("/signup", &format!("missive_csrf={seed}"), &signup)
        .unwrap();
    assert_eq!(
        r.status,
        303,
        "the sign-up, its connection killed: {}",
        r.text()
    );
    assert_eq!(
        one.scratch.inserts_seen("users"),
        2,
        "killed once, then made"
    );
    let home = http.get("/", &session_of(&r)).unwrap();
    assert!(home.text().contains("carol"), "carol is logged in");
    lose_every_connection(&mut http, &mut one.scratch);
    let login = [
        ("csrf_token", csrf.as_str()),
        ("username", white.user.username.as_str()),
        ("password", "load test harbour lantern"),
    ];
    let r = http
        .post("/login", &format!("missive_csrf={seed}"), &login)
        .unwrap();
    assert_eq!(r.status, 303, "the login, its connection gone");
    let home = http.get("/", &session_of(&r)).unwrap();
    assert!(home.text().contains(&white.user.username), "logged in");
    missive::listen();
    let mut conn = DbConn::Postgresql(diesel::PgConnection::establish(&one.scratch.url).unwrap());
    let carols = "SELECT COUNT(*) AS n FROM users WHERE username = 'carol'";
    assert_eq!(count(&mut conn, carols), 1);
    let attempts = "SELECT COUNT(*) AS n FROM login_attempts";
    assert_eq!(count(&mut conn, attempts), 1, "the login recorded once");
    assert_eq!(
        count(&mut conn, "SELECT COUNT(*) AS n FROM leave_bookings"),
        1
    );
    let digest = "SELECT COUNT(*) AS n FROM mail_prefs WHERE policy = 'digest'";
    assert_eq!(count(&mut conn, digest), 1);
    assert_eq!(count(&mut conn, "SELECT COUNT(*) AS n FROM games"), 2);
    let notes = "SELECT COUNT(*) AS n FROM game_notes WHERE body = 'after the kill'";
    assert_eq!(count(&mut conn, notes), 1);
    assert_ne!(
        games::load(&mut conn, GameId(id)).unwrap().status,
        GameStatus::Active
    );
}

/// `db::once` at the service level, for the case a server cannot be made
/// to meet on purpose: a write committed whose answer was lost. The next
/// try under its key gets the stored answer and the write is not run
/// again; a try whose key is not stored runs. A refusal is an answer too,
/// and the writes made before it stand (a draw accepted after the flag
/// fell ends the game on time and answers so); a failure rolls back and
/// stores no key. Keys go after an hour. On SQLite nothing is stored: the
/// write just runs.
#[test]
fn a_write_committed_before_its_connection_was_lost_is_not_done_again() {
    use missive::db::once::{once, prune, KEPT};
    use missive::domain::error::Error;
    let runs = std::cell::Cell::new(0);
    let write = |answer: i32| {
        let runs = &runs;
        move |_: &mut DbConn| {
            runs.set(runs.get() + 1);
            Ok(answer)
        }
    };
    let now = missive::web::now();
    let dir = tempfile::tempdir().unwrap();
    missive::listen();
    let sqlite = missive::db::connect(dir.path().join("once.db").to_str().unwrap(), 1).unwrap();
    let mut conn = sqlite.get().unwrap();
    assert_eq!(once(&mut conn, "k", false, now, write(1)).unwrap(), 1);
    assert_eq!(once(&mut conn, "k", true, now, write(2)).unwrap(), 2);
    assert_eq!(runs.replace(0), 2, "SQLite: no key, every try runs");
    drop(conn);
    let Some(scratch) = ScratchDb::create() else {
        return;
    };
    let players = setup(&scratch.url, 2, 1, SECRET);
    missive::listen();
    let pool = missive::db::connect(&scratch.url, 1).unwrap();
    let mut conn = pool.get().unwrap();
    assert_eq!(once(&mut conn, "k1", false, now, write(7)).unwrap(), 7);
    assert_eq!(once(&mut conn, "k1", true, now, write(8)).unwrap(), 7);
    assert_eq!(runs.get(), 1, "the stored answer, the write not run again");
    assert_eq!(once(&mut conn, "k2", true, now, write(9)).unwrap(), 9);
    assert_eq!(runs.get(), 2, "a key not stored: the write runs");
    // A secret (a session's token) is not kept with its key: a try after
    // one that was stored says so, and makes no second one.
    use missive::db::once::Secret;
    let made = once(&mut conn, "secret", false, now, |_| {
        Ok(Secret("token".to_string()))
    });
    assert_eq!(made.unwrap().0, "token");
    let again = once(
        &mut conn,
        "secret",
        true,
        now,
        |_| -> Result<Secret<String>, Error> {
            panic!("a stored secret's write must not run again")
        },
    );
    assert!(
        matches!(&again, Err(Error::Conflict(m)) if m.contains("shown only once")),
        "{:?}",
        again.err()
    );
    // A write that may be done twice (a session's "last seen") keeps no key.
    once(&mut conn, "harmless", false, now, |_| {
        Ok(missive::db::once::Harmless)
    })
    .unwrap();
    let harmless = "SELECT COUNT(*) AS n FROM request_keys WHERE key = 'harmless'";
    assert_eq!(count(&mut conn, harmless), 0, "no key for a harmless write");
    // A refusal after a write: White's flag has fallen when White accepts.
    let (id, white, black) = &players[0];
    draw::draw(&mut conn, GameId(*id), &black.user, "offer", now).unwrap();
    let late = now + chrono::TimeDelta::days(4);
    let accept = |c: &mut DbConn| draw::draw(c, GameId(*id), &white.user, "accept", late);
    let flag_fell = |r: Result<(), Error>| {
        matches!(
            r,
            Err(Error::MovedOn(missive::domain::error::MovedOn::FlagFell))
        )
    };
    assert!(flag_fell(once(&mut conn, "k3", false, late, accept)));
    let row = games::load(&mut conn, GameId(*id)).unwrap();
    let forfeit = Some(EndReason::TimeForfeit);
    assert_eq!(row.reason, forfeit, "the forfeit stands");
    assert!(flag_fell(once(&mut conn, "k3", true, late, |_| Ok(()))));
    // A failure rolls back what was written before it and keeps no key.
    let failing = |c: &mut DbConn| -> Result<i32, Error> {
        missive::game::records::save_note(c, GameId(*id), white.user.id, "rolled back", now)?;
        Err(Error::Internal("the server failed".into()))
    };
    assert!(matches!(
        once(&mut conn, "k4", false, now, failing),
        Err(Error::Internal(_))
    ));
    let notes = "SELECT COUNT(*) AS n FROM game_notes";
    assert_eq!(count(&mut conn, notes), 0, "the note was rolled back");
    assert_eq!(once(&mut conn, "k4", true, now, write(5)).unwrap(), 5);
    assert_eq!(runs.get(), 3, "a failed write stored no key");
    let old = now - KEPT - chrono::TimeDelta::minutes(1);
    once(&mut conn, "k5", false, old, write(4)).unwrap();
    assert_eq!(
        prune(&mut conn, now).unwrap(),
        1,
        "only the hour-old key goes"
    );
    assert_eq!(once(&mut conn, "k1", true, now, write(8)).unwrap(), 7);
}
