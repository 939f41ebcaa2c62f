//! Mail: the persistent outbox, the transports, and the mails themselves.
//!
//! Services call [`enqueue`] inside the transaction of the event that causes
//! a mail (a move, a challenge...), so a mail exists exactly when its event
//! does. The worker ([`drain_once`], run in a loop by `jobs`) claims due rows
//! with a lease, renders them from the database, sends them, and marks them
//! sent; failures are retried with growing delays and the last error kept.

use crate::config::Config;
use crate::db::models::{GameRow, User};
use crate::db::schema::{email_outbox, users};
use crate::db::stamp::Stamp;
use crate::db::{per_backend, DbConn};
use crate::error::AppError;
use crate::services::games as gsvc;
use crate::services::links::{self, PlayLink};
use askama::Template;
use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;
use lettre::message::header::{Header, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{FileTransport, Message, SmtpTransport, Transport as _};
use missive_rules::{BoardView, Cell, Color};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

pub const CHALLENGE_RECEIVED: &str = "challenge_received";
pub const CHALLENGE_ACCEPTED: &str = "challenge_accepted";
pub const YOUR_TURN: &str = "your_turn";
pub const GAME_OVER: &str = "game_over";
pub const DRAW_OFFER: &str = "draw_offer";
pub const VERIFY_EMAIL: &str = "verify_email";
/// A tournament started or paired a round: the reader's games.
pub const TOURNAMENT_ROUND: &str = "tournament_round";
pub const CLOCK_REMINDER: &str = "clock_reminder";
pub const LEAVE_BOOKED: &str = "leave_booked";
/// To a player withdrawn from a tournament (forfeits, or by its director).
pub const TOURNAMENT_WITHDRAWN: &str = "tournament_withdrawn";
/// The daily digest (`services::digest`).
pub const DIGEST: &str = "digest";

/// How long a worker holds a claimed row before another may take it.
pub const LEASE_SECS: i64 = 120;
/// Rows claimed per pass.
pub const BATCH: i64 = 50;

/// What the event knew that the database will not keep: who caused it, the
/// move as played and its `//` comment.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default)]
pub struct Payload {
    pub from_user: Option<i32>,
    pub display: Option<String>,
    pub comment: Option<String>,
    /// Tournament mails: which tournament, and which round (none: all).
    pub tournament_id: Option<i32>,
    pub round: Option<i32>,
    /// Leave mails: the first and last day (`YYYY-MM-DD`).
    pub leave_start: Option<String>,
    pub leave_end: Option<String>,
    /// Withdrawal mails: why, and whether the player's results were cancelled.
    pub reason: Option<String>,
    pub results_cancelled: Option<bool>,
}

/// The payload of a mail caused by a move.
pub fn move_payload(mover: i32, played: &missive_rules::Played) -> Payload {
    Payload {
        from_user: Some(mover),
        display: Some(played.display.clone()),
        comment: played.comment.clone().filter(|c| !c.trim().is_empty()),
        ..Default::default()
    }
}

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = email_outbox)]
pub struct OutboxRow {
    pub id: i32,
    pub kind: String,
    pub user_id: i32,
    pub game_id: Option<i32>,
    pub ply: Option<i32>,
    pub payload: String,
    pub created_at: NaiveDateTime,
    pub attempts: i32,
    pub next_attempt_at: NaiveDateTime,
    pub lease_owner: Option<String>,
    pub lease_until: Option<NaiveDateTime>,
    pub sent_at: Option<NaiveDateTime>,
    pub last_error: Option<String>,
}

/// Mail policies (the settings page's `policy` field).
pub const POLICY_EVERY: &str = "every";
pub const POLICY_DIGEST: &str = "digest";
pub const POLICY_NONE: &str = "none";

/// Set a user's mail policy; `Err` text for an unknown policy.
pub fn set_policy(
    conn: &mut DbConn,
    user_id: i32,
    policy: &str,
    now: NaiveDateTime,
) -> Result<(), AppError> {
    use crate::db::schema::mail_prefs;
    if ![POLICY_EVERY, POLICY_DIGEST, POLICY_NONE].contains(&policy) {
        return Err(AppError::Invalid(
            "Choose every, digest or none.".to_string(),
        ));
    }
    conn.transaction::<_, AppError, _>(|conn| {
        diesel::delete(mail_prefs::table.find(user_id)).execute(conn)?;
        diesel::insert_into(mail_prefs::table)
            .values((
                mail_prefs::user_id.eq(user_id),
                mail_prefs::policy.eq(policy),
                mail_prefs::updated_at.eq(now),
            ))
            .execute(conn)?;
        Ok(())
    })
}

/// Whether the user's current address has been verified.
pub fn is_verified(conn: &mut DbConn, user_id: i32) -> QueryResult<bool> {
    Ok(standing_of(conn, user_id)?.0)
}

/// Mark the user's current address verified, if `sig` signs it.
pub fn verify_email(
    conn: &mut DbConn,
    secret: &[u8],
    user_id: i32,
    sig: &str,
    now: NaiveDateTime,
) -> Result<bool, AppError> {
    use crate::db::schema::verified_emails;
    let Some(user) = user_by_id(conn, user_id)? else {
        return Ok(false);
    };
    if !links::verify_ok(secret, user.id, &user.email, sig) {
        return Ok(false);
    }
    conn.transaction::<_, AppError, _>(|conn| {
        diesel::delete(verified_emails::table.find(user.id)).execute(conn)?;
        diesel::insert_into(verified_emails::table)
            .values((
                verified_emails::user_id.eq(user.id),
                verified_emails::email.eq(&user.email),
                verified_emails::verified_at.eq(now),
            ))
            .execute(conn)?;
        Ok(())
    })?;
    Ok(true)
}

/// How long before the verification mail may be asked for again.
pub const VERIFY_RESEND_MINUTES: i64 = 10;

