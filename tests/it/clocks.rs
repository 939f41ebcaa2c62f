//! Clocks, forfeits on time, reminders and leave, on both backends. Time is
//! passed to the services; nothing sleeps.

use crate::common;
use missive::db::moves;
use missive::domain::ids::GameId;

use chrono::{Datelike, Duration, NaiveDate, NaiveDateTime};
use common::{Backend, TestApp};
use diesel::prelude::*;
use missive::accounts::users as accounts;
use missive::clocks::forfeit;
use missive::clocks::leave;
use missive::db::outbox;
use missive::db::users::User;
use missive::db::DbConn;
use missive::domain::error::{Error, MovedOn};
use missive::domain::game_state::{EndReason, GameResult, GameStatus};
use missive::domain::mail_kind::MailKind;
use missive::domain::time_control::{TimeControl, DAY};
use missive::game::challenge;
use missive::game::clock;
use missive::game::draw;
use missive::game::play;
use missive::mail::context;
use missive::mail::render;
use reqwest::StatusCode;

both_backends!(
    timeout_forfeits_once_with_two_racing_sweepers,
    late_move_is_refused_and_forfeits,
    late_move_over_http_says_the_game_is_lost_on_time,
    leave_stops_the_clock_and_moves_the_deadline,
    capped_leave_in_a_game,
    one_reminder_per_move,
    moves_spend_and_refill_the_banks,
    create_active_game_starts_the_clock,
    preset_over_http_shows_clocks_in_json,
    leave_form_refuses_backdated_and_over_allowance,
    granted_leave_raises_the_allowance,
);

fn t0() -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 3, 2)
        .unwrap()
        .and_hms_opt(12, 0, 0)
        .unwrap()
}

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

/// A user whose address counts as verified (so mails are queued for them).
fn player(conn: &mut DbConn, name: &str) -> User {
    use missive::db::schema::verified_emails;
    let u = accounts::signup(
        conn,
        name,
        &format!("{name}@example.org"),
        "correct horse battery",
        t0(),
    )
    .unwrap();
    diesel::insert_into(verified_emails::table)
        .values((
            verified_emails::user_id.eq(u.id),
            verified_emails::email.eq(&u.email),
            verified_emails::verified_at.eq(t0()),
        ))
        .execute(conn)
        .unwrap();
    u
}

fn tc(text: &str) -> TimeControl {
    text.parse().unwrap()
}

/// Alice (White) against Bob, started at `t0()` with `control`.
fn game(conn: &mut DbConn, alice: &User, bob: &User, control: &str) -> GameId {
    challenge::create_active_game(
        conn,
        "chess",
        alice.id,
        bob.id,
        Some(&tc(control)),
        None,
        t0(),
    )
    .unwrap()
}

fn mails(conn: &mut DbConn, kind: MailKind) -> Vec<outbox::OutboxRow> {
    outbox::all(conn)
        .unwrap()
        .into_iter()
        .filter(|m| m.kind == kind)
        .collect()
}

fn play(conn: &mut DbConn, id: GameId, user: &User, text: &str, now: NaiveDateTime) {
    let r = common::play_move(conn, id, user, text, None, true, now);
    assert!(
        matches!(r, Ok(play::MoveOutcome::Committed { .. })),
        "{text}: {:?}",
        r.err()
    );
}

