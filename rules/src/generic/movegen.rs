//! Legal moves of a spec: pseudo-legal generation over the mailbox, then
//! the king-safety and variant filters Fairy-Stockfish applies.

use super::kings::Kings;
use super::Generic;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind};
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::spec::{Atom, Reach};

/// Castling-right bits: White king side, White queen side, Black's.
pub(super) const CASTLE_BITS: [[u8; 2]; 2] = [[1, 2], [4, 8]];

impl Generic {
    #[inline]
    pub(super) fn dir(color: Color, a: &Atom) -> (i8, i8) {
        if color == Color::Black {
            (-a.df, -a.dr)
        } else {
            (a.df, a.dr)
        }
    }

    /// Fairy-Stockfish's path of a lame leap from `from` by `(dx, dy)`:
    /// diagonal steps while both offsets remain, else along the longer one.
    pub(super) fn lame_path_clear(pos: &Position, from: Square, dx: i8, dy: i8) -> bool {
        Self::lame_path(from, dx, dy, |sq| pos.get(sq).is_none())
    }

    /// Calls `visit` on each square of that path while it answers true;
    /// whether it answered true throughout.
    #[inline]
    pub(super) fn lame_path(
        from: Square,
        dx: i8,
        dy: i8,
        mut visit: impl FnMut(Square) -> bool,
    ) -> bool {
        let (tf, tr) = (from.file() as i8 + dx, from.rank() as i8 + dy);
        let (mut f, mut r) = (from.file() as i8, from.rank() as i8);
        let (sf, sr) = (dx.signum(), dy.signum());
        loop {
            let diff = (tf - f).abs() - (tr - r).abs();
            if diff > 0 {
                f += sf;
            } else if diff < 0 {
                r += sr;
            } else {
                f += sf;
                r += sr;
            }
            if f == tf && r == tr {
                return true;
            }
            if !visit(Square::new(f as u8, r as u8)) {
                return false;
            }
        }
    }

    /// Targets of one atom from `from` for a piece of `color`: calls
    /// `emit(to, capture)` for each.
    fn atom_targets(
        pos: &Position,
        from: Square,
        color: Color,
        a: &Atom,
        emit: &mut impl FnMut(Square, bool),
    ) {
        let (dx, dy) = Self::dir(color, a);
        let land = |to: Square, emit: &mut dyn FnMut(Square, bool)| match pos.get(to) {
            None => {
                if a.quiet {
                    emit(to, false)
                }
            }
            Some(p) => {
                if a.capture && p.color != color {
                    emit(to, true)
                }
            }
        };
        match a.reach {
            Reach::Leap => {
                if let Some(to) = pos.step(from, dx, dy) {
                    land(to, emit);
                }
            }
            Reach::Lame => {
                if let Some(to) = pos.step(from, dx, dy) {
                    if Self::lame_path_clear(pos, from, dx, dy) {
                        land(to, emit);
                    }
                }
            }
            Reach::Ride(limit) => {
                let mut sq = from;
                let mut n = 0;
                while let Some(to) = pos.step(sq, dx, dy) {
                    land(to, emit);
                    n += 1;
                    if pos.get(to).is_some() || (limit != 0 && n >= limit) {
                        break;
                    }
                    sq = to;
                }
            }
            Reach::Hop | Reach::Grasshop => {
                let mut sq = from;
                let mut hurdle = false;
                while let Some(to) = pos.step(sq, dx, dy) {
                    if hurdle {
                        land(to, emit);
                        if a.reach == Reach::Grasshop || pos.get(to).is_some() {
                            break;
                        }
                    } else if pos.get(to).is_some() {
                        hurdle = true;
                    }
                    sq = to;
                }
            }
        }
    }

    /// Whether a piece of `color` and kind `kind` on `from` attacks `target`.
    pub(super) fn piece_attacks(
        &self,
        pos: &Position,
        from: Square,
        p: Piece,
        target: Square,
    ) -> bool {
        if self.slow_moves && !self.may_reach(pos, from, p, target) {
            return false;
        }
        if self.janggi {
            let mut hit = false;
            let instead = self.janggi_targets(pos, from, p, &mut |to, cap| {
                hit |= cap && to == target;
            });
            if hit || instead {
                return hit;
            }
        }
        let mut hit = false;
        for a in &self.spec.pieces[p.kind as usize].movement.normal {
            if !a.capture {
                continue;
            }
            // Cheap pre-checks: the target must lie along the atom's line.
            let (dx, dy) = Self::dir(p.color, a);
            let (tx, ty) = (
                target.file() as i8 - from.file() as i8,
                target.rank() as i8 - from.rank() as i8,
            );
            let aligned = match a.reach {
                Reach::Leap | Reach::Lame => tx == dx && ty == dy,
                _ => {
                    let k = if dx != 0 { tx / dx } else { ty / dy };
                    k > 0 && tx == k * dx && ty == k * dy
                }
            };
            if !aligned {
                continue;
            }
            Self::atom_targets(pos, from, p.color, a, &mut |to, cap| {
                if cap && to == target {
                    hit = true
                }
            });
            if hit {
                return true;
            }
        }
        false
    }

