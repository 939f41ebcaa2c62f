//! Missive's own piece set: one small SVG picture per piece name, drawn in
//! a 48x48 box, for every piece of every variant.
//!
//! A picture's body takes its fill and stroke from the element that draws
//! it (a `<use>` on the board, a `<g>` in legends) and its details from
//! `currentColor`, so one drawing serves every side: the side classes in
//! [`STYLE`] give light pieces with dark lines (White), black pieces with
//! light details (Black), light coral-red pieces with dark red lines (Red,
//! against Black's near-black ones), and grey for pieces that belong to
//! nobody. The two sides of a game differ in lightness (Red's fill is
//! five times as luminous as Black's), never in hue alone, so they stay
//! apart for colour-blind players; every piece's outline or fill stands
//! out at least 3:1 from both square colours (tested in `board_svg`). A
//! stroke in the body's own
//! colour (a Ram's horns, the Worm) reads it from the custom property
//! `--pf`, which, unlike a class selector, reaches into a `<use>`.
//!
//! Chess pieces are simple Staunton-like silhouettes; fairy pieces are a
//! silhouette of their name where it has one (Bull, Camel, Frog...) or a
//! token showing how they move (the Alfil's and Dabbabah's leaps as dots,
//! an arc over a dot for the Equihoppers).

use crate::web::views::svg_num::push_f1;
use std::fmt::Write;

/// The side classes' colours, for a board's or a legend's style block.
macro_rules! side_css {
    () => {
        ".pa{stroke-width:1.6px;stroke-linejoin:round;stroke-linecap:round}\
.pa-w{fill:#fbfaf5;stroke:#1b1b1b;color:#1b1b1b;--pf:#fbfaf5}\
.pa-b{fill:#262626;stroke:#000;color:#f4f4f4;--pf:#262626}\
.pa-r{fill:#f26b5e;stroke:#4a0600;color:#4a0600;--pf:#f26b5e}\
.pa-n{fill:#8c8c8c;stroke:#262626;color:#fff;--pf:#8c8c8c}"
    };
}
pub const STYLE: &str = side_css!();

/// A round token, the ground of the fairy pieces drawn as emblems.
const TOKEN: &str = "<circle cx=\"24\" cy=\"24\" r=\"19\"/>";
/// A base for silhouettes.
const BASE: &str = "<path d=\"M10 43v-4c0-1.5 1-2.5 2.5-2.5h23c1.5 0 2.5 1 2.5 2.5v4z\"/>";

const PAWN: &str = "<path d=\"M17 37c0-6 3-10 5-13h4c2 3 5 7 5 13z\"/>\
<path d=\"M19 24.5h10\"/><circle cx=\"24\" cy=\"15\" r=\"6.5\"/>";
const KNIGHT: &str = "<path d=\"M15 37c0-5 3-8 6-11 2-2 2-4 1-5-2 2-5 3-7 3-2 1-4 0-4-2 0-3 3-5 5-8l3-5 1 3c3-1 7 0 10 2 5 4 6 11 6 23z\"/>\
<circle cx=\"19\" cy=\"14\" r=\"1.6\" fill=\"currentColor\" stroke=\"none\"/>";
const BISHOP: &str = "<path d=\"M16 37c1-2 3-3 4-4h8c1 1 3 2 4 4z\"/>\
<path d=\"M24 8c-6 5-8 11-8 15 0 5 4 8 8 8s8-3 8-8c0-4-2-10-8-15z\"/>\
<circle cx=\"24\" cy=\"6.5\" r=\"2.5\"/><path d=\"M27 15l-5 6\" stroke=\"currentColor\" stroke-width=\"2\" fill=\"none\"/>";
const ROOK: &str = "<path d=\"M16 37l1.5-16h13l1.5 16z\"/>\
<path d=\"M13 21v-10h4.5v3.5h3.5v-3.5h6v3.5h3.5v-3.5h4.5v10z\"/>";
const QUEEN: &str = "<path d=\"M13 36l-4-20 8 9 2-13 5 12 5-12 2 13 8-9-4 20z\"/>\
<circle cx=\"9\" cy=\"14.5\" r=\"2.5\"/><circle cx=\"19\" cy=\"10\" r=\"2.5\"/>\
<circle cx=\"29\" cy=\"10\" r=\"2.5\"/><circle cx=\"39\" cy=\"14.5\" r=\"2.5\"/>";
const KING: &str = "<path d=\"M14 36c-6-7-4-16 3-16 3 0 6 2 7 6 1-4 4-6 7-6 7 0 9 9 3 16z\"/>\
<path d=\"M22 5h4v4h4v4h-4v7h-4v-7h-4v-4h4z\"/>";

