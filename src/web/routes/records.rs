//! Game records (issue 11): exports, private notes, the archive, public
//! profiles and the record checking form.

use crate::db::games::{self, GameRow};
use crate::domain::codes::Coded;
use crate::domain::error::Error;
use crate::domain::game_state::{GameResult, GameStatus};
use crate::domain::ids::GameId;
use crate::game::exports;
use crate::game::records::{self as svc, ArchiveFilter, CheckReport, Format, VariantRecord};
use crate::web::rules_pool::{checks_work, rules_work};
use crate::web::views::variant_name;
use crate::web::{clip, html, now, parse_id, see_other, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;
use std::collections::HashMap;

fn site(ctx: &Ctx) -> String {
    ctx.state.config.base_url.trim_end_matches('/').to_string()
}

async fn export(ctx: Ctx, raw: String, format: Format) -> Result<HttpResponse, Error> {
    let id = parse_id(&raw)?;
    let site = site(&ctx);
    let state = ctx.state.clone();
    let loaded = ctx
        .state
        .read(move |conn| exports::load_game(conn, id, &state.records, format))
        .await?;
    // The connection is back in the pool: the writing is rules work.
    let state = ctx.state.clone();
    let body = rules_work(&ctx.state, move || {
        exports::write(loaded, &state.records, &site, format)
    })
    .await??;
    let (kind, ext) = match format {
        Format::Pgn => ("application/x-chess-pgn; charset=utf-8", "pgn"),
        Format::Log => ("text/plain; charset=utf-8", "txt"),
    };
    Ok(HttpResponse::Ok()
        .content_type(kind)
        .insert_header((
            "Content-Disposition",
            format!("inline; filename=\"missive-{id}.{ext}\""),
        ))
        .body(body))
}

pub async fn pgn(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, Error> {
    export(ctx, path.into_inner(), Format::Pgn).await
}

pub async fn log(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, Error> {
    export(ctx, path.into_inner(), Format::Log).await
}

pub async fn user_pgn(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, Error> {
    let name = clip(&path.into_inner(), 60);
    let site = site(&ctx);
    let who = name.clone();
    let state = ctx.state.clone();
    let loaded = ctx
        .state
        .read(move |conn| exports::load_user_games(conn, &who, &state.records))
        .await?
        .ok_or_else(|| Error::NotFound(format!("There is no player named “{name}”.")))?;
    let state = ctx.state.clone();
    let body = rules_work(&ctx.state, move || {
        exports::write(loaded, &state.records, &site, Format::Pgn)
    })
    .await??;
    Ok(HttpResponse::Ok()
        .content_type("application/x-chess-pgn; charset=utf-8")
        .insert_header((
            "Content-Disposition",
            "inline; filename=\"missive-games.pgn\"",
        ))
        .body(body))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct NoteForm {
    csrf_token: String,
    note: String,
}

pub async fn save_note(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<NoteForm>,
) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let id = parse_id(&path)?;
    let user = ctx.require_user()?.clone();
    let body = form.into_inner().note;
    ctx.state
        .write(move |conn| svc::save_note(conn, id, user.id, &body, now()))
        .await?;
    Ok(see_other(&format!("/games/{id}")))
}

#[derive(Template)]
#[template(path = "record_check.html")]
struct CheckPage {
    page: Page,
    text: String,
    report: Option<CheckReport>,
}

pub async fn check_form(ctx: Ctx) -> Result<HttpResponse, Error> {
    let page = CheckPage {
        page: ctx.page(),
        text: String::new(),
        report: None,
    };
    Ok(html(StatusCode::OK, page.render()?))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct CheckForm {
    csrf_token: String,
    record: String,
}

pub async fn check(ctx: Ctx, form: web::Form<CheckForm>) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let text = form.into_inner().record;
    let (text, report) = checks_work(&ctx.state, &ctx.ip, move || {
        let report = svc::check_record(&text);
        (text, report)
    })
    .await?;
    let status = if report.ok {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    let page = CheckPage {
        page: ctx.page(),
        text: clip(&text, 200_000),
        report: Some(report),
    };
    Ok(html(status, page.render()?))
}

/// A game in a list.
pub struct GameLine {
    id: GameId,
    variant: String,
    white: String,
    black: String,
    status: String,
    result: String,
    plies: i32,
    last_move: String,
    ended: String,
}

fn lines(rows: &[GameRow], names: &HashMap<i32, String>) -> Vec<GameLine> {
    let name = |id: Option<i32>| {
        id.and_then(|i| names.get(&i).cloned())
            .unwrap_or_else(|| "?".into())
    };
    rows.iter()
        .map(|r| GameLine {
            id: r.id,
            variant: variant_name(&r.variant),
            white: name(r.white_id),
            black: name(r.black_id),
            status: r.status.to_string(),
            result: r.result.map_or("*", |r| r.code()).to_string(),
            plies: r.ply,
            last_move: r.updated_at.format("%Y-%m-%d %H:%M").to_string(),
            ended: r
                .ended_at
                .map(|t| t.format("%Y-%m-%d").to_string())
                .unwrap_or_default(),
        })
        .collect()
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ArchiveQuery {
    player: String,
    variant: String,
    status: String,
    result: String,
    from: String,
    to: String,
    sort: String,
    page: String,
    tournament: String,
}

#[derive(Template)]
#[template(path = "archive.html")]
struct ArchivePage {
    page: Page,
    q: ArchiveQuery,
    games: Vec<GameLine>,
    variants: Vec<(String, String)>,
    page_no: i64,
    prev_link: Option<String>,
    next_link: Option<String>,
}

fn parse_date(raw: &str, what: &str) -> Result<Option<chrono::NaiveDate>, Error> {
    match raw.trim() {
        "" => Ok(None),
        d => chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d")
            .map(Some)
            .map_err(|_| {
                Error::BadRequest(format!(
                    "The {what} date “{}” is not a date (YYYY-MM-DD).",
                    clip(d, 20)
                ))
            }),
    }
}

pub async fn archive(ctx: Ctx, query: web::Query<ArchiveQuery>) -> Result<HttpResponse, Error> {
    let q = query.into_inner();
    let page_no = match q.page.trim() {
        "" => 1,
        p => p
            .parse::<i64>()
            .map_err(|_| Error::BadRequest("The page number is not a number.".into()))?
            .clamp(1, 100_000),
    };
    let status = q.status.trim();
    if !["", GameStatus::Active.code(), GameStatus::Finished.code()].contains(&status) {
        return Err(Error::BadRequest(
            "The status must be active or finished.".into(),
        ));
    }
    let result = q.result.trim();
    if !result.is_empty() && GameResult::from_code(result).is_none() {
        return Err(Error::BadRequest(
            "The result must be 1-0, 0-1 or 1/2-1/2.".into(),
        ));
    }
    if !["", "last-move", "ended"].contains(&q.sort.trim()) {
        return Err(Error::BadRequest("Sort by last-move or ended.".into()));
    }
    let tournament = match q.tournament.trim() {
        "" => None,
        t => Some(t.parse::<i32>().map_err(|_| {
            Error::BadRequest(format!("The tournament “{}” is not a number.", clip(t, 20)))
        })?),
    };
    let filter = ArchiveFilter {
        tournament,
        player: clip(&q.player, 60),
        variant: clip(&q.variant, 60),
        status: status.into(),
        result: result.into(),
        from: parse_date(&q.from, "from")?,
        to: parse_date(&q.to, "to")?,
        sort: q.sort.trim().into(),
        page: page_no,
    };
    let (rows, more, names) = ctx
        .state
        .read(move |conn| svc::archive(conn, &filter))
        .await?;
    let link = |p: i64| {
        let pairs = [
            ("player", q.player.as_str()),
            ("variant", q.variant.as_str()),
            ("status", q.status.as_str()),
            ("result", q.result.as_str()),
            ("from", q.from.as_str()),
            ("to", q.to.as_str()),
            ("sort", q.sort.as_str()),
            ("tournament", q.tournament.as_str()),
        ];
        let mut s = String::from("/games?");
        for (k, v) in pairs.iter().filter(|(_, v)| !v.is_empty()) {
            s.push_str(&format!("{k}={}&", urlencode(v)));
        }
        s.push_str(&format!("page={p}"));
        s
    };
    let page = ArchivePage {
        page: ctx.page(),
        games: lines(&rows, &names),
        variants: crate::web::views::variant_choices(),
        page_no,
        prev_link: (page_no > 1).then(|| link(page_no - 1)),
        next_link: more.then(|| link(page_no + 1)),
        q,
    };
    Ok(html(StatusCode::OK, page.render()?))
}

fn urlencode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[derive(Template)]
#[template(path = "profile.html")]
struct ProfilePage {
    page: Page,
    name: String,
    joined: String,
    records: Vec<VariantRecord>,
    games: Vec<GameLine>,
    name_q: String,
    ratings: Vec<crate::web::routes::ratings::ProfileRating>,
}

pub async fn profile(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, Error> {
    let wanted = clip(&path.into_inner(), 60);
    let w = wanted.clone();
    let found = ctx
        .state
        .read(move |conn| {
            let Some(user) = crate::db::users::find_by_name(conn, &w)? else {
                return Ok(None);
            };
            let records = svc::results_by_variant(conn, user.id)?;
            let filter = ArchiveFilter {
                player: user.username.clone(),
                page: 1,
                ..Default::default()
            };
            let (rows, _, names) = svc::archive(conn, &filter)?;
            let ratings = crate::web::routes::ratings::profile_ratings(conn, user.id)?;
            Ok(Some((user, records, rows, names, ratings)))
        })
        .await?;
    let (user, records, rows, names, ratings) =
        found.ok_or_else(|| Error::NotFound(format!("There is no player named “{wanted}”.")))?;
    let page = ProfilePage {
        page: ctx.page(),
        name_q: urlencode(&user.username),
        joined: user.created_at.format("%Y-%m-%d").to_string(),
        name: user.username,
        records: records
            .into_iter()
            .map(|r| VariantRecord {
                variant: variant_name(&r.variant),
                ..r
            })
            .collect(),
        games: lines(&rows, &names),
        ratings,
    };
    Ok(html(StatusCode::OK, page.render()?))
}

pub struct FeedEntry {
    id: String,
    title: String,
    link: String,
    updated: String,
    summary: String,
}

#[derive(Template)]
#[template(path = "feed.xml")]
struct FeedPage {
    name: String,
    name_q: String,
    site: String,
    updated: String,
    entries: Vec<FeedEntry>,
}

/// Atom feed of a player's game events: "your turn" in games in progress,
/// "game over" for finished ones (newest 50 games by last change).
pub async fn feed(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, Error> {
    let wanted = clip(&path.into_inner(), 60);
    let w = wanted.clone();
    let found = ctx
        .state
        .read(move |conn| {
            let Some(user) = crate::db::users::find_by_name(conn, &w)? else {
                return Ok(None);
            };
            let filter = ArchiveFilter {
                player: user.username.clone(),
                page: 1,
                ..Default::default()
            };
            let (rows, _, names) = svc::archive(conn, &filter)?;
            Ok(Some((user, rows, names)))
        })
        .await?;
    let (user, rows, names) =
        found.ok_or_else(|| Error::NotFound(format!("There is no player named “{wanted}”.")))?;
    let site = site(&ctx);
    let rfc = |t: chrono::NaiveDateTime| t.and_utc().format("%Y-%m-%dT%H:%M:%SZ").to_string();
    let name = |id: Option<i32>| {
        id.and_then(|i| names.get(&i).cloned())
            .unwrap_or_else(|| "?".into())
    };
    let mut entries = Vec::new();
    for r in &rows {
        let players = format!(
            "{} vs {} ({})",
            name(r.white_id),
            name(r.black_id),
            r.variant
        );
        if r.status == GameStatus::Finished {
            let when = r.ended_at.unwrap_or(r.updated_at);
            entries.push(FeedEntry {
                id: format!("{site}/games/{}#over", r.id),
                title: format!(
                    "Game {} is over: {}",
                    r.id,
                    r.result.map(|r| r.code()).unwrap_or_default()
                ),
                link: format!("{site}/games/{}", r.id),
                updated: rfc(when),
                summary: format!(
                    "{players}: {} by {}",
                    r.result.map(|r| r.code()).unwrap_or_default(),
                    r.reason.map(|r| r.describe()).unwrap_or_default()
                ),
            });
        } else if games::player_to_move(r) == Some(user.id) {
            entries.push(FeedEntry {
                id: format!("{site}/games/{}#ply-{}", r.id, r.ply),
                title: format!("Your turn in game {}", r.id),
                link: format!("{site}/games/{}", r.id),
                updated: rfc(r.updated_at),
                summary: format!("{players}: your move after {} plies", r.ply),
            });
        }
    }
    let updated = entries
        .iter()
        .map(|e| e.updated.clone())
        .max()
        .unwrap_or_else(|| rfc(user.created_at));
    let page = FeedPage {
        name_q: urlencode(&user.username),
        name: user.username,
        site,
        updated,
        entries,
    };
    Ok(HttpResponse::Ok()
        .content_type("application/atom+xml; charset=utf-8")
        .body(page.render()?))
}
