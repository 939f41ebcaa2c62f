//! Takebacks by consent over HTTP, on SQLite and PostgreSQL.

use crate::common;
use missive::domain::ids::GameId;

use common::{Backend, TestApp, TestClient};
use reqwest::StatusCode;

fn takeback(c: &TestClient, id: GameId, action: &str) -> common::Page {
    c.post(&format!("/games/{id}/takeback"), &[("action", action)])
}

fn notations(j: &serde_json::Value) -> Vec<String> {
    j["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["notation"].as_str().unwrap().to_string())
        .collect()
}

/// The asker has just moved: their move goes, and they are to move again,
/// with their clock as it was before it; the game then goes on differently.
fn a_takeback_of_ones_own_last_move(backend: Backend) {
    let (_app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    alice.play(id, "e4");
    bob.play(id, "e5");
    let before = alice.json(id);
    alice.play(id, "Nf3");
    assert_eq!(takeback(&alice, id, "offer").status, StatusCode::SEE_OTHER);
    assert_eq!(bob.json(id)["takeback_offer"], "white");
    let page = bob.get(&format!("/games/{id}"));
    assert!(page.has("Your opponent asks to take back"), "{}", page.body);
    // Only the other player accepts.
    assert_eq!(
        takeback(&alice, id, "accept").status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(takeback(&bob, id, "accept").status, StatusCode::SEE_OTHER);
    let j = alice.json(id);
    assert_eq!(j["ply"], 2);
    assert_eq!(j["side_to_move"], "white");
    assert_eq!(notations(&j), vec!["e4", "e5"]);
    assert_eq!(j["fen"], before["fen"]);
    assert!(j["takeback_offer"].is_null());
    assert_eq!(
        j["clock"]["white_left_secs"],
        before["clock"]["white_left_secs"]
    );
    let events: Vec<&str> = j["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(events, vec!["takeback-asked", "takeback"]);
    assert!(j["events"][1]["detail"]
        .as_str()
        .unwrap()
        .contains("ply 3 taken back: Nf3"));
    // The page says so; the game goes on with another move at ply 3.
    assert!(alice
        .get(&format!("/games/{id}"))
        .has("Taken back by agreement"));
    assert_eq!(alice.play(id, "Bc4").status, StatusCode::SEE_OTHER);
    assert_eq!(notations(&bob.json(id)), vec!["e4", "e5", "Bc4"]);
    let pgn = bob.get(&format!("/games/{id}.pgn")).body;
    assert!(pgn.contains("2. Bc4"), "{pgn}");
    assert!(!pgn.contains("Nf3"), "{pgn}");
    // The page after the takeback shows the new move, not a kept old one.
    let page = bob.get(&format!("/games/{id}"));
    assert!(
        page.has(">Bc4</a>") && !page.has(">Nf3</a>"),
        "{}",
        page.body
    );
}

/// The asker is to move (the opponent answered): both plies go.
fn a_takeback_after_the_answer_takes_two_plies(backend: Backend) {
    let (_app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    alice.play(id, "e4");
    bob.play(id, "e5");
    alice.play(id, "Nf3");
    bob.play(id, "Nc6");
    assert_eq!(takeback(&alice, id, "offer").status, StatusCode::SEE_OTHER);
    assert_eq!(takeback(&bob, id, "accept").status, StatusCode::SEE_OTHER);
    let j = bob.json(id);
    assert_eq!(j["ply"], 2);
    assert_eq!(j["side_to_move"], "white");
    assert_eq!(notations(&j), vec!["e4", "e5"]);
    // Back at the start: nothing left of Bob's to take back after his e5 goes.
    assert_eq!(takeback(&bob, id, "offer").status, StatusCode::SEE_OTHER);
    assert_eq!(takeback(&alice, id, "accept").status, StatusCode::SEE_OTHER);
    assert_eq!(bob.json(id)["ply"], 1);
    assert_eq!(bob.json(id)["side_to_move"], "black");
}

fn a_takeback_can_be_refused(backend: Backend) {
    let (_app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    assert_eq!(
        takeback(&alice, id, "offer").status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    alice.play(id, "e4");
    assert_eq!(takeback(&alice, id, "offer").status, StatusCode::SEE_OTHER);
    assert_eq!(
        takeback(&alice, id, "offer").status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(takeback(&bob, id, "decline").status, StatusCode::SEE_OTHER);
    let j = alice.json(id);
    assert_eq!(j["ply"], 1);
    assert!(j["takeback_offer"].is_null());
    assert_eq!(
        takeback(&bob, id, "accept").status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(takeback(&bob, id, "maybe").status, StatusCode::BAD_REQUEST);
    // A move answers the request too: it is then about a position gone.
    assert_eq!(takeback(&alice, id, "offer").status, StatusCode::SEE_OTHER);
    bob.play(id, "e5");
    assert_eq!(
        takeback(&bob, id, "accept").status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
}

/// Conditional lines were checked against the position taken back: gone.
fn a_takeback_drops_conditional_lines(backend: Backend) {
    let (app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    alice.play(id, "e4");
    bob.play(id, "e5");
    alice.play(id, "Nf3");
    bob.play(id, "Nc6");
    let line = bob.post(&format!("/games/{id}/conditional"), &[("line", "Bc4 Nf6")]);
    assert_eq!(line.status, StatusCode::SEE_OTHER, "{}", line.body);
    assert_eq!(takeback(&alice, id, "offer").status, StatusCode::SEE_OTHER);
    assert_eq!(takeback(&bob, id, "accept").status, StatusCode::SEE_OTHER);
    assert_eq!(
        app.count(&format!(
            "SELECT COUNT(*) AS n FROM conditional_lines WHERE game_id = {id}"
        )),
        0
    );
    alice.play(id, "Bc4");
    assert_eq!(bob.json(id)["ply"], 3);
}

fn no_takebacks_in_tournament_games(backend: Backend) {
    let app = TestApp::start(backend);
    app.user("alice");
    let bob = app.user("bob");
    app.user("carol");
    let game = common::tournament_game(&app, "alice", &["bob", "carol"]);
    let p = takeback(&bob, game.id, "offer");
    assert_eq!(p.status, StatusCode::FORBIDDEN, "{}", p.body);
    assert!(p.has("not allowed in tournament games"), "{}", p.body);
}

both_backends!(
    a_takeback_of_ones_own_last_move,
    a_takeback_after_the_answer_takes_two_plies,
    a_takeback_can_be_refused,
    a_takeback_drops_conditional_lines,
    no_takebacks_in_tournament_games,
    the_opponent_is_mailed_a_takeback_request,
);

/// A request reaches the opponent by mail, which links the game; once
/// answered before it goes out, it is not sent.
fn the_opponent_is_mailed_a_takeback_request(backend: Backend) {
    use missive::db::outbox;
    use missive::domain::mail_kind::MailKind;
    use missive::mail::{context::MailCtx, render};
    let app = TestApp::start(backend);
    let (alice, bob) = (app.verified_user("alice"), app.verified_user("bob"));
    let id = alice.challenge("bob", "white");
    bob.post(&format!("/games/{id}/accept"), &[]);
    alice.play(id, "e4");
    bob.play(id, "e5");
    let asks = |app: &TestApp| -> Vec<outbox::OutboxRow> {
        outbox::all(&mut app.db())
            .unwrap()
            .into_iter()
            .filter(|m| m.kind == MailKind::TakebackOffer)
            .collect()
    };
    assert!(asks(&app).is_empty());
    assert_eq!(takeback(&alice, id, "offer").status, StatusCode::SEE_OTHER);
    let queued = asks(&app);
    assert_eq!(queued.len(), 1);
    assert_eq!(queued[0].user_id, app.user_id("bob"));
    let ctx = MailCtx::new(&app.config, &app.secret()).unwrap();
    let now = missive::web::now();
    let mail = render::render(&mut app.db(), &ctx, &queued[0], now)
        .unwrap()
        .expect("an open request is mailed");
    assert_eq!(
        mail.subject,
        format!("alice asks to take back a move (game {id})")
    );
    assert!(mail.text.contains(&format!("/games/{id}")), "{}", mail.text);
    assert!(mail
        .html
        .contains("<strong>alice</strong> asks to take back"));
    // Declined before the mail went out: nothing is sent.
    assert_eq!(takeback(&bob, id, "decline").status, StatusCode::SEE_OTHER);
    assert!(render::render(&mut app.db(), &ctx, &queued[0], now)
        .unwrap()
        .is_none());
}
