//! Ratings pages: the list of rating lists (`/ratings`), a variant's
//! leaderboard (`/ratings/{variant}`) and the
//! ratings block of a player's profile.

use crate::db::ratings::{self, Leader, ACTIVE_DAYS};
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::web::views::rating_chart;
use crate::web::views::variant_name;
use crate::web::{html, now, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

/// Lines of each part of a leaderboard.
const LEADERS: usize = 100;

pub struct LeaderLine {
    pub rank: usize,
    pub name: String,
    pub rating: String,
    pub deviation: i32,
    pub games: i32,
}

fn lines(leaders: Vec<Leader>) -> Vec<LeaderLine> {
    leaders
        .into_iter()
        .enumerate()
        .map(|(i, l)| LeaderLine {
            rank: i + 1,
            rating: l.rating.shown(),
            deviation: l.rating.deviation.round() as i32,
            name: l.username,
            games: l.games,
        })
        .collect()
}

#[derive(Template)]
#[template(path = "leaderboard.html")]
struct LeaderboardPage {
    page: Page,
    variant: String,
    variant_name: String,
    established: Vec<LeaderLine>,
    provisional: Vec<LeaderLine>,
    active_days: i64,
    /// (id, name) of every variant, for the links to their boards.
    variants: Vec<(String, String)>,
}

#[derive(Template)]
#[template(path = "ratings.html")]
struct RatingListsPage {
    page: Page,
    active_days: i64,
    variants: Vec<(String, String)>,
}

/// `/ratings`: every variant's rating list, linked.
pub async fn lists(ctx: Ctx) -> Result<HttpResponse, Error> {
    let page = RatingListsPage {
        page: ctx.page(),
        active_days: ACTIVE_DAYS,
        variants: crate::web::views::variant_choices(),
    };
    Ok(html(StatusCode::OK, page.render()?))
}

pub async fn leaderboard(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, Error> {
    let wanted = path.into_inner();
    let variant = crate::posted::lookup::variant(wanted.trim()).ok_or_else(|| {
        Error::NotFound(format!(
            "There is no variant “{}”: the variants page lists them all.",
            crate::web::clip(&wanted, 40)
        ))
    })?;
    let id = variant.id().to_string();
    let v = id.clone();
    let (established, provisional) = ctx
        .state
        .read(move |conn| ratings::leaderboard(conn, &v, now(), LEADERS))
        .await?;
    let page = LeaderboardPage {
        page: ctx.page(),
        variant_name: variant.name().to_string(),
        variant: id,
        established: lines(established),
        provisional: lines(provisional),
        active_days: ACTIVE_DAYS,
        variants: crate::web::views::variant_choices(),
    };
    Ok(html(StatusCode::OK, page.render()?))
}

/// One variant's rating on a profile, with its history drawn.
pub struct ProfileRating {
    pub variant: String,
    pub variant_name: String,
    pub shown: String,
    pub deviation: i32,
    pub games: i32,
    pub chart: String,
}

/// A player's ratings for their profile, every variant they have played
/// rated games in.
pub fn profile_ratings(conn: &mut DbConn, user: i32) -> Result<Vec<ProfileRating>, Error> {
    let mut out = Vec::new();
    for s in ratings::of_user(conn, user, now())? {
        let name = variant_name(&s.variant);
        let history = ratings::history(conn, user, &s.variant)?;
        out.push(ProfileRating {
            chart: rating_chart::chart(&name, &history).unwrap_or_default(),
            shown: s.now.shown(),
            deviation: s.now.deviation.round() as i32,
            games: s.standing.games,
            variant_name: name,
            variant: s.variant,
        });
    }
    Ok(out)
}
