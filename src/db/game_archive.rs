//! The archive's query and a player's results: games read by filters and
//! counted by variant, beside `db::games`' own lookups.

use crate::db::games::GameRow;
use crate::db::schema::{games, users};
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::GameStatus;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// The archive's filters, as columns compare them (all optional).
#[derive(Clone, Debug, Default)]
pub struct ArchiveQuery<'a> {
    /// The player's `username_key`: their games as White or Black.
    pub player_key: Option<&'a str>,
    pub tournament: Option<i32>,
    pub variant: Option<&'a str>,
    pub status: Option<&'a str>,
    pub result: Option<&'a str>,
    /// Ended games by their end, latest first; else games by their last
    /// change.
    pub by_end: bool,
    /// The first time included and the first excluded.
    pub from: Option<NaiveDateTime>,
    pub to: Option<NaiveDateTime>,
    pub offset: i64,
    pub limit: i64,
}

/// Started games (challenges never accepted are not listed) matching `f`,
/// one page of them.
pub fn archive(conn: &mut DbConn, f: &ArchiveQuery) -> Result<Vec<GameRow>, Error> {
    let mut q = games::table
        .filter(games::status.eq_any([GameStatus::Active.code(), GameStatus::Finished.code()]))
        .into_boxed();
    if let Some(key) = f.player_key {
        let uid = users::table
            .filter(users::username_key.eq(key))
            .select(users::id)
            .first::<i32>(conn)
            .optional()?
            .unwrap_or(-1);
        q = q.filter(games::white_id.eq(uid).or(games::black_id.eq(uid)));
    }
    if let Some(t) = f.tournament {
        q = q.filter(games::tournament_id.eq(t));
    }
    if let Some(v) = f.variant {
        q = q.filter(games::variant.eq(v.to_string()));
    }
    if let Some(s) = f.status {
        q = q.filter(games::status.eq(s.to_string()));
    }
    if let Some(r) = f.result {
        q = q.filter(games::result.eq(r.to_string()));
    }
    if f.by_end {
        if let Some(t) = f.from {
            q = q.filter(games::ended_at.ge(t));
        }
        if let Some(t) = f.to {
            q = q.filter(games::ended_at.lt(t));
        }
        q = q
            .filter(games::ended_at.is_not_null())
            .order((games::ended_at.desc(), games::id.desc()));
    } else {
        if let Some(t) = f.from {
            q = q.filter(games::updated_at.ge(t));
        }
        if let Some(t) = f.to {
            q = q.filter(games::updated_at.lt(t));
        }
        q = q.order((games::updated_at.desc(), games::id.desc()));
    }
    let q = q
        .offset(f.offset)
        .limit(f.limit)
        .select(GameRow::as_select());
    crate::db::with_generic_plans(conn, |c| q.load::<GameRow>(c).map_err(Error::from))
}

/// Games counted by variant, status and result: (variant, status, result,
/// count).
pub type ResultCount = (String, String, Option<String>, i64);

/// A user's started games counted by variant, status and result, as White
/// and as Black: counted by the database from the indexes `games_white` and
/// `games_black` (player, status, variant, result) alone.
pub fn result_counts(conn: &mut DbConn, user_id: i32) -> Result<[Vec<ResultCount>; 2], Error> {
    let counted = [GameStatus::Active.code(), GameStatus::Finished.code()];
    macro_rules! counts_as {
        ($seat:expr) => {
            games::table
                .filter($seat.eq(user_id))
                .filter(games::status.eq_any(counted))
                .group_by((games::variant, games::status, games::result))
                .select((
                    games::variant,
                    games::status,
                    games::result,
                    diesel::dsl::count_star(),
                ))
                .load::<ResultCount>(conn)?
        };
    }
    let as_white = counts_as!(games::white_id);
    let as_black = counts_as!(games::black_id);
    Ok([as_white, as_black])
}
