//! Tournaments (issue 10): pairings, standings, forfeit rules and directors,
//! through the services with a controlled clock and over HTTP, on both
//! backends.

use crate::common;
use crate::common::smtp;
use crate::common::tournament_kit::{by_id, director, finish, form, started, t0, tgames, user};
use missive::domain::ids::GameId;

use chrono::{Duration, NaiveDateTime};
use common::{Backend, TestApp};
use missive::accounts::users as accounts;
use missive::db::games::{self, GameRow};
use missive::db::users::User;
use missive::db::DbConn;
use missive::db::{byes, entrants, tournaments};
use missive::domain::dutch;
use missive::domain::error::Error;
use missive::domain::game_state::{EndReason, GameResult, GameStatus, Side};
use missive::domain::mail_kind::MailKind;
use missive::domain::tournament_state::TournamentStatus;
use missive::tournaments::entry;
use missive::tournaments::rounds;
use missive::tournaments::swiss_field::swiss_field;
use missive::tournaments::views;
use missive::tournaments::views::StandingLine;
use missive::tournaments::withdrawal;
use reqwest::StatusCode;
use std::collections::HashSet;

both_backends!(
    round_robin_of_five,
    swiss_of_eight,
    forfeits_withdraw_and_cancel_below_half,
    forfeits_withdraw_and_stand_from_half,
    director_withdraws_and_replaces,
    start_is_claimed_once_and_entry_is_bounded,
    http_tournament_flow,
    only_directors_direct,
    directors_never_decide_their_own_games,
    directors_import_checked_records,
    round_mail_in_the_variants_side_names,
);

/// A loss on time, as the clock sweeper finds it: the loser is to move (the
/// opponent moves first at `start` if needed) and their 3 days have run out
/// at `now`; the clocks service ends the game through the games service.
fn time_forfeit(
    conn: &mut DbConn,
    game_id: GameId,
    loser: i32,
    start: NaiveDateTime,
    now: NaiveDateTime,
) {
    let mut row = games::load(conn, game_id).unwrap();
    if games::player_to_move(&row) != Some(loser) {
        let mover = missive::db::users::find_by_id(conn, games::player_to_move(&row).unwrap())
            .unwrap()
            .unwrap();
        common::play_move(conn, game_id, &mover, "e4", None, true, start).unwrap();
        row = games::load(conn, game_id).unwrap();
    }
    assert!(
        !missive::game::flag::forfeit_if_flagged(conn, &row, start + Duration::days(2)).unwrap()
    );
    assert!(missive::game::flag::forfeit_if_flagged(conn, &row, now).unwrap());
    let row = games::load(conn, game_id).unwrap();
    assert_eq!(row.reason, Some(EndReason::TimeForfeit));
}

fn line<'a>(s: &'a [StandingLine], name: &str) -> &'a StandingLine {
    s.iter().find(|l| l.name == name).unwrap()
}

fn round_robin_of_five(backend: Backend) {
    let app = TestApp::start(backend);
    let conn = &mut app.db();
    let dir = director(conn, "director");
    let names = ["ann", "ben", "cat", "dan", "eve"];
    let us: Vec<User> = names.iter().map(|n| user(conn, n)).collect();
    let refs: Vec<&User> = us.iter().collect();
    let (tid, start) = started(conn, &dir, form("Winter RR", "round-robin", "", "2"), &refs);
    let t = tournaments::load(conn, tid).unwrap();
    assert_eq!(t.status, TournamentStatus::Running);
    assert_eq!((t.rounds, t.current_round), (5, 5));
    let gs = tgames(conn, tid);
    // Berger tables: all ten games at once, every pair exactly once, two
    // games and one bye per round.
    assert_eq!(gs.len(), 10);
    let mut pairs = HashSet::new();
    for g in &gs {
        assert_eq!(g.status, GameStatus::Active);
        assert_eq!(g.turn, Side::White);
        let (w, b) = (g.white_id.unwrap(), g.black_id.unwrap());
        assert!(pairs.insert((w.min(b), w.max(b))), "pair repeated");
    }
    assert_eq!(pairs.len(), 10);
    for r in 1..=5 {
        let round: Vec<&GameRow> = gs.iter().filter(|g| g.round == Some(r)).collect();
        assert_eq!(round.len(), 2, "round {r}");
        let mut seen: HashSet<i32> = HashSet::new();
        for g in &round {
            assert!(seen.insert(g.white_id.unwrap()) && seen.insert(g.black_id.unwrap()));
        }
    }
    // Everyone was mailed their games (one mail listing all five rounds).
    let mails = missive::db::outbox::all(conn).unwrap();
    for u in &us {
        assert_eq!(
            mails
                .iter()
                .filter(|m| m.kind == MailKind::TournamentRound && m.user_id == u.id)
                .count(),
            1
        );
    }
    // The mail renders: the tournament, each round's game with its link.
    let (transport, sent) = missive::mail::transport::Transport::memory();
    let sender = missive::mail::drain::Sender {
        transport,
        ctx: missive::mail::context::MailCtx::new(&app.config, b"secret").unwrap(),
        owner: "test".into(),
    };
    missive::mail::drain::drain_once(conn, &sender, start).unwrap();
    let sent = sent.lock().unwrap().clone();
    let round_mails: Vec<_> = sent
        .iter()
        .filter(|m| m.raw.contains("Winter RR: your games"))
        .collect();
    assert_eq!(round_mails.len(), 5);
    let ann_mail = round_mails
        .iter()
        .find(|m| m.to.iter().any(|t| t.contains("ann@")))
        .unwrap();
    assert!(ann_mail.raw.contains("/tournaments/"), "{}", ann_mail.raw);
    let ann_games = gs
        .iter()
        .filter(|g| g.white_id == Some(us[0].id) || g.black_id == Some(us[0].id));
    for g in ann_games {
        assert!(
            ann_mail.raw.contains(&format!("/games/{}", g.id)),
            "game {}",
            g.id
        );
    }
    // The dashboard: ann books leave (days 2 to 4); a day and a half in,
    // every game whose mover is not ann runs out within 48 hours (3 days a
    // move), ann's own clocks are stopped.
    missive::clocks::leave::book_leave(
        conn,
        us[0].id,
        (start + Duration::days(1)).date(),
        (start + Duration::days(3)).date(),
        30,
        start,
    )
    .unwrap();
    let d = views::dashboard(conn, &dir, start + Duration::hours(36)).unwrap();
    assert_eq!(d.on_leave.len(), 1);
    assert_eq!(d.on_leave[0].0, "ann");
    let ann_white = gs.iter().filter(|g| g.white_id == Some(us[0].id)).count();
    assert_eq!(d.nearing_timeout.len(), 10 - ann_white);
    assert!(d.nearing_timeout.iter().all(|n| n.2 != "ann"));
    assert!(d
        .nearing_timeout
        .iter()
        .all(|n| n.4 == start + Duration::days(3)));
    // Chosen results, by pair (the first named scores that much).
    let id = |n: &str| us[names.iter().position(|x| *x == n).unwrap()].id;
    let chosen = [
        ("ann", "ben", 2),
        ("ann", "cat", 2),
        ("ann", "dan", 1),
        ("ann", "eve", 0),
        ("ben", "cat", 1),
        ("ben", "dan", 2),
        ("ben", "eve", 2),
        ("cat", "dan", 2),
        ("cat", "eve", 1),
        ("dan", "eve", 2),
    ];
    let who = by_id(&refs);
    for (k, (a, b, pa)) in chosen.iter().enumerate() {
        let g = gs
            .iter()
            .find(|g| {
                let p = [g.white_id.unwrap(), g.black_id.unwrap()];
                p.contains(&id(a)) && p.contains(&id(b))
            })
            .unwrap();
        let a_white = g.white_id == Some(id(a));
        let result = match (pa, a_white) {
            (1, _) => "1/2-1/2",
            (2, true) | (0, false) => "1-0",
            _ => "0-1",
        };
        finish(conn, g, result, &who, start + Duration::hours(k as i64 + 1));
    }
    let t = tournaments::load(conn, tid).unwrap();
    assert_eq!(
        t.status,
        TournamentStatus::Finished,
        "every game over: the tournament is"
    );
    let v = views::view(conn, tid).unwrap();
    // Hand-checked: points ann 2½ ben 2½ cat 2 dan 1½ eve 1½; Sonneborn-
    // Berger ann 5¼ (ben 2½ + cat 2 + ½·dan 1½), ben 4 (dan + eve + ½·cat),
    // cat 3½ (dan + ½·ben + ½·eve), eve 3½ (ann + ½·cat), dan 2¾ (eve + ½·ann).
    let order: Vec<&str> = v.standings.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(order, ["ann", "ben", "cat", "eve", "dan"]);
    let expect = [
        ("ann", 1, 5, 21),
        ("ben", 2, 5, 16),
        ("cat", 3, 4, 14),
        ("eve", 4, 3, 14),
        ("dan", 5, 3, 11),
    ];
    for (n, rank, p2, sb4) in expect {
        let l = line(&v.standings, n);
        assert_eq!(
            (l.rank, l.points2, l.sb4, l.played),
            (rank, p2, sb4, 4),
            "{n}"
        );
    }
    // Crosstable rows in standings order; ann beat ben, lost to eve.
    let ct = v.crosstable.unwrap();
    assert_eq!(ct[0].0, "ann");
    assert_eq!(ct[0].1, ["X", "1", "1", "0", "½"]);
    assert_eq!(ct[3].0, "eve");
    assert_eq!(ct[3].1, ["1", "0", "½", "X", "0"]);
    read_back_by_the_oracle(&app, conn, tid);
}

