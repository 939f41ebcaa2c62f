//! The account's life (issue 36): forgotten password, password change,
//! sessions, address change, deletion, export and the operators' hold, over
//! HTTP like a user, on SQLite and on PostgreSQL when configured. Mails go
//! through the real outbox and drain into an SMTP sink in the test.

use crate::common;
use crate::common::smtp;

use chrono::Duration;
use common::{Backend, Page, TestApp, TestClient};
use diesel::RunQueryDsl;
use missive::mail::context::MailCtx;
use missive::mail::drain::{self, Sender};
use missive::mail::transport::{self, Transport};
use reqwest::StatusCode;
use smtp::SmtpSink;

both_backends!(
    a_forgotten_password_is_reset_once_and_ends_every_session,
    a_reset_link_expires_and_dies_with_any_password_change,
    changing_the_password_needs_the_current_one_and_ends_other_sessions,
    log_out_everywhere_lists_and_ends_the_other_sessions,
    a_new_address_replaces_the_old_only_once_confirmed,
    a_deleted_account_leaves_its_finished_games_under_a_neutral_name,
    the_export_holds_the_account_and_its_games_as_pgn,
    a_disabled_account_cannot_log_in_nor_use_a_play_link,
    weak_passwords_are_refused_with_advice,
    a_reset_ends_what_a_takeover_made,
    a_password_change_and_log_out_everywhere_end_what_others_made,
    reauthentication_is_throttled_like_login,
    address_change_mails_are_limited_per_account_and_per_address,
    a_reset_link_dies_when_the_address_changes,
    forgot_does_the_same_work_for_unknown_addresses,
    ip_literal_domains_are_refused,
);

const PASSWORD: &str = "correct horse battery";
const NEW_PASSWORD: &str = "plum tree over a quiet harbour";
const FIREFOX: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

fn secret(app: &TestApp) -> Vec<u8> {
    missive::web::load_secret(&mut app.db(), None).unwrap()
}

fn user_id(app: &TestApp, name: &str) -> i32 {
    app.count(&format!(
        "SELECT CAST(id AS BIGINT) AS n FROM users WHERE username = '{name}'"
    )) as i32
}

fn exec(app: &TestApp, sql: &str) {
    diesel::sql_query(sql).execute(&mut app.db()).unwrap();
}

/// A user signed up whose address is confirmed (by the verification link),
/// with the outbox emptied.
fn vuser(app: &TestApp, name: &str) -> TestClient {
    let c = app.user(name);
    let id = user_id(app, name);
    let sig =
        missive::accounts::links::verify_sig(&secret(app), id, &format!("{name}@example.org"));
    assert_eq!(
        c.get(&format!("/verify-email?u={id}&sig={sig}")).status,
        StatusCode::OK
    );
    exec(app, "DELETE FROM email_outbox");
    c
}

/// Another browser (with a Firefox `User-Agent`) logged in as `name`.
fn second_login(app: &TestApp, name: &str, password: &str) -> TestClient {
    let c = TestClient {
        base: app.base.clone(),
        http: reqwest::blocking::Client::builder()
            .cookie_store(true)
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(FIREFOX)
            .build()
            .unwrap(),
    };
    assert_eq!(c.login(name, password).status, StatusCode::SEE_OTHER);
    c
}

fn logged_in(c: &TestClient) -> bool {
    let p = c.get("/settings");
    match p.status {
        StatusCode::OK => true,
        StatusCode::UNAUTHORIZED => false,
        s => panic!("/settings answered {s}: {}", p.body),
    }
}

struct Mailbox {
    sink: SmtpSink,
    sender: Sender,
}

impl Mailbox {
    fn new(app: &TestApp) -> Mailbox {
        let sink = SmtpSink::start();
        let mut config = app.config.clone();
        config.base_url = app.base.clone();
        let sender = Sender {
            transport: Transport::Smtp(transport::smtp_transport(&sink.url()).unwrap()),
            ctx: MailCtx::new(&config, &secret(app)).unwrap(),
            owner: "test".into(),
        };
        Mailbox { sink, sender }
    }

    /// Send what the outbox holds; the mails received, (to, readable text).
    fn take(&self, app: &TestApp) -> Vec<(String, String)> {
        drain::drain_once(&mut app.db(), &self.sender, missive::web::now()).unwrap();
        let mails = self
            .sink
            .mails()
            .iter()
            .map(|m| (m.to.join(","), smtp::readable(&m.data)))
            .collect();
        self.sink.clear();
        mails
    }
}

/// The path and query of the first link to `path` in a mail.
fn link_in(mail: &str, path: &str) -> String {
    let i = mail
        .find(path)
        .unwrap_or_else(|| panic!("no {path} in {mail}"));
    let end = mail[i..]
        .find(|c: char| c.is_whitespace() || c == '"' || c == '<')
        .map_or(mail.len(), |e| i + e);
    common::unescape(&mail[i..end])
}

fn token_of(link: &str) -> String {
    link.split("token=").nth(1).unwrap().to_string()
}

