//! Leave's rows: the days a player booked off (`leave_bookings`) and the
//! extra days directors granted (`leave_grants`), and the queries on them.
//! The rules (ahead only, within the allowance) are `clocks::leave`'s.

use crate::db::schema::{leave_bookings, leave_grants};
use crate::db::{per_backend, DbConn};
use crate::domain::error::Error;
use crate::domain::running_time::Interval;
use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use std::collections::HashMap;

#[derive(Queryable, Selectable, Clone, Debug, PartialEq, Eq)]
#[diesel(table_name = leave_bookings)]
pub struct LeaveBooking {
    pub id: i32,
    pub user_id: i32,
    /// First day of leave (UTC), included.
    pub start_date: NaiveDate,
    /// Last day of leave (UTC), included.
    pub end_date: NaiveDate,
    pub created_at: NaiveDateTime,
}

/// A user's bookings, earliest first.
pub fn bookings_of(conn: &mut DbConn, user_id: i32) -> Result<Vec<LeaveBooking>, Error> {
    Ok(leave_bookings::table
        .filter(leave_bookings::user_id.eq(user_id))
        .order(leave_bookings::start_date.asc())
        .select(LeaveBooking::as_select())
        .load(conn)?)
}

/// One booking, whoever's it is.
pub fn booking(conn: &mut DbConn, id: i32) -> Result<Option<LeaveBooking>, Error> {
    Ok(leave_bookings::table
        .find(id)
        .select(LeaveBooking::as_select())
        .first(conn)
        .optional()?)
}

/// Book `start..=end` for `user_id`; the new booking's id.
pub fn insert_booking(
    conn: &mut DbConn,
    user_id: i32,
    start: NaiveDate,
    end: NaiveDate,
    now: NaiveDateTime,
) -> Result<i32, Error> {
    Ok(per_backend!(conn, |c| diesel::insert_into(
        leave_bookings::table
    )
    .values((
        leave_bookings::user_id.eq(user_id),
        leave_bookings::start_date.eq(start),
        leave_bookings::end_date.eq(end),
        leave_bookings::created_at.eq(now),
    ))
    .returning(leave_bookings::id)
    .get_result(c))?)
}

/// Delete booking `id` if it is `user_id`'s.
pub fn delete_booking(conn: &mut DbConn, id: i32, user_id: i32) -> Result<(), Error> {
    diesel::delete(
        leave_bookings::table
            .filter(leave_bookings::id.eq(id))
            .filter(leave_bookings::user_id.eq(user_id)),
    )
    .execute(conn)?;
    Ok(())
}

/// Every leave booking of a user, as intervals.
pub fn booked_leave(conn: &mut DbConn, user_id: i32) -> Result<Vec<Interval>, Error> {
    // One user: an `=` that diesel keeps prepared (this is on the move and
    // game-page paths); `booked_leave_of`'s `IN` list is compiled each time.
    let rows: Vec<(NaiveDate, NaiveDate)> = per_backend!(conn, |c| leave_bookings::table
        .filter(leave_bookings::user_id.eq(user_id))
        .select((leave_bookings::start_date, leave_bookings::end_date))
        .load(c))?;
    Ok(rows
        .into_iter()
        .map(|(s, e)| Interval::days(s, e))
        .collect())
}

/// The booked leave of several users in one query (users without any have
/// no entry).
pub fn booked_leave_of(
    conn: &mut DbConn,
    user_ids: &[i32],
) -> Result<HashMap<i32, Vec<Interval>>, Error> {
    let rows: Vec<(i32, NaiveDate, NaiveDate)> = leave_bookings::table
        .filter(leave_bookings::user_id.eq_any(user_ids))
        .select((
            leave_bookings::user_id,
            leave_bookings::start_date,
            leave_bookings::end_date,
        ))
        .load(conn)?;
    let mut by_user = HashMap::<i32, Vec<Interval>>::new();
    for (user, s, e) in rows {
        by_user.entry(user).or_default().push(Interval::days(s, e));
    }
    Ok(by_user)
}