fn swiss_of_eight(backend: Backend) {
    let app = TestApp::start(backend);
    let conn = &mut app.db();
    let dir = director(conn, "director");
    let names = ["pl1", "pl2", "pl3", "pl4", "pl5", "pl6", "pl7", "pl8"];
    let us: Vec<User> = names.iter().map(|n| user(conn, n)).collect();
    let refs: Vec<&User> = us.iter().collect();
    let who = by_id(&refs);
    let (tid, start) = started(conn, &dir, form("Swiss", "swiss", "3", "2"), &refs);
    let seed = |uid: i32| us.iter().position(|u| u.id == uid).unwrap() + 1;
    let mut met: HashSet<(usize, usize)> = HashSet::new();
    let mut rounds_seen = Vec::new();
    for round in 1..=3 {
        let t = tournaments::load(conn, tid).unwrap();
        assert_eq!(t.current_round, round, "round {round} is paired");
        let gs: Vec<GameRow> = tgames(conn, tid)
            .into_iter()
            .filter(|g| g.round == Some(round))
            .collect();
        assert_eq!(gs.len(), 4);
        let mut boards = Vec::new();
        for g in &gs {
            let (w, b) = (seed(g.white_id.unwrap()), seed(g.black_id.unwrap()));
            assert!(met.insert((w.min(b), w.max(b))), "repeat pairing {w}-{b}");
            boards.push((w, b));
        }
        boards.sort_by_key(|(w, b)| *w.min(b));
        rounds_seen.push(boards);
        // The better seed wins, except that board 2 of round 2 is drawn.
        for (k, g) in gs.iter().enumerate() {
            let (w, b) = (seed(g.white_id.unwrap()), seed(g.black_id.unwrap()));
            let result = if round == 2 && w.min(b) == 2 {
                "1/2-1/2"
            } else if w < b {
                "1-0"
            } else {
                "0-1"
            };
            // The next round appears only when the last game of this one ends.
            assert_eq!(tournaments::load(conn, tid).unwrap().current_round, round);
            finish(
                conn,
                g,
                result,
                &who,
                start + Duration::days(round as i64) + Duration::minutes(k as i64),
            );
        }
    }
    assert_eq!(
        tournaments::load(conn, tid).unwrap().status,
        TournamentStatus::Finished
    );
    // Round 1: top half against bottom half.
    let r1: Vec<(usize, usize)> = rounds_seen[0]
        .iter()
        .map(|(w, b)| (*w.min(b), *w.max(b)))
        .collect();
    assert_eq!(r1, [(1, 5), (2, 6), (3, 7), (4, 8)]);
    let r2: Vec<(usize, usize)> = rounds_seen[1]
        .iter()
        .map(|(w, b)| (*w.min(b), *w.max(b)))
        .collect();
    let r3: Vec<(usize, usize)> = rounds_seen[2]
        .iter()
        .map(|(w, b)| (*w.min(b), *w.max(b)))
        .collect();
    // Round 2 within the score groups {1,2,3,4} and {5,6,7,8} (colours
    // decide which halves meet); round 3 likewise, by the scores after round
    // 2 (1: 2, 2 and 3: 1½, 4, 5, 6: 1, 7, 8: 0), no pair repeated.
    assert_eq!(r2, [(1, 4), (2, 3), (5, 8), (6, 7)]);
    assert_eq!(r3, [(1, 2), (3, 4), (5, 6), (7, 8)]);
    // How round 4 would see round 3's floats, by the scores before it: pl1
    // (2) met pl2 (1½) and pl3 (1½) met pl4 (1): down, up, down, up; the
    // others met their own score. Round 2 was paired within the scores.
    let t = tournaments::load(conn, tid).unwrap();
    let mut floats = |round: i32| -> Vec<Float> {
        let (users, field) = swiss_field(conn, &t, round).unwrap();
        let players = dutch::players::derive(&field);
        (1..=8)
            .map(|n| {
                let p = players.iter().find(|p| seed(users[p.id]) == n).unwrap();
                p.floats[0]
            })
            .collect()
    };
    use dutch::players::Float::{self, Down, None as Level, Up};
    assert_eq!(floats(4), [Down, Up, Down, Up, Level, Level, Level, Level]);
    assert_eq!(floats(3), [Level; 8]);
    assert_eq!(floats(1), [Level; 8]);
    let v = views::view(conn, tid).unwrap();
    // Hand-checked from those pairings and results:
    //   pl1 W5 W4 W2 = 3; pl2 W6 D3 L1 = 1½; pl3 W7 D2 W4 = 2½; pl4 W8 L1 L3 = 1;
    //   pl5 L1 W8 W6 = 2; pl6 L2 W7 L5 = 1; pl7 L3 L6 W8 = 1; pl8 = 0.
    // Buchholz (sum of the opponents' scores): pl1 2+1+1½ = 4½; pl2 1+2½+3 = 6½;
    //   pl3 1+1½+1 = 3½; pl4 0+3+2½ = 5½; pl5 3+0+1 = 4; pl6 1½+1+2 = 4½;
    //   pl7 2½+1+0 = 3½; pl8 1+2+1 = 4.
    // Sonneborn-Berger: pl1 2+1+1½ = 4½; pl2 1+½·2½ = 2¼; pl3 1+½·1½+1 = 2¾;
    //   pl4 0; pl5 0+1 = 1; pl6 1; pl7 0; pl8 0.
    // Order: points, then Buchholz (pl4 5½ > pl6 4½ > pl7 3½ on 1 point).
    let expect = [
        ("pl1", 1, 6, 9, 18),
        ("pl3", 2, 5, 7, 11),
        ("pl5", 3, 4, 8, 4),
        ("pl2", 4, 3, 13, 9),
        ("pl4", 5, 2, 11, 0),
        ("pl6", 6, 2, 9, 4),
        ("pl7", 7, 2, 7, 0),
        ("pl8", 8, 0, 8, 0),
    ];
    let order: Vec<&str> = v.standings.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(order, expect.iter().map(|e| e.0).collect::<Vec<_>>());
    for (n, rank, p2, bh2, sb4) in expect {
        let l = line(&v.standings, n);
        assert_eq!(
            (l.rank, l.points2, l.buchholz2, l.sb4),
            (rank, p2, bh2, sb4),
            "{n}"
        );
    }
    assert!(v.crosstable.is_none());
    // Every player was mailed once per round.
    let mails = missive::db::outbox::all(conn).unwrap();
    assert_eq!(
        mails
            .iter()
            .filter(|m| m.kind == MailKind::TournamentRound)
            .count(),
        24
    );
    read_back_by_the_oracle(&app, conn, tid);
}

