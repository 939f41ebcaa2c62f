//! Mail: the outbox, the SMTP transport against a real SMTP server on
//! loopback (a sink started in the test), and play-by-link. On SQLite, and
//! on PostgreSQL when `MISSIVE_TEST_POSTGRES_URL` is set.

use crate::common;
use crate::common::smtp;
use missive::domain::ids::GameId;

use chrono::Duration;
use common::{csrf_from, Backend, TestApp};
use missive::accounts::links::PlayLink;
use missive::accounts::mail_settings;
use missive::db::outbox;
use missive::domain::mail_kind::{Mail, MailKind, MailPolicy};
use missive::mail::context::MailCtx;
use missive::mail::drain;
use missive::mail::drain::Sender;
use missive::mail::transport;
use missive::mail::transport::Transport;
use reqwest::StatusCode;
use smtp::SmtpSink;
use std::sync::{Arc, Barrier};

both_backends!(
    a_move_mails_the_opponent_once_with_a_working_link,
    link_is_refused_when_tampered_expired_or_foreign,
    smtp_down_keeps_mail_queued_and_sends_it_once,
    two_workers_send_each_mail_once,
    every_event_queues_its_mail,
    file_transport_writes_eml_files,
    mail_policy_and_one_click_unsubscribe,
    only_verified_addresses_get_mail,
    daily_digest_once_a_day_right_games_right_order,
    digest_lists_least_time_left_first,
    resend_verification_is_rate_limited,
    enqueue_follows_verification_and_policy,
    the_unconfirmed_are_told_on_every_page,
);

fn user_id(app: &TestApp, name: &str) -> i32 {
    app.count(&format!(
        "SELECT CAST(id AS BIGINT) AS n FROM users WHERE username = '{name}'"
    )) as i32
}

/// A user signed up, whose address is verified by the link of the
/// verification mail (that mail then removed, so tests count the others).
fn vuser(app: &TestApp, name: &str) -> common::TestClient {
    use diesel::RunQueryDsl;
    let c = app.user(name);
    let id = user_id(app, name);
    let sig =
        missive::accounts::links::verify_sig(&secret(app), id, &format!("{name}@example.org"));
    let p = c.get(&format!("/verify-email?u={id}&sig={sig}"));
    assert_eq!(p.status, StatusCode::OK, "{}", p.body);
    diesel::sql_query("DELETE FROM email_outbox WHERE kind = 'verify_email'")
        .execute(&mut app.db())
        .unwrap();
    c
}

fn secret(app: &TestApp) -> Vec<u8> {
    let mut conn = app.db();
    missive::web::load_secret(&mut conn, None).unwrap()
}

fn sender(app: &TestApp, transport: Transport, owner: &str) -> Sender {
    let mut config = app.config.clone();
    config.base_url = app.base.clone();
    Sender {
        transport,
        ctx: MailCtx::new(&config, &secret(app)).unwrap(),
        owner: owner.into(),
    }
}

fn smtp_sender(app: &TestApp, url: &str, owner: &str) -> Sender {
    sender(
        app,
        Transport::Smtp(transport::smtp_transport(url).unwrap()),
        owner,
    )
}

fn drain(app: &TestApp, s: &Sender, now: chrono::NaiveDateTime) -> drain::DrainReport {
    let mut conn = app.db();
    drain::drain_once(&mut conn, s, now).unwrap()
}

/// The path and query of the play link in a mail.
fn play_link(body: &str) -> String {
    let i = body.find("/games/").expect("a link");
    let start = body[..i].rfind("http").expect("an absolute link");
    let url: String = body[start..]
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '"' && *c != '<')
        .collect();
    let url = url.replace("&amp;", "&");
    let path_start = url.find("/games/").unwrap();
    let link = url[path_start..].to_string();
    assert!(link.contains("/play?"), "{link}");
    link
}

fn first_play_link(body: &str) -> String {
    let i = body.find("/play?u=").expect("a play link in the mail");
    let start = body[..i].rfind("http").unwrap();
    play_link(&body[start..])
}

/// Alice (White) against Bob, accepted; mails so far drained.
fn started_game(app: &TestApp) -> (common::TestClient, common::TestClient, GameId) {
    let alice = vuser(app, "alice");
    let bob = vuser(app, "bob");
    let id = alice.challenge("bob", "white");
    assert_eq!(
        bob.post(&format!("/games/{id}/accept"), &[]).status,
        StatusCode::SEE_OTHER
    );
    (alice, bob, id)
}

