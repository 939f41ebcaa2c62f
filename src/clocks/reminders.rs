//! Reminders a player chooses (issue 40): their thresholds of time left,
//! kept in `reminder_prefs` (`db::reminder_prefs`). The sweep that sends
//! them is in `forfeit`; when a turn's first one is due is
//! `game::clock::first_at`.

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
