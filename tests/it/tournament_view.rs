//! Issue 63 over HTTP, on both backends: every tournament rule in plain
//! view (page, entry form, entry mail, a player's page), the claimed loss on
//! time that once counted as silence, the director role granted on the web,
//! the director's controls only where they can act, the entry dates'
//! defaults, and team matches.

use crate::common;
use missive::domain::ids::GameId;

use chrono::{Duration, NaiveDateTime};
use common::{Backend, TestApp, TestClient};
use diesel::prelude::*;
use missive::clocks::forfeit;
use missive::db::games::GameRow;
use missive::db::outbox;
use missive::db::schema::games;
use missive::db::users::User;
use missive::db::{entrants, tournament_games, tournaments};
use missive::domain::game_state::{EndReason, GameStatus};
use missive::domain::mail_kind::{Mail, MailKind};
use missive::tournaments::entry::{self, TournamentForm};
use reqwest::StatusCode;

both_backends!(
    the_rules_are_stated_on_the_page_the_entry_form_and_the_entry_mail,
    a_claimed_loss_on_time_is_no_silent_withdrawal,
    administrators_grant_and_remove_the_director_role,
    director_controls_only_where_they_can_act,
    the_entry_window_has_defaults,
    a_team_match_is_set_up_lined_up_played_and_scored,
    a_team_match_refuses_what_makes_no_sense,
);

fn user_row(app: &TestApp, name: &str) -> User {
    missive::db::users::find_by_name(&mut app.db(), name)
        .unwrap()
        .unwrap()
}

/// The issue's tournament: a round robin, forfeit limit 2, silence 10
/// days, "opponent may claim", 7 days a move.
fn issue_form(name: &str) -> TournamentForm {
    TournamentForm {
        name: name.into(),
        variant: "chess".into(),
        time_control: "7d/move".into(),
        format: "round-robin".into(),
        entry_closes: (missive::web::now().date() + Duration::days(3)).to_string(),
        max_players: "10".into(),
        forfeit_limit: "2".into(),
        silence_days: "10".into(),
        on_timeout: "claim".into(),
        ..TournamentForm::default()
    }
}

fn the_rules_are_stated_on_the_page_the_entry_form_and_the_entry_mail(backend: Backend) {
    let app = TestApp::start(backend);
    app.member("dora", true);
    let ann = app.member("ann", false);
    let tid = {
        let conn = &mut app.db();
        let dora = user_row(&app, "dora");
        entry::create(conn, &dora, &issue_form("Rules Cup"), missive::web::now()).unwrap()
    };
    let url = format!("/tournaments/{tid}");
    let page = ann.get(&url);
    assert_eq!(page.status(), StatusCode::OK);
    for (id, words) in [
        ("rule-time-control", "7 days per move"),
        ("rule-leave", "30 days of booked leave a year"),
        ("rule-on-timeout", "Opponent may claim"),
        ("rule-forfeit-limit", "loses 2 games on time"),
        ("rule-silence", "no move for 10 days"),
        (
            "rule-withdrawal",
            "fewer than half of their scheduled games",
        ),
        ("rule-cooling-off", "None"),
        ("rule-rating", "Casual"),
    ] {
        let at = page
            .body
            .find(&format!("id=\"{id}\""))
            .unwrap_or_else(|| panic!("{id} on the page: {}", page.body));
        let dd = &page.body[at..at + page.body[at..].find("</dd>").unwrap()];
        assert!(dd.contains(words), "{id}: {dd}");
    }
    // The entry form sums the rules up above its button.
    let form_at = page.body.find("id=\"entry-form\"").expect("entry form");
    let form = &page.body[form_at..form_at + page.body[form_at..].find("</form>").unwrap()];
    for words in [
        "7 days per move",
        "the opponent may claim the win",
        "withdrawn after 2 losses on time",
        "lost after 10 days without a move",
    ] {
        assert!(form.contains(words), "{words}: {form}");
    }
    // Entering mails the rules.
    assert_eq!(
        ann.post(&format!("{url}/join"), &[]).status(),
        StatusCode::SEE_OTHER
    );
    let conn = &mut app.db();
    let ann_id = app.user_id("ann");
    let row = outbox::all(conn)
        .unwrap()
        .into_iter()
        .find(|m| m.kind == MailKind::TournamentEntered && m.user_id == ann_id)
        .expect("the entry mail");
    assert_eq!(
        row.mail(),
        Some(Mail::TournamentEntered { tournament: tid })
    );
    let ctx = missive::mail::context::MailCtx::new(&app.config, &app.secret()).unwrap();
    let r = missive::mail::render::render(conn, &ctx, &row, missive::web::now())
        .unwrap()
        .unwrap();
    assert!(r.subject.contains("Rules Cup"), "{}", r.subject);
    for words in [
        "Time control: 7 days per move",
        "Opponent may claim",
        "loses 2 games on time",
        "no move for 10 days",
        "Withdrawal: A withdrawn player",
        "games in progress end as losses",
    ] {
        assert!(r.text.contains(words), "{words}: {}", r.text);
        // The HTML sets the rule's name apart from its text.
        let bare = words.split_once(": ").map_or(words, |w| w.1);
        assert!(r.html.contains(bare), "{bare}: {}", r.html);
    }
}

