//! `/settings` and the account's own acts: password, sessions, address,
//! deletion, export.

use crate::accounts::login_limit::LoginLimits;
use crate::accounts::reauth::Attempt;
use crate::accounts::revocation::{self, Cause, Revocation};
use crate::accounts::sessions::{self, SessionInfo};
use crate::accounts::{deletion, email_change, password_change};
use crate::domain::error::Error;
use crate::domain::mail_kind::MailPolicy;
use crate::web::SESSION_COOKIE;
use crate::web::{html, now, removal_cookie, see_other, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SettingsQuery {
    saved: String,
    /// What was just done, for the notice (`password`, `sessions`, ...).
    done: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PasswordForm {
    csrf_token: String,
    current_password: String,
    new_password: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct RemindersForm {
    csrf_token: String,
    reminders: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SessionsForm {
    csrf_token: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct EmailForm {
    csrf_token: String,
    password: String,
    email: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct DeleteForm {
    csrf_token: String,
    password: String,
    confirm: String,
}

/// A session as the page lists it.
struct ListedSession {
    browser: String,
    started: String,
    last_seen: String,
    current: bool,
}

#[derive(Template)]
#[template(path = "settings.html")]
struct SettingsPage {
    page: Page,
    saved: bool,
    notice: Option<&'static str>,
    confirm_moves: bool,
    email: String,
    verified: bool,
    policy_words: &'static str,
    username: String,
    joined: String,
    sessions: Vec<ListedSession>,
    pending_email: Option<String>,
    /// What the latest reset, password change or "log out everywhere"
    /// ended, in words.
    revoked: Option<String>,
    password_error: Option<String>,
    email_error: Option<String>,
    new_email: String,
    /// The reminder thresholds as the form shows them (empty: the default).
    reminders: String,
    reminders_error: Option<String>,
    /// Calendar and time zone (issue 64).
    week: crate::web::routes::week_settings::WeekSection,
}

#[derive(Template)]
#[template(path = "settings_delete.html")]
struct DeletePage {
    page: Page,
    error: Option<String>,
    username: String,
    neutral_name: String,
    running: i64,
    retired_days: i64,
}

#[derive(Template)]
#[template(path = "account_done.html")]
pub(crate) struct DonePage {
    pub page: Page,
    pub title: &'static str,
    pub message: String,
    pub next_href: &'static str,
    pub next_words: &'static str,
}

fn session_token(req: &HttpRequest) -> Option<String> {
    req.cookie(SESSION_COOKIE).map(|c| c.value().to_string())
}

/// Errors shown in the section of the form that failed.
#[derive(Default)]
struct FormErrors {
    password: Option<String>,
    email: Option<String>,
    new_email: String,
    /// A refused reminders text, shown again with its error.
    reminders: Option<(String, String)>,
    /// A refused time zone, shown again with its error.
    time_zone: Option<(String, String)>,
}

async fn settings_with(
    ctx: &Ctx,
    req: &HttpRequest,
    saved: bool,
    done: &str,
    mut errors: FormErrors,
) -> Result<String, Error> {
    let week = crate::web::routes::week_settings::section(ctx, errors.time_zone.take()).await?;
    let user = ctx.require_user()?.clone();
    let id = user.id;
    let token = session_token(req);
    let (verified, policy, listed, pending, thresholds, revoked) = ctx
        .state
        .read(move |conn| {
            let t = now();
            let (verified, policy) = crate::db::mail_prefs::standing_of(conn, id)?;
            let listed = sessions::list(conn, id, token.as_deref(), t)?;
            let pending = email_change::pending(conn, id, t)?;
            let thresholds = crate::db::reminder_prefs::of(conn, id)?;
            let revoked = revocation::latest(conn, id)?;
            Ok((verified, policy, listed, pending, thresholds, revoked))
        })
        .await?;
    let minute = |t: chrono::NaiveDateTime| t.format("%Y-%m-%d %H:%M").to_string();
    let revoked = revoked.map(|r: Revocation| {
        let words = r.counts.words();
        let verb = if words.starts_with("1 ") && !words.contains(" and ") {
            "was"
        } else {
            "were"
        };
        format!(
            "{words} {verb} revoked on {} UTC by {}.",
            minute(r.at),
            r.cause.words()
        )
    });
    let page = SettingsPage {
        page: ctx.page(),
        saved,
        notice: match done {
            "password" => Some(
                "Your password is changed: you are logged out everywhere else, and your app \
                 passwords, tokens and any pending address change are revoked.",
            ),
            "reset" => Some("Your new password is saved. You are logged in here and nowhere else."),
            "sessions" => Some(
                "You are logged out everywhere else, and any pending address change is cancelled.",
            ),
            "email" => Some(
                "A link is on its way to the new address: the change happens when it is followed. \
                 Your current address has been told.",
            ),
            "time-zone" => Some("Your time zone is saved."),
            "calendar-off" => Some("Your calendar address is turned off: it no longer works."),
            _ => None,
        },
        confirm_moves: user.confirm_moves,
        email: user.email,
        verified,
        policy_words: match policy {
            MailPolicy::Every => "a mail on every turn",
            MailPolicy::Digest => "one daily digest of the games where it is your move",
            MailPolicy::None => "no mail at all",
        },
        joined: user.created_at.format("%Y-%m-%d").to_string(),
        username: user.username,
        sessions: listed
            .into_iter()
            .map(|s: SessionInfo| ListedSession {
                browser: s.browser,
                started: minute(s.started),
                last_seen: minute(s.last_seen),
                current: s.current,
            })
            .collect(),
        pending_email: pending,
        revoked,
        password_error: errors.password,
        email_error: errors.email,
        new_email: errors.new_email,
        reminders: match &errors.reminders {
            Some((text, _)) => text.clone(),
            None => thresholds
                .as_deref()
                .map(crate::domain::reminders::describe)
                .unwrap_or_default(),
        },
        reminders_error: errors.reminders.map(|(_, e)| e),
        week,
    };
    Ok(page.render()?)
}

/// `GET /settings`: every setting of one's own in one place.
pub async fn settings_page(
    ctx: Ctx,
    req: HttpRequest,
    q: web::Query<SettingsQuery>,
) -> Result<HttpResponse, Error> {
    let body = settings_with(
        &ctx,
        &req,
        !q.saved.is_empty(),
        &q.done,
        FormErrors::default(),
    )
    .await?;
    Ok(html(StatusCode::OK, body))
}

/// Count an attempt at the current password, committed before it is
/// checked ([`Attempt::check`] in the act's own work): throttled as a
/// login is, a 429 with Retry-After past the limits.
pub(crate) async fn claim_reauth(ctx: &Ctx) -> Result<Attempt, Error> {
    let attempt = Attempt {
        user: ctx.require_user()?.clone(),
        ip: ctx.ip.clone(),
        limits: LoginLimits::of(&ctx.state.config),
    };
    let clock = ctx.state.config.clock.clone();
    let counted = attempt.clone();
    ctx.state
        .write(move |conn| counted.claim(conn, clock.now()))
        .await?;
    Ok(attempt)
}

/// `POST /settings/password`.
pub async fn change_password(
    ctx: Ctx,
    req: HttpRequest,
    form: web::Form<PasswordForm>,
) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let attempt = claim_reauth(&ctx).await?;
    let token = session_token(&req).unwrap_or_default();
    let f = form.into_inner();
    let (current, new) = (f.current_password, f.new_password);
    let changed = ctx
        .state
        .write(move |conn| {
            let proof = attempt.check(conn, &current, password_change::WRONG_PASSWORD)?;
            let user = &attempt.user;
            password_change::change(conn, user, &proof, &current, &new, &token, now())
        })
        .await;
    match changed {
        Ok(()) => Ok(see_other("/settings?done=password")),
        Err(Error::Invalid(msg)) => {
            let errors = FormErrors {
                password: Some(msg),
                ..FormErrors::default()
            };
            let body = settings_with(&ctx, &req, false, "", errors).await?;
            Ok(html(StatusCode::UNPROCESSABLE_ENTITY, body))
        }
        Err(e) => Err(e),
    }
}

/// `POST /settings/reminders`: the thresholds of time left at which the
/// clock reminders come (`reminders`, e.g. `50%, 24h, 4h`; empty: the
/// default single reminder).
pub async fn save_reminders(
    ctx: Ctx,
    req: HttpRequest,
    form: web::Form<RemindersForm>,
) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let user_id = ctx.require_user()?.id;
    let text = crate::util::clip(form.reminders.trim(), 200);
    let typed = text.clone();
    let saved = ctx
        .state
        .write(move |conn| crate::clocks::reminders::save(conn, user_id, &typed, now()))
        .await;
    match saved {
        Ok(()) => Ok(see_other("/settings?saved=1#settings-reminders")),
        Err(Error::Invalid(msg)) => {
            let errors = FormErrors {
                reminders: Some((text, msg)),
                ..FormErrors::default()
            };
            let body = settings_with(&ctx, &req, false, "", errors).await?;
            Ok(html(StatusCode::UNPROCESSABLE_ENTITY, body))
        }
        Err(e) => Err(e),
    }
}

/// `POST /settings/sessions`: log out everywhere but here; a pending
/// address change ends too (whoever had a session may have asked for it).
pub async fn end_other_sessions(
    ctx: Ctx,
    req: HttpRequest,
    form: web::Form<SessionsForm>,
) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let user_id = ctx.require_user()?.id;
    let token = session_token(&req).unwrap_or_default();
    ctx.state
        .write(move |conn| {
            revocation::revoke(conn, user_id, Cause::LogOutEverywhere, Some(&token), now())?;
            Ok(())
        })
        .await?;
    Ok(see_other("/settings?done=sessions"))
}

/// `POST /settings/email`.
pub async fn change_email(
    ctx: Ctx,
    req: HttpRequest,
    form: web::Form<EmailForm>,
) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let attempt = claim_reauth(&ctx).await?;
    let secret = ctx.state.secret.clone();
    let mail_limits = email_change::ChangeLimits::of(&ctx.state.config);
    let clock = ctx.state.config.clock.clone();
    let f = form.into_inner();
    let (password, email) = (f.password, f.email.clone());
    let asked = ctx
        .state
        .write(move |conn| {
            let proof = attempt.check(conn, &password, email_change::WRONG_PASSWORD)?;
            let user = &attempt.user;
            email_change::request(
                conn,
                &secret,
                user,
                &proof,
                &email,
                mail_limits,
                clock.now(),
            )
        })
        .await;
    match asked {
        Ok(()) => Ok(see_other("/settings?done=email")),
        Err(Error::Invalid(msg)) => {
            let errors = FormErrors {
                email: Some(msg),
                new_email: crate::web::clip(&f.email, 254),
                ..FormErrors::default()
            };
            let body = settings_with(&ctx, &req, false, "", errors).await?;
            Ok(html(StatusCode::UNPROCESSABLE_ENTITY, body))
        }
        Err(e) => Err(e),
    }
}

async fn delete_page(ctx: &Ctx, error: Option<String>) -> Result<String, Error> {
    let user = ctx.require_user()?.clone();
    let id = user.id;
    let running = ctx
        .state
        .read(move |conn| crate::db::games::running_count_of(conn, id))
        .await?;
    Ok(DeletePage {
        page: ctx.page(),
        error,
        username: user.username,
        neutral_name: deletion::neutral_name(id),
        running,
        retired_days: deletion::NAME_RETIRED_DAYS,
    }
    .render()?)
}

/// `POST /settings/delete`: without `confirm=1`, a page (200) that says
/// what deleting does and asks for the password; with it and the right
/// password, the account is deleted.
pub async fn delete_account(ctx: Ctx, form: web::Form<DeleteForm>) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    ctx.require_user()?;
    if form.confirm != "1" {
        return Ok(html(StatusCode::OK, delete_page(&ctx, None).await?));
    }
    let attempt = claim_reauth(&ctx).await?;
    let password = form.password.clone();
    let deleted = ctx
        .state
        .write(move |conn| {
            let proof = attempt.check(conn, &password, deletion::WRONG_PASSWORD)?;
            let user = &attempt.user;
            deletion::delete(conn, user, &proof, now())?;
            Ok(user.id)
        })
        .await;
    match deleted {
        Ok(id) => {
            ctx.state.names.forget(id);
            let page = DonePage {
                page: Page {
                    csrf: ctx.csrf_token.clone(),
                    ..Page::anonymous()
                },
                title: "Your account is deleted",
                message: format!(
                    "Everything about you is erased; your finished games stay in the records \
                     under the name {}. Thank you for playing.",
                    deletion::neutral_name(id)
                ),
                next_href: "/",
                next_words: "To the front page",
            };
            let mut res = html(StatusCode::OK, page.render()?);
            res.add_cookie(&removal_cookie(&ctx.state.config))
                .map_err(Error::internal)?;
            Ok(res)
        }
        Err(Error::Invalid(msg)) => Ok(html(
            StatusCode::UNPROCESSABLE_ENTITY,
            delete_page(&ctx, Some(msg)).await?,
        )),
        Err(e) => Err(e),
    }
}

/// `GET /settings/export`: the account's data as a JSON file.
pub async fn export(ctx: Ctx) -> Result<HttpResponse, Error> {
    let user = ctx.require_user()?.clone();
    let site = ctx.state.config.base_url.trim_end_matches('/').to_string();
    let name = user.username.clone();
    let doc = ctx
        .state
        .read(move |conn| crate::accounts::export::export(conn, &user, &site, now()))
        .await?;
    let body = serde_json::to_string_pretty(&doc).map_err(Error::internal)?;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .insert_header((
            actix_web::http::header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"missive-{name}.json\""),
        ))
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .body(body))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ZoneForm {
    csrf_token: String,
    time_zone: String,
}

/// `POST /settings/time-zone` (issue 64): the player's IANA time zone.
pub async fn save_zone(
    ctx: Ctx,
    req: HttpRequest,
    form: web::Form<ZoneForm>,
) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let id = ctx.require_user()?.id;
    let text = form.time_zone.clone();
    match ctx
        .state
        .write(move |conn| {
            crate::accounts::week_settings::set_time_zone(conn, id, &text, now()).map(|_| ())
        })
        .await
    {
        Ok(()) => Ok(see_other("/settings?done=time-zone#settings-week")),
        Err(Error::Invalid(msg)) => {
            let errors = FormErrors {
                time_zone: Some((crate::web::clip(&form.time_zone, 64), msg)),
                ..FormErrors::default()
            };
            let body = settings_with(&ctx, &req, false, "", errors).await?;
            Ok(html(StatusCode::UNPROCESSABLE_ENTITY, body))
        }
        Err(e) => Err(e),
    }
}
