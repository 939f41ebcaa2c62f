//! The games table as the clocks use it: the sweeps' batches (games past
//! their deadline, reminders due, flags unclaimed, silences, running
//! clocks), the conditional writes that mark a game reminded, warned or
//! flagged once of racing sweepers, and a player's running games. Each
//! conditional write names the row as read (id, ply, status and the
//! columns it changes) and reports whether it found it.

use crate::db::games::GameRow;
use crate::db::schema::games;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::{GameStatus, Side};
use crate::domain::ids::GameId;
use chrono::{NaiveDateTime, TimeDelta};
use diesel::prelude::*;

/// Games a clock sweep (losses on time, claims, silence) looks at per
/// pass; the rest wait for the next one.
pub const SWEEP_BATCH: i64 = 200;

/// Running games whose stored deadline is past at `now`, the oldest first.
pub fn past_deadline(conn: &mut DbConn, now: NaiveDateTime) -> Result<Vec<GameRow>, Error> {
    Ok(games::table
        .filter(games::status.eq(GameStatus::Active.code()))
        .filter(games::clock_deadline.le(now))
        .order(games::clock_deadline.asc())
        .limit(SWEEP_BATCH)
        .select(GameRow::as_select())
        .load(conn)?)
}

/// Running games whose next reminder's time has come, the oldest first.
pub fn reminders_due(conn: &mut DbConn, now: NaiveDateTime) -> Result<Vec<GameRow>, Error> {
    Ok(games::table
        .filter(games::status.eq(GameStatus::Active.code()))
        .filter(games::clock_remind_at.le(now))
        .order(games::clock_remind_at.asc())
        .limit(SWEEP_BATCH)
        .select(GameRow::as_select())
        .load(conn)?)
}

/// Running games whose time to claim a fallen flag is over.
pub fn claims_expired(conn: &mut DbConn, now: NaiveDateTime) -> Result<Vec<GameRow>, Error> {
    Ok(games::table
        .filter(games::status.eq(GameStatus::Active.code()))
        .filter(games::claim_until.le(now))
        .order(games::claim_until.asc())
        .limit(SWEEP_BATCH)
        .select(GameRow::as_select())
        .load(conn)?)
}

/// Running games under a silence rule whose turn began by `earliest`,
/// the longest waiting first.
pub fn silent_since(conn: &mut DbConn, earliest: NaiveDateTime) -> Result<Vec<GameRow>, Error> {
    Ok(games::table
        .filter(games::status.eq(GameStatus::Active.code()))
        .filter(games::silence_days.is_not_null())
        .filter(games::turn_started_at.le(earliest))
        .order(games::turn_started_at.asc())
        .limit(SWEEP_BATCH)
        .select(GameRow::as_select())
        .load(conn)?)
}

/// Every running game whose clock is running.
pub fn running_clocks(conn: &mut DbConn) -> Result<Vec<GameRow>, Error> {
    Ok(games::table
        .filter(games::status.eq(GameStatus::Active.code()))
        .filter(games::time_control.is_not_null())
        .filter(games::turn_started_at.is_not_null())
        .select(GameRow::as_select())
        .load(conn)?)
}

/// The running games where it is `user`'s turn.
pub fn turns_of(conn: &mut DbConn, user: i32) -> Result<Vec<GameRow>, Error> {
    let mine = games::white_id
        .eq(user)
        .and(games::turn.eq(Side::White.code()))
        .or(games::black_id
            .eq(user)
            .and(games::turn.eq(Side::Black.code())));
    Ok(games::table
        .filter(games::status.eq(GameStatus::Active.code()))
        .filter(mine)
        .select(GameRow::as_select())
        .load(conn)?)
}

/// The running games with weekends free where it is `user`'s turn.
pub fn weekend_turns_of(conn: &mut DbConn, user: i32) -> Result<Vec<GameRow>, Error> {
    let theirs = games::white_id
        .eq(user)
        .and(games::turn.eq(Side::White.code()))
        .or(games::black_id
            .eq(user)
            .and(games::turn.eq(Side::Black.code())));
    Ok(games::table
        .filter(games::status.eq(GameStatus::Active.code()))
        .filter(games::weekends_free.eq(true))
        .filter(theirs)
        .select(GameRow::as_select())
        .load(conn)?)
}

/// The ids of `user`'s running games.
pub fn running_ids_of(conn: &mut DbConn, user: i32) -> Result<Vec<GameId>, Error> {
    Ok(games::table
        .filter(games::status.eq(GameStatus::Active.code()))
        .filter(games::white_id.eq(user).or(games::black_id.eq(user)))
        .select(games::id)
        .load(conn)?)
}

/// A game's White and Black (an empty seat: none).
pub type Seats = (Option<i32>, Option<i32>);

/// White and Black of each of `user`'s running games.
pub fn running_seats_of(conn: &mut DbConn, user: i32) -> Result<Vec<Seats>, Error> {
    Ok(games::table
        .filter(games::status.eq(GameStatus::Active.code()))
        .filter(games::white_id.eq(user).or(games::black_id.eq(user)))
        .select((games::white_id, games::black_id))
        .load(conn)?)
}