/// Issue 63: `GET /tournaments/{id}.trf` (and `missive tournament export`'s
/// function) read by the oracle's TRF parser (caissify-pairings, installed by
/// .ci/run) gives the same players (seed order), rounds and results as the
/// database.
fn read_back_by_the_oracle(app: &TestApp, conn: &mut DbConn, tid: i32) {
    let page = app.client().get(&format!("/tournaments/{tid}.trf"));
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(
        page.body,
        missive::tournaments::trf_export::export(conn, tid).unwrap()
    );
    let cli = app.missive(&["tournament", "export", &tid.to_string()]);
    assert!(
        cli.status.success(),
        "{}",
        String::from_utf8_lossy(&cli.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&cli.stdout), page.body);
    let mut child = std::process::Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tools/trf_readback.py"
        ))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(page.body.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "the oracle's parser refused:\n{}",
        page.body
    );
    let read: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let t = tournaments::load(conn, tid).unwrap();
    assert_eq!(read["name"], t.name.as_str());
    let mut entrants = entrants::of_tournament(conn, tid).unwrap();
    entrants.sort_by_key(|e| (e.seed.unwrap_or(i32::MAX), e.joined_at, e.user_id));
    let number = |user: i32| entrants.iter().position(|e| e.user_id == user).unwrap() + 1;
    let names = missive::db::users::user_names(
        conn,
        &entrants.iter().map(|e| e.user_id).collect::<Vec<_>>(),
    )
    .unwrap();
    let v = views::view(conn, tid).unwrap();
    let players = read["players"].as_array().unwrap();
    assert_eq!(players.len(), entrants.len());
    for (i, e) in entrants.iter().enumerate() {
        let p = &players[i];
        assert_eq!(p["number"], i + 1);
        assert_eq!(p["name"], names[&e.user_id].as_str());
        let points2 = v
            .standings
            .iter()
            .find(|s| s.user_id == e.user_id)
            .unwrap()
            .points2;
        assert_eq!(p["score"].as_f64().unwrap() * 2.0, points2 as f64);
    }
    let mut entries = 0;
    for g in tgames(conn, tid) {
        let (w, b, r) = (g.white_id.unwrap(), g.black_id.unwrap(), g.round.unwrap());
        let (rw, rb) = match g.result {
            None => ("", ""),
            Some(GameResult::WhiteWins) => ("1", "0"),
            Some(GameResult::BlackWins) => ("0", "1"),
            Some(_) => ("=", "="),
        };
        let at = |user: i32| players[number(user) - 1]["results"][r.to_string()].clone();
        assert_eq!(
            at(w),
            serde_json::json!([number(b), "w", rw]),
            "game {}",
            g.id
        );
        assert_eq!(
            at(b),
            serde_json::json!([number(w), "b", rb]),
            "game {}",
            g.id
        );
        entries += 2;
    }
    let swiss = t.format == missive::domain::tournament_state::TournamentFormat::Swiss;
    for (r, user) in byes::of_tournament(conn, tid).unwrap() {
        let code = if swiss { "U" } else { "Z" };
        let at = players[number(user) - 1]["results"][r.to_string()].clone();
        assert_eq!(at, serde_json::json!([0, "-", code]));
        entries += 1;
    }
    let read_entries: usize = players
        .iter()
        .map(|p| p["results"].as_object().unwrap().len())
        .sum();
    assert_eq!(
        read_entries, entries,
        "no entry more or less than the database has"
    );
}

