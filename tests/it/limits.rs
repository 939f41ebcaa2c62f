//! Limits that hold under hostile load (issue 37, findings 3-6), on SQLite
//! and on PostgreSQL: login attempts counted before the password is checked
//! (so attempts at once cannot race past the limit), delays instead of a
//! lock-out, the client address behind proxies, and limits on the acts that
//! send mail. The limits read the app's clock, which stands still in tests
//! and is moved by hand: no test sleeps.

use crate::common;

use common::{csrf_from, Backend, TestApp, TestClient};
use reqwest::StatusCode;
use std::sync::{Arc, Barrier};

both_backends!(
    concurrent_wrong_passwords_get_at_most_the_allowed_checks,
    the_owner_from_another_address_is_slowed_not_refused,
    spread_guesses_slow_the_account_for_a_short_while_only,
    spoofed_forwarded_for_entries_are_ignored,
    signups_per_address_are_limited,
    confirmation_mails_per_address_are_limited_across_accounts,
    challenges_per_sender_are_limited,
    the_owner_gets_in_every_time_while_others_guess,
    a_device_cookie_is_locked_out_by_its_own_failures_only,
    one_reset_link_used_at_once_resets_once,
    app_passwords_made_at_once_are_all_made,
    the_credential_cap_holds_under_concurrent_creation,
);

const RIGHT: &str = "correct horse battery";

/// The real password checks made for `name` (one row each).
fn checks(app: &TestApp, name: &str) -> i64 {
    app.count(&format!(
        "SELECT COUNT(*) AS n FROM login_attempts WHERE username_key = '{name}'"
    ))
}

/// A login as a browser behind the proxy would send it: `X-Forwarded-For`
/// as the proxy leaves it. Answers the status and the `Retry-After` seconds.
fn login_via(
    c: &TestClient,
    forwarded: &str,
    name: &str,
    password: &str,
) -> (StatusCode, Option<i64>) {
    let token = c.csrf();
    let r = c
        .http
        .post(format!("{}/login", c.base))
        .header("X-Forwarded-For", forwarded)
        .form(&[
            ("csrf_token", token.as_str()),
            ("username", name),
            ("password", password),
        ])
        .send()
        .unwrap();
    (r.status(), retry_after(&r))
}

fn retry_after(r: &reqwest::blocking::Response) -> Option<i64> {
    r.headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
}

/// Post a form, answering the status, `Retry-After` and the body.
fn post(c: &TestClient, path: &str, fields: &[(&str, &str)]) -> (StatusCode, Option<i64>, String) {
    let token = c.csrf();
    let mut all = vec![("csrf_token", token.as_str())];
    all.extend_from_slice(fields);
    let r = c
        .http
        .post(format!("{}{path}", c.base))
        .form(&all)
        .send()
        .unwrap();
    let (status, after) = (r.status(), retry_after(&r));
    (status, after, r.text().unwrap())
}

