//! The board as inline SVG, drawn from the rules crate's [`BoardView`]: any
//! size, holes left out, pieces in hand beside the board, the last move
//! highlighted, and the viewer's side at the bottom.

use missive_rules::{BoardView, Cell, Color, PieceLabel, Square};
use std::fmt::Write;

const SQ: i32 = 48;
const MARGIN: i32 = 20;

pub struct SvgOptions<'a> {
    /// Draw Black's side at the bottom.
    pub flipped: bool,
    /// Squares of the last move (origin, target).
    pub last_move: Option<(Option<&'a str>, &'a str)>,
}

pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn glyph(label: &PieceLabel) -> Option<char> {
    Some(match label.name.to_ascii_lowercase().as_str() {
        "king" => '\u{265A}',
        "queen" => '\u{265B}',
        "rook" => '\u{265C}',
        "bishop" => '\u{265D}',
        "knight" => '\u{265E}',
        "pawn" => '\u{265F}',
        _ => return None,
    })
}

fn side_name(view: &BoardView, c: Color) -> &'static str {
    match c {
        Color::White => view.side_names[0],
        Color::Black => view.side_names[1],
        Color::Neutral => "Neutral",
    }
}

#[allow(clippy::too_many_arguments)]
/// Draw one piece centred at (cx, cy), `size` across.
fn piece(
    out: &mut String,
    view: &BoardView,
    color: Color,
    label: &PieceLabel,
    cx: f32,
    cy: f32,
    size: f32,
    flipped: bool,
) {
    let (fill, stroke, text_fill) = match color {
        Color::White => ("#ffffff", "#222222", "#111111"),
        Color::Black => ("#222222", "#000000", "#ffffff"),
        Color::Neutral => ("#9a9a9a", "#444444", "#111111"),
    };
    let title = format!("{} {}", side_name(view, color), label.name);
    let _ = write!(out, "<g class=\"piece\"><title>{}</title>", escape(&title));
    match glyph(label) {
        Some(g) => {
            let _ = write!(
                out,
                "<text x=\"{cx:.1}\" y=\"{:.1}\" font-size=\"{:.1}\" text-anchor=\"middle\" \
                 fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.2\" \
                 font-family=\"'DejaVu Sans','Segoe UI Symbol','Noto Sans Symbols2',serif\">{g}\u{FE0E}</text>",
                cy + size * 0.33,
                size * 0.9
            );
        }
        None => {
            let letter: String = label.symbol_or_letter();
            let font = if letter.chars().count() > 1 {
                size * 0.36
            } else {
                size * 0.5
            };
            let _ = write!(
                out,
                "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{:.1}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.5\"/>\
                 <text x=\"{cx:.1}\" y=\"{:.1}\" font-size=\"{font:.1}\" text-anchor=\"middle\" \
                 font-family=\"sans-serif\" font-weight=\"bold\" fill=\"{text_fill}\">{}</text>",
                size * 0.4,
                cy + font * 0.36,
                escape(&letter)
            );
        }
    }
    if let Some(dir) = label.direction {
        let angle = if flipped {
            dir as i32 + 180
        } else {
            dir as i32
        };
        let _ = write!(
            out,
            "<path d=\"M {cx:.1} {:.1} l {:.1} {:.1} l {:.1} 0 z\" fill=\"#c00\" \
             transform=\"rotate({angle} {cx:.1} {cy:.1})\"/>",
            cy - size * 0.48,
            -size * 0.08,
            size * 0.14,
            size * 0.16
        );
    }
    out.push_str("</g>");
}

