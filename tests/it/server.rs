//! End-to-end tests over HTTP against the real app, on SQLite and (when
//! `MISSIVE_TEST_POSTGRES_URL` is set) PostgreSQL.

use crate::common;
use missive::db::games;
use missive::domain::ids::GameId;

use common::{Backend, TestApp};
use reqwest::StatusCode;
use std::sync::{Arc, Barrier};

both_backends!(
    fools_mate_end_to_end,
    illegal_move_is_422_and_not_stored,
    csrf_is_required,
    only_the_player_to_move_may_move,
    unknown_and_garbage_ids,
    hostile_inputs_never_500,
    concurrent_moves_store_exactly_one,
    login_rate_limited_per_account,
    login_rate_limited_per_ip,
    json_shape,
    signup_validation,
    open_seek_and_decline,
    resign_and_draws,
    confirmation_step,
    login_logout_and_secret_persists,
    dashboard_order,
    every_variant_plays,
    race_without_ply_field,
    sessions_survive_restart,
    custom_fen_black_first,
    rate_limit_is_stored_in_the_database,
    concurrent_accepts_of_a_seek,
    moving_declines_a_draw_offer,
    the_game_page_follows_every_move,
    a_repetition_is_seen_whether_or_not_the_game_was_kept,
    settings_gather_in_one_page,
    issue_66_cases_through_the_move_form,
);

fn fools_mate_end_to_end(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let id = alice.challenge("bob", "black");
    // Bob sees the challenge on his dashboard and accepts.
    let dash = bob.get("/");
    assert!(dash.has("Challenges for you"), "{}", dash.body);
    let p = bob.post(&format!("/games/{id}/accept"), &[]);
    assert_eq!(p.status, StatusCode::SEE_OTHER);
    // Bob is White: it is his turn; the dashboard says so.
    assert!(bob.get("/").body.contains(&format!("/games/{id}")));
    let page = bob.get(&format!("/games/{id}"));
    assert!(page.has("Your turn"), "{}", page.body);
    assert!(page.has("<svg"));
    assert!(page.has("data-move=\"e4\""));
    for (who, mv) in [
        (&bob, "f3"),
        (&alice, "e7e5"),
        (&bob, "g4"),
        (&alice, "Qh4#"),
    ] {
        let p = who.play(id, mv);
        assert_eq!(p.status, StatusCode::SEE_OTHER, "{mv}: {}", p.body);
    }
    let page = alice.get(&format!("/games/{id}"));
    assert!(page.has("0-1"), "{}", page.body);
    assert!(page.has("checkmate"));
    assert!(page.has("Qh4#"));
    let j = bob.json(id);
    assert_eq!(j["status"], "finished");
    assert_eq!(j["result"], "0-1");
    assert_eq!(j["reason"], "checkmate");
    assert_eq!(j["moves"].as_array().unwrap().len(), 4);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM moves"), 4);
    // No more moves after the end.
    let p = bob.play(id, "e4");
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM moves"), 4);
    // The dashboard lists it as finished.
    assert!(alice.get("/").has("wins by checkmate"));
}

fn illegal_move_is_422_and_not_stored(backend: Backend) {
    let (app, alice, _bob, id) = TestApp::game_of_alice_and_bob(backend);
    for bad in ["e5", "Ke2", "xyz", "", "e2e5"] {
        let p = alice.play(id, bad);
        assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
        assert!(p.has("move-error"), "{bad}: {}", p.body);
    }
    let p = alice.play(id, "Ke2");
    assert!(p.has("not legal"), "{}", p.body);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM moves"), 0);
    assert_eq!(alice.json(id)["ply"], 0);
}

fn csrf_is_required(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let id = alice.challenge("bob", "white");
    // Missing and wrong tokens.
    let p = bob.post_raw(&format!("/games/{id}/accept"), &[]);
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    let p = bob.post_raw(&format!("/games/{id}/accept"), &[("csrf_token", "0123")]);
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    // Another browser's token does not work either.
    let other = alice.csrf();
    let p = bob.post_raw(&format!("/games/{id}/accept"), &[("csrf_token", &other)]);
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    assert_eq!(bob.json(id)["status"], "pending");
    let anon = app.client();
    let p = anon.post_raw(
        "/signup",
        &[
            ("username", "carol"),
            ("email", "c@example.org"),
            ("password", "long enough pass"),
        ],
    );
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    let p = anon.post_raw("/login", &[("username", "alice"), ("password", "x")]);
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    let p = alice.post_raw(
        &format!("/games/{id}/move"),
        &[("move", "e4"), ("confirm", "1")],
    );
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    let p = alice.post_raw("/logout", &[]);
    assert_eq!(p.status, StatusCode::FORBIDDEN);
}

