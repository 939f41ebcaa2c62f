//! Clocks over the database: each game's clocks as they stand, leave
//! bookings and grants, and the sweeper that ends games on time and sends
//! reminders. The arithmetic is in [`crate::domain::time_control`].

use crate::db::models::{GameRow, LeaveBooking};
use crate::db::schema::{games, leave_bookings, leave_grants};
use crate::db::{per_backend, DbConn};
use crate::domain::error::Error;
use crate::domain::time_control::{self as clock, Interval, TimeControl};
use crate::game::games as gsvc;
use crate::mail::mail;
use chrono::{Datelike, NaiveDate, NaiveDateTime, TimeDelta};
use diesel::prelude::*;
use missive_rules::Color;

/// The reason code of a loss on time.
pub const TIME_FORFEIT: &str = "time-forfeit";
/// Leave days per calendar year when the configuration says nothing.
pub use crate::config::DEFAULT_LEAVE_DAYS;
/// Games looked at per sweep (the rest wait for the next pass).
pub const SWEEP_BATCH: i64 = 200;
/// Longest single booking, in days.
pub const MAX_BOOKING_DAYS: i64 = 366;

/// The game's time control, if it has a clock.
pub fn control_of(row: &GameRow) -> Result<Option<TimeControl>, Error> {
    match row.time_control.as_deref() {
        None => Ok(None),
        Some(text) => text.parse().map(Some).map_err(|e| {
            Error::internal(format!(
                "game {} has a bad time control {text:?}: {e}",
                row.id
            ))
        }),
    }
}

/// A side's stored bank.
pub fn bank_of(row: &GameRow, color: Color) -> i64 {
    match color {
        Color::Black => row.black_clock_secs,
        _ => row.white_clock_secs,
    }
    .unwrap_or(0)
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
) -> Result<std::collections::HashMap<i32, Vec<Interval>>, Error> {
    let rows: Vec<(i32, NaiveDate, NaiveDate)> = leave_bookings::table
        .filter(leave_bookings::user_id.eq_any(user_ids))
        .select((
            leave_bookings::user_id,
            leave_bookings::start_date,
            leave_bookings::end_date,
        ))
        .load(conn)?;
    let mut by_user = std::collections::HashMap::<i32, Vec<Interval>>::new();
    for (user, s, e) in rows {
        by_user.entry(user).or_default().push(Interval::days(s, e));
    }
    Ok(by_user)
}

/// One side's clock as it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideClock {
    /// Seconds left (0 once run out).
    pub left_secs: i64,
    /// This side's clock is running now (its turn, not on leave).
    pub running: bool,
    /// This side's player is on leave now.
    pub on_leave: bool,
}

/// A game's clocks at some moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameClock {
    pub control: TimeControl,
    pub white: SideClock,
    pub black: SideClock,
    /// When the side to move runs out, leave counted (none once the game is over).
    pub deadline: Option<NaiveDateTime>,
    /// The side to move, while the game is in progress.
    pub to_move: Option<Color>,
}

impl GameClock {
    pub fn side(&self, c: Color) -> &SideClock {
        match c {
            Color::Black => &self.black,
            _ => &self.white,
        }
    }
}

/// Where the mover's clock stands: their leave, time left, and deadline.
pub struct MoverClock {
    pub color: Color,
    pub user_id: i32,
    pub bank: i64,
    pub started: NaiveDateTime,
    pub leave: Vec<Interval>,
    pub deadline: NaiveDateTime,
}

impl MoverClock {
    pub fn left(&self, now: NaiveDateTime) -> i64 {
        clock::time_left(self.started, self.bank, now, &self.leave)
    }
    pub fn flagged(&self, now: NaiveDateTime) -> bool {
        now >= self.deadline
    }
}

/// The clock of the player to move in an active game with a clock.
pub fn mover_clock(conn: &mut DbConn, row: &GameRow) -> Result<Option<MoverClock>, Error> {
    let Some(user_id) = clocked_mover(row) else {
        return Ok(None);
    };
    let booked = booked_leave(conn, user_id)?;
    Ok(mover_clock_with(row, &booked))
}

/// The player to move, in an active game with a running clock.
fn clocked_mover(row: &GameRow) -> Option<i32> {
    if row.status != gsvc::ACTIVE || row.time_control.is_none() || row.turn_started_at.is_none() {
        return None;
    }
    gsvc::parse_color(&row.turn)?;
    gsvc::player_to_move(row)
}

