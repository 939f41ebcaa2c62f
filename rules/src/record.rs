//! Game records: PGN and Game Courier-style logs, read and written, and
//! checked move by move with the rules.
//!
//! PGN follows the export format (seven-tag roster first, `Variant`,
//! `SetUp`/`FEN` for custom starts). Moves are written in the variant's
//! display notation unless that form contains characters PGN reserves, in
//! which case the coordinate form is used. A move's `//` comment becomes a
//! `{...}` comment; a time stamp becomes `{[%ts 2026-11-23T10:00:00Z]}`.
//!
//! The Game Courier log has one ply per line: `1. P e2-e4`, `1... p e7-e5 //
//! comment`, after header lines `// Key: value`.

use crate::game::{Game, ReplayError};
use crate::variant::{Notation, Variant};
use std::fmt;

/// One move of a record, as text, with its comment and time stamp.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordMove {
    pub text: String,
    pub comment: Option<String>,
    /// ISO 8601 time stamp, if the record carries one.
    pub time: Option<String>,
}

/// A game record before it is checked against the rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Header tags in order (PGN tags, or the log's `// Key: value` lines).
    pub tags: Vec<(String, String)>,
    pub moves: Vec<RecordMove>,
    /// The result token at the end of the movetext (`1-0`, `*`...).
    pub result: Option<String>,
}

impl Record {
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }
    pub fn set_tag(&mut self, key: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = value,
            None => self.tags.push((key.to_string(), value)),
        }
    }
    /// The variant id named by the `Variant` tag (`chess` when absent or
    /// a standard-chess name).
    pub fn variant_id(&self) -> String {
        match self.tag("Variant").map(|v| v.trim().to_ascii_lowercase()) {
            None => "chess".into(),
            Some(v) if v.is_empty() || v == "standard" || v == "chess" || v == "fide" => {
                "chess".into()
            }
            Some(v) => v.replace(' ', "-"),
        }
    }
    /// The custom start position, if any.
    pub fn start_fen(&self) -> Option<&str> {
        self.tag("FEN").filter(|f| !f.trim().is_empty())
    }
}

/// Why a record cannot be read or does not follow the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The text is not a record (with a line number, 1-based).
    Syntax { line: usize, message: String },
    /// The record names a variant the server does not know.
    UnknownVariant(String),
    /// The start position or a move breaks the rules.
    Illegal(ReplayError),
    /// The result in the record disagrees with how the game ended.
    ResultMismatch { recorded: String, actual: String },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Syntax { line, message } => write!(f, "line {line}: {message}"),
            RecordError::UnknownVariant(v) => write!(f, "unknown variant “{v}”"),
            RecordError::Illegal(e) => write!(f, "{e}"),
            RecordError::ResultMismatch { recorded, actual } => {
                write!(
                    f,
                    "the record says {recorded}, but the moves end with {actual}"
                )
            }
        }
    }
}

impl std::error::Error for RecordError {}

/// Longest record text accepted.
pub const MAX_RECORD_LEN: usize = 8 * 1024 * 1024;

/// Read one or more PGN games.
pub fn parse_pgn(text: &str) -> Result<Vec<Record>, RecordError> {
    if text.len() > MAX_RECORD_LEN {
        return Err(RecordError::Syntax {
            line: 1,
            message: "the file is too large".into(),
        });
    }
    let mut games = Vec::new();
    let mut current = Record::default();
    let mut in_moves = false;
    let mut lexer = Lexer {
        chars: text.char_indices().peekable(),
        text,
        line: 1,
    };
    while let Some(tok) = lexer.next_token()? {
        match tok {
            Token::Tag(k, v) => {
                if in_moves {
                    games.push(std::mem::take(&mut current));
                    in_moves = false;
                }
                current.tags.push((k, v));
            }
            Token::Comment(c) => {
                if let Some(last) = current.moves.last_mut() {
                    attach_comment(last, &c);
                }
            }
            Token::Word(w) => {
                in_moves = true;
                if is_result(&w) {
                    current.result = Some(w);
                    games.push(std::mem::take(&mut current));
                    in_moves = false;
                } else if let Some(rest) = strip_move_number(&w) {
                    if !rest.is_empty() {
                        current.moves.push(RecordMove {
                            text: rest.to_string(),
                            ..Default::default()
                        });
                    }
                } else if !w.starts_with('$') {
                    current.moves.push(RecordMove {
                        text: w,
                        ..Default::default()
                    });
                }
            }
        }
    }
    if !current.tags.is_empty() || !current.moves.is_empty() {
        games.push(current);
    }
    if games.is_empty() {
        return Err(RecordError::Syntax {
            line: 1,
            message: "no game found".into(),
        });
    }
    Ok(games)
}

