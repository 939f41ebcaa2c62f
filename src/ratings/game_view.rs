//! A game's ratings as its page and JSON show them.

use crate::db::games::GameRow;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::GameStatus;
use crate::domain::rating::{prospects, signed, Change, Score, Standing};
use chrono::NaiveDateTime;
use std::collections::HashMap;

/// One side's rating on a game page.
#[derive(Clone, Debug, Default)]
pub struct SideRating {
    /// Beside the name: the rating before the game for a rated game that
    /// has ended, else the rating now (`1500?` for a newcomer).
    pub shown: String,
    /// What the game did to it (a rated game that has ended).
    pub change: Option<Change>,
    /// What a win, a draw and a loss would change it by (a rated game on).
    pub prospects: Option<[(Score, i32); 3]>,
}

impl SideRating {
    /// `+8`, when the game moved the rating.
    pub fn diff(&self) -> Option<String> {
        self.change.map(|c| signed(c.diff()))
    }

    /// "win +8, draw +0, loss -8".
    pub fn prospects_words(&self) -> Option<String> {
        self.prospects.map(|p| {
            p.iter()
                .map(|(s, d)| format!("{} {}", s.word(), signed(*d)))
                .collect::<Vec<_>>()
                .join(", ")
        })
    }
}

/// Both sides' ratings in a game.
#[derive(Clone, Debug, Default)]
pub struct GameRatings {
    pub white: SideRating,
    pub black: SideRating,
}

/// `row`'s players' ratings in its variant at `now`.
pub fn of_game_row(
    conn: &mut DbConn,
    row: &GameRow,
    now: NaiveDateTime,
) -> Result<GameRatings, Error> {
    let ids: Vec<i32> = [row.white_id, row.black_id].into_iter().flatten().collect();
    if ids.is_empty() {
        return Ok(GameRatings::default());
    }
    let standings = crate::db::ratings::standings_of(conn, &row.variant, &ids)?;
    let changes = match row.rated && row.status == GameStatus::Finished {
        true => crate::db::ratings::of_game(conn, row.id)?,
        false => HashMap::new(),
    };
    let standing = |id: Option<i32>| -> Standing {
        id.and_then(|i| standings.get(&i).copied())
            .unwrap_or_default()
    };
    let on = row.rated && row.status == GameStatus::Active;
    let side = |me: Option<i32>, them: Option<i32>| -> SideRating {
        let Some(id) = me else {
            return SideRating::default();
        };
        let change = changes.get(&id).copied();
        SideRating {
            shown: match change {
                Some(c) => c.before.shown(),
                None => standing(me).at(now).shown(),
            },
            change,
            prospects: (on && them.is_some())
                .then(|| prospects(&standing(me), &standing(them), now)),
        }
    };
    Ok(GameRatings {
        white: side(row.white_id, row.black_id),
        black: side(row.black_id, row.white_id),
    })
}