/// Ask for a reset link for `email` and read it from the mail.
fn reset_link(app: &TestApp, mailbox: &Mailbox, email: &str) -> String {
    let p = app.client().post("/password/forgot", &[("email", email)]);
    assert_eq!(p.status, StatusCode::OK);
    let mails = mailbox.take(app);
    let reset: Vec<_> = mails
        .iter()
        .filter(|(_, m)| m.contains("Subject: Reset your Missive password"))
        .collect();
    assert_eq!(reset.len(), 1, "{mails:?}");
    assert_eq!(reset[0].0, email);
    link_in(&reset[0].1, "/password/reset?token=")
}

fn reset_with(client: &TestClient, token: &str, password: &str) -> Page {
    client.post(
        "/password/reset",
        &[("token", token), ("password", password)],
    )
}

/// Alice's old password fails, the new one works, and she was told by mail.
fn password_is_now_the_new_one(app: &TestApp, mailbox: &Mailbox) {
    assert_eq!(
        app.client().login("alice", PASSWORD).status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        app.client().login("alice", NEW_PASSWORD).status,
        StatusCode::SEE_OTHER
    );
    let mails = mailbox.take(app);
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert!(mails[0]
        .1
        .contains("Subject: Your Missive password was changed"));
}

fn a_forgotten_password_is_reset_once_and_ends_every_session(backend: Backend) {
    let app = TestApp::start(backend);
    let mailbox = Mailbox::new(&app);
    let alice = vuser(&app, "alice");
    let elsewhere = second_login(&app, "alice", PASSWORD);
    // The same page and status, known address or not; mail only for the known.
    let anon = app.client();
    let known = anon.post("/password/forgot", &[("email", "alice@example.org")]);
    let unknown = anon.post("/password/forgot", &[("email", "nobody@example.org")]);
    assert_eq!(known.status, StatusCode::OK);
    assert_eq!(unknown.status, known.status);
    assert_eq!(unknown.body, known.body);
    assert!(known.has("id=\"forgot-sent\""));
    let form = anon.get("/password/forgot");
    assert!(form.has("name=\"email\"") && form.has("name=\"csrf_token\""));
    assert_eq!(
        anon.post_raw("/password/forgot", &[("email", "alice@example.org")])
            .status,
        StatusCode::FORBIDDEN,
        "no CSRF token"
    );
    let mails = mailbox.take(&app);
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert_eq!(mails[0].0, "alice@example.org");
    let link = link_in(&mails[0].1, "/password/reset?token=");
    let token = token_of(&link);
    // Only the token's hash is stored.
    assert_eq!(
        app.count(&format!(
            "SELECT COUNT(*) AS n FROM account_tokens WHERE token_hash = '{token}'"
        )),
        0
    );
    // Asking again at once does not flood the inbox.
    anon.post("/password/forgot", &[("email", "ALICE@example.org")]);
    assert!(mailbox.take(&app).is_empty());

    let browser = app.client();
    let page = browser.get(&link);
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.has("alice") && page.has("autocomplete=\"new-password\""));
    // A weak password is refused with zxcvbn's advice; the link still works.
    let weak = reset_with(&browser, &token, "qwerty12");
    assert_eq!(weak.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(weak.has("too easy to guess"), "{}", weak.body);
    let done = reset_with(&browser, &token, NEW_PASSWORD);
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    assert_eq!(done.location.as_deref(), Some("/settings?done=reset"));
    // Logged in on a new session; every old one is over.
    assert!(logged_in(&browser));
    assert!(!logged_in(&alice));
    assert!(!logged_in(&elsewhere));
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM sessions"),
        1,
        "only the new session"
    );
    // Used twice: refused, and the password stays the new one.
    let again = reset_with(&app.client(), &token, "another fine long phrase 9");
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(again.has("already been used"), "{}", again.body);
    assert_eq!(
        app.client().get(&link).status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    password_is_now_the_new_one(&app, &mailbox);
    // Garbage tokens are a clear refusal, never an error.
    for bad in ["", "zz", &"a".repeat(64), &"é".repeat(40)] {
        assert_eq!(
            reset_with(&app.client(), bad, NEW_PASSWORD).status,
            StatusCode::UNPROCESSABLE_ENTITY
        );
    }
}

