//! The `settings` table: values the server keeps for itself.

use crate::db::DbConn;

/// The secret for signing: from the config, else from the settings table,
/// else generated and stored there.
pub fn load_secret(conn: &mut DbConn, configured: Option<&str>) -> anyhow::Result<Vec<u8>> {
    use crate::db::schema::settings::dsl::*;
    use diesel::prelude::*;
    if let Some(s) = configured {
        return Ok(s.as_bytes().to_vec());
    }
    let read = |conn: &mut DbConn| -> QueryResult<Option<String>> {
        settings
            .filter(key.eq("secret"))
            .select(value)
            .first::<String>(conn)
            .optional()
    };
    if let Some(s) = read(conn)? {
        return Ok(s.into_bytes());
    }
    let fresh = crate::util::random_token();
    // Another process may win the race; then read what it stored.
    let _ = diesel::insert_into(settings)
        .values((key.eq("secret"), value.eq(&fresh)))
        .execute(conn);
    let stored = read(conn)?.ok_or_else(|| anyhow::anyhow!("cannot store the secret"))?;
    Ok(stored.into_bytes())
}

/// The value kept under `name`, made by `fresh` and stored on first use
/// (another process may win the race; then its value is read).
pub fn get_or_store(
    conn: &mut DbConn,
    name: &str,
    fresh: impl FnOnce() -> String,
) -> diesel::QueryResult<String> {
    use crate::db::schema::settings::dsl::*;
    use diesel::prelude::*;
    let read = |conn: &mut DbConn| {
        settings
            .filter(key.eq(name))
            .select(value)
            .first::<String>(conn)
            .optional()
    };
    if let Some(v) = read(conn)? {
        return Ok(v);
    }
    let _ = diesel::insert_into(settings)
        .values((key.eq(name), value.eq(fresh())))
        .execute(conn);
    read(conn)?.ok_or(diesel::result::Error::NotFound)
}
