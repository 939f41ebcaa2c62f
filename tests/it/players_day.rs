//! Issue 64's rough edges that show over HTTP, on SQLite and on PostgreSQL.

use crate::common;
use missive::domain::ids::GameId;

use common::{Backend, TestApp};
use reqwest::StatusCode;

both_backends!(
    head_is_answered_like_get,
    takeback_button_only_with_a_move_to_take_back,
    confirming_the_address_drops_its_banner,
    a_record_check_error_ends_with_one_period,
    ratings_are_linked_from_every_page,
    the_rating_chart_is_dated,
    a_finished_game_offers_a_rematch_and_the_next_game,
    conditional_replies_are_marked_as_the_server_s,
    logging_in_returns_to_the_page_that_asked,
    styles_and_scripts_are_named_by_their_content,
    slider_diagrams_capture_to_the_far_end,
);

/// Finding 13: every page answers `HEAD` with `GET`'s status and headers and
/// no body; an unknown page is still 404.
fn head_is_answered_like_get(backend: Backend) {
    let (_app, alice, _bob, id) = TestApp::game_of_alice_and_bob(backend);
    for path in [
        "/".to_string(),
        "/variants".into(),
        "/variants/chess".into(),
        "/tournaments".into(),
        "/help".into(),
        format!("/games/{id}"),
        format!("/games/{id}.pgn"),
        "/static/style.css".into(),
        "/no-such-page".into(),
    ] {
        let url = format!("{}{path}", alice.base);
        let get = alice.http.get(&url).send().unwrap();
        let head = alice.http.head(&url).send().unwrap();
        assert_eq!(head.status(), get.status(), "{path}");
        assert_eq!(
            head.headers().get("content-type"),
            get.headers().get("content-type"),
            "{path}"
        );
        assert!(head.bytes().unwrap().is_empty(), "{path}: HEAD with a body");
        let want = if path == "/no-such-page" {
            StatusCode::NOT_FOUND
        } else {
            StatusCode::OK
        };
        assert_eq!(get.status(), want, "{path}");
    }
}

/// Finding 5: Black, before their first move, has nothing to take back.
fn takeback_button_only_with_a_move_to_take_back(backend: Backend) {
    let (_app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    const ASK: &str = "Ask to take back my last move";
    assert!(!alice.get(&format!("/games/{id}")).has(ASK));
    alice.play(id, "e4");
    assert!(alice.get(&format!("/games/{id}")).has(ASK));
    let page = bob.get(&format!("/games/{id}"));
    assert_eq!(page.status, StatusCode::OK);
    assert!(!page.has(ASK), "{}", page.body);
    bob.play(id, "e5");
    assert!(bob.get(&format!("/games/{id}")).has(ASK));
}

/// Finding 8: the page saying the address is confirmed does not also ask to
/// confirm it.
fn confirming_the_address_drops_its_banner(backend: Backend) {
    let app = TestApp::start(backend);
    let carol = app.user("carol");
    assert!(carol.get("/").has("id=\"verify-notice\""));
    let id = app.user_id("carol");
    let sig = missive::accounts::links::verify_sig(&app.secret(), id, "carol@example.org");
    let page = carol.get(&format!("/verify-email?u={id}&sig={sig}"));
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.has("Address confirmed"), "{}", page.body);
    assert!(!page.has("id=\"verify-notice\""), "{}", page.body);
    assert!(!carol.get("/").has("id=\"verify-notice\""));
}

/// Finding 14: the error of an illegal move ends its sentence once.
fn a_record_check_error_ends_with_one_period(backend: Backend) {
    let app = TestApp::start(backend);
    let c = app.client();
    for record in [
        "[Variant \"chess\"]\n\n1. e4 e5 2. Nxf2 *\n",
        "[Variant \"chess\"]\n\n1. e4 e5 2. Nf3 Nxf2. *\n",
    ] {
        let page = c.post("/records/check", &[("record", record)]);
        assert_eq!(
            page.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            page.body
        );
        let body = common::unescape(&page.body);
        let at = body.find("is illegal:").expect("the error");
        let sentence = &body[at..at + body[at..].find('<').unwrap()];
        assert!(sentence.trim_end().ends_with('.'), "{sentence}");
        assert!(!sentence.contains(".."), "{sentence}");
    }
}

