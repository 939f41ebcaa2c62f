//! `/settings`' "Calendar and time zone" section (issue 64): the player's
//! time zone, and their secret calendar address, made, made anew or turned
//! off (the last two ask first: the old address stops working).

use crate::accounts::calendar_feed;
use crate::db::calendar_feeds;
use crate::domain::error::Error;
use crate::web::{html, now, see_other, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

/// What the settings page shows in the section.
pub struct WeekSection {
    pub time_zone: String,
    pub zone_error: Option<String>,
    /// When the calendar address was made, in the player's zone.
    pub calendar_since: Option<String>,
    pub zone_names: Vec<&'static str>,
}

/// The section for `ctx`'s user; a refused zone is shown again with its error.
pub async fn section(ctx: &Ctx, refused: Option<(String, String)>) -> Result<WeekSection, Error> {
    let user = ctx.require_user()?;
    let id = user.id;
    let zone = crate::domain::week::zone_or_utc(&user.time_zone);
    let made = ctx
        .state
        .read(move |conn| Ok(calendar_feeds::made_at(conn, id)?))
        .await?;
    let (time_zone, zone_error) = match refused {
        Some((text, e)) => (text, Some(e)),
        None => (user.time_zone.clone(), None),
    };
    Ok(WeekSection {
        time_zone,
        zone_error,
        calendar_since: made.map(|t| crate::domain::week::local_minute(t, zone)),
        zone_names: crate::domain::week::zone_names().collect(),
    })
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct CalendarForm {
    csrf_token: String,
    /// `1`: the player has said yes to ending the old address.
    confirm: String,
}

#[derive(Template)]
#[template(path = "calendar_address.html")]
struct AddressPage {
    page: Page,
    url: String,
}

#[derive(Template)]
#[template(path = "calendar_confirm.html")]
struct ConfirmPage {
    page: Page,
    /// `new` or `off`.
    act: &'static str,
    action: &'static str,
}

/// `POST /settings/calendar`: a new address, shown this once. Where one
/// exists, the player is asked first.
pub async fn make(ctx: Ctx, form: web::Form<CalendarForm>) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let id = ctx.require_user()?.id;
    if form.confirm != "1" {
        let existing = ctx
            .state
            .read(move |conn| Ok(calendar_feeds::made_at(conn, id)?))
            .await?;
        if existing.is_some() {
            return confirm(&ctx, "new", "/settings/calendar");
        }
    }
    // A secret: a try after one whose answer was lost makes no second one.
    let token = ctx
        .state
        .write(move |conn| calendar_feed::make(conn, id, now()).map(crate::db::once::Secret))
        .await?
        .0;
    let url = format!(
        "{}/calendar/{token}.ics",
        ctx.state.config.base_url.trim_end_matches('/')
    );
    let page = AddressPage {
        page: ctx.page(),
        url,
    };
    Ok(html(StatusCode::OK, page.render()?))
}

/// `POST /settings/calendar/revoke`: asked first, then the address ends.
pub async fn revoke(ctx: Ctx, form: web::Form<CalendarForm>) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let id = ctx.require_user()?.id;
    if form.confirm != "1" {
        return confirm(&ctx, "off", "/settings/calendar/revoke");
    }
    ctx.state
        .write(move |conn| Ok(calendar_feeds::revoke(conn, id)?))
        .await?;
    Ok(see_other("/settings?done=calendar-off#settings-week"))
}

fn confirm(ctx: &Ctx, act: &'static str, action: &'static str) -> Result<HttpResponse, Error> {
    let page = ConfirmPage {
        page: ctx.page(),
        act,
        action,
    };
    Ok(html(StatusCode::OK, page.render()?))
}
