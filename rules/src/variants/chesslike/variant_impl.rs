//! The `Variant` impl every chess-like variant shares, as a macro: each
//! variant is its own type around a [`ChessLike`](super::ChessLike).

/// Implement [`crate::Variant`] for a type that derefs to a [`ChessLike`].
macro_rules! chess_like_variant {
    ($t:ty) => {
        impl $crate::variant::Variant for $t {
            fn id(&self) -> &'static str {
                self.0.id
            }
            fn name(&self) -> &'static str {
                self.0.name
            }
            fn geometry(&self) -> &$crate::geometry::Geometry {
                &self.0.geometry
            }
            fn side_name(&self, color: $crate::piece::Color) -> &'static str {
                match color {
                    $crate::piece::Color::Black => self.0.side_names[1],
                    _ => self.0.side_names[0],
                }
            }
            fn start_fen(&self) -> &'static str {
                self.0.start_fen
            }
            fn rules_text(&self) -> &'static str {
                self.0.rules_text
            }
            fn piece_label(&self, piece: $crate::piece::Piece) -> $crate::variant::PieceLabel {
                self.0.piece_label(piece)
            }
            fn parse_fen(
                &self,
                fen: &str,
            ) -> Result<$crate::position::Position, $crate::errors::FenError> {
                self.0.parse_fen(fen)
            }
            fn fen(&self, pos: &$crate::position::Position) -> String {
                self.0.fen(pos)
            }
            fn legal_moves(&self, pos: &$crate::position::Position) -> Vec<$crate::moves::Move> {
                self.0.legal_moves(pos)
            }
            fn play(
                &self,
                pos: &$crate::position::Position,
                mv: &$crate::moves::Move,
            ) -> $crate::position::Position {
                self.0.play(pos, mv)
            }
            fn perft(&self, pos: &$crate::position::Position, depth: u32) -> u64 {
                self.0
                    .fast_perft(pos, depth)
                    .unwrap_or_else(|| $crate::variant::perft_by_moves(self, pos, depth))
            }
            fn outcome(
                &self,
                pos: &$crate::position::Position,
                legal: &[$crate::moves::Move],
            ) -> Option<$crate::variant::Outcome> {
                self.0.outcome(pos, legal)
            }
            fn in_check(&self, pos: &$crate::position::Position) -> bool {
                self.0.in_check(pos)
            }
            fn repetition_rule(&self) -> $crate::variant::RepetitionRule {
                $crate::variant::RepetitionRule::ThreefoldDraw
            }
            fn repetition_key(&self, pos: &$crate::position::Position) -> u64 {
                self.0.repetition_key(pos)
            }
            fn format_move(
                &self,
                pos: &$crate::position::Position,
                mv: &$crate::moves::Move,
                notation: $crate::variant::Notation,
            ) -> String {
                self.0.format_move(pos, mv, notation)
            }
            fn format_move_among(
                &self,
                pos: &$crate::position::Position,
                legal: &[$crate::moves::Move],
                mv: &$crate::moves::Move,
                notation: $crate::variant::Notation,
            ) -> String {
                self.0.format_move_among(pos, legal, mv, notation)
            }
            fn legal_displays(
                &self,
                pos: &$crate::position::Position,
                legal: &[$crate::moves::Move],
            ) -> Vec<String> {
                self.0.legal_displays(pos, legal)
            }
            fn parse_move(
                &self,
                pos: &$crate::position::Position,
                legal: &[$crate::moves::Move],
                text: &str,
            ) -> Result<$crate::moves::Move, $crate::errors::MoveError> {
                self.0.parse_move(pos, legal, text)
            }
            fn max_perft_depth(&self) -> u32 {
                self.0.max_perft_depth
            }
            fn pgn_variant(&self) -> Option<&'static str> {
                self.0.pgn_variant
            }
        }
    };
}

pub(crate) use chess_like_variant;