fn timeout_forfeits_once_with_two_racing_sweepers(backend: Backend) {
    let app = TestApp::start(backend);
    let mut conn = app.db();
    let alice = player(&mut conn, "alice");
    let bob = player(&mut conn, "bob");
    // Five games; in the last two Black is to move.
    let ids: Vec<GameId> = (0..5)
        .map(|_| game(&mut conn, &alice, &bob, "1d/move"))
        .collect();
    play(&mut conn, ids[3], &alice, "e4", t0());
    play(&mut conn, ids[4], &alice, "d4", t0());
    // A minute before the deadline nothing happens.
    let early = t0() + Duration::days(1) - Duration::minutes(1);
    assert_eq!(forfeit::sweep_report(&mut conn, early).unwrap().forfeits, 0);
    let now = t0() + Duration::days(1);
    let url = app.database_url.clone();
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
    let racers: Vec<_> = (0..2)
        .map(|_| {
            let url = url.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let mut conn = missive::db::Manager::new(&url).open().unwrap();
                barrier.wait();
                forfeit::sweep_report(&mut conn, now).unwrap().forfeits
            })
        })
        .collect();
    let total: usize = racers.into_iter().map(|t| t.join().unwrap()).sum();
    assert_eq!(total, 5, "each game forfeited by exactly one sweeper");
    for (i, id) in ids.iter().enumerate() {
        let row = missive::db::games::load(&mut conn, *id).unwrap();
        assert_eq!(row.status, GameStatus::Finished);
        assert_eq!(row.reason, Some(EndReason::TimeForfeit));
        let expected = if i < 3 {
            GameResult::BlackWins
        } else {
            GameResult::WhiteWins
        };
        assert_eq!(row.result, Some(expected), "game {id}");
        assert_eq!(row.ended_at, Some(now));
        assert!(row.clock_deadline.is_none());
    }
    let over = mails(&mut conn, MailKind::GameOver);
    assert_eq!(over.len(), 10, "one game-over mail per player per game");
    for id in &ids {
        let mut to: Vec<i32> = over
            .iter()
            .filter(|m| m.game_id == Some(*id))
            .map(|m| m.user_id)
            .collect();
        to.sort();
        assert_eq!(to, vec![alice.id, bob.id]);
    }
    // Later sweeps find nothing more.
    assert_eq!(
        forfeit::sweep(&mut conn, now + Duration::days(3)).unwrap(),
        0
    );
    assert_eq!(mails(&mut conn, MailKind::GameOver).len(), 10);
}

fn late_move_is_refused_and_forfeits(backend: Backend) {
    let app = TestApp::start(backend);
    let mut conn = app.db();
    let alice = player(&mut conn, "alice");
    let bob = player(&mut conn, "bob");
    let id = game(&mut conn, &alice, &bob, "2d/move");
    play(&mut conn, id, &alice, "e4", t0() + Duration::hours(5));
    // Bob answers two days and a second after Alice's move.
    let late = t0() + Duration::hours(5) + Duration::days(2) + Duration::seconds(1);
    let r = common::play_move(&mut conn, id, &bob, "e5", Some(1), true, late);
    match r {
        Err(Error::MovedOn(MovedOn::TimeRanOut)) => {}
        other => panic!("expected a loss on time, got {:?}", other.err()),
    }
    assert_eq!(moves::of_game(&mut conn, id).unwrap().len(), 1);
    let row = missive::db::games::load(&mut conn, id).unwrap();
    assert_eq!(row.status, GameStatus::Finished);
    assert_eq!(row.result, Some(GameResult::WhiteWins));
    assert_eq!(row.reason, Some(EndReason::TimeForfeit));
    assert_eq!(row.black_clock_secs, Some(0));
    assert_eq!(mails(&mut conn, MailKind::GameOver).len(), 2);
    // The sweeper has nothing left to do. A retry (a second tab, or the
    // server's own after a lost connection) gets the same answer, and
    // changes nothing; the winner is told the game is over.
    assert_eq!(forfeit::sweep(&mut conn, late).unwrap(), 0);
    let r = common::play_move(&mut conn, id, &bob, "e5", Some(1), true, late);
    match r {
        Err(Error::MovedOn(MovedOn::TimeRanOut)) => {}
        other => panic!("expected the same answer, got {:?}", other.err()),
    }
    let r = common::play_move(&mut conn, id, &alice, "Nf3", None, true, late);
    assert!(matches!(r, Err(Error::Forbidden(m)) if m == "This game is over."));
    assert_eq!(mails(&mut conn, MailKind::GameOver).len(), 2);
    assert_eq!(moves::of_game(&mut conn, id).unwrap().len(), 1);
    // A move that finds the game already lost on time by the sweeper is
    // told the same.
    let id = game(&mut conn, &alice, &bob, "2d/move");
    let flagged = t0() + Duration::days(2) + Duration::seconds(1);
    assert_eq!(forfeit::sweep(&mut conn, flagged).unwrap(), 1);
    let r = common::play_move(&mut conn, id, &alice, "e4", Some(0), true, flagged);
    match r {
        Err(Error::MovedOn(MovedOn::TimeRanOut)) => {}
        other => panic!("expected a loss on time, got {:?}", other.err()),
    }
    // A draw offer cannot be accepted once the mover's flag has fallen.
    let id = game(&mut conn, &alice, &bob, "2d/move");
    draw::draw(&mut conn, id, &bob, "offer", t0() + Duration::hours(1)).unwrap();
    let r = draw::draw(&mut conn, id, &alice, "accept", t0() + Duration::days(3));
    match r {
        Err(Error::MovedOn(MovedOn::FlagFell)) => {}
        other => panic!("expected a loss on time, got {other:?}"),
    }
    let row = missive::db::games::load(&mut conn, id).unwrap();
    assert_eq!(
        (row.result, row.reason),
        (Some(GameResult::BlackWins), Some(EndReason::TimeForfeit))
    );
    // Before the flag falls, the same agreement is a draw.
    let id = game(&mut conn, &alice, &bob, "2d/move");
    draw::draw(&mut conn, id, &bob, "offer", t0()).unwrap();
    draw::draw(&mut conn, id, &alice, "accept", t0() + Duration::days(1)).unwrap();
    assert_eq!(
        missive::db::games::load(&mut conn, id).unwrap().reason,
        Some(EndReason::Agreement)
    );
    // The deadline itself is too late; a second before is in time.
    let id = game(&mut conn, &alice, &bob, "2d/move");
    let r = common::play_move(
        &mut conn,
        id,
        &alice,
        "e4",
        None,
        true,
        t0() + Duration::days(2),
    );
    assert!(matches!(r, Err(Error::MovedOn(MovedOn::TimeRanOut))));
    let id = game(&mut conn, &alice, &bob, "2d/move");
    play(
        &mut conn,
        id,
        &alice,
        "e4",
        t0() + Duration::days(2) - Duration::seconds(1),
    );
}

