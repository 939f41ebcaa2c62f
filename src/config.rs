//! Every setting, from the environment, with defaults that make `cargo run` work.

use std::env;

#[derive(Clone, Debug)]
pub struct Config {
    /// `missive.db` (SQLite in the working directory) unless set;
    /// `postgres://...` selects PostgreSQL.
    pub database_url: String,
    /// Address to listen on.
    pub bind: String,
    /// The public address, for links and the cookies' `Secure` flag.
    pub base_url: String,
    /// Key for signing CSRF tokens. When absent, one is generated on first
    /// start and kept in the database's `settings` table.
    pub secret: Option<String>,
    /// Failed logins allowed per account within the window.
    pub login_limit_account: i64,
    /// Failed logins allowed per IP address within the window.
    pub login_limit_ip: i64,
    /// The rate-limiting window, in seconds.
    pub login_window_secs: i64,
    /// HTTP worker threads (0: one per core).
    pub workers: usize,
    /// Database connections in the pool.
    pub pool_size: u32,
    /// Take the client address from `Forwarded`/`X-Forwarded-For` (only
    /// behind a reverse proxy that sets them), for per-IP login limits.
    pub trust_proxy: bool,
}

fn var(name: &str) -> Option<String> {
    env::var(name).ok().filter(|v| !v.trim().is_empty())
}

fn num<T: std::str::FromStr>(name: &str, default: T) -> T {
    var(name)
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

impl Default for Config {
    fn default() -> Self {
        Config {
            database_url: "missive.db".into(),
            bind: "127.0.0.1:8080".into(),
            base_url: "http://127.0.0.1:8080".into(),
            secret: None,
            login_limit_account: 5,
            login_limit_ip: 30,
            login_window_secs: 15 * 60,
            workers: 0,
            pool_size: 10,
            trust_proxy: false,
        }
    }
}

impl Config {
    /// Read `DATABASE_URL`, `MISSIVE_BIND`, `MISSIVE_BASE_URL`, `MISSIVE_SECRET`,
    /// `MISSIVE_LOGIN_LIMIT_ACCOUNT`, `MISSIVE_LOGIN_LIMIT_IP`,
    /// `MISSIVE_LOGIN_WINDOW_SECS`, `MISSIVE_WORKERS`, `MISSIVE_POOL_SIZE`,
    /// `MISSIVE_TRUST_PROXY`.
    pub fn from_env() -> Config {
        let d = Config::default();
        let bind = var("MISSIVE_BIND").unwrap_or(d.bind);
        let base_url = var("MISSIVE_BASE_URL").unwrap_or_else(|| format!("http://{bind}"));
        Config {
            database_url: var("DATABASE_URL").unwrap_or(d.database_url),
            bind,
            base_url: base_url.trim_end_matches('/').to_string(),
            secret: var("MISSIVE_SECRET"),
            login_limit_account: num("MISSIVE_LOGIN_LIMIT_ACCOUNT", d.login_limit_account),
            login_limit_ip: num("MISSIVE_LOGIN_LIMIT_IP", d.login_limit_ip),
            login_window_secs: num("MISSIVE_LOGIN_WINDOW_SECS", d.login_window_secs),
            workers: num("MISSIVE_WORKERS", d.workers),
            pool_size: num("MISSIVE_POOL_SIZE", d.pool_size).max(1),
            trust_proxy: matches!(
                var("MISSIVE_TRUST_PROXY").as_deref().map(str::trim),
                Some("1" | "true" | "yes")
            ),
        }
    }

    pub fn secure_cookies(&self) -> bool {
        self.base_url.starts_with("https://")
    }
}
