//! HTTP handlers, one module per area. Each reads the request, calls a
//! service, and picks a template.

pub mod account_links;
pub mod account_settings;
pub mod accounts;
pub mod admin;
pub mod analysis;
pub mod api;
pub mod calendar;
pub mod client_settings;
pub mod clock_acts;
pub mod conditional;
pub mod dashboard;
pub mod director;
pub mod game_acts;
pub mod game_json;
pub mod game_load;
pub mod game_page;
pub mod game_rulings;
pub mod help;
pub mod installable;
pub mod leave;
pub mod mail_settings;
pub mod matches;
pub mod move_preview;
pub mod new_game;
pub mod next_turn;
pub mod notifications;
pub mod operations;
pub mod pages;
pub mod play_link;
pub mod posted_variants;
pub mod ratings;
pub mod records;
pub mod tournament_acts;
pub mod tournament_player;
pub mod tournaments;
pub mod variant_groups;
pub mod week_settings;

use crate::domain::error::Error;
use actix_web::web;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.app_data(
        web::FormConfig::default()
            .limit(64 * 1024)
            .error_handler(|err, _req| {
                Error::BadRequest(format!(
                    "The form could not be read ({}).",
                    crate::web::clip(&err.to_string(), 80)
                ))
                .into()
            }),
    )
    .app_data(web::QueryConfig::default().error_handler(|_err, _req| {
        Error::BadRequest("The address has a query string that cannot be read.".into()).into()
    }))
    .route("/", web::get().to(pages::home))
    .route("/healthz", web::get().to(pages::healthz))
    .route("/readyz", web::get().to(operations::readyz))
    .route("/metrics", web::get().to(operations::metrics))
    .route("/favicon.ico", web::get().to(pages::favicon))
    .route(
        "/manifest.webmanifest",
        web::get().to(installable::manifest),
    )
    .route("/sw.js", web::get().to(installable::service_worker))
    .route("/static/icons/{file}", web::get().to(installable::icon))
    .service(games_scope())
    .route("/signup", web::get().to(accounts::signup_form))
    .route("/signup", web::post().to(accounts::signup))
    .route("/login", web::get().to(accounts::login_form))
    .route("/login", web::post().to(accounts::login))
    .route("/logout", web::post().to(accounts::logout))
    .route(
        "/password/forgot",
        web::get().to(account_links::forgot_form),
    )
    .route("/password/forgot", web::post().to(account_links::forgot))
    .route("/password/reset", web::get().to(account_links::reset_form))
    .route("/password/reset", web::post().to(account_links::reset))
    .route("/email/confirm", web::get().to(account_links::confirm_form))
    .route("/email/confirm", web::post().to(account_links::confirm))
    .route("/settings", web::get().to(account_settings::settings_page))
    .route("/settings", web::post().to(accounts::settings))
    .route(
        "/settings/password",
        web::post().to(account_settings::change_password),
    )
    .route(
        "/settings/sessions",
        web::post().to(account_settings::end_other_sessions),
    )
    .route(
        "/settings/email",
        web::post().to(account_settings::change_email),
    )
    .route(
        "/settings/delete",
        web::post().to(account_settings::delete_account),
    )
    .route("/settings/export", web::get().to(account_settings::export))
    // Issue 41: credentials for client programs, the Xfcc service, the JSON API.
    .route("/settings/clients", web::get().to(client_settings::show))
    .route(
        "/settings/app-passwords",
        web::post().to(client_settings::new_app_password),
    )
    .route(
        "/settings/app-passwords/revoke",
        web::post().to(client_settings::revoke_app_password),
    )
    .route(
        "/settings/tokens",
        web::post().to(client_settings::new_token),
    )
    .route(
        "/settings/tokens/revoke",
        web::post().to(client_settings::revoke_token),
    )
    .route("/xfcc", web::get().to(api::xfcc::wsdl))
    .route("/xfcc", web::post().to(api::xfcc::service))
    .service(api_scope())
    .route(
        "/settings/reminders",
        web::post().to(account_settings::save_reminders),
    )
    .route(
        "/settings/notifications",
        web::get().to(notifications::show),
    )
    .route(
        "/settings/notifications",
        web::post().to(notifications::save),
    )
    .route(
        "/settings/notifications/subscribe",
        web::post().to(notifications::subscribe),
    )
    .route(
        "/settings/notifications/unsubscribe",
        web::post().to(notifications::unsubscribe),
    )
    .route(
        "/settings/notifications/forget",
        web::post().to(notifications::forget),
    )
    .route("/settings/mail", web::get().to(mail_settings::show))
    .route("/settings/mail", web::post().to(mail_settings::save))
    .route(
        "/settings/mail/verify",
        web::post().to(mail_settings::resend_verification),
    )
    .route(
        "/unsubscribe",
        web::get().to(mail_settings::unsubscribe_form),
    )
    .route("/unsubscribe", web::post().to(mail_settings::unsubscribe))
    .route("/verify-email", web::get().to(mail_settings::verify_email))
    .route(
        "/settings/time-zone",
        web::post().to(account_settings::save_zone),
    )
    .route("/settings/calendar", web::post().to(week_settings::make))
    .route(
        "/settings/calendar/revoke",
        web::post().to(week_settings::revoke),
    )
    .route("/calendar/{file}", web::get().to(calendar::feed))
    .route("/leave", web::get().to(leave::show))
    .route("/leave", web::post().to(leave::save))
    .route("/help", web::get().to(help::help))
    .route("/variants", web::get().to(pages::variants))
    .route("/variants/new", web::get().to(posted_variants::new_form))
    .route("/variants/new", web::post().to(posted_variants::create))
    .route("/variants/{id}", web::get().to(pages::variant))
    .route(
        "/variants/{id}/edit",
        web::get().to(posted_variants::edit_form),
    )
    .route("/variants/{id}/edit", web::post().to(posted_variants::edit))
    .route(
        "/variants/{id}/delete",
        web::post().to(posted_variants::delete),
    )
    .route(
        "/variants/{id}/{version}.ini",
        web::get().to(posted_variants::ini),
    )
    .route("/static/{file}", web::get().to(pages::static_file))
    .route("/static/legend/{file}", web::get().to(pages::legend_file))
    .route("/users/{name}/games.pgn", web::get().to(records::user_pgn))
    .route("/users/{name}/feed.atom", web::get().to(records::feed))
    .route("/users/{name}", web::get().to(records::profile))
    .route("/ratings", web::get().to(ratings::lists))
    .route("/ratings/{variant}", web::get().to(ratings::leaderboard))
    .route("/records/check", web::get().to(records::check_form))
    .route("/records/check", web::post().to(records::check))
    .route("/tournaments", web::get().to(tournaments::list))
    .route("/tournaments/new", web::get().to(tournaments::new_form))
    .route("/tournaments/new", web::post().to(tournaments::create))
    .route(
        "/tournaments/{id}/games.pgn",
        web::get().to(tournaments::games_pgn),
    )
    .route("/tournaments/{id}.trf", web::get().to(tournaments::trf))
    .route("/tournaments/{id}", web::get().to(tournaments::show))
    .route(
        "/tournaments/{id}/players/{name}",
        web::get().to(tournament_player::show),
    )
    .route(
        "/tournaments/{id}/join",
        web::post().to(tournament_acts::join),
    )
    .route(
        "/tournaments/{id}/leave",
        web::post().to(tournament_acts::leave),
    )
    .route(
        "/tournaments/{id}/start",
        web::post().to(tournament_acts::start),
    )
    .route(
        "/tournaments/{id}/withdraw",
        web::post().to(tournament_acts::withdraw),
    )
    .route(
        "/tournaments/{id}/replace",
        web::post().to(tournament_acts::replace),
    )
    .route(
        "/tournaments/{id}/grant-leave",
        web::post().to(tournament_acts::grant_leave),
    )
    .route("/matches", web::get().to(matches::list))
    .route("/matches/new", web::get().to(matches::new_form))
    .route("/matches/new", web::post().to(matches::create))
    .route("/matches/{id}", web::get().to(matches::show))
    .route("/matches/{id}/lineup", web::post().to(matches::lineup))
    .route("/director", web::get().to(director::dashboard))
    .route("/admin/directors", web::get().to(admin::directors))
    .route("/admin/variants", web::get().to(posted_variants::admin))
    .route(
        "/admin/variants/approve",
        web::post().to(posted_variants::approve),
    )
    .route("/admin/directors/grant", web::post().to(admin::grant))
    .route("/admin/directors/remove", web::post().to(admin::remove))
    .route("/records/import", web::post().to(director::import_record))
    .default_service(web::to(pages::not_found));
}

