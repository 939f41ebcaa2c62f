//! Row types.

use super::coded::MaybeCoded;
use super::schema::*;
use crate::domain::game_state::{
    EndReason, GameResult, GameStatus, OnTimeout, Side, UnratedReason,
};
use chrono::NaiveDateTime;
use diesel::prelude::*;

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = games)]
pub struct GameRow {
    pub id: i32,
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

#[cfg(test)]
impl GameRow {
    /// An active chess game `id` between users 1 and 2 at `ply` and `fen`.
    pub fn for_tests(id: i32, ply: i32, fen: &str, created_at: NaiveDateTime) -> GameRow {
        GameRow {
            id,
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

/// A ply as a page lists it, with what drawing the position after it takes:
/// `MoveRow` without the columns only the exports read. Its timestamp,
/// parsed from text on SQLite, cost more than all of these together.
#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = moves)]
pub struct ListedMove {
    pub ply: i32,
    pub display: String,
    pub from_square: Option<String>,
    pub to_square: String,
    pub fen_after: String,
    pub played_by: i32,
    pub comment: Option<String>,
    pub turn_no: i32,
    /// Played from the mover's conditional line.
    pub conditional: bool,
}

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = moves)]
pub struct MoveRow {
    pub game_id: i32,
    pub ply: i32,
    pub display: String,
    pub coordinate: String,
    pub from_square: Option<String>,
    pub to_square: String,
    pub fen_after: String,
    pub played_by: i32,
    pub played_at: NaiveDateTime,
    /// The `//` text entered with the move.
    pub comment: Option<String>,
    /// Seconds of the mover's running clock this move took (leave excluded).
    pub time_used_secs: Option<i64>,
    /// The move number the list shows (both halves of a turn share it).
    pub turn_no: i32,
    /// Played from the mover's conditional line.
    pub conditional: bool,
}

/// `None` is stored as NULL (the nullable columns have no default), so the
/// INSERT has one shape and diesel keeps it prepared; leaving absent columns
/// out, diesel's default on SQLite, compiles it again on every move.
#[derive(Insertable)]
#[diesel(table_name = moves)]
#[diesel(treat_none_as_default_value = false)]
pub struct NewMove<'a> {
    pub game_id: i32,
    pub ply: i32,
    pub display: &'a str,
    pub coordinate: &'a str,
    pub from_square: Option<&'a str>,
    pub to_square: &'a str,
    pub fen_after: &'a str,
    pub played_by: i32,
    pub played_at: NaiveDateTime,
    /// The `//` text entered with the move.
    pub comment: Option<String>,
    pub time_used_secs: Option<i64>,
    /// The move number the list shows (both halves of a turn share it).
    pub turn_no: i32,
    /// The repetition-history entry of the position the move left
    /// ([`missive_rules::Game::last_history_entry`]); `None` where the
    /// game's `game_histories` row already holds it.
    pub history_entry: Option<&'a str>,
    /// Played from the mover's conditional line.
    pub conditional: bool,
    /// The mover's bank after the move (a takeback restores it).
    pub bank_after: Option<i64>,
}

