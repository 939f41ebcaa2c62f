//! The game page: board, whose turn, clocks, the move list and form, and
//! the page of all moves.

use crate::db::games;
use crate::db::moves;
use crate::db::users::User;
use crate::domain::clock::{GameClock, SideClock};
use crate::domain::error::Error;
use crate::domain::game_state::{GameStatus, Side};
use crate::domain::ids::GameId;
use crate::domain::time_control as clock;
use crate::game::restore;
use crate::web::routes::game_load::{drawn_for, load_game, read_game, shown_ply, Loaded};
use crate::web::views::board_svg::SvgOptions;
use crate::web::views::legal_moves::{self, LegalList, LegalMove};
use crate::web::views::move_lines::{move_lines, ListWindow, MoveLine};
use crate::web::views::pictures::PictureOf;
use crate::web::views::{board_text, move_warning};
use crate::web::{html, parse_id, Ctx, Page, Session};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use missive_rules::{BoardView, Color};
use serde::Deserialize;
use std::sync::Arc;

/// Where the replay links lead (`?ply=N`).
pub struct Replay {
    shown: i32,
    total: i32,
    prev: i32,
    next: i32,
}

/// A move not stored yet, shown for the player to confirm.
pub struct Preview {
    pub svg: String,
    pub display: String,
    /// What the confirm form sends: the move's coordinate form, and its
    /// `//` comment, which would be lost otherwise.
    pub confirm_text: String,
    pub comment: Option<String>,
    /// What the move costs that the player may not have seen (a piece on
    /// a trap, the game).
    pub warnings: Vec<String>,
}

impl Preview {
    /// The position after `played`, drawn from the player's side.
    pub fn of(
        variant: &dyn missive_rules::Variant,
        before: &missive_rules::Game,
        played: missive_rules::Played,
        after: &missive_rules::Game,
        flipped: bool,
    ) -> Preview {
        let (from, target) = variant.move_squares(&played.mv);
        let from = from.map(|s| s.name());
        let to = target.name();
        Preview {
            warnings: move_warning::warnings(before, &played.mv, after, target),
            svg: board_text::board_and_text(
                &after.board_view(),
                &SvgOptions {
                    flipped,
                    last_move: Some((from.as_deref(), to.as_str())),
                },
            ),
            confirm_text: match &played.comment {
                Some(c) => format!("{} // {c}", played.coordinate),
                None => played.coordinate,
            },
            display: played.display,
            comment: played.comment,
        }
    }
}

#[derive(Template)]
#[template(path = "game.html")]
struct GamePage<'a> {
    page: Page,
    id: GameId,
    variant_id: String,
    variant_name: String,
    side_names: (String, String),
    white: String,
    black: String,
    /// Which sides have a player (their names link to their profiles).
    seated: (bool, bool),
    status_line: String,
    result: Option<String>,
    error: Option<String>,
    svg: Arc<str>,
    rows: Vec<MoveLine<'a>>,
    can_move: bool,
    ply: i32,
    move_text: String,
    example: String,
    legal: Arc<LegalList>,
    can_answer_challenge: bool,
    can_decline: bool,
    decline_label: String,
    playing: bool,
    draw_offer_from_opponent: bool,
    draw_offered_by_me: bool,
    fen: String,
    /// The piece legend, with what the shown position holds in hand.
    legend: String,
    replay: Replay,
    listed: ListWindow,
    /// The viewer's private note, when logged in.
    note: Option<String>,
    /// The tournament (id, name) and round this game is part of.
    tournament: Option<(i32, String, Option<i32>)>,
    logged_in: bool,
    clock: Option<ClockLines>,
    /// The viewer's conditional lines, while they play the game.
    conditional: Option<ConditionalBox>,
    /// Takebacks may be asked for (a casual game the viewer plays).
    takeback_allowed: bool,
    takeback_from_opponent: bool,
    takeback_by_me: bool,
    /// The viewer has a move of theirs to ask to take back.
    can_take_back: bool,
    /// The takebacks given, as the game's events say them.
    takebacks: Vec<String>,
    rated: bool,
    /// Why a game asked for rated is played unrated, in words.
    unrated_why: Option<String>,
    ratings: crate::ratings::game_view::GameRatings,
    /// The game's event history, oldest first.
    history: Vec<crate::web::views::history::HistoryLine>,
    /// "clocks extended by 3 h 12 min after a service outage on …".
    outages: Vec<String>,
    /// The viewer may claim the win on time (their opponent's flag fell).
    can_claim: bool,
    /// "Move played: e4": the move a play link just played.
    played: Option<String>,
    /// A finished game's player: the same settings again, and the next game.
    after: Option<AfterGame>,
}

