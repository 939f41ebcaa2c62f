//! What a tournament or a team match does when one of its games ends: a
//! listener of game endings (`game::finish`), in the transaction that
//! ended the game.

use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_end::GameEnded;

/// A tournament's game takes the forfeit rule and the tournament's next
/// round; any other game may be a team match's (issue 63), which finishes
/// with its last game.
pub fn on_game_end(conn: &mut DbConn, ended: &GameEnded) -> Result<(), Error> {
    match ended.tournament {
        Some(_) => crate::tournaments::withdrawal::on_game_end(conn, ended.game, ended.at),
        None => crate::tournaments::team_matches::on_game_end(conn, ended.game, ended.at),
    }
}
