//! Posted variants and their versions (issue 62): rows and queries.

use crate::db::schema::{posted_variant_versions as versions, posted_variants as variants, users};
use crate::db::DbConn;
use chrono::NaiveDateTime;
use diesel::prelude::*;

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = variants)]
pub struct PostedVariant {
    pub id: String,
    pub name: String,
    pub author_id: i32,
    pub visibility: String,
    pub current_version: String,
    pub games: i32,
    pub last_played_at: Option<NaiveDateTime>,
    pub created_at: NaiveDateTime,
}

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = versions)]
pub struct PostedVersion {
    pub variant_id: String,
    pub version: String,
    pub definition: String,
    pub rules: String,
    pub report: String,
    pub approved_at: Option<NaiveDateTime>,
    pub created_at: NaiveDateTime,
}

/// A variant with its author's name.
pub type WithAuthor = (PostedVariant, String);

pub fn find(conn: &mut DbConn, id: &str) -> QueryResult<Option<WithAuthor>> {
    variants::table
        .inner_join(users::table)
        .filter(variants::id.eq(id))
        .select((PostedVariant::as_select(), users::username))
        .first(conn)
        .optional()
}

pub fn version(conn: &mut DbConn, id: &str, version: &str) -> QueryResult<Option<PostedVersion>> {
    versions::table
        .find((id, version))
        .select(PostedVersion::as_select())
        .first(conn)
        .optional()
}

/// Every version of a variant, newest first.
pub fn versions_of(conn: &mut DbConn, id: &str) -> QueryResult<Vec<PostedVersion>> {
    versions::table
        .filter(versions::variant_id.eq(id))
        .order(versions::created_at.desc())
        .select(PostedVersion::as_select())
        .load(conn)
}

/// Public variants, most played first, with their authors.
pub fn public(conn: &mut DbConn) -> QueryResult<Vec<WithAuthor>> {
    variants::table
        .inner_join(users::table)
        .filter(variants::visibility.eq("public"))
        .order((variants::games.desc(), variants::name.asc()))
        .select((PostedVariant::as_select(), users::username))
        .limit(500)
        .load(conn)
}

/// A player's own variants.
pub fn by_author(conn: &mut DbConn, author_id: i32) -> QueryResult<Vec<PostedVariant>> {
    variants::table
        .filter(variants::author_id.eq(author_id))
        .order(variants::created_at.desc())
        .select(PostedVariant::as_select())
        .load(conn)
}

/// Versions a player posted since `since` (new variants and new versions).
pub fn versions_posted_since(
    conn: &mut DbConn,
    author_id: i32,
    since: NaiveDateTime,
) -> QueryResult<i64> {
    versions::table
        .inner_join(variants::table)
        .filter(variants::author_id.eq(author_id))
        .filter(versions::created_at.ge(since))
        .count()
        .get_result(conn)
}

pub fn id_taken(conn: &mut DbConn, id: &str) -> QueryResult<bool> {
    Ok(variants::table.find(id).count().get_result::<i64>(conn)? > 0)
}

pub struct NewVersion<'a> {
    pub variant_id: &'a str,
    pub version: &'a str,
    pub definition: &'a str,
    pub rules: &'a str,
    pub report: &'a str,
    pub now: NaiveDateTime,
}

pub fn insert_variant(
    conn: &mut DbConn,
    v: &NewVersion,
    name: &str,
    author_id: i32,
    visibility: &str,
) -> QueryResult<()> {
    diesel::insert_into(variants::table)
        .values((
            variants::id.eq(v.variant_id),
            variants::name.eq(name),
            variants::author_id.eq(author_id),
            variants::visibility.eq(visibility),
            variants::current_version.eq(v.version),
            variants::games.eq(0),
            variants::created_at.eq(v.now),
        ))
        .execute(conn)?;
    insert_version(conn, v)
}

/// A version (none when the same text is posted again) made current.
pub fn insert_version(conn: &mut DbConn, v: &NewVersion) -> QueryResult<()> {
    let known = version(conn, v.variant_id, v.version)?.is_some();
    if !known {
        diesel::insert_into(versions::table)
            .values((
                versions::variant_id.eq(v.variant_id),
                versions::version.eq(v.version),
                versions::definition.eq(v.definition),
                versions::rules.eq(v.rules),
                versions::report.eq(v.report),
                versions::created_at.eq(v.now),
            ))
            .execute(conn)?;
    } else {
        diesel::update(versions::table.find((v.variant_id, v.version)))
            .set(versions::rules.eq(v.rules))
            .execute(conn)?;
    }
    diesel::update(variants::table.find(v.variant_id))
        .set(variants::current_version.eq(v.version))
        .execute(conn)?;
    Ok(())
}

pub fn set_name_and_visibility(
    conn: &mut DbConn,
    id: &str,
    name: &str,
    visibility: &str,
) -> QueryResult<()> {
    diesel::update(variants::table.find(id))
        .set((variants::name.eq(name), variants::visibility.eq(visibility)))
        .execute(conn)?;
    Ok(())
}

/// Delete a variant no game uses (true when deleted).
pub fn delete_unplayed(conn: &mut DbConn, id: &str) -> QueryResult<bool> {
    Ok(diesel::delete(
        variants::table
            .filter(variants::id.eq(id))
            .filter(variants::games.eq(0)),
    )
    .execute(conn)?
        > 0)
}

/// Count a game created with the variant (in the game's transaction).
pub fn count_game(conn: &mut DbConn, id: &str, now: NaiveDateTime) -> QueryResult<()> {
    diesel::update(variants::table.find(id))
        .set((
            variants::games.eq(variants::games + 1),
            variants::last_played_at.eq(Some(now)),
        ))
        .execute(conn)?;
    Ok(())
}

/// Approve a version for rated play (false when there is no such version).
pub fn approve(
    conn: &mut DbConn,
    id: &str,
    version: &str,
    now: NaiveDateTime,
) -> QueryResult<bool> {
    Ok(diesel::update(versions::table.find((id, version)))
        .set(versions::approved_at.eq(Some(now)))
        .execute(conn)?
        > 0)
}

/// Versions not approved yet, with their variants, newest first.
pub fn candidates(conn: &mut DbConn) -> QueryResult<Vec<(PostedVersion, WithAuthor)>> {
    let rows: Vec<(PostedVersion, PostedVariant, String)> = versions::table
        .inner_join(variants::table.inner_join(users::table))
        .filter(versions::approved_at.is_null())
        .order(versions::created_at.desc())
        .select((
            PostedVersion::as_select(),
            PostedVariant::as_select(),
            users::username,
        ))
        .limit(200)
        .load(conn)?;
    Ok(rows.into_iter().map(|(v, p, a)| (v, (p, a))).collect())
}

/// Every version with its variant's name (offered at start).
pub fn all_versions(conn: &mut DbConn) -> QueryResult<Vec<(PostedVersion, String)>> {
    versions::table
        .inner_join(variants::table)
        .select((PostedVersion::as_select(), variants::name))
        .load(conn)
}

/// Games played with any of `keys` (a posted variant's versions as games
/// store them), newest first: id and status. By equality, so the games'
/// variant index serves it.
pub fn games_of(conn: &mut DbConn, keys: &[String], limit: i64) -> QueryResult<Vec<(i32, String)>> {
    use crate::db::schema::games;
    games::table
        .filter(games::variant.eq_any(keys))
        .order(games::id.desc())
        .select((games::id, games::status))
        .limit(limit)
        .load(conn)
}
