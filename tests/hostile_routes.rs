//! Every route the server declares, GET and POST, driven with hostile path
//! parts, query strings and form fields (read from the handlers' own form
//! structs), as a director with a valid CSRF token and as a stranger: never
//! a 5xx, and the server still serves and stores moves afterwards. On
//! SQLite and on PostgreSQL.

mod common;

use common::{declared_fields, declared_routes, Backend, TestApp, TestClient};
use missive::services::accounts;
use missive::services::tournaments::{self as tsvc, TournamentForm};
use rand::{seq::SliceRandom, Rng, SeedableRng};
use reqwest::StatusCode;

both_backends!(every_route_survives_hostile_input, nul_is_refused_alike);

/// Values for path parts, query and form fields, percent-encoded as sent.
const HOSTILE: &[&str] = &[
    "",
    "%20",
    "0",
    "-1",
    "1.5",
    "2147483648",
    "-9223372036854775809",
    "99999999999999999999999999",
    "1e400",
    "NaN",
    "abc",
    "%00",
    "%ff%fe",
    "%C3%A9%E6%97%A5",
    "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    "'%20OR%201%3D1%20--",
    "..%2F..%2FCargo.toml",
    "2026-02-30",
    "9999-12-31",
    "0000-01-01",
    "2026-12-01T25:61",
    "e2e4",
    "O-O-O",
    "alice",
    "bob",
    "chess",
    "3d%2Fmove",
    "round-robin",
    "swiss",
    "book",
    "cancel",
    "offer",
    "accept",
    "none",
];

/// What a path part may be: the real thing (so the handler goes deep), or
/// anything hostile.
fn path_values(param: &str, game: i32, tournament: i32) -> Vec<String> {
    let real = match param {
        "name" => vec!["alice".to_string(), "nobody".into()],
        "file" => vec!["style.css".into(), "nope.css".into()],
        _ => vec![game.to_string(), tournament.to_string()],
    };
    let long = "9".repeat(3000);
    real.into_iter()
        .chain(
            HOSTILE
                .iter()
                .filter(|h| !h.is_empty())
                .map(|h| h.to_string()),
        )
        .chain([long])
        .collect()
}

/// Each `{…}` of a pattern replaced by `value`.
fn fill(pattern: &str, value: &str) -> String {
    let mut out = String::new();
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = rest[open..]
            .find('}')
            .map(|c| open + c + 1)
            .unwrap_or(rest.len());
        out.push_str(value);
        rest = &rest[close..];
    }
    out.push_str(rest);
    out
}

fn param_of(pattern: &str) -> Option<&str> {
    let open = pattern.find('{')?;
    let name = &pattern[open + 1..];
    let end = name.find(['}', ':']).unwrap_or(name.len());
    Some(&name[..end])
}

/// `field=value&…` for every field, each value from `pick`.
fn encoded(fields: &[String], mut pick: impl FnMut() -> String) -> String {
    fields
        .iter()
        .map(|f| format!("{f}={}", pick()))
        .collect::<Vec<_>>()
        .join("&")
}

struct Sweep<'a> {
    client: &'a TestClient,
    failures: Vec<String>,
    requests: usize,
}

impl Sweep<'_> {
    fn get(&mut self, path: &str) {
        let url = format!("{}{path}", self.client.base);
        self.check("GET", path, self.client.http.get(url).send());
    }

    fn post(&mut self, path: &str, body: Vec<u8>) {
        let url = format!("{}{path}", self.client.base);
        let sent = self
            .client
            .http
            .post(url)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send();
        self.check("POST", path, sent);
    }

    fn check(
        &mut self,
        method: &str,
        path: &str,
        sent: reqwest::Result<reqwest::blocking::Response>,
    ) {
        self.requests += 1;
        let shown: String = path.chars().take(160).collect();
        match sent {
            Ok(r) if r.status().is_server_error() => {
                let status = r.status();
                let body: String = r.text().unwrap_or_default().chars().take(300).collect();
                self.failures
                    .push(format!("{method} {shown}: {status}: {body}"));
            }
            Ok(_) => {}
            Err(e) => {
                let e: String = e.to_string().chars().take(200).collect();
                self.failures
                    .push(format!("{method} {shown}: no answer: {e}"));
            }
        }
    }
}

