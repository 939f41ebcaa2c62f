//! `GET /settings/export`: everything stored about an account, as one
//! JSON document. Each game carries its moves and its PGN (`pgn`), so the
//! file alone is enough to take one's games elsewhere.

use crate::accounts::sessions;
use crate::db::moves;
use crate::db::users::User;
use crate::db::{entrants, game_notes, leave, mail_prefs, DbConn};
use crate::domain::error::Error;
use crate::game::records::{write_rated_game, Format};
use chrono::NaiveDateTime;
use serde_json::{json, Value};

/// The version of the document's shape, for whoever reads it later.
pub const FORMAT_VERSION: i32 = 1;

fn when(t: NaiveDateTime) -> String {
    t.and_utc()
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

pub fn export(
    conn: &mut DbConn,
    user: &User,
    site: &str,
    now: NaiveDateTime,
) -> Result<Value, Error> {
    let (verified, policy) = mail_prefs::standing_of(conn, user.id)?;
    let pending_email = crate::accounts::email_change::pending(conn, user.id, now)?;
    let sessions: Vec<Value> = sessions::list(conn, user.id, None, now)?
        .into_iter()
        .map(|s| {
            json!({
                "started": when(s.started),
                "last_seen": when(s.last_seen),
                "browser": s.browser,
            })
        })
        .collect();
    Ok(json!({
        "format": "missive-account-export",
        "format_version": FORMAT_VERSION,
        "exported_at": when(now),
        "profile": {
            "id": user.id,
            "username": user.username,
            "email": user.email,
            "email_confirmed": verified,
            "email_change_pending": pending_email,
            "joined": when(user.created_at),
            "tournament_director": user.is_director,
        },
        "settings": {
            "confirm_moves": user.confirm_moves,
            "mail_policy": policy.to_string(),
        },
        "sessions": sessions,
        "games": games_of(conn, user, site)?,
        "notes": notes_of(conn, user.id)?,
        "leave": leave_of(conn, user.id)?,
        "tournaments": tournaments_of(conn, user.id)?,
        "notifications": crate::accounts::notifications::export(conn, user.id)?,
    }))
}

fn games_of(conn: &mut DbConn, user: &User, site: &str) -> Result<Vec<Value>, Error> {
    let id = user.id;
    let rows = crate::db::games::every_game_of(conn, id)?;
    let mut ids: Vec<i32> = rows
        .iter()
        .flat_map(|r| [r.white_id, r.black_id, Some(r.challenger_id), r.opponent_id])
        .flatten()
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let names = crate::db::users::user_names(conn, &ids)?;
    let name = |i: Option<i32>| i.and_then(|i| names.get(&i).cloned());
    let mut out = Vec::with_capacity(rows.len());
    for row in &rows {
        let moves = moves::of_game(conn, row.id)?;
        let pgn = if row.white_id.is_some() && row.black_id.is_some() {
            let ratings = crate::db::ratings::of_game(conn, row.id)?;
            Some(write_rated_game(
                row,
                &moves,
                &names,
                &ratings,
                site,
                Format::Pgn,
            )?)
        } else {
            None
        };
        let listed: Vec<Value> = moves
            .iter()
            .map(|m| {
                json!({
                    "ply": m.ply,
                    "move": m.display,
                    "coordinate": m.coordinate,
                    "played_by": name(Some(m.played_by)),
                    "played_at": when(m.played_at),
                    "comment": m.comment,
                    "time_used_secs": m.time_used_secs,
                })
            })
            .collect();
        out.push(json!({
            "id": row.id,
            "url": format!("{site}/games/{}", row.id),
            "variant": row.variant,
            "status": row.status.to_string(),
            "white": name(row.white_id),
            "black": name(row.black_id),
            "challenger": name(Some(row.challenger_id)),
            "opponent": name(row.opponent_id),
            "result": row.result.map(|r| r.to_string()),
            "reason": row.reason.map(|r| r.describe()),
            "time_control": row.time_control,
            "tournament_id": row.tournament_id,
            "round": row.round,
            "start_fen": row.start_fen,
            "fen": row.fen,
            "created_at": when(row.created_at),
            "ended_at": row.ended_at.map(when),
            "moves": listed,
            "pgn": pgn,
        }));
    }
    Ok(out)
}

fn notes_of(conn: &mut DbConn, user_id: i32) -> Result<Vec<Value>, Error> {
    Ok(game_notes::of_user(conn, user_id)?
        .into_iter()
        .map(|(game, body, at)| json!({"game_id": game, "note": body, "updated_at": when(at)}))
        .collect())
}

fn leave_of(conn: &mut DbConn, user_id: i32) -> Result<Value, Error> {
    let bookings = crate::db::leave::bookings_of(conn, user_id)?;
    let grants = leave::grants_of(conn, user_id)?;
    Ok(json!({
        "bookings": bookings.iter().map(|b| json!({
            "first_day": b.start_date.to_string(),
            "last_day": b.end_date.to_string(),
            "booked_at": when(b.created_at),
        })).collect::<Vec<_>>(),
        "extra_days_granted": grants.iter().map(|(year, days, reason, at)| json!({
            "year": year, "days": days, "reason": reason, "granted_at": when(*at),
        })).collect::<Vec<_>>(),
    }))
}

fn tournaments_of(conn: &mut DbConn, user_id: i32) -> Result<Vec<Value>, Error> {
    Ok(entrants::entries_of(conn, user_id)?
        .into_iter()
        .map(|(id, name, seed, joined, withdrawn, why)| {
            json!({
                "tournament_id": id,
                "name": name,
                "seed": seed,
                "joined_at": when(joined),
                "withdrawn_at": withdrawn.map(when),
                "withdrawal_reason": why,
            })
        })
        .collect())
}
