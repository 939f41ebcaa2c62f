//! Games' rows and the queries on them: loading and listing games, storing
//! a new one with its repetition history, the guarded updates of the acts
//! (a move, a takeback, an acceptance, an ending), and who plays which side.

use crate::db::coded::MaybeCoded;
use crate::db::schema::{game_histories, game_notes, games, moves};
use crate::db::{per_backend, DbConn};
use crate::domain::error::Error;
use crate::domain::game_state::{
    EndReason, GameResult, GameStatus, OnTimeout, Side, UnratedReason,
};
use crate::domain::ids::GameId;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use missive_rules::Color;

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = games)]
pub struct GameRow {
    pub id: GameId,
    pub variant: String,
    #[diesel(deserialize_as = String)]
    pub status: GameStatus,
    pub challenger_id: i32,
    pub opponent_id: Option<i32>,
    pub white_id: Option<i32>,
    pub black_id: Option<i32>,
    #[diesel(deserialize_as = String)]
    pub challenger_color: Side,
    pub start_fen: String,
    pub fen: String,
    pub ply: i32,
    /// The side to move (kept as the game's FEN has it).
    #[diesel(deserialize_as = String)]
    pub turn: Side,
    #[diesel(deserialize_as = MaybeCoded<GameResult>)]
    pub result: Option<GameResult>,
    #[diesel(deserialize_as = MaybeCoded<EndReason>)]
    pub reason: Option<EndReason>,
    /// The side whose draw offer stands.
    #[diesel(deserialize_as = MaybeCoded<Side>)]
    pub draw_offer: Option<Side>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub ended_at: Option<NaiveDateTime>,
    /// Canonical text of the time control; `None`: no clock.
    pub time_control: Option<String>,
    /// White's bank: when White's turn began if White is to move, else now.
    pub white_clock_secs: Option<i64>,
    pub black_clock_secs: Option<i64>,
    /// When the current turn began (the clock of the side to move runs from here).
    pub turn_started_at: Option<NaiveDateTime>,
    /// When the mover's time runs out, leave ignored (leave only delays it).
    pub clock_deadline: Option<NaiveDateTime>,
    /// When the mover's reminder is due, leave ignored.
    pub clock_remind_at: Option<NaiveDateTime>,
    /// The ply at which the last reminder was queued.
    pub reminded_ply: Option<i32>,
    /// Only the first N leave days of each year stop this game's clocks.
    pub leave_cap_days: Option<i32>,
    pub tournament_id: Option<i32>,
    pub round: Option<i32>,
    /// Moves with every change to the game's conditional lines (a move's
    /// guard: lines read before an edit are not played after it).
    pub conditional_rev: i32,
    /// How many conditional lines the game's players keep.
    pub conditional_count: i32,
    /// The side whose takeback request stands.
    #[diesel(deserialize_as = MaybeCoded<Side>)]
    pub takeback_offer: Option<Side>,
    /// Takebacks the game has had (part of what kept plies are found by).
    pub takebacks: i32,
    /// The game moves its players' ratings when it ends (issue 39).
    pub rated: bool,
    /// An open seek's rating range: who may accept it.
    pub rating_min: Option<i32>,
    pub rating_max: Option<i32>,
    /// The silence rule: days without a move (leave excepted) after which
    /// the game is lost; `None`: no such rule.
    pub silence_days: Option<i32>,
    #[diesel(deserialize_as = String)]
    pub on_timeout: OnTimeout,
    /// The ply whose silence warnings `silence_stage` counts.
    pub silence_ply: Option<i32>,
    pub silence_stage: i32,
    /// With `on_timeout` = claim: the side whose flag fell, unclaimed yet.
    #[diesel(deserialize_as = MaybeCoded<Side>)]
    pub flag_fell_side: Option<Side>,
    /// When an unclaimed fallen flag becomes a loss on time.
    pub claim_until: Option<NaiveDateTime>,
    /// The mover's reminder thresholds already sent at `reminded_ply`.
    pub reminder_stage: i32,
    /// Why a game asked for rated is played unrated.
    #[diesel(deserialize_as = MaybeCoded<UnratedReason>)]
    pub unrated_reason: Option<UnratedReason>,
    /// When a challenge or open seek was accepted; `None` for a game
    /// paired by a tournament (or not yet accepted).
    pub accepted_at: Option<NaiveDateTime>,
    /// Saturdays and Sundays in the mover's time zone do not count on
    /// their clock (issue 64).
    pub weekends_free: bool,
}

