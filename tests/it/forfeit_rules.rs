//! Issue 40's forfeit rules, driven by a controlled clock (time is passed
//! to the services; nothing sleeps) on both backends: the silence rule and
//! the silent withdrawal, claim or wait, the event history, outage
//! compensation, reminders a player chooses, and directors' acts.

use crate::common;
use crate::common::tournament_kit::{t0, user};
use missive::domain::ids::GameId;

use chrono::{Duration, NaiveDate, NaiveDateTime};
use common::{Backend, TestApp};
use diesel::prelude::*;
use missive::clocks::{claim, forfeit, outage, silence};
use missive::db::game_events;
use missive::db::games::GameRow;
use missive::db::outbox;
use missive::db::schema::games;
use missive::db::users::User;
use missive::db::DbConn;
use missive::domain::error::Error;
use missive::domain::game_state::{EndReason, GameResult, GameStatus, Side};
use missive::domain::mail_kind::{ClockNotice, Mail, MailKind};
use missive::game::challenge;
use missive::tournaments::entry::{self, TournamentForm};
use missive::tournaments::{directors, rounds};
use reqwest::StatusCode;

both_backends!(
    silent_player_in_a_round_robin_crosses_the_withdrawal_threshold,
    a_move_resets_the_silence_and_leave_holds_it,
    claim_or_wait,
    claim_over_http_asks_first_and_shows_the_history,
    outage_moves_the_clocks_once_with_two_racing_sweepers,
    reminders_a_player_chooses_come_once_each_per_move,
    reminders_are_chosen_in_the_settings,
    directors_give_time_and_decide_results_and_both_players_are_told,
    a_loss_on_time_cools_a_player_off_before_new_tournaments,
);

/// A round robin of `players` under the director `dir` with these forfeit
/// settings, started by the sweeper: its id and its start.
fn tournament(
    conn: &mut DbConn,
    dir: &User,
    players: &[&User],
    time_control: &str,
    silence_days: &str,
    on_timeout: &str,
) -> (i32, NaiveDateTime) {
    let f = TournamentForm {
        name: "Silent Cup".into(),
        variant: "chess".into(),
        time_control: time_control.into(),
        format: "round-robin".into(),
        entry_closes: "2026-12-02".into(),
        max_players: "10".into(),
        forfeit_limit: "10".into(),
        silence_days: silence_days.into(),
        on_timeout: on_timeout.into(),
        ..TournamentForm::default()
    };
    let tid = entry::create(conn, dir, &f, t0()).unwrap();
    for p in players {
        entry::join(conn, tid, p, t0()).unwrap();
    }
    let close = missive::db::tournaments::load(conn, tid)
        .unwrap()
        .entry_closes;
    assert_eq!(rounds::sweep(conn, close).unwrap(), vec![tid]);
    (tid, close)
}

fn notices(conn: &mut DbConn, notice: ClockNotice) -> Vec<(i32, Option<GameId>)> {
    outbox::all(conn)
        .unwrap()
        .into_iter()
        .filter(|m| m.kind == MailKind::ClockNotice)
        .filter_map(|m| match m.mail() {
            Some(Mail::ClockNotice { notice: n, .. }) if n == notice => {
                Some((m.user_id, m.game_id))
            }
            _ => None,
        })
        .collect()
}

fn mine(conn: &mut DbConn, tid: i32, u: &User) -> Vec<GameRow> {
    missive::db::tournament_games::of_tournament(conn, tid)
        .unwrap()
        .into_iter()
        .filter(|g| g.white_id == Some(u.id) || g.black_id == Some(u.id))
        .collect()
}

