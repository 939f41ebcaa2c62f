//! `missive dev populate`'s rows are the server's own: its pages, records,
//! standings and ratings read them as they read what play stored.

use crate::common;
use missive::domain::ids::GameId;

use common::{Backend, TestApp};
use diesel::prelude::*;
use missive::populate::{self, Options};
use reqwest::StatusCode;

fn small() -> Options {
    Options {
        players: 60,
        games: 1_500,
        tournaments: 6,
        seed: 3,
        pool: 12,
    }
}

#[derive(QueryableByName)]
struct Id {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    id: i32,
}

fn ids(app: &TestApp, sql: &str) -> Vec<i32> {
    diesel::sql_query(sql)
        .load::<Id>(&mut app.db())
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect()
}

fn populated_rows_load_on_every_page(backend: Backend) {
    let app = TestApp::start(backend);
    let report = populate::run(&mut app.db(), &small()).unwrap();
    assert_eq!(report.players, 60);
    assert_eq!(report.games, 1_500);
    assert!(report.running > 50 && report.running < 300, "{report:?}");
    assert!(report.tournaments >= 1, "{report:?}");
    assert!(report.moves > 1_500 * 20, "{report:?}");
    assert!(report.bytes > 0);
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM games"),
        report.games as i64
    );
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM moves"),
        report.moves as i64
    );
    // Every game's ply is its last move's.
    assert_eq!(
        app.count(
            "SELECT COUNT(*) AS n FROM games g WHERE g.ply <> \
             (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id)"
        ),
        0
    );
    // The ratings are the ones the games' ends would have made.
    let rebuilt = missive::ratings::rebuild::rebuild(&mut app.db(), true).unwrap();
    assert_eq!(rebuilt.games, report.rated);
    assert_eq!(rebuilt.differing, 0, "{rebuilt:?}");

    let me = app.client();
    assert_eq!(
        me.login("player1", populate::PASSWORD).status(),
        StatusCode::SEE_OTHER
    );
    let dashboard = me.get("/");
    assert_eq!(dashboard.status, StatusCode::OK);
    let running = ids(
        &app,
        "SELECT id FROM games WHERE status = 'active' AND (white_id = 1 OR black_id = 1) ORDER BY id",
    );
    assert!(!running.is_empty());
    assert!(dashboard.has(&format!("/games/{}", running[0])));
    // Every kind of page, on running and finished games of every variant
    // and on every tournament.
    let mut pages = vec![
        "/games?player=player1".to_string(),
        "/games?variant=chess&status=finished&page=2".to_string(),
        "/ratings".to_string(),
        "/ratings/chess".to_string(),
        "/users/player1".to_string(),
        "/users/player2/games.pgn".to_string(),
        "/tournaments".to_string(),
    ];
    let sample = ids(
        &app,
        "SELECT MIN(id) AS id FROM games GROUP BY variant, status, tournament_id IS NULL",
    );
    for id in sample.iter().chain(running.iter().take(3)) {
        pages.push(format!("/games/{id}"));
        pages.push(format!("/games/{id}?ply=1"));
        pages.push(format!("/games/{id}.pgn"));
        pages.push(format!("/games/{id}.json"));
    }
    for t in ids(&app, "SELECT id FROM tournaments ORDER BY id") {
        pages.push(format!("/tournaments/{t}"));
    }
    for page in &pages {
        let p = me.get(page);
        assert_eq!(p.status, StatusCode::OK, "{page}: {}", p.body);
    }
    // A finished game's record has its moves.
    let pgn = me.get(&format!("/games/{}.pgn", sample[0]));
    assert!(pgn.has("1. "), "{}", pgn.body);
    // A running game goes on: the player to move moves.
    let to_move = ids(
        &app,
        "SELECT id FROM games WHERE status = 'active' AND tournament_id IS NULL AND variant = 'chess' \
         AND ((white_id = 1 AND turn = 'white') OR (black_id = 1 AND turn = 'black')) ORDER BY id",
    );
    let mut moved = false;
    for id in to_move.iter().take(5) {
        let fen = me.json(GameId(*id))["fen"].as_str().unwrap().to_string();
        let chess = missive_rules::variant("chess").unwrap();
        let game = missive_rules::Game::new(chess, Some(&fen)).unwrap();
        let Some(mv) = game.legal_moves().first() else {
            continue;
        };
        let text = game.format(mv, missive_rules::Notation::Coordinate);
        let p = me.play(GameId(*id), &text);
        assert_eq!(p.status, StatusCode::SEE_OTHER, "{id} {text}: {}", p.body);
        moved = true;
        break;
    }
    assert!(
        moved,
        "no running chess game of player1's with a legal move listed"
    );
}