/// Finding 9: `/ratings` lists every variant's rating list, and the site's
/// navigation links to it.
fn ratings_are_linked_from_every_page(backend: Backend) {
    let app = TestApp::start(backend);
    for c in [app.client(), app.user("dora")] {
        assert!(c.get("/").has("<a href=\"/ratings\">"));
        let page = c.get("/ratings");
        assert_eq!(page.status, StatusCode::OK);
        for v in missive_rules::variants() {
            let link = format!("href=\"/ratings/{}\"", v.id());
            assert!(page.has(&link), "{link}");
            assert_eq!(
                c.get(&format!("/ratings/{}", v.id())).status,
                StatusCode::OK
            );
        }
    }
}

/// Alice (White) and Bob play 1. e4 e5, then Bob resigns a rated game.
fn finished_rated_game(backend: Backend) -> (TestApp, common::TestClient, common::TestClient, i32) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let id = alice.new_game(&[
        ("variant", "chess"),
        ("opponent", "bob"),
        ("color", "white"),
        ("rated", "1"),
        ("time_control", "5d/move"),
    ]);
    bob.post(&format!("/games/{id}/accept"), &[]);
    alice.play(id, "e4");
    bob.play(id, "e5");
    let r = bob.post(&format!("/games/{id}/resign"), &[("confirm", "1")]);
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    (app, alice, bob, id.get())
}

/// Finding 9: the profile's rating chart says when its games were played.
fn the_rating_chart_is_dated(backend: Backend) {
    let (_app, alice, _bob, _id) = finished_rated_game(backend);
    let profile = alice.get("/users/alice");
    let chart = &profile.body[profile
        .body
        .find("<svg class=\"rating-chart\"")
        .expect("a chart")..];
    let chart = &chart[..chart.find("</svg>").unwrap()];
    // The game's day under the chart, as the profile's other dates are written.
    let at = chart.find("class=\"date\"").expect("a dated chart");
    let text = &chart[at..];
    let day = &text[text.find('>').unwrap() + 1..text.find("</text>").unwrap()];
    assert!(
        chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").is_ok(),
        "{day}: {chart}"
    );
}

/// Finding 11: a finished game's players are offered a rematch (a
/// challenge with the same settings, colours swapped) and their next game
/// where it is their turn; a visitor is offered neither.
fn a_finished_game_offers_a_rematch_and_the_next_game(backend: Backend) {
    let (app, alice, bob, id) = finished_rated_game(backend);
    // Another game of Alice's where it is her turn.
    let carol = app.user("carol");
    let other = carol.challenge("alice", "black");
    alice.post(&format!("/games/{other}/accept"), &[]);
    let page = alice.get(&format!("/games/{id}"));
    assert!(page.has("id=\"rematch\""), "{}", page.body);
    assert!(
        page.has(&format!("href=\"/games/{other}\" id=\"next-game\"")),
        "{}",
        page.body
    );
    assert!(!app
        .client()
        .get(&format!("/games/{id}"))
        .has("id=\"rematch\""));
    // Bob has no game waiting: the link leads to his games.
    assert!(bob
        .get(&format!("/games/{id}"))
        .has("<a href=\"/\" id=\"next-game\">"));
    // The rematch form, posted as it stands, challenges Bob with Alice Black.
    let form = &page.body[page.body.find("id=\"rematch-form\"").unwrap()..];
    let form = &form[..form.find("</form>").unwrap()];
    let field = |name: &str| {
        let at = form
            .find(&format!("name=\"{name}\" value=\""))
            .unwrap_or_else(|| panic!("{name}"));
        let rest = &form[at + name.len() + 15..];
        common::unescape(&rest[..rest.find('"').unwrap()])
    };
    assert_eq!(field("color"), "black");
    assert_eq!(field("opponent"), "bob");
    let fields: Vec<(String, String)> = [
        "variant",
        "opponent",
        "color",
        "fen",
        "time_control",
        "rated",
    ]
    .iter()
    .map(|n| (n.to_string(), field(n)))
    .collect();
    let refs: Vec<(&str, &str)> = fields
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let again = alice.new_game(&refs);
    let j = alice.json(again);
    assert_eq!(j["black"], "alice", "{j}");
    assert_eq!(j["white"], "bob", "{j}");
    assert_eq!(j["rated"], true, "{j}");
    let old = alice.json(GameId(id));
    assert_eq!(j["time_control"], old["time_control"], "{j}");
    assert_eq!(j["variant"], "chess");
}

