//! Checks on what a database holds after a fault: the games, replayed with
//! the rules crate, against the moves the server acknowledged.

#![allow(dead_code)]

use super::smtp_sink::SmtpSink;
use diesel::prelude::*;
use missive::db::games;
use missive::db::moves;
use missive::db::DbConn;
use missive::domain::ids::GameId;
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
        let row = games::load(conn, GameId(id)).unwrap();
        let moves = moves::of_game(conn, GameId(id)).unwrap();
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

/// The outbox row id in a mail's Message-ID (`<missive.ID.MICROS@host>`).
pub fn outbox_id(data: &str) -> Option<i32> {
    let line = data
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("message-id:"))?;
    let rest = &line[line.find("<missive.")? + "<missive.".len()..];
    rest[..rest.find('.')?].parse().ok()
}

/// Mail: no two outbox rows for one event, every row closed, every mail
/// the sink received is an outbox row, each sent row arrived and each
/// closed-as-stale row did not, with at most `surplus` extra deliveries
/// (mails in flight when a process was killed). Returns (sent, skipped).
pub fn check_mail(conn: &mut DbConn, sink: &SmtpSink, surplus: usize) -> (usize, usize) {
    no_duplicate_mail(conn);
    let rows = missive::db::outbox::all(conn).unwrap();
    let mut delivered: HashMap<i32, usize> = HashMap::new();
    for m in sink.mails() {
        let id = outbox_id(&m.data).expect("every mail carries its outbox Message-ID");
        *delivered.entry(id).or_default() += 1;
    }
    let (mut sent, mut skipped, mut extra) = (0, 0, 0);
    for r in &rows {
        assert!(r.sent_at.is_some(), "mail {} is closed", r.id);
        let got = delivered.remove(&r.id).unwrap_or(0);
        let expected = if r.last_error.is_none() {
            sent += 1;
            assert!(got >= 1, "mail {} ({}) was delivered", r.id, r.kind);
            1
        } else {
            skipped += 1;
            0
        };
        extra += got.saturating_sub(expected);
    }
    assert!(
        delivered.is_empty(),
        "mails delivered for no outbox row: {delivered:?}"
    );
    assert!(
        extra <= surplus,
        "{extra} mails delivered twice (at most {surplus} allowed)"
    );
    (sent, skipped)
}
