//! Round robins: every player meets every other once (twice in a double
//! round robin).
//!
//! [`round_robin`] reproduces the FIDE Berger tables (Handbook C.05, annex 1) with players numbered
//! from 0 instead of 1: the table for an even `N` pairs the fixed player `N` with the others on board
//! 1, and every other seat moves on by `N/2` (modulo `N - 1`) from one round to the next. An odd field
//! uses the table of the next even size; whoever meets the phantom player has a bye.

use crate::domain::pairing::Pairing;

/// Berger tables for players 0..n in seed order; for odd n one player has a bye each round.
/// n-1 rounds for even n, n rounds for odd n; every pair meets exactly once; colours as balanced as
/// Berger gives.
pub fn round_robin(n: usize) -> Vec<Vec<Pairing>> {
    if n == 0 {
        return Vec::new();
    }
    // `big` is the fixed player of the table; for odd fields it is the phantom that gives the bye.
    let size = n + n % 2;
    let big = size - 1;
    let step = size / 2;
    (0..big)
        .map(|round| {
            let seat = |start: usize| (start + round * step) % big;
            let mut boards = Vec::with_capacity(step);
            let other = seat(0);
            boards.push(if big == n {
                Pairing::Bye(other)
            } else if round % 2 == 0 {
                Pairing::Game {
                    white: other,
                    black: big,
                }
            } else {
                Pairing::Game {
                    white: big,
                    black: other,
                }
            });
            for board in 1..step {
                boards.push(Pairing::Game {
                    white: seat(board),
                    black: seat(big - board),
                });
            }
            boards
        })
        .collect()
}

/// Two cycles, the second with colours reversed.
pub fn double_round_robin(n: usize) -> Vec<Vec<Pairing>> {
    let first = round_robin(n);
    let second: Vec<Vec<Pairing>> = first
        .iter()
        .map(|round| {
            round
                .iter()
                .map(|p| match *p {
                    Pairing::Game { white, black } => Pairing::Game {
                        white: black,
                        black: white,
                    },
                    bye => bye,
                })
                .collect()
        })
        .collect();
    first.into_iter().chain(second).collect()
}