fn a_reset_link_expires_and_dies_with_any_password_change(backend: Backend) {
    let app = TestApp::start(backend);
    let mailbox = Mailbox::new(&app);
    let alice = vuser(&app, "alice");
    let link = reset_link(&app, &mailbox, "alice@example.org");
    let token = token_of(&link);
    // The clock moved on past the hour (the use case is given the time).
    let later = missive::web::now() + Duration::minutes(61);
    let r = missive::accounts::password_reset::reset(&mut app.db(), &token, NEW_PASSWORD, later);
    assert!(
        matches!(&r, Err(missive::domain::error::Error::Invalid(m)) if m.contains("expired")),
        "{r:?}"
    );
    let sooner = missive::web::now() + Duration::minutes(59);
    assert!(missive::accounts::tokens::check(
        &mut app.db(),
        &token,
        missive::domain::account_token::TokenPurpose::PasswordReset,
        sooner
    )
    .is_ok());
    // Over HTTP: the server's clock past the stored expiry.
    exec(
        &app,
        "UPDATE account_tokens SET created_at = created_at - INTERVAL_HOURS, \
         expires_at = created_at"
            .replace(
                "created_at - INTERVAL_HOURS",
                match backend {
                    Backend::Sqlite => "datetime(created_at, '-2 hours')",
                    Backend::Postgres => "created_at - INTERVAL '2 hours'",
                },
            )
            .as_str(),
    );
    let p = reset_with(&app.client(), &token, NEW_PASSWORD);
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(p.has("has expired"), "{}", p.body);
    assert_eq!(
        app.client().get(&link).status,
        StatusCode::UNPROCESSABLE_ENTITY
    );

    // A fresh link, then the password changed in the settings: the link dies.
    exec(&app, "DELETE FROM account_tokens");
    let link = reset_link(&app, &mailbox, "alice@example.org");
    let changed = alice.post(
        "/settings/password",
        &[
            ("current_password", PASSWORD),
            ("new_password", NEW_PASSWORD),
        ],
    );
    assert_eq!(changed.status, StatusCode::SEE_OTHER, "{}", changed.body);
    let p = reset_with(
        &app.client(),
        &token_of(&link),
        "yet another long phrase 77",
    );
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(p.has("not valid"), "{}", p.body);
    // A reset mail still queued when the password changes is not sent.
    mailbox.take(&app);
    let p = app
        .client()
        .post("/password/forgot", &[("email", "alice@example.org")]);
    assert_eq!(p.status, StatusCode::OK);
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM email_outbox WHERE kind = 'password_reset' AND sent_at IS NULL"),
        1
    );
    let third = "lantern moss under the old bridge";
    let changed = alice.post(
        "/settings/password",
        &[("current_password", NEW_PASSWORD), ("new_password", third)],
    );
    assert_eq!(changed.status, StatusCode::SEE_OTHER, "{}", changed.body);
    let mails = mailbox.take(&app);
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert!(mails[0].1.contains("Your Missive password was changed"));
    assert_eq!(
        app.client().login("alice", third).status,
        StatusCode::SEE_OTHER
    );
}

fn changing_the_password_needs_the_current_one_and_ends_other_sessions(backend: Backend) {
    let app = TestApp::start(backend);
    let mailbox = Mailbox::new(&app);
    let alice = vuser(&app, "alice");
    let elsewhere = second_login(&app, "alice", PASSWORD);
    let page = alice.get("/settings");
    for needed in [
        "action=\"/settings/password\"",
        "name=\"current_password\"",
        "name=\"new_password\"",
        "autocomplete=\"current-password\"",
        "autocomplete=\"new-password\"",
    ] {
        assert!(page.has(needed), "{needed}");
    }
    let wrong = alice.post(
        "/settings/password",
        &[
            ("current_password", "not my password"),
            ("new_password", NEW_PASSWORD),
        ],
    );
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(wrong.has("id=\"password-error\"") && wrong.has("current password is not right"));
    let weak = alice.post(
        "/settings/password",
        &[
            ("current_password", PASSWORD),
            ("new_password", "alice1234"),
        ],
    );
    assert_eq!(weak.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(weak.has("too easy to guess"), "{}", weak.body);
    assert!(logged_in(&elsewhere), "nothing changed yet");
    assert_eq!(
        alice
            .post_raw(
                "/settings/password",
                &[
                    ("current_password", PASSWORD),
                    ("new_password", NEW_PASSWORD)
                ]
            )
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        app.client()
            .post(
                "/settings/password",
                &[
                    ("current_password", PASSWORD),
                    ("new_password", NEW_PASSWORD)
                ]
            )
            .status,
        StatusCode::UNAUTHORIZED
    );
    let ok = alice.post(
        "/settings/password",
        &[
            ("current_password", PASSWORD),
            ("new_password", NEW_PASSWORD),
        ],
    );
    assert_eq!(ok.status, StatusCode::SEE_OTHER, "{}", ok.body);
    assert!(logged_in(&alice), "the session that changed it stays");
    assert!(!logged_in(&elsewhere), "every other one ends");
    assert!(alice
        .get("/settings?done=password")
        .has("logged out everywhere else"));
    password_is_now_the_new_one(&app, &mailbox);
}

fn log_out_everywhere_lists_and_ends_the_other_sessions(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let firefox = second_login(&app, "alice", PASSWORD);
    let third = second_login(&app, "alice", PASSWORD);
    let bob = app.user("bob");
    let page = alice.get("/settings");
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(page.body.matches("<tr").count() - 1, 3, "{}", page.body);
    assert!(page.has("Firefox on Linux"), "{}", page.body);
    assert!(page.has("(this one)"));
    assert!(page.has("action=\"/settings/sessions\""));
    assert_eq!(
        alice.post_raw("/settings/sessions", &[]).status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        app.client().post("/settings/sessions", &[]).status,
        StatusCode::UNAUTHORIZED
    );
    let p = firefox.post("/settings/sessions", &[]);
    assert_eq!(p.status, StatusCode::SEE_OTHER);
    assert_eq!(p.location.as_deref(), Some("/settings?done=sessions"));
    assert!(logged_in(&firefox));
    assert!(!logged_in(&alice));
    assert!(!logged_in(&third));
    assert!(
        logged_in(&bob),
        "another account's sessions are not touched"
    );
    let page = firefox.get("/settings");
    assert_eq!(page.body.matches("<tr").count() - 1, 1);
}

fn a_new_address_replaces_the_old_only_once_confirmed(backend: Backend) {
    let app = TestApp::start(backend);
    let mailbox = Mailbox::new(&app);
    let alice = vuser(&app, "alice");
    let wrong = alice.post(
        "/settings/email",
        &[("password", "not it"), ("email", "alice@new.example.org")],
    );
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(wrong.has("id=\"email-error\""));
    let bad = alice.post(
        "/settings/email",
        &[("password", PASSWORD), ("email", "not an address")],
    );
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    let p = alice.post(
        "/settings/email",
        &[("password", PASSWORD), ("email", "alice@new.example.org")],
    );
    assert_eq!(p.status, StatusCode::SEE_OTHER, "{}", p.body);
    assert!(alice.get("/settings").has("id=\"email-pending\""));
    // Nothing changes until the new address confirms.
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM users WHERE email = 'alice@example.org'"),
        1
    );
    let mails = mailbox.take(&app);
    assert_eq!(mails.len(), 2, "{mails:?}");
    let to_new = mails
        .iter()
        .find(|(to, _)| to == "alice@new.example.org")
        .expect("a mail to the new address");
    let to_old = mails
        .iter()
        .find(|(to, _)| to == "alice@example.org")
        .expect("a mail to the old address");
    assert!(to_old
        .1
        .contains("Subject: Your Missive address is changing"));
    assert!(to_old.1.contains("alice@new.example.org"));
    let link = link_in(&to_new.1, "/email/confirm?token=");
    // Following the link shows a button; the change is the button's post.
    let anon = app.client();
    let page = anon.get(&link);
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM users WHERE email = 'alice@new.example.org'"),
        0
    );
    let token = token_of(&link);
    let done = anon.post("/email/confirm", &[("token", &token)]);
    assert_eq!(done.status, StatusCode::OK, "{}", done.body);
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM users WHERE email = 'alice@new.example.org'"),
        1
    );
    assert!(alice.get("/settings").has("(confirmed)"));
    assert_eq!(
        anon.post("/email/confirm", &[("token", &token)]).status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "used once"
    );
    // Reset mails now go to the new address, and none to the old one.
    app.client()
        .post("/password/forgot", &[("email", "alice@example.org")]);
    assert!(mailbox.take(&app).is_empty());
    reset_link(&app, &mailbox, "alice@new.example.org");
}

