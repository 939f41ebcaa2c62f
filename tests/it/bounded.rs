//! Issue 37, items 1, 2 and 7: bounded work for records and exports, and
//! record values an outside PGN reader reads back as written, over HTTP on
//! both backends.

use crate::common;
use missive::domain::ids::GameId;

use common::{Backend, TestApp, TestClient};
use diesel::prelude::*;
use missive_rules::record;
use reqwest::StatusCode;

both_backends!(
    records_past_the_ply_cap_are_refused,
    finished_games_records_are_kept_and_running_ones_follow,
    hostile_record_values_read_back_with_python_chess,
);

fn member(app: &TestApp, name: &str, director: bool) -> TestClient {
    app.member(name, director)
}

fn execute(app: &TestApp, sql: &str) {
    let mut conn = app.db();
    diesel::sql_query(sql).execute(&mut conn).expect(sql);
}

/// A record one ply past the cap is refused for what it is, before any move
/// is tried, by the check form and by import; at the cap it is read.
fn records_past_the_ply_cap_are_refused(backend: Backend) {
    let app = TestApp::start(backend);
    let director = member(&app, "director", true);
    member(&app, "ann", false);
    member(&app, "ben", false);
    let max = record::MAX_PLIES;
    // `a3` over and over: the second is already illegal, so only the cap
    // can be the first thing said about the long one.
    let long = "a3 ".repeat(max + 1) + "*";
    let p = app
        .client()
        .post("/records/check", &[("record", long.as_str())]);
    assert_eq!(p.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let said = format!("has {} plies; at most {max} are checked", max + 1);
    assert!(p.has(&said), "{}", &p.body[..p.body.len().min(3000)]);
    let p = director.post(
        "/records/import",
        &[
            ("record", long.as_str()),
            ("white", "ann"),
            ("black", "ben"),
        ],
    );
    assert_eq!(p.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(p.has(&said), "{}", &p.body[..p.body.len().min(3000)]);
    // At the cap the moves themselves are read: the second `a3` is illegal.
    let at_cap = "a3 ".repeat(max) + "*";
    let p = app
        .client()
        .post("/records/check", &[("record", at_cap.as_str())]);
    assert_eq!(p.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        p.has("data-ply=\"2\""),
        "{}",
        &p.body[..p.body.len().min(3000)]
    );
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM games"), 0);
}

/// A finished game's records are kept: changing its stored moves behind the
/// server's back does not change them (a finished game's moves never change,
/// so nothing real can make a kept record stale). A running game's records
/// follow its moves, and a finished game's follow a change to its row.
fn finished_games_records_are_kept_and_running_ones_follow(backend: Backend) {
    let (app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    let pgn = |c: &TestClient| c.get(&format!("/games/{id}.pgn")).body;
    let log = |c: &TestClient| c.get(&format!("/games/{id}.txt")).body;
    let mine = |c: &TestClient| c.get("/users/alice/games.pgn").body;
    assert_eq!(alice.play(id, "f3").status(), StatusCode::SEE_OTHER);
    let running = pgn(&alice);
    assert!(
        running.contains("1. f3 {") && running.ends_with("*\n\n"),
        "{running}"
    );
    assert_eq!(bob.play(id, "e5").status(), StatusCode::SEE_OTHER);
    assert!(
        pgn(&alice).contains(" e5 {"),
        "a running game's record follows"
    );
    assert!(log(&alice).contains("p e7-e5"));
    for (who, mv) in [(&alice, "g4"), (&bob, "Qh4#")] {
        assert_eq!(who.play(id, mv).status(), StatusCode::SEE_OTHER);
    }
    let (finished, finished_log, all) = (pgn(&alice), log(&bob), mine(&bob));
    assert!(
        finished.contains("Qh4#") && finished.contains("0-1"),
        "{finished}"
    );
    assert!(finished_log.contains("q d8-h4"), "{finished_log}");
    execute(
        &app,
        &format!("UPDATE moves SET comment = 'edited behind the back' WHERE game_id = {id}"),
    );
    assert_eq!(pgn(&bob), finished, "kept");
    assert_eq!(log(&alice), finished_log, "kept");
    assert_eq!(mine(&alice), all, "kept");
    assert!(!all.contains("edited"));
    // A director's later change to the finished game's row (a replacement)
    // is a different record.
    execute(
        &app,
        &format!("UPDATE games SET reason = 'replaced' WHERE id = {id}"),
    );
    let changed = pgn(&alice);
    assert!(changed.contains("[Termination \"replaced"), "{changed}");
    assert!(changed.contains("edited behind the back"), "{changed}");
}

/// What an outside reader (python-chess, from PyPI) makes of a PGN file:
/// per game, its tags and its number of plies.
fn python_chess_reads(pgn: &str) -> Vec<(serde_json::Map<String, serde_json::Value>, u64)> {
    let script = r#"
import io, json, sys
import chess.pgn
games = []
text = io.StringIO(sys.stdin.read(), newline=None)
while True:
    game = chess.pgn.read_game(text)
    if game is None:
        break
    plies = len(list(game.mainline_moves()))
    games.append({"headers": dict(game.headers), "plies": plies})
print(json.dumps(games))
"#;
    let games: Vec<serde_json::Value> = serde_json::from_value(common::python_json(
        script,
        pgn,
        "python-chess (pip install chess==1.11.2; .ci/run does)",
    ))
    .unwrap();
    games
        .into_iter()
        .map(|g| {
            (
                g["headers"].as_object().unwrap().clone(),
                g["plies"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// PGN's two escapes undone (python-chess hands a tag value back as it
/// stands between the quotes).
fn unescape_tag(v: &str) -> String {
    let mut out = String::new();
    let mut chars = v.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            c => out.push(c),
        }
    }
    out
}

/// Tournament names with quotes, backslashes, CR and LF: the tournament's
/// PGN file is read by python-chess as the same number of games, with the
/// same tags as Missive's own reader and the names on one line (a line
/// break is a space: PGN has no escape for it). Move comments carry the
/// same characters.
fn hostile_record_values_read_back_with_python_chess(backend: Backend) {
    let app = TestApp::start(backend);
    let director = member(&app, "director", true);
    let players = [member(&app, "ann", false), member(&app, "ben", false)];
    let names = [
        "Club \"RR\" \\ final",
        "Spring\r\n[Event \"fake\"]\r\nOpen",
        "Line\nbreak\rand \\\" both",
    ];
    for name in names {
        let closes = (missive::web::now() + chrono::Duration::days(3))
            .format("%Y-%m-%d")
            .to_string();
        let p = director.post(
            "/tournaments/new",
            &[
                ("name", name),
                ("variant", "chess"),
                ("time_control", "7d/move"),
                ("format", "double-round-robin"),
                ("rounds", ""),
                ("entry_opens", ""),
                ("entry_closes", &closes),
                ("max_players", "8"),
                ("leave_days", "20"),
                ("forfeit_limit", "3"),
            ],
        );
        assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
        let url = p.location.unwrap();
        for c in &players {
            assert_eq!(
                c.post(&format!("{url}/join"), &[]).status(),
                StatusCode::SEE_OTHER
            );
        }
        assert_eq!(
            director.post(&format!("{url}/start"), &[]).status(),
            StatusCode::SEE_OTHER
        );
        // A move with a hostile comment in each game of the first round.
        let tid: i32 = url.trim_start_matches("/tournaments/").parse().unwrap();
        let (first, white): (i32, String) = {
            #[derive(QueryableByName)]
            struct G {
                #[diesel(sql_type = diesel::sql_types::Integer)]
                id: i32,
                #[diesel(sql_type = diesel::sql_types::Text)]
                username: String,
            }
            let mut conn = app.db();
            let g = diesel::sql_query(format!(
                "SELECT g.id AS id, u.username AS username FROM games g \
                 JOIN users u ON u.id = g.white_id \
                 WHERE g.tournament_id = {tid} ORDER BY g.id LIMIT 1"
            ))
            .get_result::<G>(&mut conn)
            .unwrap();
            (g.id, g.username)
        };
        let mover = if white == "ann" {
            &players[0]
        } else {
            &players[1]
        };
        let p = mover.play(GameId(first), "e4 // a \"q\" \\ {b}\r\nc");
        assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
        let file = director.get(&format!("{url}/games.pgn")).body;
        let ours = record::parse_pgn(&file).unwrap();
        let theirs = python_chess_reads(&file);
        let started = app.count(&format!(
            "SELECT COUNT(*) AS n FROM games WHERE tournament_id = {tid}"
        ));
        assert_eq!(theirs.len() as i64, started, "{file}");
        assert_eq!(ours.len(), theirs.len(), "{file}");
        let stored: String = {
            #[derive(QueryableByName)]
            struct N {
                #[diesel(sql_type = diesel::sql_types::Text)]
                name: String,
            }
            let mut conn = app.db();
            diesel::sql_query(format!("SELECT name FROM tournaments WHERE id = {tid}"))
                .get_result::<N>(&mut conn)
                .unwrap()
                .name
        };
        let one_line: String = stored
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        for (rec, (tags, plies)) in ours.iter().zip(&theirs) {
            assert_eq!(rec.moves.len() as u64, *plies, "{file}");
            assert_eq!(rec.tag("Event"), Some(one_line.as_str()), "{file}");
            for (k, v) in tags {
                let v = unescape_tag(v.as_str().unwrap());
                assert_eq!(rec.tag(k), Some(v.as_str()), "{k} in {file}");
            }
            assert_eq!(tags.len(), rec.tags.len(), "{file}");
        }
        assert!(theirs.iter().any(|(_, plies)| *plies == 1), "{file}");
    }
}