/// What a finished game offers its player.
pub struct AfterGame {
    rematch: Option<crate::game::rematch::Rematch>,
    next_game: Option<GameId>,
}

/// The viewer's conditional lines (id, text) and what they may do with them.
pub struct ConditionalBox {
    lines: Vec<(i32, String)>,
    /// A line may be added now: it is the opponent's turn.
    can_add: bool,
    /// The text of a line that was refused, to correct.
    line_text: String,
}

/// The clocks as the game page (and the play-link page) shows them.
pub struct ClockLines {
    pub control: String,
    pub white: String,
    pub black: String,
    white_running: bool,
    black_running: bool,
    pub deadline: Option<String>,
}

/// The clocks as a page shows them, the deadline in the viewer's `zone`.
pub fn clock_lines(c: &GameClock, zone: chrono_tz::Tz) -> ClockLines {
    let line = |s: &SideClock| {
        let mut t = clock::describe(s.left_secs);
        if s.on_leave {
            t.push_str(" (on leave: stopped)");
        } else if s.weekend {
            t.push_str(" (weekend: stopped)");
        } else if s.running {
            t.push_str(" (running)");
        }
        t
    };
    ClockLines {
        control: match c.weekends_free {
            true => format!("{}, weekends free", c.control.label()),
            false => c.control.label(),
        },
        white: line(&c.white),
        black: line(&c.black),
        white_running: c.white.running,
        black_running: c.black.running,
        deadline: c
            .deadline
            .map(|d| crate::domain::week::local_minute(d, zone)),
    }
}

#[derive(Default)]
pub struct PageExtras {
    pub error: Option<String>,
    pub move_text: String,
    /// `?ply=N`: show the position after N plies (clamped to the game).
    pub view_ply: Option<i64>,
    /// A conditional line that was refused, shown again to correct.
    pub line_text: String,
    /// The ply of a move just played, said at the top of the page.
    pub played: Option<i32>,
}

/// Render the game page; a panic in the rules engine becomes an error page.
pub fn render_game(ctx: &Ctx, data: &Loaded, extras: PageExtras) -> Result<String, Error> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        render_game_inner(ctx, data, extras)
    }))
    .map_err(|_| Error::internal(format!("panic while drawing game {}", data.row.id)))?
}

