//! Bulk loading (`missive dev populate`): rows of the tables a generated
//! database fills, inserted many to a statement (multi-row `INSERT` with
//! bound values on both backends), with their ids chosen by the caller.
//! Nothing the server runs uses this.

use crate::db::schema::{
    conditional_lines, email_outbox, game_histories, game_notes, games, moves, rating_changes,
    ratings, tournament_byes, tournament_players, tournaments, users, verified_emails,
};
use crate::db::{per_backend, Backend, DbConn};
use crate::domain::ids::GameId;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::BigInt;

/// Bound values per statement: under SQLite's 32,766 and PostgreSQL's 65,535.
const VALUES_PER_STATEMENT: usize = 30_000;

#[derive(Insertable, Clone)]
#[diesel(table_name = users)]
#[diesel(treat_none_as_default_value = false)]
pub struct UserIns {
    pub id: i32,
    pub username: String,
    pub username_key: String,
    pub email: String,
    pub password_hash: String,
    pub confirm_moves: bool,
    pub created_at: NaiveDateTime,
    pub is_director: bool,
}

#[derive(Insertable, Clone)]
#[diesel(table_name = verified_emails)]
pub struct VerifiedIns {
    pub user_id: i32,
    pub email: String,
    pub verified_at: NaiveDateTime,
}

/// A game row: the columns a generated game sets (the rest keep their
/// defaults).
#[derive(Insertable, Clone)]
#[diesel(table_name = games)]
#[diesel(treat_none_as_default_value = false)]
pub struct GameIns {
    pub id: GameId,
    pub variant: String,
    pub status: String,
    pub challenger_id: i32,
    pub opponent_id: Option<i32>,
    pub white_id: Option<i32>,
    pub black_id: Option<i32>,
    pub challenger_color: String,
    pub start_fen: String,
    pub fen: String,
    pub ply: i32,
    pub turn: String,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub ended_at: Option<NaiveDateTime>,
    pub time_control: Option<String>,
    pub white_clock_secs: Option<i64>,
    pub black_clock_secs: Option<i64>,
    pub turn_started_at: Option<NaiveDateTime>,
    pub clock_deadline: Option<NaiveDateTime>,
    pub tournament_id: Option<i32>,
    pub round: Option<i32>,
    pub conditional_count: i32,
    pub rated: bool,
    pub rating_seq: Option<i64>,
    pub accepted_at: Option<NaiveDateTime>,
}

#[derive(Insertable, Clone)]
#[diesel(table_name = game_histories)]
pub struct HistoryIns {
    pub game_id: GameId,
    pub ply: i32,
    pub history: String,
}

#[derive(Insertable, Clone)]
#[diesel(table_name = moves)]
#[diesel(treat_none_as_default_value = false)]
pub struct MoveIns {
    pub game_id: GameId,
    pub ply: i32,
    pub display: String,
    pub coordinate: String,
    pub from_square: Option<String>,
    pub to_square: String,
    pub fen_after: String,
    pub played_by: i32,
    pub played_at: NaiveDateTime,
    pub comment: Option<String>,
    pub time_used_secs: Option<i64>,
    pub turn_no: i32,
    pub history_entry: Option<String>,
    pub conditional: bool,
    pub bank_after: Option<i64>,
}

#[derive(Insertable, Clone)]
#[diesel(table_name = game_notes)]
pub struct NoteIns {
    pub game_id: GameId,
    pub user_id: i32,
    pub body: String,
    pub updated_at: NaiveDateTime,
}

#[derive(Insertable, Clone)]
#[diesel(table_name = conditional_lines)]
pub struct LineIns {
    pub game_id: GameId,
    pub user_id: i32,
    pub from_ply: i32,
    pub plies: String,
    pub created_at: NaiveDateTime,
}

#[derive(Insertable, Clone)]
#[diesel(table_name = ratings)]
#[diesel(treat_none_as_default_value = false)]
pub struct RatingIns {
    pub user_id: i32,
    pub variant: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i32,
    pub last_played_at: Option<NaiveDateTime>,
    pub seq: i64,
}

#[derive(Insertable, Clone)]
#[diesel(table_name = rating_changes)]
pub struct RatingChangeIns {
    pub game_id: GameId,
    pub user_id: i32,
    pub variant: String,
    pub rating_before: f64,
    pub deviation_before: f64,
    pub rating_after: f64,
    pub deviation_after: f64,
    pub volatility_after: f64,
    pub at: NaiveDateTime,
}

#[derive(Insertable, Clone)]
#[diesel(table_name = tournaments)]
#[diesel(treat_none_as_default_value = false)]
pub struct TournamentIns {
    pub id: i32,
    pub name: String,
    pub variant: String,
    pub time_control: Option<String>,
    pub format: String,
    pub rounds: i32,
    pub entry_opens: NaiveDateTime,
    pub entry_closes: NaiveDateTime,
    pub max_players: i32,
    pub entrants: i32,
    pub leave_days: i32,
    pub forfeit_limit: i32,
    pub director_id: i32,
    pub status: String,
    pub current_round: i32,
    pub created_at: NaiveDateTime,
    pub started_at: Option<NaiveDateTime>,
    pub finished_at: Option<NaiveDateTime>,
    pub rated: bool,
}

#[derive(Insertable, Clone)]
#[diesel(table_name = tournament_players)]
pub struct EntrantIns {
    pub tournament_id: i32,
    pub user_id: i32,
    pub seed: Option<i32>,
    pub joined_at: NaiveDateTime,
}

#[derive(Insertable, Clone)]
#[diesel(table_name = tournament_byes)]
pub struct ByeIns {
    pub tournament_id: i32,
    pub round: i32,
    pub user_id: i32,
}

