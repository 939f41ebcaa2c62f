//! Security tests (issue 12), on SQLite and on PostgreSQL: CSRF on every
//! POST route, acting in someone else's game, forged/expired/reused signed
//! links, escaping of user text on every page that shows it, login
//! brute-force limits, cookie flags.

use crate::common;
use missive::domain::ids::GameId;

use common::{Backend, TestApp, TestClient};
use diesel::RunQueryDsl;
use missive::accounts::links::{self, PlayLink};
use missive::db::tournament_games;
use missive::tournaments::directors;
use missive::tournaments::entry;
use missive::tournaments::entry::TournamentForm;
use missive::tournaments::rounds;
use reqwest::StatusCode;

both_backends!(
    csrf_is_checked_on_every_post_route,
    only_players_act_in_a_game,
    signed_links_refuse_forged_expired_and_reused,
    user_text_is_escaped_everywhere,
    login_brute_force_is_slowed,
    session_cookie_flags,
);

/// POST routes that take no CSRF token, and why.
const NO_CSRF: &[(&str, &str)] = &[
    (
        "/unsubscribe",
        "the per-user signature is the authority (RFC 8058 one-click POST from a mail client)",
    ),
    // Issue 41: the doors for programs read no cookie; the credential in
    // the request is the authority (tests/it/api.rs, tests/it/xfcc.rs).
    ("/xfcc", "the username and app password in the SOAP body"),
    ("/api/v1/games/{id}/move", "the bearer token"),
    ("/api/v1/games/{id}/draw", "the bearer token"),
    ("/api/v1/games/{id}/resign", "the bearer token"),
    ("/api/v1/games/{id}/conditional", "the bearer token"),
    ("/api/v1/games/{id}/conditional/delete", "the bearer token"),
];

fn user_id(app: &TestApp, name: &str) -> i32 {
    app.count(&format!(
        "SELECT CAST(id AS BIGINT) AS n FROM users WHERE username = '{name}'"
    )) as i32
}

fn secret(app: &TestApp) -> Vec<u8> {
    missive::web::load_secret(&mut app.db(), None).unwrap()
}

fn unix_now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// The POST routes the server declares.
fn declared_post_routes() -> Vec<String> {
    common::declared_routes()
        .into_iter()
        .filter(|(method, _)| *method == "post")
        .map(|(_, path)| path)
        .collect()
}

/// A POST route under test: the pattern as declared, who posts, the
/// address, the fields.
type Route<'a> = (&'a str, &'a TestClient, String, Vec<(&'a str, &'a str)>);

fn accept(c: &TestClient, game: GameId) {
    let p = c.post(&format!("/games/{game}/accept"), &[]);
    assert_eq!(p.status, StatusCode::SEE_OTHER, "{}", p.body);
}