/// `{[%ts ...]}` is a time stamp only right at the comment's start, as
/// [`write_pgn`] writes it: a move comment of a player's that reads like one
/// is written after a space and comes back as the comment it was.
fn attach_comment(m: &mut RecordMove, raw: &str) {
    let Some(rest) = raw.strip_prefix(TIME_STAMP) else {
        let c = raw.trim();
        if !c.is_empty() {
            m.comment = Some(match m.comment.take() {
                Some(prev) => format!("{prev} {c}"),
                None => c.to_string(),
            });
        }
        return;
    };
    let rest = rest.trim_end();
    if let Some(ts) = rest.strip_suffix(']') {
        m.time = Some(ts.trim().to_string());
    } else if let Some((ts, text)) = rest.split_once(']') {
        // A time stamp followed by text in one comment.
        m.time = Some(ts.trim().to_string());
        if !text.trim().is_empty() {
            m.comment = Some(text.trim().to_string());
        }
    }
}

const TIME_STAMP: &str = "[%ts ";

fn is_result(w: &str) -> bool {
    matches!(w, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// `12.` / `12...` / `12.e4` → the rest after the number; `None` if not numbered.
fn strip_move_number(w: &str) -> Option<&str> {
    let digits = w.bytes().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || !w[digits..].starts_with('.') {
        return None;
    }
    Some(w[digits..].trim_start_matches('.'))
}

enum Token {
    Tag(String, String),
    Comment(String),
    Word(String),
}

struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    text: &'a str,
    line: usize,
}

impl Lexer<'_> {
    fn err(&self, message: &str) -> RecordError {
        RecordError::Syntax {
            line: self.line,
            message: message.into(),
        }
    }
    fn bump(&mut self) -> Option<char> {
        let (_, c) = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }
    fn next_token(&mut self) -> Result<Option<Token>, RecordError> {
        loop {
            let Some(&(start, c)) = self.chars.peek() else {
                return Ok(None);
            };
            match c {
                c if c.is_whitespace() => {
                    self.bump();
                }
                '%' if start == 0 || self.text[..start].ends_with('\n') => {
                    while self.bump().is_some_and(|c| c != '\n') {}
                }
                ';' => while self.bump().is_some_and(|c| c != '\n') {},
                '[' => {
                    self.bump();
                    let mut inner = String::new();
                    loop {
                        match self.bump() {
                            None => return Err(self.err("“[” without “]”")),
                            Some('"') => {
                                inner.push('"');
                                loop {
                                    match self.bump() {
                                        None => return Err(self.err("unterminated tag value")),
                                        Some('\\') => {
                                            if let Some(c) = self.bump() {
                                                inner.push(c)
                                            }
                                        }
                                        Some('"') => {
                                            inner.push('"');
                                            break;
                                        }
                                        Some(c) => inner.push(c),
                                    }
                                }
                            }
                            Some(']') => break,
                            Some(c) => inner.push(c),
                        }
                    }
                    let inner = inner.trim();
                    let (key, value) = inner
                        .split_once(char::is_whitespace)
                        .ok_or_else(|| self.err("a tag needs a name and a value"))?;
                    let value = value.trim();
                    let value = value
                        .strip_prefix('"')
                        .and_then(|v| v.strip_suffix('"'))
                        .ok_or_else(|| self.err("a tag value must be quoted"))?;
                    return Ok(Some(Token::Tag(key.to_string(), value.to_string())));
                }
                '{' => {
                    self.bump();
                    let mut s = String::new();
                    loop {
                        match self.bump() {
                            None => return Err(self.err("“{” without “}”")),
                            Some('}') => break,
                            Some(c) => s.push(c),
                        }
                    }
                    return Ok(Some(Token::Comment(s)));
                }
                '(' => {
                    // Variations are skipped: a record is its main line.
                    let mut depth = 0;
                    loop {
                        match self.bump() {
                            None => return Err(self.err("“(” without “)”")),
                            Some('(') => depth += 1,
                            Some(')') => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            Some('{') => while self.bump().is_some_and(|c| c != '}') {},
                            Some(_) => {}
                        }
                    }
                }
                ')' | ']' | '}' => return Err(self.err(&format!("unexpected “{c}”"))),
                _ => {
                    let mut w = String::new();
                    while let Some(&(_, c)) = self.chars.peek() {
                        if c.is_whitespace() || matches!(c, '{' | '}' | '[' | ']' | '(' | ')' | ';')
                        {
                            break;
                        }
                        w.push(c);
                        self.bump();
                    }
                    return Ok(Some(Token::Word(w)));
                }
            }
        }
    }
}