/// Leaperhouse's Guard: a shield.
const GUARD: &str = "<path d=\"M24 7l13 5v11c0 9-6 14-13 18-7-4-13-9-13-18V12z\"/>\
<path d=\"M24 13v22M16 21h16\" stroke=\"currentColor\" stroke-width=\"3\" fill=\"none\"/>";
/// Bull: a head with wide horns.
const BULL: &str =
    "<path d=\"M6 13c2 9 8 11 13 10h10c5 1 11-1 13-10-3 4-7 5-11 5H17c-4 0-8-1-11-5z\"/>\
<path d=\"M17 22h14l-2 14c-1 4-9 4-10 0z\"/>\
<circle cx=\"20.5\" cy=\"27\" r=\"1.6\" fill=\"currentColor\" stroke=\"none\"/>\
<circle cx=\"27.5\" cy=\"27\" r=\"1.6\" fill=\"currentColor\" stroke=\"none\"/>";
/// Camel: two humps.
const CAMEL: &str = "<path d=\"M8 27C7 22 9 18 12 18c1-6 7-7 8-1 2-5 7-6 9 0 2 2 3 3 5 2l3-8c1-2 5-2 6 0l1 2-4 1-3 10c-1 3-3 4-4 5v13h-3l-1-12H14l-1 12h-3V29c-1 0-2-1-2-2z\"/>\
<circle cx=\"40\" cy=\"11.5\" r=\"1.3\" fill=\"currentColor\" stroke=\"none\"/>";
/// Elephant: ears and a trunk.
const ELEPHANT: &str = "<ellipse cx=\"12.5\" cy=\"19\" rx=\"7\" ry=\"9\"/><ellipse cx=\"35.5\" cy=\"19\" rx=\"7\" ry=\"9\"/>\
<path d=\"M16 18c0-6 4-9 8-9s8 3 8 9c0 4-2 6-4 8v8c0 3 2 4 4 3l1 3c-4 2-9 0-9-5v-6c-4-1-8-5-8-11z\"/>\
<circle cx=\"21\" cy=\"18\" r=\"1.5\" fill=\"currentColor\" stroke=\"none\"/><circle cx=\"27\" cy=\"18\" r=\"1.5\" fill=\"currentColor\" stroke=\"none\"/>";
/// Ram: curled horns round a narrow head.
const RAM: &str = "<path d=\"M20 14c-3-6-13-5-13 3 0 6 8 7 9 2M28 14c3-6 13-5 13 3 0 6-8 7-9 2\" fill=\"none\" stroke-width=\"8\"/>\
<path style=\"stroke:var(--pf)\" d=\"M20 14c-3-6-13-5-13 3 0 6 8 7 9 2M28 14c3-6 13-5 13 3 0 6-8 7-9 2\" fill=\"none\" stroke-width=\"4.6\"/>\
<path d=\"M19 12h10l-1 21c-1 5-7 5-8 0z\"/>\
<circle cx=\"22\" cy=\"20\" r=\"1.5\" fill=\"currentColor\" stroke=\"none\"/><circle cx=\"26\" cy=\"20\" r=\"1.5\" fill=\"currentColor\" stroke=\"none\"/>";
/// Alfil: its four leaps, two squares diagonally, as dots on a token.
const ALFIL: &str = "<circle cx=\"24\" cy=\"24\" r=\"19\"/>\
<g fill=\"currentColor\" stroke=\"none\"><circle cx=\"14\" cy=\"14\" r=\"4\"/><circle cx=\"34\" cy=\"14\" r=\"4\"/>\
<circle cx=\"14\" cy=\"34\" r=\"4\"/><circle cx=\"34\" cy=\"34\" r=\"4\"/></g>\
<rect x=\"21\" y=\"21\" width=\"6\" height=\"6\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.5\"/>";
/// Dabbabah: its four leaps, two squares straight, as dots on a token.
const DABBABAH: &str = "<rect x=\"6\" y=\"6\" width=\"36\" height=\"36\" rx=\"6\"/>\
<g fill=\"currentColor\" stroke=\"none\"><circle cx=\"24\" cy=\"12\" r=\"4\"/><circle cx=\"24\" cy=\"36\" r=\"4\"/>\
<circle cx=\"12\" cy=\"24\" r=\"4\"/><circle cx=\"36\" cy=\"24\" r=\"4\"/></g>\
<rect x=\"21\" y=\"21\" width=\"6\" height=\"6\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.5\"/>";
/// Sail: a boat under sail.
const SAIL: &str = "<path d=\"M25 5v26h13zM23 9v22H10z\"/><path d=\"M8 33h32l-5 7H13z\"/>";
/// Lance: an arrow up the board (its owner's forward).
const LANCE: &str = "<path d=\"M24 4l10 13h-6v23h-8V17h-6z\"/>";
/// Hot Horse: a horse's head with a flame.
const HOT_HORSE: &str = "<path d=\"M13 40c0-5 3-8 6-11 2-2 2-4 1-5-2 2-5 3-7 3-2 1-4 0-4-2 0-3 3-5 5-8l3-5 1 3c3-1 7 0 10 2 5 4 6 11 6 23z\"/>\
<path d=\"M40 24c-5-2-6-8-2-13 0 3 2 4 3 6 1-2 1-4 0-6 4 3 6 11-1 13z\" fill=\"currentColor\" stroke-width=\"1.8\"/>\
<circle cx=\"17\" cy=\"17\" r=\"1.6\" fill=\"currentColor\" stroke=\"none\"/>";
/// Cold Horse: a horse's head with a snowflake.
const COLD_HORSE: &str = "<path d=\"M13 40c0-5 3-8 6-11 2-2 2-4 1-5-2 2-5 3-7 3-2 1-4 0-4-2 0-3 3-5 5-8l3-5 1 3c3-1 7 0 10 2 5 4 6 11 6 23z\"/>\
<path d=\"M38 6v14M32 9.5l12 7M32 16.5l12-7\" stroke-width=\"5\" fill=\"none\"/>\
<path d=\"M38 6v14M32 9.5l12 7M32 16.5l12-7\" stroke=\"currentColor\" stroke-width=\"2.2\" fill=\"none\"/>\
<circle cx=\"17\" cy=\"17\" r=\"1.6\" fill=\"currentColor\" stroke=\"none\"/>";
/// Mammoth: a domed head, trunk and tusks.
const MAMMOTH: &str = "<path d=\"M12 26c-1-10 5-18 12-18s13 8 12 18c-1 3-3 4-6 4v6c0 3 2 4 4 3l1 3c-4 2-9 0-9-5v-7h-4c-5 0-9-1-10-4z\"/>\
<path d=\"M17 28c-4 5-2 11 4 12M31 28c4 5 2 11-4 12\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2.6\"/>\
<circle cx=\"19\" cy=\"20\" r=\"1.5\" fill=\"currentColor\" stroke=\"none\"/><circle cx=\"29\" cy=\"20\" r=\"1.5\" fill=\"currentColor\" stroke=\"none\"/>";
/// Ferz: one step diagonally, as a diamond with its four steps.
const FERZ: &str = "<path d=\"M24 5l19 19-19 19L5 24z\"/>\
<g fill=\"currentColor\" stroke=\"none\"><circle cx=\"16\" cy=\"16\" r=\"3\"/><circle cx=\"32\" cy=\"16\" r=\"3\"/>\
<circle cx=\"16\" cy=\"32\" r=\"3\"/><circle cx=\"32\" cy=\"32\" r=\"3\"/></g>";
/// Lionizer: a lion's mane.
const LIONIZER: &str = "<path d=\"M24 3l4 6 7-3 1 7 7 1-3 7 6 3-6 3 3 7-7 1-1 7-7-3-4 6-4-6-7 3-1-7-7-1 3-7-6-3 6-3-3-7 7-1 1-7 7 3z\"/>\
<circle cx=\"24\" cy=\"24\" r=\"9\" fill=\"currentColor\" stroke=\"none\"/>\
<path d=\"M20 23h.1M28 23h.1M21 28c2 2 4 2 6 0\" fill=\"none\" style=\"stroke:var(--pf)\" stroke-width=\"2.4\"/>";
/// Equihopper: an arc over a dot (it hops over a piece to the mirror square).
const EQUIHOPPER: &str = "<circle cx=\"24\" cy=\"24\" r=\"19\"/>\
<circle cx=\"24\" cy=\"28\" r=\"4\" fill=\"currentColor\" stroke=\"none\"/>\
<path d=\"M11 33c4-17 22-17 26 0\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"3\"/>\
<path d=\"M37 34l-5-4 7-2z\" fill=\"currentColor\" stroke=\"none\"/>";
/// Non-stop Equihopper: the arc drawn twice.
const NONSTOP: &str = "<circle cx=\"24\" cy=\"24\" r=\"19\"/>\
<circle cx=\"24\" cy=\"31\" r=\"3.5\" fill=\"currentColor\" stroke=\"none\"/>\
<path d=\"M11 35c4-15 22-15 26 0M9 27c5-19 25-19 30 0\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2.6\"/>";
/// EquiRepeater: two hops in a row.
const REPEATER: &str = "<circle cx=\"24\" cy=\"24\" r=\"19\"/>\
<g fill=\"currentColor\" stroke=\"none\"><circle cx=\"16\" cy=\"30\" r=\"3\"/><circle cx=\"32\" cy=\"30\" r=\"3\"/></g>\
<path d=\"M8 32c2-11 14-11 16 0 2-11 14-11 16 0\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2.6\"/>";
/// Fore'n'aft: forward and back.
const FORENAFT: &str = "<circle cx=\"24\" cy=\"24\" r=\"19\"/>\
<path d=\"M24 7l8 9h-5v16h5l-8 9-8-9h5V16h-5z\" fill=\"currentColor\" stroke=\"none\"/>";
/// Ballista: a crossbow.
const BALLISTA: &str = "<circle cx=\"24\" cy=\"24\" r=\"19\"/>\
<path d=\"M9 25c8-10 22-10 30 0\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"3\"/>\
<path d=\"M9 25l15 5 15-5\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.4\"/>\
<path d=\"M22.5 40V13h-3L24 6l4.5 7h-3v27z\" fill=\"currentColor\" stroke=\"none\"/>";
/// Flag: a flag on a gold ground, the piece that decides the game.
const FLAG: &str = "<circle cx=\"24\" cy=\"24\" r=\"22\" fill=\"#ffc400\" stroke=\"#000\" stroke-width=\"1.5\"/>\
<path d=\"M14 42V6h4v36z\"/><path d=\"M18 7c6-4 10 4 18 0v15c-8 4-12-4-18 0z\"/><path d=\"M9 42h14\" stroke-width=\"3\"/>";
/// Maohopper: a step onto a piece, then diagonally outward.
const MAOHOPPER: &str = "<circle cx=\"24\" cy=\"24\" r=\"19\"/>\
<rect x=\"17\" y=\"19\" width=\"8\" height=\"8\" fill=\"currentColor\" stroke=\"none\"/>\
<path d=\"M21 39V23l10-10\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"3\"/>\
<path d=\"M35 9l-2 10-8-8z\" fill=\"currentColor\" stroke=\"none\"/>";
/// Butterfly: four wings.
const BUTTERFLY: &str =
    "<path d=\"M23 22C18 8 6 6 5 13c-1 6 7 9 18 10zM25 22C30 8 42 6 43 13c1 6-7 9-18 10z\"/>\
<path d=\"M23 25c-9 0-15 4-13 10 2 5 9 2 13-8zM25 25c9 0 15 4 13 10-2 5-9 2-13-8z\"/>\
<path d=\"M24 14v24\" stroke=\"currentColor\" stroke-width=\"3\"/>";
/// Frog: a frog's face.
const FROG: &str = "<path d=\"M6 30c0-9 6-13 9-14a6 6 0 0 1 9-4 6 6 0 0 1 9 4c3 1 9 5 9 14 0 6-8 9-18 9S6 36 6 30z\"/>\
<circle cx=\"17\" cy=\"15\" r=\"3\" fill=\"currentColor\" stroke=\"none\"/><circle cx=\"31\" cy=\"15\" r=\"3\" fill=\"currentColor\" stroke=\"none\"/>\
<path d=\"M14 30c6 4 14 4 20 0\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2.4\"/>";
/// Worm: a wriggle.
const WORM: &str = "<path d=\"M8 38c0-8 8-8 8-16s8-8 8 0-8 8-8 16 8 8 8 0 8-8 8-16\" fill=\"none\" stroke-width=\"10\"/>\
<path style=\"stroke:var(--pf)\" d=\"M8 38c0-8 8-8 8-16s8-8 8 0-8 8-8 16 8 8 8 0 8-8 8-16\" fill=\"none\" stroke-width=\"6.6\"/>\
<circle cx=\"40\" cy=\"20\" r=\"6\"/><circle cx=\"41.5\" cy=\"18.5\" r=\"1.5\" fill=\"currentColor\" stroke=\"none\"/>";
/// Reflecting Ferz: a diagonal path bouncing off a wall.
const REFLECTING_FERZ: &str = "<path d=\"M24 5l19 19-19 19L5 24z\"/>\
<path d=\"M12 30l8-8 8 8 6-6\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"3\"/>\
<path d=\"M37 20l-1 8-7-7z\" fill=\"currentColor\" stroke=\"none\"/>";
/// Spear: a spearhead; the board turns it to point where the Spear points.
const SPEAR: &str = "<path d=\"M24 2l11 15-6 3v21h-10V20l-6-3z\"/>\
<path d=\"M24 7v13\" stroke=\"currentColor\" stroke-width=\"2.4\"/>";
/// Mason: a brick wall.
const MASON: &str = "<rect x=\"6\" y=\"8\" width=\"36\" height=\"32\" rx=\"3\"/>\
<path d=\"M6 18.5h36M6 29.5h36M18 8v10.5M30 8v10.5M12 18.5v11M24 18.5v11M36 18.5v11M18 29.5V40M30 29.5V40\" stroke=\"currentColor\" stroke-width=\"2.4\"/>";
/// Windmill: four sails round a hub.
const WINDMILL: &str = "<g><path d=\"M24 24L20 4h8z\"/><path d=\"M24 24L44 20v8z\"/><path d=\"M24 24L28 44h-8z\"/><path d=\"M24 24L4 28v-8z\"/></g>\
<circle cx=\"24\" cy=\"24\" r=\"4\" fill=\"currentColor\"/>";
/// Stone: a grey rock that belongs to nobody.
const STONE: &str = "<path d=\"M8 31l4-14 12-8 12 5 5 14-7 10H15z\"/>\
<path d=\"M16 22l6-3M27 17l5 4M20 31l7 2\" stroke=\"currentColor\" stroke-width=\"2\"/>";
/// Nuke: the trefoil, on a token.
const NUKE: &str = "<circle cx=\"24\" cy=\"24\" r=\"19\"/>\
<g fill=\"currentColor\" stroke=\"none\"><circle cx=\"24\" cy=\"24\" r=\"3\"/>\
<path d=\"M24 20l-5-9a14 14 0 0 1 10 0z\" transform=\"rotate(0 24 24)\"/>\
<path d=\"M24 20l-5-9a14 14 0 0 1 10 0z\" transform=\"rotate(120 24 24)\"/>\
<path d=\"M24 20l-5-9a14 14 0 0 1 10 0z\" transform=\"rotate(240 24 24)\"/></g>";

