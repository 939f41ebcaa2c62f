//! Issue 41 over HTTP, on SQLite and PostgreSQL: app passwords and personal
//! tokens made, shown once, stored hashed and revoked; every JSON API route
//! with a read token and a play token; cookies refused on `/api/`; problem
//! details; posts from other sites; the OpenAPI document read by an outside
//! validator (`openapi-spec-validator`, PyPI).

use crate::common;

use common::{Backend, TestApp, TestClient};
use reqwest::blocking::Client;
use reqwest::StatusCode;
use serde_json::{json, Value};

/// The secret shown once, in `#new-secret`.
pub fn new_secret(body: &str) -> String {
    let tag = "id=\"new-secret\" class=\"secret\">";
    let i = body.find(tag).expect("a new secret on the page") + tag.len();
    common::unescape(&body[i..i + body[i..].find("</code>").unwrap()])
}

fn make_token(c: &TestClient, name: &str, scope: &str) -> String {
    let p = c.post(
        "/settings/tokens",
        &[
            ("name", name),
            ("scope", scope),
            ("current_password", "correct horse battery"),
        ],
    );
    assert_eq!(p.status, StatusCode::OK, "{}", p.body);
    new_secret(&p.body)
}

/// A client of the API: no cookies, a bearer token.
struct Api {
    base: String,
    token: String,
    http: Client,
}

struct Answer {
    status: StatusCode,
    kind: String,
    body: Value,
    headers: reqwest::header::HeaderMap,
}

impl Api {
    fn new(app: &TestApp, token: &str) -> Api {
        Api {
            base: app.base.clone(),
            token: token.to_string(),
            http: Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap(),
        }
    }

    fn answer(r: reqwest::blocking::Response) -> Answer {
        let status = r.status();
        let headers = r.headers().clone();
        let kind = headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let text = r.text().unwrap();
        let body = serde_json::from_str(&text).unwrap_or_else(|_| json!({ "text": text }));
        Answer {
            status,
            kind,
            body,
            headers,
        }
    }

    fn get(&self, path: &str) -> Answer {
        Self::answer(
            self.http
                .get(format!("{}/api/v1{path}", self.base))
                .bearer_auth(&self.token)
                .send()
                .unwrap(),
        )
    }

    fn post(&self, path: &str, body: Value) -> Answer {
        Self::answer(
            self.http
                .post(format!("{}/api/v1{path}", self.base))
                .bearer_auth(&self.token)
                .json(&body)
                .send()
                .unwrap(),
        )
    }
}

/// A refusal as problem details with the page's words.
fn problem(a: &Answer, status: StatusCode, words: &str) {
    assert_eq!(a.status, status, "{:?}", a.body);
    assert_eq!(a.kind, "application/problem+json");
    assert_eq!(a.body["status"], status.as_u16());
    assert!(a.body["title"].is_string());
    let detail = a.body["detail"].as_str().unwrap();
    assert!(detail.contains(words), "{detail:?} should say {words:?}");
}

