//! Weekends free, as the sweep keeps it (issue 64). A game's stored
//! `clock_deadline` is a time the mover cannot run out before: the sweep
//! looks only at games past it and checks each with the mover's leave and
//! weekends. With weekends free, the deadline stored at a move ignores them;
//! once past it the sweep moves it on to the deadline with the weekends
//! counted (leave still not, as leave may be cancelled), so a game is not
//! looked at on every pass of a weekend and cannot crowd out games that
//! have run out. A new time zone moves weekends, so it puts the stored
//! deadlines of the player's turns back to the bound that ignores them.

use crate::db::game_clocks;
use crate::db::games::GameRow;
use crate::db::users::zone_of;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::GameStatus;
use crate::domain::running_time::deadline;
use crate::game::clock::bank_of;
use chrono::NaiveDateTime;

/// After the sweep found `row` past its stored deadline and not run out:
/// store the deadline with the mover's weekends counted, unless the game
/// has moved on (or the deadline was changed) since `row` was read.
pub fn defer_past_weekends(conn: &mut DbConn, row: &GameRow) -> Result<(), Error> {
    if !row.weekends_free || row.status != GameStatus::Active {
        return Ok(());
    }
    let (Some(mover), Some(started)) = (crate::db::games::player_to_move(row), row.turn_started_at)
    else {
        return Ok(());
    };
    let zone = zone_of(conn, mover)?;
    let bank = bank_of(row, row.turn.color());
    let stops = crate::domain::week::stops(&[], Some(zone), started, bank);
    let at = deadline(started, bank, &stops);
    if Some(at) <= row.clock_deadline {
        return Ok(());
    }
    game_clocks::defer_deadline(conn, row, at)
}

/// `user_id` has a new time zone: in their games with weekends free where
/// they are to move, the stored deadline goes back to the one that ignores
/// weekends, and a pending reminder is looked at again by the next sweep
/// (which finds each one's time with the new weekends).
pub fn zone_changed(conn: &mut DbConn, user_id: i32, now: NaiveDateTime) -> Result<(), Error> {
    for row in game_clocks::weekend_turns_of(conn, user_id)? {
        let Some(started) = row.turn_started_at else {
            continue;
        };
        let bound = deadline(started, bank_of(&row, row.turn.color()), &[]);
        let remind = row.clock_remind_at.map(|at| at.min(now));
        game_clocks::set_clock_times(conn, row.id, Some(bound), remind)?;
    }
    Ok(())
}
