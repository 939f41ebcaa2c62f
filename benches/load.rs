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

#[path = "../tests/it/common/load.rs"]
mod load;
#[path = "../tests/it/common/smtp_sink.rs"]
mod smtp_sink;

use diesel::prelude::*;
use load::Http;
use missive::domain::ids::GameId;
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
    /// Reported on their own rows, drawn as `Dashboard` and `Standings`:
    /// the busiest player's dashboard (player1, up to 1,000 running games)
    /// and the largest tournament's standings.
    BusyDashboard,
    LargestStandings,
}

/// Every row of the report, in its order.
const ROWS: &[Kind] = &[
    Kind::Dashboard,
    Kind::BusyDashboard,
    Kind::GamePage,
    Kind::Move,
    Kind::Archive,
    Kind::Replay,
    Kind::Pgn,
    Kind::Standings,
    Kind::LargestStandings,
    Kind::Ratings,
    Kind::Profile,
];

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
            Kind::BusyDashboard => "dashboard of player1",
            Kind::LargestStandings => "standings, largest",
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
    /// Where a backup taken during the load is written (and deleted after):
    /// `missive backup` on SQLite, `pg_dump -Fc` on PostgreSQL. None: no
    /// backup.
    backup_dir: Option<String>,
    /// Seconds into the load the backup starts.
    backup_after: f64,
    /// Requests a second over all players, sent at random moments
    /// (an open loop, as independent players send them); 0: a closed
    /// loop, each player asking again as soon as answered.
    rate: f64,
}

