//! The board as inline SVG, drawn from the rules crate's [`BoardView`]: any
//! size, holes left out, pieces in hand above and below the board, the last move
//! highlighted, and the viewer's side at the bottom.

use crate::web::views::svg_num::{push_int, D1};
use crate::web::views::{movement_art, piece_art};
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
    escape_into(&mut out, s);
    out
}

pub fn escape_into(out: &mut String, s: &str) {
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
}

/// Presentation shared by every square, piece and label, written once per
/// board instead of on each element (a board is most of a game page's
/// bytes; docs/performance.md has what it saved). A piece's group
/// carries its side (`w`, `b`, `n`); the glyph size on squares is
/// `SQ * 0.9`, and pieces in hand say their own.
const STYLE: &str = "<style>\
svg.board text{font-family:sans-serif}\
svg.board .l{fill:#f0d9b5}svg.board .d{fill:#b58863}\
svg.board .last{fill:#f6f669;fill-opacity:.55}\
svg.board .line{stroke:#5a3a1a;stroke-width:2px;stroke-linecap:round}\
svg.board .glyph{text-anchor:middle;stroke-width:1.2px;\
font-family:'DejaVu Sans','Segoe UI Symbol','Noto Sans Symbols2',serif}\
svg.board .sq .glyph{font-size:43.2px}\
svg.board .disc{stroke-width:1.5px}\
svg.board .letter{text-anchor:middle;font-weight:bold}\
svg.board .w .glyph,svg.board .w .disc{fill:#fff;stroke:#222}\
svg.board .b .glyph,svg.board .b .disc{fill:#222;stroke:#000}\
svg.board .n .glyph,svg.board .n .disc{fill:#9a9a9a;stroke:#444}\
svg.board .w .letter,svg.board .n .letter{fill:#111}svg.board .b .letter{fill:#fff}\
svg.board .coord{font-size:12px;text-anchor:middle;fill:#555}\
svg.board .mark{font-size:9px;fill:#700}svg.board .count{font-size:13px;fill:#000}\
svg.board .hand-cell{fill:#000;fill-opacity:0}\
</style>";

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
    out.push_str(match color {
        Color::White => "<g class=\"piece w\"><title>",
        Color::Black => "<g class=\"piece b\"><title>",
        Color::Neutral => "<g class=\"piece n\"><title>",
    });
    escape_into(out, side_name(view, color));
    out.push(' ');
    escape_into(out, &label.name);
    out.push_str("</title>");
    let black = color == Color::Black;
    let class = piece_art::side_class(side_name(view, color), black, color == Color::Neutral);
    let turn = piece_art::turn(&label.name, black, flipped, label.direction);
    if piece_art::push_use_symbol(out, &label.name, class, cx, cy, size * 0.92, turn) {
        out.push_str("</g>");
        return;
    }
    // No standard picture: one drawn from how the piece moves.
    if let Some(v) = crate::posted::lookup::variant(view.variant) {
        if movement_art::push_use(out, v, &label.name, class, (cx, cy), size * 0.92) {
            out.push_str("</g>");
            return;
        }
    }
    let (x, y) = (D1(cx), D1(cy));
    match glyph(label) {
        Some(g) => {
            let _ = write!(
                out,
                "<text class=\"glyph\" x=\"{x}\" y=\"{}\"",
                D1(cy + size * 0.33)
            );
            // The style block sizes glyphs on squares.
            if size != SQ as f32 {
                let _ = write!(out, " font-size=\"{}\"", D1(size * 0.9));
            }
            let _ = write!(out, ">{g}\u{FE0E}</text>");
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
                "<circle class=\"disc\" cx=\"{x}\" cy=\"{y}\" r=\"{}\"/>\
                 <text class=\"letter\" x=\"{x}\" y=\"{}\" font-size=\"{}\">",
                D1(size * 0.4),
                D1(cy + font * 0.36),
                D1(font)
            );
            escape_into(out, &letter);
            out.push_str("</text>");
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
            "<path d=\"M {x} {} l {} {} l {} 0 z\" fill=\"#c00\" \
             transform=\"rotate({angle} {x} {y})\"/>",
            D1(cy - size * 0.48),
            D1(-size * 0.08),
            D1(size * 0.14),
            D1(size * 0.16)
        );
    }
    out.push_str("</g>");
}

/// How pieces in hand are laid out: rows above the board (the top side's)
/// and below it (the bottom side's), so a board with hands is no wider than
/// one without and its squares stay as large on a phone.
struct HandRows {
    /// Pictures across one row.
    per_row: usize,
    /// Rows above the board and below it.
    top: usize,
    bottom: usize,
}

