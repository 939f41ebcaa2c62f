//! Team matches on the web (issue 63): `GET`/`POST /matches/new`, the match
//! page `/matches/{id}` with board results and the score, and the
//! captains' line-ups (`POST /matches/{id}/lineup`).

use crate::domain::error::Error;
use crate::domain::team_match::MatchStatus;
use crate::tournaments::rules_text::time_control_words;
use crate::tournaments::team_matches::{self as matches, MatchForm, MatchSummary, MatchView};
use crate::web::views::variant_name;
use crate::web::{clip, html, now, see_other, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;
use std::collections::HashMap;

/// The form's fields, as `POST /matches/new` takes them.
#[derive(Deserialize, Default, Clone)]
#[serde(default)]
pub struct NewMatchForm {
    csrf_token: String,
    name: String,
    team1: String,
    captain1: String,
    team2: String,
    captain2: String,
    boards: String,
    variant: String,
    time_control: String,
    rated: String,
}

#[derive(Template)]
#[template(path = "match_new.html")]
struct NewPage {
    page: Page,
    error: Option<String>,
    variants: Vec<(String, String)>,
    presets: Vec<(String, String)>,
    f: NewMatchForm,
}

fn new_page(ctx: &Ctx, error: Option<String>, f: NewMatchForm) -> NewPage {
    NewPage {
        page: ctx.page(),
        error,
        variants: crate::web::views::variant_choices(),
        presets: crate::web::views::preset_choices(),
        f,
    }
}

pub async fn new_form(ctx: Ctx) -> Result<HttpResponse, Error> {
    let me = ctx.require_user()?.username.clone();
    let f = NewMatchForm {
        captain1: me,
        boards: "2".into(),
        variant: "chess".into(),
        time_control: crate::domain::time_control::DEFAULT_PRESET.into(),
        ..Default::default()
    };
    Ok(html(StatusCode::OK, new_page(&ctx, None, f).render()?))
}

pub async fn create(ctx: Ctx, form: web::Form<NewMatchForm>) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let user = ctx.require_user()?.clone();
    let f = form.into_inner();
    let mf = MatchForm {
        name: f.name.clone(),
        team1: f.team1.clone(),
        captain1: f.captain1.clone(),
        team2: f.team2.clone(),
        captain2: f.captain2.clone(),
        boards: f.boards.clone(),
        variant: f.variant.clone(),
        time_control: f.time_control.clone(),
        rated: f.rated.clone(),
    };
    match ctx
        .state
        .write(move |conn| matches::create(conn, &user, &mf, now()))
        .await
    {
        Ok(id) => Ok(see_other(&format!("/matches/{id}"))),
        Err(Error::Invalid(msg)) => {
            let mut f = f;
            for s in [
                &mut f.name,
                &mut f.team1,
                &mut f.captain1,
                &mut f.team2,
                &mut f.captain2,
                &mut f.boards,
                &mut f.variant,
                &mut f.time_control,
                &mut f.rated,
            ] {
                *s = clip(s, 100);
            }
            Ok(html(
                StatusCode::UNPROCESSABLE_ENTITY,
                new_page(&ctx, Some(msg), f).render()?,
            ))
        }
        Err(e) => Err(e),
    }
}

#[derive(Template)]
#[template(path = "matches.html")]
struct ListPage {
    page: Page,
    /// Each match with its variant's name.
    matches: Vec<(MatchSummary, String)>,
}

/// `GET /matches`: the latest team matches with their scores.
pub async fn list(ctx: Ctx) -> Result<HttpResponse, Error> {
    let matches = ctx
        .state
        .read(|conn| matches::summaries(conn, LIST_LENGTH))
        .await?;
    let page = ListPage {
        page: ctx.page(),
        matches: matches
            .into_iter()
            .map(|m| {
                let name = variant_name(&m.variant);
                (m, name)
            })
            .collect(),
    };
    Ok(html(StatusCode::OK, page.render()?))
}

/// How many matches `/matches` lists.
const LIST_LENGTH: i64 = 100;

#[derive(Template)]
#[template(path = "match.html")]
struct MatchPage {
    page: Page,
    v: MatchView,
    variant: String,
    time_control: String,
    status: String,
    /// The team the viewer captains, while line-ups may change (1 or 2).
    captain_of: Option<i32>,
    /// The viewer's team's line-up, board by board.
    my_lineup: Vec<String>,
}

fn match_id(raw: &str) -> Result<i32, Error> {
    raw.parse::<i32>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| Error::NotFound(format!("There is no team match “{}”.", clip(raw, 40))))
}

pub async fn show(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, Error> {
    let id = match_id(&path)?;
    let v = ctx.state.read(move |conn| matches::view(conn, id)).await?;
    let captain_of = ctx
        .user
        .as_ref()
        .and_then(|u| matches::captained(&v.m, u.id))
        .filter(|_| v.m.status == MatchStatus::Lineup)
        .map(|t| t.number());
    let my_lineup = match captain_of {
        Some(1) => v.lineup1.clone(),
        Some(_) => v.lineup2.clone(),
        None => Vec::new(),
    };
    let page = MatchPage {
        page: ctx.page(),
        variant: variant_name(&v.m.variant),
        time_control: time_control_words(v.m.time_control.as_deref()),
        status: v.m.status.words().into(),
        captain_of,
        my_lineup,
        v,
    };
    Ok(html(StatusCode::OK, page.render()?))
}

/// `POST /matches/{id}/lineup`: `board1` … `boardN`, one username each.
pub async fn lineup(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, Error> {
    let f = form.into_inner();
    ctx.check_csrf(f.get("csrf_token").map_or("", String::as_str))?;
    let id = match_id(&path)?;
    let user = ctx.require_user()?.clone();
    let mut names = Vec::new();
    for board in 1..=crate::tournaments::team_matches::BOARDS_MAX {
        match f.get(&format!("board{board}")) {
            Some(n) => names.push(n.clone()),
            None => break,
        }
    }
    ctx.state
        .write(move |conn| matches::set_lineup(conn, id, &user, &names, now()))
        .await?;
    Ok(see_other(&format!("/matches/{id}")))
}