/// The picture of a piece by its name (a Fleap token's "(promoted)" left
/// off), or `None` for a name this set does not know.
pub fn art(name: &str) -> Option<String> {
    art_parts(name).map(|(a, b)| format!("{a}{b}"))
}

/// A picture as the two parts it is drawn from (the second often empty),
/// so that asking whether a name has one copies nothing.
fn art_parts(name: &str) -> Option<(&'static str, &'static str)> {
    let name = base_name(name);
    Some(match name {
        "Pawn" => (PAWN, BASE),
        "Knight" => (KNIGHT, BASE),
        "Bishop" => (BISHOP, BASE),
        "Rook" => (ROOK, BASE),
        "Queen" => (QUEEN, BASE),
        "King" => (KING, BASE),
        "Guard" => (GUARD, ""),
        "Bull" => (TOKEN, BULL),
        "Camel" => (CAMEL, ""),
        "Elephant" => (ELEPHANT, ""),
        "Ram" => (RAM, ""),
        "Alfil" => (ALFIL, ""),
        "Dabbabah" => (DABBABAH, ""),
        "Sail" => (SAIL, ""),
        "Lance" => (LANCE, ""),
        "Hot Horse" => (HOT_HORSE, ""),
        "Cold Horse" => (COLD_HORSE, ""),
        "Mammoth" => (MAMMOTH, ""),
        "Ferz" => (FERZ, ""),
        "Lionizer" => (LIONIZER, ""),
        "Equihopper" => (EQUIHOPPER, ""),
        "Non-stop Equihopper" => (NONSTOP, ""),
        "EquiRepeater" => (REPEATER, ""),
        "Fore'n'aft" => (FORENAFT, ""),
        "Ballista" => (BALLISTA, ""),
        "Flag" => (FLAG, ""),
        "Maohopper" => (MAOHOPPER, ""),
        "Butterfly" => (BUTTERFLY, ""),
        "Frog" => (FROG, ""),
        "Worm" => (WORM, ""),
        "Reflecting Ferz" => (REFLECTING_FERZ, ""),
        "Spear" => (SPEAR, ""),
        "Mason" => (MASON, ""),
        "Windmill" => (WINDMILL, ""),
        "Stone" => (STONE, ""),
        "Nuke" => (NUKE, ""),
        _ => return None,
    })
}