fn args() -> Args {
    let mut a = Args {
        database_url: String::new(),
        server: "target/release/missive".into(),
        secs: 20.0,
        players: 32,
        workers: 0,
        seed: 1,
        backup_dir: None,
        backup_after: 5.0,
        rate: 0.0,
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
            "--backup-dir" => a.backup_dir = Some(val),
            "--rate" => a.rate = val.parse().expect("--rate REQUESTS_PER_SECOND"),
            "--backup-after" => a.backup_after = val.parse().expect("--backup-after SECS"),
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
    /// Their running games (game page).
    running: Vec<i32>,
    /// Running games they move in, with their opponent's session: a move
    /// is made by whichever side is to move, so moves go on all run long.
    tables: Vec<Table>,
    /// Their finished games (replay, PGN).
    finished: Vec<(i32, i32)>,
    /// The busiest player (player1), whose dashboard has a row of its own.
    busy: bool,
}

#[derive(Clone)]
struct Table {
    game: GameId,
    white: bool,
    other_session: String,
}

/// How many of a player's running games their moves go to.
const TABLES: usize = 12;

#[derive(QueryableByName)]
struct GameOf {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    id: i32,
    #[diesel(sql_type = diesel::sql_types::Integer)]
    ply: i32,
    #[diesel(sql_type = diesel::sql_types::Bool)]
    white: bool,
    #[diesel(sql_type = diesel::sql_types::Integer)]
    other: i32,
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
    // Players who have a running and a finished chess game, as the active
    // players of a busy site have: at a million games most of the first
    // tenth have none running, and every game page and move they were to
    // ask for became a dashboard.
    let mut others: Vec<i32> = (2..=pick_from).collect();
    others.shuffle(rng);
    let now = missive::util::now();
    let mut chosen: Vec<Who> = Vec::new();
    for id in std::iter::once(1).chain(others) {
        if chosen.len() >= n {
            break;
        }
        let who = who_of(conn, id, now);
        if id == 1 || (!who.running.is_empty() && !who.finished.is_empty()) {
            chosen.push(who);
        }
    }
    chosen
}

/// Player `id`, with a new session, their games, and their opponents'
/// sessions for the games they move in.
fn who_of(conn: &mut missive::db::DbConn, id: i32, now: chrono::NaiveDateTime) -> Who {
    let name = missive::populate::username(id);
    let user = missive::db::users::find_by_name(conn, &name)
        .expect("read a player")
        .unwrap_or_else(|| panic!("no player {name}"));
    let session = missive::accounts::users::create_session(conn, user.id, now).expect("session");
    let games = diesel::sql_query(format!(
        "SELECT id, ply, \
         white_id = {u} AS white, \
         CASE WHEN white_id = {u} THEN black_id ELSE white_id END AS other, \
         status = 'active' AS active \
         FROM games WHERE (white_id = {u} OR black_id = {u}) AND variant = 'chess' \
         ORDER BY id DESC LIMIT 2000",
        u = user.id
    ))
    .load::<GameOf>(conn)
    .expect("a player's games");
    Who {
        busy: id == 1,
        name,
        session,
        running: games.iter().filter(|g| g.active).map(|g| g.id).collect(),
        tables: games
            .iter()
            .filter(|g| g.active)
            .take(TABLES)
            .map(|g| Table {
                game: GameId(g.id),
                white: g.white,
                other_session: missive::accounts::users::create_session(conn, g.other, now)
                    .expect("the opponent's session"),
            })
            .collect(),
        finished: games
            .iter()
            .filter(|g| !g.active)
            .map(|g| (g.id, g.ply))
            .collect(),
    }
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
    /// Answers other than the one expected, by kind and status (0: no
    /// answer at all).
    refused: HashMap<(Kind, u16), usize>,
    /// When each accepted move was answered, in seconds from the start.
    moves_at: Vec<f64>,
}

/// A request's outcome: accepted, or the status it got instead (0: the
/// exchange failed).
type Answer = Result<(), u16>;

fn answer(status: u16, expected: u16) -> Answer {
    if status == expected {
        Ok(())
    } else {
        Err(status)
    }
}

/// A backup taken while the load runs.
struct Backup {
    /// Seconds from the start of the load.
    from: f64,
    to: f64,
    bytes: u64,
    ok: bool,
}

/// Take the backup: `missive backup FILE` on SQLite (its `VACUUM INTO`,
/// integrity check and counts), `pg_dump -Fc` on PostgreSQL.
fn take_backup(a: &Args, dir: &str, postgres: bool, started: Instant) -> Backup {
    let file = format!("{dir}/load-backup-{}.bak", std::process::id());
    let _ = std::fs::remove_file(&file);
    let from = started.elapsed().as_secs_f64();
    let status = if postgres {
        Command::new("pg_dump")
            .args(["-Fc", "-d", &a.database_url, "-f", &file])
            .stdout(Stdio::null())
            .status()
    } else {
        Command::new(&a.server)
            .args(["backup", &file])
            .env("DATABASE_URL", &a.database_url)
            .stdout(Stdio::null())
            .status()
    };
    let to = started.elapsed().as_secs_f64();
    let bytes = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
    let _ = std::fs::remove_file(&file);
    Backup {
        from,
        to,
        bytes,
        ok: status.map(|s| s.success()).unwrap_or(false),
    }
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
    csrf_seed: &'a str,
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
) -> (Kind, Duration, Answer) {
    let Seat {
        cookie,
        others,
        tournaments,
        ..
    } = *seat;
    let get = |http: &mut Http, path: &str| {
        let t = Instant::now();
        let status = http.get_status(path, cookie).unwrap_or(0);
        (t.elapsed(), answer(status, 200))
    };
    let finished = who.finished.choose(rng).copied();
    let (kind, (took, ok)) = match kind {
        // Drawn only as their plain kinds; remapped below.
        Kind::Dashboard | Kind::BusyDashboard => (Kind::Dashboard, get(http, "/")),
        Kind::GamePage | Kind::Move if who.running.is_empty() => (Kind::Dashboard, get(http, "/")),
        Kind::GamePage => {
            let id = *who.running.choose(rng).expect("running games");
            (kind, get(http, &format!("/games/{id}")))
        }
        Kind::Move => match who.tables.choose(rng).cloned() {
            Some(table) => match post_move(http, &table, seat, rng) {
                Some(answer) => (kind, answer),
                None => {
                    // Over: the game has no legal move left.
                    who.tables.retain(|t| t.game != table.game);
                    (Kind::Dashboard, get(http, "/"))
                }
            },
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
        Kind::Standings | Kind::LargestStandings => {
            // The largest tournament a fifth of the time.
            let (kind, t) = match rng.gen_bool(0.2) {
                true => (Kind::LargestStandings, tournaments[0]),
                false => (
                    Kind::Standings,
                    *tournaments.choose(rng).expect("tournaments"),
                ),
            };
            (kind, get(http, &format!("/tournaments/{t}")))
        }
        Kind::Ratings => (kind, get(http, "/ratings/chess")),
        Kind::Profile => {
            let name = others.choose(rng).expect("players");
            (kind, get(http, &format!("/users/{name}")))
        }
    };
    let kind = match kind {
        Kind::Dashboard if who.busy => Kind::BusyDashboard,
        k => k,
    };
    (kind, took, ok)
}

/// Read the game's position, pick a random legal move, post it as the side
/// to move: the post's time and whether it was accepted; None when the
/// game has no legal move (it is over).
fn post_move(
    http: &mut Http,
    table: &Table,
    seat: &Seat,
    rng: &mut impl Rng,
) -> Option<(Duration, Answer)> {
    let id = table.game;
    let failed = Some((Duration::ZERO, Err(0)));
    let Ok(json) = http.get(&format!("/games/{id}.json"), seat.cookie) else {
        return failed;
    };
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(&json.body) else {
        return failed;
    };
    let (Some(fen), Some(ply)) = (v["fen"].as_str(), v["ply"].as_i64()) else {
        return failed;
    };
    if v["status"].as_str() != Some("active") {
        // Ended since the run began (most often lost on time to the clock
        // sweeper in a long run): no move to make, as after a checkmate.
        return None;
    }
    let chess = missive_rules::variant("chess").expect("chess");
    let Ok(game) = missive_rules::Game::new(chess, Some(fen)) else {
        return failed;
    };
    let mv = game.legal_moves().choose(rng).cloned()?;
    let white_to_move = fen.split(' ').nth(1) == Some("w");
    let cookie = if white_to_move == table.white {
        seat.cookie.to_string()
    } else {
        format!(
            "missive_session={}; missive_csrf={}",
            table.other_session, seat.csrf_seed
        )
    };
    let text = game.format(&mv, missive_rules::Notation::Coordinate);
    let ply = ply.to_string();
    let t = Instant::now();
    let r = http.post(
        &format!("/games/{id}/move"),
        &cookie,
        &[
            ("csrf_token", seat.csrf),
            ("move", text.as_str()),
            ("confirm", "1"),
            ("ply", ply.as_str()),
        ],
    );
    Some((t.elapsed(), answer(r.map(|r| r.status).unwrap_or(0), 303)))
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
    // Profiles looked at: 200 players drawn as the population's games drew
    // theirs (a third of picks among the busiest hundredth), so both sizes
    // look at alike players. The first 200 by number were all among the
    // busiest at a million games and a twentieth of them at 10,000.
    let people = diesel::sql_query("SELECT CAST(COUNT(*) AS INTEGER) AS id FROM users")
        .get_result::<Id>(&mut conn)
        .expect("count users")
        .id;
    let heavy = missive::populate::heavy_of(people);
    let others: Vec<String> = (0..200)
        .map(|_| {
            missive::populate::username(1 + missive::populate::draw_player(&mut rng, people, heavy))
        })
        .collect();
    drop(conn);
    let sink = smtp_sink::SmtpSink::start();
    let server = Server::start(&a, &sink.url());
    let postgres = missive::db::parse_url(&a.database_url).0 == missive::db::Backend::Postgres;
    let stop = Arc::new(AtomicBool::new(false));
    let tally = Arc::new(Mutex::new(Tally::default()));
    let (cpu0, db0) = (
        server.cpu_seconds(),
        postgres.then(load::postgres_cpu_seconds).flatten(),
    );
    let started = Instant::now();
    let per_player_rate = a.rate / a.players.max(1) as f64;
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
                let mut due = Instant::now();
                while !stop.load(Ordering::Relaxed) {
                    // Open loop: the next request is due an exponentially
                    // drawn interval after the last was due, whenever that
                    // one was answered; a late start counts in its latency.
                    let late = if per_player_rate > 0.0 {
                        let u: f64 = rng.gen_range(f64::EPSILON..1.0);
                        due += Duration::from_secs_f64(-u.ln() / per_player_rate);
                        let now = Instant::now();
                        if due > now {
                            thread::sleep(due - now);
                            Duration::ZERO
                        } else {
                            now - due
                        }
                    } else {
                        Duration::ZERO
                    };
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let kind = draw(&mut rng);
                    let seat = Seat {
                        cookie: &cookie,
                        csrf: &csrf,
                        csrf_seed: &csrf_seed,
                        others: &others,
                        tournaments: &tournaments,
                    };
                    let (kind, took, ok) = one(&mut http, &mut who, &seat, kind, &mut rng);
                    let took = took + late;
                    if ok.is_ok() && kind == Kind::Move {
                        mine.moves_at.push(started.elapsed().as_secs_f64());
                    }
                    if ok.is_ok() {
                        mine.micros
                            .entry(kind)
                            .or_default()
                            .push(took.as_micros() as u64);
                    } else {
                        let status = ok.err().unwrap_or(0);
                        *mine.refused.entry((kind, status)).or_default() += 1;
                    }
                }
                let mut all = tally.lock().unwrap();
                for (k, v) in mine.micros {
                    all.micros.entry(k).or_default().extend(v);
                }
                for (k, n) in mine.refused {
                    *all.refused.entry(k).or_default() += n;
                }
                all.moves_at.extend(mine.moves_at);
            })
        })
        .collect();
    let backup = a.backup_dir.as_ref().map(|dir| {
        thread::sleep(Duration::from_secs_f64(a.backup_after.min(a.secs)));
        take_backup(&a, dir, postgres, started)
    });
    // The load runs its full time, and at least until the backup is done.
    let left = a.secs - started.elapsed().as_secs_f64();
    if left > 0.0 {
        thread::sleep(Duration::from_secs_f64(left));
    }
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
    let offered = match a.rate > 0.0 {
        true => format!("{:.0} requests/s offered (open loop)", a.rate),
        false => "closed loop".to_string(),
    };
    println!(
        "{backend}, {games} games, {} players at once, {offered}, {seconds:.1} s",
        a.players
    );
    println!("| page | requests | p50 ms | p95 ms | p99 ms | refused |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    let mut total = 0;
    let mut refused = 0;
    for kind in ROWS {
        let v = tally.micros.get(kind).cloned().unwrap_or_default();
        let r: usize = tally
            .refused
            .iter()
            .filter(|((k, _), _)| k == kind)
            .map(|(_, n)| n)
            .sum();
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
    if let Some(b) = &backup {
        let during = tally
            .moves_at
            .iter()
            .filter(|&&t| t >= b.from && t <= b.to)
            .count();
        let span = (b.to - b.from).max(1e-9);
        let outside = (tally.moves_at.len() - during) as f64 / (seconds - span).max(1e-9);
        println!(
            "backup ({}) {}: {:.1} MB in {:.1} s, from {:.1} s into the load; {during} moves accepted meanwhile ({:.0}/s, {outside:.0}/s the rest of the run)",
            if postgres { "pg_dump -Fc" } else { "missive backup" },
            if b.ok { "made" } else { "FAILED" },
            b.bytes as f64 / 1e6,
            span,
            b.from,
            during as f64 / span,
        );
    }
    if refused > 0 {
        let mut why: Vec<_> = tally.refused.iter().collect();
        why.sort();
        let words: Vec<String> = why
            .into_iter()
            .map(|((k, status), n)| match status {
                0 => format!("{} no answer ×{n}", k.name()),
                s => format!("{} {s} ×{n}", k.name()),
            })
            .collect();
        println!("refused: {}", words.join(", "));
    }
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
