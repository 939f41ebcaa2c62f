//! A tournament's format and where it is in its life, stored as text
//! through their code tables ([`crate::domain::codes`]), and its limits
//! and defaults.

use crate::domain::codes::text_codes;

text_codes! {
    "tournament format",
    /// How a tournament pairs its players (the creation form's `format`).
    pub enum TournamentFormat {
        /// Berger tables; all games at once.
        RoundRobin => "round-robin",
        DoubleRoundRobin => "double-round-robin",
        Swiss => "swiss",
    }
}

impl TournamentFormat {
    /// The format in words.
    pub fn label(self) -> &'static str {
        match self {
            TournamentFormat::RoundRobin => "round robin",
            TournamentFormat::DoubleRoundRobin => "double round robin",
            TournamentFormat::Swiss => "Swiss",
        }
    }
}

text_codes! {
    "tournament status",
    /// Where a tournament is in its life.
    pub enum TournamentStatus {
        /// Taking entries; no game yet.
        Entry => "entry",
        Running => "running",
        Finished => "finished",
        /// Closed without being played (too few entrants).
        Cancelled => "cancelled",
    }
}

/// The longest tournament name.
pub const NAME_MAX: usize = 100;

/// The longest note or reason a director or player writes.
pub const NOTE_MAX: usize = 2000;

pub const PLAYERS_MAX: i32 = 1000;

pub const SWISS_ROUNDS_MAX: i32 = 50;

pub const DEFAULT_LEAVE_DAYS: i32 = 30;

pub const DEFAULT_FORFEIT_LIMIT: i32 = 2;

pub const DEFAULT_MAX_PLAYERS: i32 = 16;

/// Days an entry window stays open when its close is not given (issue 63):
/// two weeks, time for a correspondence player to see the invitation.
pub const DEFAULT_ENTRY_DAYS: i64 = 14;
