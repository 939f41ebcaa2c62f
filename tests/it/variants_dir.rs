//! Issue 61's "done when": a variant added from a new definition file
//! alone, with no code change. The file is written into the directory
//! `MISSIVE_VARIANTS_DIR` names, the server started, and a game of the new
//! variant created and played over HTTP; the command line lists it too. A
//! bad file stops the start with its name and line.

use crate::common;

use common::{Backend, TestApp};
use reqwest::StatusCode;

/// Not among Missive's files: chess whose Knights also step one square
/// straight (a Knight-Wazir), on a board two files wider with a Camel.
const NEW_VARIANT: &str = "# A variant of our own, for the test\n\
[wazirknights:chess]\n\
maxFile = j\n\
knight = -\n\
customPiece1 = w:NW\n\
customPiece2 = l:C\n\
castling = false\n\
startFen = rwbqklbwr1/pppppppppp/10/10/10/10/PPPPPPPPPP/RWBQKLBWR1 w - - 0 1\n\
promotionPieceTypes = qrbwl\n";

#[test]
fn a_new_definition_file_is_a_variant_played_over_http() {
    assert!(missive_rules::variant("wazirknights").is_none());
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("wazirknights.ini"), NEW_VARIANT).unwrap();
    // Files that are not definitions are left alone.
    std::fs::write(dir.path().join("README.txt"), "not a definition").unwrap();
    let path = dir.path().to_path_buf();
    let app = TestApp::start_with(Backend::Sqlite, move |c| c.variants_dir = Some(path));
    let alice = app.user("alice");
    let bob = app.user("bob");
    // Offered: found by name, listed under its family, with a rules page.
    let form = alice.get("/games/new?q=wazir");
    assert!(form.has("value=\"wazirknights\""), "{}", form.body);
    let rules = alice.get("/variants/wazirknights");
    assert_eq!(rules.status, StatusCode::OK);
    assert!(
        rules.has("Fairy piece W") && rules.has("Camel"),
        "{}",
        rules.body
    );
    let id = alice.new_game(&[
        ("variant", "wazirknights"),
        ("opponent", "bob"),
        ("color", "white"),
        ("fen", ""),
    ]);
    assert_eq!(
        bob.post(&format!("/games/{id}/accept"), &[]).status,
        StatusCode::SEE_OTHER
    );
    for (who, mv) in [
        (&alice, "Wc3"),
        (&bob, "Wc6"),
        (&alice, "e4"),
        (&bob, "Lg5"),
    ] {
        let p = who.play(id, mv);
        assert_eq!(p.status, StatusCode::SEE_OTHER, "{mv}: {}", p.body);
    }
    let j = alice.json(id);
    assert_eq!(j["ply"], 4, "{j}");
    assert_eq!(j["variant"], "wazirknights", "{j}");
    // An illegal move is refused with the rules' reason, nothing stored.
    let p = alice.play(id, "Wc5");
    assert_ne!(p.status, StatusCode::SEE_OTHER);
    assert_eq!(alice.json(id)["ply"], 4);
    // The board draws the new pieces from their movement.
    let page = alice.get(&format!("/games/{id}"));
    assert!(page.has("href=\"#pm-fairy-piece-w\""), "{}", page.body);
    assert!(!page.has("class=\"disc\""));
    let pgn = app.client().get(&format!("/games/{id}.pgn")).body;
    assert!(pgn.contains("[Variant \"wazirknights\"]"), "{pgn}");

    // `missive variants` lists it, with its family, from the same setting.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_missive"))
        .arg("variants")
        .env("MISSIVE_VARIANTS_DIR", dir.path())
        .env("MISSIVE_CONFIG", dir.path().join("none.toml"))
        .output()
        .unwrap();
    let list = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{list}");
    assert!(
        list.lines()
            .any(|l| l == "wazirknights\twazirknights\t10x8\tlarge-board"),
        "{list}"
    );
}

#[test]
fn a_bad_definition_file_stops_the_start_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("broken.ini"),
        "[broken:chess]\ncastling = false\nwallingRule = duck\n",
    )
    .unwrap();
    let config = missive::Config {
        database_url: dir.path().join("t.db").to_string_lossy().into_owned(),
        variants_dir: Some(dir.path().to_path_buf()),
        ..missive::Config::default()
    };
    let e = missive::build_state(&config)
        .err()
        .expect("refused")
        .to_string();
    assert!(e.contains("broken.ini") && e.contains("line 3"), "{e}");
    assert!(e.contains("wallingRule"), "{e}");
    assert!(missive_rules::variant("broken").is_none());
}
