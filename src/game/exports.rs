//! Game exports (`.pgn`, `.txt`, a player's games): the rows read in one
//! step, written in another, so the database connection goes back to the
//! pool before any rules work, and finished games' records kept.
//!
//! A record is kept by everything in the game row it is written from
//! (status, result, reason, players, end, ply, last change) besides the
//! game's id: a finished game's moves never change and usernames never
//! change, so a kept record can never be stale, even when a director later
//! changes a finished game's reason (a replaced player).

use crate::db::games::{self, GameRow};
use crate::db::moves::{self, MoveRow};
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::GameStatus;
use crate::domain::ids::GameId;
use crate::domain::rating::Change;
use crate::game::records::{write_rated_game, Format};
use chrono::NaiveDateTime;
use quick_cache::sync::Cache;
use quick_cache::Weighter;
use std::collections::HashMap;
use std::sync::Arc;

/// What a record is written from, in the game row.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RecordKey {
    id: GameId,
    format: Format,
    status: &'static str,
    result: Option<&'static str>,
    reason: Option<String>,
    white: Option<i32>,
    black: Option<i32>,
    ply: i32,
    updated_at: NaiveDateTime,
    ended_at: Option<NaiveDateTime>,
}

impl RecordKey {
    fn of(row: &GameRow, format: Format) -> RecordKey {
        RecordKey {
            id: row.id,
            format,
            status: row.status.code(),
            result: row.result.map(|r| r.code()),
            reason: row.reason.map(|r| r.code().to_string()),
            white: row.white_id,
            black: row.black_id,
            ply: row.ply,
            updated_at: row.updated_at,
            ended_at: row.ended_at,
        }
    }
}

#[derive(Clone)]
struct Bytes;

impl Weighter<RecordKey, Arc<String>> for Bytes {
    fn weight(&self, _: &RecordKey, text: &Arc<String>) -> u64 {
        text.len() as u64 + 128
    }
}

/// Finished games' records, by [`RecordKey`].
pub struct RecordCache {
    records: Cache<RecordKey, Arc<String>, Bytes>,
}

impl RecordCache {
    pub fn new(bytes: u64) -> RecordCache {
        RecordCache {
            records: Cache::with_weighter(((bytes / 8_192) as usize).max(16), bytes.max(1), Bytes),
        }
    }

    fn get(&self, row: &GameRow, format: Format) -> Option<Arc<String>> {
        (row.status == GameStatus::Finished)
            .then(|| self.records.get(&RecordKey::of(row, format)))
            .flatten()
    }

    fn keep(&self, row: &GameRow, format: Format, text: &Arc<String>) {
        if row.status == GameStatus::Finished {
            self.records
                .insert(RecordKey::of(row, format), Arc::clone(text));
        }
    }
}

/// One game to write: its row and moves, or its record already kept.
pub enum Loaded {
    Kept(Arc<String>),
    /// The row, its moves, and what it did to its players' ratings.
    Rows(Box<GameRow>, Vec<MoveRow>, HashMap<i32, Change>),
}

/// Games read for an export, with their players' names.
pub struct ExportRows {
    pub games: Vec<Loaded>,
    pub names: HashMap<i32, String>,
}

/// Read the given games for an export: their players' names at once, and
/// each one's moves only if its record is not kept.
pub fn load_rows(
    conn: &mut DbConn,
    rows: Vec<GameRow>,
    cache: &RecordCache,
    format: Format,
) -> Result<ExportRows, Error> {
    let names = crate::db::users::player_names(conn, &rows)?;
    let mut games = Vec::with_capacity(rows.len());
    for row in rows {
        games.push(match cache.get(&row, format) {
            Some(text) => Loaded::Kept(text),
            None => {
                let moves = moves::of_game(conn, row.id)?;
                let ratings = match row.rated && row.status == GameStatus::Finished {
                    true => crate::db::ratings::of_game(conn, row.id)?,
                    false => HashMap::new(),
                };
                Loaded::Rows(Box::new(row), moves, ratings)
            }
        });
    }
    Ok(ExportRows { games, names })
}

/// Read one game for an export (its moves only if its record is not kept).
pub fn load_game(
    conn: &mut DbConn,
    id: GameId,
    cache: &RecordCache,
    format: Format,
) -> Result<ExportRows, Error> {
    let row = games::load(conn, id)?;
    load_rows(conn, vec![row], cache, format)
}

/// Read every started game (in progress or finished) of a user, oldest
/// first, for one PGN file. `None` when there is no such user.
pub fn load_user_games(
    conn: &mut DbConn,
    username: &str,
    cache: &RecordCache,
) -> Result<Option<ExportRows>, Error> {
    let Some(user) = crate::db::users::find_by_name(conn, username)? else {
        return Ok(None);
    };
    let rows = games::started_games_of(conn, user.id)?;
    load_rows(conn, rows, cache, Format::Pgn).map(Some)
}

/// Write the games read (no database here: this is the rules work), keeping
/// finished games' records.
pub fn write(
    loaded: ExportRows,
    cache: &RecordCache,
    site: &str,
    format: Format,
) -> Result<String, Error> {
    let mut out = String::new();
    for game in loaded.games {
        match game {
            Loaded::Kept(text) => out.push_str(&text),
            Loaded::Rows(row, moves, ratings) => {
                let text = Arc::new(write_rated_game(
                    &row,
                    &moves,
                    &loaded.names,
                    &ratings,
                    site,
                    format,
                )?);
                cache.keep(&row, format, &text);
                out.push_str(&text);
            }
        }
    }
    Ok(out)
}
