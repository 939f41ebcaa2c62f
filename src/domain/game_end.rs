//! A game's end as news: what ratings, tournaments and team matches hear
//! when a game ends, so that the game module never names them (lichess's
//! round module publishes the same on its bus). The game module announces
//! it (`game::ended`); the entry layer says who listens (`crate::listen`).

use crate::domain::game_state::{EndReason, GameResult};
use crate::domain::ids::GameId;
use chrono::NaiveDateTime;

/// A game that has just ended, in the transaction that ended it.
#[derive(Clone, Debug)]
pub struct GameEnded {
    pub game: GameId,
    pub tournament: Option<i32>,
    pub white: Option<i32>,
    pub black: Option<i32>,
    pub variant: String,
    /// Whether the result moves ratings: the game was rated and was not
    /// aborted before both sides had moved.
    pub rated: bool,
    pub result: GameResult,
    pub reason: EndReason,
    pub at: NaiveDateTime,
}
