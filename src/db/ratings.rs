//! The ratings and their changes: what pages, records and the leaderboard
//! show, and what a game's end and a rebuild write.

use crate::db::schema::{rating_changes, ratings};
use crate::db::{per_backend, DbConn};
use crate::domain::error::Error;
use crate::domain::ids::GameId;
use crate::domain::rating::{Change, Rating, Standing};
use chrono::{NaiveDateTime, TimeDelta};
use diesel::prelude::*;
use std::collections::HashMap;

/// The leaderboard lists players with a rated game in this many days.
pub const ACTIVE_DAYS: i64 = 180;

/// A ratings row: its player, variant, and standing.
type StandingRow = (i32, String, f64, f64, f64, i32, Option<NaiveDateTime>, i64);

/// The columns of a [`StandingRow`].
#[allow(non_camel_case_types)]
type STANDING_COLUMNS = (
    ratings::user_id,
    ratings::variant,
    ratings::rating,
    ratings::deviation,
    ratings::volatility,
    ratings::games,
    ratings::last_played_at,
    ratings::seq,
);
const STANDING: STANDING_COLUMNS = (
    ratings::user_id,
    ratings::variant,
    ratings::rating,
    ratings::deviation,
    ratings::volatility,
    ratings::games,
    ratings::last_played_at,
    ratings::seq,
);

fn standing_of(r: &StandingRow) -> Standing {
    Standing {
        rating: Rating {
            rating: r.2,
            deviation: r.3,
            volatility: r.4,
        },
        games: r.5,
        last_played_at: r.6,
        seq: r.7,
    }
}

/// A player's standing in one variant, keyed by (user id, variant id).
pub type KeyedStanding = ((i32, String), Standing);

/// Every stored standing with a rated game, by player and variant.
pub fn all_standings(conn: &mut DbConn) -> Result<Vec<KeyedStanding>, Error> {
    let rows: Vec<StandingRow> = per_backend!(conn, |c| ratings::table
        .filter(ratings::games.gt(0))
        .select(STANDING)
        .load(c))?;
    Ok(rows
        .into_iter()
        .map(|r| ((r.0, r.1.clone()), standing_of(&r)))
        .collect())
}

/// The stored standings in `variant` of those of `users` who have one.
pub fn standings_of(
    conn: &mut DbConn,
    variant: &str,
    users: &[i32],
) -> Result<HashMap<i32, Standing>, Error> {
    let rows: Vec<StandingRow> = match conn {
        // A game's two players are read one by one on SQLite: a statement
        // with an `IN` list is prepared anew on every run there (its
        // parameter count varies, so diesel keeps no prepared copy), and
        // preparing it was a tenth of a game page's CPU. A tournament's
        // list is read with one statement.
        DbConn::Sqlite(c) if users.len() <= 2 => {
            let mut rows = Vec::with_capacity(users.len());
            for user in users {
                let row: Option<StandingRow> = ratings::table
                    .filter(ratings::user_id.eq(user))
                    .filter(ratings::variant.eq(variant))
                    .select(STANDING)
                    .first(c)
                    .optional()?;
                rows.extend(row);
            }
            rows
        }
        // PostgreSQL binds the list as one array (`= ANY($1)`), so the
        // statement is prepared once, and one round trip reads them all.
        _ => per_backend!(conn, |c| ratings::table
            .filter(ratings::variant.eq(variant))
            .filter(ratings::user_id.eq_any(users))
            .select(STANDING)
            .load(c))?,
    };
    Ok(rows.iter().map(|r| (r.0, standing_of(r))).collect())
}

/// Each of `users`' rating in `variant` at `now` as shown beside a name
/// (`1500?` for one who has never played a rated game there).
pub fn shown(
    conn: &mut DbConn,
    variant: &str,
    users: &[i32],
    now: NaiveDateTime,
) -> Result<HashMap<i32, String>, Error> {
    let found = standings_of(conn, variant, users)?;
    Ok(users
        .iter()
        .map(|u| {
            (
                *u,
                found.get(u).copied().unwrap_or_default().at(now).shown(),
            )
        })
        .collect())
}

/// One variant's line of a player's profile.
#[derive(Clone, Debug)]
pub struct VariantStanding {
    pub variant: String,
    pub standing: Standing,
    /// The rating at the time asked.
    pub now: Rating,
}

