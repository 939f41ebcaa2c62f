//! `/xfcc`: the Xfcc web service (XfccBasic, SOAP 1.1) that correspondence
//! programs speak: `GET /xfcc?wsdl` gives its WSDL; `POST /xfcc` answers
//! `GetMyGames`, `MakeAMove` and `MakeAMove2`. The operation is read from
//! the body, so a client that sends no `SOAPAction` is served too. Callers
//! sign in with their username and an app password, never the account
//! password; each attempt is counted as a login is (`accounts::login_limit`).

use super::xfcc_games::{my_games, XfccGame};
use crate::accounts::api_credentials;
use crate::accounts::login_limit::{self, Attempt, LoginLimits};
use crate::db::games;
use crate::db::users::User;
use crate::domain::api_credential::CredentialKind;
use crate::domain::codes::text_codes;
use crate::domain::error::{Error, MovedOn};
use crate::domain::game_state::{EndReason, GameStatus, Side};
use crate::domain::ids::GameId;
use crate::game::{draw, resign};
use crate::web::routes::api::games::{move_text, play_move};
use crate::web::{now, AppState, State};
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use std::collections::HashMap;
use std::sync::Arc;

text_codes! {
    "Xfcc result",
    /// The answers of `MakeAMove` (XfccBasic's `XfccMoveResult`).
    pub enum XfccResult {
        Success => "Success",
        ServerError => "ServerError",
        AuthenticationFailed => "AuthenticationFailed",
        InvalidGameID => "InvalidGameID",
        NotYourGame => "NotYourGame",
        NotYourTurn => "NotYourTurn",
        InvalidMoveNumber => "InvalidMoveNumber",
        InvalidMove => "InvalidMove",
        NoDrawWasOffered => "NoDrawWasOffered",
        LostOnTime => "LostOnTime",
        YouAreOnLeave => "YouAreOnLeave",
        MoveIsAmbiguous => "MoveIsAmbiguous",
    }
}

/// The operations served, as the WSDL names them.
const OPERATIONS: [&str; 3] = ["GetMyGames", "MakeAMove", "MakeAMove2"];
/// The operations that make a move (the same parameters and answers).
const MOVES: [&str; 2] = ["MakeAMove", "MakeAMove2"];

#[derive(Template)]
#[template(path = "xfcc/wsdl.xml")]
struct Wsdl<'a> {
    site: String,
    operations: &'a [&'a str],
    moves: &'a [&'a str],
    results: Vec<&'static str>,
}

#[derive(Template)]
#[template(path = "xfcc/games.xml")]
struct GamesReply {
    games: Vec<XfccGame>,
}

#[derive(Template)]
#[template(path = "xfcc/result.xml")]
struct ResultReply {
    operation: &'static str,
    result: &'static str,
}

#[derive(Template)]
#[template(path = "xfcc/fault.xml")]
struct FaultReply {
    /// `Client` (the request is wrong) or `Server`.
    code: &'static str,
    text: String,
}

fn xml(status: StatusCode, body: String) -> HttpResponse {
    HttpResponse::build(status)
        .insert_header((header::CONTENT_TYPE, super::xml_type()))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(body)
}

/// A SOAP 1.1 fault. One the service answers to a well-formed call (a
/// failed sign-in) is HTTP 500, as SOAP 1.1 and the Xfcc programs have
/// it; a request that is not a call at all is 400, since nothing went
/// wrong in the server.
fn fault(code: &'static str, text: impl Into<String>) -> HttpResponse {
    let body = FaultReply {
        code,
        text: text.into(),
    }
    .render()
    .unwrap_or_default();
    xml(StatusCode::INTERNAL_SERVER_ERROR, body)
}

/// A request that is not a call this service answers: a fault, 400.
fn not_a_call(text: impl Into<String>) -> HttpResponse {
    let mut res = fault("Client", text);
    *res.status_mut() = StatusCode::BAD_REQUEST;
    res
}

/// `GET /xfcc` (`?wsdl`): the service description.
pub async fn wsdl(state: State) -> Result<HttpResponse, Error> {
    let page = Wsdl {
        site: super::base_url(&state),
        operations: &OPERATIONS,
        moves: &MOVES,
        results: XfccResult::ALL.iter().map(|r| r.code()).collect(),
    };
    Ok(xml(StatusCode::OK, page.render()?))
}