/// Six players (five games each): two losses on time after two games is
/// fewer than half completed, so every result is cancelled.
fn forfeits_withdraw_and_cancel_below_half(backend: Backend) {
    let app = TestApp::start(backend);
    let conn = &mut app.db();
    let dir = director(conn, "director");
    let names = ["ann", "ben", "cat", "dan", "eve", "fay"];
    let us: Vec<User> = names.iter().map(|n| user(conn, n)).collect();
    let refs: Vec<&User> = us.iter().collect();
    let who = by_id(&refs);
    let (tid, start) = started(conn, &dir, form("Cancelled", "round-robin", "", "2"), &refs);
    let fay = us[5].id;
    let gs = tgames(conn, tid);
    assert_eq!(gs.len(), 15);
    let fays: Vec<&GameRow> = gs
        .iter()
        .filter(|g| g.white_id == Some(fay) || g.black_id == Some(fay))
        .collect();
    assert_eq!(fays.len(), 5);
    // One ordinary game elsewhere: ann beats ben.
    let ab = gs
        .iter()
        .find(|g| {
            let p = [g.white_id.unwrap(), g.black_id.unwrap()];
            p.contains(&us[0].id) && p.contains(&us[1].id)
        })
        .unwrap();
    let ann_white = ab.white_id == Some(us[0].id);
    finish(
        conn,
        ab,
        if ann_white { "1-0" } else { "0-1" },
        &who,
        start + Duration::hours(1),
    );
    time_forfeit(conn, fays[0].id, fay, start, start + Duration::days(4));
    assert!(views::view(conn, tid)
        .unwrap()
        .players
        .iter()
        .all(|(p, _)| p.withdrawn_at.is_none()));
    time_forfeit(conn, fays[1].id, fay, start, start + Duration::days(5));
    let v = views::view(conn, tid).unwrap();
    let (e, _) = v.players.iter().find(|(p, _)| p.user_id == fay).unwrap();
    assert!(e.withdrawn_at.is_some());
    assert!(e.results_cancelled, "2 of 5 completed: fewer than half");
    // Fay's other three games ended: losses by withdrawal.
    for g in tgames(conn, tid)
        .iter()
        .filter(|g| g.white_id == Some(fay) || g.black_id == Some(fay))
    {
        assert_eq!(g.status, GameStatus::Finished);
        let lost = (g.result == Some(GameResult::WhiteWins)) == (g.black_id == Some(fay));
        assert!(lost, "game {}", g.id);
    }
    let withdrawals = tgames(conn, tid)
        .iter()
        .filter(|g| g.reason == Some(EndReason::Withdrawal))
        .count();
    assert_eq!(withdrawals, 3);
    // Cancelled: nobody scores from fay's games; ann's win stands.
    let fay_line = line(&v.standings, "fay");
    assert!(fay_line.cancelled);
    for l in v.standings.iter().filter(|l| !l.cancelled) {
        let expected = if l.name == "ann" { 2 } else { 0 };
        assert_eq!(l.points2, expected, "{}", l.name);
        assert_eq!(
            l.played,
            if l.name == "ann" || l.name == "ben" {
                1
            } else {
                0
            }
        );
    }
    assert_eq!(v.standings.last().unwrap().name, "fay");
    // The dashboard lists the forfeits and the withdrawal.
    let d = views::dashboard(conn, &dir, start + Duration::days(5)).unwrap();
    assert_eq!(d.forfeits.len(), 2);
    assert_eq!(d.withdrawals.len(), 1);
    assert!(d.withdrawals[0].4);
    // Fay is told, once, why and what became of her results.
    let notices = withdrawal_mails(&app, conn, "fay@example.org", start + Duration::days(5));
    assert_eq!(notices.len(), 1, "{notices:?}");
    let body = smtp::readable(&notices[0]);
    assert!(
        body.contains("lost 2 games on time (the limit is 2)"),
        "{body}"
    );
    assert!(body.contains("your results are cancelled"), "{body}");
}

/// Five players (four games each): fay draws one game and loses two on
/// time: three of four completed, so the results stand and the last game is
/// a loss.
fn forfeits_withdraw_and_stand_from_half(backend: Backend) {
    let app = TestApp::start(backend);
    let conn = &mut app.db();
    let dir = director(conn, "director");
    let names = ["ann", "ben", "cat", "dan", "fay"];
    let us: Vec<User> = names.iter().map(|n| user(conn, n)).collect();
    let refs: Vec<&User> = us.iter().collect();
    let who = by_id(&refs);
    let (tid, start) = started(conn, &dir, form("Stands", "round-robin", "", "2"), &refs);
    let fay = us[4].id;
    let fays: Vec<GameRow> = tgames(conn, tid)
        .into_iter()
        .filter(|g| g.white_id == Some(fay) || g.black_id == Some(fay))
        .collect();
    assert_eq!(fays.len(), 4);
    finish(conn, &fays[0], "1/2-1/2", &who, start + Duration::hours(1));
    time_forfeit(conn, fays[1].id, fay, start, start + Duration::days(4));
    time_forfeit(conn, fays[2].id, fay, start, start + Duration::days(5));
    let v = views::view(conn, tid).unwrap();
    let (e, _) = v.players.iter().find(|(p, _)| p.user_id == fay).unwrap();
    assert!(e.withdrawn_at.is_some());
    assert!(!e.results_cancelled, "3 of 4 completed: at least half");
    let last = games::load(conn, fays[3].id).unwrap();
    assert_eq!(last.reason, Some(EndReason::Withdrawal));
    let fl = line(&v.standings, "fay");
    assert_eq!((fl.points2, fl.played, fl.cancelled), (1, 4, false));
    assert!(fl.withdrawn);
    let notices = withdrawal_mails(&app, conn, "fay@example.org", start + Duration::days(5));
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(smtp::readable(&notices[0]).contains("your results stand"));
    // Each opponent keeps what they scored against fay.
    let opp = |g: &GameRow| {
        if g.white_id == Some(fay) {
            g.black_id.unwrap()
        } else {
            g.white_id.unwrap()
        }
    };
    let name_of = |id: i32| us.iter().find(|u| u.id == id).unwrap().username.clone();
    assert_eq!(line(&v.standings, &name_of(opp(&fays[0]))).points2, 1);
    for g in &fays[1..] {
        assert_eq!(line(&v.standings, &name_of(opp(g))).points2, 2);
    }
    // A third forfeit cannot happen: fay has no running game left.
    assert_eq!(
        missive::db::tournament_games::losses(conn, tid, fay, &[EndReason::TimeForfeit]).unwrap(),
        2
    );
}