fn late_move_over_http_says_the_game_is_lost_on_time(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let id = alice.challenge("bob", "white");
    assert_eq!(
        bob.post(&format!("/games/{id}/accept"), &[]).status,
        StatusCode::SEE_OTHER
    );
    // The turn began four days ago: 3 days per move (the default) are gone.
    {
        use missive::db::schema::games as g;
        let mut conn = app.db();
        let then = missive::web::now() - Duration::days(4);
        diesel::update(g::table.find(id))
            .set((
                g::turn_started_at.eq(Some(then)),
                g::clock_deadline.eq(Some(then + Duration::days(3))),
            ))
            .execute(&mut conn)
            .unwrap();
    }
    let p = alice.play(id, "e4");
    assert_eq!(p.status, StatusCode::CONFLICT);
    assert!(p.has("lost on time"), "{}", p.body);
    let j = alice.json(id);
    assert_eq!(j["status"], "finished");
    assert_eq!(j["result"], "0-1");
    assert_eq!(j["reason"], "time-forfeit");
    assert_eq!(j["moves"].as_array().unwrap().len(), 0);
    assert_eq!(j["clock"]["white_left_secs"], 0);
    assert!(j["clock"]["deadline"].is_null());
    let page = bob.get(&format!("/games/{id}"));
    assert!(page.has("time forfeit"), "{}", page.body);
}

