//! The pages mailed account links lead to, and the form that mails one:
//! `/password/forgot`, `/password/reset`, `/email/confirm`.

use crate::accounts::{email_change, password_reset, tokens, users};
use crate::domain::account_token::TokenPurpose;
use crate::domain::error::Error;
use crate::web::routes::account_settings::DonePage;
use crate::web::{html, now, session_cookie, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ForgotForm {
    csrf_token: String,
    email: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct TokenQuery {
    token: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ResetForm {
    csrf_token: String,
    token: String,
    password: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ConfirmForm {
    csrf_token: String,
    token: String,
}

#[derive(Template)]
#[template(path = "password_forgot.html")]
struct ForgotPage {
    page: Page,
    sent: bool,
}

#[derive(Template)]
#[template(path = "password_reset.html")]
struct ResetPage {
    page: Page,
    error: Option<String>,
    /// The account, while the link still works (the form is shown then).
    username: Option<String>,
    token: String,
}

#[derive(Template)]
#[template(path = "email_confirm.html")]
struct ConfirmPage {
    page: Page,
    username: String,
    new_email: String,
    token: String,
}

/// `GET /password/forgot`.
pub async fn forgot_form(ctx: Ctx) -> Result<HttpResponse, Error> {
    let page = ForgotPage {
        page: ctx.page(),
        sent: false,
    };
    Ok(html(StatusCode::OK, page.render()?))
}

/// `POST /password/forgot`: the same page and status whatever the address.
pub async fn forgot(ctx: Ctx, form: web::Form<ForgotForm>) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let secret = ctx.state.secret.clone();
    let email = form.email.clone();
    let per_day = ctx.state.config.reset_mail_limit_day;
    ctx.state
        .write(move |conn| password_reset::request(conn, &secret, &email, per_day, now()))
        .await?;
    let page = ForgotPage {
        page: ctx.page(),
        sent: true,
    };
    Ok(html(StatusCode::OK, page.render()?))
}

/// The account a reset link is for, or why it cannot be used.
async fn reset_account(ctx: &Ctx, token: String) -> Result<Result<String, String>, Error> {
    ctx.state
        .read(move |conn| {
            let t = match tokens::check(conn, &token, TokenPurpose::PasswordReset, now()) {
                Ok(t) => t,
                Err(Error::Invalid(msg)) => return Ok(Err(msg)),
                Err(e) => return Err(e),
            };
            Ok(match crate::db::users::find_by_id(conn, t.user_id)? {
                Some(u) if u.deleted_at.is_none() => Ok(u.username),
                _ => Err("This link is for an account that is gone.".to_string()),
            })
        })
        .await
}

fn reset_page(
    ctx: &Ctx,
    token: &str,
    found: Result<String, String>,
    error: Option<String>,
) -> ResetPage {
    let (username, error) = match found {
        Ok(name) => (Some(name), error),
        Err(why) => (None, Some(why)),
    };
    ResetPage {
        page: ctx.page(),
        error,
        username,
        token: token.chars().take(64).collect(),
    }
}

/// `GET /password/reset?token=`: the form, or why the link does not work
/// (422).
pub async fn reset_form(ctx: Ctx, q: web::Query<TokenQuery>) -> Result<HttpResponse, Error> {
    let found = reset_account(&ctx, q.token.clone()).await?;
    let status = if found.is_ok() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    Ok(html(
        status,
        reset_page(&ctx, &q.token, found, None).render()?,
    ))
}

/// `POST /password/reset`: the new password; every session of the account
/// ends and this browser is logged in on a new one.
pub async fn reset(
    ctx: Ctx,
    req: HttpRequest,
    form: web::Form<ResetForm>,
) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let f = form.into_inner();
    let (token, password) = (f.token.clone(), f.password);
    let done = ctx
        .state
        .write(move |conn| Ok(password_reset::reset(conn, &token, &password, now())?.id))
        .await;
    match done {
        Ok(user_id) => {
            let agent = user_agent(&req);
            let token = ctx
                .state
                .read(move |conn| users::create_session_from(conn, user_id, &agent, now()))
                .await?;
            let mut res = crate::web::see_other("/settings?done=reset");
            res.add_cookie(&session_cookie(&ctx.state.config, token))
                .map_err(Error::internal)?;
            Ok(res)
        }
        Err(Error::Invalid(msg)) => {
            let found = reset_account(&ctx, f.token.clone()).await?;
            let page = reset_page(&ctx, &f.token, found, Some(msg));
            Ok(html(StatusCode::UNPROCESSABLE_ENTITY, page.render()?))
        }
        Err(e) => Err(e),
    }
}

/// `GET /email/confirm?token=`: a button, so that a mail scanner fetching
/// the link changes nothing.
pub async fn confirm_form(ctx: Ctx, q: web::Query<TokenQuery>) -> Result<HttpResponse, Error> {
    let token = q.token.clone();
    let (username, new_email) = ctx
        .state
        .read(move |conn| {
            let t = tokens::check(conn, &token, TokenPurpose::EmailChange, now())?;
            let user = crate::db::users::find_by_id(conn, t.user_id)?
                .filter(|u| u.deleted_at.is_none())
                .ok_or_else(|| {
                    Error::Invalid("This link is for an account that is gone.".into())
                })?;
            Ok((user.username, t.new_email.unwrap_or_default()))
        })
        .await?;
    let page = ConfirmPage {
        page: ctx.page(),
        username,
        new_email,
        token: q.token.chars().take(64).collect(),
    };
    Ok(html(StatusCode::OK, page.render()?))
}

/// `POST /email/confirm`.
pub async fn confirm(ctx: Ctx, form: web::Form<ConfirmForm>) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let token = form.token.clone();
    ctx.state
        .write(move |conn| {
            email_change::confirm(conn, &token, now())?;
            Ok(())
        })
        .await?;
    let page = DonePage {
        page: ctx.page(),
        title: "Address changed",
        message: "Your new address is confirmed: Missive's mail goes there from now on.".into(),
        next_href: "/settings",
        next_words: "Your settings",
    };
    Ok(html(StatusCode::OK, page.render()?))
}

/// The browser's `User-Agent`, which `/settings` shows beside its session.
pub fn user_agent(req: &HttpRequest) -> String {
    req.headers()
        .get(actix_web::http::header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .chars()
        .take(300)
        .collect()
}
