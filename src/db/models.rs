//! Row types.

use super::schema::*;
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

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = games)]
pub struct GameRow {
    pub id: i32,
    pub variant: String,
    pub status: String,
    pub challenger_id: i32,
    pub opponent_id: Option<i32>,
    pub white_id: Option<i32>,
    pub black_id: Option<i32>,
    pub challenger_color: String,
    pub start_fen: String,
    pub fen: String,
    pub history: String,
    pub ply: i32,
    pub turn: String,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub draw_offer: Option<String>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub ended_at: Option<NaiveDateTime>,
}

#[derive(Insertable)]
#[diesel(table_name = games)]
pub struct NewGame<'a> {
    pub variant: &'a str,
    pub status: &'a str,
    pub challenger_id: i32,
    pub opponent_id: Option<i32>,
    pub white_id: Option<i32>,
    pub black_id: Option<i32>,
    pub challenger_color: &'a str,
    pub start_fen: &'a str,
    pub fen: &'a str,
    pub history: &'a str,
    pub ply: i32,
    pub turn: &'a str,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = moves)]
pub struct MoveRow {
    pub id: i32,
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
    /// The move number the list shows (both halves of a turn share it).
    pub turn_no: i32,
}

#[derive(Insertable)]
#[diesel(table_name = moves)]
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
    /// The move number the list shows (both halves of a turn share it).
    pub turn_no: i32,
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
