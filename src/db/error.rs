//! Database failures as the domain's error: a lost connection or a locked
//! SQLite file is "try again" (503), a missing row "not found".

use crate::domain::error::Error;

impl From<diesel::result::Error> for Error {
    fn from(e: diesel::result::Error) -> Self {
        match e {
            diesel::result::Error::NotFound => Error::NotFound("No such record.".into()),
            // A PostgreSQL connection that is gone.
            diesel::result::Error::DatabaseError(_, ref info) if super::connection_lost(&e) => {
                Error::ConnectionLost(info.message().to_string())
            }
            // SQLite still busy after its busy timeout: the writer is swamped.
            diesel::result::Error::DatabaseError(_, info)
                if info.message().contains("database is locked") =>
            {
                Error::Unavailable(info.message().to_string())
            }
            e => Error::Internal(format!("database: {e}")),
        }
    }
}
