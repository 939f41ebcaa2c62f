//! Pictures of pieces that have no standard one ([`piece_art`] knows
//! pieces by name): drawn from how the piece moves, as the engine's own
//! movement diagram says ([`missive_rules::diagram`]), in the legend's
//! style: a square token, the piece's square outlined in its middle, a dot
//! for each square within three steps it moves and captures on, a ring
//! where it only moves, a cross where it only captures. A slider's lines
//! of dots run to the token's edge. So a definition's new piece (Capablanca's
//! Archbishop, a `customPiece`) is drawn without a code change, and two
//! pieces that move differently never look alike.
//!
//! [`piece_art`]: super::piece_art

use missive_rules::diagram::{self, Diagram};
use missive_rules::{Square, Variant};
use std::collections::HashMap;
use std::fmt::Write;
use std::sync::{Arc, Mutex, OnceLock};

/// Squares from the centre the picture shows in each direction.
const REACH: i16 = 3;
/// Pixels per square in the 48x48 box.
const STEP: f32 = 5.2;

/// The picture's body for a diagram (48x48, side colours from the class).
pub fn body(d: &Diagram) -> String {
    let mut out = String::from("<rect x=\"5\" y=\"5\" width=\"38\" height=\"38\" rx=\"7\"/>");
    out.push_str("<rect x=\"21.4\" y=\"21.4\" width=\"5.2\" height=\"5.2\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.4\"/>");
    let (cf, cr) = (d.centre.file() as i16, d.centre.rank() as i16);
    let mut dots = String::new();
    let mut rings = String::new();
    let mut crosses = String::new();
    for dy in -REACH..=REACH {
        for dx in -REACH..=REACH {
            if (dx, dy) == (0, 0) {
                continue;
            }
            let (f, r) = (cf + dx, cr + dy);
            if f < 0 || r < 0 || f >= d.width as i16 || r >= d.height as i16 {
                continue;
            }
            let sq = Square::new(f as u8, r as u8);
            let (x, y) = (24.0 + dx as f32 * STEP, 24.0 - dy as f32 * STEP);
            match (d.moves.contains(&sq), d.captures.contains(&sq)) {
                (true, true) => {
                    let _ = write!(dots, "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"2\"/>");
                }
                (true, false) => {
                    let _ = write!(rings, "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"1.5\"/>");
                }
                (false, true) => {
                    let _ = write!(
                        crosses,
                        "<path d=\"M{:.1} {:.1}l3.6 3.6m0-3.6l-3.6 3.6\"/>",
                        x - 1.8,
                        y - 1.8
                    );
                }
                (false, false) => {}
            }
        }
    }
    if !dots.is_empty() {
        let _ = write!(out, "<g fill=\"currentColor\" stroke=\"none\">{dots}</g>");
    }
    if !rings.is_empty() {
        let _ = write!(
            out,
            "<g fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.1\">{rings}</g>"
        );
    }
    if !crosses.is_empty() {
        let _ = write!(
            out,
            "<g fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.3\">{crosses}</g>"
        );
    }
    if !d.screens.is_empty() {
        // A hopper: the hurdle it needs, as a small filled square.
        out.push_str("<rect x=\"22.6\" y=\"15.6\" width=\"2.8\" height=\"2.8\" fill=\"currentColor\" stroke=\"none\" transform=\"rotate(45 24 17)\"/>");
    }
    out
}

type Key = (&'static str, String);

fn cache() -> &'static Mutex<HashMap<Key, Option<Arc<str>>>> {
    static CACHE: OnceLock<Mutex<HashMap<Key, Option<Arc<str>>>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The movement picture of the piece called `name` in `variant` (worked
/// out once per variant and name), or `None` for a name the variant does
/// not define.
pub fn for_piece(variant: &dyn Variant, name: &str) -> Option<Arc<str>> {
    let key = (variant.id(), name.to_string());
    if let Some(hit) = cache().lock().unwrap().get(&key) {
        return hit.clone();
    }
    let drawn = diagram::piece_types(variant)
        .into_iter()
        .find(|t| t.label.name == name)
        .map(|t| match diagram::movement_diagram(variant, t.kind) {
            Some(d) => body(&d).into(),
            // Nobody's piece: the token alone, its square marked.
            None => "<rect x=\"5\" y=\"5\" width=\"38\" height=\"38\" rx=\"7\"/>".into(),
        });
    cache().lock().unwrap().insert(key, drawn.clone());
    drawn
}

/// The id of a movement picture's symbol in a board's `<defs>`.
pub fn symbol_id(name: &str) -> String {
    let mut id = String::from("pm-");
    for c in name.chars() {
        match c {
            'a'..='z' | '0'..='9' => id.push(c),
            'A'..='Z' => id.push(c.to_ascii_lowercase()),
            _ => id.push('-'),
        }
    }
    id
}

/// `<symbol>`s for the named pieces of `variant` that have a movement
/// picture (each once).
pub fn defs<'a>(variant: &dyn Variant, names: impl IntoIterator<Item = &'a str>) -> String {
    let mut seen: Vec<&str> = Vec::new();
    let mut out = String::new();
    for name in names {
        if seen.contains(&name) {
            continue;
        }
        seen.push(name);
        if let Some(b) = for_piece(variant, name) {
            let _ = write!(
                out,
                "<symbol id=\"{}\" viewBox=\"0 0 48 48\" overflow=\"visible\">{b}</symbol>",
                symbol_id(name)
            );
        }
    }
    out
}

/// A `<use>` of the piece's movement picture, `size` across, centred on
/// (cx, cy); false, and nothing written, when it has none.
pub fn push_use(
    out: &mut String,
    variant: &dyn Variant,
    name: &str,
    class: &str,
    (cx, cy): (f32, f32),
    size: f32,
) -> bool {
    if for_piece(variant, name).is_none() {
        return false;
    }
    let _ = write!(
        out,
        "<use href=\"#{}\" class=\"pa {class}\" x=\"{:.1}\" y=\"{:.1}\" width=\"{size:.1}\" height=\"{size:.1}\"/>",
        symbol_id(name),
        cx - size / 2.0,
        cy - size / 2.0
    );
    true
}

/// A standalone picture of the piece, `size` pixels across, for legends.
pub fn picture(variant: &dyn Variant, name: &str, class: &str, size: u32) -> Option<String> {
    let b = for_piece(variant, name)?;
    Some(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"piece-pic\" viewBox=\"-2 -2 52 52\" width=\"{size}\" height=\"{size}\" aria-hidden=\"true\"><style>{}</style><g class=\"pa {class}\">{b}</g></svg>",
        super::piece_art::STYLE
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Capablanca's Archbishop moves as a Bishop and a Knight: its picture
    /// has the knight's eight leaps and the bishop's diagonals as dots,
    /// and nothing on the files and ranks.
    #[test]
    fn a_picture_shows_where_the_piece_goes() {
        let capa = missive_rules::variant("capablanca").unwrap();
        let b = for_piece(capa, "Archbishop").unwrap();
        // 8 knight leaps + 12 diagonal squares within three steps.
        assert_eq!(b.matches("r=\"2\"").count(), 20, "{b}");
        let chancellor = for_piece(capa, "Chancellor").unwrap();
        assert_ne!(b, chancellor);
        assert!(for_piece(capa, "Xiphos").is_none());
    }
}
