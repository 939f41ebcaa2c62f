//! A player's page in a tournament (issue 63): each rule in words beside
//! what it has done to them so far, and why.

use crate::db::game_events;
use crate::db::games::{self, GameRow};
use crate::db::tournaments::{self, TournamentRow};
use crate::db::{entrants, tournament_games, DbConn};
use crate::domain::error::Error;
use crate::domain::game_event::EventKind;
use crate::domain::game_state::{EndReason, GameResult, GameStatus, Side};
use crate::domain::ids::GameId;
use crate::domain::standings::{counts, scheduled_games};
use crate::domain::time_control::utc_minute;
use crate::tournaments::directors::named_player;
use crate::tournaments::rules_text::{rules, Rule, RuleText};

/// One rule and what it did to the player.
pub struct RuleAndFate {
    pub rule: RuleText,
    /// What happened to the player under this rule, and why.
    pub fate: String,
}

/// One of the player's games, as the page lists it.
pub struct PlayerGame {
    pub id: GameId,
    pub round: i32,
    pub opponent: String,
    pub result: String,
    pub how: String,
}

pub struct PlayerRules {
    pub t: TournamentRow,
    pub player: String,
    pub withdrawn: bool,
    pub lines: Vec<RuleAndFate>,
    pub games: Vec<PlayerGame>,
}

/// Did `user` lose `g`, and for what reason?
fn lost_by(g: &GameRow, user: i32) -> Option<EndReason> {
    let loser = g.result.and_then(GameResult::loser)?;
    (games::player_of(g, loser.color()) == Some(user))
        .then_some(g.reason)
        .flatten()
}

/// The side `user` plays in `g`.
fn side_of(g: &GameRow, user: i32) -> Side {
    if g.white_id == Some(user) {
        Side::White
    } else {
        Side::Black
    }
}

fn games_word(n: usize) -> &'static str {
    if n == 1 {
        "game"
    } else {
        "games"
    }
}

