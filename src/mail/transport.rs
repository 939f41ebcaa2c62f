//! Where mail goes: an SMTP server (STARTTLS, implicit TLS, or plain on
//! loopback), or `.eml` files when no server is configured.

use crate::config::Config;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{FileTransport, Message, SmtpTransport, Transport as _};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

// ---------------------------------------------------------------------------
// Transports

/// One mail as the memory transport keeps it.
#[derive(Clone, Debug)]
pub struct SentMail {
    pub to: Vec<String>,
    pub raw: String,
}

/// Why a mail did not go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SendError {
    /// Refused for good: the server answered 5xx, or the address is not one
    /// a mail can be sent to. Trying again would get the same answer.
    Refused(String),
    /// Could not be sent now (server down, a 4xx, a timeout): tried again.
    Failed(String),
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SendError::Refused(e) => write!(f, "refused for good: {e}"),
            SendError::Failed(e) => f.write_str(e),
        }
    }
}

/// Where mails go: SMTP, `.eml` files in a folder, or memory (tests).
#[derive(Clone)]
pub enum Transport {
    Smtp(SmtpTransport),
    File(FileTransport, PathBuf),
    Memory(Arc<Mutex<Vec<SentMail>>>),
}

impl Transport {
    /// SMTP when `MISSIVE_SMTP_URL` is set, else `.eml` files in `mail_dir`.
    pub fn from_config(config: &Config) -> anyhow::Result<Transport> {
        match &config.smtp_url {
            Some(url) => Ok(Transport::Smtp(smtp_transport(url)?)),
            None => Transport::file(&config.mail_dir),
        }
    }

    pub fn file(dir: &str) -> anyhow::Result<Transport> {
        let path = PathBuf::from(dir);
        std::fs::create_dir_all(&path)
            .map_err(|e| anyhow::anyhow!("cannot create the mail folder {dir}: {e}"))?;
        Ok(Transport::File(FileTransport::new(&path), path))
    }

    /// A memory transport and the list it fills.
    pub fn memory() -> (Transport, Arc<Mutex<Vec<SentMail>>>) {
        let list = Arc::new(Mutex::new(Vec::new()));
        (Transport::Memory(list.clone()), list)
    }

    /// For the log.
    pub fn describe(&self, config: &Config) -> String {
        match self {
            Transport::Smtp(_) => format!(
                "mail is sent by SMTP to {}",
                config
                    .smtp_url
                    .as_deref()
                    .map(crate::util::redact)
                    .unwrap_or_default()
            ),
            Transport::File(_, path) => format!(
                "no MISSIVE_SMTP_URL: mail is written as .eml files under {}/ (not sent)",
                path.display()
            ),
            Transport::Memory(_) => "mail is kept in memory (tests)".into(),
        }
    }

    pub fn send(&self, msg: &Message) -> Result<(), SendError> {
        match self {
            Transport::Smtp(t) => t.send(msg).map(|_| ()).map_err(|e| {
                if e.is_permanent() {
                    SendError::Refused(e.to_string())
                } else {
                    SendError::Failed(e.to_string())
                }
            }),
            Transport::File(t, _) => t
                .send(msg)
                .map(|_| ())
                .map_err(|e| SendError::Failed(e.to_string())),
            Transport::Memory(list) => {
                let to = msg.envelope().to().iter().map(|a| a.to_string()).collect();
                let raw = String::from_utf8_lossy(&msg.formatted()).into_owned();
                list.lock()
                    .map_err(|_| SendError::Failed("memory transport poisoned".into()))?
                    .push(SentMail { to, raw });
                Ok(())
            }
        }
    }
}

/// Build the SMTP transport of a URL: `smtps://` is implicit TLS (port 465);
/// `smtp://` is STARTTLS, required (port 587), except to a loopback address,
/// where it is plain (port 25); `?tls=required|opportunistic|none` overrides.
/// User and password come from the URL (percent-encoded).
pub fn smtp_transport(raw: &str) -> anyhow::Result<SmtpTransport> {
    let u = url::Url::parse(raw.trim())
        .map_err(|e| anyhow::anyhow!("MISSIVE_SMTP_URL cannot be read: {e}"))?;
    let host = u
        .host_str()
        .ok_or_else(|| anyhow::anyhow!("MISSIVE_SMTP_URL has no host"))?
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_string();
    let loopback = host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .map(|ip| ip.is_loopback())
            .unwrap_or(false);
    let tls_q = u
        .query_pairs()
        .find(|(k, _)| k == "tls")
        .map(|(_, v)| v.to_string());
    let params = || TlsParameters::new(host.clone());
    let (tls, default_port) = match (u.scheme(), tls_q.as_deref()) {
        ("smtps", _) => (Tls::Wrapper(params()?), 465),
        ("smtp", Some("none")) => (Tls::None, 25),
        ("smtp", Some("opportunistic")) => (Tls::Opportunistic(params()?), 587),
        ("smtp", Some("required")) => (Tls::Required(params()?), 587),
        ("smtp", None) if loopback => (Tls::None, 25),
        ("smtp", None) => (Tls::Required(params()?), 587),
        ("smtp", Some(other)) => anyhow::bail!(
            "MISSIVE_SMTP_URL: tls={other} is not one of required, opportunistic, none"
        ),
        (other, _) => anyhow::bail!("MISSIVE_SMTP_URL: scheme {other} is not smtp or smtps"),
    };
    let mut builder = SmtpTransport::builder_dangerous(host.as_str())
        .port(u.port().unwrap_or(default_port))
        .tls(tls)
        .timeout(Some(std::time::Duration::from_secs(20)));
    if !u.username().is_empty() {
        let dec = |s: &str| {
            percent_encoding::percent_decode_str(s)
                .decode_utf8_lossy()
                .into_owned()
        };
        builder = builder.credentials(Credentials::new(
            dec(u.username()),
            dec(u.password().unwrap_or("")),
        ));
    }
    Ok(builder.build())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smtp_urls() {
        assert!(smtp_transport("smtp://user:p%40ss@mail.example.org:587").is_ok());
        assert!(smtp_transport("smtps://user:pass@mail.example.org").is_ok());
        assert!(smtp_transport("smtp://127.0.0.1:2525").is_ok());
        assert!(smtp_transport("smtp://relay.lan:25?tls=none").is_ok());
        assert!(smtp_transport("http://example.org").is_err());
        assert!(smtp_transport("smtp://example.org?tls=maybe").is_err());
        assert!(smtp_transport("not a url").is_err());
    }
}
