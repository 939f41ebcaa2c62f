//! Every setting, from the environment, with defaults that make `cargo run` work.

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
    /// The rate-limiting window, in seconds: failures are forgotten after a
    /// window without attempts or delays.
    pub login_window_secs: i64,
    /// `MISSIVE_LOGIN_LIMIT_ACCOUNT_ANY_ADDRESS`: failed logins to one
    /// account from all addresses together before they are slowed.
    pub login_limit_account_any: i64,
    /// `MISSIVE_LOGIN_DELAY_SECS`: the first delay once a limit is reached;
    /// each further failure doubles it.
    pub login_delay_secs: i64,
    /// `MISSIVE_LOGIN_DELAY_MAX_SECS`: the longest delay for one account from
    /// one address (and for one address).
    pub login_delay_max_secs: i64,
    /// `MISSIVE_LOGIN_ACCOUNT_DELAY_MAX_SECS`: the longest delay for one
    /// account from all addresses together, kept short so that the owner
    /// coming from a new address is slowed, never locked out.
    pub login_account_delay_max_secs: i64,
    /// `MISSIVE_LOGIN_LIMIT_DEVICE`: failed logins from a browser holding
    /// the account's device cookie before that cookie is locked out.
    pub login_limit_device: i64,
    /// `MISSIVE_LOGIN_DEVICE_LOCKOUT_SECS`: how long a device cookie is
    /// locked out after its failures.
    pub login_device_lockout_secs: i64,
    /// `MISSIVE_SIGNUP_LIMIT_HOUR`: sign-ups per client address per hour.
    pub signup_limit_hour: i64,
    /// `MISSIVE_CONFIRM_MAIL_LIMIT_DAY`: "confirm your address" mails to one
    /// address per day, whichever accounts ask for them.
    pub confirm_mail_limit_day: i64,
    /// `MISSIVE_EMAIL_CHANGE_LIMIT_DAY`: address changes asked for (each
    /// mails the address typed) per account per day.
    pub email_change_limit_day: i64,
    /// `MISSIVE_RESET_MAIL_LIMIT_DAY`: password-reset mails to one address
    /// per day.
    pub reset_mail_limit_day: i64,
    /// `MISSIVE_CHALLENGE_LIMIT_HOUR`: challenges to named players (each
    /// mails them) per sender per hour.
    pub challenge_limit_hour: i64,
    /// `MISSIVE_SEEK_LIMIT_HOUR`: rated open seeks per player per hour.
    pub seek_limit_hour: i64,
    /// The time limits and delays read; tests stop and move it.
    pub clock: crate::util::Clock,
    /// HTTP worker threads (0: one per core).
    pub workers: usize,
    /// Database connections in the pool.
    pub pool_size: u32,
    /// `MISSIVE_POSITION_CACHE_MB`: memory for restored games, for board
    /// pictures and for the plies pages list, each (`position_cache`,
    /// `listed_moves`), and one kept username per 64 bytes of it
    /// (`user_names`).
    pub position_cache_mb: u32,
    /// `MISSIVE_TRUST_PROXY`: how many reverse proxies stand in front (0:
    /// none). The client address is the one the outermost of them saw: that
    /// many entries from the right of `X-Forwarded-For`.
    pub trust_proxy: u32,
    /// `MISSIVE_SMTP_URL`: `smtp://user:pass@host:587` (STARTTLS),
    /// `smtps://user:pass@host:465` (implicit TLS), `smtp://127.0.0.1:2525`
    /// (plain, loopback relays only unless `?tls=none`). When unset, mails
    /// are written as `.eml` files under `mail_dir`.
    pub smtp_url: Option<String>,
    /// `MISSIVE_MAIL_FROM`: the From address of every mail.
    pub mail_from: String,
    /// `MISSIVE_MAIL_REPLY_TO`: the Reply-To address (default: the From address).
    pub mail_reply_to: Option<String>,
    /// `MISSIVE_MAIL_DOMAIN`: the domain whose `play+TOKEN@` addresses
    /// reach `missive mail-in` (issue 42); unset, "your turn" mails carry
    /// no reply address of their own.
    pub mail_domain: Option<String>,
    /// `MISSIVE_MAIL_DIR`: where the file transport writes (default `outbox-mail`).
    pub mail_dir: String,
    /// `MISSIVE_MAIL_WORKER`: run the mail sender in this process (default on).
    pub mail_worker: bool,
    /// `MISSIVE_MAIL_POLL_MS`: how often the idle mail worker looks for work.
    pub mail_poll_ms: u64,
    /// `MISSIVE_PUSH_ANY_ENDPOINT`: accept browser subscriptions whose push
    /// service is any URL, plain http and addresses on this machine too
    /// (tests' own push receiver). Off: only https to a named host.
    pub push_any_endpoint: bool,
    /// `MISSIVE_PLAY_LINK_HOURS`: how long a "your turn" link stays valid.
    pub play_link_hours: i64,
    /// `MISSIVE_CLOCK_WORKER`: run the clock sweeper (forfeits on time,
    /// reminders) in this process (default on).
    pub clock_worker: bool,
    /// `MISSIVE_CLOCK_POLL_SECS`: seconds between sweeps (default 60).
    pub clock_poll_secs: u64,
    /// `MISSIVE_OUTAGE_GRACE_MINS`: a gap in the clock worker's heartbeat
    /// longer than this is an outage, and running clocks move on by its
    /// length (default 60).
    pub outage_grace_mins: i64,
    /// `MISSIVE_TOURNAMENT_POLL_SECS`: seconds between looks for tournaments
    /// to start (entry closed) or to pair (round over) (default 30).
    pub tournament_poll_secs: u64,
    /// `MISSIVE_LEAVE_DAYS`: leave days per player per calendar year (default 30).
    pub leave_days: i32,
    /// `MISSIVE_DIGEST_HOUR`: the UTC hour (0-23) from which the daily
    /// digests are sent.
    pub digest_hour: u32,
    /// `MISSIVE_MAIL_LEASE_SECS`: how long a worker holds a mail it is
    /// sending before another process may take it over (a crashed process's
    /// mail waits this long).
    pub mail_lease_secs: i64,
    /// `MISSIVE_SQLITE_SYNC`: `full` (every commit synced to the disk) or
    /// `normal` (synced at checkpoints).
    pub sqlite_sync: SqliteSync,
    /// `MISSIVE_BODY_TIMEOUT_SECS`: the longest a request's body may take
    /// to arrive once its headers have (a slow body is answered 408 and its
    /// connection closed).
    pub body_timeout_secs: u64,
    /// `MISSIVE_REQUESTS_PER_ADDRESS`: requests in progress at once from
    /// one client address (behind `MISSIVE_TRUST_PROXY`, the forwarded
    /// one); more are answered 429 and their connections closed.
    pub requests_per_address: usize,
    /// `MISSIVE_MAIL_IN_MAX_RECIPIENTS`: a message to more recipients
    /// (envelope, To and Cc) is not read by `missive mail-in`.
    pub mail_in_max_recipients: usize,
    /// `MISSIVE_MAIL_IN_REFUSALS_DAY`: "reply refused" mails per game per
    /// day; further refusals are logged, not mailed.
    pub mail_in_refusals_day: i32,
    /// `MISSIVE_METRICS_TOKEN`: turns `GET /metrics` on, for requests that
    /// carry it as a bearer token (unset: `/metrics` is not there).
    pub metrics_token: Option<String>,
    /// `MISSIVE_VARIANTS_DIR`: a directory of variant definitions
    /// (`*.ini`, Fairy-Stockfish's syntax) read at start; each becomes a
    /// variant players can choose (docs/variants.md, "Variants from
    /// definitions").
    pub variants_dir: Option<std::path::PathBuf>,
    /// Posted variants (issue 62; docs/variants.md, "Post your own variant"): the
    /// checks' budget, queue and limits.
    pub posted: PostedLimits,
}

