//! Administrators (issue 63): they grant and remove the director role on
//! a page instead of the command line. The first administrator is made
//! with `missive user grant-admin NAME`.

use crate::db::administrators::{self, is_admin};
use crate::db::users::{find_by_name, User};
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::util::clip;
use chrono::NaiveDateTime;

/// The user, if an administrator; 403 with the reason otherwise.
pub fn require_admin<'a>(conn: &mut DbConn, user: Option<&'a User>) -> Result<&'a User, Error> {
    match user {
        Some(u) if is_admin(conn, u.id)? => Ok(u),
        Some(_) => Err(Error::Forbidden(
            "Only the server's administrators may do this; an operator makes one with \
             `missive user grant-admin NAME`."
                .into(),
        )),
        None => Err(Error::Forbidden(
            "Only the server's administrators may do this: log in as one.".into(),
        )),
    }
}

/// Make `name` an administrator, or no longer one (the command line's).
pub fn set_admin(
    conn: &mut DbConn,
    name: &str,
    on: bool,
    now: NaiveDateTime,
) -> Result<User, Error> {
    let u = find_by_name(conn, name)?
        .ok_or_else(|| Error::NotFound(format!("There is no user named “{}”.", clip(name, 40))))?;
    if on {
        if !is_admin(conn, u.id)? {
            administrators::grant(conn, u.id, now)?;
        }
    } else {
        administrators::remove(conn, u.id)?;
    }
    Ok(u)
}

/// An administrator grants (`on`) or removes the director role of `name`.
/// Tournaments a former director created keep running; only a director
/// acts on them.
pub fn set_director_role(
    conn: &mut DbConn,
    admin: &User,
    name: &str,
    on: bool,
) -> Result<User, Error> {
    require_admin(conn, Some(admin))?;
    let name = name.trim();
    if name.is_empty() {
        return Err(Error::Invalid("Give the player's username.".into()));
    }
    let u = find_by_name(conn, name)?.ok_or_else(|| {
        Error::Invalid(format!(
            "There is no user named “{}”: check the spelling.",
            clip(name, 40)
        ))
    })?;
    if u.deleted_at.is_some() {
        return Err(Error::Invalid("That account was deleted.".into()));
    }
    if u.is_director == on {
        return Err(Error::Conflict(if on {
            format!("{} is already a director.", u.username)
        } else {
            format!("{} is not a director.", u.username)
        }));
    }
    crate::tournaments::directors::set_director(conn, &u.username, on)
}