/// The three games of a started three-player round robin and the flagged
/// player's two, with their opponent moved so that the flagged player is
/// to move in both.
fn started_issue_case(app: &TestApp) -> (i32, NaiveDateTime, Vec<GameRow>) {
    let conn = &mut app.db();
    let dora = user_row(app, "dora");
    let now = missive::web::now();
    let tid = entry::create(conn, &dora, &issue_form("Claim Cup"), now).unwrap();
    for n in ["tess", "yann", "zoe"] {
        entry::join(conn, tid, &user_row(app, n), now).unwrap();
    }
    entry::start_by_director(conn, tid, &dora, now).unwrap();
    let tess = user_row(app, "tess");
    let mine: Vec<GameRow> = tournament_games::of_tournament(conn, tid)
        .unwrap()
        .into_iter()
        .filter(|g| g.white_id == Some(tess.id) || g.black_id == Some(tess.id))
        .collect();
    assert_eq!(mine.len(), 2, "two games each in a round robin of three");
    for g in &mine {
        if g.black_id == Some(tess.id) {
            let white_id = g.white_id.unwrap();
            let white = missive::db::users::find_by_id(conn, white_id)
                .unwrap()
                .unwrap();
            common::play_move(conn, g.id, &white, "e4", None, true, now).unwrap();
        }
    }
    (tid, now, mine)
}

fn a_claimed_loss_on_time_is_no_silent_withdrawal(backend: Backend) {
    let app = TestApp::start(backend);
    app.member("dora", true);
    let clients: Vec<TestClient> = ["tess", "yann", "zoe"]
        .iter()
        .map(|n| app.member(n, false))
        .collect();
    let (tid, start, mine) = started_issue_case(&app);
    let tess = user_row(&app, "tess");
    // Seven days later Tess's time has run out in both games: the games go
    // on, her opponents may claim.
    let flag = start + Duration::days(7) + Duration::minutes(1);
    assert_eq!(
        forfeit::sweep_report(&mut app.db(), flag).unwrap().forfeits,
        0
    );
    let first = &mine[0];
    let claimer_id = missive::db::games::opponent_of(first, tess.id).unwrap();
    let claimer = clients
        .iter()
        .zip(["tess", "yann", "zoe"])
        .find(|(_, n)| app.user_id(n) == claimer_id)
        .unwrap()
        .0;
    let p = claimer.post(&format!("/games/{}/claim", first.id), &[("confirm", "1")]);
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
    // One claimed loss on time of a limit of two: Tess plays on. (The old
    // rule counted it as silence, 1 of 2 scheduled games, and withdrew her.)
    let conn = &mut app.db();
    let e = entrants::find(conn, tid, tess.id).unwrap().unwrap();
    assert!(e.withdrawn_at.is_none(), "{:?}", e.withdrawal_reason);
    let other = missive::db::games::load(conn, mine[1].id).unwrap();
    assert_eq!(other.status, GameStatus::Active, "her other game goes on");
    let page = app
        .client()
        .get(&format!("/tournaments/{tid}/players/tess"));
    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.has("Playing."), "{}", page.body);
    assert!(
        page.has("1 of 2 losses on time: not withdrawn under this rule"),
        "{}",
        page.body
    );
    assert!(
        page.has(&format!("claimed by the opponent: #{}", first.id)),
        "{}",
        page.body
    );
    assert!(
        page.has("Lost by silence: 0 of 2 scheduled games"),
        "{}",
        page.body
    );
    assert!(page.has("Not withdrawn."), "{}", page.body);
    // Unclaimed for 14 days, the other game is lost on time (and so is
    // the game between Yann and Zoe, where nobody moved either): Tess's
    // forfeit limit is reached, as the page said it would be.
    let later = flag + Duration::days(14);
    assert_eq!(forfeit::sweep_report(conn, later).unwrap().forfeits, 2);
    let ended = missive::db::games::load(conn, mine[1].id).unwrap();
    assert_eq!(ended.reason, Some(EndReason::TimeForfeit));
    let e = entrants::find(conn, tid, tess.id).unwrap().unwrap();
    assert_eq!(
        e.withdrawal_reason.as_deref(),
        Some("lost 2 games on time (the limit is 2)")
    );
    assert!(!e.results_cancelled, "both games were completed");
    let page = app
        .client()
        .get(&format!("/tournaments/{tid}/players/tess"));
    assert!(page.has("Withdrawn."), "{}", page.body);
    assert!(
        page.has("2 of 2 losses on time: the forfeit limit is reached"),
        "{}",
        page.body
    );
    assert!(page.has("the results stand"), "{}", page.body);
    // An unknown player or tournament is a 404 with a reason.
    assert_eq!(
        app.client()
            .get(&format!("/tournaments/{tid}/players/nobody"))
            .status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.client().get("/tournaments/999/players/tess").status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.client()
            .get(&format!("/tournaments/{tid}/players/dora"))
            .status(),
        StatusCode::NOT_FOUND
    );
}