/// The director withdraws a player before any move (fewer than half: results
/// cancelled) and replaces them; a second withdrawal, after games were
/// played, lets the results stand.
fn director_withdraws_and_replaces(backend: Backend) {
    let app = TestApp::start(backend);
    let conn = &mut app.db();
    let dir = director(conn, "director");
    let names = ["ann", "ben", "cat", "dan"];
    let us: Vec<User> = names.iter().map(|n| user(conn, n)).collect();
    let newcomer = user(conn, "new");
    let refs: Vec<&User> = us.iter().collect();
    let (tid, start) = started(conn, &dir, form("Replace", "round-robin", "", "2"), &refs);
    let dan = us[3].id;
    let before: Vec<GameRow> = tgames(conn, tid);
    let dans: Vec<(i32, Option<i32>, Option<i32>)> = before
        .iter()
        .filter(|g| g.white_id == Some(dan) || g.black_id == Some(dan))
        .map(|g| (g.round.unwrap(), g.white_id, g.black_id))
        .collect();
    assert_eq!(dans.len(), 3);
    withdrawal::director_withdraw(conn, tid, &dir, "dan", "does not answer", start).unwrap();
    let v = views::view(conn, tid).unwrap();
    let (e, _) = v.players.iter().find(|(p, _)| p.user_id == dan).unwrap();
    assert!(e.results_cancelled);
    assert!(e
        .withdrawal_reason
        .as_deref()
        .unwrap()
        .contains("does not answer"));
    // Not the director's player? Not a withdrawn one? Refused.
    assert!(matches!(
        withdrawal::replace(conn, tid, &dir, "ann", "new", start),
        Err(Error::Invalid(_))
    ));
    withdrawal::replace(conn, tid, &dir, "dan", "new", start + Duration::hours(1)).unwrap();
    let after = tgames(conn, tid);
    let news: Vec<(i32, Option<i32>, Option<i32>)> = after
        .iter()
        .filter(|g| g.white_id == Some(newcomer.id) || g.black_id == Some(newcomer.id))
        .map(|g| (g.round.unwrap(), g.white_id, g.black_id))
        .collect();
    // The newcomer has dan's pairings: same rounds, colours and opponents.
    let swap = |x: Option<i32>| if x == Some(dan) { Some(newcomer.id) } else { x };
    let expected: Vec<_> = dans
        .iter()
        .map(|(r, w, b)| (*r, swap(*w), swap(*b)))
        .collect();
    assert_eq!(news, expected);
    assert!(after
        .iter()
        .filter(|g| news.iter().any(|n| n.1 == g.white_id && n.2 == g.black_id))
        .all(|g| g.status == GameStatus::Active));
    let v = views::view(conn, tid).unwrap();
    assert!(v.standings.iter().any(|l| l.name == "new" && !l.cancelled));
    assert!(!v.standings.iter().any(|l| l.name == "dan" && !l.cancelled));
    // Once a first-round game has a move, nobody is replaced any more.
    let r1 = after
        .iter()
        .find(|g| g.round == Some(1) && g.status == GameStatus::Active)
        .unwrap();
    let white = missive::db::users::find_by_id(conn, r1.white_id.unwrap())
        .unwrap()
        .unwrap();
    common::play_move(
        conn,
        r1.id,
        &white,
        "e4",
        None,
        true,
        start + Duration::hours(2),
    )
    .unwrap();
    let other = user(conn, "other");
    withdrawal::director_withdraw(conn, tid, &dir, "new", "", start + Duration::hours(3)).unwrap();
    assert!(matches!(
        withdrawal::replace(conn, tid, &dir, "new", "other", start + Duration::hours(4)),
        Err(Error::Forbidden(_))
    ));
    let _ = other;
}

fn start_is_claimed_once_and_entry_is_bounded(backend: Backend) {
    let app = TestApp::start(backend);
    let conn = &mut app.db();
    let mut other_conn = app.db();
    let dir = director(conn, "director");
    let us: Vec<User> = ["ann", "ben", "cat"]
        .iter()
        .map(|n| user(conn, n))
        .collect();
    let mut f = form("Small", "swiss", "5", "2");
    f.max_players = "2".into();
    let tid = entry::create(conn, &dir, &f, t0()).unwrap();
    // Not before the window opens (the form's date: 2026-12-01 00:00).
    assert!(entry::join(conn, tid, &us[0], t0() - Duration::days(1)).is_err());
    entry::join(conn, tid, &us[0], t0()).unwrap();
    assert!(matches!(
        entry::join(conn, tid, &us[0], t0()),
        Err(Error::Conflict(_))
    ));
    entry::join(conn, tid, &us[1], t0()).unwrap();
    assert!(
        matches!(
            entry::join(conn, tid, &us[2], t0()),
            Err(Error::Conflict(_))
        ),
        "full"
    );
    entry::leave(conn, tid, &us[1]).unwrap();
    entry::join(conn, tid, &us[2], t0()).unwrap();
    assert_eq!(tournaments::load(conn, tid).unwrap().entrants, 2);
    // Two processes race to start it: one wins.
    let close = tournaments::load(conn, tid).unwrap().entry_closes;
    let a = rounds::start(conn, tid, close).unwrap();
    let b = rounds::start(&mut other_conn, tid, close).unwrap();
    assert!(a ^ b);
    assert!(rounds::sweep(conn, close).unwrap().is_empty());
    let gs = tgames(conn, tid);
    assert_eq!(gs.len(), 1, "one game, one pairing");
    // Five rounds asked, but two players can meet only once.
    assert_eq!(tournaments::load(conn, tid).unwrap().rounds, 1);
    assert!(entry::join(conn, tid, &us[1], t0()).is_err(), "started");
    // A tournament nobody joined is cancelled when entry closes.
    let empty = entry::create(conn, &dir, &form("Empty", "round-robin", "", "2"), t0()).unwrap();
    rounds::sweep(conn, close).unwrap();
    assert_eq!(
        tournaments::load(conn, empty).unwrap().status,
        TournamentStatus::Cancelled
    );
    // Bad input is refused with a reason.
    for (field, value) in [
        ("format", "knockout"),
        ("rounds", "0"),
        ("entry_closes", "soon"),
        ("variant", "checkers"),
        ("time_control", "forever"),
        ("max_players", "1"),
    ] {
        let mut f = form("Bad", "swiss", "3", "2");
        match field {
            "format" => f.format = value.into(),
            "rounds" => f.rounds = value.into(),
            "entry_closes" => f.entry_closes = value.into(),
            "variant" => f.variant = value.into(),
            "time_control" => f.time_control = value.into(),
            _ => f.max_players = value.into(),
        }
        assert!(
            matches!(entry::create(conn, &dir, &f, t0()), Err(Error::Invalid(_))),
            "{field}"
        );
    }
}

