//! A `TestApp`: the real server on 127.0.0.1:0 over a fresh SQLite file or a
//! fresh PostgreSQL database, and a cookie-keeping HTTP client per user.

#![allow(dead_code)]

use diesel::prelude::*;
use missive::db::games;
pub use missive::domain::ids::GameId;
use reqwest::blocking::{Client, Response};
use reqwest::StatusCode;

mod launch;
pub mod long_records;
// The harnesses of a few test files: the fault and production tests' load
// and stored-state checks, the power cut's disk, the SMTP sink's reader.
pub mod cut_vfs;
pub mod load;
pub mod move_load;
pub mod server_proc;
pub mod smtp;
pub mod smtp_sink;
pub mod stored;
pub mod tournament_kit;
// Not every test file stops a server of its own.
#[allow(unused_imports)]
pub use launch::{halt, launch, Running};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Run a test body on SQLite, and on PostgreSQL when configured.
#[macro_export]
macro_rules! both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[test] fn $name() { super::$name($crate::common::Backend::Sqlite); })*
        }
        mod postgres {
            $(#[test] fn $name() {
                if $crate::common::postgres_url().is_none() {
                    eprintln!("MISSIVE_TEST_POSTGRES_URL is not set: PostgreSQL run skipped");
                    return;
                }
                super::$name($crate::common::Backend::Postgres);
            })*
        }
    };
}

pub fn postgres_url() -> Option<String> {
    std::env::var("MISSIVE_TEST_POSTGRES_URL")
        .ok()
        .filter(|s| !s.trim().is_empty())
}

pub struct TestApp {
    pub base: String,
    pub backend: Backend,
    pub database_url: String,
    pub config: missive::Config,
    running: Option<Running>,
    _dir: tempfile::TempDir,
    pg_drop: Option<(String, String)>,
}

fn random_suffix() -> String {
    use rand::Rng;
    let mut rng = rand::thread_rng();
    (0..12)
        .map(|_| (b'a' + rng.gen_range(0..26)) as char)
        .collect()
}

impl TestApp {
    pub fn start(backend: Backend) -> TestApp {
        Self::start_with(backend, |_| {})
    }

    pub fn start_with(backend: Backend, tweak: impl FnOnce(&mut missive::Config)) -> TestApp {
        missive::listen();
        let dir = tempfile::tempdir().expect("temp dir");
        let (database_url, pg_drop) = match backend {
            Backend::Sqlite => (
                dir.path().join("test.db").to_string_lossy().into_owned(),
                None,
            ),
            Backend::Postgres => {
                let admin = postgres_url().expect("MISSIVE_TEST_POSTGRES_URL");
                let name = format!("missive_test_{}", random_suffix());
                let mut conn =
                    diesel::PgConnection::establish(&admin).expect("connect to PostgreSQL");
                diesel::sql_query(format!("CREATE DATABASE {name}"))
                    .execute(&mut conn)
                    .expect("create test database");
                let mut url = url::Url::parse(&admin).expect("PostgreSQL URL");
                url.set_path(&format!("/{name}"));
                (url.to_string(), Some((admin, name)))
            }
        };
        let mut config = missive::Config {
            database_url: database_url.clone(),
            bind: "127.0.0.1:0".into(),
            workers: 2,
            pool_size: 8,
            // Every test client comes from 127.0.0.1, and many tests sign up
            // and challenge more than a real person would in an hour; the
            // tests of these limits turn them on (`tests/it/limits.rs`).
            signup_limit_hour: 0,
            challenge_limit_hour: 0,
            seek_limit_hour: 0,
            // Load tests run more requests at once than one person would;
            // `tests/it/slow_clients.rs` sets the limit it tests.
            requests_per_address: usize::MAX,
            ..missive::Config::default()
        };
        // A posted variant's check runs in a child: this build's `missive`,
        // not the test binary the server runs in.
        config.posted.checker = Some(env!("CARGO_BIN_EXE_missive").into());
        // The limits' clock stands still unless a test moves it, so no
        // delay ends while a slow machine runs a test.
        config.clock.set(missive::web::now());
        tweak(&mut config);
        let running = launch(config.clone());
        TestApp {
            base: running.base.clone(),
            backend,
            database_url,
            config,
            running: Some(running),
            _dir: dir,
            pg_drop,
        }
    }

