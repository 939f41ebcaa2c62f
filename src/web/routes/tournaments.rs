//! Tournaments (issue 10): the list, the creation form, the tournament page,
//! joining, the director's actions and dashboard, adjudication.

use crate::domain::error::Error;
use crate::domain::game_state::{EndReason, GameStatus};
use crate::domain::ids::GameId;
use crate::domain::standings::{counts, halves, quarters};
use crate::domain::time_control::utc_minute;
use crate::domain::tournament_state::{
    TournamentFormat, TournamentStatus, DEFAULT_ENTRY_DAYS, DEFAULT_FORFEIT_LIMIT,
    DEFAULT_LEAVE_DAYS, DEFAULT_MAX_PLAYERS, NAME_MAX,
};
use crate::tournaments::directors;
use crate::tournaments::entry;
use crate::tournaments::entry::TournamentForm;
use crate::tournaments::records;
use crate::tournaments::views;
use crate::web::views::variant_name;
use crate::web::{clip, html, now, see_other, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

pub(super) fn tid(raw: &str) -> Result<i32, Error> {
    raw.parse::<i32>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| Error::NotFound(format!("There is no tournament “{}”.", clip(raw, 40))))
}

/// The entry window in words. Entry that closes at midnight closes at the
/// end of the day before, which is how the form takes a date alone: "to the
/// end of 2026-12-31", not "to 2027-01-01 00:00".
fn entry_window(opens: chrono::NaiveDateTime, closes: chrono::NaiveDateTime) -> String {
    let until = match closes.time() == chrono::NaiveTime::MIN {
        true => match closes.date().pred_opt() {
            Some(day) => format!("the end of {day} (UTC)"),
            None => utc_minute(closes),
        },
        false => utc_minute(closes),
    };
    format!("{} to {until}", utc_minute(opens))
}

// ---------------------------------------------------------------------------
// The list

pub struct ListLine {
    id: i32,
    name: String,
    variant: String,
    format: String,
    status: String,
    players: String,
    entry: String,
}

#[derive(Template)]
#[template(path = "tournaments.html")]
struct ListPage {
    page: Page,
    tournaments: Vec<ListLine>,
    is_director: bool,
}

pub async fn list(ctx: Ctx) -> Result<HttpResponse, Error> {
    let rows = ctx.state.read(crate::db::tournaments::list).await?;
    let page = ListPage {
        page: ctx.page(),
        is_director: ctx.user.as_ref().is_some_and(|u| u.is_director),
        tournaments: rows
            .iter()
            .map(|t| ListLine {
                id: t.id,
                name: t.name.clone(),
                variant: variant_name(&t.variant),
                format: t.format.label().to_string(),
                status: t.status.to_string(),
                players: format!("{} / {}", t.entrants, t.max_players),
                entry: entry_window(t.entry_opens, t.entry_closes),
            })
            .collect(),
    };
    Ok(html(StatusCode::OK, page.render()?))
}

// ---------------------------------------------------------------------------
// Creating

#[derive(Deserialize, Default, Clone)]
#[serde(default)]
pub struct NewForm {
    csrf_token: String,
    name: String,
    variant: String,
    time_control: String,
    format: String,
    rounds: String,
    entry_opens: String,
    entry_closes: String,
    max_players: String,
    leave_days: String,
    forfeit_limit: String,
    /// `1`: the tournament's games are rated.
    rated: String,
    silence_days: String,
    on_timeout: String,
    cooling_off_days: String,
    /// `1`: clocks stop on the mover's weekend.
    weekends_free: String,
}

#[derive(Template)]
#[template(path = "tournament_new.html")]
struct NewPage {
    page: Page,
    error: Option<String>,
    variants: Vec<(String, String)>,
    presets: Vec<(String, String)>,
    f: NewForm,
}

fn new_page(ctx: &Ctx, error: Option<String>, f: NewForm) -> NewPage {
    NewPage {
        page: ctx.page(),
        error,
        variants: crate::web::views::variant_choices(),
        presets: crate::web::views::preset_choices(),
        f,
    }
}

pub async fn new_form(ctx: Ctx) -> Result<HttpResponse, Error> {
    directors::require_director(ctx.user.as_ref())?;
    let f = NewForm {
        variant: "chess".into(),
        time_control: crate::domain::time_control::DEFAULT_PRESET.into(),
        format: TournamentFormat::RoundRobin.code().into(),
        max_players: DEFAULT_MAX_PLAYERS.to_string(),
        leave_days: DEFAULT_LEAVE_DAYS.to_string(),
        forfeit_limit: DEFAULT_FORFEIT_LIMIT.to_string(),
        entry_closes: (now().date() + chrono::TimeDelta::days(DEFAULT_ENTRY_DAYS)).to_string(),
        ..Default::default()
    };
    Ok(html(StatusCode::OK, new_page(&ctx, None, f).render()?))
}

