//! Moves entered by clicking that need more than two clicks or a second
//! look: a Lionized Chess two-leg move clicked through its middle square,
//! and the preview's warning before a piece is moved onto Maohopper's trap.

use crate::browser_kit;
use crate::common;

use anyhow::{bail, Result};
use browser_kit::*;
use common::{Backend, TestApp};
use serde_json::Value;

/// A Lionized piece's two-leg move, clicked as origin, middle square and
/// target, fills in that move; played, it is stored as that move.
#[test]
fn a_two_leg_move_is_clicked_through_its_middle_square() {
    let app = TestApp::start(Backend::Sqlite);
    let bob = app.user("bob_legs");
    let bobr = &bob;
    let mut chosen = String::new();
    let c = &mut chosen;
    let ran = with_browsers("two-legs", &app, &["legs_player"], |b| async move {
        let r = two_leg_move(&b[0], bobr, c).await;
        (b, r)
    });
    if ran {
        assert_eq!(
            app.count(&format!(
                "SELECT COUNT(*) AS n FROM moves WHERE coordinate = '{chosen}'"
            )),
            1,
            "{chosen} stored"
        );
    }
}

/// Two Lionized Ferzes (b6, b4, lionized by the Lionizer on a5) and Black's
/// Lance and Mammoth to take: b6 takes on c7 and goes on to b8, d8 or d6
/// (the rules crate's `double_capture_and_out_and_back`).
const LIONIZED: &str = "3m3k/2l5/1F6/Z7/1F6/8/8/7K w - - 0 1";

async fn two_leg_move(p: &Browser, bob: &common::TestClient, chosen: &mut String) -> Result<()> {
    p.signup().await?;
    game_against(p, bob, "lionized-chess", LIONIZED).await?;
    // A two-leg move whose three squares no other legal move shares: its
    // origin, middle square and target, and its text, as the page lists it.
    let found = p
        .js("var lis = Array.from(document.querySelectorAll('#legal-moves li[data-from]'));\
             var sq = c => (c || '').match(/[a-z][0-9]+/g) || [];\
             var legs = lis.filter(li => { var s = sq(li.dataset.coord); return s.length >= 3 && s[0] === li.dataset.from && s[1] !== li.dataset.to && s[1] !== s[0] && li.dataset.to !== li.dataset.from; });\
             var key = li => li.dataset.from + sq(li.dataset.coord)[1] + li.dataset.to;\
             var one = legs.find(li => legs.filter(o => key(o) === key(li)).length === 1);\
             return one ? [one.dataset.from, sq(one.dataset.coord)[1], one.dataset.to, one.dataset.move, one.dataset.coord, legs.length] : null;")
        .await?;
    let Some(f) = found.as_array() else {
        bail!("no two-leg move listed in {LIONIZED}");
    };
    let s = |i: usize| f[i].as_str().unwrap_or_default().to_string();
    let (from, via, to, text, coord) = (s(0), s(1), s(2), s(3), s(4));
    *chosen = coord.clone();
    let sq = |s: &str| format!("#board g.sq[data-sq='{s}']");
    p.click(&sq(&from)).await?;
    p.wait_for(
        &format!("{via} marked as a middle square"),
        &format!(
            "document.querySelector(\"{}\").classList.contains('via')",
            sq(&via)
        ),
    )
    .await?;
    p.click(&sq(&via)).await?;
    // A move may also end on the middle square: the chooser offers it, and
    // the second leg is still to be clicked.
    p.wait_for(
        &format!("{to} marked as a second leg's target"),
        &format!(
            "document.querySelector(\"{}\").classList.contains('via') && \
             document.querySelector(\"{}\").classList.contains('target')",
            sq(&via),
            sq(&to)
        ),
    )
    .await?;
    p.click(&sq(&to)).await?;
    let value = p.find("#move-input").await?.prop("value").await?;
    if value.as_deref() != Some(text.as_str()) {
        bail!("clicking {from}, {via}, {to} filled in {value:?}, not {text} ({coord})");
    }
    p.save_png("lionized-two-legs", p.client.screenshot().await?)
        .await?;
    p.click("#move-form button[type=submit]").await?;
    p.click("#preview button[type=submit]").await?;
    p.wait_for(
        &format!("{text} in the move list"),
        &format!(
            "!document.getElementById('preview') && Array.from(document.querySelectorAll('#moves a')).some(a => a.textContent.trim() === '{text}')"
        ),
    )
    .await
}

/// Moving a Spear onto Maohopper's trap (h4) is legal but loses the piece:
/// the preview says so before the move is confirmed, and an ordinary move's
/// preview warns of nothing.
#[test]
fn the_preview_warns_before_a_piece_goes_onto_the_trap() {
    let app = TestApp::start(Backend::Sqlite);
    let bob = app.user("bob_trap");
    let bobr = &bob;
    let ran = with_browsers("trap", &app, &["trap_player"], |b| async move {
        let r = trap_preview(&b[0], bobr).await;
        (b, r)
    });
    if ran {
        assert_eq!(
            app.count("SELECT COUNT(*) AS n FROM moves"),
            0,
            "only previews"
        );
    }
}

async fn trap_preview(p: &Browser, bob: &common::TestClient) -> Result<()> {
    p.signup().await?;
    let id = game_against(p, bob, "maohopper", "").await?;
    for (from, to, warned) in [("g3", "g4", false), ("h3", "h4", true)] {
        p.goto(&format!("/games/{id}")).await?;
        p.find("#move-form").await?;
        p.click(&format!("#board g.sq[data-sq='{from}']")).await?;
        p.click(&format!("#board g.sq[data-sq='{to}']")).await?;
        if p.js("return !!document.getElementById('move-chooser');")
            .await?
            == Value::Bool(true)
        {
            p.click("#move-chooser button.choice").await?;
        }
        p.click("#move-form button[type=submit]").await?;
        p.find("#preview").await?;
        let warning = p
            .js("var w = document.querySelector('#preview .warning'); return w ? w.textContent : null;")
            .await?;
        match (warned, warning.as_str()) {
            (true, Some(w)) if w.contains("loses your Spear") && w.contains("trap (h4)") => {
                p.save_png("trap-warning", p.client.screenshot().await?)
                    .await?;
            }
            (false, None) => {}
            _ => bail!("{from}-{to}: the preview's warning is {warning}"),
        }
    }
    Ok(())
}
