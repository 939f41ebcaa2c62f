//! The browser tests' harness: `chromedriver` on a free port, Chromium
//! sessions with their own profiles, and what a test does with a page
//! (find, click, fill, wait, check it fits, save a screenshot).

#![allow(dead_code)]

pub mod devtools;

use crate::common::{TestApp, TestClient};
use anyhow::{anyhow, bail, Context, Result};
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
pub const WAIT: Duration = Duration::from_secs(60);
pub const PASSWORD: &str = "correct horse battery";
pub const PHONE: (u32, u32) = (390, 844);
pub const DESKTOP: (u32, u32) = (1366, 900);

/// One browser test at a time: several Chromiums at once on a small shared
/// machine is what makes browser tests flaky.
static BROWSER_LOCK: Mutex<()> = Mutex::new(());

pub fn env_on(name: &str) -> bool {
    std::env::var(name)
        .map(|v| !v.is_empty() && v != "0" && v != "false")
        .unwrap_or(false)
}

pub fn find_in_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

/// `chromedriver`, or `None` (after saying so) when the test may be skipped.
pub fn chromedriver() -> Option<PathBuf> {
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

pub fn chromium_binary() -> Option<String> {
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
pub struct Driver {
    child: Child,
    url: String,
}

impl Driver {
    pub fn start(path: &Path) -> Result<Driver> {
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
pub struct Browser {
    pub client: Client,
    pub base: String,
    pub name: String,
    _profile: tempfile::TempDir,
}

pub async fn open(driver: &Driver, base: &str, name: &str) -> Result<Browser> {
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
    pub async fn goto(&self, path: &str) -> Result<()> {
        self.client
            .goto(&format!("{}{path}", self.base))
            .await
            .with_context(|| format!("{}: open {path}", self.name))
    }

    pub async fn find(&self, css: &str) -> Result<fantoccini::elements::Element> {
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

    pub async fn click(&self, css: &str) -> Result<()> {
        self.find(css)
            .await?
            .click()
            .await
            .with_context(|| format!("{}: click {css}", self.name))
    }

    pub async fn fill(&self, css: &str, text: &str) -> Result<()> {
        let e = self.find(css).await?;
        e.clear().await?;
        e.send_keys(text).await?;
        Ok(())
    }

    pub async fn js(&self, script: &str) -> Result<Value> {
        Ok(self.client.execute(script, vec![]).await?)
    }

    /// Wait until the JavaScript expression is true.
    pub async fn wait_for(&self, what: &str, expr: &str) -> Result<()> {
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

    /// Click what submits a form and wait for the page the server answers
    /// with: a new document (the old one's mark gone), loaded. Waiting for
    /// an address is not enough when the answer comes back to the page
    /// the form was on.
    pub async fn submit(&self, css: &str) -> Result<()> {
        self.js("window.__missiveOldPage = true").await?;
        self.click(css).await?;
        self.wait_for(
            &format!("the answer to {css}"),
            "!window.__missiveOldPage && document.readyState === 'complete'",
        )
        .await
    }

    pub async fn path(&self) -> Result<String> {
        Ok(self.client.current_url().await?.path().to_string())
    }

    pub async fn signup(&self) -> Result<()> {
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

    /// Click a piece then its target square on a page with the move form,
    /// check the highlights and that the move field was filled with `expect`.
    pub async fn click_move(&self, from: &str, to: &str, expect: &str) -> Result<()> {
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
        Ok(())
    }

    /// Click a piece then its target square on the game page, check the
    /// highlights and the filled-in move, submit it, and confirm the preview.
    /// With `shot`, the page with the preview is checked to fit the screen
    /// and saved under that name.
    pub async fn play(&self, from: &str, to: &str, expect: &str, shot: Option<&str>) -> Result<()> {
        self.click_move(from, to, expect).await?;
        self.click("#move-form button[type=submit]").await?;
        let heading = self.find("#preview h1").await?.text().await?;
        if !heading.contains(expect) {
            bail!("{}: preview says “{heading}”, expected {expect}", self.name);
        }
        if let Some(name) = shot {
            self.fits("#preview svg").await?;
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
    pub async fn resize(&self, w: u32, h: u32) -> Result<()> {
        self.client.set_window_size(w, h).await?;
        self.wait_for(
            &format!("a {w}px wide viewport"),
            &format!("window.innerWidth <= {w} && window.innerWidth > {w} - 40"),
        )
        .await
    }

    /// The page fits across the viewport (no sideways scrolling) and the
    /// element `css` (the board) is wholly inside it; the viewport width.
    pub async fn fits(&self, css: &str) -> Result<u32> {
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
    pub async fn square_px(&self) -> Result<f64> {
        let v = self
            .js("return Math.min(...Array.from(document.querySelectorAll('#board g.sq > rect:first-child')) \
                 .map(r => r.getBoundingClientRect().width));")
            .await?;
        v.as_f64().ok_or_else(|| anyhow!("no squares: {v}"))
    }

    /// The moves listed on the page, in order.
    pub async fn move_texts(&self) -> Result<Vec<String>> {
        let v = self
            .js("return Array.from(document.querySelectorAll('#moves a')).map(a => a.textContent.trim());")
            .await?;
        Ok(serde_json::from_value(v)?)
    }

    /// The name of the piece drawn on a square (its SVG title), if any.
    pub async fn piece_on(&self, square: &str) -> Result<Option<String>> {
        let v = self
            .js(&format!(
                "var t = document.querySelector(\"#board g.sq[data-sq='{square}'] g.piece title\"); \
                 return t ? t.textContent : null;"
            ))
            .await?;
        Ok(v.as_str().map(str::to_string))
    }

    pub async fn save_png(&self, name: &str, png: Vec<u8>) -> Result<PathBuf> {
        check_png(&png).with_context(|| format!("screenshot {name}"))?;
        let path = artifacts_dir().join(format!("{name}.png"));
        std::fs::write(&path, &png)?;
        Ok(path)
    }

    /// On failure: what the page looked like, for the artifacts.
    pub async fn dump(&self, label: &str) {
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
pub fn check_png(png: &[u8]) -> Result<(u32, u32)> {
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
pub fn with_browsers<F, Fut>(label: &str, app: &TestApp, names: &[&str], body: F) -> bool
where
    F: FnOnce(Vec<Browser>) -> Fut,
    Fut: Future<Output = (Vec<Browser>, Result<()>)>,
{
    with_browsers_at(label, &app.base, names, body)
}

/// [`with_browsers`] on the server at `base`, for a body that stops the
/// server itself (and so owns its `TestApp`).
pub fn with_browsers_at<F, Fut>(label: &str, base: &str, names: &[&str], body: F) -> bool
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
            match open(&driver, base, n).await {
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

/// `white` challenges `black` to chess (from `fen`, if given) from the
/// new-game form; `black` accepts from the dashboard. The game's path.
pub async fn challenge_accepted(
    white: &Browser,
    black: &Browser,
    fen: Option<&str>,
) -> Result<String> {
    white.goto("/games/new").await?;
    white.click("input[name=variant][value=chess]").await?;
    send_challenge_accepted(white, black, fen).await
}

/// On the new-game form, its variant chosen: `white` challenges `black`
/// (from `fen`, if given), taking White; `black` accepts from the
/// dashboard. The game's path.
pub async fn send_challenge_accepted(
    white: &Browser,
    black: &Browser,
    fen: Option<&str>,
) -> Result<String> {
    white
        .fill(
            "form[action='/games/new'] input[name=opponent]",
            &black.name,
        )
        .await?;
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

/// Run blocking work (the test app's HTTP clients, which start a runtime
/// of their own) from inside a browser test's async body, on a thread of
/// its own.
pub fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| s.spawn(f).join().expect("the blocking work finished"))
}

/// `challenger` (a test client over HTTP) challenges the browser's player
/// to `variant` from `fen` (empty: the usual start), the player taking
/// White, and the player accepts on the game page; the game's id.
pub async fn game_against(
    p: &Browser,
    challenger: &TestClient,
    variant: &str,
    fen: &str,
) -> Result<i32> {
    let page = off_runtime(|| {
        challenger.post(
            "/games/new",
            &[
                ("variant", variant),
                ("opponent", p.name.as_str()),
                ("color", "black"),
                ("fen", fen),
            ],
        )
    });
    let id: i32 = page
        .location
        .as_deref()
        .and_then(|l| l.trim_start_matches("/games/").parse().ok())
        .with_context(|| format!("{variant}: no game made ({:?})", page.status()))?;
    p.goto(&format!("/games/{id}")).await?;
    p.click(&format!("form[action='/games/{id}/accept'] button"))
        .await?;
    p.find("#move-form").await?;
    Ok(id)
}
