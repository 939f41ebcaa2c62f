//! Tests of the board picture (`board_svg.rs`), apart so that file holds
//! only the drawing.

use super::*;
use crate::web::views::contrast::{colour, contrast};
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
        lines: Vec::new(),
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
        variant: "",
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
    // Colours come from the style block, by side and shade.
    assert!(svg.contains("<g class=\"piece w\"><title>Red King"));
    assert!(svg.contains("<g class=\"piece b\"><title>Black Guard"));
    // Below the top side's hand.
    let y0 = HAND_ROW.ceil() as i32;
    assert!(
        svg.contains(&format!("<rect class=\"d\" x=\"20\" y=\"{}\"", y0 + SQ)),
        "a1 is dark"
    );
    assert!(
        svg.contains(&format!("<rect class=\"l\" x=\"20\" y=\"{y0}\"")),
        "a2 is light"
    );
    assert!(!svg.contains(" fill=\"#"), "no colour written per element");
    // The style block's glyph size on squares is the one `piece` would
    // write, and pieces in hand write their own.
    assert!(STYLE.contains(&format!(
        ".sq .glyph{{font-size:{}px}}",
        D1(SQ as f32 * 0.9)
    )));
    // (a picture in hand is `SQ * 0.9` across since issue 64's larger hand cells)
    assert!(svg.contains(&format!("font-size=\"{}\"", D1(SQ as f32 * 0.9 * 0.36))));
    assert!(svg.contains("<title>Black Guard</title>"));
    // Known pieces are drawn with the piece set's pictures, defined once.
    assert!(svg.contains("href=\"#pa-guard\" class=\"pa pa-b\""));
    assert!(svg.contains("href=\"#pa-king\" class=\"pa pa-r\""));
    assert!(svg.contains("href=\"#pa-pawn\""));
    assert_eq!(svg.matches("<symbol id=\"pa-").count(), 3);
    assert!(
        svg.contains(">+X</text>"),
        "unknown pieces show their letter"
    );
    assert!(svg.contains("class=\"hand\" data-side=\"white\""));
    assert!(svg.contains("class=\"hand\" data-side=\"black\""));
    assert!(svg.contains("×2"));
    assert!(svg.contains("data-hand=\"P\""));
    assert!(
        svg.contains(">TRAP</text>"),
        "the trap is drawn and labelled"
    );
    // White at the bottom: rank 2 is drawn first.
    assert!(svg.find("data-sq=\"a2\"").unwrap() < svg.find("data-sq=\"a1\"").unwrap());
    // The view box grows down for the hands (a row above, a row below),
    // not across.
    let rows = 2 * HAND_ROW.ceil() as i32;
    assert!(svg.contains(&format!(
        "viewBox=\"0 0 {} {}\"",
        MARGIN + 3 * SQ + 4,
        2 * SQ + MARGIN + 4 + rows
    )));
}

/// The `(x, y)` of the first `<rect>` after `marker`.
fn rect_at(svg: &str, marker: &str) -> (f32, f32) {
    let rest = &svg[svg.find(marker).unwrap_or_else(|| panic!("{marker}"))..];
    let num = |attr: &str| -> f32 {
        let a = &rest[rest.find(attr).unwrap() + attr.len()..];
        a[..a.find('"').unwrap()].parse().unwrap()
    };
    (num(" x=\""), num(" y=\""))
}

/// Leaperhouse with pieces in hand on a 390 px phone: the hands sit
/// above and below the board, so the board's width (and its squares:
/// at least 32 px on the screen) is that of the board without hands.
#[test]
fn hands_above_and_below_keep_squares_large_on_a_phone() {
    let v = missive_rules::variant("leaperhouse").unwrap();
    let fen = "unceakecnu/10/pppppppp2/10/10/10/10/PPPPPPPP2/10/UNCEKAECNU[PPUNCEAp] w - - 0 5";
    let view = BoardView::new(v, &v.parse_fen(fen).unwrap());
    assert!(view.hands.len() >= 7, "{:?}", view.hands.len());
    let svg = render(
        &view,
        &SvgOptions {
            flipped: false,
            last_move: None,
        },
    );
    let vb = &svg[svg.find("viewBox=\"0 0 ").unwrap() + 13..];
    let width: f32 = vb[..vb.find(' ').unwrap()].parse().unwrap();
    // The page's main column at 390 px: 1rem padding each side.
    let column = 390.0 - 2.0 * 16.0;
    let square = SQ as f32 * (column / width).min(1.0);
    assert!(square >= 32.0, "{square:.1} px squares at 390 px");
    // White's hand below rank 1, Black's above rank 10.
    let (_, a10) = rect_at(&svg, "data-sq=\"a10\"");
    let (_, a1) = rect_at(&svg, "data-sq=\"a1\"");
    let black = svg.find("data-side=\"black\"").unwrap();
    let white = svg.find("data-side=\"white\"").unwrap();
    let y_of = |at: usize| {
        let u = &svg[at..];
        let a = &u[u.find(" y=\"").unwrap() + 4..];
        a[..a.find('"').unwrap()].parse::<f32>().unwrap()
    };
    assert!(y_of(black) + ITEM <= a10, "Black's hand above the board");
    assert!(y_of(white) >= a1 + SQ as f32, "White's hand below it");
    // Six kinds in White's hand, on as many rows as they need, inside
    // the view box.
    let vh: f32 = {
        let h = &vb[vb.find(' ').unwrap() + 1..];
        h[..h.find('"').unwrap()].parse().unwrap()
    };
    let last = svg.rfind("class=\"in-hand\"").unwrap();
    assert!(y_of(last) + ITEM <= vh, "the last piece in hand fits");
    // Flipped, White's hand is on top.
    let flipped = render(
        &view,
        &SvgOptions {
            flipped: true,
            last_move: None,
        },
    );
    assert!(
        flipped.find("data-side=\"white\"").unwrap() < flipped.find("data-side=\"black\"").unwrap()
    );
    let (_, w1) = rect_at(&flipped, "data-sq=\"a1\"");
    let first_hand = flipped.find("data-side=\"white\"").unwrap();
    let u = &flipped[first_hand..];
    let a = &u[u.find(" y=\"").unwrap() + 4..];
    assert!(a[..a.find('"').unwrap()].parse::<f32>().unwrap() + ITEM <= w1);
}

