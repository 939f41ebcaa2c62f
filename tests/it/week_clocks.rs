//! Issue 64: clocks that follow the week (time zones, weekends free across
//! daylight-saving changes, in two zones), the calendar feed read by an
//! outside parser (Python's `icalendar`, pinned in .ci/run), and the
//! dashboard with 500 running games. Time is passed to the services or
//! stored with the games; nothing sleeps.

use crate::browser_kit;
use crate::common;
use missive::domain::ids::GameId;

use chrono::{Duration, NaiveDate, NaiveDateTime};
use common::{Backend, TestApp, TestClient};
use diesel::prelude::*;
use missive::clocks::forfeit;
use missive::db::users::User;
use missive::db::DbConn;
use missive::domain::game_state::{EndReason, GameResult, GameStatus};
use missive::domain::mail_kind::MailKind;
use missive::domain::time_control::{TimeControl, DAY, HOUR};
use missive::game::clock;
use missive::game::{challenge, play};
use reqwest::StatusCode;

both_backends!(
    weekends_free_across_daylight_saving_in_two_zones,
    time_zone_form_checks_the_name,
    calendar_feed_read_by_icalendar,
    dashboard_with_500_games,
);

fn utc(m: u32, d: u32, h: u32, min: u32, s: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, m, d)
        .unwrap()
        .and_hms_opt(h, min, s)
        .unwrap()
}

fn user(conn: &mut DbConn, name: &str) -> User {
    missive::db::users::find_by_name(conn, name)
        .unwrap()
        .unwrap()
}

/// Mail reaches `u` (their address counts as verified).
fn verify(conn: &mut DbConn, u: &User) {
    use missive::db::schema::verified_emails;
    diesel::insert_into(verified_emails::table)
        .values((
            verified_emails::user_id.eq(u.id),
            verified_emails::email.eq(&u.email),
            verified_emails::verified_at.eq(utc(1, 1, 0, 0, 0)),
        ))
        .execute(conn)
        .unwrap();
}

/// A game started at `at`, White to move first, with `control`.
fn paired(
    conn: &mut DbConn,
    white: &User,
    black: &User,
    control: &str,
    weekends_free: bool,
    at: NaiveDateTime,
) -> i32 {
    let tc: TimeControl = control.parse().unwrap();
    let pairing = challenge::Pairing {
        variant_id: "chess",
        white_id: white.id,
        black_id: black.id,
        time_control: Some(&tc),
        leave_cap_days: None,
        rated: false,
        weekends_free,
    };
    challenge::create_paired_game(conn, &pairing, at)
        .unwrap()
        .get()
}

fn play(conn: &mut DbConn, id: GameId, u: &User, text: &str, at: NaiveDateTime) {
    let r = common::play_move(conn, id, u, text, None, true, at);
    assert!(
        matches!(r, Ok(play::MoveOutcome::Committed { .. })),
        "{text}: {:?}",
        r.err()
    );
}

fn deadline_shown(c: &TestClient, id: i32) -> String {
    let p = c.get(&format!("/games/{id}"));
    assert_eq!(p.status, StatusCode::OK);
    let (_, rest) = p
        .body
        .split_once("<dd id=\"clock-deadline\">")
        .unwrap_or_else(|| panic!("no deadline on game {id}: {}", p.body));
    rest.split('<').next().unwrap().to_string()
}

fn set_zone(c: &TestClient, zone: &str) {
    let p = c.post("/settings/time-zone", &[("time_zone", zone)]);
    assert_eq!(p.status, StatusCode::SEE_OTHER, "{}", p.body);
}

fn mover_deadline(conn: &mut DbConn, id: GameId) -> NaiveDateTime {
    let row = missive::db::games::load(conn, id).unwrap();
    clock::mover_clock(conn, &row).unwrap().unwrap().deadline
}

