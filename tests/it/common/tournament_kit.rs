//! Tournaments set up for tests and probes: players, a director, the
//! creation form, a started tournament, its games, and results.

use chrono::{Duration, NaiveDate, NaiveDateTime};
use missive::accounts::users as accounts;
use missive::db::games::GameRow;
use missive::db::users::User;
use missive::db::DbConn;
use missive::db::{tournament_games, tournaments};
use missive::game::{draw, resign};
use missive::tournaments::entry::{self, TournamentForm};
use missive::tournaments::{directors, rounds};
use std::collections::HashMap;

pub fn t0() -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 12, 1)
        .unwrap()
        .and_hms_opt(9, 0, 0)
        .unwrap()
}

pub fn user(conn: &mut DbConn, name: &str) -> User {
    accounts::create_verified(
        conn,
        name,
        &format!("{name}@example.org"),
        "correct horse battery",
        t0(),
    )
    .unwrap()
}

pub fn director(conn: &mut DbConn, name: &str) -> User {
    user(conn, name);
    directors::set_director(conn, name, true).unwrap()
}

pub fn form(name: &str, format: &str, rounds: &str, forfeit_limit: &str) -> TournamentForm {
    TournamentForm {
        name: name.into(),
        variant: "chess".into(),
        time_control: "3d/move".into(),
        format: format.into(),
        rounds: rounds.into(),
        entry_opens: "2026-12-01".into(),
        entry_closes: "2026-12-05T12:00".into(),
        max_players: "20".into(),
        leave_days: "".into(),
        forfeit_limit: forfeit_limit.into(),
        ..TournamentForm::default()
    }
}

/// A tournament with these players joined, started by the sweeper when the
/// entry window closes. Returns its id and the start time.
pub fn started(
    conn: &mut DbConn,
    dir: &User,
    f: TournamentForm,
    players: &[&User],
) -> (i32, NaiveDateTime) {
    let tid = entry::create(conn, dir, &f, t0()).unwrap();
    for (i, p) in players.iter().enumerate() {
        entry::join(conn, tid, p, t0() + Duration::minutes(i as i64)).unwrap();
    }
    let close = tournaments::load(conn, tid).unwrap().entry_closes;
    assert!(rounds::sweep(conn, close - Duration::seconds(1))
        .unwrap()
        .is_empty());
    assert_eq!(rounds::sweep(conn, close).unwrap(), vec![tid]);
    (tid, close)
}

pub fn tgames(conn: &mut DbConn, tid: i32) -> Vec<GameRow> {
    tournament_games::of_tournament(conn, tid).unwrap()
}

/// End a game with a chosen result through the games service: the loser
/// resigns, or a draw is offered and accepted.
pub fn finish(
    conn: &mut DbConn,
    g: &GameRow,
    result: &str,
    by: &HashMap<i32, User>,
    now: NaiveDateTime,
) {
    let white = &by[&g.white_id.unwrap()];
    let black = &by[&g.black_id.unwrap()];
    match result {
        "1-0" => resign::resign(conn, g.id, black, now).unwrap(),
        "0-1" => resign::resign(conn, g.id, white, now).unwrap(),
        _ => {
            draw::draw(conn, g.id, white, "offer", now).unwrap();
            draw::draw(conn, g.id, black, "accept", now).unwrap();
        }
    }
}

pub fn by_id(users: &[&User]) -> HashMap<i32, User> {
    users.iter().map(|u| (u.id, (*u).clone())).collect()
}
