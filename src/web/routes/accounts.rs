use crate::accounts::device_cookies;
use crate::accounts::login_limit::{self, Attempt, LoginLimits};
use crate::accounts::send_limits;
use crate::accounts::users as accounts;
use crate::domain::error::Error;
use crate::web::{
    device_cookie, html, new_session, now, removal_cookie, see_other, session_cookie, Ctx, Page,
    DEVICE_COOKIE, SESSION_COOKIE,
};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "signup.html")]
struct SignupPage {
    page: Page,
    error: Option<String>,
    username: String,
    email: String,
}

#[derive(Template)]
#[template(path = "login.html")]
struct LoginPage {
    page: Page,
    error: Option<String>,
    username: String,
    /// The page to return to once logged in ([`crate::web::login_return`]).
    next: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct LoginQuery {
    next: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SignupForm {
    csrf_token: String,
    username: String,
    email: String,
    password: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct LoginForm {
    csrf_token: String,
    username: String,
    password: String,
    next: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct CsrfForm {
    csrf_token: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SettingsForm {
    csrf_token: String,
    confirm_moves: String,
    /// `settings`: the form was on the settings page, so go back there.
    back: String,
}

pub async fn signup_form(ctx: Ctx) -> Result<HttpResponse, Error> {
    if ctx.user.is_some() {
        return Ok(see_other("/"));
    }
    let page = SignupPage {
        page: ctx.page(),
        error: None,
        username: String::new(),
        email: String::new(),
    };
    Ok(html(StatusCode::OK, page.render()?))
}

pub async fn signup(
    ctx: Ctx,
    req: HttpRequest,
    form: web::Form<SignupForm>,
) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let f = form.into_inner();
    let (username, email, password) = (f.username.clone(), f.email.clone(), f.password);
    let signed_up = async {
        // Counted before the password is hashed and the mail queued; given
        // back when the sign-up does not happen.
        let (ip, address) = (ctx.ip.clone(), email.trim().to_string());
        let c = &ctx.state.config;
        let (per_hour, per_day, clock) = (
            c.signup_limit_hour,
            c.confirm_mail_limit_day,
            c.clock.clone(),
        );
        accounts::validate_email(&address).map_err(Error::Invalid)?;
        ctx.state
            .write(move |conn| {
                let t = clock.now();
                send_limits::sign_up(conn, &ip, per_hour, t)?;
                send_limits::confirm_mail(conn, &address, per_day, t).inspect_err(|_| {
                    let _ = send_limits::sign_up_undone(conn, &ip);
                })
            })
            .await?;
        let (ip, address) = (ctx.ip.clone(), email.trim().to_string());
        let made = ctx
            .state
            .write(move |conn| {
                let t = now();
                let user = accounts::signup(conn, &username, &email, &password, t)?;
                crate::accounts::mail_settings::send_verification(conn, user.id, t)?;
                Ok(user.id)
            })
            .await;
        if made.is_err() {
            let _ = ctx
                .state
                .write(move |conn| {
                    send_limits::sign_up_undone(conn, &ip)?;
                    send_limits::confirm_mail_not_sent(conn, &address)
                })
                .await;
        }
        made
    }
    .await;
    let agent = crate::web::routes::account_links::user_agent(&req);
    let result = async { new_session(&ctx.state, signed_up?, agent).await }.await;
    match result {
        Ok(token) => signed_in(&ctx, token, &f.username, "/"),
        Err(Error::Invalid(msg)) => {
            let page = SignupPage {
                page: ctx.page(),
                error: Some(msg),
                username: crate::web::clip(&f.username, 40),
                email: crate::web::clip(&f.email, 254),
            };
            Ok(html(StatusCode::UNPROCESSABLE_ENTITY, page.render()?))
        }
        Err(Error::TooSoon {
            message,
            retry_after,
        }) => {
            let page = SignupPage {
                page: ctx.page(),
                error: Some(message),
                username: crate::web::clip(&f.username, 40),
                email: crate::web::clip(&f.email, 254),
            };
            let mut res = html(StatusCode::TOO_MANY_REQUESTS, page.render()?);
            retry_after_header(&mut res, retry_after);
            Ok(res)
        }
        Err(e) => Err(e),
    }
}

pub async fn login_form(ctx: Ctx, query: web::Query<LoginQuery>) -> Result<HttpResponse, Error> {
    let next = crate::web::login_return::safe(&query.next).unwrap_or_default();
    if ctx.user.is_some() {
        return Ok(see_other(crate::web::login_return::target(next)));
    }
    let page = LoginPage {
        page: ctx.page(),
        error: None,
        username: String::new(),
        next: next.to_string(),
    };
    Ok(html(StatusCode::OK, page.render()?))
}

pub async fn login(
    ctx: Ctx,
    req: HttpRequest,
    form: web::Form<LoginForm>,
) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let f = form.into_inner();
    let username = f.username.clone();
    let ip = ctx.ip.clone();
    let limits = LoginLimits::of(&ctx.state.config);
    let password = f.password.clone();
    // A device cookie counts only for the account it was given to.
    let device = req
        .cookie(DEVICE_COOKIE)
        .and_then(|c| device_cookies::read(&ctx.state.secret, c.value()))
        .filter(|d| d.is_for(&username));
    // The attempt is counted, and committed, before the password is checked:
    // attempts at once cannot all pass the limit.
    let clock = ctx.state.config.clock.clone();
    let (name, addr, known) = (username.clone(), ip.clone(), device.clone());
    let claimed = ctx
        .state
        .write(move |conn| {
            let attempt = known
                .as_ref()
                .map_or(Attempt::Untrusted, Attempt::KnownDevice);
            login_limit::claim(conn, &name, &addr, attempt, &limits, clock.now())
        })
        .await;
    // The check is recorded whatever it answers, once (a refusal is kept
    // with its request key like an answer).
    let logged_in = match claimed {
        Ok(()) => {
            ctx.state
                .write(move |conn| {
                    let attempt = device
                        .as_ref()
                        .map_or(Attempt::Untrusted, Attempt::KnownDevice);
                    let user = accounts::login(conn, &username, &password, &ip, now())?;
                    login_limit::forgive(conn, &username, &ip, attempt, &limits)?;
                    crate::accounts::disabling::refuse_disabled(&user)?;
                    Ok(user.id)
                })
                .await
        }
        Err(e) => Err(e),
    };
    let agent = crate::web::routes::account_links::user_agent(&req);
    let result = async { new_session(&ctx.state, logged_in?, agent).await }.await;
    let mut retry_after = None;
    let (status, msg) = match result {
        Ok(token) => {
            let back = crate::web::login_return::target(&f.next);
            return signed_in(&ctx, token, &f.username, back);
        }
        Err(Error::Invalid(msg)) => (StatusCode::UNPROCESSABLE_ENTITY, msg),
        Err(Error::RateLimited(msg)) => (StatusCode::TOO_MANY_REQUESTS, msg),
        Err(Error::TooSoon {
            message,
            retry_after: secs,
        }) => {
            retry_after = Some(secs);
            (StatusCode::TOO_MANY_REQUESTS, message)
        }
        Err(Error::Forbidden(msg)) => (StatusCode::FORBIDDEN, msg),
        Err(e) => return Err(e),
    };
    let page = LoginPage {
        page: ctx.page(),
        error: Some(msg),
        username: crate::web::clip(&f.username, 40),
        next: crate::web::login_return::safe(&f.next)
            .unwrap_or_default()
            .to_string(),
    };
    let mut res = html(status, page.render()?);
    if let Some(secs) = retry_after {
        retry_after_header(&mut res, secs);
    }
    Ok(res)
}

/// The answer to a sign-up or login: the session, and a new device cookie
/// naming the account, so this browser is known at its next login.
fn signed_in(ctx: &Ctx, token: String, username: &str, back: &str) -> Result<HttpResponse, Error> {
    let config = &ctx.state.config;
    let mut res = see_other(back);
    res.add_cookie(&session_cookie(config, token))
        .map_err(Error::internal)?;
    let device = device_cookies::issue(&ctx.state.secret, username);
    res.add_cookie(&device_cookie(config, device))
        .map_err(Error::internal)?;
    Ok(res)
}

/// Say when a refused request may be tried again.
fn retry_after_header(res: &mut HttpResponse, secs: i64) {
    if let Ok(v) = actix_web::http::header::HeaderValue::from_str(&secs.max(1).to_string()) {
        res.headers_mut()
            .insert(actix_web::http::header::RETRY_AFTER, v);
    }
}

pub async fn logout(
    ctx: Ctx,
    req: HttpRequest,
    form: web::Form<CsrfForm>,
) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    if let Some(c) = req.cookie(SESSION_COOKIE) {
        let token = c.value().to_string();
        ctx.state
            .write(move |conn| accounts::end_session(conn, &token))
            .await?;
    }
    let mut res = see_other("/");
    res.add_cookie(&removal_cookie(&ctx.state.config))
        .map_err(Error::internal)?;
    Ok(res)
}

pub async fn settings(ctx: Ctx, form: web::Form<SettingsForm>) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let user_id = ctx.require_user()?.id;
    let on = form.confirm_moves == "1";
    ctx.state
        .write(move |conn| Ok(crate::db::users::set_confirm_moves(conn, user_id, on)?))
        .await?;
    Ok(see_other(if form.back == "settings" {
        "/settings?saved=1"
    } else {
        "/"
    }))
}