fn administrators_grant_and_remove_the_director_role(backend: Backend) {
    let app = TestApp::start(backend);
    let root = app.member("root", false);
    let pat = app.member("pat", false);
    let anon = app.client();
    missive::accounts::admins::set_admin(&mut app.db(), "root", true, missive::web::now()).unwrap();
    let is_director = |name: &str| user_row(&app, name).is_director;
    // Only administrators see the page or act (logged out: log in first).
    for (who, status) in [
        (&pat, StatusCode::FORBIDDEN),
        (&anon, StatusCode::UNAUTHORIZED),
    ] {
        assert_eq!(who.get("/admin/directors").status(), status);
        let p = who.post("/admin/directors/grant", &[("name", "pat")]);
        assert_eq!(p.status(), status);
    }
    assert!(!is_director("pat"));
    let page = root.get("/admin/directors");
    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.has("id=\"no-directors\""), "{}", page.body);
    // Without the CSRF token nothing happens.
    let p = root.post_raw("/admin/directors/grant", &[("name", "pat")]);
    assert_eq!(p.status(), StatusCode::FORBIDDEN);
    assert!(!is_director("pat"));
    let p = root.post("/admin/directors/grant", &[("name", "pat")]);
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
    assert!(is_director("pat"));
    assert!(root
        .get("/admin/directors")
        .has("<a href=\"/users/pat\">pat</a>"));
    // Pat may now create tournaments.
    assert_eq!(pat.get("/tournaments/new").status(), StatusCode::OK);
    // Unknown names and a second grant say what is wrong.
    let p = root.post("/admin/directors/grant", &[("name", "ghost")]);
    assert_eq!(p.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(p.has("no user named"), "{}", p.body);
    let p = root.post("/admin/directors/grant", &[("name", "pat")]);
    assert_eq!(p.status(), StatusCode::CONFLICT);
    // Removing asks first; a non-administrator cannot even be asked.
    let p = pat.post("/admin/directors/remove", &[("name", "pat")]);
    assert_eq!(p.status(), StatusCode::FORBIDDEN);
    let ask = root.post("/admin/directors/remove", &[("name", "pat")]);
    assert_eq!(ask.status(), StatusCode::OK);
    assert!(ask.has("id=\"confirm-remove\""), "{}", ask.body);
    assert!(is_director("pat"), "asking changes nothing");
    let p = pat.post(
        "/admin/directors/remove",
        &[("name", "pat"), ("confirm", "1")],
    );
    assert_eq!(p.status(), StatusCode::FORBIDDEN);
    assert!(is_director("pat"));
    let p = root.post(
        "/admin/directors/remove",
        &[("name", "pat"), ("confirm", "1")],
    );
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
    assert!(!is_director("pat"));
    assert_eq!(pat.get("/tournaments/new").status(), StatusCode::FORBIDDEN);
    // Removing a non-director: said so.
    let p = root.post("/admin/directors/remove", &[("name", "pat")]);
    assert_eq!(p.status(), StatusCode::UNPROCESSABLE_ENTITY);
    // The command line makes administrators.
    missive::accounts::admins::set_admin(&mut app.db(), "root", false, missive::web::now())
        .unwrap();
    assert_eq!(root.get("/admin/directors").status(), StatusCode::FORBIDDEN);
}