/// Queue the address verification mail (at sign-up, and the "send it
/// again" button): refused when the address is already verified, and when
/// one was queued less than [`VERIFY_RESEND_MINUTES`] ago. The claim is a
/// conditional update of `verify_mail_sent` in the transaction that queues
/// the mail, so simultaneous clicks queue one mail.
pub fn send_verification(
    conn: &mut DbConn,
    user_id: i32,
    now: NaiveDateTime,
) -> Result<(), AppError> {
    use crate::db::schema::verify_mail_sent;
    if is_verified(conn, user_id)? {
        return Err(AppError::Invalid(
            "Your address is already confirmed.".into(),
        ));
    }
    let window = Duration::minutes(VERIFY_RESEND_MINUTES);
    let claimed = conn.transaction::<_, diesel::result::Error, _>(|conn| {
        let n = diesel::update(
            verify_mail_sent::table
                .filter(verify_mail_sent::user_id.eq(user_id))
                .filter(verify_mail_sent::sent_at.le(now - window)),
        )
        .set(verify_mail_sent::sent_at.eq(now))
        .execute(conn)?;
        if n == 0 {
            diesel::insert_into(verify_mail_sent::table)
                .values((
                    verify_mail_sent::user_id.eq(user_id),
                    verify_mail_sent::sent_at.eq(now),
                ))
                .execute(conn)?;
        }
        enqueue(
            conn,
            VERIFY_EMAIL,
            user_id,
            None,
            None,
            &Payload::default(),
            now,
        )
    });
    match claimed {
        Ok(()) => Ok(()),
        Err(e) if crate::db::is_unique_violation(&e) => {
            let last: Option<NaiveDateTime> = verify_mail_sent::table
                .find(user_id)
                .select(verify_mail_sent::sent_at)
                .first(conn)
                .optional()?;
            let wait = last
                .map(|t| (t + window - now).num_minutes() + 1)
                .unwrap_or(VERIFY_RESEND_MINUTES)
                .clamp(1, VERIFY_RESEND_MINUTES);
            Err(AppError::RateLimited(format!(
                "A confirmation mail was sent less than {VERIFY_RESEND_MINUTES} minutes ago: \
                 look for it (and in your spam folder), or ask again in {wait} minute{}.",
                if wait == 1 { "" } else { "s" }
            )))
        }
        Err(e) => Err(e.into()),
    }
}

/// Whether the user's current address is verified, and their mail policy
/// (`every` unless they chose otherwise), in one query, as [`enqueue`]
/// reads them: the mail settings page shows both.
pub fn standing_of(conn: &mut DbConn, user_id: i32) -> QueryResult<(bool, String)> {
    use crate::db::schema::{mail_prefs, verified_emails};
    let row: Option<(String, Option<String>, Option<String>)> =
        per_backend!(conn, |c| users::table
            .left_join(verified_emails::table.on(verified_emails::user_id.eq(users::id)))
            .left_join(mail_prefs::table.on(mail_prefs::user_id.eq(users::id)))
            .filter(users::id.eq(user_id))
            .select((
                users::email,
                verified_emails::email.nullable(),
                mail_prefs::policy.nullable(),
            ))
            .first(c)
            .optional())?;
    Ok(match row {
        Some((current, verified, policy)) => (
            verified.is_some_and(|v| v == current),
            policy.unwrap_or_else(|| POLICY_EVERY.to_string()),
        ),
        None => (false, POLICY_EVERY.to_string()),
    })
}

/// Queue a mail, unless the user's policy refuses it ("none": nothing;
/// "digest": no "your turn" mails) or, but for the verification mail, their
/// address is not verified. Call it inside the transaction of the event.
///
/// One `INSERT … SELECT` over the user's standing ([`standing_of`]'s join)
/// rather than a read and then an insert: a move's mail is one statement,
/// one round trip to PostgreSQL.
pub fn enqueue(
    conn: &mut DbConn,
    kind: &str,
    user_id: i32,
    game_id: Option<i32>,
    ply: Option<i32>,
    payload: &Payload,
    now: NaiveDateTime,
) -> QueryResult<()> {
    use crate::db::schema::{mail_prefs, verified_emails};
    use diesel::sql_types::{Bool, Integer, Nullable, Text, Timestamp};
    let payload = serde_json::to_string(payload).unwrap_or_else(|_| "{}".into());
    let policy = mail_prefs::policy.nullable();
    // The conditions that depend on the kind are bound as values, so the
    // statement has one shape, which diesel keeps prepared by its type.
    let any_address = kind == VERIFY_EMAIL;
    let not_a_turn = kind != YOUR_TURN;
    per_backend!(conn, |c| {
        let standing = users::table
            .left_join(verified_emails::table.on(verified_emails::user_id.eq(users::id)))
            .left_join(mail_prefs::table.on(mail_prefs::user_id.eq(users::id)))
            .filter(users::id.eq(user_id))
            .filter(
                verified_emails::email
                    .nullable()
                    .eq(users::email.nullable())
                    .or(any_address.into_sql::<Bool>()),
            )
            .filter(policy.is_null().or(policy.ne(POLICY_NONE)))
            .filter(
                policy
                    .is_null()
                    .or(policy.ne(POLICY_DIGEST))
                    .or(not_a_turn.into_sql::<Bool>()),
            )
            .select((
                kind.into_sql::<Text>(),
                users::id,
                game_id.into_sql::<Nullable<Integer>>(),
                ply.into_sql::<Nullable<Integer>>(),
                payload.as_str().into_sql::<Text>(),
                Stamp(now).into_sql::<Timestamp>(),
                0.into_sql::<Integer>(),
                Stamp(now).into_sql::<Timestamp>(),
            ));
        diesel::insert_into(email_outbox::table)
            .values(standing)
            .into_columns((
                email_outbox::kind,
                email_outbox::user_id,
                email_outbox::game_id,
                email_outbox::ply,
                email_outbox::payload,
                email_outbox::created_at,
                email_outbox::attempts,
                email_outbox::next_attempt_at,
            ))
            .execute(c)
    })?;
    Ok(())
}

