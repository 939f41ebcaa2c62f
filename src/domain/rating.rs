//! Glicko-2 ratings (issue 39), computed by the `skillratings` crate: a
//! player's rating after a game, the deviation's growth with inactivity, and
//! how a rating is shown. Pure: what is stored and when is `ratings/`.
//!
//! Each rated game is a rating period of one game, as lichess rates; before
//! it, each player's deviation grows by one rating period's decay for every
//! whole [`PERIOD_DAYS`] since their last rated game in the variant.

use crate::domain::game_state::{GameResult, Side};
use chrono::NaiveDateTime;
use skillratings::glicko2::{decay_deviation, glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// A rating period of inactivity: a correspondence game takes weeks, so a
/// week without a rated game is one period of deviation growth.
pub const PERIOD_DAYS: i64 = 7;

/// Above this deviation a rating is provisional, shown with `?`.
pub const PROVISIONAL_ABOVE: f64 = 110.0;

/// Glicko-2's deviation never grows past a newcomer's.
pub const MAX_DEVIATION: f64 = 350.0;

/// A player's Glicko-2 rating, deviation and volatility.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Rating {
    /// A newcomer's: 1500, deviation 350, volatility 0.06.
    fn default() -> Rating {
        Rating::from(Glicko2Rating::new())
    }
}

impl From<Glicko2Rating> for Rating {
    fn from(g: Glicko2Rating) -> Rating {
        Rating {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
        }
    }
}

impl From<Rating> for Glicko2Rating {
    fn from(r: Rating) -> Glicko2Rating {
        Glicko2Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// A game's score for one player: a win, a draw or a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

impl Score {
    pub const ALL: [Score; 3] = [Score::Win, Score::Draw, Score::Loss];

    /// `side`'s score in a game ended with `result`.
    pub fn of(result: GameResult, side: Side) -> Score {
        match result.winner() {
            None => Score::Draw,
            Some(w) if w == side => Score::Win,
            Some(_) => Score::Loss,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Score::Win => "win",
            Score::Draw => "draw",
            Score::Loss => "loss",
        }
    }

    fn outcome(self) -> Outcomes {
        match self {
            Score::Win => Outcomes::WIN,
            Score::Draw => Outcomes::DRAW,
            Score::Loss => Outcomes::LOSS,
        }
    }
}

impl Rating {
    /// Provisional: the deviation is over [`PROVISIONAL_ABOVE`].
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_ABOVE
    }

    /// The rating as players see it: rounded, `?` after a provisional one.
    pub fn shown(&self) -> String {
        format!(
            "{}{}",
            self.whole(),
            if self.provisional() { "?" } else { "" }
        )
    }

    /// The rating rounded, as PGN's `WhiteElo` and the leaderboard have it.
    pub fn whole(&self) -> i32 {
        self.rating.round() as i32
    }

    /// This rating after `periods` rating periods without a game: the
    /// deviation grows by each period's volatility, up to [`MAX_DEVIATION`].
    pub fn after_periods(self, periods: i64) -> Rating {
        let mut r = self;
        for _ in 0..periods {
            if r.deviation >= MAX_DEVIATION {
                break;
            }
            r = Rating::from(decay_deviation(&r.into()));
        }
        r
    }

    /// This rating at `now`, its last rated game played at `last`.
    pub fn at(self, last: Option<NaiveDateTime>, now: NaiveDateTime) -> Rating {
        match last {
            Some(last) if now > last => self.after_periods(periods_between(last, now)),
            _ => self,
        }
    }

    /// This rating after one rating period with `results` (opponent, score).
    pub fn after_period(self, results: &[(Rating, Score)]) -> Rating {
        let results: Vec<(Glicko2Rating, Outcomes)> = results
            .iter()
            .map(|(r, s)| (Glicko2Rating::from(*r), s.outcome()))
            .collect();
        Rating::from(glicko2_rating_period(
            &self.into(),
            &results,
            &Glicko2Config::new(),
        ))
    }

    /// This rating after one game against `opponent` scoring `score`.
    pub fn after_game(self, opponent: Rating, score: Score) -> Rating {
        self.after_period(&[(opponent, score)])
    }
}

/// A player's stored rating in a variant: as it was after their last rated
/// game there (a newcomer's when they have none).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Standing {
    pub rating: Rating,
    pub games: i32,
    pub last_played_at: Option<NaiveDateTime>,
    /// The order of the last rated game among all rated games ([`next_seq`]).
    pub seq: i64,
}

