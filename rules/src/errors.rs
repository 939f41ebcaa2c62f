//! Error types: syntax (the text cannot be read) is kept apart from meaning
//! (the text reads fine but the move or position is not allowed).

use std::fmt;

/// A position string that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text does not follow the variant's FEN grammar.
    Syntax(String),
    /// The text reads, but the position is impossible for this variant.
    Invalid(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Syntax(m) => write!(f, "malformed position string: {m}"),
            FenError::Invalid(m) => write!(f, "impossible position: {m}"),
        }
    }
}

impl std::error::Error for FenError {}

/// A move text that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Nothing was entered.
    Empty,
    /// The text does not read as a move in any notation of this variant.
    Syntax { input: String, reason: String },
    /// The text reads as a move but the rules do not allow it. `reason` says
    /// why in plain words; `alternatives` lists the legal moves of the piece
    /// named (or all legal moves when no piece was named and there are few).
    Illegal {
        input: String,
        reason: String,
        alternatives: Vec<String>,
    },
    /// The text fits several legal moves.
    Ambiguous {
        input: String,
        candidates: Vec<String>,
    },
    /// The game is over; no move can be played.
    GameOver,
}

impl MoveError {
    /// The error told of `input`, the text as typed, where it was found
    /// reading a part of it (the move without its check mark).
    pub(crate) fn with_input(self, input: &str) -> MoveError {
        let input = input.to_string();
        match self {
            MoveError::Syntax { reason, .. } => MoveError::Syntax { input, reason },
            MoveError::Illegal {
                reason,
                alternatives,
                ..
            } => MoveError::Illegal {
                input,
                reason,
                alternatives,
            },
            MoveError::Ambiguous { candidates, .. } => MoveError::Ambiguous { input, candidates },
            other => other,
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Empty => f.write_str("no move was entered"),
            MoveError::Syntax { input, reason } => {
                write!(f, "cannot read “{input}” as a move: {reason}")
            }
            MoveError::Illegal {
                input,
                reason,
                alternatives,
            } => {
                write!(f, "“{input}” is not legal: {reason}")?;
                if !alternatives.is_empty() {
                    write!(f, " Legal: {}.", alternatives.join(", "))?;
                }
                Ok(())
            }
            MoveError::Ambiguous { input, candidates } => {
                write!(
                    f,
                    "“{input}” fits several moves: {}; say which",
                    candidates.join(", ")
                )
            }
            MoveError::GameOver => f.write_str("the game is over"),
        }
    }
}

impl std::error::Error for MoveError {}