/// The delay before retry number `attempts` (1, 2, ...): 30 s, doubling, at
/// most 6 hours.
pub fn backoff(attempts: i32) -> Duration {
    let exp = attempts.clamp(1, 20) as u32 - 1;
    let secs = 30i64.saturating_mul(1i64 << exp.min(16));
    Duration::seconds(secs.min(6 * 3600))
}

// ---------------------------------------------------------------------------
// Transports

/// One mail as the memory transport keeps it.
#[derive(Clone, Debug)]
pub struct SentMail {
    pub to: Vec<String>,
    pub raw: String,
}

/// Where mails go: SMTP, `.eml` files in a folder, or memory (tests).
#[derive(Clone)]
pub enum Transport {
    Smtp(SmtpTransport),
    File(FileTransport, PathBuf),
    Memory(Arc<Mutex<Vec<SentMail>>>),
}

impl Transport {
    /// SMTP when `MISSIVE_SMTP_URL` is set, else `.eml` files in `mail_dir`.
    pub fn from_config(config: &Config) -> anyhow::Result<Transport> {
        match &config.smtp_url {
            Some(url) => Ok(Transport::Smtp(smtp_transport(url)?)),
            None => Transport::file(&config.mail_dir),
        }
    }

    pub fn file(dir: &str) -> anyhow::Result<Transport> {
        let path = PathBuf::from(dir);
        std::fs::create_dir_all(&path)
            .map_err(|e| anyhow::anyhow!("cannot create the mail folder {dir}: {e}"))?;
        Ok(Transport::File(FileTransport::new(&path), path))
    }

    /// A memory transport and the list it fills.
    pub fn memory() -> (Transport, Arc<Mutex<Vec<SentMail>>>) {
        let list = Arc::new(Mutex::new(Vec::new()));
        (Transport::Memory(list.clone()), list)
    }

    /// For the log.
    pub fn describe(&self, config: &Config) -> String {
        match self {
            Transport::Smtp(_) => format!(
                "mail is sent by SMTP to {}",
                config
                    .smtp_url
                    .as_deref()
                    .map(crate::redact)
                    .unwrap_or_default()
            ),
            Transport::File(_, path) => format!(
                "no MISSIVE_SMTP_URL: mail is written as .eml files under {}/ (not sent)",
                path.display()
            ),
            Transport::Memory(_) => "mail is kept in memory (tests)".into(),
        }
    }

    pub fn send(&self, msg: &Message) -> Result<(), String> {
        match self {
            Transport::Smtp(t) => t.send(msg).map(|_| ()).map_err(|e| e.to_string()),
            Transport::File(t, _) => t.send(msg).map(|_| ()).map_err(|e| e.to_string()),
            Transport::Memory(list) => {
                let to = msg.envelope().to().iter().map(|a| a.to_string()).collect();
                let raw = String::from_utf8_lossy(&msg.formatted()).into_owned();
                list.lock()
                    .map_err(|_| "memory transport poisoned".to_string())?
                    .push(SentMail { to, raw });
                Ok(())
            }
        }
    }
}

/// Build the SMTP transport of a URL: `smtps://` is implicit TLS (port 465);
/// `smtp://` is STARTTLS, required (port 587), except to a loopback address,
/// where it is plain (port 25); `?tls=required|opportunistic|none` overrides.
/// User and password come from the URL (percent-encoded).
pub fn smtp_transport(raw: &str) -> anyhow::Result<SmtpTransport> {
    let u = url::Url::parse(raw.trim())
        .map_err(|e| anyhow::anyhow!("MISSIVE_SMTP_URL cannot be read: {e}"))?;
    let host = u
        .host_str()
        .ok_or_else(|| anyhow::anyhow!("MISSIVE_SMTP_URL has no host"))?
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_string();
    let loopback = host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .map(|ip| ip.is_loopback())
            .unwrap_or(false);
    let tls_q = u
        .query_pairs()
        .find(|(k, _)| k == "tls")
        .map(|(_, v)| v.to_string());
    let params = || TlsParameters::new(host.clone());
    let (tls, default_port) = match (u.scheme(), tls_q.as_deref()) {
        ("smtps", _) => (Tls::Wrapper(params()?), 465),
        ("smtp", Some("none")) => (Tls::None, 25),
        ("smtp", Some("opportunistic")) => (Tls::Opportunistic(params()?), 587),
        ("smtp", Some("required")) => (Tls::Required(params()?), 587),
        ("smtp", None) if loopback => (Tls::None, 25),
        ("smtp", None) => (Tls::Required(params()?), 587),
        ("smtp", Some(other)) => anyhow::bail!(
            "MISSIVE_SMTP_URL: tls={other} is not one of required, opportunistic, none"
        ),
        (other, _) => anyhow::bail!("MISSIVE_SMTP_URL: scheme {other} is not smtp or smtps"),
    };
    let mut builder = SmtpTransport::builder_dangerous(host.as_str())
        .port(u.port().unwrap_or(default_port))
        .tls(tls)
        .timeout(Some(std::time::Duration::from_secs(20)));
    if !u.username().is_empty() {
        let dec = |s: &str| {
            percent_encoding::percent_decode_str(s)
                .decode_utf8_lossy()
                .into_owned()
        };
        builder = builder.credentials(Credentials::new(
            dec(u.username()),
            dec(u.password().unwrap_or("")),
        ));
    }
    Ok(builder.build())
}

// ---------------------------------------------------------------------------
// Rendering

