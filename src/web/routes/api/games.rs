//! The JSON API's routes: games, moves, draws, resignation, conditional
//! lines, players. Each act is the pages' own use case, so a refusal
//! carries the reason the page would show.

use super::{json_ok, ApiResult, ApiUser, Problem};
use crate::db::games;
use crate::db::moves;
use crate::db::users::User;
use crate::db::DbConn;
use crate::domain::codes::Coded;
use crate::domain::error::Error;
use crate::domain::game_state::GameStatus;
use crate::domain::ids::GameId;
use crate::game::play::{self, MoveOutcome};
use crate::game::{conditional, draw, records, resign};
use crate::web::routes::game_json::game_body;
use crate::web::routes::game_load::load_game_for;
use crate::web::{clip, now, parse_id, AppState};
use actix_web::http::StatusCode;
use actix_web::web;
use serde::Deserialize;
use std::sync::Arc;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct GamesQuery {
    /// A game status (`pending`, `active`, `finished`, ...).
    status: String,
    /// `1`: only games where it is the caller's move.
    my_turn: String,
}

#[derive(Deserialize)]
pub struct MoveBody {
    #[serde(rename = "move")]
    text: String,
    /// The ply of the position the move is played in (the game's `ply`
    /// when it was read); when the game has moved on, nothing is played.
    #[serde(default)]
    ply: Option<i32>,
    #[serde(default)]
    comment: Option<String>,
}

#[derive(Deserialize)]
pub struct DrawBody {
    /// `offer`, `accept` or `decline`.
    action: String,
}

#[derive(Deserialize)]
pub struct LineBody {
    line: String,
}

#[derive(Deserialize)]
pub struct DeleteLineBody {
    line_id: i32,
}

/// A game as it stands now, as `user` sees it.
async fn game_now(
    state: &Arc<AppState>,
    id: GameId,
    user: &User,
) -> Result<serde_json::Value, Error> {
    let data = load_game_for(state, id, Some(user.id), |c, row| moves::of_game(c, row.id)).await?;
    game_body(&data, Some(user.id))
}

/// `GET /api/v1/games` (`status`, `my_turn=1`): the caller's games, newest first.
pub async fn list(me: ApiUser, q: web::Query<GamesQuery>) -> ApiResult {
    let status = match q.status.trim() {
        "" => None,
        s => Some(GameStatus::from_code(s).ok_or_else(|| {
            let known: Vec<&str> = GameStatus::ALL.iter().map(|s| s.code()).collect();
            Error::BadRequest(format!(
                "There is no game status “{}”: use one of {}.",
                clip(s, 40),
                known.join(", ")
            ))
        })?),
    };
    let my_turn = match q.my_turn.trim() {
        "" | "0" => false,
        "1" => true,
        _ => return Err(Error::BadRequest("my_turn is 1 (or left out).".into()).into()),
    };
    let user_id = me.user.id;
    let (mut games, names) = me
        .state
        .read(move |conn| {
            let games = games::games_of(conn, user_id)?;
            let names = crate::db::users::player_names(conn, &games)?;
            Ok((games, names))
        })
        .await?;
    games.retain(|g| status.is_none_or(|s| g.status == s));
    if my_turn {
        games.retain(|g| games::player_to_move(g) == Some(user_id));
    }
    games.sort_by_key(|g| std::cmp::Reverse(g.id));
    let name = |id: Option<i32>| id.and_then(|i| names.get(&i).cloned());
    let base = super::base_url(&me.state);
    let listed: Vec<serde_json::Value> = games
        .iter()
        .map(|g| {
            let active = g.status == GameStatus::Active;
            serde_json::json!({
                "id": g.id,
                "variant": g.variant,
                "status": g.status,
                "white": name(g.white_id),
                "black": name(g.black_id),
                "ply": g.ply,
                "side_to_move": if active { Some(g.turn) } else { None },
                "my_turn": games::player_to_move(g) == Some(user_id),
                "draw_offer": g.draw_offer,
                "result": g.result,
                "reason": g.reason,
                "time_control": g.time_control,
                "url": format!("{base}/games/{}", g.id),
            })
        })
        .collect();
    Ok(json_ok(
        StatusCode::OK,
        &serde_json::json!({ "games": listed }),
    ))
}

/// `GET /api/v1/games/{id}`: the game, moves, clock and, to a player,
/// their own conditional lines.
pub async fn show(me: ApiUser, path: web::Path<String>) -> ApiResult {
    let id = parse_id(&path)?;
    Ok(json_ok(
        StatusCode::OK,
        &game_now(&me.state, id, &me.user).await?,
    ))
}

/// `POST /api/v1/games/{id}/move` (`{"move", "ply", "comment"}`): through
/// the pages' move path, committed before the answer (the game as it then
/// stands).
pub async fn make_move(
    me: ApiUser,
    path: web::Path<String>,
    body: web::Json<MoveBody>,
) -> ApiResult {
    me.may_play()?;
    let id = parse_id(&path)?;
    let body = body.into_inner();
    let text = move_text(&body.text, body.comment.as_deref());
    play_move(&me.state, id, &me.user, &text, body.ply).await?;
    Ok(json_ok(
        StatusCode::OK,
        &game_now(&me.state, id, &me.user).await?,
    ))
}

/// A move and its comment as the move form's text: the comment after `//`.
pub fn move_text(text: &str, comment: Option<&str>) -> String {
    match comment.map(str::trim).filter(|c| !c.is_empty()) {
        Some(c) => format!("{} // {c}", text.trim()),
        None => text.trim().to_string(),
    }
}