    fn stop(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop(true);
        }
    }

    /// Stop the server as `missive serve` does, and keep what it ran on.
    pub fn stop_server(&mut self) -> std::sync::Arc<missive::web::AppState> {
        self.running.take().expect("a running server").stop(true)
    }

    /// Stop the server and start a new one on the same database (and a new port).
    pub fn restart(&mut self) {
        self.stop();
        let running = launch(self.config.clone());
        self.base = running.base.clone();
        self.running = Some(running);
    }

    pub fn client(&self) -> TestClient {
        TestClient {
            base: self.base.clone(),
            http: Client::builder()
                .cookie_store(true)
                .redirect(reqwest::redirect::Policy::none())
                .timeout(std::time::Duration::from_secs(60))
                .build()
                .unwrap(),
        }
    }

    /// A client signed up (and logged in) as `name`.
    pub fn user(&self, name: &str) -> TestClient {
        let c = self.client();
        let r = c.signup(
            name,
            &format!("{name}@example.org"),
            "correct horse battery",
        );
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "signup of {name}");
        c
    }

    /// [`TestApp::user`] whose address is verified, so mail reaches them.
    pub fn verified_user(&self, name: &str) -> TestClient {
        let c = self.user(name);
        let id = self.count(&format!(
            "SELECT CAST(id AS BIGINT) AS n FROM users WHERE username = '{name}'"
        )) as i32;
        let secret = missive::web::load_secret(&mut self.db(), None).unwrap();
        let sig = missive::accounts::links::verify_sig(&secret, id, &format!("{name}@example.org"));
        assert_eq!(
            c.get(&format!("/verify-email?u={id}&sig={sig}")).status,
            StatusCode::OK
        );
        c
    }

    /// A client logged in as `name`, made with a verified address (and
    /// the director role when `director`) as `missive user create` does.
    pub fn member(&self, name: &str, director: bool) -> TestClient {
        let mut conn = self.db();
        missive::accounts::users::create_verified(
            &mut conn,
            name,
            &format!("{name}@example.org"),
            "correct horse battery",
            missive::web::now(),
        )
        .unwrap();
        if director {
            missive::tournaments::directors::set_director(&mut conn, name, true).unwrap();
        }
        let c = self.client();
        assert_eq!(
            c.login(name, "correct horse battery").status(),
            StatusCode::SEE_OTHER
        );
        c
    }

    /// A server with alice and bob signed up and a game between them
    /// accepted, alice White: the start of most game tests.
    pub fn game_of_alice_and_bob(backend: Backend) -> (TestApp, TestClient, TestClient, GameId) {
        Self::game_of_alice_and_bob_with(backend, |_| {})
    }

    /// [`TestApp::game_of_alice_and_bob`] on a server with `tweak`ed settings.
    pub fn game_of_alice_and_bob_with(
        backend: Backend,
        tweak: impl FnOnce(&mut missive::Config),
    ) -> (TestApp, TestClient, TestClient, GameId) {
        let app = TestApp::start_with(backend, tweak);
        let alice = app.user("alice");
        let bob = app.user("bob");
        let id = alice.challenge("bob", "white");
        bob.post(&format!("/games/{id}/accept"), &[]);
        (app, alice, bob, id)
    }

    /// `missive ARGS` on this app's database: its output, checked as the
    /// caller wants.
    pub fn missive(&self, args: &[&str]) -> std::process::Output {
        std::process::Command::new(env!("CARGO_BIN_EXE_missive"))
            .args(args)
            .env("DATABASE_URL", &self.database_url)
            .output()
            .expect("missive runs")
    }

    /// The running server's state.
    pub fn state(&self) -> &std::sync::Arc<missive::web::AppState> {
        self.running.as_ref().expect("a running server").state()
    }

    /// A direct database connection, to check what was stored.
    pub fn db(&self) -> missive::db::DbConn {
        missive::db::Manager::new(&self.database_url)
            .open()
            .unwrap()
    }

    /// The id of the user named `name`.
    pub fn user_id(&self, name: &str) -> i32 {
        self.count(&format!(
            "SELECT CAST(id AS BIGINT) AS n FROM users WHERE username = '{name}'"
        )) as i32
    }

    /// The key that signs links and tokens.
    pub fn secret(&self) -> Vec<u8> {
        missive::web::load_secret(&mut self.db(), None).unwrap()
    }

    pub fn count(&self, sql: &str) -> i64 {
        #[derive(QueryableByName)]
        struct N {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            n: i64,
        }
        let mut conn = self.db();
        diesel::sql_query(sql)
            .get_result::<N>(&mut conn)
            .expect("count query")
            .n
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        self.stop();
        if let Some((admin, name)) = self.pg_drop.take() {
            if let Ok(mut conn) = diesel::PgConnection::establish(&admin) {
                let _ = diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                    .execute(&mut conn);
            }
        }
    }
}

