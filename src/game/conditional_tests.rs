//! Tests of `game::conditional`: reading, checking and planning lines.

use super::*;

fn chess() -> Game {
    Game::new(missive_rules::variant("chess").unwrap(), None).unwrap()
}

/// White's line `text` (id `id`) in `g`, checked.
fn white_line(g: &Game, id: i32, text: &str) -> Line {
    Line {
        id,
        user_id: 1,
        from_ply: 1,
        plies: check_line(g, Color::White, &entries(text)).unwrap(),
    }
}

fn entries(text: &str) -> Vec<(String, Option<String>)> {
    read_line_text(text).unwrap()
}

#[test]
fn a_line_reads_moves_comments_and_skips_move_numbers() {
    assert_eq!(
        entries("1... e5 2. Nf3 // the usual; Nc6 2.Bb5"),
        vec![
            ("e5".to_string(), None),
            ("Nf3".to_string(), Some("the usual".to_string())),
            ("Nc6".to_string(), None),
            ("Bb5".to_string(), None),
        ]
    );
    assert_eq!(
        entries("P g7-g5 N g1-f3; K e1-e2"),
        vec![
            ("P g7-g5".to_string(), None),
            ("N g1-f3".to_string(), None),
            ("K e1-e2".to_string(), None),
        ]
    );
    assert!(read_line_text("  ").is_err());
    assert!(read_line_text("// nothing").is_err());
    assert!(read_line_text(&"e4 ".repeat(LINE_PLIES_MAX + 1)).is_err());
}

#[test]
fn a_line_is_checked_ply_by_ply_and_says_which_ply_fails() {
    let mut g = chess();
    g.play_text("e4").unwrap();
    let ok = check_line(&g, Color::White, &entries("e5 Nf3 Nc6 Bb5")).unwrap();
    assert_eq!(
        ok.iter()
            .map(|p| (p.display.as_str(), p.mine))
            .collect::<Vec<_>>(),
        vec![("e5", false), ("Nf3", true), ("Nc6", false), ("Bb5", true)]
    );
    let e = check_line(&g, Color::White, &entries("e5 Nf3 Nc6 Bb6")).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("Ply 4 of the line (Bb6, your move)"),
        "{e}"
    );
    let e = check_line(&g, Color::White, &entries("e4 Nf3")).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("Ply 1 of the line (e4, your opponent's move)"),
        "{e}"
    );
    let e = check_line(&g, Color::White, &entries("e5 Nf3 Nc6")).unwrap_err();
    assert!(
        e.to_string().contains("ends with your opponent's move"),
        "{e}"
    );
    let e = check_line(&g, Color::Black, &entries("e5 Nf3")).unwrap_err();
    assert!(e.to_string().contains("It is your move"), "{e}");
}

#[test]
fn lines_part_only_at_the_opponents_moves() {
    let mut g = chess();
    g.play_text("e4").unwrap();
    let line = |id, text| white_line(&g, id, text);
    let kept = vec![line(1, "e5 Nf3 Nc6 Bb5")];
    let new = |text| check_line(&g, Color::White, &entries(text)).unwrap();
    assert_eq!(conflict(&kept, &new("c5 Nf3")), None);
    assert_eq!(conflict(&kept, &new("e5 Nf3 d6 d4")), None);
    assert_eq!(conflict(&kept, &new("e5 Nf3")), None);
    let same = conflict(&kept, &new("e5 Nf3 Nc6 Bb5")).unwrap();
    assert!(same.contains("already"), "{same}");
    let differs = conflict(&kept, &new("e5 Nf3 Nc6 Bc4")).unwrap();
    assert!(differs.contains("after Nc6 with Bc4"), "{differs}");
    let at_once = conflict(&kept, &new("e5 Nc3")).unwrap();
    assert!(at_once.contains("after e5 with Nc3"), "{at_once}");
}

#[test]
fn a_plan_plays_the_matching_reply_and_keeps_what_follows() {
    let mut g = chess();
    g.play_text("e4").unwrap();
    let line = |id, text| white_line(&g, id, text);
    let lines = vec![
        line(1, "e5 Nf3 Nc6 Bb5"),
        line(2, "e5 Nf3 d6 d4"),
        line(3, "c5 Nf3"),
    ];
    let player = |c: Color| Some(if c == Color::White { 1 } else { 2 });
    let mut after = g.clone();
    let played = after.play_text("e5").unwrap();
    let p = plan(&mut after, lines.clone(), &played, player);
    assert_eq!(p.replies.len(), 1);
    assert_eq!(p.replies[0].played.display, "Nf3");
    assert_eq!(p.replies[0].answers, "e5");
    assert_eq!(after.ply(), 3);
    let left: Vec<String> = p
        .lines_after
        .iter()
        .map(|(_, l)| {
            l.iter()
                .map(|p| p.display.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(left, vec!["Nc6 Bb5", "d6 d4"]);

    let mut other = g.clone();
    let played = other.play_text("d5").unwrap();
    let p = plan(&mut other, lines, &played, player);
    assert!(p.replies.is_empty() && p.lines_after.is_empty());
    assert_eq!(other.ply(), 2);
}