fn a_move_mails_the_opponent_once_with_a_working_link(backend: Backend) {
    let app = TestApp::start(backend);
    let sink = SmtpSink::start();
    let s = smtp_sender(&app, &sink.url(), "w1");
    let (alice, _bob, id) = started_game(&app);
    // One mail to Alice, "accepted: your move", with her play link; the
    // challenge mail to Bob is closed unsent (he has answered it already).
    let r = drain(&app, &s, missive::web::now());
    assert_eq!((r.sent, r.skipped), (1, 1), "{r:?}");
    let accepted = sink.mails();
    assert_eq!(accepted.len(), 1);
    assert_eq!(accepted[0].to, vec!["alice@example.org".to_string()]);
    let body = smtp::readable(&accepted[0].data);
    assert!(
        body.contains("Subject: bob accepted your Chess challenge: your move"),
        "{body}"
    );
    assert!(body.contains("It is your move."), "{body}");
    assert!(body.contains("8  r n b q k b n r"), "{body}");
    let page = app.client().get(&first_play_link(&body));
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.has("Your move, alice"), "{}", page.body);
    sink.clear();
    let p = alice.play(id, "e4 // your move, Bob");
    assert_eq!(p.status, StatusCode::SEE_OTHER, "{}", p.body);
    let r = drain(&app, &s, missive::web::now());
    assert_eq!(r.sent, 1);
    assert_eq!(drain(&app, &s, missive::web::now()).sent, 0);
    let mails = sink.mails();
    assert_eq!(mails.len(), 1);
    let m = &mails[0];
    assert_eq!(m.to, vec!["bob@example.org".to_string()]);
    let body = smtp::readable(&m.data);
    assert!(body.contains("Subject: Your move against alice"), "{body}");
    assert!(body.contains("e4"));
    assert!(body.contains("your move, Bob"), "{body}");
    assert!(body.contains("Reply-To:"), "{body}");
    assert!(body.contains("List-Unsubscribe: <http"), "{body}");
    assert!(body.contains("text/html"));
    // The diagram, from Black's side (Bob plays Black): rank 1 on top.
    assert!(body.contains("1  R N B K Q B N R"), "{body}");
    assert!(body.contains("Moves: 1. e4"), "{body}");
    let link = first_play_link(&body);

    // Following the link, without logging in.
    let anon = app.client();
    let page = anon.get(&link);
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.has("Your move, bob"), "{}", page.body);
    // The legend of the pieces, as on the game page.
    assert!(page.has("id=\"legend\"") && page.has("data-piece=\"Knight\""));
    // The clock (the default 3 days per move): Bob's running, Alice's full.
    assert!(
        page.has("id=\"link-clock\"")
            && page.has("3 days per move: you have 3 days (running), alice has 3 days.")
            && page.has("Move by "),
        "{}",
        page.body
    );
    let token = csrf_from(&page.body).unwrap();
    let query: Vec<(String, String)> = url::Url::parse(&format!("http://x{link}"))
        .unwrap()
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    let field = |k: &str| {
        query
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .unwrap()
    };
    let (u, ply, exp, sig) = (field("u"), field("ply"), field("exp"), field("sig"));
    let post = |mv: &str| {
        anon.post_raw(
            &format!("/games/{id}/play"),
            &[
                ("csrf_token", token.as_str()),
                ("u", &u),
                ("ply", &ply),
                ("exp", &exp),
                ("sig", &sig),
                ("move", mv),
            ],
        )
    };
    // An illegal move keeps the link usable.
    let p = post("e4");
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", p.body);
    // "Preview first" shows the position after the move and stores nothing;
    // its confirm form carries the move and its comment.
    let p = anon.post_raw(
        &format!("/games/{id}/play"),
        &[
            ("csrf_token", token.as_str()),
            ("u", &u),
            ("ply", &ply),
            ("exp", &exp),
            ("sig", &sig),
            ("move", "e5 // over to you"),
            ("preview", "1"),
        ],
    );
    assert_eq!(p.status, StatusCode::OK, "{}", p.body);
    assert!(
        p.has("Confirm e5?") && p.has("With your comment"),
        "{}",
        p.body
    );
    assert_eq!(alice.json(id)["ply"], 1, "a preview stores nothing");
    let tag = "<input type=\"hidden\" name=\"move\" value=\"";
    let at = p.body.find(tag).expect("the confirm form") + tag.len();
    let confirm = common::unescape(&p.body[at..at + p.body[at..].find('"').unwrap()]);
    assert_eq!(confirm, "e7e5 // over to you");
    let p = post(&confirm);
    assert_eq!(p.status, StatusCode::SEE_OTHER, "{}", p.body);
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM moves WHERE comment = 'over to you'"),
        1
    );
    let j = alice.json(id);
    assert_eq!(j["ply"], 2);
    assert_eq!(j["moves"][1]["notation"], "e5", "{j}");
    // Reused: refused, nothing stored.
    let p = post("Nf6");
    assert_eq!(p.status, StatusCode::GONE);
    assert!(p.has("has been used"), "{}", p.body);
    assert!(p.has("/login"));
    let p = anon.get(&link);
    assert_eq!(p.status, StatusCode::GONE);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM moves"), 2);
    // The link did not log Bob in.
    assert_eq!(
        anon.post(&format!("/games/{id}/resign"), &[("confirm", "1")])
            .status,
        StatusCode::UNAUTHORIZED
    );
    // Bob's move mailed Alice (once).
    sink.clear();
    assert_eq!(drain(&app, &s, missive::web::now()).sent, 1);
    assert_eq!(sink.mails()[0].to, vec!["alice@example.org".to_string()]);
}

