//! A game: the current position plus the history that repetition rules need.

use crate::errors::{FenError, MoveError};
use crate::moves::Move;
use crate::notation::{check_mark_claim, split_comment, split_mark};
use crate::piece::Color;
use crate::position::Position;
use crate::variant::{Notation, Outcome, Reason, RepetitionRule, Variant};
use crate::view::{BoardView, LegalMoveForms, MoveView};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// One position reached in the game, as the repetition rules see it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct HistoryEntry {
    pub key: u64,
    /// Whether the side to move was in check there.
    pub checked: bool,
    /// What the position holds that its FEN does not
    /// ([`Variant::unwritten_state`]: janggi's passes in a row, shatar's
    /// series of checks); 0 for most variants.
    pub state: u8,
}

impl HistoryEntry {
    /// Append the entry as [`Game::restore`] reads it: the key in 16
    /// lower-case hex digits, then `+` if checked, then `~` and the
    /// unwritten state in hex if it is not 0.
    pub fn write(&self, s: &mut String) {
        // `{:016x}` by hand: formatting machinery was most of the cost.
        for shift in (0..16).rev() {
            s.push(HEX[(self.key >> (shift * 4)) as usize & 0xf] as char);
        }
        if self.checked {
            s.push('+');
        }
        if self.state != 0 {
            s.push('~');
            s.push_str(&format!("{:x}", self.state));
        }
    }

    fn of(v: &dyn Variant, pos: &Position) -> HistoryEntry {
        HistoryEntry {
            key: v.repetition_key(pos),
            checked: v.in_check(pos),
            state: v.unwritten_state(pos),
        }
    }
}

/// A move as played, in every written form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub mv: Move,
    pub coordinate: String,
    pub display: String,
    pub game_courier: String,
    /// The text after `//` in the input, trimmed, if any.
    pub comment: Option<String>,
}

/// How often a key occurs in the history, and where first: what the
/// repetition rules ask, answered without scanning the history, so a move's
/// legality costs the same at ply 10 and at ply 10,000.
#[derive(Copy, Clone, Debug)]
struct Seen {
    count: u32,
    first: usize,
}

/// Position keys are already well-mixed 64-bit hashes: hashing them again
/// was a tenth of a move's work in a long game.
#[derive(Clone, Copy, Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

const TWICE_BITS: usize = 1 << 16;

/// The history's keys counted as they are pushed.
#[derive(Clone, Default)]
struct Repetitions {
    seen: HashMap<u64, Seen, BuildHasherDefault<KeyHasher>>,
    /// The keys that occur at least twice as bits, by the key's low 16
    /// bits; empty until one does, so it also tells whether any does. A
    /// move whose bit is clear cannot make a third occurrence, so most
    /// moves are let through without a probe of `seen`, whose size grows
    /// with the game.
    twice_bits: Vec<u64>,
    /// By parity of the history index: the last index whose side to move
    /// was not in check (the unless-checked rule asks whether any such
    /// entry follows a key's first occurrence at odd distance).
    last_unchecked: [Option<usize>; 2],
}

impl Repetitions {
    fn of(history: &[HistoryEntry]) -> Repetitions {
        let mut r = Repetitions {
            seen: HashMap::with_capacity_and_hasher(history.len(), Default::default()),
            twice_bits: Vec::new(),
            last_unchecked: [None, None],
        };
        for (i, h) in history.iter().enumerate() {
            r.push(i, h);
        }
        r
    }

    fn push(&mut self, index: usize, h: &HistoryEntry) {
        let seen = self.seen.entry(h.key).or_insert(Seen {
            count: 0,
            first: index,
        });
        seen.count += 1;
        if seen.count == 2 {
            if self.twice_bits.is_empty() {
                self.twice_bits = vec![0; TWICE_BITS / 64];
            }
            let bit = h.key as usize % TWICE_BITS;
            self.twice_bits[bit / 64] |= 1 << (bit % 64);
        }
        if !h.checked {
            self.last_unchecked[index % 2] = Some(index);
        }
    }

    fn count(&self, key: u64) -> u32 {
        self.seen.get(&key).map_or(0, |s| s.count)
    }

