//! The signed-in player's start page: their games, usable with hundreds
//! running (issue 64). Games where it is their turn and games waiting for
//! the opponent are each sorted by deadline (leave and weekends counted)
//! and shown a page at a time; a plain GET form filters by variant and by
//! tournament, so it works without script.

use crate::clocks::turn_order;
use crate::db::games::{self, GameRow};
use crate::db::users::User;
use crate::domain::error::Error;
use crate::domain::game_state::{GameStatus, Side};
use crate::domain::ids::GameId;
use crate::domain::time_control::utc_minute;
use crate::domain::week::local_minute;
use crate::web::views::variant_name;
use crate::web::{html, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::HttpResponse;
use askama::Template;
use serde::Deserialize;
use std::collections::HashMap;

/// One game as a list shows it.
pub struct GameLine {
    pub id: GameId,
    pub variant: String,
    pub opponent: String,
    pub note: String,
    /// What needs the player's eye first: a draw offer, the opponent's move.
    pub flag: Option<&'static str>,
    /// The opponent's rating in the variant (`1500?`), and whether the game is rated.
    pub rating: String,
    pub rated: bool,
}

/// Games a list shows at once.
pub const PER_PAGE: usize = 50;
/// Finished games listed (the newest).
const FINISHED_SHOWN: usize = 100;

/// The dashboard's query: every field text, read leniently (a bad value
/// is the default, never an error page).
#[derive(Deserialize, Default, Clone)]
#[serde(default)]
pub struct DashboardQuery {
    /// A variant id; empty: all.
    variant: String,
    /// A tournament id, `none` (games outside tournaments); empty: all.
    tournament: String,
    /// 1-based page of the "your turn" list.
    turn_page: String,
    /// 1-based page of the "waiting" list.
    wait_page: String,
    /// `none`: the "next game" link found no game waiting for a move.
    next: String,
}

/// The tournament filter.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TournamentFilter {
    All,
    Outside,
    One(i32),
}

impl TournamentFilter {
    fn read(text: &str) -> TournamentFilter {
        match text.trim() {
            "none" => TournamentFilter::Outside,
            t => t
                .parse()
                .map(TournamentFilter::One)
                .unwrap_or(TournamentFilter::All),
        }
    }

    fn keeps(self, tournament_id: Option<i32>) -> bool {
        match self {
            TournamentFilter::All => true,
            TournamentFilter::Outside => tournament_id.is_none(),
            TournamentFilter::One(id) => tournament_id == Some(id),
        }
    }
}

/// One choice of a filter: (value, label with the number of games, chosen).
pub struct Choice {
    pub value: String,
    pub label: String,
    pub chosen: bool,
}

/// One page of a list, with links to the others.
pub struct Pager {
    pub page: usize,
    pub pages: usize,
    pub total: usize,
    pub prev: Option<String>,
    pub next: Option<String>,
}

#[derive(Template)]
#[template(path = "dashboard.html")]
struct Dashboard {
    page: Page,
    your_turn: Vec<GameLine>,
    turn_pager: Pager,
    challenges: Vec<GameLine>,
    waiting: Vec<GameLine>,
    wait_pager: Pager,
    seeks: Vec<GameLine>,
    finished: Vec<GameLine>,
    confirm_moves: bool,
    variants: Vec<Choice>,
    tournaments: Vec<Choice>,
    filtered: bool,
    /// The "next game" link found none.
    none_waiting: bool,
    /// The first game of the "your turn" list (the filter's next game).
    first_turn: Option<GameId>,
}

/// A page number from the query: 1 when absent or unreadable, at most `pages`.
fn page_number(text: &str, pages: usize) -> usize {
    text.trim()
        .parse::<usize>()
        .unwrap_or(1)
        .clamp(1, pages.max(1))
}

/// The query string of the dashboard with these filters and pages.
fn href(q: &DashboardQuery, turn_page: usize, wait_page: usize) -> String {
    let mut parts = Vec::new();
    let enc = |s: &str| {
        percent_encoding::utf8_percent_encode(s, percent_encoding::NON_ALPHANUMERIC).to_string()
    };
    if !q.variant.is_empty() {
        parts.push(format!("variant={}", enc(&q.variant)));
    }
    if !q.tournament.is_empty() {
        parts.push(format!("tournament={}", enc(&q.tournament)));
    }
    if turn_page > 1 {
        parts.push(format!("turn_page={turn_page}"));
    }
    if wait_page > 1 {
        parts.push(format!("wait_page={wait_page}"));
    }
    match parts.is_empty() {
        true => "/".into(),
        false => format!("/?{}", parts.join("&")),
    }
}

