//! Accessibility in a real browser: axe-core audits the pages a player
//! meets, in the light and the dark colour scheme, and the board is played
//! with the keyboard alone.
//!
//! axe-core comes from npm (`tests/axe/package.json`, pinned; `.ci/run`
//! runs `cd tests/axe && npm ci`). With `MISSIVE_TEST_BROWSER=1` or `CI`
//! set, a missing axe-core fails the test, as a missing browser does.
//! Screenshots of each page at 390 and 1280 px, light and dark, go to
//! `target/browser-artifacts/look-*.png`.

use crate::browser_kit;
use crate::common;
use missive::domain::ids::GameId;

use anyhow::{bail, Context, Result};
use browser_kit::devtools::keys;
use browser_kit::*;
use common::{Backend, TestApp};
use serde_json::Value;
use std::path::PathBuf;

/// axe-core's browser build, or `None` (after saying so) when the test may
/// be skipped.
fn axe_source() -> Option<String> {
    let path = std::env::var_os("MISSIVE_AXE_JS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("tests/axe/node_modules/axe-core/axe.min.js")
        });
    match std::fs::read_to_string(&path) {
        Ok(s) => Some(s),
        Err(e) => {
            let how = format!(
                "axe-core not found at {} ({e}): install it with \
                 `cd tests/axe && npm ci` (.ci/run does), or point MISSIVE_AXE_JS at axe.min.js",
                path.display()
            );
            if env_on("CI") || env_on("MISSIVE_TEST_BROWSER") {
                panic!("{how}");
            }
            eprintln!("accessibility test skipped: {how}");
            None
        }
    }
}

/// What axe found on one page: every violation, one line each, and
/// whether any is serious or critical.
struct Audit {
    lines: Vec<String>,
    severe: bool,
}

/// Run axe-core on the page shown (injected from disk through WebDriver:
/// it is never served by the app, so the CSP need not allow it).
async fn audit(b: &Browser, axe: &str, label: &str) -> Result<Audit> {
    let loaded = b.js("return typeof window.axe === 'object';").await?;
    if loaded != Value::Bool(true) {
        b.js(&format!("{axe}\n;return null;"))
            .await
            .context("inject axe-core")?;
    }
    let found = b
        .client
        .execute_async(
            "var done = arguments[arguments.length - 1];\
             axe.run(document, { resultTypes: ['violations'] }).then(function (r) {\
               done(r.violations.map(function (v) {\
                 return { id: v.id, impact: v.impact, help: v.help,\
                   nodes: v.nodes.slice(0, 4).map(function (n) { return n.target.join(' ') + ' ' + (n.failureSummary || '').replace(/\\s+/g, ' '); }) };\
               }));\
             }, function (e) { done({ error: String(e) }); });",
            vec![],
        )
        .await
        .with_context(|| format!("{label}: run axe"))?;
    if let Some(e) = found.get("error") {
        bail!("{label}: axe failed: {e}");
    }
    let mut out = Audit {
        lines: Vec::new(),
        severe: false,
    };
    for v in found.as_array().into_iter().flatten() {
        let impact = v["impact"].as_str().unwrap_or("?");
        out.severe |= matches!(impact, "serious" | "critical");
        out.lines.push(format!(
            "{label}: {impact} {} ({}): {}",
            v["id"].as_str().unwrap_or("?"),
            v["help"].as_str().unwrap_or(""),
            v["nodes"]
        ));
    }
    Ok(out)
}

/// The pages audited: (label, path, whether to screenshot it).
type Pages = Vec<(String, String, bool)>;

/// Audit each page in the light and the dark scheme, saving screenshots at
/// 390 and 1280 px of the ones marked; the violations of all of them.
async fn audit_pages(
    b: &Browser,
    axe: &str,
    pages: &Pages,
    report: &mut Vec<String>,
) -> Result<bool> {
    let mut severe = false;
    for (label, path, shoot) in pages {
        b.goto(path).await?;
        b.find("main").await?;
        for dark in [false, true] {
            b.color_scheme(dark).await?;
            let scheme = if dark { "dark" } else { "light" };
            let a = audit(b, axe, &format!("{label} ({scheme})")).await?;
            severe |= a.severe;
            if a.lines.is_empty() {
                report.push(format!("{label} ({scheme}): no violations"));
            }
            report.extend(a.lines);
            if *shoot {
                for w in [390, 1280] {
                    b.resize(w, if w == 390 { 844 } else { 900 }).await?;
                    b.save_png(
                        &format!("look-{scheme}-{label}-{w}"),
                        b.client.screenshot().await?,
                    )
                    .await?;
                }
                b.resize(DESKTOP.0, DESKTOP.1).await?;
            }
        }
        b.color_scheme(false).await?;
    }
    Ok(severe)
}