/// The booked leave of a game's White and Black, in one statement of fixed
/// shape (a game page shows both; on PostgreSQL one round trip). An empty
/// seat has none.
pub fn booked_leave_of_players(
    conn: &mut DbConn,
    white: Option<i32>,
    black: Option<i32>,
) -> Result<[Vec<Interval>; 2], Error> {
    let (white, black) = match (white, black) {
        (Some(w), Some(b)) => (w, b),
        (w, b) => {
            let mut each = |id: Option<i32>| id.map_or(Ok(Vec::new()), |id| booked_leave(conn, id));
            return Ok([each(w)?, each(b)?]);
        }
    };
    // Two lookups in one statement: `user_id IN (?, ?)` (and an OR, which
    // SQLite turns into it) builds a temporary index of the list on every
    // run, which costs more than the lookups (docs/performance.md).
    let of = |user: i32| {
        leave_bookings::table
            .filter(leave_bookings::user_id.eq(user))
            .select((
                leave_bookings::user_id,
                leave_bookings::start_date,
                leave_bookings::end_date,
            ))
    };
    let rows: Vec<(i32, NaiveDate, NaiveDate)> =
        per_backend!(conn, |c| of(white).union_all(of(black)).load(c))?;
    let mut booked: [Vec<Interval>; 2] = Default::default();
    for (user, s, e) in rows {
        // A game against oneself is refused, so a row is one side's.
        let seat = if user == white { 0 } else { 1 };
        booked[seat].push(Interval::days(s, e));
    }
    Ok(booked)
}

/// The days granted to a user for `year`, one entry a grant.
pub fn granted_days(conn: &mut DbConn, user_id: i32, year: i32) -> Result<Vec<i32>, Error> {
    Ok(leave_grants::table
        .filter(leave_grants::user_id.eq(user_id))
        .filter(leave_grants::year.eq(year))
        .select(leave_grants::days)
        .load(conn)?)
}

/// A new grant of leave.
pub struct NewGrant<'a> {
    pub user_id: i32,
    pub year: i32,
    pub days: i32,
    pub granted_by: i32,
    pub reason: &'a str,
}

/// Store a grant; its id.
pub fn insert_grant(conn: &mut DbConn, g: &NewGrant, now: NaiveDateTime) -> Result<i32, Error> {
    Ok(per_backend!(conn, |c| diesel::insert_into(
        leave_grants::table
    )
    .values((
        leave_grants::user_id.eq(g.user_id),
        leave_grants::year.eq(g.year),
        leave_grants::days.eq(g.days),
        leave_grants::granted_by.eq(Some(g.granted_by)),
        leave_grants::reason.eq(g.reason),
        leave_grants::created_at.eq(now),
    ))
    .returning(leave_grants::id)
    .get_result(c))?)
}

/// The user's leave bookings ending on `from` or later, by first day: (id,
/// first day, last day, booked at).
pub fn bookings_from(
    conn: &mut DbConn,
    user_id: i32,
    from: chrono::NaiveDate,
) -> Result<
    Vec<(
        i32,
        chrono::NaiveDate,
        chrono::NaiveDate,
        chrono::NaiveDateTime,
    )>,
    crate::domain::error::Error,
> {
    Ok(crate::db::schema::leave_bookings::table
        .filter(crate::db::schema::leave_bookings::user_id.eq(user_id))
        .filter(crate::db::schema::leave_bookings::end_date.ge(from))
        .order(crate::db::schema::leave_bookings::start_date.asc())
        .select((
            crate::db::schema::leave_bookings::id,
            crate::db::schema::leave_bookings::start_date,
            crate::db::schema::leave_bookings::end_date,
            crate::db::schema::leave_bookings::created_at,
        ))
        .load(conn)?)
}

/// Extra leave days granted to the user: (year, days, reason, granted at).
pub fn grants_of(
    conn: &mut DbConn,
    user_id: i32,
) -> Result<Vec<(i32, i32, String, chrono::NaiveDateTime)>, crate::domain::error::Error> {
    Ok(crate::db::schema::leave_grants::table
        .filter(crate::db::schema::leave_grants::user_id.eq(user_id))
        .order(crate::db::schema::leave_grants::id.asc())
        .select((
            crate::db::schema::leave_grants::year,
            crate::db::schema::leave_grants::days,
            crate::db::schema::leave_grants::reason,
            crate::db::schema::leave_grants::created_at,
        ))
        .load(conn)?)
}
