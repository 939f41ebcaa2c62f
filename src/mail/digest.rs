//! The daily digest: users whose mail policy is `digest` get one mail a day
//! (at `MISSIVE_DIGEST_HOUR`, UTC) listing the games where it is their turn,
//! and none when there is nothing to list.
//!
//! [`run_digests`] is safe with several processes: a user's day is claimed
//! by inserting the `digest_sent` row (primary key user + day) in the same
//! transaction that queues the outbox mail, so only one insert wins.

use crate::accounts::links::{self, PlayLink};
use crate::db::digest_sent::{self, DigestSent};
use crate::db::outbox;
use crate::db::users::User;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::ids::GameId;
use crate::domain::mail_kind::Mail;
use crate::game::clock;
use crate::game::restore;
use crate::mail::context::MailCtx;
use chrono::{NaiveDate, NaiveDateTime, Timelike};

/// One game of a digest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnGame {
    pub game_id: GameId,
    pub variant_name: String,
    pub opponent: String,
    /// The opponent's last move, if any.
    pub last_move: Option<String>,
    /// The plies played (what a play link is signed for).
    pub ply: i32,
    /// Since when the game waits for this player's move.
    pub waiting_since: NaiveDateTime,
    /// This player's time left in seconds (leave counted), when the game has a clock.
    pub time_left_secs: Option<i64>,
    /// "2 days 3 hours left; deadline ...", empty without a clock.
    pub clock_text: String,
}

/// The games to list in a user's digest, in the order to list them: every
/// game in progress where it is their turn, the least time left first (games
/// without a clock after them), then the one waiting longest.
pub fn games_to_list(
    conn: &mut DbConn,
    user_id: i32,
    now: NaiveDateTime,
) -> Result<Vec<TurnGame>, Error> {
    let rows = crate::db::games::waiting_on(conn, user_id)?;
    let mut ids: Vec<i32> = rows
        .iter()
        .flat_map(|g| [g.white_id, g.black_id])
        .flatten()
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let names = crate::db::users::user_names(conn, &ids)?;
    // Deadlines in the reader's own zone.
    let zone = crate::db::users::zone_of(conn, user_id)?;
    let mut out = Vec::with_capacity(rows.len());
    for g in rows {
        let variant = restore::variant_of(&g)?;
        let opponent_id = if g.white_id == Some(user_id) {
            g.black_id
        } else {
            g.white_id
        };
        let last_move = crate::db::moves::display_of(conn, g.id, g.ply)?;
        let clock = clock::view(conn, &g, now)?;
        let side = crate::db::games::side_of(&g, user_id);
        let (time_left_secs, clock_text) = match (&clock, side) {
            (Some(c), Some(side)) => (
                Some(c.side(side).left_secs),
                crate::domain::clock::describe_for(c, side, zone),
            ),
            _ => (None, String::new()),
        };
        out.push(TurnGame {
            game_id: g.id,
            variant_name: variant.name().to_string(),
            opponent: opponent_id
                .and_then(|i| names.get(&i).cloned())
                .unwrap_or_else(|| "your opponent".into()),
            last_move,
            ply: g.ply,
            waiting_since: g.updated_at,
            time_left_secs,
            clock_text,
        });
    }
    // The rows come longest waiting first; a stable sort keeps that order
    // among equal times left.
    out.sort_by_key(|g| g.time_left_secs.unwrap_or(i64::MAX));
    Ok(out)
}

/// What one pass of [`run_digests`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DigestRun {
    /// Digests queued in the outbox.
    pub queued: usize,
    /// Users whose day was claimed with nothing to list (no mail).
    pub empty: usize,
}

/// Users with the `digest` policy and a verified address whose digest for
/// `day` nobody has claimed yet.
fn candidates(conn: &mut DbConn, day: NaiveDate) -> Result<Vec<i32>, Error> {
    let done = digest_sent::claimed_on(conn, day)?;
    Ok(digest_sent::readers(conn)?
        .into_iter()
        .filter(|(id, current, verified)| current == verified && !done.contains(id))
        .map(|(id, _, _)| id)
        .collect())
}