fn csrf_is_checked_on_every_post_route(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let stranger = app.client();
    let to_accept = alice.challenge("bob", "white");
    let to_decline = alice.challenge("bob", "white");
    let game = alice.challenge("bob", "white");
    accept(&bob, game);
    let link = PlayLink {
        game,
        user: user_id(&app, "alice"),
        ply: 0,
        expires: unix_now() + 3600,
    };
    let sig = link.sign(&secret(&app));
    let (u, exp) = (link.user.to_string(), link.expires.to_string());
    let anon = app.client();
    // Tournament routes: alice directs three tournaments; dave joins and
    // leaves the first, the second is started by her, the third is running
    // (a game adjudicated, dave withdrawn and replaced by erin).
    let dave = app.user("dave");
    app.user("erin");
    app.user("fay");
    let now = missive::web::now();
    let day = |d: i64| {
        (now + chrono::Duration::days(d))
            .format("%Y-%m-%d")
            .to_string()
    };
    let (open_t, start_t, run_t, run_game) = {
        let conn = &mut app.db();
        let dir = directors::set_director(conn, "alice", true).unwrap();
        let form = |name: &str, closes: String| TournamentForm {
            name: name.into(),
            variant: "chess".into(),
            time_control: "3d/move".into(),
            format: "round-robin".into(),
            rounds: "".into(),
            entry_opens: "".into(),
            entry_closes: closes,
            max_players: "8".into(),
            leave_days: "".into(),
            forfeit_limit: "".into(),
            ..TournamentForm::default()
        };
        let open_t = entry::create(conn, &dir, &form("Open", day(3)), now).unwrap();
        let start_t = entry::create(conn, &dir, &form("To start", day(3)), now).unwrap();
        let run_t = entry::create(conn, &dir, &form("Running", day(1)), now).unwrap();
        for name in ["bob", "dave", "fay"] {
            let u = missive::db::users::find_by_name(conn, name)
                .unwrap()
                .unwrap();
            entry::join(conn, start_t, &u, now).unwrap();
            // Three players: one adjudicated game does not end the tournament.
            entry::join(conn, run_t, &u, now).unwrap();
        }
        let started = rounds::sweep(conn, now + chrono::Duration::days(2)).unwrap();
        assert_eq!(started, vec![run_t]);
        let bob_id = missive::db::users::find_by_name(conn, "bob")
            .unwrap()
            .unwrap()
            .id;
        // A game of bob's (he asks for its adjudication).
        let run_game = tournament_games::of_tournament(conn, run_t)
            .unwrap()
            .iter()
            .find(|g| g.white_id == Some(bob_id) || g.black_id == Some(bob_id))
            .unwrap()
            .id;
        // Bob may ask for a new confirmation mail at once.
        diesel::sql_query(format!(
            "DELETE FROM verify_mail_sent WHERE user_id = {bob_id}"
        ))
        .execute(conn)
        .unwrap();
        assert!(
            !missive::db::mail_prefs::standing_of(conn, bob_id)
                .unwrap()
                .0
        );
        (open_t, start_t, run_t, run_game)
    };
    // Issue 63: alice administers (and grants fay the director role); a
    // team match of hers waits for her line-up.
    let team_match = {
        let conn = &mut app.db();
        missive::accounts::admins::set_admin(conn, "alice", true, now).unwrap();
        let alice_user = missive::db::users::find_by_name(conn, "alice")
            .unwrap()
            .unwrap();
        let form = missive::tournaments::team_matches::MatchForm {
            team1: "Rooks".into(),
            captain1: "alice".into(),
            team2: "Knights".into(),
            captain2: "bob".into(),
            boards: "1".into(),
            ..Default::default()
        };
        missive::tournaments::team_matches::create(conn, &alice_user, &form, now).unwrap()
    };
    let lineup_path = format!("/matches/{team_match}/lineup");
    let (closes, leave_start, leave_end) = (day(5), day(10), day(12));
    let record = "1. f3 e5 2. g4 Qh4# 0-1";
    // Account links (issue 36): a reset link for erin, an address change
    // of fay's to confirm; gus deletes his account.
    let gus = app.user("gus");
    let (reset_token, confirm_token) = {
        use missive::accounts::tokens;
        use missive::domain::account_token::TokenPurpose;
        let conn = &mut app.db();
        let secret = secret(&app);
        let erin = missive::db::users::find_by_name(conn, "erin")
            .unwrap()
            .unwrap();
        let fay = missive::db::users::find_by_name(conn, "fay")
            .unwrap()
            .unwrap();
        let reset = tokens::issue(
            conn,
            &secret,
            erin.id,
            TokenPurpose::PasswordReset,
            None,
            now,
        )
        .unwrap();
        let change = tokens::issue(
            conn,
            &secret,
            fay.id,
            TokenPurpose::EmailChange,
            Some("fay@new.example.org"),
            now,
        )
        .unwrap();
        (reset.token(&secret), change.token(&secret))
    };
    // Issue 62: hal (address confirmed) has posted a variant.
    let hal = app.verified_user("hal");
    let camel6 = crate::posted_variants::CAMEL6;
    let camel6_v2 = camel6.replace("customPiece1 = c:C", "customPiece1 = c:CW");
    let posted = hal.post(
        "/variants/new",
        &[
            ("name", "Camel six"),
            ("definition", camel6),
            ("visibility", "public"),
        ],
    );
    assert_eq!(posted.status, StatusCode::SEE_OTHER, "{}", posted.body);
    let camel6_version = {
        use sha2::Digest;
        hex::encode(sha2::Sha256::digest(camel6.as_bytes()))
    };
    // (pattern as declared, who posts, the address, the fields). In an order
    // where each request with the right token succeeds (the control).
    // A browser's subscription as `static/push.js` posts it.
    let push_subscription = format!(
        r#"{{"endpoint":"https://push.example.net/send/sec","keys":{{"p256dh":"B{}","auth":"{}"}}}}"#,
        "A".repeat(86),
        "A".repeat(22)
    );
    let g = |pattern: &str, id: i32| pattern.replace("{id}", &id.to_string());
    let routes: Vec<Route> = vec![
        (
            "/signup",
            &anon,
            "/signup".into(),
            vec![
                ("username", "carol"),
                ("email", "carol@example.org"),
                ("password", "correct horse battery"),
            ],
        ),
        (
            "/login",
            &anon,
            "/login".into(),
            vec![("username", "carol"), ("password", "correct horse battery")],
        ),
        (
            "/settings",
            &alice,
            "/settings".into(),
            vec![("confirm_moves", "1")],
        ),
        (
            "/settings/mail",
            &alice,
            "/settings/mail".into(),
            vec![("policy", "every")],
        ),
        (
            "/games/new",
            &alice,
            "/games/new".into(),
            vec![
                ("variant", "chess"),
                ("opponent", "bob"),
                ("color", "white"),
                ("fen", ""),
            ],
        ),
        (
            "/records/check",
            &anon,
            "/records/check".into(),
            vec![("record", "1. e4 e5 *")],
        ),
        (
            "/games/{id}/notes",
            &alice,
            g("/games/{id}/notes", game.get()),
            vec![("note", "plan: castle")],
        ),
        (
            "/games/{id}/accept",
            &bob,
            g("/games/{id}/accept", to_accept.get()),
            vec![],
        ),
        (
            "/games/{id}/decline",
            &bob,
            g("/games/{id}/decline", to_decline.get()),
            vec![],
        ),
        (
            "/games/{id}/play",
            &anon,
            g("/games/{id}/play", game.get()),
            vec![
                ("u", &u),
                ("ply", "0"),
                ("exp", &exp),
                ("sig", &sig),
                ("move", "e4"),
            ],
        ),
        (
            "/games/{id}/move",
            &bob,
            g("/games/{id}/move", game.get()),
            vec![("move", "e5"), ("confirm", "1")],
        ),
        (
            "/games/{id}/draw",
            &alice,
            g("/games/{id}/draw", game.get()),
            vec![("action", "offer")],
        ),
        // White to move: Black's conditional line, then its deletion (the
        // control stores the game's first line, id 1).
        (
            "/games/{id}/conditional",
            &bob,
            g("/games/{id}/conditional", game.get()),
            vec![("line", "Nf3 Nc6")],
        ),
        (
            "/games/{id}/conditional/delete",
            &bob,
            g("/games/{id}/conditional/delete", game.get()),
            vec![("line_id", "1")],
        ),
        (
            "/games/{id}/takeback",
            &bob,
            g("/games/{id}/takeback", game.get()),
            vec![("action", "offer")],
        ),
        (
            "/games/{id}/claim",
            &bob,
            g("/games/{id}/claim", game.get()),
            vec![("confirm", "1")],
        ),
        (
            "/games/{id}/resign",
            &bob,
            g("/games/{id}/resign", game.get()),
            vec![("confirm", "1")],
        ),
        (
            "/settings/mail/verify",
            &bob,
            "/settings/mail/verify".into(),
            vec![],
        ),
        (
            "/leave",
            &bob,
            "/leave".into(),
            vec![("start", leave_start.as_str()), ("end", leave_end.as_str())],
        ),
        (
            "/tournaments/new",
            &alice,
            "/tournaments/new".into(),
            vec![
                ("name", "New"),
                ("variant", "chess"),
                ("time_control", "7d/move"),
                ("format", "round-robin"),
                ("rounds", ""),
                ("entry_opens", ""),
                ("entry_closes", &closes),
                ("max_players", "8"),
                ("leave_days", ""),
                ("forfeit_limit", ""),
            ],
        ),
        (
            "/tournaments/{id}/join",
            &dave,
            g("/tournaments/{id}/join", open_t),
            vec![],
        ),
        (
            "/tournaments/{id}/leave",
            &dave,
            g("/tournaments/{id}/leave", open_t),
            vec![],
        ),
        (
            "/tournaments/{id}/start",
            &alice,
            g("/tournaments/{id}/start", start_t),
            vec![],
        ),
        (
            "/games/{id}/adjudication-request",
            &bob,
            g("/games/{id}/adjudication-request", run_game.get()),
            vec![("note", "please look")],
        ),
        (
            "/games/{id}/extend",
            &alice,
            g("/games/{id}/extend", run_game.get()),
            vec![
                ("side", "white"),
                ("time", "1d"),
                ("reason", "a mail outage"),
            ],
        ),
        (
            "/games/{id}/adjudicate",
            &alice,
            g("/games/{id}/adjudicate", run_game.get()),
            vec![("result", "1/2-1/2"), ("reason", "agreed by mail")],
        ),
        (
            "/tournaments/{id}/withdraw",
            &alice,
            g("/tournaments/{id}/withdraw", run_t),
            vec![("player", "dave"), ("note", "asked to")],
        ),
        (
            "/tournaments/{id}/replace",
            &alice,
            g("/tournaments/{id}/replace", run_t),
            vec![("player", "dave"), ("newcomer", "erin")],
        ),
        (
            "/tournaments/{id}/grant-leave",
            &alice,
            g("/tournaments/{id}/grant-leave", run_t),
            vec![("player", "bob"), ("days", "3"), ("reason", "travel")],
        ),
        (
            "/records/import",
            &alice,
            "/records/import".into(),
            vec![("record", record), ("white", "bob"), ("black", "dave")],
        ),
        (
            "/admin/directors/grant",
            &alice,
            "/admin/directors/grant".into(),
            vec![("name", "fay")],
        ),
        (
            "/admin/directors/remove",
            &alice,
            "/admin/directors/remove".into(),
            vec![("name", "fay"), ("confirm", "1")],
        ),
        (
            "/matches/new",
            &alice,
            "/matches/new".into(),
            vec![
                ("team1", "Bishops"),
                ("captain1", "alice"),
                ("team2", "Pawns"),
                ("captain2", "bob"),
                ("boards", "2"),
            ],
        ),
        (
            "/matches/{id}/lineup",
            &alice,
            lineup_path.clone(),
            vec![("board1", "alice")],
        ),
        (
            "/password/forgot",
            &anon,
            "/password/forgot".into(),
            vec![("email", "carol@example.org")],
        ),
        (
            "/password/reset",
            &anon,
            "/password/reset".into(),
            vec![
                ("token", &reset_token),
                ("password", "plum tree over a quiet harbour"),
            ],
        ),
        (
            "/email/confirm",
            &anon,
            "/email/confirm".into(),
            vec![("token", &confirm_token)],
        ),
        (
            "/settings/email",
            &alice,
            "/settings/email".into(),
            vec![
                ("password", "correct horse battery"),
                ("email", "alice@new.example.org"),
            ],
        ),
        (
            "/settings/password",
            &alice,
            "/settings/password".into(),
            vec![
                ("current_password", "correct horse battery"),
                ("new_password", "plum tree over a quiet harbour"),
            ],
        ),
        (
            "/settings/sessions",
            &alice,
            "/settings/sessions".into(),
            vec![],
        ),
        (
            "/settings/reminders",
            &alice,
            "/settings/reminders".into(),
            vec![("reminders", "50%, 4h")],
        ),
        // Issue 64: time zone and calendar feed.
        (
            "/settings/time-zone",
            &alice,
            "/settings/time-zone".into(),
            vec![("time_zone", "Europe/Berlin")],
        ),
        (
            "/settings/calendar",
            &alice,
            "/settings/calendar".into(),
            vec![("confirm", "1")],
        ),
        (
            "/settings/calendar/revoke",
            &alice,
            "/settings/calendar/revoke".into(),
            vec![("confirm", "1")],
        ),
        // Issue 64: browser notifications.
        (
            "/settings/notifications",
            &alice,
            "/settings/notifications".into(),
            vec![("your_turn", "1")],
        ),
        (
            "/settings/notifications/subscribe",
            &alice,
            "/settings/notifications/subscribe".into(),
            vec![("subscription", push_subscription.as_str())],
        ),
        (
            "/settings/notifications/unsubscribe",
            &alice,
            "/settings/notifications/unsubscribe".into(),
            vec![("endpoint", "https://push.example.net/send/sec")],
        ),
        (
            "/settings/notifications/forget",
            &alice,
            "/settings/notifications/forget".into(),
            vec![],
        ),
        // Issue 41: alice's first credentials (ids 1 and 2), made and revoked
        // (with the password she changed to above).
        (
            "/settings/app-passwords",
            &alice,
            "/settings/app-passwords".into(),
            vec![
                ("name", "Scid"),
                ("current_password", "plum tree over a quiet harbour"),
            ],
        ),
        (
            "/settings/app-passwords/revoke",
            &alice,
            "/settings/app-passwords/revoke".into(),
            vec![("id", "1"), ("confirm", "1")],
        ),
        (
            "/settings/tokens",
            &alice,
            "/settings/tokens".into(),
            vec![
                ("name", "bot"),
                ("scope", "read"),
                ("current_password", "plum tree over a quiet harbour"),
            ],
        ),
        (
            "/settings/tokens/revoke",
            &alice,
            "/settings/tokens/revoke".into(),
            vec![("id", "2"), ("confirm", "1")],
        ),
        (
            "/settings/delete",
            &gus,
            "/settings/delete".into(),
            vec![("password", "correct horse battery"), ("confirm", "1")],
        ),
        // Issue 62: posted variants.
        (
            "/variants/new",
            &hal,
            "/variants/new".into(),
            vec![
                ("name", "Spare"),
                ("definition", camel6),
                ("visibility", "private"),
            ],
        ),
        (
            "/variants/{id}/edit",
            &hal,
            "/variants/camel-six/edit".into(),
            vec![
                ("name", "Camel six"),
                ("definition", camel6_v2.as_str()),
                ("visibility", "public"),
            ],
        ),
        (
            "/variants/{id}/delete",
            &hal,
            "/variants/spare/delete".into(),
            vec![("confirm", "1")],
        ),
        (
            "/admin/variants/approve",
            &alice,
            "/admin/variants/approve".into(),
            vec![("id", "camel-six"), ("version", camel6_version.as_str())],
        ),
        ("/logout", &alice, "/logout".into(), vec![]),
    ];
    // Every declared POST route is in the list (or exempt, with a reason).
    let declared = declared_post_routes();
    for known in [
        "/login",
        "/games/new",
        "/games/{id}/move",
        "/tournaments/{id}/join",
    ] {
        assert!(
            declared.iter().any(|d| d == known),
            "{known} not read from the routes"
        );
    }
    for declared in declared {
        assert!(
            routes.iter().any(|r| r.0 == declared) || NO_CSRF.iter().any(|e| e.0 == declared),
            "POST {declared} has no CSRF test: add it to the list above"
        );
    }
    let foreign = stranger.csrf();
    for (pattern, client, path, fields) in &routes {
        let missing = client.post_raw(path, fields);
        assert_eq!(
            missing.status,
            StatusCode::FORBIDDEN,
            "POST {pattern} without a token: {}",
            missing.body
        );
        let mut wrong = vec![("csrf_token", foreign.as_str())];
        wrong.extend_from_slice(fields);
        let p = client.post_raw(path, &wrong);
        assert_eq!(
            p.status,
            StatusCode::FORBIDDEN,
            "POST {pattern} with another browser's token"
        );
        let mut garbage = vec![("csrf_token", "0")];
        garbage.extend_from_slice(fields);
        assert_eq!(
            client.post_raw(path, &garbage).status,
            StatusCode::FORBIDDEN,
            "POST {pattern} with a made-up token"
        );
        // Control: with the page's token the same request is not refused
        // (a claim, with no flag fallen in this game, reaches the rule
        // that says so: past the token check).
        let ok = client.post(path, fields);
        let ruled = *pattern == "/games/{id}/claim"
            && ok.status == StatusCode::UNPROCESSABLE_ENTITY
            && ok.has("There is no win to claim");
        assert!(
            ruled || ok.status.is_success() || ok.status.is_redirection(),
            "POST {pattern} with the right token: {} {}",
            ok.status,
            ok.body
        );
    }
    // Nothing the refused requests carried was stored: two moves (the
    // controls), one draw offer, then the resignation.
    assert_eq!(
        app.count(&format!(
            "SELECT COUNT(*) AS n FROM moves WHERE game_id = {game}"
        )),
        2
    );
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM users WHERE username = 'carol'"),
        1
    );
    // The exempt route is guarded by its signature instead.
    let p = anon.post_raw(
        "/unsubscribe",
        &[("u", &user_id(&app, "bob").to_string()), ("sig", "00")],
    );
    assert_eq!(p.status, StatusCode::FORBIDDEN);
}

