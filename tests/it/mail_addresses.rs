//! Mail addresses (issue 37, finding 8), on SQLite and on PostgreSQL: one
//! plain address per account, refused at the form otherwise; an address the
//! mail server refuses for good (SMTP 5xx) ends that mail's retries, and the
//! player is told on every page until the address is confirmed again.

use crate::common;
use crate::common::smtp;

use chrono::Duration;
use common::{Backend, TestApp};
use diesel::RunQueryDsl;
use missive::db::outbox;
use missive::mail::context::MailCtx;
use missive::mail::drain::{self, Sender};
use missive::mail::transport::{self, Transport};
use reqwest::StatusCode;
use smtp::SmtpSink;

both_backends!(
    addresses_are_one_plain_address,
    a_permanent_refusal_ends_the_retries_and_tells_the_player,
    a_stored_list_address_is_not_retried_forever,
);

const RIGHT: &str = "correct horse battery";

fn smtp_sender(app: &TestApp, sink: &SmtpSink) -> Sender {
    let mut config = app.config.clone();
    config.base_url = app.base.clone();
    Sender {
        transport: Transport::Smtp(transport::smtp_transport(&sink.url()).unwrap()),
        ctx: MailCtx::new(&config, &app.secret()).unwrap(),
        owner: "w1".into(),
    }
}

fn drain(app: &TestApp, s: &Sender, now: chrono::NaiveDateTime) -> drain::DrainReport {
    drain::drain_once(&mut app.db(), s, now).unwrap()
}

fn addresses_are_one_plain_address(backend: Backend) {
    let app = TestApp::start(backend);
    for (i, bad) in [
        "a,b@x.org",
        "a;b@x.org",
        "victim@x.org>,<evil@y.org",
        "Victim <victim@x.org>",
        "victim@x.org, other@y.org",
        "\"a,b\"@x.org",
    ]
    .into_iter()
    .enumerate()
    {
        let p = app.client().signup(&format!("user{i}"), bad, RIGHT);
        assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
        assert!(
            p.has("one plain address") || p.has("does not look like an email address"),
            "{bad}: {}",
            p.body
        );
    }
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM users"), 0);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM email_outbox"), 0);
    let p = app
        .client()
        .signup("plain", "first.last+tag@example.org", RIGHT);
    assert_eq!(p.status, StatusCode::SEE_OTHER);
}

fn a_permanent_refusal_ends_the_retries_and_tells_the_player(backend: Backend) {
    let app = TestApp::start(backend);
    let sink = SmtpSink::start();
    sink.refuse("alice@example.org");
    let s = smtp_sender(&app, &sink);
    let alice = app.user("alice");
    let bob = app.user("bob");
    assert!(!alice.get("/").has("id=\"mail-failing-notice\""));
    // The sign-up mails: Bob's goes, Alice's is refused for good.
    let t0 = missive::web::now();
    let r = drain(&app, &s, t0);
    assert_eq!((r.sent, r.refused, r.failed), (1, 1, 0), "{r:?}");
    assert_eq!(sink.count(), 1);
    let rows = outbox::all(&mut app.db()).unwrap();
    let refused = rows
        .iter()
        .find(|r| r.user_id == app.user_id("alice"))
        .unwrap();
    assert!(refused.sent_at.is_some(), "closed: {refused:?}");
    assert!(
        refused
            .last_error
            .as_deref()
            .is_some_and(|e| e.starts_with("refused:") && e.contains("550")),
        "{refused:?}"
    );
    // Not tried again, however long the worker runs.
    for hours in [1, 7, 24, 24 * 7] {
        let r = drain(&app, &s, t0 + Duration::hours(hours));
        assert_eq!((r.sent, r.failed, r.refused), (0, 0, 0), "{r:?}");
    }
    // Alice is told on every page; Bob is not.
    for path in ["/", "/settings", "/settings/mail", "/leave", "/variants"] {
        let p = alice.get(path);
        assert_eq!(p.status, StatusCode::OK, "{path}");
        assert!(p.has("id=\"mail-failing-notice\""), "{path}: {}", p.body);
        assert!(p.has("href=\"/settings/mail\""), "{path}");
        assert!(!bob.get(path).has("mail-failing-notice"), "{path}");
    }
    // Confirming the address (it works again) clears the notice.
    let id = app.user_id("alice");
    let sig = missive::accounts::links::verify_sig(&app.secret(), id, "alice@example.org");
    assert_eq!(
        alice.get(&format!("/verify-email?u={id}&sig={sig}")).status,
        StatusCode::OK
    );
    assert!(!alice.get("/").has("mail-failing-notice"));
    // A changed address is not the one refused: no notice for it either.
    let bob_id = app.user_id("bob");
    let mut conn = app.db();
    missive::db::mail_failures::record(&mut conn, bob_id, "old@example.org", "550", t0).unwrap();
    assert!(!bob.get("/").has("mail-failing-notice"));
}

fn a_stored_list_address_is_not_retried_forever(backend: Backend) {
    let app = TestApp::start(backend);
    let sink = SmtpSink::start();
    let s = smtp_sender(&app, &sink);
    let mallory = app.user("mallory");
    // An address stored before sign-up refused lists.
    diesel::sql_query("UPDATE users SET email = 'a,b@x.org' WHERE username = 'mallory'")
        .execute(&mut app.db())
        .unwrap();
    let t0 = missive::web::now();
    let r = drain(&app, &s, t0);
    assert_eq!((r.sent, r.refused, r.failed), (0, 1, 0), "{r:?}");
    let r = drain(&app, &s, t0 + Duration::days(2));
    assert_eq!((r.sent, r.refused, r.failed), (0, 0, 0), "{r:?}");
    assert_eq!(sink.count(), 0);
    assert!(mallory.get("/").has("id=\"mail-failing-notice\""));
}
