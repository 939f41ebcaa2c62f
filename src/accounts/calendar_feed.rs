//! A player's secret calendar address (issue 64): `/calendar/{token}.ics`
//! lists their running games' deadlines, their tournaments' rounds and
//! their leave, read afresh on every request. One address per account; it
//! is stored only as its SHA-256 (a random 256-bit secret needs no slow
//! hash) and shown once when made. Making a new one or turning it off ends
//! the old one at once.

use crate::accounts::users::token_hash;
use crate::db::users::User;
use crate::db::{calendar_feeds, entrants, leave, tournament_games, DbConn};
use crate::domain::error::Error;
use crate::domain::ids::GameId;
use crate::domain::tournament_state::TournamentStatus;
use chrono::{NaiveDate, NaiveDateTime};

/// A new address for `user_id`, replacing any old one; the token, which
/// the owner sees this once.
pub fn make(conn: &mut DbConn, user_id: i32, now: NaiveDateTime) -> Result<String, Error> {
    let token = crate::util::random_token();
    let hash = token_hash(&token);
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        Ok(calendar_feeds::replace(conn, user_id, &hash, now)?)
    })?;
    Ok(token)
}

/// The account a token opens: none for an unknown or ended token, or an
/// account disabled or deleted.
pub fn owner(conn: &mut DbConn, token: &str) -> Result<Option<User>, Error> {
    // A token is 64 hex digits; anything else is not looked up.
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(None);
    }
    let hash = token_hash(&token.to_ascii_lowercase());
    let Some(id) = calendar_feeds::owner_id(conn, &hash)? else {
        return Ok(None);
    };
    let user = crate::db::users::find_by_id(conn, id)?;
    Ok(user.filter(|u| u.disabled_at.is_none() && u.deleted_at.is_none()))
}

/// One running game's deadline.
pub struct DeadlineEvent {
    pub game_id: GameId,
    pub variant: String,
    pub opponent: String,
    /// The reader is to move (else the opponent is).
    pub mine: bool,
    pub deadline: NaiveDateTime,
    /// When the turn began: the event changes with every move.
    pub turn_started: NaiveDateTime,
    pub ply: i32,
}

/// A tournament date: entry closing (the start) or a round's start.
pub struct TournamentEvent {
    pub tournament_id: i32,
    pub name: String,
    /// `None`: the tournament starts (entry closes); else that round.
    pub round: Option<i32>,
    pub at: NaiveDateTime,
}

/// What the feed lists.
pub struct Feed {
    pub deadlines: Vec<DeadlineEvent>,
    pub tournaments: Vec<TournamentEvent>,
    /// Leave bookings: (id, first day, last day, booked at), UTC days.
    pub leave: Vec<(i32, NaiveDate, NaiveDate, NaiveDateTime)>,
}

/// The feed of `user` as it stands at `now`.
pub fn feed(conn: &mut DbConn, user: &User, now: NaiveDateTime) -> Result<Feed, Error> {
    let uid = user.id;
    let running = crate::db::games::active_games_of(conn, uid)?;
    let mut ids: Vec<i32> = running
        .iter()
        .flat_map(|g| [g.white_id, g.black_id])
        .flatten()
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let names = crate::db::users::user_names(conn, &ids)?;
    let leave_of = crate::db::leave::booked_leave_of(conn, &ids)?;
    let zones = match running.iter().any(|g| g.weekends_free) {
        true => crate::db::users::zones_of(conn, &ids)?,
        false => Default::default(),
    };
    let mut deadlines = Vec::new();
    for g in &running {
        let Some(mover) = crate::db::games::player_to_move(g) else {
            continue;
        };
        let booked = leave_of.get(&mover).map_or(&[][..], Vec::as_slice);
        let zone = zones.get(&mover).copied().unwrap_or(chrono_tz::Tz::UTC);
        let Some(m) = crate::game::clock::mover_clock_with(g, booked, zone) else {
            continue;
        };
        let other = if g.white_id == Some(uid) {
            g.black_id
        } else {
            g.white_id
        };
        deadlines.push(DeadlineEvent {
            game_id: g.id,
            variant: crate::posted::lookup::variant(&g.variant)
                .map_or_else(|| g.variant.clone(), |v| v.name().to_string()),
            opponent: other
                .and_then(|o| names.get(&o).cloned())
                .unwrap_or_else(|| "your opponent".into()),
            mine: mover == uid,
            deadline: m.deadline,
            turn_started: m.started,
            ply: g.ply,
        });
    }
    deadlines.sort_by_key(|d| (d.deadline, d.game_id));
    let tournaments = tournament_dates(conn, uid)?;
    let leave = leave::bookings_from(conn, uid, now.date() - chrono::TimeDelta::days(365))?;
    Ok(Feed {
        deadlines,
        tournaments,
        leave,
    })
}

/// The start of each tournament the player is entered in that has not
/// started, and the start of each round of those running.
fn tournament_dates(conn: &mut DbConn, uid: i32) -> Result<Vec<TournamentEvent>, Error> {
    let entered = entrants::open_entries_of(conn, uid)?;
    let mut out = Vec::new();
    for (tid, name, status, closes) in entered {
        if status == TournamentStatus::Entry.code() {
            out.push(TournamentEvent {
                tournament_id: tid,
                name,
                round: None,
                at: closes,
            });
            continue;
        }
        // A round begins when its first game is made.
        for (round, at) in tournament_games::round_starts(conn, tid)? {
            if let (Some(r), Some(at)) = (round, at) {
                out.push(TournamentEvent {
                    tournament_id: tid,
                    name: name.clone(),
                    round: Some(r),
                    at,
                });
            }
        }
    }
    out.sort_by_key(|e| (e.at, e.tournament_id, e.round));
    Ok(out)
}