fn render_game_inner(ctx: &Ctx, data: &Loaded, extras: PageExtras) -> Result<String, Error> {
    let row = &data.row;
    let variant = restore::variant_of(row)?;
    let game = &data.moves.restored.game;
    let viewer: Option<&User> = ctx.user.as_ref();
    let my_side = viewer.and_then(|u| games::side_of(row, u.id));
    let sides = [
        variant.side_name(Color::White).to_string(),
        variant.side_name(Color::Black).to_string(),
    ];
    let side_name = |c: Color| match c {
        Color::Black => sides[1].clone(),
        _ => sides[0].clone(),
    };
    let name = |id: Option<i32>| {
        id.and_then(|i| data.names.get(&i).cloned())
            .unwrap_or_else(|| "(open seat)".into())
    };
    let flipped = my_side == Some(Color::Black);
    // Replay: the position after `shown` plies comes from the stored FEN of
    // that ply (the start FEN for 0), never from replaying the moves; the
    // window read with the game holds that ply.
    let total = row.ply;
    let shown = shown_ply(extras.view_ply, total);
    let replaying = shown < total;
    let last = match shown {
        0 => None,
        n => Some(
            data.moves
                .listed
                .iter()
                .find(|m| m.ply == n)
                .ok_or_else(|| Error::internal(format!("game {} has no ply {n}", row.id)))?,
        ),
    };
    let shown_fen = match last {
        None => row.start_fen.clone(),
        Some(m) => m.fen_after.clone(),
    };
    let picture = PictureOf {
        variant,
        fen: &shown_fen,
        flipped,
        last_move: last.map(|m| (m.from_square.as_deref(), m.to_square.as_str())),
    };
    // One view of the shown position, for the picture (when not kept) and
    // the legend's pieces in hand.
    let shown_view: Result<BoardView, missive_rules::FenError> = match replaying {
        true => variant
            .parse_fen(&shown_fen)
            .map(|p| BoardView::new(variant, &p)),
        false => Ok(game.board_view()),
    };
    let svg = ctx
        .state
        .pictures
        .picture(&picture, || shown_view.as_ref().map_err(Clone::clone))
        .map_err(|e| Error::internal(format!("game {} ply {shown} has a bad FEN: {e}", row.id)))?;
    let legend = crate::web::views::legend::legend_html(variant, shown_view.as_ref().ok());
    let rows = move_lines(&data.moves.listed, row.black_id, shown);
    let listed = ListWindow {
        first: data.moves.listed.first().map(|m| m.ply).unwrap_or(1),
        last: data.moves.listed.last().map(|m| m.ply).unwrap_or(0),
        total,
    };
    let to_move = game.side_to_move();
    let can_move = row.status == GameStatus::Active
        && my_side == Some(to_move)
        && game.outcome().is_none()
        && !replaying;
    let status_line = match row.status {
        GameStatus::Pending => match row.opponent_id {
            Some(o) => format!("Challenge: waiting for {} to accept.", name(Some(o))),
            None => "Open seek: anyone may accept.".to_string(),
        },
        GameStatus::Active => {
            let mut s = if can_move {
                format!("Your turn ({}).", side_name(to_move))
            } else {
                format!("{} to move.", side_name(to_move))
            };
            if game.in_check() {
                s.push_str(" Check!");
            }
            s
        }
        GameStatus::Declined => "The challenge was declined.".into(),
        GameStatus::Withdrawn => "The challenge was withdrawn.".into(),
        GameStatus::Finished => "The game is over.".into(),
    };
    let result = games::describe_result(row, [&sides[0], &sides[1]])
        .map(|r| format!("{} ({r})", row.result.map(|r| r.code()).unwrap_or_default()));
    let legal = if can_move {
        legal_moves::of_restored(&data.moves.restored)
    } else {
        Arc::default()
    };
    let example = legal
        .moves
        .first()
        .map(|m: &LegalMove| m.display.clone())
        .unwrap_or_default();
    let uid = viewer.map(|u| u.id);
    let pending = row.status == GameStatus::Pending;
    let can_answer_challenge = pending
        && uid.is_some()
        && uid != Some(row.challenger_id)
        && (row.opponent_id.is_none() || row.opponent_id == uid);
    let can_decline =
        pending && uid.is_some() && (row.opponent_id == uid || uid == Some(row.challenger_id));
    let decline_label = if uid == Some(row.challenger_id) {
        "Withdraw challenge"
    } else {
        "Decline challenge"
    };
    let playing = row.status == GameStatus::Active && my_side.is_some();
    let mine = my_side.map(Side::from);
    let theirs = mine.map(Side::opponent);
    let page = GamePage {
        page: ctx.page(),
        id: row.id,
        variant_id: variant.id().to_string(),
        variant_name: variant.name().to_string(),
        side_names: (sides[0].clone(), sides[1].clone()),
        white: name(row.white_id),
        black: name(row.black_id),
        seated: (row.white_id.is_some(), row.black_id.is_some()),
        status_line,
        result,
        error: extras.error,
        svg,
        rows,
        can_move,
        ply: row.ply,
        move_text: extras.move_text,
        example,
        legal,
        can_answer_challenge,
        can_decline,
        decline_label: decline_label.into(),
        playing,
        draw_offer_from_opponent: playing && row.draw_offer == theirs,
        draw_offered_by_me: playing && row.draw_offer == mine,
        legend,
        fen: shown_fen,
        replay: Replay {
            shown,
            total,
            prev: (shown - 1).max(0),
            next: (shown + 1).min(total),
        },
        listed,
        note: data.note.clone(),
        tournament: data
            .tournament
            .clone()
            .map(|(id, name)| (id, name, row.round)),
        logged_in: viewer.is_some(),
        clock: data
            .clock
            .as_ref()
            .map(|c| clock_lines(c, crate::web::viewer_zone(viewer))),
        conditional: playing.then(|| ConditionalBox {
            lines: data.lines.iter().map(|l| (l.id, l.text())).collect(),
            can_add: my_side.is_some_and(|s| s != to_move) && game.outcome().is_none(),
            line_text: extras.line_text,
        }),
        takeback_allowed: playing && crate::game::takeback::refused(row).is_none(),
        takeback_from_opponent: playing && row.takeback_offer == theirs,
        takeback_by_me: playing && row.takeback_offer == mine,
        can_take_back: data.can_take_back,
        takebacks: data
            .events
            .iter()
            .filter(|e| e.kind == crate::domain::game_event::EventKind::Takeback)
            .map(|e| format!("{} ({})", e.detail, e.at.format("%Y-%m-%d %H:%M UTC")))
            .collect(),
        rated: row.rated,
        unrated_why: row.unrated_reason.map(|r| r.words()),
        ratings: data.ratings.clone(),
        history: crate::web::views::history::lines(&data.events, &data.names),
        outages: crate::web::views::history::outages(&data.events),
        can_claim: playing && row.flag_fell_side.is_some_and(|s| Some(s) == theirs),
        played: extras.played.and_then(|n| {
            data.moves
                .listed
                .iter()
                .find(|m| m.ply == n)
                .map(|m| m.display.clone())
        }),
        after: match (row.status, mine) {
            (GameStatus::Finished, Some(side)) => Some(AfterGame {
                rematch: games::opponent_of(row, uid.unwrap_or_default())
                    .and_then(|o| data.names.get(&o).cloned())
                    .map(|o| crate::game::rematch::Rematch::of(row, side, o))
                    .transpose()?,
                next_game: data.next_game,
            }),
            _ => None,
        },
    };
    // Room for the whole page at once: askama's own guess is the template's
    // text alone, and growing to the board, the legal moves and the legend
    // copied the page over several times.
    let mut out = String::with_capacity(
        GamePage::SIZE_HINT + page.svg.len() + page.legal.items.len() + page.legend.len() + 4096,
    );
    page.render_into(&mut out)?;
    Ok(out)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ShowQuery {
    ply: String,
    /// `?played=N`: the player's move N was just played (from a play link).
    played: String,
}

/// Read `?ply=`: a number, clamped later to the game (negative is the start,
/// too large is the last ply); anything else is a 400, never a 500.
fn parse_ply(raw: &str) -> Result<Option<i64>, Error> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(None);
    }
    let (negative, digits) = match raw.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, raw.strip_prefix('+').unwrap_or(raw)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::BadRequest(format!(
            "The ply “{}” is not a number.",
            crate::web::clip(raw, 20)
        )));
    }
    let n = digits.parse::<i64>().unwrap_or(i64::MAX);
    Ok(Some(if negative { 0 } else { n }))
}

