//! Xfcc's `GetMyGames`: a player's games in progress as `XfccGame`
//! elements, with the fields of the public XfccBasic description (the
//! `XfccGame` type of `templates/xfcc/wsdl.xml`).

use crate::db::games::{self, GameRow};
use crate::db::users::User;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::Side;
use crate::domain::ids::GameId;
use crate::game::clock;
use crate::game::exports::{self, ExportRows};
use crate::game::records::Format;
use crate::web::rules_pool::rules_work;
use crate::web::AppState;
use missive_rules::Color;
use std::sync::Arc;

/// One `XfccGame` as the reply writes it.
pub struct XfccGame {
    pub id: GameId,
    pub white: String,
    pub black: String,
    pub event: String,
    pub site: String,
    pub my_turn: bool,
    pub has_white: bool,
    pub player: Left,
    pub opponent: Left,
    /// PGN movetext in the variant's notation.
    pub moves: String,
    pub draw_offered: bool,
    pub setup: bool,
    pub fen: String,
    pub time_control: String,
    pub variant: String,
    pub game_link: String,
}

/// Time left as Xfcc counts it: days, hours, minutes.
#[derive(Default)]
pub struct Left {
    pub days: i64,
    pub hours: i64,
    pub minutes: i64,
}

impl Left {
    fn of(secs: i64) -> Left {
        let minutes = secs.max(0) / 60;
        Left {
            days: minutes / (24 * 60),
            hours: minutes / 60 % 24,
            minutes: minutes % 60,
        }
    }
}

/// What the database gives for one game; the movetext is written after,
/// with no connection held.
struct Read {
    row: GameRow,
    side: Color,
    event: String,
    player_secs: i64,
    opponent_secs: i64,
    /// Started from a position of its own (Xfcc's `setup` and `fen`).
    custom: bool,
    export: ExportRows,
}

fn read_games(
    conn: &mut DbConn,
    state: &AppState,
    user: &User,
    now: chrono::NaiveDateTime,
) -> Result<Vec<Read>, Error> {
    let mine = games::active_games_of(conn, user.id)?;
    // One read of the players' names for all the games, then each game's
    // export rows apart (its movetext is written game by game).
    let ExportRows { games, names } =
        exports::load_rows(conn, mine.clone(), &state.records, Format::Pgn)?;
    let mut read = Vec::with_capacity(mine.len());
    for (row, game) in mine.into_iter().zip(games) {
        let Some(side) = games::side_of(&row, user.id) else {
            continue;
        };
        let clock = clock::view(conn, &row, now)?;
        let secs = |c: Color| clock.as_ref().map_or(0, |k| k.side(c).left_secs);
        let opponent = side.opponent();
        let event = match row.tournament_id {
            Some(t) => crate::db::tournaments::name_of(conn, t)?,
            None => None,
        };
        let export = ExportRows {
            games: vec![game],
            names: names.clone(),
        };
        let custom = crate::game::records::custom_start(&row)?;
        read.push(Read {
            custom,
            player_secs: secs(side),
            opponent_secs: secs(opponent),
            event: event.unwrap_or_else(|| "Casual game".into()),
            row,
            side,
            export,
        });
    }
    Ok(read)
}

/// The time stamp comment the PGN export gives each move (`{[%ts …]}`).
const STAMP: &str = "{[%ts ";

/// The movetext of a game's PGN: what follows the tags, without the
/// result marker of a game in progress and without the moves' time
/// stamps (a program would show them as comments); players' comments stay.
fn movetext(pgn: &str) -> String {
    let body = pgn.split_once("\n\n").map_or(pgn, |(_, m)| m).trim();
    let mut body = body.strip_suffix('*').unwrap_or(body).trim_end();
    let mut kept = String::with_capacity(body.len());
    while let Some(i) = body.find(STAMP) {
        kept.push_str(&body[..i]);
        body = body[i..].split_once('}').map_or("", |(_, rest)| rest);
    }
    kept.push_str(body);
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The user's games in progress, oldest first.
pub async fn my_games(state: &Arc<AppState>, user: &User) -> Result<Vec<XfccGame>, Error> {
    let (reads, u) = (state.clone(), user.clone());
    let read = state
        .read(move |conn| read_games(conn, &reads, &u, crate::web::now()))
        .await?;
    let site = super::base_url(state);
    let writer = state.clone();
    rules_work(state, move || {
        read.into_iter()
            .map(|r| {
                let names = r.export.names.clone();
                let pgn = exports::write(r.export, &writer.records, &site, Format::Pgn)?;
                let name =
                    |id: Option<i32>| id.and_then(|i| names.get(&i).cloned()).unwrap_or_default();
                let mine = Side::from(r.side);
                Ok(XfccGame {
                    id: r.row.id,
                    white: name(r.row.white_id),
                    black: name(r.row.black_id),
                    event: r.event,
                    site: site.clone(),
                    my_turn: r.row.turn == mine,
                    has_white: r.side == Color::White,
                    player: Left::of(r.player_secs),
                    opponent: Left::of(r.opponent_secs),
                    moves: movetext(&pgn),
                    draw_offered: r.row.draw_offer == Some(mine.opponent()),
                    fen: if r.custom {
                        r.row.start_fen.clone()
                    } else {
                        String::new()
                    },
                    setup: r.custom,
                    time_control: r.row.time_control.clone().unwrap_or_default(),
                    variant: r.row.variant.clone(),
                    game_link: format!("{site}/games/{}", r.row.id),
                })
            })
            .collect::<Result<Vec<_>, Error>>()
    })
    .await?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_movetext_is_the_pgn_after_its_tags_without_the_open_result() {
        let pgn = "[Event \"x\"]\n[Site \"y\"]\n\n1. e4 {[%ts 2026-11-26T18:07:18Z]} e5\n\
                   {[%ts 2026-11-27T08:00:00Z]} { [%ts is my word]} 2. Nf3 {a plan}\n*\n\n";
        assert_eq!(
            movetext(pgn),
            "1. e4 e5 { [%ts is my word]} 2. Nf3 {a plan}"
        );
        assert_eq!(movetext("[Event \"x\"]\n\n*\n\n"), "");
    }

    #[test]
    fn time_left_is_days_hours_minutes() {
        let l = Left::of(3 * 86_400 + 5 * 3600 + 7 * 60 + 59);
        assert_eq!((l.days, l.hours, l.minutes), (3, 5, 7));
        let none = Left::of(-5);
        assert_eq!((none.days, none.hours, none.minutes), (0, 0, 0));
    }
}