fn silent_player_in_a_round_robin_crosses_the_withdrawal_threshold(backend: Backend) {
    let app = TestApp::start(backend);
    let conn = &mut app.db();
    user(conn, "director");
    let dir = directors::set_director(conn, "director", true).unwrap();
    let sam = user(conn, "sam");
    let others: Vec<User> = ["amy", "bea", "cyd"]
        .iter()
        .map(|n| user(conn, n))
        .collect();
    let mut players: Vec<&User> = vec![&sam];
    players.extend(others.iter());
    let (tid, start) = tournament(conn, &dir, &players, "60d/move", "10", "");
    // Sam's three games; where Sam has Black the opponent moves at once,
    // so that Sam is to move in all three from the start.
    let sams = mine(conn, tid, &sam);
    assert_eq!(sams.len(), 3, "a round robin of four: three games each");
    for g in &sams {
        assert_eq!(g.silence_days, Some(10));
        if g.black_id == Some(sam.id) {
            let white = others.iter().find(|o| g.white_id == Some(o.id)).unwrap();
            common::play_move(conn, g.id, white, "e4", None, true, start).unwrap();
        }
    }
    // The others keep playing their games among themselves, so only Sam
    // is silent.
    let others_move = |conn: &mut DbConn, text: &str, at: NaiveDateTime| {
        for g in missive::db::tournament_games::of_tournament(conn, tid).unwrap() {
            if g.white_id == Some(sam.id) || g.black_id == Some(sam.id) {
                continue;
            }
            let to_move = missive::db::games::player_to_move(&g).unwrap();
            let mover = others.iter().find(|o| o.id == to_move).unwrap();
            common::play_move(conn, g.id, mover, text, None, true, at).unwrap();
        }
    };
    others_move(conn, "Nf3", start + Duration::days(4));
    // Before half the period nothing happens.
    let s = silence::sweep(conn, start + Duration::days(5) - Duration::seconds(1)).unwrap();
    assert_eq!((s.warnings, s.losses), (0, 0));
    // At half: one warning per game to Sam, and the director told.
    let half = start + Duration::days(5);
    assert_eq!(silence::sweep(conn, half).unwrap().warnings, 3);
    assert_eq!(silence::sweep(conn, half).unwrap().warnings, 0, "once");
    let warned = notices(conn, ClockNotice::SilenceWarning);
    assert_eq!(warned.len(), 3);
    assert!(warned.iter().all(|(to, _)| *to == sam.id));
    let told = notices(conn, ClockNotice::SilenceReport);
    assert_eq!(told.len(), 3);
    assert!(told.iter().all(|(to, _)| *to == dir.id));
    // Three days before the end: the last warning.
    others_move(conn, "Nf6", start + Duration::days(6) + Duration::hours(12));
    let last = start + Duration::days(7);
    assert_eq!(silence::sweep(conn, last).unwrap().warnings, 3);
    assert_eq!(silence::sweep(conn, last).unwrap().warnings, 0, "once");
    assert_eq!(notices(conn, ClockNotice::SilenceWarning).len(), 6);
    // The warnings are in each game's history.
    let h = game_events::events_of(conn, sams[0].id).unwrap();
    assert_eq!(h.len(), 2, "{h:?}");
    assert!(h[0].detail.starts_with("first silence warning"), "{h:?}");
    assert!(h[1].detail.starts_with("last silence warning"), "{h:?}");
    // A warning mail renders with the end of the period in it.
    let ctx = missive::mail::context::MailCtx::new(&app.config, &app.secret()).unwrap();
    let row = outbox::all(conn)
        .unwrap()
        .into_iter()
        .find(|m| m.kind == MailKind::ClockNotice && m.user_id == sam.id)
        .unwrap();
    let r = missive::mail::render::render(conn, &ctx, &row, last)
        .unwrap()
        .unwrap();
    let end = missive::domain::time_control::utc_minute(start + Duration::days(10));
    assert!(r.text.contains(&end), "{}", r.text);
    assert!(r.text.contains("lost by silence"), "{}", r.text);
    // At the end: two losses by silence are half of Sam's three games or
    // more, a silent withdrawal: the third game ends as a withdrawal.
    let end = start + Duration::days(10);
    let s = silence::sweep(conn, end).unwrap();
    assert_eq!(s.losses, 2, "{s:?}");
    let mut reasons: Vec<Option<EndReason>> = mine(conn, tid, &sam)
        .iter()
        .map(|g| {
            assert_eq!(g.status, GameStatus::Finished);
            assert_eq!(
                g.result.and_then(GameResult::loser).map(Side::color),
                missive::db::games::side_of(g, sam.id)
            );
            g.reason
        })
        .collect();
    reasons.sort_by_key(|r| r.map(|r| r.code()));
    assert_eq!(
        reasons,
        vec![
            Some(EndReason::Silence),
            Some(EndReason::Silence),
            Some(EndReason::Withdrawal)
        ]
    );
    let e = missive::db::entrants::find(conn, tid, sam.id)
        .unwrap()
        .unwrap();
    assert!(e.withdrawn_at.is_some());
    let why = e.withdrawal_reason.unwrap();
    assert!(why.starts_with("silent withdrawal"), "{why}");
    // Two of three completed: the results stand.
    assert!(!e.results_cancelled);
    assert_eq!(
        silence::sweep(conn, end + Duration::days(1))
            .unwrap()
            .losses,
        0
    );
    // The reason in words and as stored.
    let j = app.client().json(sams[0].id);
    assert!(["silence", "withdrawal"].contains(&j["reason"].as_str().unwrap()));
}

