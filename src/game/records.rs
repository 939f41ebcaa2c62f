//! Game records (issue 11): private notes, PGN and log export, the archive
//! query, per-user summaries and record checking. Plain functions over a
//! connection; the rules crate writes and reads the records.

use crate::db::game_archive::{self, ArchiveQuery};
use crate::db::games::{self, GameRow};
use crate::db::moves::{self, MoveRow};
use crate::db::{game_notes, DbConn};
use crate::domain::codes::Coded;
use crate::domain::error::Error;
use crate::domain::game_state::{GameResult, GameStatus, Side};
use crate::domain::ids::GameId;
use crate::domain::rating::{signed, Change};
use crate::game::restore;
use crate::util::unstopped;
use chrono::{NaiveDate, NaiveDateTime};
use missive_rules::record::{self, Export, RecordError, RecordMove};
use missive_rules::{Color, Game, ReplayError, Variant};
use std::collections::HashMap;

/// Longest private note kept.
pub const NOTE_MAX: usize = 10_000;

/// Save (or, when empty, delete) a user's private note on a game.
pub fn save_note(
    conn: &mut DbConn,
    game_id: GameId,
    user_id: i32,
    body: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    games::load(conn, game_id)?;
    let body = body.trim();
    if body.chars().count() > NOTE_MAX {
        return Err(Error::Invalid(format!(
            "The note is too long (at most {NOTE_MAX} characters)."
        )));
    }
    if body.is_empty() {
        return game_notes::delete(conn, game_id, user_id);
    }
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        if !game_notes::update(conn, game_id, user_id, body, now)?
            && !game_notes::insert(conn, game_id, user_id, body, now)?
        {
            return Err(Error::Conflict(
                "The note was saved from elsewhere meanwhile; try again.".into(),
            ));
        }
        Ok(())
    })
}

fn pgn_date(t: NaiveDateTime) -> String {
    t.format("%Y.%m.%d").to_string()
}

fn stamp(t: NaiveDateTime) -> String {
    t.and_utc().format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// Whether the game started from a position other than the variant's own.
pub fn custom_start(row: &GameRow) -> Result<bool, Error> {
    let variant = restore::variant_of(row)?;
    starts_elsewhere(variant, &row.start_fen)
}

/// Whether `fen` is other than `variant`'s start position: a record of
/// the game must carry it (a Chess960 game's drawn start too).
pub fn starts_elsewhere(variant: &'static dyn Variant, fen: &str) -> Result<bool, Error> {
    let standard = Game::new(variant, None)
        .map(|g| g.fen())
        .map_err(|e| Error::internal(format!("start position of {}: {e}", variant.id())))?;
    Ok(standard != fen)
}

/// Whether `fen` is a start a player chose (unrated, kept for a rematch)
/// rather than the variant's own or one it drew (Chess960).
pub fn is_custom_start(variant: &'static dyn Variant, fen: &str) -> Result<bool, Error> {
    Ok(starts_elsewhere(variant, fen)? && !variant.is_shuffled_start(fen))
}

/// Which of the two written forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    Pgn,
    Log,
}

/// Write one game (any status that has players) as PGN or a log.
pub fn write_game(
    row: &GameRow,
    moves: &[MoveRow],
    names: &HashMap<i32, String>,
    site: &str,
    format: Format,
) -> Result<String, Error> {
    write_rated_game(row, moves, names, &HashMap::new(), site, format)
}

/// The rating tags of a rated game that has ended, as lichess writes them:
/// `WhiteElo` and `BlackElo` the ratings before the game (rounded),
/// `WhiteRatingDiff` and `BlackRatingDiff` what it changed (`+8`, `-8`).
pub fn rating_tags(row: &GameRow, ratings: &HashMap<i32, Change>) -> Vec<(String, String)> {
    let (Some(w), Some(b)) = (
        row.white_id.and_then(|i| ratings.get(&i)),
        row.black_id.and_then(|i| ratings.get(&i)),
    ) else {
        return vec![];
    };
    vec![
        ("WhiteElo".into(), w.before.whole().to_string()),
        ("BlackElo".into(), b.before.whole().to_string()),
        ("WhiteRatingDiff".into(), signed(w.diff())),
        ("BlackRatingDiff".into(), signed(b.diff())),
    ]
}

