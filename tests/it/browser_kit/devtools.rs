//! What WebDriver lacks and the browser tests need: the dark scheme's
//! media emulation (a Chrome DevTools command through chromedriver) and
//! key presses in whatever has the focus.

use super::Browser;
use anyhow::{Context, Result};
use serde_json::{json, Value};

/// A Chrome DevTools Protocol command, sent through chromedriver's
/// `goog/cdp/execute` endpoint (WebDriver has no media emulation).
#[derive(Debug)]
struct Cdp {
    cmd: &'static str,
    params: Value,
}

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        let body = json!({ "cmd": self.cmd, "params": self.params });
        (http::Method::POST, Some(body.to_string()))
    }
}

/// WebDriver's codes for the keys the board answers to.
pub mod keys {
    pub const TAB: &str = "\u{E004}";
    pub const ENTER: &str = "\u{E007}";
    pub const SPACE: &str = "\u{E00D}";
    pub const LEFT: &str = "\u{E012}";
    pub const UP: &str = "\u{E013}";
    pub const RIGHT: &str = "\u{E014}";
    pub const DOWN: &str = "\u{E015}";
}

impl Browser {
    /// Emulate `prefers-color-scheme: dark` (or light) for the pages that
    /// follow, as a browser set to a dark theme reports it.
    pub async fn color_scheme(&self, dark: bool) -> Result<()> {
        let value = if dark { "dark" } else { "light" };
        self.client
            .issue_cmd(Cdp {
                cmd: "Emulation.setEmulatedMedia",
                params: json!({ "features": [{ "name": "prefers-color-scheme", "value": value }] }),
            })
            .await
            .with_context(|| format!("{}: emulate a {value} colour scheme", self.name))?;
        self.wait_for(
            &format!("the {value} scheme"),
            &format!("matchMedia('(prefers-color-scheme: {value})').matches"),
        )
        .await
    }

    /// Any Chrome DevTools Protocol command on the page; its result.
    pub async fn cdp(&self, cmd: &'static str, params: Value) -> Result<Value> {
        self.client
            .issue_cmd(Cdp { cmd, params })
            .await
            .with_context(|| format!("{}: DevTools {cmd}", self.name))
    }

    /// Press keys in whatever has the focus.
    pub async fn press(&self, keys: &str) -> Result<()> {
        self.client
            .active_element()
            .await?
            .send_keys(keys)
            .await
            .with_context(|| format!("{}: press keys", self.name))
    }
}
