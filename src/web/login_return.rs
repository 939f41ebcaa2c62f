//! Logging in returns to the page that asked for it: a page that needs a
//! login answers 401 with a login link carrying `?next=` (the page's path),
//! the login form keeps it, and a successful login goes there. Only a path
//! of this site is followed (never `//host` or a full address, which would
//! make the login an open redirect).

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use percent_encoding::{utf8_percent_encode, NON_ALPHANUMERIC};

/// Longest `next` followed.
const MAX: usize = 1000;

/// `next` if it is a path of this site worth coming back to.
pub fn safe(next: &str) -> Option<&str> {
    let ok = next.starts_with('/')
        && !next.starts_with("//")
        && next.len() <= MAX
        && !next.contains('\\')
        && !next.chars().any(char::is_control)
        && !next.starts_with("/login")
        && !next.starts_with("/logout");
    ok.then_some(next)
}

/// The query a login link carries to return to `next` (empty when there is
/// nowhere to return to).
pub fn query(next: &str) -> String {
    match safe(next) {
        Some(n) => format!("?next={}", utf8_percent_encode(n, NON_ALPHANUMERIC)),
        None => String::new(),
    }
}

/// Where a login with `next` goes: that page, or the start page.
pub fn target(next: &str) -> &str {
    safe(next).unwrap_or("/")
}

/// A `GET` refused for want of a login: its error page's login link returns
/// here.
pub async fn add_return(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let page = (req.method() == Method::GET)
        .then(|| req.uri().path_and_query().map(|p| p.as_str().to_string()))
        .flatten();
    let res = next.call(req).await?;
    let again = match (&page, res.status()) {
        (Some(path), StatusCode::UNAUTHORIZED) => res
            .response()
            .error()
            .and_then(|e| e.as_error::<crate::domain::error::Error>())
            .map(|e| e.page_response(path)),
        _ => None,
    };
    Ok(match again {
        Some(page) => res.into_response(page).map_into_right_body(),
        None => res.map_into_left_body(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_this_site_s_paths_are_followed() {
        assert_eq!(target("/games/7?ply=3"), "/games/7?ply=3");
        for bad in [
            "",
            "https://evil.example/",
            "//evil.example/",
            "/\\evil.example",
            "/login?next=/",
            "games/7",
        ] {
            assert_eq!(target(bad), "/", "{bad}");
        }
        assert_eq!(query("/games/7?ply=3"), "?next=%2Fgames%2F7%3Fply%3D3");
        assert_eq!(query("//x"), "");
    }
}