fn weekends_free_across_daylight_saving_in_two_zones(backend: Backend) {
    let app = TestApp::start(backend);
    let (ca, cb) = (app.user("alice"), app.user("bob"));
    set_zone(&ca, "Europe/Berlin");
    set_zone(&cb, "america/new_york");
    let conn = &mut app.db();
    let (alice, bob) = (user(conn, "alice"), user(conn, "bob"));
    assert_eq!(
        bob.time_zone, "America/New_York",
        "stored under its own name"
    );
    verify(conn, &bob);

    // Game A: Bob's turn over New York's weekend of 7-8 March 2026, when
    // New York goes to summer time (Sunday 8 March): his Saturday begins
    // at 05:00 UTC and his Monday at 04:00 UTC, 47 hours later.
    let a = paired(conn, &alice, &bob, "2d +1s/move", true, utc(3, 6, 14, 0, 0));
    play(conn, GameId(a), &alice, "e4", utc(3, 6, 20, 0, 0));
    // 9 hours before his weekend, 39 after it.
    assert_eq!(mover_deadline(conn, GameId(a)), utc(3, 10, 19, 0, 0));
    let row = missive::db::games::load(conn, GameId(a)).unwrap();
    assert_eq!(row.white_clock_secs, Some(2 * DAY - 6 * HOUR + 1));
    // Each sees the deadline in their own zone, the zone named.
    assert_eq!(
        deadline_shown(&cb, a),
        "2026-03-10 15:00 EDT (America/New_York)"
    );
    assert_eq!(
        deadline_shown(&ca, a),
        "2026-03-10 20:00 CET (Europe/Berlin)"
    );
    let page = cb.get(&format!("/games/{a}")).body;
    assert!(page.contains("weekends free"), "the control says so");
    let dash = cb.get("/").body;
    assert!(
        dash.contains("(deadline 2026-03-10 15:00 EDT (America/New_York))"),
        "{dash}"
    );
    // The "your turn" mail gives it in Bob's zone too.
    let turn: Vec<_> = missive::db::outbox::all(conn)
        .unwrap()
        .into_iter()
        .filter(|m| m.kind == MailKind::YourTurn && m.user_id == bob.id)
        .collect();
    assert_eq!(turn.len(), 1);
    let ctx = missive::mail::context::MailCtx::new(&app.config, b"a secret for tests").unwrap();
    let r = missive::mail::render::render(conn, &ctx, &turn[0], utc(3, 6, 20, 0, 0))
        .unwrap()
        .unwrap();
    assert!(
        r.text
            .contains("deadline 2026-03-10 15:00 EDT (America/New_York)"),
        "{}",
        r.text
    );

    // The sweep: a second early nothing happens (without weekends free the
    // game would have been lost on Sunday 8 March at 20:00 UTC) and the
    // stored deadline moves on to the one with the weekend counted; on the
    // second, the game is lost on time.
    let early = utc(3, 10, 18, 59, 59);
    assert_eq!(forfeit::sweep_report(conn, early).unwrap().forfeits, 0);
    let row = missive::db::games::load(conn, GameId(a)).unwrap();
    assert_eq!(row.status, GameStatus::Active);
    assert_eq!(row.clock_deadline, Some(utc(3, 10, 19, 0, 0)));
    assert_eq!(
        forfeit::sweep_report(conn, utc(3, 10, 19, 0, 0))
            .unwrap()
            .forfeits,
        1
    );
    let row = missive::db::games::load(conn, GameId(a)).unwrap();
    assert_eq!(row.result, Some(GameResult::WhiteWins));
    assert_eq!(row.reason, Some(EndReason::TimeForfeit));
    assert_eq!(row.ended_at, Some(utc(3, 10, 19, 0, 0)));

    // Game B: Alice's turn over Berlin's weekend of 28-29 March, when
    // Berlin goes to summer time: Friday 23:00 UTC to Sunday 22:00 UTC.
    // Game C is the same without weekends free.
    let b = paired(
        conn,
        &alice,
        &bob,
        "2d +1s/move",
        true,
        utc(3, 26, 10, 0, 0),
    );
    let c = paired(
        conn,
        &alice,
        &bob,
        "2d +1s/move",
        false,
        utc(3, 26, 10, 0, 0),
    );
    // 37 hours to Friday midnight in Berlin, 11 from Monday 00:00 CEST.
    assert_eq!(mover_deadline(conn, GameId(b)), utc(3, 30, 9, 0, 0));
    assert_eq!(mover_deadline(conn, GameId(c)), utc(3, 28, 10, 0, 0));
    assert_eq!(
        deadline_shown(&ca, b),
        "2026-03-30 11:00 CEST (Europe/Berlin)"
    );
    assert_eq!(
        deadline_shown(&cb, b),
        "2026-03-30 05:00 EDT (America/New_York)"
    );
    assert_eq!(
        deadline_shown(&ca, c),
        "2026-03-28 11:00 CET (Europe/Berlin)"
    );
    let swept = forfeit::sweep_report(conn, utc(3, 28, 10, 0, 0)).unwrap();
    assert_eq!(swept.forfeits, 1, "only game C");
    assert_eq!(
        missive::db::games::load(conn, GameId(c)).unwrap().status,
        GameStatus::Finished
    );
    assert_eq!(
        missive::db::games::load(conn, GameId(b)).unwrap().status,
        GameStatus::Active
    );
    // Alice moves on Monday at 08:00 UTC: her clock counted 47 hours.
    play(conn, GameId(b), &alice, "d4", utc(3, 30, 8, 0, 0));
    let row = missive::db::games::load(conn, GameId(b)).unwrap();
    assert_eq!(row.white_clock_secs, Some(HOUR + 1));

    // Bob moves to Tokyo while it is his turn in B: his weekend is now
    // Friday 15:00 UTC to Sunday 15:00 UTC (no summer time there).
    set_zone(&cb, "Asia/Tokyo");
    let row = missive::db::games::load(conn, GameId(b)).unwrap();
    // The stored bound is back to the one that ignores weekends.
    assert_eq!(row.clock_deadline, Some(utc(4, 1, 8, 0, 0)));
    // Monday 08:00 to Friday 15:00 UTC is more than his 48 hours.
    assert_eq!(mover_deadline(conn, GameId(b)), utc(4, 1, 8, 0, 0));
    assert_eq!(deadline_shown(&cb, b), "2026-04-01 17:00 JST (Asia/Tokyo)");
}

