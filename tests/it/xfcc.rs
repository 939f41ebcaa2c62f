//! Issue 41's Xfcc service on SQLite and PostgreSQL: driven by an
//! independent SOAP client (zeep, PyPI, reading the WSDL), and by raw SOAP
//! as programs that send no `SOAPAction` write it.

use crate::common;

use common::{Backend, TestApp, TestClient};
use reqwest::StatusCode;
use serde_json::Value;

fn app_password(c: &TestClient, name: &str) -> String {
    let p = c.post(
        "/settings/app-passwords",
        &[
            ("name", name),
            ("current_password", "correct horse battery"),
        ],
    );
    assert_eq!(p.status, StatusCode::OK, "{}", p.body);
    let tag = "id=\"new-secret\" class=\"secret\">";
    let i = p.body.find(tag).expect("the new app password") + tag.len();
    common::unescape(&p.body[i..i + p.body[i..].find("</code>").unwrap()])
}

fn zeep_lists_games_and_plays_through_the_wsdl(backend: Backend) {
    let (app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    let (a_pw, b_pw) = (
        app_password(&alice, "Scid"),
        app_password(&bob, "ChessBase"),
    );
    let out = std::process::Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/xfcc/zeep_client.py"
        ))
        .arg(format!("{}/xfcc?wsdl", app.base))
        .args(["alice", &a_pw, "bob", &b_pw, &id.to_string()])
        .output()
        .expect("python3 (with zeep==4.3.1 from PyPI; .ci/run installs it)");
    assert!(
        out.status.success(),
        "the zeep client failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    let before = &got["games_before"][0];
    assert_eq!(got["games_before"].as_array().unwrap().len(), 1, "{got}");
    assert_eq!(before["id"], id.get());
    assert_eq!(before["white"], "alice");
    assert_eq!(before["black"], "bob");
    assert_eq!(before["myTurn"], true);
    assert_eq!(before["hasWhite"], true);
    assert_eq!(before["drawOffered"], false);
    assert_eq!(before["setup"], false);
    assert_eq!(before["variant"], "chess");
    assert_eq!(before["result"], "Ongoing");
    assert_eq!(before["timeControl"], "3d/move");
    // Three days a move, a turn just begun (whole minutes left, rounded down).
    let minutes = |g: &Value, who: &str| {
        let n = |f: &str| g[format!("{f}{who}")].as_i64().unwrap();
        n("days") * 1440 + n("hours") * 60 + n("minutes")
    };
    for who in ["Player", "Opponent"] {
        let left = minutes(before, who);
        assert!(
            (3 * 1440 - 2..=3 * 1440).contains(&left),
            "{who}: {left} minutes"
        );
    }
    assert_eq!(got["first_move"], "Success");
    assert_eq!(got["again"], "NotYourTurn");
    let black = &got["black_games"][0];
    assert_eq!(black["myTurn"], true);
    assert_eq!(black["hasWhite"], false);
    assert_eq!(black["moves"], "1. e4");
    assert_eq!(got["answer"], "Success");
    assert_eq!(got["illegal"], "InvalidMove");
    assert_eq!(got["wrong_number"], "InvalidMoveNumber");
    assert_eq!(got["bad_password"], "AuthenticationFailed");
    assert_eq!(got["not_a_game"], "InvalidGameID");
    assert_eq!(got["account_password"], "AuthenticationFailed");
    assert_eq!(got["second_move"], "Success");
    let after = &got["games_after"][0];
    assert_eq!(after["myTurn"], false);
    let moves = after["moves"].as_str().unwrap();
    assert!(moves.starts_with("1. e4 "), "{moves}");
    assert!(
        moves.contains("e5") && moves.contains("{well met}") && moves.ends_with("2. Nf3"),
        "{moves}"
    );
    // Stored through the move path, with the draw offered with the move.
    let j = alice.json(id);
    assert_eq!(j["ply"], 3);
    assert_eq!(j["moves"][1]["comment"], "well met");
    assert_eq!(j["draw_offer"], "white");
}

fn soap(app: &TestApp, body: &str) -> (StatusCode, String) {
    let r = reqwest::blocking::Client::new()
        .post(format!("{}/xfcc", app.base))
        .header("Content-Type", "text/xml; charset=utf-8")
        .body(body.to_string())
        .send()
        .unwrap();
    (r.status(), r.text().unwrap())
}

fn envelope(op: &str, fields: &[(&str, &str)]) -> String {
    let inner: String = fields
        .iter()
        .map(|(k, v)| format!("<{k}>{v}</{k}>"))
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
<soap:Body><{op} xmlns="http://www.bennedik.com/webservices/XfccBasic">{inner}</{op}></soap:Body></soap:Envelope>"#
    )
}

/// What `MakeAMove`'s reply says, read as Scid reads it: unprefixed
/// elements under the `soap:` envelope.
fn result_of(op: &str, reply: &str) -> String {
    let open = format!("<{op}Result>");
    let i = reply.find(&open).unwrap_or_else(|| panic!("{reply}")) + open.len();
    reply[i..i + reply[i..].find('<').unwrap()].to_string()
}

