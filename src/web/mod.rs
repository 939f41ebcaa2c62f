//! Request plumbing shared by the routes: application state, the session and
//! CSRF cookies and the request context extractor; database work is run
//! from a request through [`db_calls`].

pub mod assets;
pub mod client_addr;
pub mod db_calls;
pub mod error;
pub mod head;
pub mod headers;
pub mod login_return;
pub mod nesting;
pub mod nul_guard;
pub mod routes;
pub mod rules_pool;
pub mod slow_clients;
pub mod user_names;
pub mod views;

use crate::accounts::users as accounts;
use crate::config::Config;
use crate::db::sessions::SessionUser;
use crate::db::users::User;
use crate::db::{DbConn, Pool};
use crate::domain::error::Error;
use actix_web::cookie::{Cookie, SameSite};
use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpMessage, HttpRequest, HttpResponse};
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

pub const SESSION_COOKIE: &str = "missive_session";
/// The browser's device cookie for the account it last logged in to
/// ([`crate::accounts::device_cookies`]).
pub const DEVICE_COOKIE: &str = "missive_device";
pub const CSRF_COOKIE: &str = "missive_csrf";
pub use crate::accounts::users::SESSION_DAYS;

pub struct AppState {
    pub pool: Pool,
    /// Shut by [`AppState::stop_connecting`] once the server has stopped.
    pool_gate: crate::db::PoolGate,
    pub config: Config,
    pub secret: Vec<u8>,
    /// One permit per pooled connection: requests wait here, as futures,
    /// rather than as parked database threads queueing on the pool.
    pub db_permits: tokio::sync::Semaphore,
    /// One permit per core for rules work ([`rules_pool`]).
    pub rules_permits: tokio::sync::Semaphore,
    /// Finished games' records.
    pub records: crate::game::exports::RecordCache,
    pub positions: crate::game::positions::PositionCache,
    /// Board pictures by what they show.
    pub pictures: crate::web::views::pictures::Pictures,
    /// The plies game pages list, kept between views.
    pub listed: crate::web::views::listed_moves::ListedMoves,
    /// Usernames by id, kept (they never change).
    pub names: crate::web::user_names::UserNames,
    /// How moves are committed (SQLite: grouped by one writer thread).
    pub writes: crate::db::Writes,
    /// Whether [`short`] work may run on the request's own thread: on SQLite,
    /// whose reads never wait for a lock in WAL mode; not on PostgreSQL,
    /// where every statement is a trip over the network.
    inline_short_work: bool,
    /// Requests in progress per client address ([`slow_clients`]).
    pub in_progress: slow_clients::PerAddress,
    /// Record checks in progress per client address, and the checks'
    /// own permits ([`rules_pool::checks_work`]).
    pub checks_in_progress: slow_clients::PerAddress,
    pub check_permits: tokio::sync::Semaphore,
    /// Record checks running or waiting, at most
    /// [`rules_pool::CHECKS_WAITING`] more than run.
    pub check_queue: tokio::sync::Semaphore,
    /// Posted variants' checks running ([`crate::config::PostedLimits`]'s
    /// `at_once`), and running or waiting (`at_once + queue`).
    pub variant_check_permits: tokio::sync::Semaphore,
    pub variant_check_queue: tokio::sync::Semaphore,
}

impl AppState {
    pub fn new(
        pool: Pool,
        pool_gate: crate::db::PoolGate,
        config: Config,
        secret: Vec<u8>,
        writes: crate::db::Writes,
    ) -> AppState {
        let permits = pool.max_size() as usize;
        let cache_bytes = u64::from(config.position_cache_mb) << 20;
        let backend = crate::db::parse_url(&config.database_url).0;
        let inline_short_work = backend == crate::db::Backend::Sqlite;
        let (checks_at_once, checks_waiting) = (config.posted.at_once, config.posted.queue);
        AppState {
            pool,
            pool_gate,
            config,
            secret,
            db_permits: tokio::sync::Semaphore::new(permits),
            rules_permits: tokio::sync::Semaphore::new(rules_pool::permits()),
            records: crate::game::exports::RecordCache::new(cache_bytes),
            positions: crate::game::positions::PositionCache::new(cache_bytes),
            pictures: crate::web::views::pictures::Pictures::new(cache_bytes),
            listed: crate::web::views::listed_moves::ListedMoves::new(cache_bytes),
            // About 64 bytes a name: as many names as listed plies' bytes / 64.
            names: crate::web::user_names::UserNames::new((cache_bytes / 64) as usize),
            writes,
            inline_short_work,
            in_progress: Default::default(),
            checks_in_progress: Default::default(),
            check_permits: tokio::sync::Semaphore::new(rules_pool::check_permits()),
            variant_check_permits: tokio::sync::Semaphore::new(checks_at_once),
            variant_check_queue: tokio::sync::Semaphore::new(checks_at_once + checks_waiting),
            check_queue: tokio::sync::Semaphore::new(
                rules_pool::check_permits() + rules_pool::CHECKS_WAITING,
            ),
        }
    }

