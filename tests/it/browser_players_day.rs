//! Issue 64's rough edges that show in a browser: the move choosers speak
//! in words and warn before a move that costs the mover their own pieces,
//! Lionized Chess's "stop here or go on", the preview page, the play link
//! on a phone, pieces in hand as targets, the keyboard's cursor, and the
//! desktop board with a finished game's rematch. Screenshots go to
//! `target/browser-artifacts/day-*.png`.

use crate::browser_kit;
use crate::common;
use missive::domain::ids::GameId;

use anyhow::{bail, Result};
use browser_kit::devtools::keys;
use browser_kit::*;
use common::{Backend, TestApp};
use serde_json::Value;
use std::sync::Arc;

/// Run `body` with one browser session signed up as `name`, against
/// `bob_{name}` made over HTTP.
fn one_player<F, Fut>(label: &str, name: &str, body: F)
where
    F: FnOnce(Browser, common::TestClient, Arc<TestApp>) -> Fut,
    Fut: std::future::Future<Output = (Browser, Result<()>)>,
{
    let app = Arc::new(TestApp::start(Backend::Sqlite));
    let bob = app.user(&format!("bob_{name}"));
    let appc = app.clone();
    with_browsers(label, &app, &[name], |mut b| async move {
        let p = b.remove(0);
        let (p, r) = body(p, bob, appc).await;
        (vec![p], r)
    });
}

async fn text_of(p: &Browser, expr: &str) -> Result<String> {
    let v = p
        .js(&format!("var e = {expr}; return e ? e.textContent : null;"))
        .await?;
    Ok(v.as_str().unwrap_or_default().to_string())
}

fn sq(s: &str) -> String {
    format!("#board g.sq[data-sq='{s}']")
}

/// Findings 1 and 2: at Fleap's start the Ballista's targets are Nukes
/// beside the player's own pieces: marked so on the board, and a click on
/// one asks, in words, with a warning, instead of filling it in.
#[test]
fn a_self_nuke_is_marked_and_asked_in_words() {
    one_player("self-nuke", "nuker", |p, bob, _app| async move {
        let r = async {
            p.signup().await?;
            game_against(&p, &bob, "fleap", "").await?;
            p.click(&sq("e1")).await?;
            p.wait_for(
                "a3 marked as a target that costs own pieces",
                &format!(
                    "document.querySelector(\"{}\").classList.contains('harm')",
                    sq("a3")
                ),
            )
            .await?;
            p.click(&sq("a3")).await?;
            p.find("#move-chooser button.choice.harm").await?;
            let field = p.find("#move-input").await?.prop("value").await?;
            if field.as_deref() != Some("") {
                bail!("a self-Nuke was filled in without asking: {field:?}");
            }
            let words =
                text_of(&p, "document.querySelector('#move-chooser button.choice')").await?;
            if !words.contains("Fire a Nuke from the Ballista on e1 at a3")
                || !words.contains("your own")
                || !words.contains("Warning")
            {
                bail!("the chooser says “{words}”");
            }
            p.save_png("day-fleap-self-nuke", p.client.screenshot().await?)
                .await?;
            p.click("#move-chooser button.choice").await?;
            let field = p.find("#move-input").await?.prop("value").await?;
            if !field.unwrap_or_default().starts_with("Bxxa3") {
                bail!("choosing the Nuke did not fill it in");
            }
            Ok(())
        }
        .await;
        (p, r)
    });
}

