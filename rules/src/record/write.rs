//! Writing a game as PGN or as a Game Courier-style log. Apart from the
//! readers: writing replays each move to write it in the variant's notation.

use super::{RecordMove, TIME_STAMP};
use crate::moves::Move;
use crate::piece::Color;
use crate::position::Position;
use crate::variant::{Notation, Variant};

/// The positions a record's moves pass through, for writing each move:
/// only the variant's own rules, no history, so writing a game costs the
/// same per move at ply 10 as at ply 10,000 (the moves were checked when
/// they were stored). Stops at the first move that does not read; the rest
/// are written as given.
struct Replay {
    variant: &'static dyn Variant,
    position: Option<Position>,
}

impl Replay {
    fn new(variant: &'static dyn Variant, start_fen: Option<&str>) -> Replay {
        let fen = start_fen
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .unwrap_or(variant.start_fen());
        Replay {
            variant,
            position: variant.parse_fen(fen).ok(),
        }
    }

    fn first_black(&self) -> bool {
        self.position
            .as_ref()
            .is_some_and(|p| p.side == Color::Black)
    }

    fn start_number(&self) -> usize {
        self.position
            .as_ref()
            .map_or(1, |p| usize::from(p.fullmove))
    }

    /// Read `text` in the position reached and play it; `write` gives the
    /// move's written form from the position before it.
    fn step(&mut self, text: &str, write: impl Fn(&Position, &Move) -> String) -> Option<String> {
        let pos = self.position.as_ref()?;
        let body = crate::notation::split_comment(text).0;
        // The mark was held against the move when it was stored.
        let body = crate::notation::split_mark(body, self.variant.plus_marks_check()).0;
        let legal = self.variant.legal_moves(pos);
        let read = (!body.is_empty())
            .then(|| self.variant.parse_move(pos, &legal, body).ok())
            .flatten();
        let Some(mv) = read else {
            self.position = None;
            return None;
        };
        let written = write(pos, &mv);
        self.position = Some(self.variant.play(pos, &mv));
        Some(written)
    }
}

/// A finished or running game to write out.
pub struct Export<'a> {
    pub variant: &'static dyn Variant,
    /// Custom start FEN, if the game did not start from the variant's.
    pub start_fen: Option<&'a str>,
    /// Header tags besides Variant/FEN/SetUp (Event, Site, Date, Round,
    /// White, Black, Result, Termination, TimeControl...), in order.
    pub tags: Vec<(String, String)>,
    /// Moves as stored (any accepted notation), with comments and times.
    pub moves: Vec<RecordMove>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

fn pgn_safe(s: &str) -> bool {
    !s.is_empty()
        && !s.chars().any(|c| {
            c.is_whitespace() || matches!(c, '{' | '}' | '[' | ']' | '(' | ')' | ';' | '%' | '$')
        })
}

/// A tag value as PGN writes it between its quotes: on one line (line
/// breaks and control characters become spaces), with a backslash before
/// each `\` and `"`, the two escapes PGN has. A tournament name with a line break must not split its tag.
pub fn tag_value(v: &str) -> String {
    one_line(v).replace('\\', "\\\\").replace('"', "\\\"")
}

/// The form PGN writes a move in: its display form, unless that has
/// characters PGN reserves, then its coordinate form.
pub fn pgn_move_text<'a>(display: &'a str, coordinate: &'a str) -> &'a str {
    if pgn_safe(display) {
        display
    } else {
        coordinate
    }
}

/// Write a game as PGN. Moves are replayed to write them in display form;
/// a move that does not replay is written as stored.
pub fn write_pgn(e: &Export) -> String {
    write_pgn_moves(e, true)
}

/// Write a game as PGN with each move's text as given, already in the
/// form PGN writes (as [`pgn_move_text`] picks it from the forms stored
/// with a played move): nothing is replayed, so this costs only the text.
pub fn write_pgn_as_written(e: &Export) -> String {
    write_pgn_moves(e, false)
}