/// Whether the set has a picture for this name.
pub fn has_art(name: &str) -> bool {
    art_parts(name).is_some()
}

/// The name without Fleap's " (promoted)".
pub fn base_name(name: &str) -> &str {
    name.strip_suffix(" (promoted)").unwrap_or(name)
}

/// The side class of a piece: `pa-r` for a side named Red, `pa-n` for
/// nobody's, else `pa-w` or `pa-b` by colour.
pub fn side_class(side_name: &str, black: bool, neutral: bool) -> &'static str {
    if neutral {
        "pa-n"
    } else if side_name.eq_ignore_ascii_case("red") {
        "pa-r"
    } else if black {
        "pa-b"
    } else {
        "pa-w"
    }
}

/// The id of a piece's symbol in a board's `<defs>`.
pub fn symbol_id(name: &str) -> String {
    let mut id = String::new();
    push_symbol_id(&mut id, name);
    id
}

/// [`symbol_id`], written onto `out`.
fn push_symbol_id(out: &mut String, name: &str) {
    out.push_str("pa-");
    for c in base_name(name).chars() {
        match c {
            'a'..='z' | '0'..='9' => out.push(c),
            'A'..='Z' => out.push(c.to_ascii_lowercase()),
            _ => out.push('-'),
        }
    }
}

