//! Accounts' rows (`users`) and the queries on them.

use crate::db::schema::users;
use crate::db::DbConn;
use chrono::NaiveDateTime;
use diesel::prelude::*;

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = users)]
pub struct User {
    pub id: i32,
    pub username: String,
    pub username_key: String,
    pub email: String,
    pub password_hash: String,
    pub confirm_moves: bool,
    pub created_at: NaiveDateTime,
    /// May create and direct tournaments (granted from the command line).
    pub is_director: bool,
    /// Set by an operator (`missive user disable`): no login, no play link.
    pub disabled_at: Option<NaiveDateTime>,
    /// The account was deleted; the row stays, renamed, for its games.
    pub deleted_at: Option<NaiveDateTime>,
    /// The player's IANA time zone: their weekends, and how deadlines are
    /// shown to them (issue 64).
    pub time_zone: String,
}

#[derive(Insertable)]
#[diesel(table_name = users)]
pub struct NewUser<'a> {
    pub username: &'a str,
    pub username_key: &'a str,
    pub email: &'a str,
    pub password_hash: &'a str,
    pub confirm_moves: bool,
    pub created_at: NaiveDateTime,
}

/// How usernames compare: case-insensitively.
pub fn username_key(name: &str) -> String {
    name.trim().to_ascii_lowercase()
}

/// Store a new account (a taken name is a unique violation).
pub fn insert(conn: &mut DbConn, new: &NewUser) -> QueryResult<usize> {
    diesel::insert_into(users::table).values(new).execute(conn)
}

/// The account whose name compares equal to `name` ([`username_key`]).
pub fn find_by_name(conn: &mut DbConn, name: &str) -> QueryResult<Option<User>> {
    users::table
        .filter(users::username_key.eq(username_key(name)))
        .select(User::as_select())
        .first(conn)
        .optional()
}

pub fn find_by_id(conn: &mut DbConn, id: i32) -> QueryResult<Option<User>> {
    users::table
        .find(id)
        .select(User::as_select())
        .first(conn)
        .optional()
}

pub fn set_confirm_moves(conn: &mut DbConn, user_id: i32, on: bool) -> QueryResult<()> {
    diesel::update(users::table.find(user_id))
        .set(users::confirm_moves.eq(on))
        .execute(conn)?;
    Ok(())
}

pub fn set_password_hash(conn: &mut DbConn, user_id: i32, hash: &str) -> QueryResult<usize> {
    diesel::update(users::table.find(user_id))
        .set(users::password_hash.eq(hash))
        .execute(conn)
}

pub fn set_email(conn: &mut DbConn, user_id: i32, email: &str) -> QueryResult<usize> {
    diesel::update(users::table.find(user_id))
        .set(users::email.eq(email))
        .execute(conn)
}

/// Store the account's time zone (its canonical IANA name).
pub fn set_time_zone(conn: &mut DbConn, user_id: i32, zone: &str) -> QueryResult<usize> {
    diesel::update(users::table.find(user_id))
        .set(users::time_zone.eq(zone))
        .execute(conn)
}

/// Put the operators' hold on an account (a held one keeps its date).
pub fn disable(conn: &mut DbConn, user_id: i32, now: NaiveDateTime) -> QueryResult<usize> {
    diesel::update(users::table.find(user_id))
        .filter(users::disabled_at.is_null())
        .set(users::disabled_at.eq(Some(now)))
        .execute(conn)
}

/// Lift the operators' hold.
pub fn enable(conn: &mut DbConn, user_id: i32) -> QueryResult<usize> {
    diesel::update(users::table.find(user_id))
        .set(users::disabled_at.eq(None::<NaiveDateTime>))
        .execute(conn)
}

/// The directors, by name, for the administrators' page.
pub fn director_names(conn: &mut DbConn) -> QueryResult<Vec<String>> {
    users::table
        .filter(users::is_director.eq(true))
        .filter(users::deleted_at.is_null())
        .order(users::username_key.asc())
        .select(users::username)
        .load(conn)
}

