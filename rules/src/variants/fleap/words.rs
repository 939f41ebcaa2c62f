//! Fleap's moves in words, for the pages' move choosers: the waiting tokens
//! placed first, the move (a Nuke names every piece it destroys, the
//! mover's own first), and where a captured face-up token comes back.

use super::moves::{flipped, nuke_victims};
use super::*;
use crate::geometry::Square;
use crate::moves::Move;
use crate::position::Position;

impl Fleap {
    pub(super) fn words(&self, pos: &Position, m: &Move) -> String {
        let us = pos.side;
        let mut out = String::new();
        // The waiting tokens placed before the move, in kind order.
        let mut kinds = Vec::new();
        for &k in &HAND_ORDER {
            for _ in 0..pos.hand(us, k) {
                kinds.push(k);
            }
        }
        let placed_first: Vec<String> = kinds
            .into_iter()
            .zip(m.path.iter())
            .map(|(k, s)| {
                format!(
                    "your waiting {} on {s}",
                    self.piece_label(Piece::new(k, us)).name
                )
            })
            .collect();
        if !placed_first.is_empty() {
            out.push_str(&format!("Place {}, then: ", placed_first.join(" and ")));
        }
        let placed = self.placed(pos, m);
        let Some(mover) = placed.get(m.from) else {
            return out + &crate::describe::generic(&|p| self.piece_label(p).name, &placed, m);
        };
        let who = self.piece_label(mover).name;
        let whose = |p: Piece| if p.color == us { "your own" } else { "their" };
        if Fleap::is_nuke(m) {
            let victims: Vec<(Piece, Square)> = nuke_victims(&placed, m.to)
                .into_iter()
                .filter_map(|s| placed.get(s).map(|p| (p, s)))
                .collect();
            out.push_str(&format!(
                "Fire a Nuke from the {who} on {} at {}",
                m.from, m.to
            ));
            if victims.is_empty() {
                out.push_str(": it destroys nothing, and leaves a crater");
            } else {
                let mut said: Vec<(Piece, Square)> = victims.clone();
                // The mover's own first: what the player must not miss.
                said.sort_by_key(|(p, _)| p.color != us);
                let list: Vec<String> = said
                    .iter()
                    .map(|(p, s)| format!("{} {} ({s})", whose(*p), self.piece_label(*p).name))
                    .collect();
                out.push_str(&format!(": it destroys {}", list.join(", ")));
            }
            return out;
        }
        let taken = placed.get(m.to);
        if Fleap::is_rifle(m) {
            let what = taken.map_or_else(|| "piece".to_string(), |p| self.piece_label(p).name);
            out.push_str(&format!(
                "Rifle capture: the {who} on {} takes the {what} on {} and stays where it is",
                m.from, m.to
            ));
        } else {
            match taken {
                Some(p) => out.push_str(&format!(
                    "{who} {} takes the {} on {}",
                    m.from,
                    self.piece_label(p).name,
                    m.to
                )),
                None => out.push_str(&format!("{who} {}-{}", m.from, m.to)),
            }
            if let Some(p) = m.piece {
                out.push_str(&format!(", becoming a {}", self.piece_label(p).name));
            }
        }
        if let (Some((_, sq, color)), Some(v)) = (self.returned(&placed, m), taken) {
            let back = self.piece_label(Piece::new(flipped(v.kind), color)).name;
            let owner = if color == us { "your" } else { "their" };
            out.push_str(&format!(
                "; the captured {} comes back turned over, as {owner} {back} on {sq}",
                self.piece_label(v).name
            ));
        }
        out
    }
}
