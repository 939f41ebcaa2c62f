//! Issue 62: a player posts a variant, its check report is shown, a game
//! of it is played to checkmate over HTTP; editing makes a new version
//! while old games keep theirs; hostile definitions are refused within
//! the budget while other pages answer.

use crate::common;
use missive::domain::ids::GameId;

use common::{Backend, TestApp, TestClient};
use reqwest::StatusCode;
use sha2::{Digest, Sha256};
use std::time::{Duration, Instant};

both_backends!(
    a_posted_variant_is_checked_listed_and_played_to_checkmate,
    editing_makes_a_new_version_and_old_games_keep_theirs,
);

/// 6x6 chess with Camels (a (1,3) leaper) for the Knights.
pub const CAMEL6: &str = include_str!("../fixtures/camel6.ini");

const RULES: &str = "Chess on six by six squares.\n\n- Camels leap one square one way and three the other.\n- Pawns never step twice.";

fn post(c: &TestClient, name: &str, definition: &str, visibility: &str) -> common::Page {
    c.post(
        "/variants/new",
        &[
            ("name", name),
            ("definition", definition),
            ("rules", RULES),
            ("visibility", visibility),
        ],
    )
}

/// The id a successful post went to.
fn posted_id(p: &common::Page) -> String {
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
    let loc = p.location.clone().unwrap();
    let id = loc
        .trim_start_matches("/variants/")
        .trim_end_matches("?posted=1");
    id.to_string()
}

