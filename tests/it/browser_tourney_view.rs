//! Issue 63 in a real browser: the issue's tournament (round robin of
//! three, forfeit limit 2, silence 10 days, "opponent may claim") run with
//! the test's clock, its rules on the page beside what then happens; and a
//! two-board team match set up, lined up and played to its end, with its
//! score. Screenshots (390 and 1280 px) in target/browser-artifacts/.

use crate::browser_kit;
use crate::common;
use missive::domain::ids::GameId;

use anyhow::{bail, Result};
use browser_kit::*;
use chrono::Duration;
use common::{Backend, TestApp, TestClient};
use missive::clocks::forfeit;
use missive::db::games::GameRow;
use missive::db::tournament_games;
use missive::db::users::User;
use missive::tournaments::{directors, entry};

async fn login(b: &Browser) -> Result<()> {
    b.goto("/login").await?;
    b.fill("input[name=username]", &b.name).await?;
    b.fill("input[name=password]", PASSWORD).await?;
    b.click("form[action='/login'] button[type=submit]").await?;
    b.wait_for("the dashboard", "location.pathname === '/'")
        .await
}

/// The text of the element `css` on the page `b` shows.
async fn text(b: &Browser, css: &str) -> Result<String> {
    Ok(b.find(css).await?.text().await?)
}

async fn shots(b: &Browser, label: &str) -> Result<()> {
    for (w, h) in [(390, 844), (1280, 900)] {
        b.resize(w, h).await?;
        b.fits("main").await?;
        let png = b.client.screenshot().await?;
        check_png(&png)?;
        b.save_png(&format!("{label}-{w}"), png).await?;
    }
    b.resize(DESKTOP.0, DESKTOP.1).await
}

fn user(app: &TestApp, name: &str) -> User {
    missive::db::users::find_by_name(&mut app.db(), name)
        .unwrap()
        .unwrap()
}