/// `items` cut to page `page` of `pages`.
fn page_of<T>(items: Vec<T>, page: usize) -> Vec<T> {
    items
        .into_iter()
        .skip((page - 1) * PER_PAGE)
        .take(PER_PAGE)
        .collect()
}

fn pages_for(total: usize) -> usize {
    total.div_ceil(PER_PAGE).max(1)
}

/// The variant and tournament choices, from the player's running and
/// pending games (with how many of each).
fn choices(
    mine: &[GameRow],
    q: &DashboardQuery,
    tournament_names: &HashMap<i32, String>,
) -> (Vec<Choice>, Vec<Choice>) {
    let open = || {
        mine.iter()
            .filter(|g| matches!(g.status, GameStatus::Active | GameStatus::Pending))
    };
    let mut by_variant: HashMap<&str, usize> = HashMap::new();
    for g in open() {
        *by_variant.entry(g.variant.as_str()).or_default() += 1;
    }
    let mut variants: Vec<Choice> = by_variant
        .into_iter()
        .map(|(id, n)| Choice {
            value: id.to_string(),
            label: format!("{} ({n})", variant_name(id)),
            chosen: q.variant == id,
        })
        .collect();
    variants.sort_by(|a, b| a.label.cmp(&b.label));
    let mut by_tournament: HashMap<Option<i32>, usize> = HashMap::new();
    for g in open() {
        *by_tournament.entry(g.tournament_id).or_default() += 1;
    }
    let filter = TournamentFilter::read(&q.tournament);
    let mut tournaments: Vec<Choice> = by_tournament
        .iter()
        .filter_map(|(id, n)| {
            let id = (*id)?;
            Some(Choice {
                value: id.to_string(),
                label: format!(
                    "{} ({n})",
                    tournament_names
                        .get(&id)
                        .cloned()
                        .unwrap_or_else(|| format!("Tournament {id}"))
                ),
                chosen: filter == TournamentFilter::One(id),
            })
        })
        .collect();
    tournaments.sort_by(|a, b| a.label.cmp(&b.label));
    if let Some(n) = by_tournament.get(&None) {
        tournaments.insert(
            0,
            Choice {
                value: "none".into(),
                label: format!("Not in a tournament ({n})"),
                chosen: filter == TournamentFilter::Outside,
            },
        );
    }
    (variants, tournaments)
}

/// Which list of the dashboard a game is in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum List {
    /// Running, the player to move.
    Turn,
    /// Running, the opponent to move; or the player's challenge unanswered.
    Waiting,
    /// Another player's challenge to answer.
    Challenge,
    Finished,
}

fn list_of(g: &GameRow, uid: i32) -> List {
    match g.status {
        GameStatus::Active if games::player_to_move(g) == Some(uid) => List::Turn,
        GameStatus::Active => List::Waiting,
        GameStatus::Pending if g.challenger_id == uid => List::Waiting,
        GameStatus::Pending => List::Challenge,
        _ => List::Finished,
    }
}

/// The games the page shows, each list cut to its page, with the size of
/// the whole lists: only these get names, ratings and words, so a player
/// with a thousand games running costs a page of lines, not a thousand.
struct Shown {
    turns: Vec<GameRow>,
    turn_total: usize,
    turn_page: usize,
    waiting: Vec<GameRow>,
    wait_total: usize,
    wait_page: usize,
    challenges: Vec<GameRow>,
    finished: Vec<GameRow>,
    /// The first game of the whole "your turn" list.
    first_turn: Option<GameId>,
}

