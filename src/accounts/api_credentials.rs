//! Credentials for client programs (issue 41): app passwords for Xfcc
//! clients and personal tokens for the JSON API. Each is named, shown once
//! when made and stored only as its SHA-256 (a random 256-bit secret needs
//! no slow hash: there is nothing to guess from), and revoked by deleting
//! its row. A disabled or deleted account's credentials sign in nowhere.

use crate::accounts::users::token_hash;
use crate::db::models::User;
use crate::db::schema::{api_credentials, users};
use crate::db::{per_backend, DbConn};
use crate::domain::api_credential::{CredentialKind, Scope};
use crate::domain::error::Error;
use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;

/// Credentials of one kind an account may hold at once.
pub const MAX_PER_KIND: i64 = 20;
/// The longest name, in characters.
pub const NAME_MAX: usize = 60;
/// "Last used" is written at most this often per credential.
const USE_NOTED_EVERY_MINUTES: i64 = 5;

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

/// A credential just made, with the secret its owner sees this once.
pub struct Issued {
    pub credential: Credential,
    pub secret: String,
}

/// A new credential for `user`: `name` says what it is for. App passwords
/// always have the play scope (a correspondence program moves).
pub fn issue(
    conn: &mut DbConn,
    user: &User,
    kind: CredentialKind,
    scope: Scope,
    name: &str,
    now: NaiveDateTime,
) -> Result<Issued, Error> {
    let name = name.trim();
    if name.is_empty() {
        return Err(Error::Invalid(
            "Give it a name that says where you use it (\"ChessBase at home\").".into(),
        ));
    }
    if name.chars().count() > NAME_MAX || name.chars().any(char::is_control) {
        return Err(Error::Invalid(format!(
            "A name has at most {NAME_MAX} characters, on one line."
        )));
    }
    let scope = match kind {
        CredentialKind::AppPassword => Scope::Play,
        CredentialKind::Token => scope,
    };
    // The prefix tells a reader of a leaked secret what it is.
    let prefix = match kind {
        CredentialKind::AppPassword => "mxa_",
        CredentialKind::Token => "mxt_",
    };
    let secret = format!("{prefix}{}", crate::util::random_token());
    crate::db::write_transaction(conn, |conn| {
        crate::db::user_lock::lock_user(conn, user.id)?;
        let held: i64 = api_credentials::table
            .filter(api_credentials::user_id.eq(user.id))
            .filter(api_credentials::kind.eq(kind.code()))
            .count()
            .get_result(conn)?;
        if held >= MAX_PER_KIND {
            return Err(Error::Invalid(format!(
                "You have {MAX_PER_KIND} already: revoke one you no longer use first."
            )));
        }
        diesel::insert_into(api_credentials::table)
            .values((
                api_credentials::user_id.eq(user.id),
                api_credentials::kind.eq(kind.code()),
                api_credentials::scope.eq(scope.code()),
                api_credentials::name.eq(name),
                api_credentials::secret_hash.eq(token_hash(&secret)),
                api_credentials::created_at.eq(now),
            ))
            .execute(conn)?;
        let credential = per_backend!(conn, |c| api_credentials::table
            .filter(api_credentials::secret_hash.eq(token_hash(&secret)))
            .select(Credential::as_select())
            .first(c))?;
        Ok(Issued { credential, secret })
    })
}

/// The account's credentials of `kind`, newest first.
pub fn list(
    conn: &mut DbConn,
    user_id: i32,
    kind: CredentialKind,
) -> Result<Vec<Credential>, Error> {
    Ok(per_backend!(conn, |c| api_credentials::table
        .filter(api_credentials::user_id.eq(user_id))
        .filter(api_credentials::kind.eq(kind.code()))
        .order(api_credentials::id.desc())
        .select(Credential::as_select())
        .load(c))?)
}

/// Revoke one of the account's own credentials (404 for anyone else's).
pub fn revoke(conn: &mut DbConn, user_id: i32, kind: CredentialKind, id: i32) -> Result<(), Error> {
    let gone = diesel::delete(
        api_credentials::table
            .filter(api_credentials::id.eq(id))
            .filter(api_credentials::user_id.eq(user_id))
            .filter(api_credentials::kind.eq(kind.code())),
    )
    .execute(conn)?;
    match gone {
        1 => Ok(()),
        _ => Err(Error::NotFound(
            "You have no such credential (it may be revoked already).".into(),
        )),
    }
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

/// The user and credential a secret of `kind` belongs to, if it is one
/// and the account is usable. With `username` (Xfcc sends one), the
/// secret must be that account's.
pub fn authenticate(
    conn: &mut DbConn,
    kind: CredentialKind,
    username: Option<&str>,
    secret: &str,
) -> Result<Option<(User, Credential)>, Error> {
    let hash = token_hash(secret.trim());
    let found: Option<(User, Credential)> = per_backend!(conn, |c| api_credentials::table
        .inner_join(users::table)
        .filter(api_credentials::secret_hash.eq(&hash))
        .filter(api_credentials::kind.eq(kind.code()))
        .filter(users::disabled_at.is_null())
        .filter(users::deleted_at.is_null())
        .select((User::as_select(), Credential::as_select()))
        .first(c)
        .optional())?;
    Ok(found.filter(|(user, _)| {
        username.is_none_or(|n| crate::accounts::users::username_key(n) == user.username_key)
    }))
}

/// Whether "last used" is due to be written again.
pub fn use_stale(credential: &Credential, now: NaiveDateTime) -> bool {
    credential
        .last_used_at
        .is_none_or(|t| now - t >= Duration::minutes(USE_NOTED_EVERY_MINUTES))
}

/// Note that a credential was used (shown on the settings page).
pub fn note_use(conn: &mut DbConn, id: i32, now: NaiveDateTime) -> QueryResult<usize> {
    diesel::update(api_credentials::table.find(id))
        .set(api_credentials::last_used_at.eq(Some(now)))
        .execute(conn)
}
