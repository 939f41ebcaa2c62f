//! Game pages kept as sent (`src/page_cache.rs`): sent again only while
//! nothing they show was committed (SQLite: `src/db/changes.rs`;
//! PostgreSQL, by any process: `src/db/page_changes.rs`) and for no longer
//! than `MISSIVE_PAGE_CACHE_MS`, each to the session it was drawn for.

mod common;

use common::{Backend, TestApp};
use diesel::prelude::*;
use std::ffi::CString;

/// Commit `sql` where no server process sees it, to tell a kept page from
/// a drawn one: on SQLite through a connection whose hooks are taken off
/// (as one made by another process, a `missive user` command, is not seen);
/// on PostgreSQL with triggers off for the session
/// (`session_replication_role = replica`).
fn commit_unseen(app: &TestApp, sql: &str) {
    match app.backend {
        Backend::Sqlite => commit_unseen_sqlite(&app.database_url, sql),
        Backend::Postgres => {
            let mut conn = app.db();
            diesel::sql_query("SET session_replication_role = replica")
                .execute(&mut conn)
                .unwrap();
            assert_eq!(diesel::sql_query(sql).execute(&mut conn).unwrap(), 1);
        }
    }
}

fn commit_unseen_sqlite(path: &str, sql: &str) {
    use libsqlite3_sys as ffi;
    let path = CString::new(path).unwrap();
    let sql = CString::new(sql).unwrap();
    // SAFETY: one connection, opened, used and closed on this thread; every
    // pointer handed over lives until the call returns.
    unsafe {
        let mut db = std::ptr::null_mut();
        assert_eq!(ffi::sqlite3_open(path.as_ptr(), &mut db), ffi::SQLITE_OK);
        ffi::sqlite3_commit_hook(db, None, std::ptr::null_mut());
        ffi::sqlite3_wal_hook(db, None, std::ptr::null_mut());
        ffi::sqlite3_rollback_hook(db, None, std::ptr::null_mut());
        ffi::sqlite3_preupdate_hook(db, None, std::ptr::null_mut());
        ffi::sqlite3_busy_timeout(db, 10_000);
        let rc = ffi::sqlite3_exec(
            db,
            sql.as_ptr(),
            None,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        );
        assert_eq!(ffi::sqlite3_changes(db), 1, "one row changed");
        ffi::sqlite3_close(db);
        assert_eq!(rc, ffi::SQLITE_OK);
    }
}

/// A write committed by a connection of the server's own kind (it is seen).
fn commit_counted(app: &TestApp, sql: &str) {
    let n = diesel::sql_query(sql).execute(&mut app.db()).unwrap();
    assert_eq!(n, 1, "one row changed");
}

fn alice_and_bob(cache_ms: u64) -> (TestApp, common::TestClient, common::TestClient, i32) {
    TestApp::game_of_alice_and_bob_with(Backend::Sqlite, |c| c.page_cache_ms = cache_ms)
}

const OFFER: &str = "Your opponent offers a draw.";

#[test]
fn a_commit_is_counted_once_done() {
    let dir = tempfile::tempdir().unwrap();
    let url = dir.path().join("count.db").to_string_lossy().into_owned();
    let mut conn = missive::db::Manager::new(&url).open().unwrap();
    let missive::db::DbConn::Sqlite(c) = &mut conn else {
        unreachable!("an SQLite path opens SQLite")
    };
    diesel::sql_query("CREATE TABLE t (x INTEGER)")
        .execute(c)
        .unwrap();
    for i in 0..3 {
        let before = missive::db::changes::commits();
        diesel::sql_query(format!("INSERT INTO t VALUES ({i})"))
            .execute(c)
            .unwrap();
        // Other tests' commits may count too, so "at least one more".
        assert!(
            missive::db::changes::commits() > before,
            "commit {i} counted"
        );
    }
}

/// A game of alice (White) and bob, accepted, with a version of its own:
/// the server's other tests' games, in their own databases, have ids far
/// below 4,000, so none of their commits moves it.
fn game_with_a_version_of_its_own(
    app: &TestApp,
    alice: &common::TestClient,
    bob: &common::TestClient,
) -> i32 {
    commit_counted(
        app,
        "UPDATE sqlite_sequence SET seq = 4000 WHERE name = 'games'",
    );
    let id = alice.challenge("bob", "white");
    assert!((4001..4096).contains(&id), "game {id}");
    bob.post(&format!("/games/{id}/accept"), &[]);
    id
}

