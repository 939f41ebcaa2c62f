//! What players do to a game: accept or decline a challenge, move, resign,
//! offer or answer a draw.

use crate::db::games;
use crate::db::users::User;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::ids::GameId;
use crate::game::challenge;
use crate::game::conditional;
use crate::game::draw;
use crate::game::finish::check_participant;
use crate::game::play;
use crate::game::play::MoveOutcome;
use crate::game::resign;
use crate::game::restore;
use crate::game::takeback;
use crate::web::routes::conditional::{add_line, check_with_move, page_with_error};
use crate::web::routes::game_load::{drawn_for, load_game};
use crate::web::routes::game_page::{render_game, PageExtras};
use crate::web::{html, now, parse_id, see_other, Ctx, Page, Session};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct CsrfForm {
    csrf_token: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct MoveForm {
    csrf_token: String,
    #[serde(rename = "move")]
    text: String,
    confirm: String,
    ply: String,
    /// A conditional line entered with the move (optional).
    conditional: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct DrawForm {
    csrf_token: String,
    action: String,
}

/// Every answer to a challenge and every game action but a move has one
/// shape: the CSRF token, the game id, the logged-in player, the service
/// call on a database thread, then a redirect.
pub(crate) async fn game_action(
    ctx: Ctx,
    raw_id: &str,
    csrf: &str,
    act: impl Fn(&mut DbConn, GameId, &User) -> Result<(), Error> + Clone + Send + 'static,
    then: impl FnOnce(GameId) -> String,
) -> Result<HttpResponse, Error> {
    ctx.check_csrf(csrf)?;
    let id = parse_id(raw_id)?;
    let user = ctx.require_user()?.clone();
    ctx.state.write(move |conn| act(conn, id, &user)).await?;
    Ok(see_other(&then(id)))
}

pub(crate) fn game_page(id: GameId) -> String {
    format!("/games/{id}")
}

pub async fn accept(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<CsrfForm>,
) -> Result<HttpResponse, Error> {
    let act = |conn: &mut DbConn, id, user: &User| challenge::accept(conn, id, user, now());
    game_action(ctx, &path, &form.csrf_token, act, game_page).await
}

pub async fn decline(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<CsrfForm>,
) -> Result<HttpResponse, Error> {
    let act = |conn: &mut DbConn, id, user: &User| challenge::decline(conn, id, user, now());
    game_action(ctx, &path, &form.csrf_token, act, |_| "/".into()).await
}

pub async fn make_move(
    session: Session,
    path: web::Path<String>,
    form: web::Form<MoveForm>,
) -> Result<HttpResponse, Error> {
    session.check_csrf(&form.csrf_token)?;
    let id = parse_id(&path)?;
    let f = form.into_inner();
    let expected_ply = match f.ply.trim() {
        "" => None,
        p => Some(p.parse::<i32>().map_err(|_| {
            Error::BadRequest("The form's position number is not a number.".into())
        })?),
    };
    let confirmed = f.confirm == "1";
    let state = session.state().clone();
    let line = f.conditional.trim().to_string();
    let line_extras = || PageExtras {
        move_text: crate::web::clip(&f.text, 200),
        line_text: crate::web::clip(&line, conditional::LINE_TEXT_MAX),
        ..PageExtras::default()
    };
    if !line.is_empty() {
        // Both or neither: a line the rules refuse keeps the move unplayed.
        let ctx = session.clone().resolve().await?;
        let user = ctx.require_user()?.clone();
        if let Err(e) = check_with_move(&state, id, &user, &f.text, &line).await {
            let status = match e {
                Error::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
                Error::Forbidden(_) => StatusCode::FORBIDDEN,
                _ => return Err(e),
            };
            let why = format!("Your move was not played: its conditional line was refused. {e}");
            return page_with_error(&ctx, id, status, why, line_extras()).await;
        }
    }
    // The session is looked up with the move's reads, in one database call;
    // the connection is back in the pool while the move commits.
    let (ctx, result) = crate::web::settle_move(&state, |unsure| {
        let (session, state, text) = (session.clone(), state.clone(), f.text.clone());
        session.with_user(move |conn, user| {
            let user = crate::web::logged_in(user)?;
            let commit = confirmed || !user.confirm_moves;
            play::queue_move(
                conn,
                &state.writes,
                &state.positions,
                play::MoveSubmission {
                    id,
                    user,
                    text: &text,
                    expected_ply,
                    commit,
                    unsure: unsure.as_ref(),
                    now: now(),
                    also: None,
                },
            )
        })
    })
    .await?;
    let (status, extras) = match result {
        Ok(MoveOutcome::Committed { .. }) if line.is_empty() => {
            return Ok(see_other(&format!("/games/{id}")))
        }
        Ok(MoveOutcome::Committed { .. }) => {
            let user = ctx.require_user()?.clone();
            match add_line(&ctx.state, id, &user, &line).await {
                Ok(()) => return Ok(see_other(&format!("/games/{id}#conditional"))),
                Err(
                    e @ (Error::Invalid(_)
                    | Error::Conflict(_)
                    | Error::MovedOn(_)
                    | Error::Forbidden(_)),
                ) => {
                    let why = format!(
                        "Your move was played, but its conditional line was not stored: {e}"
                    );
                    return page_with_error(&ctx, id, StatusCode::CONFLICT, why, line_extras())
                        .await;
                }
                Err(e) => return Err(e),
            }
        }
        // The confirmation step at an address of its own.
        Ok(MoveOutcome::Preview { .. }) => {
            let to = crate::web::routes::move_preview::url(id, &f.text, &f.ply, &line);
            return Ok(see_other(&to));
        }
        Err(Error::Invalid(msg) | Error::AmbiguousMove(msg)) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            PageExtras {
                error: Some(msg),
                ..line_extras()
            },
        ),
        // The game moved on (or ended on time): show it as it is now.
        Err(e @ (Error::Conflict(_) | Error::MovedOn(_))) => (
            StatusCode::CONFLICT,
            PageExtras {
                error: Some(e.to_string()),
                ..PageExtras::default()
            },
        ),
        Err(e) => return Err(e),
    };
    let data = load_game(&ctx, id, drawn_for(ctx.state.clone(), None)).await?;
    Ok(html(status, render_game(&ctx, &data, extras)?))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ResignForm {
    pub(crate) csrf_token: String,
    /// `1`: the player said yes on the page that asks.
    pub(crate) confirm: String,
}

#[derive(Template)]
#[template(path = "resign.html")]
struct ResignPage {
    page: Page,
    id: GameId,
    variant_name: String,
    opponent: String,
}

/// What a page that asks before an act that cannot be undone shows: the
/// game's id, its variant's name and the opponent `check` names (the
/// side whose player it is), once `check` has said the act is allowed.
pub(crate) async fn asking(
    ctx: &Ctx,
    raw_id: &str,
    csrf: &str,
    check: impl FnOnce(&games::GameRow, &User) -> Result<missive_rules::Color, Error>
        + Clone
        + Send
        + 'static,
) -> Result<(GameId, String, String), Error> {
    ctx.check_csrf(csrf)?;
    let id = parse_id(raw_id)?;
    let user = ctx.require_user()?.clone();
    let (variant_name, opponent) = ctx
        .state
        .read(move |conn| {
            let row = games::load(conn, id)?;
            let other = check.clone()(&row, &user)?;
            let variant = restore::variant_of(&row)?;
            let opponent = match games::player_of(&row, other) {
                Some(o) => crate::db::users::user_names(conn, &[o])?.remove(&o),
                None => None,
            };
            Ok((
                variant.name().to_string(),
                opponent.unwrap_or_else(|| "your opponent".into()),
            ))
        })
        .await?;
    Ok((id, variant_name, opponent))
}

/// Resigning cannot be undone, so it ends the game only when confirmed
/// (`confirm=1`); without that the answer is a page that asks, and the game
/// goes on. Who may resign is checked before asking.
pub async fn resign(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<ResignForm>,
) -> Result<HttpResponse, Error> {
    if form.confirm.trim() != "1" {
        let (id, variant_name, opponent) = asking(&ctx, &path, &form.csrf_token, |row, user| {
            Ok(check_participant(row, user, "resign")?.opponent())
        })
        .await?;
        let page = ResignPage {
            page: ctx.page(),
            id,
            variant_name,
            opponent,
        };
        return Ok(html(StatusCode::OK, page.render()?));
    }
    let act = |conn: &mut DbConn, id, user: &User| resign::resign(conn, id, user, now());
    game_action(ctx, &path, &form.csrf_token, act, game_page).await
}

/// `POST /games/{id}/takeback` (`action=offer|accept|decline`): casual
/// games only.
pub async fn takeback(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<DrawForm>,
) -> Result<HttpResponse, Error> {
    let f = form.into_inner();
    let action = takeback::TakebackAction::parse(&f.action)?;
    let act =
        move |conn: &mut DbConn, id, user: &User| takeback::takeback(conn, id, user, action, now());
    game_action(ctx, &path, &f.csrf_token, act, game_page).await
}

pub async fn draw(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<DrawForm>,
) -> Result<HttpResponse, Error> {
    let f = form.into_inner();
    let action = f.action;
    let act = move |conn: &mut DbConn, id, user: &User| draw::draw(conn, id, user, &action, now());
    game_action(ctx, &path, &f.csrf_token, act, game_page).await
}
