//! Resigning a game.

use crate::db::games::load;
use crate::db::users::User;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::{EndReason, GameResult, Side};
use crate::domain::ids::GameId;
use crate::game::finish::{check_participant, finish};
use crate::game::flag::end_if_flagged;
use chrono::NaiveDateTime;

pub fn resign(conn: &mut DbConn, id: GameId, user: &User, now: NaiveDateTime) -> Result<(), Error> {
    let row = load(conn, id)?;
    let side = check_participant(&row, user, "resign")?;
    end_if_flagged(conn, &row, now)?;
    let result = GameResult::win_for(Side::from(side).opponent());
    finish(conn, &row, result, EndReason::Resignation, None, now)
}
