//! A player's conditional line as it is stored: the plies of "if they play
//! X, I play Y", each as the rules wrote it when the line was checked.

use serde::{Deserialize, Serialize};

/// One ply of a line, as the rules wrote it when the line was checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinePly {
    pub coordinate: String,
    pub display: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The owner's own move (else the opponent's).
    pub mine: bool,
}

/// A stored line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub id: i32,
    pub user_id: i32,
    /// The game's ply before the line's first move.
    pub from_ply: i32,
    pub plies: Vec<LinePly>,
}

impl Line {
    /// The line as the owner reads it: `Nf6 Bg5 e6 Nf3`.
    pub fn text(&self) -> String {
        self.plies
            .iter()
            .map(|p| p.display.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }
}