/// A rated game's place in the order ratings move: one after the later of
/// its players' last games (a Lamport clock), so each player's games keep
/// the order they were rated in, whatever ended at the same moment.
pub fn next_seq(white: &Standing, black: &Standing) -> i64 {
    white.seq.max(black.seq) + 1
}

impl Standing {
    /// The rating at `now`, its deviation grown with the time since the
    /// last rated game.
    pub fn at(&self, now: NaiveDateTime) -> Rating {
        self.rating.at(self.last_played_at, now)
    }

    /// The standing after rated game `seq`, ended at `now`, left `after`.
    pub fn after(&self, after: Rating, now: NaiveDateTime, seq: i64) -> Standing {
        Standing {
            rating: after,
            games: self.games + 1,
            last_played_at: Some(now),
            seq,
        }
    }
}

/// What a game did to one player's rating: before it (its deviation grown
/// with inactivity) and after.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Change {
    pub before: Rating,
    pub after: Rating,
}

impl Change {
    pub fn diff(&self) -> i32 {
        diff(self.before.rating, self.after.rating)
    }
}

/// What a rated game ended at `now` with `result` does to White's and
/// Black's ratings: the one computation the game's end and the rebuild share.
pub fn rate_game(
    white: &Standing,
    black: &Standing,
    result: GameResult,
    now: NaiveDateTime,
) -> (Change, Change) {
    let (w, b) = (white.at(now), black.at(now));
    let change = |me: Rating, them: Rating, side: Side| Change {
        before: me,
        after: me.after_game(them, Score::of(result, side)),
    };
    (change(w, b, Side::White), change(b, w, Side::Black))
}

/// What a win, a draw and a loss at `now` would change `me`'s rating by
/// against `them`.
pub fn prospects(me: &Standing, them: &Standing, now: NaiveDateTime) -> [(Score, i32); 3] {
    let (mine, theirs) = (me.at(now), them.at(now));
    Score::ALL.map(|s| (s, diff(mine.rating, mine.after_game(theirs, s).rating)))
}

/// Whether a player rated `rating` (rounded) may accept a seek whose range
/// is `min` to `max` (each end optional, both included).
pub fn in_range(min: Option<i32>, max: Option<i32>, rating: i32) -> bool {
    min.is_none_or(|lo| rating >= lo) && max.is_none_or(|hi| rating <= hi)
}

/// Whole rating periods from `last` to `now`.
pub fn periods_between(last: NaiveDateTime, now: NaiveDateTime) -> i64 {
    ((now - last).num_days() / PERIOD_DAYS).max(0)
}

/// The difference a game made, as players and PGN's `RatingDiff` count it:
/// rounded after less rounded before.
pub fn diff(before: f64, after: f64) -> i32 {
    (after.round() - before.round()) as i32
}