    /// Whether `color`'s pieces attack `target` (as if an enemy piece stood there).
    pub(super) fn attacked_by(&self, pos: &Position, target: Square, color: Color) -> bool {
        if self.janggi {
            self.attacked_forwards(pos, target, color)
        } else {
            self.attacked_backwards(pos, target, color)
        }
    }

    /// [`Generic::attacked_by`] by trying each of `color`'s pieces with an
    /// enemy piece on `target`: janggi's way (its cannon may not take a
    /// cannon, so what stands on the target matters).
    pub(super) fn attacked_forwards(&self, pos: &Position, target: Square, color: Color) -> bool {
        let mut probe = pos.clone();
        if probe.get(target).is_none_or(|p| p.color == color) {
            probe.set(target, Some(Piece::new(0, color.opponent())));
        }
        let hit = probe.pieces().any(|(sq, p)| {
            p.color == color && sq != target && self.piece_attacks(&probe, sq, p, target)
        });
        hit
    }

    pub(super) fn king_square(&self, pos: &Position, color: Color) -> Option<Square> {
        let k = self.spec.king_kind()?;
        pos.pieces()
            .find(|(_, p)| p.color == color && p.kind == k)
            .map(|(s, _)| s)
    }

    pub(crate) fn in_check_of(&self, pos: &Position, color: Color) -> bool {
        match self.king_square(pos, color) {
            Some(k) => self.attacked_by(pos, k, color.opponent()),
            None => false,
        }
    }

    fn pawn_moves(&self, pos: &Position, from: Square, color: Color, out: &mut Vec<Move>) {
        let s = &self.spec;
        let c = color.index();
        let fwd = color.forward();
        // Grand chess: a pawn promotes only to a type of which fewer than
        // its limit stand on the board (`promotionLimit`).
        let open = |k: u8| {
            let limit = s.promotion_limit.get(k as usize).copied().unwrap_or(0);
            limit == 0
                || pos
                    .pieces()
                    .filter(|(_, p)| p.color == color && p.kind == k)
                    .count()
                    < limit as usize
        };
        let push = |to: Square, out: &mut Vec<Move>| {
            if s.promotion_region[c].contains(to) {
                for &k in s.promotion_types[c].iter().filter(|&&k| open(k)) {
                    out.push(Move::promotion(from, to, Piece::new(k, color)));
                }
                if !s.mandatory_pawn_promotion {
                    out.push(Move::normal(from, to));
                }
            } else {
                out.push(Move::normal(from, to));
            }
        };
        if let Some(one) = pos.step(from, 0, fwd) {
            if pos.get(one).is_none() {
                push(one, out);
                if s.double_step_region[c].contains(from) {
                    if let Some(two) = pos.step(one, 0, fwd) {
                        if pos.get(two).is_none() {
                            push(two, out);
                        }
                    }
                }
            }
        }
        for dx in [-1, 1] {
            let Some(to) = pos.step(from, dx, fwd) else {
                continue;
            };
            match pos.get(to) {
                Some(p) if p.color != color => push(to, out),
                None if pos.ep == Some(to) => {
                    let victim = Square::new(to.file(), from.rank());
                    out.push(
                        Move::normal(from, to)
                            .with_kind(MoveKind::EnPassant)
                            .with_extra(victim, victim),
                    );
                }
                _ => {}
            }
        }
    }

    /// The file of the rook `color` castles with on `side` (0: king side):
    /// the definition's, or in Chess960 the position's.
    pub(super) fn castling_rook_file(&self, pos: &Position, color: Color, side: usize) -> u8 {
        if self.spec.chess960 {
            pos.castling_files[color.index()][side]
        } else {
            self.spec.castling_rook_files[side]
        }
    }

