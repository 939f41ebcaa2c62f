//! Takebacks by consent, in casual games (never rated or tournament ones): one player asks, the other
//! accepts or declines. Accepted, the asker's last move goes (with the
//! opponent's answer after it, if any, so the asker is to move again), the
//! clocks are put back as they were after the last move kept, and the
//! game's events record it.

use crate::db::game_updates::{self, TakenBack};
use crate::db::games::{self, player_of, GameRow};
use crate::db::users::User;
use crate::db::{conditional_lines, game_events, moves, outbox, DbConn};
use crate::domain::error::Error;
use crate::domain::game_event::EventKind;
use crate::domain::game_state::Side;
use crate::domain::ids::GameId;
use crate::domain::mail_kind::Mail;
use crate::game::clock;
use crate::game::finish::check_participant;
use crate::game::restore;
use chrono::NaiveDateTime;

/// What a takeback act is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakebackAction {
    Offer,
    Accept,
    Decline,
}

impl TakebackAction {
    pub fn parse(s: &str) -> Result<TakebackAction, Error> {
        match s.trim() {
            "offer" => Ok(TakebackAction::Offer),
            "accept" => Ok(TakebackAction::Accept),
            "decline" => Ok(TakebackAction::Decline),
            _ => Err(Error::BadRequest(
                "The takeback action must be offer, accept or decline.".into(),
            )),
        }
    }
}

const CHANGED: &str = "The game changed in the meantime; look at it again.";

/// Why takebacks are not allowed in `row`, if they are not. A rated game
/// refuses them rather than turning casual: neither player loses a rated
/// game to a click they did not mean that way.
pub fn refused(row: &GameRow) -> Option<&'static str> {
    if row.tournament_id.is_some() {
        return Some(
            "Takebacks are not allowed in tournament games: every move there counts as played.",
        );
    }
    row.rated.then_some(
        "Takebacks are not allowed in rated games: they are for casual games, where no rating moves.",
    )
}

/// Offer, accept or decline a takeback in game `id`. What it reads comes
/// first; its writes then go in one transaction that begins with the game
/// row's guard (its ply, takebacks and request as read), so on SQLite it is
/// never refused the write lock for having read.
pub fn takeback(
    conn: &mut DbConn,
    id: GameId,
    user: &User,
    action: TakebackAction,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let row = games::load(conn, id)?;
    let side = check_participant(&row, user, "ask for or answer a takeback")?;
    if let Some(why) = refused(&row) {
        return Err(Error::Forbidden(why.into()));
    }
    let (mine, theirs) = (Side::from(side), Side::from(side).opponent());
    let guard = |conn: &mut DbConn, offer: Option<Side>| -> Result<(), Error> {
        match game_updates::set_takeback_offer(conn, &row, offer)? {
            1 => Ok(()),
            _ => Err(Error::Conflict(CHANGED.into())),
        }
    };
    match action {
        TakebackAction::Offer => {
            if row.takeback_offer == Some(mine) {
                return Err(Error::Invalid(
                    "You have already asked for a takeback.".into(),
                ));
            }
            if row.takeback_offer == Some(theirs) {
                return Err(Error::Invalid(
                    "Your opponent has asked for a takeback: accept or decline it first.".into(),
                ));
            }
            if plies_to_take(conn, &row, user.id)?.is_none() {
                return Err(Error::Invalid(
                    "You have no move in this game to take back.".into(),
                ));
            }
            crate::db::write_transaction(conn, |conn| {
                guard(conn, Some(mine))?;
                game_events::record(
                    conn,
                    id,
                    Some(user.id),
                    EventKind::TakebackAsked,
                    "asked to take back a move",
                    now,
                )?;
                // In correspondence the opponent may not look for days: tell them.
                if let Some(to) = player_of(&row, side.opponent()) {
                    let ask = Mail::TakebackOffer {
                        game: id,
                        ply: row.ply,
                        from: user.id,
                    };
                    outbox::enqueue(conn, to, &ask, now)?;
                }
                Ok(())
            })
        }
        TakebackAction::Decline => {
            if row.takeback_offer != Some(theirs) {
                return Err(Error::Invalid(
                    "There is no takeback request from your opponent to decline.".into(),
                ));
            }
            crate::db::write_transaction(conn, |conn| {
                guard(conn, None)?;
                game_events::record(
                    conn,
                    id,
                    Some(user.id),
                    EventKind::TakebackDeclined,
                    "declined the takeback",
                    now,
                )
            })
        }
        TakebackAction::Accept => {
            if row.takeback_offer != Some(theirs) {
                return Err(Error::Invalid(
                    "There is no takeback request from your opponent to accept.".into(),
                ));
            }
            let asker =
                player_of(&row, side.opponent()).ok_or_else(|| Error::Conflict(CHANGED.into()))?;
            take_back(conn, &row, asker, user.id, now)
        }
    }
}