fn leave_stops_the_clock_and_moves_the_deadline(backend: Backend) {
    let app = TestApp::start(backend);
    let mut conn = app.db();
    let alice = player(&mut conn, "alice");
    let bob = player(&mut conn, "bob");
    let carol = player(&mut conn, "carol");
    let id = game(&mut conn, &alice, &bob, "3d/move");
    let other = game(&mut conn, &carol, &alice, "14d/move");
    let row = missive::db::games::load(&mut conn, id).unwrap();
    let before = clock::view(&mut conn, &row, t0()).unwrap().unwrap();
    assert_eq!(before.deadline, Some(t0() + Duration::days(3)));
    // Alice (to move) books 3 and 4 March: her clock stops for two days.
    leave::book_leave(
        &mut conn,
        alice.id,
        day(2026, 3, 3),
        day(2026, 3, 4),
        30,
        t0(),
    )
    .unwrap();
    let row = missive::db::games::load(&mut conn, id).unwrap();
    // The stored deadline ignores leave; the clock does not.
    assert_eq!(row.clock_deadline, Some(t0() + Duration::days(3)));
    let after = clock::view(&mut conn, &row, t0()).unwrap().unwrap();
    assert_eq!(after.deadline, Some(t0() + Duration::days(5)));
    // On leave the clock is stopped and shown so.
    let mid = t0() + Duration::days(2);
    let v = clock::view(&mut conn, &row, mid).unwrap().unwrap();
    assert!(v.white.on_leave && !v.white.running);
    assert_eq!(v.white.left_secs, 3 * DAY - 12 * 3600);
    assert!(!v.black.on_leave && !v.black.running);
    // In the other game Alice has Black and Carol is to move: Alice is
    // shown on leave, and Carol's clock runs to its own deadline.
    let other_row = missive::db::games::load(&mut conn, other).unwrap();
    let o = clock::view(&mut conn, &other_row, mid).unwrap().unwrap();
    assert!(o.black.on_leave && !o.black.running);
    assert!(!o.white.on_leave && o.white.running);
    assert_eq!(o.deadline, Some(t0() + Duration::days(14)));
    // Both her opponents (not Alice) are told, once each.
    let told: Vec<i32> = mails(&mut conn, MailKind::LeaveBooked)
        .iter()
        .map(|m| m.user_id)
        .collect();
    assert_eq!(told.len(), 2);
    assert!(told.contains(&bob.id) && told.contains(&carol.id));
    let ctx = context::MailCtx::new(&app.config, b"a secret for tests").unwrap();
    let leave_mail = &mails(&mut conn, MailKind::LeaveBooked)[0];
    let r = render::render(&mut conn, &ctx, leave_mail, t0())
        .unwrap()
        .unwrap();
    assert_eq!(
        r.subject,
        "alice will be on leave from 2026-03-03 to 2026-03-04"
    );
    assert!(r.html.contains("<strong>alice</strong> has booked leave"));
    // Past the leave-less deadline, the sweeper leaves the game alone.
    let past_old = t0() + Duration::days(4);
    assert_eq!(
        forfeit::sweep_report(&mut conn, past_old).unwrap().forfeits,
        0
    );
    assert_eq!(
        missive::db::games::load(&mut conn, id).unwrap().status,
        GameStatus::Active
    );
    // Alice moves on day 4: two days of running time used, bank back to 3.
    play(&mut conn, id, &alice, "e4", past_old);
    let m = moves::of_game(&mut conn, id).unwrap();
    assert_eq!(m[0].time_used_secs, Some(2 * DAY));
    // Bob is not on leave: his 3 days run out on schedule.
    assert_eq!(
        forfeit::sweep_report(&mut conn, past_old + Duration::days(3))
            .unwrap()
            .forfeits,
        1
    );
    // In the other game Carol (not on leave, 14 days) is to move.
    assert_eq!(
        missive::db::games::load(&mut conn, other).unwrap().status,
        GameStatus::Active
    );
    assert_eq!(
        missive::db::games::load(&mut conn, id).unwrap().result,
        Some(GameResult::WhiteWins)
    );
}

