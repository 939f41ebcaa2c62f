//! Posted definitions: read alone for a check, offered under a versioned
//! id, and tried out (issue 62).

use missive_rules::{offer_posted, read_posted, trial, TrialPlan};

/// 6x6 chess with Camels for Knights, as the server's tests post it
/// (its first line is a comment).
const CAMEL6: &str = include_str!("../../tests/fixtures/camel6.ini");

#[test]
fn a_posted_definition_is_read_under_the_id_given_and_not_offered() {
    let v = read_posted(CAMEL6, "camel-six@aa", "Camel six").unwrap();
    assert_eq!(v.id(), "camel-six@aa");
    assert_eq!(v.name(), "Camel six");
    assert_eq!(v.geometry().width, 6);
    assert!(missive_rules::variant("camel-six@aa").is_none());
    assert!(missive_rules::variant("camel6").is_none());
}

#[test]
fn an_offered_version_is_found_and_offered_once() {
    let a = offer_posted(CAMEL6, "camel-six@bb", "Camel six").unwrap();
    let again = offer_posted("not even read", "camel-six@bb", "Camel six").unwrap();
    assert!(std::ptr::eq(a, again));
    let found = missive_rules::variant("camel-six@bb").unwrap();
    assert!(std::ptr::eq(a, found));
    // Found, not listed.
    assert!(!missive_rules::variants()
        .iter()
        .any(|v| v.id() == "camel-six@bb"));
}

#[test]
fn refusals_name_the_line() {
    let two = format!("{CAMEL6}[other:chess]\nmaxRank = 6\n");
    let e = read_posted(&two, "x", "x").err().unwrap();
    assert_eq!(e.line, 13, "{e}");
    assert!(e.message.contains("post one section"), "{e}");
    let e = read_posted("maxRank = 6\n", "x", "x").err().unwrap();
    assert!(e.to_string().contains("line 1"), "{e}");
    let bad = CAMEL6.replace("customPiece1 = c:C", "customPiece1 = c:Zq!");
    let e = read_posted(&bad, "x", "x").err().unwrap();
    assert_eq!(e.line, 6, "{e}");
    let unfit = CAMEL6.replace("rcqkcr/pppppp", "rcqkcrr/pppppp");
    let e = read_posted(&unfit, "x", "x").err().unwrap();
    assert_eq!(e.line, 7, "{e}");
    let kingless = CAMEL6.replace(
        "rcqkcr/pppppp/6/6/PPPPPP/RCQKCR",
        "rcqqcr/pppppp/6/6/PPPPPP/RCQKCR",
    );
    let e = read_posted(&kingless, "x", "x").err().unwrap();
    assert!(e.message.contains("Black starts without a king"), "{e}");
    // Horde's White has no king: extinction, not checkmate, ends it.
    assert!(read_posted("[my-horde:horde]\n", "x", "x").is_ok());
    let big = CAMEL6.replace("maxRank = 6", "maxRank = 13");
    let e = read_posted(&big, "x", "x").err().unwrap();
    assert!(e.message.contains("at most 12x10"), "{e}");
}

#[test]
fn a_posted_variant_survives_its_trial() {
    let v = read_posted(CAMEL6, "camel-six@cc", "Camel six").unwrap();
    let plan = TrialPlan {
        games: 30,
        ..TrialPlan::default()
    };
    let r = trial(v, &plan, &mut || true).unwrap();
    // Pawns 6 single steps; camels (1,3) leaps: b1 to a4/c4, e1 to d4/f4.
    assert_eq!(r.perft[0], 6 + 4);
    assert_eq!(r.games, 30);
    assert!(r.moves_read_back > 0);
}