fn a_deleted_account_leaves_its_finished_games_under_a_neutral_name(backend: Backend) {
    let (app, alice, bob, finished) = TestApp::game_of_alice_and_bob(backend);
    alice.play(finished, "e4");
    bob.play(finished, "e5");
    assert_eq!(
        bob.post(&format!("/games/{finished}/resign"), &[("confirm", "1")])
            .status,
        StatusCode::SEE_OTHER
    );
    let running = alice.challenge("bob", "black");
    bob.post(&format!("/games/{running}/accept"), &[]);
    let pending = alice.challenge("bob", "white");
    alice.post(
        &format!("/games/{finished}/notes"),
        &[("note", "my secret plan")],
    );
    let id = user_id(&app, "alice");
    // Without confirm=1: a page that says what happens; nothing is deleted.
    let ask = alice.post("/settings/delete", &[("password", PASSWORD)]);
    assert_eq!(ask.status, StatusCode::OK);
    assert!(ask.has("id=\"delete-effects\"") && ask.has(&format!("deleted-{id}")));
    assert!(ask.has("name=\"confirm\" value=\"1\""));
    assert!(logged_in(&alice));
    let wrong = alice.post(
        "/settings/delete",
        &[("password", "not it"), ("confirm", "1")],
    );
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(wrong.has("id=\"delete-error\""));
    assert_eq!(
        alice
            .post_raw(
                "/settings/delete",
                &[("password", PASSWORD), ("confirm", "1")]
            )
            .status,
        StatusCode::FORBIDDEN
    );
    let done = alice.post(
        "/settings/delete",
        &[("password", PASSWORD), ("confirm", "1")],
    );
    assert_eq!(done.status, StatusCode::OK, "{}", done.body);
    assert!(!logged_in(&alice));
    let neutral = format!("deleted-{id}");
    // The finished game renders and exports under the neutral name.
    let page = bob.get(&format!("/games/{finished}"));
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.has(&neutral) && !page.has("alice"), "{}", page.body);
    let pgn = bob.get(&format!("/games/{finished}.pgn"));
    assert!(pgn.has(&format!("[White \"{neutral}\"]")), "{}", pgn.body);
    assert!(pgn.has("1. e4") && pgn.has("e5"), "{}", pgn.body);
    let all = bob.get("/users/bob/games.pgn");
    assert!(!all.has("alice") && all.has(&neutral));
    let export: serde_json::Value =
        serde_json::from_str(&bob.get("/settings/export").body).unwrap();
    let g = export["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == finished.get())
        .unwrap();
    assert_eq!(g["white"], neutral.as_str());
    // The running game was resigned (Bob wins); the challenge taken back.
    let j = bob.json(running);
    assert_eq!(j["status"], "finished");
    assert_eq!(j["result"], "1-0");
    assert_eq!(
        app.count(&format!(
            "SELECT COUNT(*) AS n FROM games WHERE id = {pending} AND status = 'withdrawn'"
        )),
        1
    );
    // Erased: sessions, notes, mail, address.
    for table in [
        "sessions",
        "game_notes",
        "email_outbox",
        "account_tokens",
        "leave_bookings",
    ] {
        assert_eq!(
            app.count(&format!(
                "SELECT COUNT(*) AS n FROM {table} WHERE user_id = {id}"
            )),
            0,
            "{table}"
        );
    }
    assert_eq!(
        app.count(&format!(
            "SELECT COUNT(*) AS n FROM users WHERE id = {id} AND email = '' AND username = '{neutral}'"
        )),
        1
    );
    // Nobody logs in as either name; the name is held for 30 days.
    assert_eq!(
        app.client().login("alice", PASSWORD).status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        app.client().login(&neutral, "").status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let again = app.client().signup("alice", "alice2@example.org", PASSWORD);
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(again.has("deleted less than 30 days ago"), "{}", again.body);
    let fake = app.client().signup("deleted-99", "d@example.org", PASSWORD);
    assert_eq!(fake.status, StatusCode::UNPROCESSABLE_ENTITY);
    let later = missive::web::now() + Duration::days(31);
    missive::accounts::users::signup(&mut app.db(), "alice", "a3@example.org", PASSWORD, later)
        .expect("the name is free again after 30 days");
}

fn the_export_holds_the_account_and_its_games_as_pgn(backend: Backend) {
    let (app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    alice.play(id, "e4 // the usual");
    alice.post(
        &format!("/games/{id}/notes"),
        &[("note", "bob likes the Sicilian")],
    );
    let day = |d: i64| {
        (missive::web::now() + Duration::days(d))
            .format("%Y-%m-%d")
            .to_string()
    };
    let (first, last) = (day(10), day(11));
    let booked = alice.post("/leave", &[("start", &first), ("end", &last)]);
    assert_eq!(booked.status, StatusCode::SEE_OTHER, "{}", booked.body);
    assert_eq!(
        app.client().get("/settings/export").status,
        StatusCode::UNAUTHORIZED
    );
    let r = alice
        .http
        .get(format!("{}/settings/export", alice.base))
        .send()
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/json"));
    assert!(r.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .contains("attachment; filename=\"missive-alice.json\""));
    let doc: serde_json::Value = r.json().unwrap();
    assert_eq!(doc["format"], "missive-account-export");
    assert_eq!(doc["profile"]["username"], "alice");
    assert_eq!(doc["profile"]["email"], "alice@example.org");
    assert_eq!(doc["settings"]["confirm_moves"], true);
    assert!(!doc["sessions"].as_array().unwrap().is_empty());
    let game = &doc["games"][0];
    assert_eq!(game["id"], id.get());
    assert_eq!(game["moves"][0]["move"], "e4");
    assert_eq!(game["moves"][0]["comment"], "the usual");
    let pgn = game["pgn"].as_str().unwrap();
    assert!(
        pgn.contains("[White \"alice\"]") && pgn.contains("1. e4"),
        "{pgn}"
    );
    assert_eq!(doc["notes"][0]["note"], "bob likes the Sicilian");
    assert_eq!(doc["leave"]["bookings"][0]["first_day"], first.as_str());
    // Only one's own: Bob's export has the game but not Alice's note.
    let bobs: serde_json::Value = serde_json::from_str(&bob.get("/settings/export").body).unwrap();
    assert_eq!(bobs["profile"]["username"], "bob");
    assert!(bobs["notes"].as_array().unwrap().is_empty());
    assert!(!bobs.to_string().contains("alice@example.org"));
}

/// `missive user ...` on the test's database.
fn cli(app: &TestApp, args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_missive"))
        .args(args)
        .env("DATABASE_URL", &app.database_url)
        .env("MISSIVE_BASE_URL", &app.base)
        .env_remove("MISSIVE_CONFIG")
        .output()
        .expect("run missive");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn a_disabled_account_cannot_log_in_nor_use_a_play_link(backend: Backend) {
    let (app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    let link = missive::accounts::links::PlayLink {
        game: id,
        user: user_id(&app, "alice"),
        ply: 0,
        expires: chrono::Utc::now().timestamp() + 3600,
    };
    let play = format!("/games/{id}/play?{}", link.query(&secret(&app)));
    assert_eq!(app.client().get(&play).status, StatusCode::OK);
    let (ok, out, err) = cli(&app, &["user", "disable", "alice"]);
    assert!(ok, "{err}");
    assert_eq!(out.trim(), "alice is disabled (1 session ended)");
    assert!(!logged_in(&alice));
    let p = app.client().login("alice", PASSWORD);
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    assert!(p.has("disabled"), "{}", p.body);
    let p = app.client().get(&play);
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    assert!(p.has("disabled"), "{}", p.body);
    let sig = link.sign(&secret(&app));
    let posted = app.client().post(
        &format!("/games/{id}/play"),
        &[
            ("u", link.user.to_string().as_str()),
            ("ply", "0"),
            ("exp", link.expires.to_string().as_str()),
            ("sig", sig.as_str()),
            ("move", "e4"),
            ("confirm", "1"),
        ],
    );
    assert_eq!(posted.status, StatusCode::FORBIDDEN, "{}", posted.body);
    assert_eq!(bob.json(id)["moves"].as_array().unwrap().len(), 0);
    // A wrong password is still just wrong (the hold tells nobody guessing).
    assert_eq!(
        app.client().login("alice", "a wrong guess").status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    // The game goes on: it is still running, under its clock.
    assert_eq!(bob.json(id)["status"], "active");
    let (ok, out, _) = cli(&app, &["user", "enable", "alice"]);
    assert!(ok);
    assert_eq!(out.trim(), "alice is enabled");
    let alice = app.client();
    assert_eq!(alice.login("alice", PASSWORD).status, StatusCode::SEE_OTHER);
    assert_eq!(alice.play(id, "e4").status, StatusCode::SEE_OTHER);
    // Support's reset link.
    let (ok, out, err) = cli(&app, &["user", "reset-link", "alice"]);
    assert!(ok, "{err}");
    let url = out.trim();
    assert!(
        url.starts_with(&format!("{}/password/reset?token=", app.base)),
        "{url}"
    );
    let path = &url[app.base.len()..];
    assert_eq!(app.client().get(path).status, StatusCode::OK);
    let c = app.client();
    assert_eq!(
        reset_with(&c, &token_of(path), NEW_PASSWORD).status,
        StatusCode::SEE_OTHER
    );
    assert!(!logged_in(&alice));
    let (ok, _, err) = cli(&app, &["user", "disable", "nobody"]);
    assert!(!ok);
    assert!(err.starts_with("error: "), "{err}");
}

fn weak_passwords_are_refused_with_advice(backend: Backend) {
    let app = TestApp::start(backend);
    for weak in ["12341234", "qwerty12", "1q2w3e4r", "trustno1", "carol2026!"] {
        let p = app.client().signup("carol", "carol@example.org", weak);
        assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY, "{weak}");
        assert!(p.has("too easy to guess"), "{weak}: {}", p.body);
    }
    let p = app
        .client()
        .signup("carol", "carol@example.org", NEW_PASSWORD);
    assert_eq!(p.status, StatusCode::SEE_OTHER);
    let signup = app.client().get("/signup");
    assert!(signup.has("autocomplete=\"new-password\""));
    assert!(app.client().get("/login").has("href=\"/password/forgot\""));
}

/// Make an app password or a token on `path` with `fields`: the status and
/// the secret shown, if one was.
fn credential(c: &TestClient, path: &str, fields: &[(&str, &str)]) -> (StatusCode, Option<String>) {
    let p = c.post(path, fields);
    let tag = "id=\"new-secret\" class=\"secret\">";
    let secret = p.body.find(tag).map(|i| {
        let i = i + tag.len();
        common::unescape(&p.body[i..i + p.body[i..].find("</code>").unwrap()])
    });
    (p.status, secret)
}

/// The status of an API read with a bearer token.
fn api_status(app: &TestApp, token: &str) -> StatusCode {
    reqwest::blocking::Client::new()
        .get(format!("{}/api/v1/games", app.base))
        .bearer_auth(token)
        .send()
        .unwrap()
        .status()
}

/// The confirmation token of the address-change mail sent to `to`.
fn change_token(mails: &[(String, String)], to: &str) -> String {
    let (_, mail) = mails
        .iter()
        .find(|(t, _)| t == to)
        .unwrap_or_else(|| panic!("no mail to {to} in {mails:?}"));
    token_of(&link_in(mail, "/email/confirm?token="))
}

/// An attacker who knows alice's password logs in and asks to move the
/// account to their address: their session, and the confirmation token
/// mailed to them.
fn takeover_begun(app: &TestApp, mailbox: &Mailbox) -> (TestClient, String) {
    let attacker = second_login(app, "alice", PASSWORD);
    let mallory = "mallory@evil.example.org";
    let p = attacker.post(
        "/settings/email",
        &[("password", PASSWORD), ("email", mallory)],
    );
    assert_eq!(p.status, StatusCode::SEE_OTHER, "{}", p.body);
    (attacker, change_token(&mailbox.take(app), mallory))
}

/// Issue 60, finding 2: someone with a session (and the password) asks to
/// move the account to their address and makes credentials; the owner
/// resets the password. Nothing the attacker made still works, and the
/// owner is told what was revoked.
fn a_reset_ends_what_a_takeover_made(backend: Backend) {
    let app = TestApp::start(backend);
    let mailbox = Mailbox::new(&app);
    let _owner = vuser(&app, "alice");
    let (attacker, confirm) = takeover_begun(&app, &mailbox);
    let with_password = ("current_password", PASSWORD);
    let (status, app_password) = credential(
        &attacker,
        "/settings/app-passwords",
        &[("name", "mine now"), with_password],
    );
    assert_eq!(status, StatusCode::OK);
    let (status, token) = credential(
        &attacker,
        "/settings/tokens",
        &[("name", "mine too"), ("scope", "play"), with_password],
    );
    assert_eq!(status, StatusCode::OK);
    let token = token.unwrap();
    assert_eq!(api_status(&app, &token), StatusCode::OK);
    assert!(app_password.is_some());

    let link = reset_link(&app, &mailbox, "alice@example.org");
    let owner = app.client();
    let done = reset_with(&owner, &token_of(&link), NEW_PASSWORD);
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);

    assert!(!logged_in(&attacker));
    let taken = app.client().post("/email/confirm", &[("token", &confirm)]);
    assert_eq!(
        taken.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "the pending change died with the reset: {}",
        taken.body
    );
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM users WHERE email = 'alice@example.org'"),
        1
    );
    assert_eq!(api_status(&app, &token), StatusCode::UNAUTHORIZED);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM api_credentials"), 0);
    let settings = owner.get("/settings");
    assert!(settings.has("id=\"settings-revoked\""), "{}", settings.body);
    assert!(
        settings.has(
            "2 sessions, 1 app password, 1 API token and 1 pending address change were revoked on"
        ),
        "{}",
        settings.body
    );
    assert!(settings.has("by the password reset"));
}

/// Finding 2 by the other paths: "log out everywhere" ends a pending
/// address change; a password change ends the credentials too; and no
/// credential is made without the current password.
fn a_password_change_and_log_out_everywhere_end_what_others_made(backend: Backend) {
    let app = TestApp::start(backend);
    let mailbox = Mailbox::new(&app);
    let owner = vuser(&app, "alice");
    let (attacker, confirm) = takeover_begun(&app, &mailbox);
    assert!(owner.get("/settings").has("id=\"email-pending\""));
    let p = owner.post("/settings/sessions", &[]);
    assert_eq!(p.status, StatusCode::SEE_OTHER);
    assert!(!logged_in(&attacker));
    assert!(!owner.get("/settings").has("id=\"email-pending\""));
    let taken = app.client().post("/email/confirm", &[("token", &confirm)]);
    assert_eq!(
        taken.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        taken.body
    );
    assert!(owner
        .get("/settings")
        .has("1 session and 1 pending address change were revoked on"));

    // A session alone makes no credential: the password is asked for.
    let attacker = second_login(&app, "alice", PASSWORD);
    for fields in [
        vec![("name", "no password")],
        vec![("name", "wrong one"), ("current_password", "a guess")],
    ] {
        let (status, secret) = credential(&attacker, "/settings/app-passwords", &fields);
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{fields:?}");
        assert_eq!(secret, None);
        let mut fields = fields.clone();
        fields.push(("scope", "read"));
        let (status, secret) = credential(&attacker, "/settings/tokens", &fields);
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{fields:?}");
        assert_eq!(secret, None);
    }
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM api_credentials"), 0);
    let clients = attacker.get("/settings/clients");
    assert_eq!(clients.body.matches("name=\"current_password\"").count(), 2);
    let (_, token) = credential(
        &attacker,
        "/settings/tokens",
        &[
            ("name", "bot"),
            ("scope", "read"),
            ("current_password", PASSWORD),
        ],
    );
    let token = token.expect("made with the password");
    let (_, app_password) = credential(
        &attacker,
        "/settings/app-passwords",
        &[("name", "Scid"), ("current_password", PASSWORD)],
    );
    assert!(app_password.is_some());
    let changed = owner.post(
        "/settings/password",
        &[
            ("current_password", PASSWORD),
            ("new_password", NEW_PASSWORD),
        ],
    );
    assert_eq!(changed.status, StatusCode::SEE_OTHER, "{}", changed.body);
    assert!(logged_in(&owner) && !logged_in(&attacker));
    assert_eq!(api_status(&app, &token), StatusCode::UNAUTHORIZED);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM api_credentials"), 0);
    assert!(owner
        .get("/settings")
        .has("1 session, 1 app password and 1 API token were revoked on"));
}

/// Finding 8: the forms that check the current password count wrong ones
/// as logins do: past five from one place the next waits (429 and
/// Retry-After), whichever form, the right password too, and the login.
fn reauthentication_is_throttled_like_login(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = vuser(&app, "alice");
    let guess = "not my password";
    let forms: [(&str, Vec<(&str, &str)>); 5] = [
        (
            "/settings/password",
            vec![("current_password", guess), ("new_password", NEW_PASSWORD)],
        ),
        (
            "/settings/email",
            vec![("password", guess), ("email", "alice@new.example.org")],
        ),
        (
            "/settings/delete",
            vec![("password", guess), ("confirm", "1")],
        ),
        (
            "/settings/tokens",
            vec![
                ("name", "bot"),
                ("scope", "read"),
                ("current_password", guess),
            ],
        ),
        (
            "/settings/app-passwords",
            vec![("name", "Scid"), ("current_password", guess)],
        ),
    ];
    for (path, fields) in &forms {
        let p = alice.post(path, fields);
        assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY, "{path}");
    }
    for (path, fields) in &forms {
        let right: Vec<(&str, &str)> = fields
            .iter()
            .map(|&(k, v)| (k, if v == guess { PASSWORD } else { v }))
            .collect();
        for fields in [fields.clone(), right] {
            let p = alice.post(path, &fields);
            assert_eq!(p.status, StatusCode::TOO_MANY_REQUESTS, "{path} {fields:?}");
            let secs = p.retry_after.expect("Retry-After");
            assert!(secs >= 1, "{path}: {secs}");
        }
    }
    assert_eq!(
        app.client().login("alice", PASSWORD).status,
        StatusCode::TOO_MANY_REQUESTS,
        "the same counts as the login's"
    );
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM api_credentials"), 0);
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM users WHERE deleted_at IS NULL"),
        1
    );
}

