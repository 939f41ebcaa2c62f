//! A game's states as the server keeps them: where it is in its life, whose
//! side, how it ended and why. Each is stored as text through its one code
//! table ([`crate::domain::codes`]).

use crate::domain::codes::{coded_conversions, text_codes, Coded};
use missive_rules::{Color, Reason};

text_codes! {
    "game status",
    /// Where a game is in its life.
    pub enum GameStatus {
        /// A challenge or open seek nobody has accepted yet.
        Pending => "pending",
        Active => "active",
        Finished => "finished",
        /// The challenged player said no.
        Declined => "declined",
        /// The challenger took the challenge back.
        Withdrawn => "withdrawn",
    }
}

text_codes! {
    "side",
    /// One of the two sides of a game, whatever the variant calls them
    /// (Leap Chess's Red is `White` here, as in its FEN).
    pub enum Side {
        White => "white",
        Black => "black",
    }
}

impl Side {
    pub fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    pub fn color(self) -> Color {
        match self {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }

    /// The side of a rules-engine colour (none for neutral pieces).
    pub fn of(color: Color) -> Option<Side> {
        match color {
            Color::White => Some(Side::White),
            Color::Black => Some(Side::Black),
            Color::Neutral => None,
        }
    }
}

/// A player's colour or the side to move, never neutral: neutral pieces
/// (Maohopper's) belong to no side, and no side is called so.
impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::Black => Side::Black,
            _ => Side::White,
        }
    }
}

text_codes! {
    "game result",
    /// A finished game's score, coded as in PGN.
    pub enum GameResult {
        WhiteWins => "1-0",
        BlackWins => "0-1",
        Draw => "1/2-1/2",
    }
}

impl GameResult {
    /// The win of `side`.
    pub fn win_for(side: Side) -> GameResult {
        match side {
            Side::White => GameResult::WhiteWins,
            Side::Black => GameResult::BlackWins,
        }
    }

    /// The rules engine's outcome as a score.
    pub fn of_outcome(o: &missive_rules::Outcome) -> GameResult {
        match o.winner.and_then(Side::of) {
            Some(side) => GameResult::win_for(side),
            None => GameResult::Draw,
        }
    }

    /// The winning side; none for a draw.
    pub fn winner(self) -> Option<Side> {
        match self {
            GameResult::WhiteWins => Some(Side::White),
            GameResult::BlackWins => Some(Side::Black),
            GameResult::Draw => None,
        }
    }

    /// The side that lost; none for a draw.
    pub fn loser(self) -> Option<Side> {
        self.winner().map(Side::opponent)
    }
}

text_codes! {
    "unrated reason",
    /// Why a game asked for rated is played unrated (issue 60): so that
    /// ratings cannot be farmed.
    pub enum UnratedReason {
        /// It ended before both sides had moved, as the big servers abort
        /// such a game.
        Aborted => "aborted",
        /// Its two players had already played
        /// [`RATED_GAMES_PER_PAIR_DAY`] rated games together that day.
        PairLimit => "pair-limit",
    }
}

/// Plies a game must reach (each side one move) before its end is rated.
pub const RATED_MIN_PLIES: i32 = 2;

/// Rated games the same two players may start within a day; further ones
/// are played unrated.
pub const RATED_GAMES_PER_PAIR_DAY: i64 = 3;

/// Longest custom start position accepted.
pub const FEN_MAX: usize = 2000;

/// Longest move text accepted before asking the rules crate.
pub const MOVE_TEXT_MAX: usize = 500;

/// Longest `//` comment kept with a move (the move text limit bounds it too).
pub const COMMENT_MAX: usize = 400;

/// The move number of a ply played by `mover`, from the previous ply's
/// number and mover: a new number starts the game and whenever White moves
/// after Black (so a side moving twice in a row stays on one number).
pub fn next_turn_no(previous: Option<(i32, Color)>, mover: Color) -> i32 {
    match previous {
        None => 1,
        Some((n, Color::Black)) if mover != Color::Black => n + 1,
        Some((n, _)) => n,
    }
}

impl UnratedReason {
    /// Said on the game page.
    pub fn words(self) -> String {
        match self {
            UnratedReason::Aborted => {
                "Aborted: the game ended before both sides had moved, so it is not rated".into()
            }
            UnratedReason::PairLimit => format!(
                "Played unrated: these two players had already started \
                 {RATED_GAMES_PER_PAIR_DAY} rated games together within a day"
            ),
        }
    }
}