/// Colour-blind safety by numbers: the two sides of every variant
/// differ in lightness (their fills at least 3:1 apart, so no hue is
/// needed to tell them), every piece's edge (fill or outline) stands
/// out at least 3:1 on both square colours, and its details at least
/// 3:1 on its own fill.
#[test]
fn sides_differ_by_lightness_and_stand_out_on_both_squares() {
    let squares = [colour(STYLE, ".l{fill:"), colour(STYLE, ".d{fill:")];
    let side = |class: &str| {
        let css = piece_art::STYLE;
        let rule = &css[css.find(&format!(".{class}{{")).unwrap()..];
        let rule = &rule[..rule.find('}').unwrap()];
        (
            colour(rule, "fill:"),
            colour(rule, "stroke:"),
            colour(rule, "color:"),
        )
    };
    for class in ["pa-w", "pa-b", "pa-r", "pa-n"] {
        let (fill, stroke, detail) = side(class);
        for sq in squares {
            let edge = contrast(fill, sq).max(contrast(stroke, sq));
            assert!(edge >= 3.0, "{class} on {sq:?}: {edge:.2}");
        }
        let d = contrast(detail, fill);
        assert!(d >= 3.0, "{class} details: {d:.2}");
    }
    for v in missive_rules::variants() {
        let names = [v.side_name(Color::White), v.side_name(Color::Black)];
        let (a, b) = (
            piece_art::side_class(names[0], false, false),
            piece_art::side_class(names[1], true, false),
        );
        let c = contrast(side(a).0, side(b).0);
        assert!(c >= 3.0, "{}: {a} against {b}: {c:.2}", v.id());
        // And both apart from nobody's pieces (Maohopper's Stones).
        if missive_rules::diagram::piece_types(*v)
            .iter()
            .any(|t| t.neutral)
        {
            for s in [a, b] {
                let n = contrast(side(s).0, side("pa-n").0);
                assert!(n >= 3.0, "{}: {s} against pa-n: {n:.2}", v.id());
            }
        }
    }
    // Leap Chess's Red is red (the side's own colour), yet lighter than
    // Black by far.
    let (red, _, _) = side("pa-r");
    assert!(red[0] > red[1] + 100 && red[0] > red[2] + 100, "{red:?}");
    assert!(contrast(red, side("pa-b").0) >= 4.5);
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

/// Xiangqi's palaces are drawn with their diagonals: the middle square of
/// each palace holds four halves, each corner one, and the rest none.
#[test]
fn palace_diagonals_are_drawn_square_by_square() {
    let v = missive_rules::variant("xiangqi").unwrap();
    let view = BoardView::new(v, &v.parse_fen(v.start_fen()).unwrap());
    assert_eq!(view.lines.len(), 4, "{:?}", view.lines);
    let opts = SvgOptions {
        flipped: false,
        last_move: None,
    };
    let svg = render(&view, &opts);
    let halves = |sq: &str| {
        let start = svg.find(&format!("data-sq=\"{sq}\"")).unwrap();
        let end = start + svg[start..].find("</g>").unwrap();
        svg[start..end].matches("class=\"line\"").count()
    };
    assert_eq!(halves("e2"), 4);
    assert_eq!(halves("e9"), 4);
    assert_eq!((halves("d1"), halves("f3"), halves("f10")), (1, 1, 1));
    assert_eq!((halves("e1"), halves("d2"), halves("e5")), (0, 0, 0));
    let chess = missive_rules::variant("chess").unwrap();
    let plain = BoardView::new(chess, &chess.parse_fen(chess.start_fen()).unwrap());
    assert!(!render(&plain, &opts).contains("class=\"line\""));
}