/// `<defs>` with one `<symbol>` per known name (each once).
pub fn defs<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    // A board names most kinds many times: each name is looked at once, and
    // two names may share a picture (a promoted piece and its base).
    let mut names_seen: Vec<&str> = Vec::new();
    let mut ids: Vec<String> = Vec::new();
    let mut out = String::with_capacity(4096);
    out.push_str("<defs>");
    for name in names {
        if names_seen.contains(&name) {
            continue;
        }
        names_seen.push(name);
        let Some((a, b)) = art_parts(name) else {
            continue;
        };
        let id = symbol_id(name);
        if ids.contains(&id) {
            continue;
        }
        out.push_str("<symbol id=\"");
        out.push_str(&id);
        out.push_str("\" viewBox=\"0 0 48 48\" overflow=\"visible\">");
        out.push_str(a);
        out.push_str(b);
        out.push_str("</symbol>");
        ids.push(id);
    }
    out.push_str("</defs>");
    out
}

/// Whether a piece is promoted (drawn with a small plus).
pub fn is_promoted(name: &str) -> bool {
    name.ends_with(" (promoted)")
}

/// A `<use>` of a piece's symbol, `size` across, centred on (cx, cy), turned
/// `rotate` degrees clockwise; `None` when the name has no picture.
pub fn use_symbol(
    name: &str,
    class: &str,
    cx: f32,
    cy: f32,
    size: f32,
    rotate: Option<i32>,
) -> Option<String> {
    let mut out = String::new();
    push_use_symbol(&mut out, name, class, cx, cy, size, rotate).then_some(out)
}

