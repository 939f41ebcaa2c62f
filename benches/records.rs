//! Page time of a 1,000-ply game against a 10-ply game (issue 11). Run:
//! `bash bench/records.sh`, or `cargo bench --bench records`
//! (prints milliseconds per page; asserts nothing about timing).

#[path = "../tests/it/common/mod.rs"]
mod common;

use common::{Backend, TestApp};
use diesel::prelude::*;
use missive::db::moves::NewMove;
use missive::db::schema::{game_histories, games, moves};
use reqwest::StatusCode;
use std::time::Instant;

/// A game of `plies` knight shuffles, stored directly (the rules would call
/// the repetition a draw; the pages only read stored data). The game row's
/// repetition history has one entry per ply, as a real game of that length
/// has (distinct made-up keys, so the position is not a repetition).
fn stored_game(app: &TestApp, alice: &common::TestClient, plies: usize) -> i32 {
    let id = alice.challenge("bob", "white");
    let chess = missive_rules::variant("chess").unwrap();
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let fens: Vec<String> = (1..=4)
        .map(|n| {
            missive_rules::Game::replay(chess, None, &cycle[..n])
                .unwrap()
                .fen()
        })
        .collect();
    let mut conn = app.db();
    let (white, black): (Option<i32>, Option<i32>) = (Some(1), Some(2));
    let mut fen = String::new();
    for ply in 1..=plies {
        fen = fens[(ply - 1) % 4].clone();
        let mv = cycle[(ply - 1) % 4];
        let now = chrono::Utc::now().naive_utc();
        diesel::insert_into(moves::table)
            .values(NewMove {
                game_id: id,
                ply: ply as i32,
                display: mv,
                coordinate: mv,
                from_square: Some(&mv[..2]),
                to_square: &mv[2..],
                fen_after: &fen,
                played_by: if ply % 2 == 1 { 1 } else { 2 },
                played_at: now,
                comment: Some(format!("ply {ply}")),
                time_used_secs: None,
                turn_no: ply.div_ceil(2) as i32,
                history_entry: None,
                conditional: false,
                bank_after: None,
            })
            .execute(&mut conn)
            .unwrap();
    }
    let history = (0..plies)
        .map(|i| format!("{:016x}", 0x5eed_0000_0000_0000u64 + i as u64))
        .collect::<Vec<_>>()
        .join(",");
    diesel::update(games::table.find(id))
        .set((
            games::status.eq("active"),
            games::white_id.eq(white),
            games::black_id.eq(black),
            games::opponent_id.eq(black),
            games::ply.eq(plies as i32),
            games::fen.eq(&fen),
        ))
        .execute(&mut conn)
        .unwrap();
    diesel::update(game_histories::table.find(id))
        .set((
            game_histories::ply.eq(plies as i32),
            game_histories::history.eq(history),
        ))
        .execute(&mut conn)
        .unwrap();
    id.get()
}

/// Median and 90th percentile milliseconds of `rounds` GETs of each of two
/// paths, the two interleaved so that load on the machine hits both alike.
fn time_pair(c: &common::TestClient, a: &str, b: &str) -> [(f64, f64); 2] {
    let rounds = 200;
    let mut times = [Vec::with_capacity(rounds), Vec::with_capacity(rounds)];
    for path in [a, b] {
        assert_eq!(c.get(path).status, StatusCode::OK, "{path}");
    }
    for _ in 0..rounds {
        for (i, path) in [a, b].into_iter().enumerate() {
            let t = Instant::now();
            assert_eq!(c.get(path).status, StatusCode::OK);
            times[i].push(t.elapsed().as_secs_f64() * 1000.0);
        }
    }
    times.map(|mut v| {
        v.sort_by(f64::total_cmp);
        (v[v.len() / 2], v[v.len() * 9 / 10])
    })
}

fn page_time_1000_vs_10_plies() {
    let app = TestApp::start(Backend::Sqlite);
    let alice = app.user("alice");
    let _bob = app.user("bob");
    let small = stored_game(&app, &alice, 10);
    let big = stored_game(&app, &alice, 1000);
    for (label, suffix) in [
        ("game page (current)", ""),
        ("game page at ply 5", "?ply=5"),
        ("game page at ply 500 (of 1000)", "?ply=500"),
        ("all moves page", "/moves"),
        ("PGN export", ".pgn"),
    ] {
        let [(s, s90), (b, b90)] = time_pair(
            &alice,
            &format!("/games/{small}{suffix}"),
            &format!("/games/{big}{suffix}"),
        );
        println!(
            "{label}: 10 plies {s:.2} ms (p90 {s90:.2}), 1000 plies {b:.2} ms (p90 {b90:.2}), ratio {:.2}",
            b / s
        );
    }
}

fn main() {
    page_time_1000_vs_10_plies();
}
