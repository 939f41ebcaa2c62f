//! What tournament pages show: standings, the cross table, the director's
//! dashboard, and the round mail.

use crate::db::entrants::{self, EntrantRow};
use crate::db::games::GameRow;
use crate::db::tournaments::{self, TournamentRow};
use crate::db::users::User;
use crate::db::{adjudications, byes, tournament_games, DbConn};
use crate::domain::error::Error;
use crate::domain::game_state::{GameResult, GameStatus};
use crate::domain::ids::GameId;
use crate::domain::standings::counts;
use crate::domain::tournament_state::TournamentFormat;
use crate::tournaments::directors::require_director;
use chrono::{Duration, NaiveDateTime};
use std::collections::{HashMap, HashSet};

// ---------------------------------------------------------------------------
// Standings and the page

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingLine {
    pub rank: usize,
    pub user_id: i32,
    pub name: String,
    pub seed: i32,
    /// Points times two.
    pub points2: i32,
    pub played: u32,
    /// Sonneborn-Berger times four.
    pub sb4: i64,
    /// Buchholz times two.
    pub buchholz2: i32,
    pub withdrawn: bool,
    pub cancelled: bool,
}

/// Crosstable rows: a player's name and one cell per column.
pub type CrossRows = Vec<(String, Vec<String>)>;

/// Everything the tournament page shows.
pub struct TournamentView {
    pub t: TournamentRow,
    pub director: String,
    pub players: Vec<(EntrantRow, String)>,
    pub games: Vec<GameRow>,
    pub byes: Vec<(i32, i32)>,
    pub names: HashMap<i32, String>,
    pub standings: Vec<StandingLine>,
    /// Round robins: the crosstable rows (player name, cells), in standings order.
    pub crosstable: Option<CrossRows>,
    pub adjudications: Vec<(i32, String, String)>,
    /// Each player's rating in the tournament's variant, as shown beside a name.
    pub ratings: HashMap<i32, String>,
}

/// The tournament with its players, games, byes and standings: a fixed
/// number of queries whatever its size.
pub fn view(conn: &mut DbConn, tid: i32) -> Result<TournamentView, Error> {
    let t = tournaments::load(conn, tid)?;
    let players = entrants::of_tournament(conn, tid)?;
    let all = tournament_games::of_tournament(conn, tid)?;
    let byes = byes::of_tournament(conn, tid)?;
    let mut ids: Vec<i32> = players.iter().map(|p| p.user_id).collect();
    ids.push(t.director_id);
    let names = crate::db::users::user_names(conn, &ids)?;
    let name = |id: i32| names.get(&id).cloned().unwrap_or_else(|| "?".into());
    let (standings, crosstable) = compute_standings(&t, &players, &all, &byes, &name);
    let adjudications = adjudications::of_tournament(conn, tid)?;
    let ratings = crate::db::ratings::shown(conn, &t.variant, &ids, crate::util::now())?;
    Ok(TournamentView {
        ratings,
        director: name(t.director_id),
        players: players
            .iter()
            .map(|p| (p.clone(), name(p.user_id)))
            .collect(),
        games: all,
        byes,
        names,
        standings,
        crosstable,
        adjudications,
        t,
    })
}

/// Standings (and, for round robins, the crosstable) from the games, with
/// the results of cancelled players left out (those players are listed last,
/// marked). Byes score only in Swiss tournaments (in a round robin everyone
/// sits out once).
pub fn compute_standings(
    t: &TournamentRow,
    players: &[EntrantRow],
    all: &[GameRow],
    byes: &[(i32, i32)],
    name: &dyn Fn(i32) -> String,
) -> (Vec<StandingLine>, Option<CrossRows>) {
    use crate::domain::standings::{self as st, ScoredGame};
    let field: Vec<&EntrantRow> = players.iter().filter(|p| p.replaced_by.is_none()).collect();
    let cancelled: HashSet<i32> = field
        .iter()
        .filter(|p| p.results_cancelled)
        .map(|p| p.user_id)
        .collect();
    let counted: Vec<i32> = field
        .iter()
        .map(|p| p.user_id)
        .filter(|u| !cancelled.contains(u))
        .collect();
    let mut results = Vec::new();
    for g in all
        .iter()
        .filter(|g| counts(g.reason) && g.status == GameStatus::Finished)
    {
        let (Some(white), Some(black)) = (g.white_id, g.black_id) else {
            continue;
        };
        if cancelled.contains(&white) || cancelled.contains(&black) {
            continue;
        }
        let Some(outcome) = g.result else {
            continue;
        };
        results.push(ScoredGame {
            white,
            black,
            outcome,
        });
    }
    let swiss = t.format == TournamentFormat::Swiss;
    let bye_list: Vec<i32> = if swiss {
        byes.iter()
            .map(|(_, u)| *u)
            .filter(|u| !cancelled.contains(u))
            .collect()
    } else {
        Vec::new()
    };
    let table = st::standings(&counted, &results, &bye_list, swiss);
    let entry: HashMap<i32, &EntrantRow> = field.iter().map(|p| (p.user_id, *p)).collect();
    let mut lines: Vec<StandingLine> = table
        .iter()
        .map(|s| {
            let p = entry[&s.player];
            StandingLine {
                rank: s.rank,
                user_id: s.player,
                name: name(s.player),
                seed: p.seed.unwrap_or(0),
                points2: s.points2,
                played: s.played,
                sb4: s.sonneborn_berger4,
                buchholz2: s.buchholz2,
                withdrawn: p.withdrawn_at.is_some(),
                cancelled: false,
            }
        })
        .collect();
    let crosstable = if swiss {
        None
    } else {
        let ct = st::crosstable(&table, &results);
        Some(
            ct.players
                .iter()
                .zip(ct.cells)
                .map(|(p, cells)| (name(*p), cells))
                .collect(),
        )
    };
    for p in field.iter().filter(|p| p.results_cancelled) {
        lines.push(StandingLine {
            rank: 0,
            user_id: p.user_id,
            name: name(p.user_id),
            seed: p.seed.unwrap_or(0),
            points2: 0,
            played: 0,
            sb4: 0,
            buchholz2: 0,
            withdrawn: true,
            cancelled: true,
        });
    }
    (lines, crosstable)
}

