//! Browser notifications end to end (issue 64): a player subscribes on
//! `/settings/notifications` as `static/push.js` does, events queue
//! notifications in the push outbox, and the push drain posts them to a
//! push service on loopback that checks the VAPID token and decrypts each
//! message as the browser would (`push_kit::receiver`). On SQLite, and on
//! PostgreSQL when `MISSIVE_TEST_POSTGRES_URL` is set.

use crate::common;
#[path = "push_kit/receiver.rs"]
mod receiver;

use chrono::Duration;
use common::{Backend, TestApp, TestClient};
use missive::push::drain::{drain_once, PushReport};
use missive::push::Pusher;
use receiver::Receiver;
use reqwest::StatusCode;

both_backends!(
    each_kind_reaches_the_browser_encrypted_and_signed,
    switches_mute_their_kinds,
    a_gone_browser_is_forgotten,
    a_crash_or_restart_sends_nothing_twice,
    subscriptions_are_checked,
);

fn app(backend: Backend) -> TestApp {
    TestApp::start_with(backend, |c| c.push_any_endpoint = true)
}

/// A push worker of the test's own, its links to this server.
fn pusher(app: &TestApp, owner: &str) -> Pusher {
    let mut p = Pusher::new(&app.config, &mut app.db(), owner.into()).unwrap();
    p.base_url = app.base.clone();
    p
}

fn drain(app: &TestApp, p: &Pusher, now: chrono::NaiveDateTime) -> PushReport {
    drain_once(&mut app.db(), p, now).unwrap()
}

/// The page's VAPID key, as `push.js` reads it.
fn page_key(c: &TestClient) -> String {
    let page = c.get("/settings/notifications");
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let at = page.body.find("data-key=\"").expect("data-key") + 10;
    page.body[at..].split('"').next().unwrap().to_string()
}

/// Subscribe `c`'s browser named `name` as `push.js` posts it.
fn subscribe(c: &TestClient, push: &Receiver, name: &str) -> String {
    let (endpoint, json) = push.browser(name);
    let r = c.post(
        "/settings/notifications/subscribe",
        &[("subscription", json.as_str())],
    );
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    endpoint
}

fn now() -> chrono::NaiveDateTime {
    missive::web::now()
}

