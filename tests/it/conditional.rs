//! Conditional moves over HTTP, on SQLite and PostgreSQL: lines entered,
//! checked ply by ply, kept private, played at once in the opponent's
//! move's transaction, and dropped when they no longer match.

use crate::common;
use missive::domain::ids::GameId;

use common::{Backend, TestApp, TestClient};
use missive_rules::{Color, Game, MoveKind};
use rand::{Rng, SeedableRng};
use reqwest::StatusCode;

/// A game of `variant` that `white` (as White) challenged `black` to,
/// accepted; its id.
fn game_of(
    white: &TestClient,
    black: &TestClient,
    black_name: &str,
    variant: &str,
    time_control: &str,
) -> i32 {
    let id = white.new_game(&[
        ("variant", variant),
        ("opponent", black_name),
        ("color", "white"),
        ("fen", ""),
        ("time_control", time_control),
    ]);
    let a = black.post(&format!("/games/{id}/accept"), &[]);
    assert_eq!(a.status, StatusCode::SEE_OTHER, "accept: {}", a.body);
    id.get()
}

/// Rows of `table` for game `id` that also meet `and` (SQL; "" for all).
fn rows_of(app: &TestApp, table: &str, id: i32, and: &str) -> i64 {
    app.count(&format!(
        "SELECT COUNT(*) AS n FROM {table} WHERE game_id = {id} {and}"
    ))
}

fn add_line(c: &TestClient, id: GameId, line: &str) -> common::Page {
    c.post(&format!("/games/{id}/conditional"), &[("line", line)])
}

fn moves(j: &serde_json::Value) -> Vec<serde_json::Value> {
    j["moves"].as_array().unwrap().clone()
}

