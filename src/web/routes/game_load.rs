//! Reading a game for its pages: the row, the plies listed, names, clocks,
//! events, ratings and the viewer's lines, in one database call.

use crate::db::games::{self, GameRow};
use crate::db::moves;
use crate::db::DbConn;
use crate::domain::clock::GameClock;
use crate::domain::error::Error;
use crate::domain::game_state::GameStatus;
use crate::domain::ids::GameId;
use crate::game::clock;
use crate::game::positions::Restored;
use crate::web::views::move_lines::window_around;
use crate::web::{now, AppState, Ctx};
use std::collections::HashMap;
use std::sync::Arc;

/// Everything a game page needs from the database, with its moves as `Ms`:
/// the plies a page lists, or whole rows for the JSON export.
pub struct Loaded<Ms = Drawn> {
    pub row: GameRow,
    /// The moves the page lists (a window of a long game), or all of them.
    pub moves: Ms,
    pub names: HashMap<i32, String>,
    /// The viewer's private note on this game.
    pub(crate) note: Option<String>,
    pub clock: Option<GameClock>,
    /// The tournament the game belongs to: its id and name.
    pub(crate) tournament: Option<(i32, String)>,
    /// The viewer's conditional lines, while the game is on.
    pub lines: Vec<crate::domain::conditional_line::Line>,
    /// The game's events (leave, outages, reminders, claims, takebacks...).
    pub events: Vec<crate::db::game_events::GameEvent>,
    /// The players' ratings in the game's variant.
    pub ratings: crate::ratings::game_view::GameRatings,
    /// Whether the viewer, a player of this game, may ask to take back a move.
    pub can_take_back: bool,
    /// After a finished game, the viewer's (a player's) next game where it
    /// is their turn.
    pub next_game: Option<GameId>,
}

/// The ply a page shows: `?ply=N` clamped to the game, else the last.
pub(crate) fn shown_ply(view_ply: Option<i64>, total: i32) -> i32 {
    view_ply
        .map(|p| p.clamp(0, i64::from(total.max(0))) as i32)
        .unwrap_or(total)
}

/// What a game page draws beyond the game's row.
pub struct Drawn {
    /// The plies it lists (a window of a long game).
    pub(crate) listed: crate::web::views::listed_moves::Listed,
    /// The game at its current ply, from the position cache.
    pub(crate) restored: Arc<Restored>,
}

/// What the page showing ply `view` (`None`: the current one) draws: the
/// plies it lists, kept in `state` between views, and the game, restored
/// or kept in `state` (the other views of a game read neither).
pub fn drawn_for(
    state: Arc<AppState>,
    view: Option<i64>,
) -> impl FnOnce(&mut DbConn, &GameRow) -> Result<Drawn, Error> + Clone {
    move |conn, row| {
        let restored = state
            .positions
            .game(row, || games::history_of(conn, row.id))?;
        let (first, last) = window_around(shown_ply(view, row.ply), row.ply);
        let listed = state.listed.window(row, first, last, |from, to| {
            moves::between(conn, row.id, from, to)
        })?;
        Ok(Drawn { listed, restored })
    }
}

pub async fn load_game<Ms: Send + 'static>(
    ctx: &Ctx,
    id: GameId,
    moves: impl FnOnce(&mut DbConn, &GameRow) -> Result<Ms, Error> + Clone + Send + 'static,
) -> Result<Loaded<Ms>, Error> {
    load_game_for(&ctx.state, id, ctx.user.as_ref().map(|u| u.id), moves).await
}

/// [`load_game`] as `viewer` sees it, for callers without a session (the
/// JSON API, whose viewer is a token's owner).
pub async fn load_game_for<Ms: Send + 'static>(
    state: &Arc<AppState>,
    id: GameId,
    viewer: Option<i32>,
    moves: impl FnOnce(&mut DbConn, &GameRow) -> Result<Ms, Error> + Clone + Send + 'static,
) -> Result<Loaded<Ms>, Error> {
    let reads = state.clone();
    state
        .read(move |conn| read_game(conn, &reads, id, viewer, moves.clone()))
        .await
}

/// Everything a game page shows, read together ([`crate::db::together`]):
/// on SQLite one snapshot and one read-lock cycle. On PostgreSQL each
/// statement sees the latest commit, which is consistent too: the listed
/// plies and the clocks follow from the game row read first (plies are
/// never changed once stored), and the rest does not change with a move.
pub(crate) fn read_game<Ms>(
    conn: &mut DbConn,
    state: &AppState,
    id: GameId,
    viewer: Option<i32>,
    moves: impl FnOnce(&mut DbConn, &GameRow) -> Result<Ms, Error>,
) -> Result<Loaded<Ms>, Error> {
    crate::db::together(conn, |conn| {
        let (row, note) = games::load_with_note(conn, id, viewer)?;
        let moves = moves(conn, &row)?;
        let events = crate::db::game_events::events_of(conn, row.id)?;
        // A director's extension or adjudication names the director.
        let ids: Vec<i32> = [
            Some(row.challenger_id),
            row.opponent_id,
            row.white_id,
            row.black_id,
        ]
        .into_iter()
        .chain(events.iter().map(|e| e.user_id))
        .flatten()
        .collect();
        let names = state
            .names
            .of(&ids, |ids| crate::db::users::user_names(conn, ids))?;
        let clock = clock::view(conn, &row, now())?;
        let tournament = match row.tournament_id {
            Some(t) => crate::db::tournaments::name_of(conn, t)?.map(|name| (t, name)),
            None => None,
        };
        // Private: only the owner's own, and only while the game is on.
        let lines = match viewer {
            Some(v) if row.conditional_count > 0 && row.status == GameStatus::Active => {
                crate::db::conditional_lines::lines_of(conn, row.id, row.ply, Some(v))?
            }
            _ => Vec::new(),
        };
        let ratings = crate::ratings::game_view::of_game_row(conn, &row, now())?;
        let can_take_back = match viewer {
            Some(v)
                if row.status == GameStatus::Active
                    && (row.white_id == Some(v) || row.black_id == Some(v)) =>
            {
                crate::game::takeback::has_move_to_take_back(conn, &row, v)?
            }
            _ => false,
        };
        let next_game = match viewer {
            Some(v)
                if row.status == GameStatus::Finished
                    && (row.white_id == Some(v) || row.black_id == Some(v)) =>
            {
                crate::clocks::turn_order::next_turn(conn, v, Some(row.id), crate::web::now())?
            }
            _ => None,
        };
        Ok(Loaded {
            next_game,
            row,
            moves,
            names,
            note,
            clock,
            tournament,
            lines,
            events,
            ratings,
            can_take_back,
        })
    })
}
