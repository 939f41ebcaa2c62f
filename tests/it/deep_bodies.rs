//! Issue 60, finding 1: bodies that nest deeply are refused before any
//! parser builds them, and the server goes on serving. 4,000 levels of
//! `<a>` posted to `/xfcc` once overflowed a worker's stack and aborted
//! the whole process (this test binary included).

use crate::common;

use common::{Backend, TestApp};
use reqwest::blocking::Client;
use reqwest::StatusCode;

fn post(app: &TestApp, path: &str, content_type: &str, body: String) -> StatusCode {
    Client::new()
        .post(format!("{}{path}", app.base))
        .header("Content-Type", content_type)
        .body(body)
        .send()
        .unwrap()
        .status()
}

/// The server still answers: the WSDL and the home page.
fn still_serving(app: &TestApp) {
    let wsdl = reqwest::blocking::get(format!("{}/xfcc?wsdl", app.base)).unwrap();
    assert_eq!(wsdl.status(), StatusCode::OK);
    assert_eq!(app.client().get("/").status(), StatusCode::OK);
}

fn deep_xml_and_json_are_refused_and_the_server_keeps_serving(backend: Backend) {
    let app = TestApp::start(backend);
    // 100,000 levels are more than the body limit (256 KB) lets through;
    // the smaller depths reach the reader.
    for depth in [4_000, 20_000, 80_000, 100_000] {
        let body = "<a>".repeat(depth);
        let status = post(&app, "/xfcc", "text/xml", body);
        assert!(status.is_client_error(), "{depth} levels of XML: {status}");
        still_serving(&app);
    }
    // The same depth inside a SOAP envelope, as a real call would carry it.
    let env = format!(
        "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>\
         <GetMyGames><username>{}</username></GetMyGames></soap:Body></soap:Envelope>",
        "<b>".repeat(50_000)
    );
    let status = post(&app, "/xfcc", "text/xml; charset=utf-8", env);
    assert_eq!(status, StatusCode::BAD_REQUEST);
    still_serving(&app);

    // JSON: an ignored field holding 60,000 nested arrays (under the 64 KB
    // limit), to the JSON API's move, before any sign-in.
    let json = format!("{{\"zz\":{}{}}}", "[".repeat(30_000), "]".repeat(30_000));
    let status = post(&app, "/api/v1/games/1/move", "application/json", json);
    assert!(status.is_client_error(), "deep JSON: {status}");
    let json = format!("{{\"zz\":{}", "{\"a\":".repeat(10_000));
    let status = post(&app, "/api/v1/games/1/move", "application/json", json);
    assert!(status.is_client_error(), "deep JSON objects: {status}");
    still_serving(&app);
}

both_backends!(deep_xml_and_json_are_refused_and_the_server_keeps_serving);
