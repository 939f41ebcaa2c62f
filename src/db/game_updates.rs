//! The guarded updates a game's acts make to its row (accepting, a move, a
//! draw offer, a takeback, an edit of the conditional lines, the ending):
//! each says how many rows it changed, 0 when the game is no longer as the
//! act read it.

use crate::db::games::GameRow;
use crate::db::kept_update::kept_update;
use crate::db::schema::games;
use crate::db::{per_backend, DbConn};
use crate::domain::error::Error;
use crate::domain::game_state::{EndReason, GameResult, GameStatus, Side, UnratedReason};
use crate::domain::ids::GameId;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// The clock columns of a game whose first turn begins: both banks, when
/// the turn began, the deadline and first reminder (leave ignored) of the
/// side to move. All `None`: no clock.
pub struct ClockStart {
    pub white: Option<i64>,
    pub black: Option<i64>,
    pub started: Option<NaiveDateTime>,
    pub deadline: Option<NaiveDateTime>,
    pub remind_at: Option<NaiveDateTime>,
}

/// Set a new game's clocks.
pub fn start_clocks(conn: &mut DbConn, id: GameId, start: &ClockStart) -> Result<(), Error> {
    diesel::update(games::table.find(id))
        .set((
            games::white_clock_secs.eq(start.white),
            games::black_clock_secs.eq(start.black),
            games::turn_started_at.eq(start.started),
            games::clock_deadline.eq(start.deadline),
            games::clock_remind_at.eq(start.remind_at),
        ))
        .execute(conn)?;
    Ok(())
}

/// Why a game is played unrated.
pub fn set_unrated_reason(
    conn: &mut DbConn,
    id: GameId,
    reason: UnratedReason,
) -> Result<(), Error> {
    diesel::update(games::table.find(id))
        .set(games::unrated_reason.eq(Some(reason.code())))
        .execute(conn)?;
    Ok(())
}

/// A challenge or seek as its acceptance starts it.
pub struct Acceptance {
    pub opponent_id: i32,
    pub white_id: Option<i32>,
    pub black_id: Option<i32>,
    pub rated: bool,
    pub unrated_reason: Option<UnratedReason>,
    pub now: NaiveDateTime,
}

/// Start the pending game `id` as `a` says, with its clocks; 0 when it is
/// no longer pending.
pub fn accept(
    conn: &mut DbConn,
    id: GameId,
    a: &Acceptance,
    start: &ClockStart,
) -> Result<usize, Error> {
    Ok(diesel::update(
        games::table
            .filter(games::id.eq(id))
            .filter(games::status.eq(GameStatus::Pending.code())),
    )
    .set((
        (
            games::status.eq(GameStatus::Active.code()),
            games::opponent_id.eq(Some(a.opponent_id)),
            games::white_id.eq(a.white_id),
            games::black_id.eq(a.black_id),
            games::updated_at.eq(a.now),
            games::accepted_at.eq(Some(a.now)),
            games::rated.eq(a.rated),
            games::unrated_reason.eq(a.unrated_reason.map(UnratedReason::code)),
        ),
        (
            games::white_clock_secs.eq(start.white),
            games::black_clock_secs.eq(start.black),
            games::turn_started_at.eq(start.started),
            games::clock_deadline.eq(start.deadline),
            games::clock_remind_at.eq(start.remind_at),
        ),
    ))
    .execute(conn)?)
}

/// Close the pending game `id` as `status` (declined, withdrawn); 0 when it
/// is no longer pending.
pub fn close_pending(
    conn: &mut DbConn,
    id: GameId,
    status: GameStatus,
    now: NaiveDateTime,
) -> Result<usize, Error> {
    Ok(diesel::update(
        games::table
            .filter(games::id.eq(id))
            .filter(games::status.eq(GameStatus::Pending.code())),
    )
    .set((
        games::status.eq(status.code()),
        games::updated_at.eq(now),
        games::ended_at.eq(Some(now)),
    ))
    .execute(conn)?)
}

/// Make `side`'s draw offer in the active game `id`, if none stands; 0
/// otherwise.
pub fn offer_draw(conn: &mut DbConn, id: GameId, side: Side) -> Result<usize, Error> {
    Ok(diesel::update(
        games::table
            .filter(games::id.eq(id))
            .filter(games::status.eq(GameStatus::Active.code()))
            .filter(games::draw_offer.is_null()),
    )
    .set(games::draw_offer.eq(Some(side.code())))
    .execute(conn)?)
}