fn credentials_are_shown_once_stored_hashed_and_revocable(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let page = alice.get("/settings");
    assert!(page.has("href=\"/settings/clients\""));
    let made = alice.post(
        "/settings/app-passwords",
        &[
            ("name", "Scid at home"),
            ("current_password", "correct horse battery"),
        ],
    );
    assert_eq!(made.status, StatusCode::OK);
    let secret = new_secret(&made.body);
    assert!(secret.len() > 40, "{secret}");
    assert!(made.has(&format!("{}/xfcc", app.base)));
    // Only its SHA-256 is stored, and the page never shows it again.
    let hash = {
        use sha2::Digest;
        hex::encode(sha2::Sha256::digest(secret.as_bytes()))
    };
    assert_eq!(
        app.count(&format!(
            "SELECT COUNT(*) AS n FROM api_credentials WHERE secret_hash = '{hash}' \
             AND name = 'Scid at home' AND kind = 'app_password'"
        )),
        1
    );
    let listed = alice.get("/settings/clients");
    assert!(listed.has("Scid at home") && !listed.has(&secret));
    // A token: named, scoped.
    let token = make_token(&alice, "bot", "read");
    assert_ne!(token, secret);
    assert_eq!(Api::new(&app, &token).get("/games").status, StatusCode::OK);
    // An app password is not a token, nor the other way round.
    assert_eq!(
        Api::new(&app, &secret).get("/games").status,
        StatusCode::UNAUTHORIZED
    );
    // Refusals say what to do.
    let p = alice.post(
        "/settings/tokens",
        &[
            ("name", "x"),
            ("scope", "admin"),
            ("current_password", "correct horse battery"),
        ],
    );
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(p.has("read, or play"));
    let p = alice.post(
        "/settings/app-passwords",
        &[
            ("name", "  "),
            ("current_password", "correct horse battery"),
        ],
    );
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(p.has("Give it a name"));
    // Revoking asks first, then the token signs in nowhere.
    let id = app.count("SELECT CAST(MAX(id) AS BIGINT) AS n FROM api_credentials");
    let id = id.to_string();
    let asked = alice.post("/settings/tokens/revoke", &[("id", &id)]);
    assert_eq!(asked.status, StatusCode::OK);
    assert!(asked.has("id=\"revoke-confirm\"") && asked.has("Revoke “bot”?"));
    assert_eq!(Api::new(&app, &token).get("/games").status, StatusCode::OK);
    let done = alice.post("/settings/tokens/revoke", &[("id", &id), ("confirm", "1")]);
    assert_eq!(done.status, StatusCode::SEE_OTHER);
    problem(
        &Api::new(&app, &token).get("/games"),
        StatusCode::UNAUTHORIZED,
        "revoked",
    );
    // Someone else's credential cannot be revoked (nor seen).
    let bob = app.user("bob");
    let app_id = (id.parse::<i64>().unwrap() - 1).to_string();
    let p = bob.post(
        "/settings/app-passwords/revoke",
        &[("id", &app_id), ("confirm", "1")],
    );
    assert_eq!(p.status, StatusCode::NOT_FOUND);
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM api_credentials"),
        1,
        "alice's app password stays"
    );
    // Deleting the account erases its credentials.
    let p = alice.post(
        "/settings/delete",
        &[("password", "correct horse battery"), ("confirm", "1")],
    );
    assert_eq!(p.status, StatusCode::OK);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM api_credentials"), 0);
}

