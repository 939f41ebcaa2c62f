//! The variant a stored key names: a built-in id (`chess`) or one version
//! of a posted variant (`camel6@<64 hex digits>`, what a game stores).
//!
//! A process offers every stored version when it starts ([`offer_stored`])
//! and each one it saves; a version saved by another process on the same
//! database since is read the first time a key names it, through the pool
//! set at start.

use crate::db::{posted_variants as store, DbConn, Pool};
use missive_rules::Variant;
use std::sync::OnceLock;

static POOL: OnceLock<Pool> = OnceLock::new();

/// The key of one version of a posted variant, as games store it.
pub fn key(id: &str, version: &str) -> String {
    format!("{id}@{version}")
}

/// A key's variant id and version, when it names a posted version.
pub fn split(key: &str) -> Option<(&str, &str)> {
    key.split_once('@')
        .filter(|(_, v)| v.len() == 64 && v.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The variant `key` names, built-in or posted.
pub fn variant(key: &str) -> Option<&'static dyn Variant> {
    if let Some(v) = missive_rules::variant(key) {
        return Some(v);
    }
    let (id, version) = split(key)?;
    let pool = POOL.get()?;
    let mut conn = pool.get().ok()?;
    load(&mut conn, id, version).ok().flatten()
}

/// Offer the stored version `id@version` (already offered: found at once).
pub fn load(
    conn: &mut DbConn,
    id: &str,
    version: &str,
) -> Result<Option<&'static dyn Variant>, crate::domain::error::Error> {
    let key = key(id, version);
    if let Some(v) = missive_rules::variant(&key) {
        return Ok(Some(v));
    }
    let Some(row) = store::version(conn, id, version)? else {
        return Ok(None);
    };
    let name = store::find(conn, id)?.map_or_else(|| id.to_string(), |(v, _)| v.name);
    Ok(missive_rules::offer_posted(&row.definition, &key, &name).ok())
}

/// Offer every stored version, and keep `pool` for versions stored later
/// by other processes. A version that no longer reads (an engine change
/// refusing a key it once took) is logged and left out: its games show
/// an error, the server still starts.
pub fn offer_stored(pool: &Pool) -> anyhow::Result<usize> {
    let _ = POOL.set(pool.clone());
    let mut conn = pool.get()?;
    let mut n = 0;
    for (row, name) in store::all_versions(&mut conn)? {
        let key = key(&row.variant_id, &row.version);
        match missive_rules::offer_posted(&row.definition, &key, &name) {
            Ok(_) => n += 1,
            Err(e) => tracing::error!(%key, "posted variant no longer reads: {e}"),
        }
    }
    Ok(n)
}
