//! A queued notification rendered from the database as it is now, like a
//! mail (`mail::render`): a turn already played or an offer already
//! answered renders to nothing, and the row is closed unsent.

use crate::db::games;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::{GameStatus, Side};
use crate::domain::mail_kind::Mail;
use crate::game::restore;
use chrono::NaiveDateTime;
use missive_rules::Color;
use serde::Serialize;

/// What the service worker shows (`static/sw.js`'s `push` handler reads
/// these names).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Notification {
    /// The mail kind's code (`your_turn`, `draw_offer`, ...).
    pub kind: &'static str,
    pub title: String,
    pub body: String,
    /// The page to open: the game or the tournament, absolute.
    pub url: String,
    /// One notification per game (or tournament) at a time: a newer one
    /// replaces the older on the device.
    pub tag: String,
}

impl Notification {
    /// As sent: JSON, its texts clipped so that it fits one record.
    pub fn to_json(&self) -> String {
        let clipped = Notification {
            title: crate::util::clip(&self.title, 120),
            body: crate::util::clip(&self.body, 400),
            ..self.clone()
        };
        serde_json::to_string(&clipped).unwrap_or_default()
    }
}

/// Render `mail` for `user_id`; `None` when it is no longer true.
pub fn render(
    conn: &mut DbConn,
    base_url: &str,
    user_id: i32,
    mail: &Mail,
    now: NaiveDateTime,
) -> Result<Option<Notification>, Error> {
    let kind = mail.kind().code();
    if let Mail::TournamentRound { tournament, round } = mail {
        let Some(name) = crate::db::tournaments::name_of(conn, *tournament)? else {
            return Ok(None);
        };
        let title = match round {
            Some(r) => format!("{name}: round {r} has begun"),
            None => format!("{name} has begun"),
        };
        return Ok(Some(Notification {
            kind,
            title,
            body: "Your games of the round are waiting on your dashboard.".into(),
            url: format!("{base_url}/tournaments/{tournament}"),
            tag: format!("tournament-{tournament}"),
        }));
    }
    let Some(game_id) = mail.game() else {
        return Ok(None);
    };
    let game = games::load(conn, game_id)?;
    let variant = restore::variant_of(&game)?;
    let my_side = games::side_of(&game, user_id);
    let opponent_id = match my_side {
        Some(Color::White) => game.black_id,
        Some(Color::Black) => game.white_id,
        _ => mail.from(),
    };
    let opponent = match opponent_id {
        Some(id) => crate::db::users::user_names(conn, &[id])?.remove(&id),
        None => None,
    }
    .unwrap_or_else(|| "your opponent".into());
    let to_move_at = |ply: i32| game.ply == ply && games::player_to_move(&game) == Some(user_id);
    let about = format!("Game {} ({})", game.id, variant.name());
    let (title, body) = match mail {
        Mail::YourTurn { ply, last_move, .. } => {
            if !to_move_at(*ply) {
                return Ok(None);
            }
            let body = match last_move {
                Some(m) => format!("{about}: {opponent} played {}.", m.display),
                None => format!("{about}: the game has begun."),
            };
            (format!("Your move against {opponent}"), body)
        }
        Mail::ChallengeAccepted { ply, .. } => {
            let body = if to_move_at(*ply) {
                format!("{about}: it is your move.")
            } else {
                format!("{about}: {opponent} moves first.")
            };
            (format!("{opponent} accepted your challenge"), body)
        }
        Mail::ClockReminder { ply, .. } => {
            if !to_move_at(*ply) {
                return Ok(None);
            }
            let left = match (my_side, crate::game::clock::view(conn, &game, now)?) {
                (Some(side), Some(clock)) => {
                    let zone = crate::db::users::zone_of(conn, user_id)?;
                    crate::domain::clock::describe_for(&clock, side, zone)
                }
                _ => "little time left".into(),
            };
            (
                format!("Your time runs low against {opponent}"),
                format!("{about}: {left}."),
            )
        }
        Mail::DrawOffer { .. } => {
            if game.status != GameStatus::Active {
                return Ok(None);
            }
            (
                format!("{opponent} offers a draw"),
                format!("{about}: accept or decline on the game page."),
            )
        }
        Mail::TakebackOffer { ply, .. } => {
            if game.status != GameStatus::Active
                || game.takeback_offer.is_none()
                || game.ply != *ply
            {
                return Ok(None);
            }
            (
                format!("{opponent} asks to take back a move"),
                format!("{about}: accept or decline on the game page."),
            )
        }
        Mail::GameOver { .. } => {
            let sides = [
                variant.side_name(Side::White.color()),
                variant.side_name(Side::Black.color()),
            ];
            let result = games::describe_result(&game, sides).unwrap_or_else(|| "Ended".into());
            (
                format!("Game over against {opponent}"),
                format!("{about}: {result}."),
            )
        }
        _ => return Ok(None),
    };
    Ok(Some(Notification {
        kind,
        title,
        body,
        url: format!("{base_url}/games/{}", game.id),
        tag: format!("game-{}", game.id),
    }))
}
