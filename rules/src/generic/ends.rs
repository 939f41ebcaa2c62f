//! Ends Fairy-Stockfish sees before generating moves
//! (`Position::is_immediate_game_end`): extinction, a flag piece in its
//! region, the checks a side needed.

use super::Generic;
use crate::piece::Color;
use crate::position::Position;
use crate::spec::Value;
use crate::variant::{Outcome, Reason};

impl Generic {
    pub(super) fn value_outcome(us: Color, v: Value, reason: Reason) -> Outcome {
        match v {
            Value::Win => Outcome::win(us, reason),
            Value::Loss => Outcome::win(us.opponent(), reason),
            Value::Draw => Outcome::draw(reason),
        }
    }

    /// Pieces of `kind` (`u8::MAX`: all) `color` has on the board and in hand.
    pub(super) fn count(&self, pos: &Position, color: Color, kind: u8) -> usize {
        let hand = |k: usize| pos.hands[color.index()][k] as usize;
        if kind == u8::MAX {
            pos.pieces().filter(|(_, p)| p.color == color).count()
                + (0..self.spec.pieces.len()).map(hand).sum::<usize>()
        } else {
            pos.pieces()
                .filter(|(_, p)| p.color == color && p.kind == kind)
                .count()
                + hand(kind as usize)
        }
    }

    /// Whether `color`'s flag piece stands in its flag region (safe from
    /// attack where the variant asks for that: `flagPieceSafe`).
    fn flag_reached(&self, pos: &Position, color: Color) -> bool {
        let s = &self.spec;
        let c = color.index();
        let Some(flag) = s.flag_piece[c] else {
            return false;
        };
        let on_flag: Vec<_> = pos
            .pieces()
            .filter(|(sq, p)| p.color == color && p.kind == flag && s.flag_region[c].contains(*sq))
            .map(|(sq, _)| sq)
            .collect();
        if on_flag.is_empty() {
            return false;
        }
        if s.flag_piece_safe && (!s.flag_move || color != pos.side) && on_flag.len() == 1 {
            return !self.attacked_by(pos, on_flag[0], color.opponent());
        }
        true
    }

    pub(super) fn immediate_end(&self, pos: &Position) -> Option<Outcome> {
        let s = &self.spec;
        let us = pos.side;
        let them = us.opponent();
        if let (Some(v), Some(types), false) = (
            s.extinction_value,
            &s.extinction_types,
            s.extinction_pseudo_royal && !s.blast_on_capture,
        ) {
            for color in [them, us] {
                for &k in types {
                    let claim = usize::from(s.extinction_claim && color == us);
                    if self.count(pos, color, k) <= s.extinction_piece_count as usize
                        && self.count(pos, color.opponent(), k)
                            >= s.extinction_opponent_piece_count as usize + claim
                    {
                        let o = Self::value_outcome(us, v, Reason::Extinction);
                        return Some(if color == us {
                            o
                        } else {
                            Outcome {
                                winner: o.winner.map(Color::opponent),
                                ..o
                            }
                        });
                    }
                }
            }
        }
        if (s.flag_move || s.flag_piece_safe) && self.flag_reached(pos, us) {
            let king_flag = s.flag_piece[them.index()] == s.king_kind() && s.king_kind().is_some();
            let draw = ((s.flag_move && us == Color::White && king_flag)
                || (s.flag_piece_safe && !s.flag_move))
                && self.flag_reached(pos, them);
            return Some(if draw {
                Outcome::draw(Reason::FlagReached)
            } else {
                Outcome::win(us, Reason::FlagReached)
            });
        }
        let our_king_flag =
            s.flag_piece[us.index()].is_some() && s.flag_piece[us.index()] == s.king_kind();
        if (!s.flag_move || s.flag_piece_safe || our_king_flag) && self.flag_reached(pos, them) {
            // Racing kings: Black's king may still reach the goal and draw.
            let black_reply = s.flag_move
                && our_king_flag
                && us == Color::Black
                && !self.in_check_of(pos, us)
                && self.legal_unchecked(pos).iter().any(|m| {
                    pos.get(m.from).map(|p| Some(p.kind)) == Some(s.king_kind())
                        && s.flag_region[us.index()].contains(m.to)
                        && m.kind != crate::moves::MoveKind::Drop
                });
            if !black_reply {
                return Some(Outcome::win(them, Reason::FlagReached));
            }
        }
        if s.check_counting && pos.counters[them.index()] == 0 {
            return Some(Outcome::win(them, Reason::Checkmate));
        }
        // Janggi: kings left facing, or both sides passing in turn.
        if pos.bikjang_before && self.bikjang(pos) {
            return Some(self.draw_or_count(pos, Reason::KingsFacing));
        }
        if pos.passes >= 2 {
            return Some(self.draw_or_count(pos, Reason::BothPassed));
        }
        None
    }
}