/// Queue today's digests, once `now` (UTC) has reached `hour` o'clock: for
/// each user with the `digest` policy and a verified address, claim the day
/// and, if some game waits for their move, queue one digest mail, both in
/// one transaction. A day already claimed (by this or another process) is
/// left alone, so each user gets at most one digest per UTC day.
pub fn run_digests(conn: &mut DbConn, hour: u32, now: NaiveDateTime) -> Result<DigestRun, Error> {
    let mut run = DigestRun::default();
    if now.hour() < hour {
        return Ok(run);
    }
    let day = now.date();
    for user_id in candidates(conn, day)? {
        let listed = games_to_list(conn, user_id, now)?.len();
        let claimed = crate::db::write_transaction::<_, Error>(conn, |conn| {
            digest_sent::claim(
                conn,
                &DigestSent {
                    user_id,
                    day,
                    games: listed as i32,
                    created_at: now,
                },
            )?;
            if listed > 0 {
                outbox::enqueue(conn, user_id, &Mail::Digest, now)?;
            }
            Ok(())
        });
        match claimed {
            Ok(()) if listed > 0 => run.queued += 1,
            Ok(()) => run.empty += 1,
            Err(Error::AlreadyDone) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(run)
}

pub struct DigestItem {
    pub game_id: GameId,
    pub variant_name: String,
    pub opponent: String,
    pub last_move: String,
    pub waiting: String,
    /// Time left and deadline, empty without a clock.
    pub clock_text: String,
    pub game_url: String,
    pub play_url: String,
}

pub struct DigestData {
    pub username: String,
    pub day: String,
    pub items: Vec<DigestItem>,
    pub play_link_hours: i64,
    pub unsubscribe_url: String,
    pub settings_url: String,
}

/// "3 days 4 hours", "5 hours", "12 minutes".
pub fn waited(since: NaiveDateTime, now: NaiveDateTime) -> String {
    let d = now - since;
    let plural = |n: i64, unit: &str| format!("{n} {unit}{}", if n == 1 { "" } else { "s" });
    let (days, hours, minutes) = (d.num_days(), d.num_hours() % 24, d.num_minutes() % 60);
    if days > 0 {
        if hours > 0 {
            format!("{} {}", plural(days, "day"), plural(hours, "hour"))
        } else {
            plural(days, "day")
        }
    } else if hours > 0 {
        plural(hours, "hour")
    } else {
        plural(minutes.max(0), "minute")
    }
}

/// What a queued digest lists, from the games as they are now; `None` when
/// no game waits for the user any more (the row is then closed unsent).
pub fn data(
    conn: &mut DbConn,
    ctx: &MailCtx,
    user: &User,
    queued_at: NaiveDateTime,
    now: NaiveDateTime,
) -> Result<Option<DigestData>, Error> {
    let list = games_to_list(conn, user.id, now)?;
    if list.is_empty() {
        return Ok(None);
    }
    let expires = (now + ctx.play_link_ttl).and_utc().timestamp();
    let items = list
        .iter()
        .map(|g| DigestItem {
            game_id: g.game_id,
            variant_name: g.variant_name.clone(),
            opponent: g.opponent.clone(),
            last_move: g.last_move.clone().unwrap_or_default(),
            waiting: waited(g.waiting_since, now),
            clock_text: g.clock_text.clone(),
            game_url: format!("{}/games/{}", ctx.base_url, g.game_id),
            play_url: PlayLink {
                game: g.game_id,
                user: user.id,
                ply: g.ply,
                expires,
            }
            .url(&ctx.base_url, &ctx.secret),
        })
        .collect();
    let data = DigestData {
        username: user.username.clone(),
        day: queued_at.date().format("%Y-%m-%d").to_string(),
        items,
        play_link_hours: ctx.play_link_ttl.num_hours(),
        unsubscribe_url: links::unsubscribe_url(&ctx.base_url, &ctx.secret, user.id),
        settings_url: format!("{}/settings/mail", ctx.base_url),
    };
    Ok(Some(data))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waiting_times_read_well() {
        let t = |s: &str| NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M").unwrap();
        let now = t("2026-11-23 07:00");
        assert_eq!(waited(t("2026-11-23 06:48"), now), "12 minutes");
        assert_eq!(waited(t("2026-11-23 02:00"), now), "5 hours");
        assert_eq!(waited(t("2026-11-22 06:00"), now), "1 day 1 hour");
        assert_eq!(waited(t("2026-11-20 07:00"), now), "3 days");
        assert_eq!(waited(t("2026-11-23 06:59"), now), "1 minute");
    }
}