/// A running round robin with the browser's player in it; its id.
fn tournament_with(app: &TestApp, player: &str) -> i32 {
    use missive::tournaments::{directors, entry};
    let mut conn = app.db();
    let now = chrono::Utc::now().naive_utc();
    app.user("director_axe");
    let dir = directors::set_director(&mut conn, "director_axe", true).unwrap();
    let form = entry::TournamentForm {
        name: "The Accessible Open".into(),
        variant: "chess".into(),
        time_control: "3d/move".into(),
        format: "round-robin".into(),
        entry_closes: (now.date() + chrono::Duration::days(3)).to_string(),
        ..Default::default()
    };
    let tid = entry::create(&mut conn, &dir, &form, now).unwrap();
    for name in ["carol_axe", "dmitri_axe"] {
        app.user(name);
    }
    for name in [player, "carol_axe", "dmitri_axe"] {
        let u = missive::db::users::find_by_name(&mut conn, name)
            .unwrap()
            .unwrap();
        entry::join(&mut conn, tid, &u, now).unwrap();
    }
    entry::start_by_director(&mut conn, tid, &dir, now).unwrap();
    tid
}

/// Issue 63's pages: the administrators' page (`player` made one), a
/// team match `player` captains, waiting for line-ups, and its form.
fn issue_63_pages(app: &TestApp, player: &str) -> Pages {
    let mut conn = app.db();
    let now = chrono::Utc::now().naive_utc();
    missive::accounts::admins::set_admin(&mut conn, player, true, now).unwrap();
    missive::tournaments::directors::set_director(&mut conn, "director_axe", true).unwrap();
    let me = missive::db::users::find_by_name(&mut conn, player)
        .unwrap()
        .unwrap();
    let form = missive::tournaments::team_matches::MatchForm {
        team1: "Rooks".into(),
        captain1: player.into(),
        team2: "Knights".into(),
        captain2: "carol_axe".into(),
        boards: "2".into(),
        ..Default::default()
    };
    let id = missive::tournaments::team_matches::create(&mut conn, &me, &form, now).unwrap();
    vec![
        ("admin-directors".into(), "/admin/directors".into(), true),
        ("match".into(), format!("/matches/{id}"), true),
        ("match-new".into(), "/matches/new".into(), false),
        ("matches".into(), "/matches".into(), false),
    ]
}

/// A game of `player` (Black) against `opponent` whose clock ran out four
/// days into a three-day move, set to `claim`: the page offers `player`
/// the win and shows the fallen flag in the events.
fn claimable(app: &TestApp, player: &str, opponent: &str) -> i32 {
    use diesel::prelude::*;
    use missive::db::schema::games;
    let mut conn = app.db();
    let now = chrono::Utc::now().naive_utc();
    let tc: missive::domain::time_control::TimeControl = "3d/move".parse().unwrap();
    let id = missive::game::challenge::create_active_game(
        &mut conn,
        "chess",
        app.user_id(opponent),
        app.user_id(player),
        Some(&tc),
        None,
        now - chrono::Duration::days(4),
    )
    .unwrap();
    diesel::update(games::table.find(id))
        .set(games::on_timeout.eq("claim"))
        .execute(&mut conn)
        .unwrap();
    missive::clocks::forfeit::sweep(&mut conn, now).unwrap();
    id.get()
}

