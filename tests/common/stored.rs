//! Checks on what a database holds after a fault: the games, replayed with
//! the rules crate, against the moves the server acknowledged.

#![allow(dead_code)]

use diesel::prelude::*;
use missive::db::DbConn;
use missive::services::games;
use std::collections::HashMap;

/// A move the server acknowledged with 303: (game, ply, coordinate).
pub type Acked = (i32, i32, String);

pub fn count(conn: &mut DbConn, sql: &str) -> i64 {
    #[derive(QueryableByName)]
    struct N {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    diesel::sql_query(sql)
        .get_result::<N>(conn)
        .expect("count")
        .n
}

/// Every game's stored moves have plies 1..=n, each stored FEN is the
/// replay of the moves before it with the rules crate, the game row's FEN
/// and ply agree, and every acknowledged move is stored as acknowledged.
/// Returns the number of stored moves.
pub fn check_games(conn: &mut DbConn, acked: &[Acked]) -> usize {
    let ids: Vec<i32> = missive::db::schema::games::table
        .select(missive::db::schema::games::id)
        .load(conn)
        .unwrap();
    let mut stored: HashMap<(i32, i32), String> = HashMap::new();
    for id in ids {
        let row = games::load(conn, id).unwrap();
        let moves = games::moves_of(conn, id).unwrap();
        let variant = missive_rules::variant(&row.variant).unwrap();
        let mut game = missive_rules::Game::new(variant, Some(&row.start_fen)).unwrap();
        for (i, m) in moves.iter().enumerate() {
            assert_eq!(m.ply, i as i32 + 1, "game {id}: plies are 1..=n");
            game.play_text(&m.coordinate)
                .unwrap_or_else(|e| panic!("game {id} ply {}: stored move illegal: {e}", m.ply));
            assert_eq!(game.fen(), m.fen_after, "game {id} ply {}: FEN", m.ply);
            stored.insert((id, m.ply), m.coordinate.clone());
        }
        assert_eq!(row.ply as usize, moves.len(), "game {id}: ply count");
        assert_eq!(row.fen, game.fen(), "game {id}: the game's FEN");
    }
    for (g, ply, coord) in acked {
        assert_eq!(
            stored.get(&(*g, *ply)),
            Some(coord),
            "game {g} ply {ply}: a move answered 303 is stored as played"
        );
    }
    stored.len()
}

/// No two outbox rows for one event (a move's mail stored twice).
pub fn no_duplicate_mail(conn: &mut DbConn) {
    let dup = count(
        conn,
        "SELECT COUNT(*) AS n FROM (SELECT kind, user_id, game_id, ply FROM email_outbox \
         GROUP BY kind, user_id, game_id, ply HAVING COUNT(*) > 1) d",
    );
    assert_eq!(dup, 0, "one outbox row per event");
}
