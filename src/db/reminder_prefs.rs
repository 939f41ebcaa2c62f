//! Reminders a player chooses (issue 40): their thresholds of time left,
//! one row a player in `reminder_prefs`.

use crate::db::schema::reminder_prefs;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::reminders::{self, Threshold};
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// A player's thresholds; `None`: the default single reminder.
pub fn of(conn: &mut DbConn, user_id: i32) -> Result<Option<Vec<Threshold>>, Error> {
    let stored: Option<String> = reminder_prefs::table
        .find(user_id)
        .select(reminder_prefs::thresholds)
        .first(conn)
        .optional()?;
    // Only what `clocks::reminders::save` accepted is stored; should a row
    // not read, the default reminder still comes.
    Ok(stored.and_then(|t| reminders::parse(&t).ok().flatten()))
}

/// Replace a player's thresholds (`None`: back to the default).
pub fn replace(
    conn: &mut DbConn,
    user_id: i32,
    thresholds: Option<&[Threshold]>,
    now: NaiveDateTime,
) -> Result<(), Error> {
    diesel::delete(reminder_prefs::table.find(user_id)).execute(conn)?;
    if let Some(thresholds) = thresholds {
        diesel::insert_into(reminder_prefs::table)
            .values((
                reminder_prefs::user_id.eq(user_id),
                reminder_prefs::thresholds.eq(reminders::describe(thresholds)),
                reminder_prefs::updated_at.eq(now),
            ))
            .execute(conn)?;
    }
    Ok(())
}
