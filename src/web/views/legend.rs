//! The legend beside a board (element `#legend`): each piece type the
//! variant defines, its picture for both sides, its name, the letters it is
//! written with, and a movement diagram the rules engine computed
//! ([`missive_rules::diagram`]); what the board's marks mean; and what each
//! side holds in hand. Also the rules page's pieces and start position, and
//! the one-line key of fairy pieces under a mail's text diagram.

use crate::web::views::board_svg::{self, escape, SvgOptions};
use crate::web::views::{movement_art, piece_art};
use missive_rules::diagram::{self, Diagram, PieceType};
use missive_rules::{BoardView, Color, Square, Variant};
use std::collections::HashMap;
use std::fmt::Write;
use std::sync::{Arc, Mutex, OnceLock};

/// Pixels per square in a movement diagram.
const CELL: u32 = 14;

/// A movement diagram as inline SVG: the piece on its square, dots where it
/// moves, crosses where it captures, a dot in a ring where it does both,
/// grey squares for the pieces it hops over or pivots on.
pub fn diagram_svg(d: &Diagram, name: &str, class: &str) -> String {
    let (w, h) = (d.width as u32, d.height as u32);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"diagram\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" role=\"img\" aria-label=\"How the {} moves\">",
        w * CELL,
        h * CELL,
        w * CELL,
        h * CELL,
        escape(name)
    );
    // The squares as one rectangle filled with a checker pattern (a1 dark),
    // holes painted over: a diagram is a few hundred bytes, not one
    // element per square.
    let top_dark = (h - 1) % 2 == 0;
    let (first, second) = match top_dark {
        true => ("#c9a27e", "#f3e3cc"),
        false => ("#f3e3cc", "#c9a27e"),
    };
    let id = if top_dark { "dg-d" } else { "dg-l" };
    let _ = write!(
        out,
        "<defs><pattern id=\"{id}\" width=\"{}\" height=\"{}\" patternUnits=\"userSpaceOnUse\">\
         <rect width=\"{}\" height=\"{}\" fill=\"{second}\"/><rect width=\"{CELL}\" height=\"{CELL}\" fill=\"{first}\"/>\
         <rect x=\"{CELL}\" y=\"{CELL}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{first}\"/></pattern></defs>\
         <rect width=\"{}\" height=\"{}\" fill=\"url(#{id})\"/>",
        2 * CELL,
        2 * CELL,
        2 * CELL,
        2 * CELL,
        w * CELL,
        h * CELL
    );
    for rank in 0..h {
        for file in 0..w {
            let sq = Square::new(file as u8, rank as u8);
            let (x, y) = (file * CELL, (h - 1 - rank) * CELL);
            if d.holes.contains(&sq) {
                let _ = write!(
                    out,
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"#fbfaf7\"/>"
                );
                continue;
            }
            let (cx, cy) = (x as f32 + CELL as f32 / 2.0, y as f32 + CELL as f32 / 2.0);
            let moves = d.moves.contains(&sq);
            let takes = d.captures.contains(&sq);
            if d.screens.contains(&sq) {
                let _ = write!(
                    out,
                    "<rect class=\"screen\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#777\" stroke=\"#222\"/>",
                    x + 2,
                    y + 2,
                    CELL - 4,
                    CELL - 4
                );
            }
            if moves {
                let _ = write!(
                    out,
                    "<circle class=\"to\" cx=\"{cx}\" cy=\"{cy}\" r=\"2.6\" fill=\"#0a6b2f\"/>"
                );
            }
            if takes && moves {
                let _ = write!(
                    out,
                    "<circle class=\"both\" cx=\"{cx}\" cy=\"{cy}\" r=\"4.6\" fill=\"none\" stroke=\"#b00020\" stroke-width=\"1.4\"/>"
                );
            } else if takes {
                let _ = write!(
                    out,
                    "<path class=\"takes\" d=\"M{} {}l7 7m0-7l-7 7\" stroke=\"#b00020\" stroke-width=\"2\"/>",
                    cx - 3.5,
                    cy - 3.5
                );
            }
        }
    }
    let (cx, cy) = (
        d.centre.file() as u32 * CELL,
        (h - 1 - d.centre.rank() as u32) * CELL,
    );
    let body = piece_art::art(name).unwrap_or_else(|| movement_art::body(d));
    let _ = write!(
        out,
        "<rect x=\"{cx}\" y=\"{cy}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"#7fb3e6\"/>\
         <style>{}</style><g class=\"pa {class}\" transform=\"translate({cx} {cy}) scale({})\">{body}</g></svg>",
        piece_art::STYLE,
        CELL as f32 / 48.0,
    );
    out
}

