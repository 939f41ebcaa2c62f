//! Issue 11: replay, export, import checking, comments, private notes,
//! archive and profiles, over HTTP on both backends.

use crate::common;
use missive::db::games;
use missive::domain::ids::GameId;

use common::{Backend, TestApp, TestClient};
use missive_rules::record;
use reqwest::StatusCode;

both_backends!(
    replay_pages_show_stored_positions,
    export_import_round_trip_every_variant,
    comments_escaped_and_notes_private,
    bad_ply_values_never_500,
    record_check_form_reports_first_illegal_ply,
    archive_profile_and_bulk_export,
    atom_feed_of_game_events,
    long_game_page_lists_a_window,
    turn_number_backfill_matches_live_numbering,
);

/// A started game of `variant` between alice (White) and bob.
fn start(alice: &TestClient, bob: &TestClient, variant: &str) -> i32 {
    start_vs(alice, bob, "bob", variant)
}

fn start_vs(alice: &TestClient, bob: &TestClient, opponent: &str, variant: &str) -> i32 {
    start_from(alice, bob, opponent, variant, "")
}

/// A started game from the position `fen` (empty: the variant's start).
fn start_from(
    alice: &TestClient,
    bob: &TestClient,
    opponent: &str,
    variant: &str,
    fen: &str,
) -> i32 {
    let p = alice.post(
        "/games/new",
        &[
            ("variant", variant),
            ("opponent", opponent),
            ("color", "white"),
            ("fen", fen),
        ],
    );
    assert_eq!(p.status, StatusCode::SEE_OTHER, "{variant}: {}", p.body);
    let id: GameId = p
        .location
        .unwrap()
        .trim_start_matches("/games/")
        .parse()
        .unwrap();
    assert_eq!(
        bob.post(&format!("/games/{id}/accept"), &[]).status,
        StatusCode::SEE_OTHER
    );
    id.get()
}

fn fools_mate(alice: &TestClient, bob: &TestClient, id: GameId) {
    for (who, mv) in [
        (alice, "f3 // a <b>bold</b> & \"quoted\" start"),
        (bob, "e5"),
        (alice, "g4"),
        (bob, "Qh4#"),
    ] {
        let p = who.play(id, mv);
        assert_eq!(p.status, StatusCode::SEE_OTHER, "{mv}: {}", p.body);
    }
}

fn replay_pages_show_stored_positions(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let id = start(&alice, &bob, "chess");
    fools_mate(&alice, &bob, GameId(id));
    let j = alice.json(GameId(id));
    let moves = j["moves"].as_array().unwrap();
    let anon = app.client();
    // Ply 0 is the start FEN; ply N the FEN stored with move N; the rules
    // crate agrees with both.
    let chess = missive_rules::variant("chess").unwrap();
    let texts = ["f3", "e5", "g4", "Qh4#"];
    for ply in [0usize, 2, 4] {
        let p = anon.get(&format!("/games/{id}?ply={ply}"));
        assert_eq!(p.status, StatusCode::OK, "{}", p.body);
        let stored = if ply == 0 {
            j["start_fen"].as_str().unwrap().to_string()
        } else {
            moves[ply - 1]["fen_after"].as_str().unwrap().to_string()
        };
        assert_eq!(p.fen(), stored, "ply {ply}");
        let rules = missive_rules::Game::replay(chess, None, &texts[..ply]).unwrap();
        assert_eq!(rules.fen(), stored, "ply {ply}");
        assert!(p.has(&format!("Ply {ply} of 4")), "{}", p.body);
        // Back and forward links, inactive at either end.
        if ply > 0 {
            assert!(p.has("id=\"replay-prev\" rel=\"prev\""));
            assert!(p.has(&format!("href=\"/games/{id}?ply={}\"", ply - 1)));
        } else {
            assert!(p.has("<span class=\"off\" id=\"replay-prev\" aria-disabled=\"true\">"));
        }
        if ply < 4 {
            assert!(p.has("id=\"replay-next\" rel=\"next\""));
            assert!(p.has(&format!("href=\"/games/{id}?ply={}\"", ply + 1)));
        } else {
            assert!(p.has("<span class=\"off\" id=\"replay-next\" aria-disabled=\"true\">"));
            assert!(p.has("<span class=\"off\" id=\"replay-last\" aria-disabled=\"true\">"));
        }
        // Earlier positions say so and link back.
        assert_eq!(p.has("id=\"replaying\""), ply < 4);
    }
    // The move list links every ply; the current one is marked.
    let p = anon.get(&format!("/games/{id}?ply=2"));
    for n in 1..=4 {
        assert!(p.has(&format!("href=\"/games/{id}?ply={n}\" data-ply=\"{n}\"")));
    }
    assert!(p.has("data-ply=\"2\" class=\"current\""));
    // Without ?ply the page is the current position.
    assert_eq!(anon.get(&format!("/games/{id}")).fen(), j["fen"]);
    // While replaying an active game the player gets no move form.
    let id2 = start(&alice, &bob, "chess");
    alice.play(GameId(id2), "e4");
    assert!(bob.get(&format!("/games/{id2}")).has("id=\"move-form\""));
    assert!(!bob
        .get(&format!("/games/{id2}?ply=0"))
        .has("id=\"move-form\""));
    assert_eq!(
        anon.get("/static/replay.js").status,
        StatusCode::OK,
        "keyboard script served"
    );
}