impl Shown {
    /// `mine` (already filtered) sorted into lists, the open ones by
    /// deadline, the two long ones cut to the pages the query asks for.
    fn cut(
        mine: Vec<GameRow>,
        uid: i32,
        dues: &HashMap<GameId, turn_order::Due>,
        q: &DashboardQuery,
    ) -> Shown {
        let (mut turns, mut waiting, mut challenges, mut finished) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for g in mine {
            match list_of(&g, uid) {
                List::Turn => turns.push(g),
                List::Waiting => waiting.push(g),
                List::Challenge => challenges.push(g),
                List::Finished => finished.push(g),
            }
        }
        for list in [&mut turns, &mut waiting, &mut challenges] {
            turn_order::sort_by_deadline(list, dues);
        }
        // The latest ended first; ties by last move, then id, as before.
        finished.sort_by_key(|g| {
            (
                std::cmp::Reverse(g.ended_at.unwrap_or(g.updated_at)),
                g.updated_at,
                g.id,
            )
        });
        finished.truncate(FINISHED_SHOWN);
        let (turn_total, wait_total) = (turns.len(), waiting.len());
        let turn_page = page_number(&q.turn_page, pages_for(turn_total));
        let wait_page = page_number(&q.wait_page, pages_for(wait_total));
        Shown {
            first_turn: turns.first().map(|g| g.id),
            turns: page_of(turns, turn_page),
            turn_total,
            turn_page,
            waiting: page_of(waiting, wait_page),
            wait_total,
            wait_page,
            challenges,
            finished,
        }
    }

    fn games(&self) -> impl Iterator<Item = &GameRow> {
        self.turns
            .iter()
            .chain(&self.waiting)
            .chain(&self.challenges)
            .chain(&self.finished)
    }
}