/// Every variant `user` has played a rated game in, by variant id.
pub fn of_user(
    conn: &mut DbConn,
    user: i32,
    now: NaiveDateTime,
) -> Result<Vec<VariantStanding>, Error> {
    let rows: Vec<StandingRow> = per_backend!(conn, |c| ratings::table
        .filter(ratings::user_id.eq(user))
        .filter(ratings::games.gt(0))
        .order(ratings::variant.asc())
        .select(STANDING)
        .load(c))?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let standing = standing_of(&r);
            VariantStanding {
                variant: r.1,
                now: standing.at(now),
                standing,
            }
        })
        .collect())
}

/// A point of a rating-history chart: when, and the rating after the game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub at: NaiveDateTime,
    pub rating: f64,
    pub deviation: f64,
}

/// `user`'s rating after each rated game in `variant`, oldest first.
pub fn history(conn: &mut DbConn, user: i32, variant: &str) -> Result<Vec<Point>, Error> {
    let rows: Vec<(NaiveDateTime, f64, f64)> = per_backend!(conn, |c| rating_changes::table
        .filter(rating_changes::user_id.eq(user))
        .filter(rating_changes::variant.eq(variant))
        .order((rating_changes::at.asc(), rating_changes::game_id.asc()))
        .select((
            rating_changes::at,
            rating_changes::rating_after,
            rating_changes::deviation_after
        ))
        .load(c))?;
    Ok(rows
        .into_iter()
        .map(|(at, rating, deviation)| Point {
            at,
            rating,
            deviation,
        })
        .collect())
}

/// What game `game` did to each player's rating, by user id (none for a
/// casual or unfinished game).
pub fn of_game(conn: &mut DbConn, game: GameId) -> Result<HashMap<i32, Change>, Error> {
    let rows: Vec<(i32, f64, f64, f64, f64, f64)> = per_backend!(conn, |c| rating_changes::table
        .filter(rating_changes::game_id.eq(game))
        .select((
            rating_changes::user_id,
            rating_changes::rating_before,
            rating_changes::deviation_before,
            rating_changes::rating_after,
            rating_changes::deviation_after,
            rating_changes::volatility_after,
        ))
        .load(c))?;
    Ok(rows
        .into_iter()
        .map(|(user, rb, db, ra, da, va)| {
            let before = Rating {
                rating: rb,
                deviation: db,
                volatility: va,
            };
            let after = Rating {
                rating: ra,
                deviation: da,
                volatility: va,
            };
            (user, Change { before, after })
        })
        .collect())
}

/// A leaderboard line.
#[derive(Clone, Debug)]
pub struct Leader {
    pub user_id: i32,
    pub username: String,
    pub rating: Rating,
    pub games: i32,
}

/// A variant's leaderboard at `now`: players with a rated game there in the
/// last [`ACTIVE_DAYS`], best first, established ratings and provisional
/// ones apart (at most `limit` of each).
///
/// Each list is read best first down the `(variant, rating, …)` index, a
/// batch at a time, and its walk stops once the list is settled: a rating
/// does not change while a player rests (only its deviation grows, which
/// decides whether it is provisional), so every unread row ranks at most
/// as high as the last one read. The established list's walk asks only for
/// rows whose stored deviation is low enough (a rested one only grows), a
/// test the index answers by itself: most active players are provisional,
/// and a walk past them read nearly every rating of the variant. Reading
/// every active player's row, as before, took 218 ms for 97,563 chess
/// ratings. The first batch is a little more than the list (most rows read
/// belong in it), and each batch after is four times the last: a first
/// batch of four lists' length read 800 rows for a page of 200 lines.
pub fn leaderboard(
    conn: &mut DbConn,
    variant: &str,
    now: NaiveDateTime,
    limit: usize,
) -> Result<(Vec<Leader>, Vec<Leader>), Error> {
    leaderboard_in_batches(conn, variant, now, limit, limit + limit / 4 + 8)
}

/// [`leaderboard`], reading `batch` rows first (at least one), each batch
/// after four times the last.
pub fn leaderboard_in_batches(
    conn: &mut DbConn,
    variant: &str,
    now: NaiveDateTime,
    limit: usize,
    batch: usize,
) -> Result<(Vec<Leader>, Vec<Leader>), Error> {
    let established = walk(conn, variant, now, limit, batch, false)?;
    let provisional = walk(conn, variant, now, limit, batch, true)?;
    Ok((established, provisional))
}

/// The condition of the partial index `ratings_established`: a stored
/// deviation no rest has grown past
/// [`PROVISIONAL_ABOVE`](crate::domain::rating::PROVISIONAL_ABOVE) yet.
const ESTABLISHED_WHERE: &str = "ratings.deviation <= 110";