fn time_zone_form_checks_the_name(backend: Backend) {
    let app = TestApp::start(backend);
    let c = app.user("alice");
    let page = c.get("/settings");
    assert!(page.has("id=\"settings-week\""));
    assert!(page.has("value=\"UTC\""), "UTC by default");
    let p = c.post("/settings/time-zone", &[("time_zone", "Mars/Olympus_Mons")]);
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(p.has("id=\"time-zone-error\""), "{}", p.body);
    assert!(p.has("is not a time zone Missive knows"));
    assert!(
        p.has("value=\"Mars/Olympus_Mons\""),
        "shown again to correct"
    );
    let conn = &mut app.db();
    assert_eq!(user(conn, "alice").time_zone, "UTC", "nothing stored");
    let p = c.post("/settings/time-zone", &[("time_zone", "Europe/Berlin")]);
    assert_eq!(p.status, StatusCode::SEE_OTHER);
    assert_eq!(user(conn, "alice").time_zone, "Europe/Berlin");
    assert!(c.get("/settings").has("value=\"Europe/Berlin\""));
    // Without the form's token, nothing changes.
    let p = c.post_raw("/settings/time-zone", &[("time_zone", "UTC")]);
    assert_ne!(p.status, StatusCode::SEE_OTHER);
    assert_eq!(user(conn, "alice").time_zone, "Europe/Berlin");
}