    /// Whether reaching `key` again would be a third occurrence that the
    /// mover may not make: every opponent move since the first occurrence
    /// must have given check, that is every later entry at odd distance
    /// from the first (the mover to move there) was checked.
    fn third_not_excused(&self, key: u64) -> bool {
        let bit = key as usize % TWICE_BITS;
        if self
            .twice_bits
            .get(bit / 64)
            .is_none_or(|w| w & (1 << (bit % 64)) == 0)
        {
            return false;
        }
        match self.seen.get(&key) {
            Some(s) if s.count >= 2 => {
                let parity = (s.first + 1) % 2;
                self.last_unchecked[parity].is_some_and(|j| j > s.first)
            }
            _ => false,
        }
    }

    /// Whether any key occurs twice yet: until one does, no move can make a
    /// third occurrence.
    fn any_twice(&self) -> bool {
        !self.twice_bits.is_empty()
    }
}

#[derive(Clone)]
pub struct Game {
    variant: &'static dyn Variant,
    position: Position,
    history: Vec<HistoryEntry>,
    repetitions: Repetitions,
    /// Every move the variant allows here, history rules aside, with the
    /// ones only the repetition rule forbids last: one list serves both the
    /// legal moves (read and written among themselves) and the explaining
    /// of a forbidden one, without copying either per ply.
    moves: Vec<Move>,
    /// How many of `moves`, from the first, are legal.
    legal: usize,
    outcome: Option<Outcome>,
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// A history key as [`Game::history_string`] writes it (exactly 16 hex
/// digits); anything else is left to `from_str_radix`.
fn hex_key(s: &str) -> Option<u64> {
    if s.len() != 16 {
        return None;
    }
    s.bytes().try_fold(0u64, |acc, b| {
        let d = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            b'A'..=b'F' => b - b'A' + 10,
            _ => return None,
        };
        Some(acc << 4 | u64::from(d))
    })
}

impl Game {
    /// A new game from the variant's start position or a custom FEN.
    pub fn new(variant: &'static dyn Variant, fen: Option<&str>) -> Result<Game, FenError> {
        let position = match fen.map(str::trim).filter(|f| !f.is_empty()) {
            Some(f) => variant.parse_fen(f)?,
            None => variant.parse_fen(variant.start_fen())?,
        };
        let history = vec![HistoryEntry::of(variant, &position)];
        Ok(Game::assemble(variant, position, history))
    }

    /// Resume a stored game from its current FEN and [`Game::history_string`].
    pub fn restore(
        variant: &'static dyn Variant,
        fen: &str,
        history: &str,
    ) -> Result<Game, FenError> {
        let mut position = variant.parse_fen(fen)?;
        // One entry is 16 hex digits, maybe a '+', and a comma: long games
        // keep thousands, read back on every move.
        let mut entries = Vec::with_capacity(history.len() / 17 + 2);
        for item in history.split(',').filter(|s| !s.is_empty()) {
            let bad = || FenError::Syntax(format!("bad history entry “{item}”"));
            let (rest, state) = match item.split_once('~') {
                Some((r, st)) => (r, u8::from_str_radix(st, 16).map_err(|_| bad())?),
                None => (item, 0),
            };
            let (hex, checked) = match rest.strip_suffix('+') {
                Some(h) => (h, true),
                None => (rest, false),
            };
            let key = hex_key(hex)
                .or_else(|| u64::from_str_radix(hex, 16).ok())
                .ok_or_else(bad)?;
            entries.push(HistoryEntry {
                key,
                checked,
                state,
            });
        }
        let key = variant.repetition_key(&position);
        match entries.last() {
            // The position now: what its FEN leaves out comes back.
            Some(last) if last.key == key => {
                variant.restore_unwritten_state(&mut position, last.state)
            }
            _ => entries.push(HistoryEntry::of(variant, &position)),
        }
        Ok(Game::assemble(variant, position, entries))
    }

    /// Replay a record of move texts from a start FEN; on failure, the
    /// 0-based index of the move that failed and why.
    pub fn replay<S: AsRef<str>>(
        variant: &'static dyn Variant,
        fen: Option<&str>,
        moves: &[S],
    ) -> Result<Game, ReplayError> {
        let mut game = Game::new(variant, fen).map_err(ReplayError::Fen)?;
        for (i, text) in moves.iter().enumerate() {
            // A replay keeps no written moves: it advances without them.
            let (mv, _) = game
                .parse_move(text.as_ref())
                .map_err(|e| ReplayError::Move(i, e))?;
            game.advance(&mv);
        }
        Ok(game)
    }

    fn assemble(
        variant: &'static dyn Variant,
        position: Position,
        history: Vec<HistoryEntry>,
    ) -> Game {
        let mut game = Game {
            variant,
            position,
            repetitions: Repetitions::of(&history),
            history,
            moves: Vec::new(),
            legal: 0,
            outcome: None,
        };
        game.refresh();
        game
    }

