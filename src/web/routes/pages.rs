use crate::domain::error::Error;
use crate::web::{html, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;

#[derive(Template, WebTemplate)]
#[template(path = "landing.html")]
pub struct Landing {
    page: Page,
    variants: Vec<(String, String)>,
}

/// `GET /`: the landing page, or the signed-in player's games
/// ([`dashboard`](crate::web::routes::dashboard)).
pub async fn home(
    ctx: Ctx,
    q: web::Query<crate::web::routes::dashboard::DashboardQuery>,
) -> Result<HttpResponse, Error> {
    let Some(user) = ctx.user.clone() else {
        let page = Landing {
            page: ctx.page(),
            variants: crate::web::views::variant_choices(),
        };
        return Ok(html(StatusCode::OK, page.render()?));
    };
    crate::web::routes::dashboard::show(ctx, user, q.into_inner()).await
}

#[derive(Template)]
#[template(path = "variants.html")]
pub struct VariantsPage {
    page: Page,
    groups: Vec<crate::web::routes::variant_groups::Group>,
    q: String,
    /// Public posted variants a search finds (all without one): id, name,
    /// author, games, last played.
    community: Vec<(String, String, String, i32, String)>,
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
pub struct VariantsQuery {
    /// A word to find variants by (name or family).
    q: String,
}

/// `GET /variants`: every variant by family, or those a word finds.
pub async fn variants(ctx: Ctx, query: web::Query<VariantsQuery>) -> Result<HttpResponse, Error> {
    let q = crate::web::clip(query.q.trim(), 40);
    let rows = ctx
        .state
        .read(|conn| Ok(crate::db::posted_variants::public(conn)?))
        .await?;
    let wanted = q.to_lowercase();
    let community = rows
        .into_iter()
        .filter(|(v, author)| {
            wanted.is_empty()
                || v.name.to_lowercase().contains(&wanted)
                || v.id.contains(&wanted)
                || author.to_lowercase().contains(&wanted)
        })
        .map(|(v, author)| {
            let last = v
                .last_played_at
                .map_or_else(|| "never".to_string(), |t| t.format("%Y-%m-%d").to_string());
            (v.id, v.name, author, v.games, last)
        })
        .collect();
    let page = VariantsPage {
        page: ctx.page(),
        groups: crate::web::routes::variant_groups::groups(&q, ""),
        q,
        community,
    };
    Ok(html(StatusCode::OK, page.render()?))
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

#[derive(serde::Deserialize, Default)]
#[serde(default)]
pub struct VariantQuery {
    /// `1` right after posting: the posted variant's page leads with its
    /// check report.
    pub posted: String,
}

/// `GET /variants/{id}`: a built-in variant's rules, or a posted one's page.
pub async fn variant(
    ctx: Ctx,
    path: web::Path<String>,
    q: web::Query<VariantQuery>,
) -> Result<HttpResponse, Error> {
    let id = path.into_inner();
    let Some(v) =
        missive_rules::variant(&id).filter(|_| crate::posted::lookup::split(&id).is_none())
    else {
        return crate::web::routes::posted_variants::page(ctx, id, q.posted == "1").await;
    };
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
    let (asset, hashed) =
        crate::web::assets::find(&path).ok_or_else(|| Error::NotFound("No such file.".into()))?;
    // A content-hashed name always means this content: kept for good. The
    // fixed name may change content with a new server: asked again soon.
    let cache = if hashed {
        "public, max-age=31536000, immutable"
    } else {
        "public, max-age=300"
    };
    Ok(HttpResponse::Ok()
        .content_type(asset.kind)
        .insert_header(("Cache-Control", cache))
        .body(asset.body))
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
