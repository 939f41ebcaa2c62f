//! A push service on 127.0.0.1 for tests, which is also the browser behind
//! it: it takes RFC 8030 message POSTs, checks their VAPID authorisation
//! (RFC 8292: an ES256 JWT whose audience is this service's origin, signed
//! with the key the page gave the browser) and decrypts them as a browser
//! would (RFC 8291, with Mozilla's `ece`), keeping each message's JSON.

#![allow(dead_code)]

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// One browser: its key pair and auth secret, as `PushManager.subscribe`
/// makes them.
pub struct Browser {
    pub keys: ece::EcKeyComponents,
    pub auth: [u8; 16],
}

impl Browser {
    pub fn new() -> Browser {
        let (pair, auth) = ece::generate_keypair_and_auth_secret().unwrap();
        Browser {
            keys: pair.raw_components().unwrap(),
            auth,
        }
    }

    /// `PushSubscription.toJSON()` for this browser at `endpoint`.
    pub fn subscription(&self, endpoint: &str) -> String {
        serde_json::json!({
            "endpoint": endpoint,
            "expirationTime": null,
            "keys": {
                "p256dh": URL_SAFE_NO_PAD.encode(self.keys.public_key()),
                "auth": URL_SAFE_NO_PAD.encode(self.auth),
            }
        })
        .to_string()
    }
}

/// A message as the push service got it, read by its browser.
#[derive(Debug, Clone)]
pub struct Received {
    pub path: String,
    pub headers: Vec<(String, String)>,
    /// The decrypted JSON.
    pub message: serde_json::Value,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

struct Shared {
    /// Browsers by endpoint path.
    browsers: Vec<(String, Browser)>,
    /// Paths answered 410 Gone.
    gone: Vec<String>,
    received: Vec<Received>,
    /// Whatever failed a check, for the test to assert empty.
    faults: Vec<String>,
    /// The VAPID public key the page showed (base64url).
    vapid_key: String,
}

/// The running service; stops with the test process.
#[derive(Clone)]
pub struct Receiver {
    pub origin: String,
    shared: Arc<Mutex<Shared>>,
}

impl Receiver {
    pub fn start(vapid_key: &str) -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        let shared = Arc::new(Mutex::new(Shared {
            browsers: Vec::new(),
            gone: Vec::new(),
            received: Vec::new(),
            faults: Vec::new(),
            vapid_key: vapid_key.to_string(),
        }));
        let r = Receiver { origin, shared };
        let server = r.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let server = server.clone();
                std::thread::spawn(move || server.serve(stream));
            }
        });
        r
    }

    /// A browser subscribed at `/push/{name}`: its endpoint and its
    /// subscription JSON.
    pub fn browser(&self, name: &str) -> (String, String) {
        let path = format!("/push/{name}");
        let b = Browser::new();
        let endpoint = format!("{}{path}", self.origin);
        let json = b.subscription(&endpoint);
        self.shared.lock().unwrap().browsers.push((path, b));
        (endpoint, json)
    }

    /// From now on answer 410 Gone at `/push/{name}`.
    pub fn gone(&self, name: &str) {
        self.shared
            .lock()
            .unwrap()
            .gone
            .push(format!("/push/{name}"));
    }

    pub fn received(&self) -> Vec<Received> {
        self.shared.lock().unwrap().received.clone()
    }

    pub fn faults(&self) -> Vec<String> {
        self.shared.lock().unwrap().faults.clone()
    }

    fn serve(&self, stream: TcpStream) {
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut out = stream;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let mut parts = line.split_whitespace();
            let method = parts.next().unwrap_or("").to_string();
            let path = parts.next().unwrap_or("").to_string();
            let mut headers = Vec::new();
            loop {
                let mut h = String::new();
                if reader.read_line(&mut h).unwrap_or(0) == 0 {
                    return;
                }
                let h = h.trim_end();
                if h.is_empty() {
                    break;
                }
                if let Some((n, v)) = h.split_once(':') {
                    headers.push((n.trim().to_string(), v.trim().to_string()));
                }
            }
            let len: usize = headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
                .and_then(|(_, v)| v.parse().ok())
                .unwrap_or(0);
            let mut body = vec![0u8; len];
            if reader.read_exact(&mut body).is_err() {
                return;
            }
            let status = self.take(&method, &path, headers, &body);
            let reason = match status {
                201 => "Created",
                410 => "Gone",
                _ => "Bad Request",
            };
            let answer = format!("HTTP/1.1 {status} {reason}\r\nContent-Length: 0\r\n\r\n");
            if out.write_all(answer.as_bytes()).is_err() {
                return;
            }
        }
    }

    /// Check and read one message; the status to answer.
    fn take(&self, method: &str, path: &str, headers: Vec<(String, String)>, body: &[u8]) -> u16 {
        let mut shared = self.shared.lock().unwrap();
        if shared.gone.iter().any(|g| g == path) {
            return 410;
        }
        let header = |name: &str| {
            headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        let wrong = if method != "POST" {
            Some(format!("{method} {path}"))
        } else if header("content-encoding") != "aes128gcm" {
            Some(format!("Content-Encoding {:?}", header("content-encoding")))
        } else if header("ttl").parse::<i64>().is_err() {
            Some(format!("TTL {:?}", header("ttl")))
        } else {
            None
        };
        if let Some(f) = wrong {
            shared.faults.push(f);
            return 400;
        }
        if let Err(f) = check_vapid(&header("authorization"), &shared.vapid_key, &self.origin) {
            shared.faults.push(f);
            return 401;
        }
        let Some((_, browser)) = shared.browsers.iter().find(|(p, _)| p == path) else {
            shared.faults.push(format!("no browser at {path}"));
            return 404;
        };
        let plain = match ece::decrypt(&browser.keys, &browser.auth, body) {
            Ok(p) => p,
            Err(e) => {
                shared.faults.push(format!("cannot decrypt: {e:?}"));
                return 400;
            }
        };
        let message = match serde_json::from_slice(&plain) {
            Ok(m) => m,
            Err(e) => {
                shared.faults.push(format!("not JSON: {e}"));
                return 400;
            }
        };
        shared.received.push(Received {
            path: path.to_string(),
            headers,
            message,
        });
        201
    }
}