/// What rendering needs beyond the database: addresses and the secret.
#[derive(Clone)]
pub struct MailCtx {
    pub base_url: String,
    pub secret: Vec<u8>,
    pub from: Mailbox,
    pub reply_to: Mailbox,
    pub play_link_ttl: Duration,
    /// How long a claim on a mail lasts (`MISSIVE_MAIL_LEASE_SECS`).
    pub lease: Duration,
}

impl MailCtx {
    pub fn new(config: &Config, secret: &[u8]) -> anyhow::Result<MailCtx> {
        let from: Mailbox = config
            .mail_from
            .parse()
            .map_err(|e| anyhow::anyhow!("MISSIVE_MAIL_FROM {:?}: {e}", config.mail_from))?;
        let reply_to = match &config.mail_reply_to {
            Some(r) => r
                .parse()
                .map_err(|e| anyhow::anyhow!("MISSIVE_MAIL_REPLY_TO {r:?}: {e}"))?,
            None => from.clone(),
        };
        Ok(MailCtx {
            base_url: config.base_url.trim_end_matches('/').to_string(),
            secret: secret.to_vec(),
            from,
            reply_to,
            play_link_ttl: Duration::hours(config.play_link_hours),
            lease: Duration::seconds(config.mail_lease_secs.max(1)),
        })
    }
}

/// A mail ready to send.
#[derive(Clone, Debug)]
pub struct Rendered {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    pub unsubscribe_url: String,
}

/// Everything a mail template may show.
#[derive(Default)]
pub struct MailData {
    pub username: String,
    pub opponent: String,
    pub game_id: i32,
    pub variant_name: String,
    pub game_url: String,
    pub play_url: String,
    pub play_link_hours: i64,
    pub last_move: String,
    pub comment: String,
    pub diagram: String,
    pub moves_text: String,
    pub result_text: String,
    pub unsubscribe_url: String,
    pub settings_url: String,
    /// "2 days 3 hours left; deadline ...", empty without a clock.
    pub clock_text: String,
    /// Leave mails: the first and last day.
    pub leave_start: String,
    pub leave_end: String,
}

macro_rules! mail_templates {
    ($($name:ident => $path:literal),* $(,)?) => {
        $(
            #[derive(Template)]
            #[template(path = $path)]
            struct $name<'a> {
                m: &'a MailData,
            }
        )*
    };
}

#[derive(Template)]
#[template(path = "email/tournament_round.txt")]
struct TournamentRoundTxt<'a> {
    m: &'a MailData,
    t: &'a crate::services::tournaments::RoundMail,
}

#[derive(Template)]
#[template(path = "email/tournament_round.html")]
struct TournamentRoundHtml<'a> {
    m: &'a MailData,
    t: &'a crate::services::tournaments::RoundMail,
}

/// What a mail's footer needs (greeting, unsubscribe and settings links),
/// for mails about no particular game.
fn footer_data(ctx: &MailCtx, user: &User) -> MailData {
    MailData {
        username: user.username.clone(),
        unsubscribe_url: links::unsubscribe_url(&ctx.base_url, &ctx.secret, user.id),
        settings_url: format!("{}/settings/mail", ctx.base_url),
        ..MailData::default()
    }
}

/// A withdrawal notice: the tournament, why, and what became of the results.
pub struct WithdrawnMail {
    pub tournament: String,
    pub tournament_url: String,
    pub reason: String,
    pub results_cancelled: bool,
}

#[derive(Template)]
#[template(path = "email/tournament_withdrawn.txt")]
struct WithdrawnTxt<'a> {
    m: &'a MailData,
    w: &'a WithdrawnMail,
}

#[derive(Template)]
#[template(path = "email/tournament_withdrawn.html")]
struct WithdrawnHtml<'a> {
    m: &'a MailData,
    w: &'a WithdrawnMail,
}

pub struct VerifyData {
    pub username: String,
    pub verify_url: String,
}

#[derive(Template)]
#[template(path = "email/verify_email.txt")]
struct VerifyTxt<'a> {
    m: &'a VerifyData,
}

#[derive(Template)]
#[template(path = "email/verify_email.html")]
struct VerifyHtml<'a> {
    m: &'a VerifyData,
}

mail_templates!(
    ChallengeReceivedTxt => "email/challenge_received.txt",
    ChallengeReceivedHtml => "email/challenge_received.html",
    ChallengeAcceptedTxt => "email/challenge_accepted.txt",
    ChallengeAcceptedHtml => "email/challenge_accepted.html",
    YourTurnTxt => "email/your_turn.txt",
    YourTurnHtml => "email/your_turn.html",
    GameOverTxt => "email/game_over.txt",
    GameOverHtml => "email/game_over.html",
    DrawOfferTxt => "email/draw_offer.txt",
    DrawOfferHtml => "email/draw_offer.html",
    ClockReminderTxt => "email/clock_reminder.txt",
    ClockReminderHtml => "email/clock_reminder.html",
    LeaveBookedTxt => "email/leave_booked.txt",
    LeaveBookedHtml => "email/leave_booked.html",
);

