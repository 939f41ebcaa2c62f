//! What a game's event history records besides its moves, each kind stored
//! as text through its code table.

use crate::domain::codes::text_codes;

text_codes! {
    "game event",
    /// A kind of entry in a game's event history.
    pub enum EventKind {
        TakebackAsked => "takeback-asked",
        TakebackDeclined => "takeback-declined",
        Takeback => "takeback",
        /// The player to move is on leave: their clock stopped.
        Leave => "leave",
        /// Clocks moved on after a service outage.
        Outage => "outage",
        /// A reminder of a clock running low was sent.
        Reminder => "reminder",
        /// A silence warning was sent (or the director told).
        SilenceWarning => "silence-warning",
        /// A flag fell where the opponent may claim the win.
        FlagFell => "flag-fell",
        /// The opponent claimed the win on time.
        Claim => "claim",
        /// A director gave a player more time.
        Extension => "extension",
        /// A director set the result.
        Adjudication => "adjudication",
    }
}
