//! Browser notifications (issue 64): the browsers players subscribed, the
//! kinds they muted, and the push outbox. [`enqueue`] runs inside the mail
//! outbox's own `enqueue` (so in the transaction of the event): one row per
//! subscribed browser, which the push drain (`push::drain`) claims with a
//! lease as the mail drain does, and closes once the push service took it.

use crate::db::schema::{push_muted, push_outbox, push_subscriptions};
use crate::db::{per_backend, DbConn};
use crate::domain::ids::GameId;
use crate::domain::mail_kind::{Mail, MailKind};
use crate::domain::push_kind::PushKind;
use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;

/// Browsers one player may subscribe; a new one past this replaces their
/// oldest (each event is sent to each of them).
pub const MAX_PER_USER: i64 = 10;

/// Rows claimed per pass.
pub const BATCH: i64 = 50;

/// A subscribed browser: where its push service takes messages, and the
/// browser's key (P-256, uncompressed, base64url) and auth secret.
#[derive(Queryable, Selectable, Clone, Debug, PartialEq, Eq)]
#[diesel(table_name = push_subscriptions)]
pub struct Subscription {
    pub id: i32,
    pub user_id: i32,
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
    pub created_at: NaiveDateTime,
}

/// A queued notification for one browser.
#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = push_outbox)]
pub struct PushRow {
    pub id: i32,
    pub subscription_id: i32,
    #[diesel(deserialize_as = String)]
    pub kind: MailKind,
    pub game_id: Option<GameId>,
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

// ---------------------------------------------------------------------------
// Subscriptions

/// Keep a browser's subscription for `user_id`. An endpoint already known
/// (the same browser again, or another account on it) is taken over; past
/// [`MAX_PER_USER`] the player's oldest browser is dropped.
pub fn subscribe(
    conn: &mut DbConn,
    user_id: i32,
    endpoint: &str,
    p256dh: &str,
    auth: &str,
    now: NaiveDateTime,
) -> QueryResult<()> {
    conn.transaction(|conn| {
        diesel::delete(push_subscriptions::table.filter(push_subscriptions::endpoint.eq(endpoint)))
            .execute(conn)?;
        let theirs: Vec<i32> = push_subscriptions::table
            .filter(push_subscriptions::user_id.eq(user_id))
            .order(push_subscriptions::id.desc())
            .select(push_subscriptions::id)
            .load(conn)?;
        let old: Vec<i32> = theirs.into_iter().skip(MAX_PER_USER as usize - 1).collect();
        if !old.is_empty() {
            diesel::delete(push_subscriptions::table.filter(push_subscriptions::id.eq_any(old)))
                .execute(conn)?;
        }
        diesel::insert_into(push_subscriptions::table)
            .values((
                push_subscriptions::user_id.eq(user_id),
                push_subscriptions::endpoint.eq(endpoint),
                push_subscriptions::p256dh.eq(p256dh),
                push_subscriptions::auth.eq(auth),
                push_subscriptions::created_at.eq(now),
            ))
            .execute(conn)?;
        Ok(())
    })
}

/// Forget the player's browser at `endpoint`; whether it was theirs.
pub fn unsubscribe(conn: &mut DbConn, user_id: i32, endpoint: &str) -> QueryResult<bool> {
    let n = diesel::delete(
        push_subscriptions::table
            .filter(push_subscriptions::user_id.eq(user_id))
            .filter(push_subscriptions::endpoint.eq(endpoint)),
    )
    .execute(conn)?;
    Ok(n > 0)
}

/// Forget a browser whose push service said it is gone (404, 410), with
/// what was queued for it.
pub fn remove(conn: &mut DbConn, id: i32) -> QueryResult<()> {
    diesel::delete(push_outbox::table.filter(push_outbox::subscription_id.eq(id))).execute(conn)?;
    diesel::delete(push_subscriptions::table.filter(push_subscriptions::id.eq(id)))
        .execute(conn)?;
    Ok(())
}

/// The player's subscribed browsers, newest first.
pub fn subscriptions_of(conn: &mut DbConn, user_id: i32) -> QueryResult<Vec<Subscription>> {
    push_subscriptions::table
        .filter(push_subscriptions::user_id.eq(user_id))
        .order(push_subscriptions::id.desc())
        .select(Subscription::as_select())
        .load(conn)
}

/// Subscriptions by id (the drain's rows name theirs).
pub fn subscriptions(conn: &mut DbConn, ids: &[i32]) -> QueryResult<Vec<Subscription>> {
    push_subscriptions::table
        .filter(push_subscriptions::id.eq_any(ids))
        .select(Subscription::as_select())
        .load(conn)
}

/// Everything of the player's: browsers, queue and switches (account
/// deletion).
pub fn forget_user(conn: &mut DbConn, user_id: i32) -> QueryResult<()> {
    let ids: Vec<i32> = push_subscriptions::table
        .filter(push_subscriptions::user_id.eq(user_id))
        .select(push_subscriptions::id)
        .load(conn)?;
    diesel::delete(push_outbox::table.filter(push_outbox::subscription_id.eq_any(&ids)))
        .execute(conn)?;
    diesel::delete(push_subscriptions::table.filter(push_subscriptions::user_id.eq(user_id)))
        .execute(conn)?;
    diesel::delete(push_muted::table.filter(push_muted::user_id.eq(user_id))).execute(conn)?;
    Ok(())
}

// ---------------------------------------------------------------------------
// Switches

/// The kinds the player turned off.
pub fn muted(conn: &mut DbConn, user_id: i32) -> QueryResult<Vec<PushKind>> {
    let codes: Vec<String> = push_muted::table
        .filter(push_muted::user_id.eq(user_id))
        .select(push_muted::kind)
        .load(conn)?;
    Ok(codes
        .iter()
        .filter_map(|c| <PushKind as crate::domain::codes::Coded>::from_code(c))
        .collect())
}

/// Turn off exactly `off` (and on every other kind).
pub fn set_muted(conn: &mut DbConn, user_id: i32, off: &[PushKind]) -> QueryResult<()> {
    conn.transaction(|conn| {
        diesel::delete(push_muted::table.filter(push_muted::user_id.eq(user_id))).execute(conn)?;
        for k in off {
            diesel::insert_into(push_muted::table)
                .values((
                    push_muted::user_id.eq(user_id),
                    push_muted::kind.eq(k.code()),
                ))
                .execute(conn)?;
        }
        Ok(())
    })
}

// ---------------------------------------------------------------------------
// The queue

/// Queue `mail` for each of the player's browsers, unless its kind is not
/// pushed or the player muted it: one `INSERT … SELECT`, inserting nothing
/// for a player without browsers. `payload` is the mail outbox's own
/// column for it, which the push drain reads back the same way. Called by
/// `outbox::enqueue`, so inside the event's transaction.
pub fn enqueue(
    conn: &mut DbConn,
    user_id: i32,
    mail: &Mail,
    payload: &str,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    use diesel::dsl::{exists, not};
    use diesel::sql_types::{Integer, Nullable, Text, Timestamp};
    let Some(switch) = PushKind::of(mail.kind()) else {
        return Ok(0);
    };
    let (game_id, ply) = (mail.game(), mail.ply());
    per_backend!(conn, |c| {
        let rows = push_subscriptions::table
            .filter(push_subscriptions::user_id.eq(user_id))
            .filter(not(exists(
                push_muted::table
                    .filter(push_muted::user_id.eq(user_id))
                    .filter(push_muted::kind.eq(switch.code())),
            )))
            .select((
                push_subscriptions::id,
                mail.kind().code().into_sql::<Text>(),
                game_id.into_sql::<Nullable<Integer>>(),
                ply.into_sql::<Nullable<Integer>>(),
                payload.into_sql::<Text>(),
                now.into_sql::<Timestamp>(),
                0.into_sql::<Integer>(),
                now.into_sql::<Timestamp>(),
            ));
        diesel::insert_into(push_outbox::table)
            .values(rows)
            .into_columns((
                push_outbox::subscription_id,
                push_outbox::kind,
                push_outbox::game_id,
                push_outbox::ply,
                push_outbox::payload,
                push_outbox::created_at,
                push_outbox::attempts,
                push_outbox::next_attempt_at,
            ))
            .execute(c)
    })
}

/// Due rows: unsent, their time come, not leased by a live worker.
pub fn due(conn: &mut DbConn, now: NaiveDateTime, limit: i64) -> QueryResult<Vec<i32>> {
    push_outbox::table
        .filter(push_outbox::sent_at.is_null())
        .filter(push_outbox::next_attempt_at.le(now))
        .filter(
            push_outbox::lease_until
                .is_null()
                .or(push_outbox::lease_until.lt(now)),
        )
        .order(push_outbox::id.asc())
        .limit(limit)
        .select(push_outbox::id)
        .load(conn)
}

/// Claim the rows `ids` for `owner` until `now + lease` (those nobody
/// holds and not sent) in one conditional UPDATE, and read the rows this
/// worker got.
pub fn claim_batch(
    conn: &mut DbConn,
    ids: &[i32],
    owner: &str,
    now: NaiveDateTime,
    lease: Duration,
) -> QueryResult<Vec<PushRow>> {
    diesel::update(
        push_outbox::table
            .filter(push_outbox::id.eq_any(ids))
            .filter(push_outbox::sent_at.is_null())
            .filter(
                push_outbox::lease_until
                    .is_null()
                    .or(push_outbox::lease_until.lt(now)),
            ),
    )
    .set((
        push_outbox::lease_owner.eq(owner),
        push_outbox::lease_until.eq(now + lease),
    ))
    .execute(conn)?;
    push_outbox::table
        .filter(push_outbox::id.eq_any(ids))
        .filter(push_outbox::lease_owner.eq(owner))
        .filter(push_outbox::sent_at.is_null())
        .order(push_outbox::id.asc())
        .select(PushRow::as_select())
        .load(conn)
}

/// Close a row this worker holds: sent (`note` None) or skipped, or
/// refused for good (`note` says why).
pub fn close(
    conn: &mut DbConn,
    id: i32,
    owner: &str,
    now: NaiveDateTime,
    note: Option<&str>,
) -> QueryResult<()> {
    diesel::update(
        push_outbox::table
            .filter(push_outbox::id.eq(id))
            .filter(push_outbox::lease_owner.eq(owner)),
    )
    .set((
        push_outbox::sent_at.eq(Some(now)),
        push_outbox::lease_owner.eq(None::<String>),
        push_outbox::lease_until.eq(None::<NaiveDateTime>),
        push_outbox::last_error.eq(note.map(|n| crate::util::clip(n, 1000))),
    ))
    .execute(conn)?;
    Ok(())
}

/// Put a row back to be tried again at `next`.
pub fn retry_later(
    conn: &mut DbConn,
    row: &PushRow,
    owner: &str,
    next: NaiveDateTime,
    error: &str,
) -> QueryResult<()> {
    diesel::update(
        push_outbox::table
            .filter(push_outbox::id.eq(row.id))
            .filter(push_outbox::lease_owner.eq(owner)),
    )
    .set((
        push_outbox::attempts.eq(row.attempts + 1),
        push_outbox::next_attempt_at.eq(next),
        push_outbox::lease_owner.eq(None::<String>),
        push_outbox::lease_until.eq(None::<NaiveDateTime>),
        push_outbox::last_error.eq(Some(crate::util::clip(error, 1000))),
    ))
    .execute(conn)?;
    Ok(())
}

/// Every push row, oldest first (tests and the admin).
pub fn all(conn: &mut DbConn) -> QueryResult<Vec<PushRow>> {
    push_outbox::table
        .order(push_outbox::id.asc())
        .select(PushRow::as_select())
        .load(conn)
}