/// [`write_game`] with what the game did to its players' ratings, by user
/// id (empty for a casual game or one not ended).
pub fn write_rated_game(
    row: &GameRow,
    moves: &[MoveRow],
    names: &HashMap<i32, String>,
    ratings: &HashMap<i32, Change>,
    site: &str,
    format: Format,
) -> Result<String, Error> {
    let variant = restore::variant_of(row)?;
    let name = |id: Option<i32>| {
        id.and_then(|i| names.get(&i).cloned())
            .unwrap_or_else(|| "?".into())
    };
    let result = row.result.map_or("*", GameResult::code).to_string();
    let termination = match (row.status, row.reason) {
        (_, Some(reason)) => reason.describe(),
        (GameStatus::Active, None) => "unterminated".into(),
        (status, None) => status.to_string(),
    };
    let mut tags: Vec<(String, String)> = vec![
        ("Event".into(), "Missive correspondence game".into()),
        ("Site".into(), format!("{site}/games/{}", row.id)),
        ("Date".into(), pgn_date(row.created_at)),
        ("Round".into(), "-".into()),
        ("White".into(), name(row.white_id)),
        ("Black".into(), name(row.black_id)),
        ("Result".into(), result.clone()),
        ("Termination".into(), termination),
        // `-`: no clock; else the standard form where it says the same, or
        // Missive's canonical text.
        (
            "TimeControl".into(),
            match crate::game::clock::control_of(row) {
                Ok(Some(c)) => c.pgn_tag(),
                _ => "-".into(),
            },
        ),
        ("StartDate".into(), stamp(row.created_at)),
    ];
    if let Some(end) = row.ended_at {
        tags.push(("EndDate".into(), pgn_date(end)));
    }
    // A posted variant's game names the version it is played under: its
    // definition is `/variants/{id}/{version}.ini`.
    if let Some((_, version)) = crate::posted::lookup::split(&row.variant) {
        tags.push(("VariantName".into(), variant.name().into()));
        tags.push(("VariantVersion".into(), version.into()));
    }
    tags.extend(rating_tags(row, ratings));
    // The seven-tag roster says White and Black, as PGN readers need; a
    // variant whose sides have other names (Leap Chess: Red and Black)
    // says which is which, and the outcome is told in its own words.
    let sides = [
        variant.side_name(Color::White),
        variant.side_name(Color::Black),
    ];
    if sides != ["White", "Black"] {
        tags.push(("WhiteSide".into(), sides[0].into()));
        tags.push(("BlackSide".into(), sides[1].into()));
    }
    if let Some(words) = games::describe_result(row, sides) {
        tags.push(("Outcome".into(), words));
    }
    let start = if custom_start(row)? {
        Some(row.start_fen.as_str())
    } else {
        None
    };
    let export = Export {
        variant,
        start_fen: start,
        tags,
        // PGN from the forms stored with each move, so writing it replays
        // nothing; a log's Game Courier forms are not stored, and are
        // written from the positions the moves pass through.
        moves: moves
            .iter()
            .map(|m| RecordMove {
                text: match format {
                    Format::Pgn => record::pgn_move_text(&m.display, &m.coordinate).to_string(),
                    Format::Log => m.coordinate.clone(),
                },
                // A conditional move says so as a command annotation, which
                // PGN readers (python-chess, pgn-extract) take apart from
                // the words and no player's comment can look like (their
                // `[%` is broken up).
                comment: {
                    let said = m.comment.as_deref().map(|c| c.replace("[%", "[ %"));
                    match (m.conditional, said) {
                        (true, Some(c)) => Some(format!("{} {c}", record::CONDITIONAL_MARK)),
                        (true, None) => Some(record::CONDITIONAL_MARK.into()),
                        (false, c) => c,
                    }
                },
                time: Some(stamp(m.played_at)),
            })
            .collect(),
        result,
    };
    Ok(match format {
        Format::Pgn => record::write_pgn_as_written(&export),
        Format::Log => record::write_gc_log(&export),
    })
}

/// One game with its moves and player names, written out.
pub fn export_game(
    conn: &mut DbConn,
    id: GameId,
    site: &str,
    format: Format,
) -> Result<String, Error> {
    let row = games::load(conn, id)?;
    let moves = moves::of_game(conn, id)?;
    let ids: Vec<i32> = [row.white_id, row.black_id].into_iter().flatten().collect();
    let names = crate::db::users::user_names(conn, &ids)?;
    let ratings = crate::db::ratings::of_game(conn, id)?;
    write_rated_game(&row, &moves, &names, &ratings, site, format)
}

/// What checking a record found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReport {
    pub ok: bool,
    /// The variant id the record names.
    pub variant: String,
    /// Plies read (all of them when `ok`, else those before the failure).
    pub plies: usize,
    /// The first illegal ply (1-based) and its text, when one is illegal.
    pub bad_ply: Option<(usize, String)>,
    /// One line: what is wrong, or how the game ends.
    pub message: String,
    /// Final FEN, when every move is legal.
    pub fen: Option<String>,
}

