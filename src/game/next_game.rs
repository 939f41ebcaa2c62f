//! After a game: the player's next game where it is their turn (the one
//! whose deadline comes first), and what a rematch challenge repeats.

use crate::db::models::GameRow;
use crate::db::schema::games;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::{GameStatus, Side};
use crate::domain::time_control::NO_CLOCK;
use diesel::prelude::*;

/// The running game other than `except` where it is `user`'s turn, the
/// nearest deadline first (games without a clock after, oldest first).
pub fn next_turn(conn: &mut DbConn, user: i32, except: i32) -> Result<Option<i32>, Error> {
    let mine = games::white_id
        .eq(user)
        .and(games::turn.eq(Side::White.code()))
        .or(games::black_id
            .eq(user)
            .and(games::turn.eq(Side::Black.code())));
    let found: Vec<(i32, Option<chrono::NaiveDateTime>)> = games::table
        .filter(games::status.eq(GameStatus::Active.code()))
        .filter(games::id.ne(except))
        .filter(mine)
        .select((games::id, games::clock_deadline))
        .order(games::id.asc())
        .limit(500)
        .load(conn)?;
    // Sorted here: "nulls last" is written differently per backend.
    Ok(found
        .into_iter()
        .min_by_key(|(id, deadline)| (deadline.is_none(), *deadline, *id))
        .map(|(id, _)| id))
}

/// A challenge with the finished game's settings, colours swapped: the
/// new-game form's fields.
pub struct Rematch {
    pub variant: String,
    pub opponent: String,
    pub color: &'static str,
    /// The start position, when the game did not start from the usual one.
    pub fen: String,
    pub time_control: String,
    pub rated: &'static str,
}

impl Rematch {
    /// The rematch `me` (playing `side` in `row`) may offer `opponent`.
    pub fn of(row: &GameRow, side: Side, opponent: String) -> Result<Rematch, Error> {
        let variant = crate::game::restore::variant_of(row)?;
        let custom = crate::game::records::is_custom_start(variant, &row.start_fen)?;
        Ok(Rematch {
            variant: row.variant.clone(),
            opponent,
            color: match side.opponent() {
                Side::White => "white",
                Side::Black => "black",
            },
            fen: if custom {
                row.start_fen.clone()
            } else {
                String::new()
            },
            time_control: row
                .time_control
                .clone()
                .unwrap_or_else(|| NO_CLOCK.to_string()),
            rated: if row.rated { "1" } else { "0" },
        })
    }
}
