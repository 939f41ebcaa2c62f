//! Accounts: sign-up, log-in with rate limiting, sessions.

use crate::db::models::{NewUser, User};
use crate::db::schema::{login_attempts, sessions, users};
use crate::db::{is_unique_violation, per_backend, DbConn};
use crate::domain::error::Error;
use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::Argon2;
use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;
use sha2::{Digest, Sha256};

/// How long a login lasts.
pub const SESSION_DAYS: i64 = 30;
pub const USERNAME_MIN: usize = 3;
pub const USERNAME_MAX: usize = 20;
pub use crate::accounts::password_policy::{PASSWORD_MAX, PASSWORD_MIN};
/// The prefix of deleted accounts' names (`deleted-7`), which nobody may pick.
pub const DELETED_PREFIX: &str = "deleted-";

/// How usernames compare: case-insensitively.
pub fn username_key(name: &str) -> String {
    name.trim().to_ascii_lowercase()
}

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
    if crate::accounts::retired_names::name_retired(conn, &key, now)? {
        return Err(Error::Invalid(format!(
            "The username “{username}” belonged to an account deleted less than {} days ago; \
             choose another.",
            crate::accounts::retired_names::NAME_RETIRED_DAYS
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
    match diesel::insert_into(users::table).values(&new).execute(conn) {
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
    use crate::db::schema::verified_emails;
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        let user = signup(conn, username, email, password, now)?;
        diesel::insert_into(verified_emails::table)
            .values((
                verified_emails::user_id.eq(user.id),
                verified_emails::email.eq(&user.email),
                verified_emails::verified_at.eq(now),
            ))
            .execute(conn)?;
        Ok(user)
    })
}

pub fn find_by_name(conn: &mut DbConn, name: &str) -> QueryResult<Option<User>> {
    users::table
        .filter(users::username_key.eq(username_key(name)))
        .select(User::as_select())
        .first(conn)
        .optional()
}

pub fn find_by_id(conn: &mut DbConn, id: i32) -> QueryResult<Option<User>> {
    users::table
        .find(id)
        .select(User::as_select())
        .first(conn)
        .optional()
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
    diesel::insert_into(login_attempts::table)
        .values((
            login_attempts::username_key.eq(&key),
            login_attempts::ip.eq(ip),
            login_attempts::success.eq(ok),
            login_attempts::attempted_at.eq(now),
        ))
        .execute(conn)?;
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
    diesel::insert_into(sessions::table)
        .values((
            sessions::token_hash.eq(token_hash(&token)),
            sessions::user_id.eq(user_id),
            sessions::created_at.eq(now),
            sessions::expires_at.eq(now + Duration::days(SESSION_DAYS)),
            sessions::last_seen_at.eq(Some(now)),
            sessions::user_agent.eq(agent),
        ))
        .execute(conn)?;
    Ok(token)
}

pub fn session_user(
    conn: &mut DbConn,
    token: &str,
    now: NaiveDateTime,
) -> QueryResult<Option<User>> {
    Ok(session_standing(conn, token, now)?.map(|s| s.user))
}

/// A session's user, and whether their current address is confirmed: read
/// together, since every page says so when it is not.
pub struct SessionUser {
    pub user: User,
    pub email_verified: bool,
    /// The mail server refused the user's current address for good.
    pub email_failing: bool,
    /// When the session was last marked seen (`None`: before issue 36).
    pub last_seen_at: Option<NaiveDateTime>,
}

pub fn session_standing(
    conn: &mut DbConn,
    token: &str,
    now: NaiveDateTime,
) -> QueryResult<Option<SessionUser>> {
    use crate::db::schema::{mail_failures, verified_emails};
    let hash = token_hash(token);
    // A disabled or deleted account's sessions are ended when it is, and
    // refused here too, so no session outlives the decision.
    // The user, their confirmed address, a refused address, last seen.
    type Standing = (User, Option<String>, Option<String>, Option<NaiveDateTime>);
    let row: Option<Standing> = per_backend!(conn, |c| sessions::table
        .inner_join(users::table)
        .left_join(verified_emails::table.on(verified_emails::user_id.eq(users::id)))
        .left_join(mail_failures::table.on(mail_failures::user_id.eq(users::id)))
        .filter(sessions::token_hash.eq(&hash))
        .filter(sessions::expires_at.gt(now))
        .filter(users::disabled_at.is_null())
        .filter(users::deleted_at.is_null())
        .select((
            User::as_select(),
            verified_emails::email.nullable(),
            mail_failures::email.nullable(),
            sessions::last_seen_at,
        ))
        .first(c)
        .optional())?;
    Ok(
        row.map(|(user, verified, failing, last_seen_at)| SessionUser {
            email_verified: verified.is_some_and(|v| v == user.email),
            // A refusal of an address the user has since changed is past.
            email_failing: failing.is_some_and(|f| f == user.email),
            user,
            last_seen_at,
        }),
    )
}

pub fn end_session(conn: &mut DbConn, token: &str) -> QueryResult<()> {
    diesel::delete(sessions::table.filter(sessions::token_hash.eq(token_hash(token))))
        .execute(conn)?;
    Ok(())
}

pub fn set_confirm_moves(conn: &mut DbConn, user_id: i32, on: bool) -> QueryResult<()> {
    diesel::update(users::table.find(user_id))
        .set(users::confirm_moves.eq(on))
        .execute(conn)?;
    Ok(())
}

/// Delete expired sessions and login attempts older than a day (run at
/// start-up; the rate limit only looks at the recent window).
pub fn prune(conn: &mut DbConn, now: NaiveDateTime) -> QueryResult<(usize, usize)> {
    let sessions =
        diesel::delete(sessions::table.filter(sessions::expires_at.le(now))).execute(conn)?;
    let attempts = diesel::delete(
        login_attempts::table.filter(login_attempts::attempted_at.lt(now - Duration::days(1))),
    )
    .execute(conn)?;
    Ok((sessions, attempts))
}
