//! Installing Missive (issue 64) in a real Chromium: the web app manifest
//! as the browser reads it, the service worker, and a game page the player
//! viewed read again from the device once the server is gone, under the
//! offline banner, its forms disabled. Screenshots of the notifications
//! settings at 390 and 1280 px and of the offline page go to
//! `target/browser-artifacts/install-*.png`.

use crate::browser_kit;
use crate::common;

use anyhow::{bail, ensure, Context, Result};
use browser_kit::*;
use common::{Backend, TestApp};
use serde_json::{json, Value};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const OFFLINE: &str = "You are offline — this page may be out of date; moves can't be sent.";

#[test]
fn a_viewed_game_reads_offline_and_the_manifest_is_valid() {
    let app = TestApp::start(Backend::Sqlite);
    let base = app.base.clone();
    let otto = app.user("otto");
    let manifest = check_manifest_over_http(&app);
    let app = Mutex::new(app);
    let (appr, ottor, manifestr) = (&app, &otto, &manifest);
    let ran = with_browsers_at("install", &base, &["ivy"], |b| async move {
        let res = offline_walk(&b[0], appr, ottor, manifestr).await;
        (b, res)
    });
    if !ran {
        eprintln!("browser test skipped");
    }
}

/// The manifest's contract, and each icon a PNG of its size.
fn check_manifest_over_http(app: &TestApp) -> Value {
    let c = app.client();
    let r = c
        .http
        .get(format!("{}/manifest.webmanifest", app.base))
        .send()
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(
        r.headers()["content-type"].to_str().unwrap(),
        "application/manifest+json"
    );
    let m: Value = r.json().unwrap();
    assert_eq!(m["display"], "standalone");
    assert_eq!(m["start_url"], "/");
    assert!(m["name"].as_str().unwrap().starts_with("Missive"));
    assert!(m["theme_color"].is_string() && m["background_color"].is_string());
    let icons = m["icons"].as_array().unwrap();
    for (size, purpose) in [
        (192, "any"),
        (512, "any"),
        (192, "maskable"),
        (512, "maskable"),
    ] {
        let icon = icons
            .iter()
            .find(|i| i["sizes"] == format!("{size}x{size}") && i["purpose"] == purpose)
            .unwrap_or_else(|| panic!("a {purpose} icon of {size} px"));
        let png = c
            .http
            .get(format!("{}{}", app.base, icon["src"].as_str().unwrap()))
            .send()
            .unwrap()
            .bytes()
            .unwrap();
        assert_eq!(check_png(&png).unwrap(), (size, size));
    }
    let sw = c.http.get(format!("{}/sw.js", app.base)).send().unwrap();
    assert_eq!(sw.status(), 200);
    assert!(sw.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/javascript"));
    assert_eq!(sw.headers()["cache-control"], "no-cache");
    // Every page links the manifest and installs the worker.
    for path in ["/", "/signup", "/variants", "/help"] {
        let page = c.get(path);
        assert!(
            page.has(r#"<link rel="manifest" href="/manifest.webmanifest">"#)
                && page.has(r#"<script src="/static/install.js" defer></script>"#),
            "{path}"
        );
    }
    m
}

/// Run an async script's promise and return what it resolves to.
async fn eval(b: &Browser, script: &str) -> Result<Value> {
    b.js(script).await
}

async fn until(b: &Browser, what: &str, script: &str) -> Result<()> {
    let deadline = Instant::now() + WAIT;
    loop {
        if eval(b, script).await.ok() == Some(Value::Bool(true)) {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!("timed out waiting for {what}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn offline_walk(
    p: &Browser,
    app: &Mutex<TestApp>,
    otto: &common::TestClient,
    manifest: &Value,
) -> Result<()> {
    p.signup().await?;
    // The browser reads the manifest without errors.
    let read = p.cdp("Page.getAppManifest", json!({})).await?;
    ensure!(
        read["errors"].as_array().is_some_and(|e| e.is_empty()),
        "manifest errors: {read}"
    );
    ensure!(
        read["url"]
            .as_str()
            .unwrap_or("")
            .ends_with("/manifest.webmanifest"),
        "{read}"
    );
    let data: Value = serde_json::from_str(read["data"].as_str().unwrap_or("{}"))?;
    ensure!(data == *manifest, "the browser read {data}");
    // The notifications settings, with their button now that script runs.
    p.goto("/settings").await?;
    p.click("#notifications-link").await?;
    p.wait_for(
        "the notification button",
        "!document.getElementById('push-toggle').hidden && \
         document.getElementById('push-needs-script').hidden",
    )
    .await?;
    for (w, h) in [(390, 844), (1280, 900)] {
        p.resize(w, h).await?;
        p.save_png(
            &format!("install-notifications-{w}"),
            p.client.screenshot().await?,
        )
        .await?;
    }
    p.resize(DESKTOP.0, DESKTOP.1).await?;
    // A game the player views, once the worker controls the page.
    let id = game_against(p, otto, "chess", "").await?;
    until(
        p,
        "the service worker",
        "return navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)",
    )
    .await?;
    let game = format!("/games/{id}");
    p.goto(&game).await?;
    until(
        p,
        "the game page kept",
        &format!(
            "return caches.open('missive-pages-v1').then(c => c.match('{game}')).then(r => !!r)"
        ),
    )
    .await?;
    // A page not viewed is not kept.
    p.goto("/variants").await?;
    // The server goes away.
    off_runtime(|| drop(app.lock().unwrap().stop_server()));
    p.goto(&game).await?;
    let banner = p.find("#offline-banner").await?.text().await?;
    ensure!(banner.contains(OFFLINE), "banner: {banner:?}");
    ensure!(
        p.find("#board").await.is_ok(),
        "the kept page shows its board"
    );
    let sendable = eval(
        p,
        "return Array.from(document.querySelectorAll('form button, form input:not([type=hidden])'))\
         .filter(e => !e.disabled).map(e => e.outerHTML)",
    )
    .await?;
    ensure!(
        sendable.as_array().is_some_and(|a| a.is_empty()),
        "enabled form fields offline: {sendable}"
    );
    for (w, h) in [(390, 844), (1280, 900)] {
        p.resize(w, h).await?;
        p.save_png(
            &format!("install-offline-game-{w}"),
            p.client.screenshot().await?,
        )
        .await?;
    }
    // A page never viewed says it is not kept, and lists the game that is.
    p.goto("/tournaments").await?;
    let text = p.find("main").await?.text().await?;
    ensure!(text.contains("You are offline"), "{text}");
    p.find(&format!("a[href='{game}']"))
        .await
        .context("the kept game listed")?;
    Ok(())
}
