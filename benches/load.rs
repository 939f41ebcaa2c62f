//! Mixed load: `bash bench/load.sh` (see there), or
//! `cargo bench --bench load -- --database-url URL --server target/release/missive`.
//!
//! Starts `missive serve` (the binary `--server` names) as a process of its
//! own on a populated database (`missive dev populate`), with its
//! background jobs (clock sweeps, the outbox drain into a local SMTP sink),
//! then runs `--players` players at once for `--secs` seconds, each a
//! generated player with a session of their own on a keep-alive connection,
//! each asking for the next page as soon as the last one came (a closed
//! loop), the kind drawn by the shares in [`MIX`]. Prints, per page kind,
//! requests and p50/p95/p99 latency; then throughput, refusals (any status
//! but the one expected), and the server's CPU per request (its
//! `/proc/PID/stat`; for PostgreSQL the `postgres` processes' too).

#[path = "../tests/common/load.rs"]
mod load;

use diesel::prelude::*;
use load::Http;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// What players do, in shares of their requests.
const MIX: &[(Kind, u32)] = &[
    (Kind::Dashboard, 25),
    (Kind::GamePage, 25),
    (Kind::Move, 10),
    (Kind::Archive, 10),
    (Kind::Replay, 10),
    (Kind::Pgn, 5),
    (Kind::Standings, 5),
    (Kind::Ratings, 5),
    (Kind::Profile, 5),
];

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Kind {
    Dashboard,
    GamePage,
    Move,
    Archive,
    Replay,
    Pgn,
    Standings,
    Ratings,
    Profile,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Dashboard => "dashboard",
            Kind::GamePage => "game page",
            Kind::Move => "move",
            Kind::Archive => "archive search",
            Kind::Replay => "replay",
            Kind::Pgn => "PGN export",
            Kind::Standings => "standings",
            Kind::Ratings => "ratings",
            Kind::Profile => "profile",
        }
    }
}

struct Args {
    database_url: String,
    server: String,
    secs: f64,
    players: usize,
    workers: usize,
    seed: u64,
}