fn concurrent_wrong_passwords_get_at_most_the_allowed_checks(backend: Backend) {
    let app = TestApp::start(backend);
    app.user("alice");
    let limit = app.config.login_limit_account;
    // Thirty browsers, each with its form token, post at the same moment.
    let clients: Vec<(TestClient, String)> = (0..30)
        .map(|_| {
            let c = app.client();
            let t = csrf_from(&c.get("/login").body).unwrap();
            (c, t)
        })
        .collect();
    let barrier = Arc::new(Barrier::new(clients.len()));
    let answers: Vec<(StatusCode, Option<i64>)> = std::thread::scope(|s| {
        let handles: Vec<_> = clients
            .iter()
            .enumerate()
            .map(|(i, (c, token))| {
                let barrier = barrier.clone();
                s.spawn(move || {
                    let guess = format!("guess number {i}");
                    barrier.wait();
                    let r = c
                        .http
                        .post(format!("{}/login", c.base))
                        .form(&[
                            ("csrf_token", token.as_str()),
                            ("username", "alice"),
                            ("password", guess.as_str()),
                        ])
                        .send()
                        .unwrap();
                    (r.status(), retry_after(&r))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let checked = checks(&app, "alice");
    assert!(
        checked >= 1 && checked <= limit,
        "{checked} passwords checked for {limit} allowed"
    );
    let refused: Vec<_> = answers
        .iter()
        .filter(|(s, _)| *s == StatusCode::TOO_MANY_REQUESTS)
        .collect();
    assert_eq!(refused.len() as i64, 30 - checked, "{answers:?}");
    assert!(
        refused
            .iter()
            .all(|(_, after)| after.is_some_and(|a| a >= 1)),
        "every refusal says when to come back: {answers:?}"
    );
    assert!(answers.iter().all(
        |(s, _)| *s == StatusCode::UNPROCESSABLE_ENTITY || *s == StatusCode::TOO_MANY_REQUESTS
    ));
}

fn the_owner_from_another_address_is_slowed_not_refused(backend: Backend) {
    let app = TestApp::start_with(backend, |c| c.trust_proxy = 1);
    app.user("alice");
    let mallory = app.client();
    let limit = app.config.login_limit_account;
    for i in 0..limit + 5 {
        let (status, _) = login_via(&mallory, "203.0.113.66", "alice", &format!("guess {i}"));
        assert_ne!(status, StatusCode::SEE_OTHER);
    }
    // Mallory's own address now waits...
    let (status, after) = login_via(&mallory, "203.0.113.66", "alice", RIGHT);
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert!(after.is_some_and(|a| a >= 1));
    // ...while Alice, from her address, logs in at once.
    let alice = app.client();
    let (status, _) = login_via(&alice, "198.51.100.7", "alice", RIGHT);
    assert_eq!(status, StatusCode::SEE_OTHER, "the owner is not locked out");
    // A delay ends: no lock-out even for the address that guessed.
    app.config.clock.advance(after.unwrap());
    let (status, _) = login_via(&mallory, "203.0.113.66", "alice", RIGHT);
    assert_eq!(status, StatusCode::SEE_OTHER);
}

fn spread_guesses_slow_the_account_for_a_short_while_only(backend: Backend) {
    let app = TestApp::start_with(backend, |c| c.trust_proxy = 1);
    app.user("alice");
    let any = app.config.login_limit_account_any;
    let botnet = app.client();
    // Guesses from as many addresses, each below its own limit.
    let mut refused = 0;
    for i in 0..any + 5 {
        let from = format!("203.0.113.{}", i + 1);
        let (status, _) = login_via(&botnet, &from, "alice", &format!("guess {i}"));
        if status == StatusCode::TOO_MANY_REQUESTS {
            refused += 1;
        }
    }
    assert!(
        refused >= 5,
        "spread guesses are slowed ({refused} refused)"
    );
    assert!(checks(&app, "alice") <= any);
    // The owner from a new address waits at most the account's short cap.
    let alice = app.client();
    let (status, after) = login_via(&alice, "198.51.100.7", "alice", RIGHT);
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    let after = after.expect("Retry-After");
    assert!(
        after >= 1 && after <= app.config.login_account_delay_max_secs,
        "{after}"
    );
    app.config.clock.advance(after);
    let (status, _) = login_via(&alice, "198.51.100.7", "alice", RIGHT);
    assert_eq!(status, StatusCode::SEE_OTHER);
}

fn spoofed_forwarded_for_entries_are_ignored(backend: Backend) {
    let app = TestApp::start_with(backend, |c| c.trust_proxy = 1);
    app.user("alice");
    let mallory = app.client();
    let limit = app.config.login_limit_account;
    let mut statuses = Vec::new();
    for i in 0..40 {
        // Mallory writes a new address first; the proxy appends hers.
        let forwarded = format!("10.9.{}.{}, 203.0.113.66", i / 200, i % 200 + 1);
        statuses.push(login_via(&mallory, &forwarded, "alice", &format!("guess {i}")).0);
    }
    assert_eq!(checks(&app, "alice"), limit, "{statuses:?}");
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM login_attempts WHERE ip <> '203.0.113.66'"),
        0,
        "the address recorded is the one the proxy saw"
    );
    // Two proxies: the second from the right is the client.
    drop(app);
    let app = TestApp::start_with(backend, |c| c.trust_proxy = 2);
    app.user("alice");
    let c = app.client();
    for i in 0..3 {
        let forwarded = format!("6.6.6.{i}, 203.0.113.66, 10.0.0.2");
        login_via(&c, &forwarded, "alice", "wrong guess");
    }
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM login_attempts WHERE ip = '203.0.113.66'"),
        3
    );
}

fn signups_per_address_are_limited(backend: Backend) {
    let app = TestApp::start_with(backend, |c| c.signup_limit_hour = 3);
    let c = app.client();
    // A form that fails its checks does not use up the allowance.
    let (status, _, _) = post(
        &c,
        "/signup",
        &[
            ("username", "9lives"),
            ("email", "x@example.org"),
            ("password", RIGHT),
        ],
    );
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "a bad name");
    for name in ["ann", "ben", "cat"] {
        let p = c.signup(name, &format!("{name}@example.org"), RIGHT);
        assert_eq!(p.status, StatusCode::SEE_OTHER, "{name}");
        c.post("/logout", &[]);
    }
    let dan = [
        ("username", "dan"),
        ("email", "dan@example.org"),
        ("password", RIGHT),
    ];
    let (status, after, body) = post(&c, "/signup", &dan);
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    let after = after.expect("Retry-After");
    assert!((1..=3600).contains(&after), "{after}");
    assert!(body.contains("try again in"), "{body}");
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM users"), 3);
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM email_outbox WHERE kind = 'verify_email'"),
        3
    );
    app.config.clock.advance(after);
    let (status, _, _) = post(&c, "/signup", &dan);
    assert_eq!(status, StatusCode::SEE_OTHER);
}

fn confirmation_mails_per_address_are_limited_across_accounts(backend: Backend) {
    let app = TestApp::start_with(backend, |c| c.confirm_mail_limit_day = 2);
    let victim = "victim@example.org";
    for name in ["ann", "ben"] {
        let p = app.client().signup(name, victim, RIGHT);
        assert_eq!(p.status, StatusCode::SEE_OTHER, "{name}");
    }
    let mallory = app.client();
    let (status, after, body) = post(
        &mallory,
        "/signup",
        &[
            ("username", "cat"),
            ("email", "Victim@Example.org"),
            ("password", RIGHT),
        ],
    );
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    let after = after.expect("Retry-After");
    assert!((1..=24 * 3600).contains(&after), "{after}");
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM email_outbox WHERE kind = 'verify_email'"),
        2
    );
    // "Send it again" counts against the same address.
    let ann = app.client();
    assert_eq!(ann.login("ann", RIGHT).status, StatusCode::SEE_OTHER);
    app.config.clock.advance(11 * 60);
    let (status, after, _) = post(&ann, "/settings/mail/verify", &[]);
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert!(after.is_some());
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM email_outbox WHERE kind = 'verify_email'"),
        2
    );
    // Another address is not held back.
    let p = app.client().signup("dan", "dan@example.org", RIGHT);
    assert_eq!(p.status, StatusCode::SEE_OTHER);
}