/// The letters a piece is written with: the board's and the moves' symbol,
/// and the FEN's when they differ (Leap Chess's Sail: S, FEN Q/q).
fn letters(t: &PieceType) -> String {
    let symbol = &t.label.symbol;
    let fen_up = &t.label.letter;
    if t.neutral {
        return format!("<code>{}</code>", escape(fen_up));
    }
    let mut out = format!("<code>{}</code>", escape(symbol));
    if !symbol.eq_ignore_ascii_case(fen_up) {
        let _ = write!(
            out,
            " (FEN <code>{}</code>/<code>{}</code>)",
            escape(fen_up),
            escape(&t.black_letter)
        );
    }
    out
}

fn cache() -> &'static Mutex<HashMap<&'static str, String>> {
    static CACHE: OnceLock<Mutex<HashMap<&'static str, String>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The legend's pictures (piece pictures and movement diagrams) as files,
/// by file name: `{what}-{hash}.svg`, the hash of the file's content, so a
/// name always means the same picture and browsers may keep it for good.
fn files() -> &'static Mutex<HashMap<String, Arc<str>>> {
    static FILES: OnceLock<Mutex<HashMap<String, Arc<str>>>> = OnceLock::new();
    FILES.get_or_init(Default::default)
}

/// Where the legend's pictures are served ([`file()`]).
pub const FILES_PATH: &str = "/static/legend/";

/// Keep `svg` as a file and give its address: [`FILES_PATH`], the name of
/// what it shows (`what`, already a safe slug) and its content's hash.
fn keep_file(what: &str, svg: String) -> String {
    use sha2::{Digest, Sha256};
    let hash = Sha256::digest(svg.as_bytes());
    let name = format!("{what}-{}.svg", hex::encode(&hash[..8]));
    files()
        .lock()
        .unwrap()
        .entry(name.clone())
        .or_insert_with(|| svg.into());
    format!("{FILES_PATH}{name}")
}

/// A legend picture by its file name (`GET /static/legend/{name}`), or
/// `None` for a name no legend gives. A name from a page drawn before the
/// server started again is found after every variant's legend is drawn
/// once (the names follow from the content, so it is the same file).
pub fn file(name: &str) -> Option<Arc<str>> {
    if let Some(f) = files().lock().unwrap().get(name) {
        return Some(f.clone());
    }
    static ALL_DRAWN: OnceLock<()> = OnceLock::new();
    ALL_DRAWN.get_or_init(|| {
        for v in missive_rules::variants() {
            pieces_html(*v);
        }
    });
    files().lock().unwrap().get(name).cloned()
}

/// A name as part of a file name: lower-case letters, digits and `-`
/// (`Hot Horse`: `hot-horse`; `Queen (promoted)`: `queen--promoted-`).
fn slug(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            'a'..='z' | '0'..='9' => c,
            'A'..='Z' => c.to_ascii_lowercase(),
            _ => '-',
        })
        .collect()
}

/// The pieces list of a variant (computed once per variant: the diagrams
/// ask the rules engine for many positions). The pictures and diagrams are
/// files ([`file()`]) the list shows with `<img>`: inline, they were three
/// quarters of a game page's bytes, sent again with every page, where a
/// browser keeps a file.
pub fn pieces_html(variant: &dyn Variant) -> String {
    if let Some(s) = cache().lock().unwrap().get(variant.id()) {
        return s.clone();
    }
    let sides = [
        variant.side_name(Color::White),
        variant.side_name(Color::Black),
    ];
    let mut out = String::from("<ul class=\"legend-pieces\">");
    for t in diagram::piece_types(variant) {
        let name = t.label.name.as_str();
        let what = slug(name);
        let first = piece_art::side_class(sides[0], false, t.neutral);
        let _ = write!(
            out,
            "<li class=\"legend-piece\" data-piece=\"{}\"><span class=\"pics\">",
            escape(name)
        );
        let mut classes = vec![first];
        if !t.neutral {
            classes.push(piece_art::side_class(sides[1], true, false));
        }
        for class in classes {
            let pic = match piece_art::has_art(name) {
                true => piece_art::picture(name, class, 36, None),
                false => movement_art::picture(variant, name, class, 36)
                    .unwrap_or_else(|| piece_art::picture(name, class, 36, None)),
            };
            let src = keep_file(&format!("{what}-{}", class.trim_start_matches("pa-")), pic);
            // Beside the piece's name: decorative, as the inline pictures
            // were (`aria-hidden`).
            let _ = write!(
                out,
                "<img class=\"piece-pic\" src=\"{src}\" width=\"36\" height=\"36\" alt=\"\">"
            );
        }
        let _ = write!(
            out,
            "</span><span class=\"what\"><strong>{}</strong> {}",
            escape(name),
            letters(&t)
        );
        match diagram::movement_diagram(variant, t.kind) {
            None => out.push_str("<br><small>Belongs to nobody; never moves by itself.</small>"),
            Some(d) if d.is_still() => out.push_str("<br><small>Never moves.</small>"),
            Some(d) => {
                if !d.screens.is_empty() {
                    out.push_str(
                        "<br><small>Shown beside other pieces (grey squares) it hops over, pivots on or needs.</small>",
                    );
                }
                let src = keep_file(
                    &format!("{}-{what}-moves", slug(variant.id())),
                    diagram_svg(&d, name, first),
                );
                let _ = write!(
                    out,
                    "</span><span class=\"move\"><img class=\"diagram\" src=\"{src}\" width=\"{}\" height=\"{}\" alt=\"How the {} moves\">",
                    d.width as u32 * CELL,
                    d.height as u32 * CELL,
                    escape(name)
                );
            }
        }
        out.push_str("</span></li>");
    }
    out.push_str("</ul>");
    cache().lock().unwrap().insert(variant.id(), out.clone());
    out
}