    /// For when the server and the background jobs have stopped: the pool
    /// opens no new connection, and those being opened are waited for (up
    /// to a few seconds), so none is inside libpq when the process exits
    /// ([`crate::db::pool_gate`]).
    pub fn stop_connecting(&self) {
        if !self.pool_gate.shut(std::time::Duration::from_secs(5)) {
            tracing::warn!("a database connection was still being opened at shutdown");
        }
    }
}

pub type State = web::Data<Arc<AppState>>;

/// Open the database (creating and migrating it) and load the secret.
pub fn build_state(config: &Config) -> anyhow::Result<Arc<AppState>> {
    if let Some(dir) = &config.variants_dir {
        let ids = crate::variant_files::load(dir)?;
        tracing::info!(
            "{} variants from {}: {}",
            ids.len(),
            dir.display(),
            ids.join(", ")
        );
    }
    let manager = crate::db::Manager::from_config(config);
    let pool_gate = manager.gate();
    let pool = crate::db::connect_with(manager.clone(), config.pool_size)?;
    let mut conn = pool.get()?;
    let secret = crate::db::settings::load_secret(&mut conn, config.secret.as_deref())?;
    let (sessions, attempts) = crate::accounts::users::prune(&mut conn, crate::util::now())?;
    if sessions + attempts > 0 {
        tracing::info!("pruned {sessions} expired sessions and {attempts} old login attempts");
    }
    // Keys quiet for days hold nothing a limit still reads.
    let now = crate::util::now();
    crate::db::login_throttles::prune(&mut conn, now - chrono::Duration::days(2))?;
    crate::accounts::send_limits::prune(&mut conn, now)?;
    drop(conn);
    let posted = crate::posted::lookup::offer_stored(&pool)?;
    if posted > 0 {
        tracing::info!("{posted} versions of posted variants offered");
    }
    let writes = crate::db::Writes::for_database(&manager)?;
    Ok(Arc::new(AppState::new(
        pool,
        pool_gate,
        config.clone(),
        secret,
        writes,
    )))
}

pub use crate::db::settings::load_secret;
pub use crate::util::{clip, now, random_token};

/// The zone a page shows moments in: the signed-in viewer's, else UTC.
pub fn viewer_zone(viewer: Option<&User>) -> chrono_tz::Tz {
    viewer.map_or(chrono_tz::Tz::UTC, |u| {
        crate::domain::week::zone_or_utc(&u.time_zone)
    })
}
use db_calls::{settle_move, short, short_read};

/// A new session for `user_id`: the token for its cookie, a
/// [`Secret`](crate::db::once::Secret) (only its hash is stored).
pub async fn new_session(
    state: &AppState,
    user_id: i32,
    user_agent: String,
) -> Result<String, Error> {
    let made = state
        .write(move |conn| {
            accounts::create_session_from(conn, user_id, &user_agent, now())
                .map(crate::db::once::Secret)
        })
        .await?;
    Ok(made.0)
}

/// The session's user and `f`'s answer, read
/// [`together`](crate::db::together).
fn lookup_then<F, T>(
    conn: &mut DbConn,
    token: Option<&str>,
    f: F,
) -> Result<(Option<SessionUser>, Result<T, Error>), Error>
where
    F: FnOnce(&mut DbConn, Option<&User>) -> Result<T, Error>,
{
    crate::db::together(conn, |conn| -> Result<_, Error> {
        let found = match token {
            Some(t) => accounts::session_standing(conn, t, now())?,
            None => None,
        };
        let result = f(conn, found.as_ref().map(|s| &s.user));
        Ok((found, result))
    })
}