/// The SVG markup for a position.
pub fn render(view: &BoardView, opts: &SvgOptions) -> String {
    let w = view.width as i32;
    let h = view.height as i32;
    let has_hands = !view.hands.is_empty();
    let hand_w = if has_hands { SQ * 2 + 10 } else { 0 };
    let total_w = MARGIN + w * SQ + hand_w + 4;
    let total_h = h * SQ + MARGIN + 4;
    let mut out = String::with_capacity(16 * 1024);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" viewBox=\"0 0 {total_w} {total_h}\" \
         width=\"{total_w}\" height=\"{total_h}\" role=\"img\" aria-label=\"Board\">"
    );
    let (last_from, last_to) = match opts.last_move {
        Some((f, t)) => (f, Some(t)),
        None => (None, None),
    };
    for row in 0..h {
        for col in 0..w {
            let (file, rank) = if opts.flipped {
                (w - 1 - col, row)
            } else {
                (col, h - 1 - row)
            };
            let cell = view.cell(file as u8, rank as u8);
            if *cell == Cell::Hole {
                continue;
            }
            let name = Square::new(file as u8, rank as u8).name();
            let x = MARGIN + col * SQ;
            let y = row * SQ;
            let dark = (file + rank) % 2 == 0;
            let fill = if dark { "#b58863" } else { "#f0d9b5" };
            let _ = write!(
                out,
                "<g class=\"sq\" data-sq=\"{name}\"><rect x=\"{x}\" y=\"{y}\" width=\"{SQ}\" height=\"{SQ}\" fill=\"{fill}\"/>"
            );
            if last_from == Some(name.as_str()) || last_to == Some(name.as_str()) {
                let _ = write!(
                    out,
                    "<rect class=\"last\" x=\"{x}\" y=\"{y}\" width=\"{SQ}\" height=\"{SQ}\" fill=\"#f6f669\" fill-opacity=\"0.55\"/>"
                );
            }
            for (sq, label) in &view.marks {
                if sq.file() as i32 == file && sq.rank() as i32 == rank {
                    let _ = write!(
                        out,
                        "<text x=\"{}\" y=\"{}\" font-size=\"9\" fill=\"#700\" font-family=\"sans-serif\">{}</text>",
                        x + 2,
                        y + 10,
                        escape(label)
                    );
                }
            }
            if let Cell::Piece { color, label } = cell {
                let cx = (x + SQ / 2) as f32;
                let cy = (y + SQ / 2) as f32;
                piece(
                    &mut out,
                    view,
                    *color,
                    label,
                    cx,
                    cy,
                    SQ as f32,
                    opts.flipped,
                );
            }
            out.push_str("</g>");
        }
    }
    // Coordinates.
    for col in 0..w {
        let file = if opts.flipped { w - 1 - col } else { col };
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" font-family=\"sans-serif\" fill=\"#555\">{}</text>",
            MARGIN + col * SQ + SQ / 2,
            h * SQ + 15,
            (b'a' + file as u8) as char
        );
    }
    for row in 0..h {
        let rank = if opts.flipped { row } else { h - 1 - row };
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" font-family=\"sans-serif\" fill=\"#555\">{}</text>",
            MARGIN / 2,
            row * SQ + SQ / 2 + 4,
            rank + 1
        );
    }
    // Pieces in hand: the top side's near the top, the bottom side's near the bottom.
    if has_hands {
        let x0 = MARGIN + w * SQ + 10;
        let (top, bottom) = if opts.flipped {
            (Color::White, Color::Black)
        } else {
            (Color::Black, Color::White)
        };
        let item = (SQ as f32) * 0.8;
        for (side, from_top) in [(top, true), (bottom, false)] {
            let items: Vec<_> = view.hands.iter().filter(|hi| hi.color == side).collect();
            if items.is_empty() {
                continue;
            }
            let _ = write!(
                out,
                "<g class=\"hand\" data-side=\"{}\">",
                crate::services::games::color_code(side)
            );
            for (i, hi) in items.iter().enumerate() {
                let col = (i % 2) as f32;
                let line = (i / 2) as f32;
                let cx = x0 as f32 + item / 2.0 + col * (item + 4.0);
                let cy = if from_top {
                    item / 2.0 + line * (item + 4.0)
                } else {
                    (h * SQ) as f32 - item / 2.0 - line * (item + 4.0)
                };
                let _ = write!(
                    out,
                    "<g class=\"in-hand\" data-hand=\"{}\">",
                    escape(&hi.label.letter)
                );
                piece(
                    &mut out,
                    view,
                    hi.color,
                    &hi.label,
                    cx,
                    cy,
                    item,
                    opts.flipped,
                );
                out.push_str("</g>");
                if hi.count > 1 {
                    let _ = write!(
                        out,
                        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" font-family=\"sans-serif\" fill=\"#000\">×{}</text>",
                        cx + item * 0.3,
                        cy + item * 0.5,
                        hi.count
                    );
                }
            }
            out.push_str("</g>");
        }
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use missive_rules::HandItem;

    fn label(letter: &str, name: &str) -> PieceLabel {
        PieceLabel {
            symbol: String::new(),
            letter: letter.into(),
            name: name.into(),
            direction: None,
        }
    }

    /// A 3x2 board with a hole at b1, a white King on a1, a black Guard on
    /// c2, and pieces in hand.
    fn view() -> BoardView {
        let mut cells = vec![Cell::Empty; 6];
        cells[0] = Cell::Piece {
            color: Color::White,
            label: label("K", "King"),
        };
        cells[1] = Cell::Hole;
        cells[5] = Cell::Piece {
            color: Color::Black,
            label: label("g", "Guard"),
        };
        BoardView {
            width: 3,
            height: 2,
            cells,
            hands: vec![
                HandItem {
                    color: Color::White,
                    label: label("P", "Pawn"),
                    count: 2,
                },
                HandItem {
                    color: Color::Black,
                    label: label("+x", "Xiphos"),
                    count: 1,
                },
            ],
            side_to_move: Color::White,
            side_names: ["Red", "Black"],
            marks: vec![(Square::new(2, 0), "trap")],
        }
    }

    #[test]
    fn draws_squares_holes_hands_and_marks() {
        let svg = render(
            &view(),
            &SvgOptions {
                flipped: false,
                last_move: Some((Some("a2"), "c1")),
            },
        );
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        for sq in ["a1", "c1", "a2", "b2", "c2"] {
            assert!(svg.contains(&format!("data-sq=\"{sq}\"")), "{sq}");
        }
        assert!(!svg.contains("data-sq=\"b1\""), "the hole is not drawn");
        assert_eq!(svg.matches("class=\"last\"").count(), 2);
        assert!(svg.contains("<title>Red King</title>"));
        assert!(svg.contains("<title>Black Guard</title>"));
        assert!(
            svg.contains(">G</text>"),
            "unknown pieces show their letter"
        );
        assert!(svg.contains("class=\"hand\" data-side=\"white\""));
        assert!(svg.contains("class=\"hand\" data-side=\"black\""));
        assert!(svg.contains("×2"));
        assert!(svg.contains("data-hand=\"P\""));
        assert!(svg.contains(">trap</text>"));
        // White at the bottom: rank 2 is drawn first.
        assert!(svg.find("data-sq=\"a2\"").unwrap() < svg.find("data-sq=\"a1\"").unwrap());
        // The view box grows for the hands.
        assert!(svg.contains(&format!("width=\"{}\"", MARGIN + 3 * SQ + 2 * SQ + 10 + 4)));
    }

    #[test]
    fn flipped_puts_black_at_the_bottom() {
        let svg = render(
            &view(),
            &SvgOptions {
                flipped: true,
                last_move: None,
            },
        );
        assert!(svg.find("data-sq=\"a1\"").unwrap() < svg.find("data-sq=\"a2\"").unwrap());
        // Files run from c to a.
        assert!(svg.find("data-sq=\"c1\"").unwrap() < svg.find("data-sq=\"a1\"").unwrap());
        assert!(!svg.contains("class=\"last\""));
    }

    #[test]
    fn escapes_text() {
        assert_eq!(escape("<a&\"'>"), "&lt;a&amp;&quot;&#39;&gt;");
    }
}