fn version_of(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

fn accepted_game(alice: &TestClient, bob: &TestClient, variant: &str) -> GameId {
    alice.game_accepted_by(bob, "bob", variant)
}

fn played(c: &TestClient, id: GameId, text: &str) {
    let p = c.play(id, text);
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{text}: {}", p.body);
}

fn a_posted_variant_is_checked_listed_and_played_to_checkmate(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.verified_user("alice");
    let bob = app.verified_user("bob");
    // An unconfirmed address may not post.
    let carol = app.user("carol");
    assert_eq!(carol.get("/variants/new").status(), StatusCode::FORBIDDEN);
    assert_eq!(alice.get("/variants/new").status(), StatusCode::OK);
    // Copy and edit starts from the variant's definition.
    let copy = alice.get("/variants/new?from=capablanca");
    assert!(copy.has("[my-capablanca:capablanca]"), "{}", copy.body);

    let id = posted_id(&post(&alice, "Camel six", CAMEL6, "public"));
    assert_eq!(id, "camel-six");
    let page = alice.get(&format!("/variants/{id}?posted=1"));
    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.has("passed its check"));
    // The report: perft (6 pawn steps and 4 camel leaps), 200 games.
    assert!(page.has("depth 1: 10;"), "{}", page.body);
    assert!(page.has("Random games</dt><dd>200:"), "{}", page.body);
    assert!(page.has("moves written and read back"));
    // The start board and the legend come from the definition.
    assert!(page.has("id=\"start-position\""));
    assert!(page.has("<li>Camels leap one square one way and three the other.</li>"));
    // The version is the SHA-256 of the text as kept, served as .ini.
    let ini_link = page
        .body
        .split("href=\"")
        .find(|s| s.contains(".ini\""))
        .unwrap();
    let ini_path = &ini_link[..ini_link.find('"').unwrap()];
    let ini = alice.get(ini_path);
    assert_eq!(ini.status(), StatusCode::OK);
    assert_eq!(ini.body, CAMEL6);
    let version = version_of(&ini.body);
    assert_eq!(ini_path, format!("/variants/{id}/{version}.ini"));
    // Public: listed under Community variants, for everyone.
    let list = app.client().get("/variants");
    assert!(list.has("Community variants") && list.has("href=\"/variants/camel-six\""));

    // Not approved: rated play is refused with why; casual is played.
    let p = alice.post(
        "/games/new",
        &[
            ("variant", &id),
            ("opponent", "bob"),
            ("color", "white"),
            ("rated", "1"),
        ],
    );
    assert_eq!(p.status(), StatusCode::UNPROCESSABLE_ENTITY, "{}", p.body);
    assert!(p.has("not yet approved for rated play"));
    let game = accepted_game(&alice, &bob, &id);
    // Black mates: the b-pawn steps aside, a Camel comes round to e4.
    for (who, mv) in [
        (&alice, "a3"),
        (&bob, "b4"),
        (&alice, "b3"),
        (&bob, "Cb5"),
        (&alice, "a4"),
        (&bob, "Ce4"),
    ] {
        played(who, game, mv);
    }
    let json = alice.json(game);
    assert_eq!(json["status"], "finished", "{json}");
    assert_eq!(json["result"], "0-1");
    assert_eq!(json["reason"], "checkmate");
    assert_eq!(json["variant"], "camel-six");
    assert_eq!(json["variant_name"], "Camel six");
    assert_eq!(json["variant_version"], version.as_str());
    let pgn = alice.get(&format!("/games/{game}.pgn"));
    assert!(pgn.has("[Variant \"camel-six\"]"), "{}", pgn.body);
    assert!(pgn.has(&format!("[VariantVersion \"{version}\"]")));
    assert!(pgn.has("Ce4#"), "{}", pgn.body);
    // The variant's page counts and lists the game.
    let page = bob.get(&format!("/variants/{id}"));
    assert!(page.has("1 games played") && page.has(&format!("href=\"/games/{game}\"")));

    // Waiting for approval: on the administrators' page with its report.
    missive::accounts::admins::set_admin(&mut app.db(), "bob", true, missive::web::now()).unwrap();
    let admin = bob.get("/admin/variants");
    assert_eq!(admin.status(), StatusCode::OK);
    assert!(admin.has("Camel six") && admin.has(&version) && admin.has("depth 1: 10;"));
    assert_eq!(alice.get("/admin/variants").status(), StatusCode::FORBIDDEN);
    // Approved, its games may be rated.
    let cli = app.missive(&["variant", "approve", &id, &version]);
    assert!(
        cli.status.success(),
        "{}",
        String::from_utf8_lossy(&cli.stderr)
    );
    let rated = alice.new_game(&[
        ("variant", &id),
        ("opponent", "bob"),
        ("color", "white"),
        ("rated", "1"),
    ]);
    assert!(alice.json(rated)["rated"].as_bool().unwrap_or(false));
    // Tournaments take built-in variants only, even an approved version's key.
    let director = app.member("dora", true);
    let closes = (missive::web::now() + chrono::Duration::days(5))
        .format("%Y-%m-%d")
        .to_string();
    let key = format!("{id}@{version}");
    for variant in [id.as_str(), key.as_str()] {
        let p = director.post(
            "/tournaments/new",
            &[
                ("name", "Camel cup"),
                ("variant", variant),
                ("time_control", "7d/move"),
                ("format", "round-robin"),
                ("entry_closes", &closes),
                ("max_players", "8"),
            ],
        );
        assert_eq!(
            p.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{variant}: {}",
            p.body
        );
        assert!(p.has("There is no variant"), "{}", p.body);
    }
    // Its result goes to the version's own rating list.
    assert_eq!(
        bob.post(&format!("/games/{rated}/accept"), &[]).status(),
        StatusCode::SEE_OTHER
    );
    // (A game resigned before both have moved is aborted, not rated.)
    played(&alice, rated, "a3");
    played(&bob, rated, "a4");
    let p = alice.post(&format!("/games/{rated}/resign"), &[("confirm", "1")]);
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
    let list = app.client().get(&format!("/ratings/{id}@{version}"));
    assert_eq!(list.status(), StatusCode::OK);
    assert!(
        list.has("Camel six") && list.has("bob") && list.has("alice"),
        "{}",
        list.body
    );
    assert!(bob
        .get(&format!("/variants/{id}"))
        .has(&format!("href=\"/ratings/{id}@{version}\"")));
}

