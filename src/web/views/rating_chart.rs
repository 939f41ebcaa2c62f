//! A player's rating history in one variant, drawn as an SVG line chart on
//! the server (no script): one point per rated game, starting from the
//! newcomer's 1500, with labelled grid lines. Colours come from the page's
//! stylesheet (`.rating-chart`), so the dark scheme applies.

use crate::db::ratings::Point;
use crate::domain::rating::Rating;
use std::fmt::Write;

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 220.0;
/// Room for the rating labels on the left, and a margin elsewhere.
const LEFT: f64 = 48.0;
const PAD: f64 = 12.0;
/// Room below the plot for the dates of the games.
const BOTTOM: f64 = 30.0;

/// The chart for `points` (oldest first); `None` without any rated game.
/// `label` names the variant in the picture's accessible title.
pub fn chart(label: &str, points: &[Point]) -> Option<String> {
    let first = points.first()?;
    let start = Rating::default().rating;
    let values: Vec<f64> = std::iter::once(start)
        .chain(points.iter().map(|p| p.rating))
        .collect();
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let step = grid_step(hi - lo);
    let (bottom, top) = (
        (lo / step).floor() * step,
        ((hi / step).ceil() * step).max((lo / step).floor() * step + step),
    );
    let x = |i: usize| LEFT + (WIDTH - LEFT - PAD) * i as f64 / (values.len() - 1) as f64;
    let y = |v: f64| PAD + (HEIGHT - PAD - BOTTOM) * (top - v) / (top - bottom);
    let last = values[values.len() - 1];
    let mut svg = String::with_capacity(256 + values.len() * 16);
    let title = format!(
        "{label} rating history: {} rated game{}, from {} on {} to {}; lowest {}, highest {}.",
        points.len(),
        if points.len() == 1 { "" } else { "s" },
        start.round(),
        first.at.format("%Y-%m-%d"),
        last.round(),
        lo.round(),
        hi.round(),
    );
    let _ = write!(
        svg,
        r#"<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{}" preserveAspectRatio="xMidYMid meet">"#,
        crate::web::views::board_svg::escape(&title)
    );
    let mut v = bottom;
    while v <= top + 1e-9 {
        let gy = y(v);
        let _ = write!(
            svg,
            r#"<line class="grid" x1="{LEFT}" y1="{gy:.1}" x2="{:.1}" y2="{gy:.1}"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            WIDTH - PAD,
            LEFT - 6.0,
            gy + 4.0,
            v.round()
        );
        v += step;
    }
    // Dates along the bottom: the first and the last rated game's, and
    // some between (points are spaced by game, not by time, so each date
    // sits under its own game). The first value is the start, no game.
    let n = points.len();
    let mut dated: Vec<usize> = vec![0, n / 3, 2 * n / 3, n - 1];
    dated.dedup();
    if n < 6 {
        dated.retain(|&i| i == 0 || i == n - 1);
    }
    for (k, &i) in dated.iter().enumerate() {
        let anchor = if dated.len() > 1 && k == dated.len() - 1 {
            "end"
        } else if k == 0 {
            "start"
        } else {
            "middle"
        };
        let gx = x(i + 1);
        let _ = write!(
            svg,
            r#"<line class="tick" x1="{gx:.1}" y1="{:.1}" x2="{gx:.1}" y2="{:.1}"/><text class="date" x="{gx:.1}" y="{:.1}" text-anchor="{anchor}">{}</text>"#,
            HEIGHT - BOTTOM,
            HEIGHT - BOTTOM + 5.0,
            HEIGHT - BOTTOM + 19.0,
            points[i].at.format("%Y-%m-%d")
        );
    }
    if values.len() == 2 {
        // One game: the step from the start, with both ends marked.
        for (i, value) in values.iter().enumerate() {
            let _ = write!(
                svg,
                r#"<circle class="point" cx="{:.1}" cy="{:.1}" r="4"/>"#,
                x(i),
                y(*value)
            );
        }
    }
    svg.push_str(r#"<polyline class="line" fill="none" points=""#);
    for (i, value) in values.iter().enumerate() {
        let _ = write!(svg, "{:.1},{:.1} ", x(i), y(*value));
    }
    svg.push_str(r#""/></svg>"#);
    Some(svg)
}

/// Grid lines every 25, 50, 100, 200 or 500 points: at most about six.
fn grid_step(span: f64) -> f64 {
    [25.0, 50.0, 100.0, 200.0, 500.0]
        .into_iter()
        .find(|s| span / s <= 6.0)
        .unwrap_or(1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(ratings: &[f64]) -> Vec<Point> {
        let t0 = chrono::DateTime::from_timestamp(1_800_000_000, 0)
            .unwrap()
            .naive_utc();
        ratings
            .iter()
            .enumerate()
            .map(|(i, r)| Point {
                at: t0 + chrono::TimeDelta::days(i as i64),
                rating: *r,
                deviation: 100.0,
            })
            .collect()
    }

    fn polyline_points(svg: &str) -> usize {
        let (_, rest) = svg
            .split_once(r#"<polyline class="line" fill="none" points=""#)
            .unwrap();
        rest.split('"').next().unwrap().split_whitespace().count()
    }

    #[test]
    fn no_games_no_chart() {
        assert_eq!(chart("Chess", &[]), None);
    }

    #[test]
    fn one_game_is_a_marked_step_from_the_start() {
        let svg = chart("Chess", &points(&[1662.3])).unwrap();
        assert_eq!(polyline_points(&svg), 2);
        assert_eq!(svg.matches("<circle").count(), 2);
        assert!(svg.contains("1 rated game, from 1500"), "{svg}");
        assert!(svg.contains("to 1662"), "{svg}");
    }

    #[test]
    fn three_hundred_games_stay_inside_the_picture() {
        let ratings: Vec<f64> = (0..300)
            .map(|i| 1500.0 + 400.0 * ((i as f64) / 20.0).sin())
            .collect();
        let svg = chart("Leap Chess <64>", &points(&ratings)).unwrap();
        assert_eq!(polyline_points(&svg), 301);
        assert!(
            svg.contains("Leap Chess &lt;64&gt; rating history: 300 rated games"),
            "{svg}"
        );
        let (_, rest) = svg.split_once("points=\"").unwrap();
        for pair in rest.split('"').next().unwrap().split_whitespace() {
            let (x, y) = pair.split_once(',').unwrap();
            let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
            assert!(
                (0.0..=WIDTH).contains(&x) && (0.0..=HEIGHT).contains(&y),
                "{pair}"
            );
        }
        // Dated: the first game's day, the last one's, and two between.
        for day in ["2027-01-15", "2027-04-25", "2027-08-03", "2027-11-10"] {
            assert!(svg.contains(&format!(">{day}</text>")), "{day}: {svg}");
        }
        // Grid lines at a readable step: 1000 to 2000 by 200.
        assert_eq!(svg.matches(r#"class="grid""#).count(), 6, "{svg}");
        assert!(
            svg.contains(">1000</text>") && svg.contains(">2000</text>"),
            "{svg}"
        );
    }
}
