//! `GET /games/{id}/preview?move=…&ply=…`: the confirmation step of a move,
//! on a page of its own. A move sent without its confirmation is answered
//! with a redirect here, so the page has an address of its own (reloading
//! it sends nothing) and shows only what confirming needs: the move, what
//! it costs, the board it leaves, and Confirm (with the focus) or Cancel.
//! Nothing is stored until Confirm posts the move again.

use crate::db::games;
use crate::domain::error::Error;
use crate::domain::game_state::GameStatus;
use crate::domain::ids::GameId;
use crate::game::restore;
use crate::web::routes::game_load::{drawn_for, load_game};
use crate::web::routes::game_page::{render_game, PageExtras, Preview};
use crate::web::{html, parse_id, see_other, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use percent_encoding::{utf8_percent_encode, NON_ALPHANUMERIC};
use serde::Deserialize;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PreviewQuery {
    #[serde(rename = "move")]
    text: String,
    ply: String,
    conditional: String,
}

#[derive(Template)]
#[template(path = "move_preview.html")]
struct PreviewPage {
    page: Page,
    id: GameId,
    variant_name: String,
    p: Preview,
    ply: i32,
    /// A conditional line sent with the move, carried on to Confirm.
    line_text: String,
}

/// The preview's address for `text` at `ply` (as the form sent it), with
/// the conditional `line` if any.
pub fn url(id: GameId, text: &str, ply: &str, line: &str) -> String {
    let enc = |s: &str| utf8_percent_encode(s, NON_ALPHANUMERIC).to_string();
    let mut u = format!("/games/{id}/preview?move={}", enc(text));
    if !ply.trim().is_empty() {
        u.push_str(&format!("&ply={}", enc(ply.trim())));
    }
    if !line.is_empty() {
        u.push_str(&format!("&conditional={}", enc(line)));
    }
    u
}

pub async fn show(
    ctx: Ctx,
    path: web::Path<String>,
    query: web::Query<PreviewQuery>,
) -> Result<HttpResponse, Error> {
    let id = parse_id(&path)?;
    let user = ctx.require_user()?.clone();
    let q = query.into_inner();
    let data = load_game(&ctx, id, drawn_for(ctx.state.clone(), None)).await?;
    let row = &data.row;
    let game = &data.moves.restored.game;
    let game_page = format!("/games/{id}");
    // The game moved on, or is not this player's to move: its page says how
    // it stands now.
    let seen = q.ply.trim();
    let mine = games::side_of(row, user.id);
    if (!seen.is_empty() && seen != row.ply.to_string())
        || row.status != GameStatus::Active
        || mine != Some(game.side_to_move())
        || game.outcome().is_some()
    {
        return Ok(see_other(&game_page));
    }
    if q.text.len() > crate::domain::game_state::MOVE_TEXT_MAX {
        return Err(Error::BadRequest(
            "That text is far too long to be a move.".into(),
        ));
    }
    let mut after = game.clone();
    let played = match after.play_text(&q.text) {
        Ok(p) => p,
        Err(e) => {
            let mut msg = e.to_string();
            if let Some(first) = msg.get(..1) {
                msg = first.to_uppercase() + &msg[1..];
            }
            let extras = PageExtras {
                error: Some(msg),
                move_text: crate::web::clip(&q.text, 200),
                line_text: crate::web::clip(&q.conditional, 4000),
                ..PageExtras::default()
            };
            let body = render_game(&ctx, &data, extras)?;
            return Ok(html(StatusCode::UNPROCESSABLE_ENTITY, body));
        }
    };
    let variant = restore::variant_of(row)?;
    let flipped = mine == Some(missive_rules::Color::Black);
    let page = PreviewPage {
        page: ctx.page(),
        id,
        variant_name: variant.name().to_string(),
        p: Preview::of(variant, game, played, &after, flipped),
        ply: row.ply,
        line_text: q.conditional.trim().to_string(),
    };
    Ok(html(StatusCode::OK, page.render()?))
}