fn editing_makes_a_new_version_and_old_games_keep_theirs(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.verified_user("alice");
    let bob = app.verified_user("bob");
    let id = posted_id(&post(&alice, "Camel six", CAMEL6, "unlisted"));
    // Unlisted: not on the list, but anyone with the link sees it.
    assert!(!app
        .client()
        .get("/variants")
        .has("href=\"/variants/camel-six\""));
    assert_eq!(
        app.client().get(&format!("/variants/{id}")).status(),
        StatusCode::OK
    );
    let v1 = version_of(CAMEL6);
    let old = accepted_game(&alice, &bob, &id);
    played(&alice, old, "Cc4");
    played(&bob, old, "a4");

    // Version 2: the Camels also step one square straight (CW).
    let v2_text = CAMEL6.replace("customPiece1 = c:C", "customPiece1 = c:CW");
    // Only the author edits.
    let p = bob.post(
        &format!("/variants/{id}/edit"),
        &[
            ("name", "Mine"),
            ("definition", &v2_text),
            ("rules", ""),
            ("visibility", "public"),
        ],
    );
    assert_eq!(p.status(), StatusCode::FORBIDDEN, "{}", p.body);
    let p = alice.post(
        &format!("/variants/{id}/edit"),
        &[
            ("name", "Camel six, revised"),
            ("definition", &v2_text),
            ("rules", RULES),
            ("visibility", "public"),
        ],
    );
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
    // Renamed, it keeps its id.
    assert!(alice
        .get(&format!("/variants/{id}"))
        .has("<h1>Camel six, revised</h1>"));
    let v2 = version_of(&v2_text);
    let page = alice.get(&format!("/variants/{id}"));
    assert!(
        page.has(&format!("/variants/{id}/{v1}.ini"))
            && page.has(&format!("/variants/{id}/{v2}.ini"))
    );

    // The old game plays and exports under version 1: its Camel on c4 may
    // not step to c3 as version 2's may.
    assert_eq!(bob.json(old)["variant_version"], v1.as_str());
    let refused = alice.play(old, "Cc3");
    assert_eq!(
        refused.status(),
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.body
    );
    played(&alice, old, "a3");
    assert!(alice
        .get(&format!("/games/{old}.pgn"))
        .has(&format!("[VariantVersion \"{v1}\"]")));
    // After a restart (versions offered from the database), still so.
    let mut app = app;
    app.restart();
    let alice = app.client();
    alice.login("alice", "correct horse battery");
    let page = alice.get(&format!("/games/{old}"));
    assert_eq!(page.status(), StatusCode::OK);
    assert!(alice.get(&format!("/games/{old}.pgn")).has("Cc4"));

    // A new game gets version 2, where a Camel steps straight.
    let bob = app.client();
    bob.login("bob", "correct horse battery");
    let new = accepted_game(&alice, &bob, &id);
    assert_eq!(alice.json(new)["variant_version"], v2.as_str());
    played(&alice, new, "Cc4");
    played(&bob, new, "a4");
    played(&alice, new, "Cc3");
    assert_eq!(
        app.client().get(&format!("/variants/{id}/{v1}.ini")).body,
        CAMEL6
    );

    // Played, it cannot be deleted; an unplayed one can, after asking.
    let p = alice.post(&format!("/variants/{id}/delete"), &[("confirm", "1")]);
    assert_eq!(p.status(), StatusCode::CONFLICT, "{}", p.body);
    let other = posted_id(&post(&alice, "Spare", CAMEL6, "private"));
    let ask = alice.post(&format!("/variants/{other}/delete"), &[]);
    assert!(ask.has("Delete Spare?"));
    let p = alice.post(&format!("/variants/{other}/delete"), &[("confirm", "1")]);
    assert_eq!(p.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        alice.get(&format!("/variants/{other}")).status(),
        StatusCode::NOT_FOUND
    );
    // Private: nobody but the author sees it.
    let private = posted_id(&post(&alice, "Secret", CAMEL6, "private"));
    assert_eq!(
        bob.get(&format!("/variants/{private}")).status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        alice.get(&format!("/variants/{private}")).status(),
        StatusCode::OK
    );
}