/// The position as text: ranks top down, files left to right, `.` for an
/// empty square, the FEN letter for a piece (upper case White), blank for a
/// hole; Black's view when `flipped`.
pub fn text_diagram(view: &BoardView, flipped: bool) -> String {
    let w = view.width;
    let h = view.height;
    let cell_w = view
        .cells
        .iter()
        .map(|c| match c {
            Cell::Piece { label, .. } => label.letter.chars().count(),
            _ => 1,
        })
        .max()
        .unwrap_or(1)
        .max(1);
    let rank_w = h.to_string().len();
    let files: Vec<u8> = if flipped {
        (0..w).rev().collect()
    } else {
        (0..w).collect()
    };
    let ranks: Vec<u8> = if flipped {
        (0..h).collect()
    } else {
        (0..h).rev().collect()
    };
    let mut out = String::new();
    for &r in &ranks {
        out.push_str(&format!("{:>rank_w$} ", r as u32 + 1));
        for &f in &files {
            let s = match view.cell(f, r) {
                Cell::Hole => " ".to_string(),
                Cell::Empty => ".".to_string(),
                Cell::Piece { label, .. } => label.letter.clone(),
            };
            out.push(' ');
            out.push_str(&format!("{s:<cell_w$}"));
        }
        out.push('\n');
    }
    out.push_str(&" ".repeat(rank_w + 1));
    for &f in &files {
        out.push(' ');
        let name = ((b'a' + f.min(25)) as char).to_string();
        out.push_str(&format!("{name:<cell_w$}"));
    }
    out.push('\n');
    for hand in &view.hands {
        out.push_str(&format!(
            "In hand ({}): {} x{}\n",
            if hand.color == Color::Black {
                view.side_names[1]
            } else {
                view.side_names[0]
            },
            hand.label.letter,
            hand.count
        ));
    }
    out.trim_end().to_string()
}

/// The moves as text: `1. e4 e5 2. Nf3 ...`.
fn moves_text(conn: &mut DbConn, row: &GameRow) -> Result<String, AppError> {
    let moves = gsvc::moves_of(conn, row.id)?;
    let mut out = String::new();
    let mut number = 0;
    let mut previous: Option<bool> = None;
    for m in &moves {
        let white = Some(m.played_by) != row.black_id;
        if white && previous != Some(true) {
            number += 1;
            out.push_str(&format!("{number}. "));
        } else if !white && previous.is_none() {
            number += 1;
            out.push_str(&format!("{number}... "));
        }
        out.push_str(&m.display);
        out.push(' ');
        previous = Some(white);
    }
    Ok(out.trim_end().to_string())
}

fn user_by_id(conn: &mut DbConn, id: i32) -> Result<Option<User>, AppError> {
    Ok(users::table
        .find(id)
        .select(User::as_select())
        .first(conn)
        .optional()?)
}