#[derive(Clone)]
pub struct TestClient {
    pub base: String,
    pub http: Client,
}

pub struct Page {
    pub status: StatusCode,
    pub body: String,
    pub location: Option<String>,
    /// `Retry-After`, in seconds.
    pub retry_after: Option<i64>,
}

impl Page {
    fn from(r: Response) -> Page {
        let status = r.status();
        let location = r
            .headers()
            .get("location")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let retry_after = r
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse().ok());
        Page {
            status,
            body: r.text().unwrap_or_default(),
            location,
            retry_after,
        }
    }
    pub fn status(&self) -> StatusCode {
        self.status
    }
    pub fn has(&self, s: &str) -> bool {
        self.body.contains(s)
    }
    /// The FEN shown under the board of a game page.
    pub fn fen(&self) -> String {
        let tag = "<code id=\"fen\">";
        let i = self.body.find(tag).expect("a FEN on the page") + tag.len();
        unescape(&self.body[i..i + self.body[i..].find("</code>").unwrap()])
    }
}

/// Undo the HTML escaping of a page's text.
pub fn unescape(s: &str) -> String {
    s.replace("&#x2f;", "/")
        .replace("&#60;", "<")
        .replace("&#62;", ">")
        .replace("&#34;", "\"")
        .replace("&#38;", "&")
        .replace("&#47;", "/")
        .replace("&#43;", "+")
        .replace("&#35;", "#")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The first `csrf_token` value in a page.
pub fn csrf_from(body: &str) -> Option<String> {
    let i = body.find("name=\"csrf_token\" value=\"")?;
    let rest = &body[i + "name=\"csrf_token\" value=\"".len()..];
    Some(rest[..rest.find('"')?].to_string())
}

impl TestClient {
    pub fn get(&self, path: &str) -> Page {
        Page::from(
            self.http
                .get(format!("{}{path}", self.base))
                .send()
                .unwrap(),
        )
    }

    /// The CSRF token from a page this client can see.
    pub fn csrf(&self) -> String {
        let p = self.get("/signup");
        csrf_from(&p.body)
            .or_else(|| csrf_from(&self.get("/").body))
            .expect("a csrf token")
    }

    /// Post a form with this client's CSRF token added.
    pub fn post(&self, path: &str, fields: &[(&str, &str)]) -> Page {
        let token = self.csrf();
        let mut all: Vec<(&str, &str)> = vec![("csrf_token", &token)];
        all.extend_from_slice(fields);
        self.post_raw(path, &all)
    }

    /// Post exactly these fields.
    pub fn post_raw(&self, path: &str, fields: &[(&str, &str)]) -> Page {
        Page::from(
            self.http
                .post(format!("{}{path}", self.base))
                .form(fields)
                .send()
                .unwrap(),
        )
    }

    /// Post a raw body as a form.
    pub fn post_bytes(&self, path: &str, body: Vec<u8>) -> Page {
        Page::from(
            self.http
                .post(format!("{}{path}", self.base))
                .header("content-type", "application/x-www-form-urlencoded")
                .body(body)
                .send()
                .unwrap(),
        )
    }

    pub fn signup(&self, username: &str, email: &str, password: &str) -> Page {
        self.post(
            "/signup",
            &[
                ("username", username),
                ("email", email),
                ("password", password),
            ],
        )
    }

    pub fn login(&self, username: &str, password: &str) -> Page {
        self.post("/login", &[("username", username), ("password", password)])
    }

    /// Create a game; returns its id.
    pub fn challenge(&self, opponent: &str, color: &str) -> GameId {
        self.new_game(&[
            ("variant", "chess"),
            ("opponent", opponent),
            ("color", color),
            ("fen", ""),
        ])
    }

    /// Create a game from the new-game form's `fields`; returns its id.
    pub fn new_game(&self, fields: &[(&str, &str)]) -> GameId {
        let p = self.post("/games/new", fields);
        assert_eq!(p.status, StatusCode::SEE_OTHER, "create game: {}", p.body);
        p.location
            .unwrap()
            .trim_start_matches("/games/")
            .parse()
            .unwrap()
    }

    /// A game of `variant` from its usual start, this client White,
    /// accepted by `other` (whose name is `other_name`); its id.
    pub fn game_accepted_by(&self, other: &TestClient, other_name: &str, variant: &str) -> GameId {
        let id = self.new_game(&[
            ("variant", variant),
            ("opponent", other_name),
            ("color", "white"),
            ("fen", ""),
        ]);
        let p = other.post(&format!("/games/{id}/accept"), &[]);
        assert_eq!(p.status, StatusCode::SEE_OTHER, "accept: {}", p.body);
        id
    }

    /// Play a move without the confirmation step.
    pub fn play(&self, game: GameId, text: &str) -> Page {
        self.post(
            &format!("/games/{game}/move"),
            &[("move", text), ("confirm", "1")],
        )
    }

    pub fn json(&self, game: GameId) -> serde_json::Value {
        let p = self.get(&format!("/games/{game}.json"));
        assert_eq!(p.status, StatusCode::OK);
        serde_json::from_str(&p.body).unwrap()
    }
}

/// A round-robin chess tournament that `director` (made one) runs for the
/// signed-up `entrants`, started: its first game.
pub fn tournament_game(app: &TestApp, director: &str, entrants: &[&str]) -> games::GameRow {
    use missive::tournaments::entry::TournamentForm;
    use missive::tournaments::{directors, entry, rounds};
    let conn = &mut app.db();
    let now = missive::web::now();
    let director = directors::set_director(conn, director, true).unwrap();
    let form = TournamentForm {
        name: "Cup".into(),
        variant: "chess".into(),
        time_control: "3d/move".into(),
        format: "round-robin".into(),
        entry_closes: (now + chrono::Duration::days(1))
            .format("%Y-%m-%d")
            .to_string(),
        max_players: "8".into(),
        ..TournamentForm::default()
    };
    let t = entry::create(conn, &director, &form, now).unwrap();
    for name in entrants {
        let u = missive::db::users::find_by_name(conn, name)
            .unwrap()
            .unwrap();
        entry::join(conn, t, &u, now).unwrap();
    }
    rounds::sweep(conn, now + chrono::Duration::days(2)).unwrap();
    missive::db::tournament_games::of_tournament(conn, t).unwrap()[0].clone()
}

/// The routes the server declares, as (method, pattern), read from
/// `src/web/routes/mod.rs`: routes after `web::scope("/x")` are under `/x` (the
/// scopes are built in functions after `configure`).
pub fn declared_routes() -> Vec<(&'static str, String)> {
    let src = include_str!("../../../src/web/routes/mod.rs");
    let flat: String = src.split_whitespace().collect();
    let mut scopes = flat.split("web::scope(\"");
    let top = scopes.next().map(|routes| ("", routes));
    top.into_iter()
        .chain(scopes.filter_map(|s| s.split_once('"')))
        .flat_map(|(prefix, routes)| {
            routes.split(".route(\"").skip(1).filter_map(move |r| {
                let (path, rest) = r.split_once('"')?;
                let method = ["get", "post"]
                    .into_iter()
                    .find(|m| rest.starts_with(&format!(",web::{m}()")))?;
                Some((method, format!("{prefix}{path}")))
            })
        })
        .collect()
}

/// The form and query fields the handlers read: the fields of every
/// `Deserialize` struct in `src/routes/`, under their serde names.
pub fn declared_fields() -> Vec<String> {
    let sources = [
        include_str!("../../../src/web/routes/account_links.rs"),
        include_str!("../../../src/web/routes/account_settings.rs"),
        include_str!("../../../src/web/routes/client_settings.rs"),
        include_str!("../../../src/web/routes/api/games.rs"),
        include_str!("../../../src/web/routes/accounts.rs"),
        include_str!("../../../src/web/routes/analysis.rs"),
        include_str!("../../../src/web/routes/conditional.rs"),
        include_str!("../../../src/web/routes/director.rs"),
        include_str!("../../../src/web/routes/game_acts.rs"),
        include_str!("../../../src/web/routes/game_json.rs"),
        include_str!("../../../src/web/routes/game_page.rs"),
        include_str!("../../../src/web/routes/new_game.rs"),
        include_str!("../../../src/web/routes/leave.rs"),
        include_str!("../../../src/web/routes/mail_settings.rs"),
        include_str!("../../../src/web/routes/pages.rs"),
        include_str!("../../../src/web/routes/play_link.rs"),
        include_str!("../../../src/web/routes/records.rs"),
        include_str!("../../../src/web/routes/tournaments.rs"),
        include_str!("../../../src/web/routes/matches.rs"),
        include_str!("../../../src/web/routes/admin.rs"),
        include_str!("../../../src/web/routes/week_settings.rs"),
        include_str!("../../../src/web/routes/dashboard.rs"),
        include_str!("../../../src/web/routes/next_turn.rs"),
        include_str!("../../../src/web/routes/posted_variants.rs"),
        include_str!("../../../src/posted/post.rs"),
    ];
    let mut fields = Vec::new();
    for src in sources {
        for block in src.split("#[derive(").skip(1) {
            let derives = block.split(')').next().unwrap_or("");
            if !derives.contains("Deserialize") {
                continue;
            }
            let Some(body) = block.split_once('{').map(|(_, b)| b) else {
                continue;
            };
            let body = body.split('}').next().unwrap_or("");
            let mut renamed: Option<String> = None;
            for line in body.lines().map(str::trim) {
                if let Some(r) = line.strip_prefix("#[serde(rename = \"") {
                    renamed = r.split('"').next().map(str::to_string);
                    continue;
                }
                let Some((name, _)) = line.split_once(':') else {
                    continue;
                };
                let name = name.trim_start_matches("pub ").trim();
                if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    continue;
                }
                fields.push(renamed.take().unwrap_or_else(|| name.to_string()));
            }
        }
    }
    fields.sort();
    fields.dedup();
    fields
}