/// Store `at` as `row`'s deadline, unless the game has moved on (or the
/// deadline was changed) since `row` was read.
pub fn defer_deadline(conn: &mut DbConn, row: &GameRow, at: NaiveDateTime) -> Result<(), Error> {
    diesel::update(
        games::table.filter(
            games::id
                .eq(row.id)
                .and(games::ply.eq(row.ply))
                .and(games::status.eq(GameStatus::Active.code()))
                .and(games::clock_deadline.eq(row.clock_deadline)),
        ),
    )
    .set(games::clock_deadline.eq(Some(at)))
    .execute(conn)?;
    Ok(())
}

/// Store game `id`'s deadline and next reminder's time as they are given.
pub fn set_clock_times(
    conn: &mut DbConn,
    id: GameId,
    deadline: Option<NaiveDateTime>,
    remind_at: Option<NaiveDateTime>,
) -> Result<(), Error> {
    diesel::update(games::table.find(id))
        .set((
            games::clock_deadline.eq(deadline),
            games::clock_remind_at.eq(remind_at),
        ))
        .execute(conn)?;
    Ok(())
}

/// Mark `side`'s flag fallen in `row`, the win claimable until `until`,
/// and take the game out of the forfeit sweep: once, unless the game has
/// moved on since `row` was read. True when this call marked it.
pub fn mark_flag_fell(
    conn: &mut DbConn,
    row: &GameRow,
    side: Side,
    until: NaiveDateTime,
) -> Result<bool, Error> {
    let n = diesel::update(
        games::table
            .filter(games::id.eq(row.id))
            .filter(games::status.eq(GameStatus::Active.code()))
            .filter(games::ply.eq(row.ply))
            .filter(games::flag_fell_side.is_null()),
    )
    .set((
        games::flag_fell_side.eq(Some(side.code())),
        games::claim_until.eq(Some(until)),
        games::clock_deadline.eq(None::<NaiveDateTime>),
    ))
    .execute(conn)?;
    Ok(n > 0)
}

/// The turn's row as a reminder sweep found it: a move, another sweeper
/// or a takeback since then changes one of these, and the write finds
/// nothing.
macro_rules! reminder_unchanged {
    ($row:expr) => {
        games::id
            .eq($row.id)
            .and(games::status.eq(GameStatus::Active.code()))
            .and(games::ply.eq($row.ply))
            .and(games::reminder_stage.eq($row.reminder_stage))
            .and(games::clock_remind_at.eq($row.clock_remind_at))
    };
}

/// Put `row`'s next reminder's time at `next` (none: no more this turn),
/// unless the turn changed since `row` was read.
pub fn defer_reminder(
    conn: &mut DbConn,
    row: &GameRow,
    next: Option<NaiveDateTime>,
) -> Result<(), Error> {
    diesel::update(games::table.filter(reminder_unchanged!(row)))
        .set(games::clock_remind_at.eq(next))
        .execute(conn)?;
    Ok(())
}

/// Record that `row`'s turn had its reminder `stage` (the count sent so
/// far) and the next is due at `next`, unless the turn changed since `row`
/// was read. True when this call recorded it.
pub fn mark_reminded(
    conn: &mut DbConn,
    row: &GameRow,
    stage: i32,
    next: Option<NaiveDateTime>,
) -> Result<bool, Error> {
    let n = diesel::update(games::table.filter(reminder_unchanged!(row)))
        .set((
            games::reminded_ply.eq(Some(row.ply)),
            games::reminder_stage.eq(stage),
            games::clock_remind_at.eq(next),
        ))
        .execute(conn)?;
    Ok(n > 0)
}

/// Record that `row`'s turn had its silence warning `stage` (1: half the
/// period, 2: the last), once, unless the game has moved on since `row`
/// was read. True when this call recorded it.
pub fn mark_silence_warned(conn: &mut DbConn, row: &GameRow, stage: i32) -> Result<bool, Error> {
    let n = diesel::update(
        games::table
            .filter(games::id.eq(row.id))
            .filter(games::status.eq(GameStatus::Active.code()))
            .filter(games::ply.eq(row.ply))
            .filter(
                games::silence_ply
                    .is_null()
                    .or(games::silence_ply.ne(row.ply))
                    .or(games::silence_stage.lt(stage)),
            ),
    )
    .set((
        games::silence_ply.eq(Some(row.ply)),
        games::silence_stage.eq(stage),
    ))
    .execute(conn)?;
    Ok(n > 0)
}

/// Move `row`'s running clock on by `secs`: the mover's bank and the
/// game's deadline, reminder and claim times, unless the game has moved
/// on since `row` was read. True when this call moved it.
pub fn extend_turn(conn: &mut DbConn, row: &GameRow, secs: i64) -> Result<bool, Error> {
    let by = TimeDelta::seconds(secs);
    let later = |t: Option<NaiveDateTime>| t.map(|t| t + by);
    let target = games::table
        .filter(games::id.eq(row.id))
        .filter(games::ply.eq(row.ply))
        .filter(games::status.eq(GameStatus::Active.code()));
    let common = (
        games::clock_deadline.eq(later(row.clock_deadline)),
        games::clock_remind_at.eq(later(row.clock_remind_at)),
        games::claim_until.eq(later(row.claim_until)),
    );
    let n = match row.turn {
        Side::Black => diesel::update(target)
            .set((
                common,
                games::black_clock_secs.eq(row.black_clock_secs.map(|b| b + secs)),
            ))
            .execute(conn)?,
        Side::White => diesel::update(target)
            .set((
                common,
                games::white_clock_secs.eq(row.white_clock_secs.map(|b| b + secs)),
            ))
            .execute(conn)?,
    };
    Ok(n == 1)
}
