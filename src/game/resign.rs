//! Resigning a game.

use crate::clocks::forfeit::end_if_flagged;
use crate::db::models::User;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::game::finish::{check_participant, finish};
use crate::game::rows::load;
use chrono::NaiveDateTime;
use missive_rules::Color;

pub fn resign(conn: &mut DbConn, id: i32, user: &User, now: NaiveDateTime) -> Result<(), Error> {
    let row = load(conn, id)?;
    let side = check_participant(&row, user, "resign")?;
    end_if_flagged(conn, &row, now)?;
    let result = if side == Color::White { "0-1" } else { "1-0" };
    finish(conn, &row, result, "resignation", None, now)
}