/// Finding 12: a move the server played from a conditional line is marked
/// with a command annotation, which no player's comment can imitate, in
/// PGN (read by python-chess) and in the log.
fn conditional_replies_are_marked_as_the_server_s(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.verified_user("alice");
    let bob = app.verified_user("bob");
    let id = alice.challenge("bob", "white");
    bob.post(&format!("/games/{id}/accept"), &[]);
    alice.play(id, "e4");
    let line = alice.post(
        &format!("/games/{id}/conditional"),
        &[("line", "e5 Nf3 // the main line")],
    );
    assert_eq!(line.status, StatusCode::SEE_OTHER, "{}", line.body);
    // Bob's own comment reads like the old mark, and like the new one.
    bob.play(id, "e5 // conditional [%missive conditional]");
    assert_eq!(alice.json(id)["ply"], 3);
    let pgn = alice.get(&format!("/games/{id}.pgn")).body;
    // The old mark is gone; Bob's own words stay his comment, their `[%` broken up.
    assert!(
        !pgn.contains("{conditional}") && !pgn.contains("{conditional:"),
        "{pgn}"
    );
    assert!(
        pgn.contains("{conditional [ %missive conditional]}"),
        "{pgn}"
    );
    let comments = python_chess_comments(&pgn);
    assert_eq!(comments.len(), 3, "{pgn}");
    assert_eq!(comments[2].0, "Nf3");
    assert!(
        comments[2].1.contains("[%missive conditional]") && comments[2].1.contains("the main line"),
        "{comments:?}"
    );
    assert!(
        !comments[1].1.contains("[%missive conditional]"),
        "{comments:?}"
    );
    let log = alice.get(&format!("/games/{id}.txt")).body;
    let nf3 = log.lines().find(|l| l.starts_with("2. ")).expect("move 2");
    assert!(
        nf3.contains("// [%missive conditional] the main line"),
        "{log}"
    );
    let e5 = log.lines().find(|l| l.starts_with("1... ")).expect("1...");
    assert!(!e5.contains("[%missive"), "{log}");
}

/// Each move of the PGN's game as python-chess reads it: its SAN and comment.
fn python_chess_comments(pgn: &str) -> Vec<(String, String)> {
    let script = r#"
import io, json, sys
import chess.pgn
game = chess.pgn.read_game(io.StringIO(sys.stdin.read()))
assert not game.errors, game.errors
out = []
for node in game.mainline():
    out.append([node.san(), node.comment])
print(json.dumps(out))
"#;
    serde_json::from_value(common::python_json(
        script,
        pgn,
        "python-chess (pip install chess==1.11.2; .ci/run does)",
    ))
    .unwrap()
}