fn link_is_refused_when_tampered_expired_or_foreign(backend: Backend) {
    let app = TestApp::start(backend);
    let (alice, _bob, id) = started_game(&app);
    let key = secret(&app);
    let now = missive::web::now();
    let alice_id = 1; // the first user signed up
    let good = PlayLink {
        game: id,
        user: alice_id,
        ply: 0,
        expires: (now + Duration::hours(1)).and_utc().timestamp(),
    };
    let anon = app.client();
    assert_eq!(
        anon.get(&format!("/games/{id}/play?{}", good.query(&key)))
            .status,
        StatusCode::OK
    );
    // Tampered: another ply, another user, another game, a cut signature.
    let sig = good.sign(&key);
    for q in [
        format!("u={alice_id}&ply=1&exp={}&sig={sig}", good.expires),
        format!("u=2&ply=0&exp={}&sig={sig}", good.expires),
        format!("u={alice_id}&ply=0&exp={}&sig={sig}", good.expires + 999),
        format!("u={alice_id}&ply=0&exp={}&sig={}", good.expires, &sig[..20]),
        format!("u={alice_id}&ply=0&exp={}&sig=", good.expires),
        "u=x&ply=&exp=&sig=".to_string(),
        String::new(),
    ] {
        let p = anon.get(&format!("/games/{id}/play?{q}"));
        assert_eq!(p.status, StatusCode::FORBIDDEN, "{q}");
        assert!(p.has("not valid"), "{}", p.body);
    }
    // Signed with another key.
    let p = anon.get(&format!("/games/{id}/play?{}", good.query(b"not the key")));
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    // Expired.
    let old = PlayLink {
        expires: (now - Duration::seconds(1)).and_utc().timestamp(),
        ..good.clone()
    };
    let p = anon.get(&format!("/games/{id}/play?{}", old.query(&key)));
    assert_eq!(p.status, StatusCode::GONE);
    assert!(p.has("expired"));
    // A well-signed link for the player not to move is "used", not a door.
    let bob_link = PlayLink {
        user: 2,
        ..good.clone()
    };
    let p = anon.get(&format!("/games/{id}/play?{}", bob_link.query(&key)));
    assert_eq!(p.status, StatusCode::GONE);
    // Posting with a tampered link stores nothing.
    let token = csrf_from(&anon.get("/signup").body).unwrap();
    let exp = good.expires.to_string();
    let p = anon.post_raw(
        &format!("/games/{id}/play"),
        &[
            ("csrf_token", token.as_str()),
            ("u", "1"),
            ("ply", "0"),
            ("exp", &exp),
            ("sig", "00"),
            ("move", "e4"),
        ],
    );
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    // Without the CSRF token.
    let p = anon.post_raw(
        &format!("/games/{id}/play"),
        &[
            ("u", "1"),
            ("ply", "0"),
            ("exp", &exp),
            ("sig", &sig),
            ("move", "e4"),
        ],
    );
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    assert_eq!(alice.json(id)["ply"], 0);
}

fn smtp_down_keeps_mail_queued_and_sends_it_once(backend: Backend) {
    let mut app = TestApp::start(backend);
    let port = smtp::free_port();
    let url = format!("smtp://127.0.0.1:{port}");
    let (alice, _bob, id) = started_game(&app);
    let t0 = missive::web::now();
    let s = smtp_sender(&app, &url, "w1");
    // Nobody listens: everything fails, is kept, with the error recorded.
    let r = drain(&app, &s, t0);
    assert_eq!((r.sent, r.failed, r.skipped), (0, 1, 1), "{r:?}");
    let rows = outbox::all(&mut app.db()).unwrap();
    let rows: Vec<_> = rows.iter().filter(|r| r.sent_at.is_none()).collect();
    assert_eq!(rows.len(), 1);
    assert!(rows
        .iter()
        .all(|r| r.attempts == 1 && r.last_error.is_some() && r.lease_owner.is_none()));
    // Not due again before the delay.
    assert_eq!(drain(&app, &s, t0 + Duration::seconds(5)).failed, 0);
    let r = drain(&app, &s, t0 + Duration::seconds(31));
    assert_eq!(r.failed, 1);
    let rows = outbox::all(&mut app.db()).unwrap();
    assert!(rows
        .iter()
        .filter(|r| r.sent_at.is_none())
        .all(|r| r.attempts == 2));
    // A move while SMTP is down is accepted at once and queued.
    assert_eq!(alice.play(id, "e4").status, StatusCode::SEE_OTHER);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM email_outbox"), 3);
    // A restart in between loses nothing.
    app.restart();
    let sink = SmtpSink::start_on(port);
    let s2 = smtp_sender(&app, &url, "w2");
    let later = t0 + Duration::seconds(200);
    let r = drain(&app, &s2, later);
    // "Accepted" to Alice (without "your move": she has moved since) and
    // "your turn" to Bob.
    assert_eq!((r.sent, r.skipped, r.failed), (2, 0, 0), "{r:?}");
    assert_eq!(sink.count(), 2);
    // Another restart and more passes send nothing again.
    app.restart();
    let s3 = smtp_sender(&app, &url, "w3");
    for k in 0..3 {
        assert_eq!(
            drain(&app, &s3, later + Duration::hours(k)),
            drain::DrainReport::default()
        );
    }
    assert_eq!(sink.count(), 2);
    let to: Vec<String> = sink.mails().iter().map(|m| m.to[0].clone()).collect();
    assert_eq!(
        to.iter()
            .filter(|t| t.as_str() == "bob@example.org")
            .count(),
        1,
        "{to:?}"
    );
    let rows = outbox::all(&mut app.db()).unwrap();
    assert!(rows.iter().all(|r| r.sent_at.is_some()));
}

fn two_workers_send_each_mail_once(backend: Backend) {
    let app = TestApp::start(backend);
    let (_alice, _bob, id) = started_game(&app);
    let now = missive::web::now();
    {
        let mut conn = app.db();
        for _ in 0..60 {
            let accepted = Mail::ChallengeAccepted {
                game: id,
                ply: 0,
                from: 2,
            };
            outbox::enqueue(&mut conn, 1, &accepted, now).unwrap();
        }
    }
    let total = app.count("SELECT COUNT(*) AS n FROM email_outbox") as usize;
    let sink = SmtpSink::start();
    let barrier = Arc::new(Barrier::new(2));
    let handles: Vec<_> = ["a", "b"]
        .into_iter()
        .map(|name| {
            let s = smtp_sender(&app, &sink.url(), name);
            let url = app.database_url.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let mut conn = missive::db::Manager::new(&url).open().unwrap();
                barrier.wait();
                let mut sent = 0;
                loop {
                    let r = drain::drain_once(&mut conn, &s, now).unwrap();
                    sent += r.sent;
                    if r.sent + r.failed + r.skipped == 0 {
                        break;
                    }
                }
                sent
            })
        })
        .collect();
    let sent: Vec<usize> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    // All but the challenge mail (answered already, closed unsent).
    assert_eq!(sent.iter().sum::<usize>(), total - 1, "{sent:?}");
    assert_eq!(sink.count(), total - 1);
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM email_outbox WHERE sent_at IS NULL"),
        0
    );
}