fn a_move_resets_the_silence_and_leave_holds_it(backend: Backend) {
    let app = TestApp::start(backend);
    let conn = &mut app.db();
    let amy = user(conn, "amy");
    let bob = user(conn, "bob");
    let tc: missive::domain::time_control::TimeControl = "60d/move".parse().unwrap();
    let id = challenge::create_active_game(conn, "chess", amy.id, bob.id, Some(&tc), None, t0())
        .unwrap();
    // A casual game has no silence rule unless set: nothing happens.
    assert_eq!(
        silence::sweep(conn, t0() + Duration::days(30))
            .unwrap()
            .losses,
        0
    );
    diesel::update(games::table.find(id))
        .set(games::silence_days.eq(Some(8)))
        .execute(conn)
        .unwrap();
    assert_eq!(
        silence::sweep(conn, t0() + Duration::days(4))
            .unwrap()
            .warnings,
        1
    );
    // Amy moves: Bob's turn starts a new period.
    common::play_move(conn, id, &amy, "e4", None, true, t0() + Duration::days(6)).unwrap();
    let s = silence::sweep(conn, t0() + Duration::days(9)).unwrap();
    assert_eq!((s.warnings, s.losses), (0, 0));
    // Bob books leave on days 12 and 13: his period stops for them.
    missive::clocks::leave::book_leave(
        conn,
        bob.id,
        (t0() + Duration::days(12)).date(),
        (t0() + Duration::days(13)).date(),
        30,
        t0() + Duration::days(6),
    )
    .unwrap();
    let turn = t0() + Duration::days(6);
    assert_eq!(
        silence::sweep(conn, turn + Duration::days(4))
            .unwrap()
            .warnings,
        1
    );
    assert_eq!(
        silence::sweep(conn, turn + Duration::days(5))
            .unwrap()
            .warnings,
        1
    );
    // Eight days of silence, but two of them on leave: not yet.
    assert_eq!(
        silence::sweep(conn, turn + Duration::days(8))
            .unwrap()
            .losses,
        0
    );
    assert_eq!(
        silence::sweep(conn, turn + Duration::days(10))
            .unwrap()
            .losses,
        1
    );
    let row = missive::db::games::load(conn, id).unwrap();
    assert_eq!(row.reason, Some(EndReason::Silence));
    assert_eq!(row.result, Some(GameResult::WhiteWins));
    // No director: only the player was warned (three warnings).
    assert_eq!(notices(conn, ClockNotice::SilenceWarning).len(), 3);
    assert!(notices(conn, ClockNotice::SilenceReport).is_empty());
}