/// How many games `user_id` plays that are running.
pub fn running_count_of(
    conn: &mut DbConn,
    user_id: i32,
) -> Result<i64, crate::domain::error::Error> {
    Ok(crate::db::schema::games::table
        .filter(
            crate::db::schema::games::white_id
                .eq(user_id)
                .or(crate::db::schema::games::black_id.eq(user_id)),
        )
        .filter(
            crate::db::schema::games::status
                .eq(crate::domain::game_state::GameStatus::Active.code()),
        )
        .count()
        .get_result(conn)?)
}

/// Every game `user_id` plays, played, offered or was offered, by id.
pub fn every_game_of(
    conn: &mut DbConn,
    user_id: i32,
) -> Result<Vec<crate::db::games::GameRow>, crate::domain::error::Error> {
    Ok(crate::db::schema::games::table
        .filter(
            crate::db::schema::games::white_id
                .eq(user_id)
                .or(crate::db::schema::games::black_id.eq(user_id))
                .or(crate::db::schema::games::challenger_id.eq(user_id))
                .or(crate::db::schema::games::opponent_id.eq(user_id)),
        )
        .order(crate::db::schema::games::id.asc())
        .select(crate::db::games::GameRow::as_select())
        .load(conn)?)
}

/// Unanswered challenges and open seeks go: taken back when `user_id`
/// made them, declined when they were asked.
pub fn take_back_challenges(
    conn: &mut DbConn,
    user_id: i32,
    now: chrono::NaiveDateTime,
) -> Result<(), crate::domain::error::Error> {
    let pending =
        crate::db::schema::games::status.eq(crate::domain::game_state::GameStatus::Pending.code());
    diesel::update(
        crate::db::schema::games::table
            .filter(pending)
            .filter(crate::db::schema::games::challenger_id.eq(user_id)),
    )
    .set((
        crate::db::schema::games::status
            .eq(crate::domain::game_state::GameStatus::Withdrawn.code()),
        crate::db::schema::games::updated_at.eq(now),
    ))
    .execute(conn)?;
    diesel::update(
        crate::db::schema::games::table
            .filter(pending)
            .filter(crate::db::schema::games::opponent_id.eq(user_id)),
    )
    .set((
        crate::db::schema::games::status.eq(crate::domain::game_state::GameStatus::Declined.code()),
        crate::db::schema::games::updated_at.eq(now),
    ))
    .execute(conn)?;
    Ok(())
}

#[cfg(test)]
impl GameRow {
    /// An active chess game `id` between users 1 and 2 at `ply` and `fen`.
    pub fn for_tests(id: i32, ply: i32, fen: &str, created_at: NaiveDateTime) -> GameRow {
        GameRow {
            id: GameId(id),
            variant: "chess".into(),
            status: GameStatus::Active,
            challenger_id: 1,
            opponent_id: Some(2),
            white_id: Some(1),
            black_id: Some(2),
            challenger_color: Side::White,
            start_fen: fen.into(),
            fen: fen.into(),
            ply,
            turn: Side::White,
            result: None,
            reason: None,
            draw_offer: None,
            created_at,
            updated_at: created_at,
            ended_at: None,
            time_control: None,
            white_clock_secs: None,
            black_clock_secs: None,
            turn_started_at: None,
            clock_deadline: None,
            clock_remind_at: None,
            reminded_ply: None,
            leave_cap_days: None,
            tournament_id: None,
            round: None,
            conditional_rev: 0,
            conditional_count: 0,
            takeback_offer: None,
            takebacks: 0,
            rated: false,
            rating_min: None,
            rating_max: None,
            silence_days: None,
            on_timeout: OnTimeout::Lose,
            silence_ply: None,
            silence_stage: 0,
            flag_fell_side: None,
            claim_until: None,
            reminder_stage: 0,
            unrated_reason: None,
            accepted_at: None,
            weekends_free: false,
        }
    }
}