/// Whether `asker` has a move in `row`'s game they may ask to take back.
pub fn has_move_to_take_back(conn: &mut DbConn, row: &GameRow, asker: i32) -> Result<bool, Error> {
    Ok(refused(row).is_none() && plies_to_take(conn, row, asker)?.is_some())
}

/// The first ply to remove so that the asker's last move goes and the asker
/// is to move again: back to and including the asker's last move. `None`
/// when the asker has no move to take back.
fn plies_to_take(conn: &mut DbConn, row: &GameRow, asker: i32) -> Result<Option<i32>, Error> {
    let last = moves::last_ply_by(conn, row.id, asker)?;
    let base = games::history_base_ply(conn, row.id)?;
    // The history kept before `base` is one row: plies at or before it
    // cannot be taken back.
    Ok(last.filter(|p| *p > base))
}

fn take_back(
    conn: &mut DbConn,
    row: &GameRow,
    asker: i32,
    accepter: i32,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let first = plies_to_take(conn, row, asker)?.ok_or_else(|| {
        Error::Invalid("Your opponent has no move in this game left to take back.".into())
    })?;
    let new_ply = first - 1;
    let kept = moves::plies_until(conn, row.id, row.ply)?;
    let taken = moves::displays_from(conn, row.id, first)?;
    let fen = kept
        .iter()
        .find(|m| m.0 == new_ply)
        .map(|m| m.2.clone())
        .unwrap_or_else(|| row.start_fen.clone());
    let variant = restore::variant_of(row)?;
    let position = variant
        .parse_fen(&fen)
        .map_err(|e| Error::internal(format!("game {} ply {new_ply}: {e}", row.id)))?;
    let to_move = Side::from(position.side);
    // Each side's bank as it was after its last move kept (the start's for
    // a side with none); where an older move did not record it, the bank
    // stays as it is.
    let control = clock::control_of(row)?;
    let bank_of = |color: Option<i32>, now_bank: Option<i64>| -> Option<i64> {
        let player = color?;
        let last = kept.iter().rfind(|m| m.0 <= new_ply && m.1 == player);
        match last {
            Some((_, _, _, Some(bank))) => Some(*bank),
            Some((_, _, _, None)) => now_bank,
            None => control.as_ref().map(|c| c.initial_secs).or(now_bank),
        }
    };
    let banks = (
        bank_of(row.white_id, row.white_clock_secs),
        bank_of(row.black_id, row.black_clock_secs),
    );
    let next = match &control {
        Some(_) => {
            let bank = match to_move {
                Side::Black => banks.1,
                _ => banks.0,
            }
            .unwrap_or(0);
            (
                Some(now),
                Some(crate::domain::running_time::deadline(now, bank, &[])),
                crate::game::clock::first_at(conn, player_of(row, to_move.color()), now, bank)?,
            )
        }
        None => (row.turn_started_at, None, None),
    };
    let taken_back = TakenBack {
        fen: &fen,
        ply: new_ply,
        turn: to_move,
        banks,
        turn_started_at: next.0,
        deadline: next.1,
        remind_at: next.2,
        now,
    };
    crate::db::write_transaction(conn, |conn| {
        if game_updates::take_back(conn, row, &taken_back)? != 1 {
            return Err(Error::Conflict(CHANGED.into()));
        }
        moves::delete_from(conn, row.id, first)?;
        // Lines were checked against the position taken back.
        conditional_lines::delete_of_game(conn, row.id)?;
        let detail = match taken.len() {
            1 => format!("ply {first} taken back: {}", taken.join(" ")),
            n => format!(
                "plies {first}-{} taken back: {}",
                first + n as i32 - 1,
                taken.join(" ")
            ),
        };
        game_events::record(
            conn,
            row.id,
            Some(accepter),
            EventKind::Takeback,
            &detail,
            now,
        )
    })
}
