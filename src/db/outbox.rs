//! The mail outbox. Use cases call [`enqueue`] inside the transaction of
//! the event that causes a mail (a move, a challenge...), so a mail exists
//! exactly when its event does; the drain (`mail::drain`) claims due rows
//! with a lease, and [`mark_sent`] or [`mark_failed`] close or retry them.

use crate::db::schema::{email_outbox, users};
use crate::db::{per_backend, DbConn};
use crate::domain::codes::Coded;
use crate::domain::ids::GameId;
use crate::domain::mail_kind::{ClockNotice, Mail, MailKind, MailPolicy, MoveNote};
use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;
use serde::{Deserialize, Serialize};

/// How long a worker holds a claimed row before another may take it.
pub const LEASE_SECS: i64 = crate::config::MAIL_LEASE_SECS;

/// Rows claimed per pass.
pub const BATCH: i64 = 50;

/// How a [`Mail`]'s own data is kept in the row's `payload` column (its
/// game and ply have columns of their own): JSON with these names, which
/// rows queued by earlier versions also have.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default)]
struct Payload {
    from_user: Option<i32>,
    display: Option<String>,
    comment: Option<String>,
    /// The move a conditional one answered.
    answers: Option<String>,
    tournament_id: Option<i32>,
    round: Option<i32>,
    /// `YYYY-MM-DD`.
    leave_start: Option<String>,
    leave_end: Option<String>,
    reason: Option<String>,
    results_cancelled: Option<bool>,
    /// The `account_tokens` row of a reset or address-change mail.
    token_id: Option<i32>,
    /// A clock notice's code (its detail is `reason`).
    notice: Option<String>,
}

const DAY: &str = "%Y-%m-%d";

