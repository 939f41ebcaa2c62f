//! The HTTP face of the domain's error: a status code and a friendly page.

use crate::domain::error::{Error, MovedOn};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use askama::Template;

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage<'a> {
    page: super::Page,
    title: &'a str,
    message: String,
    login_link: bool,
    /// The page to come back to after logging in (`/login?next=`).
    next: String,
}

impl ResponseError for Error {
    fn status_code(&self) -> StatusCode {
        match self {
            Error::NotFound(_) => StatusCode::NOT_FOUND,
            Error::Forbidden(_) => StatusCode::FORBIDDEN,
            Error::LoginRequired(_) => StatusCode::UNAUTHORIZED,
            Error::BadRequest(_) => StatusCode::BAD_REQUEST,
            Error::Invalid(_) | Error::AmbiguousMove(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Error::Conflict(_) | Error::MovedOn(_) | Error::AlreadyDone => StatusCode::CONFLICT,
            Error::RateLimited(_) | Error::TooSoon { .. } => StatusCode::TOO_MANY_REQUESTS,
            Error::Unavailable(_) | Error::ConnectionLost(_) => StatusCode::SERVICE_UNAVAILABLE,
            Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        self.page_response("")
    }
}

/// What the error page's heading says.
pub fn title(e: &Error) -> &'static str {
    match e {
        Error::NotFound(_) => "Not found",
        Error::Forbidden(_) => "Not allowed",
        Error::LoginRequired(_) => "Please log in",
        Error::BadRequest(_) => "Bad request",
        Error::Invalid(_) | Error::AmbiguousMove(_) => "Not accepted",
        Error::Conflict(_) | Error::MovedOn(MovedOn::LinesChanged) | Error::AlreadyDone => {
            "The position has changed"
        }
        Error::MovedOn(MovedOn::TimeRanOut | MovedOn::FlagFell) => "Lost on time",
        Error::RateLimited(_) | Error::TooSoon { .. } => "Too many attempts",
        Error::Unavailable(_) | Error::ConnectionLost(_) => "Try again in a moment",
        Error::Internal(_) => "Something went wrong",
    }
}

/// A form whose CSRF token is missing or wrong (403).
pub fn csrf_refused() -> Error {
    Error::Forbidden(
        "the form could not be accepted: the security token is missing or wrong".into(),
    )
}

impl Error {
    /// The error page, its login link returning to `next` (a path of this
    /// site, or empty) once logged in.
    pub fn page_response(&self, next: &str) -> HttpResponse {
        match self {
            Error::Internal(cause) => tracing::error!("internal error: {cause}"),
            Error::Unavailable(cause) => tracing::warn!("database unavailable: {cause}"),
            Error::ConnectionLost(cause) => tracing::warn!("database connection lost: {cause}"),
            _ => {}
        }
        let page = ErrorPage {
            page: super::Page::anonymous(),
            title: title(self),
            message: self.public_message(),
            login_link: matches!(self, Error::LoginRequired(_)),
            next: crate::web::login_return::query(next),
        };
        let body = page
            .render()
            .unwrap_or_else(|_| format!("<h1>{}</h1>", title(self)));
        let mut response = HttpResponse::build(self.status_code());
        if let Error::Unavailable(_) | Error::ConnectionLost(_) = self {
            response.insert_header(("Retry-After", "2"));
        }
        if let Error::TooSoon { retry_after, .. } = self {
            response.insert_header(("Retry-After", retry_after.to_string()));
        }
        response.content_type("text/html; charset=utf-8").body(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use diesel::result::{DatabaseErrorKind, Error as DbError};

    fn db_error(kind: DatabaseErrorKind, message: &str) -> Error {
        DbError::DatabaseError(kind, Box::new(message.to_string())).into()
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
                Error::ConnectionLost(_) => assert!(lost, "{e:?}"),
                Error::Unavailable(_) => assert!(!lost, "{e:?}"),
                _ => panic!("{e:?}"),
            }
            let r = e.error_response();
            assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert_eq!(r.headers().get("Retry-After").unwrap(), "2");
            // The cause is logged, not shown.
            assert!(!e.public_message().contains("SSL"));
        }
        let other = db_error(DatabaseErrorKind::Unknown, "syntax error");
        assert!(matches!(other, Error::Internal(_)));
        assert_eq!(
            other.error_response().status(),
            StatusCode::INTERNAL_SERVER_ERROR
        );
        assert!(matches!(Error::from(DbError::NotFound), Error::NotFound(_)));
    }
}
