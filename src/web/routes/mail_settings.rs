//! The mail settings page and the one-click unsubscribe link.

use crate::accounts::links;
use crate::accounts::mail_settings;
use crate::domain::error::Error;
use crate::domain::mail_kind::MailPolicy;
use crate::web::{html, now, see_other, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "mail_settings.html")]
struct SettingsPage {
    page: Page,
    policy: String,
    saved: bool,
    /// The user's address, and whether it is confirmed.
    email: String,
    verified: bool,
    /// A verification mail was just queued.
    sent: bool,
    digest_hour: u32,
    resend_minutes: i64,
}

#[derive(Template)]
#[template(path = "unsubscribe.html")]
struct UnsubscribePage {
    page: Page,
    done: bool,
    u: String,
    sig: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PolicyForm {
    csrf_token: String,
    policy: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SavedQuery {
    saved: String,
    sent: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct UnsubscribeQuery {
    u: String,
    sig: String,
}

pub async fn show(ctx: Ctx, q: web::Query<SavedQuery>) -> Result<HttpResponse, Error> {
    let user = ctx.require_user()?.clone();
    let email = user.email.clone();
    let (verified, policy) = ctx
        .state
        .read(move |conn| Ok(crate::db::mail_prefs::standing_of(conn, user.id)?))
        .await?;
    let page = SettingsPage {
        page: ctx.page(),
        policy: policy.to_string(),
        saved: !q.saved.is_empty(),
        email,
        verified,
        sent: !q.sent.is_empty(),
        digest_hour: ctx.state.config.digest_hour,
        resend_minutes: mail_settings::VERIFY_RESEND_MINUTES,
    };
    Ok(html(StatusCode::OK, page.render()?))
}

/// The "send the confirmation mail again" button (rate-limited by the
/// service: 429 when asked again too soon).
pub async fn resend_verification(
    ctx: Ctx,
    form: web::Form<CsrfOnly>,
) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let user = ctx.require_user()?.clone();
    let (per_day, clock) = (
        ctx.state.config.confirm_mail_limit_day,
        ctx.state.config.clock.clone(),
    );
    let address = user.email.clone();
    ctx.state
        .write(move |conn| {
            crate::accounts::send_limits::confirm_mail(conn, &address, per_day, clock.now())
        })
        .await?;
    let sent = ctx
        .state
        .write(move |conn| mail_settings::send_verification(conn, user.id, now()))
        .await;
    if sent.is_err() {
        let address = ctx.require_user()?.email.clone();
        let _ = ctx
            .state
            .write(move |conn| crate::accounts::send_limits::confirm_mail_not_sent(conn, &address))
            .await;
    }
    sent?;
    Ok(see_other("/settings/mail?sent=1"))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct CsrfOnly {
    csrf_token: String,
}

pub async fn save(ctx: Ctx, form: web::Form<PolicyForm>) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let user = ctx.require_user()?.clone();
    let policy = form.policy.trim().to_string();
    ctx.state
        .write(move |conn| mail_settings::set_policy(conn, user.id, &policy, now()))
        .await?;
    Ok(see_other("/settings/mail?saved=1"))
}

fn checked_user(ctx: &Ctx, u: &str, sig: &str) -> Result<i32, Error> {
    let bad = || {
        Error::Forbidden(
            "This unsubscribe link is not valid. Log in and choose your mail settings instead."
                .into(),
        )
    };
    let user: i32 = u.trim().parse().map_err(|_| bad())?;
    if links::unsubscribe_ok(&ctx.state.secret, user, sig.trim()) {
        Ok(user)
    } else {
        Err(bad())
    }
}

/// The link in the mail: a page with one button (a GET changes nothing, so
/// link checkers cannot unsubscribe anyone).
pub async fn unsubscribe_form(
    ctx: Ctx,
    q: web::Query<UnsubscribeQuery>,
) -> Result<HttpResponse, Error> {
    checked_user(&ctx, &q.u, &q.sig)?;
    let page = UnsubscribePage {
        page: ctx.page(),
        done: false,
        u: q.u.clone(),
        sig: q.sig.clone(),
    };
    Ok(html(StatusCode::OK, page.render()?))
}

/// The button, or a mail client's one-click POST (RFC 8058: `u` and `sig`
/// in the address, `List-Unsubscribe=One-Click` in the body). The signature
/// is the authority, so no CSRF token is needed; it can only turn mail off.
pub async fn unsubscribe(
    ctx: Ctx,
    q: web::Query<UnsubscribeQuery>,
    body: web::Bytes,
) -> Result<HttpResponse, Error> {
    let mut u = q.u.clone();
    let mut sig = q.sig.clone();
    for (k, v) in url::form_urlencoded::parse(&body) {
        match k.as_ref() {
            "u" if u.is_empty() => u = v.into_owned(),
            "sig" if sig.is_empty() => sig = v.into_owned(),
            _ => {}
        }
    }
    let user = checked_user(&ctx, &u, &sig)?;
    ctx.state
        .write(move |conn| mail_settings::set_policy(conn, user, MailPolicy::None.code(), now()))
        .await?;
    let page = UnsubscribePage {
        page: ctx.page(),
        done: true,
        u,
        sig,
    };
    Ok(html(StatusCode::OK, page.render()?))
}

#[derive(Template)]
#[template(path = "verified.html")]
struct VerifiedPage {
    page: Page,
    ok: bool,
}

/// The link of the verification mail.
pub async fn verify_email(
    ctx: Ctx,
    q: web::Query<UnsubscribeQuery>,
) -> Result<HttpResponse, Error> {
    let user: Option<i32> = q.u.trim().parse().ok();
    let sig = q.sig.trim().to_string();
    let secret = ctx.state.secret.clone();
    let ok = match user {
        Some(u) => {
            ctx.state
                .write(move |conn| mail_settings::verify_email(conn, &secret, u, &sig, now()))
                .await?
        }
        None => false,
    };
    let mut page = ctx.page();
    // The session was read before the confirmation: its notices are past.
    if ok && user.is_some() && user == ctx.user.as_ref().map(|u| u.id) {
        page.email_unverified = false;
        page.email_failing = false;
    }
    let page = VerifiedPage { page, ok };
    let status = if ok {
        StatusCode::OK
    } else {
        StatusCode::FORBIDDEN
    };
    Ok(html(status, page.render()?))
}