/// [`mover_clock`] given the mover's booked leave, read once by a page that
/// lists many of one player's games.
pub fn mover_clock_with(row: &GameRow, booked: &[Interval]) -> Option<MoverClock> {
    let user_id = clocked_mover(row)?;
    let (color, started) = (gsvc::parse_color(&row.turn)?, row.turn_started_at?);
    let leave = clock::effective_leave(booked, row.leave_cap_days);
    let bank = bank_of(row, color);
    let deadline = clock::deadline(started, bank, &leave);
    Some(MoverClock {
        color,
        user_id,
        bank,
        started,
        leave,
        deadline,
    })
}

/// The game's clocks at `now` (`None`: no clock, or a challenge not yet accepted).
pub fn view(
    conn: &mut DbConn,
    row: &GameRow,
    now: NaiveDateTime,
) -> Result<Option<GameClock>, Error> {
    let Some(control) = control_of(row)? else {
        return Ok(None);
    };
    if row.turn_started_at.is_none() {
        return Ok(None);
    }
    // Leave matters only while the game is in progress: the mover's stops
    // their clock, the other's is shown.
    let booked = if row.status == gsvc::ACTIVE {
        booked_leave_of_players(conn, row)?
    } else {
        Default::default()
    };
    let of = |color: Color| match color {
        Color::Black => &booked[1],
        _ => &booked[0],
    };
    let mover = gsvc::parse_color(&row.turn).and_then(|c| mover_clock_with(row, of(c)));
    let side = |color: Color| -> SideClock {
        let on_leave = clock::effective_leave(of(color), row.leave_cap_days)
            .iter()
            .any(|i| i.contains(now));
        let (left, running) = match &mover {
            Some(m) if m.color == color => (m.left(now), !on_leave),
            _ => (bank_of(row, color), false),
        };
        SideClock {
            left_secs: left.max(0),
            running: running && left > 0,
            on_leave,
        }
    };
    Ok(Some(GameClock {
        control,
        white: side(Color::White),
        black: side(Color::Black),
        deadline: mover.as_ref().map(|m| m.deadline),
        to_move: mover.as_ref().map(|m| m.color),
    }))
}

/// White's and Black's booked leave, in one statement of fixed shape (a
/// game page shows both; on PostgreSQL one round trip). An empty seat has
/// none.
fn booked_leave_of_players(conn: &mut DbConn, row: &GameRow) -> Result<[Vec<Interval>; 2], Error> {
    let (white, black) = match (row.white_id, row.black_id) {
        (Some(w), Some(b)) => (w, b),
        (w, b) => {
            let mut each = |id: Option<i32>| id.map_or(Ok(Vec::new()), |id| booked_leave(conn, id));
            return Ok([each(w)?, each(b)?]);
        }
    };
    // Two lookups in one statement: `user_id IN (?, ?)` (and an OR, which
    // SQLite turns into it) builds a temporary index of the list on every
    // run (`callgrind`, the page's clocks: 25,800 instructions so, 9,800 as
    // two statements, 8,200 as this one).
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

/// "2 days 3 hours left; deadline 2026-03-04 12:00 UTC", for pages and mails.
pub fn describe_for(clock: &GameClock, color: Color) -> String {
    let side = clock.side(color);
    let mut s = format!("{} left", clock::describe(side.left_secs));
    if clock.to_move == Some(color) {
        if let Some(d) = clock.deadline {
            s.push_str(&format!("; deadline {}", clock::utc_minute(d)));
        }
    }
    if side.on_leave {
        s.push_str(" (on leave: the clock is stopped)");
    }
    s
}

// ---------------------------------------------------------------------------
// The sweeper

/// What one sweep did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Swept {
    /// Games this call ended on time.
    pub forfeits: usize,
    /// Reminders this call queued.
    pub reminders: usize,
}

/// End the games whose player to move has run out, and queue due reminders.
/// Safe with several sweepers at once: each game is ended (and each reminder
/// queued) by one conditional UPDATE. Returns the forfeits plus reminders
/// this call made.
pub fn sweep(conn: &mut DbConn, now: NaiveDateTime) -> Result<usize, Error> {
    let s = sweep_report(conn, now)?;
    Ok(s.forfeits + s.reminders)
}

