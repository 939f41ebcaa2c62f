//! What a legend needs, asked of the rules engine itself: the piece types a
//! variant defines, a movement diagram for each (the piece alone on the
//! variant's own board, its destinations found by the variant's own move
//! generator, so a diagram can never disagree with the rules). What a
//! board should show beyond pieces (Lionized pieces, craters, Nukes held)
//! each variant says itself ([`Variant::state_marks`],
//! [`Variant::held_counters`]).

use crate::geometry::Square;
use crate::piece::{Color, Kind, Piece};
use crate::position::{Position, MAX_KINDS};
use crate::variant::{PieceLabel, Variant};

/// One piece type of a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceType {
    pub kind: Kind,
    /// Belongs to nobody (Maohopper's Stone).
    pub neutral: bool,
    /// The label of the first side's piece (of the neutral piece).
    pub label: PieceLabel,
    /// The second side's FEN letter (`n` for `N`).
    pub black_letter: String,
}

/// Every piece type the variant defines, in its own kind order.
pub fn piece_types(variant: &dyn Variant) -> Vec<PieceType> {
    let Ok(start) = variant.parse_fen(variant.start_fen()) else {
        return Vec::new();
    };
    (0..variant.kind_count().min(MAX_KINDS))
        .map(|k| {
            let kind = k as Kind;
            let neutral = start
                .pieces()
                .any(|(_, p)| p.kind == kind && p.color == Color::Neutral);
            let color = if neutral {
                Color::Neutral
            } else {
                Color::White
            };
            let mut label = variant.piece_label(Piece::new(kind, color));
            label.symbol = label.symbol_or_letter();
            let black_letter = if neutral {
                label.letter.clone()
            } else {
                variant.piece_label(Piece::new(kind, Color::Black)).letter
            };
            PieceType {
                kind,
                neutral,
                label,
                black_letter,
            }
        })
        .collect()
}

/// A movement diagram: the variant's board with one piece of the first
/// side on `centre`, and where its legal moves go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    pub width: u8,
    pub height: u8,
    /// The board's own holes.
    pub holes: Vec<Square>,
    pub centre: Square,
    /// Pieces placed for the piece to hop over or pivot on (empty when it
    /// moves without them).
    pub screens: Vec<Square>,
    /// Empty squares it may move to.
    pub moves: Vec<Square>,
    /// Squares where it captures an enemy piece standing there alone.
    pub captures: Vec<Square>,
}

impl Diagram {
    /// Whether the piece moves at all in the diagram.
    pub fn is_still(&self) -> bool {
        self.moves.is_empty() && self.captures.is_empty()
    }
}

/// The squares that are not holes, nearest the middle of the board first.
fn centres(pos: &Position) -> Vec<Square> {
    let (cx, cy) = ((pos.width as i16 - 1) / 2, (pos.height as i16 - 1) / 2);
    let mut out: Vec<Square> = pos.squares().filter(|&s| !pos.is_hole(s)).collect();
    out.sort_by_key(|s| {
        let (dx, dy) = (s.file() as i16 - cx, s.rank() as i16 - cy);
        (dx * dx + dy * dy, s.rank(), s.file())
    });
    out
}

/// Where the legal moves from `from` go (turns in place left out).
fn destinations(variant: &dyn Variant, pos: &Position, from: Square) -> Vec<Square> {
    let mut out: Vec<Square> = variant
        .legal_moves(pos)
        .iter()
        .filter_map(|m| match variant.move_squares(m) {
            (Some(f), to) if f == from && to != from => Some(to),
            _ => None,
        })
        .collect();
    out.sort_by_key(|s| (s.rank(), s.file()));
    out.dedup();
    out
}

/// The start position emptied: no pieces, hands, rights or counters.
fn empty_board(start: &Position) -> Position {
    let mut pos = start.clone();
    let squares: Vec<Square> = pos.squares().collect();
    for sq in squares {
        pos.set(sq, None);
    }
    pos.hands = [[0; MAX_KINDS]; 2];
    pos.side = Color::White;
    pos.castling = 0;
    pos.ep = None;
    pos.halfmove = 0;
    pos.fullmove = 1;
    pos.counters = [0; 2];
    pos.royal = [None; 2];
    pos
}

