//! The independent generators in `tools/` (Maohopper Chess, Fleap, Lionized
//! Chess, Leap Chess with multiple captures: the variants no outside engine
//! plays, each written from its seed page and the rulings alone) against the
//! built `missive` binary, along a few short random games from the start and
//! from random positions: FEN, game end and every legal-move list must agree.
//! docs/variants.md gives the longer runs; these keep CI honest about them.

use std::process::Command;

fn agrees(tool: &str, games: u32, plies: u32) {
    let script = format!("{}/tools/{tool}", env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .args([
            &script,
            "--games",
            &games.to_string(),
            "--plies",
            &plies.to_string(),
        ])
        .args([
            "--seed",
            "20261125",
            "--binary",
            env!("CARGO_BIN_EXE_missive"),
        ])
        .output()
        .expect("python3 runs (Debian's python3 is on every machine this project uses)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{tool} found a difference:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("every legal-move list alike"), "{stdout}");
    // Every game checked positions (a random position Missive refused would
    // count none); the total is printed, so read it back.
    let positions: u32 = stdout
        .split_whitespace()
        .zip(stdout.split_whitespace().skip(1))
        .find(|(_, w)| w.starts_with("positions"))
        .and_then(|(n, _)| n.parse().ok())
        .expect("a position count");
    assert!(
        positions >= games * 10,
        "only {positions} positions: {stdout}"
    );
}

#[test]
fn maohopper_agrees_with_the_independent_generator() {
    agrees("maohopper_ref.py", 6, 60);
}

#[test]
fn fleap_agrees_with_the_independent_generator() {
    agrees("fleap_ref.py", 8, 60);
}

#[test]
fn lionized_chess_agrees_with_the_independent_generator() {
    agrees("lionized_ref.py", 6, 60);
}

#[test]
fn leap_chess_multi_agrees_with_the_independent_generator() {
    agrees("leap_multi_ref.py", 8, 80);
}