/// Ten hostile definitions, each refused with a clear message within the
/// budget, while another player's game page keeps answering.
#[test]
fn hostile_definitions_are_refused_within_the_budget() {
    let app = TestApp::start_with(Backend::Sqlite, |c| {
        c.posted.cpu_secs = 3;
        c.posted.memory_mb = 256;
    });
    let alice = app.verified_user("alice");
    let (bob, carol) = (app.user("bob"), app.user("carol"));
    let game = bob.challenge("carol", "white");
    carol.post(&format!("/games/{game}/accept"), &[]);

    // As many riders as 8 KB holds (the text limit).
    let riders: String = (1..=300)
        .map(|i| format!("customPiece{i} = a:RB\n"))
        .collect();
    let hoppers = "[hop:chess]\nmaxRank = 10\nmaxFile = l\nknight = -\nbishop = -\nrook = -\nqueen = -\ncustomPiece1 = a:pRpB\ncustomPiece2 = b:pQ\npromotionPieceTypes = ab\nstartFen = abababkbabab/abababababab/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/ABABABABABAB/ABABABKBABAB w - - 0 1\ncastling = false\nnMoveRule = 0\n";
    let cases: Vec<(&str, String, &str, &str)> = vec![
        ("huge text", "x".repeat(40_000), "bytes", "Huge"),
        (
            "three hundred riders",
            format!("[riders:chess]\n{riders}"),
            "line",
            "Riders",
        ),
        (
            "a 12x10 board of hoppers",
            hoppers.to_string(),
            "ran out of CPU time",
            "Hoppers",
        ),
        (
            "a board over 12x10",
            CAMEL6.replace("maxRank = 6", "maxRank = 11"),
            "at most 12x10",
            "Tall",
        ),
        (
            "no royal piece",
            CAMEL6.replace(
                "rcqkcr/pppppp/6/6/PPPPPP/RCQKCR",
                "rcqqcr/pppppp/6/6/PPPPPP/RCQQCR",
            ),
            "starts without a king",
            "Kingless",
        ),
        (
            "a letter used twice",
            CAMEL6.replace("customPiece1 = c:C", "customPiece1 = q:C"),
            "line",
            "Twice",
        ),
        (
            "two sections",
            format!("{CAMEL6}[other:chess]\n"),
            "post one section",
            "Two",
        ),
        (
            "an unknown key",
            format!("{CAMEL6}flyingDragons = true\n"),
            "flyingDragons",
            "Dragons",
        ),
        (
            "markup in the name",
            CAMEL6.to_string(),
            "may not hold &#60; or &#62;",
            "<script>alert(1)</script>",
        ),
        (
            "markup in the rules",
            CAMEL6.to_string(),
            "holds markup",
            "Markup",
        ),
    ];
    let mut page_times = Vec::new();
    for (what, definition, says, name) in &cases {
        let rules = if *what == "markup in the rules" {
            "<img src=x onerror=alert(1)>"
        } else {
            ""
        };
        let started = Instant::now();
        // The game page, asked again and again while the check runs.
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let watcher = {
            let (stop, carol, path) = (stop.clone(), carol.clone(), format!("/games/{game}"));
            std::thread::spawn(move || {
                let mut times = Vec::new();
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let t = Instant::now();
                    assert_eq!(carol.get(&path).status(), StatusCode::OK);
                    times.push(t.elapsed());
                    std::thread::sleep(Duration::from_millis(20));
                }
                times
            })
        };
        let p = alice.post(
            "/variants/new",
            &[
                ("name", name),
                ("definition", definition),
                ("rules", rules),
                ("visibility", "public"),
            ],
        );
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        page_times.extend(watcher.join().unwrap());
        let took = started.elapsed();
        assert_eq!(
            p.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{what}: {}",
            p.body
        );
        assert!(p.has("id=\"variant-error\""), "{what}: {}", p.body);
        assert!(p.has(says), "{what}: expected “{says}” in {}", p.body);
        assert!(!p.has("<script>alert(1)</script>"), "{what}: markup echoed");
        // Within the budget: 3 s of CPU, twice that in wall time at most.
        assert!(
            took < Duration::from_secs(3 * 2 + 5),
            "{what} took {took:?}"
        );
        eprintln!("{what}: refused in {took:?}");
    }
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM posted_variants"), 0);
    page_times.sort();
    let median = page_times[page_times.len() / 2];
    eprintln!(
        "game page during checks: {} loads, median {median:?}, slowest {:?}",
        page_times.len(),
        page_times.last().unwrap()
    );
    assert!(median < Duration::from_millis(100), "median {median:?}");
}

