//! Reading a reply: the message's MIME structure (`mail-parser`: quoted-
//! printable, base64, charsets, HTML-only mails), the addresses that carry
//! a reply token, and the instruction in the reply's own text, apart from
//! what the mail client quoted.

use mail_parser::MessageParser;

/// What the intake needs of a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// Without its angle brackets.
    pub message_id: Option<String>,
    /// The From address, lower case.
    pub sender: Option<String>,
    /// How many addresses its To and Cc headers name. The token is read
    /// from the envelope alone (the mail server's argument): a header is
    /// whatever the sender wrote.
    pub header_recipients: usize,
    /// The text (an HTML-only mail's made into text).
    pub text: String,
}

/// The recipient headers counted against the cap on recipients.
const RECIPIENT_HEADERS: [&str; 2] = ["To", "Cc"];

/// More multipart sections than any reply has: a message with more is not
/// read (each nests a level in the MIME parser).
pub const MAX_MULTIPARTS: usize = 16;

/// How many multipart boundaries `raw` declares, counted before parsing.
fn boundaries(raw: &[u8]) -> usize {
    const NEEDLE: &[u8] = b"boundary=";
    raw.windows(NEEDLE.len())
        .filter(|w| w.eq_ignore_ascii_case(NEEDLE))
        .count()
}

/// The message, or `None` when it cannot be read as one (no headers, no
/// body, not MIME, or more than [`MAX_MULTIPARTS`] multipart sections).
pub fn read_message(raw: &[u8]) -> Option<Reply> {
    if boundaries(raw) > MAX_MULTIPARTS {
        return None;
    }
    let message = MessageParser::default().parse(raw)?;
    if message.headers().is_empty() {
        return None;
    }
    let header_recipients = message
        .headers_raw()
        .filter(|(name, _)| {
            RECIPIENT_HEADERS
                .iter()
                .any(|h| name.eq_ignore_ascii_case(h))
        })
        .map(|(_, value)| value.matches('@').count())
        .sum();
    let sender = message
        .from()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .map(|a| a.trim().to_ascii_lowercase());
    let text = message
        .body_text(0)
        .map(|t| t.into_owned())
        .unwrap_or_default();
    Some(Reply {
        message_id: message
            .message_id()
            .map(|id| id.trim().to_string())
            .filter(|id| !id.is_empty()),
        sender,
        header_recipients,
        text,
    })
}

/// What a reply asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Instruction {
    /// A move (with its `//` comment, which the move path reads), and a
    /// conditional line to keep with it, as the move form's "Add a
    /// conditional line with this move" does.
    Move {
        text: String,
        line: Option<String>,
    },
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    /// A conditional line alone: it starts with the opponent's move, so it
    /// needs a move of the player's own first (they are to move).
    LineWithoutMove(String),
}

/// Where the reply's own text ends: a signature, or Outlook's
/// "-----Original Message-----" and "From:" block above what it quotes.
fn ends_own_text(line: &str) -> bool {
    let t = line.trim();
    line.trim_end_matches(['\r', ' ']) == "--"
        || line.starts_with("-- ")
        || t.starts_with("-----Original Message-----")
        || t.starts_with("________________________________")
        || t.starts_with("From: ")
        || t.starts_with("Sent from my ")
}

/// How many lines a client's "On … wrote:" header takes here (Gmail wraps
/// a long one over two), or 0 when the line does not start one. The
/// reader may answer above it (Gmail, Apple Mail) or below the quote
/// (Thunderbird's default), so it is passed over, not taken as the end.
fn wrote_header(line: &str, next: Option<&str>) -> usize {
    let wrote = |s: &str| s.trim_end().to_lowercase().ends_with("wrote:");
    if !line.trim().to_lowercase().starts_with("on ") {
        return 0;
    }
    match (wrote(line), next.is_some_and(wrote)) {
        (true, _) => 1,
        (false, true) => 2,
        _ => 0,
    }
}

/// The lines of the reply's own text, trimmed and non-empty, before any
/// signature or quoted mail; quoted (`>`) lines and "On … wrote:" headers
/// left out.
pub fn own_lines(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if ends_own_text(line) {
            break;
        }
        let header = wrote_header(line, lines.get(i + 1).copied());
        if header > 0 {
            i += header;
            continue;
        }
        i += 1;
        let t = line.trim().trim_start_matches('\u{feff}').trim();
        if t.is_empty() || t.starts_with('>') {
            continue;
        }
        out.push(t.to_string());
    }
    out
}

/// A conditional line written `if Nf6 then Bg5 …`: the line as the
/// conditional form reads it (`Nf6 Bg5 …`), the words `if` and `then`
/// left out.
fn line_of(text: &str) -> String {
    text.split_whitespace()
        .filter(|w| !w.eq_ignore_ascii_case("if") && !w.eq_ignore_ascii_case("then"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn starts_with_if(t: &str) -> bool {
    t.split_whitespace()
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("if"))
}

/// The instruction of a reply's text: its first own line, and the line
/// after it when that is a conditional line. `None` when there is no own
/// text at all.
pub fn instruction(text: &str) -> Option<Instruction> {
    let lines = own_lines(text);
    let first = lines.first()?;
    let word = first
        .trim_end_matches(['.', '!'])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    match word.as_str() {
        "resign" => return Some(Instruction::Resign),
        "offer draw" => return Some(Instruction::OfferDraw),
        "accept draw" => return Some(Instruction::AcceptDraw),
        "decline draw" => return Some(Instruction::DeclineDraw),
        _ => {}
    }
    if starts_with_if(first) {
        return Some(Instruction::LineWithoutMove(line_of(first)));
    }
    // `e4 if Nf6 then Bg5` on one line, or the line on the next one. The
    // comment, if any, belongs to the move and may not hold a line.
    let (before_comment, comment) = match first.split_once("//") {
        Some((m, c)) => (m, Some(c)),
        None => (first.as_str(), None),
    };
    let words: Vec<&str> = before_comment.split_whitespace().collect();
    let (text, line) = match words.iter().position(|w| w.eq_ignore_ascii_case("if")) {
        Some(at) if at > 0 => {
            let mv = words[..at].join(" ");
            let mv = match comment {
                Some(c) => format!("{mv} //{c}"),
                None => mv,
            };
            (mv, Some(line_of(&words[at..].join(" "))))
        }
        _ => (
            first.clone(),
            lines
                .get(1)
                .filter(|l| starts_with_if(l))
                .map(|l| line_of(l)),
        ),
    };
    Some(Instruction::Move { text, line })
}

#[cfg(test)]
#[path = "reading_tests.rs"]
mod tests;