/// A piece in hand's cell, what a click or tap on it hits: `SQ * 4/3`
/// across, so that it is at least 44 CSS pixels square (WCAG's target
/// size) even where a 10-file board is shrunk to a 390 px phone's width.
const HAND_CELL: f32 = SQ as f32 * 4.0 / 3.0;
/// A picture in hand, `SQ * 0.9` across, its count beside it in the cell.
const ITEM: f32 = SQ as f32 * 0.9;
/// From one cell in hand to the next.
const ITEM_STEP: f32 = HAND_CELL + 6.0;
/// One row of pieces in hand.
const HAND_ROW: f32 = HAND_CELL + 6.0;

impl HandRows {
    fn of(view: &BoardView, top: Color) -> HandRows {
        let per_row = ((view.width as f32 * SQ as f32 / ITEM_STEP).floor() as usize).max(1);
        let rows = |c: Color| {
            let n = view.hands.iter().filter(|h| h.color == c).count();
            // A row for each side once anything is held, so the board does
            // not move when the other side's hand fills.
            if view.hands.is_empty() {
                0
            } else {
                n.div_ceil(per_row).max(1)
            }
        };
        HandRows {
            per_row,
            top: rows(top),
            bottom: rows(top.opponent()),
        }
    }

    fn top_height(&self) -> i32 {
        (self.top as f32 * HAND_ROW).ceil() as i32
    }

    fn bottom_height(&self) -> i32 {
        (self.bottom as f32 * HAND_ROW).ceil() as i32
    }
}

/// `x` and `y`, then the square's size, closing a `<rect`'s attributes
/// opened up to `x="`.
fn push_xy(out: &mut String, x: i32, y: i32) {
    push_int(out, x.into());
    out.push_str("\" y=\"");
    push_int(out, y.into());
    out.push_str(SQUARE_SIZE);
}

/// What closes each square's `<rect`.
const SQUARE_SIZE: &str = "\" width=\"48\" height=\"48\"/>";
const _: () = assert!(SQ == 48, "SQUARE_SIZE writes SQ");

/// The halves of the board's lines ([`BoardView::lines`], straight or
/// diagonal) that lie in `sq`: one step `(files, ranks)` towards each
/// neighbour on a line, so each square draws its part under its piece.
fn line_halves(view: &BoardView, sq: Square) -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    for &(a, b) in &view.lines {
        let (df, dr) = (
            b.file() as i32 - a.file() as i32,
            b.rank() as i32 - a.rank() as i32,
        );
        let n = df.abs().max(dr.abs());
        if n == 0 || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            continue;
        }
        let (sf, sr) = (df.signum(), dr.signum());
        for i in 0..=n {
            let at = (a.file() as i32 + i * sf, a.rank() as i32 + i * sr);
            if at == (sq.file() as i32, sq.rank() as i32) {
                if i > 0 {
                    out.push((-sf, -sr));
                }
                if i < n {
                    out.push((sf, sr));
                }
            }
        }
    }
    out
}

