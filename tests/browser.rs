//! End-to-end tests in a real browser: headless Chromium driven over
//! WebDriver (`chromedriver`) against the real server.
//!
//! Without `chromedriver` these tests are skipped on a developer's machine,
//! and fail when `CI` or `MISSIVE_TEST_BROWSER=1` is set (`.ci/run` sets it).
//! Screenshots go to `target/browser-artifacts/`.

mod common;
#[path = "common/smtp.rs"]
mod smtp;

use anyhow::{anyhow, bail, Context, Result};
use common::{Backend, TestApp};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::future::Future;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Generous: a loaded 2-core machine can take seconds to start Chromium or
/// render a page.
const WAIT: Duration = Duration::from_secs(60);
const PASSWORD: &str = "correct horse battery";
const PHONE: (u32, u32) = (390, 844);
const DESKTOP: (u32, u32) = (1366, 900);

/// One browser test at a time: several Chromiums at once on a small shared
/// machine is what makes browser tests flaky.
static BROWSER_LOCK: Mutex<()> = Mutex::new(());

fn env_on(name: &str) -> bool {
    std::env::var(name)
        .map(|v| !v.is_empty() && v != "0" && v != "false")
        .unwrap_or(false)
}

fn find_in_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

/// `chromedriver`, or `None` (after saying so) when the test may be skipped.
fn chromedriver() -> Option<PathBuf> {
    let found = match std::env::var_os("MISSIVE_CHROMEDRIVER").filter(|p| !p.is_empty()) {
        Some(p) => Some(PathBuf::from(p)).filter(|p| p.is_file()),
        None => Some(PathBuf::from("/usr/bin/chromedriver"))
            .filter(|p| p.is_file())
            .or_else(|| find_in_path("chromedriver")),
    };
    if found.is_none() {
        let how = "chromedriver not found: install Chromium and its driver with \
                   `apt-get install -y chromium chromium-driver` (Debian), \
                   or point MISSIVE_CHROMEDRIVER at a chromedriver";
        if env_on("CI") || env_on("MISSIVE_TEST_BROWSER") {
            panic!("{how}");
        }
        eprintln!(
            "browser test skipped: {how} (set MISSIVE_TEST_BROWSER=1 to make this a failure)"
        );
    }
    found
}

fn chromium_binary() -> Option<String> {
    std::env::var("MISSIVE_CHROMIUM")
        .ok()
        .filter(|p| !p.is_empty())
        .or_else(|| {
            ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
                .iter()
                .find(|p| Path::new(p).is_file())
                .map(|p| p.to_string())
        })
}

pub fn artifacts_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    let dir = target.join("browser-artifacts");
    std::fs::create_dir_all(&dir).expect("create target/browser-artifacts");
    dir
}

/// A running `chromedriver` on a free loopback port, killed on drop.
struct Driver {
    child: Child,
    url: String,
}

