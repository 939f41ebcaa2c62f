//! Deleting an account, for good. What others need stays: finished games
//! (and the ones this ends) keep their moves under a neutral name,
//! `deleted-ID`; everything else about the person goes.

use crate::accounts::reauth::Reauthenticated;
use crate::accounts::users;
use crate::db::games::GameRow;
use crate::db::models::User;
use crate::db::schema::{
    account_tokens, adjudication_requests, digest_sent, email_outbox, game_notes, games,
    leave_bookings, leave_grants, login_attempts, mail_prefs, sessions, tournament_players,
    users as users_table, verified_emails, verify_mail_sent,
};
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::{EndReason, GameResult, GameStatus, Side};
use crate::domain::tournament_state::TournamentStatus;
use chrono::NaiveDateTime;
use diesel::prelude::*;

pub use crate::accounts::retired_names::NAME_RETIRED_DAYS;

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
        take_back_challenges(conn, user.id, now)?;
        erase(conn, user, now)
    })
}

fn leave_tournaments(conn: &mut DbConn, user: &User, now: NaiveDateTime) -> Result<(), Error> {
    let entries: Vec<i32> = tournament_players::table
        .filter(tournament_players::user_id.eq(user.id))
        .filter(tournament_players::withdrawn_at.is_null())
        .filter(tournament_players::replaced_by.is_null())
        .select(tournament_players::tournament_id)
        .load(conn)?;
    for tid in entries {
        let t = crate::tournaments::rows::load(conn, tid)?;
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
    let running: Vec<GameRow> = games::table
        .filter(games::white_id.eq(user.id).or(games::black_id.eq(user.id)))
        .filter(games::status.eq(GameStatus::Active.code()))
        .select(GameRow::as_select())
        .load(conn)?;
    for row in running {
        // A flag that already fell decides the game by time, not by this.
        if crate::clocks::forfeit::forfeit_if_flagged(conn, &row, now)? {
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

/// Unanswered challenges and open seeks go: taken back when the account
/// made them, declined when it was asked.
fn take_back_challenges(conn: &mut DbConn, user_id: i32, now: NaiveDateTime) -> QueryResult<()> {
    let pending = games::status.eq(GameStatus::Pending.code());
    diesel::update(
        games::table
            .filter(pending)
            .filter(games::challenger_id.eq(user_id)),
    )
    .set((
        games::status.eq(GameStatus::Withdrawn.code()),
        games::updated_at.eq(now),
    ))
    .execute(conn)?;
    diesel::update(
        games::table
            .filter(pending)
            .filter(games::opponent_id.eq(user_id)),
    )
    .set((
        games::status.eq(GameStatus::Declined.code()),
        games::updated_at.eq(now),
    ))
    .execute(conn)?;
    Ok(())
}

fn erase(conn: &mut DbConn, user: &User, now: NaiveDateTime) -> Result<String, Error> {
    let id = user.id;
    diesel::delete(sessions::table.filter(sessions::user_id.eq(id))).execute(conn)?;
    diesel::delete(game_notes::table.filter(game_notes::user_id.eq(id))).execute(conn)?;
    diesel::delete(leave_bookings::table.filter(leave_bookings::user_id.eq(id))).execute(conn)?;
    diesel::delete(leave_grants::table.filter(leave_grants::user_id.eq(id))).execute(conn)?;
    diesel::delete(email_outbox::table.filter(email_outbox::user_id.eq(id))).execute(conn)?;
    diesel::delete(account_tokens::table.filter(account_tokens::user_id.eq(id))).execute(conn)?;
    crate::accounts::api_credentials::erase_all(conn, id)?;
    crate::accounts::revocation::erase(conn, id)?;
    crate::db::push::forget_user(conn, id)?;
    crate::accounts::calendar_feed::revoke(conn, id)?;
    diesel::delete(verified_emails::table.filter(verified_emails::user_id.eq(id))).execute(conn)?;
    diesel::delete(mail_prefs::table.filter(mail_prefs::user_id.eq(id))).execute(conn)?;
    diesel::delete(verify_mail_sent::table.filter(verify_mail_sent::user_id.eq(id)))
        .execute(conn)?;
    diesel::delete(digest_sent::table.filter(digest_sent::user_id.eq(id))).execute(conn)?;
    diesel::delete(
        login_attempts::table.filter(login_attempts::username_key.eq(&user.username_key)),
    )
    .execute(conn)?;
    // An open request's note is the person's words; a decided one is part
    // of the tournament's record and stays.
    diesel::delete(
        adjudication_requests::table
            .filter(adjudication_requests::user_id.eq(id))
            .filter(adjudication_requests::resolved_at.is_null()),
    )
    .execute(conn)?;
    crate::accounts::retired_names::retire(conn, &user.username_key, now)?;
    let name = neutral_name(id);
    // An empty hash matches no password, so the row can never log in.
    diesel::update(users_table::table.find(id))
        .set((
            users_table::username.eq(&name),
            users_table::username_key.eq(&name),
            users_table::email.eq(""),
            users_table::password_hash.eq(""),
            users_table::is_director.eq(false),
            users_table::deleted_at.eq(Some(now)),
        ))
        .execute(conn)?;
    Ok(name)
}
