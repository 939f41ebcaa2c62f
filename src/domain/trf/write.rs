//! A TRF-2026 file written from plain data.

use super::Trf;
use chrono::NaiveDate;
use missive_rules::Color;
use std::fmt::Write as _;

/// Write a TRF-2026 file (records 012-152 and 001).
pub fn write(trf: &Trf) -> String {
    let mut out = String::new();
    let line = |out: &mut String, tag: &str, value: &str| {
        if !value.is_empty() {
            let _ = writeln!(out, "{tag} {value}");
        }
    };
    let date = |d: Option<NaiveDate>| {
        d.map(|d| d.format("%Y/%m/%d").to_string())
            .unwrap_or_default()
    };
    line(&mut out, "012", &one_line(&trf.name));
    line(&mut out, "022", &one_line(&trf.city));
    line(&mut out, "042", &date(trf.start));
    line(&mut out, "052", &date(trf.end));
    line(&mut out, "062", &trf.players.len().to_string());
    line(
        &mut out,
        "072",
        &trf.players
            .iter()
            .filter(|p| p.rating > 0)
            .count()
            .to_string(),
    );
    line(&mut out, "092", "Individual: Swiss-System");
    if trf.round_dates.iter().any(Option::is_some) {
        let mut l: Vec<char> = format!("{:<91}", "132").chars().collect();
        for (i, d) in trf.round_dates.iter().enumerate() {
            let text = d
                .map(|d| d.format("%y/%m/%d").to_string())
                .unwrap_or_default();
            l.extend(format!("{text:<8}").chars());
            if i + 1 < trf.round_dates.len() {
                l.extend("  ".chars());
            }
        }
        let _ = writeln!(out, "{}", l.into_iter().collect::<String>().trim_end());
    }
    if let Some(r) = trf.total_rounds {
        line(&mut out, "142", &r.to_string());
    }
    if let Some(c) = trf.initial_colour {
        line(&mut out, "152", if c == Color::White { "W" } else { "B" });
    }
    for p in &trf.players {
        let mut l = format!(
            "001 {:>4} {:1}{:>3} {:<33} {:>4} {:<3} {:>11} {:<10} {:>4} {:>4}  ",
            p.number,
            clip(&p.sex, 1),
            clip(&p.title, 3),
            clip(&one_line(&p.name), 33),
            if p.rating > 0 {
                p.rating.to_string()
            } else {
                String::new()
            },
            clip(&p.federation, 3),
            p.fide_id.map(|i| i.to_string()).unwrap_or_default(),
            clip(&p.birth, 10),
            format!(
                "{}.{}",
                p.points2 / 2,
                if p.points2 % 2 == 1 { 5 } else { 0 }
            ),
            p.rank,
        );
        for (i, e) in p.rounds.iter().enumerate() {
            let block = match e {
                None => "          ".to_string(),
                Some(e) => format!(
                    "{:>4} {} {}",
                    e.opponent
                        .map(|o| o.to_string())
                        .unwrap_or_else(|| "0000".into()),
                    match e.colour {
                        Some(Color::White) => 'w',
                        Some(Color::Black) => 'b',
                        _ => '-',
                    },
                    e.result.to_char()
                ),
            };
            l.push_str(&block);
            if i + 1 < p.rounds.len() {
                l.push_str(&" ".repeat(10 - block.chars().count()));
            }
        }
        let _ = writeln!(out, "{}", l.trim_end());
    }
    out
}

fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

fn clip(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}