text_codes! {
    "on_timeout",
    /// What happens when a clock runs out (setting `on_timeout`).
    pub enum OnTimeout {
        /// The game is lost on time at once.
        Lose => "lose",
        /// The opponent is told and may claim the win, or let play go on;
        /// unclaimed for [`CLAIM_DAYS`] days, the game is lost on time.
        Claim => "claim",
    }
}

/// Days an opponent has to claim a win on time before the game is lost on
/// time anyway.
pub const CLAIM_DAYS: i64 = 14;

/// Why a game ended: by the variant's rules, or by an act of a player, the
/// clock or the tournament.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The rules ended it (checkmate, Maohopper's flag captured...).
    Rules(Reason),
    Resignation,
    /// A draw offered and accepted.
    Agreement,
    /// The player to move ran out of time.
    TimeForfeit,
    /// A tournament director set the result.
    Adjudication,
    /// A player withdrawn from a tournament lost their remaining games.
    Withdrawal,
    /// An unplayed game of a withdrawn player whose place a newcomer took:
    /// kept, but out of every count.
    Replaced,
    /// A record brought in by a director, its result as written there.
    Imported,
    /// The player to move made no move for the silence period (tournament
    /// setting `silence_days`).
    Silence,
}

impl EndReason {
    const ACTS: [(EndReason, &'static str); 8] = [
        (EndReason::Resignation, "resignation"),
        (EndReason::Agreement, "agreement"),
        (EndReason::TimeForfeit, "time-forfeit"),
        (EndReason::Adjudication, "adjudication"),
        (EndReason::Withdrawal, "withdrawal"),
        (EndReason::Replaced, "replaced"),
        (EndReason::Imported, "imported"),
        (EndReason::Silence, "silence"),
    ];

    /// The stored code: the rules engine's own for its reasons
    /// (`checkmate`, `move-count-rule`...), the table above for the rest.
    pub fn code(self) -> &'static str {
        match self {
            EndReason::Rules(r) => r.code(),
            act => EndReason::ACTS
                .iter()
                .find(|(a, _)| *a == act)
                .map(|(_, code)| *code)
                .unwrap_or("unknown"),
        }
    }

    /// In words, for a result line ("White wins by time forfeit"): the
    /// code with spaces for hyphens, as pages, records and mails show it.
    pub fn describe(self) -> String {
        self.code().replace('-', " ")
    }
}

impl Coded for EndReason {
    const WHAT: &'static str = "end reason";
    fn code(self) -> &'static str {
        EndReason::code(self)
    }
    fn from_code(code: &str) -> Option<Self> {
        Reason::from_code(code).map(EndReason::Rules).or_else(|| {
            EndReason::ACTS
                .iter()
                .find(|(_, c)| *c == code)
                .map(|(a, _)| *a)
        })
    }
}

coded_conversions!(EndReason);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_end_reason_has_its_own_code() {
        let mut all: Vec<EndReason> = Reason::ALL.into_iter().map(EndReason::Rules).collect();
        all.extend(EndReason::ACTS.iter().map(|(a, _)| *a));
        let mut codes: Vec<&str> = all.iter().map(|r| r.code()).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), all.len(), "{codes:?}");
        for r in all {
            assert_eq!(EndReason::from_code(r.code()), Some(r));
            assert!(!r.describe().contains('-'), "{}", r.describe());
            assert_eq!(r.describe().replace(' ', "-"), r.code());
        }
        assert_eq!(EndReason::from_code("flag-fell"), None);
    }

    #[test]
    fn results_name_their_winner_and_loser() {
        assert_eq!(GameResult::win_for(Side::Black), GameResult::BlackWins);
        assert_eq!(GameResult::WhiteWins.loser(), Some(Side::Black));
        assert_eq!(GameResult::Draw.winner(), None);
        assert_eq!(GameResult::Draw.code(), "1/2-1/2");
        let mate = missive_rules::Outcome::win(Color::Black, Reason::Checkmate);
        assert_eq!(GameResult::of_outcome(&mate), GameResult::BlackWins);
    }
}
