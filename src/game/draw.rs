//! Draw offers: offering, accepting, declining.

use crate::db::game_updates;
use crate::db::games::{self, player_of};
use crate::db::outbox;
use crate::db::users::User;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::{EndReason, GameResult, Side};
use crate::domain::ids::GameId;
use crate::domain::mail_kind::Mail;
use crate::game::finish::{check_participant, finish};
use crate::game::flag::end_if_flagged;
use chrono::NaiveDateTime;

pub fn draw(
    conn: &mut DbConn,
    id: GameId,
    user: &User,
    action: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let row = games::load(conn, id)?;
    let side = check_participant(&row, user, "offer or answer a draw")?;
    end_if_flagged(conn, &row, now)?;
    let mine = Side::from(side);
    let theirs = mine.opponent();
    let offer = row.draw_offer;
    match action {
        "offer" => {
            if offer == Some(theirs) {
                return finish(
                    conn,
                    &row,
                    GameResult::Draw,
                    EndReason::Agreement,
                    Some(theirs),
                    now,
                );
            }
            if offer == Some(mine) {
                return Err(Error::Invalid("You have already offered a draw.".into()));
            }
            crate::db::write_transaction::<_, Error>(conn, |conn| {
                if game_updates::offer_draw(conn, id, mine)? == 0 {
                    return Err(Error::Conflict(
                        "The game changed in the meantime; look at it again.".into(),
                    ));
                }
                if let Some(to) = player_of(&row, side.opponent()) {
                    let offer = Mail::DrawOffer {
                        game: id,
                        ply: row.ply,
                        from: user.id,
                    };
                    outbox::enqueue(conn, to, &offer, now)?;
                }
                Ok(())
            })
        }
        "accept" => {
            if offer != Some(theirs) {
                return Err(Error::Invalid(
                    "There is no draw offer from your opponent to accept.".into(),
                ));
            }
            finish(
                conn,
                &row,
                GameResult::Draw,
                EndReason::Agreement,
                Some(theirs),
                now,
            )
        }
        "decline" => {
            if offer != Some(theirs) {
                return Err(Error::Invalid(
                    "There is no draw offer from your opponent to decline.".into(),
                ));
            }
            game_updates::clear_draw_offer(conn, id, theirs)
        }
        _ => Err(Error::BadRequest(
            "The draw action must be offer, accept or decline.".into(),
        )),
    }
}
