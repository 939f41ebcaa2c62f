//! Reading a Game Courier-style log: one numbered ply a line after
//! `// Key: value` header lines. Apart from PGN's reader: a log is read
//! line by line, PGN by a lexer.

use super::{is_result, strip_move_number, Record, RecordError, RecordMove, MAX_RECORD_LEN};

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
                .map(|c| {
                    let c = c.trim();
                    c.strip_prefix(super::CONDITIONAL_MARK)
                        .unwrap_or(c)
                        .trim()
                        .to_string()
                })
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

#[cfg(test)]
mod tests {
    use super::*;

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
