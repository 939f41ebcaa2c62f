//! Adjudication: a player asks, the director decides a game's result.

use crate::db::game_events;
use crate::db::games::GameRow;
use crate::db::tournaments::{self, TournamentRow};
use crate::db::users::User;
use crate::db::{adjudications, outbox, tournament_games, DbConn};
use crate::domain::codes::Coded;
use crate::domain::error::Error;
use crate::domain::game_event::EventKind;
use crate::domain::game_state::{EndReason, GameResult, GameStatus};
use crate::domain::ids::GameId;
use crate::domain::mail_kind::{ClockNotice, Mail};
use crate::domain::tournament_state::NOTE_MAX;
use crate::game::finish;
use crate::tournaments::directors::{require_director, require_director_of};
use crate::tournaments::rounds::advance;
use crate::util::clip;
use chrono::NaiveDateTime;

// ---------------------------------------------------------------------------
// Adjudication

pub fn parse_result(raw: &str) -> Result<GameResult, Error> {
    GameResult::from_code(raw.trim()).ok_or_else(|| {
        Error::Invalid(format!(
            "“{}” is not a result: use 1-0, 0-1 or 1/2-1/2.",
            clip(raw.trim(), 20)
        ))
    })
}

/// The tournament of a game, if the user may decide it (403 otherwise, with
/// the reason). Nobody decides a game they play in: the tournament's
/// director decides the others, and any other director a game the
/// tournament's director plays in.
pub(crate) fn directed_game(
    conn: &mut DbConn,
    game_id: GameId,
    director: &User,
) -> Result<(GameRow, TournamentRow), Error> {
    require_director(Some(director))?;
    let g = crate::db::games::load(conn, game_id)?;
    let tid = g.tournament_id.ok_or_else(|| {
        Error::Forbidden("This game is not a tournament game: nobody adjudicates it.".into())
    })?;
    let t = tournaments::load(conn, tid)?;
    if crate::db::games::side_of(&g, director.id).is_some() {
        return Err(Error::Forbidden(
            "You play in this game, and a director never decides their own game: another \
             director adjudicates it."
                .into(),
        ));
    }
    if crate::db::games::side_of(&g, t.director_id).is_none() {
        require_director_of(Some(director), &t)?;
    }
    Ok((g, t))
}

/// A director sets a game's result, with a reason (code `adjudication`). A
/// running game ends (through the games service, so the forfeit rules and
/// pairing see it); a finished game's result is overruled.
pub fn adjudicate(
    conn: &mut DbConn,
    game_id: GameId,
    director: &User,
    result: &str,
    reason: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let (g, t) = directed_game(conn, game_id, director)?;
    let result = parse_result(result)?;
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(Error::Invalid(
            "Give the reason for the adjudication.".into(),
        ));
    }
    if reason.chars().count() > NOTE_MAX {
        return Err(Error::Invalid(format!(
            "The reason has at most {NOTE_MAX} characters."
        )));
    }
    if g.reason == Some(EndReason::Replaced) {
        return Err(Error::Invalid(
            "This game was never played (its player was replaced): there is nothing to \
             adjudicate."
                .into(),
        ));
    }
    let ruling = format!("{}, because: {reason}", result.code());
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        adjudications::add(conn, g.id, director.id, result, reason, now)?;
        adjudications::resolve_requests(conn, g.id, director.id, now)?;
        match g.status {
            GameStatus::Active => {
                if !finish::end_game(conn, &g, result, EndReason::Adjudication, None, now)? {
                    return Err(Error::Conflict(
                        "The game changed meanwhile (a move was played): look at it again.".into(),
                    ));
                }
            }
            // A rated game's end has moved its players' ratings, and later
            // games were rated from them: its result stays.
            GameStatus::Finished if g.rated => {
                return Err(Error::Invalid(
                    "This rated game has ended and its players' ratings have moved since: its result can no longer be changed.".into(),
                ))
            }
            GameStatus::Finished => {
                tournament_games::overrule(conn, g.id, result, now)?;
                // A running game's end is mailed as every end is; a result
                // changed after the end is told here.
                for to in [g.white_id, g.black_id].into_iter().flatten() {
                    let notice = Mail::ClockNotice {
                        game: g.id,
                        ply: g.ply,
                        notice: ClockNotice::Adjudicated,
                        about: None,
                        detail: ruling.clone(),
                    };
                    outbox::enqueue(conn, to, &notice, now)?;
                }
            }
            _ => {
                return Err(Error::Invalid(
                    "This game has not started: there is nothing to adjudicate.".into(),
                ))
            }
        }
        game_events::record(
            conn,
            g.id,
            Some(director.id),
            EventKind::Adjudication,
            &ruling,
            now,
        )?;
        advance(conn, t.id, now)
    })
}

/// A player of a tournament game asks its director to decide it.
pub fn request_adjudication(
    conn: &mut DbConn,
    game_id: GameId,
    user: &User,
    note: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let g = crate::db::games::load(conn, game_id)?;
    if crate::db::games::side_of(&g, user.id).is_none() {
        return Err(Error::Forbidden(
            "Only the two players of a game can ask for its adjudication.".into(),
        ));
    }
    if g.tournament_id.is_none() {
        return Err(Error::Forbidden(
            "Only tournament games are adjudicated (by their director).".into(),
        ));
    }
    let note = note.trim();
    if note.is_empty() {
        return Err(Error::Invalid(
            "Say what the director should decide, and why.".into(),
        ));
    }
    if note.chars().count() > NOTE_MAX {
        return Err(Error::Invalid(format!(
            "The note has at most {NOTE_MAX} characters."
        )));
    }
    if adjudications::has_open_request(conn, game_id, user.id)? {
        return Err(Error::Conflict(
            "You already have a request waiting for the director on this game.".into(),
        ));
    }
    adjudications::add_request(conn, game_id, user.id, note, now)
}