fn every_event_queues_its_mail(backend: Backend) {
    let app = TestApp::start(backend);
    let (transport, list) = Transport::memory();
    let s = sender(&app, transport, "mem");
    let kinds = |app: &TestApp| -> Vec<(String, i32)> {
        outbox::all(&mut app.db())
            .unwrap()
            .into_iter()
            .map(|r| (r.kind.to_string(), r.user_id))
            .collect()
    };
    let alice = vuser(&app, "alice");
    let bob = vuser(&app, "bob");
    // An open seek mails nobody; a challenge mails the player challenged.
    alice.post(
        "/games/new",
        &[("variant", "chess"), ("opponent", ""), ("color", "white")],
    );
    assert!(kinds(&app).is_empty());
    let id = alice.challenge("bob", "black");
    assert_eq!(kinds(&app), vec![("challenge_received".into(), 2)]);
    assert_eq!(drain(&app, &s, missive::web::now()).sent, 1);
    {
        let sent = list.lock().unwrap();
        assert_eq!(sent[0].to, vec!["bob@example.org".to_string()]);
        assert!(
            sent[0].raw.contains("alice challenges you to "),
            "{}",
            sent[0].raw
        );
    }
    list.lock().unwrap().clear();
    // Bob accepts and is White: he moves first, so only Alice hears.
    bob.post(&format!("/games/{id}/accept"), &[]);
    assert_eq!(kinds(&app).len(), 2);
    assert_eq!(kinds(&app)[1], ("challenge_accepted".into(), 1));
    // An illegal move queues nothing.
    assert_eq!(bob.play(id, "e5").status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(kinds(&app).len(), 2);
    bob.play(id, "f3 // <b>bold</b>");
    assert_eq!(kinds(&app)[2], ("your_turn".into(), 1));
    bob.post(&format!("/games/{id}/draw"), &[("action", "offer")]);
    assert_eq!(kinds(&app)[3], ("draw_offer".into(), 1));
    alice.play(id, "e5");
    bob.play(id, "g4");
    alice.play(id, "Qh4#");
    let k = kinds(&app);
    assert_eq!(k.len(), 8, "{k:?}");
    let mut over = vec![k[6].clone(), k[7].clone()];
    over.sort();
    assert_eq!(
        over,
        vec![("game_over".into(), 1), ("game_over".into(), 2)],
        "{k:?}"
    );
    let r = drain(&app, &s, missive::web::now());
    // The "your turn" and draw mails are stale by now (the game is over).
    assert_eq!(r.sent + r.skipped, 7, "{r:?}");
    let sent = list.lock().unwrap().clone();
    let over: Vec<_> = sent.iter().filter(|m| m.raw.contains("is over")).collect();
    assert_eq!(over.len(), 2);
    let text = smtp::readable(&over[0].raw);
    assert!(text.contains("0-1"), "{text}");
    assert!(text.contains("checkmate"), "{text}");
    assert!(text.contains("Qh4#"));
    // Resigning mails both players.
    let id2 = alice.challenge("bob", "white");
    bob.post(&format!("/games/{id2}/accept"), &[]);
    let before = kinds(&app).len();
    bob.post(&format!("/games/{id2}/resign"), &[("confirm", "1")]);
    let k = kinds(&app);
    let mut over = k[before..].to_vec();
    over.sort();
    assert_eq!(over, vec![("game_over".into(), 1), ("game_over".into(), 2)]);
    // HTML escapes the comment.
    let id3 = alice.challenge("bob", "white");
    bob.post(&format!("/games/{id3}/accept"), &[]);
    alice.play(id3, "e4 // <script>x</script>");
    list.lock().unwrap().clear();
    drain(&app, &s, missive::web::now());
    let sent = list.lock().unwrap().clone();
    let turn = sent
        .iter()
        .find(|m| m.raw.contains("Your move against alice"))
        .expect("your turn mail");
    let text = smtp::readable(&turn.raw);
    let html = &text[text.find("text/html").unwrap()..];
    assert!(!html.contains("<script>"), "{html}");
    assert!(html.contains("&#60;script&#62;"), "{html}");
    assert!(text.contains("says: <script>x</script>"), "{text}");
}

fn file_transport_writes_eml_files(backend: Backend) {
    let app = TestApp::start(backend);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("outbox-mail");
    let transport = Transport::file(out.to_str().unwrap()).unwrap();
    let s = sender(&app, transport, "file");
    let (_alice, _bob, _id) = started_game(&app);
    assert_eq!(drain(&app, &s, missive::web::now()).sent, 1);
    let files: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "eml"))
        .collect();
    assert_eq!(files.len(), 1);
    let any = std::fs::read_to_string(&files[0]).unwrap();
    assert!(any.contains("From: Missive <missive@localhost>"), "{any}");
}

