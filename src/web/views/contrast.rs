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

/// The stylesheet's text colours are at least 4.5:1 (WCAG AA) against what
/// they are written on: buttons, body text, the footer, muted text, move
/// numbers and form hints.
#[test]
fn page_text_is_at_least_4_5_to_1() {
    let css = include_str!("../../../static/style.css");
    // The rule that starts a line with `selector`.
    let rule = |selector: &str| {
        let line = css
            .lines()
            .find(|l| l.starts_with(selector))
            .unwrap_or_else(|| panic!("no rule {selector}"));
        line.to_string()
    };
    let page = colour(&rule("body {"), "background: ");
    let white = colour("#fff", "");
    for (what, fg, bg) in [
        (
            "buttons",
            white,
            colour(&rule(".button, button.primary {"), "background: "),
        ),
        ("text", colour(&rule("body {"), " color: "), page),
        ("the footer", colour(&rule("footer {"), "color: "), page),
        ("muted text", colour(&rule(".muted {"), "color: "), page),
        (
            "move numbers",
            colour(&rule("table.moves td.num {"), "color: "),
            page,
        ),
        (
            "form hints",
            colour(&rule("form.stack small {"), "color: "),
            page,
        ),
    ] {
        let c = contrast(fg, bg);
        assert!(c >= 4.5, "{what}: {fg:?} on {bg:?} is {c:.2}:1");
    }
}