fn hmac_hex(secret: &[u8], data: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(data.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// What every page template needs: who is logged in and the form token.
#[derive(Clone, Debug, Default)]
pub struct Page {
    pub user: Option<String>,
    pub csrf: String,
    /// Show the "confirm your address" notice.
    pub email_unverified: bool,
    /// Show the "your address does not work" notice.
    pub email_failing: bool,
}

impl Page {
    pub fn anonymous() -> Page {
        Page::default()
    }
}

/// A fresh CSRF cookie value to set on the response.
#[derive(Clone)]
struct NewCsrfCookie(String);

/// The request context: the logged-in user (if any), the CSRF token for
/// forms, and the client's address.
pub struct Ctx {
    pub user: Option<User>,
    /// The user's current address is not confirmed: every page says so.
    pub email_unverified: bool,
    /// The mail server refused the user's address for good: every page says so.
    pub email_failing: bool,
    pub csrf_token: String,
    pub ip: String,
    pub state: Arc<AppState>,
}

impl Ctx {
    pub fn page(&self) -> Page {
        Page {
            user: self.user.as_ref().map(|u| u.username.clone()),
            csrf: self.csrf_token.clone(),
            email_unverified: self.email_unverified,
            email_failing: self.email_failing,
        }
    }

    /// The logged-in user, or a "please log in" error.
    pub fn require_user(&self) -> Result<&User, Error> {
        logged_in(self.user.as_ref())
    }

    /// Check a form's `csrf_token` (403 when missing or wrong).
    pub fn check_csrf(&self, token: &str) -> Result<(), Error> {
        check_csrf_token(&self.csrf_token, token)
    }
}

/// The user, or a "please log in" error (401).
pub fn logged_in(user: Option<&User>) -> Result<&User, Error> {
    user.ok_or_else(|| Error::LoginRequired("You need to log in to do that.".into()))
}

fn check_csrf_token(expected: &str, token: &str) -> Result<(), Error> {
    if !token.is_empty() && subtle_eq(token.as_bytes(), expected.as_bytes()) {
        Ok(())
    } else {
        Err(crate::web::error::csrf_refused())
    }
}

/// Constant-time comparison.
fn subtle_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The request before its session is looked up: the CSRF token, the
/// client's address and the session cookie. A handler whose work is one
/// database call takes this instead of [`Ctx`] and resolves the user inside
/// that call ([`Session::with_user`]), saving a second database call and a
/// pooled checkout per request.
#[derive(Clone)]
pub struct Session {
    token: Option<String>,
    csrf_token: String,
    ip: String,
    state: Arc<AppState>,
}

impl Session {
    pub fn state(&self) -> &Arc<AppState> {
        &self.state
    }

    /// Check a form's `csrf_token` before any database work (403 when
    /// missing or wrong).
    pub fn check_csrf(&self, token: &str) -> Result<(), Error> {
        check_csrf_token(&self.csrf_token, token)
    }

    /// Look the session up and run `f` with its user on the same pooled
    /// connection, in one [`short`] call: `f` must be short work of the
    /// kind that allows. The lookup and `f` go [`together`](crate::db::together):
    /// on SQLite one snapshot and one read-lock cycle instead of two, so `f`
    /// reads, and writes only through [`Writes`](crate::db::Writes) (a read
    /// transaction cannot always become a write one; a move refused as too
    /// late hands its loss on time to the writes too). The context comes
    /// back even when `f` fails, so the caller can still render a page.
    pub async fn with_user<F, T>(self, f: F) -> Result<(Ctx, Result<T, Error>), Error>
    where
        F: FnOnce(&mut DbConn, Option<&User>) -> Result<T, Error> + Send + 'static,
        T: Send + 'static,
    {
        let token = self.token.clone();
        let (user, result) = short(&self.state, move |conn| {
            lookup_then(conn, token.as_deref(), f)
        })
        .await?;
        Ok((self.into_ctx(user), result))
    }

    /// [`Session::with_user`] for work that only reads (a page), through
    /// [`short_read`]: the lookup and `f` run again on another connection
    /// when theirs was found gone.
    pub async fn reading_with_user<F, T>(self, f: F) -> Result<(Ctx, Result<T, Error>), Error>
    where
        F: Fn(&mut DbConn, Option<&User>) -> Result<T, Error> + Clone + Send + 'static,
        T: Send + 'static,
    {
        let token = self.token.clone();
        let (user, result) = short_read(&self.state, move |conn| {
            let (user, result) = lookup_then(conn, token.as_deref(), &f)?;
            match result {
                // For `short_read` to try again.
                Err(lost @ Error::ConnectionLost(_)) => Err(lost),
                result => Ok((user, result)),
            }
        })
        .await?;
        Ok((self.into_ctx(user), result))
    }

    /// The context alone (the session lookup in its own database call, with
    /// no transaction around its one statement).
    pub async fn resolve(self) -> Result<Ctx, Error> {
        let Some(token) = self.token.clone() else {
            return Ok(self.into_ctx(None));
        };
        let looked_up = token.clone();
        let user = short_read(&self.state, move |conn| {
            accounts::session_standing(conn, &looked_up, now())
        })
        .await?;
        if let Some(found) = &user {
            if crate::accounts::sessions::stale(found.last_seen_at, now()) {
                // "Last seen" on /settings; a failure here costs the page nothing.
                let touched = self
                    .state
                    .write(move |conn| {
                        crate::accounts::sessions::touch(conn, &token, now())?;
                        Ok(crate::db::once::Harmless)
                    })
                    .await;
                if let Err(e) = touched {
                    tracing::warn!("marking a session seen: {e}");
                }
            }
        }
        Ok(self.into_ctx(user))
    }

    fn into_ctx(self, found: Option<SessionUser>) -> Ctx {
        let email_unverified = found.as_ref().is_some_and(|s| !s.email_verified);
        let email_failing = found.as_ref().is_some_and(|s| s.email_failing);
        Ctx {
            user: found.map(|s| s.user),
            email_unverified,
            email_failing,
            csrf_token: self.csrf_token,
            ip: self.ip,
            state: self.state,
        }
    }

    fn from_request_now(req: &HttpRequest) -> Result<Session, Error> {
        let state = req
            .app_data::<State>()
            .ok_or_else(|| Error::internal("application state missing"))?
            .get_ref()
            .clone();
        // The CSRF token is an HMAC of a per-browser random cookie.
        let existing = req.extensions().get::<NewCsrfCookie>().map(|c| c.0.clone());
        let seed = match existing.or_else(|| {
            req.cookie(CSRF_COOKIE)
                .map(|c| c.value().to_string())
                .filter(|v| v.len() == 64 && v.bytes().all(|b| b.is_ascii_hexdigit()))
        }) {
            Some(v) => v,
            None => {
                let v = random_token();
                req.extensions_mut().insert(NewCsrfCookie(v.clone()));
                v
            }
        };
        let csrf_token = hmac_hex(&state.secret, &format!("csrf:{seed}"));
        let ip = client_addr::client_addr(req, state.config.trust_proxy);
        let token = req
            .cookie(SESSION_COOKIE)
            .map(|c| c.value().to_string())
            .filter(|v| v.len() == 64);
        Ok(Session {
            token,
            csrf_token,
            ip,
            state,
        })
    }
}

impl FromRequest for Session {
    type Error = Error;
    type Future = std::future::Ready<Result<Session, Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(Session::from_request_now(req))
    }
}

impl FromRequest for Ctx {
    type Error = Error;
    type Future = Pin<Box<dyn Future<Output = Result<Ctx, Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let session = Session::from_request_now(req);
        Box::pin(async move { session?.resolve().await })
    }
}

