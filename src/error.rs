//! One error type for the whole server, mapped to a status code and a
//! friendly page. Internal causes are logged, never shown.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use askama::Template;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("the form could not be accepted: the security token is missing or wrong")]
    Csrf,
    #[error("{0}")]
    LoginRequired(String),
    #[error("{0}")]
    BadRequest(String),
    /// Input that reads but is not acceptable (shown with the form, 422).
    #[error("{0}")]
    Invalid(String),
    /// The state changed under the request (the position moved on).
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    RateLimited(String),
    #[error("internal error: {0}")]
    Internal(String),
}

impl AppError {
    pub fn internal(e: impl std::fmt::Display) -> AppError {
        AppError::Internal(e.to_string())
    }
    pub fn position_changed() -> AppError {
        AppError::Conflict(
            "The position has changed since you loaded the page (another move was played first). \
             Your move was not played: look at the board again."
                .into(),
        )
    }
    pub fn title(&self) -> &'static str {
        match self {
            AppError::NotFound(_) => "Not found",
            AppError::Forbidden(_) | AppError::Csrf => "Not allowed",
            AppError::LoginRequired(_) => "Please log in",
            AppError::BadRequest(_) => "Bad request",
            AppError::Invalid(_) => "Not accepted",
            AppError::Conflict(_) => "The position has changed",
            AppError::RateLimited(_) => "Too many attempts",
            AppError::Internal(_) => "Something went wrong",
        }
    }
    /// What the page says (never the internal cause).
    pub fn public_message(&self) -> String {
        match self {
            AppError::Internal(_) => {
                "The server could not complete this request. Please try again.".into()
            }
            e => e.to_string(),
        }
    }
}

impl From<diesel::result::Error> for AppError {
    fn from(e: diesel::result::Error) -> Self {
        match e {
            diesel::result::Error::NotFound => AppError::NotFound("No such record.".into()),
            e => AppError::Internal(format!("database: {e}")),
        }
    }
}

impl From<askama::Error> for AppError {
    fn from(e: askama::Error) -> Self {
        AppError::Internal(format!("template: {e}"))
    }
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage<'a> {
    page: crate::web::Page,
    title: &'a str,
    message: String,
    login_link: bool,
}

impl ResponseError for AppError {
    fn status_code(&self) -> StatusCode {
        match self {
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::Forbidden(_) | AppError::Csrf => StatusCode::FORBIDDEN,
            AppError::LoginRequired(_) => StatusCode::UNAUTHORIZED,
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::Conflict(_) => StatusCode::CONFLICT,
            AppError::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let AppError::Internal(cause) = self {
            tracing::error!("internal error: {cause}");
        }
        let page = ErrorPage {
            page: crate::web::Page::anonymous(),
            title: self.title(),
            message: self.public_message(),
            login_link: matches!(self, AppError::LoginRequired(_)),
        };
        let body = page
            .render()
            .unwrap_or_else(|_| format!("<h1>{}</h1>", self.title()));
        HttpResponse::build(self.status_code())
            .content_type("text/html; charset=utf-8")
            .body(body)
    }
}