fn capped_leave_in_a_game(backend: Backend) {
    let app = TestApp::start(backend);
    let mut conn = app.db();
    let alice = player(&mut conn, "alice");
    let bob = player(&mut conn, "bob");
    // A tournament-style game that counts only 1 leave day a year.
    let capped = challenge::create_active_game(
        &mut conn,
        "chess",
        alice.id,
        bob.id,
        Some(&tc("3d/move")),
        Some(1),
        t0(),
    )
    .unwrap();
    let free = game(&mut conn, &alice, &bob, "3d/move");
    leave::book_leave(
        &mut conn,
        alice.id,
        day(2026, 3, 3),
        day(2026, 3, 6),
        30,
        t0(),
    )
    .unwrap();
    let row = missive::db::games::load(&mut conn, capped).unwrap();
    let v = clock::view(&mut conn, &row, t0()).unwrap().unwrap();
    assert_eq!(v.deadline, Some(t0() + Duration::days(4)));
    let row = missive::db::games::load(&mut conn, free).unwrap();
    let v = clock::view(&mut conn, &row, t0()).unwrap().unwrap();
    assert_eq!(v.deadline, Some(t0() + Duration::days(7)));
    let s = forfeit::sweep_report(&mut conn, t0() + Duration::days(4)).unwrap();
    assert_eq!(s.forfeits, 1);
    assert_eq!(
        missive::db::games::load(&mut conn, capped).unwrap().status,
        GameStatus::Finished
    );
    assert_eq!(
        missive::db::games::load(&mut conn, free).unwrap().status,
        GameStatus::Active
    );
}

fn one_reminder_per_move(backend: Backend) {
    let app = TestApp::start(backend);
    let mut conn = app.db();
    let alice = player(&mut conn, "alice");
    let bob = player(&mut conn, "bob");
    let id = game(&mut conn, &alice, &bob, "3d/move");
    // 3 days per move: the reminder comes when 24 hours are left.
    let s = forfeit::sweep_report(&mut conn, t0() + Duration::hours(47)).unwrap();
    assert_eq!(s.reminders, 0);
    let due = t0() + Duration::hours(48);
    let url = app.database_url.clone();
    let racers: Vec<_> = (0..2)
        .map(|_| {
            let url = url.clone();
            std::thread::spawn(move || {
                let mut conn = missive::db::Manager::new(&url).open().unwrap();
                forfeit::sweep_report(&mut conn, due).unwrap().reminders
            })
        })
        .collect();
    let total: usize = racers.into_iter().map(|t| t.join().unwrap()).sum();
    assert_eq!(total, 1);
    assert_eq!(
        forfeit::sweep_report(&mut conn, due + Duration::hours(5))
            .unwrap()
            .reminders,
        0
    );
    let sent = mails(&mut conn, MailKind::ClockReminder);
    assert_eq!(sent.len(), 1);
    assert_eq!((sent[0].user_id, sent[0].ply), (alice.id, Some(0)));
    // After Alice's move it is Bob's turn, and his own reminder.
    let moved = due + Duration::hours(6);
    play(&mut conn, id, &alice, "e4", moved);
    assert_eq!(
        forfeit::sweep_report(&mut conn, moved + Duration::hours(47))
            .unwrap()
            .reminders,
        0
    );
    for _ in 0..2 {
        forfeit::sweep(&mut conn, moved + Duration::hours(50)).unwrap();
    }
    let sent = mails(&mut conn, MailKind::ClockReminder);
    assert_eq!(sent.len(), 2);
    assert_eq!((sent[1].user_id, sent[1].ply), (bob.id, Some(1)));
    // The reminder renders with the time left and deadline.
    let ctx = context::MailCtx::new(&app.config, b"a secret for tests").unwrap();
    let r = render::render(&mut conn, &ctx, &sent[1], moved + Duration::hours(50))
        .unwrap()
        .unwrap();
    assert!(r.text.contains("22 hours left; deadline"), "{}", r.text);
}

