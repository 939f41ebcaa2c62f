//! A director gives a player more time (issue 40): logged in the game's
//! history, both players mailed.

use crate::db::game_events;
use crate::db::tournament_games::{self, Clocks};
use crate::db::users::User;
use crate::db::{outbox, DbConn};
use crate::domain::codes::Coded;
use crate::domain::error::Error;
use crate::domain::game_event::EventKind;
use crate::domain::game_state::{GameStatus, Side};
use crate::domain::ids::GameId;
use crate::domain::mail_kind::{ClockNotice, Mail};
use crate::domain::time_control::{self, DAY};
use crate::domain::tournament_state::NOTE_MAX;
use crate::tournaments::adjudication::directed_game;
use crate::util::clip;
use chrono::{NaiveDateTime, TimeDelta};

/// The most one extension gives.
pub const MAX_EXTENSION_SECS: i64 = 60 * DAY;

/// Give `side` of a running tournament game `time` more (`2d`, `12h`),
/// for `reason`. The player to move sees their deadline move at once; the
/// other player's bank grows for their next turn (where each move has a
/// time of its own, only the player to move can be given more).
pub fn extend(
    conn: &mut DbConn,
    game_id: GameId,
    director: &User,
    side: &str,
    time: &str,
    reason: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let (g, _) = directed_game(conn, game_id, director)?;
    if g.status != GameStatus::Active {
        return Err(Error::Invalid(
            "This game is not running: there is no clock to extend.".into(),
        ));
    }
    let Some(control) = crate::game::clock::control_of(&g)? else {
        return Err(Error::Invalid(
            "This game has no time control: there is no clock to extend.".into(),
        ));
    };
    let Some(side) = Side::from_code(&side.trim().to_ascii_lowercase()) else {
        return Err(Error::Invalid(format!(
            "“{}” is not a side: choose white or black.",
            clip(side.trim(), 20)
        )));
    };
    let secs = match time_control::parse_duration(time.trim()) {
        Ok(s) if (60..=MAX_EXTENSION_SECS).contains(&s) => s,
        Ok(_) => {
            return Err(Error::Invalid(
                "An extension is between 1 minute and 60 days.".into(),
            ))
        }
        Err(_) => {
            return Err(Error::Invalid(format!(
                "“{}” is not a time: write it as 30m, 12h or 2d.",
                clip(time.trim(), 20)
            )))
        }
    };
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(Error::Invalid("Give the reason for the extension.".into()));
    }
    if reason.chars().count() > NOTE_MAX {
        return Err(Error::Invalid(format!(
            "The reason has at most {NOTE_MAX} characters."
        )));
    }
    let to_move = g.turn == side;
    if !to_move && control.is_per_move() {
        return Err(Error::Invalid(
            "Each move has a time of its own in this game: only the player to move can be given more."
                .into(),
        ));
    }
    let player = crate::db::games::player_of(&g, side.color())
        .ok_or_else(|| Error::internal(format!("game {game_id}: no player for {side:?}")))?;
    let (Some(white_bank), Some(black_bank), Some(deadline)) =
        (g.white_clock_secs, g.black_clock_secs, g.clock_deadline)
    else {
        return Err(Error::Invalid(
            "This game's clock has not started: there is no time to extend.".into(),
        ));
    };
    let (white_after, black_after) = match side {
        Side::White => (white_bank + secs, black_bank),
        Side::Black => (white_bank, black_bank + secs),
    };
    let deadline_after = match to_move {
        true => deadline + TimeDelta::seconds(secs),
        false => deadline,
    };
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        // The game and its clocks as read: a move, a takeback or an
        // outage's extension meanwhile changes them, and the director
        // looks again.
        let before = Clocks {
            white_secs: white_bank,
            black_secs: black_bank,
            deadline,
        };
        let after = Clocks {
            white_secs: white_after,
            black_secs: black_after,
            deadline: deadline_after,
        };
        if !tournament_games::extend_clocks(conn, g.id, g.ply, before, after)? {
            return Err(Error::Conflict(
                "The game changed meanwhile (a move was played, or its clocks moved): look at it again."
                    .into(),
            ));
        }
        let name = crate::db::users::user_names(conn, &[player])?
            .remove(&player)
            .unwrap_or_default();
        let more = time_control::describe(secs);
        let history = format!("{more} more for {name}, because: {reason}");
        game_events::record(
            conn,
            g.id,
            Some(director.id),
            EventKind::Extension,
            &history,
            now,
        )?;
        // The mail names the player already.
        let detail = format!("{more} more, because: {reason}");
        for to in [g.white_id, g.black_id].into_iter().flatten() {
            let notice = Mail::ClockNotice {
                game: g.id,
                ply: g.ply,
                notice: ClockNotice::TimeExtended,
                about: Some(player),
                detail: detail.clone(),
            };
            outbox::enqueue(conn, to, &notice, now)?;
        }
        Ok(())
    })
}
