//! Conditional lines on the game page: add one, delete one, and the line
//! sent together with a move.

use crate::db::games;
use crate::db::users::User;
use crate::domain::error::Error;
use crate::domain::ids::GameId;
use crate::game::conditional;
use crate::web::routes::game_load::{drawn_for, load_game};
use crate::web::routes::game_page::{render_game, PageExtras};
use crate::web::{html, now, parse_id, see_other, AppState, Ctx};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use serde::Deserialize;
use std::sync::Arc;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct LineForm {
    csrf_token: String,
    line: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct DeleteForm {
    csrf_token: String,
    line_id: String,
}

/// Check `text` as a line of `user` in game `id` (the rules work on a
/// reading connection), then store it under the game row's guard.
pub async fn add_line(
    state: &Arc<AppState>,
    id: GameId,
    user: &User,
    text: &str,
) -> Result<(), Error> {
    let (reads, user, text) = (state.clone(), user.clone(), text.to_string());
    let new = state
        .read(move |conn| {
            let row = games::load(conn, id)?;
            let restored = reads.positions.game(&row, || games::history_of(conn, id))?;
            conditional::prepare_line(conn, row, &restored.game, &user, &text)
        })
        .await?;
    state
        .write(move |conn| conditional::store_line(conn, &new, now()))
        .await
}

/// Check a line sent with a move against the position the move would
/// leave, before the move is stored (nothing is stored if either is
/// refused). A move the rules refuse is left for the move path to explain.
pub async fn check_with_move(
    state: &Arc<AppState>,
    id: GameId,
    user: &User,
    move_text: &str,
    line: &str,
) -> Result<(), Error> {
    let (reads, user, move_text, line) = (
        state.clone(),
        user.clone(),
        move_text.to_string(),
        line.to_string(),
    );
    state
        .read(move |conn| {
            let row = games::load(conn, id)?;
            let Some(side) = games::side_of(&row, user.id) else {
                return Ok(());
            };
            let restored = reads.positions.game(&row, || games::history_of(conn, id))?;
            let mut after = restored.game.clone();
            if after.play_text(&move_text).is_err() {
                return Ok(());
            }
            let entries = conditional::read_line_text(&line)?;
            conditional::check_line(&after, side, &entries).map(|_| ())
        })
        .await
}

/// The game page again, with `error` and the refused line to correct.
pub async fn page_with_error(
    ctx: &Ctx,
    id: GameId,
    status: StatusCode,
    error: String,
    extras: PageExtras,
) -> Result<HttpResponse, Error> {
    let data = load_game(ctx, id, drawn_for(ctx.state.clone(), None)).await?;
    let extras = PageExtras {
        error: Some(error),
        ..extras
    };
    Ok(html(status, render_game(ctx, &data, extras)?))
}

/// `POST /games/{id}/conditional` (`line`).
pub async fn add(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<LineForm>,
) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let id = parse_id(&path)?;
    let user = ctx.require_user()?.clone();
    let text = form.into_inner().line;
    match add_line(&ctx.state, id, &user, &text).await {
        Ok(()) => Ok(see_other(&format!("/games/{id}#conditional"))),
        Err(e @ (Error::Invalid(_) | Error::Conflict(_))) => {
            let status = match e {
                Error::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
                _ => StatusCode::CONFLICT,
            };
            let extras = PageExtras {
                line_text: crate::web::clip(&text, conditional::LINE_TEXT_MAX),
                ..PageExtras::default()
            };
            page_with_error(&ctx, id, status, e.to_string(), extras).await
        }
        Err(e) => Err(e),
    }
}

/// `POST /games/{id}/conditional/delete` (`line_id`).
pub async fn delete(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<DeleteForm>,
) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let id = parse_id(&path)?;
    let line_id: i32 = form
        .line_id
        .trim()
        .parse()
        .map_err(|_| Error::BadRequest("The line to delete is not a number.".into()))?;
    let user = ctx.require_user()?.clone();
    ctx.state
        .write(move |conn| conditional::delete_line(conn, id, &user, line_id))
        .await?;
    Ok(see_other(&format!("/games/{id}#conditional")))
}
