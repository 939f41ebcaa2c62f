//! Reminders a player chooses (issue 40): their thresholds of time left,
//! kept in `reminder_prefs` (`db::reminder_prefs`), and when a turn's
//! reminders are due. The sweep that sends them is in `forfeit`.

use crate::db::{reminder_prefs, DbConn};
use crate::domain::error::Error;
use crate::domain::reminders;
use chrono::NaiveDateTime;

/// Store the thresholds typed in the settings form (empty: back to the
/// default). The error says what is wrong with the text.
pub fn save(conn: &mut DbConn, user_id: i32, text: &str, now: NaiveDateTime) -> Result<(), Error> {
    let parsed = reminders::parse(text).map_err(Error::Invalid)?;
    reminder_prefs::replace(conn, user_id, parsed.as_deref(), now)
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
        Some(id) => reminder_prefs::of(conn, id)?,
        None => None,
    };
    Ok(reminders::due_at(thresholds.as_deref(), from, bank, &[], 0))
}