fn claim_or_wait(backend: Backend) {
    let app = TestApp::start(backend);
    let conn = &mut app.db();
    user(conn, "director");
    let dir = directors::set_director(conn, "director", true).unwrap();
    let amy = user(conn, "amy");
    let bob = user(conn, "bob");
    let (tid, start) = tournament(conn, &dir, &[&amy, &bob], "2d/move", "", "claim");
    let g = missive::db::tournament_games::of_tournament(conn, tid).unwrap()[0].clone();
    assert_eq!(g.on_timeout, missive::domain::game_state::OnTimeout::Claim);
    let (white, black) = if g.white_id == Some(amy.id) {
        (&amy, &bob)
    } else {
        (&bob, &amy)
    };
    // White's flag falls: the game goes on, Black is mailed.
    let flag = start + Duration::days(2);
    let swept = forfeit::sweep_report(conn, flag).unwrap();
    assert_eq!(swept.forfeits, 0);
    let row = missive::db::games::load(conn, g.id).unwrap();
    assert_eq!(row.status, GameStatus::Active);
    assert_eq!(row.flag_fell_side, Some(Side::White));
    assert_eq!(row.claim_until, Some(flag + Duration::days(14)));
    assert_eq!(
        notices(conn, ClockNotice::FlagFell),
        vec![(black.id, Some(g.id))]
    );
    // Again: nothing new.
    forfeit::sweep_report(conn, flag + Duration::hours(1)).unwrap();
    assert_eq!(notices(conn, ClockNotice::FlagFell).len(), 1);
    // The flagged player may not claim; White plays on.
    assert!(matches!(
        claim::claim(conn, g.id, white, flag),
        Err(Error::Invalid(_))
    ));
    common::play_move(
        conn,
        g.id,
        white,
        "e4",
        None,
        true,
        flag + Duration::hours(2),
    )
    .unwrap();
    // Unclaimed for 14 days: lost on time.
    assert_eq!(
        forfeits_at(conn, flag + Duration::days(14) - Duration::seconds(1)),
        0
    );
    assert_eq!(forfeits_at(conn, flag + Duration::days(14)), 1);
    let row = missive::db::games::load(conn, g.id).unwrap();
    assert_eq!(row.reason, Some(EndReason::TimeForfeit));
    assert_eq!(row.result, Some(GameResult::BlackWins));
    assert_eq!(
        row.white_clock_secs,
        Some(0),
        "the loser's clock shows zero"
    );
    let kinds: Vec<String> = game_events::events_of(conn, g.id)
        .unwrap()
        .iter()
        .map(|e| e.kind.to_string())
        .collect();
    assert_eq!(kinds, vec!["flag-fell"]);
    // A claim on a game where no flag fell is refused.
    let tc: missive::domain::time_control::TimeControl = "2d/move".parse().unwrap();
    let id = challenge::create_active_game(conn, "chess", amy.id, bob.id, Some(&tc), None, t0())
        .unwrap();
    let r = claim::claim(conn, id, &bob, t0() + Duration::days(1));
    assert!(matches!(r, Err(Error::Invalid(m)) if m.contains("no win to claim")));
    // A game set to `lose` is lost at once, as before.
    assert_eq!(forfeits_at(conn, t0() + Duration::days(2)), 1);
}