/// Check a PGN or Game Courier log with the rules, move by move. Nothing is
/// stored.
pub fn check_record(text: &str) -> CheckReport {
    let mut report = CheckReport {
        ok: false,
        variant: String::new(),
        plies: 0,
        bad_ply: None,
        message: String::new(),
        fen: None,
    };
    let rec = match record::parse_any(text) {
        Ok(r) => r,
        Err(e) => {
            report.message = format!("The record cannot be read: {}.", unstopped(&e));
            return report;
        }
    };
    report.variant = rec.variant_id();
    match record::check(&rec, missive_rules::variant) {
        Ok(game) => {
            report.ok = true;
            report.plies = game.ply();
            report.fen = Some(game.fen());
            report.message = match game.outcome() {
                Some(o) => format!(
                    "Every move is legal; the game ends {} ({}).",
                    o.result_code(),
                    o.describe(game.variant())
                ),
                None => format!(
                    "Every move is legal; the record ends with {} (the rules do not end the game).",
                    rec.result.as_deref().unwrap_or("no result")
                ),
            };
        }
        Err(RecordError::Illegal(ReplayError::Move(i, e))) => {
            let text = rec.moves.get(i).map(|m| m.text.clone()).unwrap_or_default();
            report.plies = i;
            report.bad_ply = Some((i + 1, text.clone()));
            report.message = format!("Ply {} (“{}”) is illegal: {}.", i + 1, text, unstopped(&e));
        }
        Err(e) => report.message = format!("The record is not valid: {}.", unstopped(&e)),
    }
    report
}

/// Archive filters, as the query string gives them (all optional).
#[derive(Clone, Debug, Default)]
pub struct ArchiveFilter {
    pub player: String,
    pub variant: String,
    pub status: String,
    pub result: String,
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
    /// `last-move` (default) or `ended`.
    pub sort: String,
    /// 1-based.
    pub page: i64,
    /// Only the games of this tournament.
    pub tournament: Option<i32>,
}

pub const ARCHIVE_PAGE: i64 = 50;

/// One page of the archive: games, whether more follow, player names.
pub type ArchivePage = (Vec<GameRow>, bool, HashMap<i32, String>);

/// Games matching the filters (one page, plus whether there is a next page),
/// with player names. Challenges never accepted are not listed.
pub fn archive(conn: &mut DbConn, f: &ArchiveFilter) -> Result<ArchivePage, Error> {
    let player = f.player.trim();
    let player_key = (!player.is_empty()).then(|| crate::db::users::username_key(player));
    fn nonempty(t: &str) -> Option<&str> {
        Some(t.trim()).filter(|t| !t.is_empty())
    }
    let page = f.page.clamp(1, 100_000);
    let query = ArchiveQuery {
        player_key: player_key.as_deref(),
        tournament: f.tournament,
        variant: nonempty(&f.variant),
        status: nonempty(&f.status),
        result: nonempty(&f.result),
        by_end: f.sort == "ended",
        from: f.from.and_then(|d| d.and_hms_opt(0, 0, 0)),
        to: f
            .to
            .and_then(|d| d.succ_opt())
            .and_then(|d| d.and_hms_opt(0, 0, 0)),
        offset: (page - 1) * ARCHIVE_PAGE,
        limit: ARCHIVE_PAGE + 1,
    };
    let mut rows = game_archive::archive(conn, &query)?;
    let more = rows.len() as i64 > ARCHIVE_PAGE;
    rows.truncate(ARCHIVE_PAGE as usize);
    let names = crate::db::users::player_names(conn, &rows)?;
    Ok((rows, more, names))
}

/// A user's results in one variant.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VariantRecord {
    pub variant: String,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
    pub playing: i64,
}

