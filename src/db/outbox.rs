//! The mail outbox. Use cases call [`enqueue`] inside the transaction of
//! the event that causes a mail (a move, a challenge...), so a mail exists
//! exactly when its event does; the drain (`mail::drain`) claims due rows
//! with a lease, and [`mark_sent`] or [`mark_failed`] close or retry them.

use crate::db::schema::{email_outbox, users};
use crate::db::{per_backend, DbConn};
use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;
use serde::{Deserialize, Serialize};

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
pub const LEASE_SECS: i64 = crate::config::MAIL_LEASE_SECS;

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
                now.into_sql::<Timestamp>(),
                0.into_sql::<Integer>(),
                now.into_sql::<Timestamp>(),
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
pub fn mark_sent(
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

pub fn mark_failed(
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
        email_outbox::last_error.eq(Some(crate::util::clip(error, 1000))),
    ))
    .execute(conn)?;
    Ok(())
}

/// Every outbox row, oldest first (for tests and the admin).
pub fn all(conn: &mut DbConn) -> QueryResult<Vec<OutboxRow>> {
    email_outbox::table
        .order(email_outbox::id.asc())
        .select(OutboxRow::as_select())
        .load(conn)
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
}