fn mail_policy_and_one_click_unsubscribe(backend: Backend) {
    let app = TestApp::start(backend);
    let (alice, bob, id) = started_game(&app);
    let key = secret(&app);
    let turns_for = |user: i32| {
        app.count(&format!(
            "SELECT COUNT(*) AS n FROM email_outbox WHERE kind = 'your_turn' AND user_id = {user}"
        ))
    };
    // Every mail carries the unsubscribe link.
    let (transport, list) = Transport::memory();
    let s = sender(&app, transport, "mem");
    drain(&app, &s, missive::web::now());
    let sig = missive::accounts::links::unsubscribe_sig(&key, 2);
    let anon = app.client();
    // The link's page changes nothing by itself.
    let p = anon.get(&format!("/unsubscribe?u=2&sig={sig}"));
    assert_eq!(p.status, StatusCode::OK);
    assert!(p.has("Stop all mail"));
    assert!(bob.get("/settings/mail").has("value=\"every\" checked"));
    // Tampered links are refused.
    for q in [format!("u=1&sig={sig}"), "u=2&sig=00".into(), "u=x".into()] {
        assert_eq!(
            anon.post_raw(&format!("/unsubscribe?{q}"), &[]).status,
            StatusCode::FORBIDDEN,
            "{q}"
        );
    }
    // One click (RFC 8058 POST from the mail client).
    let p = anon.post_raw(
        &format!("/unsubscribe?u=2&sig={sig}"),
        &[("List-Unsubscribe", "One-Click")],
    );
    assert_eq!(p.status, StatusCode::OK, "{}", p.body);
    assert!(p.has("no more mail"));
    assert_eq!(alice.play(id, "e4").status, StatusCode::SEE_OTHER);
    assert_eq!(turns_for(2), 0);
    // Back to every turn on the settings page.
    let p = bob.post("/settings/mail", &[("policy", "every")]);
    assert_eq!(p.status, StatusCode::SEE_OTHER);
    assert_eq!(bob.play(id, "e5").status, StatusCode::SEE_OTHER);
    assert_eq!(alice.play(id, "Nf3").status, StatusCode::SEE_OTHER);
    assert_eq!(turns_for(2), 1);
    // Digest: no per-turn mail.
    assert_eq!(
        bob.post("/settings/mail", &[("policy", "digest")]).status,
        StatusCode::SEE_OTHER
    );
    assert!(bob.get("/settings/mail").has("value=\"digest\" checked"));
    assert_eq!(bob.play(id, "Nc6").status, StatusCode::SEE_OTHER);
    assert_eq!(alice.play(id, "Bc4").status, StatusCode::SEE_OTHER);
    assert_eq!(turns_for(2), 1);
    // Bad values, no login, no CSRF.
    assert_eq!(
        bob.post("/settings/mail", &[("policy", "hourly")]).status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(anon.get("/settings/mail").status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        bob.post_raw("/settings/mail", &[("policy", "none")]).status,
        StatusCode::FORBIDDEN
    );
    assert!(bob.get("/settings/mail").has("value=\"digest\" checked"));
    drop(list);
}

fn only_verified_addresses_get_mail(backend: Backend) {
    let app = TestApp::start(backend);
    let (transport, list) = Transport::memory();
    let s = sender(&app, transport, "mem");
    let alice = vuser(&app, "alice");
    let carol = app.user("carol");
    // Sign-up queued the verification mail, and nothing else reaches Carol.
    let id = alice.challenge("carol", "white");
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM email_outbox"),
        1,
        "only the verification mail"
    );
    assert_eq!(drain(&app, &s, missive::web::now()).sent, 1);
    let m = list.lock().unwrap()[0].clone();
    assert_eq!(m.to, vec!["carol@example.org".to_string()]);
    let text = smtp::readable(&m.raw);
    let i = text.find("/verify-email?").unwrap();
    let link: String = text[i..]
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '"')
        .collect();
    // A tampered link does nothing.
    // (Change the last hex digit to a different one.)
    let last = if link.ends_with('0') { '1' } else { '0' };
    let bad = format!("{}{last}", &link[..link.len() - 1]);
    assert_eq!(carol.get(&bad).status, StatusCode::FORBIDDEN);
    assert_eq!(carol.get("/verify-email?u=x").status, StatusCode::FORBIDDEN);
    assert_eq!(
        carol.post(&format!("/games/{id}/accept"), &[]).status,
        StatusCode::SEE_OTHER
    );
    assert_eq!(alice.play(id, "e4").status, StatusCode::SEE_OTHER);
    let for_carol = |app: &TestApp| {
        app.count(&format!(
            "SELECT COUNT(*) AS n FROM email_outbox WHERE user_id = {}",
            user_id(app, "carol")
        ))
    };
    assert_eq!(for_carol(&app), 1);
    // The real link verifies; then her turns are mailed.
    let p = carol.get(&link);
    assert_eq!(p.status, StatusCode::OK, "{}", p.body);
    assert!(p.has("Address confirmed"));
    assert_eq!(carol.play(id, "e5").status, StatusCode::SEE_OTHER);
    assert_eq!(alice.play(id, "Nf3").status, StatusCode::SEE_OTHER);
    assert_eq!(for_carol(&app), 2);
}

/// A user made by the service, verified unless `verified` is false, with a
/// mail policy.
fn service_user(
    app: &TestApp,
    name: &str,
    policy: &str,
    verified: bool,
    now: chrono::NaiveDateTime,
) -> missive::db::users::User {
    let mut conn = app.db();
    let email = format!("{name}@example.org");
    let u = missive::accounts::users::signup(&mut conn, name, &email, "correct horse battery", now)
        .unwrap();
    if verified {
        let sig = missive::accounts::links::verify_sig(&secret(app), u.id, &email);
        assert!(mail_settings::verify_email(&mut conn, &secret(app), u.id, &sig, now).unwrap());
    }
    mail_settings::set_policy(&mut conn, u.id, policy, now).unwrap();
    u
}

/// A game between `white` and `black` created by `white` and accepted at
/// `at`, then `moves` played one hour apart.
fn service_game(
    app: &TestApp,
    white: &missive::db::users::User,
    black: &missive::db::users::User,
    at: chrono::NaiveDateTime,
    moves: &[&str],
) -> GameId {
    use missive::game::challenge;
    use missive::game::challenge::Challenge;

    use missive::game::play::MoveOutcome;
    let mut conn = app.db();
    let id = challenge::create_game(
        &mut conn,
        white,
        &Challenge {
            variant: "chess".into(),
            opponent: black.username.clone(),
            color: "white".into(),
            fen: String::new(),
            time_control: String::new(),
            ..Default::default()
        },
        at,
    )
    .unwrap();
    challenge::accept(&mut conn, id, black, at).unwrap();
    for (i, m) in moves.iter().enumerate() {
        let mover = if i % 2 == 0 { white } else { black };
        let t = at + Duration::hours(i as i64 + 1);
        let r = common::play_move(&mut conn, id, mover, m, None, true, t).unwrap();
        assert!(matches!(r, MoveOutcome::Committed { .. }));
    }
    GameId(id.get())
}