// ---------------------------------------------------------------------------
// The director's dashboard

/// What the clocks say about a director's tournaments.
#[derive(Default)]
struct ClockWatch {
    /// (game, tournament, white, black, deadline)
    nearing: Vec<(GameId, i32, i32, i32, NaiveDateTime)>,
    /// (player, tournament, until)
    on_leave: Vec<(i32, i32, String)>,
}

impl ClockWatch {
    fn ids(&self) -> impl Iterator<Item = i32> + '_ {
        self.nearing
            .iter()
            .flat_map(|n| [n.2, n.3])
            .chain(self.on_leave.iter().map(|l| l.0))
    }
}

/// Running games of these tournaments whose deadline falls within 48 hours,
/// and their players on leave today.
fn clock_watch(conn: &mut DbConn, tids: &[i32], now: NaiveDateTime) -> Result<ClockWatch, Error> {
    let soon = now + Duration::hours(48);
    // `clock_deadline` ignores leave (leave only moves a deadline later): a
    // cheap filter, then the clocks service gives the true deadline.
    let candidates = tournament_games::nearing_deadline(conn, tids, soon)?;
    // Every mover's leave in one query, not one per game.
    let movers: Vec<i32> = candidates
        .iter()
        .filter_map(crate::db::games::player_to_move)
        .collect();
    let leave = crate::db::leave::booked_leave_of(conn, &movers)?;
    // Zones matter only where weekends are free.
    let zones = match candidates.iter().any(|g| g.weekends_free) {
        true => crate::db::users::zones_of(conn, &movers)?,
        false => Default::default(),
    };
    let mut w = ClockWatch::default();
    for g in candidates {
        let booked = crate::db::games::player_to_move(&g)
            .and_then(|p| leave.get(&p))
            .map_or(&[][..], Vec::as_slice);
        let zone = crate::db::games::player_to_move(&g)
            .and_then(|p| zones.get(&p).copied())
            .unwrap_or(chrono_tz::Tz::UTC);
        if let Some(m) = crate::game::clock::mover_clock_with(&g, booked, zone) {
            if m.deadline <= soon {
                if let (Some(tid), Some(white), Some(black)) =
                    (g.tournament_id, g.white_id, g.black_id)
                {
                    w.nearing.push((g.id, tid, white, black, m.deadline));
                }
            }
        }
    }
    for (u, tid, until) in entrants::on_leave(conn, tids, now.date())? {
        w.on_leave
            .push((u, tid, format!("on leave until {until} (included)")));
    }
    Ok(w)
}

pub struct Dashboard {
    pub tournaments: Vec<TournamentRow>,
    /// (game, tournament name, white, black, deadline)
    pub nearing_timeout: Vec<(GameId, String, String, String, NaiveDateTime)>,
    /// (player, tournament name, leave until)
    pub on_leave: Vec<(String, String, String)>,
    /// (game, tournament name, loser, when)
    pub forfeits: Vec<(GameId, String, String, NaiveDateTime)>,
    /// (tournament name, player, why, when, cancelled)
    pub withdrawals: Vec<(String, String, String, NaiveDateTime, bool)>,
    /// (request id, game, tournament name, player, note, when)
    pub requests: Vec<(i32, GameId, String, String, String, NaiveDateTime)>,
}