/// The most rows one batch of a leaderboard walk reads.
const MAX_BATCH: usize = 10_000;

/// One list of the leaderboard: the best `limit` active players whose
/// rating at `now` is `provisional` or not, best first (ties by name).
fn walk(
    conn: &mut DbConn,
    variant: &str,
    now: NaiveDateTime,
    limit: usize,
    batch: usize,
    provisional: bool,
) -> Result<Vec<Leader>, Error> {
    use crate::db::schema::users;
    let since = now - TimeDelta::days(ACTIVE_DAYS);
    let mut batch = batch.clamp(1, MAX_BATCH);
    let mut leaders: Vec<Leader> = Vec::new();
    // The last row read: (rating, user id), in the walk's order.
    let mut after: Option<(f64, i32)> = None;
    loop {
        // Built per backend: a boxed query is tied to its backend.
        let rows: Vec<(String, StandingRow)> = per_backend!(conn, |c| {
            let mut q = ratings::table
                .inner_join(users::table.on(users::id.eq(ratings::user_id)))
                .filter(ratings::variant.eq(variant))
                .filter(ratings::games.gt(0))
                .filter(ratings::last_played_at.ge(since))
                .filter(users::deleted_at.is_null())
                .select((users::username, STANDING))
                .order((ratings::rating.desc(), ratings::user_id.desc()))
                .limit(batch as i64)
                .into_boxed();
            if !provisional {
                // Written out, not bound: the partial index
                // `ratings_established` (deviation <= 110) is used only
                // when the planner can see the statement asks no more.
                q = q.filter(diesel::dsl::sql::<diesel::sql_types::Bool>(
                    ESTABLISHED_WHERE,
                ));
            }
            if let Some((rating, user)) = after {
                // `rating <= r` is a range of the index; the OR form
                // (`rating < r OR rating = r AND user_id < u`) was not used
                // as one, and every batch walked from the top again.
                q = q
                    .filter(ratings::rating.le(rating))
                    .filter(diesel::dsl::not(
                        ratings::rating.eq(rating).and(ratings::user_id.ge(user)),
                    ));
            }
            q.load(c)
        })?;
        let read = rows.len();
        after = rows.last().map(|(_, r)| (r.2, r.0));
        leaders.extend(
            rows.into_iter()
                .map(|(username, r)| Leader {
                    user_id: r.0,
                    username,
                    rating: standing_of(&r).at(now),
                    games: r.5,
                })
                .filter(|l| l.rating.provisional() == provisional),
        );
        let Some((floor, _)) = after else { break };
        // Settled when `limit` players are rated above every row not yet
        // read (ties with the last row may still come).
        if read < batch || leaders.iter().filter(|l| l.rating.rating > floor).count() >= limit {
            break;
        }
        batch = batch.saturating_mul(4).min(MAX_BATCH);
    }
    leaders.sort_by(|a, b| {
        b.rating
            .rating
            .total_cmp(&a.rating.rating)
            .then_with(|| a.username.cmp(&b.username))
    });
    leaders.truncate(limit);
    Ok(leaders)
}

/// Some players' ratings in every variant, for lists that mix variants
/// (the dashboard, the seeks).
pub struct RatingTable {
    standings: HashMap<(i32, String), Standing>,
    now: NaiveDateTime,
}

impl RatingTable {
    /// `user`'s rating in `variant` at the table's time (a newcomer's if none).
    pub fn rating(&self, user: i32, variant: &str) -> Rating {
        self.standings
            .get(&(user, variant.to_string()))
            .copied()
            .unwrap_or_default()
            .at(self.now)
    }

    /// As shown beside a name: `1612`, `1500?`.
    pub fn shown(&self, user: i32, variant: &str) -> String {
        self.rating(user, variant).shown()
    }
}

/// The ratings of `users` in every variant they have one, at `now`.
pub fn table_of(
    conn: &mut DbConn,
    users: &[i32],
    now: NaiveDateTime,
) -> Result<RatingTable, Error> {
    let rows: Vec<StandingRow> = per_backend!(conn, |c| ratings::table
        .filter(ratings::user_id.eq_any(users))
        .select(STANDING)
        .load(c))?;
    Ok(RatingTable {
        standings: rows
            .into_iter()
            .map(|r| ((r.0, r.1.clone()), standing_of(&r)))
            .collect(),
        now,
    })
}

