//! The families variants are grouped in, for people looking for a game:
//! the new-game form's groups, `missive variants`, the rules pages.

/// A family of variants. A definition's family follows from its settings
/// (drops, game-end values, board size, pieces), never from its name.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Family {
    /// FIDE chess and variants that keep its goal and board size, with
    /// other pieces or start positions.
    Chess,
    /// Missive's own variants from Game Courier (Leaperhouse, Fleap...).
    GameCourier,
    /// Boards wider or taller than 8 squares (Capablanca, Grand...).
    LargeBoard,
    /// Captured pieces go to the hand and come back as drops.
    Drops,
    /// Chaturanga, shatranj and makruk: the old pieces (ferz, alfil).
    Chaturanga,
    /// Shogi and its relatives.
    Shogi,
    /// Xiangqi, janggi and their relatives.
    Xiangqi,
    /// Lose your pieces (or be mated) to win: antichess, losers, misère.
    Losing,
    /// Win another way: a goal square, a race, the last of a piece type.
    Goals,
    /// Games without a royal piece or check (Breakthrough, Clobber...).
    Other,
}

impl Family {
    /// Every family, in the order the new-game form lists them.
    pub const ALL: [Family; 10] = [
        Family::Chess,
        Family::GameCourier,
        Family::LargeBoard,
        Family::Drops,
        Family::Chaturanga,
        Family::Shogi,
        Family::Xiangqi,
        Family::Losing,
        Family::Goals,
        Family::Other,
    ];

    /// A stable machine name (`large-board`), for lists and filters.
    pub fn code(self) -> &'static str {
        match self {
            Family::Chess => "chess",
            Family::GameCourier => "game-courier",
            Family::LargeBoard => "large-board",
            Family::Drops => "drops",
            Family::Chaturanga => "chaturanga",
            Family::Shogi => "shogi",
            Family::Xiangqi => "xiangqi",
            Family::Losing => "losing",
            Family::Goals => "goals",
            Family::Other => "other",
        }
    }

    /// The family's name as a heading.
    pub fn title(self) -> &'static str {
        match self {
            Family::Chess => "Chess and its close relatives",
            Family::GameCourier => "Game Courier originals",
            Family::LargeBoard => "Large boards (Capablanca and others)",
            Family::Drops => "Crazyhouse and drops",
            Family::Chaturanga => "Chaturanga, shatranj and makruk",
            Family::Shogi => "Shogi family",
            Family::Xiangqi => "Xiangqi and janggi",
            Family::Losing => "Losing games (antichess, misère)",
            Family::Goals => "Other goals (hill, race, extinction)",
            Family::Other => "Other games (no king)",
        }
    }

    /// The family with this [`Family::code`].
    pub fn from_code(code: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.code() == code)
    }
}

#[cfg(test)]
mod tests {
    use super::Family;

    #[test]
    fn codes_round_trip() {
        for f in Family::ALL {
            assert_eq!(Family::from_code(f.code()), Some(f));
        }
        assert_eq!(Family::from_code("nonsense"), None);
    }
}