fn moves_spend_and_refill_the_banks(backend: Backend) {
    let app = TestApp::start(backend);
    let mut conn = app.db();
    let alice = player(&mut conn, "alice");
    let bob = player(&mut conn, "bob");
    // 10 moves in 50 days, cumulative; and 30 days + 1 day per move.
    let iccf = game(&mut conn, &alice, &bob, "50d +50d/10moves");
    let inc = game(&mut conn, &alice, &bob, "30d +1d/move");
    let whites = ["a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4"];
    let blacks = ["a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6", "a5", "b5"];
    let mut now = t0();
    for (w, b) in whites.iter().zip(blacks.iter()) {
        // White thinks 2 days, Black 1 day, in both games.
        now += Duration::days(2);
        play(&mut conn, iccf, &alice, w, now);
        play(&mut conn, inc, &alice, w, now);
        now += Duration::days(1);
        play(&mut conn, iccf, &bob, b, now);
        play(&mut conn, inc, &bob, b, now);
    }
    let row = missive::db::games::load(&mut conn, iccf).unwrap();
    // 50 - 10x2 + 50 for the tenth move; 50 - 10x1 + 50.
    assert_eq!(row.white_clock_secs, Some(80 * DAY));
    assert_eq!(row.black_clock_secs, Some(90 * DAY));
    let row = missive::db::games::load(&mut conn, inc).unwrap();
    // 30 - 10x2 + 10; 30 - 10x1 + 10.
    assert_eq!(row.white_clock_secs, Some(20 * DAY));
    assert_eq!(row.black_clock_secs, Some(30 * DAY));
    assert_eq!(row.turn_started_at, Some(now));
    assert_eq!(row.clock_deadline, Some(now + Duration::days(20)));
    let m = moves::of_game(&mut conn, inc).unwrap();
    assert_eq!(m.len(), 20);
    assert!(m
        .iter()
        .enumerate()
        .all(|(i, m)| m.time_used_secs == Some(if i % 2 == 0 { 2 * DAY } else { DAY })));
    // White, to move, sees time running; Black's bank is still.
    let v = clock::view(&mut conn, &row, now + Duration::days(5))
        .unwrap()
        .unwrap();
    assert_eq!(v.white.left_secs, 15 * DAY);
    assert!(v.white.running && !v.black.running);
    assert_eq!(v.black.left_secs, 30 * DAY);
    // PGN names the control.
    let pgn = missive::game::records::export_game(
        &mut conn,
        iccf,
        "http://x",
        missive::game::records::Format::Pgn,
    )
    .unwrap();
    assert!(pgn.contains("[TimeControl \"10/4320000\"]"), "{pgn}");
}

fn create_active_game_starts_the_clock(backend: Backend) {
    let app = TestApp::start(backend);
    let mut conn = app.db();
    let alice = player(&mut conn, "alice");
    let bob = player(&mut conn, "bob");
    let id = game(&mut conn, &alice, &bob, "7d/move");
    let row = missive::db::games::load(&mut conn, id).unwrap();
    assert_eq!(row.status, GameStatus::Active);
    assert_eq!(row.white_id, Some(alice.id));
    assert_eq!(row.black_id, Some(bob.id));
    assert_eq!(row.challenger_id, alice.id);
    assert_eq!(row.time_control.as_deref(), Some("7d/move"));
    assert_eq!(row.turn_started_at, Some(t0()));
    assert_eq!(row.clock_deadline, Some(t0() + Duration::days(7)));
    let turn = mails(&mut conn, MailKind::YourTurn);
    assert_eq!(turn.len(), 1);
    assert_eq!((turn[0].user_id, turn[0].game_id), (alice.id, Some(id)));
    // The "your turn" mail shows the clock.
    let ctx = context::MailCtx::new(&app.config, b"a secret for tests").unwrap();
    let r = render::render(&mut conn, &ctx, &turn[0], t0() + Duration::days(1))
        .unwrap()
        .unwrap();
    assert!(
        r.text
            .contains("6 days left; deadline 2026-03-09 12:00 UTC"),
        "{}",
        r.text
    );
    // Without a clock nothing runs out.
    let free =
        challenge::create_active_game(&mut conn, "chess", bob.id, alice.id, None, None, t0())
            .unwrap();
    assert_eq!(
        forfeit::sweep(&mut conn, t0() + Duration::days(999)).unwrap(),
        1
    );
    assert_eq!(
        missive::db::games::load(&mut conn, free).unwrap().status,
        GameStatus::Active
    );
    assert!(matches!(
        challenge::create_active_game(&mut conn, "nope", bob.id, alice.id, None, None, t0()),
        Err(Error::Invalid(_))
    ));
}