/// A deleted account's row: renamed `name`, without address or role. An
/// empty hash matches no password, so the row can never log in.
pub fn mark_deleted(
    conn: &mut DbConn,
    user_id: i32,
    name: &str,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(users::table.find(user_id))
        .set((
            users::username.eq(name),
            users::username_key.eq(name),
            users::email.eq(""),
            users::password_hash.eq(""),
            users::is_director.eq(false),
            users::deleted_at.eq(Some(now)),
        ))
        .execute(conn)
}

/// A player's time zone (UTC for one never set, or gone).
pub fn zone_of(
    conn: &mut DbConn,
    user_id: i32,
) -> Result<chrono_tz::Tz, crate::domain::error::Error> {
    let name: Option<String> = crate::db::per_backend!(conn, |c| users::table
        .find(user_id)
        .select(users::time_zone)
        .first(c)
        .optional())?;
    Ok(name.map_or(chrono_tz::Tz::UTC, |n| crate::domain::week::zone_or_utc(&n)))
}

/// The time zones of several players in one query (those not found: none).
pub fn zones_of(
    conn: &mut DbConn,
    user_ids: &[i32],
) -> Result<std::collections::HashMap<i32, chrono_tz::Tz>, crate::domain::error::Error> {
    let rows: Vec<(i32, String)> = users::table
        .filter(users::id.eq_any(user_ids))
        .select((users::id, users::time_zone))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(id, z)| (id, crate::domain::week::zone_or_utc(&z)))
        .collect())
}

/// The user's own words and plans go (the account is deleted): notes,
/// leave, queued mail, and adjudication requests still open (a decided
/// one's note is part of the tournament's record and stays).
pub fn erase_personal(conn: &mut DbConn, user_id: i32) -> Result<(), crate::domain::error::Error> {
    let id = user_id;
    diesel::delete(
        crate::db::schema::game_notes::table.filter(crate::db::schema::game_notes::user_id.eq(id)),
    )
    .execute(conn)?;
    diesel::delete(
        crate::db::schema::leave_bookings::table
            .filter(crate::db::schema::leave_bookings::user_id.eq(id)),
    )
    .execute(conn)?;
    diesel::delete(
        crate::db::schema::leave_grants::table
            .filter(crate::db::schema::leave_grants::user_id.eq(id)),
    )
    .execute(conn)?;
    diesel::delete(
        crate::db::schema::email_outbox::table
            .filter(crate::db::schema::email_outbox::user_id.eq(id)),
    )
    .execute(conn)?;
    diesel::delete(
        crate::db::schema::adjudication_requests::table
            .filter(crate::db::schema::adjudication_requests::user_id.eq(id))
            .filter(crate::db::schema::adjudication_requests::resolved_at.is_null()),
    )
    .execute(conn)?;
    Ok(())
}

/// The names of every player of the games, by id.
pub fn player_names(
    conn: &mut DbConn,
    games: &[crate::db::games::GameRow],
) -> Result<std::collections::HashMap<i32, String>, crate::domain::error::Error> {
    let mut ids: Vec<i32> = games
        .iter()
        .flat_map(|r| [r.white_id, r.black_id])
        .flatten()
        .collect();
    ids.sort_unstable();
    ids.dedup();
    user_names(conn, &ids)
}

/// The usernames of the users `ids`, by id.
pub fn user_names(
    conn: &mut DbConn,
    ids: &[i32],
) -> Result<std::collections::HashMap<i32, String>, crate::domain::error::Error> {
    let rows: Vec<(i32, String)> = match *ids {
        // A game's players (at most four seats): one query of fixed shape,
        // which diesel keeps prepared; an `IN` list of varying length is
        // compiled again on every call on SQLite.
        [] => Vec::new(),
        [a] | [a, ..] if ids.len() <= 4 => {
            let at = |i: usize| ids.get(i).copied().unwrap_or(a);
            crate::db::per_backend!(conn, |c| users::table
                .filter(
                    users::id
                        .eq(at(0))
                        .or(users::id.eq(at(1)))
                        .or(users::id.eq(at(2)))
                        .or(users::id.eq(at(3))),
                )
                .select((users::id, users::username))
                .load(c))?
        }
        _ => users::table
            .filter(users::id.eq_any(ids))
            .select((users::id, users::username))
            .load(conn)?,
    };
    Ok(rows.into_iter().collect())
}
