//! Issue 62 in a real browser: an inventor signs in, posts a variant
//! (6x6 chess with Camels for Knights), reads its check report, challenges
//! another player with it, and both play it to checkmate by clicking.

use crate::browser_kit;
use crate::common;
use crate::posted_variants::CAMEL6;

use anyhow::{bail, Result};
use browser_kit::*;
use common::{Backend, TestApp};

#[test]
fn an_inventor_posts_a_variant_and_two_players_mate_in_it_by_clicking() {
    let app = TestApp::start(Backend::Sqlite);
    let app_ref = &app;
    let ran = with_browsers("posted", &app, &["inventor", "rival"], |b| async move {
        let r = post_and_play(&b[0], &b[1], app_ref).await;
        (b, r)
    });
    if ran {
        assert_eq!(
            app.count("SELECT COUNT(*) AS n FROM games WHERE variant LIKE 'camel-six@%' AND reason = 'checkmate'"),
            1
        );
    }
}

async fn post_and_play(inventor: &Browser, rival: &Browser, app: &TestApp) -> Result<()> {
    inventor.signup().await?;
    rival.signup().await?;
    // The inventor confirms the address (the link the welcome mail holds).
    let link = off_runtime(|| {
        let id = app.user_id("inventor");
        let sig = missive::accounts::links::verify_sig(&app.secret(), id, "inventor@example.org");
        format!("/verify-email?u={id}&sig={sig}")
    });
    inventor.goto(&link).await?;

    inventor.goto("/variants/new").await?;
    inventor
        .save_png("posted-variant-form", inventor.client.screenshot().await?)
        .await?;
    inventor
        .fill("#variant-form input[name=name]", "Camel six")
        .await?;
    inventor
        .fill("#variant-form textarea[name=definition]", CAMEL6)
        .await?;
    inventor
        .fill(
            "#variant-form textarea[name=rules]",
            "Chess on six by six squares, with Camels for Knights.",
        )
        .await?;
    inventor
        .click("#variant-form input[name=visibility][value=public]")
        .await?;
    inventor.click("#variant-form button[type=submit]").await?;
    inventor
        .wait_for(
            "the posted variant's page",
            "location.pathname === '/variants/camel-six'",
        )
        .await?;
    // The check report, read as the inventor reads it.
    let report = inventor.find("dl.report").await?.text().await?;
    for part in [
        "depth 1: 10",
        "Random games",
        "200:",
        "moves written and read back",
    ] {
        if !report.contains(part) {
            bail!("the report lacks “{part}”: {report}");
        }
    }
    inventor.find("#posted-note").await?;
    inventor.find("#start-position svg").await?;
    inventor
        .save_png(
            "posted-variant-desktop",
            inventor.client.screenshot().await?,
        )
        .await?;
    let to_report = "document.querySelector('dl.report').scrollIntoView(); return true;";
    inventor.js(to_report).await?;
    inventor
        .save_png(
            "posted-variant-report-desktop",
            inventor.client.screenshot().await?,
        )
        .await?;
    inventor.resize(PHONE.0, PHONE.1).await?;
    inventor.js("window.scrollTo(0, 0); return true;").await?;
    inventor
        .save_png("posted-variant-phone", inventor.client.screenshot().await?)
        .await?;
    inventor.js(to_report).await?;
    inventor
        .save_png(
            "posted-variant-report-phone",
            inventor.client.screenshot().await?,
        )
        .await?;
    inventor.resize(DESKTOP.0, DESKTOP.1).await?;

    // Public: listed under "Community variants".
    inventor.goto("/variants").await?;
    inventor
        .js("document.getElementById('community').scrollIntoView(); return true;")
        .await?;
    inventor
        .save_png(
            "posted-variant-community",
            inventor.client.screenshot().await?,
        )
        .await?;
    inventor.goto("/variants/camel-six").await?;

    // Challenge the rival with it, from the variant's page.
    inventor.click("#play-posted").await?;
    inventor
        .wait_for(
            "the new-game form with the variant chosen",
            "document.querySelector('input[name=variant][value=\"camel-six\"]') && document.querySelector('input[name=variant][value=\"camel-six\"]').checked",
        )
        .await?;
    let game = send_challenge_accepted(inventor, rival, None).await?;

    // Black mates with a Camel come round to e4.
    let moves = [
        ("a2", "a3", "a3"),
        ("b5", "b4", "b4"),
        ("b2", "b3", "b3"),
        ("e6", "b5", "Cb5"),
        ("a3", "a4", "a4"),
        ("b5", "e4", "Ce4#"),
    ];
    for (i, (from, to, san)) in moves.iter().enumerate() {
        let mover = if i % 2 == 0 { inventor } else { rival };
        mover.goto(&game).await?;
        mover.play(from, to, san, None).await?;
    }
    inventor.goto(&game).await?;
    inventor
        .wait_for(
            "the checkmate on the game page",
            "document.body.textContent.includes('checkmate')",
        )
        .await?;
    inventor
        .save_png("posted-variant-mate", inventor.client.screenshot().await?)
        .await?;
    Ok(())
}