fn args() -> Args {
    let mut a = Args {
        database_url: String::new(),
        server: "target/release/missive".into(),
        secs: 20.0,
        players: 32,
        workers: 0,
        seed: 1,
    };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < argv.len() {
        let val = argv.get(i + 1).cloned().unwrap_or_default();
        match argv[i].as_str() {
            "--database-url" => a.database_url = val,
            "--server" => a.server = val,
            "--secs" => a.secs = val.parse().expect("--secs N"),
            "--players" => a.players = val.parse().expect("--players N"),
            "--workers" => a.workers = val.parse().expect("--workers N"),
            "--seed" => a.seed = val.parse().expect("--seed N"),
            // `cargo bench` adds `--bench`.
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    assert!(
        !a.database_url.is_empty(),
        "--database-url URL (a database made by `missive dev populate`)"
    );
    a
}

/// One simulated player: their session, their games, what they look at.
#[derive(Clone)]
struct Who {
    name: String,
    session: String,
    /// Their running games (game page), and those where they are to move.
    running: Vec<i32>,
    to_move: Vec<i32>,
    /// Their finished games (replay, PGN).
    finished: Vec<(i32, i32)>,
}

#[derive(QueryableByName)]
struct GameOf {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    id: i32,
    #[diesel(sql_type = diesel::sql_types::Integer)]
    ply: i32,
    #[diesel(sql_type = diesel::sql_types::Bool)]
    mine: bool,
    #[diesel(sql_type = diesel::sql_types::Bool)]
    active: bool,
}

#[derive(QueryableByName)]
struct Id {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    id: i32,
}

/// The players the load plays: the busiest one (player1) and others drawn
/// from the first tenth, each with a new session.
fn players(conn: &mut missive::db::DbConn, n: usize, rng: &mut impl Rng) -> Vec<Who> {
    let total = diesel::sql_query("SELECT CAST(COUNT(*) AS INTEGER) AS id FROM users")
        .get_result::<Id>(conn)
        .expect("count users")
        .id;
    assert!(total >= 2, "the database has no generated players");
    let n = n.min(total as usize);
    let pick_from = (total / 10).max(n as i32).min(total);
    let mut ids: Vec<i32> = vec![1];
    while ids.len() < n {
        let id = rng.gen_range(1..=pick_from);
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    let now = missive::util::now();
    ids.into_iter()
        .map(|id| {
            let name = missive::populate::username(id);
            let user = missive::accounts::users::find_by_name(conn, &name)
                .expect("read a player")
                .unwrap_or_else(|| panic!("no player {name}"));
            let session =
                missive::accounts::users::create_session(conn, user.id, now).expect("session");
            let games = diesel::sql_query(format!(
                "SELECT id, ply, \
                 ((white_id = {u} AND turn = 'white') OR (black_id = {u} AND turn = 'black')) AS mine, \
                 status = 'active' AS active \
                 FROM games WHERE (white_id = {u} OR black_id = {u}) AND variant = 'chess' \
                 ORDER BY id DESC LIMIT 2000",
                u = user.id
            ))
            .load::<GameOf>(conn)
            .expect("a player's games");
            Who {
                name,
                session,
                running: games.iter().filter(|g| g.active).map(|g| g.id).collect(),
                to_move: games
                    .iter()
                    .filter(|g| g.active && g.mine)
                    .map(|g| g.id)
                    .collect(),
                finished: games
                    .iter()
                    .filter(|g| !g.active)
                    .map(|g| (g.id, g.ply))
                    .collect(),
            }
        })
        .collect()
}

/// The server as a process of its own, stopped when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(a: &Args, smtp_url: &str) -> Server {
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
            l.local_addr().unwrap().port()
        };
        let addr = format!("127.0.0.1:{port}");
        let mut cmd = Command::new(&a.server);
        cmd.arg("serve")
            .env("DATABASE_URL", &a.database_url)
            .env("MISSIVE_BIND", &addr)
            .env("MISSIVE_REQUESTS_PER_ADDRESS", "100000")
            .env("MISSIVE_SMTP_URL", smtp_url)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::inherit());
        if a.workers > 0 {
            cmd.env("MISSIVE_WORKERS", a.workers.to_string());
        }
        let child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("start {}: {e}", a.server));
        assert!(
            load::wait_healthy(&addr, Duration::from_secs(120)),
            "the server did not answer /healthz"
        );
        Server { child, addr }
    }

    fn cpu_seconds(&self) -> Option<f64> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).ok()?;
        load::stat_cpu_seconds(&stat).map(|(_, s)| s)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Default)]
struct Tally {
    micros: HashMap<Kind, Vec<u64>>,
    refused: HashMap<Kind, usize>,
}

fn draw(rng: &mut impl Rng) -> Kind {
    let total: u32 = MIX.iter().map(|(_, w)| w).sum();
    let mut x = rng.gen_range(0..total);
    for (k, w) in MIX {
        if x < *w {
            return *k;
        }
        x -= w;
    }
    Kind::Dashboard
}

/// One request of `kind` by `who`: its latency and whether it got the
/// answer expected. A move reads the game's position first (not timed).
/// What every request of one player thread shares.
struct Seat<'a> {
    cookie: &'a str,
    csrf: &'a str,
    /// Players whose profiles are looked at.
    others: &'a [String],
    /// Tournaments, the largest first.
    tournaments: &'a [i32],
}

