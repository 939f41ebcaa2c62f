//! The director's pages: the dashboard of their tournaments and the import
//! of a checked record as a finished game.

use crate::domain::error::Error;
use crate::domain::time_control::utc_minute;
use crate::tournaments::{directors, records, views};
use crate::web::{html, now, see_other, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use chrono::NaiveDateTime;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "director.html")]
struct DirectorPage {
    page: Page,
    d: views::Dashboard,
}

pub async fn dashboard(ctx: Ctx) -> Result<HttpResponse, Error> {
    let user = directors::require_director(ctx.user.as_ref())?.clone();
    let d = ctx
        .state
        .read(move |conn| views::dashboard(conn, &user, now()))
        .await?;
    let page = DirectorPage {
        page: ctx.page(),
        d,
    };
    Ok(html(StatusCode::OK, page.render()?))
}

/// Dates in templates.
pub fn fmt_when(t: &NaiveDateTime) -> String {
    utc_minute(*t)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ImportForm {
    csrf_token: String,
    record: String,
    white: String,
    black: String,
}

/// A director imports a checked record as a finished game.
pub async fn import_record(ctx: Ctx, form: web::Form<ImportForm>) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let user = directors::require_director(ctx.user.as_ref())?.clone();
    let f = form.into_inner();
    // The record is read and replayed with no database connection held.
    let text = f.record;
    let prepared =
        crate::web::rules_pool::rules_work(&ctx.state, move || records::prepare_import(&text))
            .await??;
    let (white, black) = (f.white, f.black);
    let id = ctx
        .state
        .write(move |conn| records::import_record(conn, &user, &prepared, &white, &black, now()))
        .await?;
    Ok(see_other(&format!("/games/{id}")))
}
