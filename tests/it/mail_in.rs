//! `missive mail-in` (issue 42): messages piped into the built binary, as
//! a mail server's pipe transport does, on the test app's database.

use crate::common;
use missive::domain::ids::GameId;

use common::{Backend, TestApp};
use missive::accounts::links::ReplyToken;
use std::io::Write;
use std::process::{Command, Stdio};

/// Pipe `raw` into `missive mail-in` on the app's database, delivered to
/// the address its To header names (as the mail server's envelope would
/// be); its exit code.
fn mail_in(app: &TestApp, raw: &str) -> i32 {
    let to = raw
        .lines()
        .find_map(|l| l.strip_prefix("To: "))
        .unwrap_or("nobody@missive.test")
        .trim();
    mail_in_to(app, &[to], raw).0
}

/// Pipe `raw` into `missive mail-in RECIPIENT...`: its exit code and what
/// it wrote for the mail server's log.
fn mail_in_to(app: &TestApp, recipients: &[&str], raw: &str) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_missive"))
        .arg("mail-in")
        .args(recipients)
        .current_dir(dir.path())
        .env("DATABASE_URL", &app.database_url)
        .env("MISSIVE_MAIL_DOMAIN", "missive.test")
        .env("RUST_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // A message the command refuses unread may close the pipe early.
    let _ = stdin.write_all(raw.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn reply(from: &str, to: &str, id: &str, body: &str) -> String {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: Re: Your move\r\nMessage-ID: <{id}>\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{body}"
    )
}

fn address(app: &TestApp, game: GameId, user: i32, ply: i32, expires_in: i64) -> String {
    ReplyToken {
        game,
        user,
        ply,
        expires: missive::web::now().and_utc().timestamp() + expires_in,
    }
    .address(&app.secret(), "missive.test")
}

fn plies(app: &TestApp, game: GameId) -> i64 {
    app.count(&format!(
        "SELECT CAST(ply AS BIGINT) AS n FROM games WHERE id = {game}"
    ))
}

fn answers(app: &TestApp, kind: &str) -> i64 {
    app.count(&format!(
        "SELECT COUNT(*) AS n FROM email_outbox WHERE kind = '{kind}'"
    ))
}

fn replies_play_once_and_are_checked(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.verified_user("alice");
    let bob = app.verified_user("bob");
    let game = alice.challenge("bob", "white");
    bob.post(&format!("/games/{game}/accept"), &[]);
    let (a, b) = (app.user_id("alice"), app.user_id("bob"));
    let to = address(&app, game, a, 0, 3600);
    let body = "e4 // hello by mail\r\n\r\nOn Thu, Nov 26, 2026 at 5:00 PM Missive wrote:\r\n> Your move\r\n";
    let msg = reply("Alice <alice@example.org>", &to, "r1@example.org", body);
    assert_eq!(mail_in(&app, &msg), 0);
    assert_eq!(plies(&app, game), 1);
    let page = alice.get(&format!("/games/{game}"));
    assert!(page.has("e4"), "the move is on the game page");
    assert!(page.has("hello by mail"), "with its comment");
    assert_eq!(answers(&app, "reply_done"), 1);
    // Delivered again: acted on once.
    assert_eq!(mail_in(&app, &msg), 0);
    assert_eq!(plies(&app, game), 1);
    assert_eq!(answers(&app, "reply_done"), 1);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM mail_in"), 1);
    // The same address again (a new message): that move was played.
    let again = reply("alice@example.org", &to, "r2@example.org", "d4\r\n");
    assert_eq!(mail_in(&app, &again), 0);
    assert_eq!(plies(&app, game), 1);
    assert_eq!(answers(&app, "reply_refused"), 1);

    // Bob to move: a tampered token is an unknown address (bounced).
    let good = address(&app, game, b, 1, 3600);
    let at = good.find('@').unwrap();
    let last = &good[at - 1..at];
    let tampered = format!(
        "{}{}{}",
        &good[..at - 1],
        if last == "0" { "1" } else { "0" },
        &good[at..]
    );
    assert_ne!(tampered, good);
    let msg = reply("bob@example.org", &tampered, "r3@example.org", "e5\r\n");
    assert_eq!(mail_in(&app, &msg), 67);
    let msg = reply(
        "bob@example.org",
        "bob@missive.test",
        "r4@example.org",
        "e5\r\n",
    );
    assert_eq!(mail_in(&app, &msg), 67);
    assert_eq!(mail_in(&app, "\r\n"), 65);
    // Another sender: refused, told to the player.
    let msg = reply("mallory@example.org", &good, "r5@example.org", "e5\r\n");
    assert_eq!(mail_in(&app, &msg), 0);
    assert_eq!(answers(&app, "reply_refused"), 2);
    // Expired.
    let old = address(&app, game, b, 1, -10);
    let msg = reply("bob@example.org", &old, "r6@example.org", "e5\r\n");
    assert_eq!(mail_in(&app, &msg), 0);
    assert_eq!(answers(&app, "reply_refused"), 3);
    // Illegal: the engine's reason, nothing played.
    let msg = reply("bob@example.org", &good, "r7@example.org", "Ke2\r\n");
    assert_eq!(mail_in(&app, &msg), 0);
    assert_eq!(plies(&app, game), 1);
    assert_eq!(answers(&app, "reply_refused"), 4);
    // Then a good one from the same address, with a conditional line.
    let msg = reply(
        "bob@example.org",
        &good,
        "r8@example.org",
        "e5 if Nf3 then Nc6\r\n",
    );
    assert_eq!(mail_in(&app, &msg), 0);
    assert_eq!(plies(&app, game), 2);
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM conditional_lines"),
        1,
        "the line is kept"
    );
    // Alice resigns by mail.
    let to = address(&app, game, a, 2, 3600);
    let msg = reply("alice@example.org", &to, "r9@example.org", "Resign\r\n");
    assert_eq!(mail_in(&app, &msg), 0);
    assert_eq!(
        app.count(&format!(
            "SELECT COUNT(*) AS n FROM games WHERE id = {game} AND status = 'finished'"
        )),
        1
    );
    assert_eq!(answers(&app, "reply_done"), 3);
}