/// Finding 2: a Spear's step lists its three directions in words.
#[test]
fn a_spear_s_directions_are_offered_in_words() {
    one_player("spear-words", "spearman", |p, bob, _app| async move {
        let r = async {
            p.signup().await?;
            game_against(&p, &bob, "maohopper", "").await?;
            p.click(&sq("g3")).await?;
            p.click(&sq("g4")).await?;
            p.find("#move-chooser").await?;
            let all = p
                .js("return Array.from(document.querySelectorAll('#move-chooser button.choice')).map(b => b.textContent);")
                .await?;
            let all: Vec<String> = serde_json::from_value(all)?;
            let want = [
                "Spear step g3-g4, keep pointing straight forward",
                "Spear step g3-g4, turn to point forward-right",
                "Spear step g3-g4, turn to point forward-left",
            ];
            for w in want {
                if !all.iter().any(|t| t.starts_with(w)) {
                    bail!("no choice “{w}” in {all:?}");
                }
            }
            p.save_png("day-spear-words", p.client.screenshot().await?)
                .await?;
            Ok(())
        }
        .await;
        (p, r)
    });
}

/// Finding 3: Lionized Chess, b6 then c7 (a capture that may stop there or
/// go on): two clear choices, and "go on" leaves the second leg to click.
#[test]
fn a_lionized_capture_offers_stop_or_go_on() {
    const LIONIZED: &str = "3m3k/2l5/1F6/Z7/1F6/8/8/7K w - - 0 1";
    one_player("stop-or-go-on", "lionheart", |p, bob, _app| async move {
        let r = async {
            p.signup().await?;
            game_against(&p, &bob, "lionized-chess", LIONIZED).await?;
            p.click(&sq("b6")).await?;
            p.click(&sq("c7")).await?;
            p.find("#move-chooser").await?;
            let title = text_of(&p, "document.querySelector('#move-chooser p')").await?;
            let buttons = p
                .js("return Array.from(document.querySelectorAll('#move-chooser button')).map(b => b.textContent);")
                .await?;
            let buttons: Vec<String> = serde_json::from_value(buttons)?;
            if !title.contains("stop on c7 or go on") {
                bail!("the chooser says “{title}”");
            }
            if buttons.len() != 2
                || !buttons[0].starts_with("Stop on c7: ")
                || !buttons[1].starts_with("Go on: click a second square")
            {
                bail!("the choices are {buttons:?}");
            }
            p.save_png("day-lionized-stop-or-go-on", p.client.screenshot().await?)
                .await?;
            p.click("#move-chooser button.go-on").await?;
            let second = p
                .js("var t = Array.from(document.querySelectorAll('#board g.sq.target')).map(g => g.dataset.sq); return t;")
                .await?;
            let second: Vec<String> = serde_json::from_value(second)?;
            let Some(to) = second.first() else {
                bail!("no second square marked after “go on”");
            };
            if p.js("return !!document.getElementById('move-chooser');").await? != Value::Bool(false) {
                bail!("the chooser stays after “go on”");
            }
            p.click(&sq(to)).await?;
            // Several second legs to one square (a swap): their chooser.
            if p.js("return !!document.getElementById('move-chooser');").await? == Value::Bool(true) {
                p.click("#move-chooser button.choice").await?;
            }
            let field = p.find("#move-input").await?.prop("value").await?.unwrap_or_default();
            if field.is_empty() {
                bail!("clicking {to} after “go on” filled in nothing");
            }
            Ok(())
        }
        .await;
        (p, r)
    });
}

/// Finding 4: the preview is a page of its own, at its own address, with
/// the resulting board, the move and Confirm (focused) or Cancel, and none
/// of the game page; Enter confirms.
#[test]
fn the_preview_page_shows_only_the_preview() {
    one_player("preview-page", "previewer", |p, bob, _app| async move {
        let r = async {
            p.signup().await?;
            let id = game_against(&p, &bob, "chess", "").await?;
            for (w, h) in [PHONE, DESKTOP] {
                p.goto(&format!("/games/{id}")).await?;
                p.resize(w, h).await?;
                p.click_move("e2", "e4", "e4").await?;
                p.click("#move-form button[type=submit]").await?;
                p.wait_for(
                    "the preview's own address",
                    &format!("location.pathname === '/games/{id}/preview'"),
                )
                .await?;
                p.find("#preview").await?;
                let shape = p
                    .js("return [document.activeElement && document.activeElement.id, \
                         document.querySelectorAll('svg.board').length, \
                         !!document.getElementById('move-form'), \
                         !!document.getElementById('legal-moves'), \
                         !!document.getElementById('board'), \
                         document.querySelector('#preview h1').textContent];")
                    .await?;
                if shape != serde_json::json!(["confirm-move", 1, false, false, false, "Confirm e4?"]) {
                    bail!("the preview page: {shape}");
                }
                p.fits("#preview svg").await?;
                p.save_png(&format!("day-preview-{w}"), p.client.screenshot().await?)
                    .await?;
            }
            p.press(keys::ENTER).await?;
            p.wait_for(
                "e4 played",
                &format!(
                    "location.pathname === '/games/{id}' && Array.from(document.querySelectorAll('#moves a')).some(a => a.textContent.trim() === 'e4')"
                ),
            )
            .await
        }
        .await;
        (p, r)
    });
}