fn lines(j: &serde_json::Value) -> Vec<String> {
    j["conditional_lines"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|l| l["line"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Alice and Bob with verified addresses (so mail is queued for them), in a
/// game of chess with Alice White.
fn verified_game(backend: Backend) -> (TestApp, TestClient, TestClient, GameId) {
    let app = TestApp::start(backend);
    let alice = app.verified_user("alice");
    let bob = app.verified_user("bob");
    let id = game_of(&alice, &bob, "bob", "chess", "");
    (app, alice, bob, GameId(id))
}

fn a_line_is_played_at_once_when_the_opponents_move_matches(backend: Backend) {
    let (app, alice, bob, id) = verified_game(backend);
    assert_eq!(alice.play(id, "e4").status, StatusCode::SEE_OTHER);
    // Bob to move: Alice's lines, with a comment on her own move.
    assert_eq!(
        add_line(&alice, id, "e5 Nf3 // the main line; Nc6 Bb5").status,
        StatusCode::SEE_OTHER
    );
    assert_eq!(add_line(&alice, id, "c5 Nf3").status, StatusCode::SEE_OTHER);
    assert_eq!(
        add_line(&alice, id, "e5 Nf3 d6 d4").status,
        StatusCode::SEE_OTHER
    );
    assert_eq!(
        lines(&alice.json(id)),
        vec!["e5 Nf3 Nc6 Bb5", "c5 Nf3", "e5 Nf3 d6 d4"]
    );
    // Private: Bob's page and JSON, and a visitor's, show none of it.
    let page = bob.get(&format!("/games/{id}"));
    assert!(
        !page.has("Bb5") && !page.has("conditional-lines"),
        "{}",
        page.body
    );
    assert!(bob
        .json(id)
        .get("conditional_lines")
        .unwrap()
        .as_array()
        .unwrap()
        .is_empty());
    assert!(app.client().json(id).get("conditional_lines").is_none());
    let mine = alice.get(&format!("/games/{id}"));
    assert!(mine.has("id=\"conditional-lines\"") && mine.has("e5 Nf3 Nc6 Bb5"));

    assert_eq!(bob.play(id, "e5").status, StatusCode::SEE_OTHER);
    let j = bob.json(id);
    let m = moves(&j);
    assert_eq!(j["ply"], 3, "{j}");
    assert_eq!(m[2]["notation"], "Nf3");
    assert_eq!(m[2]["conditional"], true);
    assert_eq!(m[2]["comment"], "the main line");
    assert_eq!(m[1]["conditional"], false);
    // Stored with the opponent's move, at the same moment.
    assert_eq!(m[2]["played_at"], m[1]["played_at"]);
    // What is left starts at Bob's next move; the c5 line is gone.
    assert_eq!(lines(&alice.json(id)), vec!["Nc6 Bb5", "d6 d4"]);
    // Marked in the move list and the PGN.
    assert!(bob.get(&format!("/games/{id}")).has("(conditional)"));
    let pgn = bob.get(&format!("/games/{id}.pgn")).body;
    assert!(
        pgn.contains("{[%missive conditional] the main line}"),
        "{pgn}"
    );
    // Mail: Bob one "your turn" naming both moves, Alice "played".
    let kinds = |who: &str| -> Vec<String> {
        let sql = format!(
            "SELECT o.kind AS s FROM email_outbox o JOIN users u ON u.id = o.user_id \
             WHERE u.username = '{who}' AND o.game_id = {id} AND o.ply = 3 ORDER BY o.id"
        );
        texts(&app, &sql)
    };
    assert_eq!(kinds("bob"), vec!["your_turn"]);
    assert_eq!(kinds("alice"), vec!["conditional_played"]);
    let payload = texts(
        &app,
        &format!("SELECT payload AS s FROM email_outbox WHERE game_id = {id} AND kind = 'your_turn' AND ply = 3"),
    );
    assert!(payload[0].contains("\"answers\":\"e5\""), "{payload:?}");

    // Bob plays Nc6: Bb5 follows at once; then d6 would have no line left.
    assert_eq!(bob.play(id, "Nc6").status, StatusCode::SEE_OTHER);
    let j = alice.json(id);
    assert_eq!(j["ply"], 5);
    assert_eq!(moves(&j)[4]["notation"], "Bb5");
    assert!(lines(&j).is_empty());
    assert_eq!(rows_of(&app, "conditional_lines", id.get(), ""), 0);
    assert_eq!(
        app.count(&format!(
            "SELECT CAST(conditional_count AS BIGINT) AS n FROM games WHERE id = {id}"
        )),
        0
    );
}

fn texts(app: &TestApp, sql: &str) -> Vec<String> {
    use diesel::prelude::*;
    #[derive(QueryableByName)]
    struct S {
        #[diesel(sql_type = diesel::sql_types::Text)]
        s: String,
    }
    let mut conn = app.db();
    diesel::sql_query(sql)
        .load::<S>(&mut conn)
        .unwrap()
        .into_iter()
        .map(|r| r.s)
        .collect()
}

fn a_move_that_matches_no_line_drops_them_all(backend: Backend) {
    let (app, alice, bob, id) = verified_game(backend);
    alice.play(id, "e4");
    assert_eq!(add_line(&alice, id, "e5 Nf3").status, StatusCode::SEE_OTHER);
    assert_eq!(bob.play(id, "d5").status, StatusCode::SEE_OTHER);
    let j = alice.json(id);
    assert_eq!(j["ply"], 2);
    assert!(lines(&j).is_empty());
    assert_eq!(rows_of(&app, "conditional_lines", id.get(), ""), 0);
    // Alice is told it is her turn as usual: no conditional mail.
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM email_outbox WHERE kind = 'conditional_played'"),
        0
    );
    assert_eq!(
        app.count(&format!("SELECT COUNT(*) AS n FROM email_outbox WHERE kind = 'your_turn' AND ply = 2 AND game_id = {id}")),
        1
    );
}

fn a_refused_line_says_which_ply_and_why(backend: Backend) {
    let (_app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    alice.play(id, "e4");
    for (line, ply) in [
        ("e4 Nf3", "Ply 1 of the line (e4, your opponent's move)"),
        ("e5 Nf6", "Ply 2 of the line (Nf6, your move)"),
        ("e5 Nf3 Ke7 Ke3", "Ply 4 of the line (Ke3, your move)"),
        (
            "e5 Nf3 Bb5",
            "Ply 3 of the line (Bb5, your opponent's move)",
        ),
    ] {
        let p = add_line(&alice, id, line);
        assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY, "{line}");
        assert!(
            common::unescape(&p.body).contains(ply),
            "{line}: {}",
            p.body
        );
        // The refused line comes back to correct.
        assert!(p.has(&format!(">{line}</textarea>")), "{}", p.body);
    }
    let p = add_line(&alice, id, "e5 Nf3 Nc6");
    assert!(common::unescape(&p.body).contains("ends with your opponent's move (Nc6)"));
    let p = add_line(&alice, id, "");
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
    // Two answers to one move are refused with the reason.
    assert_eq!(
        add_line(&alice, id, "e5 Nf3 Nc6 Bb5").status,
        StatusCode::SEE_OTHER
    );
    let p = add_line(&alice, id, "e5 Nf3 Nc6 Bc4");
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        common::unescape(&p.body)
            .contains("answers after Nc6 with Bc4, but your line e5 Nf3 Nc6 Bb5 plays Bb5"),
        "{}",
        p.body
    );
    let p = add_line(&alice, id, "e5 Nf3 Nc6 Bb5");
    assert!(p.has("already"));
    // Not the owner's turn to have lines: Bob is to move.
    let p = add_line(&bob, id, "Nf3 Nc6");
    assert_eq!(p.status, StatusCode::FORBIDDEN, "{}", p.body);
    assert!(common::unescape(&p.body).contains("It is your move"));
    // Repetition rules count: a line may not rely on a move the rules forbid.
    assert_eq!(lines(&alice.json(id)), vec!["e5 Nf3 Nc6 Bb5"]);
}

fn a_line_can_be_deleted_by_its_owner_only(backend: Backend) {
    let (app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    alice.play(id, "e4");
    add_line(&alice, id, "e5 Nf3");
    let line_id = alice.json(id)["conditional_lines"][0]["id"]
        .as_i64()
        .unwrap()
        .to_string();
    let p = bob.post(
        &format!("/games/{id}/conditional/delete"),
        &[("line_id", line_id.as_str())],
    );
    assert_eq!(p.status, StatusCode::NOT_FOUND);
    let stranger = app.user("carol");
    let p = stranger.post(
        &format!("/games/{id}/conditional/delete"),
        &[("line_id", line_id.as_str())],
    );
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    let p = alice.post(
        &format!("/games/{id}/conditional/delete"),
        &[("line_id", line_id.as_str())],
    );
    assert_eq!(p.status, StatusCode::SEE_OTHER);
    assert!(lines(&alice.json(id)).is_empty());
    bob.play(id, "e5");
    assert_eq!(alice.json(id)["ply"], 2);
    let p = alice.post(
        &format!("/games/{id}/conditional/delete"),
        &[("line_id", "x")],
    );
    assert_eq!(p.status, StatusCode::BAD_REQUEST);
    let p = stranger.post(&format!("/games/{id}/conditional"), &[("line", "Nf3 Nc6")]);
    assert_eq!(p.status, StatusCode::FORBIDDEN);
}

fn a_line_goes_with_a_move_or_neither_is_stored(backend: Backend) {
    let (_app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    let with = |c: &TestClient, mv: &str, line: &str| {
        c.post(
            &format!("/games/{id}/move"),
            &[("move", mv), ("confirm", "1"), ("conditional", line)],
        )
    };
    // A bad line: the move is not played either.
    let p = with(&alice, "e4", "e5 Ke3");
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        common::unescape(&p.body).contains("Your move was not played"),
        "{}",
        p.body
    );
    assert_eq!(alice.json(id)["ply"], 0);
    let p = with(&alice, "e4", "e5 Nf3");
    assert_eq!(p.status, StatusCode::SEE_OTHER, "{}", p.body);
    let j = alice.json(id);
    assert_eq!(j["ply"], 1);
    assert_eq!(lines(&j), vec!["e5 Nf3"]);
    bob.play(id, "e5");
    assert_eq!(moves(&alice.json(id))[2]["notation"], "Nf3");
    assert_eq!(alice.json(id)["ply"], 3);
    // With the confirmation step, the preview carries the line on.
    let p = bob.post(
        &format!("/games/{id}/move"),
        &[("move", "Nc6"), ("conditional", "Bb5 a6")],
    );
    if p.status == StatusCode::SEE_OTHER && p.location.as_deref() != Some(&format!("/games/{id}")) {
        let p = bob.get(p.location.as_deref().unwrap());
        assert!(p.has("name=\"conditional\" value=\"Bb5 a6\""), "{}", p.body);
        let c = bob.post(
            &format!("/games/{id}/move"),
            &[("move", "Nc6"), ("confirm", "1"), ("conditional", "Bb5 a6")],
        );
        assert_eq!(c.status, StatusCode::SEE_OTHER);
    }
    assert_eq!(lines(&bob.json(id)), vec!["Bb5 a6"]);
    alice.play(id, "Bb5");
    assert_eq!(alice.json(id)["ply"], 6);
    assert_eq!(moves(&alice.json(id))[5]["conditional"], true);
}

fn a_conditional_reply_uses_none_of_the_owners_clock(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let id = game_of(&alice, &bob, "bob", "chess", "3d/move");
    alice.play(GameId(id), "e4");
    add_line(&alice, GameId(id), "e5 Nf3");
    bob.play(GameId(id), "e5");
    let j = alice.json(GameId(id));
    let m = moves(&j);
    assert_eq!(m[2]["conditional"], true);
    assert_eq!(m[2]["time_used_secs"], 0);
    // Bob to move, his clock running; Alice's full again under a per-move control.
    assert_eq!(j["clock"]["black_running"], true);
    assert_eq!(j["clock"]["white_running"], false);
    assert_eq!(j["clock"]["white_left_secs"], 3 * 86_400);
}

fn a_move_that_ends_the_game_plays_nothing(backend: Backend) {
    let (app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    alice.play(id, "f3");
    bob.play(id, "e5");
    alice.play(id, "g4");
    // Black to move; Alice (White) has a line for another answer.
    assert_eq!(add_line(&alice, id, "Nc6 d3").status, StatusCode::SEE_OTHER);
    assert_eq!(bob.play(id, "Qh4#").status, StatusCode::SEE_OTHER);
    let j = alice.json(id);
    assert_eq!(j["status"], "finished");
    assert_eq!(j["ply"], 4);
    assert_eq!(rows_of(&app, "conditional_lines", id.get(), ""), 0);
}

/// A line whose reply ends the game: the game ends with it, and both
/// players get the "game over" mail, nobody a "your turn".
fn a_conditional_reply_can_end_the_game(backend: Backend) {
    let (app, alice, bob, id) = verified_game(backend);
    alice.play(id, "e4");
    bob.play(id, "e5");
    alice.play(id, "Qh5");
    bob.play(id, "Nc6");
    alice.play(id, "Bc4");
    assert_eq!(
        add_line(&alice, id, "Nf6 Qxf7#").status,
        StatusCode::SEE_OTHER
    );
    bob.play(id, "Nf6");
    let j = bob.json(id);
    assert_eq!(j["status"], "finished");
    assert_eq!(j["result"], "1-0");
    assert_eq!(moves(&j)[6]["notation"], "Qxf7#");
    assert_eq!(
        rows_of(&app, "email_outbox", id.get(), "AND kind = 'game_over'"),
        2
    );
    assert_eq!(rows_of(&app, "email_outbox", id.get(), "AND ply = 7"), 0);
}

/// The race: the opponent's move and the owner's deletion of the line it
/// would match, at once. One comes first: either the reply is played and
/// the deletion finds nothing, or the line is gone and nothing is played;
/// never a reply from a deleted line, and the game's count of lines stays
/// that of its rows.
fn a_move_racing_an_edit_of_the_lines_takes_one_order(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let mut seen = [0, 0];
    for _ in 0..6 {
        let id = game_of(&alice, &bob, "bob", "chess", "");
        alice.play(GameId(id), "e4");
        add_line(&alice, GameId(id), "e5 Nf3");
        let line_id = alice.json(GameId(id))["conditional_lines"][0]["id"]
            .as_i64()
            .unwrap()
            .to_string();
        let (a, b) = (alice.clone(), bob.clone());
        let deleter = std::thread::spawn(move || {
            a.post(
                &format!("/games/{id}/conditional/delete"),
                &[("line_id", line_id.as_str())],
            )
            .status
        });
        let mover = std::thread::spawn(move || b.play(GameId(id), "e5").status);
        let deleted = deleter.join().unwrap();
        assert_eq!(mover.join().unwrap(), StatusCode::SEE_OTHER);
        let j = alice.json(GameId(id));
        match j["ply"].as_i64().unwrap() {
            3 => {
                assert_eq!(deleted, StatusCode::NOT_FOUND);
                seen[0] += 1;
            }
            2 => {
                assert_eq!(deleted, StatusCode::SEE_OTHER);
                seen[1] += 1;
            }
            other => panic!("ply {other}"),
        }
        assert_eq!(
            rows_of(&app, "conditional_lines", id, ""),
            app.count(&format!(
                "SELECT CAST(conditional_count AS BIGINT) AS n FROM games WHERE id = {id}"
            ))
        );
    }
    eprintln!(
        "reply played first {} times, deletion first {} times",
        seen[0], seen[1]
    );
}

/// Two server processes on one database: the opponent's move sent to both
/// at once is stored once, and its conditional reply once.
fn two_processes_play_a_reply_once(backend: Backend) {
    let (app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    alice.play(id, "e4");
    add_line(&alice, id, "e5 Nf3");
    let second = common::launch(app.config.clone());
    let bob2 = TestClient {
        base: second.base.clone(),
        http: bob.http.clone(),
    };
    let token = bob.csrf();
    let send = |c: TestClient, token: String| {
        std::thread::spawn(move || {
            c.post_raw(
                &format!("/games/{id}/move"),
                &[
                    ("csrf_token", &token),
                    ("move", "e5"),
                    ("confirm", "1"),
                    ("ply", "1"),
                ],
            )
            .status
        })
    };
    let one = send(bob.clone(), token.clone());
    let two = send(bob2, token);
    let statuses = [one.join().unwrap(), two.join().unwrap()];
    assert!(statuses.contains(&StatusCode::SEE_OTHER), "{statuses:?}");
    common::halt(second);
    let j = alice.json(id);
    assert_eq!(j["ply"], 3);
    assert_eq!(rows_of(&app, "moves", id.get(), ""), 3);
    assert_eq!(rows_of(&app, "moves", id.get(), "AND conditional"), 1);
}

/// Every variant: a line whose moves are the variant's special forms where
/// the position has them (drops, two-leg moves, nukes, capture chains,
/// Spear turns, castling, promotions), found by a seeded walk through the
/// game with the rules engine, entered in display notation and played at
/// once when the opponent's move matches.
fn a_line_in_every_variant(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let mut kinds_seen = Vec::new();
    for v in missive_rules::variants() {
        let id = game_of(&alice, &bob, "bob", v.id(), "");
        // The game's own start: Chess960 draws one for each game.
        let start = alice.json(GameId(id))["start_fen"]
            .as_str()
            .unwrap()
            .to_string();
        let (path, first, second) = find_line(*v, &start);
        let client = |c: Color| if c == Color::Black { &bob } else { &alice };
        let mut game = Game::new(*v, Some(&start)).unwrap();
        for mv in &path {
            let p = client(game.side_to_move()).play(GameId(id), mv);
            assert_eq!(
                p.status,
                StatusCode::SEE_OTHER,
                "{} {mv}: {}",
                v.id(),
                p.body
            );
            game.play_text(mv).unwrap();
        }
        let owner = client(game.side_to_move().opponent());
        let opponent = client(game.side_to_move());
        let text = format!("{} {}", first.display, second.display);
        let p = add_line(owner, GameId(id), &text);
        assert_eq!(
            p.status,
            StatusCode::SEE_OTHER,
            "{}: {text}: {}",
            v.id(),
            p.body
        );
        let before = game.ply() as i64;
        let p = opponent.play(GameId(id), &first.coordinate);
        assert_eq!(p.status, StatusCode::SEE_OTHER, "{}: {}", v.id(), p.body);
        let j = owner.json(GameId(id));
        assert_eq!(j["ply"].as_i64().unwrap(), before + 2, "{}: {text}", v.id());
        let m = moves(&j);
        let last = &m[m.len() - 1];
        assert_eq!(last["conditional"], true, "{}", v.id());
        assert_eq!(last["coordinate"], second.coordinate.as_str(), "{}", v.id());
        kinds_seen.push((v.id(), first.mv.kind, second.mv.kind));
    }
    eprintln!("{kinds_seen:?}");
    // Each seed's line has one of its special forms at least (a definition
    // variant may have none: Breakthrough, antichess's walk found none).
    let seed = |id: &str| {
        id == "chess"
            || missive_rules::variant(id).map(|v| v.family())
                == Some(missive_rules::Family::GameCourier)
    };
    for (id, a, b) in kinds_seen.iter().filter(|k| seed(k.0)) {
        assert!(
            *a != MoveKind::Normal || *b != MoveKind::Normal,
            "{id}: {kinds_seen:?}"
        );
    }
}

/// How special a move's form is: the forms only some variants have first.
fn rank(m: &missive_rules::Move) -> u8 {
    match m.kind {
        MoveKind::TwoLeg | MoveKind::Chain | MoveKind::Drop | MoveKind::Special => 3,
        MoveKind::EnPassant => 2,
        MoveKind::Castle => 1,
        MoveKind::Normal if m.piece.is_some() => 1,
        MoveKind::Normal => 0,
    }
}

/// A seeded walk through a game of `v` that prefers special moves: the
/// moves to a position, and there the line (the mover's move, then the
/// answer) with the most special forms found within 120 plies.
fn find_line(
    v: &'static dyn missive_rules::Variant,
    start: &str,
) -> (Vec<String>, missive_rules::Played, missive_rules::Played) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut game = Game::new(v, Some(start)).unwrap();
    let mut path: Vec<String> = Vec::new();
    let mut best: Option<(u8, usize, missive_rules::Played, missive_rules::Played)> = None;
    for _ in 0..120 {
        if game.outcome().is_some() {
            break;
        }
        for first in game.legal_moves().to_vec() {
            let mut after = game.clone();
            let text = game.format(&first, missive_rules::Notation::Coordinate);
            let played = after.play_text(&text).unwrap();
            if after.outcome().is_some() || after.side_to_move() == game.side_to_move() {
                continue;
            }
            for reply in after.legal_moves().to_vec() {
                let score = rank(&first) * 2 + rank(&reply);
                // A plain line (score 0) only where nothing better is found:
                // Breakthrough has pawns and nothing else.
                if best.as_ref().is_some_and(|b| b.0 >= score) {
                    continue;
                }
                let mut g = after.clone();
                let r = g
                    .play_text(&after.format(&reply, missive_rules::Notation::Coordinate))
                    .unwrap();
                if g.outcome().is_none() {
                    best = Some((score, path.len(), played.clone(), r));
                }
            }
        }
        if best.as_ref().is_some_and(|b| b.0 == 9) {
            break;
        }
        let legal = game.legal_moves().to_vec();
        let special: Vec<_> = legal.iter().filter(|m| rank(m) > 0).collect();
        let mv = match special.is_empty() || rng.gen_bool(0.5) {
            true => legal[rng.gen_range(0..legal.len())],
            false => *special[rng.gen_range(0..special.len())],
        };
        let text = game.format(&mv, missive_rules::Notation::Coordinate);
        game.play_text(&text).unwrap();
        path.push(text);
    }
    let (_, at, first, second) = best.unwrap_or_else(|| panic!("{}: no line found", v.id()));
    path.truncate(at);
    (path, first, second)
}

/// In a tournament game, under the owner's leave, and under each kind of
/// time control, a matching line is played at once.
fn lines_work_in_tournaments_under_leave_and_every_clock(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let carol = app.user("carol");
    // Every clock: per move, a bank with schedule credit, none.
    for tc in ["1d/move", "50d +50d/10moves", "none"] {
        let id = game_of(&alice, &bob, "bob", "chess", tc);
        alice.play(GameId(id), "e4");
        assert_eq!(
            add_line(&alice, GameId(id), "e5 Nf3").status,
            StatusCode::SEE_OTHER
        );
        bob.play(GameId(id), "e5");
        let j = alice.json(GameId(id));
        assert_eq!(j["ply"], 3, "{tc}: {j}");
        assert_eq!(moves(&j)[2]["conditional"], true, "{tc}");
    }
    // Under leave: Alice away today and tomorrow (booked yesterday, as
    // leave is booked ahead), her line still answers.
    let now = missive::web::now();
    let alice_id =
        app.count("SELECT CAST(id AS BIGINT) AS n FROM users WHERE username = 'alice'") as i32;
    missive::clocks::leave::book_leave(
        &mut app.db(),
        alice_id,
        now.date(),
        now.date() + chrono::Duration::days(1),
        30,
        now - chrono::Duration::days(1),
    )
    .unwrap();
    let id = game_of(&alice, &bob, "bob", "chess", "3d/move");
    alice.play(GameId(id), "d4");
    add_line(&alice, GameId(id), "d5 c4");
    bob.play(GameId(id), "d5");
    let j = alice.json(GameId(id));
    assert_eq!(moves(&j)[2]["notation"], "c4");
    assert_eq!(j["clock"]["white_on_leave"], true);
    // A tournament game between Bob and Carol.
    let game = common::tournament_game(&app, "alice", &["bob", "carol"]).id;
    let bob_white = bob.json(game)["white"] == "bob";
    let (white, black) = if bob_white {
        (&bob, &carol)
    } else {
        (&carol, &bob)
    };
    assert_eq!(white.play(game, "e4").status, StatusCode::SEE_OTHER);
    assert_eq!(
        add_line(white, game, "c5 Nf3").status,
        StatusCode::SEE_OTHER
    );
    assert_eq!(black.play(game, "c5").status, StatusCode::SEE_OTHER);
    let j = black.json(game);
    assert_eq!(j["ply"], 3);
    assert_eq!(moves(&j)[2]["conditional"], true);
}

both_backends!(
    lines_work_in_tournaments_under_leave_and_every_clock,
    a_line_is_played_at_once_when_the_opponents_move_matches,
    a_move_that_matches_no_line_drops_them_all,
    a_refused_line_says_which_ply_and_why,
    a_line_can_be_deleted_by_its_owner_only,
    a_line_goes_with_a_move_or_neither_is_stored,
    a_conditional_reply_uses_none_of_the_owners_clock,
    a_move_that_ends_the_game_plays_nothing,
    a_conditional_reply_can_end_the_game,
    a_move_racing_an_edit_of_the_lines_takes_one_order,
    two_processes_play_a_reply_once,
    a_line_in_every_variant,
);
