//! How deeply a request body nests, counted by a cheap linear scan before
//! any parser builds a tree of it: a tree parser's work (and some parsers'
//! stack) grows with the depth, and 4,000 levels of `<a>` once aborted the
//! process (issue 60). Well-formedness is the parser's business; the scan
//! only has to count at least as deep as the parser would go.

/// Deeper than any SOAP call this server answers (the Envelope, its Body,
/// the operation, a parameter: 4) by far.
pub const MAX_XML_DEPTH: usize = 32;

/// Whether `text`, read as XML, opens elements deeper than `max`. Comments,
/// processing instructions, CDATA and declarations are passed over; a
/// quoted attribute value may hold `>`.
pub fn xml_too_deep(text: &str, max: usize) -> bool {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(at) = b[i..].iter().position(|&c| c == b'<') {
        i += at + 1;
        match b.get(i) {
            Some(b'/') => depth = depth.saturating_sub(1),
            Some(b'?') => i = skip_past(b, i, b"?>"),
            Some(b'!') if b[i..].starts_with(b"!--") => i = skip_past(b, i, b"-->"),
            Some(b'!') if b[i..].starts_with(b"![CDATA[") => i = skip_past(b, i, b"]]>"),
            Some(b'!') => {}
            Some(_) => {
                let end = tag_end(b, i);
                if b[..end].ends_with(b"/") {
                    // `<a/>` opens nothing that stays open.
                } else {
                    depth += 1;
                    if depth > max {
                        return true;
                    }
                }
                i = end;
            }
            None => break,
        }
    }
    false
}

/// Where `needle` ends after `from`, or the end of the text.
fn skip_past(b: &[u8], from: usize, needle: &[u8]) -> usize {
    b[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map_or(b.len(), |at| from + at + needle.len())
}

/// The index of a start tag's closing `>` (or the end of the text), quoted
/// attribute values passed over.
fn tag_end(b: &[u8], from: usize) -> usize {
    let mut quote = None;
    for (j, &c) in b.iter().enumerate().skip(from) {
        match (quote, c) {
            (None, b'"' | b'\'') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, b'>') => return j,
            _ => {}
        }
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_open_elements_only() {
        let soap = r#"<?xml version="1.0"?><s:Envelope xmlns:s="x"><!-- a <b> --><s:Body><GetMyGames><username a=">">u</username><x/><![CDATA[<<<<]]></GetMyGames></s:Body></s:Envelope>"#;
        assert!(!xml_too_deep(soap, 4));
        assert!(xml_too_deep(soap, 3));
        assert!(!xml_too_deep(&"<a/>".repeat(10_000), 1));
        assert!(!xml_too_deep(&"<a></a>".repeat(10_000), 1));
        assert!(xml_too_deep(&"<a>".repeat(100_000), MAX_XML_DEPTH));
        assert!(!xml_too_deep(&"<a>".repeat(MAX_XML_DEPTH), MAX_XML_DEPTH));
        assert!(!xml_too_deep("<", 0) && !xml_too_deep("<!", 0) && !xml_too_deep("", 0));
    }
}
