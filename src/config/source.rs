//! Where settings are read: the environment, then the optional config file.

use std::collections::HashMap;
use std::env;

pub const DEFAULT_CONFIG_FILE: &str = "missive.toml";

/// Where settings come from: the environment first, then the optional file
/// named by `MISSIVE_CONFIG` (default `missive.toml`): flat `name = value`
/// lines, `#` comments, names as the environment variables or without their
/// `MISSIVE_` prefix in any case (`bind = "0.0.0.0:8080"`).
pub(super) struct Source {
    pub(super) file: HashMap<String, String>,
    /// Whether the environment comes before the file (tests read a map only).
    pub(super) env: bool,
}

impl Source {
    pub(super) fn load() -> anyhow::Result<Source> {
        let path = env::var("MISSIVE_CONFIG")
            .ok()
            .filter(|p| !p.trim().is_empty())
            .or_else(|| {
                std::path::Path::new(DEFAULT_CONFIG_FILE)
                    .is_file()
                    .then(|| DEFAULT_CONFIG_FILE.to_string())
            });
        let file = match path {
            Some(path) => {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| anyhow::anyhow!("cannot read the config file {path}: {e}"))?;
                parse_file(&text)?
            }
            None => HashMap::new(),
        };
        Ok(Source { file, env: true })
    }

    pub(super) fn var(&self, name: &str) -> Option<String> {
        self.env
            .then(|| env::var(name).ok())
            .flatten()
            .or_else(|| self.file.get(name).cloned())
            .filter(|v| !v.trim().is_empty())
    }

    /// A number setting; a value that is not one stops the start (a typo
    /// must not quietly become the default).
    pub(super) fn num<T: std::str::FromStr>(&self, name: &str, default: T) -> anyhow::Result<T> {
        match self.var(name) {
            None => Ok(default),
            Some(v) => v.trim().parse().map_err(|_| {
                anyhow::anyhow!("{name} {v:?} is not a whole number of the right size")
            }),
        }
    }

    /// How many proxies: a number, or on/off as [`Source::flag`] reads
    /// them (on is one proxy, as it always was).
    pub(super) fn hops(&self, name: &str, default: u32) -> anyhow::Result<u32> {
        match self.var(name).map(|v| v.trim().parse::<u32>()) {
            Some(Ok(n)) => Ok(n),
            _ => Ok(u32::from(self.flag(name, default > 0)?)),
        }
    }

    /// An on/off setting: 1/true/yes/on or 0/false/no/off.
    pub(super) fn flag(&self, name: &str, default: bool) -> anyhow::Result<bool> {
        match self.var(name) {
            None => Ok(default),
            Some(v) => match v.trim().to_ascii_lowercase().as_str() {
                "1" | "true" | "yes" | "on" => Ok(true),
                "0" | "false" | "no" | "off" => Ok(false),
                _ => anyhow::bail!(
                    "{name} {v:?} is neither on (1, true, yes, on) nor off (0, false, no, off)"
                ),
            },
        }
    }
}

/// Read `NAME=value` lines; blank lines and `#` comments are skipped, and
/// values may be quoted.
pub fn parse_file(text: &str) -> anyhow::Result<HashMap<String, String>> {
    let mut out = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('[') {
            continue;
        }
        let (k, v) = line
            .split_once('=')
            .ok_or_else(|| anyhow::anyhow!("config line {}: expected NAME=value", i + 1))?;
        let v = v.trim();
        let v = v
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(v);
        let key = k.trim().to_ascii_uppercase();
        let key = if key == "DATABASE_URL" || key.starts_with("MISSIVE_") {
            key
        } else {
            format!("MISSIVE_{key}")
        };
        out.insert(key, v.to_string());
    }
    Ok(out)
}