/// `missive variant check FILE`: the check as the server runs it, for an
/// inventor at a terminal; a refusal exits 2 with the line.
#[test]
fn the_check_runs_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("camel6.ini");
    std::fs::write(&good, CAMEL6).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_missive"))
        .args(["variant", "check"])
        .arg(&good)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Fairy-Stockfish counts the same from this definition (pyffish 0.0.90,
    // `load_variant_config`, legal moves walked to depth 3): 10, 102, 1277.
    assert!(said.starts_with("passed: perft [10, 102, 1277]"), "{said}");
    assert!(said.contains("200 random games"), "{said}");
    let bad = dir.path().join("bad.ini");
    std::fs::write(
        &bad,
        CAMEL6.replace("maxFile = f", "maxFile = f\nwings = 2"),
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_missive"))
        .args(["variant", "check", "--json"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["result"], "refused");
    assert_eq!(json["line"], 5);
    assert!(
        json["message"].as_str().unwrap().contains("wings"),
        "{json}"
    );
}

/// A player may post so many definitions a day (new variants and new
/// versions together); the next is refused with when to try again.
#[test]
fn a_day_allows_so_many_definitions() {
    let app = TestApp::start_with(Backend::Sqlite, |c| c.posted.per_day = 2);
    let alice = app.verified_user("alice");
    let id = posted_id(&post(&alice, "One", CAMEL6, "private"));
    let two = CAMEL6.replace("c:C", "c:CW");
    let p = alice.post(
        &format!("/variants/{id}/edit"),
        &[
            ("name", "One"),
            ("definition", &two),
            ("visibility", "private"),
        ],
    );
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
    let p = post(&alice, "Three", CAMEL6, "private");
    assert_eq!(p.status(), StatusCode::TOO_MANY_REQUESTS, "{}", p.body);
    assert!(p.has("try again tomorrow"), "{}", p.body);
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM posted_variant_versions"),
        2
    );
}

/// A check over its memory is stopped by the kernel's limit and the
/// definition refused with what ran out; the server goes on serving.
#[test]
fn a_check_over_its_memory_is_refused_with_what_ran_out() {
    let app = TestApp::start_with(Backend::Sqlite, |c| c.posted.memory_mb = 1);
    let alice = app.verified_user("alice");
    let p = post(&alice, "Camel six", CAMEL6, "public");
    assert_eq!(p.status(), StatusCode::UNPROCESSABLE_ENTITY, "{}", p.body);
    assert!(p.has("ran out of memory (it may use 1 MB)"), "{}", p.body);
    assert_eq!(alice.get("/variants").status(), StatusCode::OK);
}

/// Checks run a few at a time behind a short queue: with one running and
/// no room to wait, a post is refused at once with when to try again, and
/// taken once the checker is free.
#[test]
fn checks_wait_on_a_bounded_queue() {
    let app = TestApp::start_with(Backend::Sqlite, |c| {
        c.posted.at_once = 1;
        c.posted.queue = 0;
    });
    let alice = app.verified_user("alice");
    // What a check in progress holds: the one place in the queue.
    let running = app.state().variant_check_queue.try_acquire().unwrap();
    let p = post(&alice, "Camel six", CAMEL6, "public");
    assert_eq!(p.status(), StatusCode::TOO_MANY_REQUESTS, "{}", p.body);
    assert!(p.has("try again in a minute"), "{}", p.body);
    assert_eq!(p.retry_after, Some(60));
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM posted_variants"), 0);
    drop(running);
    posted_id(&post(&alice, "Camel six", CAMEL6, "public"));
}