/// RFC 8292: `vapid t=JWT, k=KEY`, the key the page gave the browser, the
/// JWT ES256 over `header.claims` with that key, `aud` this origin, `exp`
/// in the next 24 hours, `sub` a contact.
fn check_vapid(auth: &str, key: &str, origin: &str) -> Result<(), String> {
    let rest = auth
        .strip_prefix("vapid ")
        .ok_or_else(|| format!("Authorization {auth:?}"))?;
    let mut t = None;
    let mut k = None;
    for part in rest.split(',') {
        match part.trim().split_once('=') {
            Some(("t", v)) => t = Some(v.to_string()),
            Some(("k", v)) => k = Some(v.to_string()),
            _ => {}
        }
    }
    let (t, k) = (t.ok_or("no t")?, k.ok_or("no k")?);
    if k != key {
        return Err(format!("k {k} is not the page's key {key}"));
    }
    let pieces: Vec<&str> = t.split('.').collect();
    if pieces.len() != 3 {
        return Err(format!("JWT {t}"));
    }
    let decode = |s: &str| URL_SAFE_NO_PAD.decode(s).map_err(|e| e.to_string());
    let header: serde_json::Value =
        serde_json::from_slice(&decode(pieces[0])?).map_err(|e| e.to_string())?;
    if header["alg"] != "ES256" {
        return Err(format!("JWT header {header}"));
    }
    let public = decode(&k)?;
    let signed = format!("{}.{}", pieces[0], pieces[1]);
    ring::signature::UnparsedPublicKey::new(&ring::signature::ECDSA_P256_SHA256_FIXED, &public)
        .verify(signed.as_bytes(), &decode(pieces[2])?)
        .map_err(|_| "the JWT's signature does not verify".to_string())?;
    let claims: serde_json::Value =
        serde_json::from_slice(&decode(pieces[1])?).map_err(|e| e.to_string())?;
    if claims["aud"] != origin {
        return Err(format!("aud {} is not {origin}", claims["aud"]));
    }
    let now = chrono::Utc::now().timestamp();
    let exp = claims["exp"].as_i64().unwrap_or(0);
    // RFC 8292, 2: no more than 24 hours ahead.
    if exp <= now || exp > now + 24 * 3600 {
        return Err(format!("exp {exp}"));
    }
    if !claims["sub"]
        .as_str()
        .is_some_and(|s| s.starts_with("mailto:") || s.starts_with("https:"))
    {
        return Err(format!("sub {}", claims["sub"]));
    }
    Ok(())
}
