//! What the server offers: the seeds, then Fairy-Stockfish's definitions
//! under their own names, each in a family worked out from its settings,
//! and variants added from definition text alone.

use missive_rules::{add_definitions, definition_variants, variant, variants, Family};

#[test]
fn seeds_come_first_then_every_definition_but_normal() {
    let ids: Vec<&str> = variants().iter().map(|v| v.id()).collect();
    assert_eq!(ids[0], "chess");
    assert_eq!(ids[1], "leaperhouse");
    let mut unique = ids.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "ids are unique");
    for d in definition_variants() {
        // `normal` sets up the seed `chess`'s game: offered once, as `chess`.
        assert_eq!(ids.contains(&d.id()), d.id() != "normal", "{}", d.id());
    }
    assert!(ids.len() >= 9 + definition_variants().len() - 1);
}

#[test]
fn families_follow_from_the_definitions() {
    let family = |id: &str| variant(id).unwrap_or_else(|| panic!("{id}")).family();
    assert_eq!(family("chess"), Family::Chess);
    assert_eq!(family("leaperhouse"), Family::GameCourier);
    assert_eq!(family("maohopper"), Family::GameCourier);
    assert_eq!(family("capablanca"), Family::LargeBoard);
    assert_eq!(family("gothic"), Family::LargeBoard);
    assert_eq!(family("crazyhouse"), Family::Drops);
    assert_eq!(family("chaturanga"), Family::Chaturanga);
    assert_eq!(family("antichess"), Family::Losing);
    assert_eq!(family("misere"), Family::Losing);
    assert_eq!(family("kingofthehill"), Family::Goals);
    assert_eq!(family("racingkings"), Family::Goals);
    assert_eq!(family("breakthrough"), Family::Other);
    assert_eq!(family("nocastle"), Family::Chess);
    assert_eq!(family("makruk"), Family::Chaturanga);
    assert_eq!(family("janggi"), Family::Xiangqi);
    assert_eq!(family("shoshogi"), Family::Shogi);
}

#[test]
fn special_rules_are_written_from_the_definition() {
    let text = |id: &str| variant(id).unwrap_or_else(|| panic!("{id}")).rules_text();
    for (id, words) in [
        ("makruk", &["Counting", "board's honour"][..]),
        ("asean", &["Counting", "16 against a rook"]),
        ("makpong", &["Makpong"]),
        ("grand", &["fewer than these", "Queen 1"]),
        ("atomic", &["explosion", "blow it up"]),
        (
            "atomar",
            &["not harmed by explosions", "may not capture another"],
        ),
        ("coregal", &["may not leave one attacked"]),
        ("armageddon", &["Black has draw odds"]),
        (
            "janggi",
            &[
                "hopping over exactly one piece",
                "palaces",
                "pass",
                "Bikjang",
                "won on points",
            ],
        ),
        ("janggicasual", &["hopping over exactly one piece", "pass"]),
    ] {
        let t = text(id);
        for w in words {
            assert!(t.contains(w), "{id}: `{w}` in {t}");
        }
    }
    assert!(!text("janggicasual").contains("Bikjang"));
    assert!(!text("chess").contains("explosion"));
}

#[test]
fn definitions_describe_their_pieces_and_rules() {
    let capa = variant("capablanca").unwrap();
    let names: Vec<String> = (0..capa.kind_count() as u8)
        .map(|k| {
            capa.piece_label(missive_rules::Piece::new(k, missive_rules::Color::White))
                .name
        })
        .collect();
    for n in ["Pawn", "Knight", "Archbishop", "Chancellor", "King"] {
        assert!(names.iter().any(|x| x == n), "{n} in {names:?}");
    }
    let rules = capa.rules_text();
    assert!(rules.contains("10×8"), "{rules}");
    assert!(rules.contains("Archbishop (A)"), "{rules}");
    assert_eq!(capa.pgn_variant(), Some("capablanca"));
    assert_eq!(variant("chess").unwrap().pgn_variant(), None);
    let house = variant("crazyhouse").unwrap();
    assert!(
        house.rules_text().contains("hand"),
        "{}",
        house.rules_text()
    );
    assert!(!house.legend_notes().is_empty());
}

const NEW: &str = "# A variant no file of Missive's defines\n\
[wazirchess:chess]\n\
customPiece1 = w:W\n\
customPiece2 = d:mDcF\n\
startFen = rnbqkbnr/pppppppp/8/8/8/3WD3/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n";

#[test]
fn a_definition_added_as_text_is_offered_and_refused_when_bad() {
    assert!(variant("wazirchess").is_none());
    let before = variants().len();
    assert_eq!(add_definitions(NEW).unwrap(), vec!["wazirchess"]);
    assert_eq!(variants().len(), before + 1);
    // The same text again (a second server in one process) adds nothing.
    assert_eq!(add_definitions(NEW).unwrap(), vec!["wazirchess"]);
    assert_eq!(variants().len(), before + 1);
    let v = variant("wazirchess").unwrap();
    assert_eq!(v.family(), Family::Chess);
    let start = v.parse_fen(v.start_fen()).unwrap();
    assert!(v.legal_moves(&start).len() > 20);
    // Another text under a taken name, a key the engine does not know, a
    // start position that does not fit: refused with the line, nothing added.
    let e = add_definitions("\n[capablanca:chess]\n").unwrap_err();
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.contains("already offered"), "{e}");
    let e = add_definitions("[mine:chess]\nwallingRule = duck\n").unwrap_err();
    assert_eq!(e.line, 2, "{e}");
    let e = add_definitions("[mine2:chess]\nstartFen = 8/8 w - - 0 1\n").unwrap_err();
    assert_eq!(e.line, 2, "{e}");
    assert!(variant("mine").is_none() && variant("mine2").is_none());
    assert_eq!(variants().len(), before + 1);
    // A later text may use an added one as its template.
    assert_eq!(
        add_definitions("[wazirhouse:wazirchess]\npieceDrops = true\ncapturesToHand = true\nstartFen = rnbqkbnr/pppppppp/8/8/8/3WD3/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1\n").unwrap(),
        vec!["wazirhouse"]
    );
    assert_eq!(variant("wazirhouse").unwrap().family(), Family::Drops);
}

/// Palaces (a king's 3x3 region) are drawn with their diagonals and named
/// in the legend; boards without one have no lines.
#[test]
fn palaces_have_their_diagonals_and_a_legend_note() {
    for id in ["xiangqi", "minixiangqi", "manchu", "janggi"] {
        let v = variant(id).unwrap_or_else(|| panic!("{id}"));
        assert!(!v.board_lines().is_empty(), "{id}");
        assert!(
            v.legend_notes().iter().any(|n| n.contains("palace")),
            "{id}"
        );
    }
    for id in ["chess", "shogi", "capablanca", "leaperhouse"] {
        assert!(variant(id).unwrap().board_lines().is_empty(), "{id}");
    }
}
