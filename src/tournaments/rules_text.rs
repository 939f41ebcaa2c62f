//! Every setting of a tournament in words (issue 63): one sentence or two
//! per rule, the same on the tournament page, above its entry button and in
//! the entry mail, so a player knows beforehand what each rule will do.

use crate::db::tournaments::TournamentRow;
use crate::domain::game_state::{OnTimeout, CLAIM_DAYS};
use crate::domain::standings::scheduled_games;
use crate::domain::time_control::TimeControl;
use crate::domain::tournament_state::TournamentFormat;

/// Which rule a sentence states; its code names the rule on pages (an
/// element id) and in tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    TimeControl,
    Leave,
    OnTimeout,
    ForfeitLimit,
    Silence,
    Withdrawal,
    CoolingOff,
    Rating,
}

impl Rule {
    pub fn code(self) -> &'static str {
        match self {
            Rule::TimeControl => "time-control",
            Rule::Leave => "leave",
            Rule::OnTimeout => "on-timeout",
            Rule::ForfeitLimit => "forfeit-limit",
            Rule::Silence => "silence",
            Rule::Withdrawal => "withdrawal",
            Rule::CoolingOff => "cooling-off",
            Rule::Rating => "rating",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Rule::TimeControl => "Time control",
            Rule::Leave => "Leave",
            Rule::OnTimeout => "When a clock runs out",
            Rule::ForfeitLimit => "Forfeit limit",
            Rule::Silence => "Silence",
            Rule::Withdrawal => "Withdrawal",
            Rule::CoolingOff => "Cooling-off",
            Rule::Rating => "Rating",
        }
    }
}

/// One rule stated in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleText {
    pub rule: Rule,
    pub code: &'static str,
    pub title: &'static str,
    pub text: String,
    /// The rule in a few words, for the entry form's summary.
    pub short: String,
}

