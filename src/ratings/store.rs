//! Moving two players' ratings when a rated game ends.

use crate::db::schema::{games, rating_changes, ratings};
use crate::db::{per_backend, DbConn};
use crate::domain::error::Error;
use crate::domain::game_end::GameEnded;
use crate::domain::rating::{next_seq, rate_game, Change, Standing};
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// Move the ratings of a game's players for its end, if it counts for
/// ratings: a listener of game endings (`game::finish`), run in the
/// transaction whose guarded update ended the game: of two callers ending the same game
/// only one gets here, and `rating_changes`' key (game, player) refuses a
/// second change for the same game whatever the caller.
///
/// Two games ending at once for the same player would each read the rating
/// and write their own result, losing one: each player's row is locked
/// (an UPDATE that changes nothing, in user id order so two games never wait
/// on each other) before it is read. On SQLite the game's update has taken
/// the database's one write lock already.
pub fn on_game_end(conn: &mut DbConn, ended: &GameEnded) -> Result<(), Error> {
    let (true, Some(white), Some(black)) = (ended.rated, ended.white, ended.black) else {
        return Ok(());
    };
    let (result, now, game) = (ended.result, ended.at, ended.game);
    let variant = ended.variant.as_str();
    let mut ids = [white, black];
    ids.sort_unstable();
    for id in ids {
        lock(conn, id, variant)?;
    }
    let (w, b) = (
        standing(conn, white, variant)?,
        standing(conn, black, variant)?,
    );
    let (wc, bc) = rate_game(&w, &b, result, now);
    let seq = next_seq(&w, &b);
    diesel::update(games::table.find(game))
        .set(games::rating_seq.eq(Some(seq)))
        .execute(conn)?;
    save(
        conn,
        game,
        white,
        variant,
        &w.after(wc.after, now, seq),
        &wc,
        now,
    )?;
    save(
        conn,
        game,
        black,
        variant,
        &b.after(bc.after, now, seq),
        &bc,
        now,
    )
}

/// Make `user`'s row in `variant` (a newcomer's if missing) and lock it
/// until the transaction ends.
fn lock(conn: &mut DbConn, user: i32, variant: &str) -> Result<(), Error> {
    let fresh = Standing::default().rating;
    per_backend!(conn, |c| diesel::insert_into(ratings::table)
        .values((
            ratings::user_id.eq(user),
            ratings::variant.eq(variant),
            ratings::rating.eq(fresh.rating),
            ratings::deviation.eq(fresh.deviation),
            ratings::volatility.eq(fresh.volatility),
            ratings::games.eq(0),
            ratings::last_played_at.eq(None::<NaiveDateTime>),
        ))
        .on_conflict_do_nothing()
        .execute(c))?;
    diesel::update(
        ratings::table
            .filter(ratings::user_id.eq(user))
            .filter(ratings::variant.eq(variant)),
    )
    .set(ratings::games.eq(ratings::games))
    .execute(conn)?;
    Ok(())
}

fn standing(conn: &mut DbConn, user: i32, variant: &str) -> Result<Standing, Error> {
    let found = crate::ratings::read::standings_of(conn, variant, &[user])?;
    Ok(found.get(&user).copied().unwrap_or_default())
}

fn save(
    conn: &mut DbConn,
    game: i32,
    user: i32,
    variant: &str,
    next: &Standing,
    change: &Change,
    now: NaiveDateTime,
) -> Result<(), Error> {
    write_standing(conn, user, variant, next)?;
    insert_change(conn, game, user, variant, change, now)
}

/// Store `user`'s standing in `variant` (its row exists).
pub(crate) fn write_standing(
    conn: &mut DbConn,
    user: i32,
    variant: &str,
    s: &Standing,
) -> Result<(), Error> {
    diesel::update(
        ratings::table
            .filter(ratings::user_id.eq(user))
            .filter(ratings::variant.eq(variant)),
    )
    .set((
        ratings::rating.eq(s.rating.rating),
        ratings::deviation.eq(s.rating.deviation),
        ratings::volatility.eq(s.rating.volatility),
        ratings::games.eq(s.games),
        ratings::last_played_at.eq(s.last_played_at),
        ratings::seq.eq(s.seq),
    ))
    .execute(conn)?;
    Ok(())
}

pub(crate) fn insert_change(
    conn: &mut DbConn,
    game: i32,
    user: i32,
    variant: &str,
    change: &Change,
    at: NaiveDateTime,
) -> Result<(), Error> {
    diesel::insert_into(rating_changes::table)
        .values((
            rating_changes::game_id.eq(game),
            rating_changes::user_id.eq(user),
            rating_changes::variant.eq(variant),
            rating_changes::rating_before.eq(change.before.rating),
            rating_changes::deviation_before.eq(change.before.deviation),
            rating_changes::rating_after.eq(change.after.rating),
            rating_changes::deviation_after.eq(change.after.deviation),
            rating_changes::volatility_after.eq(change.after.volatility),
            rating_changes::at.eq(at),
        ))
        .execute(conn)?;
    Ok(())
}