/// `base` with `piece` on `centre`, the `extra` pieces, each side's royal
/// piece (when the variant has them) and the `companions` (a piece of the
/// second side's beside its royal, so neither side is bare where a bare
/// King loses; the pieces an extinction rule needs), each put in turn where the piece moves most freely (the
/// engine is asked, not guessed) among the squares farthest from it.
fn with_royals(
    variant: &dyn Variant,
    base: &Position,
    royals: [Option<Piece>; 2],
    centre: Square,
    piece: Piece,
    extra: &[(Square, Piece)],
    companions: &[Piece],
) -> Position {
    let mut pos = base.clone();
    pos.set(centre, Some(piece));
    for &(s, p) in extra {
        pos.set(s, Some(p));
    }
    // What to place: (piece, the royal index it fills).
    let mut todo: Vec<(Piece, Option<usize>)> = Vec::new();
    for (i, r) in royals.iter().enumerate() {
        match r {
            Some(r) if i == 0 && r.kind == piece.kind => pos.royal[0] = Some(centre),
            Some(r) => todo.push((*r, Some(i))),
            None => {}
        }
    }
    todo.extend(companions.iter().map(|&c| (c, None)));
    for (p, royal) in todo {
        let mut far: Vec<Square> = pos
            .squares()
            .filter(|&s| pos.is_empty_square(s))
            .filter(|&s| {
                // Royal pieces never side by side.
                royal.is_none()
                    || pos.royal.iter().flatten().all(|r| {
                        (r.file() as i16 - s.file() as i16).abs() > 1
                            || (r.rank() as i16 - s.rank() as i16).abs() > 1
                    })
            })
            .collect();
        far.sort_by_key(|s| {
            let (dx, dy) = (
                s.file() as i16 - centre.file() as i16,
                s.rank() as i16 - centre.rank() as i16,
            );
            (-(dx * dx + dy * dy), s.rank(), s.file())
        });
        far.truncate(10);
        // Never where the piece could move (an enemy King there would be
        // "a move" to a square no capture is found on, the far end of a
        // Bishop's or Queen's line marked as a move only); then where it
        // has the most moves.
        let mut best: Option<((bool, usize), Position)> = None;
        for s in far {
            let mut q = pos.clone();
            q.set(s, Some(p));
            if let Some(i) = royal {
                q.royal[i] = Some(s);
            }
            let to = destinations(variant, &q, centre);
            let score = (!to.contains(&s), to.len());
            if best.as_ref().is_none_or(|(m, _)| score > *m) {
                best = Some((score, q));
            }
        }
        if let Some((_, q)) = best {
            pos = q;
        }
    }
    pos
}

/// The movement diagram of `kind`, or `None` for a piece that belongs to
/// nobody (it never moves by itself) or a variant whose start cannot be read.
pub fn movement_diagram(variant: &dyn Variant, kind: Kind) -> Option<Diagram> {
    let start = variant.parse_fen(variant.start_fen()).ok()?;
    let squares = centres(&empty_board(&start));
    let first = diagram_at(variant, &start, kind, *squares.first()?)?;
    if !first.is_still() {
        return Some(first);
    }
    // The middle may be where the game ends (Jeson Mor's e5: a Knight
    // there has already won): the next squares out.
    squares
        .iter()
        .skip(1)
        .take(4)
        .filter_map(|&c| diagram_at(variant, &start, kind, c))
        .find(|d| !d.is_still())
        .or(Some(first))
}

