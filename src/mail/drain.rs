//! The outbox drain: claim due mails with a lease, render and send each,
//! and mark it sent or to be tried again later.

use crate::db::outbox::{claim_batch, due, mark_failed, mark_refused, mark_sent, BATCH};
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::mail::context::MailCtx;
use crate::mail::render::{build_message, render};
use crate::mail::transport::{SendError, Transport};
use chrono::NaiveDateTime;

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
    /// Mails refused for good (an SMTP 5xx, an impossible address): closed.
    pub refused: usize,
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
) -> Result<DrainReport, Error> {
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
            Err(SendError::Refused(e)) => {
                tracing::warn!("mail {id} ({}) refused for good: {e}", row.kind);
                // Retrying cannot help: the mail is closed, and its player
                // is told on every page to fix the address.
                mark_refused(conn, &row, &sender.owner, now, &e)?;
                crate::db::mail_failures::record(conn, row.user_id, mail.to.trim(), &e, now)?;
                report.refused += 1;
            }
            Err(SendError::Failed(e)) => {
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
