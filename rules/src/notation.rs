//! Notation pieces shared by all variants: comments, Game Courier parts.

/// Split `text` at the first `//` into the move and its comment.
pub fn split_comment(text: &str) -> (&str, Option<&str>) {
    match text.find("//") {
        Some(i) => (&text[..i], Some(&text[i + 2..])),
        None => (text, None),
    }
}