/// Take back `side`'s draw offer in game `id`, if it stands.
pub fn clear_draw_offer(conn: &mut DbConn, id: GameId, side: Side) -> Result<(), Error> {
    diesel::update(
        games::table
            .filter(games::id.eq(id))
            .filter(games::draw_offer.eq(side.code())),
    )
    .set(games::draw_offer.eq(None::<String>))
    .execute(conn)?;
    Ok(())
}

/// The guard of an act on a standing draw offer: the active game `id` with
/// `side`'s offer standing is touched at `now`; 0 when the offer is gone.
pub fn touch_with_draw_offer(
    conn: &mut DbConn,
    id: GameId,
    side: Side,
    now: NaiveDateTime,
) -> Result<usize, Error> {
    Ok(diesel::update(
        games::table
            .filter(games::id.eq(id))
            .filter(games::status.eq(GameStatus::Active.code()))
            .filter(games::draw_offer.eq(side.code())),
    )
    .set(games::updated_at.eq(now))
    .execute(conn)?)
}

/// An ending as the game's row records it.
pub struct Ending {
    pub result: GameResult,
    pub reason: EndReason,
    pub rated: bool,
    pub unrated_reason: Option<UnratedReason>,
    /// The side whose clock shows zero (a loss on time).
    pub zero_clock: Option<Side>,
    pub now: NaiveDateTime,
}

/// End the game of `row` if it is still active at `row.ply`; 0 when it is
/// not.
pub fn end(conn: &mut DbConn, row: &GameRow, e: &Ending) -> Result<usize, Error> {
    let target = games::table
        .filter(games::id.eq(row.id))
        .filter(games::status.eq(GameStatus::Active.code()))
        .filter(games::ply.eq(row.ply));
    let changes = (
        games::status.eq(GameStatus::Finished.code()),
        games::result.eq(Some(e.result.code())),
        games::reason.eq(Some(e.reason.code())),
        games::draw_offer.eq(None::<String>),
        games::updated_at.eq(e.now),
        games::ended_at.eq(Some(e.now)),
        games::clock_deadline.eq(None::<NaiveDateTime>),
        games::clock_remind_at.eq(None::<NaiveDateTime>),
    );
    let changes = (
        changes,
        games::rated.eq(e.rated),
        games::unrated_reason.eq(e.unrated_reason.map(UnratedReason::code)),
    );
    Ok(match e.zero_clock {
        Some(Side::Black) => diesel::update(target)
            .set((changes, games::black_clock_secs.eq(Some(0i64))))
            .execute(conn)?,
        Some(_) => diesel::update(target)
            .set((changes, games::white_clock_secs.eq(Some(0i64))))
            .execute(conn)?,
        None => diesel::update(target).set(changes).execute(conn)?,
    })
}

/// A game's row after a move and the conditional replies it set off.
pub struct Advance<'a> {
    pub fen: &'a str,
    pub ply: i32,
    pub turn: Side,
    pub draw_offer: Option<Side>,
    pub banks: (Option<i64>, Option<i64>),
    pub turn_started_at: Option<NaiveDateTime>,
    pub deadline: Option<NaiveDateTime>,
    pub remind_at: Option<NaiveDateTime>,
    pub conditional_rev: i32,
    pub conditional_count: i32,
    pub now: NaiveDateTime,
}

/// A move's guarded update of its game: only one request can move the game
/// from `row.ply`, and only with the lines it read. 0 when the game is no
/// longer as `row` has it.
pub fn advance(conn: &mut DbConn, row: &GameRow, a: &Advance) -> Result<usize, Error> {
    Ok(per_backend!(conn, |c| kept_update(
        games::table,
        games::id
            .eq(row.id)
            .and(games::ply.eq(row.ply))
            .and(games::status.eq(GameStatus::Active.code()))
            .and(games::conditional_rev.eq(row.conditional_rev)),
        (
            (
                games::fen.eq(a.fen),
                games::ply.eq(a.ply),
                games::turn.eq(a.turn.code()),
                games::draw_offer.eq(a.draw_offer.map(Side::code)),
                // A move answers a takeback request: it was about a
                // position the game has left.
                games::takeback_offer.eq(None::<&str>),
                games::updated_at.eq(a.now),
            ),
            (
                games::white_clock_secs.eq(a.banks.0),
                games::black_clock_secs.eq(a.banks.1),
                games::turn_started_at.eq(a.turn_started_at),
                games::clock_deadline.eq(a.deadline),
                games::clock_remind_at.eq(a.remind_at),
            ),
            (
                games::conditional_rev.eq(a.conditional_rev),
                games::conditional_count.eq(a.conditional_count),
            ),
        ),
    )
    .execute(c))?)
}

