//! Service functions called directly, with a controlled clock, on both backends.

use crate::common;
use missive::db::games;
use missive::domain::ids::GameId;

use chrono::{Duration, NaiveDate, NaiveDateTime};
use common::{Backend, TestApp};
use diesel::prelude::*;
use missive::accounts::users as accounts;
use missive::domain::error::Error;
use missive::domain::game_state::Side;
use missive::game::challenge;
use missive::game::play;

both_backends!(
    stale_position_cannot_store_a_move,
    unique_game_ply_key,
    rate_limit_window_expires,
    sessions_expire,
    stored_move_numbers_follow_the_previous_move,
);

fn t0() -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 1, 2)
        .unwrap()
        .and_hms_opt(3, 4, 5)
        .unwrap()
}

fn two_players(
    conn: &mut missive::db::DbConn,
) -> (missive::db::users::User, missive::db::users::User) {
    let a = accounts::signup(
        conn,
        "alice",
        "a@example.org",
        "correct horse battery",
        t0(),
    )
    .unwrap();
    let b = accounts::signup(conn, "bob", "b@example.org", "correct horse battery", t0()).unwrap();
    (a, b)
}

fn started_game(
    conn: &mut missive::db::DbConn,
) -> (i32, missive::db::users::User, missive::db::users::User) {
    let (a, b) = two_players(conn);
    let challenge = challenge::Challenge {
        variant: "chess".into(),
        opponent: "bob".into(),
        color: "white".into(),
        fen: String::new(),
        time_control: String::new(),
        ..Default::default()
    };
    let id = challenge::create_game(conn, &a, &challenge, t0()).unwrap();
    challenge::accept(conn, id, &b, t0()).unwrap();
    (id.get(), a, b)
}

fn stale_position_cannot_store_a_move(backend: Backend) {
    let app = TestApp::start(backend);
    let mut conn = app.db();
    let (id, alice, _bob) = started_game(&mut conn);
    // Two requests saw the game at ply 0: the first stores its move, the
    // second must not.
    let r = common::play_move(&mut conn, GameId(id), &alice, "e4", Some(0), true, t0()).unwrap();
    assert!(matches!(r, play::MoveOutcome::Committed { .. }));
    let r = common::play_move(&mut conn, GameId(id), &alice, "d4", Some(0), true, t0());
    assert!(matches!(r, Err(Error::Conflict(_))), "{:?}", r.err());
    let moves = missive::db::moves::of_game(&mut conn, GameId(id)).unwrap();
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].display, "e4");
    assert_eq!(moves[0].coordinate, "e2e4");
    assert_eq!(moves[0].from_square.as_deref(), Some("e2"));
    assert_eq!(moves[0].to_square, "e4");
    assert_eq!(moves[0].played_at, t0());
    let row = games::load(&mut conn, GameId(id)).unwrap();
    assert_eq!(row.ply, 1);
    assert_eq!(row.turn, Side::Black);
    assert_eq!(row.fen, moves[0].fen_after);
    // A preview stores nothing.
    let r = common::play_move(&mut conn, GameId(id), &_bob, "e5", Some(1), false, t0()).unwrap();
    assert!(matches!(r, play::MoveOutcome::Preview { .. }));
    assert_eq!(
        missive::db::moves::of_game(&mut conn, GameId(id))
            .unwrap()
            .len(),
        1
    );
}

fn unique_game_ply_key(backend: Backend) {
    use missive::db::schema::moves;
    let app = TestApp::start(backend);
    let mut conn = app.db();
    let (id, alice, _) = started_game(&mut conn);
    common::play_move(&mut conn, GameId(id), &alice, "e4", Some(0), true, t0()).unwrap();
    let dup = diesel::insert_into(moves::table)
        .values((
            moves::game_id.eq(id),
            moves::ply.eq(1),
            moves::display.eq("d4"),
            moves::coordinate.eq("d2d4"),
            moves::to_square.eq("d4"),
            moves::fen_after.eq("x"),
            moves::played_by.eq(alice.id),
            moves::played_at.eq(t0()),
        ))
        .execute(&mut conn);
    assert!(missive::db::is_unique_violation(&dup.unwrap_err()));
}

