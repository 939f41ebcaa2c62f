//! Claim or wait (setting `on_timeout` = `claim`): when a clock runs out the
//! opponent is mailed and may claim the win (`POST /games/{id}/claim`) or
//! let play go on; unclaimed after [`CLAIM_DAYS`] days, the game is lost on
//! time.

use crate::db::game_events;
use crate::db::games::GameRow;
use crate::db::users::User;
use crate::db::{game_clocks, DbConn};
use crate::domain::error::Error;
use crate::domain::game_event::EventKind;
use crate::domain::game_state::{EndReason, GameResult, Side};
use crate::domain::ids::GameId;
use crate::game::finish::{check_participant, end_game};
use chrono::NaiveDateTime;

/// Why `user` may not claim a win on time in `row`, if they may not.
pub fn claim_refused(row: &GameRow, user: &User) -> Result<Side, Error> {
    let mine = Side::from(check_participant(row, user, "claim a win on time")?);
    match row.flag_fell_side {
        Some(fallen) if fallen != mine => Ok(fallen),
        Some(_) => Err(Error::Invalid(
            "Your own time ran out: only your opponent may claim this game.".into(),
        )),
        None => Err(Error::Invalid(
            "There is no win to claim: your opponent's time has not run out in this game.".into(),
        )),
    }
}

/// `user` claims the win on time in game `id`.
pub fn claim(conn: &mut DbConn, id: GameId, user: &User, now: NaiveDateTime) -> Result<(), Error> {
    let row = crate::db::games::load(conn, id)?;
    let fallen = claim_refused(&row, user)?;
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        let result = GameResult::win_for(fallen.opponent());
        if !end_game(conn, &row, result, EndReason::TimeForfeit, None, now)? {
            return Err(Error::Conflict(
                "The game changed in the meantime; look at it again.".into(),
            ));
        }
        game_events::record(
            conn,
            id,
            Some(user.id),
            EventKind::Claim,
            "claimed the win on time",
            now,
        )
    })
}

/// End as lost on time the games whose fallen flag was not claimed in time.
/// Each is ended by one conditional UPDATE (of racing sweepers one does it).
pub fn end_unclaimed(conn: &mut DbConn, now: NaiveDateTime) -> Result<usize, Error> {
    let due = game_clocks::claims_expired(conn, now)?;
    let mut ended = 0;
    for row in due {
        let Some(fallen) = row.flag_fell_side else {
            continue;
        };
        let result = GameResult::win_for(fallen.opponent());
        if crate::db::write_transaction::<_, Error>(conn, |conn| {
            end_game(conn, &row, result, EndReason::TimeForfeit, None, now)
        })? {
            ended += 1;
        }
    }
    Ok(ended)
}