#[derive(Insertable, Clone)]
#[diesel(table_name = games)]
pub struct NewGame<'a> {
    pub variant: &'a str,
    #[diesel(serialize_as = String)]
    pub status: GameStatus,
    pub challenger_id: i32,
    pub opponent_id: Option<i32>,
    pub white_id: Option<i32>,
    pub black_id: Option<i32>,
    #[diesel(serialize_as = String)]
    pub challenger_color: Side,
    pub start_fen: &'a str,
    pub fen: &'a str,
    pub ply: i32,
    #[diesel(serialize_as = String)]
    pub turn: Side,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub time_control: Option<String>,
    pub leave_cap_days: Option<i32>,
    pub rated: bool,
    pub rating_min: Option<i32>,
    pub rating_max: Option<i32>,
    pub weekends_free: bool,
}

/// Which side a user plays in a game, if any.
pub fn side_of(row: &GameRow, user_id: i32) -> Option<Color> {
    if row.white_id == Some(user_id) {
        Some(Color::White)
    } else if row.black_id == Some(user_id) {
        Some(Color::Black)
    } else {
        None
    }
}

/// The other player of a game `user_id` plays in (`None` if they do not,
/// or the seat is open).
pub fn opponent_of(row: &GameRow, user_id: i32) -> Option<i32> {
    player_of(row, side_of(row, user_id)?.opponent())
}

pub fn player_of(row: &GameRow, color: Color) -> Option<i32> {
    match color {
        Color::White => row.white_id,
        Color::Black => row.black_id,
        Color::Neutral => None,
    }
}

/// The player whose turn it is, if the game is in progress.
pub fn player_to_move(row: &GameRow) -> Option<i32> {
    if row.status != GameStatus::Active {
        return None;
    }
    player_of(row, row.turn.color())
}

/// A result and reason in words ("White wins by checkmate").
pub fn describe_result(row: &GameRow, side_names: [&str; 2]) -> Option<String> {
    let by = row
        .reason
        .map(|r| format!(" by {}", r.describe()))
        .unwrap_or_default();
    Some(match row.result? {
        GameResult::WhiteWins => format!("{} wins{by}", side_names[0]),
        GameResult::BlackWins => format!("{} wins{by}", side_names[1]),
        GameResult::Draw => format!("Draw{by}"),
    })
}

/// A game's repetition history ([`Game::history_string`](missive_rules::Game::history_string)): its
/// `game_histories` row (the history up to that row's ply) followed by the
/// entries its later moves added. Kept apart from the game's row, which
/// every list and page reads, because only restoring a game needs it, and a
/// long game's runs to kilobytes: a move stores only the entry it adds.
pub fn history_of(conn: &mut DbConn, id: GameId) -> Result<String, Error> {
    let (base_ply, mut history): (i32, String) = per_backend!(conn, |c| game_histories::table
        .find(id)
        .select((game_histories::ply, game_histories::history))
        .first(c)
        .optional())?
    .ok_or_else(|| Error::internal(format!("game {id} has no history")))?;
    let later: Vec<(i32, Option<String>)> = per_backend!(conn, |c| moves::table
        .filter(moves::game_id.eq(id))
        .filter(moves::ply.gt(base_ply))
        .order(moves::ply.asc())
        .select((moves::ply, moves::history_entry))
        .load(c))?;
    history.reserve(later.len() * 18);
    for (ply, entry) in later {
        let entry = entry
            .ok_or_else(|| Error::internal(format!("game {id}: ply {ply} has no history entry")))?;
        history.push(',');
        history.push_str(&entry);
    }
    Ok(history)
}

