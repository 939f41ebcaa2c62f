//! `GET /games/next?after=ID`: the player's next game where it is their
//! turn (issue 64), as the dashboard orders them: the nearest deadline
//! first. Every game page links here, so it is found only when followed
//! and never costs a game page a query.

use crate::domain::error::Error;
use crate::web::{now, see_other, Ctx};
use actix_web::{web, HttpResponse};
use serde::Deserialize;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct NextQuery {
    /// The game the player comes from (not offered again).
    after: String,
}

pub async fn next(ctx: Ctx, q: web::Query<NextQuery>) -> Result<HttpResponse, Error> {
    let uid = ctx.require_user()?.id;
    let after = q.after.trim().parse::<crate::domain::ids::GameId>().ok();
    let found = ctx
        .state
        .read(move |conn| crate::clocks::turn_order::next_turn(conn, uid, after, now()))
        .await?;
    Ok(match found {
        Some(id) => see_other(&format!("/games/{id}")),
        None => see_other("/?next=none"),
    })
}
