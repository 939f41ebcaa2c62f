//! Leave: booking and cancelling days off, allowances per year, and the
//! mails to opponents.

use crate::db::game_events;
use crate::db::leave::{self, bookings_of, NewGrant};
use crate::db::{game_clocks, outbox, DbConn};
use crate::domain::error::Error;
use crate::domain::game_event::EventKind;
use crate::domain::mail_kind::Mail;
use chrono::{Datelike, NaiveDate, NaiveDateTime, TimeDelta};

/// Leave days per calendar year when the configuration says nothing.
pub const DEFAULT_LEAVE_DAYS: i32 = crate::config::DEFAULT_LEAVE_DAYS;

/// Longest single booking, in days.
pub const MAX_BOOKING_DAYS: i64 = 366;

// ---------------------------------------------------------------------------
// Leave

/// Leave days a user may book in `year`: the base allowance plus grants.
pub fn allowance(conn: &mut DbConn, user_id: i32, year: i32, base_days: i32) -> Result<i64, Error> {
    let granted = leave::granted_days(conn, user_id, year)?;
    Ok(i64::from(base_days) + granted.into_iter().map(i64::from).sum::<i64>())
}

/// Leave days booked by a user in `year`.
pub fn days_booked(conn: &mut DbConn, user_id: i32, year: i32) -> Result<i64, Error> {
    Ok(bookings_of(conn, user_id)?
        .iter()
        .flat_map(|b| crate::domain::running_time::days_per_year(b.start_date, b.end_date))
        .filter(|(y, _)| *y == year)
        .map(|(_, d)| d)
        .sum())
}

/// Give a player `days` more leave in `year` (a tournament director's grant).
pub fn grant_leave(
    conn: &mut DbConn,
    user_id: i32,
    year: i32,
    days: i32,
    granted_by: i32,
    reason: &str,
    now: NaiveDateTime,
) -> Result<i32, Error> {
    if !(1..=366).contains(&days) {
        return Err(Error::Invalid(
            "Grant between 1 and 366 days of leave.".into(),
        ));
    }
    if !(2000..=9999).contains(&year) {
        return Err(Error::Invalid("That year cannot be used.".into()));
    }
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        let reason = crate::util::clip(reason.trim(), 500);
        let grant = NewGrant {
            user_id,
            year,
            days,
            granted_by,
            reason: &reason,
        };
        leave::insert_grant(conn, &grant, now)
    })
}

/// Read a `YYYY-MM-DD` form field.
pub fn parse_day(what: &str, text: &str) -> Result<NaiveDate, Error> {
    NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d").map_err(|_| {
        Error::Invalid(format!(
            "The {what} date “{}” is not a date: write it as YYYY-MM-DD.",
            crate::util::clip(text.trim(), 20)
        ))
    })
}

/// Book leave for whole UTC days `start..=end`: ahead only (from tomorrow),
/// within each year's allowance. Opponents in the user's active games are
/// told by mail.
pub fn book_leave(
    conn: &mut DbConn,
    user_id: i32,
    start: NaiveDate,
    end: NaiveDate,
    base_days: i32,
    now: NaiveDateTime,
) -> Result<i32, Error> {
    let tomorrow = now.date() + TimeDelta::days(1);
    if start < tomorrow {
        return Err(Error::Invalid(format!(
            "Leave is booked ahead: the first day must be {} or later.",
            tomorrow.format("%Y-%m-%d")
        )));
    }
    if end < start {
        return Err(Error::Invalid(
            "The last day of leave comes before the first.".into(),
        ));
    }
    if (end - start).num_days() + 1 > MAX_BOOKING_DAYS {
        return Err(Error::Invalid(format!(
            "One booking is at most {MAX_BOOKING_DAYS} days."
        )));
    }
    let existing = bookings_of(conn, user_id)?;
    if existing
        .iter()
        .any(|b| b.start_date <= end && start <= b.end_date)
    {
        return Err(Error::Invalid(
            "These days overlap leave you have already booked.".into(),
        ));
    }
    for (year, days) in crate::domain::running_time::days_per_year(start, end) {
        let allowed = allowance(conn, user_id, year, base_days)?;
        let used = days_booked(conn, user_id, year)?;
        if used + days > allowed {
            return Err(Error::Invalid(format!(
                "That is {days} days of leave in {year}, but only {} of your {allowed} days are left.",
                (allowed - used).max(0)
            )));
        }
    }
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        let id = leave::insert_booking(conn, user_id, start, end, now)?;
        let booked = Mail::LeaveBooked {
            from: user_id,
            first_day: start,
            last_day: end,
        };
        for opponent in active_opponents(conn, user_id)? {
            outbox::enqueue(conn, opponent, &booked, now)?;
        }
        // Each running game's history says why its clock will stop.
        let running = game_clocks::running_ids_of(conn, user_id)?;
        let detail = format!("leave booked from {start} to {end}");
        for game in running {
            game_events::record(conn, game, Some(user_id), EventKind::Leave, &detail, now)?;
        }
        Ok(id)
    })
}

/// The distinct opponents of a user in their active games.
pub fn active_opponents(conn: &mut DbConn, user_id: i32) -> Result<Vec<i32>, Error> {
    let seats = game_clocks::running_seats_of(conn, user_id)?;
    let mut out: Vec<i32> = seats
        .into_iter()
        .flat_map(|(w, b)| [w, b])
        .flatten()
        .filter(|p| *p != user_id)
        .collect();
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// Cancel a booking that has not started yet.
pub fn cancel_leave(
    conn: &mut DbConn,
    user_id: i32,
    booking_id: i32,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let booking = leave::booking(conn, booking_id)?;
    let Some(b) = booking.filter(|b| b.user_id == user_id) else {
        return Err(Error::NotFound("You have no such leave booking.".into()));
    };
    if b.start_date <= now.date() {
        return Err(Error::Invalid(
            "This leave has already begun: it can no longer be cancelled.".into(),
        ));
    }
    leave::delete_booking(conn, b.id, user_id)
}

/// The year of a moment, for allowance pages.
pub fn year_of(now: NaiveDateTime) -> i32 {
    now.date().year()
}