fn one(
    http: &mut Http,
    who: &mut Who,
    seat: &Seat,
    kind: Kind,
    rng: &mut impl Rng,
) -> (Kind, Duration, bool) {
    let Seat {
        cookie,
        csrf,
        others,
        tournaments,
    } = *seat;
    let get = |http: &mut Http, path: &str| {
        let t = Instant::now();
        let ok = http
            .get_status(path, cookie)
            .map(|s| s == 200)
            .unwrap_or(false);
        (t.elapsed(), ok)
    };
    let finished = who.finished.choose(rng).copied();
    let (kind, (took, ok)) = match kind {
        Kind::Dashboard => (kind, get(http, "/")),
        Kind::GamePage | Kind::Move if who.running.is_empty() => (Kind::Dashboard, get(http, "/")),
        Kind::GamePage => {
            let id = *who.running.choose(rng).expect("running games");
            (kind, get(http, &format!("/games/{id}")))
        }
        Kind::Move => match who.to_move.pop() {
            Some(id) => (kind, post_move(http, id, cookie, csrf)),
            None => {
                let id = *who.running.choose(rng).expect("running games");
                (Kind::GamePage, get(http, &format!("/games/{id}")))
            }
        },
        Kind::Archive => {
            let path = match rng.gen_range(0..3) {
                0 => format!("/games?player={}&status=finished", who.name),
                1 => format!("/games?player={}&page={}", who.name, rng.gen_range(1..5)),
                _ => "/games?variant=chess&status=finished".to_string(),
            };
            (kind, get(http, &path))
        }
        Kind::Replay | Kind::Pgn if finished.is_none() => (Kind::Dashboard, get(http, "/")),
        Kind::Replay => {
            let (id, ply) = finished.expect("a finished game");
            let at = rng.gen_range(0..=ply.max(0));
            (kind, get(http, &format!("/games/{id}?ply={at}")))
        }
        Kind::Pgn => {
            let (id, _) = finished.expect("a finished game");
            (kind, get(http, &format!("/games/{id}.pgn")))
        }
        Kind::Standings => {
            // The largest tournament a fifth of the time.
            let t = match rng.gen_bool(0.2) {
                true => tournaments[0],
                false => *tournaments.choose(rng).expect("tournaments"),
            };
            (kind, get(http, &format!("/tournaments/{t}")))
        }
        Kind::Ratings => (kind, get(http, "/ratings/chess")),
        Kind::Profile => {
            let name = others.choose(rng).expect("players");
            (kind, get(http, &format!("/users/{name}")))
        }
    };
    (kind, took, ok)
}

/// Read the game's position, pick a legal move, post it: the post's time.
fn post_move(http: &mut Http, id: i32, cookie: &str, csrf: &str) -> (Duration, bool) {
    let Ok(json) = http.get(&format!("/games/{id}.json"), cookie) else {
        return (Duration::ZERO, false);
    };
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(&json.body) else {
        return (Duration::ZERO, false);
    };
    let (Some(fen), Some(ply)) = (v["fen"].as_str(), v["ply"].as_i64()) else {
        return (Duration::ZERO, false);
    };
    let chess = missive_rules::variant("chess").expect("chess");
    let Ok(game) = missive_rules::Game::new(chess, Some(fen)) else {
        return (Duration::ZERO, false);
    };
    let Some(mv) = game.legal_moves().first() else {
        return (Duration::ZERO, false);
    };
    let text = game.format(mv, missive_rules::Notation::Coordinate);
    let ply = ply.to_string();
    let t = Instant::now();
    let r = http.post(
        &format!("/games/{id}/move"),
        cookie,
        &[
            ("csrf_token", csrf),
            ("move", text.as_str()),
            ("confirm", "1"),
            ("ply", ply.as_str()),
        ],
    );
    (t.elapsed(), r.map(|r| r.status == 303).unwrap_or(false))
}

fn ms(mut v: Vec<u64>, q: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_unstable();
    v[((v.len() as f64 - 1.0) * q).round() as usize] as f64 / 1000.0
}