/// Make `user`'s row in `variant` (a newcomer's if missing) and lock it
/// until the transaction ends.
pub fn lock(conn: &mut DbConn, user: i32, variant: &str) -> Result<(), Error> {
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

/// Store `user`'s standing in `variant` (its row exists).
pub fn write_standing(
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

/// A game's change of one player's rating.
pub fn insert_change(
    conn: &mut DbConn,
    game: GameId,
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

/// Forget every rating and change (a rebuild writes them all anew).
pub fn clear(conn: &mut DbConn) -> Result<(), Error> {
    diesel::delete(rating_changes::table).execute(conn)?;
    diesel::delete(ratings::table).execute(conn)?;
    Ok(())
}

/// `user`'s standing in `variant`, as a rebuild found it (the row is made
/// first, as a newcomer's).
pub fn insert_standing(
    conn: &mut DbConn,
    user: i32,
    variant: &str,
    s: &Standing,
) -> Result<(), Error> {
    lock(conn, user, variant)?;
    write_standing(conn, user, variant, s)
}

/// Hold off games ending while a rebuild runs in this transaction: they
/// wait for it, then move the rebuilt ratings. On SQLite, the one writer's
/// lock is taken before anything is read.
pub fn lock_for_rebuild(conn: &mut DbConn) -> Result<(), Error> {
    match conn {
        DbConn::Postgresql(c) => {
            diesel::sql_query("LOCK TABLE ratings, rating_changes IN SHARE ROW EXCLUSIVE MODE")
                .execute(c)?;
        }
        DbConn::Sqlite(c) => {
            diesel::sql_query("DELETE FROM rating_changes").execute(c)?;
        }
    }
    Ok(())
}

// The games' rating columns, as ratings read and write them.

/// Rated games, in progress or finished, between `a` and `b` accepted at or
/// after `since`.
pub fn rated_between_since(
    conn: &mut DbConn,
    a: i32,
    b: i32,
    since: NaiveDateTime,
) -> Result<i64, Error> {
    Ok(crate::db::schema::games::table
        .filter(crate::db::schema::games::rated.eq(true))
        .filter(
            crate::db::schema::games::status
                .eq(crate::domain::game_state::GameStatus::Active.code())
                .or(crate::db::schema::games::status
                    .eq(crate::domain::game_state::GameStatus::Finished.code())),
        )
        .filter(
            (crate::db::schema::games::white_id
                .eq(a)
                .and(crate::db::schema::games::black_id.eq(b)))
            .or(crate::db::schema::games::white_id
                .eq(b)
                .and(crate::db::schema::games::black_id.eq(a))),
        )
        .filter(crate::db::schema::games::accepted_at.ge(since))
        .count()
        .get_result(conn)?)
}

/// Set the place of a game in the order ratings moved.
pub fn set_rating_seq(conn: &mut DbConn, game: GameId, seq: i64) -> Result<(), Error> {
    diesel::update(crate::db::schema::games::table.find(game))
        .set(crate::db::schema::games::rating_seq.eq(Some(seq)))
        .execute(conn)?;
    Ok(())
}

/// A finished rated game as a ratings rebuild replays it: id, variant,
/// White, Black, result, end, place in the order ratings moved.
pub type RatedEnding = (
    GameId,
    String,
    Option<i32>,
    Option<i32>,
    Option<String>,
    Option<NaiveDateTime>,
    Option<i64>,
);

/// Every finished rated game, in the order they ended.
pub fn rated_endings(conn: &mut DbConn) -> Result<Vec<RatedEnding>, Error> {
    Ok(per_backend!(conn, |c| crate::db::schema::games::table
        .filter(crate::db::schema::games::rated.eq(true))
        .filter(
            crate::db::schema::games::status
                .eq(crate::domain::game_state::GameStatus::Finished.code())
        )
        .filter(crate::db::schema::games::result.is_not_null())
        .filter(crate::db::schema::games::ended_at.is_not_null())
        .order((
            crate::db::schema::games::ended_at.asc(),
            crate::db::schema::games::id.asc()
        ))
        .select((
            crate::db::schema::games::id,
            crate::db::schema::games::variant,
            crate::db::schema::games::white_id,
            crate::db::schema::games::black_id,
            crate::db::schema::games::result,
            crate::db::schema::games::ended_at,
            crate::db::schema::games::rating_seq,
        ))
        .load(c))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_established_condition_is_the_provisional_line() {
        assert_eq!(
            ESTABLISHED_WHERE,
            format!(
                "ratings.deviation <= {}",
                crate::domain::rating::PROVISIONAL_ABOVE
            )
        );
    }
}