impl Payload {
    fn of(mail: &Mail) -> Payload {
        let note = |m: &Option<MoveNote>| {
            m.as_ref()
                .map(|m| {
                    (
                        Some(m.display.clone()),
                        m.comment.clone(),
                        m.answers.clone(),
                    )
                })
                .unwrap_or_default()
        };
        let mut p = Payload {
            from_user: mail.from(),
            token_id: mail.token(),
            ..Payload::default()
        };
        match mail {
            Mail::YourTurn { last_move, .. } | Mail::GameOver { last_move, .. } => {
                (p.display, p.comment, p.answers) = note(last_move);
            }
            Mail::ConditionalPlayed { last_move, .. } => {
                (p.display, p.comment, p.answers) = note(&Some(last_move.clone()));
            }
            Mail::TournamentRound { tournament, round } => {
                p.tournament_id = Some(*tournament);
                p.round = *round;
            }
            Mail::TournamentEntered { tournament } => {
                p.tournament_id = Some(*tournament);
            }
            Mail::TournamentWithdrawn {
                tournament,
                reason,
                results_cancelled,
            } => {
                p.tournament_id = Some(*tournament);
                p.reason = Some(reason.clone());
                p.results_cancelled = Some(*results_cancelled);
            }
            Mail::ClockNotice { notice, detail, .. } => {
                p.notice = Some(notice.code().to_string());
                p.reason = Some(detail.clone());
            }
            Mail::LeaveBooked {
                first_day,
                last_day,
                ..
            } => {
                p.leave_start = Some(first_day.format(DAY).to_string());
                p.leave_end = Some(last_day.format(DAY).to_string());
            }
            Mail::ReplyDone { act: text, .. } | Mail::ReplyRefused { reason: text, .. } => {
                p.reason = Some(text.clone());
            }
            _ => {}
        }
        p
    }
}

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = email_outbox)]
pub struct OutboxRow {
    pub id: i32,
    #[diesel(deserialize_as = String)]
    pub kind: MailKind,
    pub user_id: i32,
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

impl OutboxRow {
    /// The mail this row holds; `None` where its columns lack what its kind
    /// needs (nothing to send: the row is closed as skipped).
    pub fn mail(&self) -> Option<Mail> {
        let p: Payload = serde_json::from_str(&self.payload).unwrap_or_default();
        let day = |d: &Option<String>| {
            d.as_deref()
                .and_then(|d| chrono::NaiveDate::parse_from_str(d, DAY).ok())
        };
        let last_move = p.display.clone().map(|display| MoveNote {
            display,
            comment: p.comment.clone(),
            answers: p.answers.clone(),
        });
        Some(match self.kind {
            MailKind::VerifyEmail => Mail::VerifyEmail,
            MailKind::Digest => Mail::Digest,
            MailKind::PasswordChanged => Mail::PasswordChanged,
            MailKind::PasswordReset => Mail::PasswordReset { token: p.token_id? },
            MailKind::EmailChangeConfirm => Mail::EmailChangeConfirm { token: p.token_id? },
            MailKind::EmailChanging => Mail::EmailChanging { token: p.token_id? },
            MailKind::ChallengeReceived => Mail::ChallengeReceived {
                game: self.game_id?,
                from: p.from_user?,
            },
            MailKind::ChallengeAccepted => Mail::ChallengeAccepted {
                game: self.game_id?,
                ply: self.ply.unwrap_or(0),
                from: p.from_user?,
            },
            MailKind::YourTurn => Mail::YourTurn {
                game: self.game_id?,
                ply: self.ply?,
                from: p.from_user,
                last_move,
            },
            MailKind::ClockReminder => Mail::ClockReminder {
                game: self.game_id?,
                ply: self.ply?,
            },
            MailKind::DrawOffer => Mail::DrawOffer {
                game: self.game_id?,
                ply: self.ply.unwrap_or(0),
                from: p.from_user?,
            },
            MailKind::TakebackOffer => Mail::TakebackOffer {
                game: self.game_id?,
                ply: self.ply.unwrap_or(0),
                from: p.from_user?,
            },
            MailKind::GameOver => Mail::GameOver {
                game: self.game_id?,
                from: p.from_user,
                last_move,
            },
            MailKind::TournamentRound => Mail::TournamentRound {
                tournament: p.tournament_id?,
                round: p.round,
            },
            MailKind::TournamentEntered => Mail::TournamentEntered {
                tournament: p.tournament_id?,
            },
            MailKind::TournamentWithdrawn => Mail::TournamentWithdrawn {
                tournament: p.tournament_id?,
                reason: p.reason.unwrap_or_default(),
                results_cancelled: p.results_cancelled.unwrap_or(false),
            },
            MailKind::LeaveBooked => Mail::LeaveBooked {
                from: p.from_user?,
                first_day: day(&p.leave_start)?,
                last_day: day(&p.leave_end)?,
            },
            MailKind::ReplyDone => Mail::ReplyDone {
                game: self.game_id?,
                ply: self.ply?,
                act: p.reason?,
            },
            MailKind::ReplyRefused => Mail::ReplyRefused {
                game: self.game_id?,
                ply: self.ply,
                reason: p.reason?,
            },
            MailKind::ClockNotice => Mail::ClockNotice {
                game: self.game_id?,
                ply: self.ply?,
                notice: ClockNotice::from_code(p.notice.as_deref()?)?,
                about: p.from_user,
                detail: p.reason.unwrap_or_default(),
            },
            MailKind::ConditionalPlayed => Mail::ConditionalPlayed {
                game: self.game_id?,
                ply: self.ply?,
                from: p.from_user?,
                last_move: last_move?,
            },
        })
    }
}

/// Queue a mail, unless the user's policy refuses it ("none": nothing;
/// "digest": no "your turn" mails) or, but for the verification mail, their
/// address is not verified. Call it inside the transaction of the event.
///
/// One `INSERT … SELECT` over the user's standing
/// ([`crate::db::mail_prefs::standing_of`]'s join) rather than a read and
/// then an insert: a move's mail is one statement, one round trip to
/// PostgreSQL.
pub fn enqueue(
    conn: &mut DbConn,
    user_id: i32,
    mail: &Mail,
    now: NaiveDateTime,
) -> QueryResult<()> {
    use crate::db::schema::{mail_prefs, verified_emails};
    use diesel::sql_types::{Bool, Integer, Nullable, Text, Timestamp};
    let payload = payload_of(mail);
    // Browser notifications follow their own switches, not the mail policy.
    crate::db::push::enqueue(conn, user_id, mail, &payload, now)?;
    let kind = mail.kind();
    let (game_id, ply) = (mail.game(), mail.ply());
    let policy = mail_prefs::policy.nullable();
    // The conditions that depend on the kind are bound as values, so the
    // statement has one shape, which diesel keeps prepared by its type.
    let any_address = kind.to_any_address();
    // A digest reader gets no mail about single moves: their turns and
    // conditional moves played are in the digest.
    let not_a_turn = !matches!(kind, MailKind::YourTurn | MailKind::ConditionalPlayed);
    let any_policy = kind.about_the_account();
    let queued = per_backend!(conn, |c| {
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
            .filter(
                policy
                    .is_null()
                    .or(policy.ne(MailPolicy::None.code()))
                    .or(any_policy.into_sql::<Bool>()),
            )
            .filter(
                policy
                    .is_null()
                    .or(policy.ne(MailPolicy::Digest.code()))
                    .or(not_a_turn.into_sql::<Bool>()),
            )
            .select((
                kind.code().into_sql::<Text>(),
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
    crate::metrics::mails_queued(queued);
    Ok(())
}

/// A mail's `payload` column (the push outbox keeps its events alike).
pub fn payload_of(mail: &Mail) -> String {
    serde_json::to_string(&Payload::of(mail)).unwrap_or_else(|_| "{}".into())
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

/// Close a mail refused for good: it is not tried again, and `last_error`
/// keeps why, marked `refused:` apart from the mails sent or skipped.
pub fn mark_refused(
    conn: &mut DbConn,
    row: &OutboxRow,
    owner: &str,
    now: NaiveDateTime,
    error: &str,
) -> QueryResult<()> {
    let note = format!("refused: {}", crate::util::clip(error, 990));
    end_attempt(conn, row, owner, Some(now), row.next_attempt_at, note)
}

/// Put a mail back to be tried again after [`backoff`].
pub fn mark_failed(
    conn: &mut DbConn,
    row: &OutboxRow,
    owner: &str,
    now: NaiveDateTime,
    error: &str,
) -> QueryResult<()> {
    let next = now + backoff(row.attempts + 1);
    end_attempt(conn, row, owner, None, next, crate::util::clip(error, 1000))
}

/// Release this worker's lease on a mail whose attempt failed, counting the
/// attempt: closed at `closed`, or due again at `next`.
fn end_attempt(
    conn: &mut DbConn,
    row: &OutboxRow,
    owner: &str,
    closed: Option<NaiveDateTime>,
    next: NaiveDateTime,
    error: String,
) -> QueryResult<()> {
    diesel::update(
        email_outbox::table
            .filter(email_outbox::id.eq(row.id))
            .filter(email_outbox::lease_owner.eq(owner)),
    )
    .set((
        email_outbox::attempts.eq(row.attempts + 1),
        email_outbox::sent_at.eq(closed),
        email_outbox::next_attempt_at.eq(next),
        email_outbox::lease_owner.eq(None::<String>),
        email_outbox::lease_until.eq(None::<NaiveDateTime>),
        email_outbox::last_error.eq(Some(error)),
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

/// The outbox's backlog: how many mails are not yet sent, and when the
/// oldest of them was queued (for `/metrics`).
pub fn backlog(conn: &mut DbConn) -> QueryResult<(i64, Option<NaiveDateTime>)> {
    use diesel::dsl::{count_star, min};
    email_outbox::table
        .filter(email_outbox::sent_at.is_null())
        .select((count_star(), min(email_outbox::created_at)))
        .first(conn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mail_comes_back_from_its_row() {
        let day = |d| chrono::NaiveDate::from_ymd_opt(2026, 12, d).unwrap();
        let note = Some(MoveNote {
            display: "Nf3".into(),
            comment: Some("hm".into()),
            answers: None,
        });
        let mails = [
            Mail::VerifyEmail,
            Mail::Digest,
            Mail::ChallengeReceived {
                game: GameId(3),
                from: 9,
            },
            Mail::ChallengeAccepted {
                game: GameId(3),
                ply: 0,
                from: 9,
            },
            Mail::YourTurn {
                game: GameId(3),
                ply: 7,
                from: Some(9),
                last_move: note.clone(),
            },
            Mail::YourTurn {
                game: GameId(3),
                ply: 0,
                from: None,
                last_move: None,
            },
            Mail::ClockReminder {
                game: GameId(3),
                ply: 7,
            },
            Mail::DrawOffer {
                game: GameId(3),
                ply: 7,
                from: 9,
            },
            Mail::TakebackOffer {
                game: GameId(3),
                ply: 7,
                from: 9,
            },
            Mail::GameOver {
                game: GameId(3),
                from: Some(9),
                last_move: note,
            },
            Mail::ConditionalPlayed {
                game: GameId(3),
                ply: 8,
                from: 9,
                last_move: MoveNote {
                    display: "Bg5".into(),
                    comment: Some("as planned".into()),
                    answers: Some("Nf6".into()),
                },
            },
            Mail::TournamentRound {
                tournament: 4,
                round: Some(2),
            },
            Mail::TournamentEntered { tournament: 4 },
            Mail::TournamentWithdrawn {
                tournament: 4,
                reason: "two losses on time".into(),
                results_cancelled: true,
            },
            Mail::LeaveBooked {
                from: 9,
                first_day: day(1),
                last_day: day(14),
            },
            Mail::ClockNotice {
                game: GameId(3),
                ply: 7,
                notice: ClockNotice::FlagFell,
                about: Some(9),
                detail: "2026-03-16 12:00 UTC".into(),
            },
        ];
        for mail in mails {
            let row = row_of(
                mail.kind(),
                mail.game(),
                mail.ply(),
                serde_json::to_string(&Payload::of(&mail)).unwrap(),
            );
            assert_eq!(row.mail(), Some(mail));
        }
    }

    /// A queued row as the outbox stores it.
    fn row_of(
        kind: MailKind,
        game_id: Option<GameId>,
        ply: Option<i32>,
        payload: String,
    ) -> OutboxRow {
        let t = chrono::DateTime::from_timestamp(0, 0).unwrap().naive_utc();
        OutboxRow {
            id: 1,
            kind,
            user_id: 2,
            game_id,
            ply,
            payload,
            created_at: t,
            attempts: 0,
            next_attempt_at: t,
            lease_owner: None,
            lease_until: None,
            sent_at: None,
            last_error: None,
        }
    }

    #[test]
    fn a_row_without_what_its_kind_needs_holds_no_mail() {
        let row = row_of(MailKind::TournamentRound, None, None, "{}".into());
        assert_eq!(row.mail(), None);
    }

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