/// [`use_symbol`], written onto `out` (a board writes one per piece);
/// false, and nothing written, when the name has no picture.
pub fn push_use_symbol(
    out: &mut String,
    name: &str,
    class: &str,
    cx: f32,
    cy: f32,
    size: f32,
    rotate: Option<i32>,
) -> bool {
    if art_parts(name).is_none() {
        return false;
    }
    let (x, y) = (cx - size / 2.0, cy - size / 2.0);
    out.push_str("<use href=\"#");
    push_symbol_id(out, name);
    out.push_str("\" class=\"pa ");
    out.push_str(class);
    // Without `write!`: a board writes one per piece.
    for (attr, v) in [
        ("\" x=\"", x),
        ("\" y=\"", y),
        ("\" width=\"", size),
        ("\" height=\"", size),
    ] {
        out.push_str(attr);
        push_f1(out, v);
    }
    out.push('"');
    if let Some(r) = rotate.filter(|r| r % 360 != 0) {
        let _ = write!(out, " transform=\"rotate({r} {cx:.1} {cy:.1})\"");
    }
    out.push_str("/>");
    if is_promoted(name) {
        out.push_str(&promoted_badge(
            cx + size * 0.3,
            cy - size * 0.3,
            size * 0.14,
        ));
    }
    true
}

