//! A game restored from its row: the variant, the stored start position
//! and the history of its moves.

use crate::db::games::history_of;
use crate::db::games::GameRow;
use crate::db::DbConn;
use crate::domain::error::Error;
use missive_rules::{Game, Variant};

pub fn variant_of(row: &GameRow) -> Result<&'static dyn Variant, Error> {
    crate::posted::lookup::variant(&row.variant).ok_or_else(|| {
        Error::internal(format!(
            "game {} has unknown variant {}",
            row.id, row.variant
        ))
    })
}

/// The game as the rules crate sees it, from the stored FEN and history.
pub fn restore(conn: &mut DbConn, row: &GameRow) -> Result<Game, Error> {
    restore_with(row, &history_of(conn, row.id)?)
}

/// The game of `row` with its `history` (as [`history_of`] reads it).
pub fn restore_with(row: &GameRow, history: &str) -> Result<Game, Error> {
    Game::restore(variant_of(row)?, &row.fen, history)
        .map_err(|e| Error::internal(format!("game {} cannot be restored: {e}", row.id)))
}
