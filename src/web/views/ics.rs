//! A player's calendar feed as iCalendar (RFC 5545), written by the
//! `icalendar` crate (it escapes text, folds long lines and ends them with
//! CRLF). Times are UTC (`...Z`), so no VTIMEZONE is needed and every
//! calendar program shows them in its own zone. Each event's UID stays the
//! same for the life of what it stands for (a game's deadline, a booking),
//! and its SEQUENCE and DTSTAMP move on with each move, so subscribers
//! replace the event rather than add another.

use crate::accounts::calendar_feed::Feed;
use chrono::{NaiveDateTime, TimeDelta};
use icalendar::{Calendar, Component, Event, EventLike};

fn utc(t: NaiveDateTime) -> chrono::DateTime<chrono::Utc> {
    t.and_utc()
}

/// The feed of `username` as an iCalendar text; `base` is the site's
/// address (links to games, and the host in each UID).
pub fn write(feed: &Feed, username: &str, base: &str) -> String {
    let base = base.trim_end_matches('/');
    let host = url::Url::parse(base)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_else(|| "missive".into());
    let mut cal = Calendar::new();
    cal.name(&format!("Missive: {username}"))
        .description("Deadlines of your running games, your tournaments' rounds and your leave.")
        // Asks subscribers to read it again every hour.
        .ttl(&TimeDelta::hours(1));
    for d in &feed.deadlines {
        let whose = match d.mine {
            true => "Your move".to_string(),
            false => format!("{}'s move", d.opponent),
        };
        let summary = format!("{whose}: #{} {} vs {}", d.game_id, d.variant, d.opponent);
        let description = format!(
            "The deadline of {} in game #{} ({}) against {}: the clock runs out then, \
             unless a move is made first.",
            match d.mine {
                true => "your move".to_string(),
                false => format!("{}'s move", d.opponent),
            },
            d.game_id,
            d.variant,
            d.opponent
        );
        // No DTEND: a moment, not a stretch (RFC 5545 3.6.1).
        cal.push(
            Event::new()
                .uid(&format!("game-{}-deadline@{host}", d.game_id))
                .timestamp(utc(d.turn_started))
                .last_modified(utc(d.turn_started))
                .sequence(u32::try_from(d.ply).unwrap_or(0))
                .starts(utc(d.deadline))
                .summary(&summary)
                .description(&description)
                .url(&format!("{base}/games/{}", d.game_id))
                .done(),
        );
    }
    for t in &feed.tournaments {
        let (uid, summary) = match t.round {
            None => (
                format!("tournament-{}-start@{host}", t.tournament_id),
                format!("{}: entry closes and the tournament begins", t.name),
            ),
            Some(r) => (
                format!("tournament-{}-round-{r}@{host}", t.tournament_id),
                format!("{}: round {r} began", t.name),
            ),
        };
        cal.push(
            Event::new()
                .uid(&uid)
                .timestamp(utc(t.at))
                .starts(utc(t.at))
                .summary(&summary)
                .url(&format!("{base}/tournaments/{}", t.tournament_id))
                .done(),
        );
    }
    for (id, first, last, booked) in &feed.leave {
        // Whole days: DTEND is the day after the last (exclusive).
        let mut e = Event::new();
        e.uid(&format!("leave-{id}@{host}"))
            .timestamp(utc(*booked))
            .starts(*first)
            .ends(*last + TimeDelta::days(1))
            .summary("On leave: your clocks stop")
            .url(&format!("{base}/leave"));
        cal.push(e.done());
    }
    cal.done().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::calendar_feed::{DeadlineEvent, Feed};
    use chrono::NaiveDate;

    #[test]
    fn lines_are_folded_text_escaped_and_times_utc() {
        let at = |d: u32, h: u32| {
            NaiveDate::from_ymd_opt(2026, 3, d)
                .unwrap()
                .and_hms_opt(h, 0, 0)
                .unwrap()
        };
        let feed = Feed {
            deadlines: vec![DeadlineEvent {
                game_id: crate::domain::ids::GameId(12),
                variant: "Chess".into(),
                opponent: "semi;colon,comma".into(),
                mine: true,
                deadline: at(10, 19),
                turn_started: at(6, 20),
                ply: 3,
            }],
            tournaments: vec![],
            leave: vec![(4, at(20, 0).date(), at(22, 0).date(), at(1, 0))],
        };
        let text = write(&feed, "alice", "https://missive.example/");
        assert!(text.starts_with("BEGIN:VCALENDAR\r\n"));
        for line in text.split("\r\n") {
            assert!(line.len() <= 75, "{line:?}");
            assert!(!line.contains('\n'));
        }
        let unfolded = text.replace("\r\n ", "");
        assert!(unfolded.contains("UID:game-12-deadline@missive.example\r\n"));
        assert!(unfolded.contains("DTSTART:20260310T190000Z\r\n"));
        assert!(unfolded.contains("DTSTAMP:20260306T200000Z\r\n"));
        assert!(unfolded.contains("SEQUENCE:3\r\n"));
        assert!(unfolded.contains("SUMMARY:Your move: #12 Chess vs semi\\;colon\\,comma\r\n"));
        assert!(unfolded.contains("URL:https://missive.example/games/12\r\n"));
        assert!(unfolded.contains("DTSTART;VALUE=DATE:20260320\r\n"));
        assert!(unfolded.contains("DTEND;VALUE=DATE:20260323\r\n"));
        assert!(!unfolded.contains("DTEND:2026"), "a deadline is a moment");
    }
}
