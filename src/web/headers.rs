//! Headers every answer carries (issue 37): a Content-Security-Policy on
//! pages, HSTS when the site is served over https, and a refusal of form
//! posts that a browser says come from another site, a second line beside
//! the CSRF token. Answers are private unless their handler says otherwise
//! (issue 60): pages, JSON and files alike may hold what only the signed-in
//! player sees (their address, notes, conditional lines), so every answer
//! without a `Cache-Control` of its own gets `no-store`, and every answer
//! not marked `public` gets `Vary: Cookie`, so that no cache hands one
//! person's copy to another.

use crate::domain::error::Error as Refusal;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::{Error, ResponseError};

/// Scripts only from our own files (`static/*.js`): no inline script or
/// handler runs. Styles may be inline because the SVG boards carry `<style>`
/// elements; they cannot run code.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; \
     form-action 'self'";

pub const HSTS: &str = "max-age=31536000";

/// Posts a mail client makes, authorised by their own signature
/// (RFC 8058 one-click unsubscribe), not by a browser session.
const CROSS_SITE_POSTS: &[&str] = &["/unsubscribe"];

/// Posts to the doors for programs (issue 41), authorised by a bearer
/// token or an app password in the request and never by a cookie, so a
/// request from another site carries nothing of the browser's: a web
/// page elsewhere may use the API with its own token.
fn for_programs(path: &str) -> bool {
    path == "/xfcc" || path.starts_with("/api/")
}

/// Why a post is refused as cross-site, if it is: `Sec-Fetch-Site` when the
/// browser sends it (`same-origin` and `none`, typed or bookmarked, pass),
/// else `Origin`, which must be the site's (the configured base URL, or the
/// host the request was sent to). A request with neither, as scripts and
/// other non-browser clients send, passes: the CSRF token still holds.
pub fn cross_site(req: &ServiceRequest, base_url: &str) -> Option<&'static str> {
    let text = |name| {
        req.headers()
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
            .map(|v| v.trim().to_ascii_lowercase())
    };
    if let Some(site) = text("sec-fetch-site") {
        return match site.as_str() {
            "same-origin" | "none" => None,
            _ => Some("Your browser says this form was sent from another site"),
        };
    }
    let origin = text("origin")?;
    let ours = url::Url::parse(base_url)
        .map(|u| u.origin().ascii_serialization().to_ascii_lowercase())
        .unwrap_or_default();
    let host = req.connection_info().host().to_ascii_lowercase();
    let same_host = url::Url::parse(&origin)
        .ok()
        .and_then(|u| {
            let h = u.host_str()?.to_string();
            Some(match u.port() {
                Some(p) => format!("{h}:{p}"),
                None => h,
            })
        })
        .is_some_and(|h| h == host);
    if origin == ours || same_host {
        None
    } else {
        Some("This form was sent from another site")
    }
}

/// The middleware: refuse cross-site posts (403), then add the headers.
pub async fn guard(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, Error> {
    let (base_url, https) = match req.app_data::<crate::web::State>() {
        Some(state) => (state.config.base_url.clone(), state.config.secure_cookies()),
        None => (String::new(), false),
    };
    if req.method() == Method::POST
        && !CROSS_SITE_POSTS.contains(&req.path())
        && !for_programs(req.path())
    {
        if let Some(why) = cross_site(&req, &base_url) {
            let refusal = Refusal::Forbidden(format!(
                "{why}, so it was not accepted. If you sent it yourself, open the page on \
                 this site and send the form from there."
            ));
            let mut res = refusal.error_response();
            add_headers(res.headers_mut(), https);
            return Ok(req.into_response(res).map_into_right_body());
        }
    }
    let mut res = next.call(req).await?;
    add_headers(res.headers_mut(), https);
    Ok(res.map_into_left_body())
}

fn add_headers(h: &mut header::HeaderMap, https: bool) {
    let page = h
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if page {
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CSP),
        );
    }
    let public = h
        .get(header::CACHE_CONTROL)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.to_ascii_lowercase().contains("public"));
    if !h.contains_key(header::CACHE_CONTROL) {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    let varies_by_cookie = h.get_all(header::VARY).any(|v| {
        v.to_str().is_ok_and(|v| {
            v.split(',')
                .any(|f| f.trim().eq_ignore_ascii_case("cookie"))
        })
    });
    if !public && !varies_by_cookie {
        h.append(header::VARY, HeaderValue::from_static("Cookie"));
    }
    if https {
        h.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static(HSTS),
        );
    }
}