/// Play `text` for `user` in game `id`, committed, as the move form does
/// ([`AppState::play`] around [`play::queue_move`]).
pub async fn play_move(
    state: &Arc<AppState>,
    id: GameId,
    user: &User,
    text: &str,
    expected_ply: Option<i32>,
) -> Result<MoveOutcome, Error> {
    let (app, user, text) = (state.clone(), user.clone(), text.to_string());
    state
        .play(move |conn, unsure| {
            play::queue_move(
                conn,
                &app.writes,
                &app.positions,
                play::MoveSubmission {
                    id,
                    user: &user,
                    text: &text,
                    expected_ply,
                    commit: true,
                    unsure,
                    now: now(),
                    also: None,
                },
            )
        })
        .await?
}

/// Run a game act of the pages' use cases, then answer with the game.
async fn act(
    me: ApiUser,
    path: web::Path<String>,
    act: impl Fn(&mut DbConn, GameId, &User) -> Result<(), Error> + Clone + Send + 'static,
) -> ApiResult {
    me.may_play()?;
    let id = parse_id(&path)?;
    let user = me.user.clone();
    me.state.write(move |conn| act(conn, id, &user)).await?;
    Ok(json_ok(
        StatusCode::OK,
        &game_now(&me.state, id, &me.user).await?,
    ))
}

/// `POST /api/v1/games/{id}/draw` (`{"action": "offer" | "accept" | "decline"}`).
pub async fn draw(me: ApiUser, path: web::Path<String>, body: web::Json<DrawBody>) -> ApiResult {
    let action = body.into_inner().action;
    act(me, path, move |conn, id, user| {
        draw::draw(conn, id, user, &action, now())
    })
    .await
}

/// `POST /api/v1/games/{id}/resign`: ends the game at once (a program asks
/// its user first; the API does not ask again).
pub async fn resign(me: ApiUser, path: web::Path<String>) -> ApiResult {
    act(me, path, |conn, id, user| {
        resign::resign(conn, id, user, now())
    })
    .await
}

/// The caller's conditional lines in game `id` (none unless they play in it).
async fn lines_json(
    state: &Arc<AppState>,
    id: GameId,
    user_id: i32,
) -> Result<serde_json::Value, Error> {
    let lines = state
        .read(move |conn| {
            let row = games::load(conn, id)?;
            if games::side_of(&row, user_id).is_none() || row.status != GameStatus::Active {
                return Ok(Vec::new());
            }
            crate::db::conditional_lines::lines_of(conn, id, row.ply, Some(user_id))
        })
        .await?;
    let listed: Vec<serde_json::Value> = lines
        .iter()
        .map(|l| serde_json::json!({ "id": l.id, "line": l.text(), "plies": l.plies }))
        .collect();
    Ok(serde_json::json!({ "conditional_lines": listed }))
}

/// `GET /api/v1/games/{id}/conditional`: the caller's own lines.
pub async fn lines(me: ApiUser, path: web::Path<String>) -> ApiResult {
    let id = parse_id(&path)?;
    Ok(json_ok(
        StatusCode::OK,
        &lines_json(&me.state, id, me.user.id).await?,
    ))
}

/// `POST /api/v1/games/{id}/conditional` (`{"line"}`): 201 with the lines.
pub async fn add_line(
    me: ApiUser,
    path: web::Path<String>,
    body: web::Json<LineBody>,
) -> ApiResult {
    me.may_play()?;
    let id = parse_id(&path)?;
    let text = body.into_inner().line;
    crate::web::routes::conditional::add_line(&me.state, id, &me.user, &text).await?;
    Ok(json_ok(
        StatusCode::CREATED,
        &lines_json(&me.state, id, me.user.id).await?,
    ))
}

/// `POST /api/v1/games/{id}/conditional/delete` (`{"line_id"}`).
pub async fn delete_line(
    me: ApiUser,
    path: web::Path<String>,
    body: web::Json<DeleteLineBody>,
) -> ApiResult {
    me.may_play()?;
    let id = parse_id(&path)?;
    let line_id = body.into_inner().line_id;
    let user = me.user.clone();
    me.state
        .write(move |conn| conditional::delete_line(conn, id, &user, line_id))
        .await?;
    Ok(json_ok(
        StatusCode::OK,
        &lines_json(&me.state, id, me.user.id).await?,
    ))
}

/// `GET /api/v1/users/{name}`: a player's public profile.
pub async fn user(me: ApiUser, path: web::Path<String>) -> ApiResult {
    let wanted = clip(&path.into_inner(), 60);
    let w = wanted.clone();
    let found = me
        .state
        .read(move |conn| {
            let Some(user) = crate::db::users::find_by_name(conn, &w)? else {
                return Ok(None);
            };
            let results = records::results_by_variant(conn, user.id)?;
            Ok(Some((user, results)))
        })
        .await?;
    let (user, results) = found.ok_or_else(|| {
        Problem(Error::NotFound(format!(
            "There is no player named “{wanted}”."
        )))
    })?;
    let base = super::base_url(&me.state);
    let results: Vec<serde_json::Value> = results
        .iter()
        .map(|r| {
            serde_json::json!({
                "variant": r.variant,
                "wins": r.wins,
                "losses": r.losses,
                "draws": r.draws,
                "playing": r.playing,
            })
        })
        .collect();
    let body = serde_json::json!({
        "username": user.username,
        "joined": user.created_at.format("%Y-%m-%d").to_string(),
        "results": results,
        "profile": format!("{base}/users/{}", user.username),
        "games_pgn": format!("{base}/users/{}/games.pgn", user.username),
    });
    Ok(json_ok(StatusCode::OK, &body))
}