/// `GET /` for a signed-in player.
pub async fn show(ctx: Ctx, user: User, q: DashboardQuery) -> Result<HttpResponse, Error> {
    let uid = user.id;
    let zone = crate::domain::week::zone_or_utc(&user.time_zone);
    let tfilter = TournamentFilter::read(&q.tournament);
    let query = q.clone();
    let (shown, choices, seeks, names, dues, ratings) = ctx
        .state
        .read(move |conn| {
            let q = &query;
            // Open games all (the lists page them), closed ones only as many
            // as are shown: a player's history is not read whole.
            let mut mine = games::open_games_of(conn, uid)?;
            mine.extend(games::latest_closed_of(
                conn,
                uid,
                FINISHED_SHOWN,
                |v, t| (q.variant.is_empty() || v == q.variant.as_str()) && tfilter.keeps(t),
            )?);
            let now = crate::web::now();
            let dues = turn_order::dues(conn, &mine, now)?;
            let mut tids: Vec<i32> = mine.iter().filter_map(|g| g.tournament_id).collect();
            tids.sort_unstable();
            tids.dedup();
            let tournament_names = crate::db::tournaments::names_of(conn, &tids)?;
            let choices = choices(&mine, q, &tournament_names);
            mine.retain(|g| {
                (q.variant.is_empty() || g.variant == q.variant) && tfilter.keeps(g.tournament_id)
            });
            let shown = Shown::cut(mine, uid, &dues, q);
            let own = crate::db::ratings::table_of(conn, &[uid], now)?;
            let seeks = crate::game::challenge::open_seeks(conn, uid, &own)?;
            let mut ids: Vec<i32> = shown
                .games()
                .chain(seeks.iter())
                .flat_map(|g| [Some(g.challenger_id), g.opponent_id, g.white_id, g.black_id])
                .flatten()
                .collect();
            ids.sort_unstable();
            ids.dedup();
            let names = crate::db::users::user_names(conn, &ids)?;
            let ratings = crate::db::ratings::table_of(conn, &ids, now)?;
            Ok((shown, choices, seeks, names, dues, ratings))
        })
        .await?;
    let (variants, tournament_choices) = choices;
    let name = |id: Option<i32>| -> String {
        id.and_then(|i| names.get(&i).cloned())
            .unwrap_or_else(|| "anyone".to_string())
    };
    let other = |g: &GameRow| {
        if g.challenger_id == uid {
            g.opponent_id
        } else {
            Some(g.challenger_id)
        }
    };
    let line_of = |g: &GameRow, note: String| {
        let theirs = games::side_of(g, uid).map(|c| Side::from(c).opponent());
        let flag = if theirs.is_some() && g.draw_offer == theirs {
            Some("draw offered")
        } else if g.ply > 0 && games::player_to_move(g) == Some(uid) {
            Some("they moved")
        } else {
            None
        };
        GameLine {
            id: g.id,
            variant: variant_name(&g.variant),
            opponent: name(other(g)),
            note,
            flag,
            rating: other(g).map_or_else(String::new, |o| ratings.shown(o, &g.variant)),
            rated: g.rated,
        }
    };
    let clock_words = |g: &GameRow| {
        dues.get(&g.id).map(|d| {
            format!(
                "{} left (deadline {})",
                crate::domain::time_control::describe(d.left_secs),
                local_minute(d.deadline, zone)
            )
        })
    };
    let since = |g: &GameRow| local_minute(g.updated_at, zone);
    let turns = shown
        .turns
        .iter()
        .map(|g| {
            let note = match clock_words(g) {
                Some(c) => format!("{c}, waiting since {}", since(g)),
                None => format!("waiting since {}", since(g)),
            };
            line_of(g, note)
        })
        .collect();
    let waiting = shown
        .waiting
        .iter()
        .map(|g| {
            let note = match (g.status, clock_words(g)) {
                (GameStatus::Pending, _) => "challenge not yet accepted".to_string(),
                (_, Some(c)) => format!("their move since {}; they have {c}", since(g)),
                (_, None) => format!("their move since {}", since(g)),
            };
            line_of(g, note)
        })
        .collect();
    let challenges = shown
        .challenges
        .iter()
        .map(|g| line_of(g, format!("sent {}", local_minute(g.created_at, zone))))
        .collect();
    let finished = shown
        .finished
        .iter()
        .map(|g| {
            let sides = crate::posted::lookup::variant(&g.variant)
                .map(|v| {
                    [
                        v.side_name(missive_rules::Color::White),
                        v.side_name(missive_rules::Color::Black),
                    ]
                })
                .unwrap_or(["White", "Black"]);
            let what = games::describe_result(g, sides).unwrap_or_else(|| g.status.to_string());
            line_of(
                g,
                format!("{what}, {}", utc_minute(g.ended_at.unwrap_or(g.updated_at))),
            )
        })
        .collect();
    let (tp, wp) = (shown.turn_page, shown.wait_page);
    let pager = |page: usize, total: usize, link: &dyn Fn(usize) -> String| {
        let pages = pages_for(total);
        Pager {
            page,
            pages,
            total,
            prev: (page > 1).then(|| link(page - 1)),
            next: (page < pages).then(|| link(page + 1)),
        }
    };
    let turn_pager = pager(tp, shown.turn_total, &|p| href(&q, p, wp));
    let wait_pager = pager(wp, shown.wait_total, &|p| href(&q, tp, p));
    let seeks = seeks
        .iter()
        .map(|g| GameLine {
            id: g.id,
            variant: variant_name(&g.variant),
            opponent: name(Some(g.challenger_id)),
            note: match (g.rating_min, g.rating_max) {
                (None, None) => format!("they play {}", g.challenger_color),
                _ => format!(
                    "they play {}; for players rated {}",
                    g.challenger_color,
                    crate::game::challenge::range_words(g)
                ),
            },
            flag: None,
            rating: ratings.shown(g.challenger_id, &g.variant),
            rated: g.rated,
        })
        .collect();
    let d = Dashboard {
        page: ctx.page(),
        your_turn: turns,
        turn_pager,
        challenges,
        waiting,
        wait_pager,
        seeks,
        finished,
        confirm_moves: user.confirm_moves,
        variants,
        tournaments: tournament_choices,
        filtered: !q.variant.is_empty() || tfilter != TournamentFilter::All,
        none_waiting: q.next == "none",
        first_turn: shown.first_turn,
    };
    Ok(html(StatusCode::OK, d.render()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_keep_the_filters_and_pages() {
        let q = DashboardQuery {
            variant: "chess".into(),
            tournament: "7".into(),
            ..Default::default()
        };
        assert_eq!(href(&q, 2, 1), "/?variant=chess&tournament=7&turn_page=2");
        assert_eq!(href(&DashboardQuery::default(), 1, 1), "/");
        assert_eq!(page_number("abc", 5), 1);
        assert_eq!(page_number("99", 5), 5);
        assert_eq!(page_number("0", 5), 1);
        assert_eq!(pages_for(0), 1);
        assert_eq!(pages_for(250), 5);
        assert_eq!(pages_for(251), 6);
    }
}