impl Driver {
    fn start(path: &Path) -> Result<Driver> {
        let mut last = anyhow!("chromedriver did not start");
        // The port is free when picked; another process may take it before
        // chromedriver binds it, so try a few.
        for _ in 0..3 {
            let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
            let log = artifacts_dir().join("chromedriver.log");
            let child = Command::new(path)
                .arg(format!("--port={port}"))
                .arg(format!("--log-path={}", log.display()))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .with_context(|| format!("start {}", path.display()))?;
            let mut driver = Driver {
                child,
                url: format!("http://127.0.0.1:{port}"),
            };
            match driver.wait_ready() {
                Ok(()) => return Ok(driver),
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    fn wait_ready(&mut self) -> Result<()> {
        let http = reqwest::blocking::Client::builder()
            .timeout(Duration::from_secs(5))
            .build()?;
        let deadline = Instant::now() + WAIT;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait()? {
                bail!("chromedriver exited: {status}");
            }
            if let Ok(r) = http.get(format!("{}/status", self.url)).send() {
                let v: Value = r.json().unwrap_or(Value::Null);
                if v["value"]["ready"] == json!(true) {
                    return Ok(());
                }
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        bail!("chromedriver not ready after {WAIT:?}")
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A browser session with its own profile directory.
struct Browser {
    client: Client,
    base: String,
    name: String,
    _profile: tempfile::TempDir,
}

async fn open(driver: &Driver, base: &str, name: &str) -> Result<Browser> {
    let profile = tempfile::tempdir()?;
    // The flags this machine's headless Chromium needs (no sandbox as root,
    // no GPU, no calls out to a network that is closed).
    let args = vec![
        "--headless".to_string(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-dev-shm-usage".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        "--disable-quic".into(),
        "--no-first-run".into(),
        "--hide-scrollbars".into(),
        "--force-device-scale-factor=1".into(),
        format!("--window-size={},{}", DESKTOP.0, DESKTOP.1),
        "--lang=en-US".into(),
        format!("--user-data-dir={}", profile.path().display()),
    ];
    let mut chrome = json!({ "args": args });
    if let Some(bin) = chromium_binary() {
        chrome["binary"] = json!(bin);
    }
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), json!("chrome"));
    caps.insert("goog:chromeOptions".into(), chrome);
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let client = ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&driver.url)
        .await
        .with_context(|| format!("open a Chromium session for {name}"))?;
    client
        .update_timeouts(fantoccini::wd::TimeoutConfiguration::new(
            Some(WAIT),
            Some(WAIT),
            Some(Duration::ZERO),
        ))
        .await?;
    Ok(Browser {
        client,
        base: base.to_string(),
        name: name.to_string(),
        _profile: profile,
    })
}

impl Browser {
    async fn goto(&self, path: &str) -> Result<()> {
        self.client
            .goto(&format!("{}{path}", self.base))
            .await
            .with_context(|| format!("{}: open {path}", self.name))
    }

    async fn find(&self, css: &str) -> Result<fantoccini::elements::Element> {
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self
                .client
                .wait()
                .at_most(left)
                .for_element(Locator::Css(css))
                .await
            {
                // A look made while a form's answer is loading is cut short
                // by chromedriver ("aborted by navigation"), not answered
                // "no such element": look again on the page that loads.
                Err(e) if e.to_string().contains("aborted by navigation") && !left.is_zero() => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                found => return found.with_context(|| format!("{}: no element {css}", self.name)),
            }
        }
    }

    async fn click(&self, css: &str) -> Result<()> {
        self.find(css)
            .await?
            .click()
            .await
            .with_context(|| format!("{}: click {css}", self.name))
    }

    async fn fill(&self, css: &str, text: &str) -> Result<()> {
        let e = self.find(css).await?;
        e.clear().await?;
        e.send_keys(text).await?;
        Ok(())
    }

    async fn js(&self, script: &str) -> Result<Value> {
        Ok(self.client.execute(script, vec![]).await?)
    }

    /// Wait until the JavaScript expression is true.
    async fn wait_for(&self, what: &str, expr: &str) -> Result<()> {
        let script = format!("return !!({expr});");
        let deadline = Instant::now() + WAIT;
        loop {
            // A script run while a page is being replaced may fail: that
            // is "not yet", not a failure.
            let last = match self.js(&script).await {
                Ok(Value::Bool(true)) => return Ok(()),
                Ok(_) => String::new(),
                Err(e) => format!(" (last error: {e:#})"),
            };
            if Instant::now() > deadline {
                bail!("{}: timed out waiting for {what}{last}", self.name);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn path(&self) -> Result<String> {
        Ok(self.client.current_url().await?.path().to_string())
    }

    async fn signup(&self) -> Result<()> {
        self.goto("/signup").await?;
        self.fill("input[name=username]", &self.name).await?;
        self.fill("input[name=email]", &format!("{}@example.org", self.name))
            .await?;
        self.fill("input[name=password]", PASSWORD).await?;
        self.click("form[action='/signup'] button[type=submit]")
            .await?;
        let who = format!(
            "document.querySelector('header .who') && \
             document.querySelector('header .who').textContent.trim() === '{}'",
            self.name
        );
        self.wait_for("the signed-in header", &who).await
    }

    /// Click a piece then its target square on the game page, check the
    /// highlights and the filled-in move, submit it, and confirm the preview.
    /// With `shot`, the page with the preview is checked to fit the screen
    /// and saved under that name.
    async fn play(&self, from: &str, to: &str, expect: &str, shot: Option<&str>) -> Result<()> {
        let sq = |s: &str| format!("#board g.sq[data-sq='{s}']");
        self.find("#move-form").await?;
        self.click(&sq(from)).await?;
        self.wait_for(
            &format!("{from} selected and {to} marked as a target"),
            &format!(
                "document.querySelector(\"{}\").classList.contains('selected') && \
                 document.querySelector(\"{}\").classList.contains('target')",
                sq(from),
                sq(to)
            ),
        )
        .await?;
        self.click(&sq(to)).await?;
        let value = self
            .find("#move-input")
            .await?
            .prop("value")
            .await?
            .unwrap_or_default();
        if value != expect {
            bail!(
                "{}: clicking {from}-{to} filled in “{value}”, not “{expect}”",
                self.name
            );
        }
        self.click("#move-form button[type=submit]").await?;
        let heading = self.find("#preview h2").await?.text().await?;
        if !heading.contains(expect) {
            bail!("{}: preview says “{heading}”, expected {expect}", self.name);
        }
        if let Some(name) = shot {
            self.fits("#preview svg").await?;
            self.fits("#board svg").await?;
            self.save_png(name, self.client.screenshot().await?).await?;
        }
        self.click("#preview button[type=submit]").await?;
        self.wait_for(
            &format!("{expect} in the move list"),
            &format!(
                "!document.getElementById('preview') && document.getElementById('moves') && \
                 Array.from(document.querySelectorAll('#moves a')).some(a => a.textContent.trim() === '{expect}')"
            ),
        )
        .await
    }

    /// Set the window size and wait until the page is laid out at it.
    async fn resize(&self, w: u32, h: u32) -> Result<()> {
        self.client.set_window_size(w, h).await?;
        self.wait_for(
            &format!("a {w}px wide viewport"),
            &format!("window.innerWidth <= {w} && window.innerWidth > {w} - 40"),
        )
        .await
    }

    /// The page fits across the viewport (no sideways scrolling) and the
    /// element `css` (the board) is wholly inside it; the viewport width.
    async fn fits(&self, css: &str) -> Result<u32> {
        let fit = self
            .js(&format!(
                "var r = document.querySelector(\"{css}\").getBoundingClientRect(); \
                 return [r.left, r.right, r.width, window.innerWidth, \
                         document.documentElement.scrollWidth];"
            ))
            .await?;
        let n = |i: usize| fit[i].as_f64().unwrap_or(f64::NAN);
        let (left, right, width, inner, scroll) = (n(0), n(1), n(2), n(3), n(4));
        if left < 0.0 || right > inner + 0.5 || scroll > inner + 0.5 || width < 100.0 {
            let wide = self
                .js(
                    "return Array.from(document.querySelectorAll('body *')) \
                     .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5 \
                             && !Array.from(e.children).some(c => c.getBoundingClientRect().right > window.innerWidth + 0.5)) \
                     .slice(0, 5).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')).join(', ');",
                )
                .await?;
            bail!(
                "{css} spans {left}..{right} (width {width}) in a {inner}px viewport, \
                 page {scroll}px wide; too wide: {wide}"
            );
        }
        Ok(inner as u32)
    }

    /// The smallest square of the board on the screen, in CSS pixels.
    async fn square_px(&self) -> Result<f64> {
        let v = self
            .js("return Math.min(...Array.from(document.querySelectorAll('#board g.sq > rect:first-child')) \
                 .map(r => r.getBoundingClientRect().width));")
            .await?;
        v.as_f64().ok_or_else(|| anyhow!("no squares: {v}"))
    }

    /// The moves listed on the page, in order.
    async fn move_texts(&self) -> Result<Vec<String>> {
        let v = self
            .js("return Array.from(document.querySelectorAll('#moves a')).map(a => a.textContent.trim());")
            .await?;
        Ok(serde_json::from_value(v)?)
    }

    /// The name of the piece drawn on a square (its SVG title), if any.
    async fn piece_on(&self, square: &str) -> Result<Option<String>> {
        let v = self
            .js(&format!(
                "var t = document.querySelector(\"#board g.sq[data-sq='{square}'] g.piece title\"); \
                 return t ? t.textContent : null;"
            ))
            .await?;
        Ok(v.as_str().map(str::to_string))
    }

    async fn save_png(&self, name: &str, png: Vec<u8>) -> Result<PathBuf> {
        check_png(&png).with_context(|| format!("screenshot {name}"))?;
        let path = artifacts_dir().join(format!("{name}.png"));
        std::fs::write(&path, &png)?;
        Ok(path)
    }

    /// On failure: what the page looked like, for the artifacts.
    async fn dump(&self, label: &str) {
        let dir = artifacts_dir();
        if let Ok(png) = self.client.screenshot().await {
            let _ = std::fs::write(dir.join(format!("failure-{label}-{}.png", self.name)), png);
        }
        if let Ok(src) = self.client.source().await {
            let _ = std::fs::write(dir.join(format!("failure-{label}-{}.html", self.name)), src);
        }
    }
}

/// A PNG of nonzero size: signature, IHDR, and its width and height.
fn check_png(png: &[u8]) -> Result<(u32, u32)> {
    const SIG: &[u8] = b"\x89PNG\r\n\x1a\n";
    if png.len() < 33 || &png[..8] != SIG || &png[12..16] != b"IHDR" {
        bail!("not a PNG ({} bytes)", png.len());
    }
    let w = u32::from_be_bytes(png[16..20].try_into()?);
    let h = u32::from_be_bytes(png[20..24].try_into()?);
    if w == 0 || h == 0 {
        bail!("empty PNG {w}x{h}");
    }
    Ok((w, h))
}

/// Run a browser test body with `n` sessions named by `names`; whatever
/// happens, the sessions are closed and chromedriver stopped; on failure the
/// pages are saved as artifacts before the test fails. False when skipped.
fn with_browsers<F, Fut>(label: &str, app: &TestApp, names: &[&str], body: F) -> bool
where
    F: FnOnce(Vec<Browser>) -> Fut,
    Fut: Future<Output = (Vec<Browser>, Result<()>)>,
{
    let Some(path) = chromedriver() else {
        return false;
    };
    let _one_at_a_time = BROWSER_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start(&path).expect("chromedriver starts");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let result = rt.block_on(async {
        let mut browsers = Vec::new();
        for n in names {
            match open(&driver, &app.base, n).await {
                Ok(b) => browsers.push(b),
                Err(e) => {
                    for b in browsers {
                        let _ = b.client.close().await;
                    }
                    return Err(e);
                }
            }
        }
        let (browsers, result) = body(browsers).await;
        if result.is_err() {
            for b in &browsers {
                b.dump(label).await;
            }
        }
        for b in browsers {
            let _ = b.client.close().await;
        }
        result
    });
    drop(driver);
    if let Err(e) = result {
        panic!(
            "{label}: {e:#}\n(pages saved in {})",
            artifacts_dir().display()
        );
    }
    true
}

/// Two players sign up in two browsers, one challenges, the other accepts,
/// and they play a short game by clicking, confirming each move, each
/// seeing the other's move after a reload.
fn two_players_play_a_game_by_clicking(backend: Backend) {
    let app = TestApp::start(backend);
    let tag = match backend {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    };
    let white_name = format!("white_{tag}");
    let black_name = format!("black_{tag}");
    let label = format!("game-{tag}");
    let ran = with_browsers(&label, &app, &[&white_name, &black_name], |b| async move {
        let r = scholars_mate(&b, tag).await;
        (b, r)
    });
    if !ran {
        return;
    }
    // What the browsers did is what the server stored.
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM moves"), 7);
}

/// `white` challenges `black` to chess (from `fen`, if given) from the
/// new-game form; `black` accepts from the dashboard. The game's path.
async fn challenge_accepted(white: &Browser, black: &Browser, fen: Option<&str>) -> Result<String> {
    white.goto("/games/new").await?;
    white.click("input[name=variant][value=chess]").await?;
    white.fill("input[name=opponent]", &black.name).await?;
    white.click("input[name=color][value=white]").await?;
    if let Some(fen) = fen {
        white.fill("textarea[name=fen]", fen).await?;
    }
    white
        .click("form[action='/games/new'] button[type=submit]")
        .await?;
    white
        .wait_for(
            "the new game's page",
            "/^\\/games\\/\\d+$/.test(location.pathname)",
        )
        .await?;
    let game = white.path().await?;
    let id = game.trim_start_matches("/games/").to_string();
    black.goto("/").await?;
    black
        .click(&format!("form[action='/games/{id}/accept'] button"))
        .await?;
    black
        .wait_for(
            "the accepted game's page",
            &format!("location.pathname === '{game}'"),
        )
        .await?;
    Ok(game)
}

async fn scholars_mate(b: &[Browser], tag: &str) -> Result<()> {
    let (white, black) = (&b[0], &b[1]);
    white.signup().await?;
    black.signup().await?;

    let game = challenge_accepted(white, black, None).await?;
    if black.client.find(Locator::Css("#move-form")).await.is_ok() {
        bail!("black may move before white");
    }

    let moves = [
        ("e2", "e4", "e4"),
        ("e7", "e5", "e5"),
        ("f1", "c4", "Bc4"),
        ("b8", "c6", "Nc6"),
        ("d1", "h5", "Qh5"),
        ("g8", "f6", "Nf6"),
        ("h5", "f7", "Qxf7#"),
    ];
    for (i, (from, to, san)) in moves.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (white, black)
        } else {
            (black, white)
        };
        // The opponent's page was loaded before this move.
        if other.path().await? != game || other.move_texts().await?.len() != i {
            bail!("{}: not on the game page before move {}", other.name, i + 1);
        }
        mover.goto(&game).await?;
        if i == 0 {
            // The first move on a phone: move form, legal moves and the
            // preview must fit the screen too.
            mover.resize(PHONE.0, PHONE.1).await?;
            mover.fits("#board svg").await?;
            mover
                .save_png(
                    &format!("game-{tag}-phone"),
                    mover.client.screenshot().await?,
                )
                .await?;
            let preview = format!("game-{tag}-phone-preview");
            mover.play(from, to, san, Some(&preview)).await?;
            mover.resize(DESKTOP.0, DESKTOP.1).await?;
        } else {
            mover.play(from, to, san, None).await?;
        }
        // The opponent sees the move after a reload.
        other.client.refresh().await?;
        other
            .wait_for(
                &format!("{san} on the opponent's page"),
                &format!(
                    "document.querySelectorAll('#moves a').length === {} && \
                     Array.from(document.querySelectorAll('#moves a')).pop().textContent.trim() === '{san}'",
                    i + 1
                ),
            )
            .await?;
        if other.piece_on(to).await?.is_none() {
            bail!("{}: no piece drawn on {to} after {san}", other.name);
        }
        if other.piece_on(from).await?.is_some() {
            bail!("{}: a piece still drawn on {from} after {san}", other.name);
        }
    }
    let texts = white.move_texts().await?;
    let expected: Vec<&str> = moves.iter().map(|m| m.2).collect();
    if texts != expected {
        bail!("move list {texts:?}, expected {expected:?}");
    }

    // Checkmate: both pages show the result, and nobody may move.
    for p in [white, black] {
        p.client.refresh().await?;
        let result = p.find("#result").await?.text().await?;
        if !result.contains("1-0") && !result.to_lowercase().contains("checkmate") {
            bail!("{}: result line “{result}”", p.name);
        }
        if p.client.find(Locator::Css("#move-form")).await.is_ok() {
            bail!("{}: a move form after checkmate", p.name);
        }
    }
    black
        .save_png(
            &format!("game-{tag}-checkmate"),
            black.client.screenshot().await?,
        )
        .await?;
    Ok(())
}

both_backends!(two_players_play_a_game_by_clicking);

/// Each variant's start position at phone and desktop widths: saved as
/// screenshots, and the board must fit the screen.
#[test]
fn board_screenshots_of_every_variant_at_phone_and_desktop_widths() {
    let app = TestApp::start(Backend::Sqlite);
    with_browsers("screenshots", &app, &["shooter"], |b| async move {
        let r = screenshots(&b[0]).await;
        (b, r)
    });
}

async fn screenshots(p: &Browser) -> Result<()> {
    p.signup().await?;
    let mut saved = Vec::new();
    for v in missive_rules::variants() {
        p.goto(&format!("/games/new?variant={}", v.id())).await?;
        p.click("input[name=color][value=white]").await?;
        p.click("form[action='/games/new'] button[type=submit]")
            .await?;
        p.wait_for(
            "the new game's page",
            "/^\\/games\\/\\d+$/.test(location.pathname) && document.querySelector('#board svg')",
        )
        .await?;
        let title = p.find("h1").await?.text().await?;
        if !title.contains(v.name()) {
            bail!("{}: game page titled “{title}”", v.id());
        }
        legend_lists_the_engines_pieces(p, *v).await?;
        for (label, (w, h)) in [("phone", PHONE), ("desktop", DESKTOP)] {
            p.resize(w, h).await?;
            let inner = p.fits("#board svg").await.context(v.id())?;
            let square = p.square_px().await?;
            if square < 32.0 {
                bail!("{} at {label}: squares {square:.1} px", v.id());
            }
            let shot = p.client.screenshot().await?;
            let (sw, _) = check_png(&shot)?;
            if sw != inner {
                bail!("{} at {label}: screenshot {sw}px wide", v.id());
            }
            saved.push(p.save_png(&format!("{}-{label}", v.id()), shot).await?);
            let board = p.find("#board svg").await?.screenshot().await?;
            saved.push(
                p.save_png(&format!("{}-{label}-board", v.id()), board)
                    .await?,
            );
        }
        p.resize(DESKTOP.0, DESKTOP.1).await?;
    }
    for f in &saved {
        let len = std::fs::metadata(f)?.len();
        if len == 0 {
            bail!("{} is empty", f.display());
        }
    }
    if saved.len() != missive_rules::variants().len() * 4 {
        bail!("{} screenshots saved", saved.len());
    }
    Ok(())
}

/// The page's `#legend` lists, by name, exactly the piece types the rules
/// engine defines for the variant, each with a picture, and every picture
/// and diagram in it loads.
async fn legend_lists_the_engines_pieces(
    p: &Browser,
    v: &dyn missive_rules::Variant,
) -> Result<()> {
    p.find("#legend").await?;
    let listed: Vec<String> = serde_json::from_value(
        p.js(
            "return Array.from(document.querySelectorAll('#legend li.legend-piece')) \
              .map(li => li.dataset.piece);",
        )
        .await?,
    )?;
    let defined: Vec<String> = missive_rules::diagram::piece_types(v)
        .into_iter()
        .map(|t| t.label.name)
        .collect();
    if listed != defined {
        bail!(
            "{}: the legend lists {listed:?}, the engine defines {defined:?}",
            v.id()
        );
    }
    let pictures = p
        .js("return document.querySelectorAll('#legend li.legend-piece img.piece-pic').length;")
        .await?;
    if pictures.as_u64().unwrap_or(0) < defined.len() as u64 {
        bail!("{}: {pictures} pictures in the legend", v.id());
    }
    // The pictures and diagrams are files of their own: each one loaded
    // and drawn (an image that failed is complete with no width).
    p.wait_for(
        "the legend's pictures to load",
        "Array.from(document.querySelectorAll('#legend img')).every(i => i.complete)",
    )
    .await?;
    let broken = p
        .js(
            "return Array.from(document.querySelectorAll('#legend img')) \
              .filter(i => !(i.naturalWidth > 0)).map(i => i.getAttribute('src'));",
        )
        .await?;
    if broken.as_array().is_none_or(|b| !b.is_empty()) {
        bail!("{}: legend pictures not drawn: {broken}", v.id());
    }
    Ok(())
}

/// Positions with each special state a board must show (a Lionized piece,
/// Nukes held and a crater, the Flag and Spears, pieces in hand), started
/// from a FEN, and each rules page with its start position and diagrams:
/// saved at phone and desktop widths, the board fitting the screen.
#[test]
fn special_states_and_rules_pages_at_phone_and_desktop_widths() {
    let app = TestApp::start(Backend::Sqlite);
    with_browsers("states", &app, &["stater"], |b| async move {
        let r = special_states(&b[0]).await;
        (b, r)
    });
}

/// Variant, name, FEN, and what the board must show (a CSS selector).
const STATES: [(&str, &str, &str, &str); 4] = [
    (
        "lionized-chess",
        "lionized",
        "lcmzkfhl/ppp2ppp/3p4/4p3/3ZP3/4F3/P1PP1PPP/LHM1K1CL[Hc] w - - 0 3",
        "#board g.lionized",
    ),
    (
        "fleap",
        "nukes-crater",
        "*tsfat*/eee1eee/3*3/*5*/2E1+A2/EE1EEEE/*TSFAT*[PN] w 1/1 0 4",
        "#board g.held[data-held='*'], #board g.crater-sq",
    ),
    (
        "maohopper",
        "flag-spears",
        "nrmwfwmrn/amebabema/ss1s>ssss<s/2s6/2O1O1O2/3S<5/SSS1SSSS>S/AMEBABEMA/NRMWFWMRN w 3",
        "#board use[href='#pa-flag'], #board g.trap",
    ),
    (
        "leaperhouse",
        "hand",
        "unceakecnu/10/pppppppp2/10/10/10/10/PPPPPPPP2/10/UNCEKAECNU[PPp] w - - 0 5",
        "#board g.in-hand",
    ),
];

async fn special_states(p: &Browser) -> Result<()> {
    p.signup().await?;
    for (id, name, fen, shows) in STATES {
        p.goto(&format!("/games/new?variant={id}")).await?;
        p.click("input[name=color][value=white]").await?;
        p.fill("input[name=fen], textarea[name=fen]", fen).await?;
        p.click("form[action='/games/new'] button[type=submit]")
            .await?;
        p.wait_for(
            &format!("the {name} game's page"),
            "/^\\/games\\/\\d+$/.test(location.pathname) && document.querySelector('#board svg')",
        )
        .await?;
        p.find(shows)
            .await
            .with_context(|| format!("{id} {name}"))?;
        p.find("#legend").await?;
        for (label, (w, h)) in [("phone", PHONE), ("desktop", DESKTOP)] {
            p.resize(w, h).await?;
            p.fits("#board svg").await.context(id)?;
            // Squares a finger can hit on a phone, pieces in hand or not.
            let square = p.square_px().await?;
            if square < 32.0 {
                bail!("{id} {name} at {label}: squares {square:.1} px");
            }
            p.save_png(
                &format!("{id}-{name}-{label}"),
                p.client.screenshot().await?,
            )
            .await?;
            let board = p.find("#board svg").await?.screenshot().await?;
            p.save_png(&format!("{id}-{name}-{label}-board"), board)
                .await?;
            p.client.set_window_size(w, 4000).await?;
            let legend = p.find("#legend").await?.screenshot().await?;
            p.save_png(&format!("{id}-{name}-{label}-legend"), legend)
                .await?;
            p.client.set_window_size(w, h).await?;
        }
        p.resize(DESKTOP.0, DESKTOP.1).await?;
    }
    for v in missive_rules::variants() {
        p.goto(&format!("/variants/{}", v.id())).await?;
        p.find("#start-position svg.board").await?;
        legend_lists_the_engines_pieces(p, *v).await?;
        for (label, (w, h)) in [("phone", PHONE), ("desktop", DESKTOP)] {
            p.resize(w, h).await?;
            p.fits("#start-position svg").await.context(v.id())?;
            p.save_png(
                &format!("rules-{}-{label}", v.id()),
                p.client.screenshot().await?,
            )
            .await?;
            // Tall enough for the whole legend in one element screenshot.
            p.client.set_window_size(w, 4000).await?;
            let legend = p.find("#legend").await?.screenshot().await?;
            p.client.set_window_size(w, h).await?;
            p.save_png(&format!("rules-{}-{label}-legend", v.id()), legend)
                .await?;
        }
        p.resize(DESKTOP.0, DESKTOP.1).await?;
    }
    Ok(())
}

/// Click-to-move where one click pair means several moves (a promotion):
/// a chooser lists them in notation, the pick fills the field, and a `//`
/// comment typed first survives the click, the preview and the confirmation.
#[test]
fn ambiguous_clicks_ask_which_move_and_keep_the_comment() {
    let app = TestApp::start(Backend::Sqlite);
    let ran = with_browsers(
        "chooser",
        &app,
        &["chooser_w", "chooser_b"],
        |b| async move {
            let r = promote_by_clicking(&b).await;
            (b, r)
        },
    );
    if !ran {
        return;
    }
    assert_eq!(
        app.count(
            "SELECT COUNT(*) AS n FROM moves WHERE display = 'e8=N' AND comment = 'good luck'"
        ),
        1
    );
}

async fn promote_by_clicking(b: &[Browser]) -> Result<()> {
    let (white, black) = (&b[0], &b[1]);
    white.signup().await?;
    black.signup().await?;
    let game = challenge_accepted(white, black, Some("7k/4P3/8/8/8/8/8/4K3 w - - 0 1")).await?;
    white.goto(&game).await?;
    white.fill("#move-input", "// good luck").await?;
    let sq = |s: &str| format!("#board g.sq[data-sq='{s}']");
    white.click(&sq("e7")).await?;
    white.click(&sq("e8")).await?;
    white
        .wait_for(
            "a chooser of the four promotions",
            "document.querySelectorAll('#move-chooser button.choice').length === 4",
        )
        .await?;
    let choices = white
        .js("return Array.from(document.querySelectorAll('#move-chooser button.choice')).map(b => b.textContent)")
        .await?;
    for want in ["e8=Q", "e8=R", "e8=B", "e8=N"] {
        if !choices.to_string().contains(want) {
            bail!("the chooser offers {choices}, not {want}");
        }
    }
    white
        .save_png("chooser-desktop", white.client.screenshot().await?)
        .await?;
    white
        .js("Array.from(document.querySelectorAll('#move-chooser button.choice')).find(b => b.textContent === 'e8=N').click(); return null")
        .await?;
    let value = white
        .find("#move-input")
        .await?
        .prop("value")
        .await?
        .unwrap_or_default();
    if value != "e8=N // good luck" {
        bail!("the pick filled in “{value}”");
    }
    if white
        .client
        .find(Locator::Css("#move-chooser"))
        .await
        .is_ok()
    {
        bail!("the chooser stays after the pick");
    }
    white.click("#move-form button[type=submit]").await?;
    let preview = white.find("#preview").await?.text().await?;
    if !preview.contains("e8=N") || !preview.contains("good luck") {
        bail!("the preview says “{preview}”");
    }
    white.click("#preview button[type=submit]").await?;
    white
        .wait_for(
            "e8=N in the move list",
            "Array.from(document.querySelectorAll('#moves a')).some(a => a.textContent.trim() === 'e8=N')",
        )
        .await?;
    Ok(())
}

/// The play-link page (the "your turn" mail's way in, mostly from a phone)
/// is a move page: a 9x9 board fits a 360 px screen, and a move is played
/// by clicking, without logging in.
#[test]
fn the_play_link_page_fits_a_phone_and_plays_by_clicking() {
    let app = TestApp::start(Backend::Sqlite);
    let alice = app.user("alice");
    let bob = app.user("bob");
    let p = alice.post(
        "/games/new",
        &[
            ("variant", "maohopper"),
            ("opponent", "bob"),
            ("color", "white"),
            ("fen", ""),
        ],
    );
    let id: i32 = p
        .location
        .expect("a new game")
        .trim_start_matches("/games/")
        .parse()
        .unwrap();
    bob.post(&format!("/games/{id}/accept"), &[]);
    let mover = if alice.json(id)["side_to_move"] == "white" {
        "alice"
    } else {
        "bob"
    };
    let user = app.count(&format!(
        "SELECT CAST(id AS BIGINT) AS n FROM users WHERE username = '{mover}'"
    )) as i32;
    let secret = missive::web::load_secret(&mut app.db(), None).unwrap();
    let link = missive::accounts::links::PlayLink {
        game: id,
        user,
        ply: 0,
        expires: chrono::Utc::now().timestamp() + 3600,
    }
    .url("", &secret);
    let ran = with_browsers("play-link", &app, &["link_reader"], |b| async move {
        let r = play_by_link(&b[0], &link).await;
        (b, r)
    });
    if !ran {
        return;
    }
    assert_eq!(
        app.count(&format!(
            "SELECT COUNT(*) AS n FROM moves WHERE game_id = {id}"
        )),
        1
    );
}

async fn play_by_link(b: &Browser, link: &str) -> Result<()> {
    b.resize(360, 800).await?;
    b.goto(link).await?;
    b.find("#move-form").await?;
    b.fits("#board svg").await?;
    b.save_png("play-link-maohopper-360", b.client.screenshot().await?)
        .await?;
    let first = b
        .js("var li = document.querySelector('#legal-moves li[data-from]'); return [li.dataset.from, li.dataset.to];")
        .await?;
    let (from, to) = (
        first[0].as_str().unwrap_or_default().to_string(),
        first[1].as_str().unwrap_or_default().to_string(),
    );
    b.click(&format!("#board g.sq[data-sq='{from}']")).await?;
    b.click(&format!("#board g.sq[data-sq='{to}']")).await?;
    if b.client.find(Locator::Css("#move-chooser")).await.is_ok() {
        b.click("#move-chooser button.choice").await?;
    }
    let value = b
        .find("#move-input")
        .await?
        .prop("value")
        .await?
        .unwrap_or_default();
    if value.is_empty() {
        bail!("clicking {from} then {to} filled in nothing");
    }
    b.click("#move-form button[type=submit]").await?;
    // Played: the answer leads to the game page.
    b.wait_for(
        "the game page after the move",
        "/^\\/games\\/\\d+$/.test(location.pathname)",
    )
    .await?;
    Ok(())
}

/// A running round robin's page (standings, cross table, rounds with
/// long names) fits a 390 px phone: wide tables scroll inside the page.
#[test]
fn a_tournament_page_fits_a_phone() {
    use missive::tournaments::{directors, entry};
    let app = TestApp::start(Backend::Sqlite);
    let tid = {
        let mut conn = app.db();
        let now = chrono::Utc::now().naive_utc();
        let mut players = Vec::new();
        for name in [
            "director_dee",
            "long_name_player_1",
            "another_long_name",
            "carol",
            "dmitri_k",
        ] {
            app.user(name);
            players.push(
                missive::accounts::users::find_by_name(&mut conn, name)
                    .unwrap()
                    .unwrap(),
            );
        }
        let dir = directors::set_director(&mut conn, "director_dee", true).unwrap();
        let form = entry::TournamentForm {
            name: "The Winter Correspondence Championship".into(),
            variant: "leap-chess-64".into(),
            time_control: "3d/move".into(),
            format: "round-robin".into(),
            entry_closes: (now.date() + chrono::Duration::days(3)).to_string(),
            ..Default::default()
        };
        let tid = entry::create(&mut conn, &dir, &form, now).unwrap();
        for p in &players[1..] {
            entry::join(&mut conn, tid, p, now).unwrap();
        }
        entry::start_by_director(&mut conn, tid, &dir, now).unwrap();
        tid
    };
    let path = format!("/tournaments/{tid}");
    with_browsers("tournament-phone", &app, &["t_viewer"], |b| async move {
        let r = async {
            let v = &b[0];
            v.resize(PHONE.0, PHONE.1).await?;
            v.goto(&path).await?;
            v.find("#status").await?;
            v.fits("main").await?;
            v.save_png("tournament-phone", v.client.screenshot().await?)
                .await?;
            Ok(())
        }
        .await;
        (b, r)
    });
}

/// A conditional line entered by clicking on the analysis board (moves for
/// both sides, nothing sent) and kept, and another typed on the game page;
/// then the opponent's move plays the first at once.
#[test]
fn a_conditional_line_entered_by_clicking_and_by_typing() {
    let app = TestApp::start(Backend::Sqlite);
    let alice = app.user("cond_white");
    let bob = app.user("cond_black");
    let id = alice.challenge("cond_black", "white");
    bob.post(&format!("/games/{id}/accept"), &[]);
    assert_eq!(alice.play(id, "e4").status, reqwest::StatusCode::SEE_OTHER);
    let ran = with_browsers("conditional", &app, &["cond_white"], |b| async move {
        let r = async {
            let w = &b[0];
            w.goto("/login").await?;
            w.fill("input[name=username]", "cond_white").await?;
            w.fill("input[name=password]", PASSWORD).await?;
            w.click("form[action='/login'] button[type=submit]").await?;
            w.wait_for("the dashboard", "location.pathname === '/'")
                .await?;
            w.goto(&format!("/games/{id}")).await?;
            w.click("#try-line").await?;
            // Black's e5, then White's Nf3, each by clicking; each click
            // pair fills the move, which is added to the line.
            for (from, to, expect, line) in
                [("e7", "e5", "e5", "e5"), ("g1", "f3", "Nf3", "e5 Nf3")]
            {
                let sq = |s: &str| format!("#board g.sq[data-sq='{s}']");
                w.click(&sq(from)).await?;
                w.click(&sq(to)).await?;
                let value = w
                    .find("#move-input")
                    .await?
                    .prop("value")
                    .await?
                    .unwrap_or_default();
                if value != expect {
                    bail!("clicking {from}-{to} filled in “{value}”, not “{expect}”");
                }
                w.click("#move-form button[type=submit]").await?;
                w.wait_for(
                    &format!("the line {line}"),
                    &format!(
                        "document.querySelector('#analysis-line strong') && \
                         document.querySelector('#analysis-line strong').textContent === '{line}'"
                    ),
                )
                .await?;
            }
            for (name, (width, height)) in
                [("analysis-phone", PHONE), ("analysis-desktop", DESKTOP)]
            {
                w.resize(width, height).await?;
                w.fits("#board svg").await?;
                w.save_png(name, w.client.screenshot().await?).await?;
            }
            w.click("#keep-line button[type=submit]").await?;
            w.wait_for(
                "the kept line on the game page",
                "document.getElementById('conditional-lines') && \
                 document.getElementById('conditional-lines').textContent.includes('e5 Nf3')",
            )
            .await?;
            // Typed on the game page.
            w.fill("#conditional-line", "d5 exd5").await?;
            w.click("#conditional-form button[type=submit]").await?;
            w.wait_for(
                "the typed line",
                "document.getElementById('conditional-lines') && \
                 document.getElementById('conditional-lines').textContent.includes('d5 exd5')",
            )
            .await?;
            w.resize(PHONE.0, PHONE.1).await?;
            w.fits("main").await?;
            w.save_png("conditional-lines-phone", w.client.screenshot().await?)
                .await?;
            Ok(())
        }
        .await;
        (b, r)
    });
    if !ran {
        return;
    }
    assert_eq!(bob.play(id, "e5").status, reqwest::StatusCode::SEE_OTHER);
    let j = bob.json(id);
    assert_eq!(j["ply"], 3);
    assert_eq!(j["moves"][2]["notation"], "Nf3");
    assert_eq!(j["moves"][2]["conditional"], true);
}

/// A person who forgot their password asks for a link on the login page,
/// follows the link from the mail (read from the SMTP sink), chooses a new
/// password and is logged in; the settings page at phone and desktop
/// widths.
#[test]
fn forgot_password_from_the_mails_link() {
    use missive::mail::{context::MailCtx, drain, transport};
    let app = TestApp::start(Backend::Sqlite);
    let sink = smtp::SmtpSink::start();
    {
        let mut conn = app.db();
        missive::accounts::users::create_verified(
            &mut conn,
            "forgetful",
            "forgetful@example.org",
            PASSWORD,
            missive::web::now(),
        )
        .unwrap();
    }
    let mut config = app.config.clone();
    config.base_url = app.base.clone();
    let secret = missive::web::load_secret(&mut app.db(), None).unwrap();
    let sender = drain::Sender {
        transport: transport::Transport::Smtp(transport::smtp_transport(&sink.url()).unwrap()),
        ctx: MailCtx::new(&config, &secret).unwrap(),
        owner: "browser-test".into(),
    };
    let db_url = app.database_url.clone();
    let base = app.base.clone();
    with_browsers("forgot-password", &app, &["forgetful"], |b| async move {
        let r = async {
            let p = &b[0];
            p.goto("/login").await?;
            p.click("#forgot-link").await?;
            p.fill("input[name=email]", "forgetful@example.org").await?;
            p.click("form[action='/password/forgot'] button[type=submit]")
                .await?;
            p.find("#forgot-sent").await?;
            // The worker's pass, run here: the mail goes to the sink.
            let mut conn = missive::db::Manager::new(&db_url).open()?;
            drain::drain_once(&mut conn, &sender, missive::web::now())?;
            let mails = sink.mails();
            let mail = mails
                .iter()
                .map(|m| smtp::readable(&m.data))
                .find(|m| m.contains("Reset your Missive password"))
                .ok_or_else(|| anyhow!("no reset mail in {} mails", mails.len()))?;
            let start = mail
                .find(&format!("{base}/password/reset?token="))
                .ok_or_else(|| anyhow!("no link in {mail}"))?;
            let link: String = mail[start..]
                .chars()
                .take_while(|c| !c.is_whitespace() && *c != '"' && *c != '<')
                .collect();
            p.client.goto(&common::unescape(&link)).await?;
            p.resize(PHONE.0, PHONE.1).await?;
            p.find("input[name=password][autocomplete=new-password]")
                .await?;
            p.fits("main").await?;
            p.save_png("password-reset-390", p.client.screenshot().await?)
                .await?;
            p.fill("input[name=password]", "plum tree over a quiet harbour")
                .await?;
            p.click("form[action='/password/reset'] button[type=submit]")
                .await?;
            p.find("#settings-notice").await?;
            if p.path().await? != "/settings" {
                bail!("after the reset the browser is at {}", p.path().await?);
            }
            p.fits("main").await?;
            p.save_png("settings-390", p.client.screenshot().await?)
                .await?;
            p.resize(1280, 900).await?;
            p.save_png("settings-1280", p.client.screenshot().await?)
                .await?;
            p.find("#sessions").await?;
            Ok(())
        }
        .await;
        (b, r)
    });
}