/// Play up to `n` plies with the first legal move (alice and bob in turn),
/// then resign if the game is not over.
fn play_some(alice: &TestClient, bob: &TestClient, id: GameId, variant: &str, n: usize) {
    let v = missive_rules::variant(variant).unwrap();
    for i in 0..n {
        let j = alice.json(id);
        if j["status"] != "active" {
            return;
        }
        let moves: Vec<String> = j["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["coordinate"].as_str().unwrap().to_string())
            .collect();
        let start = j["start_fen"].as_str().unwrap();
        let game = missive_rules::Game::replay(v, Some(start), &moves).unwrap();
        let views = game.move_views();
        let pick = &views[(i * 7) % views.len()];
        let who = if j["side_to_move"] == "white" {
            alice
        } else {
            bob
        };
        let text = format!("{} // note {i} <i>x</i>", pick.coordinate);
        let p = who.play(id, &text);
        assert_eq!(
            p.status,
            StatusCode::SEE_OTHER,
            "{variant} {text}: {}",
            p.body
        );
    }
    if alice.json(id)["status"] == "active" {
        assert_eq!(
            bob.post(&format!("/games/{id}/resign"), &[("confirm", "1")])
                .status,
            StatusCode::SEE_OTHER
        );
    }
}

fn export_import_round_trip_every_variant(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let anon = app.client();
    for v in missive_rules::variants() {
        let id = start(&alice, &bob, v.id());
        play_some(&alice, &bob, GameId(id), v.id(), 8);
        let j = alice.json(GameId(id));
        let stored: Vec<String> = j["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["coordinate"].as_str().unwrap().to_string())
            .collect();
        assert!(!stored.is_empty(), "{}", v.id());
        // PGN
        let resp = anon
            .http
            .get(format!("{}/games/{id}.pgn", anon.base))
            .send()
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        assert!(resp.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/x-chess-pgn"));
        let pgn = resp.text().unwrap();
        for tag in [
            "[Event ",
            "[Site ",
            "[Date ",
            "[Round ",
            "[White \"alice\"]",
            "[Black \"bob\"]",
            "[Termination ",
            // The new-game form's default clock (issue 10).
            "[TimeControl \"3d/move\"]",
            "{[%ts ",
        ] {
            assert!(pgn.contains(tag), "{}: {tag} in {pgn}", v.id());
        }
        assert_eq!(pgn.contains("[Variant "), v.id() != "chess", "{pgn}");
        // The variant's own side names beside the roster's White and Black.
        let red = v.side_name(missive_rules::Color::White) == "Red";
        assert_eq!(pgn.contains("[WhiteSide \"Red\"]"), red, "{pgn}");
        if let Some(r) = j["result"].as_str().filter(|r| *r != "*") {
            let winner = match r {
                "1-0" => v.side_name(missive_rules::Color::White),
                "0-1" => v.side_name(missive_rules::Color::Black),
                _ => "Draw",
            };
            assert!(pgn.contains(&format!("[Outcome \"{winner}")), "{pgn}");
        }
        // Only a start drawn for the game (Chess960) is written out.
        assert_eq!(
            pgn.contains("[SetUp "),
            v.shuffled_start(0).is_some(),
            "standard start: {pgn}"
        );
        let rec = record::parse_pgn(&pgn).unwrap().remove(0);
        assert_eq!(rec.tag("Result"), j["result"].as_str(), "{}", v.id());
        assert_eq!(rec.result.as_deref(), j["result"].as_str());
        assert_eq!(rec.moves[0].comment.as_deref(), Some("note 0 <i>x</i>"));
        let game = record::check(&rec, missive_rules::variant)
            .unwrap_or_else(|e| panic!("{}: {e}\n{pgn}", v.id()));
        assert_eq!(game.fen(), j["fen"].as_str().unwrap(), "{}", v.id());
        check_same_moves(v.id(), &rec, &stored);
        // Game Courier log
        let resp = anon
            .http
            .get(format!("{}/games/{id}.txt", anon.base))
            .send()
            .unwrap();
        assert!(resp.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain"));
        let log = resp.text().unwrap();
        let rec = record::parse_gc_log(&log).unwrap_or_else(|e| panic!("{e}\n{log}"));
        let game = record::check(&rec, missive_rules::variant)
            .unwrap_or_else(|e| panic!("{}: {e}\n{log}", v.id()));
        assert_eq!(game.fen(), j["fen"].as_str().unwrap(), "{}", v.id());
        assert_eq!(rec.result.as_deref(), j["result"].as_str());
        check_same_moves(v.id(), &rec, &stored);
        // The upload form agrees.
        let p = alice.post("/records/check", &[("record", &pgn)]);
        assert_eq!(p.status, StatusCode::OK, "{}", p.body);
        assert!(p.has("<strong>Valid</strong>"));
    }
    // A custom start (Black to move) carries SetUp and FEN.
    let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1";
    let p = alice.post(
        "/games/new",
        &[
            ("variant", "chess"),
            ("opponent", "bob"),
            ("color", "white"),
            ("fen", fen),
        ],
    );
    let id: GameId = p
        .location
        .unwrap()
        .trim_start_matches("/games/")
        .parse()
        .unwrap();
    bob.post(&format!("/games/{id}/accept"), &[]);
    assert_eq!(bob.play(id, "Kd7").status, StatusCode::SEE_OTHER);
    assert_eq!(alice.play(id, "e4").status, StatusCode::SEE_OTHER);
    let pgn = anon.get(&format!("/games/{id}.pgn")).body;
    assert!(
        pgn.contains("[SetUp \"1\"]") && pgn.contains(&format!("[FEN \"{fen}\"]")),
        "{pgn}"
    );
    let rec = record::parse_pgn(&pgn).unwrap().remove(0);
    let game = record::check(&rec, missive_rules::variant).unwrap();
    assert_eq!(game.fen(), alice.json(id)["fen"].as_str().unwrap());
}

fn check_same_moves(variant: &str, rec: &record::Record, stored: &[String]) {
    let v = missive_rules::variant(variant).unwrap();
    let mut g = missive_rules::Game::new(v, rec.start_fen()).unwrap();
    let mut coords = Vec::new();
    for m in &rec.moves {
        coords.push(g.play_text(&m.text).unwrap().coordinate);
    }
    assert_eq!(coords, stored, "{variant}");
}

fn comments_escaped_and_notes_private(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let carol = app.user("carol");
    let id = start(&alice, &bob, "chess");
    fools_mate(&alice, &bob, GameId(id));
    // The comment is stored and shown beside the move, escaped.
    let page = carol.get(&format!("/games/{id}"));
    assert!(!page.has("<b>bold</b>"), "{}", page.body);
    assert!(page.has("&#60;b&#62;bold&#60;/b&#62;"), "{}", page.body);
    assert!(page.has("class=\"comment\""));
    assert_eq!(
        alice.json(GameId(id))["moves"][0]["comment"],
        "a <b>bold</b> & \"quoted\" start"
    );
    assert_eq!(
        alice.json(GameId(id))["moves"][1]["comment"],
        serde_json::Value::Null
    );
    // Private notes: only their author sees them.
    let secret = "Plan: <script>alert(1)</script> SECRET-ALICE";
    let p = alice.post(&format!("/games/{id}/notes"), &[("note", secret)]);
    assert_eq!(p.status, StatusCode::SEE_OTHER, "{}", p.body);
    let mine = alice.get(&format!("/games/{id}"));
    assert!(mine.has("SECRET-ALICE"));
    assert!(!mine.has("<script>alert(1)</script>"));
    assert!(mine.has("&#60;script&#62;alert(1)&#60;/script&#62;"));
    for (who, page) in [
        ("bob", bob.get(&format!("/games/{id}"))),
        ("carol", carol.get(&format!("/games/{id}"))),
        ("anonymous", app.client().get(&format!("/games/{id}"))),
        ("bob replay", bob.get(&format!("/games/{id}?ply=1"))),
        ("json", bob.get(&format!("/games/{id}.json"))),
        ("pgn", bob.get(&format!("/games/{id}.pgn"))),
        ("log", bob.get(&format!("/games/{id}.txt"))),
        ("bulk", bob.get("/users/alice/games.pgn")),
    ] {
        assert_eq!(page.status, StatusCode::OK, "{who}");
        assert!(!page.has("SECRET-ALICE"), "{who} sees alice's note");
    }
    // Bob's own note is separate; updating and clearing work.
    bob.post(&format!("/games/{id}/notes"), &[("note", "SECRET-BOB")]);
    assert!(bob.get(&format!("/games/{id}")).has("SECRET-BOB"));
    assert!(!alice.get(&format!("/games/{id}")).has("SECRET-BOB"));
    alice.post(
        &format!("/games/{id}/notes"),
        &[("note", "second thoughts")],
    );
    let mine = alice.get(&format!("/games/{id}"));
    assert!(mine.has("second thoughts") && !mine.has("SECRET-ALICE"));
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM game_notes"), 2);
    alice.post(&format!("/games/{id}/notes"), &[("note", "")]);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM game_notes"), 1);
    // Error paths: no login, no CSRF, unknown game, too long.
    let anon = app.client();
    assert_ne!(
        anon.post(&format!("/games/{id}/notes"), &[("note", "x")])
            .status,
        StatusCode::SEE_OTHER
    );
    assert_eq!(
        alice
            .post_raw(&format!("/games/{id}/notes"), &[("note", "x")])
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        alice.post("/games/999/notes", &[("note", "x")]).status,
        StatusCode::NOT_FOUND
    );
    let long = "x".repeat(10_001);
    assert_eq!(
        alice
            .post(&format!("/games/{id}/notes"), &[("note", &long)])
            .status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM game_notes"), 1);
}

fn bad_ply_values_never_500(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let id = start(&alice, &bob, "chess");
    alice.play(GameId(id), "e4");
    let anon = app.client();
    let start_fen = alice.json(GameId(id))["start_fen"]
        .as_str()
        .unwrap()
        .to_string();
    let current = alice.json(GameId(id))["fen"].as_str().unwrap().to_string();
    for (q, want) in [
        ("-1", Some(&start_fen)),
        ("-99999999999999999999999", Some(&start_fen)),
        ("99999999999999999999999", Some(&current)),
        ("2147483648", Some(&current)),
        ("1", Some(&current)),
        ("", Some(&current)),
    ] {
        let p = anon.get(&format!("/games/{id}?ply={q}"));
        assert_eq!(p.status, StatusCode::OK, "ply={q}");
        assert_eq!(&p.fen(), want.unwrap(), "ply={q}");
    }
    for q in ["abc", "1.5", "%00", "--1", "1e3", "-"] {
        let p = anon.get(&format!("/games/{id}?ply={q}"));
        assert_eq!(p.status, StatusCode::BAD_REQUEST, "ply={q}");
    }
    // A game with no moves yet, and unknown games.
    let id2 = start(&alice, &bob, "chess");
    assert_eq!(
        anon.get(&format!("/games/{id2}?ply=5")).status,
        StatusCode::OK
    );
    for path in [
        "/games/999?ply=1",
        "/games/999.pgn",
        "/games/abc.txt",
        "/games/0.pgn",
        "/users/nobody",
        "/users/nobody/games.pgn",
    ] {
        assert_eq!(anon.get(path).status, StatusCode::NOT_FOUND, "{path}");
    }
}

fn record_check_form_reports_first_illegal_ply(backend: Backend) {
    let app = TestApp::start(backend);
    let anon = app.client();
    let form = anon.get("/records/check");
    assert_eq!(form.status, StatusCode::OK);
    assert!(form.has("name=\"record\""));
    let p = anon.post("/records/check", &[("record", "1. e4 e5 2. Ke3 Nc6 *")]);
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(p.has("data-ply=\"3\""), "{}", p.body);
    assert!(p.has("Ply 3"), "{}", p.body);
    let p = anon.post(
        "/records/check",
        &[(
            "record",
            "// Variant: chess\n1. P e2-e4\n1... p e7-e5\n2. K e1-e3\n*\n",
        )],
    );
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(p.has("data-ply=\"3\""), "{}", p.body);
    let p = anon.post("/records/check", &[("record", "1. f3 e5 2. g4 Qh4# 1-0")]);
    assert_eq!(
        p.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "result mismatch"
    );
    let p = anon.post(
        "/records/check",
        &[("record", "[Variant \"nonsense\"]\n\n1. e4 *")],
    );
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
    let p = anon.post("/records/check", &[("record", "<script>{{[[")]);
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(!p.has("<script>{{"));
    let p = anon.post("/records/check", &[("record", "1. f3 e5 2. g4 Qh4# 0-1")]);
    assert_eq!(p.status, StatusCode::OK);
    assert!(p.has("<strong>Valid</strong>"));
    assert_eq!(
        anon.post_raw("/records/check", &[("record", "1. e4")])
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM games"),
        0,
        "nothing stored"
    );
}

fn archive_profile_and_bulk_export(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let carol = app.user("carol");
    let g1 = start(&alice, &bob, "chess");
    fools_mate(&alice, &bob, GameId(g1));
    let g2 = start(&alice, &bob, "leaperhouse");
    let g3 = start_vs(&alice, &carol, "carol", "chess");
    carol.post(&format!("/games/{g3}/resign"), &[("confirm", "1")]);
    let _pending = alice.challenge("carol", "white");
    let anon = app.client();
    let ids = |body: &str| -> Vec<i32> {
        body.match_indices("<td><a href=\"/games/")
            .map(|(i, _)| {
                let rest = &body[i + "<td><a href=\"/games/".len()..];
                rest[..rest.find('"').unwrap()].parse().unwrap()
            })
            .collect()
    };
    let all = anon.get("/games");
    assert_eq!(all.status, StatusCode::OK);
    let mut got = ids(&all.body);
    got.sort();
    assert_eq!(got, vec![g1, g2, g3], "challenges are not listed");
    assert_eq!(ids(&anon.get("/games?player=carol").body), vec![g3]);
    assert_eq!(ids(&anon.get("/games?variant=leaperhouse").body), vec![g2]);
    assert_eq!(ids(&anon.get("/games?status=active").body), vec![g2]);
    assert_eq!(ids(&anon.get("/games?result=0-1").body), vec![g1]);
    assert_eq!(
        ids(&anon.get("/games?result=1-0&player=alice").body),
        vec![g3]
    );
    let mut ended = ids(&anon.get("/games?sort=ended").body);
    ended.sort();
    assert_eq!(ended, vec![g1, g3]);
    assert!(ids(&anon.get("/games?from=2000-01-01&to=2000-01-02").body).is_empty());
    assert_eq!(
        ids(&anon.get("/games?from=2000-01-01&player=bob").body).len(),
        2
    );
    for bad in [
        "/games?status=zzz",
        "/games?from=yesterday",
        "/games?page=x",
        "/games?sort=<b>",
        "/games?result=2-0",
    ] {
        assert_eq!(anon.get(bad).status, StatusCode::BAD_REQUEST, "{bad}");
    }
    assert_eq!(anon.get("/games?page=999999999999").status, StatusCode::OK);
    assert_eq!(anon.get("/games?player=%3Cb%3E").status, StatusCode::OK);
    // Profile: results by variant, each named as the variant names itself.
    let p = anon.get("/users/alice");
    assert_eq!(p.status, StatusCode::OK);
    let name = |id: &str| missive_rules::variant(id).unwrap().name();
    assert!(
        p.has(&format!(
            "<tr><td>{}</td><td>1</td><td>1</td><td>0</td><td>0</td></tr>",
            name("chess")
        )),
        "{}",
        p.body
    );
    assert!(
        p.has(&format!(
            "<tr><td>{}</td><td>0</td><td>0</td><td>0</td><td>1</td></tr>",
            name("leaperhouse")
        )),
        "{}",
        p.body
    );
    assert!(!p.has("<td>leaperhouse</td>"), "ids are not shown");
    let archive = anon.get("/games?player=alice");
    assert!(
        archive.has(&format!("<td>{}</td>", name("leaperhouse"))),
        "{}",
        archive.body
    );
    // Bulk export: every started game of alice, each one checkable.
    let bulk = anon.get("/users/alice/games.pgn");
    assert_eq!(bulk.status, StatusCode::OK);
    let recs = record::parse_pgn(&bulk.body).unwrap();
    assert_eq!(recs.len(), 3);
    for rec in &recs {
        record::check(rec, missive_rules::variant).unwrap();
    }
    assert_eq!(
        record::parse_pgn(&anon.get("/users/carol/games.pgn").body)
            .unwrap()
            .len(),
        1
    );
}

fn atom_feed_of_game_events(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let g1 = start(&alice, &bob, "chess");
    fools_mate(&alice, &bob, GameId(g1));
    let g2 = start(&alice, &bob, "chess");
    alice.play(GameId(g2), "e4");
    let anon = app.client();
    let resp = anon
        .http
        .get(format!("{}/users/bob/feed.atom", anon.base))
        .send()
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(resp.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/atom+xml"));
    let bob_feed = resp.text().unwrap();
    assert!(bob_feed.starts_with("<?xml"));
    assert!(
        bob_feed.contains(&format!("Your turn in game {g2}")),
        "{bob_feed}"
    );
    assert!(
        bob_feed.contains(&format!("Game {g1} is over: 0-1")),
        "{bob_feed}"
    );
    assert_eq!(bob_feed.matches("<entry>").count(), 2);
    let alice_feed = anon.get("/users/alice/feed.atom").body;
    assert!(!alice_feed.contains("Your turn"), "{alice_feed}");
    assert!(alice_feed.contains(&format!("Game {g1} is over")));
    assert_eq!(
        anon.get("/users/nobody/feed.atom").status,
        StatusCode::NOT_FOUND
    );
}

/// A game of 90 plies played over HTTP: the game page lists a window of 40
/// plies around the one shown (numbered as in the whole game), links to the
/// full list, and still replays any ply from its stored FEN.
fn long_game_page_lists_a_window(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let id = start(&alice, &bob, "chess");
    let chess = missive_rules::variant("chess").unwrap();
    let mut game = missive_rules::Game::new(chess, None).unwrap();
    let mut fens = vec![game.fen()];
    let mut displays = Vec::new();
    for i in 0..90 {
        let views = game.move_views();
        // The first move (from a varying start) that does not end the game.
        let pick = (0..views.len())
            .map(|k| &views[(i * 7 + k) % views.len()])
            .find(|v| {
                let mut g = game.clone();
                g.play_text(&v.coordinate).unwrap();
                g.outcome().is_none()
            })
            .expect("a move that keeps the game going");
        let who = if i % 2 == 0 { &alice } else { &bob };
        let p = who.play(GameId(id), &pick.coordinate);
        assert_eq!(p.status, StatusCode::SEE_OTHER, "ply {}: {}", i + 1, p.body);
        displays.push(game.play_text(&pick.coordinate).unwrap().display);
        fens.push(game.fen());
    }
    let anon = app.client();
    let link = |n: usize| format!("href=\"/games/{id}?ply={n}\" data-ply=\"{n}\"");
    // The current position: plies 51-90, numbered 26. to 45.
    let p = anon.get(&format!("/games/{id}"));
    assert_eq!(p.status, StatusCode::OK);
    assert_eq!(p.fen(), fens[90]);
    assert!((51..=90).all(|n| p.has(&link(n))), "{}", p.body);
    assert!(!p.has(&link(50)) && !p.has(&link(1)));
    assert!(p.has(&format!(
        "<td class=\"num\">26.</td><td><a href=\"/games/{id}?ply=51\""
    )));
    assert!(p.has("<td class=\"num\">45.</td>"));
    assert!(!p.has("<td class=\"num\">25.</td>"));
    assert!(p.has("id=\"moves-before\"") && !p.has("id=\"moves-after\""));
    assert!(p.has(&format!("href=\"/games/{id}/moves\"")));
    assert!(p.has("Ply 90 of 90"));
    // An early ply: plies 1-40, the shown one marked, later ones linked.
    let p = anon.get(&format!("/games/{id}?ply=5"));
    assert_eq!(p.fen(), fens[5]);
    assert!((1..=40).all(|n| p.has(&link(n))));
    assert!(!p.has(&link(41)));
    assert!(p.has("data-ply=\"5\" class=\"current\""));
    assert!(p.has("id=\"moves-after\"") && !p.has("id=\"moves-before\""));
    // A middle ply: the window around it, an odd ply starts a numbered line.
    let p = anon.get(&format!("/games/{id}?ply=45"));
    assert_eq!(p.fen(), fens[45]);
    assert!((16..=55).all(|n| p.has(&link(n))), "{}", p.body);
    assert!(p.has("data-ply=\"45\" class=\"current\""));
    assert!(p.has("id=\"moves-after\"") && p.has("id=\"moves-before\""));
    // Ply 16 is Black's: its line starts with an ellipsis, numbered 8.
    assert!(
        p.has(&format!(
            "<td class=\"num\">8.</td><td>…</td><td><a href=\"/games/{id}?ply=16\""
        )),
        "{}",
        p.body
    );
    // The full list: every ply, numbered 1. to 45.
    let all = anon.get(&format!("/games/{id}/moves"));
    assert_eq!(all.status, StatusCode::OK);
    assert!((1..=90).all(|n| all.has(&link(n))));
    assert!(all.has(&format!(
        "<td class=\"num\">1.</td><td><a href=\"/games/{id}?ply=1\""
    )));
    assert!(all.has("<td class=\"num\">45.</td>") && !all.has("<td class=\"num\">46.</td>"));
    let text = common::unescape(&all.body);
    for (n, d) in displays.iter().enumerate() {
        let cell = format!("data-ply=\"{}\">{d}</a>", n + 1);
        assert!(text.contains(&cell), "ply {}: {d}", n + 1);
    }
    assert_eq!(anon.get("/games/999/moves").status, StatusCode::NOT_FOUND);
    assert!(anon.get("/games/x/moves").status.is_client_error());
    // The exports still hold every move.
    let txt = anon.get(&format!("/games/{id}.txt"));
    assert_eq!(txt.status, StatusCode::OK);
    let rec = record::parse_gc_log(&txt.body).unwrap();
    assert_eq!(rec.moves.len(), 90);
}

/// Undo the last `n` migrations, apply everything again; the names undone.
/// (`migrations` gives the embedded set each time: it is a constant, and
/// neither `Clone` nor taken by reference.)
fn undo_and_redo<DB: diesel::backend::Backend>(
    conn: &mut impl diesel_migrations::MigrationHarness<DB>,
    n: usize,
    migrations: impl Fn() -> diesel_migrations::EmbeddedMigrations,
) -> Vec<String>
where
    diesel_migrations::EmbeddedMigrations: diesel::migration::MigrationSource<DB>,
{
    let undone = (0..n)
        .map(|_| {
            conn.revert_last_migration(migrations())
                .unwrap()
                .to_string()
        })
        .collect();
    conn.run_pending_migrations(migrations()).unwrap();
    undone
}

/// How many migrations came after issue 36's accounts migration (the
/// later issues' own: ratings, the API's credentials, …): undone and
/// applied again first, whatever they are.
fn newer_than_accounts<DB: diesel::backend::Backend>(
    migrations: diesel_migrations::EmbeddedMigrations,
) -> usize
where
    diesel_migrations::EmbeddedMigrations: diesel::migration::MigrationSource<DB>,
{
    diesel::migration::MigrationSource::<DB>::migrations(&migrations)
        .unwrap()
        .iter()
        .filter(|m| {
            m.name().to_string().replace('-', "").as_str() > "20261128100000_account_lifecycle"
        })
        .count()
}

/// Migration `2026-11-23-150000_digests` adds `moves.turn_no` and numbers
/// the moves of existing games in SQL: undone and applied again over games
/// played through the server (one from the start, one where Black moves
/// first from a set-up position), it gives every move the number the server
/// gave it when it was played. Undoing it means undoing the later
/// `2026-11-25-000000_game_histories` (the repetition history moved to a
/// table of its own) and `2026-11-24-000000_moves_by_game` (the moves table
/// rebuilt in (game, ply) order on SQLite, its surrogate id dropped) first:
/// every stored move and every game's history comes back the same through
/// all three, and the games play on.
fn turn_number_backfill_matches_live_numbering(backend: Backend) {
    use diesel::prelude::*;
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let plain = start(&alice, &bob, "chess");
    for (i, mv) in ["e4", "e5", "Nf3", "Nc6", "Bb5"].iter().enumerate() {
        let who = if i % 2 == 0 { &alice } else { &bob };
        assert_eq!(who.play(GameId(plain), mv).status, StatusCode::SEE_OTHER);
    }
    let black_first = start_from(
        &alice,
        &bob,
        "bob",
        "chess",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    );
    for (i, mv) in ["c5", "Nf3", "d6", "d4"].iter().enumerate() {
        let who = if i % 2 == 0 { &bob } else { &alice };
        assert_eq!(
            who.play(GameId(black_first), mv).status,
            StatusCode::SEE_OTHER
        );
    }
    let numbers = |conn: &mut missive::db::DbConn| -> Vec<(i32, i32, i32)> {
        use missive::db::schema::moves::dsl::*;
        moves
            .select((game_id, ply, turn_no))
            .order((game_id, ply))
            .load(conn)
            .unwrap()
    };
    let mut conn = app.db();
    let live = numbers(&mut conn);
    // As played: 1. e4 e5 2. Nf3 Nc6 3. Bb5, and 1... c5 2. Nf3 d6 3. d4.
    let want: Vec<(i32, i32, i32)> = [1, 1, 2, 2, 3]
        .iter()
        .enumerate()
        .map(|(i, n)| (plain, i as i32 + 1, *n))
        .chain(
            [1, 2, 2, 3]
                .iter()
                .enumerate()
                .map(|(i, n)| (black_first, i as i32 + 1, *n)),
        )
        .collect();
    assert_eq!(live, want);
    let stored = |conn: &mut missive::db::DbConn| -> Vec<(i32, i32, String, String, i32)> {
        use missive::db::schema::moves::dsl::*;
        moves
            .select((game_id, ply, display, fen_after, played_by))
            .order((game_id, ply))
            .load(conn)
            .unwrap()
    };
    let before = stored(&mut conn);
    assert_eq!(before.len(), 9);
    let redo = |conn: &mut missive::db::DbConn| -> Vec<String> {
        match conn {
            missive::db::DbConn::Sqlite(c) => {
                let extra =
                    newer_than_accounts::<diesel::sqlite::Sqlite>(missive::db::SQLITE_MIGRATIONS);
                let mut undone = undo_and_redo(c, 7 + extra, || missive::db::SQLITE_MIGRATIONS);
                undone.drain(..extra);
                // The accounts' and limits' tables (issues 36 and 37) and
                // conditional moves and takebacks (issue 38) came after the rest.
                later_first(&mut undone);
                let conditional = undone.remove(0).replace('-', "");
                assert!(conditional.starts_with("20261126140000"), "{conditional}");
                undone
            }
            missive::db::DbConn::Postgresql(c) => {
                // The accounts' and limits' tables (issues 36 and 37),
                // PostgreSQL's page-change triggers, the migration that
                // dropped them, and issue 38's came after the rest.
                let extra = newer_than_accounts::<diesel::pg::Pg>(missive::db::POSTGRES_MIGRATIONS);
                let mut undone = undo_and_redo(c, 9 + extra, || missive::db::POSTGRES_MIGRATIONS);
                undone.drain(..extra);
                later_first(&mut undone);
                let dropped = undone.remove(0).replace('-', "");
                assert!(dropped.starts_with("20261127000000"), "{dropped}");
                // Conditional moves and takebacks (issue 38).
                let conditional = undone.remove(0).replace('-', "");
                assert!(conditional.starts_with("20261126140000"), "{conditional}");
                let made = undone.remove(0).replace('-', "");
                assert!(made.starts_with("20261126000000"), "{made}");
                undone
            }
        }
    };
    // Issue 36's accounts migration came after them all.
    /// The newest migrations: issue 36's accounts, then issue 37's limits.
    fn later_first(undone: &mut Vec<String>) {
        let accounts = undone.remove(0).replace('-', "");
        assert!(accounts.starts_with("20261128100000"), "{accounts}");
        let guard = undone.remove(0).replace('-', "");
        assert!(guard.starts_with("20261128000000"), "{guard}");
    }
    let histories = |conn: &mut missive::db::DbConn| -> Vec<String> {
        [plain, black_first]
            .iter()
            .map(|&id| games::history_of(conn, GameId(id)).unwrap())
            .collect()
    };
    let kept = histories(&mut conn);
    // The start position's entry, then one for each move.
    assert_eq!(kept[0].split(',').count(), 6);
    assert_eq!(kept[1].split(',').count(), 5);
    // The migrations under test must still be among the last four (the
    // request keys' came after them), or this test must undo down to them.
    let undone: Vec<String> = redo(&mut conn).iter().map(|m| m.replace('-', "")).collect();
    assert!(undone[0].starts_with("20261125100000"), "{undone:?}");
    assert!(undone[1].starts_with("20261125000000"), "{undone:?}");
    assert!(undone[2].starts_with("20261124000000"), "{undone:?}");
    assert!(undone[3].starts_with("20261123150000"), "{undone:?}");
    assert_eq!(numbers(&mut conn), live);
    assert_eq!(stored(&mut conn), before);
    assert_eq!(histories(&mut conn), kept);
    // The game plays on from the position and history the migrations kept.
    assert_eq!(bob.play(GameId(plain), "a6").status, StatusCode::SEE_OTHER);
    let now = histories(&mut conn);
    assert!(now[0].starts_with(&format!("{},", kept[0])), "{now:?}");
    assert_eq!(now[0].split(',').count(), 7);
}