/// The game row's guard for an edit of its conditional lines: still at
/// `row`'s ply and lines, still in play. Moves the lines' revision and
/// count; false when the game moved on.
pub fn guard_lines_edit(
    conn: &mut DbConn,
    row: &GameRow,
    count_change: i32,
) -> Result<bool, Error> {
    let n = per_backend!(conn, |c| diesel::update(
        games::table
            .filter(games::id.eq(row.id))
            .filter(games::ply.eq(row.ply))
            .filter(games::status.eq(GameStatus::Active.code()))
            .filter(games::conditional_rev.eq(row.conditional_rev))
    )
    .set((
        games::conditional_rev.eq(games::conditional_rev + 1),
        games::conditional_count.eq(games::conditional_count + count_change),
    ))
    .execute(c))?;
    Ok(n == 1)
}

/// One conditional line of game `id` goes: its lines' revision moves, their
/// count drops by one.
pub fn line_deleted(conn: &mut DbConn, id: GameId) -> Result<(), Error> {
    per_backend!(conn, |c| diesel::update(games::table.find(id))
        .set((
            games::conditional_rev.eq(games::conditional_rev + 1),
            games::conditional_count.eq(games::conditional_count - 1),
        ))
        .execute(c))?;
    Ok(())
}

/// Set the takeback request of the active game of `row` to `offer`, guarded
/// by its ply, takebacks and request as `row` has them; 0 when the game
/// changed.
pub fn set_takeback_offer(
    conn: &mut DbConn,
    row: &GameRow,
    offer: Option<Side>,
) -> Result<usize, Error> {
    let standing = row.takeback_offer.map(Side::code);
    Ok(per_backend!(conn, |c| {
        let mut q = diesel::update(games::table)
            .filter(games::id.eq(row.id))
            .filter(games::ply.eq(row.ply))
            .filter(games::takebacks.eq(row.takebacks))
            .filter(games::status.eq(GameStatus::Active.code()))
            .into_boxed();
        q = match standing {
            Some(s) => q.filter(games::takeback_offer.eq(s)),
            None => q.filter(games::takeback_offer.is_null()),
        };
        q.set(games::takeback_offer.eq(offer.map(Side::code)))
            .execute(c)
    })?)
}

/// A game's row after an accepted takeback.
pub struct TakenBack<'a> {
    pub fen: &'a str,
    pub ply: i32,
    pub turn: Side,
    pub banks: (Option<i64>, Option<i64>),
    pub turn_started_at: Option<NaiveDateTime>,
    pub deadline: Option<NaiveDateTime>,
    pub remind_at: Option<NaiveDateTime>,
    pub now: NaiveDateTime,
}

/// Take the game of `row` back as `t` says, guarded by its ply, takebacks
/// and request as `row` has them (its lines are dropped); 0 when the game
/// changed.
pub fn take_back(conn: &mut DbConn, row: &GameRow, t: &TakenBack) -> Result<usize, Error> {
    let asked = row.takeback_offer.map(Side::code);
    Ok(per_backend!(conn, |c| diesel::update(
        games::table
            .filter(games::id.eq(row.id))
            .filter(games::ply.eq(row.ply))
            .filter(games::takebacks.eq(row.takebacks))
            .filter(games::takeback_offer.eq(asked))
            .filter(games::status.eq(GameStatus::Active.code()))
    )
    .set((
        (
            games::fen.eq(t.fen),
            games::ply.eq(t.ply),
            games::turn.eq(t.turn.code()),
            games::draw_offer.eq(None::<String>),
            games::takeback_offer.eq(None::<String>),
            games::takebacks.eq(games::takebacks + 1),
            games::updated_at.eq(t.now),
        ),
        (
            games::white_clock_secs.eq(t.banks.0),
            games::black_clock_secs.eq(t.banks.1),
            games::turn_started_at.eq(t.turn_started_at),
            games::clock_deadline.eq(t.deadline),
            games::clock_remind_at.eq(t.remind_at),
            games::reminded_ply.eq(None::<i32>),
            games::conditional_rev.eq(games::conditional_rev + 1),
            games::conditional_count.eq(0),
        ),
    ))
    .execute(c))?)
}