fn claim_over_http_asks_first_and_shows_the_history(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.verified_user("alice");
    let bob = app.verified_user("bob");
    let id = alice.challenge("bob", "white");
    assert_eq!(
        bob.post(&format!("/games/{id}/accept"), &[]).status,
        StatusCode::SEE_OTHER
    );
    let now = missive::web::now();
    {
        let mut conn = app.db();
        // Three days per move, begun four days ago, to be claimed.
        let then = now - Duration::days(4);
        diesel::update(games::table.find(id))
            .set((
                games::on_timeout.eq("claim"),
                games::turn_started_at.eq(Some(then)),
                games::clock_deadline.eq(Some(then + Duration::days(3))),
            ))
            .execute(&mut conn)
            .unwrap();
        forfeit::sweep(&mut conn, now).unwrap();
    }
    let page = bob.get(&format!("/games/{id}"));
    assert!(page.has("Claim the win on time"), "{}", page.body);
    assert!(page.has("id=\"events\""), "{}", page.body);
    assert!(!alice
        .get(&format!("/games/{id}"))
        .has("Claim the win on time"));
    // Asked first: the game goes on.
    let ask = bob.post(&format!("/games/{id}/claim"), &[]);
    assert_eq!(ask.status, StatusCode::OK);
    assert!(ask.has("confirm-claim"), "{}", ask.body);
    assert_eq!(bob.json(id)["status"], "active");
    // The flagged player cannot claim.
    let refused = alice.post(&format!("/games/{id}/claim"), &[("confirm", "1")]);
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    let done = bob.post(&format!("/games/{id}/claim"), &[("confirm", "1")]);
    assert_eq!(done.status, StatusCode::SEE_OTHER);
    let j = bob.json(id);
    assert_eq!(j["status"], "finished");
    assert_eq!(j["result"], "0-1");
    assert_eq!(j["reason"], "time-forfeit");
    let kinds: Vec<&str> = j["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, vec!["flag-fell", "claim"]);
    assert_eq!(j["events"][1]["by"], "bob");
    // A second claim: the game is over.
    let again = bob.post(&format!("/games/{id}/claim"), &[("confirm", "1")]);
    assert_eq!(again.status, StatusCode::FORBIDDEN);
}

fn outage_moves_the_clocks_once_with_two_racing_sweepers(backend: Backend) {
    // No clock worker beating real time into the heartbeat.
    let app = TestApp::start_with(backend, |c| c.clock_worker = false);
    let conn = &mut app.db();
    let amy = user(conn, "amy");
    let bob = user(conn, "bob");
    let tc: missive::domain::time_control::TimeControl = "3d/move".parse().unwrap();
    let ids: Vec<GameId> = (0..3)
        .map(|_| {
            challenge::create_active_game(conn, "chess", amy.id, bob.id, Some(&tc), None, t0())
                .unwrap()
        })
        .collect();
    let grace = Duration::minutes(60);
    // The first beat, then beats within the grace period: nothing moves.
    assert_eq!(outage::check(conn, t0(), grace).unwrap(), None);
    let beat = t0() + Duration::minutes(60);
    assert_eq!(outage::check(conn, beat, grace).unwrap(), None);
    let before: Vec<GameRow> = ids
        .iter()
        .map(|i| missive::db::games::load(conn, *i).unwrap())
        .collect();
    // Down for 3 h 12 min: two processes notice at once.
    let now = beat + Duration::minutes(3 * 60 + 12);
    let url = app.database_url.clone();
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
    let racers: Vec<_> = (0..2)
        .map(|_| {
            let url = url.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let mut conn = missive::db::Manager::new(&url).open().unwrap();
                barrier.wait();
                outage::check(&mut conn, now, grace).unwrap()
            })
        })
        .collect();
    let found: Vec<outage::Outage> = racers
        .into_iter()
        .filter_map(|t| t.join().unwrap())
        .collect();
    assert_eq!(found.len(), 1, "one process moves the clocks: {found:?}");
    assert_eq!(found[0].secs, 192 * 60);
    assert_eq!(found[0].games, 3);
    let by = Duration::minutes(192);
    for b in &before {
        let a = missive::db::games::load(conn, b.id).unwrap();
        assert_eq!(a.clock_deadline, b.clock_deadline.map(|d| d + by));
        assert_eq!(a.white_clock_secs, b.white_clock_secs.map(|s| s + 192 * 60));
        assert_eq!(a.black_clock_secs, b.black_clock_secs);
        let h = game_events::events_of(conn, b.id).unwrap();
        assert_eq!(h.len(), 1);
        assert_eq!(
            h[0].detail,
            "clocks extended by 3 h 12 min after a service outage on 2026-12-01 10:00 UTC"
        );
    }
    // Later checks find no new outage; the clocks stay where they are.
    assert_eq!(outage::check(conn, now, grace).unwrap(), None);
    assert_eq!(
        outage::check(conn, now + Duration::minutes(5), grace).unwrap(),
        None
    );
    // The game's deadline is the old one plus the outage: not lost at the
    // old deadline.
    let old = before[0].clock_deadline.unwrap();
    assert_eq!(forfeit::sweep_report(conn, old).unwrap().forfeits, 0);
    assert_eq!(forfeit::sweep_report(conn, old + by).unwrap().forfeits, 3);
    // The page shows the note.
    let page = app.client().get(&format!("/games/{}", ids[0]));
    assert!(
        page.has("clocks extended by 3 h 12 min after a service outage on 2026-12-01 10:00 UTC"),
        "{}",
        page.body
    );
}

