//! What the fuzz targets check, as plain functions over bytes, so that
//! `rules/tests/fuzz_regressions.rs` replays saved inputs through exactly the
//! same code without libFuzzer (it includes this file with `#[path]`).
//!
//! Every input starts with one byte choosing the variant (modulo the number
//! of variants), so one target covers every variant's parser.

use missive_rules::{variants, Game, Move, MoveError, Notation, Position, Variant};
use std::sync::OnceLock;

/// The variant chosen by the first byte, and the rest of the input.
pub fn split_variant(data: &[u8]) -> Option<(&'static dyn Variant, &[u8])> {
    let (&first, rest) = data.split_first()?;
    let all = variants();
    Some((all[first as usize % all.len()], rest))
}

/// The variant's start position as a game, computed once per process:
/// most of an execution's time would otherwise go into setting it up.
fn start(v: &'static dyn Variant) -> Game {
    static STARTS: OnceLock<Vec<Game>> = OnceLock::new();
    let all = STARTS.get_or_init(|| {
        variants()
            .iter()
            .map(|&v| Game::new(v, None).expect("start position parses"))
            .collect()
    });
    let i = variants()
        .iter()
        .position(|&w| w.id() == v.id())
        .expect("a registered variant");
    all[i].clone()
}

/// Bytes as text: invalid UTF-8 still reaches the parser (replaced), since
/// the server hands it whatever a form field decodes to.
fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The first `limit` legal moves of `pos`, written in every notation, read
/// back as themselves.
fn assert_round_trips(v: &dyn Variant, pos: &Position, legal: &[Move], limit: usize) {
    for m in legal.iter().take(limit) {
        for n in Notation::ALL {
            let written = v.format_move(pos, m, n);
            let back = v.parse_move(pos, legal, &written);
            assert_eq!(
                back.as_ref(),
                Ok(m),
                "{}: {n:?} “{written}” does not read back in {}",
                v.id(),
                v.fen(pos)
            );
        }
    }
}

/// A parse result must be one of the legal moves; an error must say something.
fn assert_parsed(v: &dyn Variant, legal: &[Move], input: &str, r: &Result<Move, MoveError>) {
    match r {
        Ok(m) => assert!(
            legal.contains(m),
            "{}: “{input}” read as a move that is not legal: {m:?}",
            v.id()
        ),
        Err(e) => assert!(!e.to_string().is_empty(), "{}: empty error", v.id()),
    }
}