fn preset_over_http_shows_clocks_in_json(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let form = alice.get("/games/new");
    assert!(form.has("name=\"time_control\""));
    assert!(form.has("<option value=\"3d/move\" selected>3 days per move</option>"));
    assert!(form.has("value=\"50d +50d/10moves\""));
    let create = |tc: &str| {
        let p = alice.post(
            "/games/new",
            &[
                ("variant", "chess"),
                ("opponent", "bob"),
                ("color", "white"),
                ("fen", ""),
                ("time_control", tc),
            ],
        );
        assert_eq!(p.status, StatusCode::SEE_OTHER, "{tc}: {}", p.body);
        let id: GameId = p
            .location
            .unwrap()
            .trim_start_matches("/games/")
            .parse()
            .unwrap();
        assert_eq!(
            bob.post(&format!("/games/{id}/accept"), &[]).status,
            StatusCode::SEE_OTHER
        );
        id
    };
    let id = create("50d +50d/10moves");
    // The dashboard shows the time left where it is your turn.
    assert!(alice.get("/").has("left (deadline "));
    let j = alice.json(id);
    let c = &j["clock"];
    assert_eq!(c["time_control"], "50d +50d/10moves");
    let white = c["white_left_secs"].as_i64().unwrap();
    assert!((50 * DAY - 60..=50 * DAY).contains(&white), "{white}");
    assert_eq!(c["black_left_secs"].as_i64(), Some(50 * DAY));
    assert_eq!(c["white_running"], true);
    let deadline = chrono::DateTime::parse_from_rfc3339(c["deadline"].as_str().unwrap()).unwrap();
    let expected = chrono::Utc::now() + Duration::days(50);
    assert!(
        (deadline.with_timezone(&chrono::Utc) - expected)
            .num_seconds()
            .abs()
            < 120
    );
    assert_eq!(alice.play(id, "e4").status, StatusCode::SEE_OTHER);
    let j = alice.json(id);
    assert!(j["moves"][0]["time_used_secs"].as_i64().unwrap() >= 0);
    assert_eq!(j["clock"]["black_running"], true);
    let page = alice.get(&format!("/games/{id}"));
    assert!(page.has("10 moves in 50 days"), "{}", page.body);
    assert!(page.has("id=\"clock-deadline\""));
    // A custom control in the canonical text, and no clock.
    let id = create("5d +12h/move max 8d");
    assert_eq!(
        alice.json(id)["clock"]["time_control"],
        "5d +12h/move max 8d"
    );
    let id = create("none");
    let j = alice.json(id);
    assert!(j["clock"].is_null());
    assert!(j["time_control"].is_null());
    assert!(alice
        .get(&format!("/games/{id}.pgn"))
        .has("[TimeControl \"-\"]"));
    // The default is 3 days per move.
    let id = alice.challenge("bob", "black");
    assert_eq!(alice.json(id)["time_control"], "3d/move");
    // Nonsense is a 422 with a reason, never a 500.
    for bad in ["3 fortnights", "0d/move", "5d max 1d", &"9".repeat(500)] {
        let p = alice.post(
            "/games/new",
            &[
                ("variant", "chess"),
                ("opponent", "bob"),
                ("time_control", bad),
            ],
        );
        assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
        assert!(p.has("class=\"error\""), "{bad}");
    }
}

