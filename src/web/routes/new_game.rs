//! The new-game form: challenge a player or post an open seek.

use crate::accounts::send_limits;
use crate::domain::error::Error;
use crate::domain::time_control as clock;
use crate::game::challenge;
use crate::game::challenge::Challenge;
use crate::web::routes::variant_groups::{self, Group};
use crate::web::{html, now, see_other, Ctx, Page};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct NewGameForm {
    csrf_token: String,
    variant: String,
    opponent: String,
    color: String,
    fen: String,
    time_control: String,
    /// `1` for a rated game.
    rated: String,
    rating_min: String,
    rating_max: String,
    /// `1`: clocks stop on the mover's weekend.
    weekends_free: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct NewGameQuery {
    variant: String,
    opponent: String,
    /// A word to find variants by (name or family).
    q: String,
}

#[derive(Template)]
#[template(path = "new_game.html")]
struct NewGamePage {
    page: Page,
    error: Option<String>,
    groups: Vec<Group>,
    /// The search word, and how many of all variants it found.
    q: String,
    found: usize,
    total: usize,
    variant: String,
    opponent: String,
    color: String,
    fen: String,
    /// (form value, label) of each preset.
    presets: &'static [(&'static str, &'static str)],
    time_control: String,
    /// The text sent back when it is not a preset.
    custom_time_control: Option<String>,
    rated: bool,
    rating_min: String,
    rating_max: String,
    weekends_free: bool,
}

fn custom_control(text: &str) -> Option<String> {
    (!clock::presets().iter().any(|(v, _)| *v == text)).then(|| text.to_string())
}

/// A posted variant named `id` that `ctx`'s player may play, as a group
/// of its own at the head of the list, and whether its current version is
/// approved for rated play. None for built-in ids and unknown ones.
async fn posted_group(ctx: &Ctx, id: &str) -> Result<Option<(Group, bool)>, Error> {
    if id.is_empty() || missive_rules::variant(id).is_some() {
        return Ok(None);
    }
    let (Some(user), id) = (ctx.user.clone(), id.to_string()) else {
        return Ok(None);
    };
    ctx.state
        .read(move |conn| {
            Ok(
                crate::posted::post::for_new_game(conn, &user, &id)?.map(|chosen| {
                    let group = Group {
                        family: "Posted variant",
                        code: "posted",
                        variants: vec![(id.clone(), chosen.variant.name().to_string())],
                    };
                    (group, chosen.rated_allowed)
                }),
            )
        })
        .await
}

pub async fn new_form(ctx: Ctx, query: web::Query<NewGameQuery>) -> Result<HttpResponse, Error> {
    ctx.require_user()?;
    let q = query.into_inner();
    // The variant asked for stays listed whatever the search word; without
    // one, the first variant listed is chosen.
    let asked = crate::web::clip(&q.variant, 40);
    let word = crate::web::clip(q.q.trim(), 40);
    let mut groups = variant_groups::groups(&word, &asked);
    let found = variant_groups::count(&groups);
    if found == 0 {
        // Nothing found: the whole list, under the message that says so.
        groups = variant_groups::groups("", &asked);
    }
    let posted = posted_group(&ctx, &asked).await?;
    let rated = posted.as_ref().is_none_or(|(_, approved)| *approved);
    if let Some((group, _)) = posted {
        groups.insert(0, group);
    }
    let variant = if asked.is_empty() {
        groups
            .first()
            .and_then(|g| g.variants.first())
            .map(|v| v.0.clone())
            .unwrap_or_default()
    } else {
        asked
    };
    let page = NewGamePage {
        page: ctx.page(),
        error: None,
        found,
        total: missive_rules::variants().len(),
        groups,
        q: word,
        variant,
        opponent: crate::web::clip(&q.opponent, 40),
        color: "random".into(),
        fen: String::new(),
        presets: clock::presets(),
        time_control: clock::DEFAULT_PRESET.into(),
        custom_time_control: None,
        rated,
        rating_min: String::new(),
        rating_max: String::new(),
        weekends_free: false,
    };
    Ok(html(StatusCode::OK, page.render()?))
}

pub async fn create(ctx: Ctx, form: web::Form<NewGameForm>) -> Result<HttpResponse, Error> {
    ctx.check_csrf(&form.csrf_token)?;
    let user = ctx.require_user()?.clone();
    let f = form.into_inner();
    // A form without the field gets the default, as the select shows it.
    let time_control = if f.time_control.trim().is_empty() {
        clock::DEFAULT_PRESET.to_string()
    } else {
        f.time_control.clone()
    };
    let challenge = Challenge {
        variant: f.variant.clone(),
        opponent: f.opponent.clone(),
        color: f.color.clone(),
        fen: f.fen.clone(),
        time_control: time_control.clone(),
        rated: f.rated.clone(),
        rating_min: f.rating_min.clone(),
        rating_max: f.rating_max.clone(),
        weekends_free: f.weekends_free.clone(),
    };
    // A challenge to a named player mails them, and a rated open seek is
    // what a rating is farmed with: counted before it is made, given back
    // when it is not.
    let sender = user.id;
    let c = &ctx.state.config;
    let offer = if !f.opponent.trim().is_empty() {
        Some((send_limits::Offer::Challenge, c.challenge_limit_hour))
    } else if challenge::read_rated(&f.rated).unwrap_or(false) {
        Some((send_limits::Offer::RatedSeek, c.seek_limit_hour))
    } else {
        None
    };
    if let Some((offer, per_hour)) = offer {
        let clock = c.clock.clone();
        ctx.state
            .write(move |conn| send_limits::offer(conn, offer, sender, per_hour, clock.now()))
            .await?;
    }
    let result = ctx
        .state
        .write(move |conn| challenge::create_game(conn, &user, &challenge, now()))
        .await;
    if let (Some((offer, _)), Err(_)) = (offer, &result) {
        let _ = ctx
            .state
            .write(move |conn| send_limits::offer_undone(conn, offer, sender))
            .await;
    }
    match result {
        Ok(id) => Ok(see_other(&format!("/games/{id}"))),
        Err(Error::Invalid(msg)) => {
            let mut groups = variant_groups::groups("", "");
            if let Some((group, _)) = posted_group(&ctx, f.variant.trim()).await? {
                groups.insert(0, group);
            }
            let page = NewGamePage {
                page: ctx.page(),
                error: Some(msg),
                groups,
                q: String::new(),
                found: missive_rules::variants().len(),
                total: missive_rules::variants().len(),
                variant: crate::web::clip(&f.variant, 40),
                opponent: crate::web::clip(&f.opponent, 40),
                color: crate::web::clip(&f.color, 10),
                fen: crate::web::clip(&f.fen, crate::domain::game_state::FEN_MAX),
                presets: clock::presets(),
                time_control: crate::web::clip(&time_control, 80),
                custom_time_control: custom_control(&crate::web::clip(&time_control, 80)),
                rated: f.rated.trim() == "1",
                rating_min: crate::web::clip(&f.rating_min, 10),
                rating_max: crate::web::clip(&f.rating_max, 10),
                weekends_free: f.weekends_free == "1",
            };
            Ok(html(StatusCode::UNPROCESSABLE_ENTITY, page.render()?))
        }
        Err(e) => Err(e),
    }
}