/// Games a clock sweep at `at` ends on time.
fn forfeits_at(conn: &mut DbConn, at: NaiveDateTime) -> usize {
    forfeit::sweep_report(conn, at).unwrap().forfeits
}

fn reminders_of(app: &TestApp, user: i32) -> i64 {
    app.count(&format!(
        "SELECT COUNT(*) AS n FROM email_outbox WHERE kind = 'clock_reminder' AND user_id = {user}"
    ))
}

fn reminders_a_player_chooses_come_once_each_per_move(backend: Backend) {
    let app = TestApp::start(backend);
    let conn = &mut app.db();
    let amy = user(conn, "amy");
    let bob = user(conn, "bob");
    missive::clocks::reminders::save(conn, amy.id, "4h 50% 24h", t0()).unwrap();
    let tc: missive::domain::time_control::TimeControl = "3d/move".parse().unwrap();
    let id = challenge::create_active_game(conn, "chess", amy.id, bob.id, Some(&tc), None, t0())
        .unwrap();
    let sweep = |conn: &mut DbConn, at: NaiveDateTime| forfeit::sweep_report(conn, at).unwrap();
    // Amy's: with half the time left, with a day, with four hours; each once.
    let half = t0() + Duration::hours(36);
    assert_eq!(sweep(conn, half - Duration::seconds(1)).reminders, 0);
    for (at, total) in [
        (half, 1),
        (half + Duration::minutes(1), 1),
        (t0() + Duration::days(2), 2),
        (t0() + Duration::days(2) + Duration::hours(1), 2),
        (t0() + Duration::hours(68), 3),
        (t0() + Duration::hours(71), 3),
    ] {
        sweep(conn, at);
        assert_eq!(reminders_of(&app, amy.id), total, "at {at}");
    }
    let row = missive::db::games::load(conn, id).unwrap();
    assert_eq!(row.clock_remind_at, None, "nothing more to send this turn");
    let said: Vec<String> = game_events::events_of(conn, id)
        .unwrap()
        .iter()
        .filter(|e| e.kind.to_string() == "reminder")
        .map(|e| e.detail.clone())
        .collect();
    assert_eq!(
        said,
        vec![
            "reminder 1 of this turn: 1 day 12 hours left",
            "reminder 2 of this turn: 1 day left",
            "reminder 3 of this turn: 4 hours left",
        ]
    );
    // Bob chose nothing: the default single reminder, a day before his
    // deadline.
    let moved = t0() + Duration::hours(71);
    common::play_move(conn, id, &amy, "e4", None, true, moved).unwrap();
    assert_eq!(sweep(conn, moved + Duration::hours(47)).reminders, 0);
    assert_eq!(sweep(conn, moved + Duration::hours(48)).reminders, 1);
    assert_eq!(sweep(conn, moved + Duration::hours(71)).reminders, 0);
    assert_eq!(reminders_of(&app, bob.id), 1);
    // Amy's next turn starts her thresholds again.
    let back = moved + Duration::hours(72) - Duration::minutes(1);
    common::play_move(conn, id, &bob, "e5", None, true, back).unwrap();
    sweep(conn, back + Duration::hours(36));
    assert_eq!(reminders_of(&app, amy.id), 4);
    // Back to the default: one reminder a turn.
    missive::clocks::reminders::save(conn, amy.id, " ", back).unwrap();
    assert!(missive::db::reminder_prefs::of(conn, amy.id)
        .unwrap()
        .is_none());
}