fn challenges_per_sender_are_limited(backend: Backend) {
    let app = TestApp::start_with(backend, |c| c.challenge_limit_hour = 3);
    let alice = app.user("alice");
    app.user("bob");
    let form = |opponent: &'static str| {
        [
            ("variant", "chess"),
            ("opponent", opponent),
            ("color", "white"),
            ("fen", ""),
        ]
    };
    // A challenge that fails is not counted...
    let (status, _, _) = post(&alice, "/games/new", &form("nobody"));
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    for _ in 0..3 {
        let (status, _, body) = post(&alice, "/games/new", &form("bob"));
        assert_eq!(status, StatusCode::SEE_OTHER, "{body}");
    }
    let (status, after, body) = post(&alice, "/games/new", &form("bob"));
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    let after = after.expect("Retry-After");
    assert!((1..=3600).contains(&after), "{after}");
    assert!(body.contains("try again in"), "{body}");
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM games"), 3);
    // An open seek mails nobody, so it is not limited.
    let (status, _, _) = post(&alice, "/games/new", &form(""));
    assert_eq!(status, StatusCode::SEE_OTHER);
    app.config.clock.advance(after);
    let (status, _, _) = post(&alice, "/games/new", &form("bob"));
    assert_eq!(status, StatusCode::SEE_OTHER);
}