/// Issue 60, finding 7: the token counts only as the envelope recipient;
/// recipients are capped; refusal mails are capped per game per day.
fn only_the_envelope_recipient_counts_and_refusals_are_capped(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.verified_user("alice");
    let bob = app.verified_user("bob");
    let game = alice.challenge("bob", "white");
    bob.post(&format!("/games/{game}/accept"), &[]);
    let a = app.user_id("alice");
    let token = address(&app, game, a, 0, 3600);
    // A forged From (alice's confirmed address) with her token only in Cc,
    // delivered to another address of the domain: nothing at all.
    let forged = format!(
        "From: alice@example.org\r\nTo: anything@missive.test\r\nCc: {token}\r\n\
         Subject: Re\r\nMessage-ID: <f1@example.org>\r\n\r\nresign\r\n"
    );
    let (code, note) = mail_in_to(&app, &["anything@missive.test"], &forged);
    assert_eq!(code, 67, "{note}");
    // The same through another reply address of ours (a made-up token).
    let fake = "play+1-1-0-zzzzzz-000000000000000000000000@missive.test";
    let (code, note) = mail_in_to(&app, &[fake], &forged);
    assert_eq!(code, 67, "{note}");
    assert_eq!(
        app.count(&format!(
            "SELECT COUNT(*) AS n FROM games WHERE id = {game} AND status = 'active'"
        )),
        1,
        "the game goes on"
    );
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM email_outbox WHERE kind LIKE 'reply%'"),
        0
    );

    // 100,000 fake play+ addresses in one message's To: refused unread.
    let many: Vec<String> = (0..100_000)
        .map(|i| format!("play+{i}-1-0-zzzzzz-000000000000000000000000@missive.test"))
        .collect();
    let crowd = format!(
        "From: alice@example.org\r\nTo: {}\r\nSubject: Re\r\nMessage-ID: <f2@example.org>\r\n\r\nresign\r\n",
        many.join(", ")
    );
    let started = std::time::Instant::now();
    let (code, note) = mail_in_to(&app, &[&token], &crowd);
    eprintln!(
        "100,000 header recipients: refused in {:?}",
        started.elapsed()
    );
    assert_eq!(code, 67, "{note}");
    assert!(note.contains("more than 10"), "{note}");
    // As many envelope recipients: refused before the message is read.
    let args: Vec<&str> = many.iter().take(1_000).map(String::as_str).collect();
    let (code, note) = mail_in_to(&app, &args, &forged);
    assert_eq!(code, 67, "{note}");
    assert!(note.contains("1000 recipients"), "{note}");
    // No envelope recipient (a pipe set up before this change): kept.
    assert_eq!(mail_in_to(&app, &[], &forged).0, 75);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM mail_in"), 0);

    // A stranger with the leaked token: each message refused and recorded,
    // but only the first 5 of the day mailed to alice.
    for i in 0..8 {
        let msg = reply(
            "mallory@example.org",
            &token,
            &format!("m{i}@example.org"),
            "e4\r\n",
        );
        assert_eq!(mail_in(&app, &msg), 0);
    }
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM mail_in"), 8);
    assert_eq!(answers(&app, "reply_refused"), 5);
    assert_eq!(plies(&app, game), 0);
    // Her own reply still plays (and its confirmation is mailed).
    let msg = reply("alice@example.org", &token, "own@example.org", "e4\r\n");
    assert_eq!(mail_in(&app, &msg), 0);
    assert_eq!(plies(&app, game), 1);
    assert_eq!(answers(&app, "reply_done"), 1);
}

both_backends!(
    replies_play_once_and_are_checked,
    only_the_envelope_recipient_counts_and_refusals_are_capped,
);

/// An unreachable database: try later (75), the mail server keeps it.
#[test]
fn an_unreachable_database_is_try_later() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_missive"))
        .arg("mail-in")
        .arg("play+1-1-0-zzzzzz-000000000000000000000000@missive.test")
        .current_dir(dir.path())
        .env(
            "DATABASE_URL",
            "postgres://nobody@127.0.0.1:1/none?connect_timeout=2",
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let msg = reply(
        "a@example.org",
        "play+1-1-0-zzzzzz-000000000000000000000000@missive.test",
        "x@example.org",
        "e4\r\n",
    );
    child
        .stdin
        .take()
        .unwrap()
        .write_all(msg.as_bytes())
        .unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(75));
}