fn raw_soap_without_soapaction(backend: Backend) {
    let (app, alice, bob, id) = TestApp::game_of_alice_and_bob(backend);
    let pw = app_password(&alice, "raw");
    let gid = id.to_string();
    // The WSDL names the address and the operations.
    let wsdl = reqwest::blocking::get(format!("{}/xfcc?wsdl", app.base)).unwrap();
    assert_eq!(wsdl.status(), StatusCode::OK);
    assert!(wsdl.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/xml"));
    let wsdl = wsdl.text().unwrap();
    assert!(wsdl.contains(&format!("location=\"{}/xfcc\"", app.base)));
    for op in [
        "GetMyGames",
        "MakeAMove",
        "MakeAMove2",
        "MoveIsAmbiguous",
        "YouAreOnLeave",
    ] {
        assert!(wsdl.contains(op), "{op}");
    }
    let (status, reply) = soap(
        &app,
        &envelope("GetMyGames", &[("username", "alice"), ("password", &pw)]),
    );
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert!(reply.contains("<soap:Envelope") && reply.contains("<soap:Body>"));
    assert!(reply
        .contains("<GetMyGamesResponse xmlns=\"http://www.bennedik.com/webservices/XfccBasic\">"));
    assert!(
        reply.contains(&format!("<XfccGame>\n          <id>{id}</id>")),
        "{reply}"
    );
    let mv = |text: &str, extra: &[(&str, &str)]| {
        let mut f = vec![
            ("username", "alice"),
            ("password", pw.as_str()),
            ("gameId", gid.as_str()),
            ("myMove", text),
        ];
        f.extend_from_slice(extra);
        result_of("MakeAMove", &soap(&app, &envelope("MakeAMove", &f)).1)
    };
    assert_eq!(mv("", &[("acceptDraw", "true")]), "NoDrawWasOffered");
    alice.play(id, "d4");
    bob.play(id, "e5");
    alice.play(id, "Nf3");
    bob.play(id, "Nc6");
    // Nb1-d2 and Nf3-d2 both fit "Nd2".
    assert_eq!(mv("Nd2", &[]), "MoveIsAmbiguous");
    assert_eq!(alice.json(id)["ply"], 4);
    // Not one's game; a made-up operation; not XML.
    let carol = app.user("carol");
    let c_pw = app_password(&carol, "c");
    let (_, reply) = soap(
        &app,
        &envelope(
            "MakeAMove",
            &[
                ("username", "carol"),
                ("password", &c_pw),
                ("gameId", &gid),
                ("myMove", "e4"),
            ],
        ),
    );
    assert_eq!(result_of("MakeAMove", &reply), "NotYourGame");
    // A request that is not a call: a fault, 400.
    let (status, reply) = soap(&app, &envelope("DeleteEverything", &[]));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(reply.contains("<faultcode>soap:Client</faultcode>") && reply.contains("GetMyGames"));
    let (status, reply) = soap(&app, "<<<");
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(reply.contains("soap:Fault"));
    // Resigning.
    assert_eq!(mv("", &[("resign", "true")]), "Success");
    assert_eq!(alice.json(id)["result"], "0-1");
    assert_eq!(mv("Nd2", &[]), "NotYourTurn");
}

/// Failed sign-ins are slowed as failed logins are (the same limits).
fn failed_sign_ins_are_slowed_as_logins_are(backend: Backend) {
    let app = TestApp::start_with(backend, |c| {
        c.login_limit_account = 2;
        c.login_delay_secs = 30;
    });
    let alice = app.user("alice");
    let pw = app_password(&alice, "x");
    let wrong = envelope(
        "GetMyGames",
        &[("username", "alice"), ("password", "guess")],
    );
    // Two failures are free; the second sets a wait.
    for _ in 0..2 {
        let (status, reply) = soap(&app, &wrong);
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
        assert!(
            reply.contains("<faultstring>AuthenticationFailed</faultstring>"),
            "{reply}"
        );
    }
    let r = reqwest::blocking::Client::new()
        .post(format!("{}/xfcc", app.base))
        .body(envelope(
            "GetMyGames",
            &[("username", "alice"), ("password", &pw)],
        ))
        .send()
        .unwrap();
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(r.headers().contains_key("retry-after"));
    assert!(r.text().unwrap().contains("try again in"));
    // The wait ends; the right app password then works.
    app.config.clock.advance(120);
    let (status, reply) = soap(
        &app,
        &envelope("GetMyGames", &[("username", "alice"), ("password", &pw)]),
    );
    assert_eq!(status, StatusCode::OK, "{reply}");
}

both_backends!(
    zeep_lists_games_and_plays_through_the_wsdl,
    raw_soap_without_soapaction,
    failed_sign_ins_are_slowed_as_logins_are,
);