/// The ply up to which the game's `game_histories` row holds its history
/// (the plies at or before it cannot be taken back).
pub fn history_base_ply(conn: &mut DbConn, id: GameId) -> Result<i32, Error> {
    Ok(per_backend!(conn, |c| game_histories::table
        .find(id)
        .select(game_histories::ply)
        .first(c))?)
}

/// Store a new game and its history (up to `new.ply`; run it in a
/// transaction); its id.
pub fn insert(conn: &mut DbConn, new: &NewGame, history: &str) -> Result<GameId, Error> {
    let id: GameId = per_backend!(conn, |c| diesel::insert_into(games::table)
        .values(new.clone())
        .returning(games::id)
        .get_result(c))?;
    diesel::insert_into(game_histories::table)
        .values((
            game_histories::game_id.eq(id),
            game_histories::ply.eq(new.ply),
            game_histories::history.eq(history),
        ))
        .execute(conn)?;
    Ok(id)
}

pub fn load(conn: &mut DbConn, id: GameId) -> Result<GameRow, Error> {
    per_backend!(conn, |c| games::table
        .find(id)
        .select(GameRow::as_select())
        .first(c)
        .optional())?
    .ok_or_else(|| Error::NotFound(format!("There is no game {id}.")))
}

/// The game and, for a `viewer`, their private note on it, in one statement
/// (a round trip less for a PostgreSQL game page).
pub fn load_with_note(
    conn: &mut DbConn,
    id: GameId,
    viewer: Option<i32>,
) -> Result<(GameRow, Option<String>), Error> {
    let Some(uid) = viewer else {
        return Ok((load(conn, id)?, None));
    };
    per_backend!(conn, |c| games::table
        .left_join(
            game_notes::table.on(game_notes::game_id
                .eq(games::id)
                .and(game_notes::user_id.eq(uid))),
        )
        .filter(games::id.eq(id))
        .select((GameRow::as_select(), game_notes::body.nullable()))
        .first(c)
        .optional())?
    .ok_or_else(|| Error::NotFound(format!("There is no game {id}.")))
}

/// Whether `user_id` plays in or created a game.
macro_rules! of_user {
    ($user_id:expr) => {
        games::white_id
            .eq($user_id)
            .or(games::black_id.eq($user_id))
            .or(games::challenger_id.eq($user_id))
            .or(games::opponent_id.eq($user_id))
    };
}

/// A user's open games: challenges and seeks not yet answered, and the
/// games running.
pub fn open_games_of(conn: &mut DbConn, user_id: i32) -> Result<Vec<GameRow>, Error> {
    Ok(games::table
        .filter(of_user!(user_id))
        .filter(games::status.eq_any([GameStatus::Pending.code(), GameStatus::Active.code()]))
        .select(GameRow::as_select())
        .load(conn)?)
}

/// The latest `limit` of a user's closed games (finished, declined,
/// withdrawn) that `keep` keeps (by variant and tournament), the latest
/// ended first. Only their ids and times are read for the whole history,
/// whole rows for the chosen ones: a player of years has thousands.
pub fn latest_closed_of(
    conn: &mut DbConn,
    user_id: i32,
    limit: usize,
    keep: impl Fn(&str, Option<i32>) -> bool,
) -> Result<Vec<GameRow>, Error> {
    type Brief = (
        GameId,
        String,
        Option<i32>,
        Option<NaiveDateTime>,
        NaiveDateTime,
    );
    let mut brief: Vec<Brief> = games::table
        .filter(of_user!(user_id))
        .filter(games::status.ne_all([GameStatus::Pending.code(), GameStatus::Active.code()]))
        .select((
            games::id,
            games::variant,
            games::tournament_id,
            games::ended_at,
            games::updated_at,
        ))
        .load(conn)?;
    brief.retain(|b| keep(&b.1, b.2));
    brief.sort_by_key(|b| std::cmp::Reverse((b.3.unwrap_or(b.4), b.0)));
    brief.truncate(limit);
    let ids: Vec<GameId> = brief.iter().map(|b| b.0).collect();
    let mut rows: Vec<GameRow> = games::table
        .filter(games::id.eq_any(&ids))
        .select(GameRow::as_select())
        .load(conn)?;
    rows.sort_by_key(|g| ids.iter().position(|&id| id == g.id));
    Ok(rows)
}