fn login_as(app: &TestApp, name: &str) -> common::TestClient {
    let c = app.client();
    let p = c.login(name, "correct horse battery");
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "login {name}");
    c
}

fn http_tournament_flow(backend: Backend) {
    let app = TestApp::start(backend);
    {
        let conn = &mut app.db();
        director(conn, "director");
        for n in ["ann", "ben", "cat"] {
            user(conn, n);
        }
    }
    let d = login_as(&app, "director");
    let p = d.get("/tournaments/new");
    assert_eq!(p.status(), StatusCode::OK);
    assert!(p.has("name=\"time_control\"") && p.has("3d/move"));
    let closes = (missive::web::now() + Duration::days(3))
        .format("%Y-%m-%d")
        .to_string();
    let fields = |name: &'static str| {
        vec![
            ("name", name),
            ("variant", "chess"),
            ("time_control", "7d/move"),
            ("format", "round-robin"),
            ("rounds", ""),
            ("entry_opens", ""),
            ("max_players", "8"),
            ("leave_days", "20"),
            ("forfeit_limit", "3"),
        ]
    };
    let mut f = fields("Club <b>RR</b>");
    f.push(("entry_closes", &closes));
    let p = d.post("/tournaments/new", &f);
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
    let url = p.location.unwrap();
    let tid: i32 = url.trim_start_matches("/tournaments/").parse().unwrap();
    // A bad field re-shows the form with the reason.
    let mut bad = fields("Bad");
    bad.push(("entry_closes", "yesterday-ish"));
    let p = d.post("/tournaments/new", &bad);
    assert_eq!(p.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(p.has("entry window"));
    for n in ["ann", "ben", "cat"] {
        let c = login_as(&app, n);
        let p = c.post(&format!("/tournaments/{tid}/join"), &[]);
        assert_eq!(p.status(), StatusCode::SEE_OTHER, "{n} joins: {}", p.body);
    }
    let page = d.get(&url);
    assert!(
        page.has("Club &#60;b&#62;RR") && !page.has("<b>RR"),
        "escaped name"
    );
    assert!(page.has("loses 3 games on time"), "forfeit rule in words");
    let p = d.post(&format!("/tournaments/{tid}/start"), &[]);
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
    assert_eq!(
        app.count(&format!(
            "SELECT COUNT(*) AS n FROM games WHERE tournament_id = {tid}"
        )),
        3
    );
    let page = d.get(&url);
    assert!(page.has("id=\"standings\"") && page.has("id=\"crosstable\""));
    assert!(page.has("Round 3"));
    // The director picks players from the list instead of typing names;
    // nobody is withdrawn yet, so nobody can be replaced.
    assert!(
        page.has("Withdraw player <select name=\"player\" required><option>ann</option><option>ben</option><option>cat</option></select>"),
        "{}",
        page.body
    );
    // Issue 63: an empty list is no control: the replace form is hidden.
    assert!(!page.has("Replace withdrawn player"), "{}", page.body);
    // Games carry the tournament's leave allowance and time control.
    let listed = app.client().get(&format!("/games?tournament={tid}"));
    assert_eq!(listed.status(), StatusCode::OK);
    assert_eq!(listed.body.matches("href=\"/games/").count(), 3);
    assert_eq!(
        app.client().get("/games?tournament=x").status(),
        StatusCode::BAD_REQUEST
    );
    let pgn = app.client().get(&format!("/tournaments/{tid}/games.pgn"));
    assert_eq!(pgn.status(), StatusCode::OK);
    assert_eq!(pgn.body.matches("[Event \"Club <b>RR</b>\"]").count(), 3);
    // A player asks for adjudication; the director sees it and decides.
    let gid: GameId = {
        let conn = &mut app.db();
        let ann = missive::db::users::find_by_name(conn, "ann")
            .unwrap()
            .unwrap();
        tgames(conn, tid)
            .into_iter()
            .find(|g| g.white_id == Some(ann.id) || g.black_id == Some(ann.id))
            .unwrap()
            .id
    };
    // The game page names its tournament (escaped) and round.
    let game_page = app.client().get(&format!("/games/{gid}"));
    assert!(
        game_page.has(&format!(
            "<a href=\"/tournaments/{tid}\">Club &#60;b&#62;RR"
        )) && game_page.has(", round "),
        "{}",
        game_page.body
    );
    let ann = login_as(&app, "ann");
    let p = ann.post(
        &format!("/games/{gid}/adjudication-request"),
        &[("note", "my opponent <never> moves")],
    );
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
    let dash = d.get("/director");
    assert_eq!(dash.status(), StatusCode::OK);
    assert!(
        dash.has("my opponent &#60;never&#62; moves"),
        "escaped note"
    );
    let p = d.post(
        &format!("/games/{gid}/adjudicate"),
        &[("result", "2-0"), ("reason", "x")],
    );
    assert_eq!(p.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let p = d.post(
        &format!("/games/{gid}/adjudicate"),
        &[("result", "1/2-1/2"), ("reason", "both agreed by mail")],
    );
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
    let j = ann.json(gid);
    assert_eq!(j["result"], "1/2-1/2");
    assert_eq!(j["reason"], "adjudication");
    assert!(d.get("/director").has("id=\"no-requests\""));
    assert!(d.get(&url).has("both agreed by mail"));
    // Everyone got the tournament mail.
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM email_outbox WHERE kind = 'tournament_round'"),
        3
    );
    assert_eq!(app.client().get("/tournaments").status(), StatusCode::OK);
    assert_eq!(
        app.client().get("/tournaments/999").status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.client().get("/tournaments/abc").status(),
        StatusCode::NOT_FOUND
    );
}

