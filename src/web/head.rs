//! `HEAD` is answered like `GET` on every page (RFC 9110 §9.3.2), for link
//! checkers and uptime monitors: the request is routed as a `GET`, and the
//! HTTP/1 codec, which saw the request's own method, writes the headers
//! (with the length the `GET` would have) and no body.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::Error;

pub async fn as_get(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    if req.method() == Method::HEAD {
        req.head_mut().method = Method::GET;
    }
    next.call(req).await
}