fn adjudicate_form(body: &str, game: GameId) -> bool {
    body.contains(&format!("action=\"/games/{game}/adjudicate\""))
}

fn director_controls_only_where_they_can_act(backend: Backend) {
    let app = TestApp::start(backend);
    let d = app.member("dora", true);
    let ann = app.member("ann", false);
    app.member("ben", false);
    app.member("cat", false);
    let tid = {
        let conn = &mut app.db();
        let dora = user_row(&app, "dora");
        let now = missive::web::now();
        let tid = entry::create(conn, &dora, &issue_form("Controls Cup"), now).unwrap();
        for n in ["ann", "ben", "cat"] {
            entry::join(conn, tid, &user_row(&app, n), now).unwrap();
        }
        tid
    };
    let url = format!("/tournaments/{tid}");
    // Before the start: no withdrawal (players leave themselves), nobody to
    // replace.
    let page = d.get(&url);
    assert!(!page.has("Withdraw player"), "{}", page.body);
    assert!(!page.has("Replace withdrawn player"), "{}", page.body);
    assert_eq!(
        d.post(&format!("{url}/start"), &[]).status(),
        StatusCode::SEE_OTHER
    );
    let all = tournament_games::of_tournament(&mut app.db(), tid).unwrap();
    let ann_id = app.user_id("ann");
    let finished = all
        .iter()
        .find(|g| g.white_id == Some(ann_id) || g.black_id == Some(ann_id))
        .unwrap()
        .id;
    let p = ann.post(&format!("/games/{finished}/resign"), &[("confirm", "1")]);
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
    let page = d.get(&url);
    assert!(page.has("Withdraw player"), "{}", page.body);
    assert!(!page.has("Replace withdrawn player"), "nobody to replace");
    // Adjudication only on running games.
    assert!(!adjudicate_form(&page.body, finished), "finished game");
    for g in all.iter().filter(|g| g.id != finished) {
        assert!(adjudicate_form(&page.body, g.id), "running game {}", g.id);
    }
    // The player's own request form, too, only on running games.
    let mine = ann.get(&url);
    assert!(!mine.has(&format!("/games/{finished}/adjudication-request")));
    // A withdrawn player appears in the replace list.
    let p = d.post(
        &format!("{url}/withdraw"),
        &[("player", "cat"), ("note", "")],
    );
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
    let page = d.get(&url);
    assert!(
        page.has("Replace withdrawn player <select name=\"player\" required><option>cat</option></select>"),
        "{}",
        page.body
    );
    // A pairing handed to a newcomer is never played: nothing to adjudicate.
    let conn = &mut app.db();
    let replaced = all
        .iter()
        .find(|g| g.id != finished && g.status == GameStatus::Active)
        .unwrap()
        .id;
    diesel::update(games::table.find(replaced))
        .set(games::reason.eq(Some(EndReason::Replaced.code())))
        .execute(conn)
        .unwrap();
    let p = d.post(
        &format!("/games/{replaced}/adjudicate"),
        &[("result", "1-0"), ("reason", "x")],
    );
    assert_eq!(p.status(), StatusCode::UNPROCESSABLE_ENTITY, "{}", p.body);
    assert!(p.has("never played"), "{}", p.body);
    assert!(!adjudicate_form(&d.get(&url).body, replaced));
}