/// Post `fields` (with each client's form token, fetched first) from every
/// client at the same moment; answers each status and body.
fn all_at_once(
    clients: &[TestClient],
    path: &str,
    fields: &[(&str, &str)],
) -> Vec<(StatusCode, String)> {
    let tokens: Vec<String> = clients.iter().map(TestClient::csrf).collect();
    let barrier = Arc::new(Barrier::new(clients.len()));
    std::thread::scope(|s| {
        let handles: Vec<_> = clients
            .iter()
            .zip(&tokens)
            .map(|(c, token)| {
                let barrier = barrier.clone();
                s.spawn(move || {
                    let mut all = vec![("csrf_token", token.as_str())];
                    all.extend_from_slice(fields);
                    barrier.wait();
                    let r = c
                        .http
                        .post(format!("{}{path}", c.base))
                        .form(&all)
                        .send()
                        .unwrap();
                    (r.status(), r.text().unwrap_or_default())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// The fields of the form that makes an app password (one place, so a
/// field the form comes to ask for is added here once).
fn app_password_form(name: &str) -> Vec<(&str, &str)> {
    vec![
        ("name", name),
        ("current_password", "correct horse battery"),
    ]
}

fn one_reset_link_used_at_once_resets_once(backend: Backend) {
    let app = TestApp::start(backend);
    app.user("alice");
    let link = missive::accounts::password_reset::link_for(
        &mut app.db(),
        &app.secret(),
        &app.base,
        "alice",
        missive::web::now(),
    )
    .unwrap();
    let token = link.split("token=").nth(1).unwrap().to_string();
    let clients: Vec<TestClient> = (0..12).map(|_| app.client()).collect();
    let answers = all_at_once(
        &clients,
        "/password/reset",
        &[("token", &token), ("password", "a brand new passphrase")],
    );
    let statuses: Vec<StatusCode> = answers.iter().map(|(s, _)| *s).collect();
    let done = statuses
        .iter()
        .filter(|s| **s == StatusCode::SEE_OTHER)
        .count();
    assert_eq!(done, 1, "{statuses:?}");
    for (status, body) in answers.iter().filter(|(s, _)| *s != StatusCode::SEE_OTHER) {
        assert_eq!(
            *status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{statuses:?}: {body}"
        );
        assert!(body.contains("already been used"), "{body}");
    }
}

fn app_passwords_made_at_once_are_all_made(backend: Backend) {
    let app = TestApp::start(backend);
    let clients: Vec<TestClient> = (0..20).map(|i| app.user(&format!("user{i}"))).collect();
    let answers = all_at_once(
        &clients,
        "/settings/app-passwords",
        &app_password_form("Scid"),
    );
    let statuses: Vec<StatusCode> = answers.iter().map(|(s, _)| *s).collect();
    assert!(
        statuses.iter().all(|s| *s == StatusCode::OK),
        "{statuses:?}"
    );
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM api_credentials WHERE kind = 'app_password'"),
        20
    );
}

fn the_credential_cap_holds_under_concurrent_creation(backend: Backend) {
    // Each creation checks the current password, and re-authentication is
    // throttled like login: here the limits are out of the way, so what is
    // raced is the cap alone.
    let app = TestApp::start_with(backend, |c| {
        c.login_limit_account = 1000;
        c.login_limit_account_any = 1000;
        c.login_limit_ip = 1000;
    });
    let alice = app.user("alice");
    let cap = missive::accounts::api_credentials::MAX_PER_KIND;
    let clients: Vec<TestClient> = (0..30).map(|_| alice.clone()).collect();
    let answers = all_at_once(
        &clients,
        "/settings/app-passwords",
        &app_password_form("Scid"),
    );
    let statuses: Vec<StatusCode> = answers.iter().map(|(s, _)| *s).collect();
    let made = app.count("SELECT COUNT(*) AS n FROM api_credentials WHERE kind = 'app_password'");
    assert_eq!(made, cap, "{statuses:?}");
    assert_eq!(
        statuses.iter().filter(|s| **s == StatusCode::OK).count() as i64,
        cap,
        "{statuses:?}"
    );
    assert!(
        statuses
            .iter()
            .all(|s| *s == StatusCode::OK || *s == StatusCode::UNPROCESSABLE_ENTITY),
        "{statuses:?}"
    );
}

/// A new app password of `c`'s, as its page shows it once.
fn new_app_password(c: &TestClient, name: &str) -> String {
    let (status, _, body) = post(c, "/settings/app-passwords", &app_password_form(name));
    assert_eq!(status, StatusCode::OK, "{body}");
    let tag = "id=\"new-secret\" class=\"secret\">";
    let i = body.find(tag).expect("the new app password") + tag.len();
    common::unescape(&body[i..i + body[i..].find("</code>").unwrap()])
}

/// Whether an Xfcc client from `forwarded` lists its games.
fn xfcc_lists_games(app: &TestApp, forwarded: &str, name: &str, password: &str) -> bool {
    let body = format!(
        r#"<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>
<GetMyGames xmlns="http://www.bennedik.com/webservices/XfccBasic"><username>{name}</username><password>{password}</password></GetMyGames>
</soap:Body></soap:Envelope>"#
    );
    let r = reqwest::blocking::Client::new()
        .post(format!("{}/xfcc", app.base))
        .header("Content-Type", "text/xml; charset=utf-8")
        .header("X-Forwarded-For", forwarded)
        .body(body)
        .send()
        .unwrap();
    r.status() == StatusCode::OK && r.text().unwrap().contains("<GetMyGamesResponse")
}

/// Issue 60, finding 3, on the app's clock: one wrong login from each of
/// 20 addresses, then a guess every 0.2 s from rotating addresses; every
/// 3 s the owner logs in from her own browser (which has logged in before)
/// and her Xfcc client lists her games.
fn the_owner_gets_in_every_time_while_others_guess(backend: Backend) {
    let app = TestApp::start_with(backend, |c| c.trust_proxy = 1);
    let alice = app.user("alice");
    let xfcc_password = new_app_password(&alice, "Scid");
    alice.post("/logout", &[]);
    let botnet = app.client();
    let mut sent = 0;
    let mut guess = || {
        sent += 1;
        let from = format!("203.0.{}.{}", sent / 250, sent % 250 + 1);
        login_via(&botnet, &from, "alice", &format!("guess {sent}"));
    };
    for _ in 0..20 {
        guess();
    }
    let rounds = 20;
    let (mut owner_in, mut client_in) = (0, 0);
    for round in 0..rounds {
        for _ in 0..15 {
            guess();
        }
        app.config.clock.advance(3);
        if login_via(&alice, "198.51.100.7", "alice", RIGHT).0 == StatusCode::SEE_OTHER {
            owner_in += 1;
            alice.post("/logout", &[]);
        }
        let client = format!("192.0.2.{}", round + 1);
        if xfcc_lists_games(&app, &client, "alice", &xfcc_password) {
            client_in += 1;
        }
    }
    let guesses_checked = app.count(
        "SELECT COUNT(*) AS n FROM login_attempts WHERE username_key = 'alice' AND NOT success",
    );
    eprintln!(
        "{backend:?}: owner in {owner_in} of {rounds}, Xfcc client {client_in} of {rounds}, \
         {guesses_checked} of {sent} guesses checked in {} s",
        rounds * 3
    );
    assert_eq!(
        owner_in, rounds,
        "the owner's known browser gets in every time"
    );
    assert_eq!(client_in, rounds, "the Xfcc client is not held back");
    // Browsers the account does not know are limited as before: past the
    // account-wide allowance, about one guess a minute at most.
    let any = app.config.login_limit_account_any;
    assert!(
        guesses_checked <= any + 5,
        "{guesses_checked} guesses checked"
    );
}

fn a_device_cookie_is_locked_out_by_its_own_failures_only(backend: Backend) {
    let app = TestApp::start_with(backend, |c| c.trust_proxy = 1);
    let alice = app.user("alice");
    alice.post("/logout", &[]);
    let per_device = app.config.login_limit_device;
    for i in 0..per_device {
        let (status, _) = login_via(&alice, "198.51.100.7", "alice", &format!("typo {i}"));
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    }
    // The cookie is locked out: even the right password waits...
    let (status, after) = login_via(&alice, "198.51.100.7", "alice", RIGHT);
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    let after = after.expect("Retry-After");
    assert!(
        (1..=app.config.login_device_lockout_secs).contains(&after),
        "{after}"
    );
    // ...while another browser, from the same address, is not slowed by it.
    let other = app.client();
    assert_eq!(
        login_via(&other, "198.51.100.7", "alice", RIGHT).0,
        StatusCode::SEE_OTHER
    );
    // The lock-out ends.
    app.config.clock.advance(after);
    assert_eq!(
        login_via(&alice, "198.51.100.7", "alice", RIGHT).0,
        StatusCode::SEE_OTHER
    );
    // A device cookie counts only for its own account: Bob's login from
    // Alice's browser is counted as any unknown browser's.
    app.user("bob");
    let limit = app.config.login_limit_account;
    for i in 0..limit {
        login_via(&alice, "198.51.100.7", "bob", &format!("guess {i}"));
    }
    assert_eq!(
        login_via(&alice, "198.51.100.7", "bob", RIGHT).0,
        StatusCode::TOO_MANY_REQUESTS
    );
}
