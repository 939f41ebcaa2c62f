//! What players and directors do to a tournament: join, leave, start,
//! withdraw, replace, grant leave. Each is one act: the CSRF token, the
//! id, the actor, the write, then back to the tournament's page.

use super::tournaments::tid;
use crate::db::users::User;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::tournaments::directors;
use crate::tournaments::entry;
use crate::tournaments::withdrawal;
use crate::web::{now, see_other, Ctx};
use actix_web::{web, HttpResponse};
use serde::Deserialize;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct CsrfForm {
    csrf_token: String,
}

/// Who may take an action on a tournament.
enum Actor {
    /// Any logged-in player.
    Player,
    /// A director (the service checks it is this tournament's).
    Director,
}

/// Every action on a tournament has one shape: the CSRF token, the id, the
/// actor, the service call on a database thread, then back to the
/// tournament's page.
async fn tournament_action(
    ctx: Ctx,
    raw_id: &str,
    csrf: &str,
    actor: Actor,
    act: impl Fn(&mut DbConn, i32, &User) -> Result<(), Error> + Clone + Send + 'static,
) -> Result<HttpResponse, Error> {
    ctx.check_csrf(csrf)?;
    let id = tid(raw_id)?;
    let user = match actor {
        Actor::Player => ctx.require_user()?,
        Actor::Director => directors::require_director(ctx.user.as_ref())?,
    }
    .clone();
    ctx.state.write(move |conn| act(conn, id, &user)).await?;
    Ok(see_other(&format!("/tournaments/{id}")))
}

pub async fn join(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<CsrfForm>,
) -> Result<HttpResponse, Error> {
    tournament_action(
        ctx,
        &path,
        &form.csrf_token,
        Actor::Player,
        |conn, id, user| entry::join(conn, id, user, now()),
    )
    .await
}

pub async fn leave(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<CsrfForm>,
) -> Result<HttpResponse, Error> {
    tournament_action(ctx, &path, &form.csrf_token, Actor::Player, entry::leave).await
}

pub async fn start(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<CsrfForm>,
) -> Result<HttpResponse, Error> {
    tournament_action(
        ctx,
        &path,
        &form.csrf_token,
        Actor::Director,
        |conn, id, user| entry::start_by_director(conn, id, user, now()).map(|_| ()),
    )
    .await
}

#[derive(Deserialize, Default, Clone)]
#[serde(default)]
pub struct PlayerForm {
    csrf_token: String,
    player: String,
    note: String,
    newcomer: String,
    days: String,
    reason: String,
}

/// A director's act on one player of the tournament, from [`PlayerForm`].
async fn on_player(
    ctx: Ctx,
    path: &str,
    form: PlayerForm,
    act: impl Fn(&mut DbConn, i32, &User, &PlayerForm) -> Result<(), Error> + Clone + Send + 'static,
) -> Result<HttpResponse, Error> {
    let csrf = form.csrf_token.clone();
    tournament_action(ctx, path, &csrf, Actor::Director, move |conn, id, user| {
        act(conn, id, user, &form)
    })
    .await
}

pub async fn withdraw(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<PlayerForm>,
) -> Result<HttpResponse, Error> {
    on_player(ctx, &path, form.into_inner(), |conn, id, user, f| {
        withdrawal::director_withdraw(conn, id, user, &f.player, &f.note, now())
    })
    .await
}

pub async fn replace(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<PlayerForm>,
) -> Result<HttpResponse, Error> {
    on_player(ctx, &path, form.into_inner(), |conn, id, user, f| {
        withdrawal::replace(conn, id, user, &f.player, &f.newcomer, now())
    })
    .await
}

pub async fn grant_leave(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<PlayerForm>,
) -> Result<HttpResponse, Error> {
    on_player(ctx, &path, form.into_inner(), |conn, id, user, f| {
        directors::grant_leave(conn, id, user, &f.player, &f.days, &f.reason, now())
    })
    .await
}