/// The issue's case. Tess runs out of time in both her games; Yann claims
/// one in the browser. The page said beforehand that losses on time count
/// only towards the forfeit limit of 2, and that is what happens: Tess
/// plays on (the old rule withdrew her as a "silent withdrawal: lost 1 of 2
/// scheduled games" and scored her unplayed game as a loss). Fourteen days
/// later the other flag, unclaimed, is a second loss on time: the limit is
/// reached and she is withdrawn, as the rule said.
#[test]
fn the_issue_case_the_rules_on_the_page_match_what_happens() {
    let app = TestApp::start(Backend::Sqlite);
    for n in ["tess", "yann", "zoe"] {
        app.member(n, false);
    }
    app.member("dora", true);
    let now = missive::web::now();
    let (tid, mine): (i32, Vec<GameRow>) = {
        let conn = &mut app.db();
        let dora = directors::set_director(conn, "dora", true).unwrap();
        let form = entry::TournamentForm {
            name: "The Claim Cup".into(),
            variant: "chess".into(),
            time_control: "7d/move".into(),
            format: "round-robin".into(),
            entry_closes: (now.date() + Duration::days(3)).to_string(),
            forfeit_limit: "2".into(),
            silence_days: "10".into(),
            on_timeout: "claim".into(),
            ..Default::default()
        };
        let tid = entry::create(conn, &dora, &form, now).unwrap();
        for n in ["tess", "yann", "zoe"] {
            entry::join(conn, tid, &user(&app, n), now).unwrap();
        }
        entry::start_by_director(conn, tid, &dora, now).unwrap();
        let tess = user(&app, "tess");
        let mine: Vec<GameRow> = tournament_games::of_tournament(conn, tid)
            .unwrap()
            .into_iter()
            .filter(|g| g.white_id == Some(tess.id) || g.black_id == Some(tess.id))
            .collect();
        // Where Tess has Black her opponent moves at once: she is to move
        // in both games.
        for g in &mine {
            if g.black_id == Some(tess.id) {
                let w = missive::db::users::find_by_id(conn, g.white_id.unwrap())
                    .unwrap()
                    .unwrap();
                common::play_move(conn, g.id, &w, "e4", None, true, now).unwrap();
            }
        }
        (tid, mine)
    };
    let yann_id = app.user_id("yann");
    let claimed = mine
        .iter()
        .find(|g| g.white_id == Some(yann_id) || g.black_id == Some(yann_id))
        .unwrap()
        .id;
    let unclaimed = mine.iter().find(|g| g.id != claimed).unwrap().id;
    let flag = now + Duration::days(7) + Duration::minutes(1);
    let appr = &app;
    with_browsers("issue-63-claim", &app, &["yann"], |b| async move {
        let r = async {
            let y = &b[0];
            login(y).await?;
            let t = format!("/tournaments/{tid}");
            y.goto(&t).await?;
            // The rules beforehand, in words.
            let claim_rule = text(y, "#rule-on-timeout").await?;
            let limit_rule = text(y, "#rule-forfeit-limit").await?;
            let silence_rule = text(y, "#rule-silence").await?;
            if !claim_rule.contains("Opponent may claim") {
                bail!("on timeout: {claim_rule}");
            }
            if !limit_rule
                .contains("loses 2 games on time in this tournament (claimed or not) is withdrawn")
            {
                bail!("forfeit limit: {limit_rule}");
            }
            if !silence_rule.contains("no move for 10 days")
                || !silence_rule.contains("Losses on time count only towards the forfeit limit")
            {
                bail!("silence: {silence_rule}");
            }
            y.find("#rule-withdrawal").await?;
            y.find("#rule-leave").await?;
            y.find("#rule-time-control").await?;
            shots(y, "issue63-rules").await?;
            // Seven days on, the test's clock lets Tess's flags fall.
            off_runtime(|| {
                let swept = forfeit::sweep_report(&mut appr.db(), flag).unwrap();
                assert_eq!(swept.forfeits, 0, "claim: the games go on");
            });
            y.goto(&format!("/games/{claimed}")).await?;
            y.click("form[action$='/claim'] button").await?;
            y.submit("#confirm-claim").await?;
            if y.path().await? != format!("/games/{claimed}") {
                bail!("the claim answered with {}", y.path().await?);
            }
            // What the rules did to Tess, on her page.
            y.goto(&format!("/tournaments/{tid}/players/tess")).await?;
            let status = text(y, "#player-status").await?;
            let limit = text(y, "#fate-forfeit-limit .fate").await?;
            let silence = text(y, "#fate-silence .fate").await?;
            let timeout = text(y, "#fate-on-timeout .fate").await?;
            let withdrawal = text(y, "#fate-withdrawal .fate").await?;
            if status != "Playing." {
                bail!("status after one claimed loss: {status}");
            }
            if !limit.contains("1 of 2 losses on time: not withdrawn under this rule") {
                bail!("forfeit limit: {limit}");
            }
            if !silence.starts_with("Lost by silence: 0 of 2 scheduled games") {
                bail!("silence: {silence}");
            }
            if !timeout.contains(&format!("claimed by the opponent: #{claimed}"))
                || !timeout.contains(&format!("Time has run out in #{unclaimed}"))
            {
                bail!("on timeout: {timeout}");
            }
            if withdrawal != "Not withdrawn." {
                bail!("withdrawal: {withdrawal}");
            }
            shots(y, "issue63-tess-after-claim").await?;
            // Fourteen days unclaimed: the second loss on time.
            off_runtime(|| {
                // Tess's unclaimed game, and Yann and Zoe's, where nobody moved.
                let swept = forfeit::sweep_report(&mut appr.db(), flag + Duration::days(14));
                assert_eq!(swept.unwrap().forfeits, 2);
            });
            y.client.refresh().await?;
            let status = text(y, "#player-status").await?;
            let limit = text(y, "#fate-forfeit-limit .fate").await?;
            let withdrawal = text(y, "#fate-withdrawal .fate").await?;
            if status != "Withdrawn." {
                bail!("status after two losses on time: {status}");
            }
            if !limit.contains("2 of 2 losses on time: the forfeit limit is reached") {
                bail!("forfeit limit: {limit}");
            }
            if !withdrawal.contains("lost 2 games on time (the limit is 2)")
                || !withdrawal.contains("the results stand")
            {
                bail!("withdrawal: {withdrawal}");
            }
            shots(y, "issue63-tess-withdrawn").await?;
            y.goto(&t).await?;
            let standings = text(y, "#standings").await?;
            if !standings.contains("withdrawn, remaining games lost") {
                bail!("standings: {standings}");
            }
            Ok(())
        }
        .await;
        (b, r)
    });
}