/// Finding 4: address changes mail the address typed, so they are counted:
/// at most 3 confirmations a day to one address however its letters are
/// cased, at most 5 changes a day per account (the defaults), also when
/// asked for at once.
fn address_change_mails_are_limited_per_account_and_per_address(backend: Backend) {
    let app = TestApp::start(backend);
    let mailbox = Mailbox::new(&app);
    let alice = vuser(&app, "alice");
    let change = |c: &TestClient, to: &str| {
        c.post("/settings/email", &[("password", PASSWORD), ("email", to)])
            .status
    };
    for to in [
        "victim@example.net",
        "Victim@Example.net",
        "VICTIM@EXAMPLE.NET",
    ] {
        assert_eq!(change(&alice, to), StatusCode::SEE_OTHER, "{to}");
    }
    assert_eq!(
        change(&alice, "victim@example.NET"),
        StatusCode::TOO_MANY_REQUESTS
    );
    // Queued: a later change voids the earlier link, whose mail then goes
    // nowhere, so the outbox is what counts.
    let confirmations =
        || app.count("SELECT COUNT(*) AS n FROM email_outbox WHERE kind = 'email_change_confirm'");
    assert_eq!(confirmations(), 3);
    let mails = mailbox.take(&app);
    assert!(
        mails
            .iter()
            .all(|(to, _)| to.eq_ignore_ascii_case("victim@example.net")
                || to == "alice@example.org"),
        "{mails:?}"
    );
    // Two more changes elsewhere make alice's five; the sixth is refused.
    for to in ["one@example.net", "two@example.net"] {
        assert_eq!(change(&alice, to), StatusCode::SEE_OTHER, "{to}");
    }
    assert_eq!(
        change(&alice, "three@example.net"),
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(confirmations(), 5);
    // Asked for at once by other accounts: still three to one address.
    let askers: Vec<TestClient> = (0..6).map(|i| app.user(&format!("asker{i}"))).collect();
    let accepted = std::thread::scope(|s| {
        let runs: Vec<_> = askers
            .iter()
            .map(|c| s.spawn(move || change(c, "target@example.net")))
            .collect();
        runs.into_iter()
            .map(|r| r.join().unwrap())
            .filter(|s| *s == StatusCode::SEE_OTHER)
            .count()
    });
    assert!(accepted <= 3, "{accepted} accepted");
    assert_eq!(
        app.count(
            "SELECT COUNT(*) AS n FROM account_tokens WHERE lower(new_email) = 'target@example.net'"
        ),
        accepted as i64
    );
}

/// Finding 10: a reset link mailed to the old address dies when the
/// address changes.
fn a_reset_link_dies_when_the_address_changes(backend: Backend) {
    let app = TestApp::start(backend);
    let mailbox = Mailbox::new(&app);
    let alice = vuser(&app, "alice");
    let old_link = reset_link(&app, &mailbox, "alice@example.org");
    let p = alice.post(
        "/settings/email",
        &[("password", PASSWORD), ("email", "alice@new.example.org")],
    );
    assert_eq!(p.status, StatusCode::SEE_OTHER, "{}", p.body);
    let confirm = change_token(&mailbox.take(&app), "alice@new.example.org");
    let done = app.client().post("/email/confirm", &[("token", &confirm)]);
    assert_eq!(done.status, StatusCode::OK, "{}", done.body);
    let p = reset_with(&app.client(), &token_of(&old_link), NEW_PASSWORD);
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", p.body);
    assert!(app.client().login("alice", PASSWORD).status == StatusCode::SEE_OTHER);
}

/// Finding 10: `/password/forgot` does the same work for an address with
/// no account as for one with (the count written, the recent links read,
/// a token made), and mails one address at most 5 times a day.
fn forgot_does_the_same_work_for_unknown_addresses(backend: Backend) {
    let app = TestApp::start(backend);
    let mailbox = Mailbox::new(&app);
    let _alice = vuser(&app, "alice");
    for email in ["alice@example.org", "Nobody@Example.org"] {
        let p = app.client().post("/password/forgot", &[("email", email)]);
        assert_eq!(p.status, StatusCode::OK);
        assert_eq!(
            app.count(&format!(
                "SELECT CAST(count AS BIGINT) AS n FROM rate_counters WHERE key = 'reset:{}'",
                email.to_lowercase()
            )),
            1,
            "{email}"
        );
    }
    assert_eq!(mailbox.take(&app).len(), 1);
    for _ in 0..5 {
        exec(&app, "DELETE FROM account_tokens");
        app.client()
            .post("/password/forgot", &[("email", "alice@example.org")]);
    }
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM email_outbox WHERE kind = 'password_reset'"),
        5,
        "five a day in all"
    );
}

/// Finding 10: an address at an IP literal (or a bare IP address) points
/// mail at a machine of the sender's choosing: refused at sign-up and in
/// an address change.
fn ip_literal_domains_are_refused(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = vuser(&app, "alice");
    for (i, address) in ["a@[127.0.0.1]", "a@[IPv6:::1]", "a@127.0.0.1", "a@127.1"]
        .into_iter()
        .enumerate()
    {
        let p = app
            .client()
            .signup(&format!("ipuser{i}"), address, "correct horse battery");
        assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY, "{address}");
        let p = alice.post(
            "/settings/email",
            &[("password", PASSWORD), ("email", address)],
        );
        assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY, "{address}");
    }
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM users"), 1);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM account_tokens"), 0);
    assert!(missive::accounts::users::validate_email("a@example.org").is_ok());
}