fn base_cookie<'a>(config: &Config, name: &'a str, value: String) -> Cookie<'a> {
    Cookie::build(name, value)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(config.secure_cookies())
        .finish()
}

pub fn session_cookie(config: &Config, token: String) -> Cookie<'static> {
    let mut c = base_cookie(config, SESSION_COOKIE, token);
    c.set_max_age(actix_web::cookie::time::Duration::days(SESSION_DAYS));
    c
}

/// A device cookie, kept a year (browsers keep none longer than 400 days).
pub fn device_cookie(config: &Config, value: String) -> Cookie<'static> {
    let mut c = base_cookie(config, DEVICE_COOKIE, value);
    c.set_max_age(actix_web::cookie::time::Duration::days(365));
    c
}

pub fn removal_cookie(config: &Config) -> Cookie<'static> {
    let mut c = base_cookie(config, SESSION_COOKIE, String::new());
    c.make_removal();
    c
}

/// Middleware body: set the CSRF cookie when this request created one.
pub fn add_csrf_cookie<B>(req: &HttpRequest, res: &mut HttpResponse<B>, config: &Config) {
    if let Some(NewCsrfCookie(v)) = req.extensions().get::<NewCsrfCookie>().cloned() {
        let mut c = base_cookie(config, CSRF_COOKIE, v);
        c.set_max_age(actix_web::cookie::time::Duration::days(365));
        let _ = res.add_cookie(&c);
    }
}

