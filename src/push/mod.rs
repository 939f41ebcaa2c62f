//! Browser notifications (issue 64): Web Push with VAPID (RFC 8030, 8291,
//! 8292). Events queue them in `db::push` beside their mails; the push
//! worker renders ([`render`]), encrypts ([`crypto`]) and posts them
//! ([`transport`]) in [`drain`].

pub mod crypto;
pub mod drain;
pub mod render;
pub mod transport;

use crate::config::Config;
use crate::db::DbConn;
use crypto::VapidKey;
use std::sync::Arc;

/// The `settings` row that keeps the server's VAPID key (PKCS#8).
const VAPID_SETTING: &str = "vapid_key";

/// The server's VAPID key: made on first use and kept in the database, so
/// every process and every restart signs with the same one (browsers
/// subscribed with its public key).
pub fn vapid_key(conn: &mut DbConn) -> anyhow::Result<VapidKey> {
    let mut failed = None;
    let stored = crate::db::settings::get_or_store(conn, VAPID_SETTING, || {
        VapidKey::generate().unwrap_or_else(|e| {
            failed = Some(e);
            String::new()
        })
    })?;
    if let Some(e) = failed {
        anyhow::bail!("cannot make a VAPID key: {e}");
    }
    Ok(VapidKey::from_stored(&stored)?)
}

/// A push worker: its HTTP client, key, links, and name for leases.
#[derive(Clone)]
pub struct Pusher {
    pub http: reqwest::blocking::Client,
    pub vapid: Arc<VapidKey>,
    /// Links in notifications start with it.
    pub base_url: String,
    /// The VAPID `sub`: where a push service's operator can reach the
    /// site's (`mailto:` the mail sender's address).
    pub contact: String,
    pub owner: String,
    pub lease: chrono::Duration,
}

impl Pusher {
    pub fn new(config: &Config, conn: &mut DbConn, owner: String) -> anyhow::Result<Pusher> {
        let address = config
            .mail_from
            .parse::<lettre::message::Mailbox>()
            .map(|m| m.email.to_string())
            .unwrap_or_else(|_| "missive@localhost".into());
        Ok(Pusher {
            http: transport::client()?,
            vapid: Arc::new(vapid_key(conn)?),
            base_url: config.base_url.trim_end_matches('/').to_string(),
            contact: format!("mailto:{address}"),
            owner,
            lease: chrono::Duration::seconds(config.mail_lease_secs.max(1)),
        })
    }
}