/// What a posted variant may cost: each check runs in a child process with
/// these limits, a few at once, behind a short queue.
#[derive(Clone, Debug)]
pub struct PostedLimits {
    /// `MISSIVE_VARIANT_CHECKER`: the program that checks a definition
    /// (`missive variant-check`); unset, this very program.
    pub checker: Option<std::path::PathBuf>,
    /// `MISSIVE_VARIANT_CHECK_CPU_SECS`: CPU time one check may use.
    pub cpu_secs: u64,
    /// `MISSIVE_VARIANT_CHECK_MEMORY_MB`: memory one check may map.
    pub memory_mb: u64,
    /// `MISSIVE_VARIANT_CHECKS_AT_ONCE`: checks running at the same time.
    pub at_once: usize,
    /// `MISSIVE_VARIANT_CHECK_QUEUE`: checks that may wait for a turn;
    /// beyond them, posting is refused with "try again shortly".
    pub queue: usize,
    /// `MISSIVE_VARIANTS_PER_DAY`: definitions (new variants and new
    /// versions) one player may post in 24 hours.
    pub per_day: i64,
    /// `MISSIVE_VARIANT_TEXT_MAX`: bytes of a definition; the rules text
    /// may be four times as long.
    pub text_max: usize,
}

impl Default for PostedLimits {
    fn default() -> PostedLimits {
        PostedLimits {
            checker: None,
            cpu_secs: 20,
            memory_mb: 512,
            at_once: 1,
            queue: 4,
            per_day: 10,
            text_max: 8 * 1024,
        }
    }
}