fn only_players_act_in_a_game(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let carol = app.user("carol");
    let anon = app.client();
    let challenge = alice.challenge("bob", "white");
    let game = alice.challenge("bob", "white");
    accept(&bob, game);
    let id = |p: &str| p.replace("{g}", &game.to_string());
    // Carol is not in the game; Bob is, but it is White's turn.
    for (who, path, fields) in [
        (
            &carol,
            id("/games/{g}/move"),
            vec![("move", "e4"), ("confirm", "1")],
        ),
        (
            &bob,
            id("/games/{g}/move"),
            vec![("move", "e4"), ("confirm", "1")],
        ),
        (&carol, id("/games/{g}/resign"), vec![]),
        (&carol, id("/games/{g}/resign"), vec![("confirm", "1")]),
        (&carol, id("/games/{g}/draw"), vec![("action", "offer")]),
        (&carol, format!("/games/{challenge}/accept"), vec![]),
        (&carol, format!("/games/{challenge}/decline"), vec![]),
        // The challenger cannot accept their own challenge.
        (&alice, format!("/games/{challenge}/accept"), vec![]),
    ] {
        let p = who.post(&path, &fields);
        assert_eq!(p.status, StatusCode::FORBIDDEN, "POST {path}: {}", p.body);
    }
    // Not logged in: asked to log in, nothing done.
    let p = anon.post(&id("/games/{g}/move"), &[("move", "e4"), ("confirm", "1")]);
    assert_eq!(p.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        app.count(&format!(
            "SELECT COUNT(*) AS n FROM moves WHERE game_id = {game}"
        )),
        0
    );
    assert_eq!(alice.json(game)["status"], "active");
    assert_eq!(alice.json(challenge)["status"], "pending");
    // Another player's private note is never shown.
    assert_eq!(
        alice
            .post(&id("/games/{g}/notes"), &[("note", "alice-secret-plan")])
            .status,
        StatusCode::SEE_OTHER
    );
    for c in [&bob, &carol, &anon] {
        assert!(!c.get(&id("/games/{g}")).has("alice-secret-plan"));
        assert!(!c.get(&id("/games/{g}.pgn")).has("alice-secret-plan"));
        assert!(!c.get(&id("/games/{g}.json")).has("alice-secret-plan"));
    }
    assert!(alice.get(&id("/games/{g}")).has("alice-secret-plan"));
}

