//! Credentials for client programs (issue 41): app passwords for Xfcc
//! clients and personal tokens for the JSON API. Each is named, shown once
//! when made and stored only as its SHA-256 (a random 256-bit secret needs
//! no slow hash: there is nothing to guess from), and revoked by deleting
//! its row. A disabled or deleted account's credentials sign in nowhere.

use crate::accounts::users::token_hash;
use crate::db::api_credentials::{self as rows, Credential};
use crate::db::users::{username_key, User};
use crate::db::DbConn;
use crate::domain::api_credential::{CredentialKind, Scope};
use crate::domain::error::Error;
use chrono::{Duration, NaiveDateTime};

/// Credentials of one kind an account may hold at once.
pub const MAX_PER_KIND: i64 = 20;
/// The longest name, in characters.
pub const NAME_MAX: usize = 60;
/// "Last used" is written at most this often per credential.
const USE_NOTED_EVERY_MINUTES: i64 = 5;

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
        let held = rows::count_of_kind(conn, user.id, kind)?;
        if held >= MAX_PER_KIND {
            return Err(Error::Invalid(format!(
                "You have {MAX_PER_KIND} already: revoke one you no longer use first."
            )));
        }
        let credential = rows::insert(conn, user.id, kind, scope, name, &token_hash(&secret), now)?;
        Ok(Issued { credential, secret })
    })
}

/// Revoke one of the account's own credentials (404 for anyone else's).
pub fn revoke(conn: &mut DbConn, user_id: i32, kind: CredentialKind, id: i32) -> Result<(), Error> {
    match rows::delete_own(conn, user_id, kind, id)? {
        1 => Ok(()),
        _ => Err(Error::NotFound(
            "You have no such credential (it may be revoked already).".into(),
        )),
    }
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
    let found = rows::find_usable(conn, kind, &hash)?;
    Ok(found.filter(|(user, _)| username.is_none_or(|n| username_key(n) == user.username_key)))
}

/// Whether "last used" is due to be written again.
pub fn use_stale(credential: &Credential, now: NaiveDateTime) -> bool {
    credential
        .last_used_at
        .is_none_or(|t| now - t >= Duration::minutes(USE_NOTED_EVERY_MINUTES))
}
