//! No text with a NUL character reaches a handler. PostgreSQL refuses NUL
//! in text (an error at the statement, so a 500 on a login, a note or a
//! profile address), while SQLite stores it: one check in front of every
//! route answers 400 (404 in the path: no page has such a name) on both
//! backends instead. A NUL can only arrive as `%00` (in the path, the query
//! or a form) or as a raw byte of a form body.

use crate::domain::error::Error as Refusal;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::header::CONTENT_TYPE;
use actix_web::middleware::Next;
use actix_web::web::Bytes;
use actix_web::{Error, ResponseError};

const REFUSED: &str = "Text may not contain a NUL character (%00).";

/// Whether `bytes`, as sent, decodes to text holding a NUL.
pub fn holds_nul(bytes: &[u8]) -> bool {
    bytes.contains(&0) || bytes.windows(3).any(|w| w == b"%00")
}

fn is_form(req: &ServiceRequest) -> bool {
    req.headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.trim_start()
                .to_ascii_lowercase()
                .starts_with("application/x-www-form-urlencoded")
        })
}

/// The middleware: 404 for a NUL in the path, 400 in the query or a form
/// body; a form body, once read, is handed on to the handler unchanged.
pub async fn refuse_nul(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, Error> {
    // No page is named with a NUL: 404, as for any other unknown name.
    if holds_nul(req.uri().path().as_bytes()) {
        return refuse(req, Refusal::NotFound("No such page.".into()));
    }
    if holds_nul(req.uri().query().unwrap_or("").as_bytes()) {
        return refuse(req, Refusal::BadRequest(REFUSED.into()));
    }
    if is_form(&req) {
        // The form extractor reads at most 64 KB; a larger body is left for
        // it to refuse as before.
        let body = match req.extract::<Bytes>().await {
            Ok(body) => body,
            Err(_) => {
                let unreadable = Refusal::BadRequest("The form could not be read.".into());
                return refuse(req, unreadable);
            }
        };
        if holds_nul(&body) {
            return refuse(req, Refusal::BadRequest(REFUSED.into()));
        }
        req.set_payload(Payload::from(body));
    }
    next.call(req)
        .await
        .map(ServiceResponse::map_into_left_body)
}

fn refuse<B>(req: ServiceRequest, why: Refusal) -> Result<ServiceResponse<EitherBody<B>>, Error> {
    let response = why.error_response();
    Ok(req.into_response(response).map_into_right_body())
}

#[cfg(test)]
mod tests {
    use super::holds_nul;

    #[test]
    fn finds_nul_however_it_is_sent() {
        assert!(holds_nul(b"/users/%00"));
        assert!(holds_nul(b"move=e4%00"));
        assert!(holds_nul(b"move=e4\0"));
        assert!(!holds_nul(b"move=e4&note=100%25"));
        assert!(!holds_nul(b"/games/100?ply=200"));
        // `%2500` is a percent sign followed by "00", not a NUL.
        assert!(!holds_nul(b"note=%2500"));
    }
}
