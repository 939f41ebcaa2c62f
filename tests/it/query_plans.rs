//! Every statement the main pages run has a plan that does not scan a
//! large table: on a populated database (`missive dev populate`'s rows,
//! made in-process), the pages are asked for over HTTP with the statement
//! trace on (`missive::db::trace`), and each statement they ran is
//! explained: SQLite's `EXPLAIN QUERY PLAN`, PostgreSQL's `EXPLAIN` of its
//! generic plan (prepared, after `ANALYZE`; the planner's cost model
//! untouched). A scan of a small table (settings, tournaments) is fine; one
//! of games, moves, players or the other tables that grow with play is
//! not, unless that table holds under [`TINY`] rows in the test's database
//! (the population leaves some empty or nearly: sessions, mail settings,
//! game events), where a scan is the planner's right choice.
//!
//! Nor may a statement read a whole class of a large table: an index
//! searched only by a column with a handful of values (a variant, a
//! status) reads every chess game, every finished game, every chess
//! rating; fine only when the index is walked in the statement's order and
//! a LIMIT stops it. The archive by variant in its default order sorted
//! every game of the variant this way (1.1 s at a million games) and the
//! leaderboard read every active rating of the variant (218 ms), though
//! neither scanned.

use crate::common;
use missive::domain::ids::GameId;

use common::{Backend, TestApp, TestClient};
use diesel::prelude::*;
use missive::populate::{self, Options};
use reqwest::StatusCode;
use std::collections::BTreeSet;

/// Tables that grow with players and play.
const LARGE: &[&str] = &[
    "games",
    "moves",
    "users",
    "game_histories",
    "rating_changes",
    "ratings",
    "email_outbox",
    "push_outbox",
    "tournament_players",
    "tournament_byes",
    "conditional_lines",
    "game_notes",
    "game_events",
    "verified_emails",
    "sessions",
    "mail_prefs",
    "login_attempts",
];

/// Rows under which a table is read whole by choice.
const TINY: i64 = 1_000;

#[derive(QueryableByName)]
struct Id {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    id: i32,
}

#[derive(QueryableByName)]
struct Name {
    #[diesel(sql_type = diesel::sql_types::Text)]
    name: String,
}

fn first_id(app: &TestApp, sql: &str) -> i32 {
    diesel::sql_query(sql)
        .get_result::<Id>(&mut app.db())
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
        .id
}

/// The games and players the pages are asked about, looked up before the
/// statement trace starts (these look-ups are the test's, not a page's).
struct Targets {
    running: i32,
    finished: i32,
    swiss: i32,
    other: String,
}

fn targets(app: &TestApp) -> Targets {
    let running = first_id(
        app,
        "SELECT MIN(id) AS id FROM games WHERE status = 'active' AND tournament_id IS NULL \
         AND variant = 'chess' AND ((white_id = 1 AND turn = 'white') OR (black_id = 1 AND turn = 'black'))",
    );
    let finished = first_id(
        app,
        "SELECT MIN(id) AS id FROM games WHERE status = 'finished' AND ply >= 20",
    );
    let swiss = first_id(
        app,
        "SELECT id FROM tournaments ORDER BY entrants DESC, id LIMIT 1",
    );
    let other: String = diesel::sql_query("SELECT username AS name FROM users WHERE id = 7")
        .get_result::<Name>(&mut app.db())
        .unwrap()
        .name;
    Targets {
        running,
        finished,
        swiss,
        other,
    }
}

/// What a player's day asks for, as the load benchmark asks it.
fn visit_pages(me: &TestClient, t: &Targets) {
    let Targets {
        running,
        finished,
        swiss,
        other,
    } = t;
    let running = *running;
    let pages = [
        "/".to_string(),
        format!("/games/{running}"),
        format!("/games/{finished}?ply=12"),
        format!("/games/{finished}.pgn"),
        format!("/games/{finished}/moves"),
        format!("/users/{other}/games.pgn"),
        "/games?player=player1&status=finished".to_string(),
        "/games?variant=chess&sort=ended".to_string(),
        "/games?variant=chess&status=finished".to_string(),
        format!("/games?player={other}&page=2"),
        format!("/tournaments/{swiss}"),
        "/tournaments".to_string(),
        "/ratings".to_string(),
        "/ratings/chess".to_string(),
        "/users/player1".to_string(),
        format!("/users/{other}"),
    ];
    for page in &pages {
        let p = me.get(page);
        assert_eq!(p.status, StatusCode::OK, "{page}: {}", p.body);
    }
    // A move: the first legal one of the position.
    let fen = me.json(GameId(running))["fen"]
        .as_str()
        .unwrap()
        .to_string();
    let game =
        missive_rules::Game::new(missive_rules::variant("chess").unwrap(), Some(&fen)).unwrap();
    let mv = game.format(&game.legal_moves()[0], missive_rules::Notation::Coordinate);
    let p = me.play(GameId(running), &mv);
    assert_eq!(p.status, StatusCode::SEE_OTHER, "move {mv}: {}", p.body);
    assert_eq!(me.get(&format!("/games/{running}")).status, StatusCode::OK);
}

