//! Accounts: sign-up, log-in with rate limiting, sessions.

use crate::db::sessions::SessionUser;
use crate::db::users::{find_by_name, username_key, NewUser, User};
use crate::db::{is_unique_violation, login_attempts, retired_usernames, sessions, DbConn};
use crate::domain::error::Error;
use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::Argon2;
use chrono::{Duration, NaiveDateTime};
use sha2::{Digest, Sha256};

/// How long a login lasts.
pub const SESSION_DAYS: i64 = 30;
pub const USERNAME_MIN: usize = 3;
pub const USERNAME_MAX: usize = 20;
pub use crate::accounts::password_policy::{PASSWORD_MAX, PASSWORD_MIN};
/// The prefix of deleted accounts' names (`deleted-7`), which nobody may pick.
pub const DELETED_PREFIX: &str = "deleted-";

pub fn validate_username(name: &str) -> Result<(), String> {
    let n = name.chars().count();
    if !(USERNAME_MIN..=USERNAME_MAX).contains(&n) {
        return Err(format!(
            "A username has {USERNAME_MIN} to {USERNAME_MAX} characters."
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err("A username may use only letters a–z, digits, “_” and “-”.".into());
    }
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Err("A username starts with a letter.".into());
    }
    if username_key(name).starts_with(DELETED_PREFIX) {
        return Err(format!(
            "Names starting with “{DELETED_PREFIX}” stand for deleted accounts."
        ));
    }
    Ok(())
}

/// One plain address (`name@example.org`), as lettre reads it: never a
/// list, a display name or anything a mail header would read as more than
/// one recipient.
pub fn validate_email(email: &str) -> Result<(), String> {
    let bad = || Err("That does not look like an email address (name@example.org).".to_string());
    if email.len() > 254 || email.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return bad();
    }
    if let Some(c) = email
        .chars()
        .find(|c| matches!(c, ',' | ';' | '<' | '>' | '"' | '(' | ')'))
    {
        return Err(format!(
            "Give one plain address (name@example.org): “{c}” is not allowed, \
             nor lists, names or angle brackets."
        ));
    }
    let Some((local, domain)) = email.rsplit_once('@') else {
        return bad();
    };
    if local.is_empty()
        || local.contains('@')
        || domain.len() < 3
        || !domain.contains('.')
        || domain.starts_with('.')
        || domain.ends_with('.')
        || domain.contains("..")
    {
        return bad();
    }
    // A domain must be a name: an address literal (`a@[127.0.0.1]`) or a
    // bare IP address points mail at whatever machine the sender chose.
    if domain.starts_with('[') || domain.parse::<std::net::IpAddr>().is_ok() || numeric_tld(domain)
    {
        return Err(
            "Give an address at a domain name (name@example.org), not at a network address."
                .to_string(),
        );
    }
    if email.parse::<lettre::Address>().is_err() {
        return bad();
    }
    Ok(())
}

/// `1.2.3.4`-like domains that `IpAddr` does not read (`0x7f.1`, `127.1`):
/// no top-level domain is all digits.
fn numeric_tld(domain: &str) -> bool {
    domain
        .rsplit('.')
        .next()
        .map(str::to_ascii_lowercase)
        .is_some_and(|tld| tld.starts_with("0x") || tld.chars().all(|c| c.is_ascii_digit()))
}

/// The password policy ([`crate::accounts::password_policy`]).
pub fn validate_password(password: &str, username: &str, email: &str) -> Result<(), String> {
    crate::accounts::password_policy::check(password, username, email)
}

pub fn hash_password(password: &str) -> Result<String, Error> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| Error::internal(format!("argon2: {e}")))
}

pub fn verify_password(password: &str, hash: &str) -> bool {
    match PasswordHash::new(hash) {
        Ok(parsed) => Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    }
}

