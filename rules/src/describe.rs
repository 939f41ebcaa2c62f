//! Moves in words a player reads ("Knight b1-c3", "Bishop c4 takes the Pawn
//! on f7"), for the move choosers of the pages, where several legal moves
//! join the same squares and their notation alone ("Sb3-b4>") says little.
//! What a move costs its own side is said in `view.rs`.
//!
//! The words need only each piece's name (the variant's
//! [`PieceLabel::name`](crate::PieceLabel::name)), given as `name`: the
//! [`Variant`](crate::Variant) trait's default
//! [`describe_move`](crate::Variant::describe_move) is built on this file.

use crate::moves::{Move, MoveKind, NO_SQUARE};
use crate::piece::Piece;
use crate::position::Position;

/// "the Knight" of the piece on `sq` of `pos`, if any.
fn victim(
    name: &dyn Fn(Piece) -> String,
    pos: &Position,
    sq: crate::geometry::Square,
) -> Option<String> {
    if sq == NO_SQUARE {
        return None;
    }
    pos.get(sq).map(|p| format!("the {}", name(p)))
}

/// The words for a move of a variant without moves of its own kind:
/// built from the move's kind and the pieces it touches, `name` naming
/// each piece as the variant calls it.
pub(crate) fn generic(name: &dyn Fn(Piece) -> String, pos: &Position, mv: &Move) -> String {
    let mover = mv.origin().and_then(|f| pos.get(f));
    let who = mover.map_or_else(|| "Piece".to_string(), name);
    let promotion = mv
        .piece
        .filter(|p| Some(*p) != mover)
        .map(|p| format!(", becoming a {}", name(p)))
        .unwrap_or_default();
    match mv.kind {
        MoveKind::Drop => {
            let what = mv.piece.map_or_else(|| "piece".to_string(), name);
            format!("Put a {what} from your hand on {}", mv.to)
        }
        MoveKind::Castle => format!(
            "Castle: {who} {}-{}, and the partner {}-{}",
            mv.from, mv.to, mv.extra[0], mv.extra[1]
        ),
        MoveKind::EnPassant => format!(
            "{who} {} takes {} on {} in passing, to {}",
            mv.from,
            victim(name, pos, mv.extra[0]).unwrap_or_else(|| "the pawn".into()),
            mv.extra[0],
            mv.to
        ),
        MoveKind::TwoLeg => {
            let via = mv.extra[0];
            let first = match victim(name, pos, via).filter(|_| mv.extra[1] == via) {
                Some(x) => format!("{who} {} takes {x} on {via}", mv.from),
                None => format!("{who} {} steps to {via}", mv.from),
            };
            let second = if mv.to == mv.from {
                format!("then back to {}", mv.to)
            } else if mv.to == via {
                "and stays there".to_string()
            } else {
                match victim(name, pos, mv.to) {
                    Some(x) => format!("then takes {x} on {}", mv.to),
                    None => format!("then goes on to {}", mv.to),
                }
            };
            format!("{first}, {second}{promotion}")
        }
        MoveKind::Chain => {
            let path: Vec<String> = mv.path.iter().map(|s| s.name()).collect();
            format!(
                "{who} {} jumps by {} to {}{promotion}",
                mv.from,
                path.join(", "),
                mv.to
            )
        }
        MoveKind::Normal | MoveKind::Special => {
            let from = mv.origin().map(|s| s.name()).unwrap_or_default();
            match victim(name, pos, mv.to).filter(|_| mv.to != mv.from) {
                Some(x) => format!("{who} {from} takes {x} on {}{promotion}", mv.to),
                None if mv.to == mv.from => format!("{who} on {from} stays{promotion}"),
                None => format!("{who} {from}-{}{promotion}", mv.to),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    fn words(id: &str, fen: Option<&str>) -> Vec<(String, String)> {
        let v = crate::variant(id).unwrap();
        let pos = v.parse_fen(fen.unwrap_or(v.start_fen())).unwrap();
        let legal = v.legal_moves(&pos);
        legal
            .iter()
            .map(|m| {
                (
                    v.format_move(&pos, m, crate::Notation::Display),
                    v.describe_move(&pos, m),
                )
            })
            .collect()
    }

    #[test]
    fn chess_moves_in_words() {
        let w = words("chess", None);
        assert!(w.contains(&("Nc3".into(), "Knight b1-c3".into())), "{w:?}");
        let w = words("chess", Some("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"));
        assert!(
            w.iter()
                .any(|(d, s)| d == "b8=N" && s == "Pawn b7-b8, becoming a Knight"),
            "{w:?}"
        );
    }

    #[test]
    fn a_spear_s_step_says_where_it_points() {
        let w = words("maohopper", None);
        let spear: Vec<&String> = w
            .iter()
            .filter(|(d, _)| d.starts_with("Sg3-g4"))
            .map(|(_, s)| s)
            .collect();
        assert_eq!(spear.len(), 3, "{w:?}");
        for s in &spear {
            assert!(s.starts_with("Spear step g3-g4, "), "{s}");
        }
        assert!(
            spear
                .iter()
                .any(|s| s.contains("turn to point forward-right")),
            "{spear:?}"
        );
        assert!(
            spear.iter().any(|s| s.contains("keep pointing")),
            "{spear:?}"
        );
    }

    #[test]
    fn fleap_s_nukes_and_rifles_in_words() {
        let w = words("fleap", None);
        let nuke = w
            .iter()
            .find(|(d, _)| d.starts_with("Bxxa3"))
            .expect("a Nuke on a3 at the start");
        assert!(
            nuke.1
                .starts_with("Fire a Nuke from the Ballista on e1 at a3"),
            "{nuke:?}"
        );
        assert!(nuke.1.contains("your own"), "{nuke:?}");
    }
}
