//! Slow clients (issue 60): actix-web closes a connection whose headers are
//! slow (5 s) but lets a body trickle in for ever, so 1,000 connections
//! each sending a body a byte at a time once held every file the process
//! may open. Here a body gets `MISSIVE_BODY_TIMEOUT_SECS` to arrive, and
//! one client address at most `MISSIVE_REQUESTS_PER_ADDRESS` requests in
//! progress; actix-http closes the connection of a request answered before
//! its body was read, so a refused slow client holds no file either.
//!
//! The limit counts requests, not connections: actix-web has no hook to
//! refuse a connection by its address, and behind a proxy every connection
//! comes from the proxy, while the request carries the client's address
//! (`MISSIVE_TRUST_PROXY`). An idle connection holds no request and is
//! closed by the keep-alive timeout.

use crate::domain::error::Error as Refusal;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::middleware::Next;
use actix_web::web::Bytes;
use actix_web::{Error, HttpMessage, ResponseError};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

/// Things in progress per client address, each at most a limit at once.
#[derive(Default)]
pub struct PerAddress {
    counts: Arc<Mutex<HashMap<String, usize>>>,
}

/// One thing in progress for an address, given back when dropped.
pub struct Slot {
    counts: Arc<Mutex<HashMap<String, usize>>>,
    addr: String,
}

impl PerAddress {
    /// A slot for `addr`, unless it has `limit` already.
    pub fn take(&self, addr: &str, limit: usize) -> Option<Slot> {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let n = counts.entry(addr.to_string()).or_insert(0);
        if *n >= limit {
            return None;
        }
        *n += 1;
        Some(Slot {
            counts: self.counts.clone(),
            addr: addr.to_string(),
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = counts.get_mut(&self.addr) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.addr);
            }
        }
    }
}

/// A request body that ends in an error once its time is up.
struct Timed<S> {
    inner: S,
    deadline: Pin<Box<actix_web::rt::time::Sleep>>,
    limit: Duration,
}

impl<S> futures_core::Stream for Timed<S>
where
    S: futures_core::Stream<Item = Result<Bytes, PayloadError>> + Unpin,
{
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.deadline.as_mut().poll(cx).is_ready() {
            let why = std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("the body took more than {} s", self.limit.as_secs()),
            );
            return Poll::Ready(Some(Err(PayloadError::Io(why))));
        }
        Pin::new(&mut self.inner).poll_next(cx)
    }
}

/// The middleware: a slot for the client's address, then the handler with
/// its body on a deadline.
pub async fn guard(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let Some(state) = req.app_data::<crate::web::State>().cloned() else {
        return next
            .call(req)
            .await
            .map(ServiceResponse::map_into_boxed_body);
    };
    let addr = crate::web::client_addr::client_addr(req.request(), state.config.trust_proxy);
    let Some(_slot) = state
        .in_progress
        .take(&addr, state.config.requests_per_address)
    else {
        let res = Refusal::TooSoon {
            message: "Too many requests from your address are in progress: wait for them.".into(),
            retry_after: 1,
        }
        .error_response();
        return Ok(req.into_response(res).map_into_boxed_body());
    };
    let limit = Duration::from_secs(state.config.body_timeout_secs);
    match req.take_payload() {
        Payload::None => {}
        inner => {
            let timed = Timed {
                inner,
                deadline: Box::pin(actix_web::rt::time::sleep(limit)),
                limit,
            };
            req.set_payload(Payload::Stream {
                payload: Box::pin(timed),
            });
        }
    }
    let res = next.call(req).await?;
    Ok(res.map_into_boxed_body())
}