/// The SVG markup for a position.
pub fn render(view: &BoardView, opts: &SvgOptions) -> String {
    let w = view.width as i32;
    let h = view.height as i32;
    // The side drawn at the top, whose hand is above the board.
    let (top, bottom) = if opts.flipped {
        (Color::White, Color::Black)
    } else {
        (Color::Black, Color::White)
    };
    let rows = HandRows::of(view, top);
    // The board's squares start this far down, below the top side's hand.
    let y0 = rows.top_height();
    let total_w = MARGIN + w * SQ + 4;
    let total_h = y0 + h * SQ + MARGIN + 4 + rows.bottom_height();
    let mut out = String::with_capacity(16 * 1024);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" viewBox=\"0 0 {total_w} {total_h}\" \
         width=\"{total_w}\" height=\"{total_h}\" role=\"img\" aria-label=\"Board, {} to move\">{STYLE}{}",
        side_name(view, view.side_to_move),
        piece_art::BOARD_STYLE
    );
    // The last move's squares, compared with each square drawn.
    let (last_from, last_to) = match opts.last_move {
        Some((f, t)) => (f.and_then(Square::parse), Square::parse(t)),
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
                let sq = Square::new(file as u8, rank as u8);
                if view.marks.contains(&(sq, "crater")) {
                    let (x, y) = (MARGIN + col * SQ, y0 + row * SQ);
                    out.push_str(&piece_art::crater(x, y, SQ, &sq.name()));
                }
                continue;
            }
            let sq = Square::new(file as u8, rank as u8);
            let x = MARGIN + col * SQ;
            let y = y0 + row * SQ;
            let dark = (file + rank) % 2 == 0;
            // Written piece by piece: `write!` per square was most of
            // drawing a board.
            out.push_str("<g class=\"sq\" data-sq=\"");
            sq.push_name(&mut out);
            out.push_str(if dark {
                "\"><rect class=\"d\" x=\""
            } else {
                "\"><rect class=\"l\" x=\""
            });
            push_xy(&mut out, x, y);
            if last_from == Some(sq) || last_to == Some(sq) {
                out.push_str("<rect class=\"last\" x=\"");
                push_xy(&mut out, x, y);
            }
            for (dx, dy) in line_halves(view, sq) {
                // From the centre to the edge or corner towards the next
                // square of the line, turned with the board.
                let (dx, dy) = if opts.flipped { (-dx, -dy) } else { (dx, dy) };
                let (cx, cy) = (x + SQ / 2, y + SQ / 2);
                let _ = write!(
                    out,
                    "<line class=\"line\" x1=\"{cx}\" y1=\"{cy}\" x2=\"{}\" y2=\"{}\"/>",
                    cx + dx * SQ / 2,
                    cy - dy * SQ / 2
                );
            }
            for (mark, label) in &view.marks {
                if *mark == sq {
                    if let Some(m) = piece_art::mark(label, x, y, SQ) {
                        out.push_str(&m);
                        continue;
                    }
                    let _ = write!(
                        out,
                        "<text class=\"mark\" x=\"{}\" y=\"{}\">",
                        x + 2,
                        y + 10
                    );
                    escape_into(&mut out, label);
                    out.push_str("</text>");
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
            "<text class=\"coord\" x=\"{}\" y=\"{}\">{}</text>",
            MARGIN + col * SQ + SQ / 2,
            y0 + h * SQ + 15,
            (b'a' + file as u8) as char
        );
    }
    for row in 0..h {
        let rank = if opts.flipped { row } else { h - 1 - row };
        let _ = write!(
            out,
            "<text class=\"coord\" x=\"{}\" y=\"{}\">{}</text>",
            MARGIN / 2,
            y0 + row * SQ + SQ / 2 + 4,
            rank + 1
        );
    }
    // Pieces in hand: the top side's in rows above the board, the bottom
    // side's in rows below its file letters.
    let bottom_y = (y0 + h * SQ + MARGIN + 4) as f32;
    for (side, first_y) in [(top, 0.0), (bottom, bottom_y)] {
        let items: Vec<_> = view.hands.iter().filter(|hi| hi.color == side).collect();
        if items.is_empty() {
            continue;
        }
        let _ = write!(
            out,
            "<g class=\"hand\" data-side=\"{}\"><title>",
            crate::domain::game_state::Side::from(side).code()
        );
        escape_into(&mut out, side_name(view, side));
        out.push_str(" holds</title>");
        for (i, hi) in items.iter().enumerate() {
            let col = (i % rows.per_row) as f32;
            let line = (i / rows.per_row) as f32;
            let left = MARGIN as f32 + col * ITEM_STEP;
            let top_y = first_y + 3.0 + line * HAND_ROW;
            let cx = left + ITEM / 2.0 + 2.0;
            let cy = top_y + HAND_CELL / 2.0;
            // Counters (Fleap's Nukes) are held, not dropped.
            out.push_str(match hi.label.letter.as_str() {
                "*" => "<g class=\"held\" data-held=\"",
                _ => "<g class=\"in-hand\" data-hand=\"",
            });
            escape_into(&mut out, &hi.label.letter);
            out.push_str("\">");
            // The whole cell is the target, drawn when the piece is picked.
            let _ = write!(
                out,
                "<rect class=\"hand-cell\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\"/>",
                D1(left),
                D1(top_y),
                D1(HAND_CELL),
                D1(HAND_CELL)
            );
            piece(
                &mut out,
                view,
                hi.color,
                &hi.label,
                cx,
                cy,
                ITEM,
                opts.flipped,
            );
            out.push_str("</g>");
            if hi.count > 0 {
                let _ = write!(
                    out,
                    "<text class=\"count\" x=\"{}\" y=\"{}\">×{}</text>",
                    D1(left + HAND_CELL - 14.0),
                    D1(top_y + HAND_CELL - 6.0),
                    hi.count
                );
            }
        }
        out.push_str("</g>");
    }
    let names = view.cells.iter().filter_map(|c| match c {
        Cell::Piece { label, .. } => Some(label.name.as_str()),
        _ => None,
    });
    let names = names.chain(view.hands.iter().map(|h| h.label.name.as_str()));
    out.push_str(&piece_art::defs(names.clone()));
    if let Some(v) = crate::posted::lookup::variant(view.variant) {
        let drawn = movement_art::defs(v, names.filter(|n| !piece_art::has_art(n)));
        if !drawn.is_empty() {
            let _ = write!(out, "<defs>{drawn}</defs>");
        }
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
#[path = "board_svg_tests.rs"]
mod tests;