/// Play a move as the move form's handler does: `game::play::queue_move`,
/// then its outcome awaited. The move is stored on `conn` in a transaction
/// of its own (`Writes::Own`, the server's way on PostgreSQL; on SQLite the
/// server hands the same store to its group-commit writer instead).
pub fn play_move(
    conn: &mut missive::db::DbConn,
    id: GameId,
    user: &missive::db::users::User,
    text: &str,
    expected_ply: Option<i32>,
    commit: bool,
    now: chrono::NaiveDateTime,
) -> Result<missive::game::play::MoveOutcome, missive::domain::error::Error> {
    let positions = missive::game::positions::PositionCache::new(0);
    let submitted = missive::game::play::queue_move(
        conn,
        &missive::db::Writes::Own,
        &positions,
        missive::game::play::MoveSubmission {
            id,
            user,
            text,
            expected_ply,
            commit,
            unsure: None,
            now,
            also: None,
        },
    )?;
    actix_web::rt::System::new().block_on(submitted.outcome())
}

/// What a Python script prints as JSON after reading `input` on its
/// standard input: the outside readers (python-chess, icalendar) the
/// tests hold our output to. `needs` names the package and how it is
/// installed, for the message when Python or the package is missing or
/// the reader refuses the input.
pub fn python_json(script: &str, input: &str, needs: &str) -> serde_json::Value {
    use std::io::Write;
    let mut child = std::process::Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("python3 with {needs}: {e}"));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{needs} could not read the input: {}\n{input}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}