/// Create an account. Validation problems come back as `Error::Invalid`.
pub fn signup(
    conn: &mut DbConn,
    username: &str,
    email: &str,
    password: &str,
    now: NaiveDateTime,
) -> Result<User, Error> {
    let username = username.trim();
    let email = email.trim();
    validate_username(username).map_err(Error::Invalid)?;
    validate_email(email).map_err(Error::Invalid)?;
    validate_password(password, username, email).map_err(Error::Invalid)?;
    let key = username_key(username);
    let taken = || Error::Invalid(format!("The username “{username}” is already taken."));
    if find_by_name(conn, &key)?.is_some() {
        return Err(taken());
    }
    if retired_usernames::name_retired(conn, &key, now)? {
        return Err(Error::Invalid(format!(
            "The username “{username}” belonged to an account deleted less than {} days ago; \
             choose another.",
            retired_usernames::NAME_RETIRED_DAYS
        )));
    }
    let hash = hash_password(password)?;
    let new = NewUser {
        username,
        username_key: &key,
        email,
        password_hash: &hash,
        confirm_moves: true,
        created_at: now,
    };
    match crate::db::users::insert(conn, &new) {
        Ok(_) => {}
        Err(e) if is_unique_violation(&e) => return Err(taken()),
        Err(e) => return Err(e.into()),
    }
    find_by_name(conn, &key)?.ok_or_else(|| Error::internal("new user vanished"))
}

/// An account made by the administrator (`missive user create`): validated
/// like a sign-up, and its address counted as verified (no mail is sent).
pub fn create_verified(
    conn: &mut DbConn,
    username: &str,
    email: &str,
    password: &str,
    now: NaiveDateTime,
) -> Result<User, Error> {
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        let user = signup(conn, username, email, password, now)?;
        crate::db::verified_emails::insert(conn, user.id, &user.email, now)?;
        Ok(user)
    })
}

/// A precomputed hash so unknown usernames take as long as known ones.
fn dummy_hash() -> &'static str {
    static H: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    H.get_or_init(|| hash_password("not a real password at all").unwrap_or_default())
}

/// Check credentials and record the check (`login_attempts`, one row per
/// password checked). The caller has claimed the attempt first
/// (`accounts::login_limit::claim`).
pub fn login(
    conn: &mut DbConn,
    username: &str,
    password: &str,
    ip: &str,
    now: NaiveDateTime,
) -> Result<User, Error> {
    let key = username_key(username);
    let key: String = key.chars().take(64).collect();
    let user = find_by_name(conn, &key)?;
    let ok = match &user {
        Some(u) => verify_password(password, &u.password_hash),
        None => {
            verify_password(password, dummy_hash());
            false
        }
    };
    login_attempts::record(conn, &key, ip, ok, now)?;
    match user {
        Some(u) if ok => Ok(u),
        _ => Err(Error::Invalid("Wrong username or password.".into())),
    }
}

pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Start a session; returns the token for the cookie (only its hash is stored).
pub fn create_session(
    conn: &mut DbConn,
    user_id: i32,
    now: NaiveDateTime,
) -> Result<String, Error> {
    create_session_from(conn, user_id, "", now)
}

/// [`create_session`] remembering the browser's `User-Agent`, which
/// `/settings` shows beside the session.
pub fn create_session_from(
    conn: &mut DbConn,
    user_id: i32,
    user_agent: &str,
    now: NaiveDateTime,
) -> Result<String, Error> {
    let token = crate::util::random_token();
    let agent: String = user_agent.chars().take(300).collect();
    sessions::insert(
        conn,
        &token_hash(&token),
        user_id,
        &agent,
        now,
        now + Duration::days(SESSION_DAYS),
    )?;
    Ok(token)
}

pub fn session_user(
    conn: &mut DbConn,
    token: &str,
    now: NaiveDateTime,
) -> Result<Option<User>, Error> {
    Ok(session_standing(conn, token, now)?.map(|s| s.user))
}

pub fn session_standing(
    conn: &mut DbConn,
    token: &str,
    now: NaiveDateTime,
) -> Result<Option<SessionUser>, Error> {
    Ok(sessions::standing(conn, &token_hash(token), now)?)
}

pub fn end_session(conn: &mut DbConn, token: &str) -> Result<(), Error> {
    sessions::delete(conn, &token_hash(token))?;
    Ok(())
}

/// Delete expired sessions and login attempts older than a day (run at
/// start-up; the rate limit only looks at the recent window).
pub fn prune(conn: &mut DbConn, now: NaiveDateTime) -> Result<(usize, usize), Error> {
    let sessions = sessions::delete_expired(conn, now)?;
    let attempts = login_attempts::delete_before(conn, now - Duration::days(1))?;
    Ok((sessions, attempts))
}
