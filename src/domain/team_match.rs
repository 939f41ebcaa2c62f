//! Team matches (issue 63): where a match is in its life, and its score.
//! Each board's pair plays two games, one with each colour; a win scores a
//! point for the winner's team, a draw half a point for each.

use crate::domain::codes::text_codes;
use crate::domain::game_state::{GameResult, Side};

text_codes! {
    "team match status",
    /// Where a team match is in its life.
    pub enum MatchStatus {
        /// The captains are naming their players, board by board.
        Lineup => "lineup",
        /// The games are being played.
        Running => "running",
        /// Every game has ended.
        Finished => "finished",
    }
}

impl MatchStatus {
    /// What the match is doing, in words for its page and the list.
    pub fn words(self) -> &'static str {
        match self {
            MatchStatus::Lineup => "the captains are naming their players",
            MatchStatus::Running => "being played",
            MatchStatus::Finished => "finished",
        }
    }
}

/// A team of a match: 1 or 2, as the form and the tables number them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Team {
    One,
    Two,
}

impl Team {
    pub fn number(self) -> i32 {
        match self {
            Team::One => 1,
            Team::Two => 2,
        }
    }

    pub fn from_number(n: i32) -> Option<Team> {
        match n {
            1 => Some(Team::One),
            2 => Some(Team::Two),
            _ => None,
        }
    }

    pub fn other(self) -> Team {
        match self {
            Team::One => Team::Two,
            Team::Two => Team::One,
        }
    }
}

/// Points times two that a game's result gives `team`, whose player had
/// White when `white_team` is `team`.
pub fn points2(result: GameResult, white_team: Team, team: Team) -> i32 {
    let side = if white_team == team {
        Side::White
    } else {
        Side::Black
    };
    match result.winner() {
        Some(w) if w == side => 2,
        Some(_) => 0,
        None => 1,
    }
}

/// The match score, points times two for each team, from the finished
/// games' (result, team with White).
pub fn score2(games: &[(GameResult, Team)]) -> (i32, i32) {
    games.iter().fold((0, 0), |(a, b), (r, white)| {
        (
            a + points2(*r, *white, Team::One),
            b + points2(*r, *white, Team::Two),
        )
    })
}

/// The colours of a board's two games: team 1's player has White in the
/// first on odd boards and in the second on even ones, so each team has
/// White on half the boards in each round of games.
pub fn white_teams(board: i32) -> [Team; 2] {
    if board % 2 == 1 {
        [Team::One, Team::Two]
    } else {
        [Team::Two, Team::One]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_draw_and_loss_score_for_the_right_teams() {
        let games = [
            (GameResult::WhiteWins, Team::One),
            (GameResult::WhiteWins, Team::Two),
            (GameResult::Draw, Team::One),
            (GameResult::BlackWins, Team::One),
        ];
        // 1 + 0 + ½ + 0 for team 1; 0 + 1 + ½ + 1 for team 2.
        assert_eq!(score2(&games), (3, 5));
    }

    #[test]
    fn every_board_plays_one_game_with_each_colour() {
        for board in 1..=8 {
            let [a, b] = white_teams(board);
            assert_ne!(a, b);
        }
        assert_eq!(white_teams(1)[0], Team::One);
        assert_eq!(white_teams(2)[0], Team::Two);
    }
}