/// Everything under `/games`, the busiest part of the site, in one scope so
/// that a request elsewhere skips it with one prefix test. The router tries
/// patterns in order, and each pattern with a `{}` part is a regex match, so
/// the game page and the move come first: `[^/.]+` keeps the page's id from
/// swallowing `5.json` and its kin below.
fn games_scope() -> actix_web::Scope {
    web::scope("/games")
        .route("", web::get().to(records::archive))
        .route("/new", web::get().to(new_game::new_form))
        .route("/new", web::post().to(new_game::create))
        .route("/next", web::get().to(next_turn::next))
        .route("/{id:[^/.]+}", web::get().to(game_page::show))
        .route("/{id}/move", web::post().to(game_acts::make_move))
        .route("/{id}/preview", web::get().to(move_preview::show))
        .route("/{id}/conditional", web::post().to(conditional::add))
        .route("/{id}/analysis", web::get().to(analysis::show))
        .route(
            "/{id}/conditional/delete",
            web::post().to(conditional::delete),
        )
        .route("/{id}.json", web::get().to(game_json::json))
        .route("/{id}.pgn", web::get().to(records::pgn))
        .route("/{id}.txt", web::get().to(records::log))
        .route("/{id}/notes", web::post().to(records::save_note))
        .route("/{id}/moves", web::get().to(game_page::all_moves))
        .route("/{id}/accept", web::post().to(game_acts::accept))
        .route("/{id}/decline", web::post().to(game_acts::decline))
        .route("/{id}/play", web::get().to(play_link::show))
        .route("/{id}/play", web::post().to(play_link::play))
        .route("/{id}/resign", web::post().to(game_acts::resign))
        .route("/{id}/draw", web::post().to(game_acts::draw))
        .route("/{id}/takeback", web::post().to(game_acts::takeback))
        .route("/{id}/claim", web::post().to(clock_acts::claim))
        .route("/{id}/adjudicate", web::post().to(game_rulings::adjudicate))
        .route("/{id}/extend", web::post().to(game_rulings::extend))
        .route(
            "/{id}/adjudication-request",
            web::post().to(game_rulings::request_adjudication),
        )
}

/// The JSON API (issue 41), answered with problem details when it fails,
/// down to an unknown route under it.
fn api_scope() -> actix_web::Scope {
    web::scope("/api/v1")
        .app_data(api::json_config())
        .route("/openapi.json", web::get().to(api::openapi::document))
        .route("/games", web::get().to(api::games::list))
        .route("/games/{id}", web::get().to(api::games::show))
        .route("/games/{id}/move", web::post().to(api::games::make_move))
        .route("/games/{id}/draw", web::post().to(api::games::draw))
        .route("/games/{id}/resign", web::post().to(api::games::resign))
        .route("/games/{id}/conditional", web::get().to(api::games::lines))
        .route(
            "/games/{id}/conditional",
            web::post().to(api::games::add_line),
        )
        .route(
            "/games/{id}/conditional/delete",
            web::post().to(api::games::delete_line),
        )
        .route("/users/{name}", web::get().to(api::games::user))
        .default_service(web::to(api::not_found))
}