fn at(s: &str) -> chrono::NaiveDateTime {
    chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M").unwrap()
}

fn daily_digest_once_a_day_right_games_right_order(backend: Backend) {
    use missive::mail::digest;
    let app = TestApp::start(backend);
    let t0 = at("2026-11-20 10:00");
    let alice = service_user(&app, "alice", "digest", true, t0);
    let bob = service_user(&app, "bob", "every", true, t0);
    let carol = service_user(&app, "carol", "every", true, t0);
    let dave = service_user(&app, "dave", "digest", false, t0);
    let erin = service_user(&app, "erin", "every", true, t0);
    let frank = service_user(&app, "frank", "none", true, t0);
    let gina = service_user(&app, "gina", "digest", true, t0);
    // Alice to move: g3 since the day before, g1 since t0, g2 since t0 + 1 h
    // (after Carol's e4). In g4 Bob is to move.
    let g3 = service_game(&app, &alice, &carol, t0 - Duration::days(1), &[]);
    let g1 = service_game(&app, &alice, &bob, t0, &[]);
    let g2 = service_game(&app, &carol, &alice, t0, &["e4"]);
    let g4 = service_game(&app, &alice, &bob, t0, &["d4"]);
    // Dave (unverified), Erin (every turn), Frank (no mail) are to move too.
    service_game(&app, &dave, &bob, t0, &[]);
    service_game(&app, &erin, &bob, t0, &[]);
    service_game(&app, &frank, &bob, t0, &[]);
    let mut conn = app.db();
    let listed: Vec<GameId> = digest::games_to_list(&mut conn, alice.id, t0)
        .unwrap()
        .iter()
        .map(|g| g.game_id)
        .collect();
    assert_eq!(listed, vec![g3, g1, g2]);
    assert!(digest::games_to_list(&mut conn, gina.id, t0)
        .unwrap()
        .is_empty());
    diesel::RunQueryDsl::execute(diesel::sql_query("DELETE FROM email_outbox"), &mut conn).unwrap();
    let digests =
        |app: &TestApp| app.count("SELECT COUNT(*) AS n FROM email_outbox WHERE kind = 'digest'");
    // Before the hour: nothing.
    let day1 = at("2026-11-21 06:59");
    assert_eq!(
        digest::run_digests(&mut conn, 7, day1).unwrap(),
        digest::DigestRun::default()
    );
    // Two workers racing at 07:00: one digest (Alice's), Gina's day
    // claimed with nothing to list.
    let seven = at("2026-11-21 07:00");
    let barrier = Arc::new(Barrier::new(2));
    let handles: Vec<_> = (0..2)
        .map(|_| {
            let url = app.database_url.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let mut conn = missive::db::Manager::new(&url).open().unwrap();
                barrier.wait();
                digest::run_digests(&mut conn, 7, seven).unwrap()
            })
        })
        .collect();
    let runs: Vec<digest::DigestRun> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(runs.iter().map(|r| r.queued).sum::<usize>(), 1, "{runs:?}");
    assert_eq!(runs.iter().map(|r| r.empty).sum::<usize>(), 1, "{runs:?}");
    assert_eq!(digests(&app), 1);
    assert_eq!(
        app.count(&format!(
            "SELECT COUNT(*) AS n FROM email_outbox WHERE kind = 'digest' AND user_id = {}",
            alice.id
        )),
        1
    );
    // Later the same day: nothing more.
    assert_eq!(
        digest::run_digests(&mut conn, 7, at("2026-11-21 18:00")).unwrap(),
        digest::DigestRun::default()
    );
    assert_eq!(digests(&app), 1);
    // The mail: the three games, the longest waiting first, with links.
    let (transport, list) = Transport::memory();
    let s = sender(&app, transport, "mem");
    let r = drain(&app, &s, at("2026-11-21 07:01"));
    assert_eq!((r.sent, r.failed, r.skipped), (1, 0, 0));
    let m = list.lock().unwrap()[0].clone();
    assert_eq!(m.to, vec!["alice@example.org".to_string()]);
    let text = smtp::readable(&m.raw);
    assert!(
        text.contains("Subject: Your move in 3 games (Missive digest, 2026-11-21)"),
        "{text}"
    );
    let plain = &text[..text.find("text/html").expect("an HTML part")];
    let pos = |g: i32| {
        plain
            .find(&format!("Game {g} (Chess)"))
            .unwrap_or_else(|| panic!("game {g} listed: {plain}"))
    };
    assert!(
        pos(g3.get()) < pos(g1.get()) && pos(g1.get()) < pos(g2.get()),
        "{plain}"
    );
    assert!(!plain.contains(&format!("Game {g4} ")), "{plain}");
    assert!(plain.contains("carol, who played e4"), "{plain}");
    assert!(plain.contains("waiting for 1 day 21 hours"), "{plain}");
    for g in [g1, g2, g3] {
        assert!(
            plain.contains(&format!("/games/{g}/play?u={}", alice.id)),
            "{plain}"
        );
    }
    // The play link of the digest plays that move.
    let link = play_link(&plain[pos(g1.get())..]);
    let p = app.client().get(&link);
    assert_eq!(p.status, StatusCode::OK, "{link}: {}", p.body);
    // The next day, still her move everywhere: a new digest.
    let day2 = at("2026-11-22 07:30");
    assert_eq!(digest::run_digests(&mut conn, 7, day2).unwrap().queued, 1);
    assert_eq!(digests(&app), 2);
    // She plays everywhere; the day after there is nothing to list: no mail.
    for (g, m) in [(g1, "e4"), (g2, "e5"), (g3, "e4")] {
        common::play_move(&mut conn, g, &alice, m, None, true, day2).unwrap();
    }
    let day3 = at("2026-11-23 07:00");
    let r = digest::run_digests(&mut conn, 7, day3).unwrap();
    assert_eq!((r.queued, r.empty), (0, 2));
    assert_eq!(digests(&app), 2);
    // Day 2's digest, no longer true when sent, is closed unsent (the three
    // mails that go are Bob's and Carol's "your turn").
    let r = drain(&app, &s, day3);
    assert_eq!((r.sent, r.skipped), (3, 1));
    let mails = list.lock().unwrap();
    assert!(mails[1..]
        .iter()
        .all(|m| m.to != vec!["alice@example.org".to_string()]));
}

