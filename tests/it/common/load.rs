//! Move load, shared by the HTTP benchmark (`benches/http.rs`) and the fault
//! tests (`tests/it/faults.rs`): a small keep-alive HTTP/1.1 client, players and
//! games set up through the services, and a player that picks legal moves
//! with the rules crate and posts them through the real form.
//!
//! The client is hand-written rather than reqwest because the load runs on
//! the same two cores as the server: one blocking socket per connection and
//! no runtime keeps the load generator's share of the CPU small, and makes
//! "64 connections" exactly 64 keep-alive connections.

#![allow(dead_code)]

use missive::accounts::links;
use missive::accounts::mail_settings;
use missive::accounts::users as accounts;
use missive::db::users::User;
use missive::db::DbConn;
use missive::game::challenge;
use missive_rules::Game;
use rand::Rng;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// One keep-alive connection to `addr` (`127.0.0.1:PORT`), reconnecting
/// after the server closed it.
pub struct Http {
    addr: String,
    conn: Option<BufReader<TcpStream>>,
    pub timeout: Duration,
}

pub struct Reply {
    pub status: u16,
    pub location: Option<String>,
    pub set_cookies: Vec<String>,
    /// The bytes as sent: a load client that checked every page for UTF-8
    /// (as `String` would) spent 2% of the game page case doing it, CPU the
    /// trivial handler's few bytes never cost, so the ratio counted it
    /// against the server.
    pub body: Vec<u8>,
}

impl Reply {
    pub fn text(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(&self.body)
    }
}

/// Whether the server has closed `s` (or it broke) while it was idle: a
/// peek that does not wait finds its end (or an error) rather than nothing
/// to read yet.
fn closed_by_peer(s: &TcpStream) -> bool {
    if s.set_nonblocking(true).is_err() {
        return true;
    }
    let mut byte = [0u8; 1];
    let closed = match s.peek(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => e.kind() != io::ErrorKind::WouldBlock,
    };
    closed || s.set_nonblocking(false).is_err()
}

impl Http {
    pub fn new(addr: &str) -> Http {
        Http {
            addr: addr.to_string(),
            conn: None,
            timeout: Duration::from_secs(60),
        }
    }

    pub fn get(&mut self, path: &str, cookie: &str) -> io::Result<Reply> {
        self.send("GET", path, cookie, b"", true)
    }

    pub fn post(&mut self, path: &str, cookie: &str, form: &[(&str, &str)]) -> io::Result<Reply> {
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(form)
            .finish();
        self.send("POST", path, cookie, body.as_bytes(), true)
    }

    /// A GET whose body is read past, not kept: all a timed page view
    /// needs, and what `wrk` does. Copying out every page cost the client
    /// CPU that the trivial handler's few bytes never did.
    pub fn get_status(&mut self, path: &str, cookie: &str) -> io::Result<u16> {
        Ok(self.send("GET", path, cookie, b"", false)?.status)
    }

    /// The reply to one request (its body kept when `keep`); a failed
    /// exchange drops the connection, so the next one starts afresh.
    fn send(
        &mut self,
        method: &str,
        path: &str,
        cookie: &str,
        body: &[u8],
        keep: bool,
    ) -> io::Result<Reply> {
        let r = self.try_send(method, path, cookie, body, keep);
        if r.is_err() {
            self.conn = None;
        }
        r
    }