fn leave_form_refuses_backdated_and_over_allowance(backend: Backend) {
    let app = TestApp::start(backend);
    let anon = app.client();
    assert_eq!(anon.get("/leave").status, StatusCode::UNAUTHORIZED);
    let alice = app.user("alice");
    let p = alice.get("/leave");
    assert_eq!(p.status, StatusCode::OK);
    assert!(p.has("No leave booked"));
    let today = missive::web::now().date();
    let d = |n: i64| (today + Duration::days(n)).format("%Y-%m-%d").to_string();
    let book = |s: &str, e: &str| alice.post("/leave", &[("start", s), ("end", e)]);
    // Today and yesterday are too late.
    for start in [d(0), d(-1)] {
        let p = book(&start, &d(3));
        assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(p.has("Leave is booked ahead"), "{}", p.body);
    }
    // More than the year's 30 days, in one go (days of one year only).
    // Two years ahead, clear of the near bookings below.
    let year = today.year() + 2;
    let jan = |n: u32| format!("{year}-01-{n:02}");
    let feb = |n: u32| format!("{year}-02-{n:02}");
    let p = book(&jan(1), &feb(5));
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(p.has("That is 36 days of leave in"), "{}", p.body);
    // Or little by little.
    assert_eq!(book(&jan(1), &jan(20)).status, StatusCode::SEE_OTHER);
    let p = book(&jan(22), &feb(1));
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(p.has("only 10 of your 30 days are left"), "{}", p.body);
    // Overlaps, reversed and malformed dates.
    assert_eq!(
        book(&jan(5), &jan(6)).status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(book(&d(5), &d(4)).status, StatusCode::UNPROCESSABLE_ENTITY);
    let p = book("next tuesday", &d(4));
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(p.has("YYYY-MM-DD"));
    // Without the token nothing is booked.
    let p = alice.post_raw("/leave", &[("start", &d(40)), ("end", &d(41))]);
    assert_eq!(p.status, StatusCode::FORBIDDEN);
    // A valid booking is listed, and can be cancelled by its owner only.
    assert_eq!(book(&d(2), &d(4)).status, StatusCode::SEE_OTHER);
    let p = alice.get("/leave");
    assert!(
        p.has(&format!("{} to {} (3 days)", d(2), d(4))),
        "{}",
        p.body
    );
    let id = app.count(&format!(
        "SELECT CAST(MIN(id) AS BIGINT) AS n FROM leave_bookings WHERE start_date = '{}'",
        d(2)
    ));
    let bob = app.user("bob");
    let idt = id.to_string();
    let p = bob.post("/leave", &[("action", "cancel"), ("id", &idt)]);
    assert_eq!(p.status, StatusCode::NOT_FOUND);
    let p = alice.post("/leave", &[("action", "cancel"), ("id", "x")]);
    assert_eq!(p.status, StatusCode::BAD_REQUEST);
    let p = alice.post("/leave", &[("action", "cancel"), ("id", &idt)]);
    assert_eq!(p.status, StatusCode::SEE_OTHER);
    assert!(!alice.get("/leave").has(&format!("{} to {}", d(2), d(4))));
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM leave_bookings"), 1);
}

fn granted_leave_raises_the_allowance(backend: Backend) {
    let app = TestApp::start(backend);
    let mut conn = app.db();
    let alice = player(&mut conn, "alice");
    let director = player(&mut conn, "dora");
    let r = leave::book_leave(
        &mut conn,
        alice.id,
        day(2026, 4, 1),
        day(2026, 5, 5),
        30,
        t0(),
    );
    assert!(matches!(r, Err(Error::Invalid(_))));
    leave::grant_leave(&mut conn, alice.id, 2026, 5, director.id, "surgery", t0()).unwrap();
    assert_eq!(leave::allowance(&mut conn, alice.id, 2026, 30).unwrap(), 35);
    assert_eq!(leave::allowance(&mut conn, alice.id, 2027, 30).unwrap(), 30);
    leave::book_leave(
        &mut conn,
        alice.id,
        day(2026, 4, 1),
        day(2026, 5, 5),
        30,
        t0(),
    )
    .unwrap();
    assert_eq!(leave::days_booked(&mut conn, alice.id, 2026).unwrap(), 35);
    // A booking across New Year counts in each year.
    leave::book_leave(
        &mut conn,
        alice.id,
        day(2026, 12, 31),
        day(2027, 1, 2),
        30,
        t0(),
    )
    .unwrap_err();
    leave::book_leave(
        &mut conn,
        alice.id,
        day(2027, 1, 1),
        day(2027, 1, 30),
        30,
        t0(),
    )
    .unwrap();
    assert_eq!(leave::days_booked(&mut conn, alice.id, 2027).unwrap(), 30);
    assert!(leave::grant_leave(&mut conn, alice.id, 2026, 0, director.id, "", t0()).is_err());
}
