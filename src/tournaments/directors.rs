//! Tournament directors: who may direct, and the leave they grant.

use crate::db::tournaments::{self, TournamentRow};
use crate::db::users::User;
use crate::db::{entrants, DbConn};
use crate::domain::error::Error;
use crate::domain::form_fields::int_field;
use crate::util::clip;
use chrono::NaiveDateTime;

// ---------------------------------------------------------------------------
// Directors

/// The user, if they are a director; 403 with the reason otherwise.
pub fn require_director(user: Option<&User>) -> Result<&User, Error> {
    match user {
        Some(u) if u.is_director => Ok(u),
        Some(_) => Err(Error::Forbidden(
            "Only tournament directors may do this; the director role is granted by the \
             server's administrator."
                .into(),
        )),
        None => Err(Error::Forbidden(
            "Only tournament directors may do this: log in as a director.".into(),
        )),
    }
}

/// A director directs the tournaments they created, and only those.
pub fn require_director_of<'a>(
    user: Option<&'a User>,
    t: &TournamentRow,
) -> Result<&'a User, Error> {
    let u = require_director(user)?;
    if t.director_id != u.id {
        return Err(Error::Forbidden(format!(
            "You do not direct “{}”: only the director who created a tournament directs it.",
            t.name
        )));
    }
    Ok(u)
}

/// A director grants a player of their tournament extra leave days this year.
pub fn grant_leave(
    conn: &mut DbConn,
    tid: i32,
    director: &User,
    player: &str,
    days: &str,
    reason: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let t = tournaments::load(conn, tid)?;
    require_director_of(Some(director), &t)?;
    let u = named_player(conn, player)?;
    if entrants::find(conn, tid, u.id)?.is_none() {
        return Err(Error::Invalid(format!(
            "{} is not in this tournament.",
            u.username
        )));
    }
    let days = int_field(days, "number of days", 0, (1, 365))?;
    let year = chrono::Datelike::year(&now.date());
    crate::clocks::leave::grant_leave(conn, u.id, year, days, director.id, reason.trim(), now)?;
    Ok(())
}

/// Directors by name, for the CLI.
pub fn set_director(conn: &mut DbConn, name: &str, on: bool) -> Result<User, Error> {
    let u = crate::db::users::find_by_name(conn, name)?
        .ok_or_else(|| Error::NotFound(format!("There is no user named “{}”.", clip(name, 40))))?;
    crate::db::directors::set(conn, u.id, on)?;
    Ok(User {
        is_director: on,
        ..u
    })
}

/// The player a director's form names; refused when there is none.
pub fn named_player(conn: &mut DbConn, name: &str) -> Result<User, Error> {
    crate::db::users::find_by_name(conn, name.trim())?.ok_or_else(|| {
        Error::Invalid(format!(
            "There is no player named “{}”.",
            clip(name.trim(), 40)
        ))
    })
}
