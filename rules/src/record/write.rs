//! Writing a game as PGN or as a Game Courier-style log. Apart from the
//! readers: writing replays each move to write it in the variant's notation.

use super::{RecordMove, TIME_STAMP};
use crate::game::Game;
use crate::variant::{Notation, Variant};

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

fn quote(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Write a game as PGN. Moves are replayed to write them in display form;
/// a move that does not replay is written as stored.
pub fn write_pgn(e: &Export) -> String {
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
        out.push_str(&format!("[{key} \"{}\"]\n", quote(&value)));
    }
    if e.variant.id() != "chess" {
        out.push_str(&format!("[Variant \"{}\"]\n", e.variant.id()));
    }
    if let Some(fen) = e.start_fen {
        out.push_str(&format!("[SetUp \"1\"]\n[FEN \"{}\"]\n", quote(fen)));
    }
    for (k, v) in e.tags.iter().filter(|(k, _)| {
        !roster.contains(&k.as_str()) && k != "Variant" && k != "FEN" && k != "SetUp"
    }) {
        out.push_str(&format!("[{k} \"{}\"]\n", quote(v)));
    }
    out.push('\n');
    let mut game = Game::new(e.variant, e.start_fen).ok();
    let first_black = game
        .as_ref()
        .is_some_and(|g| g.side_to_move() == crate::piece::Color::Black);
    let mut words: Vec<String> = Vec::new();
    let start_number = game
        .as_ref()
        .map(|g| g.position().fullmove as usize)
        .unwrap_or(1);
    for (i, m) in e.moves.iter().enumerate() {
        let ply = i + usize::from(first_black);
        let number = start_number + ply / 2;
        if ply % 2 == 0 {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        let mut text = m.text.clone();
        if let Some(g) = game.as_mut() {
            match g.parse_move(&m.text) {
                Ok((mv, _)) => {
                    let display = g.format(&mv, Notation::Display);
                    text = if pgn_safe(&display) {
                        display
                    } else {
                        g.format(&mv, Notation::Coordinate)
                    };
                    g.play(&mv);
                }
                Err(_) => game = None,
            }
        }
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

/// A log's tags and comments end at their line: a line break (a bare
/// carriage return too, which many readers break on) becomes a space.
fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

/// Write a game as a Game Courier-style log.
pub fn write_gc_log(e: &Export) -> String {
    let mut out = String::new();
    out.push_str(&format!("// Variant: {}\n", e.variant.id()));
    for (k, v) in &e.tags {
        out.push_str(&format!("// {k}: {}\n", one_line(v)));
    }
    if let Some(fen) = e.start_fen {
        out.push_str(&format!("// FEN: {fen}\n"));
    }
    let mut game = Game::new(e.variant, e.start_fen).ok();
    let first_black = game
        .as_ref()
        .is_some_and(|g| g.side_to_move() == crate::piece::Color::Black);
    let start_number = game
        .as_ref()
        .map(|g| g.position().fullmove as usize)
        .unwrap_or(1);
    for (i, m) in e.moves.iter().enumerate() {
        let ply = i + usize::from(first_black);
        let number = start_number + ply / 2;
        let dots = if ply % 2 == 0 { "." } else { "..." };
        let mut text = m.text.clone();
        if let Some(g) = game.as_mut() {
            match g.parse_move(&m.text) {
                Ok((mv, _)) => {
                    text = g.format(&mv, Notation::GameCourier);
                    g.play(&mv);
                }
                Err(_) => game = None,
            }
        }
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