fn write_pgn_moves(e: &Export, replay_moves: bool) -> String {
    let mut out = String::new();
    let roster = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
    for key in roster {
        let value = e
            .tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| {
                if key == "Result" {
                    e.result.clone()
                } else {
                    "?".into()
                }
            });
        out.push_str(&format!("[{key} \"{}\"]\n", tag_value(&value)));
    }
    if let Some(name) = e.variant.pgn_variant() {
        out.push_str(&format!("[Variant \"{name}\"]\n"));
    }
    if let Some(fen) = e.start_fen {
        out.push_str(&format!("[SetUp \"1\"]\n[FEN \"{}\"]\n", tag_value(fen)));
    }
    for (k, v) in e.tags.iter().filter(|(k, _)| {
        !roster.contains(&k.as_str()) && k != "Variant" && k != "FEN" && k != "SetUp"
    }) {
        out.push_str(&format!("[{k} \"{}\"]\n", tag_value(v)));
    }
    out.push('\n');
    let mut replay = Replay::new(e.variant, e.start_fen);
    let first_black = replay.first_black();
    let start_number = replay.start_number();
    let v = e.variant;
    let mut words: Vec<String> = Vec::new();
    for (i, m) in e.moves.iter().enumerate() {
        let ply = i + usize::from(first_black);
        let number = start_number + ply / 2;
        if ply % 2 == 0 {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        let written = replay_moves
            .then(|| {
                replay.step(&m.text, |pos, mv| {
                    let display = v.format_move(pos, mv, Notation::Display);
                    if pgn_safe(&display) {
                        display
                    } else {
                        v.format_move(pos, mv, Notation::Coordinate)
                    }
                })
            })
            .flatten();
        let text = written.unwrap_or_else(|| m.text.clone());
        words.push(text);
        if let Some(t) = &m.time {
            words.push(format!("{{{TIME_STAMP}{t}]}}"));
        }
        if let Some(c) = &m.comment {
            let c = c.replace(['{', '}'], "");
            // Not to be read back as a time stamp (`pgn_read::attach_comment`).
            let gap = if c.starts_with(TIME_STAMP) { " " } else { "" };
            words.push(format!("{{{gap}{c}}}"));
        }
    }
    words.push(e.result.clone());
    // Wrap at 79 columns as the export format asks.
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// A value kept on its line: PGN has no escape for a line break, and a
/// log's tags and comments end at their line, so a line break (a bare
/// carriage return too, which many readers break on; Unicode's line and
/// paragraph separators and every other control character, tabs included,
/// which PGN does not allow in a tag) becomes a space.
fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
                ' '
            } else {
                c
            }
        })
        .collect()
}

/// Write a game as a Game Courier-style log.
pub fn write_gc_log(e: &Export) -> String {
    let mut out = String::new();
    out.push_str(&format!("// Variant: {}\n", e.variant.id()));
    for (k, v) in &e.tags {
        out.push_str(&format!("// {k}: {}\n", one_line(v)));
    }
    if let Some(fen) = e.start_fen {
        out.push_str(&format!("// FEN: {}\n", one_line(fen)));
    }
    let mut replay = Replay::new(e.variant, e.start_fen);
    let first_black = replay.first_black();
    let start_number = replay.start_number();
    let v = e.variant;
    for (i, m) in e.moves.iter().enumerate() {
        let ply = i + usize::from(first_black);
        let number = start_number + ply / 2;
        let dots = if ply % 2 == 0 { "." } else { "..." };
        let text = replay
            .step(&m.text, |pos, mv| {
                v.format_move(pos, mv, Notation::GameCourier)
            })
            .unwrap_or_else(|| m.text.clone());
        out.push_str(&format!("{number}{dots} {text}"));
        if let Some(c) = &m.comment {
            out.push_str(&format!(" // {}", one_line(c)));
        }
        out.push('\n');
    }
    out.push_str(&e.result);
    out.push('\n');
    out
}
