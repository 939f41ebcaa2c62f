//! FIDE's Tournament Report File: TRF-2026 (and the older TRF16 with the
//! JaVaFo/bbpPairings extensions `XXR` total rounds and `XXC` initial
//! colour), read and written. Pure text in, plain data out; a malformed
//! file is an error naming its line, never a panic.
//!
//! Only what pairing and rating reports need is kept: the tournament's
//! name, dates, number of rounds and initial colour, and each player's
//! fixed fields and round entries. Other records are skipped.

use chrono::NaiveDate;
use missive_rules::Color;

/// One tournament as a TRF file describes it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trf {
    pub name: String,
    pub city: String,
    pub start: Option<NaiveDate>,
    pub end: Option<NaiveDate>,
    /// Record 142 (TRF-2026) or `XXR` (TRF16 extension).
    pub total_rounds: Option<u32>,
    /// Record 152 (TRF-2026) or `XXC white1/black1`.
    pub initial_colour: Option<Color>,
    /// Record 132, per round.
    pub round_dates: Vec<Option<NaiveDate>>,
    pub players: Vec<TrfPlayer>,
}

/// A `001` record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrfPlayer {
    /// Starting-rank (pairing) number, 1..=9999.
    pub number: u32,
    pub sex: String,
    pub title: String,
    pub name: String,
    pub rating: u32,
    pub federation: String,
    pub fide_id: Option<u64>,
    pub birth: String,
    /// Points times two, as the file states them.
    pub points2: u32,
    pub rank: u32,
    /// Round entries, round 1 first; rounds without an entry (blank) are `None`.
    pub rounds: Vec<Option<RoundEntry>>,
}

/// One round of a player: opponent (none for a bye or absence), colour and result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundEntry {
    pub opponent: Option<u32>,
    pub colour: Option<Color>,
    pub result: TrfResult,
}

/// The result column (TRF-2026 table; letters case-insensitive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrfResult {
    ForfeitLoss,
    ForfeitWin,
    UnratedWin,
    UnratedDraw,
    UnratedLoss,
    Win,
    Draw,
    Loss,
    HalfBye,
    FullBye,
    PairingBye,
    ZeroBye,
    /// Blank: a scheduled game not yet played, or (without opponent) an absence.
    Pending,
}

impl TrfResult {
    fn from_char(c: char) -> Option<Self> {
        Some(match c.to_ascii_uppercase() {
            '-' => Self::ForfeitLoss,
            '+' => Self::ForfeitWin,
            'W' => Self::UnratedWin,
            'D' => Self::UnratedDraw,
            'L' => Self::UnratedLoss,
            '1' => Self::Win,
            '=' => Self::Draw,
            '0' => Self::Loss,
            'H' => Self::HalfBye,
            'F' => Self::FullBye,
            'U' => Self::PairingBye,
            'Z' => Self::ZeroBye,
            ' ' => Self::Pending,
            _ => return None,
        })
    }

    pub fn to_char(self) -> char {
        match self {
            Self::ForfeitLoss => '-',
            Self::ForfeitWin => '+',
            Self::UnratedWin => 'W',
            Self::UnratedDraw => 'D',
            Self::UnratedLoss => 'L',
            Self::Win => '1',
            Self::Draw => '=',
            Self::Loss => '0',
            Self::HalfBye => 'H',
            Self::FullBye => 'F',
            Self::PairingBye => 'U',
            Self::ZeroBye => 'Z',
            Self::Pending => ' ',
        }
    }

    /// Points times two under the default scoring (record 162 absent).
    pub fn points2(self) -> u32 {
        match self {
            Self::ForfeitWin | Self::UnratedWin | Self::Win | Self::FullBye | Self::PairingBye => 2,
            Self::UnratedDraw | Self::Draw | Self::HalfBye => 1,
            _ => 0,
        }
    }