fn list(ids: &[GameId]) -> String {
    ids.iter()
        .map(|id| format!("#{id}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The page of player `name` in tournament `tid`.
pub fn player_rules(conn: &mut DbConn, tid: i32, name: &str) -> Result<PlayerRules, Error> {
    let t = tournaments::load(conn, tid)?;
    let u = named_player(conn, name).map_err(|_| {
        Error::NotFound(format!(
            "There is no player named “{}”.",
            crate::util::clip(name, 40)
        ))
    })?;
    let players = entrants::of_tournament(conn, tid)?;
    let me = players
        .iter()
        .find(|p| p.user_id == u.id)
        .cloned()
        .ok_or_else(|| Error::NotFound(format!("{} is not in “{}”.", u.username, t.name)))?;
    let field = players.iter().filter(|p| p.replaced_by.is_none()).count();
    let scheduled = scheduled_games(t.format, t.rounds, field).max(0) as usize;
    let mine: Vec<GameRow> = tournament_games::of_tournament(conn, tid)?
        .into_iter()
        .filter(|g| counts(g.reason) && (g.white_id == Some(u.id) || g.black_id == Some(u.id)))
        .collect();
    let opponents: Vec<i32> = mine
        .iter()
        .filter_map(|g| games::opponent_of(g, u.id))
        .collect();
    let names = crate::db::users::user_names(conn, &opponents)?;
    let lost = |reason: EndReason| -> Vec<GameId> {
        mine.iter()
            .filter(|g| lost_by(g, u.id) == Some(reason))
            .map(|g| g.id)
            .collect()
    };
    let on_time = lost(EndReason::TimeForfeit);
    let silent = lost(EndReason::Silence);
    let by_withdrawal = lost(EndReason::Withdrawal);
    let mut claimed = Vec::new();
    for id in &on_time {
        if game_events::events_of(conn, *id)?
            .iter()
            .any(|e| e.kind == EventKind::Claim)
        {
            claimed.push(*id);
        }
    }
    let finished = mine
        .iter()
        .filter(|g| g.status == GameStatus::Finished)
        .count();
    let running: Vec<&GameRow> = mine
        .iter()
        .filter(|g| g.status == GameStatus::Active)
        .collect();
    let fate = |rule: Rule| -> String {
        match rule {
            Rule::TimeControl => format!(
                "{finished} of {} finished, {} in progress.",
                plural_games(mine.len()),
                running.len()
            ),
            Rule::Leave => "Leave booked on the leave page stops the clocks of all the \
                            player's games, up to this tournament's allowance."
                .to_string(),
            Rule::OnTimeout => {
                let flagged: Vec<GameId> = running
                    .iter()
                    .filter(|g| g.flag_fell_side == Some(side_of(g, u.id)))
                    .map(|g| g.id)
                    .collect();
                let mut s = match on_time.len() {
                    0 => "No game lost on time.".to_string(),
                    n => format!(
                        "Lost on time: {n} {} ({}); claimed by the opponent: {}.",
                        games_word(n),
                        list(&on_time),
                        if claimed.is_empty() {
                            "none".to_string()
                        } else {
                            list(&claimed)
                        }
                    ),
                };
                if !flagged.is_empty() {
                    s.push_str(&format!(
                        " Time has run out in {} and the opponent may still claim it.",
                        list(&flagged)
                    ));
                }
                s
            }
            Rule::ForfeitLimit => {
                let n = on_time.len();
                let limit = t.forfeit_limit.max(0) as usize;
                if n >= limit {
                    format!(
                        "{n} of {limit} losses on time: the forfeit limit is reached, so the \
                         player was withdrawn."
                    )
                } else {
                    format!(
                        "{n} of {limit} losses on time: not withdrawn under this rule ({} more \
                         would withdraw).",
                        limit - n
                    )
                }
            }
            Rule::Silence => match t.silence_days {
                None => "The rule is off.".into(),
                Some(_) => {
                    let threshold = scheduled.div_ceil(2).max(1);
                    let warned: Vec<GameId> = running
                        .iter()
                        .filter(|g| {
                            g.silence_ply == Some(g.ply)
                                && g.silence_stage > 0
                                && games::player_to_move(g) == Some(u.id)
                        })
                        .map(|g| g.id)
                        .collect();
                    let mut s = format!(
                        "Lost by silence: {} of {scheduled} scheduled {} ({threshold} would be \
                         a silent withdrawal){}.",
                        silent.len(),
                        games_word(scheduled),
                        if silent.is_empty() {
                            String::new()
                        } else {
                            format!(": {}", list(&silent))
                        }
                    );
                    if !warned.is_empty() {
                        s.push_str(&format!(" Warned for silence in {}.", list(&warned)));
                    }
                    s
                }
            },
            Rule::Withdrawal => match me.withdrawn_at {
                None => "Not withdrawn.".into(),
                Some(at) => {
                    let effect = if me.results_cancelled {
                        "fewer than half of the scheduled games were completed, so all results \
                         are cancelled"
                            .to_string()
                    } else {
                        format!(
                            "half or more of the scheduled games were completed, so the results \
                             stand and the remaining games count as losses{}",
                            if by_withdrawal.is_empty() {
                                String::new()
                            } else {
                                format!(" ({})", list(&by_withdrawal))
                            }
                        )
                    };
                    format!(
                        "Withdrawn on {}: {}. {}.",
                        utc_minute(at),
                        me.withdrawal_reason.clone().unwrap_or_default(),
                        crate::util::clip(&capital(&effect), 600)
                    )
                }
            },
            Rule::CoolingOff => match t.cooling_off_days {
                d if d <= 0 => "No cooling-off.".into(),
                d => format!(
                    "Checked when the player entered: no loss on time or by silence in the \
                     {d} days before."
                ),
            },
            Rule::Rating => match (t.rated, finished) {
                (true, 0) => "No rated game finished yet.".into(),
                (true, n) => format!("{n} rated {} finished.", games_word(n)),
                (false, _) => "Casual: no rating moved.".into(),
            },
        }
    };
    let lines = rules(&t, field)
        .into_iter()
        .map(|r| RuleAndFate {
            fate: fate(r.rule),
            rule: r,
        })
        .collect();
    let games = mine
        .iter()
        .map(|g| PlayerGame {
            id: g.id,
            round: g.round.unwrap_or(0),
            opponent: games::opponent_of(g, u.id)
                .and_then(|o| names.get(&o).cloned())
                .unwrap_or_else(|| "?".into()),
            result: g.result.map_or("*", |r| r.code()).to_string(),
            how: match g.reason {
                Some(r) => r.describe(),
                None => format!("{} plies", g.ply),
            },
        })
        .collect();
    Ok(PlayerRules {
        withdrawn: me.withdrawn_at.is_some(),
        player: u.username,
        lines,
        games,
        t,
    })
}

fn plural_games(n: usize) -> String {
    format!("{n} {}", games_word(n))
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
