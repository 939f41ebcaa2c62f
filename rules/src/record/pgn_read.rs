//! Reading PGN: a lexer for tags, comments, variations and words, and the
//! games it finds in them. Apart from the log reader: the two formats share
//! only move numbers and results.

use super::{
    is_result, strip_move_number, Record, RecordError, RecordMove, MAX_RECORD_LEN, TIME_STAMP,
};

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
/// [`write_pgn`](super::write_pgn) writes it: a move comment of a player's that reads like one
/// is written after a space and comes back as the comment it was.
fn attach_comment(m: &mut RecordMove, raw: &str) {
    let raw = match raw.trim_start().strip_prefix(super::CONDITIONAL_MARK) {
        Some(rest) => rest,
        None => raw,
    };
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
}
