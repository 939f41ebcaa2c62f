//! Row types.

use super::schema::*;
use crate::domain::game_state::OnTimeout;
use crate::domain::tournament_state::{TournamentFormat, TournamentStatus};
use chrono::NaiveDateTime;
use diesel::prelude::*;

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = users)]
pub struct User {
    pub id: i32,
    pub username: String,
    pub username_key: String,
    pub email: String,
    pub password_hash: String,
    pub confirm_moves: bool,
    pub created_at: NaiveDateTime,
    /// May create and direct tournaments (granted from the command line).
    pub is_director: bool,
    /// Set by an operator (`missive user disable`): no login, no play link.
    pub disabled_at: Option<NaiveDateTime>,
    /// The account was deleted; the row stays, renamed, for its games.
    pub deleted_at: Option<NaiveDateTime>,
    /// The player's IANA time zone: their weekends, and how deadlines are
    /// shown to them (issue 64).
    pub time_zone: String,
}

#[derive(Insertable)]
#[diesel(table_name = users)]
pub struct NewUser<'a> {
    pub username: &'a str,
    pub username_key: &'a str,
    pub email: &'a str,
    pub password_hash: &'a str,
    pub confirm_moves: bool,
    pub created_at: NaiveDateTime,
}

#[derive(Queryable, Selectable, Clone, Debug, PartialEq, Eq)]
#[diesel(table_name = leave_bookings)]
pub struct LeaveBooking {
    pub id: i32,
    pub user_id: i32,
    /// First day of leave (UTC), included.
    pub start_date: chrono::NaiveDate,
    /// Last day of leave (UTC), included.
    pub end_date: chrono::NaiveDate,
    pub created_at: NaiveDateTime,
}

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = tournaments)]
pub struct TournamentRow {
    pub id: i32,
    pub name: String,
    pub variant: String,
    pub time_control: Option<String>,
    #[diesel(deserialize_as = String)]
    pub format: TournamentFormat,
    pub rounds: i32,
    pub entry_opens: NaiveDateTime,
    pub entry_closes: NaiveDateTime,
    pub max_players: i32,
    pub entrants: i32,
    pub leave_days: i32,
    pub forfeit_limit: i32,
    pub director_id: i32,
    #[diesel(deserialize_as = String)]
    pub status: TournamentStatus,
    pub current_round: i32,
    pub created_at: NaiveDateTime,
    pub started_at: Option<NaiveDateTime>,
    pub finished_at: Option<NaiveDateTime>,
    /// Its games are rated (issue 39).
    pub rated: bool,
    /// Days without a move before a game is lost by silence; `None`: off.
    pub silence_days: Option<i32>,
    #[diesel(deserialize_as = String)]
    pub on_timeout: OnTimeout,
    /// Days after a loss on time or by silence before a player may enter.
    pub cooling_off_days: i32,
    /// Its games' clocks stop on the mover's Saturdays and Sundays.
    pub weekends_free: bool,
}

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = tournament_players)]
pub struct EntrantRow {
    pub id: i32,
    pub tournament_id: i32,
    pub user_id: i32,
    pub seed: Option<i32>,
    pub joined_at: NaiveDateTime,
    pub withdrawn_at: Option<NaiveDateTime>,
    pub withdrawal_reason: Option<String>,
    pub results_cancelled: bool,
    pub replaced_by: Option<i32>,
}

/// The claim of one user's daily digest for one UTC day.
#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = digest_sent)]
pub struct DigestSent {
    pub user_id: i32,
    pub day: chrono::NaiveDate,
    /// Games listed (0: nothing to list, no mail).
    pub games: i32,
    pub created_at: NaiveDateTime,
}