pub async fn show(
    session: Session,
    path: web::Path<String>,
    query: web::Query<ShowQuery>,
) -> Result<HttpResponse, Error> {
    let id = parse_id(&path)?;
    let view_ply = parse_ply(&query.ply)?;
    let state = session.state().clone();
    let window = drawn_for(state.clone(), view_ply);
    let reads = state.clone();
    let (ctx, data) = session
        .reading_with_user(move |conn, user| {
            read_game(conn, &reads, id, user.map(|u| u.id), window.clone())
        })
        .await?;
    let data = data?;
    let body = render_game(
        &ctx,
        &data,
        PageExtras {
            view_ply,
            played: query.played.trim().parse().ok(),
            ..PageExtras::default()
        },
    )?;
    Ok(html(StatusCode::OK, body))
}

#[derive(Template)]
#[template(path = "game_moves.html")]
struct MovesPage<'a> {
    page: Page,
    id: GameId,
    variant_name: String,
    white: String,
    black: String,
    rows: Vec<MoveLine<'a>>,
    total: i32,
}

/// `GET /games/{id}/moves`: every move of the game, each a link to its ply
/// (the game page lists only a window of a long game).
pub async fn all_moves(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, Error> {
    let id = parse_id(&path)?;
    let data = load_game(&ctx, id, |c, row| moves::between(c, row.id, 1, row.ply)).await?;
    let row = &data.row;
    let name = |id: Option<i32>| {
        id.and_then(|i| data.names.get(&i).cloned())
            .unwrap_or_else(|| "(open seat)".into())
    };
    let page = MovesPage {
        page: ctx.page(),
        id: row.id,
        variant_name: restore::variant_of(row)?.name().to_string(),
        white: name(row.white_id),
        black: name(row.black_id),
        rows: move_lines(&data.moves, row.black_id, -1),
        total: row.ply,
    };
    Ok(html(StatusCode::OK, page.render()?))
}