/// A 303 redirect after a successful form post.
pub fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((actix_web::http::header::LOCATION, location))
        .finish()
}

/// A rendered template with a status code.
pub fn html(status: actix_web::http::StatusCode, body: impl Into<web::Bytes>) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .body(body.into())
}

/// Parse an id from the path: anything but a positive number is "not found".
pub fn parse_id(raw: &str) -> Result<crate::domain::ids::GameId, Error> {
    raw.parse::<i32>()
        .ok()
        .filter(|id| *id > 0)
        .map(crate::domain::ids::GameId)
        .ok_or_else(|| Error::NotFound(format!("There is no game “{}”.", clip(raw, 40))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use diesel::RunQueryDsl;

    fn state(database_url: &str) -> Arc<AppState> {
        build_state(&Config {
            database_url: database_url.into(),
            ..Config::default()
        })
        .expect("state")
    }

    #[actix_web::test]
    async fn short_work_on_sqlite_runs_on_the_request_thread_and_survives_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let state = state(&dir.path().join("t.db").to_string_lossy());
        let here = std::thread::current().id();
        let ran_on = short(&state, |_| Ok(std::thread::current().id()))
            .await
            .unwrap();
        assert_eq!(
            ran_on, here,
            "SQLite short work is not sent to the blocking pool"
        );
        // With every pooled connection taken, it waits on the blocking pool
        // for one instead.
        let held: Vec<_> = (0..state.pool.max_size())
            .map(|_| state.pool.get().unwrap())
            .collect();
        let (waited_on, ()) = tokio::join!(
            short(&state, |_| Ok(std::thread::current().id())),
            async move {
                actix_web::rt::time::sleep(std::time::Duration::from_millis(20)).await;
                drop(held);
            }
        );
        assert_ne!(waited_on.unwrap(), here);
        // A panic is an internal error, and the thread goes on serving.
        let r: Result<(), Error> = short(&state, |_| panic!("a bug")).await;
        assert!(matches!(r, Err(Error::Internal(_))), "{r:?}");
        let n: i64 = short(&state, |c| {
            Ok(diesel::select(diesel::dsl::sql::<diesel::sql_types::BigInt>("1")).get_result(c)?)
        })
        .await
        .unwrap();
        assert_eq!(n, 1);
    }

    /// On SQLite `with_user` runs the session lookup and its work in one
    /// transaction.
    #[actix_web::test]
    async fn the_session_lookup_shares_its_works_transaction() {
        let dir = tempfile::tempdir().unwrap();
        let state = state(&dir.path().join("t.db").to_string_lossy());
        let req = actix_web::test::TestRequest::default()
            .app_data(web::Data::new(state.clone()))
            .to_http_request();
        let (ctx, depth) = Session::from_request_now(&req)
            .unwrap()
            .with_user(move |c, user| {
                assert!(user.is_none());
                Ok(crate::db::transaction_depth(c)?)
            })
            .await
            .unwrap();
        assert!(ctx.user.is_none());
        assert_eq!(depth.unwrap(), Some(1));
    }
}
