//! `/settings/clients`: app passwords for Xfcc programs and personal tokens
//! for the JSON API (issue 41): made, shown once, listed, revoked.

use crate::accounts::api_credentials;
use crate::db::api_credentials::Credential;
use crate::domain::api_credential::{CredentialKind, Scope};
use crate::domain::codes::Coded;
use crate::domain::error::Error;
use crate::web::{html, now, parse_id, see_other, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct NewCredentialForm {
    csrf_token: String,
    name: String,
    /// `read` or `play` (tokens only).
    scope: String,
    /// The account's password: a session alone does not make credentials
    /// that outlive it.
    current_password: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct RevokeForm {
    csrf_token: String,
    id: String,
    /// `1`: the player said yes on the page that asks.
    confirm: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ClientsQuery {
    done: String,
}

/// A credential as the page lists it.
struct Listed {
    id: i32,
    name: String,
    scope: &'static str,
    created: String,
    last_used: String,
}

/// The secret of a credential just made, shown this once.
struct NewSecret {
    what: &'static str,
    name: String,
    secret: String,
}

/// The question before a revocation.
struct ConfirmRevoke {
    id: i32,
    name: String,
    action: &'static str,
}

#[derive(Template)]
#[template(path = "settings_clients.html")]
struct ClientsPage {
    page: Page,
    username: String,
    xfcc_url: String,
    api_url: String,
    notice: Option<&'static str>,
    error: Option<String>,
    new_secret: Option<NewSecret>,
    confirm_revoke: Option<ConfirmRevoke>,
    app_passwords: Vec<Listed>,
    tokens: Vec<Listed>,
}

/// What the page adds to the lists.
#[derive(Default)]
struct Extras {
    notice: Option<&'static str>,
    error: Option<String>,
    new_secret: Option<NewSecret>,
    confirm_revoke: Option<ConfirmRevoke>,
}

fn minute(t: chrono::NaiveDateTime) -> String {
    t.format("%Y-%m-%d %H:%M").to_string()
}

fn listed(c: Credential) -> Listed {
    Listed {
        id: c.id,
        scope: c.scope.code(),
        created: minute(c.created_at),
        last_used: c.last_used_at.map(minute).unwrap_or_else(|| "never".into()),
        name: c.name,
    }
}

async fn render(ctx: &Ctx, status: StatusCode, extras: Extras) -> Result<HttpResponse, Error> {
    let user = ctx.require_user()?.clone();
    let id = user.id;
    let (apps, tokens) = ctx
        .state
        .read(move |conn| {
            Ok((
                crate::db::api_credentials::list(conn, id, CredentialKind::AppPassword)?,
                crate::db::api_credentials::list(conn, id, CredentialKind::Token)?,
            ))
        })
        .await?;
    let base = ctx.state.config.base_url.trim_end_matches('/');
    let page = ClientsPage {
        page: ctx.page(),
        username: user.username,
        xfcc_url: format!("{base}/xfcc"),
        api_url: format!("{base}/api/v1/"),
        notice: extras.notice,
        error: extras.error,
        new_secret: extras.new_secret,
        confirm_revoke: extras.confirm_revoke,
        app_passwords: apps.into_iter().map(listed).collect(),
        tokens: tokens.into_iter().map(listed).collect(),
    };
    Ok(html(status, page.render()?))
}

/// `GET /settings/clients`.
pub async fn show(ctx: Ctx, q: web::Query<ClientsQuery>) -> Result<HttpResponse, Error> {
    let notice = match q.done.as_str() {
        "revoked" => Some("Revoked: it signs in nowhere any more."),
        _ => None,
    };
    let extras = Extras {
        notice,
        ..Extras::default()
    };
    render(&ctx, StatusCode::OK, extras).await
}

/// What a wrong password is told.
const WRONG_PASSWORD: &str = "your password is not right.";

/// Make a credential and answer with the page showing its secret (200: the
/// secret is in this answer only, never behind a redirect).
async fn make(
    ctx: Ctx,
    form: NewCredentialForm,
    kind: CredentialKind,
) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    ctx.require_user()?;
    let scope = match kind {
        CredentialKind::AppPassword => Scope::Play,
        CredentialKind::Token => Scope::from_code(form.scope.trim()).ok_or_else(|| {
            Error::Invalid("Choose the token's scope: read, or play.".to_string())
        })?,
    };
    let attempt = crate::web::routes::account_settings::claim_reauth(&ctx).await?;
    let (name, password) = (form.name, form.current_password);
    // A secret: a try after one whose answer was lost makes no second one.
    let issued = ctx
        .state
        .write(move |conn| {
            attempt.check(conn, &password, WRONG_PASSWORD)?;
            api_credentials::issue(conn, &attempt.user, kind, scope, &name, now())
                .map(crate::db::once::Secret)
        })
        .await
        .map(|made| made.0);
    let what = match kind {
        CredentialKind::AppPassword => "app password",
        CredentialKind::Token => "token",
    };
    match issued {
        Ok(i) => {
            let extras = Extras {
                new_secret: Some(NewSecret {
                    what,
                    name: i.credential.name,
                    secret: i.secret,
                }),
                ..Extras::default()
            };
            render(&ctx, StatusCode::OK, extras).await
        }
        Err(Error::Invalid(msg)) => {
            let extras = Extras {
                error: Some(format!("No {what} was made: {msg}")),
                ..Extras::default()
            };
            render(&ctx, StatusCode::UNPROCESSABLE_ENTITY, extras).await
        }
        Err(e) => Err(e),
    }
}

/// `POST /settings/app-passwords` (`name`).
pub async fn new_app_password(
    ctx: Ctx,
    form: web::Form<NewCredentialForm>,
) -> Result<HttpResponse, Error> {
    make(ctx, form.into_inner(), CredentialKind::AppPassword).await
}

/// `POST /settings/tokens` (`name`, `scope`).
pub async fn new_token(
    ctx: Ctx,
    form: web::Form<NewCredentialForm>,
) -> Result<HttpResponse, Error> {
    make(ctx, form.into_inner(), CredentialKind::Token).await
}

/// Revoke one: without `confirm=1` the page asks first.
async fn revoke(ctx: Ctx, form: RevokeForm, kind: CredentialKind) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let user_id = ctx.require_user()?.id;
    let id = parse_id(&form.id).map(|c| c.get()).map_err(|_| {
        Error::NotFound("You have no such credential (it may be revoked already).".into())
    })?;
    if form.confirm.trim() != "1" {
        let held = ctx
            .state
            .read(move |conn| Ok(crate::db::api_credentials::list(conn, user_id, kind)?))
            .await?;
        let Some(c) = held.into_iter().find(|c| c.id == id) else {
            return Err(Error::NotFound(
                "You have no such credential (it may be revoked already).".into(),
            ));
        };
        let action = match kind {
            CredentialKind::AppPassword => "/settings/app-passwords/revoke",
            CredentialKind::Token => "/settings/tokens/revoke",
        };
        let extras = Extras {
            confirm_revoke: Some(ConfirmRevoke {
                id,
                name: c.name,
                action,
            }),
            ..Extras::default()
        };
        return render(&ctx, StatusCode::OK, extras).await;
    }
    ctx.state
        .write(move |conn| api_credentials::revoke(conn, user_id, kind, id))
        .await?;
    Ok(see_other("/settings/clients?done=revoked"))
}

/// `POST /settings/app-passwords/revoke` (`id`, `confirm=1`).
pub async fn revoke_app_password(
    ctx: Ctx,
    form: web::Form<RevokeForm>,
) -> Result<HttpResponse, Error> {
    revoke(ctx, form.into_inner(), CredentialKind::AppPassword).await
}

/// `POST /settings/tokens/revoke` (`id`, `confirm=1`).
pub async fn revoke_token(ctx: Ctx, form: web::Form<RevokeForm>) -> Result<HttpResponse, Error> {
    revoke(ctx, form.into_inner(), CredentialKind::Token).await
}