    /// A game over the board (counts for colours and floats).
    pub fn played(self) -> bool {
        matches!(
            self,
            Self::Win
                | Self::Draw
                | Self::Loss
                | Self::UnratedWin
                | Self::UnratedDraw
                | Self::UnratedLoss
        )
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("line {line}: {message}")]
pub struct TrfError {
    pub line: usize,
    pub message: String,
}

fn err(line: usize, message: impl Into<String>) -> TrfError {
    TrfError {
        line,
        message: message.into(),
    }
}

/// Largest starting number and number of rounds read, so that a hostile
/// file cannot make the reader (or the pairing after it) do unbounded work.
pub const MAX_PLAYERS: u32 = 9999;
pub const MAX_ROUNDS: usize = 99;

/// Characters `from..to` (1-based, inclusive, as the FIDE tables count) of `line`, trimmed.
fn field(chars: &[char], from: usize, to: usize) -> String {
    let to = to.min(chars.len());
    if from > to {
        return String::new();
    }
    chars[from - 1..to]
        .iter()
        .collect::<String>()
        .trim()
        .to_string()
}

fn parse_date(s: &str) -> Option<NaiveDate> {
    let s = s.trim();
    NaiveDate::parse_from_str(s, "%Y/%m/%d")
        .or_else(|_| NaiveDate::parse_from_str(s, "%y/%m/%d"))
        .or_else(|_| NaiveDate::parse_from_str(s, "%Y-%m-%d"))
        .ok()
}

fn parse_points2(s: &str, line: usize) -> Result<u32, TrfError> {
    if s.is_empty() {
        return Ok(0);
    }
    let bad = || err(line, format!("points {s:?} are not a number like 11.5"));
    let (whole, frac) = s.split_once('.').unwrap_or((s, "0"));
    let whole: u32 = whole.parse().map_err(|_| bad())?;
    let half = match frac.trim_end_matches('0') {
        "" => 0,
        "5" => 1,
        _ => return Err(bad()),
    };
    whole.checked_mul(2).map(|w| w + half).ok_or_else(bad)
}

/// Read a TRF file.
pub fn parse(text: &str) -> Result<Trf, TrfError> {
    let mut trf = Trf::default();
    let mut player_lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim_end_matches('\r').replace('\t', " ");
        if line.trim().is_empty() || line.starts_with("###") {
            continue;
        }
        let chars: Vec<char> = line.chars().collect();
        let tag: String = chars.iter().take(3).collect();
        let rest = field(&chars, 5, chars.len());
        match tag.as_str() {
            "001" => {
                trf.players.push(parse_player(&chars, n)?);
                player_lines.push(n);
            }
            "012" => trf.name = rest,
            "022" => trf.city = rest,
            "042" => trf.start = parse_date(&rest),
            "052" => trf.end = parse_date(&rest),
            "132" => trf.round_dates = parse_round_dates(&chars),
            "142" | "XXR" => {
                let r: usize = rest
                    .parse()
                    .ok()
                    .filter(|&r| (1..=MAX_ROUNDS).contains(&r))
                    .ok_or_else(|| {
                        err(
                            n,
                            format!("number of rounds {rest:?} is not 1 to {MAX_ROUNDS}"),
                        )
                    })?;
                trf.total_rounds = Some(r as u32);
            }
            "152" => {
                trf.initial_colour = Some(match rest.to_ascii_uppercase().as_str() {
                    "W" => Color::White,
                    "B" => Color::Black,
                    _ => return Err(err(n, format!("initial colour {rest:?} is not W or B"))),
                })
            }
            "XXC" => {
                for word in rest.split_whitespace() {
                    match word {
                        "white1" => trf.initial_colour = Some(Color::White),
                        "black1" => trf.initial_colour = Some(Color::Black),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    check(&trf, &player_lines)?;
    Ok(trf)
}

fn parse_round_dates(chars: &[char]) -> Vec<Option<NaiveDate>> {
    let mut dates = Vec::new();
    let mut from = 92;
    while from <= chars.len() && dates.len() < MAX_ROUNDS {
        dates.push(parse_date(&field(chars, from, from + 7)));
        from += 10;
    }
    while dates.last() == Some(&None) {
        dates.pop();
    }
    dates
}

fn parse_player(chars: &[char], n: usize) -> Result<TrfPlayer, TrfError> {
    let number_text = field(chars, 5, 8);
    let number: u32 = number_text
        .parse()
        .ok()
        .filter(|&x| (1..=MAX_PLAYERS).contains(&x))
        .ok_or_else(|| {
            err(
                n,
                format!("starting number {number_text:?} (columns 5-8) is not 1 to {MAX_PLAYERS}"),
            )
        })?;
    let rating_text = field(chars, 49, 52);
    let rating = if rating_text.is_empty() {
        0
    } else {
        rating_text.parse().map_err(|_| {
            err(
                n,
                format!("rating {rating_text:?} (columns 49-52) is not a number"),
            )
        })?
    };
    let id_text = field(chars, 58, 68);
    let fide_id = if id_text.is_empty() {
        None
    } else {
        Some(id_text.parse().map_err(|_| {
            err(
                n,
                format!("FIDE number {id_text:?} (columns 58-68) is not a number"),
            )
        })?)
    };
    let rank_text = field(chars, 86, 89);
    let rank = rank_text.parse().unwrap_or(0);
    let mut rounds = Vec::new();
    let mut from = 92;
    while from <= chars.len() {
        if rounds.len() >= MAX_ROUNDS {
            return Err(err(n, format!("more than {MAX_ROUNDS} rounds")));
        }
        let round = rounds.len() + 1;
        let at = |col: usize| chars.get(col - 1).copied().unwrap_or(' ');
        let opp_text = field(chars, from, from + 3);
        let colour_c = at(from + 5);
        let result_c = at(from + 7);
        let block_cols = from..=(from + 9).min(chars.len());
        let extra = block_cols
            .filter(|&c| ![from, from + 1, from + 2, from + 3, from + 5, from + 7].contains(&c))
            .any(|c| at(c) != ' ');
        if extra {
            return Err(err(
                n,
                format!("round {round} (columns {from}-{}): text outside the opponent, colour and result columns", from + 9),
            ));
        }
        let opponent = if opp_text.is_empty() {
            None
        } else {
            let o: u32 = opp_text.parse().map_err(|_| {
                err(
                    n,
                    format!(
                        "round {round}: opponent {opp_text:?} (columns {from}-{}) is not a number",
                        from + 3
                    ),
                )
            })?;
            (o != 0).then_some(o)
        };
        let colour = match colour_c.to_ascii_lowercase() {
            'w' => Some(Color::White),
            'b' => Some(Color::Black),
            '-' | ' ' => None,
            c => {
                return Err(err(
                    n,
                    format!(
                        "round {round}: colour {c:?} (column {}) is not w, b or -",
                        from + 5
                    ),
                ))
            }
        };
        let result = TrfResult::from_char(result_c).ok_or_else(|| {
            err(
                n,
                format!(
                    "round {round}: result {result_c:?} (column {}) is not a TRF result code",
                    from + 7
                ),
            )
        })?;
        let entry = if opponent.is_none() && colour.is_none() && result == TrfResult::Pending {
            None
        } else {
            if opponent.is_some() && colour.is_none() {
                return Err(err(
                    n,
                    format!(
                        "round {round}: a game against {} without colour w or b",
                        opponent.unwrap_or(0)
                    ),
                ));
            }
            if opponent.is_none() && result.played() {
                return Err(err(
                    n,
                    format!("round {round}: a game result without an opponent"),
                ));
            }
            if opponent == Some(number) {
                return Err(err(
                    n,
                    format!("round {round}: player {number} is paired against themselves"),
                ));
            }
            Some(RoundEntry {
                opponent,
                colour: if opponent.is_some() { colour } else { None },
                result,
            })
        };
        rounds.push(entry);
        from += 10;
    }
    while rounds.last() == Some(&None) {
        rounds.pop();
    }
    Ok(TrfPlayer {
        number,
        sex: field(chars, 10, 10),
        title: field(chars, 11, 13),
        name: field(chars, 15, 47),
        rating,
        federation: field(chars, 54, 56),
        fide_id,
        birth: field(chars, 70, 79),
        points2: parse_points2(&field(chars, 81, 84), n)?,
        rank,
        rounds,
    })
}

/// Cross-record checks: numbers unique, opponents exist and agree on both sides.
fn check(trf: &Trf, lines: &[usize]) -> Result<(), TrfError> {
    let mut by_number = std::collections::HashMap::new();
    for (i, p) in trf.players.iter().enumerate() {
        if by_number.insert(p.number, i).is_some() {
            return Err(err(
                lines[i],
                format!("starting number {} is used twice", p.number),
            ));
        }
    }
    for (i, p) in trf.players.iter().enumerate() {
        for (r, e) in p.rounds.iter().enumerate() {
            let Some(RoundEntry {
                opponent: Some(o),
                colour,
                ..
            }) = e
            else {
                continue;
            };
            let Some(&j) = by_number.get(o) else {
                return Err(err(
                    lines[i],
                    format!(
                        "player {} meets {o} in round {}, who is not listed",
                        p.number,
                        r + 1
                    ),
                ));
            };
            let mirror = trf.players[j].rounds.get(r).copied().flatten();
            let agrees = mirror.is_some_and(|m| {
                m.opponent == Some(p.number) && m.colour.is_some() && m.colour != *colour
            });
            if !agrees {
                return Err(err(lines[i], format!("round {}: player {} meets {o}, but {o}'s entry does not say so with the other colour", r + 1, p.number)));
            }
        }
    }
    Ok(())
}

mod write;
pub use write::write;

#[cfg(test)]
mod tests {
    use super::*;

    /// A `001` line: fixed fields padded to column 91, then `rounds` from column 92.
    fn player(number: u32, name: &str, rating: u32, points: &str, rounds: &str) -> String {
        let fixed = format!(
            "001 {number:>4}      {name:<33} {rating:>4}{:27}{points:>4} {number:>4}",
            ""
        );
        format!("{fixed:<91}{rounds}\n")
    }

    fn sample() -> String {
        format!(
            "012 Test Open\nXXR 5\nXXC white1\n{}{}",
            player(1, "Alpha", 2100, "1.5", "   2 w 1  0000 - H"),
            player(2, "Beta", 2000, "0.0", "   1 b 0  ")
        )
    }

    #[test]
    fn reads_the_old_extension_and_the_player_lines() {
        let t = parse(&sample()).unwrap();
        assert_eq!(t.total_rounds, Some(5));
        assert_eq!(t.initial_colour, Some(Color::White));
        assert_eq!(t.players.len(), 2);
        assert_eq!(t.players[0].rating, 2100);
        assert_eq!(t.players[0].points2, 3);
        assert_eq!(
            t.players[0].rounds,
            vec![
                Some(RoundEntry {
                    opponent: Some(2),
                    colour: Some(Color::White),
                    result: TrfResult::Win
                }),
                Some(RoundEntry {
                    opponent: None,
                    colour: None,
                    result: TrfResult::HalfBye
                }),
            ]
        );
    }

    #[test]
    fn writes_what_it_reads() {
        let t = parse(&sample()).unwrap();
        let again = parse(&write(&t)).unwrap();
        assert_eq!(again.players, t.players);
        assert_eq!(again.total_rounds, t.total_rounds);
        assert_eq!(again.initial_colour, t.initial_colour);
    }

    #[test]
    fn malformed_lines_name_their_line() {
        let bad = "012 X\n001   x1 Alpha\n";
        assert_eq!(parse(bad).unwrap_err().line, 2);
        let bad = format!("012 X\n\n{}", player(1, "Alpha", 2100, "1.0", "   2 q 1"));
        let e = parse(&bad).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("colour"), "{e}");
        let bad = "012 X\nXXR many\n";
        assert_eq!(parse(bad).unwrap_err().line, 2);
    }

    #[test]
    fn opponents_must_agree() {
        let one_sided =
            player(1, "Alpha", 2100, "1.0", "   2 w 1") + &player(2, "Beta", 2000, "0.0", "");
        assert!(parse(&one_sided)
            .unwrap_err()
            .message
            .contains("does not say so"));
    }
}
