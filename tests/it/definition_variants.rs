//! Issue 61: variants played from Fairy-Stockfish definitions, end to end
//! over HTTP on SQLite and PostgreSQL: Capablanca (10x8, new pieces) and
//! crazyhouse (hands and drops) are created from the new-game form,
//! played, drawn, exported as PGN, mailed, played by conditional moves, by
//! Xfcc and read by the JSON API.

use crate::common;
use missive::domain::ids::GameId;

use common::{Backend, TestApp, TestClient};
use missive::mail::context::MailCtx;
use missive::mail::drain::{self, Sender};
use missive::mail::transport::Transport;
use missive_rules::record;
use reqwest::StatusCode;

both_backends!(
    capablanca_is_played_drawn_exported_and_mailed,
    crazyhouse_drops_from_the_hand_over_http_and_xfcc,
    janggi_passes_over_http_end_the_game_on_points,
    chess960_games_start_from_drawn_positions_and_stay_rated,
);

/// A verified user, so mail is queued for them.
fn verified(app: &TestApp, name: &str) -> TestClient {
    app.verified_user(name)
}

/// A game of `variant`, alice White, accepted by bob.
fn game(alice: &TestClient, bob: &TestClient, variant: &str) -> GameId {
    alice.game_accepted_by(bob, "bob", variant)
}

fn played(c: &TestClient, id: GameId, text: &str) {
    let p = c.play(id, text);
    assert_eq!(p.status, StatusCode::SEE_OTHER, "{text}: {}", p.body);
}

/// The board's pieces are pictures: no letter disc, and each piece that
/// has no standard picture drawn from its movement (`pm-` symbols).
fn board_draws_every_piece(page: &str, movement_pictures: &[&str]) {
    let i = page
        .find("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\"")
        .expect("a board");
    let svg = &page[i..i + page[i..].find("</svg>").unwrap()];
    assert!(!svg.contains("class=\"disc\""), "a letter disc: {svg}");
    for name in movement_pictures {
        assert!(
            svg.contains(&format!("href=\"#pm-{name}\"")),
            "{name} drawn from its movement"
        );
        assert!(svg.contains(&format!("<symbol id=\"pm-{name}\"")), "{name}");
    }
}