/// What each side holds: pieces in hand and counters, named, with counts.
fn held_html(view: &BoardView) -> String {
    if view.hands.is_empty() {
        return String::new();
    }
    let mut out = String::from("<p class=\"legend-hand\" id=\"in-hand\">In hand: ");
    for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let items: Vec<String> = view
            .hands
            .iter()
            .filter(|h| h.color == color)
            .map(|h| format!("{} ×{}", escape(&h.label.name), h.count))
            .collect();
        if i > 0 {
            out.push_str("; ");
        }
        let _ = write!(
            out,
            "<strong>{}</strong> {}",
            view.side_names[i],
            if items.is_empty() {
                "nothing".to_string()
            } else {
                items.join(", ")
            }
        );
    }
    out.push_str("</p>");
    out
}

const KEY: &str = "<p class=\"legend-key\"><small>Diagrams, from the engine: the piece on the blue square; ● moves there, ✕ captures there, ◉ both.</small></p>";

/// The legend for a board showing `view` of `variant`.
pub fn legend_html(variant: &dyn Variant, view: Option<&BoardView>) -> String {
    let mut out = String::from(
        "<section class=\"legend\" id=\"legend\" aria-labelledby=\"legend-title\"><h2 id=\"legend-title\">Pieces</h2>",
    );
    if let Some(v) = view {
        out.push_str(&held_html(v));
    }
    for n in variant.legend_notes() {
        let _ = write!(out, "<p class=\"legend-note\">{}</p>", escape(&n));
    }
    out.push_str(KEY);
    out.push_str(&pieces_html(variant));
    out.push_str("</section>");
    out
}

