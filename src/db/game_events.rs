//! A game's event history: what happened to it besides its moves (leave,
//! outages, reminders, silence warnings, fallen flags and claims, directors'
//! extensions and adjudications, takebacks), written in the transaction of
//! the act and shown on the game page and in its JSON.

use crate::db::schema::game_events;
use crate::db::{per_backend, DbConn};
use crate::domain::error::Error;
use crate::domain::game_event::EventKind;
use crate::domain::ids::GameId;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// An entry of a game's event history.
#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = game_events)]
pub struct GameEvent {
    pub at: NaiveDateTime,
    pub user_id: Option<i32>,
    #[diesel(deserialize_as = String)]
    pub kind: EventKind,
    pub detail: String,
}

/// A game's events, oldest first.
pub fn events_of(conn: &mut DbConn, game: GameId) -> Result<Vec<GameEvent>, Error> {
    Ok(per_backend!(conn, |c| game_events::table
        .filter(game_events::game_id.eq(game))
        .order(game_events::id.asc())
        .select(GameEvent::as_select())
        .load(c))?)
}

/// Add an event to a game's history (`user`: who did it, if a person did).
pub fn record(
    conn: &mut DbConn,
    game: GameId,
    user: Option<i32>,
    kind: EventKind,
    detail: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    per_backend!(conn, |c| diesel::insert_into(game_events::table)
        .values((
            game_events::game_id.eq(game),
            game_events::at.eq(now),
            game_events::user_id.eq(user),
            game_events::kind.eq(kind.code()),
            game_events::detail.eq(crate::util::clip(detail, 500)),
        ))
        .execute(c))?;
    Ok(())
}