fn plural(n: i64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// The time control in words ("3 days per move", "no clock").
pub fn time_control_words(tc: Option<&str>) -> String {
    match tc {
        None => "no clock".into(),
        Some(text) => text
            .parse::<TimeControl>()
            .map(|c| c.label())
            .unwrap_or_else(|_| text.to_string()),
    }
}

/// Each player's scheduled games with `field` players, in words.
fn scheduled_words(t: &TournamentRow, field: usize) -> String {
    match t.format {
        TournamentFormat::Swiss => plural(i64::from(t.rounds), "game", "games"),
        _ if field < 2 => "one game against each other player".into(),
        _ => {
            let n = i64::from(scheduled_games(t.format, t.rounds, field));
            format!(
                "{} with the {field} players entered now",
                plural(n, "game", "games")
            )
        }
    }
}

/// Every rule of `t` in words, with `field` players entered (the scheduled
/// games a round robin's thresholds count depend on it).
pub fn rules(t: &TournamentRow, field: usize) -> Vec<RuleText> {
    let mut out = Vec::new();
    let short = short_rules(t);
    let mut say = |rule: Rule, text: String| {
        out.push(RuleText {
            rule,
            code: rule.code(),
            title: rule.title(),
            text,
            short: short(rule),
        })
    };
    say(
        Rule::TimeControl,
        match &t.time_control {
            None => "No clock: a game is never lost on time.".into(),
            Some(_) if t.weekends_free => format!(
                "{}. The clock of the player to move runs day and night on weekdays, except \
                 on their leave; Saturdays and Sundays in their own time zone do not count.",
                capitalised(&time_control_words(t.time_control.as_deref()))
            ),
            Some(_) => format!(
                "{}. The clock of the player to move runs day and night, except on their \
                 leave.",
                capitalised(&time_control_words(t.time_control.as_deref()))
            ),
        },
    );
    say(
        Rule::Leave,
        format!(
            "Each player may take up to {} of booked leave a year in this tournament's \
             games: on those days their clocks and the silence count stand still. Leave \
             beyond that does not stop them. The director may grant extra days.",
            plural(i64::from(t.leave_days), "day", "days")
        ),
    );
    say(
        Rule::OnTimeout,
        match (&t.time_control, t.on_timeout) {
            (None, _) => "There is no clock to run out.".into(),
            (Some(_), OnTimeout::Lose) => {
                "The game is lost on time at once when the player to move runs out of time.".into()
            }
            (Some(_), OnTimeout::Claim) => format!(
                "Opponent may claim: when the player to move runs out of time the game goes \
                 on; their opponent is mailed and may claim the win on time, or play on. \
                 Unclaimed after {CLAIM_DAYS} days, the game is lost on time. A claimed win \
                 is a loss on time like any other."
            ),
        },
    );
    say(
        Rule::ForfeitLimit,
        format!(
            "A player who loses {} on time in this tournament (claimed or not) is withdrawn.",
            plural(i64::from(t.forfeit_limit), "game", "games")
        ),
    );
    let scheduled = scheduled_words(t, field);
    say(
        Rule::Silence,
        match t.silence_days {
            None => "Off: no game is lost for want of a move while time remains.".into(),
            Some(days) => format!(
                "A player to move who makes no move for {} (leave not counted) while time \
                 remains is warned at half that time and three days before its end, the \
                 director is told, and at its end the game is lost by silence. A player who \
                 loses half or more of their scheduled games by silence ({scheduled}) is \
                 withdrawn: a silent withdrawal. Losses on time count only towards the \
                 forfeit limit, never as silence.",
                plural(i64::from(days), "day", "days")
            ),
        },
    );
    say(
        Rule::Withdrawal,
        format!(
            "A withdrawn player's games in progress end as losses. If they completed fewer \
             than half of their scheduled games ({scheduled}), all their results are \
             cancelled: left out of the standings, so their opponents neither gain nor lose \
             by them. Otherwise their results stand and their remaining games count as \
             losses. The director may also withdraw a player (the same rule applies), \
             adjudicate a game, give a player more time, and replace a withdrawn player \
             until the first round's games have started."
        ),
    );
    say(
        Rule::CoolingOff,
        match t.cooling_off_days {
            d if d <= 0 => "None: a loss on time or by silence does not keep a player \
                            from entering other tournaments."
                .into(),
            d => format!(
                "After a loss on time or by silence in any game, a player may not enter \
                 this tournament for {}.",
                plural(i64::from(d), "day", "days")
            ),
        },
    );
    say(
        Rule::Rating,
        if t.rated {
            "Rated: the games move the players' ratings in this variant.".into()
        } else {
            "Casual: the games do not move ratings.".into()
        },
    );
    out
}

/// Each rule in a few words.
fn short_rules(t: &TournamentRow) -> impl Fn(Rule) -> String + '_ {
    move |rule| match rule {
        Rule::TimeControl => time_control_words(t.time_control.as_deref()),
        Rule::Leave => format!(
            "up to {} of leave a year",
            plural(i64::from(t.leave_days), "day", "days")
        ),
        Rule::OnTimeout => match (&t.time_control, t.on_timeout) {
            (None, _) => "no clock to run out".into(),
            (Some(_), OnTimeout::Lose) => "a game is lost at once when time runs out".into(),
            (Some(_), OnTimeout::Claim) => format!(
                "when time runs out the opponent may claim the win (lost on time if \
                 unclaimed in {CLAIM_DAYS} days)"
            ),
        },
        Rule::ForfeitLimit => format!(
            "withdrawn after {} on time",
            plural(i64::from(t.forfeit_limit), "loss", "losses")
        ),
        Rule::Silence => match t.silence_days {
            None => "no silence rule".into(),
            Some(d) => format!(
                "a game is lost after {} without a move; half or more of the games lost \
                 so withdraws",
                plural(i64::from(d), "day", "days")
            ),
        },
        Rule::Withdrawal => "a withdrawal cancels the results below half of the games \
                             played, else the remaining games are lost"
            .into(),
        Rule::CoolingOff => match t.cooling_off_days {
            d if d <= 0 => "no cooling-off".into(),
            d => format!(
                "no entry within {} of a loss on time or by silence",
                plural(i64::from(d), "day", "days")
            ),
        },
        Rule::Rating => (if t.rated { "rated" } else { "casual" }).into(),
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::tournament_state::TournamentStatus;

    fn row() -> TournamentRow {
        let at = chrono::NaiveDate::from_ymd_opt(2026, 12, 1)
            .unwrap()
            .and_hms_opt(0, 0, 0)
            .unwrap();
        TournamentRow {
            id: 1,
            name: "Cup".into(),
            variant: "chess".into(),
            time_control: Some("3d/move".into()),
            format: TournamentFormat::RoundRobin,
            rounds: 0,
            entry_opens: at,
            entry_closes: at,
            max_players: 10,
            entrants: 3,
            leave_days: 30,
            forfeit_limit: 2,
            director_id: 1,
            status: TournamentStatus::Running,
            current_round: 0,
            created_at: at,
            started_at: None,
            finished_at: None,
            rated: false,
            silence_days: Some(10),
            on_timeout: OnTimeout::Claim,
            cooling_off_days: 0,
            weekends_free: false,
        }
    }

    #[test]
    fn the_issue_63_settings_read_in_words() {
        let r = rules(&row(), 3);
        let text = |rule| r.iter().find(|x| x.rule == rule).unwrap().text.clone();
        assert!(text(Rule::TimeControl).starts_with("3 days per move"));
        assert!(text(Rule::OnTimeout).contains("Opponent may claim"));
        assert!(text(Rule::ForfeitLimit).contains("loses 2 games on time"));
        assert!(text(Rule::Silence).contains("10 days"));
        assert!(text(Rule::Silence).contains("2 games with the 3 players entered now"));
        assert!(text(Rule::Leave).contains("30 days"));
        assert!(text(Rule::Withdrawal).contains("fewer than half"));
        assert_eq!(r.len(), 8);
    }

    #[test]
    fn rules_that_are_off_say_so() {
        let mut t = row();
        t.silence_days = None;
        t.time_control = None;
        t.forfeit_limit = 1;
        let r = rules(&t, 0);
        let text = |rule| r.iter().find(|x| x.rule == rule).unwrap().text.clone();
        assert!(text(Rule::Silence).starts_with("Off"));
        assert!(text(Rule::TimeControl).starts_with("No clock"));
        assert!(text(Rule::ForfeitLimit).contains("loses 1 game on time"));
    }
}
