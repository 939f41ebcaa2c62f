//! The forfeit rules' acts on a game: claiming a win on time (asked first,
//! as resigning is).

use crate::clocks::claim;
use crate::db::users::User;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::ids::GameId;
use crate::web::routes::game_acts::{asking, game_action, game_page, ResignForm};
use crate::web::{html, now, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

#[derive(Template)]
#[template(path = "claim.html")]
struct ClaimPage {
    page: Page,
    id: GameId,
    variant_name: String,
    opponent: String,
}

/// `POST /games/{id}/claim`: a win on time ends the game, so it is claimed
/// only when confirmed (`confirm=1`); without that the answer is a page that
/// asks. Whether the win may be claimed is checked before asking.
pub async fn claim(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<ResignForm>,
) -> Result<HttpResponse, Error> {
    if form.confirm.trim() != "1" {
        let (id, variant_name, opponent) = asking(&ctx, &path, &form.csrf_token, |row, user| {
            Ok(claim::claim_refused(row, user)?.color())
        })
        .await?;
        let page = ClaimPage {
            page: ctx.page(),
            id,
            variant_name,
            opponent,
        };
        return Ok(html(StatusCode::OK, page.render()?));
    }
    let act = |conn: &mut DbConn, id, user: &User| claim::claim(conn, id, user, now());
    game_action(ctx, &path, &form.csrf_token, act, game_page).await
}