/// The movement diagram of `kind` with the piece on `centre`.
fn diagram_at(
    variant: &dyn Variant,
    start: &Position,
    kind: Kind,
    centre: Square,
) -> Option<Diagram> {
    let types = piece_types(variant);
    let this = types.iter().find(|t| t.kind == kind)?;
    if this.neutral {
        return None;
    }
    let royals = [0, 1].map(|i| start.royal[i].and_then(|s| start.get(s)));
    let is_royal = |k: Kind| royals.iter().flatten().any(|r| r.kind == k);
    let base = empty_board(start);
    let piece = Piece::new(kind, Color::White);
    // The enemy put on each square in turn to find captures: the same kind,
    // or, for a royal piece, the first kind that is neither royal nor neutral.
    let victim_kind = if is_royal(kind) {
        types
            .iter()
            .find(|t| !t.neutral && !is_royal(t.kind))
            .map_or(kind, |t| t.kind)
    } else {
        kind
    };
    // Pieces to hop over: a neutral piece where the variant has one,
    // otherwise one of the mover's own.
    let screen_piece = types
        .iter()
        .find(|t| t.neutral)
        .map(|t| Piece::new(t.kind, Color::Neutral))
        .unwrap_or(Piece::new(victim_kind, Color::White));
    let screen_squares: Vec<Square> = [(0, 1), (-1, 0), (2, -1)]
        .iter()
        .filter_map(|&(dx, dy)| base.step(centre, dx, dy))
        .filter(|&s| !base.is_hole(s))
        .collect();
    let companion = vec![Piece::new(victim_kind, Color::Black)];
    // One of each kept kind for each side, the diagram's own piece
    // counting for its side.
    let kept: Vec<Piece> = variant
        .kept_kinds()
        .into_iter()
        .flat_map(|k| [Piece::new(k, Color::White), Piece::new(k, Color::Black)])
        .filter(|p| *p != piece)
        .collect();
    let run = |screens: &[Square], companions: &[Piece]| -> Diagram {
        let extra: Vec<(Square, Piece)> = screens.iter().map(|&s| (s, screen_piece)).collect();
        let pos = with_royals(variant, &base, royals, centre, piece, &extra, companions);
        let moves = destinations(variant, &pos, centre);
        let mut captures = Vec::new();
        let free: Vec<Square> = pos.squares().filter(|&s| pos.is_empty_square(s)).collect();
        for t in free {
            let mut p = pos.clone();
            p.set(t, Some(Piece::new(victim_kind, Color::Black)));
            if destinations(variant, &p, centre).contains(&t) {
                captures.push(t);
            }
        }
        Diagram {
            width: base.width,
            height: base.height,
            holes: variant.geometry().holes.iter().collect(),
            centre,
            screens: screens.to_vec(),
            moves,
            captures,
        }
    };
    // The piece alone; where that shows no move (a bare King has lost),
    // with a companion for the other side; then with screens to hop over.
    let size = |d: &Diagram| d.moves.len() + d.captures.len();
    let mut best = run(&[], &[]);
    let mut tries: Vec<(&[Square], &[Piece])> = Vec::new();
    if royals.iter().any(Option::is_some) {
        tries.push((&[], &companion));
    }
    if !kept.is_empty() {
        tries.push((&[], &kept));
    }
    if !screen_squares.is_empty() {
        tries.push((&screen_squares, &[]));
        tries.push((&screen_squares, &companion));
    }
    for &(screens, companion) in &tries {
        if !best.moves.is_empty() {
            break;
        }
        let d = run(screens, companion);
        if d.moves.len() > best.moves.len() || best.moves.is_empty() && size(&d) > size(&best) {
            best = d;
        }
    }
    // A piece that moves alone but captures only with other pieces about
    // (Fleap's Ballista moves like a short Queen, and captures without
    // moving where an Equihopper would land): shown beside the screens,
    // where the engine finds its captures too.
    if best.captures.is_empty() && !best.moves.is_empty() {
        for (screens, companion) in tries.into_iter().filter(|(s, _)| !s.is_empty()) {
            let d = run(screens, companion);
            if !d.captures.is_empty() && !d.moves.is_empty() {
                best = d;
                break;
            }
        }
    }
    if best.is_still() {
        if let Some(d) = in_start_position(variant, start, centre, piece, victim_kind) {
            best = d;
        }
    }
    Some(best)
}

/// The piece on `centre` of the start position itself: for variants whose
/// game is over on a nearly empty board (three kings' extinction rule
/// counts the kings a side still has, so a lone piece has already lost).
fn in_start_position(
    variant: &dyn Variant,
    start: &Position,
    centre: Square,
    piece: Piece,
    victim: Kind,
) -> Option<Diagram> {
    if !start.is_empty_square(centre) {
        return None;
    }
    let mut pos = start.clone();
    pos.side = Color::White;
    pos.set(centre, Some(piece));
    let moves = destinations(variant, &pos, centre);
    let captures = pos
        .squares()
        .filter(|&t| pos.is_empty_square(t))
        .filter(|&t| {
            let mut p = pos.clone();
            p.set(t, Some(Piece::new(victim, Color::Black)));
            destinations(variant, &p, centre).contains(&t)
        })
        .collect();
    Some(Diagram {
        width: pos.width,
        height: pos.height,
        holes: variant.geometry().holes.iter().collect(),
        centre,
        screens: Vec::new(),
        moves,
        captures,
    })
}

