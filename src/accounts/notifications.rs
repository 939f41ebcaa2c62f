//! A player's browser notifications (issue 64): the browsers they
//! subscribed on `/settings/notifications`, and the kinds they muted.

use crate::db::push;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::push_kind::PushKind;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use chrono::NaiveDateTime;

/// A subscription as the browser's `PushSubscription.toJSON()` gives it.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default)]
pub struct BrowserSubscription {
    pub endpoint: String,
    pub keys: BrowserKeys,
}

#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default)]
pub struct BrowserKeys {
    pub p256dh: String,
    pub auth: String,
}

/// The longest endpoint kept (push services' are a few hundred bytes).
const MAX_ENDPOINT: usize = 2000;

fn decoded_len(s: &str) -> Option<usize> {
    URL_SAFE_NO_PAD
        .decode(s.trim().trim_end_matches('='))
        .ok()
        .map(|b| b.len())
}

/// Why a subscription cannot be used, in words for the page; `None` when
/// it can. The server posts to the endpoint, so unless `any_endpoint`
/// (tests) it must be https to a named host, never an address of its own
/// network.
pub fn refusal(sub: &BrowserSubscription, any_endpoint: bool) -> Option<&'static str> {
    if sub.endpoint.len() > MAX_ENDPOINT {
        return Some("The push service's address is too long.");
    }
    let Ok(url) = url::Url::parse(&sub.endpoint) else {
        return Some("The push service's address is not a URL.");
    };
    let named_host =
        matches!(url.host(), Some(url::Host::Domain(h)) if h != "localhost" && h.contains('.'));
    if !any_endpoint && (url.scheme() != "https" || !named_host) {
        return Some("The push service must be reached over https at a named host.");
    }
    if !matches!(url.scheme(), "https" | "http") {
        return Some("The push service's address is not a web address.");
    }
    let key = URL_SAFE_NO_PAD
        .decode(sub.keys.p256dh.trim().trim_end_matches('='))
        .unwrap_or_default();
    if key.len() != 65 || key[0] != 4 {
        return Some("The browser's key is not a P-256 public key.");
    }
    if decoded_len(&sub.keys.auth) != Some(16) {
        return Some("The browser's auth secret is not 16 bytes.");
    }
    None
}

/// Keep a browser for `user_id`, once [`refusal`] has nothing against it.
pub fn subscribe(
    conn: &mut DbConn,
    user_id: i32,
    sub: &BrowserSubscription,
    any_endpoint: bool,
    now: NaiveDateTime,
) -> Result<(), Error> {
    if let Some(why) = refusal(sub, any_endpoint) {
        return Err(Error::Invalid(why.into()));
    }
    push::subscribe(
        conn,
        user_id,
        sub.endpoint.trim(),
        sub.keys.p256dh.trim(),
        sub.keys.auth.trim(),
        now,
    )?;
    Ok(())
}

/// Forget the player's browser at `endpoint` (turned off in that browser).
pub fn unsubscribe(conn: &mut DbConn, user_id: i32, endpoint: &str) -> Result<bool, Error> {
    Ok(push::unsubscribe(conn, user_id, endpoint)?)
}

/// Forget every browser of the player (their switches stay).
pub fn forget_browsers(conn: &mut DbConn, user_id: i32) -> Result<(), Error> {
    for s in push::subscriptions_of(conn, user_id)? {
        push::remove(conn, s.id)?;
    }
    Ok(())
}

/// What the settings page shows: how many browsers, and each switch.
pub struct Standing {
    pub browsers: usize,
    pub switches: Vec<(PushKind, bool)>,
}

pub fn standing(conn: &mut DbConn, user_id: i32) -> Result<Standing, Error> {
    let browsers = push::subscriptions_of(conn, user_id)?.len();
    let muted = push::muted(conn, user_id)?;
    Ok(Standing {
        browsers,
        switches: PushKind::ALL
            .iter()
            .map(|k| (*k, !muted.contains(k)))
            .collect(),
    })
}

/// Turn on exactly the kinds in `on`.
pub fn set_switches(conn: &mut DbConn, user_id: i32, on: &[PushKind]) -> Result<(), Error> {
    let off: Vec<PushKind> = PushKind::ALL
        .iter()
        .copied()
        .filter(|k| !on.contains(k))
        .collect();
    Ok(push::set_muted(conn, user_id, &off)?)
}

/// For the account export: the browsers (their push service's address
/// and when they subscribed) and the kinds turned off.
pub fn export(conn: &mut DbConn, user_id: i32) -> Result<serde_json::Value, Error> {
    let browsers: Vec<serde_json::Value> = push::subscriptions_of(conn, user_id)?
        .into_iter()
        .map(|s| {
            serde_json::json!({
                "push_service": s.endpoint,
                "subscribed": s.created_at.format("%Y-%m-%dT%H:%M:%SZ").to_string(),
            })
        })
        .collect();
    let muted: Vec<&str> = push::muted(conn, user_id)?
        .into_iter()
        .map(PushKind::code)
        .collect();
    Ok(serde_json::json!({ "browsers": browsers, "turned_off": muted }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sub(endpoint: &str) -> BrowserSubscription {
        BrowserSubscription {
            endpoint: endpoint.into(),
            keys: BrowserKeys {
                p256dh: URL_SAFE_NO_PAD.encode([4u8; 65]),
                auth: URL_SAFE_NO_PAD.encode([1u8; 16]),
            },
        }
    }

    #[test]
    fn only_https_push_services_at_named_hosts() {
        assert_eq!(
            refusal(&sub("https://fcm.googleapis.com/fcm/send/x"), false),
            None
        );
        for bad in [
            "http://fcm.googleapis.com/x",
            "https://127.0.0.1/x",
            "https://[::1]/x",
            "https://localhost/x",
            "https://intranet/x",
            "not a url",
        ] {
            assert!(refusal(&sub(bad), false).is_some(), "{bad}");
        }
        assert_eq!(refusal(&sub("http://127.0.0.1:9/x"), true), None);
        let mut short_key = sub("https://push.example.net/x");
        short_key.keys.p256dh = "BAAA".into();
        assert!(refusal(&short_key, false).is_some());
        let mut short_auth = sub("https://push.example.net/x");
        short_auth.keys.auth = "AAAA".into();
        assert!(refusal(&short_auth, false).is_some());
    }
}