pub async fn create(ctx: Ctx, form: web::Form<NewForm>) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let user = directors::require_director(ctx.user.as_ref())?.clone();
    let f = form.into_inner();
    let tf = TournamentForm {
        name: f.name.clone(),
        variant: f.variant.clone(),
        time_control: f.time_control.clone(),
        format: f.format.clone(),
        rounds: f.rounds.clone(),
        entry_opens: f.entry_opens.clone(),
        entry_closes: f.entry_closes.clone(),
        max_players: f.max_players.clone(),
        leave_days: f.leave_days.clone(),
        forfeit_limit: f.forfeit_limit.clone(),
        rated: f.rated.clone(),
        silence_days: f.silence_days.clone(),
        on_timeout: f.on_timeout.clone(),
        cooling_off_days: f.cooling_off_days.clone(),
        weekends_free: f.weekends_free.clone(),
    };
    match ctx
        .state
        .write(move |conn| entry::create(conn, &user, &tf, now()))
        .await
    {
        Ok(id) => Ok(see_other(&format!("/tournaments/{id}"))),
        Err(Error::Invalid(msg)) => {
            let mut f = f;
            for s in [
                &mut f.name,
                &mut f.variant,
                &mut f.time_control,
                &mut f.format,
                &mut f.rounds,
                &mut f.entry_opens,
                &mut f.entry_closes,
                &mut f.max_players,
                &mut f.leave_days,
                &mut f.forfeit_limit,
                &mut f.rated,
                &mut f.silence_days,
                &mut f.on_timeout,
                &mut f.cooling_off_days,
            ] {
                *s = clip(s, NAME_MAX);
            }
            Ok(html(
                StatusCode::UNPROCESSABLE_ENTITY,
                new_page(&ctx, Some(msg), f).render()?,
            ))
        }
        Err(e) => Err(e),
    }
}

// ---------------------------------------------------------------------------
// The tournament page

pub struct PlayerLine {
    seed: String,
    name: String,
    note: String,
    /// Withdrawn and not yet replaced: the one a newcomer may take over.
    replaceable: bool,
    withdrawn: bool,
}

pub struct StandingRow {
    rank: String,
    name: String,
    rating: String,
    points: String,
    played: u32,
    sb: String,
    buchholz: String,
    note: String,
}

pub struct GameCell {
    id: GameId,
    white: String,
    black: String,
    result: String,
    note: String,
    mine: bool,
    /// Running (not a pairing handed to a newcomer): it can be adjudicated.
    running: bool,
    /// Running with a clock: a director may give a player more time.
    clocked: bool,
}

pub struct RoundBlock {
    number: i32,
    games: Vec<GameCell>,
    byes: Vec<String>,
}

#[derive(Template)]
#[template(path = "tournament.html")]
struct TournamentPage {
    page: Page,
    id: i32,
    name: String,
    variant_id: String,
    variant: String,
    format: String,
    rounds: String,
    time_control: String,
    entry: String,
    max_players: i32,
    entrants: i32,
    leave_days: i32,
    /// Every setting in words (issue 63).
    rules: Vec<crate::tournaments::rules_text::RuleText>,
    rated: bool,
    director: String,
    status: String,
    swiss: bool,
    can_join: bool,
    can_leave: bool,
    is_director: bool,
    can_start: bool,
    players: Vec<PlayerLine>,
    /// Someone not withdrawn / someone withdrawn who can be replaced: the
    /// director's forms that pick from them show only then.
    some_playing: bool,
    some_replaceable: bool,
    standings: Vec<StandingRow>,
    crosstable: Option<(Vec<String>, views::CrossRows)>,
    rounds_list: Vec<RoundBlock>,
    adjudications: Vec<(i32, String, String)>,
    logged_in: bool,
}