fn version_of(game: i32) -> missive::db::changes::Version {
    missive::db::changes::version_of(game)
}

/// Black offers a draw in `game`, or takes it back, behind the server's back.
fn toggle_offer(app: &TestApp, game: i32) {
    commit_unseen(
        app,
        &format!(
            "UPDATE games SET draw_offer = CASE WHEN draw_offer IS NULL THEN 'black' END \
             WHERE id = {game}"
        ),
    );
}

#[test]
fn a_kept_page_is_sent_again_until_anything_it_shows_is_committed() {
    let (app, alice, bob, other) = alice_and_bob(600_000);
    let id = game_with_a_version_of_its_own(&app, &alice, &bob);
    let page = format!("/games/{id}");
    // Moves in another game, through the server (16 plies of an Italian
    // game, one a try), and writes no game page reads, between two views.
    let mut line = [
        "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3", "Nf6", "d3", "d6", "O-O", "O-O", "h3", "h6",
        "a4", "a6",
    ]
    .iter()
    .zip([&alice, &bob].into_iter().cycle());
    let mut offered = false;
    // A commit that may change anything (another test's migrations, say) drops
    // the kept page too, so a try with one between the two views is made
    // again.
    let kept_through_other_commits = (0..16).any(|_| {
        let before = version_of(id);
        let first = alice.get(&page);
        toggle_offer(&app, id);
        offered = !offered;
        let (text, player) = line.next().unwrap();
        assert_eq!(
            player.play(other, text).status(),
            reqwest::StatusCode::SEE_OTHER
        );
        commit_counted(
            &app,
            "INSERT INTO login_attempts (username_key, ip, success, attempted_at) \
             VALUES ('nobody', '192.0.2.1', 0, CURRENT_TIMESTAMP)",
        );
        let again = alice.get(&page);
        if version_of(id) != before {
            return false;
        }
        // The game changed under the kept page, unseen: it stands.
        assert!(again.body == first.body, "the kept page is sent again");
        true
    });
    assert!(
        kept_through_other_commits,
        "16 tries, each with a commit that may change anything"
    );
    // ...until this process commits to its game...
    commit_counted(
        &app,
        &format!("UPDATE games SET updated_at = datetime(updated_at, '+1 second') WHERE id = {id}"),
    );
    assert_eq!(
        alice.get(&page).has(OFFER),
        offered,
        "a commit to the game drops its kept pages"
    );
    // ...or anything not known to belong to one game.
    toggle_offer(&app, id);
    offered = !offered;
    commit_counted(
        &app,
        "UPDATE users SET confirm_moves = NOT confirm_moves WHERE username = 'bob'",
    );
    assert_eq!(
        alice.get(&page).has(OFFER),
        offered,
        "a commit to a user drops every kept page"
    );
}

#[test]
fn commits_move_the_versions_of_what_they_changed() {
    let (app, alice, bob, other) = alice_and_bob(600_000);
    let id = game_with_a_version_of_its_own(&app, &alice, &bob);
    assert_eq!(
        alice.play(id, "e4").status(),
        reqwest::StatusCode::SEE_OTHER
    );
    // Only this test writes game `id`, and no game of another test shares
    // its version, so each of these is what one commit did.
    let moves_it = |sql: &str| {
        let before = version_of(id);
        commit_counted(&app, sql);
        version_of(id).game != before.game
    };
    for (sql, what) in [
        (
            format!("UPDATE games SET draw_offer = 'black' WHERE id = {id}"),
            "its row",
        ),
        (
            format!("UPDATE moves SET comment = 'c' WHERE game_id = {id} AND ply = 1"),
            "a move (a table without rowids)",
        ),
        (
            format!("UPDATE game_histories SET ply = ply + 1 WHERE game_id = {id}"),
            "its repetition history",
        ),
        (
            format!(
                "INSERT INTO game_notes (game_id, user_id, body, updated_at) \
                 SELECT {id}, id, 'a note', CURRENT_TIMESTAMP FROM users WHERE username = 'bob'"
            ),
            "a note written",
        ),
        (
            format!("DELETE FROM game_notes WHERE game_id = {id}"),
            "a note deleted",
        ),
    ] {
        assert!(
            moves_it(&sql),
            "a commit to {what} moves the game's version"
        );
    }
    for (sql, what) in [
        (
            format!(
                "UPDATE games SET draw_offer = CASE WHEN draw_offer IS NULL THEN 'white' END \
                 WHERE id = {other}"
            ),
            "another game",
        ),
        (
            "UPDATE email_outbox SET attempts = attempts + 1 WHERE id = (SELECT MIN(id) FROM email_outbox)"
                .to_string(),
            "the outbox",
        ),
    ] {
        assert!(!moves_it(&sql), "a commit to {what} leaves the game's version");
    }
    // A commit to anything else moves every game's: the part all share.
    let before = version_of(id);
    commit_counted(
        &app,
        "UPDATE users SET confirm_moves = NOT confirm_moves WHERE username = 'bob'",
    );
    assert!(
        version_of(id).everything > before.everything,
        "a user's row"
    );
}

