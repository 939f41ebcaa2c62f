//! Leave: book whole UTC days ahead, see and cancel bookings.

use crate::clocks::leave;
use crate::db::leave::LeaveBooking;
use crate::domain::error::Error;
use crate::web::{html, now, see_other, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct LeaveForm {
    csrf_token: String,
    /// `book` (the default) or `cancel`.
    action: String,
    start: String,
    end: String,
    /// The booking to cancel.
    id: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct LeaveQuery {
    saved: String,
}

/// One year's allowance as the page shows it.
pub struct YearLine {
    year: i32,
    allowed: i64,
    booked: i64,
}

pub struct BookingLine {
    id: i32,
    start: String,
    end: String,
    days: i64,
    cancellable: bool,
}

#[derive(Template)]
#[template(path = "leave.html")]
struct LeavePage {
    page: Page,
    error: Option<String>,
    notice: bool,
    years: Vec<YearLine>,
    bookings: Vec<BookingLine>,
    start: String,
    end: String,
    earliest: String,
}

struct Loaded {
    years: Vec<YearLine>,
    bookings: Vec<LeaveBooking>,
}

async fn load(ctx: &Ctx, user_id: i32) -> Result<Loaded, Error> {
    let base = ctx.state.config.leave_days;
    ctx.state
        .read(move |conn| {
            let this_year = leave::year_of(now());
            let mut years = Vec::new();
            for year in [this_year, this_year + 1] {
                years.push(YearLine {
                    year,
                    allowed: leave::allowance(conn, user_id, year, base)?,
                    booked: leave::days_booked(conn, user_id, year)?,
                });
            }
            Ok(Loaded {
                years,
                bookings: crate::db::leave::bookings_of(conn, user_id)?,
            })
        })
        .await
}

fn render(
    ctx: &Ctx,
    data: Loaded,
    error: Option<String>,
    notice: bool,
    start: &str,
    end: &str,
) -> Result<String, Error> {
    let today = now().date();
    let page = LeavePage {
        page: ctx.page(),
        error,
        notice,
        years: data.years,
        bookings: data
            .bookings
            .iter()
            .filter(|b| b.end_date >= today)
            .map(|b| BookingLine {
                id: b.id,
                start: b.start_date.format("%Y-%m-%d").to_string(),
                end: b.end_date.format("%Y-%m-%d").to_string(),
                days: (b.end_date - b.start_date).num_days() + 1,
                cancellable: b.start_date > today,
            })
            .collect(),
        start: crate::web::clip(start, 20),
        end: crate::web::clip(end, 20),
        earliest: (today + chrono::TimeDelta::days(1))
            .format("%Y-%m-%d")
            .to_string(),
    };
    Ok(page.render()?)
}

pub async fn show(ctx: Ctx, q: web::Query<LeaveQuery>) -> Result<HttpResponse, Error> {
    let user = ctx.require_user()?.clone();
    let data = load(&ctx, user.id).await?;
    let body = render(&ctx, data, None, !q.saved.is_empty(), "", "")?;
    Ok(html(StatusCode::OK, body))
}

pub async fn save(ctx: Ctx, form: web::Form<LeaveForm>) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let user = ctx.require_user()?.clone();
    let f = form.into_inner();
    let base = ctx.state.config.leave_days;
    let uid = user.id;
    let result = match f.action.trim() {
        "" | "book" => {
            let (start, end) = (f.start.clone(), f.end.clone());
            ctx.state
                .write(move |conn| {
                    let s = leave::parse_day("first", &start)?;
                    let e = leave::parse_day("last", &end)?;
                    leave::book_leave(conn, uid, s, e, base, now()).map(|_| ())
                })
                .await
        }
        "cancel" => {
            let id: i32 =
                f.id.trim().parse().map_err(|_| {
                    Error::BadRequest("The booking to cancel is not a number.".into())
                })?;
            ctx.state
                .write(move |conn| leave::cancel_leave(conn, uid, id, now()))
                .await
        }
        _ => {
            return Err(Error::BadRequest(
                "The action must be book or cancel.".into(),
            ))
        }
    };
    match result {
        Ok(()) => Ok(see_other("/leave?saved=1")),
        Err(Error::Invalid(msg)) => {
            let data = load(&ctx, user.id).await?;
            let body = render(&ctx, data, Some(msg), false, &f.start, &f.end)?;
            Ok(html(StatusCode::UNPROCESSABLE_ENTITY, body))
        }
        Err(e) => Err(e),
    }
}
