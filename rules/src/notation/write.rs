//! Writing moves: SAN with its disambiguation among rivals, and the check
//! marks after it. Apart from reading, which matches text against these forms.

use super::Candidate;

/// SAN without check marks: `Nbd2`, `exd5`, `e8=Q`, `O-O`, `N@e5`.
pub(crate) fn san(cands: &[Candidate], i: usize) -> String {
    let c = &cands[i];
    if let Some(king_side) = c.castle {
        return if king_side {
            "O-O".into()
        } else {
            "O-O-O".into()
        };
    }
    // Most moves' SAN fits in eight bytes; a page writes every legal move's.
    let mut s = String::with_capacity(8);
    if c.drop {
        s.push(c.letter);
        s.push('@');
        c.to.push_name(&mut s);
        return s;
    }
    let from = c.from.expect("a board move has an origin");
    if c.pawn {
        if c.capture {
            s.push((b'a' + from.file()) as char);
        }
    } else {
        s.push(c.letter);
        let rivals = || {
            cands
                .iter()
                .filter(|o| {
                    !o.drop
                        && o.castle.is_none()
                        && !o.pawn
                        && o.letter == c.letter
                        && o.to == c.to
                        && o.from != c.from
                })
                .filter_map(|o| o.from)
        };
        if rivals().next().is_some() {
            if rivals().all(|r| r.file() != from.file()) {
                s.push((b'a' + from.file()) as char);
            } else if rivals().all(|r| r.rank() != from.rank()) {
                s.push_str(&(from.rank() + 1).to_string());
            } else {
                from.push_name(&mut s);
            }
        }
    }
    if c.capture {
        s.push('x');
    }
    c.to.push_name(&mut s);
    if let Some(p) = c.promotion {
        s.push('=');
        s.push(p);
    }
    s
}

/// SAN's mark for a move whose result is `gives_check`: `+`, `#` when the
/// side checked `has_reply()` is false, else nothing.
pub(crate) fn check_mark(gives_check: bool, has_reply: impl FnOnce() -> bool) -> &'static str {
    match (gives_check, gives_check && has_reply()) {
        (false, _) => "",
        (true, true) => "+",
        (true, false) => "#",
    }
}

/// `cands` with each one's SAN as its display form, disambiguated among
/// all of them.
pub(crate) fn with_san_displays(mut cands: Vec<Candidate>) -> Vec<Candidate> {
    for i in 0..cands.len() {
        cands[i].display = san(&cands, i);
    }
    cands
}

/// Each candidate's display form followed by its move's mark (`marks` in
/// the candidates' order).
pub(crate) fn marked_displays(
    cands: Vec<Candidate>,
    marks: impl IntoIterator<Item = &'static str>,
) -> Vec<String> {
    cands
        .into_iter()
        .zip(marks)
        .map(|(c, mark)| {
            let mut s = c.display;
            s.push_str(mark);
            s
        })
        .collect()
}
