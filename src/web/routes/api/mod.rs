//! The doors for programs (issue 41): the JSON API under `/api/v1/`, signed
//! in with personal tokens (`Authorization: Bearer`), and the Xfcc SOAP
//! service at `/xfcc`, signed in with app passwords. Neither reads the
//! session cookie, so neither needs a CSRF token; both play through the
//! same move path as the pages ([`crate::web::AppState::play`],
//! [`crate::game::play::queue_move`]).

pub mod games;
pub mod openapi;
pub mod xfcc;
pub mod xfcc_games;

use crate::accounts::api_credentials;
use crate::db::users::User;
use crate::domain::api_credential::{CredentialKind, Scope};
use crate::domain::error::Error;
use crate::web::{now, AppState, SESSION_COOKIE};
use actix_web::dev::Payload;
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{web, FromRequest, HttpRequest, HttpResponse, ResponseError};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// An error of the API: the domain's error as RFC 9457 problem details
/// (`application/problem+json`), with the same status and the same words
/// the pages give.
#[derive(Debug)]
pub struct Problem(pub Error);

impl From<Error> for Problem {
    fn from(e: Error) -> Problem {
        Problem(e)
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl ResponseError for Problem {
    fn status_code(&self) -> StatusCode {
        self.0.status_code()
    }

    fn error_response(&self) -> HttpResponse {
        // The page's answer, for its logging and its Retry-After.
        let page = self.0.error_response();
        let status = page.status();
        let body = serde_json::json!({
            "type": "about:blank",
            "title": status.canonical_reason().unwrap_or("Error"),
            "status": status.as_u16(),
            "detail": self.0.public_message(),
        });
        let mut res = HttpResponse::build(status);
        if let Some(wait) = page.headers().get(header::RETRY_AFTER) {
            res.insert_header((header::RETRY_AFTER, wait.clone()));
        }
        if let Error::LoginRequired(_) = self.0 {
            res.insert_header((header::WWW_AUTHENTICATE, "Bearer realm=\"missive\""));
        }
        res.content_type("application/problem+json")
            .body(body.to_string())
    }
}

pub type ApiResult = Result<HttpResponse, Problem>;

/// A JSON answer.
pub fn json_ok(status: StatusCode, body: &serde_json::Value) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("application/json")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(body.to_string())
}

/// How a JSON body that cannot be read is answered: a problem, 400 (415
/// for another content type).
pub fn json_config() -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(64 * 1024)
        .error_handler(|err, _req| {
            let why = match &err {
                actix_web::error::JsonPayloadError::ContentType => {
                    "Send the body as JSON, with Content-Type: application/json.".to_string()
                }
                e => format!(
                    "The JSON body could not be read ({}).",
                    crate::web::clip(&e.to_string(), 120)
                ),
            };
            Problem(Error::BadRequest(why)).into()
        })
}

/// Anything else under `/api/v1/`: a problem, 404.
pub async fn not_found() -> ApiResult {
    Err(Problem(Error::NotFound(
        "There is no such API route: the routes are listed in /api/v1/openapi.json.".into(),
    )))
}

/// The caller of the JSON API: the owner of the bearer token and what the
/// token may do.
pub struct ApiUser {
    pub user: User,
    pub scope: Scope,
    pub state: Arc<AppState>,
}

impl ApiUser {
    /// Refuse a read-only token (403).
    pub fn may_play(&self) -> Result<(), Problem> {
        match self.scope {
            Scope::Play => Ok(()),
            Scope::Read => Err(Problem(Error::Forbidden(
                "This token may only read. Make a token with the play scope \
                 (at /settings/clients) to move, offer draws, resign or keep conditional lines."
                    .into(),
            ))),
        }
    }
}

const NO_COOKIES: &str = "Cookies are not accepted on /api/: send a personal token as \
     Authorization: Bearer <token> (make one at /settings/clients).";

/// The bearer token of a request: missing, malformed, or the secret.
fn bearer(req: &HttpRequest) -> Result<String, Error> {
    let Some(value) = req.headers().get(header::AUTHORIZATION) else {
        let message = match req.cookie(SESSION_COOKIE) {
            Some(_) => NO_COOKIES.to_string(),
            None => "Send a personal token as Authorization: Bearer <token> \
                     (make one at /settings/clients)."
                .to_string(),
        };
        return Err(Error::LoginRequired(message));
    };
    let text = value.to_str().unwrap_or("");
    let (kind, secret) = text.trim().split_once(' ').unwrap_or((text, ""));
    let secret = secret.trim();
    if !kind.eq_ignore_ascii_case("bearer") || secret.is_empty() || secret.len() > 200 {
        return Err(Error::LoginRequired(
            "The Authorization header must be Bearer and a personal token.".into(),
        ));
    }
    Ok(secret.to_string())
}

async fn api_user(req: HttpRequest) -> Result<ApiUser, Problem> {
    let state = req
        .app_data::<crate::web::State>()
        .ok_or_else(|| Error::internal("application state missing"))?
        .get_ref()
        .clone();
    let secret = bearer(&req)?;
    let found = crate::web::db_calls::short_read(&state, move |conn| {
        api_credentials::authenticate(conn, CredentialKind::Token, None, &secret)
    })
    .await?;
    let Some((user, credential)) = found else {
        return Err(Problem(Error::LoginRequired(
            "This token is not one: it may have been revoked, or the account closed. \
             Make a new one at /settings/clients."
                .into(),
        )));
    };
    if api_credentials::use_stale(&credential, now()) {
        // "Last used" on the settings page; a failure costs the call nothing.
        let noted = state
            .write(move |conn| {
                crate::db::api_credentials::note_use(conn, credential.id, now())?;
                Ok(crate::db::once::Harmless)
            })
            .await;
        if let Err(e) = noted {
            tracing::warn!("noting a token's use: {e}");
        }
    }
    Ok(ApiUser {
        user,
        scope: credential.scope,
        state,
    })
}

impl FromRequest for ApiUser {
    type Error = Problem;
    type Future = Pin<Box<dyn Future<Output = Result<ApiUser, Problem>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        Box::pin(api_user(req.clone()))
    }
}

/// The site's address as clients are told it.
pub fn base_url(state: &AppState) -> String {
    state.config.base_url.trim_end_matches('/').to_string()
}

/// `Content-Type` of XML answers.
pub fn xml_type() -> HeaderValue {
    HeaderValue::from_static("text/xml; charset=utf-8")
}
