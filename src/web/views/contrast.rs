//! WCAG 2 contrast, for the tests that check colours in stylesheets: the
//! board's and pieces' (`board_svg_tests.rs`) and the pages' text (below).

/// `#rrggbb` after `key` in `css`.
pub fn colour(css: &str, key: &str) -> [u8; 3] {
    let at = css.find(key).unwrap_or_else(|| panic!("{key}")) + key.len();
    let hex = css[at..]
        .strip_prefix('#')
        .unwrap_or_else(|| panic!("{key}"));
    let n = hex.chars().take_while(char::is_ascii_hexdigit).count();
    let digit = |i: usize, w: usize| u8::from_str_radix(&hex[i * w..i * w + w], 16).unwrap();
    match n {
        // #abc is #aabbcc.
        3 => [0, 1, 2].map(|i| digit(i, 1) * 17),
        6 => [0, 1, 2].map(|i| digit(i, 2)),
        _ => panic!("{key}: #{hex}"),
    }
}

/// WCAG 2 relative luminance.
pub fn luminance(c: [u8; 3]) -> f64 {
    let lin = |v: u8| {
        let v = v as f64 / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
}

/// WCAG 2 contrast ratio.
pub fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// The stylesheet's palettes: the light one (`:root`) and the dark one
/// (`:root` inside `prefers-color-scheme: dark`), each as its custom
/// properties and their `#rrggbb` values.
fn palettes(css: &str) -> [Vec<(String, [u8; 3])>; 2] {
    let block = |from: usize| {
        let start = css[from..].find(":root {").expect(":root") + from;
        let end = css[start..].find('}').expect("}") + start;
        css[start..end]
            .lines()
            .filter_map(|l| {
                let l = l.trim();
                let (name, value) = l.strip_prefix("--")?.split_once(':')?;
                let value = value.trim().trim_end_matches(';');
                value
                    .starts_with('#')
                    .then(|| (name.to_string(), colour(value, "")))
            })
            .collect::<Vec<_>>()
    };
    let dark = css
        .find("@media (prefers-color-scheme: dark)")
        .expect("a dark scheme");
    [block(0), block(dark)]
}

/// The stylesheet's text colours are at least 4.5:1 (WCAG AA) against what
/// they are written on, in the light scheme and in the dark one: body
/// text, links, muted text (move numbers, form hints, the footer), buttons,
/// the header, errors and warnings, notices, flags, the current ply, move
/// comments, and the board's coordinates on its frame.
#[test]
fn page_text_is_at_least_4_5_to_1() {
    let css = include_str!("../../../static/style.css");
    // Each text colour and the backgrounds it is written on.
    let pairs: [(&str, &[&str]); 12] = [
        ("text", &["bg", "surface", "notice-bg", "current-bg"]),
        ("link", &["bg", "surface", "notice-bg"]),
        ("muted", &["bg", "surface"]),
        ("on-accent", &["accent"]),
        ("on-danger", &["danger"]),
        ("header-text", &["header-bg"]),
        ("error-text", &["error-bg", "bg"]),
        ("flag-text", &["flag-bg"]),
        ("comment", &["bg", "surface"]),
        ("board-coord", &["board-frame"]),
        ("focus", &["bg"]),
        ("notice-edge", &["bg"]),
    ];
    for (scheme, palette) in ["light", "dark"].iter().zip(palettes(css)) {
        let get = |name: &str| {
            palette
                .iter()
                .find(|(n, _)| n == name)
                .unwrap_or_else(|| panic!("{scheme}: no --{name}"))
                .1
        };
        for (fg, backgrounds) in pairs {
            for bg in backgrounds {
                let c = contrast(get(fg), get(bg));
                assert!(c >= 4.5, "{scheme}: --{fg} on --{bg} is {c:.2}:1");
            }
        }
        // The dark scheme defines every colour the light one does.
        assert_eq!(palette.len(), palettes(css)[0].len(), "{scheme}");
    }
}