/// Statements worth a plan: reads and writes of tables, not transaction
/// control, settings or `SELECT 1`.
fn explainable(sql: &str) -> bool {
    let head = sql.trim_start().to_ascii_uppercase();
    if head.starts_with("UPDATE") || head.starts_with("DELETE") {
        return true;
    }
    ["SELECT", "INSERT", "WITH"]
        .iter()
        .any(|k| head.starts_with(k))
        && head.contains(" FROM ")
}

fn sqlite_plan(conn: &mut missive::db::DbConn, sql: &str) -> Vec<String> {
    #[derive(QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::Text)]
        detail: String,
    }
    diesel::sql_query(format!("EXPLAIN QUERY PLAN {sql}"))
        .load::<Row>(conn)
        .unwrap_or_else(|e| panic!("EXPLAIN QUERY PLAN {sql}: {e}"))
        .into_iter()
        .map(|r| r.detail)
        .collect()
}

/// A scan of a large table in an SQLite plan. `SCAN t USING INDEX i` reads
/// the index in order and stops at the statement's LIMIT when no sort
/// follows: fine for a statement with LIMIT.
/// Whether an SQLite plan walks its index in the statement's order and a
/// LIMIT stops it (no sort after the walk).
fn sqlite_limited(sql: &str, plan: &[String]) -> bool {
    sql.to_ascii_uppercase().contains(" LIMIT ")
        && !plan.iter().any(|l| l.contains("TEMP B-TREE FOR ORDER BY"))
}

fn sqlite_scans(sql: &str, plan: &[String], large: &[&str]) -> Vec<String> {
    let limited = sqlite_limited(sql, plan);
    plan.iter()
        .filter(|line| {
            let Some(rest) = line.strip_prefix("SCAN ") else {
                return false;
            };
            let table = rest.split_whitespace().next().unwrap_or("");
            let in_order =
                rest.contains(" USING INDEX ") || rest.contains(" USING COVERING INDEX ");
            large.contains(&table) && !(in_order && limited)
        })
        .cloned()
        .collect()
}

/// Columns with a handful of values: an index searched by these alone
/// picks out a whole class of rows.
const COARSE: &[&str] = &["variant", "status", "result"];

/// Whether every equality in an index condition is on a [`COARSE`] column
/// (ranges after them do not narrow a class by much either).
fn coarse(condition: &str) -> bool {
    let parts: Vec<String> = condition
        .split(" AND ")
        .map(|p| {
            p.trim_matches(|c: char| c == '(' || c == ')' || c.is_whitespace())
                .to_string()
        })
        .collect();
    let column = |p: &str| -> String {
        p.split(['=', '<', '>', ' '])
            .next()
            .unwrap_or("")
            .trim_matches(|c: char| c == '(' || c == ')')
            .rsplit('.')
            .next()
            .unwrap_or("")
            .to_string()
    };
    let equalities: Vec<String> = parts
        .iter()
        .filter(|p| p.contains('=') && !p.contains("<=") && !p.contains(">="))
        .map(|p| column(p))
        .collect();
    !equalities.is_empty() && equalities.iter().all(|c| COARSE.contains(&c.as_str()))
}

/// Reads of a whole class of a large table in an SQLite plan: a search by
/// coarse columns only, unless walked in order and stopped by a LIMIT.
fn sqlite_classes(sql: &str, plan: &[String], large: &[&str]) -> Vec<String> {
    let limited = sqlite_limited(sql, plan);
    plan.iter()
        .filter(|line| {
            let Some(rest) = line.strip_prefix("SEARCH ") else {
                return false;
            };
            let table = rest.split_whitespace().next().unwrap_or("");
            let condition = rest
                .split_once(" (")
                .map(|(_, c)| c.trim_end_matches(')'))
                .unwrap_or("");
            large.contains(&table) && coarse(condition) && !limited
        })
        .cloned()
        .collect()
}

