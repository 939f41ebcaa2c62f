//! Posted variants on the web (issue 62): `/variants/new`, a variant's
//! page, its edit page, its versions' `.ini` files, and the
//! administrators' approval page.

use crate::db::posted_variants::{self as store, PostedVariant, PostedVersion};
use crate::domain::error::Error;
use crate::posted::check::{CheckOutcome, CheckReport};
use crate::posted::post::{self, PostForm, Prepared, Visibility};
use crate::web::{html, see_other, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "posted_variant_form.html")]
struct FormPage {
    page: Page,
    /// `None`: a new variant; else the id being edited.
    editing: Option<String>,
    name: String,
    definition: String,
    rules: String,
    visibility: &'static str,
    /// Why the last try was refused.
    error: Option<String>,
    error_line: Option<usize>,
    limits: crate::config::PostedLimits,
}

/// A version as the variant's page lists it.
struct VersionView {
    version: String,
    short: String,
    created: String,
    approved: bool,
    current: bool,
    report: Option<CheckReport>,
}

#[derive(Template)]
#[template(path = "posted_variant.html")]
struct VariantPage {
    page: Page,
    v: PostedVariant,
    author: String,
    key: String,
    is_author: bool,
    paragraphs: Vec<Block>,
    versions: Vec<VersionView>,
    games: Vec<(i32, String)>,
    /// Just posted: the report is the page's news.
    posted: bool,
}

#[derive(Template)]
#[template(path = "posted_variant_delete.html")]
struct DeletePage {
    page: Page,
    id: String,
    name: String,
}

#[derive(Template)]
#[template(path = "admin_variants.html")]
struct AdminPage {
    page: Page,
    candidates: Vec<(PostedVersion, PostedVariant, String, Option<CheckReport>)>,
}

/// A block of the rules text: a paragraph or a list.
enum Block {
    Para(String),
    List(Vec<String>),
}

