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
    /// The database could not be reached: no connection free in time, or
    /// SQLite still locked. 503, to be retried.
    #[error("database unavailable: {0}")]
    Unavailable(String),
    /// The connection was found gone (a database restart, a network cut):
    /// 503 like [`AppError::Unavailable`], and work that only reads may run
    /// again on another connection ([`crate::web::Session::reading_with_user`]).
    #[error("database connection lost: {0}")]
    ConnectionLost(String),
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
            AppError::Unavailable(_) | AppError::ConnectionLost(_) => "Try again in a moment",
            AppError::Internal(_) => "Something went wrong",
        }
    }
    /// What the page says (never the internal cause).
    pub fn public_message(&self) -> String {
        match self {
            AppError::Internal(_) => {
                "The server could not complete this request. Please try again.".into()
            }
            AppError::Unavailable(_) | AppError::ConnectionLost(_) => {
                "The database could not be reached for a moment. \
                Please try again; if you were making a move, open the game first to see \
                whether it was stored."
                    .into()
            }
            e => e.to_string(),
        }
    }
}

impl From<diesel::result::Error> for AppError {
    fn from(e: diesel::result::Error) -> Self {
        match e {
            diesel::result::Error::NotFound => AppError::NotFound("No such record.".into()),
            // A PostgreSQL connection that is gone.
            diesel::result::Error::DatabaseError(_, ref info) if crate::db::connection_lost(&e) => {
                AppError::ConnectionLost(info.message().to_string())
            }
            // SQLite still busy after its busy timeout: the writer is swamped.
            diesel::result::Error::DatabaseError(_, info)
                if info.message().contains("database is locked") =>
            {
                AppError::Unavailable(info.message().to_string())
            }
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
            AppError::Unavailable(_) | AppError::ConnectionLost(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        match self {
            AppError::Internal(cause) => tracing::error!("internal error: {cause}"),
            AppError::Unavailable(cause) => tracing::warn!("database unavailable: {cause}"),
            AppError::ConnectionLost(cause) => tracing::warn!("database connection lost: {cause}"),
            _ => {}
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
        let mut response = HttpResponse::build(self.status_code());
        if let AppError::Unavailable(_) | AppError::ConnectionLost(_) = self {
            response.insert_header(("Retry-After", "2"));
        }
        response.content_type("text/html; charset=utf-8").body(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use diesel::result::{DatabaseErrorKind, Error};

    fn db_error(kind: DatabaseErrorKind, message: &str) -> AppError {
        Error::DatabaseError(kind, Box::new(message.to_string())).into()
    }

    #[test]
    fn a_lost_connection_is_503_with_retry_after() {
        for (e, lost) in [
            (
                db_error(
                    DatabaseErrorKind::ClosedConnection,
                    "terminating connection due to administrator command",
                ),
                true,
            ),
            (
                db_error(
                    DatabaseErrorKind::UnableToSendCommand,
                    "SSL connection has been closed unexpectedly",
                ),
                true,
            ),
            (
                db_error(DatabaseErrorKind::Unknown, "database is locked"),
                false,
            ),
        ] {
            match e {
                AppError::ConnectionLost(_) => assert!(lost, "{e:?}"),
                AppError::Unavailable(_) => assert!(!lost, "{e:?}"),
                _ => panic!("{e:?}"),
            }
            let r = e.error_response();
            assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert_eq!(r.headers().get("Retry-After").unwrap(), "2");
            // The cause is logged, not shown.
            assert!(!e.public_message().contains("SSL"));
        }
        let other = db_error(DatabaseErrorKind::Unknown, "syntax error");
        assert!(matches!(other, AppError::Internal(_)));
        assert_eq!(
            other.error_response().status(),
            StatusCode::INTERNAL_SERVER_ERROR
        );
        assert!(matches!(
            AppError::from(Error::NotFound),
            AppError::NotFound(_)
        ));
    }
}
