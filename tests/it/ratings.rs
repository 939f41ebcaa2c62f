//! Ratings (issue 39) end to end, on SQLite and PostgreSQL: rated and
//! casual games, the seek range, what pages, PGN and JSON show, games ending
//! at once in two connections, and `missive ratings rebuild` against the
//! stored ratings after a few hundred random rated games.

use crate::common;
use missive::db::games;
use missive::domain::ids::GameId;

use chrono::{NaiveDateTime, TimeDelta};
use common::{Backend, TestApp};
use missive::db::users::User;
use missive::db::DbConn;
use missive::domain::game_state::{EndReason, GameResult};
use rand::{Rng, SeedableRng};
use reqwest::StatusCode;

fn user(conn: &mut DbConn, name: &str) -> User {
    missive::db::users::find_by_name(conn, name)
        .unwrap()
        .unwrap()
}

/// A rated game between `white` and `black` started at `at`; its id.
fn rated_game(conn: &mut DbConn, variant: &str, white: i32, black: i32, at: NaiveDateTime) -> i32 {
    let pairing = missive::game::challenge::Pairing {
        variant_id: variant,
        white_id: white,
        black_id: black,
        time_control: None,
        leave_cap_days: None,
        rated: true,
        weekends_free: false,
    };
    missive::game::challenge::create_paired_game(conn, &pairing, at)
        .unwrap()
        .get()
}

/// End game `id` with `result` at `at`, the one way games end.
fn end(conn: &mut DbConn, id: GameId, result: GameResult, at: NaiveDateTime) {
    let row = games::load(conn, id).unwrap();
    missive::game::finish::finish(conn, &row, result, EndReason::Agreement, None, at).unwrap();
}

/// (games, rating) stored for `user` in `variant`; (0, 0.0) without a row.
fn stored(app: &TestApp, user: i32, variant: &str) -> (i64, f64) {
    let mut conn = app.db();
    let s = missive::db::ratings::standings_of(&mut conn, variant, &[user]).unwrap();
    s.get(&user)
        .map_or((0, 0.0), |s| (i64::from(s.games), s.rating.rating))
}

