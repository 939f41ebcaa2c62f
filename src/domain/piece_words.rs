//! Pieces and outcomes in words, for mails and messages: the chess pieces'
//! names, the key a mail's diagram carries, an outcome in the variant's own
//! side names.

use missive_rules::{BoardView, Cell};

/// Chess's own pieces, which need no key in a mail.
pub const CHESS_NAMES: [(&str, &str); 6] = [
    ("King", "K"),
    ("Queen", "Q"),
    ("Rook", "R"),
    ("Bishop", "B"),
    ("Knight", "N"),
    ("Pawn", "P"),
];

/// One line naming the pieces on a mail's text diagram that are not
/// chess's own, with the letters the diagram shows (`Key: S Sail, D
/// Dabbabah.`); empty for a board of chess pieces only.
pub fn mail_key(view: &BoardView) -> String {
    let mut seen: Vec<(String, String)> = Vec::new();
    let labels = view
        .cells
        .iter()
        .filter_map(|c| match c {
            Cell::Piece { label, .. } => Some(label),
            _ => None,
        })
        .chain(view.hands.iter().map(|h| &h.label));
    for l in labels {
        let symbol = l.symbol_or_letter().to_uppercase();
        if CHESS_NAMES
            .iter()
            .any(|(n, letter)| *n == l.name && symbol == *letter)
        {
            continue;
        }
        let entry = (symbol, l.name.clone());
        if !seen.contains(&entry) {
            seen.push(entry);
        }
    }
    if seen.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = seen.iter().map(|(s, n)| format!("{s} {n}")).collect();
    format!("Key: {}.", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mail_key_names_fairy_pieces_only() {
        let key = |id: &str| {
            let v = missive_rules::variant(id).unwrap();
            mail_key(&BoardView::new(v, &v.parse_fen(v.start_fen()).unwrap()))
        };
        assert_eq!(key("chess"), "");
        let leap = key("leap-chess");
        assert!(leap.contains("S Sail") && leap.contains("D Dabbabah") && leap.contains("A Alfil"));
        assert!(!leap.contains("King"), "{leap}");
        assert!(key("maohopper").contains("R Frog"));
    }
}
