//! After a game: what a rematch challenge repeats.

use crate::db::games::GameRow;
use crate::domain::error::Error;
use crate::domain::game_state::Side;
use crate::domain::time_control::NO_CLOCK;

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
