//! The one trait the server sees, and the outcome types.

use crate::errors::{FenError, MoveError};
use crate::family::Family;
use crate::geometry::{Geometry, Square};
use crate::moves::Move;
use crate::piece::{Color, Kind, Piece};
use crate::position::{Position, MAX_KINDS};

/// Which written form of a move.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Notation {
    /// The coordinate form used by `perft --divide` and stored in records
    /// (UCI-like, as Fairy-Stockfish writes it where it knows the variant).
    Coordinate,
    /// The form shown to people: SAN for chess-like variants, the variant's
    /// own published notation otherwise.
    Display,
    /// Game Courier's form (`N g1-f3`, `P*e5`, parts joined by `; `).
    GameCourier,
}

impl Notation {
    /// The legal move list a variant whose written forms depend on the
    /// other legal moves needs to write one move in this notation from its
    /// position alone: only the display form (SAN's disambiguation) reads
    /// it, so the others are spared generating it.
    pub(crate) fn legal_needed(self, legal_moves: impl FnOnce() -> Vec<Move>) -> Vec<Move> {
        match self {
            Notation::Display => legal_moves(),
            _ => Vec::new(),
        }
    }

    pub const ALL: [Notation; 3] = [
        Notation::Coordinate,
        Notation::Display,
        Notation::GameCourier,
    ];
}

/// How a variant treats repeated positions.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RepetitionRule {
    /// Repetition has no effect.
    Ignored,
    /// The third occurrence of a position ends the game as a draw.
    ThreefoldDraw,
    /// A move making a position occur a third time is illegal, unless every
    /// opponent move since its first occurrence gave check (the checked side
    /// may repeat, the checker may not) — Leaperhouse.
    ThirdIllegalUnlessChecked,
    /// A move recreating any earlier position is illegal — Maohopper.
    AnyRepeatIllegal,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Reason {
    Checkmate,
    /// No legal move and not in check (a draw or a loss, by variant).
    Stalemate,
    Repetition,
    /// The variant's move-count rule (FIDE's 50 moves, Lionized's 50 turns).
    MoveCountRule,
    /// Leaperhouse: the king reached the far rank.
    Campmate,
    /// Maohopper: the flag was captured.
    FlagCaptured,
    /// Leap Chess: a side was left with a bare king.
    BareKing,
    /// Fleap: a king was captured or destroyed.
    KingCaptured,
    /// Only kings (or too little) remain.
    InsufficientMaterial,
    /// A side lost the last of a piece type the variant says it must keep
    /// (Fairy-Stockfish's extinction rule: antichess, horde, three kings).
    Extinction,
    /// A piece reached its goal region (king of the hill, racing kings).
    FlagReached,
    /// Janggi's bikjang: the kings faced each other and were not parted.
    KingsFacing,
    /// Both sides passed in turn (janggi).
    BothPassed,
}

impl Reason {
    pub fn describe(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::Repetition => "repetition",
            Reason::MoveCountRule => "move-count rule",
            Reason::Campmate => "campmate",
            Reason::FlagCaptured => "flag captured",
            Reason::BareKing => "bare king",
            Reason::KingCaptured => "king captured",
            Reason::InsufficientMaterial => "insufficient material",
            Reason::Extinction => "extinction",
            Reason::FlagReached => "reaching the goal",
            Reason::KingsFacing => "bikjang",
            Reason::BothPassed => "double pass",
        }
    }
    pub const ALL: [Reason; 13] = [
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::Repetition,
        Reason::MoveCountRule,
        Reason::Campmate,
        Reason::FlagCaptured,
        Reason::BareKing,
        Reason::KingCaptured,
        Reason::InsufficientMaterial,
        Reason::Extinction,
        Reason::FlagReached,
        Reason::KingsFacing,
        Reason::BothPassed,
    ];

    /// The reason with this [`Reason::code`].
    pub fn from_code(code: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.code() == code)
    }

    /// A stable machine name (`checkmate`, `move-count-rule`...).
    pub fn code(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::Repetition => "repetition",
            Reason::MoveCountRule => "move-count-rule",
            Reason::Campmate => "campmate",
            Reason::FlagCaptured => "flag-captured",
            Reason::BareKing => "bare-king",
            Reason::KingCaptured => "king-captured",
            Reason::InsufficientMaterial => "insufficient-material",
            Reason::Extinction => "extinction",
            Reason::FlagReached => "flag-reached",
            Reason::KingsFacing => "bikjang",
            Reason::BothPassed => "double-pass",
        }
    }
}

