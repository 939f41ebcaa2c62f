//! One-use account links: password resets and address changes.
//!
//! The token in a link is an HMAC of the row's random salt under the server
//! secret, so the outbox can write the mail when its turn comes without the
//! token being kept anywhere; the row stores only the token's SHA-256 (for
//! the lookup). A row is used at most once, by a conditional update.

use crate::accounts::users::token_hash;
use crate::db::schema::account_tokens;
use crate::db::DbConn;
use crate::domain::account_token::TokenPurpose;
use crate::domain::error::Error;
use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// How long a password-reset link works.
pub const RESET_MINUTES: i64 = 60;
/// How long a link confirming a new address works.
pub const EMAIL_CHANGE_HOURS: i64 = 24;

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

fn token_for(secret: &[u8], purpose: TokenPurpose, user: i32, salt: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(format!("account-token:{}:{user}:{salt}", purpose.code()).as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// A new link for `user_id`; earlier unused links of the same purpose stop
/// working (only the newest mail's link is good).
pub fn issue(
    conn: &mut DbConn,
    secret: &[u8],
    user_id: i32,
    purpose: TokenPurpose,
    new_email: Option<&str>,
    now: NaiveDateTime,
) -> Result<AccountToken, Error> {
    issue_if_user(conn, secret, user_id, purpose, new_email, now)?
        .ok_or_else(|| Error::internal(format!("a link for user {user_id}, who is not there")))
}

/// [`issue`] when `user_id` is an account; for an id with none (0), the
/// same statements, which then store nothing: `/password/forgot` does the
/// same work whether the address has an account or not.
pub fn issue_if_user(
    conn: &mut DbConn,
    secret: &[u8],
    user_id: i32,
    purpose: TokenPurpose,
    new_email: Option<&str>,
    now: NaiveDateTime,
) -> Result<Option<AccountToken>, Error> {
    use crate::db::per_backend;
    use crate::db::schema::users;
    use diesel::sql_types::{Nullable, Text, Timestamp};
    let salt = crate::util::random_token();
    let hash = token_hash(&token_for(secret, purpose, user_id, &salt));
    let ttl = match purpose {
        TokenPurpose::PasswordReset => Duration::minutes(RESET_MINUTES),
        TokenPurpose::EmailChange => Duration::hours(EMAIL_CHANGE_HOURS),
    };
    void(conn, user_id, purpose)?;
    let new_email = new_email.map(str::to_string);
    per_backend!(conn, |c| {
        let row = users::table.filter(users::id.eq(user_id)).select((
            users::id,
            purpose.code().into_sql::<Text>(),
            new_email.clone().into_sql::<Nullable<Text>>(),
            salt.as_str().into_sql::<Text>(),
            hash.as_str().into_sql::<Text>(),
            now.into_sql::<Timestamp>(),
            (now + ttl).into_sql::<Timestamp>(),
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
    })?;
    Ok(account_tokens::table
        .filter(account_tokens::token_hash.eq(&hash))
        .select(AccountToken::as_select())
        .first(conn)
        .optional()?)
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

pub fn find(conn: &mut DbConn, id: i32) -> QueryResult<Option<AccountToken>> {
    account_tokens::table
        .find(id)
        .select(AccountToken::as_select())
        .first(conn)
        .optional()
}

/// Why a link is refused, in words.
fn refusal(purpose: TokenPurpose, why: &str) -> Error {
    let again = match purpose {
        TokenPurpose::PasswordReset => "Ask for a new one at /password/forgot.",
        TokenPurpose::EmailChange => "Ask for the change again in your settings.",
    };
    Error::Invalid(format!("This link {why}. {again}"))
}

/// The row of a link that still works, or why it does not.
pub fn check(
    conn: &mut DbConn,
    token: &str,
    purpose: TokenPurpose,
    now: NaiveDateTime,
) -> Result<AccountToken, Error> {
    let token = token.trim();
    let found = if token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit()) {
        account_tokens::table
            .filter(account_tokens::token_hash.eq(token_hash(&token.to_ascii_lowercase())))
            .filter(account_tokens::purpose.eq(purpose.code()))
            .select(AccountToken::as_select())
            .first(conn)
            .optional()?
    } else {
        None
    };
    match found {
        None => Err(refusal(
            purpose,
            "is not valid (it may have been cut short, or replaced by a newer one, or the \
             password changed since)",
        )),
        Some(t) if t.used_at.is_some() => Err(refusal(purpose, "has already been used")),
        Some(t) if now >= t.expires_at => Err(refusal(purpose, "has expired")),
        Some(t) => Ok(t),
    }
}

/// Use a link: [`check`], then mark it used unless another request did
/// first (call inside the transaction of what the link does).
pub fn redeem(
    conn: &mut DbConn,
    token: &str,
    purpose: TokenPurpose,
    now: NaiveDateTime,
) -> Result<AccountToken, Error> {
    let t = check(conn, token, purpose, now)?;
    let n = diesel::update(
        account_tokens::table
            .filter(account_tokens::id.eq(t.id))
            .filter(account_tokens::used_at.is_null()),
    )
    .set(account_tokens::used_at.eq(Some(now)))
    .execute(conn)?;
    if n == 0 {
        return Err(refusal(purpose, "has already been used"));
    }
    Ok(t)
}