fn promoted_badge(cx: f32, cy: f32, r: f32) -> String {
    format!(
        "<g class=\"promoted\"><circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" fill=\"#fff\" stroke=\"#000\"/>\
         <path d=\"M{:.1} {cy:.1}h{:.1}M{cx:.1} {:.1}v{:.1}\" stroke=\"#000\" stroke-width=\"{:.1}\"/></g>",
        cx - r * 0.6,
        r * 1.2,
        cy - r * 0.6,
        r * 1.2,
        r * 0.35
    )
}

/// A standalone SVG picture of a piece, `size` pixels across, for legends.
pub fn picture(name: &str, class: &str, size: u32, rotate: Option<i32>) -> String {
    let body = art(name).unwrap_or_else(|| TOKEN.to_string());
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"piece-pic\" viewBox=\"-2 -2 52 52\" width=\"{size}\" height=\"{size}\" aria-hidden=\"true\"><style>{STYLE}</style><g class=\"pa {class}\""
    );
    if let Some(r) = rotate.filter(|r| r % 360 != 0) {
        let _ = write!(out, " transform=\"rotate({r} 24 24)\"");
    }
    out.push('>');
    out.push_str(&body);
    out.push_str("</g>");
    if is_promoted(name) {
        out.push_str(&promoted_badge(40.0, 8.0, 7.0));
    }
    out.push_str("</svg>");
    out
}

/// The board's extra style: the side classes and the state marks.
pub const BOARD_STYLE: &str = concat!(
    "<style>",
    side_css!(),
    "svg.board .lion{fill:none;stroke:#ffb300;stroke-width:4px}\
svg.board .lion-edge{fill:none;stroke:#000;stroke-width:1px}\
svg.board .crater{fill:#2b211b}svg.board .burst{fill:#6b5a4e}\
svg.board .trap-band{fill:none;stroke:#000;stroke-width:3px;stroke-dasharray:5 4}\
svg.board .trap-label{font-size:10px;font-weight:bold;fill:#fff;text-anchor:middle}\
svg.board .trap-pill{fill:#000}\
svg.board .count{font-size:15px;font-weight:bold;fill:#000}\
</style>"
);

/// The drawing of a square's mark (`lionized`, `trap`) for a square at
/// (x, y), `sq` across; `None` for a mark drawn as its text.
pub fn mark(label: &str, x: i32, y: i32, sq: i32) -> Option<String> {
    let (cx, cy) = (x as f32 + sq as f32 / 2.0, y as f32 + sq as f32 / 2.0);
    match label {
        "lionized" => {
            let r = sq as f32 * 0.45;
            Some(format!(
                "<g class=\"lionized\"><circle class=\"lion\" cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\"/>\
                 <circle class=\"lion-edge\" cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{:.1}\"/></g>",
                r + 2.5
            ))
        }
        "trap" => Some(format!(
            "<g class=\"trap\"><rect class=\"trap-band\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\
             <rect class=\"trap-pill\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"13\" rx=\"3\"/>\
             <text class=\"trap-label\" x=\"{cx:.1}\" y=\"{}\">TRAP</text></g>",
            x + 2,
            y + 2,
            sq - 4,
            sq - 4,
            x + 6,
            y + sq - 15,
            sq - 12,
            y + sq - 5
        )),
        _ => None,
    }
}