fn main() {
    let a = args();
    let mut rng = rand::rngs::StdRng::seed_from_u64(a.seed);
    let mut conn = missive::db::Manager::new(&a.database_url)
        .open()
        .expect("open the database");
    missive::db::migrate(&mut conn).expect("migrate");
    let games = diesel::sql_query("SELECT CAST(COUNT(*) AS INTEGER) AS id FROM games")
        .get_result::<Id>(&mut conn)
        .expect("count games")
        .id;
    let who = players(&mut conn, a.players, &mut rng);
    let tournaments: Vec<i32> =
        diesel::sql_query("SELECT id FROM tournaments ORDER BY entrants DESC, id")
            .load::<Id>(&mut conn)
            .expect("tournaments")
            .into_iter()
            .map(|r| r.id)
            .collect();
    assert!(!tournaments.is_empty(), "the database has no tournaments");
    drop(conn);
    let others: Vec<String> = (1..=200).map(missive::populate::username).collect();
    let sink = missive::smtp_sink::SmtpSink::start();
    let server = Server::start(&a, &sink.url());
    let postgres = missive::db::parse_url(&a.database_url).0 == missive::db::Backend::Postgres;
    let stop = Arc::new(AtomicBool::new(false));
    let tally = Arc::new(Mutex::new(Tally::default()));
    let (cpu0, db0) = (
        server.cpu_seconds(),
        postgres.then(load::postgres_cpu_seconds).flatten(),
    );
    let started = Instant::now();
    let threads: Vec<_> = who
        .into_iter()
        .enumerate()
        .map(|(i, mut who)| {
            let (stop, tally, addr) = (stop.clone(), tally.clone(), server.addr.clone());
            let (others, tournaments) = (others.clone(), tournaments.clone());
            let seed = a.seed * 1000 + i as u64;
            thread::spawn(move || {
                let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
                let mut http = Http::new(&addr);
                let csrf_seed = load::csrf_seed();
                let cookie = format!("missive_session={}; missive_csrf={csrf_seed}", who.session);
                let csrf = load::csrf_for(&mut http, &csrf_seed).expect("a CSRF token");
                let mut mine = Tally::default();
                while !stop.load(Ordering::Relaxed) {
                    let kind = draw(&mut rng);
                    let seat = Seat {
                        cookie: &cookie,
                        csrf: &csrf,
                        others: &others,
                        tournaments: &tournaments,
                    };
                    let (kind, took, ok) = one(&mut http, &mut who, &seat, kind, &mut rng);
                    if ok {
                        mine.micros
                            .entry(kind)
                            .or_default()
                            .push(took.as_micros() as u64);
                    } else {
                        *mine.refused.entry(kind).or_default() += 1;
                    }
                }
                let mut all = tally.lock().unwrap();
                for (k, v) in mine.micros {
                    all.micros.entry(k).or_default().extend(v);
                }
                for (k, n) in mine.refused {
                    *all.refused.entry(k).or_default() += n;
                }
            })
        })
        .collect();
    thread::sleep(Duration::from_secs_f64(a.secs));
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        t.join().expect("a player thread");
    }
    let seconds = started.elapsed().as_secs_f64();
    let cpu = server.cpu_seconds().zip(cpu0).map(|(b, a)| b - a);
    let db_cpu = postgres
        .then(load::postgres_cpu_seconds)
        .flatten()
        .zip(db0)
        .map(|(b, a)| b - a);
    drop(server);
    let tally = tally.lock().unwrap();
    let backend = if postgres { "PostgreSQL" } else { "SQLite" };
    println!(
        "{backend}, {games} games, {} players at once, {seconds:.1} s",
        a.players
    );
    println!("| page | requests | p50 ms | p95 ms | p99 ms | refused |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    let mut total = 0;
    let mut refused = 0;
    for (kind, _) in MIX {
        let v = tally.micros.get(kind).cloned().unwrap_or_default();
        let r = tally.refused.get(kind).copied().unwrap_or(0);
        total += v.len();
        refused += r;
        println!(
            "| {} | {} | {:.1} | {:.1} | {:.1} | {r} |",
            kind.name(),
            v.len(),
            ms(v.clone(), 0.50),
            ms(v.clone(), 0.95),
            ms(v, 0.99)
        );
    }
    let per = |c: Option<f64>| {
        c.filter(|_| total > 0)
            .map(|c| format!("{:.0} µs", c * 1e6 / total as f64))
            .unwrap_or_else(|| "?".into())
    };
    println!(
        "throughput {:.0} requests/s; {refused} refused; server CPU {} per request{}",
        total as f64 / seconds,
        per(cpu),
        if postgres {
            format!(", PostgreSQL's {}", per(db_cpu))
        } else {
            String::new()
        }
    );
}
