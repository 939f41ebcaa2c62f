//! A fallen flag: the loss on time a late act meets first, and the mark a
//! game that must be claimed gets when its mover runs out. The clock sweep
//! (`clocks::forfeit`) and the game's own acts (a move, a resignation, a
//! draw) both come here.

use crate::db::game_events;
use crate::db::games::GameRow;
use crate::db::{game_clocks, outbox, DbConn};
use crate::domain::clock::MoverClock;
use crate::domain::error::{Error, MovedOn};
use crate::domain::game_event::EventKind;
use crate::domain::game_state::{EndReason, GameResult, OnTimeout, Side, CLAIM_DAYS};
use crate::domain::mail_kind::{ClockNotice, Mail};
use crate::domain::time_control::utc_minute;
use crate::game::clock::mover_clock;
use crate::game::finish;
use chrono::{NaiveDateTime, TimeDelta};

/// End `row` on time if its mover has run out at `now` (leave counted).
/// True when this call ended it.
pub fn forfeit_if_flagged(
    conn: &mut DbConn,
    row: &GameRow,
    now: NaiveDateTime,
) -> Result<bool, Error> {
    match mover_clock(conn, row)? {
        Some(m) if m.flagged(now) => match row.on_timeout {
            OnTimeout::Lose => forfeit(conn, row, &m, now),
            // The game goes on until the opponent claims it.
            OnTimeout::Claim => {
                flag_falls(conn, row, &m, now)?;
                Ok(false)
            }
        },
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
    crate::db::write_transaction::<_, Error>(conn, |conn| lose_on_time(conn, row, m, now))
}

/// [`forfeit`] in the caller's transaction.
pub fn lose_on_time(
    conn: &mut DbConn,
    row: &GameRow,
    m: &MoverClock,
    now: NaiveDateTime,
) -> Result<bool, Error> {
    let result = GameResult::win_for(Side::from(m.color).opponent());
    finish::end_game(conn, row, result, EndReason::TimeForfeit, None, now)
}

/// A game whose player to move has run out is lost on time before anything
/// else happens to it (no draw agreed or resignation after the flag fell).
pub fn end_if_flagged(conn: &mut DbConn, row: &GameRow, now: NaiveDateTime) -> Result<(), Error> {
    if forfeit_if_flagged(conn, row, now)? {
        return Err(Error::MovedOn(MovedOn::FlagFell));
    }
    Ok(())
}

/// The mover's flag fell in a game where the win must be claimed: mark it
/// (once, by a conditional UPDATE), take the game out of the forfeit sweep,
/// mail the opponent and record the event. True when this call marked it.
pub fn flag_falls(
    conn: &mut DbConn,
    row: &GameRow,
    m: &MoverClock,
    now: NaiveDateTime,
) -> Result<bool, Error> {
    let side = Side::from(m.color);
    let until = now + TimeDelta::days(CLAIM_DAYS);
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        if !game_clocks::mark_flag_fell(conn, row, side, until)? {
            return Ok(false);
        }
        let until = utc_minute(until);
        if let Some(opponent) = crate::db::games::player_of(row, side.opponent().color()) {
            let notice = Mail::ClockNotice {
                game: row.id,
                ply: row.ply,
                notice: ClockNotice::FlagFell,
                about: Some(m.user_id),
                detail: until.clone(),
            };
            outbox::enqueue(conn, opponent, &notice, now)?;
        }
        game_events::record(
            conn,
            row.id,
            Some(m.user_id),
            EventKind::FlagFell,
            &format!("time ran out; the win may be claimed until {until}"),
            now,
        )?;
        Ok(true)
    })
}