fn resend_verification_is_rate_limited(backend: Backend) {
    let app = TestApp::start(backend);
    let verify_mails = |app: &TestApp| {
        app.count("SELECT COUNT(*) AS n FROM email_outbox WHERE kind = 'verify_email'")
    };
    let dave = app.user("dave");
    assert_eq!(verify_mails(&app), 1, "sign-up queued one");
    let page = dave.get("/settings/mail");
    assert!(page.has("is not confirmed yet"), "{}", page.body);
    assert!(page.has("action=\"/settings/mail/verify\""));
    // Right after sign-up: too soon.
    let p = dave.post("/settings/mail/verify", &[]);
    assert_eq!(p.status, StatusCode::TOO_MANY_REQUESTS, "{}", p.body);
    assert!(p.has("ask again in"), "{}", p.body);
    assert_eq!(verify_mails(&app), 1);
    // No CSRF token, no login: refused, nothing queued.
    assert_eq!(
        dave.post_raw("/settings/mail/verify", &[]).status,
        StatusCode::FORBIDDEN
    );
    assert_ne!(
        app.client().post("/settings/mail/verify", &[]).status,
        StatusCode::SEE_OTHER
    );
    assert_eq!(verify_mails(&app), 1);
    // Ten minutes later (the claim moved back): one more mail.
    diesel::RunQueryDsl::execute(
        diesel::sql_query("UPDATE verify_mail_sent SET sent_at = '2000-01-01 00:00:00'"),
        &mut app.db(),
    )
    .unwrap();
    let p = dave.post("/settings/mail/verify", &[]);
    assert_eq!(p.status, StatusCode::SEE_OTHER, "{}", p.body);
    assert_eq!(p.location.as_deref(), Some("/settings/mail?sent=1"));
    assert!(dave.get("/settings/mail?sent=1").has("id=\"verify-sent\""));
    assert_eq!(verify_mails(&app), 2);
    assert_eq!(
        dave.post("/settings/mail/verify", &[]).status,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(verify_mails(&app), 2);
    // The service with an injected clock: 9 minutes is too soon, 10 is not;
    // two clicks at once queue one mail.
    let id = user_id(&app, "dave");
    let t = at("2030-01-01 12:00");
    {
        let mut conn = app.db();
        mail_settings::send_verification(&mut conn, id, t).unwrap();
        assert!(matches!(
            mail_settings::send_verification(&mut conn, id, t + Duration::minutes(9)),
            Err(missive::domain::error::Error::RateLimited(_))
        ));
        mail_settings::send_verification(&mut conn, id, t + Duration::minutes(10)).unwrap();
    }
    assert_eq!(verify_mails(&app), 4);
    let later = t + Duration::minutes(30);
    let barrier = Arc::new(Barrier::new(2));
    let handles: Vec<_> = (0..2)
        .map(|_| {
            let url = app.database_url.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let mut conn = missive::db::Manager::new(&url).open().unwrap();
                barrier.wait();
                mail_settings::send_verification(&mut conn, id, later).is_ok()
            })
        })
        .collect();
    let results: Vec<bool> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let oks = results.iter().filter(|ok| **ok).count();
    assert_eq!(oks, 1);
    assert_eq!(verify_mails(&app), 5);
    // Once confirmed, the button is gone and asking is refused (422).
    let sig = missive::accounts::links::verify_sig(&secret(&app), id, "dave@example.org");
    assert_eq!(
        dave.get(&format!("/verify-email?u={id}&sig={sig}")).status,
        StatusCode::OK
    );
    assert!(!dave.get("/settings/mail").has("/settings/mail/verify"));
    assert_eq!(
        dave.post("/settings/mail/verify", &[]).status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(verify_mails(&app), 5);
}

