//! A director's rulings on one tournament game: adjudication (and a
//! player's request for it) and more time for a player (issue 40).

use crate::db::games;
use crate::db::users::User;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::ids::GameId;
use crate::tournaments::{adjudication, directors, extension};
use crate::web::{now, parse_id, see_other, Ctx};
use actix_web::{web, HttpResponse};
use serde::Deserialize;

#[derive(Deserialize, Default, Clone)]
#[serde(default)]
pub struct AdjudicateForm {
    csrf_token: String,
    result: String,
    reason: String,
}

/// A director's act on the game `path` names, once the form's token and
/// the director's role are checked, written once; the game's id.
async fn as_director<F>(ctx: &Ctx, path: &str, csrf_token: &str, act: F) -> Result<GameId, Error>
where
    F: Fn(&mut DbConn, GameId, &User) -> Result<(), Error> + Clone + Send + 'static,
{
    ctx.check_csrf(csrf_token)?;
    let id = parse_id(path)?;
    let user = directors::require_director(ctx.user.as_ref())?.clone();
    ctx.state.write(move |conn| act(conn, id, &user)).await?;
    Ok(id)
}

pub async fn adjudicate(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<AdjudicateForm>,
) -> Result<HttpResponse, Error> {
    let f = form.into_inner();
    let token = f.csrf_token.clone();
    let id = as_director(&ctx, &path, &token, move |conn, id, user| {
        adjudication::adjudicate(conn, id, user, &f.result, &f.reason, now())
    })
    .await?;
    Ok(see_other(&format!("/games/{id}")))
}

#[derive(Deserialize, Default, Clone)]
#[serde(default)]
pub struct ExtendForm {
    csrf_token: String,
    side: String,
    time: String,
    reason: String,
}

/// `POST /games/{id}/extend`: a director gives a player more time
/// (`side` white or black, `time` such as `2d`, `reason`).
pub async fn extend(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<ExtendForm>,
) -> Result<HttpResponse, Error> {
    let f = form.into_inner();
    let token = f.csrf_token.clone();
    let id = as_director(&ctx, &path, &token, move |conn, id, user| {
        extension::extend(conn, id, user, &f.side, &f.time, &f.reason, now())
    })
    .await?;
    Ok(see_other(&format!("/games/{id}#events")))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct RequestForm {
    csrf_token: String,
    note: String,
}

pub async fn request_adjudication(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<RequestForm>,
) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let id = parse_id(&path)?;
    let user = ctx.require_user()?.clone();
    let note = form.into_inner().note;
    let tid = ctx
        .state
        .write(move |conn| {
            adjudication::request_adjudication(conn, id, &user, &note, now())?;
            Ok(games::load(conn, id)?.tournament_id)
        })
        .await?;
    Ok(see_other(&match tid {
        Some(t) => format!("/tournaments/{t}"),
        None => format!("/games/{id}"),
    }))
}
