//! `GET /help`: how to write a move, with each variant's own examples taken
//! from its start position by the rules engine, so they are always legal.

use crate::web::{html, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::HttpResponse;
use askama::Template;
use std::sync::LazyLock;

/// One variant's examples: the same moves in each notation the server reads.
pub struct VariantHelp {
    id: &'static str,
    name: &'static str,
    /// (display, coordinate, Game Courier) of a few opening moves.
    examples: Vec<(String, String, String)>,
}

#[derive(Template)]
#[template(path = "help.html")]
struct HelpPage {
    page: Page,
    variants: &'static [VariantHelp],
}

/// Worked out once: the start positions never change.
static EXAMPLES: LazyLock<Vec<VariantHelp>> = LazyLock::new(|| {
    missive_rules::variants()
        .iter()
        .map(|v| VariantHelp {
            id: v.id(),
            name: v.name(),
            examples: missive_rules::Game::new(*v, None)
                .map(|g| {
                    g.move_views()
                        .into_iter()
                        .take(3)
                        .map(|m| (m.display, m.coordinate, m.game_courier))
                        .collect()
                })
                .unwrap_or_default(),
        })
        .collect()
});

pub async fn help(ctx: Ctx) -> Result<HttpResponse, crate::domain::error::Error> {
    let page = HelpPage {
        page: ctx.page(),
        variants: &EXAMPLES,
    };
    Ok(html(StatusCode::OK, page.render()?))
}