fn only_directors_direct(backend: Backend) {
    let app = TestApp::start(backend);
    let (tid, gid) = {
        let conn = &mut app.db();
        let dir = director(conn, "director");
        director(conn, "rival");
        let ann = user(conn, "ann");
        let ben = user(conn, "ben");
        let (tid, _) = started(
            conn,
            &dir,
            form("Mine", "round-robin", "", "2"),
            &[&ann, &ben],
        );
        (tid, tgames(conn, tid)[0].id)
    };
    let ann = login_as(&app, "ann");
    let rival = login_as(&app, "rival");
    let anon = app.client();
    let t = format!("/tournaments/{tid}");
    let posts: Vec<(String, Vec<(&str, &str)>)> = vec![
        (format!("{t}/start"), vec![]),
        (
            format!("{t}/withdraw"),
            vec![("player", "ben"), ("note", "")],
        ),
        (
            format!("{t}/replace"),
            vec![("player", "ben"), ("newcomer", "ann")],
        ),
        (
            format!("{t}/grant-leave"),
            vec![("player", "ben"), ("days", "3"), ("reason", "x")],
        ),
        (
            format!("/games/{gid}/adjudicate"),
            vec![("result", "1-0"), ("reason", "x")],
        ),
        ("/tournaments/new".to_string(), vec![("name", "x")]),
    ];
    for who in [&ann, &anon] {
        for path in ["/director", "/tournaments/new"] {
            let p = who.get(path);
            assert_eq!(p.status(), StatusCode::FORBIDDEN, "{path}");
            assert!(p.has("director"), "a reason is given");
        }
        for (path, fields) in &posts {
            assert_eq!(
                who.post(path, fields).status(),
                StatusCode::FORBIDDEN,
                "{path}"
            );
        }
    }
    // Another director does not direct this tournament.
    assert_eq!(rival.get("/director").status(), StatusCode::OK);
    for (path, fields) in posts.iter().take(5) {
        let p = rival.post(path, fields);
        assert_eq!(p.status(), StatusCode::FORBIDDEN, "{path}");
    }
    // Nothing changed.
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM tournament_players WHERE withdrawn_at IS NOT NULL"),
        0
    );
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM games WHERE status = 'finished'"),
        0
    );
    // Only the players of a game may ask for its adjudication.
    let p = rival.post(
        &format!("/games/{gid}/adjudication-request"),
        &[("note", "hm")],
    );
    assert_eq!(p.status(), StatusCode::FORBIDDEN);
    // Without the CSRF token, even the director is refused.
    let d = login_as(&app, "director");
    let p = d.post_raw(
        &format!("/games/{gid}/adjudicate"),
        &[("result", "1-0"), ("reason", "x")],
    );
    assert_eq!(p.status(), StatusCode::FORBIDDEN);
}

/// A director who plays in her own tournament cannot adjudicate her own
/// game; another director can (and only that game of the tournament); she
/// still decides the games she does not play.
fn directors_never_decide_their_own_games(backend: Backend) {
    let app = TestApp::start(backend);
    let (own, others) = {
        let conn = &mut app.db();
        let dora = director(conn, "dora");
        director(conn, "rival");
        let ann = user(conn, "ann");
        let ben = user(conn, "ben");
        let (tid, _) = started(
            conn,
            &dora,
            form("Dora's", "round-robin", "", "2"),
            &[&dora, &ann, &ben],
        );
        let games = tgames(conn, tid);
        let plays = |g: &GameRow, u: &User| g.white_id == Some(u.id) || g.black_id == Some(u.id);
        let own = games.iter().find(|g| plays(g, &dora)).unwrap().id;
        let others = games.iter().find(|g| !plays(g, &dora)).unwrap().id;
        (own, others)
    };
    let dora = login_as(&app, "dora");
    let rival = login_as(&app, "rival");
    let decide = [("result", "1/2-1/2"), ("reason", "agreed by mail")];
    let p = dora.post(&format!("/games/{own}/adjudicate"), &decide);
    assert_eq!(p.status(), StatusCode::FORBIDDEN);
    assert!(p.has("never decides their own game"), "{}", p.body);
    let p = rival.post(&format!("/games/{others}/adjudicate"), &decide);
    assert_eq!(
        p.status(),
        StatusCode::FORBIDDEN,
        "not the rival's tournament"
    );
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM games WHERE status = 'finished'"),
        0
    );
    let p = rival.post(&format!("/games/{own}/adjudicate"), &decide);
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
    let p = dora.post(&format!("/games/{others}/adjudicate"), &decide);
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM games WHERE reason = 'adjudication'"),
        2
    );
}

