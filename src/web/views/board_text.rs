//! The board in words, for screen readers and for anyone who would rather
//! read it: a "Pieces by square" section under the board picture, which
//! lists each side's pieces by type with their squares, the pieces in hand
//! and the marked squares. The picture itself is named "Board, White to
//! move" (`board_svg`).

use crate::web::views::board_svg::{self, escape, escape_into, SvgOptions};
use missive_rules::{BoardView, Cell, Color, PieceLabel, Square};
use std::borrow::Cow;
use std::fmt::Write;

/// The board picture followed by its text alternative.
pub fn board_and_text(view: &BoardView, opts: &SvgOptions) -> String {
    let mut out = board_svg::render(view, opts);
    out.push_str(&pieces_by_square(view));
    out
}

fn side_name(view: &BoardView, c: Color) -> &'static str {
    match c {
        Color::White => view.side_names[0],
        Color::Black => view.side_names[1],
        Color::Neutral => "Neutral",
    }
}

/// Which way a piece points (a Spear), as seen from White's side.
fn pointing(degrees: i16) -> &'static str {
    const WAYS: [&str; 8] = [
        "up",
        "up-right",
        "right",
        "down-right",
        "down",
        "down-left",
        "left",
        "up-left",
    ];
    WAYS[((degrees.rem_euclid(360) as usize + 22) / 45) % 8]
}

fn piece_name(label: &PieceLabel) -> Cow<'_, str> {
    match label.direction {
        Some(d) => Cow::Owned(format!("{} pointing {}", label.name, pointing(d))),
        None => Cow::Borrowed(&label.name),
    }
}

/// A `<details>` list: per side, each piece type and the squares holding
/// it (rank 1 first, file a first), then the pieces in hand and the
/// squares with a special role.
pub fn pieces_by_square(view: &BoardView) -> String {
    let mut out = String::with_capacity(1024);
    out.push_str("<details class=\"pieces-by-square\"><summary>Pieces by square</summary><ul>");
    for side in [Color::White, Color::Black, Color::Neutral] {
        // Piece types in the order first met, each with its squares.
        let mut kinds: Vec<(Cow<str>, Vec<Square>)> = Vec::new();
        for rank in 0..view.height {
            for file in 0..view.width {
                if let Cell::Piece { color, label } = view.cell(file, rank) {
                    if *color != side {
                        continue;
                    }
                    let name = piece_name(label);
                    let sq = Square::new(file, rank);
                    match kinds.iter_mut().find(|(n, _)| *n == name) {
                        Some((_, squares)) => squares.push(sq),
                        None => kinds.push((name, vec![sq])),
                    }
                }
            }
        }
        if kinds.is_empty() && side == Color::Neutral {
            continue;
        }
        out.push_str("<li>");
        escape_into(&mut out, side_name(view, side));
        out.push_str(": ");
        if kinds.is_empty() {
            out.push_str("no pieces");
        }
        for (i, (name, squares)) in kinds.iter().enumerate() {
            if i > 0 {
                out.push_str("; ");
            }
            escape_into(&mut out, name);
            for (j, sq) in squares.iter().enumerate() {
                out.push_str(if j == 0 { " " } else { ", " });
                sq.push_name(&mut out);
            }
        }
        out.push_str(".</li>");
    }
    for side in [Color::White, Color::Black] {
        let held: Vec<String> = view
            .hands
            .iter()
            .filter(|h| h.color == side)
            .map(|h| format!("{} ×{}", escape(&h.label.name), h.count.max(1)))
            .collect();
        if !held.is_empty() {
            let _ = write!(
                out,
                "<li>{} holds: {}.</li>",
                escape(side_name(view, side)),
                held.join(", ")
            );
        }
    }
    for (sq, label) in &view.marks {
        let _ = write!(out, "<li>{}: {}.</li>", sq.name(), escape(label));
    }
    out.push_str("</ul></details>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(id: &str, fen: &str) -> BoardView {
        let v = missive_rules::variant(id).unwrap();
        BoardView::new(v, &v.parse_fen(fen).unwrap())
    }

    #[test]
    fn chess_start_lists_each_piece_by_square() {
        let v = missive_rules::variant("chess").unwrap();
        let text = pieces_by_square(&view("chess", v.start_fen()));
        assert!(
            text.contains("<li>White: Rook a1, h1; Knight b1, g1; Bishop c1, f1; Queen d1; King e1; Pawn a2, b2, c2, d2, e2, f2, g2, h2.</li>"),
            "{text}"
        );
        assert!(text.contains("<li>Black: Pawn a7, b7"), "{text}");
        assert!(!text.contains("Neutral"), "{text}");
    }

    #[test]
    fn stones_spears_and_the_trap_are_named() {
        let v = missive_rules::variant("maohopper").unwrap();
        let text = pieces_by_square(&view("maohopper", v.start_fen()));
        assert!(
            text.contains("<li>Neutral: Stone c5, e5, g5.</li>"),
            "{text}"
        );
        assert!(text.contains("Spear pointing up a3"), "{text}");
        assert!(text.contains("Spear pointing down a7"), "{text}");
        assert!(text.contains("<li>h4: trap.</li>"), "{text}");
    }

    #[test]
    fn pieces_in_hand_are_counted() {
        let text = pieces_by_square(&view(
            "leaperhouse",
            "unceakecnu/10/pppppppp2/10/10/10/10/PPPPPPPP2/10/UNCEKAECNU[PPp] w - - 0 5",
        ));
        assert!(text.contains("holds: Pawn ×2.</li>"), "{text}");
    }

    #[test]
    fn the_picture_is_named_with_the_side_to_move() {
        let v = missive_rules::variant("chess").unwrap();
        let svg = board_and_text(
            &view(
                "chess",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            ),
            &SvgOptions {
                flipped: false,
                last_move: None,
            },
        );
        assert!(
            svg.contains("aria-label=\"Board, Black to move\""),
            "{}",
            v.id()
        );
        assert!(svg.ends_with("</ul></details>"));
    }
}
