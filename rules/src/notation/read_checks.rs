//! Test support for the variants' readers: checks that reading among the
//! moves a text names finds what reading among all the moves finds. Apart
//! because it is test code, compiled only for tests.

use super::Candidate;
use crate::errors::MoveError;
use crate::moves::Move;

/// For the variants' tests of
/// [`exact_among_named`](super::exact_among_named): the positions of
/// `fens`, and along `games` random games of 80 plies from the start (a
/// fixed sequence), where checks, promotions, drops and crowded
/// disambiguations turn up.
pub(crate) fn positions_to_read_in(
    v: &dyn crate::variant::Variant,
    fens: &[&str],
    games: usize,
) -> Vec<crate::position::Position> {
    let mut out: Vec<_> = fens.iter().map(|f| v.parse_fen(f).unwrap()).collect();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..games {
        let mut pos = v.parse_fen(v.start_fen()).unwrap();
        for _ in 0..80 {
            let legal = v.legal_moves(&pos);
            if legal.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos = v.play(&pos, &legal[(seed >> 33) as usize % legal.len()]);
            out.push(pos.clone());
        }
    }
    out
}

/// [`check_reading_among_named`] for a variant whose reader works from
/// [`Candidate`]s: `candidates` writes them for a position's legal moves,
/// and `full` reads a text among all of them as the reader did before.
pub(crate) fn check_candidates_read_among_named(
    v: &dyn crate::variant::Variant,
    positions: &[crate::position::Position],
    candidates: impl Fn(&crate::position::Position, &[Move]) -> Vec<Candidate>,
    always: impl Fn(&Move) -> bool,
    full: impl Fn(&crate::position::Position, &[Move], &[Candidate], &str) -> Result<Move, MoveError>,
) -> usize {
    let lists: Vec<(Vec<Move>, Vec<Candidate>)> = positions
        .iter()
        .map(|pos| {
            let legal = v.legal_moves(pos);
            let cands = candidates(pos, &legal);
            (legal, cands)
        })
        .collect();
    check_reading_among_named(
        lists.iter().map(|(legal, cands)| {
            (
                legal.clone(),
                cands.iter().map(|c| c.forms.clone()).collect(),
            )
        }),
        always,
        |p, text| v.parse_move(&positions[p], &lists[p].0, text),
        |p, text| full(&positions[p], &lists[p].0, &lists[p].1, text),
    )
}

/// For the variants' tests of
/// [`exact_among_named`](super::exact_among_named): over `positions`
/// (each with its legal moves and their written forms, in order), every form
/// of every move that `always` does not keep names the move's destination,
/// and every form, as written, padded and marked, or spaced out, reads as
/// that move both through `parse` (the variant's reader) and through
/// `full` (reading among all the moves). Returns how many texts.
pub(crate) fn check_reading_among_named(
    positions: impl IntoIterator<Item = (Vec<Move>, Vec<Vec<String>>)>,
    always: impl Fn(&Move) -> bool,
    parse: impl Fn(usize, &str) -> Result<Move, MoveError>,
    full: impl Fn(usize, &str) -> Result<Move, MoveError>,
) -> usize {
    let mut checked = 0;
    for (p, (legal, forms)) in positions.into_iter().enumerate() {
        for (m, forms) in legal.iter().zip(&forms) {
            for f in forms {
                assert!(
                    always(m) || m.to.is_named_in(f),
                    "{f} does not name {}",
                    m.to
                );
                for text in [f.clone(), format!("  {f}! "), f.replace(' ', "  ")] {
                    let all = full(p, &text);
                    assert_eq!(all.as_ref(), Ok(m), "{text}");
                    assert_eq!(parse(p, &text), all, "{text}");
                    checked += 1;
                }
            }
        }
    }
    checked
}