/// The name of Fleap's counters ([`Variant::held_counters`]).
pub const NUKE: &str = crate::variants::fleap::NUKE_NAME;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{self, fleap, maohopper};

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// Each listed kind is one the variant's FEN reads and writes back, with
    /// its own letter and name; every kind of the start position is listed.
    #[test]
    fn piece_types_are_the_kinds_the_variant_reads_and_writes() {
        for v in variants::registry() {
            let types = piece_types(*v);
            assert!(!types.is_empty(), "{}", v.id());
            let start = v.parse_fen(v.start_fen()).unwrap();
            for (_, p) in start.pieces() {
                assert!(types.iter().any(|t| t.kind == p.kind), "{}", v.id());
            }
            let mut letters: Vec<&str> = types.iter().map(|t| t.label.letter.as_str()).collect();
            letters.sort();
            letters.dedup();
            assert_eq!(letters.len(), types.len(), "{}: letters", v.id());
            let mut names: Vec<&str> = types.iter().map(|t| t.label.name.as_str()).collect();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), types.len(), "{}: names", v.id());
            let mut read_back = 0;
            for t in &types {
                // Put the piece on the start position's emptiest rank and
                // read the FEN back: the engine knows the kind.
                let mut pos = start.clone();
                // (Dobutsu's four ranks have no such rank: one rank in from
                // either end will do.)
                let away = |n: u8| {
                    pos.squares().find(|&s| {
                        pos.is_empty_square(s)
                            && pos.relative_rank(s, Color::White) > n
                            && pos.relative_rank(s, Color::Black) > n
                    })
                };
                let Some(free) = away(1).or_else(|| away(0)) else {
                    continue;
                };
                let color = if t.neutral {
                    Color::Neutral
                } else {
                    Color::Black
                };
                pos.set(free, Some(Piece::new(t.kind, color)));
                let fen = v.fen(&pos);
                if let Ok(back) = v.parse_fen(&fen) {
                    read_back += 1;
                    assert_eq!(
                        back.get(free).map(|p| p.kind),
                        Some(t.kind),
                        "{} {}",
                        v.id(),
                        t.label.name
                    );
                }
            }
            // Fleap's Kings are refused on a board where the other side has
            // none, and `leap-chess-multi` holds a side to its 16 start
            // pieces; every other kind reads back.
            if v.id() != "leap-chess-multi" {
                assert!(read_back + 1 >= types.len(), "{}: {read_back}", v.id());
            }
        }
    }

    /// `cargo test -p missive-rules --lib print_diagrams -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn print_diagrams() {
        for v in variants::registry() {
            for t in piece_types(*v) {
                println!("{} {} ({}):", v.id(), t.label.name, t.label.letter);
                let Some(d) = movement_diagram(*v, t.kind) else {
                    continue;
                };
                for r in (0..d.height).rev() {
                    let row: String = (0..d.width)
                        .map(|f| {
                            let s = Square::new(f, r);
                            if s == d.centre {
                                '@'
                            } else if d.holes.contains(&s) {
                                ' '
                            } else if d.screens.contains(&s) {
                                '#'
                            } else {
                                match (d.moves.contains(&s), d.captures.contains(&s)) {
                                    (true, true) => '*',
                                    (true, false) => 'o',
                                    (false, true) => 'x',
                                    _ => '.',
                                }
                            }
                        })
                        .collect();
                    println!("  {row}");
                }
            }
        }
    }

    #[test]
    fn chess_diagrams_are_the_familiar_ones() {
        let chess = crate::variant("chess").unwrap();
        let d = |k| movement_diagram(chess, k).unwrap();
        // Knight on d4: 8 squares, captures on the same.
        let n = d(1);
        assert_eq!(n.centre, sq("d4"));
        assert_eq!(n.moves.len(), 8);
        assert_eq!(n.moves, n.captures);
        assert!(n.screens.is_empty());
        // Queen: 27 squares from d4 (no king in her way).
        assert_eq!(d(4).moves.len(), 27);
        // Pawn: one step forward, captures diagonally forward.
        let p = d(0);
        assert_eq!(p.moves, vec![sq("d5")]);
        assert_eq!(p.captures, vec![sq("c5"), sq("e5")]);
        // King: 8 steps.
        assert_eq!(d(5).moves.len(), 8);
    }

    #[test]
    fn every_piece_of_every_variant_has_a_diagram() {
        for v in variants::registry() {
            for t in piece_types(*v) {
                let d = movement_diagram(*v, t.kind);
                if t.neutral {
                    assert!(d.is_none());
                    continue;
                }
                let d = d.unwrap_or_else(|| panic!("{} {}", v.id(), t.label.name));
                let still = matches!(t.label.name.as_str(), "Flag");
                assert_eq!(d.is_still(), still, "{} {}: {d:?}", v.id(), t.label.name);
            }
        }
    }

    #[test]
    fn hoppers_get_screens() {
        let mao = crate::variant("maohopper").unwrap();
        let d = movement_diagram(mao, maohopper::MAOHOPPER).unwrap();
        assert!(!d.screens.is_empty());
        // Over the Stone above e5: d7 and f7.
        assert!(d.moves.contains(&sq("d7")) && d.moves.contains(&sq("f7")));
    }

    /// The Ballista's quiet moves (a Queen's of up to two squares) and its
    /// rifle captures (where an Equihopper would land, over the screens)
    /// both show, and differ.
    #[test]
    fn ballista_shows_moves_and_captures() {
        let fleap = crate::variant("fleap").unwrap();
        let d = movement_diagram(fleap, fleap::BALLISTA).unwrap();
        assert_eq!(d.centre, sq("d4"));
        assert!(!d.screens.is_empty(), "{d:?}");
        assert!(!d.captures.is_empty(), "{d:?}");
        // Over the screen on d5 to d7: a capture, not a move.
        assert!(d.captures.contains(&sq("d6")), "{d:?}");
        assert!(!d.moves.contains(&sq("d6")), "{d:?}");
        // A short Queen's step where nothing is in the way: a move only.
        assert!(d.moves.contains(&sq("e5")) && d.moves.contains(&sq("f6")));
        assert!(!d.captures.contains(&sq("e5")), "{d:?}");
    }

    /// Every piece that captures at all in its variant shows a capture in
    /// its diagram (none of them is left showing quiet moves only).
    #[test]
    fn pieces_that_capture_show_captures() {
        for v in variants::registry() {
            for t in piece_types(*v) {
                let Some(d) = movement_diagram(*v, t.kind) else {
                    continue;
                };
                // A definition's piece may be move-only (Fox and Hounds):
                // its moves are checked against Fairy-Stockfish by
                // `tests/fsf_variants.rs`.
                if v.piece_betza(t.kind).is_some() {
                    continue;
                }
                // Never capture: the Flag (never moves), the Mason, the Lionizer.
                let never = matches!(t.label.name.as_str(), "Flag" | "Mason" | "Lionizer");
                assert_eq!(
                    d.captures.is_empty(),
                    never,
                    "{} {}: {d:?}",
                    v.id(),
                    t.label.name
                );
            }
        }
    }

    #[test]
    fn lionized_pieces_and_craters_are_marked() {
        let lion = crate::variant("lionized-chess").unwrap();
        // The White Lionizer on d1 sees the Mammoth c1 and the King's
        // neighbours; d2 is a Pawn, so the Mammoth (and nothing else on
        // rank 1 but the adjacent pieces) is Lionized.
        let pos = lion.parse_fen(lion.start_fen()).unwrap();
        let marks = lion.state_marks(&pos);
        assert!(marks.contains(&(sq("c1"), "lionized")), "{marks:?}");
        let fleap = crate::variant("fleap").unwrap();
        let mut pos = fleap.parse_fen(fleap.start_fen()).unwrap();
        assert!(fleap.state_marks(&pos).is_empty());
        pos.make_hole(sq("d4"));
        assert_eq!(fleap.state_marks(&pos), vec![(sq("d4"), "crater")]);
        let held = fleap.held_counters(&pos);
        assert_eq!(held.len(), 2);
        assert!(held.iter().all(|h| h.count == 1 && h.label.name == NUKE));
        assert!(lion.held_counters(&pos).is_empty());
    }
}