fn capablanca_is_played_drawn_exported_and_mailed(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = verified(&app, "alice");
    let bob = verified(&app, "bob");
    // The form finds it by name and by family.
    let form = alice.get("/games/new?q=capa");
    assert!(form.has("value=\"capablanca\""), "{}", form.body);
    assert!(!form.has("value=\"maohopper\""));
    let form = alice.get("/games/new?q=large");
    assert!(form.has("data-family=\"large-board\"") && form.has("value=\"gothic\""));
    let id = game(&alice, &bob, "capablanca");
    let page = alice.get(&format!("/games/{id}"));
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.has("capablanca"));
    board_draws_every_piece(&page.body, &["archbishop", "chancellor"]);
    // The legend names the new pieces; the rules page is the definition's.
    assert!(page.has("data-piece=\"Archbishop\"") && page.has("data-piece=\"Chancellor\""));
    let rules = alice.get("/variants/capablanca");
    assert_eq!(rules.status, StatusCode::OK);
    assert!(
        rules.has("10×8") && rules.has("Archbishop (A)"),
        "{}",
        rules.body
    );
    // Moves in SAN and in coordinates; the Archbishop's knight leap.
    played(&alice, id, "e4");
    played(&bob, id, "e7e5");
    played(&alice, id, "Ad3");
    // A conditional line of bob's: if alice answers Ci3 (the Chancellor), Nh6.
    played(&bob, id, "Nc6");
    let p = bob.post(&format!("/games/{id}/conditional"), &[("line", "Ci3 Nh6")]);
    assert_eq!(p.status, StatusCode::SEE_OTHER, "{}", p.body);
    played(&alice, id, "Ci3");
    let j = alice.json(id);
    assert_eq!(j["ply"], 6, "bob's conditional Nh6 was played: {j}");
    let moves: Vec<&str> = j["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["notation"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["e4", "e5", "Ad3", "Nc6", "Ci3", "Nh6"]);
    assert_eq!(j["moves"][5]["conditional"], true);
    let fen = j["fen"].as_str().unwrap();
    // The Archbishop stands where its knight's leap took it.
    let capa = missive_rules::variant("capablanca").unwrap();
    let pos = capa.parse_fen(fen).unwrap();
    let d3 = pos
        .get(missive_rules::Square::parse("d3").unwrap())
        .unwrap();
    assert_eq!(capa.piece_label(d3).name, "Archbishop", "{fen}");
    // PGN: the Fairy-Stockfish name in the Variant tag, read back to the
    // same position.
    let pgn = app.client().get(&format!("/games/{id}.pgn")).body;
    assert!(pgn.contains("[Variant \"capablanca\"]"), "{pgn}");
    assert!(pgn.contains("2. Ad3"), "{pgn}");
    let rec = record::parse_pgn(&pgn).unwrap().remove(0);
    let g = record::check(&rec, missive_rules::variant).unwrap();
    assert_eq!(g.fen(), fen);
    // Mail: bob was told of each of alice's moves; the mail renders with
    // the new pieces named in its key.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("mail");
    let mut config = app.config.clone();
    config.base_url = app.base.clone();
    let secret = missive::web::load_secret(&mut app.db(), None).unwrap();
    let sender = Sender {
        transport: Transport::file(out.to_str().unwrap()).unwrap(),
        ctx: MailCtx::new(&config, &secret).unwrap(),
        owner: "test".into(),
    };
    let report = drain::drain_once(&mut app.db(), &sender, missive::web::now()).unwrap();
    assert!(report.sent >= 2, "{report:?}");
    let mails: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert!(
        mails
            .iter()
            .any(|m| m.contains("Ad3") && m.contains("A Archbishop")),
        "{mails:?}"
    );
}

fn crazyhouse_drops_from_the_hand_over_http_and_xfcc(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let form = alice.get("/games/new?q=drops");
    assert!(form.has("value=\"crazyhouse\"") && form.has("value=\"capahouse\""));
    let id = game(&alice, &bob, "crazyhouse");
    played(&alice, id, "e4");
    played(&bob, id, "d5");
    played(&alice, id, "exd5");
    played(&bob, id, "Qxd5");
    // Each side holds a pawn: shown with the board.
    let page = bob.get(&format!("/games/{id}"));
    assert!(page.has("class=\"in-hand\""), "{}", page.body);
    board_draws_every_piece(&page.body, &[]);
    played(&alice, id, "Nc3");
    played(&bob, id, "Qa5");
    // A drop, in Fairy-Stockfish's SAN.
    played(&alice, id, "P@d4");
    let j = alice.json(id);
    assert_eq!(j["moves"][6]["notation"], "P@d4", "{j}");
    assert_eq!(
        j["fen"],
        "rnb1kbnr/ppp1pppp/8/q7/3P4/2N5/PPPP1PPP/R1BQKBNR[p] b KQkq - 0 4"
    );
    // Xfcc: bob drops his pawn through the SOAP service.
    let pw = {
        let p = bob.post(
            "/settings/app-passwords",
            &[
                ("name", "xfcc"),
                ("current_password", "correct horse battery"),
            ],
        );
        assert_eq!(p.status, StatusCode::OK, "{}", p.body);
        let tag = "id=\"new-secret\" class=\"secret\">";
        let i = p.body.find(tag).unwrap() + tag.len();
        common::unescape(&p.body[i..i + p.body[i..].find("</code>").unwrap()])
    };
    let body = format!(
        r#"<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><MakeAMove xmlns="http://www.bennedik.com/webservices/XfccBasic"><username>bob</username><password>{pw}</password><gameId>{id}</gameId><resign>false</resign><acceptDraw>false</acceptDraw><movecount>4</movecount><myMove>P@e6</myMove><offerDraw>false</offerDraw><claimDraw>false</claimDraw><myMessage></myMessage></MakeAMove></soap:Body></soap:Envelope>"#
    );
    let r = reqwest::blocking::Client::new()
        .post(format!("{}/xfcc", app.base))
        .header("Content-Type", "text/xml; charset=utf-8")
        .body(body)
        .send()
        .unwrap();
    let reply = r.text().unwrap();
    assert!(
        reply.contains("<MakeAMoveResult>Success</MakeAMoveResult>"),
        "{reply}"
    );
    let j = alice.json(id);
    assert_eq!(j["moves"][7]["notation"], "P@e6", "{j}");
    // The record: Variant tag, drops read back.
    let pgn = app.client().get(&format!("/games/{id}.pgn")).body;
    assert!(
        pgn.contains("[Variant \"crazyhouse\"]") && pgn.contains("P@d4"),
        "{pgn}"
    );
    let rec = record::parse_pgn(&pgn).unwrap().remove(0);
    let g = record::check(&rec, missive_rules::variant).unwrap();
    assert_eq!(g.fen(), j["fen"].as_str().unwrap());
}

