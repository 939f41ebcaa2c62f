//! Many games at once (issue 64): each running game's true deadline (leave
//! and weekends counted) read for a whole list in a few queries, the order
//! the dashboard lists them in, and the player's next game where it is
//! their turn.

use crate::db::game_clocks;
use crate::db::games::GameRow;
use crate::db::leave::booked_leave_of;
use crate::db::users::zones_of;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::ids::GameId;
use crate::game::clock::mover_clock_with;
use chrono::NaiveDateTime;
use chrono_tz::Tz;
use std::collections::HashMap;

/// A running game's mover's clock: seconds left at the time asked and the
/// deadline (leave and weekends counted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Due {
    pub left_secs: i64,
    pub deadline: NaiveDateTime,
}

/// The clock of each game in `games` that has a running one, keyed by game
/// id (games not running are passed over): every mover's leave and (where
/// weekends are free) time zone read in one query each.
pub fn dues(
    conn: &mut DbConn,
    games: &[GameRow],
    now: NaiveDateTime,
) -> Result<HashMap<GameId, Due>, Error> {
    let mut movers: Vec<i32> = games
        .iter()
        .filter_map(crate::db::games::player_to_move)
        .collect();
    movers.sort_unstable();
    movers.dedup();
    if movers.is_empty() {
        return Ok(HashMap::new());
    }
    let leave = booked_leave_of(conn, &movers)?;
    let zones = match games
        .iter()
        .any(|g| g.weekends_free && crate::db::games::player_to_move(g).is_some())
    {
        true => zones_of(conn, &movers)?,
        false => HashMap::new(),
    };
    let mut out = HashMap::new();
    for g in games {
        let Some(mover) = crate::db::games::player_to_move(g) else {
            continue;
        };
        let booked = leave.get(&mover).map_or(&[][..], Vec::as_slice);
        let zone = zones.get(&mover).copied().unwrap_or(Tz::UTC);
        if let Some(m) = mover_clock_with(g, booked, zone) {
            out.insert(
                g.id,
                Due {
                    left_secs: m.left(now).max(0),
                    deadline: m.deadline,
                },
            );
        }
    }
    Ok(out)
}

/// The order games are listed in: the nearest deadline first, games
/// without a running clock after them, longest waiting first, then by id.
pub fn sort_by_deadline(games: &mut [GameRow], dues: &HashMap<GameId, Due>) {
    games.sort_by_key(|g| {
        let d = dues.get(&g.id).map(|d| d.deadline);
        (d.is_none(), d, g.updated_at, g.id)
    });
}

/// `user`'s next game where it is their turn, other than `except`: the
/// first in the dashboard's order.
pub fn next_turn(
    conn: &mut DbConn,
    user: i32,
    except: Option<GameId>,
    now: NaiveDateTime,
) -> Result<Option<GameId>, Error> {
    let mut turns = game_clocks::turns_of(conn, user)?;
    turns.retain(|g| Some(g.id) != except && crate::db::games::player_to_move(g) == Some(user));
    let dues = dues(conn, &turns, now)?;
    sort_by_deadline(&mut turns, &dues);
    Ok(turns.first().map(|g| g.id))
}