fn the_entry_window_has_defaults(backend: Backend) {
    let app = TestApp::start(backend);
    let d = app.member("dora", true);
    let today = missive::web::now().date();
    let form = d.get("/tournaments/new");
    let closes = (today + Duration::days(14)).to_string();
    assert!(
        form.has(&format!("name=\"entry_closes\" value=\"{closes}\"")),
        "{}",
        form.body
    );
    // Sent empty (another client), entry closes two weeks after it opens.
    let p = d.post(
        "/tournaments/new",
        &[
            ("name", "Default Cup"),
            ("variant", "chess"),
            ("time_control", "3d/move"),
            ("format", "round-robin"),
            ("entry_opens", ""),
            ("entry_closes", ""),
        ],
    );
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
    let tid: i32 = p
        .location
        .unwrap()
        .trim_start_matches("/tournaments/")
        .parse()
        .unwrap();
    let t = tournaments::load(&mut app.db(), tid).unwrap();
    assert_eq!(
        t.entry_closes,
        (today + Duration::days(15)).and_hms_opt(0, 0, 0).unwrap()
    );
    assert!(d
        .get(&format!("/tournaments/{tid}"))
        .has(&format!("to the end of {closes} (UTC)")));
}

fn match_id(p: &common::Page) -> i32 {
    p.location
        .as_deref()
        .unwrap()
        .trim_start_matches("/matches/")
        .parse()
        .unwrap()
}

fn match_games(app: &TestApp, id: i32) -> Vec<GameRow> {
    let conn = &mut app.db();
    let ids: Vec<GameId> = missive::db::team_matches::games(conn, id)
        .unwrap()
        .iter()
        .map(|g| g.0)
        .collect();
    missive::db::team_matches::game_rows(conn, &ids).unwrap()
}