/// Two captains set up a two-board match and name their players in the
/// browser; the four games (two a board, one with each colour) are played
/// to their end over HTTP; the match page shows each board and the score.
#[test]
fn a_two_board_team_match_is_played_to_its_end() {
    let app = TestApp::start(Backend::Sqlite);
    let mut clients: std::collections::HashMap<&str, TestClient> = Default::default();
    for n in ["cap_a", "cap_b", "ann", "ben", "col", "deb"] {
        clients.insert(n, app.member(n, false));
    }
    let (appr, clientsr) = (&app, &clients);
    with_browsers("team-match", &app, &["cap_a", "cap_b"], |b| async move {
        let r = async {
            let (a, bb) = (&b[0], &b[1]);
            login(a).await?;
            login(bb).await?;
            a.goto("/matches/new").await?;
            a.fill("input[name=team1]", "Castle Club").await?;
            a.fill("input[name=team2]", "Bishops").await?;
            a.fill("input[name=captain2]", "cap_b").await?;
            a.fill("input[name=boards]", "2").await?;
            a.click("input[name=rated]").await?;
            shots(a, "team-match-new").await?;
            a.click("form[action='/matches/new'] button[type=submit]")
                .await?;
            a.wait_for(
                "the match page",
                "/^\\/matches\\/\\d+$/.test(location.pathname)",
            )
            .await?;
            let path = a.path().await?;
            let id: i32 = path.trim_start_matches("/matches/").parse()?;
            for (captain, players) in [(a, ["ann", "ben"]), (bb, ["col", "deb"])] {
                captain.goto(&path).await?;
                captain.fill("input[name=board1]", players[0]).await?;
                captain.fill("input[name=board2]", players[1]).await?;
                if captain.name == "cap_b" {
                    shots(captain, "team-match-lineup").await?;
                }
                captain.submit("#lineup-form button[type=submit]").await?;
                if captain.path().await? != path {
                    bail!(
                        "{}: the line-up answered with {}",
                        captain.name,
                        captain.path().await?
                    );
                }
            }
            a.goto(&path).await?;
            let status = text(a, "#match-status").await?;
            if status != "being played" {
                bail!("after both line-ups: {status}");
            }
            // Play the four games out over HTTP: board 1, Ann wins as White
            // (mate) and draws as Black; board 2, Deb wins both.
            let games = off_runtime(|| {
                let conn = &mut appr.db();
                let ids: Vec<GameId> = missive::db::team_matches::games(conn, id)
                    .unwrap()
                    .iter()
                    .map(|g| g.0)
                    .collect();
                missive::db::team_matches::game_rows(conn, &ids).unwrap()
            });
            if games.len() != 4 {
                bail!("{} games", games.len());
            }
            off_runtime(|| {
                let name = |id: Option<i32>| {
                    ["ann", "ben", "col", "deb"]
                        .into_iter()
                        .find(|n| Some(appr.user_id(n)) == id)
                        .unwrap()
                };
                for g in &games {
                    let (w, k) = (name(g.white_id), name(g.black_id));
                    let (white, black) = (&clientsr[w], &clientsr[k]);
                    let moves: &[&str] = if w == "ann" {
                        &["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]
                    } else {
                        &["e4", "e5"]
                    };
                    for (i, m) in moves.iter().enumerate() {
                        let mover = if i % 2 == 0 { white } else { black };
                        assert_eq!(mover.play(g.id, m).status, 303, "{m} in {}", g.id);
                    }
                    let draw = |who: &TestClient, action: &str| {
                        let p = who.post(&format!("/games/{}/draw", g.id), &[("action", action)]);
                        assert_eq!(p.status, 303, "{action}: {}", p.body);
                    };
                    if k == "ann" {
                        draw(white, "offer");
                        draw(black, "accept");
                    } else if w != "ann" {
                        let loser = if w == "deb" { black } else { white };
                        let p = loser.post(&format!("/games/{}/resign", g.id), &[("confirm", "1")]);
                        assert_eq!(p.status, 303, "resign: {}", p.body);
                    }
                }
            });
            bb.goto(&path).await?;
            let outcome = text(bb, "#match-outcome").await?;
            let score = text(bb, "#match-score").await?;
            // Castle Club: 1 + ½ (Ann) + 0 + 0 (Ben) = 1½; Bishops 2½.
            if outcome != "Bishops wins 2½–1½" {
                bail!("outcome: {outcome}");
            }
            if !score.contains("1½") || !score.contains("2½") {
                bail!("score: {score}");
            }
            let boards = text(bb, "#boards").await?;
            for n in ["ann", "ben", "col", "deb", "1-0", "0-1", "1/2-1/2"] {
                if !boards.contains(n) {
                    bail!("{n} not on the boards: {boards}");
                }
            }
            shots(bb, "team-match-finished").await?;
            // The games are in each player's record.
            bb.goto("/users/deb").await?;
            let record = text(bb, "#games").await?;
            if record.matches("ben").count() != 2 {
                bail!("Deb's record: {record}");
            }
            let ratings = text(bb, "main").await?;
            if !ratings.contains("after 2 rated games") {
                bail!("Deb's ratings: {ratings}");
            }
            Ok(())
        }
        .await;
        (b, r)
    });
}
