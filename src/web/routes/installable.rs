//! Installing Missive as an app (issue 64): the web app manifest, its
//! icons and the service worker. Compiled in, like the other static files;
//! the scripts that install it and turn on notifications are among
//! [`crate::web::assets`].

use crate::domain::error::Error;
use actix_web::{web, HttpResponse};

/// `GET /manifest.webmanifest`, linked from every page.
pub async fn manifest() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/manifest+json")
        .insert_header(("Cache-Control", "public, max-age=3600"))
        .body(include_str!("../../../static/manifest.webmanifest"))
}

/// `GET /sw.js`: at the root, so that its scope is the whole site. Browsers
/// check it for a new version on each visit; `no-cache` makes them ask
/// the server rather than a cache.
pub async fn service_worker() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header(("Cache-Control", "no-cache"))
        .insert_header(("Service-Worker-Allowed", "/"))
        .body(include_str!("../../../static/sw.js"))
}

/// `GET /static/icons/{name}`: the app's icons, plain and maskable.
pub async fn icon(path: web::Path<String>) -> Result<HttpResponse, Error> {
    let body: &'static [u8] = match path.as_str() {
        "icon-192.png" => include_bytes!("../../../static/icons/icon-192.png"),
        "icon-512.png" => include_bytes!("../../../static/icons/icon-512.png"),
        "icon-maskable-192.png" => include_bytes!("../../../static/icons/icon-maskable-192.png"),
        "icon-maskable-512.png" => include_bytes!("../../../static/icons/icon-maskable-512.png"),
        _ => return Err(Error::NotFound("No such icon.".into())),
    };
    Ok(HttpResponse::Ok()
        .content_type("image/png")
        .insert_header(("Cache-Control", "public, max-age=86400"))
        .body(body))
}