/// A crater: the square drawn burnt, where a hole in the board is not
/// drawn at all.
pub fn crater(x: i32, y: i32, sq: i32, name: &str) -> String {
    let (cx, cy) = (x as f32 + sq as f32 / 2.0, y as f32 + sq as f32 / 2.0);
    let mut burst = String::new();
    for i in 0..8 {
        let a = i as f32 * std::f32::consts::PI / 4.0;
        let (r1, r2) = (
            sq as f32 * 0.12,
            sq as f32 * if i % 2 == 0 { 0.4 } else { 0.28 },
        );
        let _ = write!(
            burst,
            "{}{:.1} {:.1}L{:.1} {:.1}",
            if i == 0 { "M" } else { "L" },
            cx + r1 * (a - 0.3).cos(),
            cy + r1 * (a - 0.3).sin(),
            cx + r2 * a.cos(),
            cy + r2 * a.sin()
        );
    }
    format!(
        "<g class=\"sq crater-sq\" data-crater=\"{name}\"><title>Crater</title><rect class=\"crater\" x=\"{x}\" y=\"{y}\" width=\"{sq}\" height=\"{sq}\"/>\
         <path class=\"burst\" d=\"{burst}Z\"/></g>"
    )
}

/// How far a picture turns: a Spear by the direction it points, a Lance
/// (drawn pointing up) to its owner's forward; `None` for no turn.
pub fn turn(name: &str, black: bool, flipped: bool, direction: Option<i16>) -> Option<i32> {
    match direction {
        Some(d) => Some(d as i32 + if flipped { 180 } else { 0 }),
        None if base_name(name) == "Lance" && black != flipped => Some(180),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every piece of every variant has a picture of its own: a standard
    /// one by its name, or one drawn from its movement; two pieces of a
    /// variant never look alike, nor do two standard pictures.
    #[test]
    fn every_piece_has_a_picture() {
        let mut bodies: Vec<(String, String)> = Vec::new();
        for v in missive_rules::variants() {
            let mut own: Vec<(String, String)> = Vec::new();
            for t in missive_rules::diagram::piece_types(*v) {
                let name = t.label.name.clone();
                let body = match art(&name) {
                    Some(body) => {
                        if let Some((other, _)) =
                            bodies.iter().find(|(n, b)| *b == body && *n != name)
                        {
                            panic!("{name} and {other} share a picture");
                        }
                        bodies.push((name.clone(), body.clone()));
                        body
                    }
                    None => super::super::movement_art::for_piece(*v, &name)
                        .unwrap_or_else(|| panic!("{}: no picture for {name}", v.id()))
                        .to_string(),
                };
                if let Some((other, _)) = own.iter().find(|(_, b)| *b == body) {
                    panic!("{}: {name} and {other} look alike", v.id());
                }
                own.push((name, body));
            }
        }
        assert!(art("Nuke").is_some());
        assert!(art("Queen (promoted)").is_some());
        assert!(art("Xiphos").is_none());
    }

    #[test]
    fn symbols_are_defined_once_and_used_by_id() {
        let d = defs(["Knight", "Knight", "Hot Horse", "Xiphos"]);
        assert_eq!(d.matches("<symbol").count(), 2);
        assert!(d.contains("id=\"pa-hot-horse\""));
        let u = use_symbol("Spear", "pa-b", 24.0, 24.0, 48.0, Some(180)).unwrap();
        assert_eq!(
            u,
            "<use href=\"#pa-spear\" class=\"pa pa-b\" x=\"0.0\" y=\"0.0\" width=\"48.0\" \
             height=\"48.0\" transform=\"rotate(180 24.0 24.0)\"/>"
        );
        let q = use_symbol("Queen (promoted)", "pa-w", 30.5, 10.25, 44.16, None).unwrap();
        assert!(
            q.starts_with(
                "<use href=\"#pa-queen\" class=\"pa pa-w\" x=\"8.4\" y=\"-11.8\" \
                 width=\"44.2\" height=\"44.2\"/><g class=\"promoted\">"
            ),
            "{q}"
        );
        assert!(use_symbol("Xiphos", "pa-w", 0.0, 0.0, 1.0, None).is_none());
        assert_eq!(side_class("Red", false, false), "pa-r");
        assert_eq!(side_class("Black", true, false), "pa-b");
        assert_eq!(side_class("White", false, false), "pa-w");
    }
}
