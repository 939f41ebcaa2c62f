//! The running server: state, workers, the HTTP server.

use crate::config::Config;
use actix_web::dev::{Server, Service};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::{middleware, web as aweb, App, HttpServer};
use std::net::TcpListener;
use std::sync::Arc;
use std::time::Instant;
use tracing::Instrument;

pub use crate::web::build_state;

/// The HTTP server over an already built state, on an already bound
/// listener (tests bind 127.0.0.1:0). Once it has stopped, the state's
/// [`stop_connecting`](crate::web::AppState::stop_connecting) is for the
/// caller, as [`serve`] does.
pub fn server_on(
    state: Arc<crate::web::AppState>,
    config: &Config,
    listener: TcpListener,
) -> anyhow::Result<Server> {
    crate::listen();
    let data = aweb::Data::new(state);
    let mut http = HttpServer::new(move || {
        App::new()
            .app_data(data.clone())
            .configure(crate::web::routes::configure)
            .wrap(middleware::from_fn(crate::web::login_return::add_return))
            .wrap(middleware::from_fn(crate::web::head::as_get))
            .wrap(middleware::from_fn(crate::web::nul_guard::refuse_nul))
            // Outside the NUL guard, which reads form bodies itself.
            .wrap(middleware::from_fn(crate::web::slow_clients::guard))
            .wrap(middleware::from_fn(crate::web::headers::guard))
            .wrap(middleware::Compress::default())
            .wrap(
                middleware::DefaultHeaders::new()
                    .add(("X-Content-Type-Options", "nosniff"))
                    .add(("X-Frame-Options", "DENY"))
                    .add(("Referrer-Policy", "same-origin")),
            )
            .wrap_fn(|req, srv| {
                let method = req.method().clone();
                let path = req.path().to_string();
                let id = request_id(req.headers().get("x-request-id"));
                let span = tracing::info_span!("request", request_id = %id);
                let started = Instant::now();
                let fut = srv.call(req).instrument(span.clone());
                async move {
                    let mut res = fut.await?;
                    let req = res.request().clone();
                    if let Some(state) = req.app_data::<crate::web::State>() {
                        let config = state.config.clone();
                        crate::web::add_csrf_cookie(&req, res.response_mut(), &config);
                    }
                    if let Ok(v) = HeaderValue::from_str(&id) {
                        res.headers_mut()
                            .insert(HeaderName::from_static("x-request-id"), v);
                    }
                    let status = res.status().as_u16();
                    let seconds = started.elapsed().as_secs_f64();
                    let route = req.match_pattern();
                    crate::metrics::request(
                        method.as_str(),
                        &route.as_deref().map_or("unmatched".into(), route_label),
                        status,
                        seconds,
                    );
                    span.in_scope(|| {
                        tracing::info!(
                            method = %method,
                            path = %path,
                            status,
                            ms = (seconds * 10_000.0).round() / 10.0,
                            "answered"
                        )
                    });
                    Ok(res)
                }
            })
    });
    if config.workers > 0 {
        http = http.workers(config.workers);
    }
    Ok(http.listen(listener)?.run())
}