/// Move parser: arbitrary text against the start position, through the
/// variant's parser and through [`Game::parse_move`] (comments, limits).
pub fn move_parser(data: &[u8]) {
    let Some((v, rest)) = split_variant(data) else {
        return;
    };
    let input = text(rest);
    let game = start(v);
    let legal = game.legal_moves().to_vec();
    let pos = game.position().clone();
    let direct = v.parse_move(&pos, &legal, &input);
    assert_parsed(v, &legal, &input, &direct);
    match game.parse_move(&input) {
        Ok((m, _comment)) => {
            assert!(
                legal.contains(&m),
                "{}: “{input}” gave an illegal move",
                v.id()
            );
            let mut after = game.clone();
            let played = after.play_text(&input).expect("a parsed move plays");
            assert_eq!(played.mv, m);
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

/// The most moves of a position checked in depth, to keep each run short.
const MOVES_CHECKED: usize = 32;

/// FEN parser: arbitrary text; whatever is accepted must be written back
/// stably and be playable without a panic.
pub fn fen_parser(data: &[u8]) {
    let Some((v, rest)) = split_variant(data) else {
        return;
    };
    let input = text(rest);
    let Ok(pos) = v.parse_fen(&input) else {
        return;
    };
    let fen = v.fen(&pos);
    let again = v
        .parse_fen(&fen)
        .unwrap_or_else(|e| panic!("{}: “{input}” gave “{fen}”, which fails: {e}", v.id()));
    assert_eq!(
        v.fen(&again),
        fen,
        "{}: FEN not stable for “{input}”",
        v.id()
    );
    let game = match Game::new(v, Some(&fen)) {
        Ok(g) => g,
        Err(e) => panic!("{}: “{fen}” parses but Game::new refuses it: {e}", v.id()),
    };
    let _ = game.board_view();
    let _ = game.move_views();
    let _ = game.in_check();
    let _ = game.outcome();
    let legal = game.legal_moves().to_vec();
    assert_round_trips(v, game.position(), &legal, MOVES_CHECKED);
    let restored = Game::restore(v, &game.fen(), &game.history_string()).expect("restore");
    assert_eq!(restored.legal_moves(), game.legal_moves());
    for &m in legal.iter().take(MOVES_CHECKED) {
        let mut next = game.clone();
        next.play(&m);
        let _ = next.board_view();
        let _ = next.move_views();
        let nfen = next.fen();
        let reread = v.parse_fen(&nfen).unwrap_or_else(|e| {
            panic!("{}: after {m:?} from “{fen}”: “{nfen}” fails: {e}", v.id())
        });
        assert_eq!(v.fen(&reread), nfen);
    }
}

/// Deep enough for promotions, drops and repetitions; shallow enough to
/// keep each execution short.
pub const MAX_PLIES: usize = 100;

/// Parse then play: reach a random position by playing legal moves chosen
/// by the input, then feed the rest as move texts (one per line).
///
/// Layout: variant byte, ply count byte (at most [`MAX_PLIES`]), one byte
/// per ply choosing among the legal moves, then text.
pub fn parse_then_play(data: &[u8]) {
    let Some((v, rest)) = split_variant(data) else {
        return;
    };
    let Some((&plies, rest)) = rest.split_first() else {
        return;
    };
    let plies = (plies as usize).min(MAX_PLIES).min(rest.len());
    let (choices, tail) = rest.split_at(plies);
    let mut game = start(v);
    for &c in choices {
        let legal = game.legal_moves().to_vec();
        if legal.is_empty() {
            break;
        }
        let m = legal[c as usize % legal.len()];
        let display = game.format(&m, Notation::Display);
        let played = game
            .play_text(&display)
            .unwrap_or_else(|e| panic!("{}: own move “{display}” refused: {e}", v.id()));
        assert_eq!(played.mv, m, "{}: “{display}” read as another move", v.id());
    }
    let legal = game.legal_moves().to_vec();
    assert_round_trips(v, game.position(), &legal, MOVES_CHECKED);
    let fen = game.fen();
    let reread = v
        .parse_fen(&fen)
        .unwrap_or_else(|e| panic!("{}: reached “{fen}”, which fails: {e}", v.id()));
    assert_eq!(v.fen(&reread), fen);
    let restored = Game::restore(v, &fen, &game.history_string()).expect("restore");
    assert_eq!(restored.legal_moves(), game.legal_moves());
    let _ = game.board_view();
    for line in text(tail).split('\n') {
        let before = game.legal_moves().to_vec();
        match game.play_text(line) {
            Ok(played) => assert!(
                before.contains(&played.mv),
                "{}: “{line}” played an illegal move",
                v.id()
            ),
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
    let _ = game.move_views();
}

/// Record reader: arbitrary text as a PGN or a Game Courier log (the input
/// names its own variant, so no variant byte). Whatever reads and checks as
/// a game is written out in both formats, with the tags the server writes,
/// and each reads back and checks as the same game.
pub fn record_reader(data: &[u8]) {
    use missive_rules::record::{self, Export};
    let input = text(data);
    // Every game of a PGN file is read; the first is checked.
    let _ = record::parse_pgn(&input);
    let Ok(rec) = record::parse_any(&input) else {
        return;
    };
    let Ok(game) = record::check(&rec, missive_rules::variant) else {
        return;
    };
    let roster = ["Event", "Site", "Date", "Round", "White", "Black"];
    let export = Export {
        variant: game.variant(),
        start_fen: rec.start_fen(),
        tags: rec
            .tags
            .iter()
            .filter(|(k, _)| roster.contains(&k.as_str()))
            .cloned()
            .collect(),
        moves: rec.moves.clone(),
        result: rec.result.clone().unwrap_or_else(|| "*".into()),
    };
    for written in [record::write_pgn(&export), record::write_gc_log(&export)] {
        let back = record::parse_any(&written)
            .unwrap_or_else(|e| panic!("a written record does not read: {e}\n{written}"));
        let again = record::check(&back, missive_rules::variant)
            .unwrap_or_else(|e| panic!("a written record does not check: {e}\n{written}"));
        assert_eq!(again.fen(), game.fen(), "{written}");
        assert_eq!(again.ply(), game.ply(), "{written}");
    }
}