/// The same in a PostgreSQL plan: an index condition on coarse columns
/// only, under a sort or with no LIMIT above it.
fn postgres_classes(sql: &str, plan: &[String], large: &[&str]) -> Vec<String> {
    let limited = sql.to_ascii_uppercase().contains(" LIMIT ")
        && !plan
            .iter()
            .any(|l| l.contains("Sort  (") && !l.contains("Incremental Sort"));
    if limited {
        return Vec::new();
    }
    let mut table = "";
    let mut found = Vec::new();
    for line in plan {
        if let Some(rest) = line.split(" on ").nth(1) {
            if line.contains("Index Scan") || line.contains("Bitmap Heap Scan") {
                table = rest.split_whitespace().next().unwrap_or("");
            }
        }
        let condition = line
            .split("Index Cond: ")
            .nth(1)
            .or_else(|| line.split("Recheck Cond: ").nth(1));
        if let Some(condition) = condition {
            let condition = condition.replace("::text", "");
            if large.contains(&table) && coarse(&condition) {
                found.push(line.clone());
            }
        }
    }
    found
}

fn postgres_plan(conn: &mut missive::db::DbConn, sql: &str) -> Vec<String> {
    #[derive(QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::Text)]
        #[diesel(column_name = "QUERY PLAN")]
        line: String,
    }
    let params = (1..=200)
        .take_while(|n| sql.contains(&format!("${n}")))
        .count();
    let args = vec!["NULL"; params].join(", ");
    let _ = diesel::sql_query("DEALLOCATE ALL").execute(conn);
    diesel::sql_query(format!("PREPARE plan_of AS {sql}"))
        .execute(conn)
        .unwrap_or_else(|e| panic!("PREPARE {sql}: {e}"));
    let explain = if params > 0 {
        format!("EXPLAIN EXECUTE plan_of({args})")
    } else {
        "EXPLAIN EXECUTE plan_of".to_string()
    };
    let plan = diesel::sql_query(explain)
        .load::<Row>(conn)
        .unwrap_or_else(|e| panic!("EXPLAIN {sql}: {e}"))
        .into_iter()
        .map(|r| r.line)
        .collect();
    diesel::sql_query("DEALLOCATE plan_of")
        .execute(conn)
        .unwrap();
    plan
}

/// Sequential scans of large tables in a PostgreSQL plan.
fn postgres_scans(plan: &[String], large: &[&str]) -> Vec<String> {
    plan.iter()
        .filter(|line| {
            line.split("Seq Scan on ")
                .nth(1)
                .and_then(|rest| rest.split_whitespace().next())
                .is_some_and(|table| large.contains(&table))
        })
        .cloned()
        .collect()
}

fn page_statements_use_indexes(backend: Backend) {
    let app = TestApp::start(backend);
    let report = populate::run(
        &mut app.db(),
        &Options {
            players: 40_000,
            games: 20_000,
            tournaments: 20,
            seed: 11,
            pool: 20,
        },
    )
    .unwrap();
    assert!(report.moves > 20_000 * 20, "{report:?}");
    let me = app.client();
    assert_eq!(
        me.login("player1", populate::PASSWORD).status(),
        StatusCode::SEE_OTHER
    );
    let t = targets(&app);
    missive::db::trace::start();
    visit_pages(&me, &t);
    missive::db::trace::stop();
    let wanted = match backend {
        Backend::Sqlite => missive::db::Backend::Sqlite,
        Backend::Postgres => missive::db::Backend::Postgres,
    };
    let statements: BTreeSet<String> = missive::db::trace::take()
        .into_iter()
        .filter(|(b, sql)| *b == wanted && explainable(sql))
        .map(|(_, sql)| sql)
        .collect();
    assert!(statements.len() > 10, "{statements:#?}");
    let mut conn = app.db();
    if backend == Backend::Postgres {
        diesel::sql_query("SET plan_cache_mode = force_generic_plan")
            .execute(&mut conn)
            .unwrap();
    }
    // The tables that grow with play and are not tiny here.
    let large: Vec<&str> = LARGE
        .iter()
        .copied()
        .filter(|t| app.count(&format!("SELECT COUNT(*) AS n FROM {t}")) >= TINY)
        .collect();
    assert!(large.contains(&"moves") && large.contains(&"games"));
    let mut failures = Vec::new();
    for sql in &statements {
        let (plan, scans) = match backend {
            Backend::Sqlite => {
                let plan = sqlite_plan(&mut conn, sql);
                let mut scans = sqlite_scans(sql, &plan, &large);
                scans.extend(sqlite_classes(sql, &plan, &large));
                (plan, scans)
            }
            Backend::Postgres => {
                let plan = postgres_plan(&mut conn, sql);
                let mut scans = postgres_scans(&plan, &large);
                scans.extend(postgres_classes(sql, &plan, &large));
                (plan, scans)
            }
        };
        if !scans.is_empty() {
            failures.push(format!("{sql}\n  {}", plan.join("\n  ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} statements scan a large table or read a whole class of one:\n\n{}",
        failures.len(),
        statements.len(),
        failures.join("\n\n")
    );
}

both_backends!(page_statements_use_indexes);