fn a_team_match_is_set_up_lined_up_played_and_scored(backend: Backend) {
    let app = TestApp::start(backend);
    let cap1 = app.member("cap_one", false);
    let cap2 = app.member("cap_two", false);
    let mut players: std::collections::HashMap<&str, TestClient> = Default::default();
    for n in ["ada", "bob", "cyd", "dia"] {
        players.insert(n, app.member(n, false));
    }
    players.insert("cap_one", cap1.clone());
    let p = cap1.post(
        "/matches/new",
        &[
            ("team1", "Rooks"),
            ("captain1", "cap_one"),
            ("team2", "Knights"),
            ("captain2", "cap_two"),
            ("boards", "2"),
            ("variant", "chess"),
            ("time_control", "3d/move"),
            ("rated", "1"),
        ],
    );
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
    let id = match_id(&p);
    let url = format!("/matches/{id}");
    let page = cap1.get(&url);
    assert!(page.has("Rooks v Knights"), "{}", page.body);
    assert!(page.has("id=\"lineup-form\""), "the captain names players");
    assert!(!players["ada"].get(&url).has("id=\"lineup-form\""));
    // Only a captain names players, one per board, none twice.
    let p = players["ada"].post(
        &format!("{url}/lineup"),
        &[("board1", "ada"), ("board2", "cap_one")],
    );
    assert_eq!(p.status(), StatusCode::FORBIDDEN);
    let p = cap1.post(
        &format!("{url}/lineup"),
        &[("board1", "ada"), ("board2", "ada")],
    );
    assert_eq!(p.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(p.has("two boards"), "{}", p.body);
    let p = cap1.post(&format!("{url}/lineup"), &[("board1", "ada")]);
    assert_eq!(p.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let p = cap1.post(
        &format!("{url}/lineup"),
        &[("board1", "ada"), ("board2", "cap_one")],
    );
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
    assert!(match_games(&app, id).is_empty(), "not before both line-ups");
    let p = cap2.post(
        &format!("{url}/lineup"),
        &[("board1", "ada"), ("board2", "bob")],
    );
    assert_eq!(
        p.status(),
        StatusCode::UNPROCESSABLE_ENTITY,
        "ada plays for team 1"
    );
    let p = cap2.post(
        &format!("{url}/lineup"),
        &[("board1", "bob"), ("board2", "cyd")],
    );
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
    // Four games: each board's pair twice, once with each colour, rated.
    let gs = match_games(&app, id);
    assert_eq!(gs.len(), 4);
    let (ada, bob, cyd, one) = (
        app.user_id("ada"),
        app.user_id("bob"),
        app.user_id("cyd"),
        app.user_id("cap_one"),
    );
    for (a, b) in [(ada, bob), (one, cyd)] {
        for (w, k) in [(a, b), (b, a)] {
            assert_eq!(
                gs.iter()
                    .filter(|g| g.white_id == Some(w) && g.black_id == Some(k))
                    .count(),
                1,
                "{w} White against {k}"
            );
        }
    }
    assert!(gs.iter().all(|g| g.rated && g.status == GameStatus::Active));
    let p = cap1.post(
        &format!("{url}/lineup"),
        &[("board1", "dia"), ("board2", "cap_one")],
    );
    assert_eq!(
        p.status(),
        StatusCode::CONFLICT,
        "line-ups are fixed once started"
    );
    // Play it out: board 1, Ada mates Bob as White and resigns as Black;
    // board 2, a draw and a win for Cyd as White.
    let client_of = |id: i32| -> TestClient {
        let name = ["ada", "bob", "cyd", "cap_one"]
            .into_iter()
            .find(|n| app.user_id(n) == id)
            .unwrap();
        players[name].clone()
    };
    for g in &gs {
        let white = client_of(g.white_id.unwrap());
        let black = client_of(g.black_id.unwrap());
        // Both sides move first: a game over before that is not rated.
        let opening = || {
            assert_eq!(white.play(g.id, "e4").status, StatusCode::SEE_OTHER);
            assert_eq!(black.play(g.id, "e5").status, StatusCode::SEE_OTHER);
        };
        match (g.white_id.unwrap(), g.black_id.unwrap()) {
            (w, _) if w == ada => {
                for (i, m) in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]
                    .iter()
                    .enumerate()
                {
                    let mover = if i % 2 == 0 { &white } else { &black };
                    assert_eq!(mover.play(g.id, m).status, StatusCode::SEE_OTHER, "{m}");
                }
            }
            (_, b) if b == ada => {
                opening();
                let p = black.post(&format!("/games/{}/resign", g.id), &[("confirm", "1")]);
                assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
            }
            (w, _) if w == one => {
                opening();
                let p = black.post(&format!("/games/{}/draw", g.id), &[("action", "offer")]);
                assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
                let p = white.post(&format!("/games/{}/draw", g.id), &[("action", "accept")]);
                assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
            }
            _ => {
                opening();
                let p = black.post(&format!("/games/{}/resign", g.id), &[("confirm", "1")]);
                assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
            }
        }
        let page = cap2.get(&url);
        let done = match_games(&app, id)
            .iter()
            .filter(|g| g.status == GameStatus::Finished)
            .count();
        assert_eq!(
            page.has("id=\"match-outcome\""),
            done == 4,
            "finished with its last game: {}",
            page.body
        );
    }
    // Rooks: Ada 1 + 0 (she resigned as Black), cap_one ½ + 0 = 1½;
    // Knights: Bob 0 + 1, Cyd ½ + 1 = 2½.
    let page = app.client().get(&url);
    assert!(page.has("Knights wins 2½–1½"), "{}", page.body);
    assert!(
        page.has("<strong>1½</strong> – <strong>2½</strong>"),
        "{}",
        page.body
    );
    // The match list shows it with its score, linked.
    let list = app.client().get("/matches");
    assert_eq!(list.status(), StatusCode::OK);
    assert!(
        list.has(&format!("href=\"/matches/{id}\"")),
        "{}",
        list.body
    );
    assert!(
        list.has("Rooks <strong>1½</strong> – <strong>2½</strong> Knights"),
        "{}",
        list.body
    );
    assert!(list.has("finished"), "{}", list.body);
    assert!(app.client().get("/tournaments").has("href=\"/matches\""));
    let status: String = missive::db::team_matches::load(&mut app.db(), id)
        .unwrap()
        .status
        .to_string();
    assert_eq!(status, "finished");
    // In each player's record and ratings.
    for n in ["ada", "bob", "cyd", "cap_one"] {
        let uid = app.user_id(n);
        assert_eq!(
            app.count(&format!(
                "SELECT COUNT(*) AS n FROM rating_changes WHERE user_id = {uid}"
            )),
            2,
            "{n}: two rated games"
        );
        let profile = app.client().get(&format!("/users/{n}"));
        assert_eq!(profile.status(), StatusCode::OK);
        for g in gs
            .iter()
            .filter(|g| g.white_id == Some(uid) || g.black_id == Some(uid))
        {
            assert!(
                profile.has(&format!("/games/{}", g.id)),
                "{n}: game {}",
                g.id
            );
        }
    }
}

fn a_team_match_refuses_what_makes_no_sense(backend: Backend) {
    let app = TestApp::start(backend);
    let cap1 = app.member("cap_one", false);
    app.member("cap_two", false);
    let outsider = app.member("outsider", false);
    let anon = app.client();
    let good: Vec<(&'static str, &'static str)> = vec![
        ("team1", "Rooks"),
        ("captain1", "cap_one"),
        ("team2", "Knights"),
        ("captain2", "cap_two"),
        ("boards", "2"),
        ("variant", "chess"),
        ("time_control", "3d/move"),
    ];
    let with = |k: &str, v: &'static str| -> Vec<(&'static str, &'static str)> {
        good.iter()
            .map(|(a, b)| if *a == k { (*a, v) } else { (*a, *b) })
            .collect()
    };
    for (field, value, says) in [
        ("boards", "0", "number of boards"),
        ("boards", "x", "number of boards"),
        ("captain2", "cap_one", "its own captain"),
        ("captain2", "ghost", "no player named"),
        ("team2", "rooks", "different names"),
        ("team1", "", "a name"),
        ("variant", "nope", "no variant"),
        ("time_control", "soon", ""),
    ] {
        let p = cap1.post("/matches/new", &with(field, value));
        assert_eq!(
            p.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{field}={value}"
        );
        assert!(p.has(says), "{field}={value}: {}", p.body);
        assert!(p.has("role=\"alert\""));
    }
    // Only a captain (or a director) sets a match up; logged out, nobody.
    assert_eq!(
        outsider.post("/matches/new", &good).status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        anon.post("/matches/new", &good).status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        cap1.post_raw("/matches/new", &good).status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM team_matches"),
        0,
        "nothing was made"
    );
    // Escaped names.
    let p = cap1.post("/matches/new", &with("team1", "<b>Rooks</b>"));
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
    let page = app.client().get(p.location.as_deref().unwrap());
    assert!(
        page.has("&#60;b&#62;Rooks") && !page.has("<b>Rooks"),
        "{}",
        page.body
    );
    for bad in ["/matches/0", "/matches/x", "/matches/999"] {
        assert_eq!(
            app.client().get(bad).status(),
            StatusCode::NOT_FOUND,
            "{bad}"
        );
    }
    assert_eq!(anon.get("/matches/new").status(), StatusCode::UNAUTHORIZED);
}