fn reminders_are_chosen_in_the_settings(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.verified_user("alice");
    let page = alice.get("/settings");
    assert!(page.has("id=\"settings-reminders\""), "{}", page.body);
    let refused = alice.post("/settings/reminders", &[("reminders", "50%, soon")]);
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(refused.has("id=\"reminders-error\""));
    assert!(
        refused.has("is neither a percentage (50%) nor a time"),
        "{}",
        refused.body
    );
    assert!(refused.has("value=\"50%, soon\""), "what was typed is kept");
    let saved = alice.post("/settings/reminders", &[("reminders", "50% 24h  4h")]);
    assert_eq!(saved.status, StatusCode::SEE_OTHER);
    assert!(alice.get("/settings").has("value=\"50%, 1d, 4h\""));
    let cleared = alice.post("/settings/reminders", &[("reminders", "")]);
    assert_eq!(cleared.status, StatusCode::SEE_OTHER);
    assert!(alice.get("/settings").has("name=\"reminders\" value=\"\""));
}

fn kinds_and_details(conn: &mut DbConn, game: GameId) -> Vec<(String, String)> {
    game_events::events_of(conn, game)
        .unwrap()
        .into_iter()
        .map(|e| (e.kind.to_string(), e.detail))
        .collect()
}

fn directors_give_time_and_decide_results_and_both_players_are_told(backend: Backend) {
    use missive::tournaments::{adjudication, extension};
    let app = TestApp::start(backend);
    let conn = &mut app.db();
    user(conn, "director");
    let dir = directors::set_director(conn, "director", true).unwrap();
    let amy = user(conn, "amy");
    let bob = user(conn, "bob");
    let (tid, start) = tournament(conn, &dir, &[&amy, &bob], "3d/move", "", "lose");
    let g = missive::db::tournament_games::of_tournament(conn, tid).unwrap()[0].clone();
    let white = if g.white_id == Some(amy.id) {
        &amy
    } else {
        &bob
    };
    let at = start + Duration::hours(1);
    // Refused, each with its reason; nothing changes.
    let refused = |r: Result<(), Error>, says: &str| match r {
        Err(Error::Invalid(m)) | Err(Error::Forbidden(m)) => assert!(m.contains(says), "{m}"),
        other => panic!("{other:?}"),
    };
    refused(
        extension::extend(conn, g.id, white, "white", "1d", "please", at),
        "director",
    );
    refused(
        extension::extend(conn, g.id, &dir, "white", "soon", "outage", at),
        "not a time",
    );
    refused(
        extension::extend(conn, g.id, &dir, "white", "1d", "  ", at),
        "reason",
    );
    refused(
        extension::extend(conn, g.id, &dir, "black", "1d", "outage", at),
        "only the player to move",
    );
    assert_eq!(
        missive::db::games::load(conn, g.id).unwrap().clock_deadline,
        g.clock_deadline
    );
    // White, to move, gets a day: the deadline moves, the history says
    // who and why, both players are mailed.
    extension::extend(
        conn,
        g.id,
        &dir,
        "white",
        "1d",
        "mail outage at the club",
        at,
    )
    .unwrap();
    let row = missive::db::games::load(conn, g.id).unwrap();
    assert_eq!(row.clock_deadline, Some(start + Duration::days(4)));
    assert_eq!(row.white_clock_secs, Some(4 * 86_400));
    assert_eq!(
        kinds_and_details(conn, g.id),
        vec![(
            "extension".to_string(),
            format!(
                "1 day more for {}, because: mail outage at the club",
                white.username
            )
        )]
    );
    let mut told = notices(conn, ClockNotice::TimeExtended);
    told.sort();
    let mut both = vec![(amy.id, Some(g.id)), (bob.id, Some(g.id))];
    both.sort();
    assert_eq!(told, both);
    assert_eq!(
        game_events::events_of(conn, g.id).unwrap()[0].user_id,
        Some(dir.id),
        "the director is named"
    );
    // The old deadline passes: the game goes on; the new one: lost on time.
    assert_eq!(forfeits_at(conn, start + Duration::days(3)), 0);
    assert_eq!(forfeits_at(conn, start + Duration::days(4)), 1);
    let row = missive::db::games::load(conn, g.id).unwrap();
    assert_eq!(row.reason, Some(EndReason::TimeForfeit));
    // The director then decides the finished game otherwise (an unrated
    // one: a rated result stays): the history and both players say so.
    diesel::update(games::table.find(g.id))
        .set(games::rated.eq(false))
        .execute(conn)
        .unwrap();
    adjudication::adjudicate(conn, g.id, &dir, "1/2-1/2", "the outage lasted longer", at).unwrap();
    let history = kinds_and_details(conn, g.id);
    assert_eq!(
        history.last().unwrap(),
        &(
            "adjudication".to_string(),
            "1/2-1/2, because: the outage lasted longer".to_string()
        )
    );
    let mut told = notices(conn, ClockNotice::Adjudicated);
    told.sort();
    assert_eq!(told, both);
    // Booking leave is in the history of each running game of the player.
    let tc: missive::domain::time_control::TimeControl = "3d/move".parse().unwrap();
    let id = challenge::create_active_game(conn, "chess", amy.id, bob.id, Some(&tc), None, t0())
        .unwrap();
    let day = |d: u32| NaiveDate::from_ymd_opt(2026, 12, d).unwrap();
    missive::clocks::leave::book_leave(conn, amy.id, day(10), day(12), 30, t0()).unwrap();
    assert_eq!(
        kinds_and_details(conn, id),
        vec![(
            "leave".to_string(),
            "leave booked from 2026-12-10 to 2026-12-12".to_string()
        )]
    );
}