fn signed_links_refuse_forged_expired_and_reused(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let game = alice.challenge("bob", "white");
    accept(&bob, game);
    let other = alice.challenge("bob", "white");
    accept(&bob, other);
    let key = secret(&app);
    let alice_id = user_id(&app, "alice");
    let anon = app.client();
    let link = PlayLink {
        game,
        user: alice_id,
        ply: 0,
        expires: unix_now() + 3600,
    };
    let try_link = |l: &PlayLink, sig: &str, expect: StatusCode, what: &str| {
        let q = format!("u={}&ply={}&exp={}&sig={sig}", l.user, l.ply, l.expires);
        let p = anon.get(&format!("/games/{}/play?{q}", l.game));
        let page_status = if expect == StatusCode::SEE_OTHER {
            StatusCode::OK
        } else {
            expect
        };
        assert_eq!(p.status, page_status, "GET {what}");
        let (u, ply, exp) = (l.user.to_string(), l.ply.to_string(), l.expires.to_string());
        let p = anon.post(
            &format!("/games/{}/play", l.game),
            &[
                ("u", &u),
                ("ply", &ply),
                ("exp", &exp),
                ("sig", sig),
                ("move", "e4"),
            ],
        );
        assert_eq!(p.status, expect, "POST {what}: {}", p.body);
    };
    let good = link.sign(&key);
    // Forged: another key, a changed signature, a changed field, another game.
    try_link(
        &link,
        &link.sign(b"not the server's secret"),
        StatusCode::FORBIDDEN,
        "forged",
    );
    let flipped: String = good
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if i == 0 {
                if c == '0' {
                    '1'
                } else {
                    '0'
                }
            } else {
                c
            }
        })
        .collect();
    try_link(
        &link,
        &flipped,
        StatusCode::FORBIDDEN,
        "one character changed",
    );
    try_link(&link, "", StatusCode::FORBIDDEN, "no signature");
    let longer = PlayLink {
        expires: link.expires + 86_400 * 365,
        ..link.clone()
    };
    try_link(&longer, &good, StatusCode::FORBIDDEN, "expiry pushed back");
    let elsewhere = PlayLink {
        game: other,
        ..link.clone()
    };
    try_link(
        &elsewhere,
        &good,
        StatusCode::FORBIDDEN,
        "used on another game",
    );
    let as_bob = PlayLink {
        user: user_id(&app, "bob"),
        ..link.clone()
    };
    try_link(&as_bob, &good, StatusCode::FORBIDDEN, "another player");
    // Expired: correctly signed, but its time is up.
    let old = PlayLink {
        expires: unix_now() - 60,
        ..link.clone()
    };
    try_link(&old, &old.sign(&key), StatusCode::GONE, "expired");
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM moves"),
        0,
        "no refused link played"
    );
    // Used once, then refused.
    try_link(&link, &good, StatusCode::SEE_OTHER, "the real link");
    try_link(&link, &good, StatusCode::GONE, "reused");
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM moves"), 1);
    // The link granted no session.
    assert_eq!(
        anon.post(&format!("/games/{game}/resign"), &[("confirm", "1")])
            .status,
        StatusCode::UNAUTHORIZED
    );
    // Address verification and unsubscribe links: forged ones refused.
    let bob_id = user_id(&app, "bob");
    let p = anon.get(&format!("/verify-email?u={bob_id}&sig={flipped}"));
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    let forged = links::verify_sig(b"wrong key", bob_id, "bob@example.org");
    let p = anon.get(&format!("/verify-email?u={bob_id}&sig={forged}"));
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    let forged = links::unsubscribe_sig(b"wrong key", bob_id);
    let p = anon.get(&format!("/unsubscribe?u={bob_id}&sig={forged}"));
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    let p = anon.post_raw(
        "/unsubscribe",
        &[("u", &bob_id.to_string()), ("sig", &forged)],
    );
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM mail_prefs WHERE policy = 'none'"),
        0
    );
}

