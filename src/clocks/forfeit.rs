//! The clock sweep: games lost on time (`game::flag` ends them) and
//! reminders of a clock running low.

use crate::db::game_events;
use crate::db::games::GameRow;
use crate::db::{game_clocks, outbox, reminder_prefs, DbConn};
use crate::domain::error::Error;
use crate::domain::game_event::EventKind;
use crate::domain::mail_kind::Mail;
use crate::domain::running_time::Interval;
use crate::game::clock::mover_clock;
use chrono::NaiveDateTime;

// ---------------------------------------------------------------------------
// The sweeper

/// What one sweep did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Swept {
    /// Games this call ended on time.
    pub forfeits: usize,
    /// Reminders this call queued.
    pub reminders: usize,
}

/// End the games whose player to move has run out, and queue due reminders.
/// Safe with several sweepers at once: each game is ended (and each reminder
/// queued) by one conditional UPDATE. Returns the forfeits plus reminders
/// this call made.
pub fn sweep(conn: &mut DbConn, now: NaiveDateTime) -> Result<usize, Error> {
    let s = sweep_report(conn, now)?;
    Ok(s.forfeits + s.reminders)
}

/// [`sweep`], with the forfeits and reminders counted apart.
pub fn sweep_report(conn: &mut DbConn, now: NaiveDateTime) -> Result<Swept, Error> {
    let mut swept = Swept::default();
    // The stored deadline ignores leave, which only delays it: every game
    // out of time is among these, and each is rechecked with leave.
    let due = game_clocks::past_deadline(conn, now)?;
    for row in due {
        if crate::game::flag::forfeit_if_flagged(conn, &row, now)? {
            swept.forfeits += 1;
        } else {
            crate::clocks::weekends::defer_past_weekends(conn, &row)?;
        }
    }
    // A game's `clock_remind_at` is its next reminder's time (leave not
    // counted) and is cleared once its turn's last reminder is sent, so
    // games with nothing due never fill the batch ahead of games to remind.
    let remind = game_clocks::reminders_due(conn, now)?;
    for row in remind {
        if remind_if_due(conn, &row, now)? {
            swept.reminders += 1;
        }
    }
    swept.forfeits += crate::clocks::claim::end_unclaimed(conn, now)?;
    Ok(swept)
}

/// Queue the mover's next reminder of this turn if it is due at `now`
/// (their thresholds, or the default one; leave counted), each once. True
/// when this call queued one. The game keeps when the one after is due, or
/// none.
pub fn remind_if_due(conn: &mut DbConn, row: &GameRow, now: NaiveDateTime) -> Result<bool, Error> {
    let Some(m) = mover_clock(conn, row)? else {
        return Ok(false);
    };
    let thresholds = reminder_prefs::of(conn, m.user_id)?;
    // Reminders already sent this turn (a game reminded before stages were
    // counted had its one reminder).
    let sent = match row.reminded_ply == Some(row.ply) {
        true => row.reminder_stage.max(1) as usize,
        false => 0,
    };
    let due_at = |stage: usize, leave: &[Interval]| {
        crate::domain::reminders::due_at(thresholds.as_deref(), m.started, m.bank, leave, stage)
    };
    let next = due_at(sent, &m.leave).filter(|_| !m.flagged(now));
    if next.is_none_or(|at| at > now) {
        // Not yet (leave put it later), or nothing left this turn: the row
        // keeps the time to look again, so the sweep does not find it again
        // before then. Like the write below, it finds nothing if a move,
        // another sweeper or a takeback changed the turn's row since.
        game_clocks::defer_reminder(conn, row, next)?;
        return Ok(false);
    }
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        if !game_clocks::mark_reminded(conn, row, sent as i32 + 1, due_at(sent + 1, &[]))? {
            return Ok(false);
        }
        let reminder = Mail::ClockReminder {
            game: row.id,
            ply: row.ply,
        };
        outbox::enqueue(conn, m.user_id, &reminder, now)?;
        let left = crate::domain::time_control::describe(m.left(now));
        game_events::record(
            conn,
            row.id,
            Some(m.user_id),
            EventKind::Reminder,
            &format!("reminder {} of this turn: {left} left", sent + 1),
            now,
        )?;
        Ok(true)
    })
}
