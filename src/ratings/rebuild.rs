//! `missive ratings rebuild`: every rating recomputed from the game history,
//! in the order the games ended, with the computation a game's end uses.

use crate::db::{ratings, DbConn};
use crate::domain::codes::Coded;
use crate::domain::error::Error;
use crate::domain::game_state::GameResult;
use crate::domain::ids::GameId;
use crate::domain::rating::{next_seq, rate_game, Change, Standing};
use chrono::NaiveDateTime;
use std::collections::BTreeMap;

/// What a rebuild found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rebuilt {
    /// Rated games replayed.
    pub games: usize,
    /// Ratings (player and variant) they make.
    pub ratings: usize,
    /// Ratings whose recomputed value is not the stored one (missing on
    /// either side included).
    pub differing: usize,
}

type Key = (i32, String);

struct Replay {
    standings: BTreeMap<Key, Standing>,
    changes: Vec<(GameId, Key, Change, NaiveDateTime)>,
    /// Each game's place in the order ratings moved.
    seqs: Vec<(GameId, i64)>,
    games: usize,
}

/// Every finished rated game in the order its ratings were moved, replayed
/// from newcomers' ratings. That order is the end order, except that of
/// games ended at the same moment in two processes, one player in both,
/// the one rated first comes first: each game's `rating_seq` keeps it (a
/// game without one, never rated, comes after those with one).
fn replay(conn: &mut DbConn) -> Result<Replay, Error> {
    let mut rows = crate::db::ratings::rated_endings(conn)?;
    rows.sort_by_key(|g| (g.6.unwrap_or(i64::MAX), g.5, g.0));
    let mut out = Replay {
        standings: BTreeMap::new(),
        changes: Vec::new(),
        seqs: Vec::new(),
        games: 0,
    };
    for (id, variant, white, black, result, ended, _) in rows {
        let (Some(white), Some(black), Some(result), Some(at)) = (
            white,
            black,
            result.as_deref().and_then(GameResult::from_code),
            ended,
        ) else {
            continue;
        };
        let (wk, bk) = ((white, variant.clone()), (black, variant));
        let w = out.standings.get(&wk).copied().unwrap_or_default();
        let b = out.standings.get(&bk).copied().unwrap_or_default();
        let (wc, bc) = rate_game(&w, &b, result, at);
        let seq = next_seq(&w, &b);
        out.standings.insert(wk.clone(), w.after(wc.after, at, seq));
        out.standings.insert(bk.clone(), b.after(bc.after, at, seq));
        out.seqs.push((id, seq));
        out.changes.push((id, wk, wc, at));
        out.changes.push((id, bk, bc, at));
        out.games += 1;
    }
    Ok(out)
}

fn stored(conn: &mut DbConn) -> Result<BTreeMap<Key, Standing>, Error> {
    Ok(ratings::all_standings(conn)?.into_iter().collect())
}

fn differing(a: &BTreeMap<Key, Standing>, b: &BTreeMap<Key, Standing>) -> usize {
    let only_a = a.iter().filter(|(k, v)| b.get(*k) != Some(*v)).count();
    let only_b = b.keys().filter(|k| !a.contains_key(*k)).count();
    only_a + only_b
}

/// Recompute every rating and compare it with the stored one; unless
/// `dry_run`, store the recomputed ones (and the games' changes) in their
/// place, in one transaction that holds off games ending meanwhile.
pub fn rebuild(conn: &mut DbConn, dry_run: bool) -> Result<Rebuilt, Error> {
    crate::db::write_transaction(conn, |conn| {
        if !dry_run {
            ratings::lock_for_rebuild(conn)?;
        }
        let before = stored(conn)?;
        let replayed = replay(conn)?;
        let found = Rebuilt {
            games: replayed.games,
            ratings: replayed.standings.len(),
            differing: differing(&replayed.standings, &before),
        };
        if !dry_run {
            write(conn, &replayed)?;
        }
        Ok(found)
    })
}

fn write(conn: &mut DbConn, replayed: &Replay) -> Result<(), Error> {
    ratings::clear(conn)?;
    for ((user, variant), s) in &replayed.standings {
        ratings::insert_standing(conn, *user, variant, s)?;
    }
    for (game, seq) in &replayed.seqs {
        crate::db::ratings::set_rating_seq(conn, *game, *seq)?;
    }
    for (game, (user, variant), change, at) in &replayed.changes {
        ratings::insert_change(conn, *game, *user, variant, change, *at)?;
    }
    Ok(())
}