const XSS: &str = "<script>alert(1)</script><img src=x onerror=alert(2)>";

/// The page shows `XSS` only escaped.
fn escaped(c: &TestClient, path: &str) {
    let p = c.get(path);
    assert!(p.status.is_success(), "GET {path}: {}", p.status);
    assert!(!p.has("<script>alert"), "GET {path} shows raw script");
    assert!(!p.has("<img src=x"), "GET {path} shows a raw tag");
}

fn user_text_is_escaped_everywhere(backend: Backend) {
    let app = TestApp::start(backend);
    // Usernames cannot carry markup at all.
    let anon = app.client();
    for name in ["<script>", "a<b>", "x\"onmouseover=alert(1)", "a&amp;b"] {
        let p = anon.signup(name, "m@example.org", "correct horse battery");
        assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY, "{name}");
        assert!(!p.has("<script>alert") && !p.has("<b>"));
    }
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM users"), 0);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let game = alice.challenge("bob", "white");
    accept(&bob, game);
    let p = alice.play(game, &format!("e4 // {XSS}"));
    assert_eq!(p.status, StatusCode::SEE_OTHER);
    let p = bob.play(game, &format!("e5 // {XSS}"));
    assert_eq!(p.status, StatusCode::SEE_OTHER);
    assert_eq!(
        alice
            .post(
                &format!("/games/{game}/notes"),
                &[("note", &format!("</textarea>{XSS}"))]
            )
            .status,
        StatusCode::SEE_OTHER
    );
    // The comment and the note are shown, as text.
    let page = alice.get(&format!("/games/{game}"));
    assert!(page.has("alert(1)") && page.has("onerror=alert(2)"));
    assert!(!page.has("</textarea><script>"), "the note, escaped");
    // Every `</textarea>` closes one the page opened: none from the note.
    assert_eq!(
        page.body.matches("</textarea>").count(),
        page.body.matches("<textarea").count()
    );
    for c in [&alice, &bob, &anon] {
        for path in [
            format!("/games/{game}"),
            format!("/games/{game}?ply=1"),
            "/games".into(),
            "/games?player=alice".into(),
            "/users/alice".into(),
            "/users/bob".into(),
            "/".into(),
        ] {
            escaped(c, &path);
        }
    }
    // The feed is XML: escaped as XML.
    let feed = alice.get("/users/alice/feed.atom");
    assert_eq!(feed.status, StatusCode::OK);
    assert!(!feed.has("<script>alert"));
    // Exports are plain text (never rendered as HTML): the text as typed.
    for path in [format!("/games/{game}.pgn"), format!("/games/{game}.txt")] {
        let r = alice
            .http
            .get(format!("{}{path}", alice.base))
            .send()
            .unwrap();
        let ct = r.headers()["content-type"].to_str().unwrap().to_string();
        assert!(!ct.contains("html"), "{path}: {ct}");
        assert_eq!(r.headers()["x-content-type-options"], "nosniff");
        assert!(r.text().unwrap().contains("<script>alert(1)</script>"));
    }
    // Input echoed back in error pages is escaped too.
    let p = bob.play(game, XSS);
    assert_eq!(p.status, StatusCode::FORBIDDEN, "not bob's turn");
    let p = alice.play(game, XSS);
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(!p.has("<script>alert") && !p.has("<img src=x"));
    let p = alice.post(
        "/games/new",
        &[
            ("variant", XSS),
            ("opponent", XSS),
            ("color", XSS),
            ("fen", XSS),
        ],
    );
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(!p.has("<script>alert") && !p.has("<img src=x"));
    let p = anon.post("/records/check", &[("record", XSS)]);
    assert!(!p.has("<script>alert") && !p.has("<img src=x"));
    let p = anon.get(&format!("/games?player={}", urlencode(XSS)));
    assert!(!p.has("<script>alert") && !p.has("<img src=x"));
    let p = anon.get(&format!("/users/{}", urlencode(XSS)));
    assert_eq!(p.status, StatusCode::NOT_FOUND);
    assert!(!p.has("<script>alert") && !p.has("<img src=x"));
}