/// [`sweep`], with the forfeits and reminders counted apart.
pub fn sweep_report(conn: &mut DbConn, now: NaiveDateTime) -> Result<Swept, Error> {
    let mut swept = Swept::default();
    // The stored deadline ignores leave, which only delays it: every game
    // out of time is among these, and each is rechecked with leave.
    let due: Vec<GameRow> = games::table
        .filter(games::status.eq(gsvc::ACTIVE))
        .filter(games::clock_deadline.le(now))
        .order(games::clock_deadline.asc())
        .limit(SWEEP_BATCH)
        .select(GameRow::as_select())
        .load(conn)?;
    for row in due {
        if forfeit_if_flagged(conn, &row, now)? {
            swept.forfeits += 1;
        }
    }
    // Games already reminded at their ply are left out in SQL, so that they
    // never fill the batch ahead of games still to remind.
    let remind: Vec<GameRow> = games::table
        .filter(games::status.eq(gsvc::ACTIVE))
        .filter(games::clock_remind_at.le(now))
        .filter(
            games::reminded_ply
                .is_null()
                .or(games::reminded_ply.ne(games::ply.nullable())),
        )
        .order(games::clock_remind_at.asc())
        .limit(SWEEP_BATCH)
        .select(GameRow::as_select())
        .load(conn)?;
    for row in remind {
        if remind_if_due(conn, &row, now)? {
            swept.reminders += 1;
        }
    }
    Ok(swept)
}

/// End `row` on time if its mover has run out at `now` (leave counted).
/// True when this call ended it.
pub fn forfeit_if_flagged(
    conn: &mut DbConn,
    row: &GameRow,
    now: NaiveDateTime,
) -> Result<bool, Error> {
    match mover_clock(conn, row)? {
        Some(m) if m.flagged(now) => forfeit(conn, row, &m, now),
        _ => Ok(false),
    }
}

/// End `row` as lost on time by the mover `m`, in a transaction of its own
/// (true when this call ended it; false when the game had already moved on
/// or ended).
pub fn forfeit(
    conn: &mut DbConn,
    row: &GameRow,
    m: &MoverClock,
    now: NaiveDateTime,
) -> Result<bool, Error> {
    conn.transaction::<_, Error, _>(|conn| lose_on_time(conn, row, m, now))
}

/// [`forfeit`] in the caller's transaction.
pub fn lose_on_time(
    conn: &mut DbConn,
    row: &GameRow,
    m: &MoverClock,
    now: NaiveDateTime,
) -> Result<bool, Error> {
    let result = if m.color == Color::White {
        "0-1"
    } else {
        "1-0"
    };
    gsvc::end_game(conn, row, result, TIME_FORFEIT, None, now)
}

/// Queue the mover's reminder if it is due at `now` and none was sent at
/// this ply. True when this call queued it.
pub fn remind_if_due(conn: &mut DbConn, row: &GameRow, now: NaiveDateTime) -> Result<bool, Error> {
    let Some(m) = mover_clock(conn, row)? else {
        return Ok(false);
    };
    if m.flagged(now) || now < clock::reminder_at(m.started, m.bank, &m.leave) {
        return Ok(false);
    }
    conn.transaction::<_, Error, _>(|conn| {
        let n = diesel::update(
            games::table
                .filter(games::id.eq(row.id))
                .filter(games::status.eq(gsvc::ACTIVE))
                .filter(games::ply.eq(row.ply))
                .filter(
                    games::reminded_ply
                        .is_null()
                        .or(games::reminded_ply.ne(row.ply)),
                ),
        )
        .set(games::reminded_ply.eq(Some(row.ply)))
        .execute(conn)?;
        if n == 0 {
            return Ok(false);
        }
        mail::enqueue(
            conn,
            mail::CLOCK_REMINDER,
            m.user_id,
            Some(row.id),
            Some(row.ply),
            &mail::Payload::default(),
            now,
        )?;
        Ok(true)
    })
}

// ---------------------------------------------------------------------------
// Leave

/// Leave days a user may book in `year`: the base allowance plus grants.
pub fn allowance(conn: &mut DbConn, user_id: i32, year: i32, base_days: i32) -> Result<i64, Error> {
    let granted: Vec<i32> = leave_grants::table
        .filter(leave_grants::user_id.eq(user_id))
        .filter(leave_grants::year.eq(year))
        .select(leave_grants::days)
        .load(conn)?;
    Ok(i64::from(base_days) + granted.into_iter().map(i64::from).sum::<i64>())
}