/// Every game a user takes part in or has created.
pub fn games_of(conn: &mut DbConn, user_id: i32) -> Result<Vec<GameRow>, Error> {
    Ok(games::table
        .filter(of_user!(user_id))
        .select(GameRow::as_select())
        .load(conn)?)
}

/// The latest 200 open seeks by players other than `user_id`, newest first
/// (whether their rating range admits the user is the caller's to say).
pub fn open_seeks_for(conn: &mut DbConn, user_id: i32) -> Result<Vec<GameRow>, Error> {
    Ok(games::table
        .filter(games::status.eq(GameStatus::Pending.code()))
        .filter(games::opponent_id.is_null())
        .filter(games::challenger_id.ne(user_id))
        .order(games::created_at.desc())
        .limit(200)
        .select(GameRow::as_select())
        .load(conn)?)
}

/// Every started game (in progress or finished) a user plays, oldest first.
pub fn started_games_of(conn: &mut DbConn, user_id: i32) -> Result<Vec<GameRow>, Error> {
    Ok(games::table
        .filter(games::white_id.eq(user_id).or(games::black_id.eq(user_id)))
        .filter(games::status.eq_any([GameStatus::Active.code(), GameStatus::Finished.code()]))
        .order(games::id.asc())
        .select(GameRow::as_select())
        .load(conn)?)
}

/// The games a user plays that are in progress, oldest first.
pub fn active_games_of(conn: &mut DbConn, user_id: i32) -> Result<Vec<GameRow>, Error> {
    Ok(games::table
        .filter(games::white_id.eq(user_id).or(games::black_id.eq(user_id)))
        .filter(games::status.eq(GameStatus::Active.code()))
        .order(games::id.asc())
        .select(GameRow::as_select())
        .load(conn)?)
}

/// How many games are in progress (for `/metrics`).
pub fn active_count(conn: &mut DbConn) -> Result<i64, Error> {
    Ok(per_backend!(conn, |c| games::table
        .filter(games::status.eq(GameStatus::Active.code()))
        .count()
        .get_result(c))?)
}

/// The games in progress where it is `user_id`'s turn, the one waiting
/// longest first (`updated_at` is set by the move or the acceptance that
/// gave the turn; draw offers do not touch it).
pub fn waiting_on(conn: &mut DbConn, user_id: i32) -> Result<Vec<GameRow>, Error> {
    Ok(games::table
        .filter(games::status.eq(GameStatus::Active.code()))
        .filter(
            games::turn
                .eq(Side::White.code())
                .and(games::white_id.eq(user_id))
                .or(games::turn
                    .eq(Side::Black.code())
                    .and(games::black_id.eq(user_id))),
        )
        .order((games::updated_at.asc(), games::id.asc()))
        .select(GameRow::as_select())
        .load(conn)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_in_the_sides_own_names() {
        let at = chrono::NaiveDate::from_ymd_opt(2026, 1, 1)
            .unwrap()
            .and_hms_opt(0, 0, 0)
            .unwrap();
        let mut row = GameRow::for_tests(1, 0, "-", at);
        assert_eq!(describe_result(&row, ["Red", "Black"]), None);
        row.result = Some(GameResult::WhiteWins);
        row.reason = Some(EndReason::Rules(missive_rules::Reason::BareKing));
        assert_eq!(
            describe_result(&row, ["Red", "Black"]).as_deref(),
            Some("Red wins by bare king")
        );
        // No reason stored: no dangling "by".
        row.result = Some(GameResult::Draw);
        row.reason = None;
        assert_eq!(
            describe_result(&row, ["White", "Black"]).as_deref(),
            Some("Draw")
        );
    }
}