/// A request: its operation and its parameters by local name.
#[derive(Debug)]
pub struct Call {
    operation: &'static str,
    params: HashMap<String, String>,
}

impl Call {
    fn text(&self, name: &str) -> &str {
        self.params.get(name).map_or("", |v| v.trim())
    }
    fn flag(&self, name: &str) -> bool {
        matches!(self.text(name), "true" | "1")
    }
}

/// More nodes than any call here has, many times over: a body of many
/// small elements is refused before it fills memory.
const MAX_NODES: u32 = 10_000;

/// Read a SOAP 1.1 envelope: the first element in its `Body` names the
/// operation (whatever the prefixes), its children are the parameters.
pub fn read_call(body: &str) -> Result<Call, String> {
    if crate::web::nesting::xml_too_deep(body, crate::web::nesting::MAX_XML_DEPTH) {
        return Err(format!(
            "The request nests elements deeper than {} levels, which no call here does.",
            crate::web::nesting::MAX_XML_DEPTH
        ));
    }
    let options = roxmltree::ParsingOptions {
        nodes_limit: MAX_NODES,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(body, options)
        .map_err(|e| format!("The request is not XML that can be read ({e})."))?;
    let root = doc.root_element();
    if root.tag_name().name() != "Envelope" {
        return Err("The request is not a SOAP envelope.".into());
    }
    let op = root
        .children()
        .find(|n| n.is_element() && n.tag_name().name() == "Body")
        .and_then(|b| b.children().find(|n| n.is_element()))
        .ok_or("The SOAP envelope has no operation in its Body.")?;
    let name = op.tag_name().name();
    let operation = OPERATIONS
        .iter()
        .copied()
        .find(|o| *o == name)
        .ok_or_else(|| {
            format!(
                "There is no operation “{}” here: this service answers {}.",
                crate::web::clip(name, 40),
                OPERATIONS.join(", ")
            )
        })?;
    let params = op
        .children()
        .filter(|n| n.is_element())
        .map(|n| {
            let text: String = n
                .descendants()
                .filter(|d| d.is_text())
                .filter_map(|d| d.text())
                .collect();
            (n.tag_name().name().to_string(), text)
        })
        .collect();
    Ok(Call { operation, params })
}

/// Why a sign-in did not give a user.
enum SignIn {
    Failed,
    /// Too many failures (a wait in force), or the database away.
    Slowed(Error),
}

/// Sign in with a username and an app password, counted as a login is
/// but on keys of its own (failed logins with the account password do not
/// hold a client program back): the attempt is committed before the
/// password is checked, and a right one forgives the failures as a right
/// login does.
async fn sign_in(state: &Arc<AppState>, ip: String, call: &Call) -> Result<User, SignIn> {
    let (username, password) = (
        call.text("username").to_string(),
        call.text("password").to_string(),
    );
    if username.is_empty() || password.is_empty() || username.len() > 100 || password.len() > 200 {
        return Err(SignIn::Failed);
    }
    let limits = LoginLimits::of(&state.config);
    let clock = state.config.clock.clone();
    let (name, addr) = (username.clone(), ip.clone());
    let claimed = state
        .write(move |conn| {
            login_limit::claim(
                conn,
                &name,
                &addr,
                Attempt::AppPassword,
                &limits,
                clock.now(),
            )
        })
        .await;
    claimed.map_err(SignIn::Slowed)?;
    let found = state
        .write(move |conn| {
            let found = api_credentials::authenticate(
                conn,
                CredentialKind::AppPassword,
                Some(&username),
                &password,
            )?;
            if let Some((_, credential)) = &found {
                login_limit::forgive(conn, &username, &ip, Attempt::AppPassword, &limits)?;
                if api_credentials::use_stale(credential, now()) {
                    crate::db::api_credentials::note_use(conn, credential.id, now())?;
                }
            }
            // A write done once answers with what can be kept: the id.
            Ok(found.map(|(user, _)| user.id))
        })
        .await
        .map_err(SignIn::Slowed)?;
    let Some(id) = found else {
        return Err(SignIn::Failed);
    };
    state
        .read(move |conn| {
            crate::db::users::find_by_id(conn, id)?
                .ok_or_else(|| Error::NotFound("no such user".into()))
        })
        .await
        .map_err(SignIn::Slowed)
}

/// `POST /xfcc`: one SOAP call.
pub async fn service(state: State, req: HttpRequest, body: web::Bytes) -> HttpResponse {
    let state = state.get_ref().clone();
    let Ok(text) = std::str::from_utf8(&body) else {
        return not_a_call("The request is not UTF-8 text.");
    };
    let call = match read_call(text) {
        Ok(c) => c,
        Err(why) => return not_a_call(why),
    };
    let ip = crate::web::client_addr::client_addr(&req, state.config.trust_proxy);
    let user = match sign_in(&state, ip, &call).await {
        Ok(u) => u,
        Err(SignIn::Failed) if call.operation == "GetMyGames" => {
            return fault("Client", XfccResult::AuthenticationFailed.code())
        }
        Err(SignIn::Failed) => return result(call.operation, XfccResult::AuthenticationFailed),
        Err(SignIn::Slowed(e)) => return refused(e),
    };
    if call.operation == "GetMyGames" {
        return match my_games(&state, &user).await {
            Ok(games) => match (GamesReply { games }).render() {
                Ok(body) => xml(StatusCode::OK, body),
                Err(e) => refused(e.into()),
            },
            Err(e) => refused(e),
        };
    }
    match make_a_move(&state, &user, &call).await {
        Ok(code) => result(call.operation, code),
        Err(e) => refused(e),
    }
}

fn result(operation: &'static str, code: XfccResult) -> HttpResponse {
    let reply = ResultReply {
        operation,
        result: code.code(),
    };
    match reply.render() {
        Ok(body) => xml(StatusCode::OK, body),
        Err(e) => refused(e.into()),
    }
}

/// A request the service cannot answer now: a SOAP fault saying why
/// (429 with `Retry-After` when a limit holds, 503 when the database is
/// away), the cause logged as the pages log it.
fn refused(e: Error) -> HttpResponse {
    use actix_web::ResponseError;
    let status = match &e {
        Error::TooSoon { .. } | Error::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
        Error::Unavailable(_) | Error::ConnectionLost(_) => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    let page = e.error_response();
    let mut res = fault("Server", e.public_message());
    *res.status_mut() = status;
    if let Some(wait) = page.headers().get(header::RETRY_AFTER) {
        res.headers_mut().insert(header::RETRY_AFTER, wait.clone());
    }
    res
}

/// The number PGN gives the move about to be played: the FEN's last field.
fn move_number(fen: &str) -> Option<i32> {
    fen.split_whitespace().last()?.parse().ok()
}

/// `MakeAMove` / `MakeAMove2`: resign, accept a draw, or move (and offer a
/// draw with it), each through the pages' own use case.
async fn make_a_move(state: &Arc<AppState>, user: &User, call: &Call) -> Result<XfccResult, Error> {
    let Ok(id) = call.text("gameId").parse::<GameId>() else {
        return Ok(XfccResult::InvalidGameID);
    };
    let row = match state.read(move |conn| games::load(conn, id)).await {
        Ok(row) => row,
        Err(Error::NotFound(_)) => return Ok(XfccResult::InvalidGameID),
        Err(e) => return Err(e),
    };
    let Some(color) = games::side_of(&row, user.id) else {
        return Ok(XfccResult::NotYourGame);
    };
    let mine = Side::from(color);
    if row.status != GameStatus::Active {
        let lost_on_time = row.reason == Some(EndReason::TimeForfeit) && row.turn == mine;
        return Ok(match lost_on_time {
            true => XfccResult::LostOnTime,
            false => XfccResult::NotYourTurn,
        });
    }
    let act = |what: &'static str| {
        let user = user.clone();
        state.write(move |conn| match what {
            "resign" => resign::resign(conn, id, &user, now()),
            action => draw::draw(conn, id, &user, action, now()),
        })
    };
    if call.flag("resign") {
        return answer(act("resign").await);
    }
    if call.flag("acceptDraw") {
        if row.draw_offer != Some(mine.opponent()) {
            return Ok(XfccResult::NoDrawWasOffered);
        }
        return answer(act("accept").await);
    }
    let offer = call.flag("offerDraw") || call.flag("claimDraw");
    let my_move = call.text("myMove");
    if my_move.is_empty() {
        return match offer {
            true => answer(act("offer").await),
            false => Ok(XfccResult::InvalidMove),
        };
    }
    if row.turn != mine {
        return Ok(XfccResult::NotYourTurn);
    }
    let count = call.text("movecount").parse::<i32>().unwrap_or(0);
    if count > 0 && move_number(&row.fen).is_some_and(|n| n != count) {
        return Ok(XfccResult::InvalidMoveNumber);
    }
    let comment = Some(call.text("myMessage"));
    let text = move_text(my_move, comment);
    if let Err(e) = play_move(state, id, user, &text, Some(row.ply)).await {
        return answer(Err(e));
    }
    // The move is stored, so the answer is Success whatever becomes of the
    // offer sent with it (a move that ended the game leaves none to make):
    // a failure code would have the program send the move again.
    if offer {
        if let Err(e) = act("offer").await {
            tracing::info!("xfcc: game {id}: the draw offered with the move was not made: {e}");
        }
    }
    Ok(XfccResult::Success)
}

/// A use case's answer as a result code; a failure the codes cannot say
/// (the database away) stays an error, for a fault.
fn answer(done: Result<(), Error>) -> Result<XfccResult, Error> {
    Ok(match done {
        Ok(()) => XfccResult::Success,
        Err(Error::AmbiguousMove(_)) => XfccResult::MoveIsAmbiguous,
        Err(Error::Invalid(_)) => XfccResult::InvalidMove,
        Err(Error::MovedOn(MovedOn::TimeRanOut | MovedOn::FlagFell)) => XfccResult::LostOnTime,
        Err(Error::Conflict(_) | Error::MovedOn(MovedOn::LinesChanged)) => {
            XfccResult::InvalidMoveNumber
        }
        Err(Error::Forbidden(_)) => XfccResult::NotYourTurn,
        Err(Error::NotFound(_)) => XfccResult::InvalidGameID,
        Err(e @ (Error::Unavailable(_) | Error::ConnectionLost(_) | Error::TooSoon { .. })) => {
            return Err(e)
        }
        Err(e) => {
            tracing::warn!("xfcc: {e}");
            XfccResult::ServerError
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_operation_comes_from_the_body_whatever_its_prefixes() {
        let body = r#"<?xml version="1.0"?>
<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>
<x:MakeAMove2 xmlns:x="http://www.bennedik.com/webservices/XfccBasic">
<x:username>alice</x:username><x:password>p</x:password><x:gameId>7</x:gameId>
<x:myMove>e4</x:myMove><x:offerDraw>true</x:offerDraw></x:MakeAMove2></s:Body></s:Envelope>"#;
        let call = read_call(body).unwrap();
        assert_eq!(call.operation, "MakeAMove2");
        assert_eq!(call.text("gameId"), "7");
        assert!(call.flag("offerDraw"));
        assert!(!call.flag("resign"));
        assert!(read_call("<Envelope><Body><Hack/></Body></Envelope>").is_err());
        assert!(read_call("not xml").is_err());
        // No DTD, so no entity expansion.
        let bomb = r#"<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaa">]><Envelope><Body><GetMyGames><username>&a;</username></GetMyGames></Body></Envelope>"#;
        assert!(read_call(bomb).is_err());
    }

    #[test]
    fn replies_escape_what_they_carry() {
        let reply = FaultReply {
            code: "Client",
            text: "<b>&</b>".into(),
        }
        .render()
        .unwrap();
        assert!(
            reply.contains("&#60;b&#62;&#38;&#60;/b&#62;")
                || reply.contains("&lt;b&gt;&amp;&lt;/b&gt;"),
            "{reply}"
        );
        assert!(roxmltree::Document::parse(&reply).is_ok());
    }

    #[test]
    fn the_move_number_is_the_fens_last_field() {
        assert_eq!(
            move_number("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
            Some(1)
        );
        assert_eq!(move_number("8/8 w - - 3 17"), Some(17));
        assert_eq!(move_number("odd"), None);
    }
}