pub async fn show(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, Error> {
    let id = tid(&path)?;
    let v = ctx.state.read(move |conn| views::view(conn, id)).await?;
    let t = &v.t;
    let viewer = ctx.user.as_ref();
    let viewer_id = viewer.map(|u| u.id);
    let joined = viewer_id.is_some_and(|u| v.players.iter().any(|(p, _)| p.user_id == u));
    let is_director = directors::require_director_of(viewer, t).is_ok();
    let now = now();
    let entry_open =
        t.status == TournamentStatus::Entry && now >= t.entry_opens && now < t.entry_closes;
    let name = |id: Option<i32>| {
        id.and_then(|i| v.names.get(&i).cloned())
            .unwrap_or_else(|| "?".into())
    };
    let mut players = Vec::new();
    for (p, n) in &v.players {
        let mut note = Vec::new();
        if let Some(at) = p.withdrawn_at {
            note.push(format!(
                "withdrawn {} ({})",
                utc_minute(at),
                p.withdrawal_reason.clone().unwrap_or_default()
            ));
        }
        if p.results_cancelled {
            note.push("results cancelled".into());
        }
        if let Some(r) = p.replaced_by {
            note.push(format!("replaced by {}", name(Some(r))));
        }
        players.push(PlayerLine {
            seed: p.seed.map(|s| s.to_string()).unwrap_or_default(),
            name: n.clone(),
            note: note.join("; "),
            replaceable: p.withdrawn_at.is_some() && p.replaced_by.is_none(),
            withdrawn: p.withdrawn_at.is_some(),
        });
    }
    let standings = v
        .standings
        .iter()
        .map(|s| StandingRow {
            rank: if s.cancelled {
                "–".into()
            } else {
                s.rank.to_string()
            },
            name: s.name.clone(),
            rating: v.ratings.get(&s.user_id).cloned().unwrap_or_default(),
            points: if s.cancelled {
                "–".into()
            } else {
                halves(s.points2)
            },
            played: s.played,
            sb: quarters(s.sb4),
            buchholz: halves(s.buchholz2),
            note: if s.cancelled {
                "withdrawn, results cancelled".into()
            } else if s.withdrawn {
                "withdrawn, remaining games lost".into()
            } else {
                String::new()
            },
        })
        .collect();
    let mut rounds_list: Vec<RoundBlock> = Vec::new();
    for g in &v.games {
        let r = g.round.unwrap_or(0);
        if rounds_list.last().map(|b| b.number) != Some(r) {
            rounds_list.push(RoundBlock {
                number: r,
                games: vec![],
                byes: vec![],
            });
        }
        let note = match g.reason {
            Some(EndReason::Replaced) => "not played: the player was replaced".to_string(),
            Some(reason) => reason.describe(),
            None if g.status == GameStatus::Active => format!("{} plies", g.ply),
            None => String::new(),
        };
        if let Some(b) = rounds_list.last_mut() {
            b.games.push(GameCell {
                id: g.id,
                white: name(g.white_id),
                black: name(g.black_id),
                result: g.result.map_or("*", |r| r.code()).to_string(),
                note,
                mine: viewer_id.is_some() && (g.white_id == viewer_id || g.black_id == viewer_id),
                running: g.status == GameStatus::Active && counts(g.reason),
                clocked: g.status == GameStatus::Active
                    && counts(g.reason)
                    && g.time_control.is_some(),
            });
        }
    }
    for (r, u) in &v.byes {
        if let Some(b) = rounds_list.iter_mut().find(|b| b.number == *r) {
            b.byes.push(name(Some(*u)));
        }
    }
    let crosstable = v.crosstable.as_ref().map(|rows| {
        (
            rows.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>(),
            rows.clone(),
        )
    });
    let page = TournamentPage {
        page: ctx.page(),
        id: t.id,
        name: t.name.clone(),
        variant_id: t.variant.clone(),
        variant: variant_name(&t.variant),
        format: t.format.label().to_string(),
        rounds: if t.rounds > 0 {
            t.rounds.to_string()
        } else {
            String::new()
        },
        time_control: crate::tournaments::rules_text::time_control_words(t.time_control.as_deref()),
        entry: entry_window(t.entry_opens, t.entry_closes),
        max_players: t.max_players,
        entrants: t.entrants,
        leave_days: t.leave_days,
        rules: crate::tournaments::rules_text::rules(t, v.standings.len()),
        rated: t.rated,
        director: v.director.clone(),
        status: t.status.to_string(),
        swiss: t.format == TournamentFormat::Swiss,
        can_join: entry_open && viewer.is_some() && !joined,
        can_leave: t.status == TournamentStatus::Entry && joined,
        can_start: is_director && t.status == TournamentStatus::Entry,
        is_director,
        some_playing: players.iter().any(|p| !p.withdrawn),
        some_replaceable: players.iter().any(|p| p.replaceable),
        players,
        standings,
        crosstable,
        rounds_list,
        adjudications: v.adjudications.clone(),
        logged_in: viewer.is_some(),
    };
    Ok(html(StatusCode::OK, page.render()?))
}

pub async fn games_pgn(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, Error> {
    let id = tid(&path)?;
    let site = ctx.state.config.base_url.trim_end_matches('/').to_string();
    let body = ctx
        .state
        .read(move |conn| records::export_pgn(conn, id, &site))
        .await?;
    Ok(HttpResponse::Ok()
        .content_type("application/x-chess-pgn; charset=utf-8")
        .insert_header((
            "Content-Disposition",
            format!("inline; filename=\"missive-tournament-{id}.pgn\""),
        ))
        .body(body))
}

/// The tournament as a TRF-2026 file (issue 63), for rating reports and
/// pairing programs.
pub async fn trf(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, Error> {
    let id = tid(&path)?;
    let body = ctx
        .state
        .read(move |conn| crate::tournaments::trf_export::export(conn, id))
        .await?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .insert_header((
            "Content-Disposition",
            format!("inline; filename=\"missive-tournament-{id}.trf\""),
        ))
        .body(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_that_closes_at_midnight_closes_at_the_end_of_the_day_before() {
        let at = |s: &str| chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M").unwrap();
        assert_eq!(
            entry_window(at("2026-12-01 00:00"), at("2027-01-01 00:00")),
            "2026-12-01 00:00 UTC to the end of 2026-12-31 (UTC)"
        );
        assert_eq!(
            entry_window(at("2026-12-01 00:00"), at("2026-12-05 12:00")),
            "2026-12-01 00:00 UTC to 2026-12-05 12:00 UTC"
        );
    }
}