    /// Recompute legal moves and outcome for the current position.
    fn refresh(&mut self) {
        let v = self.variant;
        let mut moves = v.legal_moves(&self.position);
        let checked = match v.repetition_rule() {
            RepetitionRule::ThirdIllegalUnlessChecked => self.repetitions.any_twice(),
            RepetitionRule::AnyRepeatIllegal => true,
            _ => false,
        };
        let mut legal = moves.len();
        if checked && moves.iter().any(|m| self.repeats_illegally(m)) {
            let (mut allowed, forbidden): (Vec<Move>, Vec<Move>) =
                moves.into_iter().partition(|m| !self.repeats_illegally(m));
            legal = allowed.len();
            allowed.extend(forbidden);
            moves = allowed;
        }
        self.moves = moves;
        self.legal = legal;
        let current = self
            .history
            .last()
            .expect("history holds the current position")
            .key;
        let repeated = self.repetitions.count(current);
        self.outcome = if v.repetition_rule() == RepetitionRule::ThreefoldDraw && repeated >= 3 {
            Some(v.drawn(&self.position, Reason::Repetition))
        } else {
            v.outcome(&self.position, self.legal_moves())
        };
        if self.outcome.is_some() {
            self.moves.clear();
            self.legal = 0;
        }
    }

    fn repeats_illegally(&self, mv: &Move) -> bool {
        let v = self.variant;
        let now = self.history.last().map_or(0, |h| h.key);
        let key = v.repetition_key_after(&self.position, now, mv);
        match v.repetition_rule() {
            RepetitionRule::AnyRepeatIllegal => self.repetitions.count(key) > 0,
            RepetitionRule::ThirdIllegalUnlessChecked => self.repetitions.third_not_excused(key),
            _ => false,
        }
    }