fn every_route_survives_hostile_input(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let game = alice.challenge("bob", "white");
    assert_eq!(
        bob.post(&format!("/games/{game}/accept"), &[]).status,
        StatusCode::SEE_OTHER
    );
    assert_eq!(alice.play(game, "e4").status, StatusCode::SEE_OTHER);
    let tournament = {
        let conn = &mut app.db();
        let now = missive::web::now();
        let director = tsvc::set_director(conn, "alice", true).unwrap();
        let closes = (now + chrono::Duration::days(3))
            .format("%Y-%m-%d")
            .to_string();
        let form = TournamentForm {
            name: "Open".into(),
            variant: "chess".into(),
            time_control: "3d/move".into(),
            format: "round-robin".into(),
            entry_closes: closes,
            max_players: "8".into(),
            ..TournamentForm::default()
        };
        let t = tsvc::create(conn, &director, &form, now).unwrap();
        let bob_user = accounts::find_by_name(conn, "bob").unwrap().unwrap();
        tsvc::join(conn, t, &bob_user, now).unwrap();
        t
    };
    let routes = declared_routes();
    assert!(routes.len() > 40, "routes read: {routes:?}");
    let fields: Vec<String> = declared_fields()
        .into_iter()
        .filter(|f| f != "csrf_token")
        .collect();
    for expected in [
        "move",
        "fen",
        "start",
        "policy",
        "record",
        "sig",
        "max_players",
    ] {
        assert!(
            fields.iter().any(|f| f == expected),
            "{expected} in {fields:?}"
        );
    }
    let token = alice.csrf();
    let stranger = app.client();
    let stranger_token = stranger.csrf();
    let mut rng = rand::rngs::StdRng::seed_from_u64(20261125);
    let mut sweep = Sweep {
        client: &alice,
        failures: Vec::new(),
        requests: 0,
    };
    // Logging out would end the sweep's session: it goes last.
    let (last, first): (Vec<_>, Vec<_>) = routes.iter().partition(|(_, p)| p == "/logout");
    for (method, pattern) in first.into_iter().chain(last) {
        let paths: Vec<String> = match param_of(pattern) {
            Some(param) => path_values(param, game, tournament)
                .iter()
                .map(|v| fill(pattern, v))
                .collect(),
            None => vec![pattern.clone()],
        };
        for (i, path) in paths.iter().enumerate() {
            // Every field set to one hostile value, then random mixtures;
            // the hostile path parts get fewer of each.
            let (same, mixed) = if i < 2 { (HOSTILE.len(), 12) } else { (3, 2) };
            let mut bodies: Vec<String> = HOSTILE
                .choose_multiple(&mut rng, same)
                .map(|v| encoded(&fields, || v.to_string()))
                .collect();
            for _ in 0..mixed {
                bodies.push(encoded(&fields, || {
                    if rng.gen_bool(0.1) {
                        "x".repeat(rng.gen_range(100..20_000))
                    } else {
                        HOSTILE.choose(&mut rng).unwrap().to_string()
                    }
                }));
            }
            match *method {
                "get" => {
                    sweep.get(path);
                    // A URL stays within what clients send (8 KB).
                    for q in bodies.iter().filter(|q| path.len() + q.len() < 8000) {
                        sweep.get(&format!("{path}?{q}"));
                    }
                }
                _ => {
                    for body in &bodies {
                        sweep.post(path, format!("csrf_token={token}&{body}").into_bytes());
                    }
                    let mut raw = format!("csrf_token={token}&").into_bytes();
                    raw.extend_from_slice(&[0xff, 0xfe, b'=', 0x80, b'&', b'%']);
                    sweep.post(path, raw);
                    sweep.post(path, Vec::new());
                }
            }
        }
    }
    // A stranger (not logged in) on every route with the real path parts.
    let mut anonymous = Sweep {
        client: &stranger,
        failures: Vec::new(),
        requests: 0,
    };
    for (method, pattern) in &routes {
        let path = fill(pattern, &game.to_string());
        let body = encoded(&fields, || HOSTILE.choose(&mut rng).unwrap().to_string());
        match *method {
            "get" => anonymous.get(&format!("{path}?{body}")),
            _ => anonymous.post(
                &path,
                format!("csrf_token={stranger_token}&{body}").into_bytes(),
            ),
        }
    }
    let failures: Vec<String> = sweep
        .failures
        .into_iter()
        .chain(anonymous.failures)
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} requests failed:\n{}",
        failures.len(),
        sweep.requests + anonymous.requests,
        failures.join("\n")
    );
    assert!(sweep.requests > 3000, "{} requests", sweep.requests);
    eprintln!(
        "{} requests as a director, {} as a stranger, over {} routes and {} fields",
        sweep.requests,
        anonymous.requests,
        routes.len(),
        fields.len()
    );
    // The server still serves, and stores a move in a new game.
    assert_eq!(app.client().get("/healthz").status, StatusCode::OK);
    // (Alice's session ended with the sweep's logout, and her name was
    // tried with wrong passwords: her logins are slowed now.)
    let carol = app.user("carol");
    let fresh = carol.challenge("bob", "white");
    assert_eq!(
        bob.post(&format!("/games/{fresh}/accept"), &[]).status,
        StatusCode::SEE_OTHER
    );
    assert_eq!(carol.play(fresh, "d4").status, StatusCode::SEE_OTHER);
    assert_eq!(bob.play(fresh, "d5").status, StatusCode::SEE_OTHER);
}

/// PostgreSQL refuses NUL in text and SQLite stores it: both answer 400
/// before any handler runs, and nothing is stored.
fn nul_is_refused_alike(backend: Backend) {
    let (app, alice, _bob, id) = TestApp::game_of_alice_and_bob(backend);
    for path in [
        "/users/%00",
        "/users/alice%00/games.pgn",
        "/games?player=%00",
    ] {
        let p = alice.get(path);
        assert_eq!(p.status, StatusCode::BAD_REQUEST, "{path}");
        assert!(p.has("NUL"), "{path}: {}", p.body);
    }
    let token = alice.csrf();
    for body in [
        format!("csrf_token={token}&move=e4%00&confirm=1"),
        format!("csrf_token={token}&move=e4\0&confirm=1"),
    ] {
        let p = alice.post_bytes(&format!("/games/{id}/move"), body.into_bytes());
        assert_eq!(p.status, StatusCode::BAD_REQUEST);
    }
    let p = alice.post(&format!("/games/{id}/notes"), &[("note", "a\0b")]);
    assert_eq!(p.status, StatusCode::BAD_REQUEST);
    let p = app
        .client()
        .post("/login", &[("username", "alice\0"), ("password", "x")]);
    assert_eq!(p.status, StatusCode::BAD_REQUEST);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM moves"), 0);
    // "%2500" is a percent sign and two zeros: a note may say so.
    let p = alice.post(&format!("/games/{id}/notes"), &[("note", "100%00 sure")]);
    assert!(
        p.status.is_success() || p.status.is_redirection(),
        "{}",
        p.status
    );
    // The same move without the NUL is played.
    assert_eq!(alice.play(id, "e4").status, StatusCode::SEE_OTHER);
}