/// Rules text as players read it: blank lines part paragraphs; a block
/// whose lines all begin with `- ` or `* ` is a list. Never HTML: the
/// template escapes every word.
fn blocks(text: &str) -> Vec<Block> {
    text.split("\n\n")
        .map(str::trim)
        .filter(|b| !b.is_empty())
        .map(|b| {
            let items: Option<Vec<String>> = b
                .lines()
                .map(|l| {
                    l.trim()
                        .strip_prefix("- ")
                        .or_else(|| l.trim().strip_prefix("* "))
                        .map(|i| i.trim().to_string())
                })
                .collect();
            match items {
                Some(items) => Block::List(items),
                None => Block::Para(b.split_whitespace().collect::<Vec<_>>().join(" ")),
            }
        })
        .collect()
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct NewQuery {
    /// Start from this variant's definition ("Copy and edit").
    from: String,
}

fn form_page(
    ctx: &Ctx,
    editing: Option<String>,
    f: &PostForm,
    error: Option<(Option<usize>, String)>,
) -> FormPage {
    let (error_line, error) = match error {
        Some((l, e)) => (l, Some(e)),
        None => (None, None),
    };
    FormPage {
        page: ctx.page(),
        editing,
        name: f.name.clone(),
        definition: f.definition.clone(),
        rules: f.rules.clone(),
        visibility: Visibility::parse(&f.visibility).map_or("private", Visibility::as_str),
        error,
        error_line,
        limits: ctx.state.config.posted.clone(),
    }
}

/// Posting needs an account whose address is confirmed: a variant is
/// public work under the author's name.
fn require_poster(ctx: &Ctx) -> Result<crate::db::users::User, Error> {
    let user = ctx.require_user()?.clone();
    if ctx.email_unverified {
        return Err(Error::Forbidden(
            "Confirm your address first (the link is in the mail we sent; your account page sends another), then post your variant.".into(),
        ));
    }
    Ok(user)
}

/// `GET /variants/new`: the form, empty or copied from `from`.
pub async fn new_form(ctx: Ctx, q: web::Query<NewQuery>) -> Result<HttpResponse, Error> {
    require_poster(&ctx)?;
    let from = q.into_inner().from.trim().to_string();
    let mut f = PostForm {
        visibility: "private".into(),
        ..PostForm::default()
    };
    if !from.is_empty() {
        let viewer = ctx.user.clone();
        let (name, definition) = ctx
            .state
            .read(move |conn| post::copy_of(conn, viewer.as_ref(), &from))
            .await?;
        f.name = name;
        f.definition = definition;
    }
    Ok(html(
        StatusCode::OK,
        form_page(&ctx, None, &f, None).render()?,
    ))
}

/// Run the check of a prepared definition in the checker's queue.
async fn run_check(ctx: &Ctx, p: &Prepared) -> Result<CheckOutcome, Error> {
    let state = ctx.state.clone();
    let text = p.definition.clone();
    let limits = state.config.posted.clone();
    let busy = || {
        Error::TooSoon {
        message: "The variant checker has as many definitions as it takes waiting: try again in a minute.".into(),
        retry_after: 60,
    }
    };
    let _admitted = state
        .variant_check_queue
        .try_acquire()
        .map_err(|_| busy())?;
    let _permit = state
        .variant_check_permits
        .acquire()
        .await
        .map_err(|e| Error::internal(format!("variant check permits: {e}")))?;
    web::block(move || crate::posted::check::check_in_child(&limits, &text))
        .await
        .map_err(|e| Error::internal(format!("blocking task: {e}")))
}

/// A posted form that passed: its poster, the prepared definition and the
/// report as stored.
type Checked = (crate::db::users::User, Prepared, String);

/// Read, limit and check a posted form, or the form page again with why not.
async fn checked(
    ctx: &Ctx,
    f: &PostForm,
    editing: Option<String>,
) -> Result<Result<Checked, HttpResponse>, Error> {
    ctx.check_csrf(&f.csrf_token)?;
    let user = require_poster(ctx)?;
    let refuse = |line: Option<usize>, message: String| -> Result<HttpResponse, Error> {
        let page = form_page(ctx, editing.clone(), f, Some((line, message)));
        Ok(html(StatusCode::UNPROCESSABLE_ENTITY, page.render()?))
    };
    let p = match post::prepare(f, &ctx.state.config.posted) {
        Ok(p) => p,
        Err(Error::Invalid(m)) => return Ok(Err(refuse(None, m)?)),
        Err(e) => return Err(e),
    };
    let limits = ctx.state.config.posted.clone();
    let poster = user.clone();
    ctx.state
        .read(move |conn| post::may_post(conn, &poster, &limits, crate::web::now()))
        .await?;
    match run_check(ctx, &p).await? {
        CheckOutcome::Passed { report } => {
            let json = serde_json::to_string(&report).map_err(Error::internal)?;
            Ok(Ok((user, p, json)))
        }
        CheckOutcome::Refused { line, message } => Ok(Err(refuse(line, message)?)),
    }
}

/// `POST /variants/new` (`name`, `definition`, `rules`, `visibility`): check,
/// keep, and show the variant's page with its report.
pub async fn create(ctx: Ctx, form: web::Form<PostForm>) -> Result<HttpResponse, Error> {
    let f = form.into_inner();
    let (user, p, report) = match checked(&ctx, &f, None).await? {
        Ok(ok) => ok,
        Err(page) => return Ok(page),
    };
    let limits = ctx.state.config.posted.clone();
    let id = ctx
        .state
        .write(move |conn| post::save_new(conn, &user, &p, &report, &limits, crate::web::now()))
        .await?;
    Ok(see_other(&format!("/variants/{id}?posted=1")))
}

/// `GET /variants/{id}/edit`: the author's form for a new version.
pub async fn edit_form(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, Error> {
    let user = require_poster(&ctx)?;
    let id = path.into_inner();
    let wanted = id.clone();
    let (v, row) = ctx
        .state
        .read(move |conn| {
            let v = post::owned(conn, &user, &wanted)?;
            let row = store::version(conn, &v.id, &v.current_version)?
                .ok_or_else(|| Error::internal("current version missing"))?;
            Ok((v, row))
        })
        .await?;
    let f = PostForm {
        name: v.name,
        definition: row.definition,
        rules: row.rules,
        visibility: v.visibility,
        ..PostForm::default()
    };
    Ok(html(
        StatusCode::OK,
        form_page(&ctx, Some(id), &f, None).render()?,
    ))
}

/// `POST /variants/{id}/edit`: a new version (new games get it; games
/// begun keep theirs), and the name, rules and visibility.
pub async fn edit(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<PostForm>,
) -> Result<HttpResponse, Error> {
    let id = path.into_inner();
    let f = form.into_inner();
    ctx.check_csrf(&f.csrf_token)?;
    // Only the author gets as far as the check.
    {
        let user = require_poster(&ctx)?;
        let wanted = id.clone();
        ctx.state
            .read(move |conn| post::owned(conn, &user, &wanted).map(|_| ()))
            .await?;
    }
    let (user, p, report) = match checked(&ctx, &f, Some(id.clone())).await? {
        Ok(ok) => ok,
        Err(page) => return Ok(page),
    };
    let wanted = id.clone();
    let limits = ctx.state.config.posted.clone();
    ctx.state
        .write(move |conn| {
            post::save_version(
                conn,
                &user,
                &wanted,
                &p,
                &report,
                &limits,
                crate::web::now(),
            )
        })
        .await?;
    Ok(see_other(&format!("/variants/{id}?posted=1")))
}

/// A posted variant's page (`/variants/{id}` when no built-in variant has
/// the id; a stored key `id@version` shows its variant too).
pub async fn page(ctx: Ctx, id: String, just_posted: bool) -> Result<HttpResponse, Error> {
    let id = match crate::posted::lookup::split(&id) {
        Some((bare, _)) => bare.to_string(),
        None => id,
    };
    let viewer = ctx.user.clone();
    let (v, author, versions, games) = ctx
        .state
        .read(move |conn| {
            let (v, author) = post::visible(conn, viewer.as_ref(), &id)?;
            let versions = store::versions_of(conn, &v.id)?;
            let keys: Vec<String> = versions
                .iter()
                .map(|r| crate::posted::lookup::key(&v.id, &r.version))
                .collect();
            let games = store::games_of(conn, &keys, 50)?;
            Ok((v, author, versions, games))
        })
        .await?;
    let current = versions.iter().find(|r| r.version == v.current_version);
    let paragraphs = blocks(current.map_or("", |r| r.rules.as_str()));
    let views = versions
        .iter()
        .map(|r| VersionView {
            short: r.version[..12].to_string(),
            version: r.version.clone(),
            created: r.created_at.format("%Y-%m-%d %H:%M").to_string(),
            approved: r.approved_at.is_some(),
            current: r.version == v.current_version,
            report: serde_json::from_str(&r.report).ok(),
        })
        .collect();
    let key = crate::posted::lookup::key(&v.id, &v.current_version);
    let page = VariantPage {
        page: ctx.page(),
        is_author: ctx.user.as_ref().is_some_and(|u| u.id == v.author_id),
        key,
        author,
        paragraphs,
        versions: views,
        games,
        posted: just_posted,
        v,
    };
    Ok(html(StatusCode::OK, page.render()?))
}

/// `GET /variants/{id}/{version}.ini`: one version's definition.
pub async fn ini(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, Error> {
    let (id, version) = path.into_inner();
    let viewer = ctx.user.clone();
    let text = ctx
        .state
        .read(move |conn| {
            let (v, _) = post::visible(conn, viewer.as_ref(), &id)?;
            store::version(conn, &v.id, &version)?
                .map(|r| r.definition)
                .ok_or_else(|| {
                    Error::NotFound(format!(
                        "{} has no version {}.",
                        v.name,
                        crate::util::clip(&version, 64)
                    ))
                })
        })
        .await?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .insert_header(("Content-Security-Policy", "default-src 'none'"))
        .body(text))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct DeleteForm {
    csrf_token: String,
    confirm: String,
}

/// `POST /variants/{id}/delete` (`confirm=1`; without it, a page that asks).
pub async fn delete(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<DeleteForm>,
) -> Result<HttpResponse, Error> {
    let f = form.into_inner();
    ctx.check_csrf(&f.csrf_token)?;
    let user = ctx.require_user()?.clone();
    let id = path.into_inner();
    if f.confirm.trim() != "1" {
        let wanted = id.clone();
        let v = ctx
            .state
            .read(move |conn| post::owned(conn, &user, &wanted))
            .await?;
        let page = DeletePage {
            page: ctx.page(),
            id,
            name: v.name,
        };
        return Ok(html(StatusCode::OK, page.render()?));
    }
    ctx.state
        .write(move |conn| post::delete(conn, &user, &id))
        .await?;
    Ok(see_other("/variants"))
}

/// `GET /admin/variants`: versions waiting for approval, with their reports.
pub async fn admin(ctx: Ctx) -> Result<HttpResponse, Error> {
    let user = ctx.require_user()?.clone();
    let rows = ctx
        .state
        .read(move |conn| {
            crate::accounts::admins::require_admin(conn, Some(&user))?;
            Ok(store::candidates(conn)?)
        })
        .await?;
    let candidates = rows
        .into_iter()
        .map(|(ver, (v, author))| {
            let report = serde_json::from_str(&ver.report).ok();
            (ver, v, author, report)
        })
        .collect();
    let page = AdminPage {
        page: ctx.page(),
        candidates,
    };
    Ok(html(StatusCode::OK, page.render()?))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ApproveForm {
    csrf_token: String,
    id: String,
    version: String,
}

/// `POST /admin/variants/approve` (`id`, `version`).
pub async fn approve(ctx: Ctx, form: web::Form<ApproveForm>) -> Result<HttpResponse, Error> {
    let f = form.into_inner();
    ctx.check_csrf(&f.csrf_token)?;
    let user = ctx.require_user()?.clone();
    ctx.state
        .write(move |conn| {
            crate::accounts::admins::require_admin(conn, Some(&user))?;
            post::approve(conn, f.id.trim(), f.version.trim(), crate::web::now())
        })
        .await?;
    Ok(see_other("/admin/variants"))
}
