//! Warnings for a move's preview: a move that costs the mover their own
//! piece (Maohopper's trap on h4 removes a piece that ends its move there;
//! a Fleap Nuke destroys its owner's pieces beside the target too). Legal
//! moves, so the engine accepts them; the preview is where a slip can
//! still be taken back.

use missive_rules::{Cell, Game, Move, Square};

/// What the player should know before confirming the legal move `mv` from
/// `before` to `after` that ends on `to`; empty for an ordinary move.
pub fn warnings(before: &Game, mv: &Move, after: &Game, to: Square) -> Vec<String> {
    let lost = before.own_losses(mv);
    if lost.is_empty() {
        return Vec::new();
    }
    let view = after.board_view();
    // The piece moved is gone from an ordinary square it ended on: the
    // square's role (the trap) took it.
    let emptied = matches!(view.cell(to.file(), to.rank()), Cell::Empty);
    let why = match view.marks.iter().find(|(sq, _)| *sq == to && emptied) {
        Some((sq, label)) => format!(" it ends on the {label} ({}) and is removed", sq.name()),
        None => " it is removed by the move".to_string(),
    };
    vec![if lost.len() == 1 {
        format!("This move loses your {}:{why}.", lost[0])
    } else {
        format!("This move loses your {}.", lost.join(", "))
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str, fen: Option<&str>) -> Game {
        Game::new(missive_rules::variant(id).unwrap(), fen).unwrap()
    }

    /// The position after the legal move from `from` to `to`.
    fn after(g: &Game, from: &str, to: &str) -> (Game, Move, Square) {
        let v = g.variant();
        let mv = *g
            .legal_moves()
            .iter()
            .find(|m| {
                let (f, t) = v.move_squares(m);
                f.map(|f| f.name()).as_deref() == Some(from) && t.name() == to
            })
            .unwrap_or_else(|| panic!("no legal move {from}-{to}"));
        let mut a = g.clone();
        let (_, t) = v.move_squares(&mv);
        a.play(&mv);
        (a, mv, t)
    }

    #[test]
    fn a_piece_moved_onto_the_trap_is_a_warning() {
        let g = game("maohopper", None);
        let (a, mv, to) = after(&g, "h3", "h4");
        assert_eq!(
            warnings(&g, &mv, &a, to),
            vec![
                "This move loses your Spear: it ends on the trap (h4) and is removed.".to_string()
            ]
        );
    }

    #[test]
    fn an_ordinary_move_warns_of_nothing() {
        let g = game("maohopper", None);
        let (a, mv, to) = after(&g, "g3", "g4");
        assert!(warnings(&g, &mv, &a, to).is_empty());
        let chess = game("chess", Some("7k/4P3/8/8/8/8/8/4K3 w - - 0 1"));
        let (a, mv, to) = after(&chess, "e7", "e8");
        assert!(
            warnings(&chess, &mv, &a, to).is_empty(),
            "a promotion loses nothing"
        );
    }

    #[test]
    fn a_nuke_beside_ones_own_piece_is_a_warning() {
        let g = game("fleap", Some("*4f*/7/7/*2F2*/3A3/7/*5*[] w 1/1 0 1"));
        let mut a = g.clone();
        let played = a.play_text("d3xxd5").unwrap();
        let (_, to) = g.variant().move_squares(&played.mv);
        assert_eq!(
            warnings(&g, &played.mv, &a, to),
            vec!["This move loses your Fore'n'aft: it is removed by the move.".to_string()]
        );
    }
}