/// Issue 9: the digest lists the games "sorted by time left": the least time
/// left first, games without a clock after them (longest waiting first), and
/// each clock's time left and deadline in the mail.
fn digest_lists_least_time_left_first(backend: Backend) {
    use missive::domain::time_control::TimeControl;
    use missive::game::challenge;
    use missive::mail::digest;
    let app = TestApp::start(backend);
    let t0 = at("2026-11-20 10:00");
    let alice = service_user(&app, "alice", "digest", true, t0);
    let bob = service_user(&app, "bob", "every", true, t0);
    let mut conn = app.db();
    let clocked = |conn: &mut missive::db::DbConn, tc: &str, start| {
        let tc: TimeControl = tc.parse().unwrap();
        challenge::create_active_game(conn, "chess", alice.id, bob.id, Some(&tc), None, start)
            .unwrap()
    };
    // No clock, waiting since the day before: listed last all the same.
    let unclocked = service_game(&app, &alice, &bob, t0 - Duration::days(1), &[]);
    // 7 days per move since t0 (7 days left at t0 + 1 h, less an hour)...
    let week = clocked(&mut conn, "7d/move", t0);
    // ...and 1 day per move since t0 + 30 min: the least time left.
    let day = clocked(&mut conn, "1d/move", t0 + Duration::minutes(30));
    let now = t0 + Duration::hours(1);
    let list = digest::games_to_list(&mut conn, alice.id, now).unwrap();
    let ids: Vec<GameId> = list.iter().map(|g| g.game_id).collect();
    assert_eq!(ids, vec![day, week, unclocked]);
    assert_eq!(list[0].time_left_secs, Some(23 * 3600 + 30 * 60));
    assert_eq!(list[1].time_left_secs, Some(7 * 86400 - 3600));
    assert_eq!(list[2].time_left_secs, None);
    assert!(
        list[0].clock_text.contains("deadline 2026-11-21 10:30 UTC"),
        "{}",
        list[0].clock_text
    );
    assert!(list[2].clock_text.is_empty());
    // The mail says so too.
    diesel::RunQueryDsl::execute(diesel::sql_query("DELETE FROM email_outbox"), &mut conn).unwrap();
    let seven = at("2026-11-20 07:00") + Duration::days(1);
    assert_eq!(digest::run_digests(&mut conn, 7, seven).unwrap().queued, 1);
    let (transport, sent) = Transport::memory();
    let s = sender(&app, transport, "mem");
    // Sent a minute later: the clocks have run on to then.
    let r = drain(&app, &s, seven + Duration::minutes(1));
    assert_eq!((r.sent, r.failed, r.skipped), (1, 0, 0));
    let text = smtp::readable(&sent.lock().unwrap()[0].raw);
    let plain = &text[..text.find("text/html").expect("an HTML part")];
    let pos = |g: i32| plain.find(&format!("Game {g} (Chess)")).unwrap();
    assert!(
        pos(day.get()) < pos(week.get()) && pos(week.get()) < pos(unclocked.get()),
        "{plain}"
    );
    assert!(plain.contains("the least time left first"), "{plain}");
    assert!(plain.contains("deadline 2026-11-21 10:30 UTC"), "{plain}");
}

/// Who gets which mail queued: the verification mail whether or not the
/// address is verified, anything else only to a verified address; nothing
/// under the "none" policy; no "your turn" under "digest".
fn enqueue_follows_verification_and_policy(backend: Backend) {
    let app = TestApp::start(backend);
    let now = missive::web::now();
    let (_alice, _bob, game) = started_game(&app);
    let mut n = 0;
    for policy in MailPolicy::ALL.iter().map(|p| p.code()) {
        for verified in [true, false] {
            n += 1;
            let u = service_user(&app, &format!("queue{n}"), policy, verified, now);
            let mails = [
                Mail::YourTurn {
                    game,
                    ply: 777,
                    from: None,
                    last_move: None,
                },
                Mail::GameOver {
                    game,
                    from: None,
                    last_move: None,
                },
                Mail::VerifyEmail,
                Mail::PasswordChanged,
            ];
            for mail in mails {
                let kind = mail.kind();
                // Security mails go to a confirmed address whatever the policy.
                if kind == MailKind::PasswordChanged {
                    outbox::enqueue(&mut app.db(), u.id, &mail, now).unwrap();
                    let queued = app.count(&format!(
                        "SELECT COUNT(*) AS n FROM email_outbox WHERE user_id = {} AND kind = '{kind}'",
                        u.id
                    ));
                    assert_eq!(queued, i64::from(verified), "{policy} {verified} {kind}");
                    continue;
                }
                outbox::enqueue(&mut app.db(), u.id, &mail, now).unwrap();
                let queued = app.count(&format!(
                    "SELECT COUNT(*) AS n FROM email_outbox WHERE user_id = {} AND kind = '{kind}'",
                    u.id
                ));
                let wanted = (verified || kind == MailKind::VerifyEmail)
                    && policy != MailPolicy::None.code()
                    && !(policy == MailPolicy::Digest.code() && kind == MailKind::YourTurn);
                assert_eq!(queued, i64::from(wanted), "{policy} {verified} {kind}");
            }
        }
    }
}

/// Until the address is confirmed, every page says so, with a button that
/// sends the mail again; once confirmed, no page does.
fn the_unconfirmed_are_told_on_every_page(backend: Backend) {
    let app = TestApp::start(backend);
    let carol = app.user("carol");
    let bob = vuser(&app, "bob");
    let id = bob.challenge("carol", "white");
    for path in [
        "/",
        "/variants",
        &format!("/games/{id}"),
        "/leave",
        "/tournaments",
    ] {
        let p = carol.get(path);
        assert_eq!(p.status, StatusCode::OK, "{path}");
        assert!(p.has("id=\"verify-notice\""), "{path}: {}", p.body);
        assert!(p.has("action=\"/settings/mail/verify\""), "{path}");
        assert!(!bob.get(path).has("id=\"verify-notice\""), "{path}");
    }
    assert!(!app.client().get("/").has("id=\"verify-notice\""));
    // The button works from any page: a new mail is queued (or refused as
    // too soon after the sign-up mail, with the wait said).
    let p = carol.post("/settings/mail/verify", &[]);
    assert!(
        p.status == StatusCode::SEE_OTHER || p.status == StatusCode::TOO_MANY_REQUESTS,
        "{}",
        p.status
    );
    let cid = user_id(&app, "carol");
    let sig = missive::accounts::links::verify_sig(&secret(&app), cid, "carol@example.org");
    assert_eq!(
        carol
            .get(&format!("/verify-email?u={cid}&sig={sig}"))
            .status,
        StatusCode::OK
    );
    assert!(!carol.get("/").has("id=\"verify-notice\""));
}
