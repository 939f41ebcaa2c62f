use crate::domain::error::Error;
use crate::domain::game_state::{GameStatus, Side};
use crate::domain::time_control::utc_minute;
use crate::game::rows;
use crate::web::views::variant_name;
use crate::web::{db_read, html, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;

fn variant_list() -> Vec<(String, String)> {
    missive_rules::variants()
        .iter()
        .map(|v| (v.id().to_string(), v.name().to_string()))
        .collect()
}

#[derive(Template, WebTemplate)]
#[template(path = "landing.html")]
pub struct Landing {
    page: Page,
    variants: Vec<(String, String)>,
}

pub struct GameLine {
    pub id: i32,
    pub variant: String,
    pub opponent: String,
    pub note: String,
    /// What needs the player's eye first: a draw offer, the opponent's move.
    pub flag: Option<&'static str>,
    /// The opponent's rating in the variant (`1500?`), and whether the game is rated.
    pub rating: String,
    pub rated: bool,
}

#[derive(Template)]
#[template(path = "dashboard.html")]
struct Dashboard {
    page: Page,
    your_turn: Vec<GameLine>,
    challenges: Vec<GameLine>,
    waiting: Vec<GameLine>,
    seeks: Vec<GameLine>,
    finished: Vec<GameLine>,
    confirm_moves: bool,
}

pub async fn home(ctx: Ctx) -> Result<HttpResponse, Error> {
    let Some(user) = ctx.user.clone() else {
        let page = Landing {
            page: ctx.page(),
            variants: variant_list(),
        };
        return Ok(html(StatusCode::OK, page.render()?));
    };
    let uid = user.id;
    let (mut mine, seeks, names, clocks_left, ratings) = db_read(&ctx.state, move |conn| {
        let mine = rows::games_of(conn, uid)?;
        // Time left and deadline where it is the user's turn on a clock
        // (their leave read once for all those games).
        let mut clocks_left = std::collections::HashMap::new();
        let now = crate::web::now();
        let booked = crate::clocks::state::booked_leave(conn, uid)?;
        for g in mine.iter().filter(|g| rows::player_to_move(g) == Some(uid)) {
            if let Some(m) = crate::clocks::state::mover_clock_with(g, &booked) {
                clocks_left.insert(g.id, (m.left(now).max(0), Some(m.deadline)));
            }
        }
        let own = crate::ratings::read::table_of(conn, &[uid], now)?;
        let seeks = rows::open_seeks(conn, uid, &own)?;
        let mut ids: Vec<i32> = mine
            .iter()
            .chain(seeks.iter())
            .flat_map(|g| [Some(g.challenger_id), g.opponent_id, g.white_id, g.black_id])
            .flatten()
            .collect();
        ids.sort_unstable();
        ids.dedup();
        let names = rows::user_names(conn, &ids)?;
        let ratings = crate::ratings::read::table_of(conn, &ids, now)?;
        Ok((mine, seeks, names, clocks_left, ratings))
    })
    .await?;
    let name = |id: Option<i32>| -> String {
        id.and_then(|i| names.get(&i).cloned())
            .unwrap_or_else(|| "anyone".to_string())
    };
    let other = |g: &crate::db::models::GameRow| {
        if g.challenger_id == uid {
            g.opponent_id
        } else {
            Some(g.challenger_id)
        }
    };
    // Least time left first (games without a clock after), then longest waiting.
    mine.sort_by_key(|g| {
        (
            clocks_left.get(&g.id).map_or(i64::MAX, |c| c.0),
            g.updated_at,
        )
    });
    let mut d = Dashboard {
        page: ctx.page(),
        your_turn: vec![],
        challenges: vec![],
        waiting: vec![],
        seeks: vec![],
        finished: vec![],
        confirm_moves: user.confirm_moves,
    };
    let mut finished: Vec<_> = Vec::new();
    for g in &mine {
        let theirs = rows::side_of(g, uid).map(|c| Side::from(c).opponent());
        let flag = if theirs.is_some() && g.draw_offer == theirs {
            Some("draw offered")
        } else if g.ply > 0 && rows::player_to_move(g) == Some(uid) {
            Some("they moved")
        } else {
            None
        };
        let line = GameLine {
            id: g.id,
            variant: variant_name(&g.variant),
            opponent: name(other(g)),
            note: String::new(),
            flag,
            rating: other(g).map_or_else(String::new, |o| ratings.shown(o, &g.variant)),
            rated: g.rated,
        };
        match g.status {
            GameStatus::Active if rows::player_to_move(g) == Some(uid) => {
                d.your_turn.push(GameLine {
                    note: match clocks_left.get(&g.id) {
                        Some((left, Some(deadline))) => format!(
                            "{} left (deadline {}), waiting since {}",
                            crate::domain::time_control::describe(*left),
                            utc_minute(*deadline),
                            utc_minute(g.updated_at)
                        ),
                        _ => format!("waiting since {}", utc_minute(g.updated_at)),
                    },
                    ..line
                })
            }
            GameStatus::Active => d.waiting.push(GameLine {
                note: format!("their move since {}", utc_minute(g.updated_at)),
                ..line
            }),
            GameStatus::Pending if g.challenger_id == uid => d.waiting.push(GameLine {
                note: "challenge not yet accepted".into(),
                ..line
            }),
            GameStatus::Pending => d.challenges.push(GameLine {
                note: format!("sent {}", utc_minute(g.created_at)),
                ..line
            }),
            _ => finished.push((g.ended_at.unwrap_or(g.updated_at), g, line)),
        }
    }
    finished.sort_by_key(|f| std::cmp::Reverse(f.0));
    for (ended, g, line) in finished.into_iter().take(100) {
        let v = missive_rules::variant(&g.variant);
        let sides = v
            .map(|v| {
                [
                    v.side_name(missive_rules::Color::White),
                    v.side_name(missive_rules::Color::Black),
                ]
            })
            .unwrap_or(["White", "Black"]);
        let what = rows::describe_result(g, sides).unwrap_or_else(|| g.status.to_string());
        d.finished.push(GameLine {
            note: format!("{what}, {}", utc_minute(ended)),
            ..line
        });
    }
    for g in &seeks {
        d.seeks.push(GameLine {
            id: g.id,
            variant: variant_name(&g.variant),
            opponent: name(Some(g.challenger_id)),
            note: match (g.rating_min, g.rating_max) {
                (None, None) => format!("they play {}", g.challenger_color),
                _ => format!(
                    "they play {}; for players rated {}",
                    g.challenger_color,
                    crate::game::challenge::range_words(g)
                ),
            },
            flag: None,
            rating: ratings.shown(g.challenger_id, &g.variant),
            rated: g.rated,
        });
    }
    Ok(html(StatusCode::OK, d.render()?))
}

#[derive(Template, WebTemplate)]
#[template(path = "variants.html")]
pub struct VariantsPage {
    page: Page,
    groups: Vec<crate::web::routes::variant_groups::Group>,
    q: String,
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
pub struct VariantsQuery {
    /// A word to find variants by (name or family).
    q: String,
}

/// `GET /variants`: every variant by family, or those a word finds.
pub async fn variants(ctx: Ctx, query: web::Query<VariantsQuery>) -> VariantsPage {
    let q = crate::web::clip(query.q.trim(), 40);
    VariantsPage {
        page: ctx.page(),
        groups: crate::web::routes::variant_groups::groups(&q, ""),
        q,
    }
}

#[derive(Template)]
#[template(path = "variant.html")]
struct VariantPage {
    page: Page,
    id: String,
    name: String,
    family: &'static str,
    width: u8,
    height: u8,
    start_fen: String,
    paragraphs: Vec<String>,
}

pub async fn variant(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, Error> {
    let id = path.into_inner();
    let v = missive_rules::variant(&id).ok_or_else(|| {
        Error::NotFound(format!(
            "There is no variant “{}”.",
            crate::web::clip(&id, 40)
        ))
    })?;
    let geometry = v.geometry();
    let paragraphs = v
        .rules_text()
        .split("\n\n")
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect();
    let page = VariantPage {
        page: ctx.page(),
        id: v.id().to_string(),
        name: v.name().to_string(),
        family: v.family().title(),
        width: geometry.width,
        height: geometry.height,
        start_fen: v.start_fen().to_string(),
        paragraphs,
    };
    Ok(html(StatusCode::OK, page.render()?))
}

pub async fn static_file(path: web::Path<String>) -> Result<HttpResponse, Error> {
    let (body, kind) = match path.as_str() {
        "style.css" => (
            include_str!("../../../static/style.css"),
            "text/css; charset=utf-8",
        ),
        "board.js" => (
            include_str!("../../../static/board.js"),
            "text/javascript; charset=utf-8",
        ),
        "replay.js" => (
            include_str!("../../../static/replay.js"),
            "text/javascript; charset=utf-8",
        ),
        "favicon.svg" => (include_str!("../../../static/favicon.svg"), "image/svg+xml"),
        _ => return Err(Error::NotFound("No such file.".into())),
    };
    Ok(HttpResponse::Ok()
        .content_type(kind)
        .insert_header(("Cache-Control", "public, max-age=3600"))
        .body(body))
}

/// `GET /favicon.ico`: browsers ask for it whatever the page names; the
/// SVG icon serves (browsers read the type, not the extension).
pub async fn favicon() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("image/svg+xml")
        .insert_header(("Cache-Control", "public, max-age=86400"))
        .body(include_str!("../../../static/favicon.svg"))
}

/// `GET /static/legend/{name}`: a legend's piece picture or movement
/// diagram ([`crate::web::views::legend::file`]). The name holds a hash of
/// the content, so what it names never changes: browsers keep it for a
/// year without asking again. Opened by itself, the picture may load
/// nothing and run nothing.
pub async fn legend_file(path: web::Path<String>) -> Result<HttpResponse, Error> {
    let body = crate::web::views::legend::file(&path)
        .ok_or_else(|| Error::NotFound("No such file.".into()))?;
    Ok(HttpResponse::Ok()
        .content_type("image/svg+xml")
        .insert_header(("Cache-Control", "public, max-age=31536000, immutable"))
        .insert_header((
            "Content-Security-Policy",
            "default-src 'none'; style-src 'unsafe-inline'",
        ))
        .body(web::Bytes::copy_from_slice(body.as_bytes())))
}

pub async fn not_found() -> Result<HttpResponse, Error> {
    Err(Error::NotFound("There is no page at this address.".into()))
}

/// Liveness for load balancers and the HTTP benchmark's baseline: touches
/// neither the database nor the session.
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .body("ok")
}
