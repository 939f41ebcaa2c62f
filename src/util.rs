//! Small helpers every layer may use: the time as stored, random tokens,
//! clipped text for messages.

use chrono::NaiveDateTime;

/// The current time as stored (UTC, microsecond precision on both backends).
pub fn now() -> NaiveDateTime {
    let t = chrono::Utc::now().naive_utc();
    let micros = t.and_utc().timestamp_micros();
    chrono::DateTime::from_timestamp_micros(micros)
        .map(|d| d.naive_utc())
        .unwrap_or(t)
}

/// 32 random bytes as hex: session tokens, secrets.
pub fn random_token() -> String {
    use rand::RngCore;
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// At most `n` characters of a user-supplied string, for messages.
pub fn clip(s: &str, n: usize) -> String {
    if s.chars().count() > n {
        s.chars().take(n).collect::<String>() + "…"
    } else {
        s.to_string()
    }
}

/// An error's words without their own closing period, for a sentence that
/// ends with one (a move such as `Nxf2.` would else end with `..`).
pub fn unstopped(e: &impl std::fmt::Display) -> String {
    e.to_string().trim_end().trim_end_matches('.').to_string()
}

/// A database URL without its password, for logs.
pub fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) if u.password().is_some() => {
            let _ = u.set_password(Some("***"));
            u.to_string()
        }
        _ => url.to_string(),
    }
}

/// The time the limits read: the real one, or one that tests set and move
/// by hand so that waiting out a delay needs no sleeping. Clones share it.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    fixed: std::sync::Arc<std::sync::Mutex<Option<NaiveDateTime>>>,
}

impl Clock {
    pub fn now(&self) -> NaiveDateTime {
        self.fixed.lock().ok().and_then(|t| *t).unwrap_or_else(now)
    }

    /// Stop the clock at `t` (tests).
    pub fn set(&self, t: NaiveDateTime) {
        if let Ok(mut fixed) = self.fixed.lock() {
            *fixed = Some(t);
        }
    }

    /// Stop the clock where it is and move it on by `secs` (tests).
    pub fn advance(&self, secs: i64) {
        let t = self.now() + chrono::Duration::seconds(secs);
        self.set(t);
    }
}