/// Render a queued mail from the database. `Ok(None)`: nothing to send any
/// more (the game moved on before a "your turn" mail went out, the user is
/// gone), and the row is closed without sending.
pub fn render(
    conn: &mut DbConn,
    ctx: &MailCtx,
    row: &OutboxRow,
    now: NaiveDateTime,
) -> Result<Option<Rendered>, AppError> {
    let Some(user) = user_by_id(conn, row.user_id)? else {
        return Ok(None);
    };
    let payload: Payload = serde_json::from_str(&row.payload).unwrap_or_default();
    if row.kind == VERIFY_EMAIL {
        let data = VerifyData {
            username: user.username.clone(),
            verify_url: links::verify_url(&ctx.base_url, &ctx.secret, user.id, &user.email),
        };
        return Ok(Some(Rendered {
            subject: "Confirm your email address for Missive".into(),
            text: VerifyTxt { m: &data }.render()?,
            html: VerifyHtml { m: &data }.render()?,
            to: user.email,
            unsubscribe_url: links::unsubscribe_url(&ctx.base_url, &ctx.secret, user.id),
        }));
    }
    if row.kind == TOURNAMENT_ROUND {
        let Some(tid) = payload.tournament_id else {
            return Ok(None);
        };
        let Some(data) = crate::services::tournaments::round_mail(
            conn,
            &ctx.base_url,
            tid,
            payload.round,
            user.id,
        )?
        else {
            return Ok(None);
        };
        let footer = footer_data(ctx, &user);
        return Ok(Some(Rendered {
            subject: format!("{}: your games ({})", data.tournament, data.round),
            text: TournamentRoundTxt {
                m: &footer,
                t: &data,
            }
            .render()?,
            html: TournamentRoundHtml {
                m: &footer,
                t: &data,
            }
            .render()?,
            to: user.email,
            unsubscribe_url: footer.unsubscribe_url.clone(),
        }));
    }
    if row.kind == LEAVE_BOOKED {
        return render_leave(conn, ctx, &user, &payload).map(Some);
    }
    if row.kind == TOURNAMENT_WITHDRAWN {
        let Some(tid) = payload.tournament_id else {
            return Ok(None);
        };
        let Some(tournament) = crate::services::tournaments::name_of(conn, tid)? else {
            return Ok(None);
        };
        let w = WithdrawnMail {
            tournament,
            tournament_url: format!("{}/tournaments/{tid}", ctx.base_url),
            reason: payload.reason.clone().unwrap_or_default(),
            results_cancelled: payload.results_cancelled.unwrap_or(false),
        };
        let footer = footer_data(ctx, &user);
        return Ok(Some(Rendered {
            subject: format!("{}: you have been withdrawn", w.tournament),
            text: WithdrawnTxt { m: &footer, w: &w }.render()?,
            html: WithdrawnHtml { m: &footer, w: &w }.render()?,
            to: user.email,
            unsubscribe_url: footer.unsubscribe_url.clone(),
        }));
    }
    if row.kind == DIGEST {
        return crate::services::digest::render(conn, ctx, &user, row.created_at, now);
    }
    let game = match row.game_id {
        Some(id) => Some(gsvc::load(conn, id)?),
        None => None,
    };
    let Some(game) = game else {
        return Ok(None);
    };
    let variant = gsvc::variant_of(&game)?;
    let my_side = gsvc::side_of(&game, user.id);
    let opponent_id = match my_side {
        Some(Color::White) => game.black_id,
        Some(Color::Black) => game.white_id,
        _ => payload.from_user.or(Some(game.challenger_id)),
    };
    let opponent = match opponent_id {
        Some(id) => user_by_id(conn, id)?.map(|u| u.username),
        None => None,
    }
    .unwrap_or_else(|| "your opponent".into());
    let game_url = format!("{}/games/{}", ctx.base_url, game.id);
    let unsubscribe_url = links::unsubscribe_url(&ctx.base_url, &ctx.secret, user.id);
    let mut data = MailData {
        username: user.username.clone(),
        opponent: opponent.clone(),
        game_id: game.id,
        variant_name: variant.name().to_string(),
        game_url,
        play_url: String::new(),
        play_link_hours: ctx.play_link_ttl.num_hours(),
        last_move: payload.display.clone().unwrap_or_default(),
        comment: payload.comment.clone().unwrap_or_default(),
        diagram: String::new(),
        moves_text: String::new(),
        result_text: String::new(),
        unsubscribe_url: unsubscribe_url.clone(),
        settings_url: format!("{}/settings/mail", ctx.base_url),
        clock_text: String::new(),
        leave_start: String::new(),
        leave_end: String::new(),
    };
    // Only the "your turn" and reminder mails show the clock.
    let with_clock = |conn: &mut DbConn, data: &mut MailData| -> Result<(), AppError> {
        if let (Some(side), Some(clock)) =
            (my_side, crate::services::clocks::view(conn, &game, now)?)
        {
            data.clock_text = crate::services::clocks::describe_for(&clock, side);
        }
        Ok(())
    };
    let with_position = |conn: &mut DbConn, data: &mut MailData| -> Result<(), AppError> {
        let g = gsvc::restore(conn, &game)?;
        data.diagram = text_diagram(&g.board_view(), my_side == Some(Color::Black));
        data.moves_text = moves_text(conn, &game)?;
        Ok(())
    };
    let (subject, text, html) = match row.kind.as_str() {
        CHALLENGE_RECEIVED => {
            if game.status != gsvc::PENDING {
                return Ok(None);
            }
            let t = ChallengeReceivedTxt { m: &data }.render()?;
            let h = ChallengeReceivedHtml { m: &data }.render()?;
            (
                format!("{opponent} challenges you to {}", data.variant_name),
                t,
                h,
            )
        }
        CHALLENGE_ACCEPTED => {
            let t = ChallengeAcceptedTxt { m: &data }.render()?;
            let h = ChallengeAcceptedHtml { m: &data }.render()?;
            (
                format!("{opponent} accepted your {} challenge", data.variant_name),
                t,
                h,
            )
        }
        YOUR_TURN => {
            // Only while it is still this player's turn at that ply.
            if Some(game.ply) != row.ply || gsvc::player_to_move(&game) != Some(user.id) {
                return Ok(None);
            }
            with_clock(conn, &mut data)?;
            with_position(conn, &mut data)?;
            let link = PlayLink {
                game: game.id,
                user: user.id,
                ply: game.ply,
                expires: (now + ctx.play_link_ttl).and_utc().timestamp(),
            };
            data.play_url = link.url(&ctx.base_url, &ctx.secret);
            let t = YourTurnTxt { m: &data }.render()?;
            let h = YourTurnHtml { m: &data }.render()?;
            let subject = if data.last_move.is_empty() {
                format!("Your move against {opponent} (game {})", game.id)
            } else {
                format!(
                    "Your move against {opponent}: {} played {} (game {})",
                    opponent, data.last_move, game.id
                )
            };
            (subject, t, h)
        }
        GAME_OVER => {
            with_position(conn, &mut data)?;
            let sides = [
                variant.side_name(Color::White),
                variant.side_name(Color::Black),
            ];
            let described = gsvc::describe_result(&game, sides).unwrap_or_default();
            data.result_text = format!("{} ({described})", game.result.clone().unwrap_or_default());
            let t = GameOverTxt { m: &data }.render()?;
            let h = GameOverHtml { m: &data }.render()?;
            (
                format!("Game {} against {opponent} is over: {described}", game.id),
                t,
                h,
            )
        }
        CLOCK_REMINDER => {
            // Only while it is still this player's turn at that ply.
            if Some(game.ply) != row.ply || gsvc::player_to_move(&game) != Some(user.id) {
                return Ok(None);
            }
            with_clock(conn, &mut data)?;
            let link = PlayLink {
                game: game.id,
                user: user.id,
                ply: game.ply,
                expires: (now + ctx.play_link_ttl).and_utc().timestamp(),
            };
            data.play_url = link.url(&ctx.base_url, &ctx.secret);
            let t = ClockReminderTxt { m: &data }.render()?;
            let h = ClockReminderHtml { m: &data }.render()?;
            (
                format!("Time is running out in game {} against {opponent}", game.id),
                t,
                h,
            )
        }
        DRAW_OFFER => {
            if game.status != gsvc::ACTIVE {
                return Ok(None);
            }
            with_position(conn, &mut data)?;
            let t = DrawOfferTxt { m: &data }.render()?;
            let h = DrawOfferHtml { m: &data }.render()?;
            (format!("{opponent} offers a draw (game {})", game.id), t, h)
        }
        other => return Err(AppError::internal(format!("unknown mail kind {other}"))),
    };
    Ok(Some(Rendered {
        to: user.email,
        subject,
        text,
        html,
        unsubscribe_url,
    }))
}

/// "Your opponent is on leave" (no single game: one mail per opponent).
fn render_leave(
    conn: &mut DbConn,
    ctx: &MailCtx,
    user: &User,
    payload: &Payload,
) -> Result<Rendered, AppError> {
    let opponent = match payload.from_user {
        Some(id) => user_by_id(conn, id)?.map(|u| u.username),
        None => None,
    }
    .unwrap_or_else(|| "your opponent".into());
    let data = MailData {
        opponent: opponent.clone(),
        game_url: format!("{}/", ctx.base_url),
        leave_start: payload.leave_start.clone().unwrap_or_default(),
        leave_end: payload.leave_end.clone().unwrap_or_default(),
        ..footer_data(ctx, user)
    };
    Ok(Rendered {
        to: user.email.clone(),
        subject: format!(
            "{opponent} will be on leave from {} to {}",
            data.leave_start, data.leave_end
        ),
        text: LeaveBookedTxt { m: &data }.render()?,
        html: LeaveBookedHtml { m: &data }.render()?,
        unsubscribe_url: data.unsubscribe_url.clone(),
    })
}