    fn castling_moves(&self, pos: &Position, color: Color, out: &mut Vec<Move>) {
        let s = &self.spec;
        let Some(king) = s.castling_king else { return };
        let rank = if color == Color::White {
            s.castling_rank
        } else {
            s.height - 1 - s.castling_rank
        };
        // The king castles from wherever it stands on the castling rank
        // (Capablanca's stands on f1).
        let Some(ksq) = (0..s.width)
            .map(|f| Square::new(f, rank))
            .find(|sq| pos.get(*sq) == Some(Piece::new(king, color)))
        else {
            return;
        };
        let kfile = ksq.file();
        for (side, (rook_file, king_to)) in [
            (
                self.castling_rook_file(pos, color, 0),
                s.castling_kingside_file,
            ),
            (
                self.castling_rook_file(pos, color, 1),
                s.castling_queenside_file,
            ),
        ]
        .into_iter()
        .enumerate()
        {
            if pos.castling & CASTLE_BITS[color.index()][side] == 0 {
                continue;
            }
            let rsq = Square::new(rook_file, rank);
            match pos.get(rsq) {
                Some(p) if p.color == color && s.castling_rooks.contains(&p.kind) => {}
                _ => continue,
            }
            let rook_to = if side == 0 { king_to - 1 } else { king_to + 1 };
            let span = |a: u8, b: u8| a.min(b)..=a.max(b);
            let files: Vec<u8> = span(kfile, rook_file)
                .chain(span(kfile, king_to))
                .chain(span(rook_file, rook_to))
                .collect();
            if files.iter().any(|&f| {
                let sq = Square::new(f, rank);
                sq != ksq && sq != rsq && pos.get(sq).is_some()
            }) {
                continue;
            }
            let them = color.opponent();
            // Only a royal piece may not castle through attacked squares.
            let royal = s.king_kind() == Some(king);
            if royal
                && span(kfile, king_to).any(|f| self.attacked_by(pos, Square::new(f, rank), them))
            {
                continue;
            }
            let path: Vec<Square> = span(kfile, king_to).map(|f| Square::new(f, rank)).collect();
            if self.castling_path_attacked(pos, ksq, &path) {
                continue;
            }
            out.push(
                Move::normal(ksq, Square::new(king_to, rank))
                    .with_kind(MoveKind::Castle)
                    .with_extra(rsq, Square::new(rook_to, rank)),
            );
        }
    }

    fn drops(&self, pos: &Position, color: Color, out: &mut Vec<Move>) {
        let s = &self.spec;
        let c = color.index();
        for (k, &n) in pos.hands[c].iter().enumerate().take(s.pieces.len()) {
            if n == 0 {
                continue;
            }
            let pawn = s.pieces[k].pawn;
            for sq in pos.squares() {
                if pos.get(sq).is_some() || !s.drop_region[c].contains(sq) {
                    continue;
                }
                if pawn {
                    if !s.first_rank_pawn_drops && pos.relative_rank(sq, color) == 0 {
                        continue;
                    }
                    if !s.promotion_zone_pawn_drops && s.promotion_region[c].contains(sq) {
                        continue;
                    }
                }
                if self.doubled(pos, color, k as u8, sq)
                    || !self.may_reach(pos, sq, Piece::new(k as u8, color), sq)
                {
                    continue;
                }
                if s.shogi.drop_promoted {
                    if let Some(p) = self.promote(k as u8, color) {
                        out.push(Move::drop(p, sq));
                    }
                }
                out.push(Move::drop(Piece::new(k as u8, color), sq));
            }
        }
    }

    /// Pseudo-legal moves; `in_check`: whether the side to move's king is
    /// attacked (no castling then).
    pub(super) fn pseudo_legal(&self, pos: &Position, in_check: bool) -> Vec<Move> {
        let us = pos.side;
        let mut out = Vec::with_capacity(64);
        let s = &self.spec;
        for (from, p) in pos.pieces() {
            if p.color != us {
                continue;
            }
            let ps = &s.pieces[p.kind as usize];
            if ps.pawn {
                self.pawn_moves(pos, from, us, &mut out);
                continue;
            }
            if self.slow_moves {
                let mut targets = Vec::new();
                let instead = self.janggi
                    && self.janggi_targets(pos, from, p, &mut |to, cap| targets.push((to, cap)));
                for a in ps.movement.normal.iter().filter(|_| !instead) {
                    Self::atom_targets(pos, from, us, a, &mut |to, cap| targets.push((to, cap)));
                }
                self.confine(pos, from, p, &mut targets);
                targets.sort_unstable_by_key(|t| t.0);
                targets.dedup();
                self.push_piece_moves(from, p, &targets, &mut out);
            } else {
                for a in &ps.movement.normal {
                    Self::atom_targets(pos, from, us, a, &mut |to, _| {
                        out.push(Move::normal(from, to))
                    });
                }
            }
            if s.double_step_region[us.index()].contains(from) {
                for a in &ps.movement.initial {
                    Self::atom_targets(pos, from, us, a, &mut |to, _| {
                        out.push(Move::normal(from, to))
                    });
                }
            }
        }
        if s.castling && !in_check {
            self.castling_moves(pos, us, &mut out);
        }
        if s.piece_drops {
            self.drops(pos, us, &mut out);
        }
        self.passes(pos, &mut out);
        // A target reached by two atoms (an initial move and a normal one)
        // is one move.
        out.sort_unstable_by_key(|m| (m.from, m.to, m.piece.map(|p| p.kind), m.kind as u8, m.tag));
        out.dedup();
        out
    }

