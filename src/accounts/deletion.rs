//! Deleting an account, for good. What others need stays: finished games
//! (and the ones this ends) keep their moves under a neutral name,
//! `deleted-ID`; everything else about the person goes.

use crate::accounts::reauth::Reauthenticated;
use crate::accounts::users;
use crate::db::users::User;
use crate::db::{
    account_tokens, api_credentials, calendar_feeds, credential_revocations, digest_sent,
    login_attempts, mail_prefs, retired_usernames, sessions, verified_emails, verify_mail_sent,
    DbConn,
};
use crate::domain::error::Error;
use crate::domain::game_state::{EndReason, GameResult, GameStatus, Side};
use crate::domain::tournament_state::TournamentStatus;
use chrono::NaiveDateTime;

pub use crate::db::retired_usernames::NAME_RETIRED_DAYS;

/// The name a deleted account's games show.
pub fn neutral_name(user_id: i32) -> String {
    format!("{}{user_id}", users::DELETED_PREFIX)
}

/// What a wrong password is told.
pub const WRONG_PASSWORD: &str = "Your password is not right: the account was not deleted.";

/// `POST /settings/delete`: with the password (checked: `proof`), delete.
/// Running games are resigned, and tournament games go the tournament's
/// withdrawal way (a running tournament withdraws the player; one taking
/// entries loses the entry). Gives the neutral name the records now show.
pub fn delete(
    conn: &mut DbConn,
    user: &User,
    proof: &Reauthenticated,
    now: NaiveDateTime,
) -> Result<String, Error> {
    proof.is_for(user)?;
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        leave_tournaments(conn, user, now)?;
        resign_running_games(conn, user, now)?;
        crate::db::games::take_back_challenges(conn, user.id, now)?;
        erase(conn, user, now)
    })
}

fn leave_tournaments(conn: &mut DbConn, user: &User, now: NaiveDateTime) -> Result<(), Error> {
    for tid in crate::db::entrants::standing_in(conn, user.id)? {
        let t = crate::db::tournaments::load(conn, tid)?;
        match t.status {
            TournamentStatus::Entry => crate::tournaments::entry::leave(conn, tid, user)?,
            TournamentStatus::Running => crate::tournaments::withdrawal::withdraw(
                conn,
                &t,
                user.id,
                "deleted their account",
                now,
            )?,
            _ => {}
        }
    }
    Ok(())
}

fn resign_running_games(conn: &mut DbConn, user: &User, now: NaiveDateTime) -> Result<(), Error> {
    for row in crate::db::games::active_games_of(conn, user.id)? {
        // A flag that already fell decides the game by time, not by this.
        if crate::game::flag::forfeit_if_flagged(conn, &row, now)? {
            continue;
        }
        let winner = if row.white_id == Some(user.id) {
            Side::Black
        } else {
            Side::White
        };
        let row = crate::db::games::load(conn, row.id)?;
        if row.status != GameStatus::Active {
            continue;
        }
        if !crate::game::finish::end_game(
            conn,
            &row,
            GameResult::win_for(winner),
            EndReason::Resignation,
            None,
            now,
        )? {
            return Err(Error::Conflict(
                "One of your games changed while the account was being deleted; try again.".into(),
            ));
        }
    }
    Ok(())
}

fn erase(conn: &mut DbConn, user: &User, now: NaiveDateTime) -> Result<String, Error> {
    let id = user.id;
    sessions::end_all(conn, id)?;
    crate::db::users::erase_personal(conn, id)?;
    account_tokens::erase_all(conn, id)?;
    api_credentials::erase_all(conn, id)?;
    credential_revocations::erase(conn, id)?;
    crate::db::push::forget_user(conn, id)?;
    calendar_feeds::revoke(conn, id)?;
    verified_emails::erase(conn, id)?;
    mail_prefs::erase(conn, id)?;
    verify_mail_sent::erase(conn, id)?;
    digest_sent::erase(conn, id)?;
    login_attempts::erase_for(conn, &user.username_key)?;
    retired_usernames::retire(conn, &user.username_key, now)?;
    let name = neutral_name(id);
    crate::db::users::mark_deleted(conn, id, &name, now)?;
    Ok(name)
}
