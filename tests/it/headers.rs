//! Response headers and cross-site posts (issue 37, finding 9), on SQLite
//! and on PostgreSQL: a Content-Security-Policy with no inline script on
//! every page, HSTS under an https base URL, `Cache-Control: no-store` on
//! pages with private data, and posts a browser says come from another site
//! refused beside the CSRF token.

use crate::common;

use common::{Backend, TestApp, TestClient};
use reqwest::StatusCode;

both_backends!(
    pages_carry_the_security_headers,
    hsts_only_under_https,
    cross_site_posts_are_refused,
    private_answers_are_never_stored_and_vary_by_cookie,
);

fn headers_of(c: &TestClient, path: &str) -> (StatusCode, reqwest::header::HeaderMap, String) {
    let r = c.http.get(format!("{}{path}", c.base)).send().unwrap();
    let (status, headers) = (r.status(), r.headers().clone());
    (status, headers, r.text().unwrap())
}

fn header<'a>(h: &'a reqwest::header::HeaderMap, name: &str) -> &'a str {
    h.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
}

/// Inline script a CSP without 'unsafe-inline' would block: a `<script>`
/// without `src`, an `on...=` handler, a `javascript:` link.
fn inline_script(body: &str) -> Option<String> {
    let lower = body.to_ascii_lowercase();
    for (i, _) in lower.match_indices("<script") {
        let tag = &lower[i..i + lower[i..].find('>').unwrap_or(0)];
        if !tag.contains(" src=") {
            return Some(tag.to_string());
        }
    }
    for (i, _) in lower.match_indices(" on") {
        let rest = &lower[i + 3..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        if !name.is_empty() && rest[name.len()..].starts_with("=") {
            // Only inside a tag: the text before holds a `<` after the last `>`.
            let before = &lower[..i];
            if before.rfind('<') > before.rfind('>') {
                return Some(format!("on{name}="));
            }
        }
    }
    lower.contains("javascript:").then(|| "javascript:".into())
}

fn pages_carry_the_security_headers(backend: Backend) {
    let (app, alice, _bob, id) = TestApp::game_of_alice_and_bob(backend);
    alice.post(
        &format!("/games/{id}/notes"),
        &[("note", "my private plan")],
    );
    let private = [
        "/".to_string(),
        "/settings".into(),
        "/settings/mail".into(),
        "/leave".into(),
        format!("/games/{id}"),
        format!("/games/{id}/moves"),
        "/games/new".into(),
        "/tournaments".into(),
        "/help".into(),
        "/variants/chess".into(),
        "/no-such-page".into(),
    ];
    for path in &private {
        let (status, h, body) = headers_of(&alice, path);
        assert!(status.as_u16() < 500, "{path}: {status}");
        let csp = header(&h, "content-security-policy");
        assert!(csp.contains("script-src 'self'"), "{path}: {csp:?}");
        let script_src = csp
            .split(';')
            .find(|d| d.trim().starts_with("script-src"))
            .unwrap();
        assert!(!script_src.contains("unsafe"), "{path}: {csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert_eq!(header(&h, "cache-control"), "no-store", "{path}");
        assert_eq!(
            header(&h, "strict-transport-security"),
            "",
            "{path}: plain http"
        );
        assert_eq!(inline_script(&body), None, "{path}");
    }
    let (_, h, body) = headers_of(&app.client(), "/login");
    assert!(header(&h, "content-security-policy").contains("script-src 'self'"));
    assert_eq!(inline_script(&body), None);
    // Data that may be cached keeps its own rule.
    let (_, h, _) = headers_of(&alice, "/static/style.css");
    assert!(header(&h, "cache-control").contains("public"));
}

fn hsts_only_under_https(backend: Backend) {
    let app = TestApp::start_with(backend, |c| {
        c.base_url = "https://missive.example.org".into();
    });
    let c = app.client();
    for path in ["/login", "/", "/healthz", "/no-such-page"] {
        let (_, h, _) = headers_of(&c, path);
        assert_eq!(
            header(&h, "strict-transport-security"),
            "max-age=31536000",
            "{path}"
        );
    }
}

/// Post with this client's CSRF token and extra headers.
fn post_with(
    c: &TestClient,
    path: &str,
    fields: &[(&str, &str)],
    headers: &[(&str, &str)],
) -> (StatusCode, String) {
    let token = c.csrf();
    let mut all = vec![("csrf_token", token.as_str())];
    all.extend_from_slice(fields);
    let mut req = c.http.post(format!("{}{path}", c.base)).form(&all);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let r = req.send().unwrap();
    (r.status(), r.text().unwrap())
}

fn cross_site_posts_are_refused(backend: Backend) {
    let app = TestApp::start(backend);
    let alice = app.user("alice");
    app.user("bob");
    let game = [
        ("variant", "chess"),
        ("opponent", "bob"),
        ("color", "white"),
        ("fen", ""),
    ];
    let ours = app.base.clone();
    for headers in [
        vec![("Origin", "https://evil.example")],
        vec![("Origin", "null")],
        vec![("Sec-Fetch-Site", "cross-site")],
        vec![("Sec-Fetch-Site", "same-site"), ("Origin", ours.as_str())],
    ] {
        let (status, body) = post_with(&alice, "/games/new", &game, &headers);
        assert_eq!(status, StatusCode::FORBIDDEN, "{headers:?}");
        assert!(body.contains("from another site"), "{body}");
    }
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM games"), 0);
    // A login from another site is refused too, before any password check.
    let (status, _) = post_with(
        &app.client(),
        "/login",
        &[("username", "alice"), ("password", "correct horse battery")],
        &[("Origin", "https://evil.example")],
    );
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM login_attempts"), 0);
    // Our own pages' posts, and clients that send neither header, go on.
    for headers in [
        vec![("Origin", ours.as_str())],
        vec![("Sec-Fetch-Site", "same-origin"), ("Origin", ours.as_str())],
        vec![("Sec-Fetch-Site", "none")],
        vec![],
    ] {
        let (status, body) = post_with(&alice, "/games/new", &game, &headers);
        assert_eq!(status, StatusCode::SEE_OTHER, "{headers:?}: {body}");
    }
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM games"), 4);
}

/// Issue 60, finding 10: answers are private unless marked public, JSON
/// and files as much as pages: the game's JSON carries the player's own
/// conditional lines, so it is not stored and a cache keys it by cookie.
fn private_answers_are_never_stored_and_vary_by_cookie(backend: Backend) {
    let (_app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    let p = bob.post(&format!("/games/{id}/conditional"), &[("line", "e4 e5")]);
    assert!(
        p.status.is_redirection() || p.status.is_success(),
        "{}",
        p.body
    );
    for (who, path) in [
        (&bob, format!("/games/{id}.json")),
        (&alice, format!("/games/{id}.json")),
        (&bob, "/settings".to_string()),
        (&bob, "/settings/export".to_string()),
        (&bob, "/no-such-page".to_string()),
    ] {
        let (status, h, _) = headers_of(who, &path);
        assert!(status.as_u16() < 500, "{path}: {status}");
        assert_eq!(header(&h, "cache-control"), "no-store", "{path}");
        let vary: Vec<String> = h
            .get_all("vary")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(',').map(|f| f.trim().to_ascii_lowercase()))
            .collect();
        assert!(vary.iter().any(|f| f == "cookie"), "{path}: {vary:?}");
    }
    let (_, h, _) = headers_of(&bob, "/static/style.css");
    assert!(header(&h, "cache-control").contains("public"));
    assert!(!header(&h, "vary").to_ascii_lowercase().contains("cookie"));
}
