//! Legal moves on a [`Board`]: pseudo-legal generation from the tables, the
//! King-safety test only for moves that could fail it, compulsory capture
//! and the bare-King rule; and perft, counting the last ply without
//! playing it.

use super::board::{Board, Flag, Mv};
use super::tables::Tables;
use super::{bit, Bitboard, MAX_KINDS, NONE};

impl Board {
    /// Every pseudo-legal move (check not considered), with whether it
    /// captures, in the order of the squares the pieces stand on.
    #[inline]
    fn pseudo_moves(&self, t: &Tables, mut f: impl FnMut(Mv, bool)) {
        let us = self.side;
        let ours = self.color[us];
        let theirs = self.color[us ^ 1];
        let occ = ours | theirs;
        let empty = t.valid & !occ;
        let mut pieces = ours;
        while pieces != 0 {
            let from = pieces.trailing_zeros() as u8;
            pieces &= pieces - 1;
            let k = self.on[from as usize];
            let slot = us * MAX_KINDS + k as usize;
            let mut quiet = t.leap_quiet[slot][from as usize] & empty;
            let mut captures = t.leap_capture[slot][from as usize] & theirs;
            for r in &t.rides[slot] {
                let ray = t.rays[r.ray][from as usize];
                let blockers = ray & occ;
                let reach = if blockers == 0 {
                    ray
                } else {
                    let first = if r.up {
                        blockers.trailing_zeros()
                    } else {
                        63 - blockers.leading_zeros()
                    };
                    ray & !t.rays[r.beyond][first as usize]
                };
                if r.quiet {
                    quiet |= reach & empty;
                }
                if r.capture {
                    captures |= reach & theirs;
                }
            }
            if k == t.pawn {
                self.pawn_moves(t, from, quiet, captures, &mut f);
            } else {
                // Ascending target order for both kinds of target.
                let mut all = quiet | captures;
                while all != 0 {
                    let to = all.trailing_zeros() as u8;
                    all &= all - 1;
                    let m = Mv {
                        from,
                        to,
                        flag: Flag::Normal,
                        extra: 0,
                    };
                    f(m, captures & bit(to as usize) != 0);
                }
            }
        }
        for (i, r) in t.castles.iter().enumerate() {
            if r.color as usize != us || self.castling & r.bit == 0 {
                continue;
            }
            if r.empty & (occ | !t.valid) == 0 {
                let m = Mv {
                    from: r.king_from,
                    to: r.king_to,
                    flag: Flag::Castle,
                    extra: i as u8,
                };
                f(m, false);
            }
        }
    }

    #[inline]
    fn pawn_moves(
        &self,
        t: &Tables,
        from: u8,
        quiet: Bitboard,
        captures: Bitboard,
        f: &mut impl FnMut(Mv, bool),
    ) {
        let us = self.side;
        let mut all = quiet | captures;
        while all != 0 {
            let to = all.trailing_zeros() as u8;
            all &= all - 1;
            let capture = captures & bit(to as usize) != 0;
            if self.relative_rank(t, to) == t.last_rank {
                for &k in &t.promotions {
                    let m = Mv {
                        from,
                        to,
                        flag: Flag::Promotion,
                        extra: k,
                    };
                    f(m, capture);
                }
            } else {
                let m = Mv {
                    from,
                    to,
                    flag: Flag::Normal,
                    extra: 0,
                };
                f(m, capture);
            }
        }
        let forward: i16 = if us == 0 { 8 } else { -8 };
        if Some(self.relative_rank(t, from)) == t.double_step_rank {
            let a = from as i16 + forward;
            let b = a + forward;
            if (0..64).contains(&b) {
                let free = t.valid & !self.occupied();
                if free & bit(a as usize) != 0 && free & bit(b as usize) != 0 {
                    let m = Mv {
                        from,
                        to: b as u8,
                        flag: Flag::Double,
                        extra: 0,
                    };
                    f(m, false);
                }
            }
        }
        if self.ep != NONE {
            let file = from & 7;
            let ep_file = self.ep & 7;
            if from as i16 + forward == (self.ep & !7) as i16 + file as i16
                && (file as i16 - ep_file as i16).abs() == 1
            {
                let m = Mv {
                    from,
                    to: self.ep,
                    flag: Flag::EnPassant,
                    extra: (from & !7) | ep_file,
                };
                f(m, true);
            }
        }
    }

    #[inline]
    fn relative_rank(&self, t: &Tables, s: u8) -> u8 {
        if self.side == 0 {
            s >> 3
        } else {
            t.last_rank - (s >> 3)
        }
    }

    /// Calls `f` with every legal move and whether it captures, before the
    /// compulsory-capture rule; returns nothing when the bare-King rule has
    /// ended the game.
    #[inline]
    fn safe_moves(&self, t: &Tables, mut f: impl FnMut(Mv, bool)) {
        if t.bare_king_loses && (self.bare(t, 0) || self.bare(t, 1)) {
            return;
        }
        let us = self.side;
        let them = us ^ 1;
        let king = self.king_square(t, us);
        let checked = self.attacked(t, king, them);
        let lines = t.ride_lines[them][king];
        self.pseudo_moves(t, |m, capture| {
            // Most moves cannot expose the King: only the risky ones are
            // played out and tested.
            let risky = checked
                || m.from as usize == king
                || !matches!(m.flag, Flag::Normal | Flag::Double | Flag::Promotion)
                || lines & bit(m.from as usize) != 0;
            if !risky || self.keeps_king_safe(t, m) {
                f(m, capture);
            }
        });
    }

    fn keeps_king_safe(&self, t: &Tables, m: Mv) -> bool {
        let them = self.side ^ 1;
        if m.flag == Flag::Castle {
            let mut safe = t.castles[m.extra as usize].safe;
            while safe != 0 {
                let s = safe.trailing_zeros() as usize;
                safe &= safe - 1;
                if self.attacked(t, s, them) {
                    return false;
                }
            }
        }
        let next = self.play(t, m);
        !next.attacked(t, next.king_square(t, self.side), them)
    }

    /// The legal moves, in generation order.
    pub(super) fn legal_moves(&self, t: &Tables, out: &mut Vec<Mv>) {
        out.clear();
        let mut captures = 0;
        self.safe_moves(t, |m, capture| {
            out.push(m);
            captures += capture as usize;
        });
        if t.compulsory_capture && captures > 0 {
            // Keep the captures; `is_capture` is what `safe_moves` reported.
            let board = *self;
            out.retain(|m| board.is_capture(*m));
        }
    }

    #[inline]
    fn is_capture(&self, m: Mv) -> bool {
        match m.flag {
            Flag::EnPassant => true,
            Flag::Castle => false,
            _ => self.on[m.to as usize] != NONE,
        }
    }

    /// How many legal moves there are.
    #[inline]
    pub(super) fn count(&self, t: &Tables) -> u64 {
        let (mut all, mut captures) = (0, 0);
        self.safe_moves(t, |_, capture| {
            all += 1;
            captures += capture as u64;
        });
        if t.compulsory_capture && captures > 0 {
            captures
        } else {
            all
        }
    }

    /// Leaf nodes `depth` plies below (`depth` >= 1), with one move list
    /// per ply below in `lists`.
    pub(super) fn perft(&self, t: &Tables, depth: u32, lists: &mut [Vec<Mv>]) -> u64 {
        if depth == 1 {
            return self.count(t);
        }
        let (list, rest) = lists.split_first_mut().expect("one list per ply");
        self.legal_moves(t, list);
        let mut n = 0;
        for &m in list.iter() {
            n += self.play(t, m).perft(t, depth - 1, rest);
        }
        n
    }
}
