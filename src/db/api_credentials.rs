//! Client programs' credentials' rows (`api_credentials`, issue 41): app
//! passwords and API tokens, each stored as its secret's SHA-256.

use crate::db::schema::{api_credentials, users};
use crate::db::users::User;
use crate::db::{per_backend, DbConn};
use crate::domain::api_credential::{CredentialKind, Scope};
use chrono::NaiveDateTime;
use diesel::prelude::*;

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = api_credentials)]
pub struct Credential {
    pub id: i32,
    pub user_id: i32,
    #[diesel(deserialize_as = String)]
    pub kind: CredentialKind,
    #[diesel(deserialize_as = String)]
    pub scope: Scope,
    pub name: String,
    pub created_at: NaiveDateTime,
    pub last_used_at: Option<NaiveDateTime>,
}

/// How many credentials of `kind` the account holds.
pub fn count_of_kind(conn: &mut DbConn, user_id: i32, kind: CredentialKind) -> QueryResult<i64> {
    api_credentials::table
        .filter(api_credentials::user_id.eq(user_id))
        .filter(api_credentials::kind.eq(kind.code()))
        .count()
        .get_result(conn)
}

/// Store a credential whose secret hashes to `hash`, and read it back.
pub fn insert(
    conn: &mut DbConn,
    user_id: i32,
    kind: CredentialKind,
    scope: Scope,
    name: &str,
    hash: &str,
    now: NaiveDateTime,
) -> QueryResult<Credential> {
    diesel::insert_into(api_credentials::table)
        .values((
            api_credentials::user_id.eq(user_id),
            api_credentials::kind.eq(kind.code()),
            api_credentials::scope.eq(scope.code()),
            api_credentials::name.eq(name),
            api_credentials::secret_hash.eq(hash),
            api_credentials::created_at.eq(now),
        ))
        .execute(conn)?;
    per_backend!(conn, |c| api_credentials::table
        .filter(api_credentials::secret_hash.eq(hash))
        .select(Credential::as_select())
        .first(c))
}

/// The account's credentials of `kind`, newest first.
pub fn list(conn: &mut DbConn, user_id: i32, kind: CredentialKind) -> QueryResult<Vec<Credential>> {
    per_backend!(conn, |c| api_credentials::table
        .filter(api_credentials::user_id.eq(user_id))
        .filter(api_credentials::kind.eq(kind.code()))
        .order(api_credentials::id.desc())
        .select(Credential::as_select())
        .load(c))
}

/// Delete the account's credential `id` of `kind`: 0 when it has none such.
pub fn delete_own(
    conn: &mut DbConn,
    user_id: i32,
    kind: CredentialKind,
    id: i32,
) -> QueryResult<usize> {
    diesel::delete(
        api_credentials::table
            .filter(api_credentials::id.eq(id))
            .filter(api_credentials::user_id.eq(user_id))
            .filter(api_credentials::kind.eq(kind.code())),
    )
    .execute(conn)
}

/// Every credential of an account goes (the account is deleted, or its
/// password changed): how many tokens and app passwords went.
pub fn erase_all(conn: &mut DbConn, user_id: i32) -> QueryResult<(usize, usize)> {
    let mut erase = |kind: CredentialKind| {
        diesel::delete(
            api_credentials::table
                .filter(api_credentials::user_id.eq(user_id))
                .filter(api_credentials::kind.eq(kind.code())),
        )
        .execute(conn)
    };
    let tokens = erase(CredentialKind::Token)?;
    let apps = erase(CredentialKind::AppPassword)?;
    Ok((tokens, apps))
}

/// The usable account (neither disabled nor deleted) and its credential of
/// `kind` whose secret hashes to `hash`.
pub fn find_usable(
    conn: &mut DbConn,
    kind: CredentialKind,
    hash: &str,
) -> QueryResult<Option<(User, Credential)>> {
    per_backend!(conn, |c| api_credentials::table
        .inner_join(users::table)
        .filter(api_credentials::secret_hash.eq(hash))
        .filter(api_credentials::kind.eq(kind.code()))
        .filter(users::disabled_at.is_null())
        .filter(users::deleted_at.is_null())
        .select((User::as_select(), Credential::as_select()))
        .first(c)
        .optional())
}

/// Note that a credential was used (shown on the settings page).
pub fn note_use(conn: &mut DbConn, id: i32, now: NaiveDateTime) -> QueryResult<usize> {
    diesel::update(api_credentials::table.find(id))
        .set(api_credentials::last_used_at.eq(Some(now)))
        .execute(conn)
}
