//! Issue 64's rough edges that show over HTTP, on SQLite and on PostgreSQL.

mod common;

use common::{Backend, TestApp};
use reqwest::StatusCode;

both_backends!(
    head_is_answered_like_get,
    takeback_button_only_with_a_move_to_take_back,
    confirming_the_address_drops_its_banner,
    a_record_check_error_ends_with_one_period,
    ratings_are_linked_from_every_page,
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