/// Finding 6: the play link on a phone opens at its top with the board in
/// sight and nothing focused; a click on a piece and a square fills the
/// move without focusing the field (no keyboard over the board); the move
/// played, the page says so.
#[test]
fn the_play_link_on_a_phone_shows_the_board_and_says_the_move_was_played() {
    one_player("phone-link", "walker", |p, bob, app| async move {
        let r = async {
            p.signup().await?;
            let id = game_against(&p, &bob, "chess", "").await?;
            let link = {
                let user = app.user_id(&p.name);
                let secret = missive::web::load_secret(&mut app.db(), None).unwrap();
                missive::accounts::links::PlayLink {
                    game: GameId(id),
                    user,
                    ply: 0,
                    expires: chrono::Utc::now().timestamp() + 3600,
                }
                .url("", &secret)
            };
            // A phone that has never logged in: the link alone.
            p.goto("/").await?;
            p.client.delete_all_cookies().await?;
            p.resize(PHONE.0, PHONE.1).await?;
            p.goto(&link).await?;
            p.find("#move-form").await?;
            let view = p
                .js(
                    "var r = document.querySelector('#board svg').getBoundingClientRect(); \
                     return [window.scrollY, r.top < window.innerHeight - 100, \
                             document.activeElement === document.body];",
                )
                .await?;
            if view != serde_json::json!([0, true, true]) {
                bail!("the play link opens at [scrollY, board in sight, nothing focused] = {view}");
            }
            p.save_png("day-phone-play-link", p.client.screenshot().await?)
                .await?;
            p.click(&sq("e2")).await?;
            p.click(&sq("e4")).await?;
            let after = p
                .js("return [document.getElementById('move-input').value, \
                     document.activeElement === document.getElementById('move-input')];")
                .await?;
            if after != serde_json::json!(["e4", false]) {
                bail!("after the clicks [field, field focused] = {after}");
            }
            p.save_png("day-phone-play-link-filled", p.client.screenshot().await?)
                .await?;
            p.click("#move-form button[type=submit]:not([name])")
                .await?;
            let said = p.find("#move-played").await?.text().await?;
            if said != "Move played: e4." {
                bail!("after the move the page says “{said}”");
            }
            p.save_png("day-phone-move-played", p.client.screenshot().await?)
                .await?;
            Ok(())
        }
        .await;
        (p, r)
    });
}

