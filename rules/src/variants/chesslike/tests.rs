//! [`ChessLike`] checked on its instances, FIDE chess and the Leap Chess
//! family: its notation, and the bitboard engine (`small_board`) it runs
//! on against its square-by-square generator. Apart, so that neither the
//! machinery nor the bitboard engine names the variants built on them.

use super::explain::ChessExplain;
use super::ChessLike;
use crate::moves::Move;
use crate::notation;
use crate::position::Position;
use crate::variants::chess::Chess;
use crate::variants::leap_chess::LeapChess;

/// The bitboard engine's check marks are the ones each move played out
/// on a [`Position`] gets: over random games and positions with checks,
/// mates, promotions, en passant and castling into check.
#[test]
fn check_marks_from_the_bitboards_are_those_of_each_move_played() {
    let chess = Chess::new();
    let v = &chess.0;
    let positions = notation::positions_to_read_in(
        &chess,
        &[
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 0 1",
            "3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1",
            "8/2P1k3/8/8/8/8/8/4K3 w - - 0 1",
            "8/8/8/2k5/3pP3/8/8/4K2B b - e3 0 1",
            "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
        ],
        40,
    );
    let (mut checks, mut mates) = (0, 0);
    for pos in &positions {
        let legal = v.legal_moves(pos);
        let fast = v
            .tables()
            .and_then(|t| t.check_marks(pos))
            .expect("the bitboards model chess");
        let moves: Vec<Move> = fast.iter().map(|(m, _)| *m).collect();
        assert_eq!(moves, legal, "{}", v.fen(pos));
        for (m, mark) in &fast {
            assert_eq!(*mark, v.check_mark(pos, m), "{} {m:?}", v.fen(pos));
            checks += usize::from(*mark == "+");
            mates += usize::from(*mark == "#");
        }
    }
    assert!(checks > 100 && mates >= 3, "{checks} checks, {mates} mates");
}

/// What reading among the named moves rests on holds for chess: every
/// form of every move but a castling names its destination, and a form
/// reads the same whether the named moves are tried first or not.
#[test]
fn a_move_is_read_among_the_moves_to_the_squares_its_text_names() {
    let chess = Chess::new();
    let positions = notation::positions_to_read_in(
        &chess,
        &[
            "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "4k3/1P6/8/8/8/2N3N1/8/N1N1N1NK w - - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
        ],
        30,
    );
    let v = &chess.0;
    let checked = notation::check_candidates_read_among_named(
        &chess,
        &positions,
        |pos, legal| v.candidates(pos, legal),
        notation::is_castling,
        |pos, legal, cands, text| {
            let explain = ChessExplain { v, pos, legal };
            notation::read_move(text, cands, &explain).map(|i| legal[i])
        },
    );
    assert!(checked > 10_000, "{checked}");
}

/// Every position `depth` plies below `pos`, each once per path.
fn tree(v: &ChessLike, pos: &Position, depth: u32, out: &mut Vec<Position>) {
    out.push(pos.clone());
    if depth > 0 {
        for m in v.legal_moves(pos) {
            tree(v, &v.play(pos, &m), depth - 1, out);
        }
    }
}

/// The bitboard engine and the square-by-square generator it stands in
/// for list the same legal moves, position by position, so the perft
/// suites that now run on the first also vouch for the second where it
/// still serves.
#[test]
fn bitboards_agree_with_square_by_square_generation() {
    use crate::variants::leap_chess::{START_44, START_64};
    let cases: Vec<(ChessLike, Vec<(&str, u32)>)> = vec![
        (
            Chess::new().0,
            vec![
                (crate::variants::chess::START, 3),
                (
                    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                    2,
                ),
                ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3),
                (
                    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                    2,
                ),
            ],
        ),
        (
            LeapChess::standard().base,
            vec![
                (START_44, 4),
                (
                    "*n1kn*/1p1bpr/p2ppp/p5/4P1/PP1P2/RP1BPR/*N1KN* w KQkq - 0 7",
                    3,
                ),
            ],
        ),
        (LeapChess::optional().base, vec![(START_44, 3)]),
        (LeapChess::sixty_four().base, vec![(START_64, 2)]),
    ];
    let mut checked = 0;
    for (v, fens) in &cases {
        for (fen, depth) in fens {
            let mut positions = Vec::new();
            tree(v, &v.parse_fen(fen).unwrap(), *depth, &mut positions);
            for pos in &positions {
                let sorted = |moves: Vec<crate::moves::Move>| {
                    let mut s: Vec<String> = moves.iter().map(|m| format!("{m:?}")).collect();
                    s.sort();
                    s
                };
                assert_eq!(
                    sorted(v.legal_moves(pos)),
                    sorted(v.legal_moves_square_by_square(pos)),
                    "{}: {}",
                    v.id,
                    v.fen(pos)
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}