/// The events of an iCalendar text as Python's `icalendar` reads them:
/// (UID, SUMMARY, DTSTART in ISO form, URL, SEQUENCE).
fn parse_ics(ics: &str) -> Vec<serde_json::Value> {
    let script = r#"
import sys, json, icalendar
cal = icalendar.Calendar.from_ical(sys.stdin.buffer.read())
out = []
for e in cal.walk('VEVENT'):
    start = e.decoded('DTSTART')
    out.append({
        'uid': str(e['UID']),
        'summary': str(e['SUMMARY']),
        'start': start.isoformat(),
        'url': str(e.get('URL', '')),
        'sequence': int(e.get('SEQUENCE', 0)),
        'has_stamp': 'DTSTAMP' in e,
        'end': e.decoded('DTEND').isoformat() if 'DTEND' in e else None,
    })
print(json.dumps({'name': str(cal.get('X-WR-CALNAME', '')), 'events': out}))
"#;
    let v = common::python_json(
        script,
        ics,
        "icalendar (pip install icalendar==7.3.2; .ci/run does)",
    );
    assert!(v["name"].as_str().unwrap().starts_with("Missive: "));
    v["events"].as_array().unwrap().clone()
}

fn feed(app: &TestApp, path: &str) -> (StatusCode, String) {
    let anon = app.client();
    let p = anon.get(path);
    (p.status, p.body)
}

fn iso(t: NaiveDateTime) -> String {
    format!("{}+00:00", t.format("%Y-%m-%dT%H:%M:%S"))
}

