//! Moves written as Fairy-Stockfish writes them: SAN (`pyffish.get_san`)
//! and its UCI coordinates.

use super::shogi::{PIECE_DEMOTION, PIECE_PROMOTION};
use super::Generic;
use crate::moves::{Move, MoveKind};
use crate::position::Position;

impl Generic {
    pub(super) fn uci(&self, m: &Move) -> String {
        match m.kind {
            MoveKind::Drop => {
                let p = m.piece.expect("a drop names its piece");
                format!(
                    "{}{}@{}",
                    if Self::unpromoted(p).is_some() {
                        "+"
                    } else {
                        ""
                    },
                    self.spec.pieces[Self::hand_kind(p) as usize]
                        .letter
                        .to_ascii_uppercase(),
                    m.to
                )
            }
            // Chess960 writes castling as the king taking its rook.
            MoveKind::Castle if self.spec.chess960 => format!("{}{}", m.from, m.extra[0]),
            _ => {
                let mut s = format!("{}{}", m.from, m.to);
                match (m.tag, m.piece) {
                    (PIECE_PROMOTION, _) => s.push('+'),
                    (PIECE_DEMOTION, _) => s.push('-'),
                    (_, Some(p)) => s.push(self.spec.pieces[p.kind as usize].letter),
                    _ => {}
                }
                s
            }
        }
    }

    pub(super) fn san(&self, pos: &Position, legal: &[Move], m: &Move) -> String {
        if self.spec.shogi.notation {
            return self.shogi_san(pos, legal, m);
        }
        let mut san = String::new();
        if m.kind == MoveKind::Castle {
            // The rook's side names it (a Chess960 king may not move).
            san.push_str(if m.extra[0].file() > m.from.file() {
                "O-O"
            } else {
                "O-O-O"
            });
        } else {
            let capture = Self::is_capture(pos, m);
            let kind = match m.kind {
                MoveKind::Drop => m.piece.expect("drop").kind,
                _ => pos.get(m.from).expect("a move starts on a piece").kind,
            };
            let pawn = self.spec.pieces[kind as usize].pawn;
            if !pawn || m.kind == MoveKind::Drop {
                let ps = &self.spec.pieces[kind as usize];
                san.push(ps.synonym.unwrap_or(ps.letter).to_ascii_uppercase());
            }
            if m.kind != MoveKind::Drop {
                if pawn && capture {
                    san.push((b'a' + m.from.file()) as char);
                } else {
                    let others: Vec<_> = legal
                        .iter()
                        .filter(|o| {
                            o.from != m.from
                                && o.to == m.to
                                && o.kind == m.kind
                                && o.piece == m.piece
                                && pos.get(o.from).map(|p| p.kind) == Some(kind)
                        })
                        .map(|o| o.from)
                        .collect();
                    if !others.is_empty() {
                        if others.iter().all(|s| s.file() != m.from.file()) {
                            san.push((b'a' + m.from.file()) as char);
                        } else if others.iter().all(|s| s.rank() != m.from.rank()) {
                            san.push_str(&(m.from.rank() + 1).to_string());
                        } else {
                            san.push_str(&m.from.name());
                        }
                    }
                }
            }
            if m.kind == MoveKind::Drop {
                san.push('@');
            } else if capture {
                san.push('x');
            }
            san.push_str(&m.to.name());
            if let Some(p) = m.piece.filter(|_| m.kind != MoveKind::Drop) {
                san.push('=');
                san.push(
                    self.spec.pieces[p.kind as usize]
                        .letter
                        .to_ascii_uppercase(),
                );
            }
        }
        san.push_str(self.check_mark(pos, m));
        san
    }

    /// `+` if `m` gives check, `#` if it mates, else nothing.
    pub(super) fn check_mark(&self, pos: &Position, m: &Move) -> &'static str {
        let after = self.apply(pos, m);
        if !self.in_check_of(&after, after.side) {
            ""
        } else if self.legal_unchecked(&after).is_empty() {
            "#"
        } else {
            "+"
        }
    }
}