/// How a game ended by the rules.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub reason: Reason,
}

impl Outcome {
    pub fn win(winner: Color, reason: Reason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }
    pub fn draw(reason: Reason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }
    /// "1-0", "0-1" or "1/2-1/2".
    pub fn result_code(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            _ => "1/2-1/2",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Reason;

    #[test]
    fn reason_codes_round_trip() {
        for r in Reason::ALL {
            assert_eq!(Reason::from_code(r.code()), Some(r));
        }
        assert_eq!(Reason::from_code("nonsense"), None);
    }
}

impl Outcome {
    /// In words with the variant's side names ("Red wins by bare king",
    /// "draw by repetition"): there is no `Display`, since a colour's own
    /// name is wrong for variants that name their sides otherwise.
    pub fn describe(&self, variant: &dyn Variant) -> String {
        match self.winner {
            Some(c) => format!(
                "{} wins by {}",
                variant.side_name(c),
                self.reason.describe()
            ),
            None => format!("draw by {}", self.reason.describe()),
        }
    }
}

/// How a piece is written and named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceLabel {
    /// As in the FEN (`N`, `n`, `+P`).
    pub letter: String,
    /// A human name (`Knight`, `Guard`).
    pub name: String,
    /// Pointing direction in degrees clockwise from "up the board" (Spears).
    pub direction: Option<i16>,
    /// What a board drawing writes on the piece when it has no standard
    /// glyph: the letter of the variant's display notation (Leap Chess's
    /// Sail is `S` though its FEN letter is `q`). Empty from a variant
    /// means "the FEN letter, upper case"; [`crate::BoardView`] fills it in.
    pub symbol: String,
}

impl PieceLabel {
    /// The symbol to draw, falling back to the FEN letter.
    pub fn symbol_or_letter(&self) -> String {
        if self.symbol.is_empty() {
            self.letter.to_uppercase()
        } else {
            self.symbol.clone()
        }
    }
}

/// What a side holds off the board: pieces in hand, or counters that are
/// not pieces ([`Variant::held_counters`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandItem {
    pub color: Color,
    pub label: PieceLabel,
    pub count: u8,
}

