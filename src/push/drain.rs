//! The push drain: claim due notifications with a lease, render, encrypt
//! and hand each to its browser's push service, and close it as soon as
//! the service took it (as `mail::drain` does with mails).

use crate::db::push::{self, PushRow, Subscription, BATCH};
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::push::crypto;
use crate::push::render::render;
use crate::push::transport::{deliver, Delivery, Headers};
use crate::push::Pusher;
use chrono::NaiveDateTime;
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PushReport {
    /// Messages the push services took.
    pub sent: usize,
    /// Messages to try again later.
    pub failed: usize,
    /// Messages closed unsent: no longer true, or refused for good.
    pub skipped: usize,
    /// Browsers forgotten: their push service said the subscription is gone.
    pub gone: usize,
}

/// One pass over at most `BATCH` due messages. No transaction is held
/// while a push service is asked; each message is closed the moment its
/// service took it, so a process killed at any point sends at most the
/// one message it was sending again, once its lease has run out.
pub fn drain_once(
    conn: &mut DbConn,
    pusher: &Pusher,
    now: NaiveDateTime,
) -> Result<PushReport, Error> {
    let mut report = PushReport::default();
    let mut gone = std::collections::HashSet::new();
    let ids = push::due(conn, now, BATCH)?;
    if ids.is_empty() {
        return Ok(report);
    }
    let rows = push::claim_batch(conn, &ids, &pusher.owner, now, pusher.lease)?;
    let sub_ids: Vec<i32> = rows.iter().map(|r| r.subscription_id).collect();
    let subs: HashMap<i32, Subscription> = push::subscriptions(conn, &sub_ids)?
        .into_iter()
        .map(|s| (s.id, s))
        .collect();
    for row in rows {
        // A browser found gone earlier in this pass took its rows along.
        let Some(sub) = subs.get(&row.subscription_id) else {
            continue;
        };
        if !gone.contains(&sub.id) && send_one(conn, pusher, &row, sub, now, &mut report)? {
            gone.insert(sub.id);
        }
    }
    Ok(report)
}

/// Send one message; whether its browser turned out to be gone.
fn send_one(
    conn: &mut DbConn,
    pusher: &Pusher,
    row: &PushRow,
    sub: &Subscription,
    now: NaiveDateTime,
    report: &mut PushReport,
) -> Result<bool, Error> {
    let owner = pusher.owner.as_str();
    let rendered = match mail_of(row, sub.user_id) {
        Some(mail) => render(conn, &pusher.base_url, sub.user_id, &mail, now),
        None => Ok(None),
    };
    let note = match rendered {
        Ok(Some(n)) => n,
        Ok(None) => {
            push::close(
                conn,
                row.id,
                owner,
                now,
                Some("skipped: no longer relevant"),
            )?;
            report.skipped += 1;
            return Ok(false);
        }
        Err(e) => {
            tracing::warn!("push {}: cannot render: {e}", row.id);
            push::retry_later(conn, row, owner, later(row, now), &format!("render: {e}"))?;
            report.failed += 1;
            return Ok(false);
        }
    };
    let prepared = url::Url::parse(&sub.endpoint)
        .map_err(|e| e.to_string())
        .and_then(|endpoint| {
            let body = crypto::encrypt(note.to_json().as_bytes(), &sub.p256dh, &sub.auth)
                .map_err(|e| e.to_string())?;
            let auth = pusher
                .vapid
                // The push service checks the token's expiry against its
                // own clock: the wall clock's, whatever `now` a test passes.
                .authorization(&endpoint, &pusher.contact, chrono::Utc::now().timestamp())
                .map_err(|e| e.to_string())?;
            Ok((body, auth))
        });
    let (body, authorization) = match prepared {
        Ok(p) => p,
        Err(e) => {
            push::close(conn, row.id, owner, now, Some(&format!("refused: {e}")))?;
            report.skipped += 1;
            return Ok(false);
        }
    };
    let urgent = matches!(note.kind, "your_turn" | "clock_reminder");
    let headers = Headers {
        authorization: &authorization,
        ttl_secs: 4 * 24 * 3600,
        urgency: if urgent { "high" } else { "normal" },
        topic: &note.tag,
    };
    match deliver(&pusher.http, &sub.endpoint, &headers, body) {
        Delivery::Taken => {
            push::close(conn, row.id, owner, now, None)?;
            report.sent += 1;
        }
        Delivery::Gone => {
            tracing::info!("push: browser {} is gone; forgotten", sub.id);
            push::remove(conn, sub.id)?;
            report.gone += 1;
            return Ok(true);
        }
        Delivery::Refused(e) => {
            tracing::warn!("push {} refused for good: {e}", row.id);
            push::close(conn, row.id, owner, now, Some(&format!("refused: {e}")))?;
            report.skipped += 1;
        }
        Delivery::Failed(e) => {
            tracing::warn!(
                "push {} not sent (attempt {}): {e}",
                row.id,
                row.attempts + 1
            );
            push::retry_later(conn, row, owner, later(row, now), &e)?;
            report.failed += 1;
        }
    }
    Ok(false)
}

/// When a failed message is tried again: the mail outbox's backoff.
fn later(row: &PushRow, now: NaiveDateTime) -> NaiveDateTime {
    now + crate::db::outbox::backoff(row.attempts + 1)
}

/// The event a row holds, read as the mail outbox reads its own rows
/// (the two keep an event in the same columns).
fn mail_of(row: &PushRow, user_id: i32) -> Option<crate::domain::mail_kind::Mail> {
    crate::db::outbox::OutboxRow {
        id: row.id,
        kind: row.kind,
        user_id,
        game_id: row.game_id,
        ply: row.ply,
        payload: row.payload.clone(),
        created_at: row.created_at,
        attempts: row.attempts,
        next_attempt_at: row.next_attempt_at,
        lease_owner: None,
        lease_until: None,
        sent_at: None,
        last_error: None,
    }
    .mail()
}
