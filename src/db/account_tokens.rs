//! One-use account links' rows (`account_tokens`): password resets and
//! address changes. A row keeps its link's salt and the SHA-256 of its
//! token, never the token.

use crate::db::schema::{account_tokens, users};
use crate::db::{per_backend, DbConn};
use crate::domain::account_token::{token_for, TokenPurpose};
use chrono::NaiveDateTime;
use diesel::prelude::*;

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = account_tokens)]
pub struct AccountToken {
    pub id: i32,
    pub user_id: i32,
    #[diesel(deserialize_as = String)]
    pub purpose: TokenPurpose,
    pub new_email: Option<String>,
    pub salt: String,
    pub token_hash: String,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    pub used_at: Option<NaiveDateTime>,
}

impl AccountToken {
    /// The token its link carries.
    pub fn token(&self, secret: &[u8]) -> String {
        token_for(secret, self.purpose, self.user_id, &self.salt)
    }

    /// The link a mail or the support command gives.
    pub fn url(&self, base_url: &str, secret: &[u8]) -> String {
        let path = match self.purpose {
            TokenPurpose::PasswordReset => "/password/reset",
            TokenPurpose::EmailChange => "/email/confirm",
        };
        format!("{base_url}{path}?token={}", self.token(secret))
    }

    /// Not used, not expired.
    pub fn usable(&self, now: NaiveDateTime) -> bool {
        self.used_at.is_none() && now < self.expires_at
    }
}

/// A link's row before it is stored.
pub struct NewToken<'a> {
    pub user_id: i32,
    pub purpose: TokenPurpose,
    pub new_email: Option<&'a str>,
    pub salt: &'a str,
    pub hash: &'a str,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
}

/// Store `new` when its `user_id` is an account's, else nothing: one
/// `INSERT … SELECT` from the user's row, the same statement either way.
pub fn insert_if_user(conn: &mut DbConn, new: &NewToken) -> QueryResult<usize> {
    use diesel::sql_types::{Nullable, Text, Timestamp};
    let new_email = new.new_email.map(str::to_string);
    per_backend!(conn, |c| {
        let row = users::table.filter(users::id.eq(new.user_id)).select((
            users::id,
            new.purpose.code().into_sql::<Text>(),
            new_email.clone().into_sql::<Nullable<Text>>(),
            new.salt.into_sql::<Text>(),
            new.hash.into_sql::<Text>(),
            new.created_at.into_sql::<Timestamp>(),
            new.expires_at.into_sql::<Timestamp>(),
        ));
        diesel::insert_into(account_tokens::table)
            .values(row)
            .into_columns((
                account_tokens::user_id,
                account_tokens::purpose,
                account_tokens::new_email,
                account_tokens::salt,
                account_tokens::token_hash,
                account_tokens::created_at,
                account_tokens::expires_at,
            ))
            .execute(c)
    })
}

/// The row stored under `hash`, of any purpose.
pub fn find_by_hash(conn: &mut DbConn, hash: &str) -> QueryResult<Option<AccountToken>> {
    account_tokens::table
        .filter(account_tokens::token_hash.eq(hash))
        .select(AccountToken::as_select())
        .first(conn)
        .optional()
}

/// The row of `purpose` stored under `hash`.
pub fn find_for(
    conn: &mut DbConn,
    hash: &str,
    purpose: TokenPurpose,
) -> QueryResult<Option<AccountToken>> {
    account_tokens::table
        .filter(account_tokens::token_hash.eq(hash))
        .filter(account_tokens::purpose.eq(purpose.code()))
        .select(AccountToken::as_select())
        .first(conn)
        .optional()
}

pub fn find(conn: &mut DbConn, id: i32) -> QueryResult<Option<AccountToken>> {
    account_tokens::table
        .find(id)
        .select(AccountToken::as_select())
        .first(conn)
        .optional()
}

/// A user's rows of `purpose`, used or not.
pub fn of_user(
    conn: &mut DbConn,
    user_id: i32,
    purpose: TokenPurpose,
) -> QueryResult<Vec<AccountToken>> {
    account_tokens::table
        .filter(account_tokens::user_id.eq(user_id))
        .filter(account_tokens::purpose.eq(purpose.code()))
        .select(AccountToken::as_select())
        .load(conn)
}

/// How many unused links of `purpose` a user was given after `since`.
pub fn unused_since(
    conn: &mut DbConn,
    user_id: i32,
    purpose: TokenPurpose,
    since: NaiveDateTime,
) -> QueryResult<i64> {
    account_tokens::table
        .filter(account_tokens::user_id.eq(user_id))
        .filter(account_tokens::purpose.eq(purpose.code()))
        .filter(account_tokens::used_at.is_null())
        .filter(account_tokens::created_at.gt(since))
        .count()
        .get_result(conn)
}

/// Every unused link of `purpose` of a user stops working (a password
/// changed by any path voids the reset links). Used ones stay, so a second
/// use is told "already used".
pub fn void(conn: &mut DbConn, user_id: i32, purpose: TokenPurpose) -> QueryResult<usize> {
    diesel::delete(
        account_tokens::table
            .filter(account_tokens::user_id.eq(user_id))
            .filter(account_tokens::purpose.eq(purpose.code()))
            .filter(account_tokens::used_at.is_null()),
    )
    .execute(conn)
}

/// Mark row `id` used, unless it already is: 0 when another request did
/// first.
pub fn mark_used(conn: &mut DbConn, id: i32, now: NaiveDateTime) -> QueryResult<usize> {
    diesel::update(
        account_tokens::table
            .filter(account_tokens::id.eq(id))
            .filter(account_tokens::used_at.is_null()),
    )
    .set(account_tokens::used_at.eq(Some(now)))
    .execute(conn)
}

/// Forget every link of a user (the account is deleted).
pub fn erase_all(conn: &mut DbConn, user_id: i32) -> QueryResult<usize> {
    diesel::delete(account_tokens::table.filter(account_tokens::user_id.eq(user_id))).execute(conn)
}