/// Janggi over HTTP: each move is a request that resumes the game from its
/// stored FEN and history, so the second of two passes in a row must find
/// the first in the history (the FEN does not hold it); the game then ends
/// on points (Black's here: 22 and Han's bonus against 23), and the move
/// may be entered in janggi notation.
fn janggi_passes_over_http_end_the_game_on_points(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = verified(&app, "alice");
    let bob = verified(&app, "bob");
    let fen = "r3k4/9/4c4/9/4p4/9/4C4/3R5/4A4/4K4 w - - 0 1";
    let id = alice.new_game(&[
        ("variant", "janggi"),
        ("opponent", "bob"),
        ("color", "white"),
        ("fen", fen),
    ]);
    assert_eq!(
        bob.post(&format!("/games/{id}/accept"), &[]).status,
        StatusCode::SEE_OTHER
    );
    played(&alice, id, "Ke1");
    assert!(alice.json(id)["reason"].is_null(), "one pass ends nothing");
    played(&bob, id, "K15-15");
    let j = alice.json(id);
    assert_eq!(
        (j["result"].as_str(), j["reason"].as_str()),
        (Some("0-1"), Some("double-pass")),
        "{j}"
    );
}

/// Chess960: a game asked for without a start position gets one of the
/// 960 drawn for it (not the same for every game), it may be rated as any
/// game of the variant's own start, and its PGN carries the start.
fn chess960_games_start_from_drawn_positions_and_stay_rated(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = verified(&app, "alice");
    let bob = verified(&app, "bob");
    let v = missive_rules::variant("fischerandom").expect("registered");
    let mut starts = std::collections::HashSet::new();
    for n in 0..6 {
        let id = alice.new_game(&[
            ("variant", "fischerandom"),
            ("opponent", "bob"),
            ("color", "white"),
            ("fen", ""),
            ("rated", "1"),
        ]);
        assert_eq!(
            bob.post(&format!("/games/{id}/accept"), &[]).status,
            StatusCode::SEE_OTHER
        );
        let j = alice.json(id);
        let start = j["start_fen"].as_str().expect("a start").to_string();
        assert!(v.is_shuffled_start(&start), "{start}");
        // (A pair's rated games a day are limited: the first is enough.)
        if n == 0 {
            assert_eq!(j["rated"], true, "{j}");
        }
        let pgn = alice.get(&format!("/games/{id}.pgn")).body;
        assert!(pgn.contains(&format!("[FEN \"{start}\"]")), "{pgn}");
        starts.insert(start);
    }
    assert!(starts.len() > 1, "six games, one start: {starts:?}");
}
