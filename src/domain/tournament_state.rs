//! A tournament's format and where it is in its life, stored as text
//! through their code tables ([`crate::domain::codes`]).

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
