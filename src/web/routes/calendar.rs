//! `GET /calendar/{token}.ics`: a player's secret calendar feed (issue 64),
//! read afresh on each request so it never shows a deadline a move has
//! changed. An unknown or ended token is a plain 404.

use crate::accounts::calendar_feed;
use crate::domain::error::Error;
use crate::web::{now, Ctx};
use actix_web::{web, HttpResponse};

const NOT_FOUND: &str = "There is no calendar at this address: it may have been turned off or replaced on the owner's Settings page.";

pub async fn feed(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, Error> {
    let file = path.into_inner();
    let token = file
        .strip_suffix(".ics")
        .ok_or_else(|| Error::NotFound(NOT_FOUND.into()))?
        .to_string();
    let found = ctx
        .state
        .read(move |conn| {
            let Some(user) = calendar_feed::owner(conn, &token)? else {
                return Ok(None);
            };
            let feed = calendar_feed::feed(conn, &user, now())?;
            Ok(Some((user.username, feed)))
        })
        .await?;
    let (username, feed) = found.ok_or_else(|| Error::NotFound(NOT_FOUND.into()))?;
    let body = crate::web::views::ics::write(&feed, &username, &ctx.state.config.base_url);
    Ok(HttpResponse::Ok()
        .content_type("text/calendar; charset=utf-8")
        // A subscriber asks again; nothing on the way keeps an old copy.
        .insert_header(("Cache-Control", "no-cache, private"))
        .insert_header(("Content-Disposition", "inline; filename=\"missive.ics\""))
        .body(body))
}