/// Read a Game Courier-style log (see the module doc).
pub fn parse_gc_log(text: &str) -> Result<Record, RecordError> {
    if text.len() > MAX_RECORD_LEN {
        return Err(RecordError::Syntax {
            line: 1,
            message: "the file is too large".into(),
        });
    }
    let mut rec = Record::default();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(header) = line.strip_prefix("//") {
            if let Some((k, v)) = header.split_once(':') {
                let k = k.trim();
                if !k.is_empty() && !k.contains(' ') {
                    rec.tags.push((k.to_string(), v.trim().to_string()));
                }
            }
            continue;
        }
        if is_result(line) {
            rec.result = Some(line.to_string());
            continue;
        }
        let rest = strip_move_number(line).ok_or_else(|| RecordError::Syntax {
            line: i + 1,
            message: format!(
                "expected a numbered move such as “1. P e2-e4”, found “{}”",
                truncate(line)
            ),
        })?;
        let (body, comment) = crate::notation::split_comment(rest);
        let body = body.trim();
        if body.is_empty() {
            return Err(RecordError::Syntax {
                line: i + 1,
                message: "a move number without a move".into(),
            });
        }
        rec.moves.push(RecordMove {
            text: body.to_string(),
            comment: comment
                .map(|c| c.trim().to_string())
                .filter(|c| !c.is_empty()),
            time: None,
        });
    }
    if let Some(r) = rec
        .tag("Result")
        .map(|r| r.split_whitespace().next().unwrap_or("").to_string())
    {
        if rec.result.is_none() && is_result(&r) {
            rec.result = Some(r);
        }
    }
    Ok(rec)
}

fn truncate(s: &str) -> String {
    if s.chars().count() > 40 {
        s.chars().take(40).collect::<String>() + "…"
    } else {
        s.to_string()
    }
}

/// Read a record in either format (PGN when it has tags or no `1. X a1-b2`
/// shaped lines; the first game of a PGN file).
pub fn parse_any(text: &str) -> Result<Record, RecordError> {
    // A log has one numbered ply per line, in Game Courier form (`P e2-e4`,
    // `P*e5`, parts joined by `;`); PGN movetext puts several moves on a line.
    let one_ply = |l: &str| {
        let rest = strip_move_number(crate::notation::split_comment(l).0).unwrap_or("");
        let words: Vec<&str> = rest.split_whitespace().collect();
        let is_square_pair = |w: &str| {
            w.split_once('-').is_some_and(|(a, b)| {
                crate::geometry::Square::parse(a).is_some()
                    && crate::geometry::Square::parse(b).is_some()
            })
        };
        words.len() <= 1 || rest.contains(';') || (words.len() == 2 && is_square_pair(words[1]))
    };
    let looks_gc = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .all(|l| {
            l.starts_with("//") || is_result(l) || (strip_move_number(l).is_some() && one_ply(l))
        });
    if looks_gc && !text.trim_start().starts_with('[') {
        let rec = parse_gc_log(text)?;
        if rec.moves.is_empty() && rec.tags.is_empty() && rec.result.is_none() {
            return Err(RecordError::Syntax {
                line: 1,
                message: "no game found".into(),
            });
        }
        Ok(rec)
    } else {
        Ok(parse_pgn(text)?.remove(0))
    }
}