/// Read when present in the working directory and `MISSIVE_CONFIG` is unset.
/// Leave days a player may book in a year unless a director grants more.
pub const DEFAULT_LEAVE_DAYS: i32 = 30;

/// How long a mail worker's claim on a mail lasts, in seconds.
pub const MAIL_LEASE_SECS: i64 = 120;

/// When an SQLite commit is on the disk (`PRAGMA synchronous`, WAL mode).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum SqliteSync {
    /// Every commit is synced to the disk before it returns, so an
    /// acknowledged move survives a power cut or an operating-system crash,
    /// not only a crash of the server. The group commit shares one sync
    /// among the moves committed together.
    #[default]
    Full,
    /// Commits reach the operating system at once and the disk at each
    /// checkpoint: they survive the server process dying, but a power cut
    /// may take the last ones back (SQLite's documentation of WAL mode).
    Normal,
}

impl std::str::FromStr for SqliteSync {
    type Err = String;
    fn from_str(s: &str) -> Result<SqliteSync, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "full" => Ok(SqliteSync::Full),
            "normal" => Ok(SqliteSync::Normal),
            _ => Err(format!("{s:?} is neither full nor normal")),
        }
    }
}

mod source;
use source::Source;
pub use source::{parse_file, DEFAULT_CONFIG_FILE};

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
            login_limit_account_any: 20,
            login_delay_secs: 2,
            login_delay_max_secs: 15 * 60,
            login_account_delay_max_secs: 60,
            login_limit_device: 5,
            login_device_lockout_secs: 15 * 60,
            signup_limit_hour: 10,
            confirm_mail_limit_day: 3,
            email_change_limit_day: 5,
            reset_mail_limit_day: 5,
            challenge_limit_hour: 20,
            seek_limit_hour: 10,
            clock: crate::util::Clock::default(),
            workers: 0,
            pool_size: 10,
            position_cache_mb: 32,
            trust_proxy: 0,
            smtp_url: None,
            mail_from: "Missive <missive@localhost>".into(),
            mail_reply_to: None,
            mail_domain: None,
            mail_dir: "outbox-mail".into(),
            mail_worker: true,
            mail_poll_ms: 2000,
            push_any_endpoint: false,
            play_link_hours: 24 * 14,
            clock_worker: true,
            clock_poll_secs: 60,
            outage_grace_mins: 60,
            tournament_poll_secs: 30,
            leave_days: DEFAULT_LEAVE_DAYS,
            digest_hour: 7,
            mail_lease_secs: MAIL_LEASE_SECS,
            sqlite_sync: SqliteSync::default(),
            metrics_token: None,
            variants_dir: None,
            posted: PostedLimits::default(),
            body_timeout_secs: 10,
            requests_per_address: 64,
            mail_in_max_recipients: 10,
            mail_in_refusals_day: 5,
        }
    }
}

