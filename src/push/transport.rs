//! Handing an encrypted message to a browser's push service (RFC 8030,
//! 5): one POST to the subscription's endpoint, authorised by VAPID.

use std::time::Duration;

/// What the push service answered.
#[derive(Debug, PartialEq, Eq)]
pub enum Delivery {
    /// 201 (or any 2xx): the service took the message.
    Taken,
    /// 404 or 410: the subscription expired or was revoked; the browser
    /// is forgotten.
    Gone,
    /// Any other 4xx: the message will never be taken (too big, bad
    /// authorisation); closed, not retried.
    Refused(String),
    /// A 5xx, a 429, or no answer: tried again later.
    Failed(String),
}

/// How long a push service may take to answer.
const TIMEOUT: Duration = Duration::from_secs(15);

/// The HTTP client the push worker sends with (rustls, as mail does).
pub fn client() -> anyhow::Result<reqwest::blocking::Client> {
    Ok(reqwest::blocking::Client::builder()
        .timeout(TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent("Missive web push")
        .build()?)
}

/// What one message needs beyond its body.
pub struct Headers<'a> {
    pub authorization: &'a str,
    /// Seconds the push service may keep the message for an offline
    /// browser.
    pub ttl_secs: i64,
    /// RFC 8030's `Urgency`: `high` for a turn, `normal` otherwise.
    pub urgency: &'static str,
    /// RFC 8030's `Topic`: a newer message with the same topic replaces
    /// an undelivered older one.
    pub topic: &'a str,
}

/// POST `body` (already `aes128gcm`-encrypted) to `endpoint`.
pub fn deliver(
    http: &reqwest::blocking::Client,
    endpoint: &str,
    headers: &Headers,
    body: Vec<u8>,
) -> Delivery {
    let sent = http
        .post(endpoint)
        .header("Authorization", headers.authorization)
        .header("TTL", headers.ttl_secs.max(0).to_string())
        .header("Urgency", headers.urgency)
        .header("Topic", headers.topic)
        .header("Content-Encoding", "aes128gcm")
        .header("Content-Type", "application/octet-stream")
        .body(body)
        .send();
    let res = match sent {
        Ok(r) => r,
        Err(e) => return Delivery::Failed(format!("no answer: {e}")),
    };
    let status = res.status();
    let text = || {
        let body = res.text().unwrap_or_default();
        format!("{status}: {}", crate::util::clip(body.trim(), 200))
    };
    match status.as_u16() {
        200..=299 => Delivery::Taken,
        404 | 410 => Delivery::Gone,
        429 => Delivery::Failed(text()),
        400..=499 => Delivery::Refused(text()),
        _ => Delivery::Failed(text()),
    }
}
