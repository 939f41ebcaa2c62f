//! Play by link: the "your turn" mail's signed link lets that player make
//! that move in that game without logging in, and nothing else.

use crate::accounts::links::{self, LinkProblem, PlayLink};
use crate::db::games;
use crate::db::moves;
use crate::domain::error::{Error, MovedOn};
use crate::domain::ids::GameId;
use crate::game::play;
use crate::game::play::MoveOutcome;
use crate::game::restore;
use crate::web::routes::game_page::{clock_lines, ClockLines, Preview};
use crate::web::views::board_svg::SvgOptions;
use crate::web::views::board_text;
use crate::web::{html, now, parse_id, see_other, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use missive_rules::Color;
use serde::Deserialize;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct LinkQuery {
    u: String,
    ply: String,
    exp: String,
    sig: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct LinkMoveForm {
    csrf_token: String,
    u: String,
    ply: String,
    exp: String,
    sig: String,
    #[serde(rename = "move")]
    text: String,
    /// `1`: show the position after the move, and store nothing yet.
    preview: String,
}

#[derive(Template)]
#[template(path = "play_link.html")]
struct PlayLinkPage {
    page: Page,
    id: GameId,
    player: String,
    opponent: String,
    variant_name: String,
    variant_id: &'static str,
    svg: String,
    moves: String,
    legal: std::sync::Arc<crate::web::views::legal_moves::LegalList>,
    /// A legal move, for the field's placeholder.
    example: String,
    /// The move asked to be previewed, with its confirm form.
    preview: Option<Preview>,
    error: Option<String>,
    move_text: String,
    /// The time control, the player's and the opponent's time left, and the deadline.
    clock: Option<ClockLines>,
    mine_is_black: bool,
    u: i32,
    ply: i32,
    exp: i64,
    sig: String,
    legend: String,
}

#[derive(Template)]
#[template(path = "link_refused.html")]
struct RefusedPage {
    page: Page,
    message: String,
    id: GameId,
}

/// A link's fields; anything unreadable is treated as a tampered link.
fn read_link(id: GameId, u: &str, ply: &str, exp: &str) -> Option<PlayLink> {
    Some(PlayLink {
        game: id,
        user: u.trim().parse().ok()?,
        ply: ply.trim().parse().ok()?,
        expires: exp.trim().parse().ok()?,
    })
}

fn refused(ctx: &Ctx, id: GameId, problem: LinkProblem) -> Result<HttpResponse, Error> {
    let status = match problem {
        LinkProblem::Tampered | LinkProblem::Disabled => StatusCode::FORBIDDEN,
        LinkProblem::Expired | LinkProblem::Used => StatusCode::GONE,
    };
    let page = RefusedPage {
        page: ctx.page(),
        message: problem.message().to_string(),
        id,
    };
    Ok(html(status, page.render()?))
}

fn render_page(
    ctx: &Ctx,
    data: &Checked,
    link: &PlayLink,
    sig: &str,
    error: Option<String>,
    move_text: String,
    preview: Option<(missive_rules::Played, Box<missive_rules::Game>)>,
) -> Result<HttpResponse, Error> {
    let row = &data.row;
    let variant = restore::variant_of(row)?;
    let game = &data.restored.game;
    let flipped = games::side_of(row, link.user) == Some(Color::Black);
    let svg = board_text::board_and_text(
        &game.board_view(),
        &SvgOptions {
            flipped,
            last_move: data.last.as_ref().map(|(f, t)| (f.as_deref(), t.as_str())),
        },
    );
    let legal = crate::web::views::legal_moves::of_restored(&data.restored);
    let page = PlayLinkPage {
        page: ctx.page(),
        id: row.id,
        player: data.player.clone(),
        opponent: data.opponent.clone(),
        variant_name: variant.name().to_string(),
        variant_id: variant.id(),
        svg,
        moves: data.moves.clone(),
        example: legal
            .moves
            .first()
            .map(|m| m.display.clone())
            .unwrap_or_default(),
        legal,
        error: error.clone(),
        move_text,
        clock: data
            .clock
            .as_ref()
            .map(|c| clock_lines(c, crate::web::viewer_zone(Some(&data.user)))),
        mine_is_black: flipped,
        preview: preview.map(|(played, after)| Preview::of(variant, game, played, &after, flipped)),
        u: link.user,
        ply: link.ply,
        exp: link.expires,
        sig: sig.to_string(),
        legend: crate::web::views::legend::legend_html(variant, Some(&game.board_view())),
    };
    let status = if error.is_some() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    Ok(html(status, page.render()?))
}

struct Checked {
    row: games::GameRow,
    /// The game at its current ply, from the position cache.
    restored: std::sync::Arc<crate::game::positions::Restored>,
    user: crate::db::users::User,
    player: String,
    opponent: String,
    moves: String,
    last: Option<(Option<String>, String)>,
    clock: Option<crate::domain::clock::GameClock>,
}

async fn check(
    ctx: &Ctx,
    link: PlayLink,
    sig: String,
) -> Result<Result<Checked, LinkProblem>, Error> {
    let secret = ctx.state.secret.clone();
    let state = ctx.state.clone();
    ctx.state
        .read(move |conn| {
            let (row, user) = match links::check_play_link(conn, &secret, &link, &sig, now())? {
                Ok(x) => x,
                Err(p) => return Ok(Err(p)),
            };
            let restored = state
                .positions
                .game(&row, || games::history_of(conn, row.id))?;
            let moves = moves::of_game(conn, row.id)?;
            let ids: Vec<i32> = [row.white_id, row.black_id].into_iter().flatten().collect();
            let names = crate::db::users::user_names(conn, &ids)?;
            let opponent_id = if row.white_id == Some(user.id) {
                row.black_id
            } else {
                row.white_id
            };
            let opponent = opponent_id
                .and_then(|i| names.get(&i).cloned())
                .unwrap_or_default();
            let last = moves
                .last()
                .map(|m| (m.from_square.clone(), m.to_square.clone()));
            let moves = moves
                .iter()
                .map(|m| m.display.as_str())
                .collect::<Vec<_>>()
                .join(" ");
            let clock = crate::game::clock::view(conn, &row, now())?;
            Ok(Ok(Checked {
                restored,
                clock,
                player: user.username.clone(),
                row,
                user,
                opponent,
                moves,
                last,
            }))
        })
        .await
}

pub async fn show(
    ctx: Ctx,
    path: web::Path<String>,
    query: web::Query<LinkQuery>,
) -> Result<HttpResponse, Error> {
    let id = parse_id(&path)?;
    let q = query.into_inner();
    let Some(link) = read_link(id, &q.u, &q.ply, &q.exp) else {
        return refused(&ctx, id, LinkProblem::Tampered);
    };
    match check(&ctx, link.clone(), q.sig.clone()).await? {
        Ok(data) => render_page(&ctx, &data, &link, &q.sig, None, String::new(), None),
        Err(p) => refused(&ctx, id, p),
    }
}

pub async fn play(
    ctx: Ctx,
    path: web::Path<String>,
    form: web::Form<LinkMoveForm>,
) -> Result<HttpResponse, Error> {
    let id = parse_id(&path)?;
    ctx.check_csrf(&form.csrf_token)?;
    let f = form.into_inner();
    let Some(link) = read_link(id, &f.u, &f.ply, &f.exp) else {
        return refused(&ctx, id, LinkProblem::Tampered);
    };
    let data = match check(&ctx, link.clone(), f.sig.clone()).await? {
        Ok(d) => d,
        Err(p) => return refused(&ctx, id, p),
    };
    let ply = link.ply;
    let commit = f.preview.trim() != "1";
    let (state, user, text) = (ctx.state.clone(), data.user.clone(), f.text.clone());
    let result = ctx
        .state
        .play(move |conn, unsure| {
            play::queue_move(
                conn,
                &state.writes,
                &state.positions,
                play::MoveSubmission {
                    id,
                    user: &user,
                    text: &text,
                    expected_ply: Some(ply),
                    commit,
                    unsure,
                    now: now(),
                    also: None,
                },
            )
        })
        .await?;
    match result {
        // The game page says the move was played (issue 64, finding 6).
        Ok(MoveOutcome::Committed { .. }) => {
            Ok(see_other(&format!("/games/{id}?played={}", ply + 1)))
        }
        Ok(MoveOutcome::Preview { played, after }) => render_page(
            &ctx,
            &data,
            &link,
            &f.sig,
            None,
            crate::web::clip(&f.text, 200),
            Some((played, after)),
        ),
        Err(Error::Invalid(msg) | Error::AmbiguousMove(msg)) => render_page(
            &ctx,
            &data,
            &link,
            &f.sig,
            Some(msg),
            crate::web::clip(&f.text, 200),
            None,
        ),
        // Too late: the game was just lost on time (the page says so).
        Err(e @ Error::MovedOn(MovedOn::TimeRanOut | MovedOn::FlagFell)) => Err(e),
        // Another request played this ply first: the link is used.
        Err(Error::Conflict(_) | Error::MovedOn(MovedOn::LinesChanged)) => {
            refused(&ctx, id, LinkProblem::Used)
        }
        Err(e) => Err(e),
    }
}