#[derive(Insertable, Clone)]
#[diesel(table_name = email_outbox)]
#[diesel(treat_none_as_default_value = false)]
pub struct OutboxIns {
    pub kind: String,
    pub user_id: i32,
    pub game_id: Option<GameId>,
    pub ply: Option<i32>,
    pub payload: String,
    pub created_at: NaiveDateTime,
    pub attempts: i32,
    pub next_attempt_at: NaiveDateTime,
}

/// Everything one batch writes, in the order foreign keys want.
#[derive(Default)]
pub struct Batch {
    pub users: Vec<UserIns>,
    pub verified: Vec<VerifiedIns>,
    pub tournaments: Vec<TournamentIns>,
    pub entrants: Vec<EntrantIns>,
    pub byes: Vec<ByeIns>,
    pub games: Vec<GameIns>,
    pub histories: Vec<HistoryIns>,
    pub moves: Vec<MoveIns>,
    pub notes: Vec<NoteIns>,
    pub lines: Vec<LineIns>,
    pub ratings: Vec<RatingIns>,
    pub rating_changes: Vec<RatingChangeIns>,
    pub outbox: Vec<OutboxIns>,
}

/// Insert `$rows` into `$table`, as many rows a statement as the bound
/// values allow (`$columns` a row).
macro_rules! insert_chunked {
    ($conn:expr, $table:expr, $rows:expr, $columns:expr) => {{
        let per = (VALUES_PER_STATEMENT / $columns).max(1);
        for chunk in $rows.chunks(per) {
            per_backend!($conn, |c| diesel::insert_into($table)
                .values(chunk)
                .execute(c))?;
        }
    }};
}

impl Batch {
    /// Rows in the batch, all tables together.
    pub fn rows(&self) -> usize {
        self.users.len()
            + self.verified.len()
            + self.tournaments.len()
            + self.entrants.len()
            + self.byes.len()
            + self.games.len()
            + self.histories.len()
            + self.moves.len()
            + self.notes.len()
            + self.lines.len()
            + self.ratings.len()
            + self.rating_changes.len()
            + self.outbox.len()
    }

    /// Write the batch in one transaction.
    pub fn write(&self, conn: &mut DbConn) -> QueryResult<()> {
        crate::db::write_transaction(conn, |conn| {
            insert_chunked!(conn, users::table, self.users, 8);
            insert_chunked!(conn, verified_emails::table, self.verified, 3);
            insert_chunked!(conn, tournaments::table, self.tournaments, 19);
            insert_chunked!(conn, tournament_players::table, self.entrants, 4);
            insert_chunked!(conn, tournament_byes::table, self.byes, 3);
            insert_chunked!(conn, games::table, self.games, 28);
            insert_chunked!(conn, game_histories::table, self.histories, 3);
            insert_chunked!(conn, moves::table, self.moves, 15);
            insert_chunked!(conn, game_notes::table, self.notes, 4);
            insert_chunked!(conn, conditional_lines::table, self.lines, 5);
            insert_chunked!(conn, ratings::table, self.ratings, 8);
            insert_chunked!(conn, rating_changes::table, self.rating_changes, 9);
            insert_chunked!(conn, email_outbox::table, self.outbox, 8);
            Ok(())
        })
    }
}

#[derive(QueryableByName)]
struct Number {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

fn number(conn: &mut DbConn, sql: &str) -> QueryResult<i64> {
    Ok(diesel::sql_query(sql).get_result::<Number>(conn)?.n)
}

/// The largest ids of users, games and tournaments (0 when empty): a
/// generated batch numbers its rows after them.
pub fn last_ids(conn: &mut DbConn) -> QueryResult<(i32, i32, i32)> {
    let max = |conn: &mut DbConn, table: &str| {
        number(
            conn,
            &format!("SELECT CAST(COALESCE(MAX(id), 0) AS BIGINT) AS n FROM {table}"),
        )
        .map(|n| i32::try_from(n).unwrap_or(i32::MAX))
    };
    Ok((
        max(conn, "users")?,
        max(conn, "games")?,
        max(conn, "tournaments")?,
    ))
}

/// After rows were inserted with ids of their own: PostgreSQL's sequences
/// moved past them (SQLite's AUTOINCREMENT follows the largest id itself),
/// and the planner's statistics brought up to date on both (PostgreSQL's
/// tables vacuumed too).
pub fn finish_load(conn: &mut DbConn) -> QueryResult<()> {
    match conn.backend() {
        Backend::Postgres => {
            for table in [
                "users",
                "games",
                "tournaments",
                "tournament_players",
                "game_notes",
            ] {
                diesel::sql_query(format!(
                    "SELECT setval(pg_get_serial_sequence('{table}', 'id'), \
                     GREATEST((SELECT MAX(id) FROM {table}), 1))"
                ))
                .execute(conn)?;
            }
            // VACUUM as well: a database that grew for years has been
            // vacuumed (its visibility map set, its hint bits written);
            // one just loaded has not, and its first readers would pay
            // for it, which is not what the load bench is to measure.
            diesel::sql_query("VACUUM ANALYZE").execute(conn)?;
        }
        Backend::Sqlite => {
            diesel::sql_query("ANALYZE").execute(conn)?;
        }
    }
    Ok(())
}

/// The database's size in bytes: the SQLite file's pages, or PostgreSQL's
/// `pg_database_size`.
pub fn database_bytes(conn: &mut DbConn) -> QueryResult<i64> {
    match conn.backend() {
        Backend::Postgres => number(
            conn,
            "SELECT CAST(pg_database_size(current_database()) AS BIGINT) AS n",
        ),
        Backend::Sqlite => number(
            conn,
            "SELECT CAST(page_count * page_size AS BIGINT) AS n \
             FROM pragma_page_count(), pragma_page_size()",
        ),
    }
}
