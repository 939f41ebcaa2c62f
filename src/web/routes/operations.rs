//! For operators (issue 43): readiness and metrics. `/healthz` (liveness)
//! is in `pages`: it touches nothing.

use crate::db::games;
use crate::domain::error::Error;
use crate::web::State;
use actix_web::{http::header, web, HttpRequest, HttpResponse};
use std::time::Duration;

/// How long `/readyz` waits for a database connection before saying the
/// database cannot be reached.
const READY_WAIT: Duration = Duration::from_secs(2);

/// 200 when this process can serve: the database answers and has every
/// migration this binary knows; else 503 with the reason, so that a load
/// balancer sends no player here meanwhile.
pub async fn readyz(state: State) -> HttpResponse {
    let pool = state.pool.clone();
    let checked = web::block(move || crate::db::ready(&pool, READY_WAIT))
        .await
        .unwrap_or_else(|e| Err(format!("blocking task: {e}")));
    let (status, body) = match checked {
        Ok(()) => (actix_web::http::StatusCode::OK, "ready".to_string()),
        Err(why) => (
            actix_web::http::StatusCode::SERVICE_UNAVAILABLE,
            format!("not ready: {why}"),
        ),
    };
    HttpResponse::build(status)
        .content_type("text/plain; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(body)
}

/// Whether the request carries the metrics token as its bearer token,
/// compared in constant time.
fn bearer_matches(req: &HttpRequest, token: &str) -> bool {
    use hmac::Mac;
    let Some(sent) = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
    else {
        return false;
    };
    // Equal MACs of both under one key: equal lengths, compared by `verify`
    // in constant time.
    let mac = |s: &str| {
        let mut m = hmac::Hmac::<sha2::Sha256>::new_from_slice(b"missive metrics token").unwrap();
        m.update(s.trim().as_bytes());
        m
    };
    mac(sent)
        .verify_slice(&mac(token).finalize().into_bytes())
        .is_ok()
}

/// Prometheus's text format, when `MISSIVE_METRICS_TOKEN` is set and sent
/// as the bearer token; not there (404) when it is unset.
pub async fn metrics(req: HttpRequest, state: State) -> Result<HttpResponse, Error> {
    let Some(token) = state.config.metrics_token.clone() else {
        return Err(Error::NotFound("There is no page at this address.".into()));
    };
    if !bearer_matches(&req, &token) {
        return Ok(HttpResponse::Unauthorized()
            .insert_header((header::WWW_AUTHENTICATE, "Bearer realm=\"metrics\""))
            .content_type("text/plain; charset=utf-8")
            .body("The metrics need the bearer token set in MISSIVE_METRICS_TOKEN."));
    }
    let pool_state = state.pool.state();
    let pool_max = state.pool.max_size();
    let now = crate::util::now();
    let scraped = state
        .read(move |conn| {
            let active_games = games::active_count(conn)?;
            let (outbox_unsent, oldest) = crate::db::outbox::backlog(conn)?;
            Ok(crate::metrics::Scraped {
                active_games,
                outbox_unsent,
                outbox_oldest_unsent_seconds: oldest.map_or(0, |t| (now - t).num_seconds().max(0)),
                pool_open: pool_state.connections,
                pool_idle: pool_state.idle_connections,
                pool_max,
            })
        })
        .await?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(crate::metrics::render(&scraped)))
}
