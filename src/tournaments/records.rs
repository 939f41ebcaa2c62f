//! Tournament records: PGN export of all games and import of a played
//! game's record.

use crate::db::users::User;
use crate::db::{tournament_games, tournaments, DbConn};
use crate::domain::codes::Coded;
use crate::domain::error::Error;
use crate::domain::game_state::{EndReason, GameResult, GameStatus, Side};
use crate::domain::ids::GameId;
use crate::domain::standings::counts;
use crate::tournaments::directors::{named_player, require_director};
use crate::util::clip;
use chrono::NaiveDateTime;
use missive_rules::Color;
use std::collections::HashMap;

/// Every started game of a tournament as one PGN file (round order), with
/// all moves read in one query.
pub fn export_pgn(conn: &mut DbConn, tid: i32, site: &str) -> Result<String, Error> {
    use crate::db::moves::MoveRow;
    let t = tournaments::load(conn, tid)?;
    let rows = tournament_games::of_tournament(conn, tid)?;
    let all_moves = tournament_games::moves_of_tournament(conn, tid)?;
    let mut by_game: HashMap<GameId, Vec<MoveRow>> = HashMap::new();
    for m in all_moves {
        by_game.entry(m.game_id).or_default().push(m);
    }
    let ids: Vec<i32> = rows
        .iter()
        .flat_map(|g| [g.white_id, g.black_id])
        .flatten()
        .collect();
    let names = crate::db::users::user_names(conn, &ids)?;
    let mut out = String::new();
    for g in rows.iter().filter(|g| counts(g.reason)) {
        let moves = by_game.remove(&g.id).unwrap_or_default();
        let ratings = match g.rated {
            true => crate::db::ratings::of_game(conn, g.id)?,
            false => HashMap::new(),
        };
        let pgn = crate::game::records::write_rated_game(
            g,
            &moves,
            &names,
            &ratings,
            site,
            crate::game::records::Format::Pgn,
        )?;
        out.push_str(&tag_event(&pgn, &t.name, g.round));
    }
    Ok(out)
}