/// Wins, losses, draws and games in progress per variant for a user,
/// counted by the database from the indexes `games_white` and
/// `games_black` (player, status, variant, result) alone: a busy player
/// has hundreds of games, and fetching each row (as before) was most of a
/// profile page on the million-game database.
pub fn results_by_variant(conn: &mut DbConn, user_id: i32) -> Result<Vec<VariantRecord>, Error> {
    let [as_white, as_black] = game_archive::result_counts(conn, user_id)?;
    let mut map: std::collections::BTreeMap<String, VariantRecord> = Default::default();
    for (seat, rows) in [(Side::White, as_white), (Side::Black, as_black)] {
        for (variant, status, result, n) in rows {
            let e = map.entry(variant.clone()).or_insert_with(|| VariantRecord {
                variant,
                ..Default::default()
            });
            let result = result.as_deref().and_then(GameResult::from_code);
            let tally = match (
                GameStatus::from_code(&status),
                result.map(GameResult::winner),
            ) {
                (Some(GameStatus::Active), _) => &mut e.playing,
                (_, Some(None)) => &mut e.draws,
                (_, Some(Some(winner))) if winner == seat => &mut e.wins,
                (_, Some(Some(_))) => &mut e.losses,
                _ => continue,
            };
            *tally += n;
        }
    }
    Ok(map.into_values().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::game_state::EndReason;

    fn finished(variant: &str, result: &str, reason: &str) -> GameRow {
        let v = missive_rules::variant(variant).unwrap();
        let start = Game::new(v, None).unwrap().fen();
        let at = NaiveDate::from_ymd_opt(2026, 3, 4)
            .unwrap()
            .and_hms_opt(5, 6, 7)
            .unwrap();
        let mut row = GameRow::for_tests(9, 0, &start, at);
        row.variant = variant.into();
        row.status = GameStatus::Finished;
        row.result = GameResult::from_code(result);
        row.reason = EndReason::from_code(reason);
        row.ended_at = Some(at);
        row
    }

    /// Each header line is `[Name "value"]` as the PGN standard's export
    /// format has it: a name of letters, digits and underscores, a quoted
    /// value with `\` and `"` escaped.
    fn assert_tag_lines(pgn: &str) {
        let header = pgn.split("\n\n").next().unwrap();
        for line in header.lines() {
            let inner = line
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix("\"]"))
                .unwrap_or_else(|| panic!("not a tag line: {line}"));
            let (name, value) = inner.split_once(" \"").unwrap();
            assert!(
                !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                "{line}"
            );
            let mut escaped = false;
            for c in value.chars() {
                match (escaped, c) {
                    (false, '\\') => escaped = true,
                    (false, '"') => panic!("unescaped quote: {line}"),
                    _ => escaped = false,
                }
            }
        }
    }

    /// Leap Chess's PGN keeps the White/Black roster that readers need,
    /// says which is Red, and tells the outcome in Red and Black; so does
    /// the Game Courier log.
    #[test]
    fn records_carry_the_variants_side_names() {
        let row = finished("leap-chess", "1-0", "bare-king");
        let names = HashMap::from([(1, "alice".to_string()), (2, "bob".to_string())]);
        let pgn = write_game(&row, &[], &names, "https://x.test", Format::Pgn).unwrap();
        assert_tag_lines(&pgn);
        for tag in [
            "[White \"alice\"]",
            "[Black \"bob\"]",
            "[Result \"1-0\"]",
            "[Variant \"leap-chess\"]",
            "[WhiteSide \"Red\"]",
            "[BlackSide \"Black\"]",
            "[Outcome \"Red wins by bare king\"]",
        ] {
            assert!(pgn.contains(tag), "{tag} in {pgn}");
        }
        // The roster first, in its order.
        let at = |t: &str| pgn.find(t).unwrap();
        assert!(at("[Event ") < at("[White ") && at("[Result ") < at("[WhiteSide "));
        let rec = record::parse_pgn(&pgn).unwrap().remove(0);
        assert_eq!(rec.tag("WhiteSide"), Some("Red"));
        assert_eq!(rec.result.as_deref(), Some("1-0"));
        let log = write_game(&row, &[], &names, "https://x.test", Format::Log).unwrap();
        assert!(log.contains("// WhiteSide: Red\n"), "{log}");
        assert!(log.contains("// Outcome: Red wins by bare king\n"), "{log}");
        let rec = record::parse_gc_log(&log).unwrap();
        assert_eq!(rec.tag("BlackSide"), Some("Black"));
        assert_eq!(rec.result.as_deref(), Some("1-0"));
    }

    #[test]
    fn chess_records_keep_white_and_black() {
        let row = finished("chess", "0-1", "resignation");
        let pgn = write_game(&row, &[], &HashMap::new(), "https://x.test", Format::Pgn).unwrap();
        assert_tag_lines(&pgn);
        assert!(!pgn.contains("Side "), "{pgn}");
        assert!(
            pgn.contains("[Outcome \"Black wins by resignation\"]"),
            "{pgn}"
        );
        let mut running = finished("chess", "*", "");
        running.result = None;
        running.reason = None;
        running.status = GameStatus::Active;
        let pgn = write_game(&running, &[], &HashMap::new(), "x", Format::Pgn).unwrap();
        assert!(!pgn.contains("[Outcome "), "{pgn}");
    }
}