impl Config {
    /// Read `DATABASE_URL`, `MISSIVE_BIND`, `MISSIVE_BASE_URL`, `MISSIVE_SECRET`,
    /// `MISSIVE_LOGIN_LIMIT_ACCOUNT`, `MISSIVE_LOGIN_LIMIT_IP`,
    /// `MISSIVE_LOGIN_WINDOW_SECS`, `MISSIVE_WORKERS`, `MISSIVE_POOL_SIZE`,
    /// `MISSIVE_TRUST_PROXY` from the environment, or from the file named by
    /// `MISSIVE_CONFIG`.
    pub fn from_env() -> anyhow::Result<Config> {
        Config::from_source(&Source::load()?)
    }

    fn from_source(src: &Source) -> anyhow::Result<Config> {
        let d = Config::default();
        let bind = src.var("MISSIVE_BIND").unwrap_or(d.bind);
        let base_url = src
            .var("MISSIVE_BASE_URL")
            .unwrap_or_else(|| format!("http://{bind}"));
        // Links in mail are built on it: it must be an http(s) address.
        match url::Url::parse(base_url.trim()) {
            Ok(u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => {}
            _ => {
                anyhow::bail!("MISSIVE_BASE_URL {base_url:?} is not an http:// or https:// address")
            }
        }
        Ok(Config {
            database_url: src.var("DATABASE_URL").unwrap_or(d.database_url),
            bind,
            base_url: base_url.trim_end_matches('/').to_string(),
            secret: src.var("MISSIVE_SECRET"),
            login_limit_account: src.num("MISSIVE_LOGIN_LIMIT_ACCOUNT", d.login_limit_account)?,
            login_limit_ip: src.num("MISSIVE_LOGIN_LIMIT_IP", d.login_limit_ip)?,
            login_window_secs: src.num("MISSIVE_LOGIN_WINDOW_SECS", d.login_window_secs)?,
            login_limit_account_any: src.num(
                "MISSIVE_LOGIN_LIMIT_ACCOUNT_ANY_ADDRESS",
                d.login_limit_account_any,
            )?,
            login_delay_secs: src
                .num("MISSIVE_LOGIN_DELAY_SECS", d.login_delay_secs)?
                .max(1),
            login_delay_max_secs: src
                .num("MISSIVE_LOGIN_DELAY_MAX_SECS", d.login_delay_max_secs)?
                .max(1),
            login_account_delay_max_secs: src
                .num(
                    "MISSIVE_LOGIN_ACCOUNT_DELAY_MAX_SECS",
                    d.login_account_delay_max_secs,
                )?
                .max(1),
            login_limit_device: src.num("MISSIVE_LOGIN_LIMIT_DEVICE", d.login_limit_device)?,
            login_device_lockout_secs: src
                .num(
                    "MISSIVE_LOGIN_DEVICE_LOCKOUT_SECS",
                    d.login_device_lockout_secs,
                )?
                .max(1),
            signup_limit_hour: src.num("MISSIVE_SIGNUP_LIMIT_HOUR", d.signup_limit_hour)?,
            confirm_mail_limit_day: src
                .num("MISSIVE_CONFIRM_MAIL_LIMIT_DAY", d.confirm_mail_limit_day)?,
            email_change_limit_day: src
                .num("MISSIVE_EMAIL_CHANGE_LIMIT_DAY", d.email_change_limit_day)?,
            reset_mail_limit_day: src
                .num("MISSIVE_RESET_MAIL_LIMIT_DAY", d.reset_mail_limit_day)?,
            challenge_limit_hour: src
                .num("MISSIVE_CHALLENGE_LIMIT_HOUR", d.challenge_limit_hour)?,
            seek_limit_hour: src.num("MISSIVE_SEEK_LIMIT_HOUR", d.seek_limit_hour)?,
            clock: d.clock,
            workers: src.num("MISSIVE_WORKERS", d.workers)?,
            pool_size: src.num("MISSIVE_POOL_SIZE", d.pool_size)?.max(1),
            position_cache_mb: src.num("MISSIVE_POSITION_CACHE_MB", d.position_cache_mb)?,
            trust_proxy: src.hops("MISSIVE_TRUST_PROXY", d.trust_proxy)?,
            smtp_url: src.var("MISSIVE_SMTP_URL"),
            mail_from: src.var("MISSIVE_MAIL_FROM").unwrap_or(d.mail_from),
            mail_reply_to: src.var("MISSIVE_MAIL_REPLY_TO"),
            mail_domain: src
                .var("MISSIVE_MAIL_DOMAIN")
                .map(|d| d.trim().trim_start_matches('@').to_ascii_lowercase())
                .filter(|d| !d.is_empty()),
            mail_dir: src.var("MISSIVE_MAIL_DIR").unwrap_or(d.mail_dir),
            mail_worker: src.flag("MISSIVE_MAIL_WORKER", d.mail_worker)?,
            mail_poll_ms: src.num("MISSIVE_MAIL_POLL_MS", d.mail_poll_ms)?.max(10),
            push_any_endpoint: src.flag("MISSIVE_PUSH_ANY_ENDPOINT", d.push_any_endpoint)?,
            play_link_hours: src
                .num("MISSIVE_PLAY_LINK_HOURS", d.play_link_hours)?
                .max(1),
            clock_worker: src.flag("MISSIVE_CLOCK_WORKER", d.clock_worker)?,
            clock_poll_secs: src
                .num("MISSIVE_CLOCK_POLL_SECS", d.clock_poll_secs)?
                .max(1),
            outage_grace_mins: src
                .num("MISSIVE_OUTAGE_GRACE_MINS", d.outage_grace_mins)?
                .max(1),
            tournament_poll_secs: src
                .num("MISSIVE_TOURNAMENT_POLL_SECS", d.tournament_poll_secs)?
                .max(1),
            leave_days: src.num("MISSIVE_LEAVE_DAYS", d.leave_days)?.clamp(0, 366),
            digest_hour: match src.var("MISSIVE_DIGEST_HOUR") {
                None => d.digest_hour,
                Some(v) => match v.trim().parse::<u32>() {
                    Ok(h) if h < 24 => h,
                    _ => anyhow::bail!("MISSIVE_DIGEST_HOUR {v:?} is not an hour from 0 to 23"),
                },
            },
            mail_lease_secs: src
                .num("MISSIVE_MAIL_LEASE_SECS", d.mail_lease_secs)?
                .max(1),
            sqlite_sync: match src.var("MISSIVE_SQLITE_SYNC") {
                None => d.sqlite_sync,
                Some(v) => v
                    .parse()
                    .map_err(|e| anyhow::anyhow!("MISSIVE_SQLITE_SYNC {e}"))?,
            },
            body_timeout_secs: src
                .num("MISSIVE_BODY_TIMEOUT_SECS", d.body_timeout_secs)?
                .max(1),
            requests_per_address: src
                .num("MISSIVE_REQUESTS_PER_ADDRESS", d.requests_per_address)?
                .max(1),
            mail_in_max_recipients: src
                .num("MISSIVE_MAIL_IN_MAX_RECIPIENTS", d.mail_in_max_recipients)?
                .max(1),
            mail_in_refusals_day: src
                .num("MISSIVE_MAIL_IN_REFUSALS_DAY", d.mail_in_refusals_day)?,
            metrics_token: match src.var("MISSIVE_METRICS_TOKEN") {
                // A guessable token would publish the server's traffic.
                Some(t) if t.trim().len() < 16 => {
                    anyhow::bail!("MISSIVE_METRICS_TOKEN must be at least 16 characters")
                }
                t => t.map(|t| t.trim().to_string()),
            },
            variants_dir: src
                .var("MISSIVE_VARIANTS_DIR")
                .filter(|d| !d.trim().is_empty())
                .map(std::path::PathBuf::from),
            posted: PostedLimits {
                checker: src
                    .var("MISSIVE_VARIANT_CHECKER")
                    .filter(|d| !d.trim().is_empty())
                    .map(std::path::PathBuf::from),
                cpu_secs: src
                    .num("MISSIVE_VARIANT_CHECK_CPU_SECS", d.posted.cpu_secs)?
                    .clamp(1, 3600),
                memory_mb: src
                    .num("MISSIVE_VARIANT_CHECK_MEMORY_MB", d.posted.memory_mb)?
                    .max(64),
                at_once: src
                    .num("MISSIVE_VARIANT_CHECKS_AT_ONCE", d.posted.at_once)?
                    .max(1),
                queue: src.num("MISSIVE_VARIANT_CHECK_QUEUE", d.posted.queue)?,
                per_day: src.num("MISSIVE_VARIANTS_PER_DAY", d.posted.per_day)?,
                text_max: src
                    .num("MISSIVE_VARIANT_TEXT_MAX", d.posted.text_max)?
                    .clamp(256, 1 << 20),
            },
        })
    }

    pub fn secure_cookies(&self) -> bool {
        self.base_url.starts_with("https://")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_file_lines() {
        let m =
            parse_file("# comment\n\nDATABASE_URL = postgres://u@h/db\nMISSIVE_SECRET=\"a=b\"\n")
                .unwrap();
        assert_eq!(m["DATABASE_URL"], "postgres://u@h/db");
        assert_eq!(m["MISSIVE_SECRET"], "a=b");
        assert!(parse_file("no equals sign").is_err());
    }

    fn from_file(text: &str) -> anyhow::Result<Config> {
        Config::from_source(&Source {
            file: parse_file(text).unwrap(),
            env: false,
        })
    }

    #[test]
    fn settings_are_read_or_the_start_stops_with_the_reason() {
        let c = from_file(
            "MISSIVE_POOL_SIZE=4\nMISSIVE_WORKERS=2\nMISSIVE_MAIL_WORKER=off\n\
             MISSIVE_TRUST_PROXY=yes\nMISSIVE_BASE_URL=https://missive.example.org/\n",
        )
        .unwrap();
        assert_eq!((c.pool_size, c.workers), (4, 2));
        assert!(!c.mail_worker && c.clock_worker);
        assert_eq!(c.trust_proxy, 1, "yes is one proxy");
        assert_eq!(from_file("MISSIVE_TRUST_PROXY=3\n").unwrap().trust_proxy, 3);
        assert_eq!(
            from_file("MISSIVE_TRUST_PROXY=off\n").unwrap().trust_proxy,
            0
        );
        assert_eq!(c.base_url, "https://missive.example.org");
        assert!(c.secure_cookies());
        assert_eq!(c.sqlite_sync, SqliteSync::Full);
        let c = from_file("MISSIVE_SQLITE_SYNC=Normal\n").unwrap();
        assert_eq!(c.sqlite_sync, SqliteSync::Normal);
        // Blank is the default; zero is raised to the least that works.
        let c = from_file("MISSIVE_POOL_SIZE=\nMISSIVE_MAIL_POLL_MS=0\n").unwrap();
        assert_eq!((c.pool_size, c.mail_poll_ms), (10, 10));
        for (bad, named) in [
            ("MISSIVE_POOL_SIZE=1O", "MISSIVE_POOL_SIZE"),
            ("MISSIVE_WORKERS=-3", "MISSIVE_WORKERS"),
            ("MISSIVE_LOGIN_WINDOW_SECS=15m", "MISSIVE_LOGIN_WINDOW_SECS"),
            ("MISSIVE_LEAVE_DAYS=99999999999", "MISSIVE_LEAVE_DAYS"),
            ("MISSIVE_MAIL_WORKER=nope", "MISSIVE_MAIL_WORKER"),
            ("MISSIVE_TRUST_PROXY=ture", "MISSIVE_TRUST_PROXY"),
            ("MISSIVE_BASE_URL=missive.example.org", "MISSIVE_BASE_URL"),
            (
                "MISSIVE_BASE_URL=ftp://missive.example.org",
                "MISSIVE_BASE_URL",
            ),
            ("MISSIVE_DIGEST_HOUR=24", "MISSIVE_DIGEST_HOUR"),
            ("MISSIVE_SQLITE_SYNC=fast", "MISSIVE_SQLITE_SYNC"),
        ] {
            let e = from_file(bad).unwrap_err().to_string();
            assert!(e.contains(named), "{bad}: {e}");
        }
    }
}