/// `rounds` rated chess games of `player` against `opponent`, ended one a
/// day up to now (wins, draws, losses in turn): a rating history to draw.
fn rated_history(app: &TestApp, player: &str, opponent: &str, rounds: i64) {
    use missive::domain::game_state::{EndReason, GameResult};
    let mut conn = app.db();
    let find = |conn: &mut missive::db::DbConn, name: &str| {
        missive::db::users::find_by_name(conn, name)
            .unwrap()
            .unwrap()
    };
    let (p, o) = (find(&mut conn, player), find(&mut conn, opponent));
    let now = chrono::Utc::now().naive_utc();
    for i in 0..rounds {
        let at = now - chrono::Duration::days(rounds - i);
        let pairing = missive::game::challenge::Pairing {
            variant_id: "chess",
            white_id: p.id,
            black_id: o.id,
            time_control: None,
            leave_cap_days: None,
            rated: true,
            weekends_free: false,
        };
        let id = missive::game::challenge::create_paired_game(&mut conn, &pairing, at).unwrap();
        let row = missive::db::games::load(&mut conn, id).unwrap();
        let result = [
            GameResult::WhiteWins,
            GameResult::Draw,
            GameResult::BlackWins,
        ][i as usize % 3];
        missive::game::finish::finish(&mut conn, &row, result, EndReason::Agreement, None, at)
            .unwrap();
    }
}

/// An app password and a token of `player`'s, for the client page's lists.
fn credentials_of(app: &TestApp, player: &str) {
    use missive::accounts::api_credentials::issue;
    use missive::domain::api_credential::{CredentialKind, Scope};
    let conn = &mut app.db();
    let user = missive::db::users::find_by_name(conn, player)
        .unwrap()
        .unwrap();
    let now = chrono::Utc::now().naive_utc();
    issue(
        conn,
        &user,
        CredentialKind::AppPassword,
        Scope::Play,
        "ChessBase on the laptop",
        now,
    )
    .unwrap();
    issue(
        conn,
        &user,
        CredentialKind::Token,
        Scope::Read,
        "results scraper",
        now,
    )
    .unwrap();
}

/// A play link for `user_name` in game `id` at ply 0.
fn play_link(app: &TestApp, id: GameId, user_name: &str) -> String {
    let user = app.count(&format!(
        "SELECT CAST(id AS BIGINT) AS n FROM users WHERE username = '{user_name}'"
    )) as i32;
    let secret = missive::web::load_secret(&mut app.db(), None).unwrap();
    missive::accounts::links::PlayLink {
        game: id,
        user,
        ply: 0,
        expires: chrono::Utc::now().timestamp() + 3600,
    }
    .url("", &secret)
}

/// axe-core finds no serious or critical violation on the home, sign-up,
/// dashboard, game (each variant), play-link, settings, client programs,
/// tournament, profile (with a rating chart) and leaderboard pages, in the
/// light scheme or the dark one.
#[test]
fn axe_finds_no_serious_violation_on_the_players_pages() {
    let Some(axe) = axe_source() else {
        return;
    };
    let app = TestApp::start(Backend::Sqlite);
    let bob = app.user("bob_axe");
    let mut report = Vec::new();
    let (appr, bobr, axer, rr) = (&app, &bob, &axe, &mut report);
    let ran = with_browsers("axe", &app, &["axe_player"], |b| async move {
        let res = audit_all(&b[0], appr, bobr, axer, rr).await;
        (b, res)
    });
    println!("{}", report.join("\n"));
    if ran {
        let pages = 2 + 9 + 5 + missive_rules::variants().len();
        assert!(
            report.len() >= pages * 2,
            "every page audited in both schemes: {report:?}"
        );
    }
}

