//! A player's page in a tournament (issue 63): every rule beside what it
//! has done to them, and their games.

use crate::domain::error::Error;
use crate::tournaments::player_rules::{player_rules, PlayerRules};
use crate::web::{clip, html, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

#[derive(Template)]
#[template(path = "tournament_player.html")]
struct PlayerPage {
    page: Page,
    p: PlayerRules,
}

pub async fn show(ctx: Ctx, path: web::Path<(String, String)>) -> Result<HttpResponse, Error> {
    let (raw, name) = path.into_inner();
    let id = raw
        .parse::<i32>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| Error::NotFound(format!("There is no tournament “{}”.", clip(&raw, 40))))?;
    let p = ctx
        .state
        .read(move |conn| player_rules(conn, id, &name))
        .await?;
    let page = PlayerPage {
        page: ctx.page(),
        p,
    };
    Ok(html(StatusCode::OK, page.render()?))
}
