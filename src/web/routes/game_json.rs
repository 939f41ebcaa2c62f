//! A game as JSON (`/games/{id}.json`).

use crate::db::games;
use crate::db::moves::{self, MoveRow};
use crate::domain::error::Error;
use crate::domain::game_state::{GameStatus, Side};
use crate::game::restore;
use crate::web::routes::game_load::{load_game, Loaded};
use crate::web::{parse_id, Ctx};
use actix_web::{web, HttpResponse};

pub async fn json(path: web::Path<String>, ctx: Ctx) -> Result<HttpResponse, Error> {
    let id = parse_id(&path)?;
    let data = load_game(&ctx, id, |c, row| moves::of_game(c, row.id)).await?;
    let body = game_body(&data, ctx.user.as_ref().map(|u| u.id))?;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .body(body.to_string()))
}

/// A game as JSON, as `viewer` may see it (their own conditional lines, if
/// they play in it): `/games/{id}.json` and the API's game alike.
pub fn game_body(
    data: &Loaded<Vec<MoveRow>>,
    viewer: Option<i32>,
) -> Result<serde_json::Value, Error> {
    let row = &data.row;
    let variant = restore::variant_of(row)?;
    let side = |s: Side| variant.side_name(s.color());
    let name = |id: Option<i32>| id.and_then(|i| data.names.get(&i).cloned());
    let moves: Vec<serde_json::Value> = data
        .moves
        .iter()
        .map(|m| {
            serde_json::json!({
                "ply": m.ply,
                "notation": m.display,
                "coordinate": m.coordinate,
                "from": m.from_square,
                "to": m.to_square,
                "fen_after": m.fen_after,
                "comment": m.comment,
                "played_at": m.played_at.and_utc().to_rfc3339(),
                "time_used_secs": m.time_used_secs,
                "conditional": m.conditional,
            })
        })
        .collect();
    let clock = data.clock.as_ref().map(|c| {
        serde_json::json!({
            "time_control": c.control.to_string(),
            "label": c.control.label(),
            "white_left_secs": c.white.left_secs,
            "black_left_secs": c.black.left_secs,
            "white_running": c.white.running,
            "black_running": c.black.running,
            "white_on_leave": c.white.on_leave,
            "black_on_leave": c.black.on_leave,
            "deadline": c.deadline.map(|d| d.and_utc().to_rfc3339()),
        })
    });
    let mut body = serde_json::json!({
        "id": row.id,
        "variant": crate::posted::lookup::split(&row.variant).map_or(row.variant.as_str(), |(id, _)| id),
        "variant_name": variant.name(),
        "variant_version": crate::posted::lookup::split(&row.variant).map(|(_, v)| v),
        "status": row.status,
        "result": row.result,
        "reason": row.reason,
        "side_to_move": if row.status == GameStatus::Active { Some(row.turn) } else { None },
        "side_to_move_name": if row.status == GameStatus::Active { Some(side(row.turn)) } else { None },
        "fen": row.fen,
        "start_fen": row.start_fen,
        "ply": row.ply,
        "white": name(row.white_id),
        "black": name(row.black_id),
        "draw_offer": row.draw_offer,
        "created_at": row.created_at.and_utc().to_rfc3339(),
        "ended_at": row.ended_at.map(|t| t.and_utc().to_rfc3339()),
        "time_control": row.time_control,
        "clock": clock,
        "moves": moves,
    });
    body["takeback_offer"] = serde_json::json!(row.takeback_offer);
    // The ratings as PGN writes them (Elo and RatingDiff of a rated game
    // that has ended), and as the page shows them.
    let rating = |r: &crate::ratings::game_view::SideRating| {
        serde_json::json!({
            "shown": r.shown,
            "provisional": r.shown.ends_with('?'),
            "if_win_draw_loss": r.prospects.map(|p| p.map(|(_, d)| d)),
        })
    };
    body["rated"] = serde_json::json!(row.rated);
    body["white_rating"] = rating(&data.ratings.white);
    body["black_rating"] = rating(&data.ratings.black);
    body["white_elo"] = serde_json::json!(data.ratings.white.change.map(|c| c.before.whole()));
    body["black_elo"] = serde_json::json!(data.ratings.black.change.map(|c| c.before.whole()));
    body["white_rating_diff"] = serde_json::json!(data.ratings.white.change.map(|c| c.diff()));
    body["black_rating_diff"] = serde_json::json!(data.ratings.black.change.map(|c| c.diff()));
    body["events"] = data
        .events
        .iter()
        .map(|e| {
            serde_json::json!({
                "at": e.at.and_utc().to_rfc3339(),
                "kind": e.kind,
                "detail": e.detail,
                "by": name(e.user_id),
            })
        })
        .collect();
    // The viewer's own conditional lines, for a player (nobody else's).
    let player = viewer.is_some_and(|v| games::side_of(row, v).is_some());
    if player {
        body["conditional_lines"] = data
            .lines
            .iter()
            .map(|l| {
                serde_json::json!({
                    "id": l.id,
                    "line": l.text(),
                    "plies": l.plies,
                })
            })
            .collect();
    }
    Ok(body)
}