fn a_loss_on_time_cools_a_player_off_before_new_tournaments(backend: Backend) {
    let app = TestApp::start(backend);
    let conn = &mut app.db();
    user(conn, "director");
    let dir = directors::set_director(conn, "director", true).unwrap();
    let amy = user(conn, "amy");
    let bob = user(conn, "bob");
    let tc: missive::domain::time_control::TimeControl = "1d/move".parse().unwrap();
    challenge::create_active_game(conn, "chess", amy.id, bob.id, Some(&tc), None, t0()).unwrap();
    let lost = t0() + Duration::days(1);
    assert_eq!(forfeit::sweep_report(conn, lost).unwrap().forfeits, 1);
    let f = TournamentForm {
        name: "Cool Cup".into(),
        variant: "chess".into(),
        time_control: "3d/move".into(),
        format: "round-robin".into(),
        entry_closes: "2027-01-31".into(),
        max_players: "10".into(),
        cooling_off_days: "7".into(),
        ..TournamentForm::default()
    };
    let tid = entry::create(conn, &dir, &f, t0()).unwrap();
    match entry::join(conn, tid, &amy, lost + Duration::days(2)) {
        Err(Error::Forbidden(m)) => {
            assert!(m.contains("cooling-off of 7 days"), "{m}");
            assert!(m.contains("2026-12-09 09:00"), "{m}");
        }
        other => panic!("{other:?}"),
    }
    // The winner is not cooled off; the loser is, until the days are over.
    entry::join(conn, tid, &bob, lost + Duration::days(2)).unwrap();
    entry::join(
        conn,
        tid,
        &amy,
        lost + Duration::days(7) + Duration::minutes(1),
    )
    .unwrap();
}
