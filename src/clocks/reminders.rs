//! Reminders a player chooses (issue 40): their thresholds of time left,
//! kept in `reminder_prefs`, and when a turn's reminders are due. The
//! sweep that sends them is in `forfeit`.

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
    // Only what `save` accepted is stored; should a row not read, the
    // default reminder still comes.
    Ok(stored.and_then(|t| reminders::parse(&t).ok().flatten()))
}

/// Store the thresholds typed in the settings form (empty: back to the
/// default). The error says what is wrong with the text.
pub fn save(conn: &mut DbConn, user_id: i32, text: &str, now: NaiveDateTime) -> Result<(), Error> {
    let parsed = reminders::parse(text).map_err(Error::Invalid)?;
    diesel::delete(reminder_prefs::table.find(user_id)).execute(conn)?;
    if let Some(thresholds) = parsed {
        diesel::insert_into(reminder_prefs::table)
            .values((
                reminder_prefs::user_id.eq(user_id),
                reminder_prefs::thresholds.eq(reminders::describe(&thresholds)),
                reminder_prefs::updated_at.eq(now),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// When the first reminder of `user_id`'s turn begun at `from` with `bank`
/// may be due, leave not counted (leave only puts it later): what the game
/// row keeps for the sweep to find it by. `None`: no reminder this turn.
pub fn first_at(
    conn: &mut DbConn,
    user_id: Option<i32>,
    from: NaiveDateTime,
    bank: i64,
) -> Result<Option<NaiveDateTime>, Error> {
    let thresholds = match user_id {
        Some(id) => of(conn, id)?,
        None => None,
    };
    Ok(reminders::due_at(thresholds.as_deref(), from, bank, &[], 0))
}