fn calendar_feed_read_by_icalendar(backend: Backend) {
    let app = TestApp::start(backend);
    let (ca, cb) = (app.user("alice"), app.user("bob"));
    let conn = &mut app.db();
    let (alice, bob) = (user(conn, "alice"), user(conn, "bob"));
    // No address yet: the section offers one.
    assert!(ca.get("/settings").has("id=\"calendar-make\""));
    let made = ca.post("/settings/calendar", &[]);
    assert_eq!(made.status, StatusCode::OK);
    let url = made
        .body
        .split("id=\"calendar-url\" type=\"text\" readonly value=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_string();
    let path = url[url.find("/calendar/").unwrap()..].to_string();
    assert!(path.ends_with(".ics") && path.len() == "/calendar/.ics".len() + 64);
    // Only its hash is kept.
    let token = path
        .trim_start_matches("/calendar/")
        .trim_end_matches(".ics");
    assert_eq!(
        app.count(&format!(
            "SELECT COUNT(*) AS n FROM calendar_feeds WHERE token_hash = '{token}'"
        )),
        0
    );
    assert!(ca.get("/settings").has("id=\"calendar-on\""));

    // Two running games, a tournament entry and a leave booking.
    let now = missive::web::now();
    let g1 = paired(
        conn,
        &alice,
        &bob,
        "3d/move",
        false,
        now - Duration::hours(1),
    );
    let g2 = paired(
        conn,
        &bob,
        &alice,
        "5d/move",
        true,
        now - Duration::hours(2),
    );
    let leave_from = (now + Duration::days(30)).date();
    let booked = cb.get("/leave");
    assert_eq!(booked.status, StatusCode::OK);
    ca.post(
        "/leave",
        &[
            ("start", &leave_from.to_string()),
            ("end", &(leave_from + Duration::days(2)).to_string()),
        ],
    );
    let leave_rows = app.count(&format!(
        "SELECT COUNT(*) AS n FROM leave_bookings WHERE user_id = {}",
        alice.id
    ));
    assert_eq!(leave_rows, 1, "the leave was booked");
    let (_carol, _dave) = (app.user("carol"), app.user("dave"));
    let t = common::tournament_game(&app, "carol", &["alice", "dave"]);
    let t_id = t.tournament_id.unwrap();

    let (status, ics) = feed(&app, &path);
    assert_eq!(status, StatusCode::OK);
    assert!(ics.starts_with("BEGIN:VCALENDAR\r\n"), "{ics}");
    let events = parse_ics(&ics);
    let by_uid = |uid: &str| {
        events
            .iter()
            .find(|e| e["uid"].as_str().unwrap().starts_with(uid))
            .unwrap_or_else(|| panic!("no event {uid} in {events:?}"))
            .clone()
    };
    let e1 = by_uid(&format!("game-{g1}-deadline@"));
    assert_eq!(e1["summary"], format!("Your move: #{g1} Chess vs bob"));
    assert_eq!(e1["start"], iso(mover_deadline(conn, GameId(g1))));
    assert_eq!(
        e1["url"],
        format!("{}/games/{g1}", app.base.trim_end_matches('/'))
    );
    assert_eq!(e1["has_stamp"], true);
    let e2 = by_uid(&format!("game-{g2}-deadline@"));
    assert_eq!(e2["summary"], format!("bob's move: #{g2} Chess vs bob"));
    assert_eq!(e2["start"], iso(mover_deadline(conn, GameId(g2))));
    let et = by_uid(&format!("game-{}-deadline@", t.id));
    assert!(et["summary"].as_str().unwrap().ends_with("vs dave"));
    let round = by_uid(&format!("tournament-{t_id}-round-1@"));
    assert_eq!(round["summary"], "Cup: round 1 began");
    let leave = events
        .iter()
        .find(|e| e["uid"].as_str().unwrap().starts_with("leave-"))
        .expect("the leave");
    assert_eq!(leave["start"], leave_from.to_string());
    assert_eq!(
        leave["end"],
        (leave_from + Duration::days(3)).to_string(),
        "whole days: the day after the last"
    );

    // A move changes the event in place: same UID, later SEQUENCE, the
    // opponent's deadline now.
    play(conn, GameId(g1), &alice, "e4", now);
    let events = parse_ics(&feed(&app, &path).1);
    let e1b = events
        .iter()
        .find(|e| e["uid"] == e1["uid"])
        .expect("same UID after the move");
    assert_eq!(e1b["summary"], format!("bob's move: #{g1} Chess vs bob"));
    assert_eq!(e1b["start"], iso(mover_deadline(conn, GameId(g1))));
    assert!(e1b["sequence"].as_i64() > e1["sequence"].as_i64());
    assert_eq!(
        events
            .iter()
            .filter(|e| e["uid"].as_str().unwrap().starts_with("game-"))
            .count(),
        3
    );

    // Turning it off asks first; the address works until the answer.
    let asked = ca.post("/settings/calendar/revoke", &[]);
    assert_eq!(asked.status, StatusCode::OK);
    assert!(asked.has("Turn the calendar address off?"));
    assert_eq!(feed(&app, &path).0, StatusCode::OK);
    let off = ca.post("/settings/calendar/revoke", &[("confirm", "1")]);
    assert_eq!(off.status, StatusCode::SEE_OTHER);
    let (status, body) = feed(&app, &path);
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(!body.contains("BEGIN:VCALENDAR"));
    assert!(ca.get("/settings").has("id=\"calendar-make\""));
    // A new one: the old stays dead; making another asks first.
    let again = ca.post("/settings/calendar", &[]);
    let url2 = again
        .body
        .split("readonly value=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_string();
    let path2 = url2[url2.find("/calendar/").unwrap()..].to_string();
    assert_ne!(path2, path);
    assert_eq!(feed(&app, &path2).0, StatusCode::OK);
    assert_eq!(feed(&app, &path).0, StatusCode::NOT_FOUND);
    let ask = ca.post("/settings/calendar", &[]);
    assert!(ask.has("Make a new calendar address?"), "{}", ask.body);
    assert_eq!(feed(&app, &path2).0, StatusCode::OK, "not replaced unasked");
    // Bad tokens are plain 404s.
    for bad in [
        "/calendar/x.ics",
        "/calendar/../settings.ics",
        "/calendar/abc",
    ] {
        assert_eq!(feed(&app, bad).0, StatusCode::NOT_FOUND, "{bad}");
    }
    let _ = (cb, bob);
}

/// The game ids of a dashboard list (`turn-list` or `wait-list`), in order.
fn listed(body: &str, list: &str) -> Vec<i32> {
    let Some((_, rest)) = body.split_once(&format!("id=\"{list}\">")) else {
        return Vec::new();
    };
    let rest = rest.split("</ul>").next().unwrap();
    rest.split("<li><a href=\"/games/")
        .skip(1)
        .map(|s| s.split('"').next().unwrap().parse().unwrap())
        .collect()
}

/// 500 running games of alice's against 10 players, in three variants, 150
/// of them in two tournaments; half are her turn. Direct inserts, with
/// deadlines in an order unlike the ids'.
pub fn five_hundred_games(app: &TestApp) -> (Vec<GameId>, [i32; 2]) {
    use missive::db::schema::games;
    let conn = &mut app.db();
    let now = missive::web::now();
    let alice = user(conn, "alice");
    let others: Vec<User> = (0..10)
        .map(|i| {
            missive::accounts::users::create_verified(
                conn,
                &format!("opp{i}"),
                &format!("opp{i}@example.org"),
                "correct horse battery",
                now,
            )
            .unwrap()
        })
        .collect();
    let director = missive::accounts::users::create_verified(
        conn,
        "tdir",
        "td@example.org",
        "correct horse battery",
        now,
    )
    .unwrap();
    let director =
        missive::tournaments::directors::set_director(conn, &director.username, true).unwrap();
    let cups: Vec<i32> = ["Spring Cup", "Autumn Open"]
        .iter()
        .map(|name| {
            let form = missive::tournaments::entry::TournamentForm {
                name: name.to_string(),
                variant: "chess".into(),
                time_control: "7d/move".into(),
                format: "round-robin".into(),
                entry_closes: (now + Duration::days(1)).format("%Y-%m-%d").to_string(),
                max_players: "8".into(),
                ..Default::default()
            };
            missive::tournaments::entry::create(conn, &director, &form, now).unwrap()
        })
        .collect();
    let variants = ["chess", "crazyhouse", "capablanca"];
    let tc: TimeControl = "7d/move".parse().unwrap();
    let mut ids = Vec::new();
    for i in 0..500usize {
        let o = &others[i % 10];
        let (white, black) = match i % 2 {
            0 => (alice.id, o.id),
            _ => (o.id, alice.id),
        };
        let pairing = challenge::Pairing {
            variant_id: variants[i % 3],
            white_id: white,
            black_id: black,
            time_control: Some(&tc),
            leave_cap_days: None,
            rated: false,
            weekends_free: false,
        };
        // Started minutes apart, in a scrambled order.
        let at = now - Duration::minutes(((i * 7919) % 500) as i64);
        let id = challenge::create_paired_game(conn, &pairing, at).unwrap();
        let cup = match i % 10 {
            0..=1 => Some(cups[0]),
            2 => Some(cups[1]),
            _ => None,
        };
        if cup.is_some() {
            diesel::update(games::table.find(id))
                .set((games::tournament_id.eq(cup), games::round.eq(Some(1))))
                .execute(conn)
                .unwrap();
        }
        ids.push(id);
    }
    (ids, [cups[0], cups[1]])
}

fn dashboard_with_500_games(backend: Backend) {
    use missive::db::schema::games;
    let app = TestApp::start(backend);
    let ca = app.user("alice");
    let started = std::time::Instant::now();
    let (_, cups) = five_hundred_games(&app);
    eprintln!("500 games made in {:?}", started.elapsed());
    let conn = &mut app.db();
    let alice = user(conn, "alice");
    // Her turns, as the database orders them by deadline (no leave, no
    // weekends: the stored deadline is the true one).
    type TurnRow = (
        i32,
        Option<NaiveDateTime>,
        NaiveDateTime,
        String,
        Option<i32>,
    );
    let expected = |conn: &mut DbConn, variant: Option<&str>, cup: Option<i32>| -> Vec<i32> {
        let mut rows: Vec<TurnRow> = games::table
            .filter(games::status.eq(GameStatus::Active.code()))
            .filter(games::white_id.eq(alice.id))
            .select((
                games::id,
                games::clock_deadline,
                games::updated_at,
                games::variant,
                games::tournament_id,
            ))
            .load(conn)
            .unwrap();
        rows.retain(|r| variant.is_none_or(|v| r.3 == v) && cup.is_none_or(|c| r.4 == Some(c)));
        rows.sort_by_key(|r| (r.1, r.2, r.0));
        rows.into_iter().map(|r| r.0).collect()
    };
    let all = expected(conn, None, None);
    assert_eq!(all.len(), 250);
    let t = std::time::Instant::now();
    let page = ca.get("/");
    eprintln!("dashboard with 500 games: {:?}", t.elapsed());
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(listed(&page.body, "turn-list"), all[..50].to_vec());
    assert!(page.has("Your turn <span class=\"count\">(250)</span>"));
    assert!(page.has("Page 1 of 5"));
    assert_eq!(listed(&page.body, "wait-list").len(), 50);
    assert!(page.has("Waiting for your opponent <span class=\"count\">(250)</span>"));
    // Later pages, and a page past the end shows the last.
    let p3 = ca.get("/?turn_page=3");
    assert_eq!(listed(&p3.body, "turn-list"), all[100..150].to_vec());
    assert!(p3.has("href=\"/?turn_page=2\" rel=\"prev\""));
    assert!(p3.has("href=\"/?turn_page=4\" rel=\"next\""));
    assert_eq!(
        listed(&ca.get("/?turn_page=99").body, "turn-list"),
        all[200..].to_vec()
    );
    assert_eq!(
        listed(&ca.get("/?turn_page=x").body, "turn-list"),
        all[..50].to_vec()
    );
    // The waiting list has pages of its own.
    let w2 = ca.get("/?wait_page=2");
    assert_eq!(listed(&w2.body, "turn-list"), all[..50].to_vec());
    assert!(w2.has("Page 2 of 5"));
    // Filters by variant and by tournament, and both, pages kept apart.
    let crazy = expected(conn, Some("crazyhouse"), None);
    let p = ca.get("/?variant=crazyhouse");
    assert_eq!(listed(&p.body, "turn-list"), crazy[..50].to_vec());
    assert!(p.has(&format!(
        "Your turn <span class=\"count\">({})</span>",
        crazy.len()
    )));
    assert!(p.has("<option value=\"crazyhouse\" selected>"));
    let p = ca.get("/?variant=crazyhouse&turn_page=2");
    assert_eq!(listed(&p.body, "turn-list"), crazy[50..].to_vec());
    let spring = expected(conn, None, Some(cups[0]));
    let p = ca.get(&format!("/?tournament={}", cups[0]));
    assert_eq!(
        listed(&p.body, "turn-list"),
        spring[..50.min(spring.len())].to_vec()
    );
    assert!(p.has("Spring Cup (100)"));
    assert!(p.has("Not in a tournament (350)"));
    for id in listed(&p.body, "wait-list") {
        assert_eq!(
            missive::db::games::load(conn, GameId(id))
                .unwrap()
                .tournament_id,
            Some(cups[0])
        );
    }
    let both = expected(conn, Some("chess"), Some(cups[1]));
    let p = ca.get(&format!("/?variant=chess&tournament={}", cups[1]));
    assert_eq!(listed(&p.body, "turn-list"), both);
    let outside = ca.get("/?tournament=none");
    for id in listed(&outside.body, "turn-list") {
        assert_eq!(
            missive::db::games::load(conn, GameId(id))
                .unwrap()
                .tournament_id,
            None
        );
    }
    // Nonsense filters show nothing rather than failing.
    let p = ca.get("/?variant=%3Cscript%3E&tournament=zz");
    assert_eq!(p.status, StatusCode::OK);
    assert!(listed(&p.body, "turn-list").is_empty());
    assert!(!p.has("<script>"));

    // The next game where it is her turn, from every game page.
    let g = ca.get(&format!("/games/{}", all[0]));
    assert!(g.has(&format!(
        "href=\"/games/next?after={}\" id=\"next-turn\"",
        all[0]
    )));
    let next = ca.get(&format!("/games/next?after={}", all[0]));
    assert_eq!(next.status, StatusCode::SEE_OTHER);
    assert_eq!(
        next.location.as_deref(),
        Some(&*format!("/games/{}", all[1]))
    );
    let first = ca.get("/games/next");
    assert_eq!(
        first.location.as_deref(),
        Some(&*format!("/games/{}", all[0]))
    );
    // After a move: the page the move leads to links on, and the link
    // skips the game just played (no longer her turn).
    let moved = ca.play(GameId(all[0]), "e4");
    assert_eq!(moved.status, StatusCode::SEE_OTHER, "{}", moved.body);
    let after = ca.get(moved.location.as_deref().unwrap());
    assert!(after.has("id=\"next-turn\""));
    let next = ca.get(&format!("/games/next?after={}", all[0]));
    assert_eq!(
        next.location.as_deref(),
        Some(&*format!("/games/{}", all[1]))
    );
    let next = ca.get(&format!("/games/next?after={}", all[1]));
    assert_eq!(
        next.location.as_deref(),
        Some(&*format!("/games/{}", all[2]))
    );
    // Logged out: asked to log in, not a game.
    let anon = app.client().get("/games/next");
    assert!(!anon.location.unwrap_or_default().starts_with("/games/"));
    // Someone with no turn waiting is told so.
    let dave = app.user("dave");
    let none = dave.get("/games/next");
    assert_eq!(none.location.as_deref(), Some("/?next=none"));
    assert!(dave
        .get("/?next=none")
        .has("No other game waits for your move."));
}

/// axe-core's browser build, when installed (`cd tests/axe && npm ci`).
fn axe_source() -> Option<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/axe/node_modules/axe-core/axe.min.js");
    match std::fs::read_to_string(&path) {
        Ok(s) => Some(s),
        Err(e) if browser_kit::env_on("CI") || browser_kit::env_on("MISSIVE_TEST_BROWSER") => {
            panic!(
                "axe-core not found at {} ({e}): cd tests/axe && npm ci",
                path.display()
            )
        }
        Err(_) => None,
    }
}

/// The dashboard with 500 running games in Chromium at 390 and 1280 px:
/// it fits the screen, axe finds nothing, the filter form works without
/// script. Screenshots: target/browser-artifacts/dashboard-500-*.png.
#[test]
fn dashboard_with_500_games_in_a_browser() {
    let app = TestApp::start(Backend::Sqlite);
    let _alice = app.user("alice");
    five_hundred_games(&app);
    let axe = axe_source();
    let axe = &axe;
    let ran = browser_kit::with_browsers("dashboard-500", &app, &["alice"], |b| async move {
        let r = async {
            let p = &b[0];
            p.goto("/login").await?;
            p.fill("input[name=username]", "alice").await?;
            p.fill("input[name=password]", browser_kit::PASSWORD).await?;
            p.click("form[action='/login'] button[type=submit]").await?;
            p.wait_for("the dashboard", "document.getElementById('turn-list') !== null")
                .await?;
            for (w, h) in [(390, 844), (1280, 900)] {
                p.resize(w, h).await?;
                p.fits("#game-filters").await?;
                p.fits("#turn-list").await?;
                p.save_png(&format!("dashboard-500-{w}"), p.client.screenshot().await?)
                    .await?;
            }
            if let Some(axe) = axe {
                p.js(&format!("{axe}\n;return null;")).await?;
                let found = p
                    .client
                    .execute_async(
                        "var done = arguments[arguments.length - 1];\
                         axe.run(document, { resultTypes: ['violations'] }).then(function (r) {\
                           done(r.violations.map(function (v) { return v.id + ': ' + v.nodes.length; }));\
                         }, function (e) { done(['error ' + e]); });",
                        vec![],
                    )
                    .await?;
                anyhow::ensure!(
                    found.as_array().is_some_and(|v| v.is_empty()),
                    "axe: {found}"
                );
            }
            // Filtering with the form, as a player would.
            p.resize(390, 844).await?;
            p.click("select[name=variant] option[value=crazyhouse]").await?;
            p.click("#game-filters button[type=submit]").await?;
            p.wait_for(
                "the filtered list",
                "location.search.indexOf('variant=crazyhouse') >= 0",
            )
            .await?;
            p.save_png("dashboard-500-filtered-390", p.client.screenshot().await?)
                .await?;
            Ok(())
        }
        .await;
        (b, r)
    });
    if !ran {
        eprintln!("browser test skipped: no chromedriver");
    }
}