    fn try_send(
        &mut self,
        method: &str,
        path: &str,
        cookie: &str,
        body: &[u8],
        keep: bool,
    ) -> io::Result<Reply> {
        if self
            .conn
            .as_ref()
            .is_some_and(|c| closed_by_peer(c.get_ref()))
        {
            // The server closes a keep-alive connection left idle (at a low
            // offered rate, often): that is not a refusal, and a browser
            // would open a new one.
            self.conn = None;
        }
        if self.conn.is_none() {
            let s = TcpStream::connect(&self.addr)?;
            s.set_nodelay(true)?;
            s.set_read_timeout(Some(self.timeout))?;
            s.set_write_timeout(Some(self.timeout))?;
            self.conn = Some(BufReader::with_capacity(64 * 1024, s));
        }
        let conn = self.conn.as_mut().expect("connected");
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\n", self.addr);
        if !cookie.is_empty() {
            head.push_str(&format!("Cookie: {cookie}\r\n"));
        }
        if method == "POST" {
            head.push_str(&format!(
                "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n",
                body.len()
            ));
        }
        head.push_str("\r\n");
        let mut out = head.into_bytes();
        out.extend_from_slice(body);
        conn.get_mut().write_all(&out)?;
        let mut line = String::new();
        if conn.read_line(&mut line)? == 0 {
            return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "closed"));
        }
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "bad status line"))?;
        let (mut length, mut chunked, mut close) = (None, false, false);
        let (mut location, mut set_cookies) = (None, Vec::new());
        loop {
            line.clear();
            conn.read_line(&mut line)?;
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            let Some((k, v)) = l.split_once(':') else {
                continue;
            };
            let v = v.trim();
            match k.to_ascii_lowercase().as_str() {
                "content-length" => length = v.parse::<usize>().ok(),
                "transfer-encoding" => chunked = v.eq_ignore_ascii_case("chunked"),
                "connection" => close = v.eq_ignore_ascii_case("close"),
                "location" => location = Some(v.to_string()),
                "set-cookie" => set_cookies.push(v.to_string()),
                _ => {}
            }
        }
        let mut buf = Vec::new();
        let mut kept = keep.then_some(&mut buf);
        if chunked {
            loop {
                line.clear();
                conn.read_line(&mut line)?;
                let n = usize::from_str_radix(line.trim(), 16)
                    .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "bad chunk"))?;
                take_body(conn, n, kept.as_deref_mut())?;
                take_body(conn, 2, None)?;
                if n == 0 {
                    break;
                }
            }
        } else if let Some(n) = length {
            take_body(conn, n, kept)?;
        } else {
            match kept {
                Some(b) => conn.read_to_end(b)?,
                None => io::copy(conn, &mut io::sink())? as usize,
            };
            close = true;
        }
        if close {
            self.conn = None;
        }
        Ok(Reply {
            status,
            location,
            set_cookies,
            body: buf,
        })
    }
}

/// Read `n` bytes of a body into `keep` (into its spare capacity: no
/// zero-filling first), or past them in the reader's buffer, uncopied.
fn take_body(
    conn: &mut BufReader<TcpStream>,
    n: usize,
    keep: Option<&mut Vec<u8>>,
) -> io::Result<()> {
    let short = || io::Error::new(io::ErrorKind::UnexpectedEof, "body cut short");
    match keep {
        Some(buf) => {
            buf.reserve_exact(n);
            if conn.take(n as u64).read_to_end(buf)? < n {
                return Err(short());
            }
        }
        None => {
            let mut left = n;
            while left > 0 {
                let got = conn.fill_buf()?.len().min(left);
                if got == 0 {
                    return Err(short());
                }
                conn.consume(got);
                left -= got;
            }
        }
    }
    Ok(())
}