/// Finding 10: Leaperhouse's pieces in hand are targets of 44 px or more
/// on a 390 px phone, and marked when picked; the keyboard's marked
/// square is drawn unlike a picked one.
#[test]
fn pieces_in_hand_are_large_targets_and_marked_when_picked() {
    const HOUSE: &str =
        "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECNU[Nn] w - - 0 1";
    one_player("hand-targets", "houser", |p, bob, _app| async move {
        let r = async {
            p.signup().await?;
            let id = game_against(&p, &bob, "leaperhouse", HOUSE).await?;
            p.goto(&format!("/games/{id}")).await?;
            p.resize(PHONE.0, PHONE.1).await?;
            p.find("#move-form").await?;
            let sizes = p
                .js("return Array.from(document.querySelectorAll('#board g.in-hand')).map(g => { var r = g.getBoundingClientRect(); return [r.width, r.height]; });")
                .await?;
            let sizes: Vec<(f64, f64)> = serde_json::from_value(sizes)?;
            if sizes.is_empty() || sizes.iter().any(|&(w, h)| w < 44.0 || h < 44.0) {
                bail!("pieces in hand measure {sizes:?} at 390 px");
            }
            p.click("#board g.hand[data-side='white'] g.in-hand").await?;
            p.wait_for(
                "the picked piece marked, its drops targets",
                "document.querySelector(\"#board g.hand[data-side='white'] g.in-hand\").classList.contains('selected') && document.querySelectorAll('#board g.sq.target').length > 0",
            )
            .await?;
            let framed = p
                .js("var r = document.querySelector(\"#board g.in-hand.selected rect.hand-cell\"); return getComputedStyle(r).strokeWidth;")
                .await?;
            if framed == Value::String("0px".into()) || framed.is_null() {
                bail!("the picked piece in hand is not framed: {framed}");
            }
            p.save_png("day-hand-picked-390", p.client.screenshot().await?)
                .await?;
            // The keyboard's cursor on a picked square looks unlike the pick.
            p.click(&sq("e3")).await?;
            p.js("document.querySelector('#board svg').focus(); return null;").await?;
            let looks = p
                .js("var c = getComputedStyle(document.querySelector('#board .cursor-mark')); \
                     var s = getComputedStyle(document.querySelector(\"#board g.sq.selected rect\")); \
                     return [c.display, c.stroke, c.strokeDasharray, s.stroke, s.strokeDasharray];")
                .await?;
            let l: Vec<String> = serde_json::from_value(looks.clone())?;
            if l[0] == "none" || l[1] == l[3] || l[2] == "none" || l[2] == l[4] {
                bail!("the cursor [display, stroke, dashes] looks like a selection [stroke, dashes]: {looks}");
            }
            p.save_png("day-keyboard-cursor-390", p.client.screenshot().await?)
                .await?;
            Ok(())
        }
        .await;
        (p, r)
    });
}

/// Finding 11: on a 1366 px screen the board is at least 560 px wide; a
/// finished game offers a rematch, which challenges the opponent again.
#[test]
fn the_desktop_board_is_large_and_a_finished_game_offers_a_rematch() {
    one_player("rematch", "rematcher", |p, bob, _app| async move {
        let r = async {
            p.signup().await?;
            let id = game_against(&p, &bob, "chess", "").await?;
            p.resize(DESKTOP.0, DESKTOP.1).await?;
            p.goto(&format!("/games/{id}")).await?;
            let width = p
                .js("return document.querySelector('#board svg').getBoundingClientRect().width;")
                .await?
                .as_f64()
                .unwrap_or_default();
            if width < 560.0 {
                bail!("the board is {width} px wide on a 1366 px screen");
            }
            p.fits("#board svg").await?;
            p.save_png("day-game-1366", p.client.screenshot().await?)
                .await?;
            p.click(&format!("form[action='/games/{id}/resign'] button")).await?;
            // Resigning asks first.
            p.click("#confirm-resign").await?;
            p.wait_for("the finished game", "!!document.getElementById('result')")
                .await?;
            p.find("#rematch").await?;
            for (w, h) in [PHONE, DESKTOP] {
                p.resize(w, h).await?;
                p.fits("#board svg").await?;
                p.save_png(&format!("day-finished-game-{w}"), p.client.screenshot().await?)
                    .await?;
            }
            p.click("#rematch").await?;
            p.wait_for(
                "the rematch's page",
                &format!("/^\\/games\\/\\d+$/.test(location.pathname) && location.pathname !== '/games/{id}'"),
            )
            .await?;
            let status = text_of(&p, "document.getElementById('status')").await?;
            if !status.contains(&format!("waiting for bob_{} to accept", p.name)) {
                bail!("the rematch says “{status}”");
            }
            Ok(())
        }
        .await;
        (p, r)
    });
}