#[derive(QueryableByName)]
struct RatingRow {
    #[diesel(sql_type = diesel::sql_types::Text)]
    username: String,
    #[diesel(sql_type = diesel::sql_types::Double)]
    rating: f64,
    #[diesel(sql_type = diesel::sql_types::Double)]
    deviation: f64,
    #[diesel(sql_type = diesel::sql_types::Double)]
    volatility: f64,
    #[diesel(sql_type = diesel::sql_types::Integer)]
    games: i32,
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Timestamp>)]
    last_played_at: Option<chrono::NaiveDateTime>,
}

/// The leaderboard walks the rating index a batch at a time and stops
/// once a list is settled; whatever the batch, it lists what every chess
/// rating, read whole and sorted here, gives: ties (broken by name) and
/// rested players whose deviation grew past the line included.
fn the_leaderboard_walk_lists_what_reading_everything_lists(backend: Backend) {
    use missive::domain::rating::{Rating, Standing};
    let app = TestApp::start(backend);
    populate::run(&mut app.db(), &small()).unwrap();
    // Ties: a third of the chess ratings made equal.
    diesel::sql_query(
        "UPDATE ratings SET rating = 1612.5 WHERE variant = 'chess' AND user_id % 3 = 0",
    )
    .execute(&mut app.db())
    .unwrap();
    // Low stored deviations: established if played lately, provisional
    // again where the rest since has grown them past the line.
    diesel::sql_query(
        "UPDATE ratings SET deviation = 60 WHERE variant = 'chess' AND user_id % 5 = 0",
    )
    .execute(&mut app.db())
    .unwrap();
    let now = missive::util::now();
    let since = now - chrono::TimeDelta::days(missive::db::ratings::ACTIVE_DAYS);
    let mut all: Vec<(String, Rating)> = diesel::sql_query(
        "SELECT u.username, r.rating, r.deviation, r.volatility, r.games, r.last_played_at \
         FROM ratings r JOIN users u ON u.id = r.user_id \
         WHERE r.variant = 'chess' AND r.games > 0 AND u.deleted_at IS NULL",
    )
    .load::<RatingRow>(&mut app.db())
    .unwrap()
    .into_iter()
    .filter(|r| r.last_played_at.is_some_and(|t| t >= since))
    .map(|r| {
        let standing = Standing {
            rating: Rating {
                rating: r.rating,
                deviation: r.deviation,
                volatility: r.volatility,
            },
            games: r.games,
            last_played_at: r.last_played_at,
            seq: 0,
        };
        (r.username, standing.at(now))
    })
    .collect();
    all.sort_by(|a, b| {
        b.1.rating
            .total_cmp(&a.1.rating)
            .then_with(|| a.0.cmp(&b.0))
    });
    let (provisional, established): (Vec<_>, Vec<_>) =
        all.into_iter().partition(|(_, r)| r.provisional());
    assert!(
        established.len() >= 5 && provisional.len() >= 5,
        "{established:?} {provisional:?}"
    );
    let names = |v: &[(String, Rating)], n: usize| -> Vec<String> {
        v.iter().take(n).map(|(name, _)| name.clone()).collect()
    };
    let mut conn = app.db();
    for limit in [1, 2, 5, 12, 1_000] {
        for batch in [1, 2, 3, 7, 40, 100_000] {
            let (e, p) =
                missive::db::ratings::leaderboard_in_batches(&mut conn, "chess", now, limit, batch)
                    .unwrap();
            let got = |v: Vec<missive::db::ratings::Leader>| {
                v.into_iter().map(|l| l.username).collect::<Vec<_>>()
            };
            assert_eq!(
                got(e),
                names(&established, limit),
                "established, limit {limit}, batch {batch}"
            );
            assert_eq!(
                got(p),
                names(&provisional, limit),
                "provisional, limit {limit}, batch {batch}"
            );
        }
    }
}

both_backends!(
    populated_rows_load_on_every_page,
    the_leaderboard_walk_lists_what_reading_everything_lists
);