async fn audit_all(
    p: &Browser,
    app: &TestApp,
    bob: &common::TestClient,
    axe: &str,
    report: &mut Vec<String>,
) -> Result<()> {
    let who = p.name.clone();
    let front: Pages = vec![
        ("home".into(), "/".into(), true),
        ("signup".into(), "/signup".into(), false),
    ];
    let mut severe = audit_pages(p, axe, &front, report).await?;
    p.signup().await?;
    let mut games = Vec::new();
    for v in missive_rules::variants() {
        let id = game_against(p, bob, v.id(), "").await?;
        games.push((v.id(), id));
    }
    let tid = off_runtime(|| tournament_with(app, &who));
    off_runtime(|| rated_history(app, &who, "bob_axe", 40));
    off_runtime(|| credentials_of(app, &who));
    let claim = off_runtime(|| claimable(app, &who, "bob_axe"));
    let chess = games[0].1;
    let maohopper = games
        .iter()
        .find(|g| g.0 == "maohopper")
        .map_or(chess, |g| g.1);
    let mut pages: Pages = vec![
        ("dashboard".into(), "/".into(), true),
        ("settings".into(), "/settings".into(), true),
        ("clients".into(), "/settings/clients".into(), true),
        (
            "notifications".into(),
            "/settings/notifications".into(),
            true,
        ),
        ("tournament".into(), format!("/tournaments/{tid}"), true),
        (
            "play-link".into(),
            play_link(app, GameId(maohopper), &who),
            true,
        ),
        ("profile".into(), format!("/users/{who}"), true),
        ("leaderboard".into(), "/ratings/chess".into(), true),
        ("claim".into(), format!("/games/{claim}"), true),
        (
            "tournament-player".into(),
            format!("/tournaments/{tid}/players/{who}"),
            true,
        ),
        // Issue 64: the move's preview page, and a finished game with its
        // rematch and next game.
        (
            "preview".into(),
            format!("/games/{chess}/preview?move=e4&ply=0"),
            true,
        ),
        (
            "finished-game".into(),
            format!(
                "/games/{}",
                app.count(
                    "SELECT CAST(MAX(id) AS BIGINT) AS n FROM games WHERE status = 'finished'"
                )
            ),
            true,
        ),
    ];
    pages.extend(off_runtime(|| issue_63_pages(app, &who)));
    // Variants from definitions (issue 61): the form grouped by family and
    // searched, a 10x8 board, and a crazyhouse board with both hands full.
    let hands = game_against(
        p,
        bob,
        "crazyhouse",
        "r1b1kbnr/ppp1pppp/2n5/q7/3P4/2N5/PPP2PPP/R1BQKBNR[PPNbp] w KQkq - 0 6",
    )
    .await?;
    // Issue 62: the form to post a variant (the player's address
    // confirmed), and a posted variant's page with its check report.
    let confirm = off_runtime(|| {
        let id = app.user_id(&who);
        let sig =
            missive::accounts::links::verify_sig(&app.secret(), id, &format!("{who}@example.org"));
        format!("/verify-email?u={id}&sig={sig}")
    });
    p.goto(&confirm).await?;
    off_runtime(|| {
        let inventor = app.verified_user("inventor_axe");
        let posted = inventor.post(
            "/variants/new",
            &[
                ("name", "Camel six"),
                ("definition", crate::posted_variants::CAMEL6),
                (
                    "rules",
                    "Chess on six by six squares.\n\n- Camels leap (1,3).",
                ),
                ("visibility", "public"),
            ],
        );
        assert_eq!(
            posted.status,
            reqwest::StatusCode::SEE_OTHER,
            "{}",
            posted.body
        );
    });
    pages.push(("post-variant".into(), "/variants/new".into(), true));
    pages.push(("posted-variant".into(), "/variants/camel-six".into(), true));
    pages.push(("new-game".into(), "/games/new".into(), true));
    pages.push(("new-game-search".into(), "/games/new?q=drops".into(), true));
    pages.push(("variants".into(), "/variants".into(), false));
    pages.push((
        "rules-capablanca".into(),
        "/variants/capablanca".into(),
        true,
    ));
    pages.push((
        "game-crazyhouse-hands".into(),
        format!("/games/{hands}"),
        true,
    ));
    for (variant, id) in &games {
        let shoot = *id == chess || *id == maohopper || *variant == "capablanca";
        pages.push((format!("game-{variant}"), format!("/games/{id}"), shoot));
    }
    severe |= audit_pages(p, axe, &pages, report).await?;
    if severe {
        bail!(
            "axe found serious or critical violations:\n{}",
            report.join("\n")
        );
    }
    Ok(())
}