fn urlencode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

fn login_brute_force_is_slowed(backend: Backend) {
    let app = TestApp::start(backend);
    app.user("alice");
    let mallory = app.client();
    let limit = app.config.login_limit_account;
    for i in 0..limit {
        let p = mallory.login("alice", &format!("guess number {i}"));
        assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY, "guess {i}");
    }
    // The limit is reached: even the right password is refused for now,
    // from this client and from a fresh one.
    let p = mallory.login("alice", "correct horse battery");
    assert_eq!(p.status, StatusCode::TOO_MANY_REQUESTS);
    let p = app.client().login("alice", "correct horse battery");
    assert_eq!(p.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM sessions"),
        1,
        "only the sign-up's session"
    );
}

fn set_cookies(r: &reqwest::blocking::Response) -> Vec<String> {
    r.headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect()
}

fn session_cookie_flags(backend: Backend) {
    let app = TestApp::start(backend);
    app.user("alice");
    let c = app.client();
    let token = c.csrf();
    let r = c
        .http
        .post(format!("{}/login", c.base))
        .form(&[
            ("csrf_token", token.as_str()),
            ("username", "alice"),
            ("password", "correct horse battery"),
        ])
        .send()
        .unwrap();
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let cookies = set_cookies(&r);
    let session = cookies
        .iter()
        .find(|c| c.starts_with("missive_session="))
        .expect("a session cookie");
    assert!(session.contains("HttpOnly"), "{session}");
    assert!(session.contains("SameSite=Lax"), "{session}");
    assert!(!session.contains("Secure"), "plain http: {session}");
    // The CSRF cookie of a fresh browser carries the same flags.
    let r = app
        .client()
        .http
        .get(format!("{}/login", c.base))
        .send()
        .unwrap();
    let csrf = set_cookies(&r)
        .into_iter()
        .find(|c| c.starts_with("missive_csrf="))
        .expect("a CSRF cookie");
    assert!(
        csrf.contains("HttpOnly") && csrf.contains("SameSite=Lax"),
        "{csrf}"
    );
    // Behind https, both are Secure.
    let config = missive::Config {
        base_url: "https://missive.example.org".into(),
        ..app.config.clone()
    };
    let s = missive::web::session_cookie(&config, "t".repeat(64)).to_string();
    assert!(
        s.contains("Secure") && s.contains("HttpOnly") && s.contains("SameSite=Lax"),
        "{s}"
    );
    let plain = missive::web::session_cookie(&app.config, "t".repeat(64)).to_string();
    assert!(!plain.contains("Secure"), "{plain}");
    // Logging out ends the session on the server, not just in the browser.
    let alice = app.client();
    assert_eq!(
        alice.login("alice", "correct horse battery").status,
        StatusCode::SEE_OTHER
    );
    let before = app.count("SELECT COUNT(*) AS n FROM sessions");
    assert_eq!(alice.post("/logout", &[]).status, StatusCode::SEE_OTHER);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM sessions"), before - 1);
}