pub fn dashboard(
    conn: &mut DbConn,
    director: &User,
    now: NaiveDateTime,
) -> Result<Dashboard, Error> {
    require_director(Some(director))?;
    let mine = tournaments::directed_by(conn, director.id)?;
    let tids: Vec<i32> = mine.iter().map(|t| t.id).collect();
    let tname: HashMap<i32, String> = mine.iter().map(|t| (t.id, t.name.clone())).collect();
    let tn = |id: Option<i32>| id.and_then(|i| tname.get(&i).cloned()).unwrap_or_default();
    let recent = now - Duration::days(30);
    let forfeit_rows = tournament_games::forfeits_since(conn, &tids, recent)?;
    let withdrawn = entrants::withdrawn_since(conn, &tids, recent)?;
    let requests = adjudications::open_requests(conn, &tids)?;
    let clocks = clock_watch(conn, &tids, now)?;
    let mut ids: Vec<i32> = forfeit_rows
        .iter()
        .flat_map(|g| [g.white_id, g.black_id])
        .flatten()
        .chain(withdrawn.iter().map(|e| e.user_id))
        .chain(requests.iter().map(|r| r.user_id))
        .chain(clocks.ids())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let names = crate::db::users::user_names(conn, &ids)?;
    let name = |id: Option<i32>| id.and_then(|i| names.get(&i).cloned()).unwrap_or_default();
    Ok(Dashboard {
        nearing_timeout: clocks
            .nearing
            .iter()
            .map(|(g, tid, w, b, d)| (*g, tn(Some(*tid)), name(Some(*w)), name(Some(*b)), *d))
            .collect(),
        on_leave: clocks
            .on_leave
            .iter()
            .map(|(u, tid, until)| (name(Some(*u)), tn(Some(*tid)), until.clone()))
            .collect(),
        forfeits: forfeit_rows
            .iter()
            .map(|g| {
                let loser = if g.result == Some(GameResult::WhiteWins) {
                    g.black_id
                } else {
                    g.white_id
                };
                (
                    g.id,
                    tn(g.tournament_id),
                    name(loser),
                    g.ended_at.unwrap_or(now),
                )
            })
            .collect(),
        withdrawals: withdrawn
            .iter()
            .map(|e| {
                (
                    tn(Some(e.tournament_id)),
                    name(Some(e.user_id)),
                    e.withdrawal_reason.clone().unwrap_or_default(),
                    e.withdrawn_at.unwrap_or(now),
                    e.results_cancelled,
                )
            })
            .collect(),
        requests: requests
            .into_iter()
            .map(|r| {
                (
                    r.id,
                    r.game_id,
                    tn(r.tournament_id),
                    name(Some(r.user_id)),
                    r.note,
                    r.created_at,
                )
            })
            .collect(),
        tournaments: mine,
    })
}

// ---------------------------------------------------------------------------
// The round mail

/// What the "tournament round" mail lists: the tournament and the reader's
/// games (of one Swiss round, or all of a round robin).
pub struct RoundMail {
    pub tournament: String,
    pub tournament_url: String,
    pub round: String,
    /// (round, side in the variant's own name, opponent, game URL)
    pub games: Vec<(i32, String, String, String)>,
    pub bye: bool,
    /// The side that moves first, in the variant's own name (Leap Chess: Red).
    pub first: String,
}

pub fn round_mail(
    conn: &mut DbConn,
    base_url: &str,
    tid: i32,
    round: Option<i32>,
    user_id: i32,
) -> Result<Option<RoundMail>, Error> {
    let Ok(t) = tournaments::load(conn, tid) else {
        return Ok(None);
    };
    let rows: Vec<GameRow> = tournament_games::of_player(conn, tid, user_id, round)?
        .into_iter()
        .filter(|g| counts(g.reason))
        .collect();
    let ids: Vec<i32> = rows
        .iter()
        .flat_map(|g| [g.white_id, g.black_id])
        .flatten()
        .collect();
    let names = crate::db::users::user_names(conn, &ids)?;
    let bye = match round {
        Some(r) => byes::of_tournament(conn, tid)?
            .iter()
            .any(|(br, u)| *br == r && *u == user_id),
        None => false,
    };
    if rows.is_empty() && !bye {
        return Ok(None);
    }
    let sides = crate::posted::lookup::variant(&t.variant).map_or(["White", "Black"], |v| {
        [
            v.side_name(missive_rules::Color::White),
            v.side_name(missive_rules::Color::Black),
        ]
    });
    Ok(Some(RoundMail {
        tournament: t.name.clone(),
        tournament_url: format!("{base_url}/tournaments/{tid}"),
        round: match round {
            Some(r) => format!("round {r} of {}", t.rounds),
            None => format!("all {} rounds", t.rounds),
        },
        games: rows
            .iter()
            .map(|g| {
                let white = g.white_id == Some(user_id);
                let other = crate::db::games::opponent_of(g, user_id);
                (
                    g.round.unwrap_or(0),
                    sides[usize::from(!white)].to_string(),
                    other
                        .and_then(|o| names.get(&o).cloned())
                        .unwrap_or_else(|| "?".into()),
                    format!("{base_url}/games/{}", g.id),
                )
            })
            .collect(),
        bye,
        first: sides[0].to_string(),
    }))
}