/// A move made with the keyboard alone: Tab reaches the board, the arrow
/// keys move the marked square, Enter picks the Pawn on e2 and Space its
/// target e4, Enter in the filled field submits it, and Enter on the
/// preview's button confirms it.
#[test]
fn a_move_is_made_with_the_keyboard_alone() {
    let app = TestApp::start(Backend::Sqlite);
    let bob = app.user("bob_keys");
    let bobr = &bob;
    let ran = with_browsers("keyboard", &app, &["keys_player"], |b| async move {
        let r = keyboard_move(&b[0], bobr).await;
        (b, r)
    });
    if ran {
        assert_eq!(
            app.count("SELECT COUNT(*) AS n FROM moves WHERE display = 'e4' AND ply = 1"),
            1
        );
    }
}

/// The square the board's status line names ("e2: White Pawn, selected").
async fn marked(p: &Browser) -> Result<String> {
    let v = p
        .js("var s = document.getElementById('board-status'); return s ? s.textContent : '';")
        .await?;
    Ok(v.as_str().unwrap_or_default().to_string())
}

/// Arrow keys, one at a time, until the marked square is `to` (White at
/// the bottom: up is the next rank).
async fn arrow_to(p: &Browser, to: &str) -> Result<String> {
    let target = (to.as_bytes()[0] as i32, to[1..].parse::<i32>()?);
    for _ in 0..40 {
        let status = marked(p).await?;
        let here = status.split(':').next().unwrap_or_default().to_string();
        if here == to {
            return Ok(status);
        }
        let now = (here.as_bytes()[0] as i32, here[1..].parse::<i32>()?);
        let key = if now.0 < target.0 {
            keys::RIGHT
        } else if now.0 > target.0 {
            keys::LEFT
        } else if now.1 < target.1 {
            keys::UP
        } else {
            keys::DOWN
        };
        p.press(key).await?;
    }
    bail!("the marked square never reached {to}: {}", marked(p).await?)
}

async fn keyboard_move(p: &Browser, bob: &common::TestClient) -> Result<()> {
    p.signup().await?;
    game_against(p, bob, "chess", "").await?;
    // Tab from the variant's link in the heading until the board has the focus.
    p.js("document.querySelector('h1 a').focus(); return null;")
        .await?;
    let mut tabs = 0;
    while p
        .js("return document.activeElement === document.querySelector('#board svg');")
        .await?
        != Value::Bool(true)
    {
        tabs += 1;
        if tabs > 20 {
            bail!("20 Tabs from the heading never reached the board");
        }
        p.press(keys::TAB).await?;
    }
    let name = p
        .js("return document.querySelector('#board svg').getAttribute('aria-label');")
        .await?;
    if !name
        .as_str()
        .unwrap_or_default()
        .starts_with("Board, White to move")
    {
        bail!("the board is named {name}");
    }
    let status = arrow_to(p, "e2").await?;
    if status != "e2: White Pawn" {
        bail!("on e2 the status line says “{status}”");
    }
    p.press(keys::ENTER).await?;
    p.wait_for(
        "e2 selected",
        "document.querySelector(\"#board g.sq[data-sq='e2']\").classList.contains('selected')",
    )
    .await?;
    let status = arrow_to(p, "e4").await?;
    if status != "e4: empty, a target" {
        bail!("on e4 the status line says “{status}”");
    }
    // The marked square is drawn, and the board shows it has the focus.
    let shown = p
        .js("var m = document.querySelector('#board .cursor-mark'); return getComputedStyle(m).display !== 'none' && getComputedStyle(document.querySelector('#board svg')).outlineStyle !== 'none';")
        .await?;
    if shown != Value::Bool(true) {
        bail!("the marked square or the board's focus is not drawn");
    }
    p.save_png("keyboard-focus", p.client.screenshot().await?)
        .await?;
    p.press(keys::SPACE).await?;
    p.wait_for(
        "the move in the field, which has the focus",
        "document.getElementById('move-input').value === 'e4' && document.activeElement === document.getElementById('move-input')",
    )
    .await?;
    p.press(keys::ENTER).await?;
    p.find("#preview button[type=submit]")
        .await?
        .send_keys(keys::ENTER)
        .await?;
    p.wait_for(
        "e4 in the move list",
        "!document.getElementById('preview') && Array.from(document.querySelectorAll('#moves a')).some(a => a.textContent.trim() === 'e4')",
    )
    .await
}