fn only_the_player_to_move_may_move(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let eve = app.user("eve");
    let id = alice.challenge("bob", "white");
    // Before acceptance nobody moves.
    let p = alice.play(id, "e4");
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    assert!(p.has("not been accepted"));
    // Eve cannot accept a challenge addressed to Bob.
    assert_eq!(
        eve.post(&format!("/games/{id}/accept"), &[]).status,
        StatusCode::FORBIDDEN
    );
    bob.post(&format!("/games/{id}/accept"), &[]);
    let p = bob.play(id, "e5");
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    assert!(p.has("not your turn"), "{}", p.body);
    let p = eve.play(id, "e4");
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    assert!(p.has("not playing in this game"));
    assert_eq!(
        eve.post(&format!("/games/{id}/resign"), &[("confirm", "1")])
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        eve.post(&format!("/games/{id}/draw"), &[("action", "offer")])
            .status,
        StatusCode::FORBIDDEN
    );
    let anon = app.client();
    let p = anon.post(
        &format!("/games/{id}/move"),
        &[("move", "e4"), ("confirm", "1")],
    );
    assert_eq!(p.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM moves"), 0);
    assert_eq!(alice.play(id, "e4").status, StatusCode::SEE_OTHER);
}

fn unknown_and_garbage_ids(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    for path in [
        "/games/999",
        "/games/999.json",
        "/games/abc",
        "/games/-1",
        "/games/0",
        "/games/99999999999999999999",
        "/games/1e3",
        "/games/%00",
        "/games/%ff%fe.json",
        "/variants/nope",
        "/nowhere",
        "/static/../Cargo.toml",
    ] {
        let p = alice.get(path);
        assert_eq!(p.status, StatusCode::NOT_FOUND, "{path}");
    }
    for path in [
        "/games/999/move",
        "/games/abc/accept",
        "/games/x/resign",
        "/games/7/draw",
    ] {
        let p = alice.post(path, &[("move", "e4"), ("action", "offer")]);
        assert_eq!(p.status, StatusCode::NOT_FOUND, "{path}");
    }
}

fn hostile_inputs_never_500(backend: Backend) {
    let (app, alice, _bob, id) = TestApp::game_of_alice_and_bob(backend);
    let huge = "e".repeat(100_000);
    let long = "Q".repeat(5_000);
    let token = alice.csrf();
    let cases: Vec<Vec<u8>> = vec![
        format!("csrf_token={token}&move={huge}&confirm=1").into_bytes(),
        format!("csrf_token={token}&move={long}&confirm=1").into_bytes(),
        [
            format!("csrf_token={token}&confirm=1&move=").as_bytes(),
            &[0xff, 0xfe, 0x80, b'e', b'4'],
        ]
        .concat(),
        format!("csrf_token={token}&move=%ff%fe%00&confirm=1").into_bytes(),
        format!("csrf_token={token}&move=e4&confirm=1&ply=notanumber").into_bytes(),
        format!("csrf_token={token}&move=e4&move=d4").into_bytes(),
        b"%%%%&&&===".to_vec(),
        vec![0xff; 300],
    ];
    for body in cases {
        let p = alice.post_bytes(&format!("/games/{id}/move"), body);
        assert!(p.status.as_u16() < 500, "status {}", p.status);
        assert!(p.status != StatusCode::SEE_OTHER);
    }
    // Hostile game creation fields.
    for (variant, opponent, color, fen) in [
        ("chess", "bob", "purple", ""),
        ("nosuch", "bob", "white", ""),
        ("chess", "nobody", "white", ""),
        ("chess", "alice", "white", ""),
        ("chess", "bob", "white", "not a fen"),
        ("chess", "bob", "white", "8/8/8/8/8/8/8/8 w - - 0 1"),
        ("chess", "bob", "white", &"x".repeat(3000)),
        ("chess", &"b".repeat(10_000), "white", ""),
    ] {
        let p = alice.post(
            "/games/new",
            &[
                ("variant", variant),
                ("opponent", opponent),
                ("color", color),
                ("fen", fen),
            ],
        );
        assert_eq!(
            p.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{variant} {color} {fen}"
        );
    }
    let p = alice.post("/games/{id}/draw", &[("action", "dance")]);
    assert!(p.status.as_u16() < 500);
    let p = alice.post(&format!("/games/{id}/draw"), &[("action", "dance")]);
    assert_eq!(p.status, StatusCode::BAD_REQUEST);
    let p = alice.post_bytes("/login", vec![0xff; 100]);
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    let p = alice.get("/games/new?variant=%ff%00&opponent=%zz");
    assert!(p.status.as_u16() < 500);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM moves"), 0);
    // A custom FEN that is valid works.
    let p = alice.post(
        "/games/new",
        &[
            ("variant", "chess"),
            ("opponent", "bob"),
            ("color", "white"),
            ("fen", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"),
        ],
    );
    assert_eq!(p.status, StatusCode::SEE_OTHER, "{}", p.body);
}

fn concurrent_moves_store_exactly_one(backend: Backend) {
    let (app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    let token = alice.csrf();
    let n = 8;
    for round in 0..2 {
        // Round 0: the same move; round 1 (Black's turn): different moves.
        let (client, ply, moves): (_, &str, Vec<&str>) = if round == 0 {
            (alice.clone(), "0", vec!["e4"; n])
        } else {
            (
                bob.clone(),
                "1",
                vec!["e5", "d5", "c5", "Nf6", "Nc6", "a6", "h6", "g6"],
            )
        };
        let token = if round == 0 {
            token.clone()
        } else {
            bob.csrf()
        };
        let barrier = Arc::new(Barrier::new(n));
        let handles: Vec<_> = moves
            .into_iter()
            .map(|mv| {
                let c = client.clone();
                let b = barrier.clone();
                let token = token.clone();
                let mv = mv.to_string();
                let ply = ply.to_string();
                std::thread::spawn(move || {
                    b.wait();
                    c.post_raw(
                        &format!("/games/{id}/move"),
                        &[
                            ("csrf_token", &token),
                            ("move", &mv),
                            ("confirm", "1"),
                            ("ply", &ply),
                        ],
                    )
                    .status
                })
            })
            .collect();
        let statuses: Vec<StatusCode> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        let ok = statuses
            .iter()
            .filter(|s| **s == StatusCode::SEE_OTHER)
            .count();
        let conflict = statuses
            .iter()
            .filter(|s| **s == StatusCode::CONFLICT)
            .count();
        assert_eq!(ok, 1, "round {round}: {statuses:?}");
        assert_eq!(conflict, n - 1, "round {round}: {statuses:?}");
        assert_eq!(
            app.count("SELECT COUNT(*) AS n FROM moves"),
            round + 1,
            "round {round}"
        );
    }
    let j = alice.json(id);
    assert_eq!(j["ply"], 2);
    // A stale form gets the clear message.
    let p = alice.post(
        &format!("/games/{id}/move"),
        &[("move", "d4"), ("confirm", "1"), ("ply", "0")],
    );
    assert_eq!(p.status, StatusCode::CONFLICT);
    assert!(p.has("position has changed"), "{}", p.body);
}

fn login_rate_limited_per_account(backend: Backend) {
    let app = TestApp::start(backend);
    let _alice = app.user("alice");
    let c = app.client();
    for _ in 0..5 {
        let p = c.login("alice", "wrong password!");
        assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(p.has("Wrong username or password"));
    }
    // Even the right password is refused now.
    let p = c.login("alice", "correct horse battery");
    assert_eq!(p.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(p.has("Too many failed logins"));
    // Case does not dodge the limit.
    assert_eq!(
        c.login("ALICE", "correct horse battery").status,
        StatusCode::TOO_MANY_REQUESTS
    );
    let _bob = app.user("bob");
    let p = c.login("bob", "correct horse battery");
    assert_eq!(p.status, StatusCode::SEE_OTHER);
}

fn login_rate_limited_per_ip(backend: Backend) {
    let app = TestApp::start_with(backend, |c| c.login_limit_ip = 4);
    let _alice = app.user("alice");
    let c = app.client();
    for name in ["u1", "u2", "u3", "u4"] {
        assert_eq!(
            c.login(name, "whatever pass").status,
            StatusCode::UNPROCESSABLE_ENTITY
        );
    }
    let p = c.login("alice", "correct horse battery");
    assert_eq!(p.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM login_attempts WHERE success = false"),
        4
    );
}

fn json_shape(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let id = alice.challenge("bob", "white");
    let j = alice.json(id);
    assert_eq!(j["status"], "pending");
    bob.post(&format!("/games/{id}/accept"), &[]);
    alice.play(id, "Nf3");
    bob.play(id, "d7d5");
    let j = app.client().json(id);
    assert_eq!(j["id"], id.get());
    assert_eq!(j["variant"], "chess");
    assert_eq!(j["status"], "active");
    assert!(j["result"].is_null());
    assert!(j["reason"].is_null());
    assert_eq!(j["side_to_move"], "white");
    assert_eq!(j["white"], "alice");
    assert_eq!(j["black"], "bob");
    assert_eq!(
        j["fen"],
        "rnbqkbnr/ppp1pppp/8/3p4/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 2"
    );
    let moves = j["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0]["ply"], 1);
    assert_eq!(moves[0]["notation"], "Nf3");
    assert_eq!(moves[0]["coordinate"], "g1f3");
    assert_eq!(moves[1]["ply"], 2);
    assert_eq!(moves[1]["notation"], "d5");
    assert!(moves[1]["played_at"].as_str().unwrap().contains('T'));
    // The game page shows the numbered move list.
    let page = alice.get(&format!("/games/{id}"));
    assert!(
        // Moves are replay links (issue 11).
        page.has(&format!(
            "<td class=\"num\">1.</td><td><a href=\"/games/{id}?ply=1\" data-ply=\"1\">Nf3</a></td><td><a href=\"/games/{id}?ply=2\" data-ply=\"2\" class=\"current\" aria-current=\"step\">d5</a></td>"
        )),
        "{}",
        page.body
    );
}

fn signup_validation(backend: Backend) {
    let app = TestApp::start(backend);
    let _a = app.user("alice");
    let c = app.client();
    let cases = [
        (
            "Alice",
            "a@example.org",
            "correct horse battery",
            "already taken",
        ),
        ("al", "a@example.org", "correct horse battery", "3 to 20"),
        (
            "9lives",
            "a@example.org",
            "correct horse battery",
            "starts with a letter",
        ),
        (
            "bad name",
            "a@example.org",
            "correct horse battery",
            "only letters",
        ),
        (
            "carol",
            "not-an-email",
            "correct horse battery",
            "email address",
        ),
        ("carol", "c@example.org", "short", "too short"),
        ("carol", "c@example.org", "password1", "too easy to guess"),
        // zxcvbn is told the username: built on it, a password is weak.
        ("carol", "c@example.org", "carolcarol1", "too easy to guess"),
    ];
    for (u, e, pw, msg) in cases {
        let p = c.signup(u, e, pw);
        assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY, "{u}");
        assert!(p.has(msg), "{u}: expected “{msg}” in {}", p.body);
    }
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM users"), 1);
    // Argon2id hashes only.
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM users WHERE password_hash LIKE '$argon2id$%'"),
        1
    );
}

fn open_seek_and_decline(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let carol = app.user("carol");
    let seek = alice.challenge("", "random");
    assert!(carol.get("/").has("Open seeks"));
    assert_eq!(
        alice.post(&format!("/games/{seek}/accept"), &[]).status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        carol.post(&format!("/games/{seek}/accept"), &[]).status,
        StatusCode::SEE_OTHER
    );
    assert_eq!(
        bob.post(&format!("/games/{seek}/accept"), &[]).status,
        StatusCode::CONFLICT
    );
    let j = alice.json(seek);
    assert_eq!(j["status"], "active");
    let players = [j["white"].as_str().unwrap(), j["black"].as_str().unwrap()];
    assert!(players.contains(&"alice") && players.contains(&"carol"));
    // Decline a named challenge.
    let id = alice.challenge("bob", "white");
    assert_eq!(
        carol.post(&format!("/games/{id}/decline"), &[]).status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        bob.post(&format!("/games/{id}/decline"), &[]).status,
        StatusCode::SEE_OTHER
    );
    assert_eq!(alice.json(id)["status"], "declined");
    assert_eq!(
        bob.post(&format!("/games/{id}/accept"), &[]).status,
        StatusCode::CONFLICT
    );
}

fn resign_and_draws(backend: Backend) {
    let (_app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    let draw = |c: &common::TestClient, action: &str| {
        c.post(&format!("/games/{id}/draw"), &[("action", action)])
            .status
    };
    assert_eq!(draw(&bob, "accept"), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(draw(&alice, "offer"), StatusCode::SEE_OTHER);
    assert!(bob.get(&format!("/games/{id}")).has("offers a draw"));
    assert_eq!(draw(&bob, "decline"), StatusCode::SEE_OTHER);
    assert!(alice.json(id)["draw_offer"].is_null());
    assert_eq!(draw(&alice, "offer"), StatusCode::SEE_OTHER);
    assert_eq!(draw(&bob, "accept"), StatusCode::SEE_OTHER);
    let j = alice.json(id);
    assert_eq!(j["result"], "1/2-1/2");
    assert_eq!(j["reason"], "agreement");
    let id = alice.challenge("bob", "white");
    bob.post(&format!("/games/{id}/accept"), &[]);
    // The game page's Resign button asks first: its form carries no
    // `confirm`, and the page it leads to asks; the game goes on.
    let page = bob.get(&format!("/games/{id}"));
    assert!(page.has(&format!("action=\"/games/{id}/resign\"")));
    // The players' names, and one's own in the header, link to profiles.
    assert!(
        page.has("<a href=\"/users/alice\">alice</a>"),
        "{}",
        page.body
    );
    assert!(page.has("<a href=\"/users/bob\">bob</a>"));
    assert!(page.has("<a class=\"who\" href=\"/users/bob\">bob</a>"));
    let ask = bob.post(&format!("/games/{id}/resign"), &[]);
    assert_eq!(ask.status, StatusCode::OK, "{}", ask.body);
    assert!(
        ask.has("Resign game") && ask.has("cannot be undone"),
        "{}",
        ask.body
    );
    assert!(ask.has("name=\"confirm\" value=\"1\""), "{}", ask.body);
    assert_eq!(alice.json(id)["status"], "active");
    assert!(alice.json(id)["result"].is_null());
    assert_eq!(
        bob.post(&format!("/games/{id}/resign"), &[("confirm", "1")])
            .status,
        StatusCode::SEE_OTHER
    );
    let j = alice.json(id);
    assert_eq!(j["result"], "1-0");
    assert_eq!(j["reason"], "resignation");
    assert_eq!(
        bob.post(&format!("/games/{id}/resign"), &[("confirm", "1")])
            .status,
        StatusCode::FORBIDDEN
    );
    assert!(alice
        .get(&format!("/games/{id}"))
        .has("White wins by resignation"));
}

fn confirmation_step(backend: Backend) {
    let (app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    // The preview is a page of its own (issue 64, finding 4).
    let preview = |text: &str| {
        let p = alice.post(
            &format!("/games/{id}/move"),
            &[("move", text), ("ply", "0")],
        );
        assert_eq!(p.status, StatusCode::SEE_OTHER, "{}", p.body);
        let to = p.location.expect("the preview's address");
        assert!(to.starts_with(&format!("/games/{id}/preview?")), "{to}");
        alice.get(&to)
    };
    let p = preview("e2-e4");
    assert_eq!(p.status, StatusCode::OK);
    assert!(p.has("Confirm e4"), "{}", p.body);
    assert!(p.has("id=\"preview\""));
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM moves"), 0);
    // The comment survives the preview: the confirm form carries it.
    let p = preview("e2-e4 // hello <b>Bob</b>");
    assert_eq!(p.status, StatusCode::OK);
    assert!(p.has("With your comment"), "{}", p.body);
    let tag = "<input type=\"hidden\" name=\"move\" value=\"";
    let at = p.body.find(tag).expect("the confirm form's move") + tag.len();
    let sent = common::unescape(&p.body[at..at + p.body[at..].find('"').unwrap()]);
    assert_eq!(sent, "e2e4 // hello <b>Bob</b>");
    let p = alice.post(
        &format!("/games/{id}/move"),
        &[("move", &sent), ("ply", "0"), ("confirm", "1")],
    );
    assert_eq!(p.status, StatusCode::SEE_OTHER);
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM moves WHERE comment = 'hello <b>Bob</b>'"),
        1
    );
    // Bob turns the confirmation off: his move is stored at once.
    assert_eq!(bob.post("/settings", &[]).status, StatusCode::SEE_OTHER);
    let p = bob.post(&format!("/games/{id}/move"), &[("move", "c5")]);
    assert_eq!(p.status, StatusCode::SEE_OTHER);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM moves"), 2);
    // Black sees the board from Black's side: rank 1 at the bottom is flipped.
    let page = bob.get(&format!("/games/{id}"));
    let a8 = page.body.find("data-sq=\"a8\"").unwrap();
    let a1 = page.body.find("data-sq=\"a1\"").unwrap();
    assert!(a1 < a8, "Black's view draws rank 1 first (top)");
    let page = alice.get(&format!("/games/{id}"));
    assert!(page.body.find("data-sq=\"a8\"").unwrap() < page.body.find("data-sq=\"a1\"").unwrap());
    assert!(page.has("class=\"last\""));
}

fn login_logout_and_secret_persists(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    assert!(alice.get("/").has("Your games"));
    assert_eq!(alice.post("/logout", &[]).status, StatusCode::SEE_OTHER);
    assert!(alice.get("/").has("Sign up"));
    let p = alice.login("Alice", "correct horse battery");
    assert_eq!(p.status, StatusCode::SEE_OTHER);
    assert!(alice.get("/").has("Your games"));
    // The generated secret is stored once.
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM settings WHERE key = 'secret'"),
        1
    );
    // Cookie flags.
    let r = app
        .client()
        .http
        .get(format!("{}/login", app.base))
        .send()
        .unwrap();
    let cookie = r
        .headers()
        .get("set-cookie")
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    assert!(cookie.contains("SameSite=Lax"), "{cookie}");
}

fn race_without_ply_field(backend: Backend) {
    let (app, alice, _bob, id) = TestApp::game_of_alice_and_bob(backend);
    let token = alice.csrf();
    let n = 8;
    let barrier = Arc::new(Barrier::new(n));
    let handles: Vec<_> = ["e4", "d4", "c4", "Nf3", "Nc3", "a3", "h3", "g3"]
        .into_iter()
        .map(|mv| {
            let c = alice.clone();
            let b = barrier.clone();
            let token = token.clone();
            std::thread::spawn(move || {
                b.wait();
                c.post_raw(
                    &format!("/games/{id}/move"),
                    &[("csrf_token", &token), ("move", mv), ("confirm", "1")],
                )
                .status
            })
        })
        .collect();
    let statuses: Vec<StatusCode> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let ok = statuses
        .iter()
        .filter(|s| **s == StatusCode::SEE_OTHER)
        .count();
    assert_eq!(ok, 1, "{statuses:?}");
    // The others were refused: the position changed under them, or (if they
    // read the game after the move) it was no longer their turn.
    assert!(statuses.iter().all(|s| [
        StatusCode::SEE_OTHER,
        StatusCode::CONFLICT,
        StatusCode::FORBIDDEN
    ]
    .contains(s)));
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM moves"), 1);
    assert_eq!(alice.json(id)["ply"], 1);
}

fn dashboard_order(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let carol = app.user("carol");
    // Two games where Alice is to move: the one with Carol waits longer.
    let g1 = alice.challenge("carol", "white");
    carol.post(&format!("/games/{g1}/accept"), &[]);
    let g2 = alice.challenge("bob", "white");
    bob.post(&format!("/games/{g2}/accept"), &[]);
    // One where Bob is to move.
    let g3 = bob.challenge("alice", "white");
    alice.post(&format!("/games/{g3}/accept"), &[]);
    // Two finished games: g5 ended last.
    let g4 = alice.challenge("bob", "white");
    bob.post(&format!("/games/{g4}/accept"), &[]);
    let g5 = alice.challenge("bob", "white");
    bob.post(&format!("/games/{g5}/accept"), &[]);
    alice.post(&format!("/games/{g4}/resign"), &[("confirm", "1")]);
    alice.post(&format!("/games/{g5}/resign"), &[("confirm", "1")]);
    let body = alice.get("/").body;
    let pos = |id: i32| {
        body.find(&format!("href=\"/games/{id}\""))
            .unwrap_or_else(|| panic!("game {id} on the dashboard"))
    };
    let your_turn = body.find("Your turn").unwrap();
    let waiting = body.find("Waiting for your opponent").unwrap();
    let finished = body.find("<h2>Finished").unwrap();
    assert!(your_turn < pos(g1.get()) && pos(g1.get()) < pos(g2.get()) && pos(g2.get()) < waiting);
    assert!(waiting < pos(g3.get()) && pos(g3.get()) < finished);
    assert!(finished < pos(g5.get()) && pos(g5.get()) < pos(g4.get()));
    // Nothing to flag yet: no move made against Alice, no draw offered.
    assert!(!body.contains("class=\"flag\""), "{body}");
    // Carol moves in g1 and Bob offers a draw in g3 (his move): Alice's
    // dashboard flags both.
    assert_eq!(alice.play(g1, "e4").status, StatusCode::SEE_OTHER);
    assert_eq!(carol.play(g1, "e5").status, StatusCode::SEE_OTHER);
    let offer = bob.post(&format!("/games/{g3}/draw"), &[("action", "offer")]);
    assert_eq!(offer.status, StatusCode::SEE_OTHER);
    let body = alice.get("/").body;
    let line = |id: i32| {
        let at = body.find(&format!("href=\"/games/{id}\"")).unwrap();
        &body[at..at + body[at..].find("</li>").unwrap()]
    };
    assert!(
        line(g1.get()).contains("<strong class=\"flag\">they moved</strong>"),
        "{}",
        line(g1.get())
    );
    assert!(
        line(g3.get()).contains("<strong class=\"flag\">draw offered</strong>"),
        "{}",
        line(g3.get())
    );
    assert!(
        !line(g2.get()).contains("class=\"flag\""),
        "{}",
        line(g2.get())
    );
}

fn every_variant_plays(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    assert!(!missive_rules::variants().is_empty());
    for v in missive_rules::variants() {
        let rules = alice.get(&format!("/variants/{}", v.id()));
        assert_eq!(rules.status, StatusCode::OK, "{}", v.id());
        let p = alice.post(
            "/games/new",
            &[
                ("variant", v.id()),
                ("opponent", "bob"),
                ("color", "white"),
                ("fen", ""),
            ],
        );
        assert_eq!(p.status, StatusCode::SEE_OTHER, "{}: {}", v.id(), p.body);
        let id: i32 = p
            .location
            .unwrap()
            .trim_start_matches("/games/")
            .parse()
            .unwrap();
        bob.post(&format!("/games/{id}/accept"), &[]);
        let j = alice.json(GameId(id));
        let mover = if j["side_to_move"] == "white" {
            &alice
        } else {
            &bob
        };
        let page = mover.get(&format!("/games/{id}"));
        assert_eq!(page.status, StatusCode::OK);
        assert!(page.has("<svg"), "{}", v.id());
        legend_is_served(mover, &page.body, *v);
        let i = page.body.find("data-move=\"").expect("a legal move listed") + "data-move=\"".len();
        let mv = &page.body[i..i + page.body[i..].find('"').unwrap()];
        let mv = mv
            .replace("&#43;", "+")
            .replace("&#35;", "#")
            .replace("&amp;", "&")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&lt;", "<")
            .replace("&gt;", ">");
        let p = mover.play(GameId(id), &mv);
        assert_eq!(
            p.status,
            StatusCode::SEE_OTHER,
            "{}: {mv}: {}",
            v.id(),
            p.body
        );
        assert_eq!(alice.json(GameId(id))["ply"], 1, "{}", v.id());
        assert_eq!(alice.get(&format!("/games/{id}")).status, StatusCode::OK);
    }
}

/// A game page's `#legend`: each piece the rules engine defines, in its
/// order, with its name, its pictures and its movement diagram (named for
/// screen readers), the pictures being SVG files the server gives with a
/// long cache lifetime, their names changing with their content.
fn legend_is_served(client: &common::TestClient, body: &str, v: &dyn missive_rules::Variant) {
    let from = body.find("id=\"legend\"").expect("the page has a legend");
    let legend = &body[from..from + body[from..].find("</section>").unwrap()];
    let items: Vec<&str> = legend.split("<li class=\"legend-piece\"").skip(1).collect();
    let types = missive_rules::diagram::piece_types(v);
    assert_eq!(items.len(), types.len(), "{}", v.id());
    let attr = |tag: &str, name: &str| -> String {
        let i = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        common::unescape(&tag[i..i + tag[i..].find('"').unwrap()])
    };
    for (item, t) in items.iter().zip(&types) {
        let name = &t.label.name;
        assert_eq!(attr(item, "data-piece"), *name, "{}", v.id());
        assert_eq!(common::unescape(item_name(item)), *name, "{}", v.id());
        let imgs: Vec<&str> = item.split("<img ").skip(1).collect();
        let pictures = imgs
            .iter()
            .filter(|i| i.starts_with("class=\"piece-pic\""))
            .count();
        assert_eq!(
            pictures,
            if t.neutral { 1 } else { 2 },
            "{}: {name}",
            v.id()
        );
        let diagrams: Vec<&&str> = imgs
            .iter()
            .filter(|i| i.starts_with("class=\"diagram\""))
            .collect();
        let still = item.contains("Never moves.") || item.contains("never moves by itself");
        assert_eq!(diagrams.len(), usize::from(!still), "{}: {name}", v.id());
        for d in diagrams {
            assert_eq!(attr(d, "alt"), format!("How the {name} moves"));
        }
        for img in imgs {
            let src = attr(img, "src");
            assert!(
                src.starts_with("/static/legend/") && src.ends_with(".svg"),
                "{src}"
            );
            let r = client
                .http
                .get(format!("{}{src}", client.base))
                .send()
                .unwrap();
            assert_eq!(r.status(), StatusCode::OK, "{src}");
            let header = |h: &str| r.headers()[h].to_str().unwrap().to_string();
            assert_eq!(header("content-type"), "image/svg+xml", "{src}");
            assert_eq!(
                header("cache-control"),
                "public, max-age=31536000, immutable"
            );
            let svg = r.text().unwrap();
            assert!(
                svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
                "{src}: {svg}"
            );
            assert!(svg.ends_with("</svg>"), "{src}");
            if img.starts_with("class=\"diagram\"") {
                assert_eq!(attr(&svg, "aria-label"), format!("How the {name} moves"));
            }
        }
    }
    let gone = client.get("/static/legend/knight-w-0000000000000000.svg");
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
}

/// The name a legend item shows, as written in the page.
fn item_name(item: &str) -> &str {
    let i = item.find("<strong>").unwrap() + "<strong>".len();
    &item[i..i + item[i..].find("</strong>").unwrap()]
}

fn sessions_survive_restart(backend: Backend) {
    let mut app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let id = alice.challenge("bob", "white");
    let token = alice.csrf();
    app.restart();
    // The clients keep their cookies; the server has a new port.
    let mut alice = alice;
    alice.base = app.base.clone();
    let mut bob = bob;
    bob.base = app.base.clone();
    assert!(alice.get("/").has("Your games"));
    // The stored secret still validates the old form token.
    assert_eq!(
        bob.post(&format!("/games/{id}/accept"), &[]).status,
        StatusCode::SEE_OTHER
    );
    let p = alice.post_raw(
        &format!("/games/{id}/move"),
        &[("csrf_token", &token), ("move", "e4"), ("confirm", "1")],
    );
    assert_eq!(p.status, StatusCode::SEE_OTHER);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM settings"), 1);
}

fn custom_fen_black_first(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let p = alice.post(
        "/games/new",
        &[
            ("variant", "chess"),
            ("opponent", "bob"),
            ("color", "black"),
            ("fen", "  4k3/8/8/8/8/8/4P3/4K3 b - - 0 1 "),
        ],
    );
    assert_eq!(p.status, StatusCode::SEE_OTHER, "{}", p.body);
    let id: i32 = p
        .location
        .unwrap()
        .trim_start_matches("/games/")
        .parse()
        .unwrap();
    bob.post(&format!("/games/{id}/accept"), &[]);
    let j = alice.json(GameId(id));
    assert_eq!(j["side_to_move"], "black");
    assert_eq!(j["start_fen"], "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1");
    assert_eq!(bob.play(GameId(id), "e4").status, StatusCode::FORBIDDEN);
    assert_eq!(alice.play(GameId(id), "Kd7").status, StatusCode::SEE_OTHER);
    assert_eq!(bob.play(GameId(id), "e4").status, StatusCode::SEE_OTHER);
    assert_eq!(alice.play(GameId(id), "Kc6").status, StatusCode::SEE_OTHER);
    let page = bob.get(&format!("/games/{id}"));
    assert!(
        // Moves are replay links (issue 11).
        page.has(&format!(
            "<td class=\"num\">1.</td><td>…</td><td><a href=\"/games/{id}?ply=1\" data-ply=\"1\">Kd7</a></td>"
        )),
        "{}",
        page.body
    );
    assert!(page.has(&format!("<td class=\"num\">2.</td><td><a href=\"/games/{id}?ply=2\" data-ply=\"2\">e4</a></td><td><a href=\"/games/{id}?ply=3\" data-ply=\"3\" class=\"current\" aria-current=\"step\">Kc6</a></td>")));
}

fn rate_limit_is_stored_in_the_database(backend: Backend) {
    let mut app = TestApp::start(backend);
    let _alice = app.user("alice");
    let mut c = app.client();
    for _ in 0..3 {
        assert_eq!(
            c.login("alice", "wrong password!").status,
            StatusCode::UNPROCESSABLE_ENTITY
        );
    }
    // Another process (here: the server restarted) counts the same failures.
    app.restart();
    c.base = app.base.clone();
    for _ in 0..2 {
        assert_eq!(
            c.login("alice", "wrong password!").status,
            StatusCode::UNPROCESSABLE_ENTITY
        );
    }
    assert_eq!(
        c.login("alice", "correct horse battery").status,
        StatusCode::TOO_MANY_REQUESTS
    );
}

fn concurrent_accepts_of_a_seek(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let seek = alice.challenge("", "white");
    let players: Vec<_> = (0..6).map(|i| app.user(&format!("player{i}"))).collect();
    let tokens: Vec<String> = players.iter().map(|p| p.csrf()).collect();
    let barrier = Arc::new(Barrier::new(players.len()));
    let handles: Vec<_> = players
        .into_iter()
        .zip(tokens)
        .map(|(c, token)| {
            let b = barrier.clone();
            std::thread::spawn(move || {
                b.wait();
                c.post_raw(&format!("/games/{seek}/accept"), &[("csrf_token", &token)])
                    .status
            })
        })
        .collect();
    let statuses: Vec<StatusCode> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(
        statuses
            .iter()
            .filter(|s| **s == StatusCode::SEE_OTHER)
            .count(),
        1,
        "{statuses:?}"
    );
    assert!(statuses
        .iter()
        .all(|s| *s == StatusCode::SEE_OTHER || *s == StatusCode::CONFLICT));
    let j = alice.json(seek);
    assert_eq!(j["status"], "active");
    assert_eq!(j["white"], "alice");
    assert!(j["black"].as_str().unwrap().starts_with("player"));
}

fn moving_declines_a_draw_offer(backend: Backend) {
    let (_app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    let offer = alice.post(&format!("/games/{id}/draw"), &[("action", "offer")]);
    assert_eq!(offer.status, StatusCode::SEE_OTHER);
    // The offer stands through the offerer's own move...
    assert_eq!(alice.play(id, "e4").status, StatusCode::SEE_OTHER);
    assert_eq!(alice.json(id)["draw_offer"], "white");
    // ...and the opponent's move declines it.
    assert_eq!(bob.play(id, "e5").status, StatusCode::SEE_OTHER);
    assert!(alice.json(id)["draw_offer"].is_null());
    let p = bob.post(&format!("/games/{id}/draw"), &[("action", "accept")]);
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
}

/// Pages are drawn from the position cache: after every move, both players'
/// pages show the position, the legal moves (only to the player to move)
/// and the last move that the rules give for the moves played, a replay of
/// an earlier ply shows that ply, and a position reached again by other
/// moves (same placement, another history) is not confused with the first.
/// The repetition history a game is restored with is the one its moves
/// stored (each move adds its entry), whether the server kept the game in
/// memory since the last move or reads it all back (a cache of no size, as
/// after a restart): the third time the start position comes round, the
/// game is drawn, and the stored history is the one the rules wrote.
fn a_repetition_is_seen_whether_or_not_the_game_was_kept(backend: Backend) {
    use missive_rules::Game;
    let chess = missive_rules::variant("chess").unwrap();
    for cache_mb in [32, 0] {
        let app = TestApp::start_with(backend, |c| c.position_cache_mb = cache_mb);
        let alice = app.user("alice");
        let bob = app.user("bob");
        let id = alice.challenge("bob", "white");
        bob.post(&format!("/games/{id}/accept"), &[]);
        let mut game = Game::new(chess, None).unwrap();
        let moves = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"];
        for (i, mv) in moves.iter().enumerate() {
            let mover = if i % 2 == 0 { &alice } else { &bob };
            assert_eq!(alice.json(id)["status"], "active", "before {mv}");
            assert_eq!(mover.play(id, mv).status, StatusCode::SEE_OTHER, "{mv}");
            game.play_text(mv).unwrap();
        }
        let j = alice.json(id);
        assert_eq!(j["status"], "finished", "cache {cache_mb} MB");
        assert_eq!(j["result"], "1/2-1/2");
        assert_eq!(j["reason"], "repetition");
        let stored = games::history_of(&mut app.db(), id).unwrap();
        assert_eq!(stored, game.history_string());
    }
}

fn the_game_page_follows_every_move(backend: Backend) {
    use missive_rules::Game;
    let (_app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    let chess = missive_rules::variant("chess").unwrap();
    let mut game = Game::new(chess, None).unwrap();
    let mut fens = vec![game.fen()];
    let moves = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "e4", "Nxe4"];
    for (i, mv) in moves.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (&alice, &bob)
        } else {
            (&bob, &alice)
        };
        // Both look first, so the position before the move is cached.
        for viewer in [mover, other] {
            let page = viewer.get(&format!("/games/{id}"));
            assert_eq!(page.fen(), game.fen(), "before ply {}", i + 1);
        }
        let legal = mover
            .get(&format!("/games/{id}"))
            .body
            .matches("data-coord=")
            .count();
        assert_eq!(
            legal,
            game.legal_moves().len(),
            "legal moves before ply {}",
            i + 1
        );
        assert_eq!(mover.play(id, mv).status, StatusCode::SEE_OTHER, "{mv}");
        game.play_text(mv).unwrap();
        fens.push(game.fen());
        let after = mover.get(&format!("/games/{id}"));
        assert_eq!(after.fen(), game.fen(), "after {mv}");
        assert_eq!(
            after.body.matches("data-coord=").count(),
            0,
            "not the mover's turn"
        );
        let next = other.get(&format!("/games/{id}"));
        assert_eq!(next.fen(), game.fen());
        assert_eq!(
            next.body.matches("data-coord=").count(),
            game.legal_moves().len()
        );
        assert!(next.has("class=\"last\""));
    }
    for (ply, fen) in fens.iter().enumerate() {
        let page = alice.get(&format!("/games/{id}?ply={ply}"));
        assert_eq!(&page.fen(), fen, "replay of ply {ply}");
    }
}

/// What every page has for those who do not see it as most do: a language,
/// a description, an icon, a skip link to the content (the stylesheet's
/// text contrast is checked by `web::views::contrast`).
#[test]
fn pages_have_the_basics_of_access() {
    let app = TestApp::start(Backend::Sqlite);
    let alice = app.user("alice");
    let anon = app.client();
    for (who, path) in [
        (&anon, "/"),
        (&anon, "/signup"),
        (&anon, "/variants/chess"),
        (&alice, "/"),
        (&alice, "/games/new"),
    ] {
        let p = who.get(path);
        assert_eq!(p.status, StatusCode::OK, "{path}");
        for want in [
            "<html lang=\"en\">",
            "<meta name=\"description\" content=\"",
            "<link rel=\"icon\" href=\"/static/favicon.svg\"",
            "<a class=\"skip\" href=\"#main\">",
            "<main id=\"main\">",
        ] {
            assert!(p.has(want), "{path} lacks {want}");
        }
    }
    for icon in ["/favicon.ico", "/static/favicon.svg"] {
        let r = anon.http.get(format!("{}{icon}", app.base)).send().unwrap();
        assert_eq!(r.status(), StatusCode::OK, "{icon}");
        assert_eq!(r.headers()["content-type"], "image/svg+xml", "{icon}");
        assert!(r.text().unwrap().starts_with("<svg"), "{icon}");
    }
}

/// `/settings` gathers one's settings: the moves' confirmation (saved from
/// there, and back), the mail (address, whether confirmed, the policy in
/// words, a link) and leave (a link), the account; every page's header
/// leads there.
fn settings_gather_in_one_page(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    assert_eq!(
        app.client().get("/settings").status,
        StatusCode::UNAUTHORIZED
    );
    let p = alice.get("/settings");
    assert_eq!(p.status, StatusCode::OK, "{}", p.body);
    for want in [
        "id=\"settings-moves\"",
        "id=\"settings-mail\"",
        "id=\"settings-leave\"",
        "id=\"settings-account\"",
        "alice@example.org",
        "not confirmed yet",
        "a mail on every turn",
        "href=\"/settings/mail\"",
        "href=\"/leave\"",
        "href=\"/users/alice\"",
        "name=\"confirm_moves\" value=\"1\" checked",
    ] {
        assert!(p.has(want), "{want}: {}", p.body);
    }
    assert!(alice.get("/").has("<a href=\"/settings\">Settings</a>"));
    let saved = alice.post("/settings", &[("back", "settings")]);
    assert_eq!(saved.status, StatusCode::SEE_OTHER);
    assert_eq!(saved.location.as_deref(), Some("/settings?saved=1"));
    let p = alice.get("/settings?saved=1");
    assert!(p.has("id=\"settings-saved\""));
    assert!(
        !p.has("name=\"confirm_moves\" value=\"1\" checked"),
        "{}",
        p.body
    );
}

/// `/help` explains the notations, with each variant's first moves written
/// three ways by the rules engine; every move form links to it.
#[test]
fn help_shows_every_variant_s_moves_three_ways() {
    let (app, alice, _bob, id) = TestApp::game_of_alice_and_bob(Backend::Sqlite);
    let p = app.client().get("/help");
    assert_eq!(p.status, StatusCode::OK);
    for v in missive_rules::variants() {
        assert!(
            p.has(&format!(
                "<section class=\"help-variant\" id=\"{}\">",
                v.id()
            )),
            "{}",
            v.id()
        );
        let first = missive_rules::Game::new(*v, None)
            .unwrap()
            .move_views()
            .remove(0);
        for form in [&first.display, &first.coordinate, &first.game_courier] {
            let shown = form
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;");
            assert!(
                p.has(&format!("<code>{shown}</code>")),
                "{}: {form}",
                v.id()
            );
        }
    }
    assert!(alice
        .get(&format!("/games/{id}"))
        .has("<a href=\"/help#chess\">How to write a move</a>"));
}

/// A game of `variant` from `fen`, Alice playing the first side (White,
/// or Red), accepted by Bob.
fn game_from(
    app: &TestApp,
    variant: &str,
    fen: &str,
) -> (common::TestClient, common::TestClient, i32) {
    let alice = app.user("alice");
    let bob = app.user("bob");
    let id = alice.new_game(&[
        ("variant", variant),
        ("opponent", "bob"),
        ("color", "white"),
        ("fen", fen),
    ]);
    bob.post(&format!("/games/{id}/accept"), &[]);
    (alice, bob, id.get())
}

/// Issue 66's five cases played through the move form: what the rules
/// engine decides reaches the stored game, its page and its JSON.
fn issue_66_cases_through_the_move_form(backend: Backend) {
    // 1. `Nd2` names the one Knight the repetition rule lets go there,
    // and is stored as listed; 4. a false mate mark is refused.
    let app = TestApp::start(backend);
    let (alice, bob, id) = game_from(
        &app,
        "leaperhouse",
        "9k/10/10/10/10/10/10/10/10/KN3N4[] w - - 0 1",
    );
    for (i, mv) in [
        "f1d2", "j10i10", "d2f3", "i10j10", "f3d2", "j10i10", "d2f1", "i10j10",
    ]
    .iter()
    .enumerate()
    {
        let who = if i % 2 == 0 { &alice } else { &bob };
        assert_eq!(
            who.play(GameId(id), mv).status,
            StatusCode::SEE_OTHER,
            "{mv}"
        );
    }
    let p = alice.play(GameId(id), "Nfd2");
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(p.has("third"), "{}", p.body);
    let p = alice.play(GameId(id), "Nd2#");
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(p.has("“Nd2”"), "{}", p.body);
    let p = alice.play(GameId(id), "Nd2");
    assert_eq!(p.status, StatusCode::SEE_OTHER, "{}", p.body);
    let moves = alice.json(GameId(id))["moves"].as_array().unwrap().clone();
    assert_eq!(moves.len(), 9);
    assert_eq!(moves[8]["notation"], "Nd2");
    assert_eq!(moves[8]["coordinate"], "b1d2");
    drop(app);

    // 3. Leaperhouse's clock after a promotion, as Fairy-Stockfish writes it.
    let app = TestApp::start(backend);
    let (alice, _bob, id) = game_from(
        &app,
        "leaperhouse",
        "k9/10/10/4P5/10/10/10/10/10/4K5[] w - - 7 20",
    );
    assert_eq!(
        alice.play(GameId(id), "e7e8+").status,
        StatusCode::SEE_OTHER
    );
    assert_eq!(
        alice.json(GameId(id))["fen"],
        "k9/10/4+P5/10/10/10/10/10/10/4K5[] b - - 0 20"
    );
    drop(app);

    // 2. Bishops on one colour: a dead position, at the start refused and
    // reached by a capture drawn.
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    app.user("bob");
    let p = alice.post(
        "/games/new",
        &[
            ("variant", "chess"),
            ("opponent", "bob"),
            ("color", "white"),
            ("fen", "8/8/4k3/8/8/2BKB3/8/8 w - - 0 1"),
        ],
    );
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", p.body);
    assert!(p.has("draw by insufficient material"), "{}", p.body);
    drop(app);
    let app = TestApp::start(backend);
    let (alice, _bob, id) = game_from(&app, "chess", "8/8/3bk3/8/8/3KB3/5n2/8 w - - 0 1");
    assert_eq!(alice.play(GameId(id), "Bxf2").status, StatusCode::SEE_OTHER);
    let j = alice.json(GameId(id));
    assert_eq!(
        (j["result"].as_str(), j["reason"].as_str()),
        (Some("1/2-1/2"), Some("insufficient-material"))
    );
    drop(app);

    // 4. Check marks: a false one refused naming the move, a true one taken
    // in Game Courier's form.
    let app = TestApp::start(backend);
    let (alice, _bob, id) = game_from(&app, "chess", "8/8/8/5k2/8/8/4P3/4K3 w - - 0 1");
    for bad in ["e3+", "e2e3#", "P e2-e4#"] {
        let p = alice.play(GameId(id), bad);
        assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
        assert!(p.has("marks a"), "{bad}: {}", p.body);
    }
    assert_eq!(
        alice.play(GameId(id), "P e2-e4+").status,
        StatusCode::SEE_OTHER
    );
    let j = alice.json(GameId(id));
    assert_eq!(j["moves"][0]["notation"], "e4+");
    drop(app);

    // 5. Leap Chess's outcome in its side names.
    let app = TestApp::start(backend);
    let (alice, _bob, id) = game_from(&app, "leap-chess", "*2k1*/6/6/6/p5/6/2B3/*2K1* w - - 0 1");
    assert_eq!(alice.play(GameId(id), "Axa4").status, StatusCode::SEE_OTHER);
    let page = alice.get(&format!("/games/{id}"));
    assert!(page.has("Red wins by bare king"), "{}", page.body);
    assert!(!page.has("White wins"), "{}", page.body);
}