/// A chess variant: everything the server may ask of the rules.
pub trait Variant: Send + Sync + 'static {
    fn id(&self) -> &'static str;
    fn name(&self) -> &'static str;
    fn geometry(&self) -> &Geometry;
    /// Names of the sides (`Red`/`Black` in Leap Chess).
    fn side_name(&self, color: Color) -> &'static str {
        color.name()
    }
    fn start_fen(&self) -> &'static str;
    /// The rules as shown on the variant's page (plain text, paragraphs
    /// separated by blank lines). Reconstructed parts say so.
    fn rules_text(&self) -> &'static str;
    fn piece_label(&self, piece: Piece) -> PieceLabel;

    fn parse_fen(&self, fen: &str) -> Result<Position, FenError>;
    fn fen(&self, pos: &Position) -> String;

    /// Legal moves, not counting history-dependent rules (repetition),
    /// which [`crate::Game`] applies. Empty when the game is over.
    fn legal_moves(&self, pos: &Position) -> Vec<Move>;
    /// The position after `mv`, which must be one of `legal_moves(pos)`.
    fn play(&self, pos: &Position, mv: &Move) -> Position;
    /// Leaf nodes `depth` plies below `pos` (perft). A variant may count
    /// faster than [`Variant::legal_moves`] and [`Variant::play`] do, which
    /// is what this does unless it is overridden; the numbers are the same.
    fn perft(&self, pos: &Position, depth: u32) -> u64 {
        perft_by_moves(self, pos, depth)
    }
    /// The game's end as judged from the position and its legal moves
    /// (already filtered by repetition rules).
    fn outcome(&self, pos: &Position, legal: &[Move]) -> Option<Outcome>;
    /// Whether the side to move is in check (false for variants without check).
    fn in_check(&self, _pos: &Position) -> bool {
        false
    }
    fn repetition_rule(&self) -> RepetitionRule {
        RepetitionRule::Ignored
    }
    /// What a drawn end (`reason`: a repetition) at `pos` becomes: a draw,
    /// or where the variant counts material at a draw (armageddon's draw
    /// odds, janggi's points) the count's winner.
    fn drawn(&self, _pos: &Position, reason: Reason) -> Outcome {
        Outcome::draw(reason)
    }
    /// Whether a legal move may remove the mover's own pieces (Maohopper's
    /// trap, Fleap's Nukes): only then is each legal move played to find
    /// what it costs ([`crate::Game::own_losses`]).
    fn moves_may_cost_own_pieces(&self) -> bool {
        false
    }
    /// Whether a `+` after a move marks a check (false where the notation
    /// writes something else with it: Leaperhouse's promotions).
    fn plus_marks_check(&self) -> bool {
        true
    }
    /// What makes two positions "the same" for the repetition rule.
    fn repetition_key(&self, pos: &Position) -> u64 {
        pos.hash()
    }
    /// The [`Variant::repetition_key`] of the position `mv` leads to, given
    /// `key`, that of `pos`. A variant whose repetition rule tries every
    /// legal move may work it out from what the move changes instead of
    /// playing it.
    fn repetition_key_after(&self, pos: &Position, key: u64, mv: &Move) -> u64 {
        let _ = key;
        self.repetition_key(&self.play(pos, mv))
    }

    fn format_move(&self, pos: &Position, mv: &Move, notation: Notation) -> String;
    /// [`Variant::format_move`] for a move of `legal`, the whole legal move
    /// list of `pos` (in any order), which a variant whose written forms
    /// depend on the other legal moves (SAN's disambiguation) then need not
    /// generate again: [`crate::Game::play`] has it.
    fn format_move_among(
        &self,
        pos: &Position,
        legal: &[Move],
        mv: &Move,
        notation: Notation,
    ) -> String {
        let _ = legal;
        self.format_move(pos, mv, notation)
    }
    /// `mv` in its family's own notation where the family has one besides
    /// the display form (xiangqi's WXF, as Fairy-Stockfish writes it), which
    /// [`Variant::parse_move`] reads as well; `None` for the others.
    fn format_move_family(&self, pos: &Position, mv: &Move) -> Option<String> {
        let _ = (pos, mv);
        None
    }
    /// A start position drawn for a new game where the variant shuffles
    /// its back rank (Chess960), from `seed`; `None` where every game
    /// starts from [`Variant::start_fen`].
    fn shuffled_start(&self, seed: u64) -> Option<String> {
        let _ = seed;
        None
    }
    /// Whether `fen` (as [`Variant::fen`] writes it) is one of the starts
    /// [`Variant::shuffled_start`] draws: a standard start, not a custom one.
    fn is_shuffled_start(&self, fen: &str) -> bool {
        let _ = fen;
        false
    }
    /// What `pos` holds that its FEN does not and later moves depend on
    /// (janggi's passes in a row, shatar's series of checks, a mate by a
    /// dropped shogi pawn), as a small number the game's history keeps, so
    /// a game resumed from its FEN goes on as it was played. 0: nothing.
    fn unwritten_state(&self, pos: &Position) -> u8 {
        let _ = pos;
        0
    }
    /// Put back into `pos`, read from its FEN, what
    /// [`Variant::unwritten_state`] kept.
    fn restore_unwritten_state(&self, pos: &mut Position, state: u8) {
        let _ = (pos, state);
    }
    /// The name of the notation [`Variant::format_move_family`] writes
    /// (`WXF`, `janggi`), where there is one.
    fn family_notation(&self) -> Option<&'static str> {
        None
    }
    /// Every move of `legal`, the whole legal move list of `pos`, written in
    /// `notation`, in order: the same strings as [`Variant::format_move`]
    /// one by one. Variants whose display forms depend on the other legal
    /// moves (SAN's disambiguation) override [`Variant::legal_displays`] to
    /// do that work once rather than once per move.
    fn format_legal_moves(
        &self,
        pos: &Position,
        legal: &[Move],
        notation: Notation,
    ) -> Vec<String> {
        match notation {
            Notation::Display => self.legal_displays(pos, legal),
            _ => legal
                .iter()
                .map(|m| self.format_move(pos, m, notation))
                .collect(),
        }
    }
    /// The display form of every move of `legal` (the legal move list of
    /// `pos`): what [`Variant::format_legal_moves`] gives for
    /// [`Notation::Display`].
    fn legal_displays(&self, pos: &Position, legal: &[Move]) -> Vec<String> {
        legal
            .iter()
            .map(|m| self.format_move(pos, m, Notation::Display))
            .collect()
    }
    /// Read a move in any accepted notation (comment already removed).
    /// `legal` is the legal move list of `pos`.
    fn parse_move(&self, pos: &Position, legal: &[Move], text: &str) -> Result<Move, MoveError>;
    /// A legal move of `pos` in words a player reads ("Knight b1-c3",
    /// "Spear step g3-g4, turn to point forward-right"): what a page's move
    /// chooser shows where several moves join the same squares. Built from
    /// the move's kind unless the variant has moves of its own kind.
    fn describe_move(&self, pos: &Position, mv: &Move) -> String {
        crate::describe::generic(&|p| self.piece_label(p).name, pos, mv)
    }
    /// Squares to highlight for a move: where it came from and where it went.
    fn move_squares(&self, mv: &Move) -> (Option<Square>, Square) {
        (mv.origin(), mv.to)
    }
    /// Squares with a special role, with a short label (Maohopper's trap).
    fn marked_squares(&self) -> Vec<(Square, &'static str)> {
        Vec::new()
    }
    /// Straight lines drawn on the board from one square's centre to
    /// another's (xiangqi's and janggi's palace diagonals): part of the
    /// board as players know it, telling where some pieces may go.
    fn board_lines(&self) -> Vec<(Square, Square)> {
        Vec::new()
    }

    // What legends, board drawings, lists and the command line ask of a
    // variant, so that none of them needs to know a variant by its id.

    /// The family the variant is listed under.
    fn family(&self) -> Family {
        Family::Chess
    }
    /// How many piece kinds the variant defines (kinds `0..n`), for
    /// legends: by default the kinds its start position shows.
    fn kind_count(&self) -> usize {
        self.parse_fen(self.start_fen()).map_or(0, |start| {
            start
                .pieces()
                .map(|(_, p)| p.kind as usize + 1)
                .max()
                .unwrap_or(0)
                .min(MAX_KINDS)
        })
    }
    /// How a piece kind moves in Betza's notation, where the variant is
    /// defined that way (Fairy-Stockfish definitions); `None` otherwise.
    fn piece_betza(&self, kind: Kind) -> Option<String> {
        let _ = kind;
        None
    }
    /// Kinds a side loses the game without (Dobutsu's Lion, an extinction
    /// rule's pieces) where the variant has no royal piece: a movement
    /// diagram puts one of each on the board, or the game is already over.
    fn kept_kinds(&self) -> Vec<Kind> {
        Vec::new()
    }
    /// State a board drawing should show on squares beyond the fixed
    /// [`Variant::marked_squares`]: `lionized` on each Lionized piece,
    /// `crater` on each square a Nuke destroyed.
    fn state_marks(&self, pos: &Position) -> Vec<(Square, &'static str)> {
        let _ = pos;
        Vec::new()
    }
    /// Things each side holds that are not pieces, as hand items (Fleap's
    /// Nukes, letter `*`).
    fn held_counters(&self, pos: &Position) -> Vec<HandItem> {
        let _ = pos;
        Vec::new()
    }
    /// What the variant's board marks mean and notes on its letters, one
    /// paragraph each, for the legend under its board.
    fn legend_notes(&self) -> Vec<String> {
        Vec::new()
    }
    /// The deepest perft `missive perft` runs from the start: about what
    /// counts in minutes; deeper would run for hours.
    fn max_perft_depth(&self) -> u32 {
        5
    }
    /// The PGN `Variant` tag: the id (Fairy-Stockfish's name for its
    /// variants); `None` for FIDE chess, which PGN writes without one.
    fn pgn_variant(&self) -> Option<&'static str> {
        Some(self.id())
    }
}

/// Perft by [`Variant::legal_moves`] and [`Variant::play`] for this ply,
/// which every variant has, and [`Variant::perft`] below it (so a variant
/// that counts its last ply faster uses that); the last ply is counted,
/// not played.
pub(crate) fn perft_by_moves<V: Variant + ?Sized>(variant: &V, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = variant.legal_moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| variant.perft(&variant.play(pos, m), depth - 1))
        .sum()
}
