//! Reading variant definitions: what is refused, and that it names the line.

use missive_rules::check_definitions;

fn refused(text: &str) -> (usize, String) {
    let e = check_definitions(text).expect_err("refused");
    (e.line, e.message)
}

#[test]
fn a_definition_on_a_built_in_template_is_read() {
    let text =
        "# Leaperhouse-like\n[mine:crazyhouse]\ncustomPiece1 = a:NA\npromotionPieceTypes = qrbna\n";
    assert_eq!(check_definitions(text).unwrap(), vec!["mine".to_string()]);
}

#[test]
fn an_unsupported_key_is_refused_with_its_name_and_line() {
    let (line, msg) = refused("[v:chess]\ncastling = false\nwallingRule = duck\n");
    assert_eq!(line, 3);
    assert!(msg.contains("wallingRule"), "{msg}");
    let (line, msg) = refused("[v:chess]\nnoSuchKey = 1\n");
    assert_eq!((line, msg.contains("noSuchKey")), (2, true), "{msg}");
}

#[test]
fn unplayable_definitions_are_refused_naming_the_line() {
    let (line, msg) = refused("[big:chess]\nmaxFile = m\nmaxRank = 8\n");
    assert_eq!(line, 2);
    assert!(msg.contains("13x8"), "{msg}");
    let (line, msg) = refused("[v:chess]\nking = -\n");
    assert_eq!(line, 1);
    assert!(msg.contains("no king"), "{msg}");
    let (line, msg) = refused("[v:chess]\nfers = f\ncustomPiece1 = f:W\n");
    assert_eq!(line, 3);
    assert!(msg.contains("letter `f`"), "{msg}");
    let (line, msg) = refused(
        "[v:chess]\ncastling = false\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w - - 0 1\n",
    );
    assert_eq!(line, 3);
    assert!(msg.contains("start position"), "{msg}");
    let (line, msg) = refused("[v:chess]\ncustomPiece1 = x:Y\n");
    assert_eq!(line, 2);
    assert!(msg.contains("Betza"), "{msg}");
    let (line, _) = refused("[v:nosuchvariant]\n");
    assert_eq!(line, 1);
    let (line, msg) = refused("[v:chess]\ncastling = maybe\n");
    assert_eq!((line, msg.contains("true or false")), (2, true), "{msg}");
}

#[test]
fn shogi_and_xiangqi_keys_are_refused_naming_the_line() {
    let (line, msg) = refused("[v:minishogi]\npromotedPieceType = p:x\n");
    assert_eq!((line, msg.contains("`x`")), (2, true), "{msg}");
    let (line, msg) = refused("[v:minishogi]\npromotedPieceType = pg\n");
    assert_eq!((line, msg.contains("letter:letter")), (2, true), "{msg}");
    let (line, msg) = refused("[v:xiangqi]\nmobilityRegionWhiteQueen = a1\n");
    assert_eq!(
        (line, msg.contains("mobilityRegionWhiteQueen")),
        (2, true),
        "{msg}"
    );
    let (line, msg) = refused("[v:xiangqi]\npieceSynonyms = r:c\n");
    assert_eq!((line, msg.contains("`c`")), (2, true), "{msg}");
    let (line, msg) = refused("[v:chess]\nking = k+N\n");
    assert_eq!(line, 2, "{msg}");
    assert_eq!(
        check_definitions("[v:shogi]\ndropNoDoubledCount = 2\n").unwrap(),
        vec!["v".to_string()]
    );
}

/// `displayName` is the name players see; a section never takes its
/// template's; a name that is empty, too long or holds control characters
/// is refused on its line.
#[test]
fn display_names_are_read_checked_and_not_inherited() {
    let capablanca = missive_rules::variant("capablanca").unwrap();
    assert_eq!(capablanca.name(), "Capablanca chess");
    // gothic is defined on capablanca's section and names itself.
    assert_eq!(
        missive_rules::variant("gothic").unwrap().name(),
        "Gothic chess"
    );
    for v in missive_rules::definition_variants() {
        assert_ne!(v.name(), v.id(), "{}: a display name", v.id());
    }
    let (line, msg) = refused("[v:chess]\ncastling = false\ndisplayName =  \n");
    assert_eq!((line, msg.contains("displayName")), (3, true), "{msg}");
    let long = format!("[v:chess]\ndisplayName = {}\n", "x".repeat(61));
    assert_eq!(refused(&long).0, 2);
    // Added at run time: named, and a section on it is not.
    let ids = missive_rules::add_definitions(
        "[namedtest:chess]\ndisplayName = Named test\n[unnamedtest:namedtest]\n",
    )
    .unwrap();
    assert_eq!(ids, vec!["namedtest", "unnamedtest"]);
    assert_eq!(
        missive_rules::variant("namedtest").unwrap().name(),
        "Named test"
    );
    assert_eq!(
        missive_rules::variant("unnamedtest").unwrap().name(),
        "unnamedtest"
    );
}

#[test]
fn counting_rules_are_read_and_cambodian_counting_is_refused() {
    assert_eq!(
        check_definitions("[mine:makruk]\ncountingRule = asean\nmakpongRule = true\n").unwrap(),
        vec!["mine".to_string()]
    );
    let (line, message) = refused("[mine:makruk]\nnMoveRule = 0\ncountingRule = cambodian\n");
    assert_eq!(line, 3);
    assert!(
        message.contains("countingRule") && message.contains("cambodian"),
        "{message}"
    );
    let (line, message) = refused("[mine:makruk]\nmakpongRule = maybe\n");
    assert_eq!(line, 2);
    assert!(message.contains("makpongRule"), "{message}");
}
