//! The game page's list of legal moves: each move's squares and forms as
//! the board script reads them, written once per position and kept with the
//! restored game ([`Restored::kept_view`]).

use crate::game::positions::Restored;
use askama::filters::{Escaper, Html};
use missive_rules::Game;
use std::sync::Arc;

/// One legal move as the page lists it.
pub struct LegalMove {
    pub display: String,
    pub coordinate: String,
}

/// The legal moves of a position and the page's list of them.
#[derive(Default)]
pub struct LegalList {
    pub moves: Vec<LegalMove>,
    /// The list's items as the game page writes them (escaped), written
    /// once: escaping them anew on every view was a tenth of the page's
    /// rendering.
    pub items: String,
}

impl LegalList {
    /// The legal moves of `game` in the page's notations.
    pub fn of_game(game: &Game) -> LegalList {
        let forms = game.legal_move_forms();
        // Each item: `<li data-from=… data-to=… data-move=… data-coord=…>`
        // (what the board script reads) showing both forms. Written here
        // rather than by a template: the squares' names as strings and the
        // template's growing buffer were a third of making the list.
        let mut items = String::with_capacity(forms.len() * 128);
        // The words (`data-say`) and what the move costs its own side
        // (`data-harm`, also said in the list) are the move choosers'.
        for m in &forms {
            items.push_str("<li data-from=\"");
            if let Some(from) = m.from {
                from.push_name(&mut items);
            }
            items.push_str("\" data-to=\"");
            m.to.push_name(&mut items);
            for (before, text) in [
                ("\" data-move=\"", &m.display),
                ("\" data-coord=\"", &m.coordinate),
                ("\" data-say=\"", &m.words),
            ] {
                items.push_str(before);
                let _ = Html.write_escaped_str(&mut items, text);
            }
            if !m.harm.is_empty() {
                items.push_str("\" class=\"harm\" data-harm=\"");
                let _ = Html.write_escaped_str(&mut items, &m.harm);
            }
            for (before, text) in [
                ("\">", &m.display),
                (" <span class=\"muted\">", &m.coordinate),
            ] {
                items.push_str(before);
                let _ = Html.write_escaped_str(&mut items, text);
            }
            items.push_str("</span>");
            if !m.harm.is_empty() {
                items.push_str(" <strong class=\"harm-note\">⚠ ");
                let _ = Html.write_escaped_str(&mut items, &m.harm);
                items.push_str("</strong>");
            }
            items.push_str("</li>");
        }
        LegalList {
            moves: forms
                .into_iter()
                .map(|m| LegalMove {
                    display: m.display,
                    coordinate: m.coordinate,
                })
                .collect(),
            items,
        }
    }
}

/// The list of `restored`'s position, written on first use and kept.
pub fn of_restored(restored: &Restored) -> Arc<LegalList> {
    restored.kept_view(LegalList::of_game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::positions::PositionCache;

    fn chess() -> &'static dyn missive_rules::Variant {
        missive_rules::variant("chess").unwrap()
    }

    /// Each item carries the move's squares (none for a drop) and both
    /// forms, escaped, for the board script and for reading.
    #[test]
    fn the_legal_list_names_each_move_s_squares_and_forms() {
        let list = LegalList::of_game(&Game::new(chess(), None).unwrap());
        assert_eq!(list.moves.len(), 20);
        assert_eq!(list.items.matches("<li ").count(), 20);
        assert!(list.items.starts_with(
            "<li data-from=\"b1\" data-to=\"a3\" data-move=\"Na3\" data-coord=\"b1a3\" data-say=\"Knight b1-a3\">Na3 <span class=\"muted\">b1a3</span></li>"
        ));
        let house = missive_rules::variant("leaperhouse").unwrap();
        let fen = "unceakecnu/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/UNCEKAECNU[N] w - - 0 1";
        let list = LegalList::of_game(&Game::new(house, Some(fen)).unwrap());
        assert_eq!(list.items.matches("<li ").count(), list.moves.len());
        // White holds a Knight: its drops come from no square.
        assert!(
            list.items.contains("<li data-from=\"\" data-to=\""),
            "{}",
            list.items
        );
        let mut escaped = String::new();
        let _ = Html.write_escaped_str(&mut escaped, "<a&\"'>");
        assert_eq!(escaped, "&#60;a&#38;&#34;&#39;&#62;");
    }

    /// A kept game's list is its own position's, written once.
    #[test]
    fn a_kept_game_s_list_is_its_position_s() {
        let cache = PositionCache::new(1 << 20);
        let e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let at = chrono::DateTime::from_timestamp(1_700_000_000, 0).unwrap();
        let row = crate::db::games::GameRow::for_tests(1, 1, e4, at.naive_utc());
        let b = cache.game(&row, || Ok(String::new())).unwrap();
        let list = of_restored(&b);
        assert_eq!(list.moves.len(), 20);
        assert!(list.moves.iter().any(|m| m.display == "e5"));
        assert_eq!(list.items.matches("<li ").count(), 20);
        assert!(list.items.contains(r#"<li data-from="e7" data-to="e5" data-move="e5" data-coord="e7e5" data-say="Pawn e7-e5">e5 <span class="muted">e7e5</span></li>"#));
        assert!(Arc::ptr_eq(&list, &of_restored(&b)), "written once");
    }
}