/// The rules page's start position and pieces.
pub fn for_rules(variant_id: &str) -> String {
    let Some(v) = crate::posted::lookup::variant(variant_id) else {
        return String::new();
    };
    let mut out = String::from("<section class=\"start\" id=\"start-position\"><h2>Start position</h2><div class=\"board-wrap\">");
    if let Ok(pos) = v.parse_fen(v.start_fen()) {
        out.push_str(&board_svg::render(
            &BoardView::new(v, &pos),
            &SvgOptions {
                flipped: false,
                last_move: None,
            },
        ));
    }
    out.push_str("</div></section>");
    out.push_str(&legend_html(v, None));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each variant's legend lists exactly the piece types the rules engine
    /// defines for it, each with a picture, and a diagram for each piece
    /// that moves.
    #[test]
    fn legend_lists_exactly_the_engines_piece_types() {
        for v in missive_rules::variants() {
            let html = legend_html(*v, None);
            assert!(html.contains("id=\"legend\""));
            let listed: Vec<&str> = html
                .split("data-piece=\"")
                .skip(1)
                .map(|s| &s[..s.find('"').unwrap()])
                .collect();
            let defined: Vec<String> = diagram::piece_types(*v)
                .into_iter()
                .map(|t| escape(&t.label.name))
                .collect();
            assert_eq!(listed, defined, "{}", v.id());
            assert!(html.matches("class=\"diagram\"").count() >= defined.len().saturating_sub(2));
        }
    }

    /// Every picture and diagram a legend shows is a file, an SVG of its
    /// own whose name ends in its content's hash; each diagram is named for
    /// screen readers on the page and in its file; other names are no file.
    #[test]
    fn legend_pictures_are_files_named_by_their_content() {
        use sha2::{Digest, Sha256};
        for v in missive_rules::variants() {
            let html = legend_html(*v, None);
            assert!(!html.contains("<svg"), "{}: an inline picture", v.id());
            let srcs: Vec<&str> = html
                .split(" src=\"")
                .skip(1)
                .map(|s| &s[..s.find('"').unwrap()])
                .collect();
            let types = diagram::piece_types(*v);
            let pictures: usize = types.iter().map(|t| if t.neutral { 1 } else { 2 }).sum();
            let diagrams = html.matches("<img class=\"diagram\"").count();
            assert_eq!(srcs.len(), pictures + diagrams, "{}", v.id());
            for src in srcs {
                let name = src.strip_prefix(FILES_PATH).expect(src);
                let body = file(name).unwrap_or_else(|| panic!("{src} is not served"));
                assert!(body.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
                assert!(body.ends_with("</svg>"));
                let hash = hex::encode(&Sha256::digest(body.as_bytes())[..8]);
                assert!(name.ends_with(&format!("-{hash}.svg")), "{name}");
            }
            for t in types {
                let label = format!("How the {} moves", escape(&t.label.name));
                if html.contains(&format!("alt=\"{label}\"")) {
                    let i = html.find(&format!("alt=\"{label}\"")).unwrap();
                    let src = &html[html[..i].rfind(" src=\"").unwrap() + 6..];
                    let src = &src[..src.find('"').unwrap()];
                    let body = file(src.strip_prefix(FILES_PATH).unwrap()).unwrap();
                    assert!(body.contains(&format!("aria-label=\"{label}\"")), "{src}");
                }
            }
        }
        assert!(file("knight-pa-w-0000000000000000.svg").is_none());
        assert!(file("../style.css").is_none());
    }

    fn board(id: &str, fen: &str) -> String {
        let v = missive_rules::variant(id).unwrap();
        let view = BoardView::new(v, &v.parse_fen(fen).unwrap());
        board_svg::render(
            &view,
            &SvgOptions {
                flipped: false,
                last_move: None,
            },
        )
    }

    /// The state each issue-35 finding asked to see is on the board.
    #[test]
    fn boards_show_the_special_states() {
        let lion = board(
            "lionized-chess",
            "lcmzkfhl/pppppppp/8/8/8/8/PPPPPPPP/LHMZKFCL[] w - - 0 1",
        );
        assert!(lion.contains("<g class=\"lionized\">"));
        let fleap = board(
            "fleap",
            "*tsfat*/eee1eee/3*3/*5*/2E1+A2/EE1EEEE/*TSFAT*[PN] w 1/2 0 4",
        );
        assert!(fleap.contains("data-crater=\"d5\""), "the crater is drawn");
        assert!(!fleap.contains("data-crater=\"a4\""), "a hole is not");
        assert!(fleap.contains("data-held=\"*\""));
        assert!(fleap.contains(">×2</text>"), "Black's two Nukes");
        assert!(fleap.contains("class=\"promoted\""));
        assert!(fleap.contains("data-hand=\"P\"") && fleap.contains("data-hand=\"N\""));
        let mao = board(
            "maohopper",
            "nrmwfwmrn/amebabema/sssssssss/9/2O1O1O2/3S<5/SSS1SSSSS/AMEBABEMA/NRMWFWMRN w 3",
        );
        assert!(mao.contains("href=\"#pa-flag\""));
        assert!(mao.contains("<symbol id=\"pa-flag\""));
        assert!(mao.contains(">TRAP</text>"));
        // White's forward-left Spear on d4 points up-left; Black's point down.
        assert!(mao.contains("rotate(315 "));
        assert!(mao.contains("rotate(180 "));
        assert!(mao.contains("href=\"#pa-stone\" class=\"pa pa-n\""));
        let leap = board(
            "leap-chess",
            missive_rules::variant("leap-chess").unwrap().start_fen(),
        );
        assert!(leap.contains("class=\"pa pa-r\"") && leap.contains("class=\"pa pa-b\""));
        assert!(
            !leap.contains("class=\"pa pa-w\""),
            "Leap Chess has no White pieces"
        );
    }

    #[test]
    fn game_legend_names_what_is_held() {
        let v = missive_rules::variant("fleap").unwrap();
        let pos = v
            .parse_fen("*tsfat*/eeeeeee/7/*5*/7/EEEEEEE/*TSFAT*[] w 1/1 0 1")
            .unwrap();
        let html = legend_html(v, Some(&BoardView::new(v, &pos)));
        assert!(html.contains("Nuke ×1"), "{html}");
    }
}