/// Finding 14: a page that needs a login links to a login that comes back
/// to it; only this site's paths are followed.
fn logging_in_returns_to_the_page_that_asked(backend: Backend) {
    let app = TestApp::start(backend);
    app.user("erin");
    let c = app.client();
    let page = c.get("/settings/mail");
    assert_eq!(page.status, StatusCode::UNAUTHORIZED);
    assert!(
        page.has("href=\"/login?next=%2Fsettings%2Fmail\""),
        "{}",
        page.body
    );
    let form = c.get("/login?next=%2Fsettings%2Fmail");
    assert!(
        form.has("name=\"next\" value=\"/settings/mail\""),
        "{}",
        form.body
    );
    let r = c.post(
        "/login",
        &[
            ("username", "erin"),
            ("password", "correct horse battery"),
            ("next", "/settings/mail"),
        ],
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(r.location.as_deref(), Some("/settings/mail"));
    assert_eq!(c.get("/settings/mail").status, StatusCode::OK);
    // Elsewhere is not followed.
    let d = app.client();
    let r = d.post(
        "/login",
        &[
            ("username", "erin"),
            ("password", "correct horse battery"),
            ("next", "//evil.example/"),
        ],
    );
    assert_eq!(r.location.as_deref(), Some("/"));
}

/// Finding 14: the style sheet and scripts are linked under names that
/// change with their content, kept for a year.
fn styles_and_scripts_are_named_by_their_content(backend: Backend) {
    let (_app, alice, _bob, id) = TestApp::game_of_alice_and_bob(backend);
    let page = alice.get(&format!("/games/{id}"));
    let mut seen = 0;
    for (stem, ext) in [("style", "css"), ("board", "js"), ("replay", "js")] {
        let at = page
            .body
            .find(&format!("\"/static/{stem}-"))
            .unwrap_or_else(|| panic!("{stem}.{ext} by its hashed name: {}", page.body));
        let rest = &page.body[at + 1..];
        let path = &rest[..rest.find('"').unwrap()];
        let hash = path
            .trim_start_matches(&format!("/static/{stem}-"))
            .trim_end_matches(&format!(".{ext}"));
        assert!(
            hash.len() >= 8 && hash.chars().all(|c| c.is_ascii_hexdigit()),
            "{path}"
        );
        let r = alice
            .http
            .get(format!("{}{path}", alice.base))
            .send()
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK, "{path}");
        let cache = r.headers()["cache-control"].to_str().unwrap().to_string();
        assert!(
            cache.contains("immutable") && cache.contains("max-age=31536000"),
            "{cache}"
        );
        let body = r.text().unwrap();
        let plain = alice.get(&format!("/static/{stem}.{ext}"));
        assert_eq!(body, plain.body, "{path}");
        seen += 1;
    }
    assert_eq!(seen, 3);
    // A name whose hash matches no content is not found.
    assert_eq!(
        alice.get("/static/style-0000000000000000.css").status,
        StatusCode::NOT_FOUND
    );
}

/// Finding 7: the chess legend's Bishop, Rook and Queen diagrams mark every
/// square they reach as move and capture alike (the far corner was a move
/// only).
fn slider_diagrams_capture_to_the_far_end(backend: Backend) {
    let app = TestApp::start(backend);
    let c = app.client();
    let page = c.get("/variants/chess");
    for name in ["Bishop", "Rook", "Queen"] {
        let alt = format!("alt=\"How the {name} moves\"");
        let at = page.body.find(&alt).unwrap_or_else(|| panic!("{name}"));
        let tag_start = page.body[..at].rfind("<img").unwrap();
        let tag = &page.body[tag_start..at + page.body[at..].find('>').unwrap()];
        let src_at = tag.find("src=\"").unwrap() + 5;
        let src = &tag[src_at..src_at + tag[src_at..].find('"').unwrap()];
        let svg = c.get(src).body;
        let moves = svg.matches("class=\"to\"").count();
        let both = svg.matches("class=\"both\"").count();
        assert!(moves >= 13, "{name}: {svg}");
        assert_eq!(moves, both, "{name}: every move is a capture too: {svg}");
        assert!(!svg.contains("class=\"takes\""), "{name}");
    }
}