#[derive(Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }
    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribe(s.to_string()))
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.clone())
    }
}

#[derive(Clone)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }
    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribePost)
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".to_string())
    }
}

/// The Message-ID of an outbox row: the same on every attempt, so a mail
/// sent twice (a process killed between the SMTP server's "OK" and marking
/// the row sent) is one message to a receiver that de-duplicates.
pub fn message_id(ctx: &MailCtx, row: &OutboxRow) -> String {
    let domain = ctx.from.email.domain();
    format!(
        "<missive.{}.{}@{domain}>",
        row.id,
        row.created_at.and_utc().timestamp_micros()
    )
}

/// The message: plain text and HTML alternatives, Reply-To and
/// List-Unsubscribe headers, the row's stable Message-ID.
pub fn build_message(ctx: &MailCtx, row: &OutboxRow, mail: &Rendered) -> Result<Message, String> {
    let to: Mailbox = mail
        .to
        .parse()
        .map_err(|e| format!("bad recipient address: {e}"))?;
    Message::builder()
        .message_id(Some(message_id(ctx, row)))
        .from(ctx.from.clone())
        .reply_to(ctx.reply_to.clone())
        .to(to)
        .subject(mail.subject.clone())
        .header(ListUnsubscribe(format!("<{}>", mail.unsubscribe_url)))
        .header(ListUnsubscribePost)
        .multipart(MultiPart::alternative_plain_html(
            mail.text.clone(),
            mail.html.clone(),
        ))
        .map_err(|e| format!("cannot build the message: {e}"))
}

// ---------------------------------------------------------------------------
// The worker

/// A mail worker: where it sends, how it renders, and its name for leases
/// (unique per process and thread).
#[derive(Clone)]
pub struct Sender {
    pub transport: Transport,
    pub ctx: MailCtx,
    pub owner: String,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrainReport {
    /// Mails handed to the transport.
    pub sent: usize,
    /// Mails that failed and wait for a retry.
    pub failed: usize,
    /// Mails closed without sending (no longer relevant).
    pub skipped: usize,
}

/// Claim the rows `ids` for `owner` until `now + lease` (those nobody
/// holds and not sent), in one conditional UPDATE, and read the rows this
/// worker got. Another worker's UPDATE of the same rows waits for this one
/// and then finds them leased.
pub fn claim_batch(
    conn: &mut DbConn,
    ids: &[i32],
    owner: &str,
    now: NaiveDateTime,
    lease: Duration,
) -> QueryResult<Vec<OutboxRow>> {
    diesel::update(
        email_outbox::table
            .filter(email_outbox::id.eq_any(ids))
            .filter(email_outbox::sent_at.is_null())
            .filter(
                email_outbox::lease_until
                    .is_null()
                    .or(email_outbox::lease_until.lt(now)),
            ),
    )
    .set((
        email_outbox::lease_owner.eq(owner),
        email_outbox::lease_until.eq(now + lease),
    ))
    .execute(conn)?;
    email_outbox::table
        .filter(email_outbox::id.eq_any(ids))
        .filter(email_outbox::lease_owner.eq(owner))
        .filter(email_outbox::sent_at.is_null())
        .order(email_outbox::id.asc())
        .select(OutboxRow::as_select())
        .load(conn)
}

/// Due rows: unsent, their time come, not leased by a live worker.
pub fn due(conn: &mut DbConn, now: NaiveDateTime, limit: i64) -> QueryResult<Vec<i32>> {
    email_outbox::table
        .filter(email_outbox::sent_at.is_null())
        .filter(email_outbox::next_attempt_at.le(now))
        .filter(
            email_outbox::lease_until
                .is_null()
                .or(email_outbox::lease_until.lt(now)),
        )
        .order(email_outbox::id.asc())
        .limit(limit)
        .select(email_outbox::id)
        .load(conn)
}

/// Close rows this worker holds: sent (`note` None) or skipped.
fn mark_sent(
    conn: &mut DbConn,
    ids: &[i32],
    owner: &str,
    now: NaiveDateTime,
    note: Option<&str>,
) -> QueryResult<()> {
    if ids.is_empty() {
        return Ok(());
    }
    diesel::update(
        email_outbox::table
            .filter(email_outbox::id.eq_any(ids))
            .filter(email_outbox::lease_owner.eq(owner)),
    )
    .set((
        email_outbox::sent_at.eq(Some(now)),
        email_outbox::lease_owner.eq(None::<String>),
        email_outbox::lease_until.eq(None::<NaiveDateTime>),
        email_outbox::last_error.eq(note),
    ))
    .execute(conn)?;
    Ok(())
}

fn mark_failed(
    conn: &mut DbConn,
    row: &OutboxRow,
    owner: &str,
    now: NaiveDateTime,
    error: &str,
) -> QueryResult<()> {
    let attempts = row.attempts + 1;
    diesel::update(
        email_outbox::table
            .filter(email_outbox::id.eq(row.id))
            .filter(email_outbox::lease_owner.eq(owner)),
    )
    .set((
        email_outbox::attempts.eq(attempts),
        email_outbox::next_attempt_at.eq(now + backoff(attempts)),
        email_outbox::lease_owner.eq(None::<String>),
        email_outbox::lease_until.eq(None::<NaiveDateTime>),
        email_outbox::last_error.eq(Some(crate::web::clip(error, 1000))),
    ))
    .execute(conn)?;
    Ok(())
}

/// One pass: claim every due mail (at most `BATCH`) in one statement, then
/// render, send and mark each. Never holds a database transaction while
/// talking to the transport. Each mail is marked sent as soon as the server
/// took it, so a process killed at any moment sends at most the one mail it
/// was sending again (once its lease expires): SMTP has no way to make a
/// send and its record one step.
pub fn drain_once(
    conn: &mut DbConn,
    sender: &Sender,
    now: NaiveDateTime,
) -> Result<DrainReport, AppError> {
    let mut report = DrainReport::default();
    let ids = due(conn, now, BATCH)?;
    if ids.is_empty() {
        return Ok(report);
    }
    let mut skipped: Vec<i32> = Vec::new();
    for row in claim_batch(conn, &ids, &sender.owner, now, sender.ctx.lease)? {
        let id = row.id;
        let rendered = match render(conn, &sender.ctx, &row, now) {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!("mail {id}: cannot render: {e}");
                mark_failed(conn, &row, &sender.owner, now, &format!("render: {e}"))?;
                report.failed += 1;
                continue;
            }
        };
        let Some(mail) = rendered else {
            skipped.push(id);
            report.skipped += 1;
            continue;
        };
        let result =
            build_message(&sender.ctx, &row, &mail).and_then(|msg| sender.transport.send(&msg));
        match result {
            Ok(()) => {
                mark_sent(conn, &[id], &sender.owner, now, None)?;
                report.sent += 1;
            }
            Err(e) => {
                tracing::warn!(
                    "mail {id} ({}) not sent (attempt {}): {e}",
                    row.kind,
                    row.attempts + 1
                );
                mark_failed(conn, &row, &sender.owner, now, &e)?;
                report.failed += 1;
            }
        }
    }
    mark_sent(
        conn,
        &skipped,
        &sender.owner,
        now,
        Some("skipped: no longer relevant"),
    )?;
    Ok(report)
}