#[test]
fn a_kept_page_is_sent_no_longer_than_its_time() {
    let (app, alice, _bob, id) = alice_and_bob(1);
    let page = format!("/games/{id}");
    assert!(!alice.get(&page).has(OFFER));
    commit_unseen(
        &app,
        &format!("UPDATE games SET draw_offer = 'black' WHERE id = {id}"),
    );
    // Longer than the page may be kept (1 ms): it is drawn afresh.
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert!(alice.get(&page).has(OFFER));
}

#[test]
fn a_move_is_on_both_pages_at_once() {
    a_move_is_on_both_pages_at_once_on(Backend::Sqlite);
    if common::postgres_url().is_some() {
        a_move_is_on_both_pages_at_once_on(Backend::Postgres);
    } else {
        eprintln!("MISSIVE_TEST_POSTGRES_URL is not set: PostgreSQL part skipped");
    }
}

/// On PostgreSQL the database reports the move to the server a look later;
/// the server's own writes count at once ([`missive::page_cache::PageCache::wrote`]).
fn a_move_is_on_both_pages_at_once_on(backend: Backend) {
    let (_app, alice, bob, id) =
        TestApp::game_of_alice_and_bob_with(backend, |c| c.page_cache_ms = 600_000);
    let page = format!("/games/{id}");
    assert!(alice.get(&page).has("Your turn"));
    assert!(!bob.get(&page).has("Your turn"));
    assert_eq!(
        alice.play(id, "e4").status(),
        reqwest::StatusCode::SEE_OTHER
    );
    let (a, b) = (alice.get(&page), bob.get(&page));
    assert!(a.has("e4") && !a.has("Your turn"), "the mover's page");
    assert!(b.has("e4") && b.has("Your turn"), "the opponent's page");
}

