//! Moving two players' ratings when a rated game ends.

use crate::db::{ratings, DbConn};
use crate::domain::error::Error;
use crate::domain::game_end::GameEnded;
use crate::domain::ids::GameId;
use crate::domain::rating::{next_seq, rate_game, Change, Standing};
use chrono::NaiveDateTime;

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
        ratings::lock(conn, id, variant)?;
    }
    let (w, b) = (
        standing(conn, white, variant)?,
        standing(conn, black, variant)?,
    );
    let (wc, bc) = rate_game(&w, &b, result, now);
    let seq = next_seq(&w, &b);
    crate::db::ratings::set_rating_seq(conn, game, seq)?;
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

fn standing(conn: &mut DbConn, user: i32, variant: &str) -> Result<Standing, Error> {
    let found = ratings::standings_of(conn, variant, &[user])?;
    Ok(found.get(&user).copied().unwrap_or_default())
}

fn save(
    conn: &mut DbConn,
    game: GameId,
    user: i32,
    variant: &str,
    next: &Standing,
    change: &Change,
    now: NaiveDateTime,
) -> Result<(), Error> {
    ratings::write_standing(conn, user, variant, next)?;
    ratings::insert_change(conn, game, user, variant, change, now)
}
