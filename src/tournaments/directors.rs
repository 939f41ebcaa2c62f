//! Tournament directors: who may direct, and the leave they grant.

use crate::db::models::TournamentRow;
use crate::db::schema::users;
use crate::db::users::User;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::tournaments::rows::{entrant, int_field, load, named_player};
use crate::util::clip;
use chrono::NaiveDateTime;
use diesel::prelude::*;

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
    let t = load(conn, tid)?;
    require_director_of(Some(director), &t)?;
    let u = named_player(conn, player)?;
    if entrant(conn, tid, u.id)?.is_none() {
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
    diesel::update(users::table.find(u.id))
        .set(users::is_director.eq(on))
        .execute(conn)?;
    Ok(User {
        is_director: on,
        ..u
    })
}