/// Check a record with the rules: the variant, the start position, every
/// move, and the recorded result against how the moves end.
pub fn check(
    rec: &Record,
    lookup: impl Fn(&str) -> Option<&'static dyn Variant>,
) -> Result<Game, RecordError> {
    let id = rec.variant_id();
    let variant = lookup(&id).ok_or(RecordError::UnknownVariant(id))?;
    let texts: Vec<&str> = rec.moves.iter().map(|m| m.text.as_str()).collect();
    let game = Game::replay(variant, rec.start_fen(), &texts).map_err(RecordError::Illegal)?;
    if let (Some(recorded), Some(outcome)) = (rec.result.as_deref(), game.outcome()) {
        if recorded != "*" && recorded != outcome.result_code() {
            return Err(RecordError::ResultMismatch {
                recorded: recorded.to_string(),
                actual: format!("{} ({})", outcome.result_code(), outcome),
            });
        }
    }
    Ok(game)
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
            // Not to be read back as a time stamp ([`attach_comment`]).
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_with_comments_variations_and_nags() {
        let text = r#"[Event "Casual"]
[White "alice"]
[Black "bob"]
[Result "0-1"]

1. f3 {hmm} e5 2. g4 $4 (2. e4 Nc6) Qh4# {[%ts 2026-11-23T10:00:00Z]} 0-1
"#;
        let games = parse_pgn(text).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(
            g.moves.iter().map(|m| m.text.as_str()).collect::<Vec<_>>(),
            vec!["f3", "e5", "g4", "Qh4#"]
        );
        assert_eq!(g.moves[0].comment.as_deref(), Some("hmm"));
        assert_eq!(g.moves[3].time.as_deref(), Some("2026-11-23T10:00:00Z"));
        assert_eq!(g.result.as_deref(), Some("0-1"));
        assert_eq!(g.tag("white"), Some("alice"));
    }

    #[test]
    fn malformed_pgn_is_an_error_not_a_panic() {
        for bad in [
            "[Event",
            "{never closed",
            "1. e4 (e5",
            "[Event foo]",
            "]",
            "",
            r#"[X "a\"] "#,
        ] {
            assert!(parse_pgn(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn parse_any_tells_logs_from_pgn() {
        let pgn = parse_any("1. f3 e5\n2. g4 Qh4#\n0-1\n").unwrap();
        assert_eq!(pgn.moves.len(), 4);
        let pgn = parse_any("1. e4 e5 2. Nf3 *").unwrap();
        assert_eq!(pgn.moves.len(), 3);
        let log = parse_any("1. P e2-e4\n1... p e7-e5; // x\n2. N*e5\n").unwrap();
        assert_eq!(log.moves[0].text, "P e2-e4");
        assert_eq!(log.moves.len(), 3);
        assert!(parse_any("").is_err());
    }

    #[test]
    fn gc_log_lines() {
        let rec = parse_gc_log(
            "// Variant: chess\n1. P e2-e4 // king pawn\n1... p e7-e5\n2. N g1-f3\n*\n",
        )
        .unwrap();
        assert_eq!(rec.moves.len(), 3);
        assert_eq!(rec.moves[0].comment.as_deref(), Some("king pawn"));
        assert_eq!(rec.result.as_deref(), Some("*"));
        assert!(parse_gc_log("1. P e2-e4\nbanana\n")
            .unwrap_err()
            .to_string()
            .starts_with("line 2"));
    }
}