/// `missive user grant-admin` makes the first administrator (and
/// `revoke-admin` takes the role away), one line each.
#[test]
fn the_command_line_makes_administrators() {
    use std::process::Command;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cli.db").to_string_lossy().into_owned();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_missive"))
            .args(args)
            .env("DATABASE_URL", &db)
            .env("MISSIVE_PASSWORD", "correct horse battery")
            .env_remove("MISSIVE_CONFIG")
            .output()
            .expect("run missive");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (ok, _, err) = run(&["user", "create", "root", "root@example.org"]);
    assert!(ok, "{err}");
    let (ok, out, err) = run(&["user", "grant-admin", "root"]);
    assert!(ok, "{err}");
    assert_eq!(out.trim_end(), "root is now an administrator");
    let mut conn = missive::db::Manager::new(&db).open().unwrap();
    let root = missive::db::users::find_by_name(&mut conn, "root")
        .unwrap()
        .unwrap();
    assert!(missive::db::administrators::is_admin(&mut conn, root.id).unwrap());
    let (ok, _, err) = run(&["user", "grant-admin", "nobody"]);
    assert!(!ok);
    assert!(
        err.starts_with("error: ") && err.contains("nobody"),
        "{err}"
    );
    let (ok, out, _) = run(&["user", "revoke-admin", "root"]);
    assert!(ok);
    assert_eq!(out.trim_end(), "root is no longer an administrator");
    assert!(!missive::db::administrators::is_admin(&mut conn, root.id).unwrap());
}