/// Wait until `GET /healthz` answers (a server starting up), at most `limit`.
pub fn wait_healthy(addr: &str, limit: Duration) -> bool {
    let started = Instant::now();
    while started.elapsed() < limit {
        if let Ok(r) = Http::new(addr).get("/healthz", "") {
            if r.status == 200 {
                return true;
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// The first `csrf_token` value in a page.
pub fn csrf_in(body: &str) -> Option<String> {
    let key = "name=\"csrf_token\" value=\"";
    let rest = &body[body.find(key)? + key.len()..];
    Some(rest[..rest.find('"')?].to_string())
}

/// A random CSRF cookie value, as the server would make one.
pub fn csrf_seed() -> String {
    missive::web::random_token()
}

/// A signed-up player with a verified address and an open session.
#[derive(Clone)]
pub struct Player {
    pub user: User,
    pub session: String,
}

impl Player {
    /// The Cookie header for this player with the connection's CSRF seed.
    pub fn cookie(&self, seed: &str) -> String {
        format!("missive_session={}; missive_csrf={seed}", self.session)
    }
}

/// Sign up `name` (through the service, with its argon2 hash), verify the
/// address with the signed link's signature, and open a session.
pub fn player(conn: &mut DbConn, secret: &[u8], name: &str) -> Player {
    let now = missive::web::now();
    let email = format!("{name}@example.org");
    let user = accounts::signup(conn, name, &email, "load test harbour lantern", now)
        .unwrap_or_else(|e| panic!("sign up {name}: {e}"));
    let sig = links::verify_sig(secret, user.id, &email);
    assert!(mail_settings::verify_email(conn, secret, user.id, &sig, now).expect("verify"));
    missive::db::users::set_confirm_moves(conn, user.id, false).expect("confirm off");
    let session = accounts::create_session(conn, user.id, now).expect("session");
    Player { user, session }
}

/// A chess game between `white` and `black`, challenged and accepted.
pub fn new_game(conn: &mut DbConn, white: &Player, black: &Player) -> i32 {
    let now = missive::web::now();
    let challenge = challenge::Challenge {
        variant: "chess".into(),
        opponent: black.user.username.clone(),
        color: "white".into(),
        fen: String::new(),
        // The form's default clock, as real games have.
        time_control: "3d/move".into(),
        ..Default::default()
    };
    let id = challenge::create_game(conn, &white.user, &challenge, now).expect("create game");
    challenge::accept(conn, id, &black.user, now).expect("accept");
    id.get()
}

/// One game as a load connection drives it: the position as this side of
/// the wire believes it, and who plays which side.
pub struct Table {
    pub id: i32,
    pub game: Game,
    pub white: Player,
    pub black: Player,
}

impl Table {
    pub fn new(id: i32, white: Player, black: Player) -> Table {
        let chess = missive_rules::variant("chess").expect("chess");
        Table {
            id,
            game: Game::new(chess, None).expect("start position"),
            white,
            black,
        }
    }

    pub fn to_move(&self) -> &Player {
        match self.game.side_to_move() {
            missive_rules::Color::Black => &self.black,
            _ => &self.white,
        }
    }

    pub fn finished(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// Rebuild the position from the server's `/games/{id}.json`.
    pub fn sync(&mut self, http: &mut Http, seed: &str) -> io::Result<bool> {
        let r = http.get(
            &format!("/games/{}.json", self.id),
            &self.white.cookie(seed),
        )?;
        if r.status != 200 {
            return Ok(false);
        }
        let v: serde_json::Value = serde_json::from_slice(&r.body)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        let coords: Vec<String> = v["moves"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|m| m["coordinate"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let chess = missive_rules::variant("chess").expect("chess");
        self.game = Game::replay(chess, None, &coords)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("{e:?}")))?;
        Ok(v["status"] == "active")
    }
}

/// What one move post did.
pub struct Posted {
    pub status: u16,
    /// The ply the move would have (the position's ply + 1).
    pub ply: i32,
    pub coordinate: String,
    pub elapsed: Duration,
}

/// Pick a random legal move and post it as the player to move (`ply` is
/// the position seen, so a stale post is refused with 409). On a 303 the
/// move is played on the local board too.
pub fn post_move(
    http: &mut Http,
    table: &mut Table,
    seed: &str,
    csrf: &str,
    rng: &mut impl Rng,
) -> io::Result<Posted> {
    let legal = table.game.legal_moves();
    assert!(!legal.is_empty(), "post_move on a finished game");
    let mv = legal[rng.gen_range(0..legal.len())];
    let coordinate = table.game.format(&mv, missive_rules::Notation::Coordinate);
    let ply = table.game.ply() as i32;
    let cookie = table.to_move().cookie(seed);
    let started = Instant::now();
    let r = http.post(
        &format!("/games/{}/move", table.id),
        &cookie,
        &[
            ("csrf_token", csrf),
            ("move", &coordinate),
            ("ply", &ply.to_string()),
            ("confirm", "1"),
        ],
    )?;
    let elapsed = started.elapsed();
    if r.status == 303 {
        table.game.play(&mv);
    }
    Ok(Posted {
        status: r.status,
        ply: ply + 1,
        coordinate,
        elapsed,
    })
}

/// The CSRF token that goes with `seed`, read from a page as a browser would.
pub fn csrf_for(http: &mut Http, seed: &str) -> io::Result<String> {
    let r = http.get("/login", &format!("missive_csrf={seed}"))?;
    csrf_in(&r.text()).ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "no csrf token"))
}

/// Latency summary of a run.
pub struct Summary {
    pub requests: usize,
    pub seconds: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    /// The requests' latencies added up, in seconds.
    pub latency_sum_s: f64,
    /// CPU time the measuring process spent per request, in µs, when known.
    pub cpu_us: Option<f64>,
    /// CPU time a database server's own processes spent per request, in
    /// µs, when measured (PostgreSQL's; SQLite runs inside the process).
    pub db_cpu_us: Option<f64>,
}

impl Summary {
    pub fn of(mut micros: Vec<u64>, seconds: f64) -> Summary {
        micros.sort_unstable();
        let latency_sum_s = micros.iter().sum::<u64>() as f64 / 1e6;
        let pick = |q: f64| {
            if micros.is_empty() {
                0.0
            } else {
                let i = ((micros.len() as f64 - 1.0) * q).round() as usize;
                micros[i] as f64 / 1000.0
            }
        };
        Summary {
            requests: micros.len(),
            seconds,
            p50_ms: pick(0.50),
            p99_ms: pick(0.99),
            latency_sum_s,
            cpu_us: None,
            db_cpu_us: None,
        }
    }

    /// Record the process CPU seconds spent over the run.
    pub fn with_cpu(mut self, cpu_seconds: Option<f64>) -> Summary {
        self.cpu_us = self.per_request_us(cpu_seconds);
        self
    }

    /// Record the database server's CPU seconds spent over the run.
    pub fn with_db_cpu(mut self, cpu_seconds: Option<f64>) -> Summary {
        self.db_cpu_us = self.per_request_us(cpu_seconds);
        self
    }

    fn per_request_us(&self, seconds: Option<f64>) -> Option<f64> {
        seconds
            .filter(|_| self.requests > 0)
            .map(|c| c * 1e6 / self.requests as f64)
    }

    pub fn rate(&self) -> f64 {
        self.requests as f64 / self.seconds.max(1e-9)
    }
}

/// The command name and user plus system CPU seconds in a
/// `/proc/PID/stat` line.
pub fn stat_cpu_seconds(stat: &str) -> Option<(&str, f64)> {
    // Fields after the command name, which is in parentheses: utime and
    // stime are the 12th and 13th of them, in clock ticks (100 a second on
    // Linux unless the kernel was built otherwise).
    let (head, rest) = stat.rsplit_once(')')?;
    let comm = head.split_once('(')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some((comm, ticks / 100.0))
}

/// User plus system CPU seconds of the PostgreSQL server processes running
/// on this machine (Linux; every process named `postgres`: the backends of
/// the server's pool, the WAL writer, the checkpointer...), which the
/// PostgreSQL cases' work costs beside this process's. None where no such
/// process can be read. Whatever else uses that server on the machine is
/// counted too, as a busy neighbour is in a rate.
pub fn postgres_cpu_seconds() -> Option<f64> {
    let mut total = None;
    // Entries that are not processes have no readable `stat` file.
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        if let Some(("postgres", secs)) = stat_cpu_seconds(&stat) {
            *total.get_or_insert(0.0) += secs;
        }
    }
    total
}