/// Every outbox row, oldest first (for tests and the admin).
pub fn all(conn: &mut DbConn) -> QueryResult<Vec<OutboxRow>> {
    email_outbox::table
        .order(email_outbox::id.asc())
        .select(OutboxRow::as_select())
        .load(conn)
}

// ---------------------------------------------------------------------------
// The events (called by `services::games` inside its transactions)

/// A challenge was accepted: tell the challenger, and whoever moves first
/// if that is not the player who just accepted.
pub fn on_accept(
    conn: &mut DbConn,
    row: &GameRow,
    acceptor: i32,
    white_id: Option<i32>,
    black_id: Option<i32>,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let from = Payload {
        from_user: Some(acceptor),
        ..Default::default()
    };
    enqueue(
        conn,
        CHALLENGE_ACCEPTED,
        row.challenger_id,
        Some(row.id),
        Some(row.ply),
        &from,
        now,
    )?;
    let to_move = if row.turn == "black" {
        black_id
    } else {
        white_id
    };
    if let Some(p) = to_move.filter(|p| *p != acceptor) {
        enqueue(conn, YOUR_TURN, p, Some(row.id), Some(row.ply), &from, now)?;
    }
    Ok(())
}

/// A move that did not end the game was stored at `new_ply`: "your turn"
/// to the player now to move (a game that ended goes to `on_game_over`).
pub fn on_move(
    conn: &mut DbConn,
    row: &GameRow,
    mover: i32,
    next_player: Option<i32>,
    new_ply: i32,
    played: &missive_rules::Played,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let payload = move_payload(mover, played);
    // `next_player` comes from the position after the move: a variant may
    // give the same side several moves in a turn, and then nobody is told.
    if let Some(p) = next_player.filter(|p| *p != mover) {
        enqueue(
            conn,
            YOUR_TURN,
            p,
            Some(row.id),
            Some(new_ply),
            &payload,
            now,
        )?;
    }
    Ok(())
}

/// The game ended: "game over" to both players.
pub fn on_game_over(
    conn: &mut DbConn,
    row: &GameRow,
    payload: Option<&Payload>,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let empty = Payload::default();
    let payload = payload.unwrap_or(&empty);
    let mut players: Vec<i32> = [row.white_id, row.black_id].into_iter().flatten().collect();
    players.dedup();
    for p in players {
        enqueue(conn, GAME_OVER, p, Some(row.id), None, payload, now)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_and_is_capped() {
        assert_eq!(backoff(1), Duration::seconds(30));
        assert_eq!(backoff(2), Duration::seconds(60));
        assert_eq!(backoff(3), Duration::seconds(120));
        assert!(backoff(5) > backoff(4));
        assert_eq!(backoff(30), Duration::hours(6));
        assert_eq!(backoff(0), Duration::seconds(30));
    }

    #[test]
    fn smtp_urls() {
        assert!(smtp_transport("smtp://user:p%40ss@mail.example.org:587").is_ok());
        assert!(smtp_transport("smtps://user:pass@mail.example.org").is_ok());
        assert!(smtp_transport("smtp://127.0.0.1:2525").is_ok());
        assert!(smtp_transport("smtp://relay.lan:25?tls=none").is_ok());
        assert!(smtp_transport("http://example.org").is_err());
        assert!(smtp_transport("smtp://example.org?tls=maybe").is_err());
        assert!(smtp_transport("not a url").is_err());
    }

    #[test]
    fn diagram_of_the_start_position() {
        let chess = missive_rules::variant("chess").unwrap();
        let g = missive_rules::Game::new(chess, None).unwrap();
        let d = text_diagram(&g.board_view(), false);
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines[0], "8  r n b q k b n r");
        assert_eq!(lines[4], "4  . . . . . . . .");
        assert_eq!(lines[7], "1  R N B Q K B N R");
        assert_eq!(lines[8], "   a b c d e f g h");
        let flipped = text_diagram(&g.board_view(), true);
        assert!(flipped.starts_with("1  R N B K Q B N R"), "{flipped}");
    }
}
