//! Every route the server declares, GET and POST, driven with hostile path
//! parts, query strings and form fields (read from the handlers' own form
//! structs), as a director with a valid CSRF token and as a stranger: never
//! a 5xx, and the server still serves and stores moves afterwards. On
//! SQLite and on PostgreSQL.

use crate::common;
use missive::domain::ids::GameId;

use common::{declared_fields, declared_routes, Backend, TestApp, TestClient};
use missive::db::tournament_games;
use missive::tournaments::directors;
use missive::tournaments::entry;
use missive::tournaments::entry::TournamentForm;
use missive::tournaments::rounds;
use rand::{seq::SliceRandom, Rng, SeedableRng};
use reqwest::StatusCode;

both_backends!(
    every_route_survives_hostile_input,
    nul_is_refused_alike,
    hostile_cookies_and_headers,
);

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

/// The ids a sweep puts in path parts: games and tournaments in different
/// states, so handlers go deep, not only into "not found".
struct Ids {
    games: Vec<GameId>,
    tournaments: Vec<i32>,
}

/// What a path part may be: the real things, or anything hostile.
fn path_values(param: &str, ids: &Ids) -> Vec<String> {
    let real: Vec<String> = match param {
        "name" => vec!["alice".into(), "nobody".into()],
        "file" => vec!["style.css".into(), "nope.css".into()],
        _ => ids
            .games
            .iter()
            .map(GameId::to_string)
            .chain(ids.tournaments.iter().map(i32::to_string))
            .collect(),
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

/// Every declared route as `client`: each real path part with every field
/// set to each hostile value and with random mixtures, each hostile path
/// part with a few; form bodies also unreadable and empty. `/logout` last.
fn sweep_as(
    sweep: &mut Sweep,
    routes: &[(&str, String)],
    fields: &[String],
    ids: &Ids,
    rng: &mut rand::rngs::StdRng,
) {
    let real = ids.games.len().max(2);
    let token = sweep.client.csrf();
    let (last, first): (Vec<_>, Vec<_>) = routes.iter().partition(|(_, p)| p == "/logout");
    for (method, pattern) in first.into_iter().chain(last) {
        let paths: Vec<String> = match param_of(pattern) {
            Some(param) => path_values(param, ids)
                .iter()
                .map(|v| fill(pattern, v))
                .collect(),
            None => vec![pattern.clone()],
        };
        for (i, path) in paths.iter().enumerate() {
            let (same, mixed) = if i < real { (HOSTILE.len(), 8) } else { (3, 2) };
            let mut bodies: Vec<String> = HOSTILE
                .choose_multiple(rng, same)
                .map(|v| encoded(fields, || v.to_string()))
                .collect();
            for _ in 0..mixed {
                bodies.push(encoded(fields, || {
                    if rng.gen_bool(0.1) {
                        "x".repeat(rng.gen_range(100..20_000))
                    } else {
                        HOSTILE.choose(rng).unwrap().to_string()
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
}

fn every_route_survives_hostile_input(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let carol = app.user("carol");
    app.user("dave");
    let game = alice.challenge("bob", "white");
    assert_eq!(
        bob.post(&format!("/games/{game}/accept"), &[]).status,
        StatusCode::SEE_OTHER
    );
    assert_eq!(alice.play(game, "e4").status, StatusCode::SEE_OTHER);
    let challenge = carol.challenge("bob", "black");
    // Alice directs an open tournament bob has joined and a running one
    // of bob, carol and dave.
    let (open, running, tournament_game) = {
        let conn = &mut app.db();
        let now = missive::web::now();
        let director = directors::set_director(conn, "alice", true).unwrap();
        let day = |d: i64| {
            (now + chrono::Duration::days(d))
                .format("%Y-%m-%d")
                .to_string()
        };
        let form = |name: &str, closes: String| TournamentForm {
            name: name.into(),
            variant: "chess".into(),
            time_control: "3d/move".into(),
            format: "round-robin".into(),
            entry_closes: closes,
            max_players: "8".into(),
            ..TournamentForm::default()
        };
        let open = entry::create(conn, &director, &form("Open", day(3)), now).unwrap();
        let running = entry::create(conn, &director, &form("Running", day(1)), now).unwrap();
        for name in ["bob", "carol", "dave"] {
            let u = missive::db::users::find_by_name(conn, name)
                .unwrap()
                .unwrap();
            entry::join(conn, running, &u, now).unwrap();
        }
        let bob_user = missive::db::users::find_by_name(conn, "bob")
            .unwrap()
            .unwrap();
        entry::join(conn, open, &bob_user, now).unwrap();
        let started = rounds::sweep(conn, now + chrono::Duration::days(2)).unwrap();
        assert_eq!(started, vec![running]);
        let first = tournament_games::of_tournament(conn, running).unwrap()[0].id;
        (open, running, first)
    };
    let ids = Ids {
        games: vec![game, challenge, tournament_game],
        tournaments: vec![open, running],
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
    let mut rng = rand::rngs::StdRng::seed_from_u64(20261125);
    // A player of every game and tournament, the director, and a stranger.
    let stranger = app.client();
    let mut sweeps = Vec::new();
    for client in [&bob, &alice, &stranger] {
        let mut sweep = Sweep {
            client,
            failures: Vec::new(),
            requests: 0,
        };
        sweep_as(&mut sweep, &routes, &fields, &ids, &mut rng);
        sweeps.push(sweep);
    }
    let requests: usize = sweeps.iter().map(|s| s.requests).sum();
    let failures: Vec<String> = sweeps.into_iter().flat_map(|s| s.failures).collect();
    assert!(
        failures.is_empty(),
        "{} of {requests} requests failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(requests > 20_000, "{requests} requests");
    eprintln!(
        "{requests} requests over {} routes and {} fields",
        routes.len(),
        fields.len()
    );
    // The server still serves, and stores moves in a new game. (Bob's and
    // Alice's sessions ended with their sweeps' logouts, and their names
    // were tried with wrong passwords: their logins are slowed now.)
    assert_eq!(app.client().get("/healthz").status, StatusCode::OK);
    let erin = app.user("erin");
    let fay = app.user("fay");
    let fresh = erin.challenge("fay", "white");
    assert_eq!(
        fay.post(&format!("/games/{fresh}/accept"), &[]).status,
        StatusCode::SEE_OTHER
    );
    assert_eq!(erin.play(fresh, "d4").status, StatusCode::SEE_OTHER);
    assert_eq!(fay.play(fresh, "d5").status, StatusCode::SEE_OTHER);
}

/// PostgreSQL refuses NUL in text and SQLite stores it: both answer 404
/// (in the path) or 400 (in a query or a form) before any handler runs,
/// and nothing is stored.
fn nul_is_refused_alike(backend: Backend) {
    let (app, alice, _bob, id) = TestApp::game_of_alice_and_bob(backend);
    for path in ["/users/%00", "/users/alice%00/games.pgn", "/games/%00"] {
        assert_eq!(alice.get(path).status, StatusCode::NOT_FOUND, "{path}");
    }
    for path in ["/games?player=%00", "/users/alice?x=%00"] {
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

/// Forged, broken and oversized cookies and odd content types: never a
/// 5xx, never someone's session, never a stored move.
fn hostile_cookies_and_headers(backend: Backend) {
    let (app, alice, _bob, id) = TestApp::game_of_alice_and_bob(backend);
    let token = alice.csrf();
    let long = "a".repeat(6000);
    let cookies: Vec<Vec<u8>> = vec![
        b"missive_session=%00".to_vec(),
        format!("missive_session={long}").into_bytes(),
        b"missive_session=\xff\xfe; missive_csrf=\x80".to_vec(),
        format!("missive_session=x; missive_session=y; missive_csrf={token}").into_bytes(),
        format!("missive_csrf={token}; missive_csrf=other").into_bytes(),
        b"missive_session".to_vec(),
        b";;;===;".to_vec(),
        b"missive_session=\"quoted\"; missive_csrf=".to_vec(),
    ];
    let client = reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let base = &app.base;
    // The control: a real session shows its logout button.
    assert!(alice.get("/").has("action=\"/logout\""));
    for cookie in &cookies {
        let value = reqwest::header::HeaderValue::from_bytes(cookie).unwrap();
        for path in [
            "/",
            format!("/games/{id}").as_str(),
            "/settings/mail",
            "/director",
        ] {
            let r = client
                .get(format!("{base}{path}"))
                .header("cookie", value.clone())
                .send()
                .unwrap();
            assert!(
                r.status().as_u16() < 500,
                "{path} {cookie:?}: {}",
                r.status()
            );
            assert!(
                !r.text().unwrap().contains("action=\"/logout\""),
                "{path} {cookie:?}: a forged cookie is nobody"
            );
        }
        for content_type in [
            "application/x-www-form-urlencoded",
            "application/x-www-form-urlencoded; charset=latin1",
            "text/plain",
            "multipart/form-data; boundary=x",
            "application/json",
        ] {
            let r = client
                .post(format!("{base}/games/{id}/move"))
                .header("cookie", value.clone())
                .header("content-type", content_type)
                .body(format!("csrf_token={token}&move=e4&confirm=1"))
                .send()
                .unwrap();
            let status = r.status();
            assert!(
                status.is_client_error(),
                "{cookie:?} {content_type}: {status}"
            );
        }
    }
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM moves"), 0);
    assert_eq!(alice.play(id, "e4").status, StatusCode::SEE_OTHER);
}