/// Run the server until it is stopped.
pub async fn serve(config: Config) -> anyhow::Result<()> {
    let listener = TcpListener::bind(&config.bind)
        .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", config.bind))?;
    tracing::info!(
        "Missive listening on {} ({}), database {}",
        config.bind,
        config.base_url,
        crate::util::redact(&config.database_url)
    );
    // Held until this function returns: `missive restore` will not replace
    // the SQLite file meanwhile.
    let _serving = crate::db::backup::ServingLock::hold(&config.database_url)?;
    let state = build_state(&config)?;
    let worker = if config.mail_worker {
        let transport = crate::mail::transport::Transport::from_config(&config)?;
        tracing::info!("{}", transport.describe(&config));
        let sender = crate::mail::drain::Sender {
            transport,
            ctx: crate::mail::context::MailCtx::new(&config, &state.secret)?,
            owner: crate::jobs::worker_name(),
        };
        Some(crate::jobs::spawn_mail_worker(
            state.pool.clone(),
            sender,
            std::time::Duration::from_millis(config.mail_poll_ms),
        ))
    } else {
        tracing::info!("MISSIVE_MAIL_WORKER is off: this process sends no mail");
        None
    };
    // Browser notifications go out from the processes that send mail.
    let pusher = if config.mail_worker {
        let mut conn = state.pool.get()?;
        // The push worker's blocking HTTP client runs a runtime of its
        // own, which may not be made (or dropped) inside this async
        // context: build it on a plain thread.
        let pusher = std::thread::scope(|s| {
            s.spawn(|| crate::push::Pusher::new(&config, &mut conn, crate::jobs::worker_name()))
                .join()
        })
        .map_err(|_| anyhow::anyhow!("setting up web push failed"))??;
        Some(crate::jobs::spawn_push_worker(
            state.pool.clone(),
            pusher,
            std::time::Duration::from_millis(config.mail_poll_ms),
        ))
    } else {
        None
    };
    let tournaments = crate::jobs::spawn_tournament_worker(
        state.pool.clone(),
        std::time::Duration::from_secs(config.tournament_poll_secs),
    );
    let clock_worker = if config.clock_worker {
        Some(crate::jobs::spawn_clock_worker(
            state.pool.clone(),
            std::time::Duration::from_secs(config.clock_poll_secs),
            chrono::TimeDelta::minutes(config.outage_grace_mins),
        ))
    } else {
        tracing::info!("MISSIVE_CLOCK_WORKER is off: this process ends no game on time");
        None
    };
    // Several processes may run it: each day's digest is claimed once.
    let digests = crate::jobs::spawn_digest_worker(
        state.pool.clone(),
        config.digest_hour,
        std::time::Duration::from_secs(60),
    );
    server_on(state.clone(), &config, listener)?.await?;
    if let Some(w) = worker {
        w.stop();
    }
    if let Some(w) = pusher {
        w.stop();
    }
    tournaments.stop();
    if let Some(w) = clock_worker {
        w.stop();
    }
    digests.stop();
    state.stop_connecting();
    Ok(())
}

/// A route's pattern as people write it: `/games/{id}` for
/// `/games/{id:[^/.]+}` (a segment's pattern is left out).
fn route_label(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut in_pattern = false;
    let mut depth = 0;
    for c in pattern.chars() {
        match c {
            '{' => {
                depth += 1;
                if depth == 1 {
                    out.push(c);
                    continue;
                }
            }
            '}' => {
                depth -= 1;
                if depth == 0 {
                    in_pattern = false;
                    out.push(c);
                    continue;
                }
            }
            ':' if depth == 1 => in_pattern = true,
            _ => {}
        }
        if !in_pattern {
            out.push(c);
        }
    }
    out
}

/// The id a request is logged under and answered with (`X-Request-Id`):
/// the one a proxy in front sent, when it is a short plain token, so that
/// its log and ours meet; else a new random one.
fn request_id(sent: Option<&HeaderValue>) -> String {
    sent.and_then(|v| v.to_str().ok())
        .filter(|v| {
            (1..=64).contains(&v.len())
                && v.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        })
        .map(str::to_string)
        .unwrap_or_else(|| format!("{:016x}", rand::random::<u64>()))
}

/// Log to stderr, `RUST_LOG` style filtering (default `info`); with
/// `MISSIVE_LOG_FORMAT=json`, one JSON object per line, carrying the
/// request's id (`span.request_id`) on every line logged while serving it.
pub fn init_tracing() -> anyhow::Result<()> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let format = std::env::var("MISSIVE_LOG_FORMAT").unwrap_or_default();
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = match format.trim().to_ascii_lowercase().as_str() {
        "" | "text" => builder.try_init(),
        "json" => builder
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .try_init(),
        other => anyhow::bail!("MISSIVE_LOG_FORMAT {other:?} is neither text nor json"),
    };
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn route_labels_leave_segment_patterns_out() {
        assert_eq!(super::route_label("/games/{id:[^/.]+}"), "/games/{id}");
        assert_eq!(super::route_label("/a/{x:\\d{2}}/b/{y}"), "/a/{x}/b/{y}");
        assert_eq!(super::route_label("/"), "/");
    }
}