/// Leave days booked by a user in `year`.
pub fn days_booked(conn: &mut DbConn, user_id: i32, year: i32) -> Result<i64, Error> {
    Ok(bookings_of(conn, user_id)?
        .iter()
        .flat_map(|b| clock::days_per_year(b.start_date, b.end_date))
        .filter(|(y, _)| *y == year)
        .map(|(_, d)| d)
        .sum())
}

/// A user's bookings, earliest first.
pub fn bookings_of(conn: &mut DbConn, user_id: i32) -> Result<Vec<LeaveBooking>, Error> {
    Ok(leave_bookings::table
        .filter(leave_bookings::user_id.eq(user_id))
        .order(leave_bookings::start_date.asc())
        .select(LeaveBooking::as_select())
        .load(conn)?)
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
    conn.transaction::<_, Error, _>(|conn| {
        let reason = crate::web::clip(reason.trim(), 500);
        Ok(per_backend!(conn, |c| diesel::insert_into(
            leave_grants::table
        )
        .values((
            leave_grants::user_id.eq(user_id),
            leave_grants::year.eq(year),
            leave_grants::days.eq(days),
            leave_grants::granted_by.eq(Some(granted_by)),
            leave_grants::reason.eq(&reason),
            leave_grants::created_at.eq(now),
        ))
        .returning(leave_grants::id)
        .get_result(c))?)
    })
}

/// Read a `YYYY-MM-DD` form field.
pub fn parse_day(what: &str, text: &str) -> Result<NaiveDate, Error> {
    NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d").map_err(|_| {
        Error::Invalid(format!(
            "The {what} date “{}” is not a date: write it as YYYY-MM-DD.",
            crate::web::clip(text.trim(), 20)
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
    for (year, days) in clock::days_per_year(start, end) {
        let allowed = allowance(conn, user_id, year, base_days)?;
        let used = days_booked(conn, user_id, year)?;
        if used + days > allowed {
            return Err(Error::Invalid(format!(
                "That is {days} days of leave in {year}, but only {} of your {allowed} days are left.",
                (allowed - used).max(0)
            )));
        }
    }
    conn.transaction::<_, Error, _>(|conn| {
        let id: i32 = per_backend!(conn, |c| diesel::insert_into(leave_bookings::table)
            .values((
                leave_bookings::user_id.eq(user_id),
                leave_bookings::start_date.eq(start),
                leave_bookings::end_date.eq(end),
                leave_bookings::created_at.eq(now),
            ))
            .returning(leave_bookings::id)
            .get_result(c))?;
        let payload = mail::Payload {
            from_user: Some(user_id),
            leave_start: Some(start.format("%Y-%m-%d").to_string()),
            leave_end: Some(end.format("%Y-%m-%d").to_string()),
            ..Default::default()
        };
        for opponent in active_opponents(conn, user_id)? {
            mail::enqueue(
                conn,
                mail::LEAVE_BOOKED,
                opponent,
                None,
                None,
                &payload,
                now,
            )?;
        }
        Ok(id)
    })
}

/// The distinct opponents of a user in their active games.
pub fn active_opponents(conn: &mut DbConn, user_id: i32) -> Result<Vec<i32>, Error> {
    let rows: Vec<(Option<i32>, Option<i32>)> = games::table
        .filter(games::status.eq(gsvc::ACTIVE))
        .filter(games::white_id.eq(user_id).or(games::black_id.eq(user_id)))
        .select((games::white_id, games::black_id))
        .load(conn)?;
    let mut out: Vec<i32> = rows
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
    let booking: Option<LeaveBooking> = leave_bookings::table
        .find(booking_id)
        .select(LeaveBooking::as_select())
        .first(conn)
        .optional()?;
    let Some(b) = booking.filter(|b| b.user_id == user_id) else {
        return Err(Error::NotFound("You have no such leave booking.".into()));
    };
    if b.start_date <= now.date() {
        return Err(Error::Invalid(
            "This leave has already begun: it can no longer be cancelled.".into(),
        ));
    }
    diesel::delete(
        leave_bookings::table
            .filter(leave_bookings::id.eq(b.id))
            .filter(leave_bookings::user_id.eq(user_id)),
    )
    .execute(conn)?;
    Ok(())
}

/// The year of a moment, for allowance pages.
pub fn year_of(now: NaiveDateTime) -> i32 {
    now.date().year()
}