#[test]
fn each_session_gets_the_page_drawn_for_it() {
    let (app, alice, bob, id) = alice_and_bob(600_000);
    let page = format!("/games/{id}");
    let anonymous = app.client();
    // Twice each, so the second views come from the kept pages.
    for _ in 0..2 {
        let (a, b, n) = (alice.get(&page), bob.get(&page), anonymous.get(&page));
        assert!(a.has(r#"<span class="who">alice</span>"#) && !a.has(r#"class="who">bob"#));
        assert!(b.has(r#"<span class="who">bob</span>"#) && !b.has(r#"class="who">alice"#));
        assert!(!n.has(r#"class="who""#) && n.has("Log in"));
        assert_eq!(common::csrf_from(&a.body), Some(alice.csrf()));
        assert_eq!(common::csrf_from(&b.body), Some(bob.csrf()));
        assert_ne!(alice.csrf(), bob.csrf());
    }
    // A second login of alice (another browser) is another session.
    let elsewhere = app.client();
    elsewhere.login("alice", "correct horse battery");
    let e = elsewhere.get(&page);
    assert_eq!(common::csrf_from(&e.body), Some(elsewhere.csrf()));
    // Logging out commits, so the old session's page is not sent again.
    let out = alice.post("/logout", &[]);
    assert_eq!(out.status(), reqwest::StatusCode::SEE_OTHER);
    assert!(!alice.get(&page).has(r#"class="who">alice"#));
}

#[test]
fn no_page_is_kept_on_postgres_when_turned_off_or_without_a_log() {
    let kept = |backend, ms: u64| {
        let app = TestApp::start_with(backend, |c| c.page_cache_ms = ms);
        missive::build_state(&app.config).unwrap().pages.is_on()
    };
    assert!(
        kept(Backend::Sqlite, 1000),
        "on by default for an SQLite file"
    );
    assert!(
        !kept(Backend::Sqlite, 0),
        "MISSIVE_PAGE_CACHE_MS=0 turns it off"
    );
    let memory = missive::db::connect(":memory:", 1).unwrap();
    assert!(
        !missive::db::counts_commits(&memory),
        "no WAL, no commit count"
    );
    if common::postgres_url().is_some() {
        assert!(kept(Backend::Postgres, 1000), "on by default on PostgreSQL");
        assert!(
            !kept(Backend::Postgres, 0),
            "MISSIVE_PAGE_CACHE_MS=0 turns it off"
        );
    } else {
        eprintln!("MISSIVE_TEST_POSTGRES_URL is not set: PostgreSQL part skipped");
    }
}

/// Alice and Bob's game on PostgreSQL, or `None` (said) without it.
fn postgres_game(cache_ms: u64) -> Option<(TestApp, common::TestClient, common::TestClient, i32)> {
    if common::postgres_url().is_none() {
        eprintln!("MISSIVE_TEST_POSTGRES_URL is not set: PostgreSQL test skipped");
        return None;
    }
    Some(TestApp::game_of_alice_and_bob_with(
        Backend::Postgres,
        |c| c.page_cache_ms = cache_ms,
    ))
}

/// Until `done` holds, for at most 20 s (a look comes every 5 ms; the
/// bound is for a machine under load, not a timing).
fn eventually(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !done() {
        assert!(std::time::Instant::now() < deadline, "never: {what}");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// On PostgreSQL: toggle the draw offer behind every process's back once
/// alice's page is kept, so that the page still shows it as before.
fn postgres_page_kept_over_an_unseen_change(
    app: &TestApp,
    alice: &common::TestClient,
    id: i32,
    offered: &mut bool,
) {
    let page = format!("/games/{id}");
    // The watch's first look, or a busy machine's late one, keeps nothing
    // for a moment: then the page is drawn afresh and the try made again.
    let kept = (0..200).any(|_| {
        assert_eq!(alice.get(&page).has(OFFER), *offered);
        toggle_offer(app, id);
        *offered = !*offered;
        if alice.get(&page).has(OFFER) == *offered {
            std::thread::sleep(std::time::Duration::from_millis(10));
            return false;
        }
        true
    });
    assert!(kept, "a PostgreSQL page is kept");
}

/// On PostgreSQL: once alice's page is kept over an unseen change, `told`
/// committed by a connection of another process drops it.
fn postgres_kept_page_dropped_by(
    app: &TestApp,
    alice: &common::TestClient,
    id: i32,
    told: &str,
    offered: &mut bool,
) {
    postgres_page_kept_over_an_unseen_change(app, alice, id, offered);
    commit_counted(app, told);
    let page = format!("/games/{id}");
    eventually(told, || alice.get(&page).has(OFFER) == *offered);
}

#[test]
fn postgres_pages_are_kept_until_any_process_commits_what_they_show() {
    let Some((app, alice, _bob, id)) = postgres_game(600_000) else {
        return;
    };
    let mut offered = false;
    for told in [
        format!("UPDATE games SET updated_at = updated_at + interval '1 second' WHERE id = {id}"),
        format!("UPDATE moves SET comment = 'c' WHERE game_id = {id}"),
        "UPDATE users SET confirm_moves = NOT confirm_moves WHERE username = 'bob'".into(),
        "DELETE FROM sessions WHERE id = (SELECT MIN(id) FROM sessions \
         WHERE user_id = (SELECT id FROM users WHERE username = 'bob'))"
            .into(),
    ] {
        if told.starts_with("UPDATE moves") {
            let played = alice.play(id, "e4");
            assert_eq!(
                played.status(),
                reqwest::StatusCode::SEE_OTHER,
                "{}",
                played.body
            );
        }
        postgres_kept_page_dropped_by(&app, &alice, id, &told, &mut offered);
    }
}

#[test]
fn postgres_pages_are_dropped_when_the_watch_loses_its_connection() {
    let Some((app, alice, _bob, id)) = postgres_game(600_000) else {
        return;
    };
    let page = format!("/games/{id}");
    let mut offered = false;
    let touch =
        format!("UPDATE games SET updated_at = updated_at + interval '1 second' WHERE id = {id}");
    postgres_kept_page_dropped_by(&app, &alice, id, &touch, &mut offered);
    // Kept again over a change no process is told of...
    postgres_page_kept_over_an_unseen_change(&app, &alice, id, &mut offered);
    // ...and every connection of the server ended, the watch's among them
    // (as a database restart would). What happened while it was not
    // looking cannot be known, so its first look on a new connection drops
    // every kept page.
    #[derive(QueryableByName)]
    struct Ended {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let ended: Ended = diesel::sql_query(
        "SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    .get_result(&mut app.db())
    .unwrap();
    assert!(ended.n > 0);
    // No view until the watch is back (it tries every 0.5 s): a view while
    // it is down is drawn afresh and kept anew, over the page kept before.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    eventually("the unseen change shown", || {
        alice.get(&page).has(OFFER) == offered
    });
    // Pages are kept, and dropped by what they show, again.
    postgres_kept_page_dropped_by(
        &app,
        &alice,
        id,
        "UPDATE users SET confirm_moves = NOT confirm_moves WHERE username = 'bob'",
        &mut offered,
    );
}

#[test]
fn postgres_pages_of_two_processes_follow_each_others_moves() {
    let Some((app, alice, bob, id)) = postgres_game(600_000) else {
        return;
    };
    let page = format!("/games/{id}");
    // A second server process on the same database; the same sessions.
    let (base, handle, thread) = common::launch(app.config.clone());
    let alice_there = common::TestClient {
        base,
        http: alice.http.clone(),
    };
    for (mover, text, watcher) in [(&alice_there, "e4", &bob), (&bob, "e5", &alice_there)] {
        // The watcher's page is kept where it is viewed...
        assert!(!watcher.get(&page).has("Your turn"), "{text}");
        assert!(!watcher.get(&page).has("Your turn"), "{text}");
        // ...the move is made on the other process, on whose page it is at
        // once...
        assert_eq!(
            mover.play(id, text).status(),
            reqwest::StatusCode::SEE_OTHER
        );
        let after = mover.get(&page);
        assert!(after.has(text) && !after.has("Your turn"), "{text}");
        // ...and the watcher's process drops its page when it looks.
        eventually(text, || watcher.get(&page).has("Your turn"));
    }
    common::halt(handle, thread);
}

#[test]
fn every_postgres_table_a_game_page_reads_reports_its_changes() {
    let Some((app, ..)) = postgres_game(1000) else {
        return;
    };
    #[derive(QueryableByName, Debug)]
    struct Trigger {
        #[diesel(sql_type = diesel::sql_types::Text)]
        table_name: String,
        #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Text>)]
        function: Option<String>,
        #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Text>)]
        truncate_function: Option<String>,
    }
    let tables: Vec<Trigger> = diesel::sql_query(
        "SELECT c.relname::text AS table_name, \
           (SELECT p.proname::text FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid \
             WHERE t.tgrelid = c.oid AND t.tgname = 'page_changes') AS function, \
           (SELECT p.proname::text FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid \
             WHERE t.tgrelid = c.oid AND t.tgname = 'page_changes_truncated') AS truncate_function \
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
         WHERE c.relkind = 'r' AND n.nspname = 'public' \
           AND c.relname NOT IN ('page_changes', '__diesel_schema_migrations')",
    )
    .load(&mut app.db())
    .unwrap();
    assert!(tables.len() >= 20, "{tables:?}");
    for t in &tables {
        let name = t.table_name.as_str();
        let want = if missive::db::changes::UNREAD_TABLES.contains(&name) {
            None
        } else if missive::db::changes::GAME_TABLES
            .iter()
            .any(|(g, _)| *g == name)
        {
            Some("page_changes_game")
        } else {
            Some("page_changes_anything")
        };
        assert_eq!(t.function.as_deref(), want, "{name}");
        assert_eq!(
            t.truncate_function.as_deref(),
            want.map(|_| "page_changes_anything"),
            "{name}"
        );
    }
}

#[test]
fn postgres_page_changes_are_pruned_after_a_minute() {
    let Some((app, ..)) = postgres_game(0) else {
        return;
    };
    let mut conn = app.db();
    // Two transactions' changes: one begun two minutes ago, one now.
    for sql in [
        "INSERT INTO page_changes (xid, game_id, at) \
         VALUES ('1', 424242, now() - interval '2 minutes')",
        "INSERT INTO page_changes (xid, game_id) VALUES ('2', 434343)",
    ] {
        diesel::sql_query(sql).execute(&mut conn).unwrap();
    }
    assert!(missive::db::page_changes::prune(&mut conn).unwrap() >= 1);
    let left = |game: i64| {
        app.count(&format!(
            "SELECT count(*) AS n FROM page_changes WHERE game_id = {game}"
        ))
    };
    assert_eq!(left(424242), 0, "the old change is forgotten");
    assert_eq!(left(434343), 1, "the new one is kept");
    // Nothing to prune on SQLite.
    let sqlite = TestApp::start(Backend::Sqlite);
    assert_eq!(
        missive::db::page_changes::prune(&mut sqlite.db()).unwrap(),
        0
    );
}