    pub fn variant(&self) -> &'static dyn Variant {
        self.variant
    }
    pub fn position(&self) -> &Position {
        &self.position
    }
    pub fn fen(&self) -> String {
        self.variant.fen(&self.position)
    }
    pub fn side_to_move(&self) -> Color {
        self.position.side
    }
    /// Plies played since the start position.
    pub fn ply(&self) -> usize {
        self.history.len() - 1
    }
    pub fn legal_moves(&self) -> &[Move] {
        &self.moves[..self.legal]
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    pub fn in_check(&self) -> bool {
        self.variant.in_check(&self.position)
    }
    pub fn history(&self) -> &[HistoryEntry] {
        &self.history
    }
    /// The history in the compact form [`Game::restore`] reads: the
    /// entries as [`HistoryEntry::write`] writes them, comma-separated.
    pub fn history_string(&self) -> String {
        let mut s = String::with_capacity(self.history.len() * 18);
        for (i, h) in self.history.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            h.write(&mut s);
        }
        s
    }

    /// The last entry of the history (the position now), as
    /// [`HistoryEntry::write`] writes it: what a move adds to
    /// [`Game::history_string`] after a comma.
    pub fn last_history_entry(&self) -> String {
        let mut s = String::with_capacity(17);
        if let Some(h) = self.history.last() {
            h.write(&mut s);
        }
        s
    }

    /// Read a move text (any accepted notation, optional `// comment`).
    pub fn parse_move(&self, text: &str) -> Result<(Move, Option<String>), MoveError> {
        let (body, comment) = split_comment(text);
        let body = body.trim();
        if self.outcome.is_some() {
            return Err(MoveError::GameOver);
        }
        if body.is_empty() {
            return Err(MoveError::Empty);
        }
        if body.chars().count() > 200 {
            return Err(MoveError::Syntax {
                input: body.chars().take(40).collect::<String>() + "…",
                reason: "the text is far too long for a move".into(),
            });
        }
        let comment = comment
            .map(|c| c.trim().to_string())
            .filter(|c| !c.is_empty());
        let plus_marks_check = self.variant.plus_marks_check();
        let (unmarked, mark) = split_mark(body, plus_marks_check);
        let mv = self
            .read_unmarked(unmarked)
            .map_err(|e| e.with_input(body))?;
        if let Some(mark) = mark {
            let v = self.variant;
            let next = v.play(&self.position, &mv);
            check_mark_claim(
                unmarked,
                mark,
                v.in_check(&next),
                || !v.legal_moves(&next).is_empty(),
                plus_marks_check,
            )?;
        }
        Ok((mv, comment))
    }

    /// The legal move `body`, a move text without comment or mark, names.
    fn read_unmarked(&self, body: &str) -> Result<Move, MoveError> {
        // Read among the legal moves only, so a move the repetition rule
        // forbids makes no text ambiguous (`Nd2` when only one Knight may
        // go there); failing that, among all, to say why a forbidden one is.
        let error = match self
            .variant
            .parse_move(&self.position, self.legal_moves(), body)
        {
            Ok(mv) => return Ok(mv),
            Err(e) => e,
        };
        let forbidden = &self.moves[self.legal..];
        if !forbidden.is_empty() {
            if let Ok(mv) = self.variant.parse_move(&self.position, &self.moves, body) {
                if forbidden.contains(&mv) {
                    return Err(self.repetition_error(body));
                }
            }
        }
        Err(error)
    }

    fn repetition_error(&self, body: &str) -> MoveError {
        let reason = match self.variant.repetition_rule() {
            RepetitionRule::AnyRepeatIllegal => "it would recreate a position that has already occurred in this game.",
            _ => "it would make the same position occur for the third time, which is only allowed to a player who has been checked on every move since.",
        };
        MoveError::Illegal {
            input: body.to_string(),
            reason: reason.into(),
            alternatives: Vec::new(),
        }
    }

    /// Play a legal move. Panics if `mv` is not legal here (use
    /// [`Game::parse_move`] or pick from [`Game::legal_moves`]).
    pub fn play(&mut self, mv: &Move) -> Played {
        assert!(
            self.legal_moves().contains(mv),
            "Game::play called with an illegal move"
        );
        let v = self.variant;
        // Written among the legal moves, as the move list shows it: SAN's
        // disambiguation is among the moves the player could choose.
        let written = |n| v.format_move_among(&self.position, self.legal_moves(), mv, n);
        let played = Played {
            mv: *mv,
            coordinate: written(Notation::Coordinate),
            display: written(Notation::Display),
            game_courier: written(Notation::GameCourier),
            comment: None,
        };
        self.advance(mv);
        played
    }

    /// Play a legal move without writing it.
    fn advance(&mut self, mv: &Move) {
        let v = self.variant;
        self.position = v.play(&self.position, mv);
        let entry = HistoryEntry::of(v, &self.position);
        self.repetitions.push(self.history.len(), &entry);
        self.history.push(entry);
        self.refresh();
    }

    /// Parse and play a move text.
    pub fn play_text(&mut self, text: &str) -> Result<Played, MoveError> {
        let (mv, comment) = self.parse_move(text)?;
        let mut played = self.play(&mv);
        played.comment = comment;
        Ok(played)
    }

    /// Format a legal move of the current position (among the legal moves,
    /// as [`Game::play`] writes it).
    pub fn format(&self, mv: &Move, notation: Notation) -> String {
        self.variant
            .format_move_among(&self.position, self.legal_moves(), mv, notation)
    }

    /// The legal moves with their written forms and squares, for a move list
    /// or click-to-move.
    pub fn move_views(&self) -> Vec<MoveView> {
        MoveView::all(self.variant, &self.position, self.legal_moves())
    }

    /// The legal moves as a game page lists them (no Game Courier form).
    pub fn legal_move_forms(&self) -> Vec<LegalMoveForms> {
        LegalMoveForms::all(self.variant, &self.position, self.legal_moves())
    }

    /// The names of the mover's own pieces the legal move `mv` removes
    /// from the board (a piece moved onto Maohopper's trap, a Fleap Nuke
    /// beside its owner's pieces), sorted; empty for every ordinary move.
    pub fn own_losses(&self, mv: &Move) -> Vec<String> {
        match self.variant.moves_may_cost_own_pieces() {
            true => crate::view::own_losses(self.variant, &self.position, mv),
            false => Vec::new(),
        }
    }

    pub fn board_view(&self) -> BoardView {
        BoardView::new(self.variant, &self.position)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    Fen(FenError),
    /// The 0-based index of the failing move, and why.
    Move(usize, MoveError),
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::Fen(e) => write!(f, "{e}"),
            ReplayError::Move(i, e) => write!(f, "ply {}: {e}", i + 1),
        }
    }
}

impl std::error::Error for ReplayError {}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("variant", &self.variant.id())
            .field("fen", &self.fen())
            .field("ply", &self.ply())
            .field("outcome", &self.outcome)
            .finish()
    }
}
