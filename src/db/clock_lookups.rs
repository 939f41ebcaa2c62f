//! Single columns of other tables that the clock sweeps read: a player's
//! time zone (`users.time_zone`) and a tournament's director. They belong
//! beside the users' and tournaments' rows once those have modules.

use crate::db::schema::{tournaments, users};
use crate::db::{per_backend, DbConn};
use crate::domain::error::Error;
use chrono_tz::Tz;
use diesel::prelude::*;
use std::collections::HashMap;

/// A player's time zone (UTC for one never set, or gone).
pub fn zone_of(conn: &mut DbConn, user_id: i32) -> Result<Tz, Error> {
    let name: Option<String> = per_backend!(conn, |c| users::table
        .find(user_id)
        .select(users::time_zone)
        .first(c)
        .optional())?;
    Ok(name.map_or(Tz::UTC, |n| crate::domain::week::zone_or_utc(&n)))
}

/// The time zones of several players in one query (those not found: none).
pub fn zones_of(conn: &mut DbConn, user_ids: &[i32]) -> Result<HashMap<i32, Tz>, Error> {
    let rows: Vec<(i32, String)> = users::table
        .filter(users::id.eq_any(user_ids))
        .select((users::id, users::time_zone))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(id, z)| (id, crate::domain::week::zone_or_utc(&z)))
        .collect())
}

/// A tournament's director (none for a tournament not found).
pub fn director_of(conn: &mut DbConn, tournament_id: i32) -> Result<Option<i32>, Error> {
    Ok(tournaments::table
        .find(tournament_id)
        .select(tournaments::director_id)
        .first(conn)
        .optional()?)
}