fn each_kind_reaches_the_browser_encrypted_and_signed(backend: Backend) {
    let app = app(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let p = pusher(&app, "w1");
    let push = Receiver::start(&page_key(&bob));
    // Neither address is confirmed: notifications do not wait for mail.
    subscribe(&bob, &push, "bob-phone");
    let page = bob.get("/settings/notifications");
    assert!(page.has("One browser gets"), "{}", page.body);
    let id = alice.new_game(&[
        ("variant", "chess"),
        ("opponent", "bob"),
        ("color", "white"),
        ("time_control", "3d/move"),
    ]);
    bob.post(&format!("/games/{id}/accept"), &[]);
    alice.play(id, "e4 // hello");
    assert_eq!(drain(&app, &p, now()).sent, 1);
    let got = push.received();
    assert_eq!(push.faults(), Vec::<String>::new());
    assert_eq!(got.len(), 1);
    let m = &got[0].message;
    assert_eq!(m["kind"], "your_turn");
    assert_eq!(m["url"], format!("{}/games/{id}", app.base));
    assert_eq!(m["title"], "Your move against alice");
    assert!(
        m["body"].as_str().unwrap().contains("alice played e4"),
        "{m}"
    );
    assert_eq!(got[0].header("urgency"), Some("high"));
    assert_eq!(got[0].header("topic"), Some(format!("game-{id}").as_str()));
    // Offers.
    alice.post(&format!("/games/{id}/draw"), &[("action", "offer")]);
    drain(&app, &p, now());
    let m = &push.received()[1].message;
    assert_eq!(
        (m["kind"].as_str(), m["title"].as_str()),
        (Some("draw_offer"), Some("alice offers a draw"))
    );
    bob.play(id, "e5");
    alice.play(id, "Nf3");
    let r = alice.post(&format!("/games/{id}/takeback"), &[("action", "offer")]);
    assert!(r.status.is_redirection(), "{}", r.body);
    drain(&app, &p, now());
    let kinds: Vec<String> = push
        .received()
        .iter()
        .map(|r| r.message["kind"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        kinds,
        ["your_turn", "draw_offer", "your_turn", "takeback_offer"]
    );
    // The clock reminder: 3 days a move, reminded with a day left.
    bob.post(&format!("/games/{id}/takeback"), &[("action", "decline")]);
    let later = now() + Duration::hours(49);
    let swept = missive::clocks::forfeit::sweep_report(&mut app.db(), later).unwrap();
    assert_eq!(swept.reminders, 1);
    drain(&app, &p, later);
    let m = &push.received().last().unwrap().message.clone();
    assert_eq!(m["kind"], "clock_reminder");
    assert!(m["body"].as_str().unwrap().contains("left"), "{m}");
    // Game over.
    bob.post(&format!("/games/{id}/resign"), &[("confirm", "1")]);
    drain(&app, &p, later);
    let m = &push.received().last().unwrap().message.clone();
    assert_eq!(m["kind"], "game_over");
    assert_eq!(m["title"], "Game over against alice");
    assert!(m["body"].as_str().unwrap().contains("White wins"), "{m}");
    // A tournament round.
    app.user("carol");
    let g = common::tournament_game(&app, "carol", &["alice", "bob"]);
    drain(&app, &p, now() + Duration::days(2));
    let got = push.received();
    let last = got
        .iter()
        .map(|r| r.message.clone())
        .find(|m| m["kind"] == "tournament_round")
        .unwrap_or_else(|| panic!("a tournament round in {got:?}"));
    let t = g.tournament_id.unwrap();
    assert_eq!(last["url"], format!("{}/tournaments/{t}", app.base));
    assert!(last["title"].as_str().unwrap().starts_with("Cup"), "{last}");
    assert_eq!(push.faults(), Vec::<String>::new());
}

fn switches_mute_their_kinds(backend: Backend) {
    let (app, alice, bob, id) =
        TestApp::game_of_alice_and_bob_with(backend, |c| c.push_any_endpoint = true);
    let p = pusher(&app, "w1");
    let push = Receiver::start(&page_key(&bob));
    subscribe(&bob, &push, "bob");
    // Everything on but offers.
    let r = bob.post(
        "/settings/notifications",
        &[
            ("your_turn", "1"),
            ("reminders", "1"),
            ("game_over", "1"),
            ("tournament_round", "1"),
        ],
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let page = bob.get("/settings/notifications?saved=1");
    assert!(page.has(r#"name="offers" value="1">"#), "{}", page.body);
    assert!(page.has(r#"name="your_turn" value="1" checked>"#));
    alice.post(&format!("/games/{id}/draw"), &[("action", "offer")]);
    alice.play(id, "e4");
    drain(&app, &p, now());
    let kinds: Vec<_> = push
        .received()
        .iter()
        .map(|r| r.message["kind"].clone())
        .collect();
    assert_eq!(kinds, ["your_turn"]);
}

fn count(app: &TestApp, sql: &str) -> i64 {
    app.count(&format!("SELECT COUNT(*) AS n FROM {sql}"))
}

fn a_gone_browser_is_forgotten(backend: Backend) {
    let (app, alice, bob, id) =
        TestApp::game_of_alice_and_bob_with(backend, |c| c.push_any_endpoint = true);
    let p = pusher(&app, "w1");
    let push = Receiver::start(&page_key(&bob));
    subscribe(&bob, &push, "laptop");
    subscribe(&bob, &push, "old-phone");
    push.gone("old-phone");
    alice.play(id, "e4");
    let r = drain(&app, &p, now());
    assert_eq!((r.sent, r.gone), (1, 1), "{r:?}");
    assert_eq!(push.received().len(), 1);
    assert_eq!(push.received()[0].path, "/push/laptop");
    assert_eq!(count(&app, "push_subscriptions"), 1);
    assert_eq!(
        count(&app, "push_subscriptions WHERE endpoint LIKE '%old-phone'"),
        0
    );
    // Nothing more goes to it, and nothing is left queued.
    bob.play(id, "e5");
    alice.play(id, "Nf3");
    assert_eq!(drain(&app, &p, now()).sent, 1);
    assert_eq!(count(&app, "push_outbox WHERE sent_at IS NULL"), 0);
    assert_eq!(push.received().len(), 2);
    // Turned off in the browser, and every browser forgotten.
    let endpoint = format!("{}/push/laptop", push.origin);
    let r = bob.post(
        "/settings/notifications/unsubscribe",
        &[("endpoint", endpoint.as_str())],
    );
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(count(&app, "push_subscriptions"), 0);
    subscribe(&bob, &push, "tablet");
    assert_eq!(
        bob.post("/settings/notifications/forget", &[]).status,
        StatusCode::SEE_OTHER
    );
    assert_eq!(count(&app, "push_subscriptions"), 0);
}

fn a_crash_or_restart_sends_nothing_twice(backend: Backend) {
    let (mut app, alice, bob, id) =
        TestApp::game_of_alice_and_bob_with(backend, |c| c.push_any_endpoint = true);
    let push = Receiver::start(&page_key(&bob));
    subscribe(&bob, &push, "bob");
    alice.play(id, "e4");
    // A worker claims the message and dies before sending it.
    let t = now();
    let ids = missive::db::push::due(&mut app.db(), t, 50).unwrap();
    let lease = Duration::seconds(60);
    let claimed = missive::db::push::claim_batch(&mut app.db(), &ids, "dead", t, lease).unwrap();
    assert_eq!(claimed.len(), 1);
    // While its lease holds, no other worker sends it.
    let p = pusher(&app, "w2");
    assert_eq!(
        drain(&app, &p, t + Duration::seconds(30)),
        PushReport::default()
    );
    assert!(push.received().is_empty());
    // After it, one does, once.
    assert_eq!(drain(&app, &p, t + Duration::seconds(61)).sent, 1);
    assert_eq!(drain(&app, &p, t + Duration::seconds(200)).sent, 0);
    // A restarted server and a new worker send nothing again.
    app.restart();
    let p = pusher(&app, "w3");
    assert_eq!(
        drain(&app, &p, t + Duration::hours(1)),
        PushReport::default()
    );
    assert_eq!(push.received().len(), 1);
    assert_eq!(count(&app, "push_outbox WHERE sent_at IS NOT NULL"), 1);
    // A push service that is down: kept, and sent once it is back.
    let down = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead_end = format!("http://{}/push/x", down.local_addr().unwrap());
    drop(down);
    let browser = receiver::Browser::new();
    let bob = app.client();
    bob.login("bob", "correct horse battery");
    let r = bob.post(
        "/settings/notifications/subscribe",
        &[("subscription", browser.subscription(&dead_end).as_str())],
    );
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let alice = app.client();
    alice.login("alice", "correct horse battery");
    bob.play(id, "e5");
    alice.play(id, "Nf3");
    let r = drain(&app, &p, t + Duration::hours(2));
    assert_eq!((r.sent, r.failed), (1, 1), "{r:?}");
    let waiting = count(&app, "push_outbox WHERE sent_at IS NULL AND attempts = 1");
    assert_eq!(waiting, 1);
}

fn subscriptions_are_checked(backend: Backend) {
    // The server's own default: https to a named host only.
    let app = TestApp::start(backend);
    let bob = app.user("bob");
    let push = Receiver::start(&page_key(&bob));
    let (_, local) = push.browser("x");
    let r = bob.post(
        "/settings/notifications/subscribe",
        &[("subscription", local.as_str())],
    );
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.has("https"), "{}", r.body);
    let good = receiver::Browser::new().subscription("https://push.example.net/send/abc");
    for (bad, status) in [
        ("{", StatusCode::BAD_REQUEST),
        (
            r#"{"endpoint":"https://push.example.net/x","keys":{"p256dh":"AAAA","auth":"AAAA"}}"#,
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ] {
        let r = bob.post(
            "/settings/notifications/subscribe",
            &[("subscription", bad)],
        );
        assert_eq!(r.status, status, "{bad}: {}", r.body);
    }
    // Without the CSRF token, or logged out: refused.
    let r = bob.post_raw(
        "/settings/notifications/subscribe",
        &[("subscription", good.as_str())],
    );
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let anon = app.client();
    let r = anon.post(
        "/settings/notifications/subscribe",
        &[("subscription", good.as_str())],
    );
    assert_ne!(r.status, StatusCode::OK);
    assert_eq!(count(&app, "push_subscriptions"), 0);
    let r = bob.post(
        "/settings/notifications/subscribe",
        &[("subscription", good.as_str())],
    );
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(count(&app, "push_subscriptions"), 1);
    // Deleting the account forgets its browsers.
    let gone = app.count(&format!(
        "SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = {}",
        app.user_id("bob")
    ));
    assert_eq!(gone, 1);
    let r = bob.post(
        "/settings/delete",
        &[("password", "correct horse battery"), ("confirm", "1")],
    );
    assert!(
        r.status.is_redirection() || r.status == StatusCode::OK,
        "{}",
        r.body
    );
    assert_eq!(count(&app, "push_subscriptions"), 0);
}
