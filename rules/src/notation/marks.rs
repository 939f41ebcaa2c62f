//! Check and mate marks after a move (`+`, `#`, `++`): split off before a
//! text is read, then held against what the move does, by one rule for
//! every variant and notation. Apart from reading, which never sees them.

use crate::errors::MoveError;

/// What a mark after a move says of it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    /// `+`: the move gives check (a mate is a check too).
    Check,
    /// `#` or `++`: the move mates.
    Mate,
}

/// `text` (a move without its comment) split into the move and its mark,
/// the annotations after the mark (`!`, `?`) dropped with it. A `+` is a
/// mark only where `plus_marks_check`: Leaperhouse writes promotions with
/// it, so there only `#` is one.
pub(crate) fn split_mark(text: &str, plus_marks_check: bool) -> (&str, Option<(Mark, &str)>) {
    let t = text.trim();
    let unannotated = t.trim_end_matches(['!', '?']);
    let marks: &[(&str, Mark)] = if plus_marks_check {
        &[("#", Mark::Mate), ("++", Mark::Mate), ("+", Mark::Check)]
    } else {
        &[("#", Mark::Mate)]
    };
    for &(sign, mark) in marks {
        if let Some(body) = unannotated.strip_suffix(sign) {
            let body = body.trim_end();
            if !body.is_empty() {
                return (body, Some((mark, sign)));
            }
        }
    }
    (t, None)
}

/// Whether the mark `sign` (read as `mark`) after `body` tells the truth of
/// a move that `gives_check`, the side checked `has_reply()` or not; if not,
/// the error names the move without the mark.
pub(crate) fn check_mark_claim(
    body: &str,
    (mark, sign): (Mark, &str),
    gives_check: bool,
    has_reply: impl FnOnce() -> bool,
    plus_marks_check: bool,
) -> Result<(), MoveError> {
    let reason = match (mark, gives_check) {
        (_, false) => {
            format!("“{sign}” marks a check, and this move gives none: it is “{body}”.")
        }
        (Mark::Check, true) => return Ok(()),
        (Mark::Mate, true) if !has_reply() => return Ok(()),
        (Mark::Mate, true) if plus_marks_check => format!(
            "“{sign}” marks a mate, and this move gives check without mating: it is “{body}+”."
        ),
        (Mark::Mate, true) => format!(
            "“{sign}” marks a mate, and this move gives check without mating: it is “{body}”."
        ),
    };
    Err(MoveError::Illegal {
        input: format!("{body}{sign}"),
        reason,
        alternatives: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_split_off_after_annotations_are() {
        assert_eq!(split_mark("e4", true), ("e4", None));
        assert_eq!(
            split_mark(" Nf3+ ", true),
            ("Nf3", Some((Mark::Check, "+")))
        );
        assert_eq!(split_mark("Qh7#!", true), ("Qh7", Some((Mark::Mate, "#"))));
        assert_eq!(split_mark("e4++", true), ("e4", Some((Mark::Mate, "++"))));
        assert_eq!(
            split_mark("P e2-e4 +", true),
            ("P e2-e4", Some((Mark::Check, "+")))
        );
        // Leaperhouse: `+` promotes; only `#` is a mark.
        assert_eq!(split_mark("e8+", false), ("e8+", None));
        assert_eq!(split_mark("e8+#", false), ("e8+", Some((Mark::Mate, "#"))));
        // A mark alone is no move with a mark.
        assert_eq!(split_mark("+", true), ("+", None));
        assert_eq!(split_mark("#", true), ("#", None));
    }

    #[test]
    fn a_mark_is_held_against_the_move() {
        let claim =
            |sign, mark, check, reply| check_mark_claim("e4", (mark, sign), check, || reply, true);
        assert!(claim("+", Mark::Check, true, true).is_ok());
        assert!(claim("+", Mark::Check, true, false).is_ok());
        assert!(claim("#", Mark::Mate, true, false).is_ok());
        let err = claim("+", Mark::Check, false, true)
            .unwrap_err()
            .to_string();
        assert!(err.contains("gives none") && err.contains("“e4”"), "{err}");
        let err = claim("#", Mark::Mate, true, true).unwrap_err().to_string();
        assert!(
            err.contains("without mating") && err.contains("“e4+”"),
            "{err}"
        );
        assert!(claim("++", Mark::Mate, false, true).is_err());
    }
}