fn rate_limit_window_expires(backend: Backend) {
    use missive::accounts::login_limit::{self, Attempt, LoginLimits};
    let app = TestApp::start(backend);
    let mut conn = app.db();
    two_players(&mut conn);
    let limits = LoginLimits {
        per_account: 3,
        per_account_any: 10,
        per_ip: 100,
        window_secs: 600,
        delay_secs: 2,
        delay_max_secs: 900,
        account_delay_max_secs: 60,
        per_device: 5,
        device_lockout_secs: 900,
    };
    // An attempt: claimed first, then checked; forgiven when right.
    let attempt = |conn: &mut missive::db::DbConn, name: &str, pw: &str, ip: &str, at| {
        login_limit::claim(conn, name, ip, Attempt::Untrusted, &limits, at)?;
        let user = accounts::login(conn, name, pw, ip, at)?;
        login_limit::forgive(conn, name, ip, Attempt::Untrusted, &limits)?;
        Ok::<_, Error>(user)
    };
    for i in 0..3 {
        let r = attempt(
            &mut conn,
            "alice",
            "nope nope",
            "10.0.0.1",
            t0() + Duration::seconds(i),
        );
        assert!(matches!(r, Err(Error::Invalid(_))));
    }
    // From that address the next attempt waits, and no password is checked.
    let r = attempt(
        &mut conn,
        "alice",
        "correct horse battery",
        "10.0.0.1",
        t0() + Duration::seconds(3),
    );
    assert!(
        matches!(r, Err(Error::TooSoon { retry_after, .. }) if (1..=2).contains(&retry_after)),
        "{r:?}"
    );
    // The owner from another address is not held back.
    assert!(attempt(
        &mut conn,
        "alice",
        "correct horse battery",
        "10.0.0.2",
        t0() + Duration::seconds(3)
    )
    .is_ok());
    // Another account from the same address is not affected.
    assert!(attempt(
        &mut conn,
        "bob",
        "correct horse battery",
        "10.0.0.1",
        t0() + Duration::seconds(3)
    )
    .is_ok());
    // After the wait, the right password works from the first address too.
    assert!(attempt(
        &mut conn,
        "alice",
        "correct horse battery",
        "10.0.0.1",
        t0() + Duration::seconds(5)
    )
    .is_ok());
}

fn sessions_expire(backend: Backend) {
    let app = TestApp::start(backend);
    let mut conn = app.db();
    let (a, _) = two_players(&mut conn);
    let token = accounts::create_session(&mut conn, a.id, t0()).unwrap();
    let u = accounts::session_user(&mut conn, &token, t0() + Duration::days(1)).unwrap();
    assert_eq!(u.unwrap().id, a.id);
    assert!(
        accounts::session_user(&mut conn, &token, t0() + Duration::days(31))
            .unwrap()
            .is_none()
    );
    accounts::end_session(&mut conn, &token).unwrap();
    assert!(accounts::session_user(&mut conn, &token, t0())
        .unwrap()
        .is_none());
    assert!(accounts::session_user(&mut conn, "deadbeef", t0())
        .unwrap()
        .is_none());
}

/// A stored move's number follows from the previous move's, as
/// `missive::domain::game_state::next_turn_no` gives it: White and Black share a number, a game
/// from a position with Black to move starts with Black's 1, and White's
/// move after it is 2.
fn stored_move_numbers_follow_the_previous_move(backend: Backend) {
    use missive::db::schema::moves;
    let app = TestApp::start(backend);
    let mut conn = app.db();
    let numbers = |conn: &mut missive::db::DbConn, id: i32| -> Vec<i32> {
        moves::table
            .filter(moves::game_id.eq(id))
            .order(moves::ply)
            .select(moves::turn_no)
            .load(conn)
            .unwrap()
    };
    let (id, alice, bob) = started_game(&mut conn);
    for (who, mv) in [(&alice, "e4"), (&bob, "e5"), (&alice, "Nf3"), (&bob, "Nc6")] {
        common::play_move(&mut conn, GameId(id), who, mv, None, true, t0()).unwrap();
    }
    assert_eq!(numbers(&mut conn, id), [1, 1, 2, 2]);
    let challenge = challenge::Challenge {
        variant: "chess".into(),
        opponent: "bob".into(),
        color: "white".into(),
        fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into(),
        time_control: String::new(),
        ..Default::default()
    };
    let id = challenge::create_game(&mut conn, &alice, &challenge, t0()).unwrap();
    challenge::accept(&mut conn, id, &bob, t0()).unwrap();
    for (who, mv) in [(&bob, "e5"), (&alice, "Nf3"), (&bob, "Nc6")] {
        common::play_move(&mut conn, id, who, mv, None, true, t0()).unwrap();
    }
    assert_eq!(numbers(&mut conn, id.get()), [1, 2, 2]);
}
