//! A player's time zone (issue 64): where their weekends fall in games with
//! weekends free, and how pages and mails show them moments.

use crate::db::DbConn;
use crate::domain::error::Error;
use chrono::NaiveDateTime;

/// Set `user_id`'s zone from the form's text (an IANA name, checked); the
/// stored deadlines of their games with weekends free are made anew in the
/// same transaction. Gives the zone's canonical name.
pub fn set_time_zone(
    conn: &mut DbConn,
    user_id: i32,
    text: &str,
    now: NaiveDateTime,
) -> Result<String, Error> {
    let zone = crate::domain::week::parse_zone(text).map_err(Error::Invalid)?;
    let name = zone.name().to_string();
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        crate::db::users::set_time_zone(conn, user_id, &name)?;
        crate::clocks::weekends::zone_changed(conn, user_id, now)
    })?;
    Ok(name)
}