    pub(super) fn is_capture(pos: &Position, m: &Move) -> bool {
        m.kind == MoveKind::EnPassant
            || (m.kind == MoveKind::Normal && m.from != m.to && pos.get(m.to).is_some())
    }

    /// Makpong: in check, the king may only take its one checker; the
    /// square it may go to, if any (`None` when the rule does not bind).
    fn makpong_escape(&self, pos: &Position) -> Option<Option<Square>> {
        if !self.spec.makpong {
            return None;
        }
        match self.checkers(pos).as_slice() {
            [] => None,
            [(one, _)] => Some(Some(*one)),
            _ => Some(None),
        }
    }

    /// Legal moves, ignoring whether the game is already over.
    pub(super) fn legal_unchecked(&self, pos: &Position) -> Vec<Move> {
        let us = pos.side;
        let makpong = self.makpong_escape(pos);
        // Kings facing (janggi's bikjang): the next move must part them,
        // or pass, which is allowed even in check.
        let facing = self.bikjang(pos);
        let royals = self.royals_of(pos);
        let king = self.spec.king_kind();
        let kings = Kings::of(self, pos);
        // Moves that cannot touch a line to the king need no test (only
        // where the king alone decides legality).
        let them = us.opponent();
        let in_check = kings.squares[0].is_some_and(|k| self.attacked_by(pos, k, them));
        let exposure = match kings.squares[0] {
            Some(k)
                if kings.tracked
                    && !in_check
                    && !self.janggi
                    && !facing
                    && royals.is_none()
                    && self.spec.checking
                    && !(self.spec.xiangqi.flying_general
                        && self.generals_face_at(pos, kings.squares[0], kings.squares[1])) =>
            {
                Some(self.exposure(pos, k, them))
            }
            _ => None,
        };
        let mut moves = self.pseudo_legal(pos, in_check);
        moves.retain(|m| {
            if self.strands(pos, m) || !self.drop_keeps_bishops_apart(pos, m) {
                return false;
            }
            if let Some(escape) = makpong {
                let king_moves = m.kind != crate::moves::MoveKind::Drop
                    && pos.get(m.from).map(|p| Some(p.kind)) == Some(king);
                if king_moves && escape != Some(m.to) {
                    return false;
                }
            }
            if facing && Self::is_pass(m) {
                return true;
            }
            // Atomar: kings may not take each other.
            if let (false, Some(a), Some(b)) = (
                self.spec.mutually_immune.is_empty(),
                pos.get(m.from),
                pos.get(m.to),
            ) {
                if m.kind != crate::moves::MoveKind::Drop
                    && a.kind == b.kind
                    && b.color != us
                    && self.spec.mutually_immune.contains(&a.kind)
                {
                    return false;
                }
            }
            if let Some(e) = &exposure {
                let leaves_lines = match m.kind {
                    MoveKind::Normal => m.from == e.king || e.uncover.contains(m.from),
                    MoveKind::Drop => m.piece.map(|p| p.kind) == king,
                    _ => true,
                };
                if !leaves_lines && !e.hurdle.contains(m.to) {
                    return true;
                }
            }
            let after = self.apply(pos, m);
            let [our_king, their_king] = kings.after(self, pos, &after, m);
            let [white_king, black_king] = match us {
                Color::White => [our_king, their_king],
                _ => [their_king, our_king],
            };
            if (self.spec.xiangqi.flying_general || facing)
                && self.generals_face_at(&after, white_king, black_king)
            {
                return false;
            }
            if royals
                .as_ref()
                .is_some_and(|r| !self.pseudo_royals_safe(pos, r, m, &after))
            {
                return false;
            }
            !our_king.is_some_and(|k| self.attacked_by(&after, k, them))
                && (self.spec.checking
                    || !their_king.is_some_and(|k| self.attacked_by(&after, k, us)))
        });
        if self.spec.must_capture && moves.iter().any(|m| Self::is_capture(pos, m)) {
            moves.retain(|m| Self::is_capture(pos, m));
        }
        // Placement: while a drop is possible, only drops are.
        if self.spec.must_drop && moves.iter().any(|m| m.kind == MoveKind::Drop) {
            moves.retain(|m| m.kind == MoveKind::Drop);
        }
        moves
    }
}