fn every_api_route_with_read_and_play_tokens(backend: Backend) {
    let (app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    let other = alice.challenge("bob", "black");
    assert_eq!(
        bob.post(&format!("/games/{other}/accept"), &[]).status,
        StatusCode::SEE_OTHER
    );
    let a_read = Api::new(&app, &make_token(&alice, "viewer", "read"));
    let a_play = Api::new(&app, &make_token(&alice, "player", "play"));
    let b_play = Api::new(&app, &make_token(&bob, "bob's bot", "play"));
    // Reading: both scopes.
    for api in [&a_read, &a_play] {
        let list = api.get("/games");
        assert_eq!(list.status, StatusCode::OK, "{:?}", list.body);
        assert_eq!(list.body["games"].as_array().unwrap().len(), 2);
        let mine = api.get("/games?my_turn=1");
        let ids: Vec<i64> = mine.body["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_i64().unwrap())
            .collect();
        assert_eq!(
            ids,
            vec![i64::from(id.get())],
            "alice is White in the first game only"
        );
        assert_eq!(api.get("/games?status=finished").body["games"], json!([]));
        let g = api.get(&format!("/games/{id}"));
        assert_eq!(g.status, StatusCode::OK);
        assert_eq!(g.body["ply"], 0);
        assert_eq!(g.body["white"], "alice");
        assert_eq!(
            api.get(&format!("/games/{id}/conditional")).status,
            StatusCode::OK
        );
        let u = api.get("/users/bob");
        assert_eq!(u.status, StatusCode::OK);
        assert_eq!(u.body["username"], "bob");
    }
    problem(
        &a_read.get("/games?status=won"),
        StatusCode::BAD_REQUEST,
        "pending",
    );
    problem(
        &a_read.get("/games?my_turn=yes"),
        StatusCode::BAD_REQUEST,
        "my_turn",
    );
    problem(
        &a_read.get("/users/nobody"),
        StatusCode::NOT_FOUND,
        "no player named",
    );
    problem(&a_read.get("/games/999999"), StatusCode::NOT_FOUND, "");
    problem(
        &a_read.get("/no/such/route"),
        StatusCode::NOT_FOUND,
        "openapi.json",
    );
    // A read token may not act.
    let m = json!({ "move": "e4", "ply": 0 });
    for (path, body) in [
        (format!("/games/{id}/move"), m.clone()),
        (format!("/games/{id}/draw"), json!({ "action": "offer" })),
        (format!("/games/{id}/resign"), json!({})),
        (
            format!("/games/{id}/conditional"),
            json!({ "line": "e5 Nf3" }),
        ),
        (
            format!("/games/{id}/conditional/delete"),
            json!({ "line_id": 1 }),
        ),
    ] {
        problem(
            &a_read.post(&path, body),
            StatusCode::FORBIDDEN,
            "only read",
        );
    }
    assert_eq!(alice.json(id)["ply"], 0);
    // Moves: the pages' reasons, as problems.
    problem(
        &b_play.post(&format!("/games/{id}/move"), json!({ "move": "e5" })),
        StatusCode::FORBIDDEN,
        "not your turn",
    );
    problem(
        &a_play.post(&format!("/games/{id}/move"), json!({ "move": "e5" })),
        StatusCode::UNPROCESSABLE_ENTITY,
        "e5",
    );
    let page = alice.play(id, "Ke2");
    let refused = a_play.post(&format!("/games/{id}/move"), json!({ "move": "Ke2" }));
    problem(&refused, StatusCode::UNPROCESSABLE_ENTITY, "Ke2");
    assert!(
        common::unescape(&page.body).contains(refused.body["detail"].as_str().unwrap()),
        "the page gives the same reason"
    );
    problem(
        &a_play.post(&format!("/games/{id}/move"), json!({ "mov": "e4" })),
        StatusCode::BAD_REQUEST,
        "JSON",
    );
    let played = a_play.post(
        &format!("/games/{id}/move"),
        json!({ "move": "e4", "ply": 0, "comment": "the king's pawn" }),
    );
    assert_eq!(played.status, StatusCode::OK, "{:?}", played.body);
    assert_eq!(played.body["ply"], 1);
    assert_eq!(played.body["moves"][0]["notation"], "e4");
    assert_eq!(played.body["moves"][0]["comment"], "the king's pawn");
    // The position changed: nothing is played.
    problem(
        &b_play.post(
            &format!("/games/{id}/move"),
            json!({ "move": "e5", "ply": 0 }),
        ),
        StatusCode::CONFLICT,
        "position has changed",
    );
    // Conditional lines while it is bob's turn.
    let added = a_play.post(
        &format!("/games/{id}/conditional"),
        json!({ "line": "e5 Nf3" }),
    );
    assert_eq!(added.status, StatusCode::CREATED, "{:?}", added.body);
    let lines = added.body["conditional_lines"].as_array().unwrap().clone();
    assert_eq!(lines.len(), 1);
    assert_eq!(
        a_read.get(&format!("/games/{id}")).body["conditional_lines"],
        json!(lines)
    );
    assert_eq!(
        b_play.get(&format!("/games/{id}/conditional")).body["conditional_lines"],
        json!([]),
        "bob never sees alice's lines"
    );
    problem(
        &a_play.post(
            &format!("/games/{id}/conditional"),
            json!({ "line": "e5 Ke3" }),
        ),
        StatusCode::UNPROCESSABLE_ENTITY,
        "Ply 2",
    );
    let line_id = lines[0]["id"].clone();
    let deleted = a_play.post(
        &format!("/games/{id}/conditional/delete"),
        json!({ "line_id": line_id }),
    );
    assert_eq!(deleted.status, StatusCode::OK);
    assert_eq!(deleted.body["conditional_lines"], json!([]));
    let b = b_play.post(
        &format!("/games/{id}/move"),
        json!({ "move": "e5", "ply": 1 }),
    );
    assert_eq!(b.status, StatusCode::OK, "{:?}", b.body);
    // Draws: offered, then accepted.
    let offered = a_play.post(&format!("/games/{id}/draw"), json!({ "action": "offer" }));
    assert_eq!(offered.status, StatusCode::OK, "{:?}", offered.body);
    assert_eq!(offered.body["draw_offer"], "white");
    let drawn = b_play.post(&format!("/games/{id}/draw"), json!({ "action": "accept" }));
    assert_eq!(drawn.body["status"], "finished");
    assert_eq!(drawn.body["result"], "1/2-1/2");
    problem(
        &a_play.post(&format!("/games/{id}/move"), json!({ "move": "Nf3" })),
        StatusCode::FORBIDDEN,
        "over",
    );
    // Resigning the other game.
    let r = b_play.post(&format!("/games/{other}/resign"), json!({}));
    assert_eq!(r.status, StatusCode::OK, "{:?}", r.body);
    assert_eq!(r.body["status"], "finished");
    assert_eq!(
        a_read.get("/games?status=finished").body["games"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    // A stranger's token: a game they do not play in is theirs to read,
    // never to act in.
    let carol = app.user("carol");
    let c_play = Api::new(&app, &make_token(&carol, "c", "play"));
    let third = alice.challenge("bob", "white");
    bob.post(&format!("/games/{third}/accept"), &[]);
    problem(
        &c_play.post(&format!("/games/{third}/move"), json!({ "move": "e4" })),
        StatusCode::FORBIDDEN,
        "not playing in this game",
    );
    problem(
        &c_play.post(&format!("/games/{third}/resign"), json!({})),
        StatusCode::FORBIDDEN,
        "",
    );
    assert_eq!(alice.json(third)["status"], "active");
}

fn cookies_are_not_accepted_on_the_api(backend: Backend) {
    let (app, alice, _bob, id) = TestApp::game_of_alice_and_bob(backend);
    // A logged-in browser's cookies: refused, saying why.
    let r = alice
        .http
        .get(format!("{}/api/v1/games", app.base))
        .send()
        .unwrap();
    let a = Api::answer(r);
    problem(&a, StatusCode::UNAUTHORIZED, "Cookies are not accepted");
    assert!(a.headers.contains_key("www-authenticate"));
    let r = alice
        .http
        .post(format!("{}/api/v1/games/{id}/move", app.base))
        .json(&json!({ "move": "e4" }))
        .send()
        .unwrap();
    problem(
        &Api::answer(r),
        StatusCode::UNAUTHORIZED,
        "Cookies are not accepted",
    );
    assert_eq!(alice.json(id)["ply"], 0);
    // No token at all, a made-up one, another scheme.
    let anon = Api::new(&app, "");
    let r = anon
        .http
        .get(format!("{}/api/v1/games", app.base))
        .send()
        .unwrap();
    problem(
        &Api::answer(r),
        StatusCode::UNAUTHORIZED,
        "Authorization: Bearer",
    );
    problem(
        &Api::new(&app, "mxt_0000").get("/games"),
        StatusCode::UNAUTHORIZED,
        "not one",
    );
    let r = anon
        .http
        .get(format!("{}/api/v1/games", app.base))
        .basic_auth("alice", Some("correct horse battery"))
        .send()
        .unwrap();
    problem(&Api::answer(r), StatusCode::UNAUTHORIZED, "Bearer");
    // A disabled account's tokens stop working.
    let token = make_token(&alice, "t", "read");
    assert_eq!(Api::new(&app, &token).get("/games").status, StatusCode::OK);
    missive::accounts::disabling::disable(&mut app.db(), "alice", missive::web::now()).unwrap();
    assert_eq!(
        Api::new(&app, &token).get("/games").status,
        StatusCode::UNAUTHORIZED
    );
}

/// The cross-site check of form posts stays for cookie forms; a program's
/// post (bearer token) from a page on another site passes.
fn posts_from_other_sites(backend: Backend) {
    let (app, alice, _bob, id) = TestApp::game_of_alice_and_bob(backend);
    let token = make_token(&alice, "web app", "play");
    let foreign = |rb: reqwest::blocking::RequestBuilder| {
        rb.header("Origin", "https://elsewhere.example")
            .header("Sec-Fetch-Site", "cross-site")
    };
    let csrf = alice.csrf();
    let r = foreign(alice.http.post(format!("{}/games/{id}/move", app.base)))
        .form(&[
            ("csrf_token", csrf.as_str()),
            ("move", "e4"),
            ("confirm", "1"),
        ])
        .send()
        .unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    let api = Api::new(&app, &token);
    let r = foreign(
        api.http
            .post(format!("{}/api/v1/games/{id}/move", app.base)),
    )
    .bearer_auth(&token)
    .json(&json!({ "move": "e4" }))
    .send()
    .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(alice.json(id)["ply"], 1);
}

fn the_openapi_document_passes_an_outside_validator(backend: Backend) {
    let app = TestApp::start(backend);
    let r = reqwest::blocking::get(format!("{}/api/v1/openapi.json", app.base)).unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let doc: Value = r.json().unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["servers"][0]["url"], format!("{}/api/v1", app.base));
    // Every route of the API's scope is described.
    for (method, path) in common::declared_routes() {
        let Some(rest) = path.strip_prefix("/api/v1") else {
            continue;
        };
        assert!(
            doc["paths"][rest][method].is_object(),
            "{method} {path} is not in the OpenAPI document"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("openapi.json");
    std::fs::write(&file, doc.to_string()).unwrap();
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, json; from openapi_spec_validator import validate; \
             validate(json.load(open(sys.argv[1]))); print('valid')",
        ])
        .arg(&file)
        .output()
        .expect("python3 (with openapi-spec-validator==0.7.1 from PyPI; .ci/run installs it)");
    assert!(
        out.status.success() && String::from_utf8_lossy(&out.stdout).contains("valid"),
        "openapi-spec-validator refused the document: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

both_backends!(
    credentials_are_shown_once_stored_hashed_and_revocable,
    every_api_route_with_read_and_play_tokens,
    cookies_are_not_accepted_on_the_api,
    posts_from_other_sites,
    the_openapi_document_passes_an_outside_validator,
);
