//! `GET /api/v1/openapi.json`: the JSON API described in OpenAPI 3.1
//! (`openapi.json` beside this file, checked by an outside validator in
//! `tests/it/api.rs`), with the server's own address.

use super::{json_ok, ApiResult};
use crate::domain::error::Error;
use crate::web::State;
use actix_web::http::StatusCode;

const DOCUMENT: &str = include_str!("openapi.json");

pub async fn document(state: State) -> ApiResult {
    let mut doc: serde_json::Value = serde_json::from_str(DOCUMENT).map_err(Error::internal)?;
    let url = format!("{}/api/v1", super::base_url(&state));
    doc["servers"] = serde_json::json!([{ "url": url }]);
    Ok(json_ok(StatusCode::OK, &doc))
}
