//! `GET /games/{id}/analysis`: try a line on the board, moving for both
//! sides without sending anything, then keep it as a conditional line.
//! Each step is a GET carrying the line so far (`line`) and the move to add
//! (`move`), so it works without script; the board script fills the move
//! field from clicks as on the game page.

use crate::db::games;
use crate::domain::error::Error;
use crate::domain::ids::GameId;
use crate::game::conditional;
use crate::web::views::board_svg::{self, SvgOptions};
use crate::web::views::legal_moves::LegalList;
use crate::web::{html, parse_id, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use missive_rules::Color;
use serde::Deserialize;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct AnalysisQuery {
    line: String,
    #[serde(rename = "move")]
    text: String,
}

#[derive(Template)]
#[template(path = "analysis.html")]
struct AnalysisPage {
    page: Page,
    id: GameId,
    variant_id: String,
    variant_name: String,
    /// The line so far, in the page's notation.
    line: String,
    /// The line without its last move (the "undo" link's).
    shorter: String,
    error: Option<String>,
    svg: String,
    to_move: String,
    legal: LegalList,
    /// It is the opponent's turn in the game: the line can be kept.
    can_keep: bool,
    over: Option<String>,
}

pub async fn show(
    ctx: Ctx,
    path: web::Path<String>,
    query: web::Query<AnalysisQuery>,
) -> Result<HttpResponse, Error> {
    let id = parse_id(&path)?;
    let user = ctx.require_user()?.clone();
    let state = ctx.state.clone();
    let (row, start) = ctx
        .state
        .read(move |conn| {
            let row = games::load(conn, id)?;
            let restored = state.positions.game(&row, || games::history_of(conn, id))?;
            Ok((row, restored.game.clone()))
        })
        .await?;
    let side = games::side_of(&row, user.id).ok_or_else(|| {
        Error::Forbidden("Only the two players can try lines for this game.".into())
    })?;
    // Bounded: a line has at most `LINE_PLIES_MAX` moves to play.
    let q = query.into_inner();
    let mut game = start.clone();
    let mut played: Vec<String> = Vec::new();
    let mut error = None;
    let mut last = None;
    let entries = match q.line.trim() {
        "" => Ok(Vec::new()),
        l => conditional::read_line_text(l),
    };
    match entries {
        Err(e) => error = Some(e.to_string()),
        Ok(entries) => {
            let extra = Some(q.text.trim())
                .filter(|t| !t.is_empty())
                .map(|t| (t.to_string(), None));
            for (i, (text, _)) in entries.iter().chain(extra.iter()).enumerate() {
                if i >= conditional::LINE_PLIES_MAX {
                    error = Some(format!(
                        "A line may have at most {} moves.",
                        conditional::LINE_PLIES_MAX
                    ));
                    break;
                }
                if game.outcome().is_some() {
                    error = Some("The game would be over: no move can follow.".into());
                    break;
                }
                match game.play_text(text) {
                    Ok(p) => {
                        let (from, to) = game.variant().move_squares(&p.mv);
                        last = Some((from.map(|s| s.name()), to.name()));
                        played.push(p.display);
                    }
                    Err(e) => {
                        error = Some(format!("{text}: {e}"));
                        break;
                    }
                }
            }
        }
    }
    let variant = game.variant();
    let svg = board_svg::render(
        &game.board_view(),
        &SvgOptions {
            flipped: side == Color::Black,
            last_move: last.as_ref().map(|(f, t)| (f.as_deref(), t.as_str())),
        },
    );
    let over = game.outcome().map(|o| o.describe(game.variant()));
    let legal = match over {
        Some(_) => LegalList::default(),
        None => LegalList::of_game(&game),
    };
    let page = AnalysisPage {
        page: ctx.page(),
        id,
        variant_id: variant.id().to_string(),
        variant_name: variant.name().to_string(),
        line: played.join(" "),
        shorter: played[..played.len().saturating_sub(1)].join(" "),
        error,
        svg,
        to_move: variant.side_name(game.side_to_move()).to_string(),
        legal,
        can_keep: start.side_to_move() != side && start.outcome().is_none(),
        over,
    };
    Ok(html(StatusCode::OK, page.render()?))
}