/// `missive ratings rebuild` on the test's database: (success, stdout, stderr).
fn rebuild_cli(app: &TestApp, dry_run: bool) -> (bool, String, String) {
    let mut args = vec!["ratings", "rebuild"];
    if dry_run {
        args.push("--dry-run");
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_missive"))
        .args(&args)
        .env("DATABASE_URL", &app.database_url)
        .env_remove("MISSIVE_CONFIG")
        .output()
        .expect("run missive");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn a_rated_game_moves_both_ratings_once_and_records_say_so(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let id = alice.new_game(&[
        ("variant", "chess"),
        ("opponent", "bob"),
        ("color", "white"),
        ("rated", "1"),
    ]);
    assert_eq!(
        bob.post(&format!("/games/{id}/accept"), &[]).status,
        StatusCode::SEE_OTHER
    );
    // On: the page says rated and what each result would do.
    let page = alice.get(&format!("/games/{id}"));
    assert!(page.has("Rated game"), "{}", page.body);
    assert!(page.has("rating would change by: win +"), "{}", page.body);
    assert!(page.has("1500?"));
    let j = alice.json(id);
    assert_eq!(j["rated"], true);
    assert_eq!(j["white_rating"]["shown"], "1500?");
    let win_draw_loss = j["white_rating"]["if_win_draw_loss"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(win_draw_loss.len(), 3);
    assert!(win_draw_loss[0].as_i64().unwrap() > 0 && win_draw_loss[2].as_i64().unwrap() < 0);
    // Rated games refuse takebacks.
    alice.play(id, "e4");
    let t = alice.post(&format!("/games/{id}/takeback"), &[("action", "offer")]);
    assert_eq!(t.status, StatusCode::FORBIDDEN);
    assert!(t.has("not allowed in rated games"), "{}", t.body);
    // Both sides have moved: the game's end is rated (issue 60).
    assert_eq!(bob.play(id, "e5").status, StatusCode::SEE_OTHER);

    let r = bob.post(&format!("/games/{id}/resign"), &[("confirm", "1")]);
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let (a, b) = (app.user_id("alice"), app.user_id("bob"));
    let (ag, ar) = stored(&app, a, "chess");
    let (bg, br) = stored(&app, b, "chess");
    assert_eq!((ag, bg), (1, 1));
    assert!(ar > 1500.0 && br < 1500.0, "{ar} {br}");
    // The win's change equals what the page foretold.
    assert_eq!(
        (ar.round() - 1500.0) as i64,
        win_draw_loss[0].as_i64().unwrap()
    );
    assert_eq!(
        app.count(&format!(
            "SELECT COUNT(*) AS n FROM rating_changes WHERE game_id = {id}"
        )),
        2
    );
    // A second resignation changes nothing.
    let again = alice.post(&format!("/games/{id}/resign"), &[("confirm", "1")]);
    assert_ne!(again.status, StatusCode::SEE_OTHER);
    assert_eq!(stored(&app, a, "chess").0, 1);

    let j = alice.json(id);
    let diff = (ar.round() - 1500.0) as i64;
    assert_eq!(j["white_elo"], 1500);
    assert_eq!(j["black_elo"], 1500);
    assert_eq!(j["white_rating_diff"], diff);
    assert_eq!(j["black_rating_diff"], (br.round() - 1500.0) as i64);
    let pgn = alice.get(&format!("/games/{id}.pgn")).body;
    assert!(pgn.contains("[WhiteElo \"1500\"]"), "{pgn}");
    assert!(pgn.contains("[BlackElo \"1500\"]"), "{pgn}");
    assert!(
        pgn.contains(&format!("[WhiteRatingDiff \"+{diff}\"]")),
        "{pgn}"
    );
    assert!(
        pgn.contains(&format!(
            "[BlackRatingDiff \"{}\"]",
            (br.round() - 1500.0) as i64
        )),
        "{pgn}"
    );
    // The finished game's page shows the ratings before it and the change.
    assert!(alice
        .get(&format!("/games/{id}"))
        .has(&format!("1500? (+{diff})")));

    // The profile lists the rating and draws its history; the leaderboard
    // lists both (provisional after one game).
    let profile = bob.get("/users/alice");
    assert_eq!(profile.status, StatusCode::OK);
    assert!(profile.has("id=\"ratings\""), "{}", profile.body);
    assert!(profile.has("<svg class=\"rating-chart\""));
    assert!(profile.has("1 rated game, from 1500"));
    let board = bob.get("/ratings/chess");
    assert_eq!(board.status, StatusCode::OK);
    assert!(board.has("id=\"provisional\"") && board.has("/users/alice"));
    assert!(board.has("No established ratings yet."));
    // The dashboard shows the opponent's rating beside the name.
    assert!(alice.get("/").has(&format!(
        "vs bob</a> <span class=\"rating\">{}?</span>",
        br.round()
    )));
}

fn casual_games_and_custom_positions_move_no_rating(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    // Asked rated from a custom position: the game is made, casual.
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let custom = alice.new_game(&[
        ("variant", "chess"),
        ("opponent", "bob"),
        ("color", "white"),
        ("fen", fen),
        ("rated", "1"),
    ]);
    assert_eq!(alice.json(custom)["rated"], false);
    let p = alice.post(
        "/games/new",
        &[("variant", "chess"), ("opponent", "bob"), ("rated", "yes")],
    );
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(p.has("send 1 for a rated game"), "{}", p.body);
    // Casual (no field, or 0): takebacks allowed, no rating moves.
    let id = alice.new_game(&[
        ("variant", "chess"),
        ("opponent", "bob"),
        ("color", "white"),
    ]);
    bob.post(&format!("/games/{id}/accept"), &[]);
    assert!(alice.get(&format!("/games/{id}")).has("Casual game"));
    alice.play(id, "e4");
    let t = alice.post(&format!("/games/{id}/takeback"), &[("action", "offer")]);
    assert_eq!(t.status, StatusCode::SEE_OTHER, "{}", t.body);
    bob.post(&format!("/games/{id}/resign"), &[("confirm", "1")]);
    let id2 = alice.new_game(&[
        ("opponent", "bob"),
        ("variant", "chess"),
        ("rated", "0"),
        ("fen", fen),
    ]);
    bob.post(&format!("/games/{id2}/accept"), &[]);
    bob.post(&format!("/games/{id2}/resign"), &[("confirm", "1")]);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM rating_changes"), 0);
    assert_eq!(stored(&app, app.user_id("alice"), "chess").0, 0);
    let j = alice.json(id);
    assert_eq!(j["rated"], false);
    assert!(j["white_elo"].is_null() && j["white_rating_diff"].is_null());
    assert!(!alice.get(&format!("/games/{id}.pgn")).has("WhiteElo"));
    // No rated game: the profile says so, and the leaderboard is empty.
    assert!(alice.get("/users/alice").has("No rated games yet."));
    let board = alice.get("/ratings/chess");
    assert!(board.has("No established ratings yet.") && board.has("id=\"no-provisional\""));
    assert_eq!(alice.get("/ratings/nope").status, StatusCode::NOT_FOUND);
}

fn a_seek_with_a_range_is_shown_and_open_only_to_players_inside_it(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    app.user("carol");
    // Alice plays up to 1700-odd by beating carol often.
    let (a, c) = (app.user_id("alice"), app.user_id("carol"));
    let mut conn = app.db();
    let t0 = missive::web::now() - TimeDelta::days(30);
    for i in 0..8 {
        let at = t0 + TimeDelta::days(i);
        let id = rated_game(&mut conn, "chess", a, c, at);
        end(&mut conn, GameId(id), GameResult::WhiteWins, at);
    }
    let alice_rating = stored(&app, a, "chess").1.round() as i64;
    assert!(alice_rating > 1650, "{alice_rating}");
    // A seek for 1600 and up: Alice sees and takes it; Bob (1500?) neither.
    let dan = app.user("dan");
    let p = dan.post(
        "/games/new",
        &[
            ("variant", "chess"),
            ("rated", "1"),
            ("rating_min", "1601"),
            ("rating_max", "2000"),
        ],
    );
    assert_eq!(p.status, StatusCode::SEE_OTHER, "{}", p.body);
    let seek: i32 = p
        .location
        .unwrap()
        .trim_start_matches("/games/")
        .parse()
        .unwrap();
    assert!(!bob.get("/").has(&format!("/games/{seek}\"")));
    assert!(alice.get("/").has("for players rated 1601-2000"));
    let refused = bob.post(&format!("/games/{seek}/accept"), &[]);
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert!(
        refused.has("for players rated 1601-2000; your chess rating is 1500?"),
        "{}",
        refused.body
    );
    assert_eq!(
        alice.post(&format!("/games/{seek}/accept"), &[]).status,
        StatusCode::SEE_OTHER
    );
    // Bad ranges are told, not stored.
    for (lo, hi, says) in [
        ("1800", "1600", "put the lower rating first"),
        ("abc", "", "whole number from 0 to 4000"),
        ("", "99999", "whole number from 0 to 4000"),
    ] {
        let p = dan.post(
            "/games/new",
            &[("variant", "chess"), ("rating_min", lo), ("rating_max", hi)],
        );
        assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(p.has(says), "{lo}-{hi}: {}", p.body);
    }
    let p = dan.post(
        "/games/new",
        &[
            ("variant", "chess"),
            ("opponent", "bob"),
            ("rating_min", "1400"),
        ],
    );
    assert!(p.has("rating range is for open seeks"), "{}", p.body);
}

/// Games ending at the same moment in two connections, one player in both:
/// each moves the ratings once, and none is lost. And two players ending
/// the same game at once: one ends it.
fn games_ending_at_once_move_ratings_once_each(backend: Backend) {
    let app = TestApp::start(backend);
    for n in ["ann", "ben", "cid"] {
        app.user(n);
    }
    let mut conn = app.db();
    let (ann, ben, cid) = (
        user(&mut conn, "ann"),
        user(&mut conn, "ben"),
        user(&mut conn, "cid"),
    );
    let now = missive::web::now();
    const ROUNDS: usize = 12;
    for round in 0..ROUNDS {
        let g1 = rated_game(&mut conn, "chess", ann.id, ben.id, now);
        let g2 = rated_game(&mut conn, "chess", cid.id, ann.id, now);
        let barrier = std::sync::Barrier::new(4);
        let url = app.database_url.clone();
        std::thread::scope(|s| {
            // Ben and Cid resign their games with Ann at once; Ann resigns
            // the first one too, at the same moment.
            let jobs: [(i32, &User); 4] = [(g1, &ben), (g2, &cid), (g1, &ann), (g2, &ann)];
            for (game, who) in jobs {
                let (url, barrier) = (url.clone(), &barrier);
                s.spawn(move || {
                    let mut c = missive::db::Manager::new(&url).open().unwrap();
                    barrier.wait();
                    // Of two resignations of one game, one ends it; the other
                    // is told the game is over (or, on SQLite, may find the
                    // database busy): either way it moves nothing.
                    let _ = missive::game::resign::resign(&mut c, GameId(game), who, now);
                });
            }
        });
        let finished = app.count(&format!(
            "SELECT COUNT(*) AS n FROM games WHERE id IN ({g1}, {g2}) AND status = 'finished'"
        ));
        assert_eq!(finished, 2, "round {round}");
    }
    let games = (2 * ROUNDS) as i64;
    assert_eq!(stored(&app, ann.id, "chess").0, games);
    assert_eq!(
        stored(&app, ben.id, "chess").0 + stored(&app, cid.id, "chess").0,
        games
    );
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM rating_changes"),
        2 * games
    );
    // The stored ratings are those of the games in end order.
    let (ok, out, err) = rebuild_cli(&app, true);
    assert!(ok, "{err}");
    assert!(
        out.contains(&format!("{games} rated games, 3 ratings; 0 differed")),
        "{out}"
    );
}

/// A few hundred random rated games in two variants, ended by either side
/// or drawn, some after weeks without a game (so deviations grew): the
/// rebuild finds the stored ratings, and stores the same. Then the chart
/// and the leaderboard of a player with 300 games.
fn rebuild_equals_the_stored_ratings_after_random_games(backend: Backend) {
    let app = TestApp::start(backend);
    let names: Vec<String> = (0..8).map(|i| format!("player{i}")).collect();
    for n in &names {
        app.user(n);
    }
    let mut conn = app.db();
    let ids: Vec<i32> = names.iter().map(|n| user(&mut conn, n).id).collect();
    let mut rng = rand::rngs::StdRng::seed_from_u64(39);
    const GAMES: usize = 300;
    let mut at = missive::web::now() - TimeDelta::days(170);
    for _ in 0..GAMES {
        // player0 plays every game, in chess; the others meet in chess or Leaperhouse too.
        let opponent = ids[rng.gen_range(1..ids.len())];
        let (white, black) = match rng.gen_bool(0.5) {
            true => (ids[0], opponent),
            false => (opponent, ids[0]),
        };
        let id = rated_game(&mut conn, "chess", white, black, at);
        let result = [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
        ][rng.gen_range(0..3)];
        end(&mut conn, GameId(id), result, at);
        if rng.gen_bool(0.3) {
            let a = ids[rng.gen_range(1..ids.len())];
            let b = ids[rng.gen_range(1..ids.len())];
            if a != b {
                let id = rated_game(&mut conn, "leaperhouse", a, b, at);
                end(
                    &mut conn,
                    GameId(id),
                    [GameResult::WhiteWins, GameResult::Draw][rng.gen_range(0..2)],
                    at,
                );
            }
        }
        // Mostly hours apart, now and then weeks.
        at += match rng.gen_range(0..20) {
            0 => TimeDelta::days(rng.gen_range(7..30)),
            _ => TimeDelta::minutes(rng.gen_range(1..600)),
        };
        at = at.min(missive::web::now());
    }
    let rated =
        app.count("SELECT COUNT(*) AS n FROM games WHERE rated = TRUE AND status = 'finished'");
    assert!(rated >= GAMES as i64, "{rated}");
    let snapshot = |app: &TestApp| {
        let mut conn = app.db();
        let mut all = Vec::new();
        for v in ["chess", "leaperhouse"] {
            let s = missive::db::ratings::standings_of(&mut conn, v, &ids).unwrap();
            let mut s: Vec<_> = s.into_iter().map(|(u, s)| (v, u, s)).collect();
            s.sort_by_key(|x| x.1);
            all.extend(s);
        }
        all
    };
    let before = snapshot(&app);
    assert_eq!(
        before
            .iter()
            .find(|s| s.0 == "chess" && s.1 == ids[0])
            .unwrap()
            .2
            .games,
        GAMES as i32
    );
    let (ok, out, err) = rebuild_cli(&app, false);
    assert!(ok, "{err}");
    assert!(
        out.contains(&format!(
            "{rated} rated games, {} ratings; 0 differed",
            before.len()
        )),
        "{out}"
    );
    assert_eq!(snapshot(&app), before, "the rebuild stores what was stored");
    // The chart of 300 games, and player0 settled on the leaderboard.
    let viewer = app.client();
    let profile = viewer.get("/users/player0");
    assert_eq!(profile.status, StatusCode::OK);
    assert!(
        profile.has("300 rated games, from 1500"),
        "{}",
        profile.body
    );
    let points = profile
        .body
        .split("<polyline class=\"line\" fill=\"none\" points=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .split_whitespace()
        .count();
    assert_eq!(points, GAMES + 1);
    let board = viewer.get("/ratings/chess");
    let established = board.body.split("id=\"established\"").nth(1).unwrap_or("");
    assert!(established.contains("/users/player0"), "{}", board.body);
}

both_backends!(
    a_rated_game_moves_both_ratings_once_and_records_say_so,
    casual_games_and_custom_positions_move_no_rating,
    a_seek_with_a_range_is_shown_and_open_only_to_players_inside_it,
    games_ending_at_once_move_ratings_once_each,
    rebuild_equals_the_stored_ratings_after_random_games,
    a_rated_games_adjudicated_result_is_not_overruled,
    a_farm_of_seeks_resigned_at_once_moves_no_rating,
    rated_games_of_one_pair_count_a_few_a_day,
    rated_open_seeks_are_limited_per_hour,
);

/// Issue 60, finding 5: a rated open seek accepted by a second account and
/// resigned before a move, again and again.
fn a_farm_of_seeks_resigned_at_once_moves_no_rating(backend: Backend) {
    let app = TestApp::start(backend);
    let farmer = app.user("farmer");
    let sock = app.user("sock");
    let seek = [("variant", "chess"), ("color", "white"), ("rated", "1")];
    let mut ids = Vec::new();
    for round in 0..10 {
        let id = farmer.new_game(&seek);
        let a = sock.post(&format!("/games/{id}/accept"), &[]);
        assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.body);
        // The sock resigns at once, or after the farmer's first move.
        if round % 2 == 1 {
            assert_eq!(farmer.play(id, "e4").status, StatusCode::SEE_OTHER);
        }
        let r = sock.post(&format!("/games/{id}/resign"), &[("confirm", "1")]);
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
        ids.push(id);
    }
    let farmer_id = app.user_id("farmer");
    assert_eq!(stored(&app, farmer_id, "chess").0, 0);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM rating_changes"), 0);
    let board = app.client().get("/ratings/chess");
    assert!(!board.has("/users/farmer"), "{}", board.body);
    for id in ids {
        let page = farmer.get(&format!("/games/{id}"));
        assert!(
            page.has("Aborted: the game ended before both sides had moved"),
            "{}",
            page.body
        );
        assert_eq!(farmer.json(id)["rated"], false);
    }
}

/// Rated games between the same two players count a few a day; past that
/// a game is played unrated, and says so as it starts.
fn rated_games_of_one_pair_count_a_few_a_day(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let carol = app.user("carol");
    let per_day = missive::domain::game_state::RATED_GAMES_PER_PAIR_DAY;
    let rated = |opponent: &'static str| {
        [
            ("variant", "chess"),
            ("opponent", opponent),
            ("color", "white"),
            ("rated", "1"),
        ]
    };
    // Made while the pair had played no rated game: rated, so far.
    let early = alice.new_game(&rated("bob"));
    assert_eq!(alice.json(early)["rated"], true);
    for _ in 0..per_day {
        let id = alice.new_game(&rated("bob"));
        bob.post(&format!("/games/{id}/accept"), &[]);
        assert_eq!(alice.json(id)["rated"], true);
    }
    // A challenge made now says at once that it will be unrated.
    let over = alice.new_game(&rated("bob"));
    assert_eq!(alice.json(over)["rated"], false);
    let page = alice.get(&format!("/games/{over}"));
    assert!(
        page.has("Played unrated: these two players"),
        "{}",
        page.body
    );
    // The one made earlier and accepted now starts unrated too.
    bob.post(&format!("/games/{early}/accept"), &[]);
    assert_eq!(alice.json(early)["rated"], false);
    assert!(alice.get(&format!("/games/{early}")).has("Played unrated"));
    // So does an open seek accepted by the same opponent.
    let seek = bob.new_game(&[("variant", "chess"), ("color", "white"), ("rated", "1")]);
    alice.post(&format!("/games/{seek}/accept"), &[]);
    assert_eq!(bob.json(seek)["rated"], false);
    // Another opponent is not held back.
    let other = alice.new_game(&rated("carol"));
    carol.post(&format!("/games/{other}/accept"), &[]);
    assert_eq!(alice.json(other)["rated"], true);
    // A day later the pair may play rated again.
    let a_day_earlier = match backend {
        Backend::Sqlite => "UPDATE games SET accepted_at = datetime(accepted_at, '-25 hours')",
        Backend::Postgres => "UPDATE games SET accepted_at = accepted_at - INTERVAL '25 hours'",
    };
    diesel::RunQueryDsl::execute(diesel::sql_query(a_day_earlier), &mut app.db()).unwrap();
    let next = alice.new_game(&rated("bob"));
    bob.post(&format!("/games/{next}/accept"), &[]);
    assert_eq!(alice.json(next)["rated"], true);
}

fn rated_open_seeks_are_limited_per_hour(backend: Backend) {
    let app = TestApp::start_with(backend, |c| c.seek_limit_hour = 3);
    let alice = app.user("alice");
    let seek = |rated: &'static str| [("variant", "chess"), ("color", "white"), ("rated", rated)];
    for _ in 0..3 {
        alice.new_game(&seek("1"));
    }
    let p = alice.post("/games/new", &seek("1"));
    assert_eq!(p.status, StatusCode::TOO_MANY_REQUESTS, "{}", p.body);
    assert!(p.has("rated open seeks in the last hour"), "{}", p.body);
    // Casual seeks are not counted.
    alice.new_game(&seek("0"));
    app.config.clock.advance(3600);
    alice.new_game(&seek("1"));
}

/// A director ends a rated tournament game by adjudication (ratings move);
/// overruling that result afterwards is refused, so ratings, records and
/// the rebuild keep agreeing.
fn a_rated_games_adjudicated_result_is_not_overruled(backend: Backend) {
    use diesel::RunQueryDsl;
    use missive::tournaments::adjudication::adjudicate;
    let app = TestApp::start(backend);
    for name in ["dora", "ann", "ben"] {
        app.user(name);
    }
    let g = common::tournament_game(&app, "dora", &["ann", "ben"]);
    let conn = &mut app.db();
    // The helper's tournament is casual; this game is made rated.
    diesel::sql_query(format!("UPDATE games SET rated = TRUE WHERE id = {}", g.id))
        .execute(conn)
        .unwrap();
    let dora = missive::db::users::find_by_name(conn, "dora")
        .unwrap()
        .unwrap();
    let now = missive::web::now();
    adjudicate(conn, g.id, &dora, "1-0", "White's position wins", now).unwrap();
    let changes = "SELECT COUNT(*) AS n FROM rating_changes";
    assert_eq!(app.count(changes), 2);
    let again = adjudicate(conn, g.id, &dora, "0-1", "second thoughts", now);
    assert!(
        matches!(&again, Err(missive::domain::error::Error::Invalid(m)) if m.contains("ratings have moved")),
        "{again:?}"
    );
    let row = games::load(conn, g.id).unwrap();
    assert_eq!(row.result, Some(GameResult::WhiteWins));
    assert_eq!(app.count(changes), 2);
}