/// `missive user ...` on a temp SQLite file, as the administrator runs it.
fn cli(db: &str, args: &[&str], env_password: Option<&str>, stdin: &str) -> (bool, String, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_missive"));
    cmd.args(args)
        .env("DATABASE_URL", db)
        .env_remove("MISSIVE_PASSWORD")
        .env_remove("MISSIVE_CONFIG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(p) = env_password {
        cmd.env("MISSIVE_PASSWORD", p);
    }
    let mut child = cmd.spawn().expect("run missive");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_creates_users_and_grants_the_director_role() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cli.db").to_string_lossy().into_owned();
    let (ok, out, err) = cli(
        &db,
        &[
            "user",
            "create",
            "alice",
            "alice@example.org",
            "--password",
            "correct horse battery",
        ],
        None,
        "",
    );
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 1);
    assert!(
        out.starts_with("created user alice <alice@example.org>"),
        "{out}"
    );
    let (ok, out, _) = cli(
        &db,
        &["user", "create", "bob", "bob@example.org"],
        Some("env horse battery"),
        "",
    );
    assert!(ok);
    assert!(out.contains("bob"));
    let (ok, _, err) = cli(
        &db,
        &["user", "create", "carol", "carol@example.org"],
        None,
        "stdin horse battery\n",
    );
    assert!(ok, "{err}");
    // Same validation as sign-up: taken names, weak passwords, bad addresses.
    for (args, stdin) in [
        (
            vec!["user", "create", "alice", "other@example.org"],
            "correct horse battery\n",
        ),
        (
            vec!["user", "create", "dave", "dave@example.org"],
            "short\n",
        ),
        (
            vec!["user", "create", "erin", "not-an-address"],
            "correct horse battery\n",
        ),
        (
            vec!["user", "create", "9lives", "nine@example.org"],
            "correct horse battery\n",
        ),
    ] {
        let (ok, out, err) = cli(&db, &args, None, stdin);
        assert!(!ok, "{args:?}");
        assert!(out.is_empty());
        assert!(err.starts_with("error: "), "{err}");
    }
    let (ok, out, _) = cli(&db, &["user", "grant-director", "alice"], None, "");
    assert!(ok);
    assert_eq!(out.trim_end(), "alice is now a tournament director");
    let (ok, _, err) = cli(&db, &["user", "grant-director", "nobody"], None, "");
    assert!(!ok);
    assert!(err.contains("nobody"), "{err}");
    let (ok, out, _) = cli(&db, &["user", "revoke-director", "bob"], None, "");
    assert!(ok);
    assert_eq!(out.trim_end(), "bob is no longer a tournament director");
    // What the database holds: alice directs, the passwords work, the
    // addresses count as verified.
    let mut conn = missive::db::Manager::new(&db).open().unwrap();
    let alice = missive::db::users::find_by_name(&mut conn, "alice")
        .unwrap()
        .unwrap();
    let bob = missive::db::users::find_by_name(&mut conn, "bob")
        .unwrap()
        .unwrap();
    let carol = missive::db::users::find_by_name(&mut conn, "carol")
        .unwrap()
        .unwrap();
    assert!(alice.is_director && !bob.is_director && !carol.is_director);
    assert!(accounts::verify_password(
        "correct horse battery",
        &alice.password_hash
    ));
    assert!(accounts::verify_password(
        "env horse battery",
        &bob.password_hash
    ));
    assert!(accounts::verify_password(
        "stdin horse battery",
        &carol.password_hash
    ));
    assert!(
        missive::db::mail_prefs::standing_of(&mut conn, alice.id)
            .unwrap()
            .0
    );
    assert!(missive::db::users::find_by_name(&mut conn, "dave")
        .unwrap()
        .is_none());
}

fn directors_import_checked_records(backend: Backend) {
    let app = TestApp::start(backend);
    {
        let conn = &mut app.db();
        director(conn, "director");
        user(conn, "ann");
        user(conn, "ben");
    }
    let pgn = "[Event \"Old club game\"]\n[White \"x\"]\n[Black \"y\"]\n[Result \"0-1\"]\n\n1. f3 e5 {the trap} 2. g4 Qh4# 0-1\n";
    let fields =
        |record: &'static str| vec![("record", record), ("white", "ann"), ("black", "ben")];
    let ann = login_as(&app, "ann");
    assert_eq!(
        ann.post("/records/import", &fields(pgn)).status(),
        StatusCode::FORBIDDEN
    );
    let d = login_as(&app, "director");
    let bad = "[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n";
    let p = d.post("/records/import", &fields(bad));
    assert_eq!(p.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(p.has("Ply 3"), "the first illegal ply is named");
    let p = d.post("/records/import", &fields(pgn));
    assert_eq!(p.status(), StatusCode::SEE_OTHER, "{}", p.body);
    let id: i32 = p
        .location
        .unwrap()
        .trim_start_matches("/games/")
        .parse()
        .unwrap();
    let j = d.json(GameId(id));
    assert_eq!(j["status"], "finished");
    assert_eq!(j["result"], "0-1");
    assert_eq!(j["reason"], "checkmate");
    assert_eq!(j["moves"].as_array().unwrap().len(), 4);
    // The stored game exports to the same moves.
    let out = d.get(&format!("/games/{id}.pgn")).body;
    assert!(
        out.contains("[White \"ann\"]") && out.contains("Qh4#"),
        "{out}"
    );
    assert!(out.contains("the trap"));
}

/// The withdrawal notices sent to `email` (drained through a memory transport).
fn withdrawal_mails(
    app: &TestApp,
    conn: &mut DbConn,
    email: &str,
    now: NaiveDateTime,
) -> Vec<String> {
    let (transport, sent) = missive::mail::transport::Transport::memory();
    let sender = missive::mail::drain::Sender {
        transport,
        ctx: missive::mail::context::MailCtx::new(&app.config, b"secret").unwrap(),
        owner: "test".into(),
    };
    while missive::mail::drain::drain_once(conn, &sender, now)
        .unwrap()
        .sent
        > 0
    {}
    let sent = sent.lock().unwrap().clone();
    sent.into_iter()
        .filter(|m| m.to.iter().any(|t| t == email))
        .map(|m| m.raw)
        .filter(|raw| raw.contains("you have been withdrawn"))
        .collect()
}

/// The round mail names each player's side as the variant does: Red and
/// Black in Leap Chess, and which of them moves first.
fn round_mail_in_the_variants_side_names(backend: Backend) {
    let app = TestApp::start(backend);
    let conn = &mut app.db();
    let dir = director(conn, "director");
    let us: Vec<User> = ["ann", "ben"].iter().map(|n| user(conn, n)).collect();
    let refs: Vec<&User> = us.iter().collect();
    let mut f = form("Red Cup", "round-robin", "", "2");
    f.variant = "leap-chess".into();
    let (tid, _) = started(conn, &dir, f, &refs);
    let g = tgames(conn, tid).remove(0);
    let mut sides = Vec::new();
    for u in &us {
        let m = views::round_mail(conn, "https://x.test", tid, None, u.id)
            .unwrap()
            .unwrap();
        assert_eq!(m.first, "Red");
        assert_eq!(m.games.len(), 1);
        let want = if g.white_id == Some(u.id) {
            "Red"
        } else {
            "Black"
        };
        assert_eq!(m.games[0].1, want, "{}", u.username);
        sides.push(m.games[0].1.clone());
    }
    sides.sort();
    assert_eq!(sides, ["Black", "Red"]);
    // Chess keeps White and Black.
    let more: Vec<User> = ["cyd", "dia"].iter().map(|n| user(conn, n)).collect();
    let refs: Vec<&User> = more.iter().collect();
    let (tid, _) = started(conn, &dir, form("Plain Cup", "round-robin", "", "2"), &refs);
    let m = views::round_mail(conn, "https://x.test", tid, None, more[0].id)
        .unwrap()
        .unwrap();
    assert_eq!(m.first, "White");
    assert!(["White", "Black"].contains(&m.games[0].1.as_str()));
}
