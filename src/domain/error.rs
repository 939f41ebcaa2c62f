//! What can go wrong in a use case, said so that a person can act on it.
//! The web layer maps each kind to a status code, a title and a page
//! (`web::error`); internal causes are logged, never shown. A caller that
//! acts on a kind, not only reports it, matches a variant, never a message.

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    LoginRequired(String),
    #[error("{0}")]
    BadRequest(String),
    /// Input that reads but is not acceptable (shown with the form, 422).
    #[error("{0}")]
    Invalid(String),
    /// A move's text that fits several legal moves (422, as [`Error::Invalid`]);
    /// the message lists them. Xfcc answers it with a result of its own.
    #[error("{0}")]
    AmbiguousMove(String),
    /// The state changed under the request (the position moved on).
    #[error("{0}")]
    Conflict(String),
    /// The game moved on under the request in a way its caller acts on.
    #[error("{0}")]
    MovedOn(MovedOn),
    /// The same request was acted on already (a second delivery of a mail).
    #[error("this was acted on already")]
    AlreadyDone,
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

/// How the game moved on under a request, for the callers that act on it:
/// the move form and the API play a move again after [`MovedOn::LinesChanged`],
/// Xfcc answers "lost on time" for the other two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MovedOn {
    /// The opponent's conditional lines changed while the move was being
    /// stored; nothing was stored, and the move may be sent again at once.
    LinesChanged,
    /// The mover's time had run out: the move was not played, and the game
    /// is lost on time.
    TimeRanOut,
    /// The time of the player to move had run out before a draw offer or a
    /// resignation: the game is lost on time, and nothing else was done.
    FlagFell,
}

impl MovedOn {
    /// Its name where an answer is kept as text ([`crate::db::once`]).
    pub fn code(self) -> &'static str {
        match self {
            MovedOn::LinesChanged => "lines-changed",
            MovedOn::TimeRanOut => "time-ran-out",
            MovedOn::FlagFell => "flag-fell",
        }
    }

    pub fn from_code(code: &str) -> Option<MovedOn> {
        [
            MovedOn::LinesChanged,
            MovedOn::TimeRanOut,
            MovedOn::FlagFell,
        ]
        .into_iter()
        .find(|m| m.code() == code)
    }
}

impl std::fmt::Display for MovedOn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            MovedOn::LinesChanged => {
                "Your opponent changed their conditional moves while your move was being stored: send it again."
            }
            MovedOn::TimeRanOut => {
                "Your time ran out before this move arrived: the move was not played, and the game is lost on time."
            }
            MovedOn::FlagFell => {
                "The time of the player to move had run out: the game is lost on time, and nothing else was done."
            }
        })
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
