//! `/settings/notifications` (issue 64): browser notifications. The page
//! shows the switches per kind (a plain form) and a button that needs
//! script (`static/push.js`), which posts this browser's subscription.

use crate::accounts::notifications::{self, BrowserSubscription};
use crate::domain::error::Error;
use crate::domain::push_kind::PushKind;
use crate::web::{html, now, see_other, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

/// A switch as the form shows it.
struct Switch {
    code: &'static str,
    label: &'static str,
    on: bool,
}

#[derive(Template)]
#[template(path = "notifications.html")]
struct NotificationsPage {
    page: Page,
    saved: bool,
    forgotten: bool,
    /// The server's VAPID public key, base64url (`applicationServerKey`).
    vapid_key: String,
    browsers: usize,
    switches: Vec<Switch>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct NoticeQuery {
    saved: String,
    forgotten: String,
}

/// The switches: a kind is on when its checkbox was sent (`PushKind`
/// codes).
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SwitchesForm {
    csrf_token: String,
    your_turn: String,
    offers: String,
    reminders: String,
    game_over: String,
    tournament_round: String,
}

impl SwitchesForm {
    fn on(&self) -> Vec<PushKind> {
        let sent = |k: PushKind| match k {
            PushKind::YourTurn => &self.your_turn,
            PushKind::Offers => &self.offers,
            PushKind::Reminders => &self.reminders,
            PushKind::GameOver => &self.game_over,
            PushKind::TournamentRound => &self.tournament_round,
        };
        PushKind::ALL
            .iter()
            .copied()
            .filter(|k| !sent(*k).is_empty())
            .collect()
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SubscribeForm {
    csrf_token: String,
    /// `PushSubscription.toJSON()` as JSON text.
    subscription: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct UnsubscribeForm {
    csrf_token: String,
    endpoint: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ForgetForm {
    csrf_token: String,
}

pub async fn show(ctx: Ctx, q: web::Query<NoticeQuery>) -> Result<HttpResponse, Error> {
    let user = ctx.require_user()?.clone();
    let (vapid_key, standing) = ctx
        .state
        .read(move |conn| {
            let key = crate::push::vapid_key(conn).map_err(Error::internal)?;
            Ok((key.public_key(), notifications::standing(conn, user.id)?))
        })
        .await?;
    let page = NotificationsPage {
        page: ctx.page(),
        saved: !q.saved.is_empty(),
        forgotten: !q.forgotten.is_empty(),
        vapid_key,
        browsers: standing.browsers,
        switches: standing
            .switches
            .into_iter()
            .map(|(k, on)| Switch {
                code: k.code(),
                label: k.label(),
                on,
            })
            .collect(),
    };
    Ok(html(StatusCode::OK, page.render()?))
}

/// The switches.
pub async fn save(ctx: Ctx, form: web::Form<SwitchesForm>) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let user = ctx.require_user()?.clone();
    let on = form.on();
    ctx.state
        .write(move |conn| notifications::set_switches(conn, user.id, &on))
        .await?;
    Ok(see_other("/settings/notifications?saved=1"))
}

/// This browser's subscription, posted by `static/push.js`.
pub async fn subscribe(ctx: Ctx, form: web::Form<SubscribeForm>) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let user = ctx.require_user()?.clone();
    let sub: BrowserSubscription = serde_json::from_str(&form.subscription).map_err(|_| {
        Error::BadRequest(
            "The browser's subscription could not be read. Reload the page and try again.".into(),
        )
    })?;
    let any = ctx.state.config.push_any_endpoint;
    ctx.state
        .write(move |conn| notifications::subscribe(conn, user.id, &sub, any, now()))
        .await?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .body("This browser gets notifications."))
}

/// Notifications turned off in one browser (`static/push.js`).
pub async fn unsubscribe(
    ctx: Ctx,
    form: web::Form<UnsubscribeForm>,
) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let user = ctx.require_user()?.clone();
    let endpoint = form.endpoint.trim().to_string();
    ctx.state
        .write(move |conn| notifications::unsubscribe(conn, user.id, &endpoint))
        .await?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .body("This browser gets no notifications."))
}

/// Every browser forgotten (a plain form: works without script).
pub async fn forget(ctx: Ctx, form: web::Form<ForgetForm>) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let user = ctx.require_user()?.clone();
    ctx.state
        .write(move |conn| notifications::forget_browsers(conn, user.id))
        .await?;
    Ok(see_other("/settings/notifications?forgotten=1"))
}