/// A game's PGN with the tournament as its Event and its round as Round.
fn tag_event(pgn: &str, event: &str, round: Option<i32>) -> String {
    pgn.lines()
        .map(|l| {
            if l.starts_with("[Event ") {
                format!("[Event \"{}\"]", missive_rules::record::tag_value(event))
            } else if l.starts_with("[Round ") {
                format!(
                    "[Round \"{}\"]",
                    round.map(|r| r.to_string()).unwrap_or("-".into())
                )
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + if pgn.ends_with('\n') { "\n" } else { "" }
}

/// Longest record accepted for import.
pub const RECORD_MAX: usize = 1_000_000;

/// A director imports a checked record (PGN or Game Courier log) as a
/// finished game between two existing players. Every move is replayed with
/// the rules (the record is refused at its first illegal ply) and stored with
/// the position after it, as if played; the result is the record's (or, if
/// it has none, how the rules end the game). This is the rules' part, which
/// needs no database connection; [`import_record`] stores it.
pub fn prepare_import(text: &str) -> Result<PreparedImport, Error> {
    use missive_rules::record;
    if text.len() > RECORD_MAX {
        return Err(Error::Invalid("The record is too long.".into()));
    }
    let report = crate::game::records::check_record(text);
    if !report.ok {
        return Err(Error::Invalid(report.message));
    }
    let rec = record::parse_any(text).map_err(|e| {
        Error::Invalid(format!(
            "The record cannot be read: {}.",
            crate::util::unstopped(&e)
        ))
    })?;
    let variant = crate::posted::lookup::variant(&rec.variant_id()).ok_or_else(|| {
        Error::Invalid(format!(
            "There is no variant “{}”.",
            clip(&rec.variant_id(), 40)
        ))
    })?;
    let mut game = missive_rules::Game::new(variant, rec.start_fen()).map_err(|e| {
        Error::Invalid(format!(
            "The start position cannot be used: {}.",
            crate::util::unstopped(&e)
        ))
    })?;
    let start_fen = game.fen();
    let mut plies = Vec::new();
    let mut previous: Option<(i32, Color)> = None;
    for m in &rec.moves {
        let side = game.side_to_move();
        let turn_no = crate::domain::game_state::next_turn_no(previous, side);
        previous = Some((turn_no, side));
        let played = game.play_text(&m.text).map_err(|e| {
            Error::Invalid(format!(
                "“{}” is illegal: {}.",
                clip(&m.text, 40),
                crate::util::unstopped(&e)
            ))
        })?;
        let (from, to) = variant.move_squares(&played.mv);
        plies.push((
            played,
            from.map(|s| s.name()),
            to.name(),
            game.fen(),
            m.comment.clone(),
            side == Color::Black,
            turn_no,
        ));
    }
    let outcome = game.outcome();
    let written = rec.result.as_deref().and_then(GameResult::from_code);
    let (result, reason) = match (written, outcome) {
        (Some(r), Some(o)) if r == GameResult::of_outcome(&o) => (r, EndReason::Rules(o.reason)),
        (Some(r), _) => (r, EndReason::Imported),
        (None, Some(o)) => (GameResult::of_outcome(&o), EndReason::Rules(o.reason)),
        _ => {
            return Err(Error::Invalid(
                "The record has no result and the rules do not end the game: only finished \
                 games are imported."
                    .into(),
            ))
        }
    };
    Ok(PreparedImport {
        variant: variant.id(),
        start_fen,
        fen: game.fen(),
        history: game.history_string(),
        turn: Side::from(game.side_to_move()),
        result,
        reason,
        plies,
    })
}

/// A record read and replayed by the rules ([`prepare_import`]), ready to
/// store: the work that needs no database connection, done without one.
#[derive(Clone)]
pub struct PreparedImport {
    variant: &'static str,
    start_fen: String,
    fen: String,
    history: String,
    turn: Side,
    result: GameResult,
    reason: EndReason,
    /// Each ply: as played, its squares, the FEN after it, its comment,
    /// whether Black played it, its move number.
    #[allow(clippy::type_complexity)]
    plies: Vec<(
        missive_rules::Played,
        Option<String>,
        String,
        String,
        Option<String>,
        bool,
        i32,
    )>,
}

/// Store a game [`prepare_import`] read, between the players named `white`
/// and `black`, as the director `director`; its id.
pub fn import_record(
    conn: &mut DbConn,
    director: &User,
    prepared: &PreparedImport,
    white: &str,
    black: &str,
    now: NaiveDateTime,
) -> Result<GameId, Error> {
    use crate::db::games::NewGame;
    use crate::db::moves::NewMove;
    require_director(Some(director))?;
    let w = named_player(conn, white)?;
    let b = named_player(conn, black)?;
    if w.id == b.id {
        return Err(Error::Invalid(
            "White and Black must be two different players.".into(),
        ));
    }
    let p = prepared;
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        let id = crate::db::games::insert(
            conn,
            &NewGame {
                variant: p.variant,
                status: GameStatus::Finished,
                challenger_id: w.id,
                opponent_id: Some(b.id),
                white_id: Some(w.id),
                black_id: Some(b.id),
                challenger_color: Side::White,
                start_fen: &p.start_fen,
                fen: &p.fen,
                ply: p.plies.len() as i32,
                turn: p.turn,
                created_at: now,
                updated_at: now,
                time_control: None,
                leave_cap_days: None,
                rated: false,
                rating_min: None,
                rating_max: None,
                weekends_free: false,
            },
            &p.history,
        )?;
        let plies: Vec<NewMove> = p
            .plies
            .iter()
            .enumerate()
            .map(
                |(i, (played, from, to, fen_after, comment, black, turn_no))| NewMove {
                    game_id: id,
                    ply: i as i32 + 1,
                    display: &played.display,
                    coordinate: &played.coordinate,
                    from_square: from.as_deref(),
                    to_square: to,
                    fen_after,
                    played_by: if *black { b.id } else { w.id },
                    played_at: now,
                    comment: comment
                        .as_deref()
                        .map(str::trim)
                        .filter(|c| !c.is_empty())
                        .map(|c| clip(c, crate::domain::game_state::COMMENT_MAX)),
                    time_used_secs: None,
                    turn_no: *turn_no,
                    // The game's history is stored whole, up to its last ply.
                    history_entry: None,
                    conditional: false,
                    bank_after: None,
                },
            )
            .collect();
        tournament_games::store_imported(conn, id, p.result, p.reason, &plies, now)?;
        Ok(id)
    })
}
