//! Issue 64, finding 7: a slider's movement diagram marks its line as move
//! and capture alike, to the far end (an enemy King put on the far corner
//! made that square a move only).

use missive_rules::diagram::{movement_diagram, piece_types};

#[test]
fn sliders_capture_wherever_they_move() {
    let chess = missive_rules::variant("chess").unwrap();
    for letter in ["B", "R", "Q"] {
        let kind = piece_types(chess)
            .iter()
            .find(|t| t.label.letter.eq_ignore_ascii_case(letter))
            .map(|t| t.kind)
            .unwrap();
        let d = movement_diagram(chess, kind).unwrap();
        assert_eq!(d.moves, d.captures, "{letter}: {d:?}");
        assert!(d.moves.len() >= 13, "{letter}: {d:?}");
    }
}
