//! What can go wrong in a use case, said so that a person can act on it.
//! The web layer maps each kind to a status code and a page
//! (`web::error`); internal causes are logged, never shown.

#[derive(Debug, thiserror::Error)]
pub enum Error {
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
    /// A limit is reached for now: 429, with the seconds until a new try
    /// can succeed (the `Retry-After` header), which the message says too.
    #[error("{message}")]
    TooSoon { message: String, retry_after: i64 },
    /// The database could not be reached: no connection free in time, or
    /// SQLite still locked. 503, to be retried.
    #[error("database unavailable: {0}")]
    Unavailable(String),
    /// The connection was found gone (a database restart, a network cut):
    /// 503 like [`Error::Unavailable`], and work that only reads may run
    /// again on another connection.
    #[error("database connection lost: {0}")]
    ConnectionLost(String),
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    pub fn internal(e: impl std::fmt::Display) -> Error {
        Error::Internal(e.to_string())
    }
    /// "`what`: try again in ..." with the wait in words, at least a second.
    pub fn too_soon(what: &str, retry_after: i64) -> Error {
        let secs = retry_after.max(1);
        Error::TooSoon {
            message: format!("{what} Please try again in {}.", wait_words(secs)),
            retry_after: secs,
        }
    }
    pub fn position_changed() -> Error {
        Error::Conflict(
            "The position has changed since you loaded the page (another move was played first). \
             Your move was not played: look at the board again."
                .into(),
        )
    }
    pub fn title(&self) -> &'static str {
        match self {
            Error::NotFound(_) => "Not found",
            Error::Forbidden(_) | Error::Csrf => "Not allowed",
            Error::LoginRequired(_) => "Please log in",
            Error::BadRequest(_) => "Bad request",
            Error::Invalid(_) => "Not accepted",
            Error::Conflict(_) => "The position has changed",
            Error::RateLimited(_) | Error::TooSoon { .. } => "Too many attempts",
            Error::Unavailable(_) | Error::ConnectionLost(_) => "Try again in a moment",
            Error::Internal(_) => "Something went wrong",
        }
    }
    /// What the page says (never the internal cause).
    pub fn public_message(&self) -> String {
        match self {
            Error::Internal(_) => {
                "The server could not complete this request. Please try again.".into()
            }
            Error::Unavailable(_) | Error::ConnectionLost(_) => {
                "The database could not be reached for a moment. \
                Please try again; if you were making a move, open the game first to see \
                whether it was stored."
                    .into()
            }
            e => e.to_string(),
        }
    }
}

/// A wait as people say it: "40 seconds", "3 minutes", "2 hours" (rounded up).
pub fn wait_words(secs: i64) -> String {
    let (n, unit) = if secs < 90 {
        (secs, "second")
    } else if secs < 90 * 60 {
        ((secs + 59) / 60, "minute")
    } else {
        ((secs + 3599) / 3600, "hour")
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

// Templates render mails as well as pages, so a failed render is an
// internal error wherever it happens.
impl From<askama::Error> for Error {
    fn from(e: askama::Error) -> Self {
        Error::Internal(format!("template: {e}"))
    }
}