/// A rating difference as lichess writes `WhiteRatingDiff`: `+8`, `-8`, `+0`.
pub fn signed(diff: i32) -> String {
    if diff >= 0 {
        format!("+{diff}")
    } else {
        diff.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    /// Glickman's worked example (glicko2.pdf): 1500/200/0.06 against
    /// 1400/30, 1550/100 and 1700/300, scoring 1, 0, 0.
    #[test]
    fn glickmans_example() {
        let after = r(1500.0, 200.0).after_period(&[
            (r(1400.0, 30.0), Score::Win),
            (r(1550.0, 100.0), Score::Loss),
            (r(1700.0, 300.0), Score::Loss),
        ]);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_draw_between_equals_moves_nothing_but_the_deviations() {
        let a = r(1500.0, 80.0);
        let after = a.after_game(a, Score::Draw);
        assert!((after.rating - 1500.0).abs() < 1e-9);
        assert!(after.deviation < 80.0);
    }

    #[test]
    fn a_draw_moves_the_lower_rated_up_and_the_higher_down() {
        let (low, high) = (r(1400.0, 60.0), r(1700.0, 60.0));
        let low_after = low.after_game(high, Score::Draw);
        let high_after = high.after_game(low, Score::Draw);
        assert!(low_after.rating > 1400.0 && high_after.rating < 1700.0);
        // Equal deviations: what one gains the other loses.
        let gain = low_after.rating - 1400.0;
        let loss = 1700.0 - high_after.rating;
        assert!((gain - loss).abs() < 0.01, "{gain} {loss}");
    }

    #[test]
    fn deviation_grows_with_inactivity_and_stops_at_a_newcomers() {
        let at = |d: i64| {
            chrono::NaiveDate::from_ymd_opt(2026, 1, 1)
                .unwrap()
                .and_hms_opt(0, 0, 0)
                .unwrap()
                + chrono::TimeDelta::days(d)
        };
        let settled = r(1800.0, 50.0);
        // Less than a period: nothing.
        assert_eq!(settled.at(Some(at(0)), at(6)), settled);
        let week = settled.at(Some(at(0)), at(7));
        // sqrt(phi^2 + sigma^2) on Glicko-2's scale, back on the rating scale.
        let expected = ((50.0f64 / 173.7178).powi(2) + 0.06f64.powi(2)).sqrt() * 173.7178;
        assert!((week.deviation - expected).abs() < 1e-9, "{week:?}");
        assert_eq!(week.rating, 1800.0);
        let year = settled.at(Some(at(0)), at(364));
        // 52 periods: sqrt(50^2 + 52 * (0.06 * 173.7178)^2) = 90.27, still settled.
        assert!((year.deviation - 90.27).abs() < 0.01, "{year:?}");
        assert!(!year.provisional());
        let decades = settled.at(Some(at(0)), at(365 * 40));
        assert_eq!(decades.deviation, MAX_DEVIATION);
        assert!(decades.provisional());
        assert_eq!(decades.shown(), "1800?");
    }

    #[test]
    fn a_game_moves_both_players_and_the_prospects_agree() {
        let now = chrono::DateTime::from_timestamp(1_800_000_000, 0)
            .unwrap()
            .naive_utc();
        let white = Standing::default();
        let black = Standing {
            rating: r(1600.0, 90.0),
            games: 30,
            last_played_at: Some(now),
            seq: 41,
        };
        let (w, b) = rate_game(&white, &black, GameResult::Draw, now);
        assert!(w.diff() > 0 && b.diff() < 0, "{w:?} {b:?}");
        // The newcomer moves much further than the settled player.
        assert!(w.diff() > 10 * -b.diff(), "{w:?} {b:?}");
        let p = prospects(&white, &black, now);
        assert_eq!(p[1], (Score::Draw, w.diff()));
        assert!(p[0].1 > p[1].1 && p[1].1 > p[2].1);
        assert_eq!(next_seq(&white, &black), 42);
        let next = white.after(w.after, now, 42);
        assert_eq!(
            (next.games, next.last_played_at, next.seq),
            (1, Some(now), 42)
        );
    }

    #[test]
    fn shown_and_signed() {
        assert_eq!(r(1612.4, 110.0).shown(), "1612");
        assert_eq!(r(1612.5, 110.1).shown(), "1613?");
        assert_eq!(signed(8), "+8");
        assert_eq!(signed(0), "+0");
        assert_eq!(signed(-12), "-12");
        assert_eq!(diff(1499.6, 1507.4), 7);
    }

    #[test]
    fn ranges_include_their_ends() {
        assert!(in_range(None, None, 1500));
        assert!(in_range(Some(1400), Some(1600), 1400));
        assert!(in_range(Some(1400), Some(1600), 1600));
        assert!(!in_range(Some(1400), Some(1600), 1601));
        assert!(!in_range(Some(1501), None, 1500));
        assert!(in_range(None, Some(1500), 1500));
    }

    #[test]
    fn scores_by_side() {
        assert_eq!(Score::of(GameResult::WhiteWins, Side::White), Score::Win);
        assert_eq!(Score::of(GameResult::WhiteWins, Side::Black), Score::Loss);
        assert_eq!(Score::of(GameResult::Draw, Side::Black), Score::Draw);
    }
}
